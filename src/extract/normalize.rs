//! Turns a raw answer span (`$\boxed{10\,000}$ dollars.`) into a canonical answer string
//! (`10000`). Structure (tuples, sets, equations) is left for `equiv` to interpret.

use super::number::int_text;
use super::scan;
use super::words::parse_number_words;

/// Plain rewrites applied in order. `\left`/`\right` go before the bracket rewrites so
/// `\left\{` becomes `\{`.
const REWRITES: &[(&str, &str)] = &[
    ("\\displaystyle", ""),
    ("\\dfrac", "\\frac"),
    ("\\tfrac", "\\frac"),
    ("\\cfrac", "\\frac"),
    ("\\left", ""),
    ("\\right", ""),
    ("\\bigl", ""),
    ("\\bigr", ""),
    // `11,\! 111,\! 100` (MATH's thousands): the comma stays, the space goes.
    (",\\! ", ","),
    ("\\!", ""),
    // Thin spaces are spaces (`\pi\,t` is π·t, not the command `\pit`); `10\,000` is then a
    // space-grouped thousand.
    ("\\;", " "),
    ("\\:", " "),
    ("\\quad", " "),
    ("\\qquad", " "),
    ("\\,", " "),
    ("{,}", ","),
    ("\\ ", " "),
    ("~", " "),
    ("^{\\circ}", ""),
    ("^\\circ", ""),
    ("\\circ", ""),
    ("\\degree", ""),
    ("°", ""),
    ("−", "-"),
    ("–", "-"),
    ("×", "*"),
    ("÷", "/"),
    ("·", "*"),
    ("\\cdot", "*"),
    ("\\times", "*"),
    ("\\div", "/"),
    ("√", "\\sqrt"),
    ("π", "\\pi"),
    ("∞", "\\infty"),
    ("\\%", "%"),
    // NumPy spellings in golds (`np.arcsin(10/13)`).
    ("np.", ""),
    ("％", "%"),
    ("\\$", ""),
    ("$", ""),
    ("**", ""),
    ("\\(", ""),
    ("\\)", ""),
    ("\\[", ""),
    ("\\]", ""),
    ("，", ","),
    ("：", ":"),
    ("（", "("),
    ("）", ")"),
    ("\\lbrace", "\\{"),
    ("\\rbrace", "\\}"),
    ("\\varnothing", "\\emptyset"),
    ("∅", "\\emptyset"),
];

/// Stands in for `\\` while the rewrites run (a control character no answer contains).
const ROW_BREAK: &str = "\u{1}";

/// Commands whose braced argument is the content (`\text{cm}` → `cm`).
const UNWRAP: &[&str] = &[
    "\\textbf",
    "\\textrm",
    "\\textit",
    "\\textnormal",
    "\\textup",
    "\\textsf",
    "\\texttt",
    "\\text",
    "\\mathrm",
    "\\mathbf",
    "\\mathit",
    "\\mathsf",
    "\\mathtt",
    "\\operatorname",
    "\\mbox",
    "\\boxed",
    "\\fbox",
];

/// Unit words dropped after a number, also when attached (`5cm`).
const UNITS: &[&str] = &[
    "dollars",
    "dollar",
    "cents",
    "cent",
    "usd",
    "hours",
    "hour",
    "hrs",
    "hr",
    "minutes",
    "minute",
    "mins",
    "min",
    "seconds",
    "second",
    "sec",
    "days",
    "day",
    "weeks",
    "week",
    "months",
    "month",
    "years",
    "year",
    "meters",
    "meter",
    "metres",
    "cm",
    "mm",
    "km",
    "kg",
    "mg",
    "ml",
    "pounds",
    "lbs",
    "lb",
    "miles",
    "mile",
    "mph",
    "feet",
    "foot",
    "ft",
    "inches",
    "inch",
    "units",
    "unit",
    "degrees",
    "degree",
    "percent",
    "yuan",
    "元",
    "个",
    "米",
    "岁",
    "gallons",
    "gallon",
    "liters",
    "liter",
    "litres",
    "litre",
    "quarts",
    "quart",
    "pints",
    "pint",
    "cups",
    "ounces",
    "ounce",
    "oz",
    "grams",
    "gram",
    "kilograms",
    "tons",
    "ton",
    "acres",
    "acre",
    "yards",
    "yard",
    "yds",
    "cup",
    "centimeters",
    "millimeters",
    "kilometers",
];

/// Math words that do not make an answer prose.
const MATH_WORDS: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "cot",
    "sec",
    "csc",
    "log",
    "ln",
    "exp",
    "pi",
    "sqrt",
    "frac",
    "infty",
    "inf",
    "arcsin",
    "arccos",
    "arctan",
    "pm",
    "mp",
    "le",
    "ge",
    "leq",
    "geq",
    "in",
    "cup",
    "cap",
    "emptyset",
    "varnothing",
    "begin",
    "end",
    "pmatrix",
    "bmatrix",
    "matrix",
    "vmatrix",
    "neq",
    "ne",
    "lt",
    "gt",
];

/// Content of the brace group opening at `open` (which must be `{`): (content range, end).
pub fn braced(s: &str, open: usize) -> Option<(usize, usize, usize)> {
    let bytes = s.as_bytes();
    if bytes.get(open) != Some(&b'{') {
        return None;
    }
    let mut depth = 0usize;
    let mut i = open;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 1, // `\{` and `\}` do not nest
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some((open + 1, i, i + 1));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn needs_slow_path(s: &str) -> bool {
    s.bytes()
        .any(|b| !(b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'/'))
}

/// `1.28 x 10^-6` → `1.28*10^{-6}`: scientific notation written in plain text (the number
/// scanner reads it as one number, `scan::number_end`), in the notation the evaluator reads.
fn plain_scientific(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len() + 4);
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes.get(i).is_some_and(u8::is_ascii_digit)
            && (i == 0
                || !bytes
                    .get(i - 1)
                    .is_some_and(|p| p.is_ascii_alphanumeric() || *p == b'.'));
        let token = starts
            .then(|| scan::number_end(bytes, i))
            .flatten()
            .and_then(|e| Some((e, s.get(i..e)?)));
        let Some((end, token)) = token else {
            i += 1;
            continue;
        };
        if let Some(p) = token.find("10^") {
            let mantissa = token
                .get(..p)
                .unwrap_or("")
                .trim_end_matches([' ', 'x', 'X', '*']);
            let exponent = token.get(p + 3..).unwrap_or("").trim_matches(['{', '}']);
            out.push_str(s.get(copied..i).unwrap_or(""));
            out.push_str(&format!("{mantissa}*10^{{{exponent}}}"));
            copied = end;
        }
        i = end.max(i + 1);
    }
    out.push_str(s.get(copied..).unwrap_or(""));
    out
}

/// Canonical answer string for a raw span.
pub fn normalize(raw: &str) -> String {
    let t = raw.trim();
    if !needs_slow_path(t) && !t.is_empty() {
        return strip_trailing_punct(t).to_string();
    }
    let mut s = unwrapped(t);
    if let Some(letter) = choice_letter(&s) {
        return letter.to_string();
    }
    if s.contains("10^") {
        s = plain_scientific(&s);
    }
    s = percent_word(&s);
    s = strip_units(&s);
    s = strip_ordinal(&s);
    s = base_subscript(&s);
    if let Some(n) = parse_number_words(&s) {
        return int_text(n);
    }
    s = join_space_thousands(&s);
    s = join_comma_thousands(&s);
    s = mixed_number(&s);
    s = squeeze_spaces(&s);
    strip_trailing_punct(&s).to_string()
}

/// The unit a raw answer states after its number (`7 years` → `year`, `5\text{ cm}^2` →
/// `cm^2`), spelled one way per unit, or `None`. The normaliser drops units so a unit-less gold
/// matches; the grader uses this to refuse answers whose stated units differ.
pub fn unit_of(raw: &str) -> Option<String> {
    let t = raw.trim();
    if !t.bytes().any(|b| b.is_ascii_alphabetic() || !b.is_ascii()) {
        return None;
    }
    let s = unwrapped(t);
    let kept = strip_units(&s);
    let dropped = s.get(kept.len()..)?.trim();
    if dropped.is_empty() || !s.starts_with(kept.as_str()) {
        return None;
    }
    let words: Vec<String> = dropped
        .split_whitespace()
        .map(|w| {
            let lower = w.to_lowercase();
            let (word, power) = match UNIT_POWERS.iter().find(|p| lower.ends_with(*p)) {
                Some(p) => (&lower[..lower.len() - p.len()], power_digit(p)),
                None => (lower.as_str(), ""),
            };
            let base = UNIT_SPELLINGS
                .iter()
                .find(|(spelling, _)| *spelling == word)
                .map_or(word, |(_, canonical)| canonical);
            format!("{base}{power}")
        })
        .collect();
    Some(words.join(" "))
}

fn power_digit(p: &str) -> &'static str {
    if p.contains(['2', '²']) {
        "^2"
    } else {
        "^3"
    }
}

/// Plural and abbreviated unit spellings → one name, so `7 years` and `7 yr` agree.
const UNIT_SPELLINGS: &[(&str, &str)] = &[
    ("dollars", "dollar"),
    ("usd", "dollar"),
    ("cents", "cent"),
    ("hours", "hour"),
    ("hrs", "hour"),
    ("hr", "hour"),
    ("minutes", "minute"),
    ("mins", "minute"),
    ("min", "minute"),
    ("seconds", "second"),
    ("sec", "second"),
    ("days", "day"),
    ("weeks", "week"),
    ("months", "month"),
    ("years", "year"),
    ("meters", "meter"),
    ("metres", "meter"),
    ("pounds", "pound"),
    ("lbs", "pound"),
    ("lb", "pound"),
    ("miles", "mile"),
    ("feet", "foot"),
    ("ft", "foot"),
    ("inches", "inch"),
    ("units", "unit"),
    ("degrees", "degree"),
    ("元", "yuan"),
    ("gallons", "gallon"),
    ("liters", "liter"),
    ("litres", "liter"),
    ("litre", "liter"),
    ("quarts", "quart"),
    ("pints", "pint"),
    ("cups", "cup"),
    ("ounces", "ounce"),
    ("oz", "ounce"),
    ("grams", "gram"),
    ("kilograms", "kg"),
    ("tons", "ton"),
    ("acres", "acre"),
    ("yards", "yard"),
    ("yds", "yard"),
    ("centimeters", "cm"),
    ("millimeters", "mm"),
    ("kilometers", "km"),
];

/// The normaliser's steps before unit stripping: annotations, wrappers, rewrites, punctuation.
fn unwrapped(t: &str) -> String {
    let mut s = strip_annotations(t);
    if s.contains('{') && s.contains(',') {
        s = brace_commas(&s);
    }
    s = single_backslash_commands(&s);
    s = unwrap_commands(&s);
    s = degrees_in_trig(&s);
    // Which bytes `s` holds: a rewrite whose first byte it lacks cannot apply, and skipping it
    // skips building a substring searcher per rewrite (most answers that reach here hold few
    // of the rewrites' bytes).
    let mut present = byte_set(&s);
    let mut rewrite = |s: &mut String, from: &str, to: &str| {
        let may = from.bytes().next().is_none_or(|b| present[usize::from(b)]);
        if may && s.contains(from) {
            *s = s.replace(from, to);
            present = byte_set(s);
        }
    };
    // A `\\` row break (matrices) must survive the spacing rewrites (`\ `, `\,`).
    rewrite(&mut s, "\\\\", ROW_BREAK);
    for (from, to) in REWRITES {
        rewrite(&mut s, from, to);
    }
    rewrite(&mut s, ROW_BREAK, "\\\\");
    s = s.trim().to_string();
    s = strip_trailing_punct(&s).to_string();
    s.trim_start_matches([':', '=']).trim().to_string()
}

/// Which byte values `s` holds.
fn byte_set(s: &str) -> [bool; 256] {
    let mut set = [false; 256];
    for &b in s.as_bytes() {
        set[usize::from(b)] = true;
    }
    set
}

/// `14 {, }916`, `14{ , }916`: a comma in braces (LaTeX's comma without math spacing, the
/// thousands separator of MATH's solutions) written with spaces inside or around it is `,`, so
/// the thousands rule below reads `14,916`. Only between digits; one linear pass.
fn brace_commas(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'{' {
            let skip = |mut j: usize| {
                while b.get(j) == Some(&b' ') {
                    j += 1;
                }
                j
            };
            let comma = skip(i + 1);
            let close = skip(comma + 1);
            let after = skip(close + 1);
            let digit_before = out.trim_end().ends_with(|d: char| d.is_ascii_digit());
            if b.get(comma) == Some(&b',')
                && b.get(close) == Some(&b'}')
                && digit_before
                && b.get(after).is_some_and(u8::is_ascii_digit)
            {
                let kept = out.trim_end().len();
                out.truncate(kept);
                out.push(',');
                i = after;
                continue;
            }
        }
        let ch = s.get(i..).and_then(|r| r.chars().next()).unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// Commands written with a doubled backslash (`\\frac`, `\\left(`: text escaped twice, as in
/// Math-Verify's own tests) read as the command. A `\\` row break before a word that is not one
/// of these commands (`\\ 3`, `\\end`) stays.
fn single_backslash_commands(s: &str) -> String {
    const COMMANDS: &[&str] = &[
        "frac", "dfrac", "tfrac", "left", "right", "sqrt", "pi", "cdot", "times", "infty", "le",
        "ge", "leq", "geq", "neq", "sin", "cos", "tan", "ln", "log", "text", "mathrm", "boxed",
        "alpha", "beta", "theta", "mathbf", "pm",
    ];
    if !s.contains("\\\\") {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("\\\\") {
        let after = rest.get(i + 2..).unwrap_or("");
        let word: String = after
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect();
        out.push_str(rest.get(..i).unwrap_or(""));
        if COMMANDS.contains(&word.as_str()) {
            out.push('\\');
        } else {
            out.push_str("\\\\");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Inside a trigonometric answer a degree sign is a unit of angle, not decoration:
/// `\sin 30^\circ` → `\sin (30\pi/180)` (= 1/2), so it no longer equals `\sin 30` (30
/// radians). Elsewhere `90^\circ` stays the number 90 (the rewrites drop the sign).
fn degrees_in_trig(s: &str) -> String {
    const TRIG: &[&str] = &["\\sin", "\\cos", "\\tan", "\\cot", "\\sec", "\\csc"];
    // Every degree sign holds a `\\` or is `°`: most answers have neither (one pass, no
    // substring searchers).
    if !s.contains(['\\', '°']) {
        return s.to_string();
    }
    let degree = ["\\circ", "°", "\\degree"].iter().any(|d| s.contains(d));
    if !degree || !TRIG.iter().any(|t| s.contains(t)) {
        return s.to_string();
    }
    // One spelling (`°` and `\degree` too), then one linear pass.
    let s = s
        .replace("^{\\circ}", "^\\circ")
        .replace('°', "^\\circ")
        .replace("\\degree", "^\\circ");
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s.as_str();
    let len = "^\\circ".len();
    while let Some(i) = rest.find("^\\circ") {
        let before = rest.get(..i).unwrap_or("");
        let digits = before
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_digit() || *b == b'.')
            .count();
        let (head, number) = before.split_at(before.len() - digits);
        if number.is_empty() {
            out.push_str(rest.get(..i + len).unwrap_or(""));
        } else {
            out.push_str(head);
            out.push_str(&format!("({number}\\pi/180)"));
        }
        rest = rest.get(i + len..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// `28 pct`, `28 percent`, `28 percentage` → `28%`: a percent written in words is a percent
/// (the percent policy then decides what it equals).
fn percent_word(s: &str) -> String {
    let lower = s.to_ascii_lowercase();
    for word in ["percentage", "percent", "pct"] {
        if let Some(head) = lower.strip_suffix(word) {
            let number = s.get(..head.len()).unwrap_or("").trim_end();
            if !number.is_empty()
                && number.ends_with(|c: char| c.is_ascii_digit())
                && super::number::parse_decimal_big(number).is_some()
            {
                return format!("{number}%");
            }
        }
    }
    s.to_string()
}

/// Removes GSM8K-style `<<48/2=24>>` calculator annotations.
fn strip_annotations(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find("<<") {
        out.push_str(rest.get(..open).unwrap_or(""));
        match rest.get(open..).and_then(|r| r.find(">>")) {
            Some(close) => rest = rest.get(open + close + 2..).unwrap_or(""),
            None => {
                rest = rest.get(open..).unwrap_or("");
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Drops trailing sentence punctuation, but not a factorial: a `!` right after a digit, a
/// closing bracket or a lone letter (`5!`, `(2n)!`, `n!`) is part of the answer. Dropping it
/// made `5!` equal `5`. After a word (`Yes!`) or another `!` it is punctuation.
fn strip_trailing_punct(s: &str) -> &str {
    let mut t = s;
    loop {
        let next = t.trim_end_matches(|c: char| {
            c.is_whitespace()
                || matches!(c, '.' | '。' | ',' | ';' | '?' | ':' | '，' | '；' | '！')
        });
        match next.strip_suffix('!') {
            Some(before) if !factorial_operand(before) => t = before,
            _ => return next,
        }
    }
}

fn factorial_operand(before: &str) -> bool {
    let mut rev = before.chars().rev();
    match rev.next() {
        // `5!!`: a double factorial, not `5!` and punctuation.
        Some('!') => before
            .strip_suffix('!')
            .is_some_and(|b| !b.ends_with('!') && factorial_operand(b)),
        Some(c) if c.is_ascii_digit() || matches!(c, ')' | ']' | '}') => true,
        Some(c) if c.is_alphabetic() => !rev.next().is_some_and(char::is_alphabetic),
        _ => false,
    }
}

/// Replaces every `\cmd{X}` of [`UNWRAP`] by `X` (nested ones too).
fn unwrap_commands(s: &str) -> String {
    // Every command starts with a backslash: without one there is nothing to unwrap (and no
    // substring searcher to build per command).
    if memchr::memchr(b'\\', s.as_bytes()).is_none() {
        return s.to_string();
    }
    let mut out = s.to_string();
    // Bounded: each pass removes at least one command.
    for _ in 0..64 {
        let mut changed = false;
        for cmd in UNWRAP {
            if let Some(pos) = out.find(cmd) {
                let after = pos + cmd.len();
                let arg_open = after
                    + out
                        .get(after..)
                        .map_or(0, |r| r.len() - r.trim_start().len());
                if let Some((cs, ce, end)) = braced(&out, arg_open) {
                    let inner = out.get(cs..ce).unwrap_or("").to_string();
                    let prefix = out.get(..pos).unwrap_or("").to_string();
                    let suffix = out.get(end..).unwrap_or("").to_string();
                    // A space keeps "5\text{ cm}" and "5\text{cm}" the same after squeezing.
                    out = format!("{prefix}{inner}{suffix}");
                    changed = true;
                } else if matches!(*cmd, "\\boxed" | "\\fbox") {
                    // `\boxed 5` shorthand: the command word alone is dropped.
                    out.replace_range(pos..after, "");
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    out
}

/// `(C)`, `C)`, `C.`, `C`, `option C`, `choice (C)`, `(C) 42` → `C` (letters A–J).
pub fn choice_letter(s: &str) -> Option<char> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let t = ["option", "choice"]
        .iter()
        .find_map(|p| {
            lower
                .strip_prefix(p)
                .map(|_| t.get(p.len()..).unwrap_or("").trim())
        })
        .unwrap_or(t);
    let b = t.as_bytes();
    let letter_at = |i: usize| {
        b.get(i)
            .copied()
            .filter(|c| (b'A'..=b'J').contains(c))
            .map(char::from)
    };
    match b {
        [l] => letter_at(0).filter(|_| l.is_ascii_uppercase()),
        [b'(', _, b')', rest @ ..] if rest.is_empty() || rest.first() == Some(&b' ') => {
            letter_at(1)
        }
        [_, b')' | b'.'] => letter_at(0),
        [_, b')', b' ', ..] => letter_at(0),
        _ => None,
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

/// `1.28*10^{-6} V/K`: a unit written as a ratio of two short symbols after a number in
/// scientific notation and a blank. The number before it, if so. (After a plain number the
/// unit stays: the comparison reads `299.4 km/s` with its unit.)
fn ratio_unit(s: &str) -> Option<&str> {
    let (number, unit) = s.rsplit_once(' ')?;
    let (top, bottom) = unit.split_once('/')?;
    let symbol = |w: &str| (1..=3).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_alphabetic());
    let ends_in_value = number.ends_with('}') && number.contains("*10^{");
    (symbol(top) && symbol(bottom) && ends_in_value).then_some(number.trim_end())
}

/// Units that count only with a power after them (`12 m^2`).
const AREA_UNITS: &[&str] = &["m", "in", "yd"];

/// Powers written after a unit (`cm^2`, `m³`): dropped with the unit.
const UNIT_POWERS: &[&str] = &["^{2}", "^{3}", "^2", "^3", "²", "³"];

/// Drops trailing unit words (`18 dollars`, `5cm`, `3 square feet` stays prose).
fn strip_units(s: &str) -> String {
    let mut out = s.trim_start_matches("USD").trim().to_string();
    if let Some(number) = ratio_unit(&out) {
        return number.to_string();
    }
    if let Some(power) = UNIT_POWERS.iter().find(|p| out.ends_with(*p)) {
        let base = out[..out.len() - power.len()].trim_end();
        // `m`, `in`, `yd` are units only with a power after a number (`12 m^2`); alone they
        // are too often variables or words.
        if let Some(number) = AREA_UNITS.iter().find_map(|u| {
            let n = base.strip_suffix(u)?;
            let before = n.as_bytes().last().copied()?;
            (before == b' ' || before.is_ascii_digit()).then_some(n.trim_end())
        }) {
            return number.to_string();
        }
        let stripped = strip_units(base);
        // Only a unit takes its power with it: `x^2` stays.
        if stripped != base {
            return stripped;
        }
    }
    for _ in 0..4 {
        let lower = out.to_ascii_lowercase();
        let hit = UNITS.iter().find(|u| {
            lower.ends_with(*u) && {
                let cut = lower.len() - u.len();
                let before = lower.as_bytes().get(cut.wrapping_sub(1)).copied();
                // attached only to a digit or after a space; never inside a longer word
                match before {
                    None => false,
                    Some(b) => !is_word_byte(b) || !u.is_ascii(),
                }
            }
        });
        match hit {
            Some(u) => {
                let cut = out.len() - u.len();
                out = out.get(..cut).unwrap_or("").trim_end().to_string();
            }
            None => break,
        }
    }
    if out.is_empty() {
        s.to_string()
    } else {
        out
    }
}

/// `12^{th}`, `12^\text{th}`, `21^{st}`, `12th` → `12`: an ordinal's value is its number
/// ("the 12th term" answers "which term"). Only after digits, so `x^{th}` stays.
fn strip_ordinal(s: &str) -> String {
    for suffix in [
        "^{th}", "^{st}", "^{nd}", "^{rd}", "^th", "^st", "^nd", "^rd", "th", "st", "nd", "rd",
    ] {
        if let Some(n) = s.strip_suffix(suffix) {
            let n = n.trim_end();
            if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
                return n.to_string();
            }
        }
    }
    s.to_string()
}

/// `2516_8`, `2516_{8}`, `(2516)_8` → `2516_{8}`: one spelling of a base-n numeral, which
/// `equiv` compares by value. Only digits (and letters, for bases over ten) before the
/// subscript, at least one of them a decimal digit, so `x_1` and `b_{16}` stay names.
fn base_subscript(s: &str) -> String {
    let Some((digits, base)) = s.rsplit_once('_') else {
        return s.to_string();
    };
    let base = base.trim_start_matches('{').trim_end_matches('}');
    let digits = digits
        .strip_prefix('(')
        .and_then(|d| d.strip_suffix(')'))
        .unwrap_or(digits);
    let base_ok = !base.is_empty() && base.len() <= 2 && base.bytes().all(|b| b.is_ascii_digit());
    let digits_ok = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_alphanumeric())
        && digits.bytes().any(|b| b.is_ascii_digit());
    if base_ok && digits_ok {
        format!("{digits}_{{{base}}}")
    } else {
        s.to_string()
    }
}

/// `1 000 000` → `1000000` when the whole answer is space-grouped digits.
fn join_space_thousands(s: &str) -> String {
    let mut parts = s.split(' ');
    let first = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    let first_ok = !first.is_empty()
        && first.len() <= 4
        && first
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit())
        && !first.trim_start_matches('-').is_empty();
    let rest_ok = !rest.is_empty()
        && rest.iter().enumerate().all(|(i, p)| {
            let p = if i + 1 == rest.len() {
                p.split('.').next().unwrap_or("")
            } else {
                p
            };
            p.len() == 3 && p.bytes().all(|b| b.is_ascii_digit())
        });
    if first_ok && rest_ok {
        s.replace(' ', "")
    } else {
        s.to_string()
    }
}

/// `1,234,567.5` → `1234567.5` when the whole answer is one comma-grouped number (a
/// comma followed by exactly three digits each time; `1,2` and `12,34` stay lists).
fn join_comma_thousands(s: &str) -> String {
    let body = s.strip_prefix('-').unwrap_or(s);
    let int = body.split('.').next().unwrap_or("");
    let frac_ok = body
        .split_once('.')
        .is_none_or(|(_, f)| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    let mut groups = int.split(',');
    let head = groups.next().unwrap_or("");
    // `0,111` is a decimal comma, never a thousand (no group starts with 0).
    let head_ok = (1..=3).contains(&head.len())
        && head.bytes().all(|b| b.is_ascii_digit())
        && !head.starts_with('0');
    let rest: Vec<&str> = groups.collect();
    let rest_ok = !rest.is_empty()
        && rest
            .iter()
            .all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()));
    if head_ok && rest_ok && frac_ok {
        s.replace(',', "")
    } else {
        s.to_string()
    }
}

/// `3 1/2` → `3\frac{1}{2}` (the evaluator reads an integer before `\frac` of integers as a
/// mixed number).
fn mixed_number(s: &str) -> String {
    let mut it = s.split(' ');
    if let (Some(whole), Some(frac), None) = (it.next(), it.next(), it.next()) {
        if let Some((n, d)) = frac.split_once('/') {
            let all_digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
            if all_digits(whole.trim_start_matches('-')) && all_digits(n) && all_digits(d) {
                return format!("{whole}\\frac{{{n}}}{{{d}}}");
            }
        }
    }
    s.to_string()
}

/// Removes spaces except where they separate two words or two numbers.
fn squeeze_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space {
            let prev = out.chars().last();
            let keep = prev.is_some_and(|p| p.is_alphanumeric()) && c.is_alphanumeric();
            if keep {
                out.push(' ');
            }
            pending_space = false;
        }
        out.push(c);
    }
    out
}

/// Words of two or more letters that are not LaTeX commands or math words.
fn prose_words(s: &str) -> usize {
    if !s.contains(' ') {
        // One token: "yes", "x=5", "\\frac{a}{b}" are answers, not sentences.
        return 0;
    }
    let b = s.as_bytes();
    let mut count = 0;
    let mut i = 0;
    while i < b.len() {
        if b.get(i).copied().is_some_and(is_word_byte) {
            let start = i;
            while b.get(i).copied().is_some_and(is_word_byte) {
                i += 1;
            }
            let is_command = start > 0 && b.get(start - 1) == Some(&b'\\');
            // The points that name an angle or a segment (`\angle ABC`, `\triangle PQR`) are
            // part of the value, not a word.
            let named = s.get(..start).is_some_and(|before| {
                let before = before.trim_end();
                before.ends_with("\\angle")
                    || before.ends_with("\\triangle")
                    || before.ends_with("\\measuredangle")
            }) && s
                .get(start..i)
                .is_some_and(|w| w.bytes().all(|c| c.is_ascii_uppercase()));
            let word = s.get(start..i).unwrap_or("").to_ascii_lowercase();
            if !is_command && !named && word.len() >= 2 && !MATH_WORDS.contains(&word.as_str()) {
                count += 1;
            }
        } else {
            i += 1;
        }
    }
    count
}

/// True when a normalised answer reads like a sentence rather than a math answer.
pub fn is_prose(normalized: &str) -> bool {
    prose_words(normalized) >= 1
        || normalized
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Picks the answer out of a sentence-like span: a `$…$` part, a choice letter, or the
/// first number. Returns the sub-span (relative to `raw`).
pub fn answer_in_prose(raw: &str) -> Option<(usize, usize)> {
    if let Some(open) = raw.find('$') {
        let close = raw.get(open + 1..)?.find('$')? + open + 1;
        if close > open + 1 {
            return Some((open, close + 1));
        }
    }
    if let Some(i) = raw.find('(') {
        if raw
            .get(i..i + 3)
            .is_some_and(|p| choice_letter(p).is_some())
        {
            return Some((i, i + 3));
        }
    }
    if let Some(span) = scan::next_number(raw, 0, raw.len()) {
        return Some(span);
    }
    let first_word = raw.split_whitespace().next()?;
    let start = raw.find(first_word)?;
    choice_letter(first_word).map(|_| (start, start + first_word.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_wrappers_and_spacing() {
        assert_eq!(normalize("$\\boxed{10\\,000}$"), "10000");
        assert_eq!(normalize("10{,}000"), "10000");
        // Spaces inside or around the braced comma (a Math-Verify case: `$14 {, }916$`).
        assert_eq!(normalize("14 {, }916"), "14916");
        assert_eq!(normalize("$14{ , } 916$"), "14916");
        assert_eq!(normalize("x_{, }"), "x_{,}");
        assert_eq!(normalize("1,234"), "1234");
        assert_eq!(normalize("-1,234,567.5"), "-1234567.5");
        assert_eq!(normalize("1,2345"), "1,2345");
        assert_eq!(normalize("12,34"), "12,34");
        assert_eq!(normalize("\\dfrac{1}{2}"), "\\frac{1}{2}");
        assert_eq!(normalize("\\tfrac12"), "\\frac12");
        assert_eq!(normalize("\\left( 1, 2 \\right)"), "(1,2)");
        assert_eq!(normalize("\\text{5 apples}."), "5 apples");
        assert_eq!(normalize("\\mathrm{x} = 3"), "x=3");
        assert_eq!(normalize("3\\!000"), "3000");
        assert_eq!(normalize("<<8=8>>8"), "8");
        // Matrix row breaks survive the spacing rewrites.
        assert_eq!(
            normalize("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}"),
            "\\begin{pmatrix}1\\\\2\\end{pmatrix}"
        );
        assert_eq!(normalize("\\varnothing"), "\\emptyset");
    }

    #[test]
    fn units_with_powers() {
        assert_eq!(normalize("5\\text{ cm}^2"), "5");
        assert_eq!(normalize("12 km^{2}"), "12");
        assert_eq!(normalize("12\\text{ m}^2"), "12");
        assert_eq!(normalize("3m^3"), "3");
        assert_eq!(normalize("m^2"), "m^2");
        assert_eq!(normalize("x^2"), "x^2");
        assert_eq!(normalize("3^2"), "3^2");
    }

    #[test]
    fn units_percent_degrees_punctuation() {
        assert_eq!(normalize("18 dollars."), "18");
        assert_eq!(normalize("\\$18"), "18");
        assert_eq!(normalize("5\\text{ cm}"), "5");
        assert_eq!(normalize("5cm"), "5");
        assert_eq!(normalize("20\\%"), "20%");
        assert_eq!(normalize("90^\\circ"), "90");
        assert_eq!(normalize("90^{\\circ}"), "90");
        assert_eq!(normalize("42。"), "42");
        assert_eq!(normalize("7 years"), "7");
    }

    #[test]
    fn unicode_operators() {
        assert_eq!(normalize("−7"), "-7");
        assert_eq!(normalize("3×4"), "3*4");
        assert_eq!(normalize("6÷2"), "6/2");
        assert_eq!(normalize("√2"), "\\sqrt2");
        assert_eq!(normalize("2π"), "2\\pi");
    }

    #[test]
    fn thousands_in_isolated_answers() {
        assert_eq!(normalize("1 000"), "1000");
        assert_eq!(normalize("1 000 000.5"), "1000000.5");
        assert_eq!(normalize("1 2"), "1 2");
    }

    #[test]
    fn mixed_numbers_and_words() {
        assert_eq!(normalize("3 1/2"), "3\\frac{1}{2}");
        assert_eq!(normalize("seventy six"), "76");
        assert_eq!(normalize("Three."), "3");
    }

    #[test]
    fn choice_letters() {
        for s in [
            "(C)",
            "C)",
            "**C**",
            "\\boxed{C}",
            "option C",
            "C.",
            "C",
            "(C) 42",
        ] {
            assert_eq!(normalize(s), "C", "{s}");
        }
        assert_eq!(choice_letter("K"), None);
        assert_eq!(choice_letter("x"), None);
    }

    #[test]
    fn prose_detection() {
        assert!(is_prose("5 because it is"));
        assert!(!is_prose("\\frac{\\sqrt{3}}{2}"));
        assert!(!is_prose("x=5"));
        assert_eq!(answer_in_prose("(E) since"), Some((0, 3)));
        assert_eq!(answer_in_prose("5 because 2+3"), Some((0, 1)));
        assert_eq!(
            answer_in_prose("half, i.e. $\\frac12$ of it"),
            Some((11, 20))
        );
    }

    #[test]
    fn braces_nest() {
        assert_eq!(braced("{a{b}c}d", 0), Some((1, 6, 7)));
        assert_eq!(braced("{a\\}b}", 0), Some((1, 5, 6)));
        assert_eq!(braced("{ab", 0), None);
    }
}
