//! The YAML that `settings.yaml` and `strategy.yaml` are written in, read into and written from
//! a JSON tree (the typed readers take it from there).
//!
//! Why our own: a full YAML library (libyaml ported to Rust plus its serde layer) was ~80 KB of
//! the browser's wasm, for two small configuration files. This reads the block YAML people write
//! for configuration — nested mappings and sequences by indentation, `# comments`, plain,
//! 'single' and "double" quoted scalars, one-line flow collections (`[a, b]`, `{k: v}`), literal
//! and folded block scalars (`|`, `>`, with `-`/`+` chomping), a leading `---`, explicit keys
//! of one scalar (`? key` then `: value`) — and says plainly, with the line, when a file uses
//! what it does not read (anchors, aliases, tags, several documents, multi-line flow
//! collections or quoted strings, plain values spread over several lines, single-pair mappings
//! inside `[…]`, nesting past [`MAX_DEPTH`]).
//!
//! **Scalars** (plain, i.e. unquoted, ones) resolve by the YAML 1.2 core schema, checked against
//! its grammar here and converted with std's `str::parse`:
//! - null: `null`, `Null`, `NULL`, `~`, empty;
//! - bool: `true|True|TRUE`, `false|False|FALSE` (YAML 1.1's `yes`/`no`/`on`/`off` are strings);
//! - int: `[-+]?[0-9]+` (decimal, so `007` is 7), `0o[0-7]+`, `0x[0-9a-fA-F]+`. Outside the
//!   64-bit range a decimal becomes the nearest float, as serde_json does for JSON text; an
//!   octal or hex one is an error;
//! - float: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`; `1.0` stays a float (JSON
//!   keeps `1.0` and `1` apart). `.inf`, `-.inf`, `.nan` and a literal too large for a float
//!   are errors naming the line, since JSON has no infinity or NaN: quote them for the text;
//! - everything else is a string. Mapping keys are always their text (`1:` is the key `"1"`).
//!
//! **Nesting** of mappings and sequences (block or flow, counted together) is bounded by
//! [`MAX_DEPTH`] on reading and writing, so a hostile file cannot overflow the stack.
//!
//! **Writing** ([`write`]) gives block YAML that reads back to the same tree in this reader and
//! in any YAML 1.2 reader; strings that a YAML 1.1 reader (PyYAML) would take for a bool, null
//! or number are quoted too. A string is written plain only when it is plainly text (starts with
//! a letter, `_` or `/`, uses a small safe set of characters, is no keyword of 1.1 or 1.2);
//! otherwise it is "double quoted" with escapes for every control or invisible character.
//! Multi-line strings are `|` blocks when that spells them exactly; a key longer than YAML's
//! 1024-character limit for `key: value` is written `? key` / `: value`. Floats keep a `.` and a
//! signed exponent (`1.0e+300`) so that 1.1 readers take them for floats as well.
//! `tests/yaml_differential.rs` checks all this against the `yaml-rust2` crate on random trees
//! and on a corpus of the shapes documented in docs/audit.md.

use serde_json::{Map, Number, Value};

/// Deepest nesting of mappings and sequences that [`parse`] reads and [`write`] writes. Real
/// settings files nest four or five levels; the bound keeps recursion (and so the stack) small
/// whatever a file holds.
pub const MAX_DEPTH: usize = 64;

/// What is wrong with a YAML text, and on which line (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct YamlError {
    pub line: usize,
    pub message: String,
}

/// Why a tree cannot be written as YAML.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YamlWriteError {
    /// The tree nests deeper than [`MAX_DEPTH`], which [`parse`] would refuse to read back.
    #[error("nesting deeper than {MAX_DEPTH} levels")]
    TooDeep,
}

/// YAML's white space is the space and the tab only (YAML 1.2, 5.5 "White Space Characters");
/// a no-break space or another Unicode space is content, never trimmed.
const YAML_SPACE: [char; 2] = [' ', '\t'];

fn too_deep<T>(line: usize) -> Result<T, YamlError> {
    fail(line, format!("nesting deeper than {MAX_DEPTH} levels"))
}

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, YamlError> {
    Err(YamlError {
        line,
        message: message.into(),
    })
}

/// One source line: its number, indentation and text without the indentation.
#[derive(Clone, Copy)]
struct Line<'a> {
    number: usize,
    indent: usize,
    text: &'a str,
    raw: &'a str,
}

impl Line<'_> {
    /// Blank or comment-only: skipped everywhere except inside block scalars.
    fn is_blank(&self) -> bool {
        self.text.is_empty() || self.text.starts_with('#')
    }
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    at: usize,
    /// Mappings and sequences open around the current line.
    depth: usize,
}

/// Read a YAML text into a JSON tree. An empty text (or only comments) is `null`.
pub fn parse(text: &str) -> Result<Value, YamlError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let body = raw.trim_start_matches(' ');
        let indent = raw.len() - body.len();
        if body.starts_with('\t') && !body.trim_matches(YAML_SPACE).is_empty() {
            return fail(i + 1, "a tab in the indentation (YAML indents with spaces)");
        }
        lines.push(Line {
            number: i + 1,
            indent,
            text: body.trim_end_matches(YAML_SPACE),
            raw,
        });
    }
    let mut p = Parser {
        lines,
        at: 0,
        depth: 0,
    };
    p.skip_blank();
    if let Some(line) = p.peek() {
        if line.indent == 0 && (line.text == "---" || line.text.starts_with("--- ")) {
            let rest = line.text[3..].trim_start_matches(YAML_SPACE);
            if !rest.is_empty() && !rest.starts_with('#') {
                return fail(
                    line.number,
                    "content after `---` on the same line is not supported",
                );
            }
            p.at += 1;
            p.skip_blank();
        }
    }
    let value = match p.peek() {
        None => Value::Null,
        Some(line) => p.node(line.indent)?,
    };
    p.skip_blank();
    if let Some(line) = p.peek() {
        if line.indent == 0 && line.text == "..." {
            p.at += 1;
            p.skip_blank();
        }
    }
    match p.peek() {
        None => Ok(value),
        Some(line) if line.text.starts_with("---") => fail(
            line.number,
            "several documents in one file are not supported",
        ),
        Some(line) => fail(line.number, "unexpected text: check its indentation"),
    }
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<Line<'a>> {
        self.lines.get(self.at).copied()
    }

    fn skip_blank(&mut self) {
        while self.peek().is_some_and(|l| l.is_blank()) {
            self.at += 1;
        }
    }

    /// The next non-blank line, if it is indented at least `min`.
    fn next_at_least(&mut self, min: usize) -> Option<Line<'a>> {
        self.skip_blank();
        self.peek().filter(|l| l.indent >= min)
    }

    /// A block node whose first line is the current one, indented `indent`.
    fn node(&mut self, indent: usize) -> Result<Value, YamlError> {
        let Some(line) = self.peek() else {
            return Ok(Value::Null);
        };
        if is_sequence_entry(line.text) {
            self.sequence(indent)
        } else if is_explicit_key(line.text) || split_key(line.text, line.number)?.is_some() {
            self.mapping(indent)
        } else {
            self.at += 1;
            let value = inline_value(line.text, line.number, self.depth)?;
            if let Some(next) = self.next_at_least(indent + 1) {
                return fail(
                    next.number,
                    "a plain value spread over several lines is not supported: quote it or use `|`",
                );
            }
            Ok(value)
        }
    }

    /// One more level of nesting, refused past [`MAX_DEPTH`]. An error ends the whole parse, so
    /// only the successful paths leave through [`Self::leave`].
    fn enter(&mut self) -> Result<(), YamlError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let line = self.peek().map_or(self.lines.len(), |l| l.number);
            return too_deep(line);
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn mapping(&mut self, indent: usize) -> Result<Value, YamlError> {
        self.enter()?;
        let mut map = Map::new();
        while let Some(line) = self.next_at_least(indent) {
            if line.indent == 0 && is_document_marker(line.text) {
                break;
            }
            if line.indent > indent {
                return fail(line.number, "unexpected indentation");
            }
            let (key, rest, value_line) = if is_explicit_key(line.text) {
                // `? key` then `: value` at the same indentation: how a key past YAML's
                // 1024-character limit for `key: value` is written.
                let key = explicit_key(line.text, line.number)?;
                self.at += 1;
                let Some(colon) = self
                    .next_at_least(indent)
                    .filter(|l| l.indent == indent && (l.text == ":" || l.text.starts_with(": ")))
                else {
                    return fail(line.number, "expected a `: value` line after this `? key`");
                };
                (key, colon.text[1..].trim_start_matches(YAML_SPACE), colon)
            } else {
                let Some((key, rest)) = split_key(line.text, line.number)? else {
                    return fail(line.number, "expected `key: value` here");
                };
                (key, rest, line)
            };
            if map.contains_key(&key) {
                return fail(line.number, format!("duplicate key `{key}`"));
            }
            self.at += 1;
            let value = self.value_after_indicator(rest, indent, value_line, true)?;
            map.insert(key, value);
        }
        self.leave();
        Ok(Value::Object(map))
    }

    fn sequence(&mut self, indent: usize) -> Result<Value, YamlError> {
        self.enter()?;
        let mut items = Vec::new();
        while let Some(line) = self.next_at_least(indent) {
            if line.indent > indent {
                return fail(line.number, "unexpected indentation");
            }
            if !is_sequence_entry(line.text) {
                break;
            }
            let rest = line.text[1..].trim_start_matches(' ');
            let offset = line.indent + (line.text.len() - rest.len());
            let nested = is_sequence_entry(rest)
                || is_explicit_key(rest)
                || split_key(rest, line.number)?.is_some();
            if nested {
                // `- key: v` / `- - x`: the entry's node starts on this line, further in.
                self.lines[self.at] = Line {
                    indent: offset,
                    text: rest,
                    ..line
                };
                items.push(self.node(offset)?);
            } else {
                self.at += 1;
                items.push(self.value_after_indicator(rest, indent, line, false)?);
            }
        }
        self.leave();
        Ok(Value::Array(items))
    }

    /// The value after `key:` or `- `: inline, a block scalar, or a nested block below.
    fn value_after_indicator(
        &mut self,
        rest: &'a str,
        indent: usize,
        line: Line<'a>,
        in_mapping: bool,
    ) -> Result<Value, YamlError> {
        let rest = strip_comment(rest);
        if rest.starts_with('|') || rest.starts_with('>') {
            return self.block_scalar(rest, indent, line.number);
        }
        if !rest.is_empty() {
            return inline_value(rest, line.number, self.depth);
        }
        match self.next_at_least(indent) {
            Some(next) if next.indent > indent => self.node(next.indent),
            // `key:` followed by `- item` at the key's own indentation is a sequence too.
            Some(next) if in_mapping && next.indent == indent && is_sequence_entry(next.text) => {
                self.sequence(indent)
            }
            _ => Ok(Value::Null),
        }
    }

    fn block_scalar(
        &mut self,
        header: &str,
        parent: usize,
        number: usize,
    ) -> Result<Value, YamlError> {
        let folded = header.starts_with('>');
        let mut chomp = '=';
        let mut explicit = None;
        for c in header[1..].chars() {
            match c {
                '-' | '+' if chomp == '=' => chomp = c,
                '1'..='9' if explicit.is_none() => explicit = c.to_digit(10),
                _ => return fail(number, format!("unreadable block scalar header `{header}`")),
            }
        }
        // Every following line indented deeper than the parent (or blank) belongs to it.
        let start = self.at;
        let mut end = start;
        while let Some(l) = self.lines.get(end) {
            if l.text.is_empty() || l.indent > parent {
                end += 1;
            } else {
                break;
            }
        }
        let body = &self.lines[start..end];
        self.at = end;
        let content_indent = match explicit {
            Some(n) => parent + n as usize,
            None => body
                .iter()
                .find(|l| !l.text.is_empty())
                .map_or(parent + 1, |l| l.indent),
        };
        let mut rows: Vec<&str> = Vec::new();
        for l in body {
            if l.text.is_empty() {
                rows.push(l.raw.get(content_indent..).unwrap_or(""));
            } else if l.indent < content_indent {
                return fail(
                    l.number,
                    "this line is indented less than the block's first line",
                );
            } else {
                rows.push(&l.raw[content_indent..]);
            }
        }
        let trailing = rows.iter().rev().take_while(|r| r.is_empty()).count();
        let content = &rows[..rows.len() - trailing];
        let mut text = if folded {
            fold(content)
        } else {
            content.join("\n")
        };
        match chomp {
            '-' => {}
            '+' => {
                if !content.is_empty() {
                    text.push('\n');
                }
                text.push_str(&"\n".repeat(trailing));
            }
            _ => {
                if !content.is_empty() {
                    text.push('\n');
                }
            }
        }
        Ok(Value::String(text))
    }
}

/// Folded style: lines join with a space, a blank line is a newline, and more-indented lines
/// keep their line breaks.
fn fold(rows: &[&str]) -> String {
    let mut out = String::new();
    let mut prev_plain = false;
    for row in rows {
        let plain = !row.is_empty() && !row.starts_with(' ');
        if row.is_empty() {
            out.push('\n');
            prev_plain = false;
            continue;
        }
        if !out.is_empty() && !out.ends_with('\n') {
            out.push(if prev_plain && plain { ' ' } else { '\n' });
        }
        out.push_str(row);
        prev_plain = plain;
    }
    out
}

fn is_document_marker(text: &str) -> bool {
    text == "---" || text.starts_with("--- ") || text == "..."
}

fn is_explicit_key(text: &str) -> bool {
    text == "?" || text.starts_with("? ")
}

/// The key of a `? key` line: one quoted or plain scalar, taken as its text like other keys.
fn explicit_key(text: &str, number: usize) -> Result<String, YamlError> {
    let rest = strip_comment(text[1..].trim_start_matches(' '));
    if rest.starts_with(['"', '\'']) {
        let (key, used) = quoted(rest, number)?;
        if rest[used..].trim_matches(YAML_SPACE).is_empty() {
            return Ok(key);
        }
    } else if !rest.is_empty()
        && !rest.starts_with(['[', '{', '&', '*', '!', '|', '>', '-', '?', ':', '@', '`'])
        && !rest.contains(": ")
        && !rest.ends_with(':')
    {
        return Ok(rest.to_string());
    }
    fail(
        number,
        "a `? key` must be one scalar on its line (complex keys are not supported)",
    )
}

fn is_sequence_entry(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Cut a ` # comment` off a value (not inside quotes). A quote opens a quoted scalar only at
/// the start of a value (`it's` is plain text).
fn strip_comment(text: &str) -> &str {
    let mut quote = None;
    let mut prev = ' ';
    let mut value_start = true;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match quote {
            // `\"` inside "…" and `''` inside '…' do not close the string.
            Some('"') if c == '\\' => {
                chars.next();
            }
            Some('\'') if c == '\'' && chars.peek().is_some_and(|&(_, n)| n == '\'') => {
                chars.next();
            }
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if (c == '"' || c == '\'') && value_start => quote = Some(c),
            None if c == '#' && (prev == ' ' || prev == '\t') => {
                return text[..i].trim_end_matches(YAML_SPACE)
            }
            None => {}
        }
        if c != ' ' && c != '\t' {
            value_start = matches!(c, '[' | '{' | ',' | ':') && quote.is_none();
        }
        prev = c;
    }
    text.trim_end_matches(YAML_SPACE)
}

/// `key: rest` → the key and what follows the colon; `None` when the line is not a mapping entry.
fn split_key(text: &str, number: usize) -> Result<Option<(String, &str)>, YamlError> {
    if text.starts_with('"') || text.starts_with('\'') {
        let (key, used) = quoted(text, number)?;
        let after = &text[used..];
        return Ok(after
            .strip_prefix(':')
            .filter(|r| r.is_empty() || r.starts_with(' '))
            .map(|r| (key, r.trim_start_matches(YAML_SPACE))));
    }
    if text.starts_with(['[', '{', '#', '|', '>']) {
        return Ok(None);
    }
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && i > 0 && bytes[i - 1] == b' ' {
            return Ok(None);
        }
        if b == b':' && (i + 1 == bytes.len() || bytes[i + 1] == b' ') {
            let key = text[..i].trim_end_matches(YAML_SPACE);
            if key.is_empty() {
                return Ok(None);
            }
            if key.starts_with(['&', '*', '!', '?']) {
                return fail(
                    number,
                    "anchors, aliases, tags and complex keys are not supported",
                );
            }
            return Ok(Some((
                key.to_string(),
                text[i + 1..].trim_start_matches(YAML_SPACE),
            )));
        }
    }
    Ok(None)
}

/// A value written on one line: flow collection, quoted or plain scalar. `depth` is the
/// nesting already open around it.
fn inline_value(text: &str, number: usize, depth: usize) -> Result<Value, YamlError> {
    let text = strip_comment(text);
    if text.starts_with(['&', '*', '!']) {
        return fail(number, "anchors, aliases and tags are not supported");
    }
    if text.starts_with(['[', '{', '"', '\'']) {
        let mut flow = Flow {
            text,
            at: 0,
            number,
            depth,
        };
        let value = flow.value(false)?;
        flow.skip_spaces();
        if flow.at < text.len() {
            return fail(
                number,
                format!("unexpected `{}` after the value", &text[flow.at..]),
            );
        }
        return Ok(value);
    }
    // What YAML reads as a nested block or refuses, rather than quietly taking it as text.
    if text.starts_with(['@', '`']) {
        return fail(
            number,
            "`@` and `` ` `` are reserved at the start of a YAML value: quote it",
        );
    }
    if matches!(text, "-" | "?" | ":") || ["- ", "? ", ": "].iter().any(|p| text.starts_with(p)) {
        return fail(
            number,
            format!("`{text}` here would be a nested collection: quote it if it is text"),
        );
    }
    if text.contains(": ") || text.ends_with(':') {
        return fail(
            number,
            format!("`: ` inside the plain value `{text}`: quote the value"),
        );
    }
    resolve_plain(text, number)
}

/// YAML 1.2 core schema resolution of a plain scalar (the module docs list the rules).
fn resolve_plain(text: &str, number: usize) -> Result<Value, YamlError> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        ".nan" | ".NaN" | ".NAN" => {
            return fail(
                number,
                format!("`{text}` (not a number) has no JSON value: quote it if it is text"),
            )
        }
        _ => {}
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return fail(
            number,
            format!("`{text}` (infinity) has no JSON value: quote it if it is text"),
        );
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return radix_int(text, hex, 16, number);
        }
    }
    if let Some(octal) = text.strip_prefix("0o") {
        if !octal.is_empty() && octal.bytes().all(|b| matches!(b, b'0'..=b'7')) {
            return radix_int(text, octal, 8, number);
        }
    }
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = text.parse::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        // Past 64 bits: the nearest float, as serde_json reads such a JSON number.
        return float(text, number);
    }
    if is_core_float(text) {
        return float(text, number);
    }
    Ok(Value::String(text.to_string()))
}

fn radix_int(text: &str, digits: &str, radix: u32, number: usize) -> Result<Value, YamlError> {
    match u64::from_str_radix(digits, radix) {
        Ok(u) => Ok(Value::Number(u.into())),
        Err(_) => fail(
            number,
            format!("the integer `{text}` does not fit in 64 bits"),
        ),
    }
}

/// A text the core-schema grammar matched as a number (std's parser accepts all of those).
fn float(text: &str, number: usize) -> Result<Value, YamlError> {
    match text.parse::<f64>().ok().and_then(Number::from_f64) {
        Some(n) => Ok(Value::Number(n)),
        None => fail(
            number,
            format!("the number `{text}` is too large for JSON: quote it if it is text"),
        ),
    }
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the core schema's float.
fn is_core_float(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// A quoted scalar at the start of `text`: its value and the bytes it used.
fn quoted(text: &str, number: usize) -> Result<(String, usize), YamlError> {
    let mut chars = text.char_indices();
    let Some((_, q)) = chars.next() else {
        return fail(number, "expected a quoted string");
    };
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        if q == '\'' {
            if c == '\'' {
                if text[i + 1..].starts_with('\'') {
                    out.push('\'');
                    chars.next();
                    continue;
                }
                return Ok((out, i + 1));
            }
            out.push(c);
            continue;
        }
        match c {
            '"' => return Ok((out, i + 1)),
            '\\' => {
                let Some((_, e)) = chars.next() else { break };
                let hex = |n: usize, chars: &mut std::str::CharIndices| {
                    let digits: String = chars.by_ref().take(n).map(|(_, c)| c).collect();
                    // from_str_radix alone would take a sign (`\u+041`).
                    Some(digits)
                        .filter(|d| d.len() == n && d.bytes().all(|b| b.is_ascii_hexdigit()))
                        .and_then(|d| u32::from_str_radix(&d, 16).ok())
                        .and_then(char::from_u32)
                        .ok_or(())
                };
                let decoded = match e {
                    'n' => Ok('\n'),
                    't' | '\t' => Ok('\t'),
                    'r' => Ok('\r'),
                    '0' => Ok('\0'),
                    'b' => Ok('\u{8}'),
                    'f' => Ok('\u{c}'),
                    'e' => Ok('\u{1b}'),
                    'a' => Ok('\u{7}'),
                    'v' => Ok('\u{b}'),
                    ' ' => Ok(' '),
                    '"' => Ok('"'),
                    '/' => Ok('/'),
                    '\\' => Ok('\\'),
                    'N' => Ok('\u{85}'),
                    '_' => Ok('\u{a0}'),
                    'x' => hex(2, &mut chars),
                    'u' => hex(4, &mut chars),
                    'U' => hex(8, &mut chars),
                    _ => Err(()),
                };
                match decoded {
                    Ok(c) => out.push(c),
                    Err(()) => {
                        return fail(number, format!("unknown escape `\\{e}` in a quoted string"))
                    }
                }
            }
            _ => out.push(c),
        }
    }
    fail(
        number,
        "unclosed quoted string (quoted strings must end on the line they start)",
    )
}

/// One-line flow collections: `[a, "b", {k: v}]`.
struct Flow<'a> {
    text: &'a str,
    at: usize,
    number: usize,
    /// Mappings and sequences open around the current position (block ones included).
    depth: usize,
}

impl<'a> Flow<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start_matches(YAML_SPACE).len();
    }

    fn value(&mut self, in_flow: bool) -> Result<Value, YamlError> {
        self.skip_spaces();
        let rest = self.rest();
        if rest.starts_with(['[', '{']) {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return too_deep(self.number);
            }
            self.at += 1;
            let value = if rest.starts_with('[') {
                self.items()?
            } else {
                self.entries()?
            };
            self.depth -= 1;
            return Ok(value);
        }
        if rest.starts_with(['"', '\'']) {
            let (s, used) = quoted(rest, self.number)?;
            self.at += used;
            return Ok(Value::String(s));
        }
        // A plain scalar inside a flow collection ends at a flow indicator (`,[]{}` may not
        // appear in it); the caller then checks what stopped it.
        let stop = if in_flow {
            rest.find([',', '[', ']', '{', '}']).unwrap_or(rest.len())
        } else {
            rest.len()
        };
        let token = rest[..stop].trim_end_matches(YAML_SPACE);
        if in_flow && (token.contains(": ") || token.ends_with(':')) {
            return fail(
                self.number,
                format!("`{token}`: a `key: value` inside a flow collection is not supported here: quote it"),
            );
        }
        self.at += stop;
        resolve_plain(token, self.number)
    }

    /// A plain key in `{…}`: it ends at a flow indicator or at a `:` followed by a space, an
    /// indicator or the end (`{a:1}` is the one key `a:1`, as in YAML).
    fn plain_key(&mut self) -> String {
        let rest = self.rest();
        let bytes = rest.as_bytes();
        let mut stop = bytes.len();
        for (i, &b) in bytes.iter().enumerate() {
            let colon_ends = b == b':'
                && bytes
                    .get(i + 1)
                    .is_none_or(|n| matches!(n, b' ' | b',' | b'[' | b']' | b'{' | b'}'));
            if colon_ends || matches!(b, b',' | b'[' | b']' | b'{' | b'}') {
                stop = i;
                break;
            }
        }
        self.at += stop;
        rest[..stop].trim_matches(YAML_SPACE).to_string()
    }

    fn expect_more(&self, what: &str) -> Result<(), YamlError> {
        if self.at >= self.text.len() {
            return fail(
                self.number,
                format!("unclosed {what} (flow collections must end on the line they start)"),
            );
        }
        Ok(())
    }

    /// Skip spaces; true (and consumed) when the collection's `close` comes next.
    fn closes(&mut self, open: &str, close: char) -> Result<bool, YamlError> {
        self.skip_spaces();
        self.expect_more(open)?;
        let closed = self.rest().starts_with(close);
        if closed {
            self.at += 1;
        }
        Ok(closed)
    }

    /// After an element: a `,` (consumed) or the `close` (left for [`Self::closes`]).
    fn separator(&mut self, open: &str, close: char) -> Result<(), YamlError> {
        self.skip_spaces();
        self.expect_more(open)?;
        if self.rest().starts_with(',') {
            self.at += 1;
        } else if !self.rest().starts_with(close) {
            return fail(
                self.number,
                format!("expected `,` or `{close}` at `{}`", self.rest()),
            );
        }
        Ok(())
    }

    fn items(&mut self) -> Result<Value, YamlError> {
        let mut items = Vec::new();
        while !self.closes("`[`", ']')? {
            // `[a, , b]` is an error in YAML, not a null.
            if self.rest().starts_with(',') {
                return fail(self.number, "an empty entry in `[…]`");
            }
            items.push(self.value(true)?);
            self.separator("`[`", ']')?;
        }
        Ok(Value::Array(items))
    }

    fn entries(&mut self) -> Result<Value, YamlError> {
        let mut map = Map::new();
        while !self.closes("`{`", '}')? {
            let key = if self.rest().starts_with(['"', '\'']) {
                let (k, used) = quoted(self.rest(), self.number)?;
                self.at += used;
                k
            } else {
                self.plain_key()
            };
            self.skip_spaces();
            let value = if self.rest().starts_with(':') {
                self.at += 1;
                self.value(true)?
            } else {
                Value::Null
            };
            if map.insert(key.clone(), value).is_some() {
                return fail(self.number, format!("duplicate key `{key}`"));
            }
            self.separator("`{`", '}')?;
        }
        Ok(Value::Object(map))
    }
}

/// Write a JSON tree as block YAML that [`parse`] (and any YAML 1.2 reader) reads back to the
/// same tree (the module docs say how scalars are spelled). Multi-line strings are written as
/// `|` blocks so prompts stay readable. Refuses a tree nesting deeper than [`MAX_DEPTH`].
pub fn write(value: &Value) -> Result<String, YamlWriteError> {
    if deeper_than(value, MAX_DEPTH) {
        return Err(YamlWriteError::TooDeep);
    }
    // Past the check the writer's recursion is at most MAX_DEPTH deep.
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => write_mapping(map, 0, false, &mut out),
        Value::Array(items) if !items.is_empty() => write_sequence(items, 0, &mut out),
        // A bare scalar document: never a block scalar (a `|` at the top has no parent indent).
        Value::String(s) => {
            write_string(s, &mut out);
            out.push('\n');
        }
        scalar => {
            write_inline(scalar, 0, &mut out);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Whether mappings and sequences nest more than `limit` deep, found without recursion (the
/// tree may be deeper than the stack allows).
fn deeper_than(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Object(map) => Box::new(map.values()),
            Value::Array(items) => Box::new(items.iter()),
            _ => continue,
        };
        if depth + 1 > limit {
            return true;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    false
}

/// Longest key written as `key:` (YAML allows 1024 characters; this leaves room to spare).
const IMPLICIT_KEY_MAX: usize = 1000;

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// `first_inline`: the first key goes on the line already started (`- key: v`), the others
/// are aligned under it.
fn write_mapping(map: &Map<String, Value>, indent: usize, first_inline: bool, out: &mut String) {
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 || !first_inline {
            pad(out, indent);
        }
        let start = out.len();
        write_string(key, out);
        // YAML caps a `key:` at 1024 characters; a longer key takes the explicit form.
        if out[start..].chars().count() > IMPLICIT_KEY_MAX {
            out.insert_str(start, "? ");
            out.push('\n');
            pad(out, indent);
        }
        out.push(':');
        write_nested(value, indent, out);
    }
}

fn write_sequence(items: &[Value], indent: usize, out: &mut String) {
    for item in items {
        pad(out, indent);
        out.push('-');
        match item {
            Value::Object(map) if !map.is_empty() => {
                out.push(' ');
                write_mapping(map, indent + 2, true, out);
            }
            _ => write_nested(item, indent, out),
        }
    }
}

/// What follows `key:` or `-`: an inline scalar on the same line, or a block below.
fn write_nested(value: &Value, indent: usize, out: &mut String) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            write_mapping(map, indent + 2, false, out);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            write_sequence(items, indent + 2, out);
        }
        _ => {
            out.push(' ');
            write_inline(value, indent + 2, out);
            out.push('\n');
        }
    }
}

/// A scalar or empty collection; `indent` is where a `|` block's lines go.
fn write_inline(value: &Value, indent: usize, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => {
            if !write_literal_block(s, indent, out) {
                write_string(s, out);
            }
        }
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// Integers as they are; floats keep a `.` and a signed exponent (`1.0`, `1.0e+300`): the
/// 1.2 core schema reads both forms as floats, YAML 1.1 readers only the latter, and without
/// the `.` a float such as `1e3` could never be told from an integer by a reader that wants
/// one.
fn write_number(n: &Number, out: &mut String) {
    let text = n.to_string();
    if !n.is_f64() {
        out.push_str(&text);
        return;
    }
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (text.as_str(), None),
    };
    out.push_str(mantissa);
    if !mantissa.contains('.') {
        out.push_str(".0");
    }
    if let Some(e) = exponent {
        out.push('e');
        if !e.starts_with(['-', '+']) {
            out.push('+');
        }
        out.push_str(e);
    }
}

/// A multi-line string as a `|` block, when that spells it exactly; false (nothing written)
/// otherwise.
fn write_literal_block(s: &str, indent: usize, out: &mut String) -> bool {
    let body = s.strip_suffix('\n').unwrap_or(s);
    // A block cannot start with a space or blank line (its indentation would be misread),
    // keep trailing spaces or several final newlines (without `+`), and holds no character
    // that a reader may take as a line break or refuse.
    let exact = body.contains('\n')
        && !body.ends_with('\n')
        && !body.starts_with([' ', '\n'])
        && body
            .split('\n')
            .all(|l| !l.ends_with(' ') && l.chars().all(block_safe));
    if !exact {
        return false;
    }
    out.push_str(if s.ends_with('\n') { "|" } else { "|-" });
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            pad(out, indent);
            out.push_str(line);
        }
    }
    true
}

/// Printable in YAML and no line break in any version of it (1.1 breaks lines at NEL, LS, PS);
/// no BOM, which readers may strip.
fn block_safe(c: char) -> bool {
    match c {
        ' '..='~' => true,
        '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}' => false,
        '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'.. => true,
        _ => false,
    }
}

/// A string plain when it is plainly text to every reader, "double quoted" otherwise.
fn write_string(s: &str, out: &mut String) {
    if plain_is_safe(s) {
        out.push_str(s);
    } else {
        write_double_quoted(s, out);
    }
}

/// Conservative on purpose: a plain scalar is safe when it starts with a letter, `_` or `/`
/// (so it is no number, indicator or 1.1 sexagesimal/timestamp), keeps to letters, digits,
/// single-line punctuation that is no indicator (`,[]{}#&*!|>'"%@` and backtick excluded),
/// has no `: `, no trailing `:` or space, and is no keyword a 1.1 or 1.2 reader resolves.
fn plain_is_safe(s: &str) -> bool {
    let letter = |c: char| c.is_ascii_alphabetic() || (!c.is_ascii() && plain_char(c));
    let Some(first) = s.chars().next() else {
        return false;
    };
    if !(letter(first) || first == '_' || first == '/') {
        return false;
    }
    let allowed = |c: char| letter(c) || c.is_ascii_digit() || " _-./:@+()=%~;".contains(c);
    if !s.chars().all(allowed) || s.ends_with([' ', ':']) || s.contains(": ") {
        return false;
    }
    // 1.1 bools and nulls, 1.2 bools and nulls, and words std's float parser (which some
    // readers use) takes for numbers.
    const WORDS: [&str; 12] = [
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "inf", "infinity", "nan",
    ];
    if WORDS.iter().any(|w| s.eq_ignore_ascii_case(w)) {
        return false;
    }
    matches!(resolve_plain(s, 0), Ok(Value::String(_)))
}

/// A non-ASCII character that may stand in a plain scalar: printable, no line break, no
/// (Unicode) space a reader might trim, no BOM.
fn plain_char(c: char) -> bool {
    block_safe(c) && !c.is_whitespace()
}

/// `"…"` with YAML escapes for the quote, the backslash, and everything not [`block_safe`]
/// (controls, tabs, line breaks, DEL, C1, LS/PS, BOM, U+FFFE/U+FFFF).
fn write_double_quoted(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if block_safe(c) => out.push(c),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push_str(&format!("\\U{:08X}", c as u32)),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn w(value: &Value) -> String {
        match write(value) {
            Ok(text) => text,
            Err(e) => panic!("{e}: {value}"),
        }
    }

    fn ok(text: &str) -> Value {
        match parse(text) {
            Ok(v) => v,
            Err(e) => panic!("{e}\n{text}"),
        }
    }

    #[test]
    fn nested_mappings_comments_and_scalars() {
        let v = ok("# top\ndefaults:\n  max_tokens: 4000   # tokens\n  temperature: 0.1\n\nllms:\n  a:\n    base_url: \"http://127.0.0.1:11434/v1\"\n    model: qwen2.5:7b-instruct\n    on: true\n    key: ~\n    empty:\n");
        assert_eq!(
            v,
            json!({
                "defaults": {"max_tokens": 4000, "temperature": 0.1},
                "llms": {"a": {"base_url": "http://127.0.0.1:11434/v1", "model": "qwen2.5:7b-instruct",
                                "on": true, "key": null, "empty": null}}
            })
        );
    }

    #[test]
    fn sequences_block_and_flow() {
        let v = ok("a:\n  - 1\n  - two\n  - k: v\n    j: [x, \"y, z\", {p: 1}]\nb:\n- 3\n- - 4\n  - 5\nc: []\nd: {}\n");
        assert_eq!(
            v,
            json!({"a": [1, "two", {"k": "v", "j": ["x", "y, z", {"p": 1}]}], "b": [3, [4, 5]], "c": [], "d": {}})
        );
    }

    #[test]
    fn quoted_scalars_and_escapes() {
        let v = ok("a: 'it''s # not a comment'\nb: \"tab\\there \\u00e9 \\\"q\\\"\"\nc: \"123\"\nd: a#b\ne: 'x: y'\n");
        assert_eq!(
            v,
            json!({"a": "it's # not a comment", "b": "tab\there é \"q\"", "c": "123", "d": "a#b", "e": "x: y"})
        );
    }

    #[test]
    fn block_scalars_literal_folded_and_chomping() {
        let v = ok("p: |\n  line one\n    indented\n\n  line three\nq: |-\n  no newline\nr: >\n  folded\n  text\n\n  para\ns: |+\n  keep\n\nt: done\n");
        assert_eq!(v["p"], json!("line one\n  indented\n\nline three\n"));
        assert_eq!(v["q"], json!("no newline"));
        assert_eq!(v["r"], json!("folded text\npara\n"));
        assert_eq!(v["s"], json!("keep\n\n"));
        assert_eq!(v["t"], json!("done"));
    }

    #[test]
    fn core_schema_resolution() {
        let v = ok("a: 10\nb: -3\nc: 1.5e3\nd: .5\ne: 1.2.3\nf: yes\ng: 0.10\nh: 18446744073709551615\ni: Null\n");
        assert_eq!(
            v,
            json!({"a": 10, "b": -3, "c": 1500.0, "d": 0.5, "e": "1.2.3", "f": "yes", "g": 0.1,
                   "h": 18446744073709551615u64, "i": null})
        );
    }

    #[test]
    fn documents_markers_and_empty_text() {
        assert_eq!(ok(""), Value::Null);
        assert_eq!(ok("# only a comment\n"), Value::Null);
        assert_eq!(ok("---\na: 1\n...\n"), json!({"a": 1}));
        assert_eq!(ok("just text"), json!("just text"));
    }

    #[test]
    fn what_people_write_in_config_files() {
        let text = "\u{feff}llms:\r\n  my model:   # a key with a space\r\n    base_url: http://127.0.0.1:8000/v1\r\n    tags:\r\n      - a:b\r\n      - 'quoted, with comma'\r\n    empty:\r\nprofiles:\r\n  p:\r\n    run: my model\r\n    prompt: | # a comment after the header\r\n      first\r\n      second\r\n";
        let v = ok(text.trim_start_matches('\u{feff}'));
        assert_eq!(
            v,
            json!({
                "llms": {"my model": {"base_url": "http://127.0.0.1:8000/v1", "tags": ["a:b", "quoted, with comma"], "empty": null}},
                "profiles": {"p": {"run": "my model", "prompt": "first\nsecond\n"}}
            })
        );
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("a: 1\n  b: 2\n", 2, "indentation"),
            ("a: 1\na: 2\n", 2, "duplicate key"),
            ("a: [1, 2\n", 1, "unclosed"),
            ("a: \"open\nb: 1\n", 1, "unclosed quoted"),
            ("a: &x 1\n", 1, "anchors"),
            ("a: *x\n", 1, "aliases"),
            ("a: 1\n---\nb: 2\n", 2, "several documents"),
            ("a:\n\tb: 1\n", 2, "tab"),
            ("a: \"\\q\"\n", 1, "escape"),
            ("a: 1\nb\n", 2, "expected `key: value`"),
        ];
        for (text, line, words) in cases {
            match parse(text) {
                Err(e) => {
                    assert_eq!(e.line, line, "{text:?}: {e}");
                    assert!(e.message.contains(words), "{text:?}: {e}");
                }
                Ok(v) => panic!("{text:?} parsed as {v}"),
            }
        }
    }

    #[test]
    fn written_yaml_reads_back_to_the_same_tree() {
        let trees = [
            json!({"defaults": {"max_tokens": 4000, "temperature": 0.1}, "llms": {}, "list": []}),
            json!({"prompt": "You are a checker.\nReturn JSON only.\n", "short": "no newline\nend",
                   "odd": " leading space\nx", "trail": "a  \nb", "many": "x\n\n\n"}),
            json!({"s": ["", "-", "- x", "a: b", "#c", "true", "null", "12", "1e3", "~", "x #y", "é ✓", "k:"]}),
            json!({"nested": [[1, 2], {"a": [{"b": null}]}, [], {}], "u": 18446744073709551615u64, "f": -0.5}),
            json!([{"id": 1, "name": "a"}, {"id": 2}]),
            json!("top-level string"),
            json!({"control": "bell\u{7}", "tab": "a\tb", "quote": "say \"hi\"", "crlf": "a\r\nb"}),
        ];
        for tree in trees {
            let text = w(&tree);
            assert_eq!(ok(&text), tree, "written as:\n{text}");
        }
    }

    #[test]
    fn multi_line_strings_are_written_as_literal_blocks() {
        let text = w(&json!({"prompt": "line one\nline two\n"}));
        assert_eq!(text, "prompt: |\n  line one\n  line two\n");
    }

    /// Deterministic pseudo-random trees (no extra dependency): every one must read back.
    #[test]
    fn random_trees_round_trip() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        const PIECES: [&str; 22] = [
            "a", "b c", "-", ":", "#", " ", "\n", "\t", "'", "\"", "\\", "{", "]", ",", "é", "1",
            "0.5", "true", "null", "~", "x: y", "\r",
        ];
        fn tree(next: &mut impl FnMut(u64) -> u64, depth: u32) -> Value {
            match if depth > 3 { next(4) } else { next(6) } {
                0 => Value::Null,
                1 => Value::Bool(next(2) == 0),
                2 => json!(next(2000) as i64 - 1000),
                3 => {
                    let len = next(6);
                    Value::String(
                        (0..len)
                            .map(|_| PIECES[next(PIECES.len() as u64) as usize])
                            .collect(),
                    )
                }
                4 => Value::Array((0..next(4)).map(|_| tree(next, depth + 1)).collect()),
                _ => {
                    let mut map = Map::new();
                    for _ in 0..next(4) {
                        let key: String = (0..1 + next(3))
                            .map(|_| PIECES[next(PIECES.len() as u64) as usize])
                            .collect();
                        map.insert(key, tree(next, depth + 1));
                    }
                    Value::Object(map)
                }
            }
        }
        for _ in 0..2_000 {
            let t = tree(&mut next, 0);
            let text = w(&t);
            match parse(&text) {
                Ok(back) => assert_eq!(back, t, "written as:\n{text}"),
                Err(e) => panic!("{e}; written as:\n{text}"),
            }
        }
    }

    /// Cut, spliced and garbled versions of the shipped examples: errors, never a panic.
    #[test]
    fn mangled_files_never_panic() {
        let sources = [
            include_str!("../../public/examples/settings.yaml"),
            include_str!("../../public/examples/strategy.yaml"),
        ];
        let noise = [
            "", " ", "\t", ":", "- ", "'", "\"", "|", ">-", "[", "{", "#", "\\", "é", "\n", "  ",
            "&a", "*",
        ];
        let mut seed: u64 = 7;
        let mut next = move |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n.max(1)
        };
        for _ in 0..3_000 {
            let src = sources[next(2)];
            let chars: Vec<char> = src.chars().collect();
            let mut text: String = chars.iter().collect();
            for _ in 0..1 + next(4) {
                let cut = next(chars.len());
                let len = next(12);
                let mut v: Vec<char> = text.chars().collect();
                let cut = cut.min(v.len());
                let end = (cut + len).min(v.len());
                v.splice(cut..end, noise[next(noise.len())].chars());
                text = v.into_iter().collect();
            }
            // Either outcome is fine; a panic fails the test.
            if let Ok(v) = parse(&text) {
                assert_eq!(parse(&w(&v)).ok(), Some(v), "{text}");
            }
        }
    }

    fn assert_too_deep(text: &str, line: usize) {
        match parse(text) {
            Err(e) => {
                assert_eq!(e.line, line, "{e}");
                assert!(e.message.contains("nesting deeper than 64 levels"), "{e}");
            }
            Ok(_) => panic!("read {} bytes nested too deep", text.len()),
        }
    }

    /// 10,000 and 100,000 levels, flow and block: an error naming the line, not a stack
    /// overflow (this runs in the debug build, where frames are largest).
    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        for levels in [10_000, 100_000] {
            let flow_seq = "[".repeat(levels) + &"]".repeat(levels);
            let flow_map = "{a: ".repeat(levels) + "1" + &"}".repeat(levels);
            assert_too_deep(&flow_seq, 1);
            assert_too_deep(&flow_map, 1);
            assert_too_deep(&format!("top:\n  k: {flow_seq}\n"), 2);
            assert_too_deep(&format!("- {flow_map}\n"), 1);
            // Block sequences nest on one line: `- - - x`.
            assert_too_deep(&("- ".repeat(levels) + "x\n"), 1);
        }
        // Block mappings need a deeper indent per level: 10,000 levels are 50 MB of spaces
        // (100,000 would be 5 GB). The 65th mapping starts on line 65.
        let block_map: String = (0..10_000).map(|i| " ".repeat(i) + "a:\n").collect();
        assert_too_deep(&block_map, 65);
        let mixed: String = (0..40).map(|i| " ".repeat(2 * i) + "- a:\n").collect();
        assert_too_deep(&mixed, 33);
    }

    #[test]
    fn nesting_up_to_the_bound_reads_and_writes() {
        let flow = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        let mut tree = json!([]);
        for _ in 1..MAX_DEPTH {
            tree = json!([tree]);
        }
        assert_eq!(ok(&flow), tree);
        assert_eq!(ok(&w(&tree)), tree);
        assert_too_deep(&format!("[{flow}]"), 1);
        // Block and flow levels count together.
        let half = MAX_DEPTH / 2;
        // 31 `a:` lines and the mapping holding `b` are 32 block levels.
        let block: String = (0..half - 1).map(|i| " ".repeat(i) + "a:\n").collect();
        let b = " ".repeat(half - 1) + "b: ";
        let inner = "[".repeat(half) + &"]".repeat(half);
        assert!(parse(&format!("{block}{b}{inner}\n")).is_ok());
        assert_too_deep(&format!("{block}{b}[{inner}]\n"), half);
        let deeper = json!({ "k": tree });
        assert_eq!(write(&deeper), Err(YamlWriteError::TooDeep));
    }

    /// A tree too deep for the stack's recursion is refused by the writer, and taken apart here
    /// without recursion (serde_json's own drop would recurse).
    #[test]
    fn writer_refuses_very_deep_trees_without_recursing() {
        for levels in [10_000, 100_000] {
            let mut tree = Value::Null;
            for i in 0..levels {
                tree = if i % 2 == 0 {
                    Value::Array(vec![tree])
                } else {
                    let mut map = Map::new();
                    map.insert("a".into(), tree);
                    Value::Object(map)
                };
            }
            assert_eq!(write(&tree), Err(YamlWriteError::TooDeep));
            let mut stack = vec![tree];
            while let Some(v) = stack.pop() {
                match v {
                    Value::Array(items) => stack.extend(items),
                    Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn core_schema_numbers_and_their_errors() {
        let v = ok("a: 0x1F\nb: 0o17\nc: +1\nd: 007\ne: 1e3\nf: 1.\ng: -0.0\nh: 99999999999999999999\ni: .5E-1\nj: 0x\nk: 1_000\nl: 0o8\n");
        assert_eq!(
            v,
            json!({"a": 31, "b": 15, "c": 1, "d": 7, "e": 1000.0, "f": 1.0, "g": -0.0,
                   "h": 1e20, "i": 0.05, "j": "0x", "k": "1_000", "l": "0o8"})
        );
        assert!(v["e"].is_f64() && v["d"].is_u64());
        for (text, words) in [
            ("a: .inf\n", "infinity"),
            ("a: -.Inf\n", "infinity"),
            ("a: .NaN\n", "not a number"),
            ("a: [1, .nan]\n", "not a number"),
            ("a: 1e400\n", "too large"),
            ("a: 0x1FFFFFFFFFFFFFFFF\n", "64 bits"),
        ] {
            match parse(text) {
                Err(e) => assert!(e.line == 1 && e.message.contains(words), "{text:?}: {e}"),
                Ok(v) => panic!("{text:?} read as {v}"),
            }
        }
        assert_eq!(ok("a: \".inf\"\n"), json!({"a": ".inf"}));
    }

    #[test]
    fn numbers_are_written_as_the_same_number() {
        let tree = json!([
            1.0,
            -0.0,
            1e300,
            1.5e-7,
            1e16,
            0.1,
            18446744073709551615u64,
            -9223372036854775808i64,
            7
        ]);
        let text = w(&tree);
        assert_eq!(
            text,
            "- 1.0\n- -0.0\n- 1.0e+300\n- 1.5e-7\n- 1.0e+16\n- 0.1\n- 18446744073709551615\n- -9223372036854775808\n- 7\n"
        );
        assert_eq!(ok(&text), tree);
        assert!(ok(&text)[0].is_f64());
    }

    #[test]
    fn strings_that_look_like_something_else_are_quoted() {
        for s in [
            "0x1F", "0o17", ".inf", "-.inf", ".nan", ".NaN", "yes", "No", "on", "OFF", "y", "n",
            "null", "Null", "NULL", "~", "", "007", "1e3", "+1", "a: b", "a #b", " x", "x ",
            "a\tb", "- x", "? x", "--- ", "...", "@x", "`x`", "inf", "NaN", "True", "k:",
        ] {
            let text = w(&json!({ s: s }));
            assert!(text.starts_with('"'), "{s:?} written as {text}");
            assert_eq!(ok(&text), json!({ s: s }), "{text}");
        }
        assert_eq!(
            w(&json!({"model": "qwen2.5:7b-instruct"})),
            "model: qwen2.5:7b-instruct\n"
        );
        assert_eq!(
            w(&json!({"k": "\u{85}\u{2028}\u{feff}\u{7f}\u{1F600}"})),
            "k: \"\\u0085\\u2028\\uFEFF\\u007F\u{1F600}\"\n"
        );
    }

    #[test]
    fn long_keys_take_the_explicit_form() {
        let long = "k".repeat(1500);
        let tree = json!({ &long: {"a": 1}, "short": [{ &long: "v", "b": 2 }] });
        let text = w(&tree);
        assert!(
            text.starts_with(&format!("? {long}\n:\n  a: 1\n")),
            "{text}"
        );
        assert_eq!(ok(&text), tree, "{text}");
        assert_eq!(
            ok("? 'x y'\n: 1\n? z\n:\n  - 2\n"),
            json!({"x y": 1, "z": [2]})
        );
        assert!(parse("? [a]\n: 1\n").is_err());
        assert!(parse("? a\nb: 1\n").is_err());
    }
}
