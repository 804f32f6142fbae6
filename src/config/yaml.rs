//! The YAML that `settings.yaml` and `strategy.yaml` are written in, read into and written from
//! a JSON tree (the typed readers take it from there).
//!
//! Why our own: a full YAML library (libyaml ported to Rust plus its serde layer) was ~80 KB of
//! the browser's wasm, for two small configuration files. This reads the block YAML people write
//! for configuration — nested mappings and sequences by indentation, `# comments`, plain,
//! 'single' and "double" quoted scalars, one-line flow collections (`[a, b]`, `{k: v}`), literal
//! and folded block scalars (`|`, `>`, with `-`/`+` chomping), a leading `---` — and says
//! plainly, with the line, when a file uses what it does not read (anchors, aliases, tags,
//! several documents, multi-line flow collections or quoted strings). Scalars resolve by the
//! YAML 1.2 core schema: `null`/`~`/empty, `true`/`false`, integers, floats; the rest are strings.

use serde_json::{Map, Number, Value};

/// What is wrong with a YAML text, and on which line (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct YamlError {
    pub line: usize,
    pub message: String,
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
}

/// Read a YAML text into a JSON tree. An empty text (or only comments) is `null`.
pub fn parse(text: &str) -> Result<Value, YamlError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let body = raw.trim_start_matches(' ');
        let indent = raw.len() - body.len();
        if body.starts_with('\t') && !body.trim().is_empty() {
            return fail(i + 1, "a tab in the indentation (YAML indents with spaces)");
        }
        lines.push(Line {
            number: i + 1,
            indent,
            text: body.trim_end(),
            raw,
        });
    }
    let mut p = Parser { lines, at: 0 };
    p.skip_blank();
    if let Some(line) = p.peek() {
        if line.indent == 0 && (line.text == "---" || line.text.starts_with("--- ")) {
            let rest = line.text[3..].trim_start();
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
        } else if split_key(line.text, line.number)?.is_some() {
            self.mapping(indent)
        } else {
            self.at += 1;
            let value = inline_value(line.text, line.number)?;
            if let Some(next) = self.next_at_least(indent + 1) {
                return fail(
                    next.number,
                    "a plain value spread over several lines is not supported: quote it or use `|`",
                );
            }
            Ok(value)
        }
    }

    fn mapping(&mut self, indent: usize) -> Result<Value, YamlError> {
        let mut map = Map::new();
        while let Some(line) = self.next_at_least(indent) {
            if line.indent == 0 && is_document_marker(line.text) {
                break;
            }
            if line.indent > indent {
                return fail(line.number, "unexpected indentation");
            }
            let Some((key, rest)) = split_key(line.text, line.number)? else {
                return fail(line.number, "expected `key: value` here");
            };
            if map.contains_key(&key) {
                return fail(line.number, format!("duplicate key `{key}`"));
            }
            self.at += 1;
            let value = self.value_after_indicator(rest, indent, line, true)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }

    fn sequence(&mut self, indent: usize) -> Result<Value, YamlError> {
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
            let nested = is_sequence_entry(rest) || split_key(rest, line.number)?.is_some();
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
            return inline_value(rest, line.number);
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
            None if c == '#' && (prev == ' ' || prev == '\t') => return text[..i].trim_end(),
            None => {}
        }
        if c != ' ' && c != '\t' {
            value_start = matches!(c, '[' | '{' | ',' | ':') && quote.is_none();
        }
        prev = c;
    }
    text.trim_end()
}

/// `key: rest` → the key and what follows the colon; `None` when the line is not a mapping entry.
fn split_key(text: &str, number: usize) -> Result<Option<(String, &str)>, YamlError> {
    if text.starts_with('"') || text.starts_with('\'') {
        let (key, used) = quoted(text, number)?;
        let after = &text[used..];
        return Ok(after
            .strip_prefix(':')
            .filter(|r| r.is_empty() || r.starts_with(' '))
            .map(|r| (key, r.trim_start())));
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
            let key = text[..i].trim_end();
            if key.is_empty() {
                return Ok(None);
            }
            if key.starts_with(['&', '*', '!', '?']) {
                return fail(
                    number,
                    "anchors, aliases, tags and complex keys are not supported",
                );
            }
            return Ok(Some((key.to_string(), text[i + 1..].trim_start())));
        }
    }
    Ok(None)
}

/// A value written on one line: flow collection, quoted or plain scalar.
fn inline_value(text: &str, number: usize) -> Result<Value, YamlError> {
    let text = strip_comment(text);
    if text.starts_with(['&', '*', '!']) {
        return fail(number, "anchors, aliases and tags are not supported");
    }
    if text.starts_with(['[', '{', '"', '\'']) {
        let mut flow = Flow {
            text,
            at: 0,
            number,
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
    Ok(plain_scalar(text))
}

/// YAML 1.2 core schema resolution of a plain scalar.
fn plain_scalar(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = text.parse::<i64>() {
            return Value::Number(i.into());
        }
        if let Ok(u) = text.parse::<u64>() {
            return Value::Number(u.into());
        }
    }
    let numeric = digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && digits.bytes().any(|b| b.is_ascii_digit());
    if numeric {
        if let Some(n) = text.parse::<f64>().ok().and_then(Number::from_f64) {
            return Value::Number(n);
        }
    }
    Value::String(text.to_string())
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
                    u32::from_str_radix(&digits, 16)
                        .ok()
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
}

impl<'a> Flow<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    fn value(&mut self, in_flow: bool) -> Result<Value, YamlError> {
        self.skip_spaces();
        let rest = self.rest();
        if rest.starts_with('[') {
            self.at += 1;
            return self.items();
        }
        if rest.starts_with('{') {
            self.at += 1;
            return self.entries();
        }
        if rest.starts_with(['"', '\'']) {
            let (s, used) = quoted(rest, self.number)?;
            self.at += used;
            return Ok(Value::String(s));
        }
        // A plain scalar inside a flow collection ends at `,` `]` `}` (and `: ` for keys).
        let stop = if in_flow {
            rest.find([',', ']', '}']).unwrap_or(rest.len())
        } else {
            rest.len()
        };
        let token = rest[..stop].trim_end();
        self.at += stop;
        Ok(plain_scalar(token))
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
                let rest = self.rest();
                let stop = rest.find([':', ',', '}']).unwrap_or(rest.len());
                let k = rest[..stop].trim().to_string();
                self.at += stop;
                k
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

/// Write a JSON tree as block YAML that [`parse`] (and any YAML reader) reads back to the same
/// tree. Multi-line strings are written as `|` blocks so prompts stay readable.
pub fn write(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => write_mapping(map, 0, &mut out),
        Value::Array(items) if !items.is_empty() => write_sequence(items, 0, &mut out),
        // A bare scalar document: strings always quoted (no top-level block scalars).
        Value::String(s) => {
            out.push_str(&scalar_string(s));
            out.push('\n');
        }
        scalar => {
            out.push_str(&inline(scalar, 0));
            out.push('\n');
        }
    }
    out
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn write_mapping(map: &Map<String, Value>, indent: usize, out: &mut String) {
    for (key, value) in map {
        pad(out, indent);
        out.push_str(&scalar_string(key));
        out.push(':');
        write_nested(value, indent, out);
    }
}

fn write_sequence(items: &[Value], indent: usize, out: &mut String) {
    for item in items {
        pad(out, indent);
        out.push('-');
        match item {
            // `- key: v` with the entry's other keys aligned under the first.
            Value::Object(map) if !map.is_empty() => {
                out.push(' ');
                let mut first = String::new();
                write_mapping(map, indent + 2, &mut first);
                out.push_str(&first[indent + 2..]);
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
            write_mapping(map, indent + 2, out);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            write_sequence(items, indent + 2, out);
        }
        _ => {
            out.push(' ');
            out.push_str(&inline(value, indent + 2));
            out.push('\n');
        }
    }
}

fn inline(value: &Value, indent: usize) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => literal_block(s, indent).unwrap_or_else(|| scalar_string(s)),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

/// A multi-line string as a `|` block, when that spells it exactly.
fn literal_block(s: &str, indent: usize) -> Option<String> {
    let body = s.strip_suffix('\n').unwrap_or(s);
    let exact = body.contains('\n')
        && !body.ends_with('\n')
        && !body.starts_with([' ', '\n'])
        && !body.split('\n').any(|l| {
            l.ends_with([' ', '\t']) || l.contains(['\r', '\t']) || l.chars().any(char::is_control)
        });
    if !exact {
        return None;
    }
    let mut out = String::from(if s.ends_with('\n') { "|" } else { "|-" });
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.extend(std::iter::repeat_n(' ', indent));
            out.push_str(line);
        }
    }
    Some(out)
}

/// A string plain when it reads back as the same string, double-quoted otherwise.
fn scalar_string(s: &str) -> String {
    let plain_ok = !s.is_empty()
        && plain_scalar(s) == Value::String(s.to_string())
        && !s.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`', ' ',
        ])
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.chars().any(|c| c.is_control() || c == '\u{feff}');
    if plain_ok {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
            let text = write(&tree);
            assert_eq!(ok(&text), tree, "written as:\n{text}");
        }
    }

    #[test]
    fn multi_line_strings_are_written_as_literal_blocks() {
        let text = write(&json!({"prompt": "line one\nline two\n"}));
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
            let text = write(&t);
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
                assert_eq!(parse(&write(&v)).ok(), Some(v), "{text}");
            }
        }
    }
}
