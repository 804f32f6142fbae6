//! The rule chain: each rule finds its **last** occurrence in the visible text (outside
//! `<think>…</think>`); rules are then ranked by priority. Hand-written scanners only.

use super::normalize::{answer_in_prose, choice_letter, is_prose, normalize};
use super::scan::{find_from, find_str, find_with, last_number, next_number};
use super::{Candidate, Method};
use memchr::memmem::Finder;
use std::sync::LazyLock;

/// Byte ranges hidden from extraction: reasoning inside `<think>…</think>` (and Sky-T1's
/// `<|begin_of_thought|>…<|end_of_thought|>`), chat-template tokens (`<|end_of_solution|>`),
/// and a new chat turn the model wrote after its answer (`<|im_start|>user …` to the end).
/// See docs/extract.md, "What counts as the final answer".
struct Hidden {
    ranges: Vec<(usize, usize)>,
    /// The thought blocks that were closed: (start, position of the closing tag).
    closed_thoughts: Vec<(usize, usize)>,
}

/// Tags that open and close a thought block (lower case).
const THOUGHT_OPEN: [&[u8]; 2] = [b"<think>", b"<|begin_of_thought|>"];
const THOUGHT_CLOSE: [&[u8]; 2] = [b"</think>", b"<|end_of_thought|>"];

/// The length of the tag of `tags` that `rest` starts with.
fn tag_at(rest: &[u8], tags: &[&[u8]]) -> Option<usize> {
    tags.iter().find(|t| rest.starts_with(t)).map(|t| t.len())
}

/// The length of a chat-template token (`<|name|>`, a short name of letters, digits and `_`)
/// that `rest` starts with.
fn special_token(rest: &[u8]) -> Option<usize> {
    let name = rest.strip_prefix(b"<|")?;
    let end = name.iter().take(40).position(|&b| b == b'|')?;
    let ok = end > 0
        && name
            .get(..end)
            .is_some_and(|n| n.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_'))
        && name.get(end + 1) == Some(&b'>');
    ok.then_some(end + 4)
}

/// Closing tokens that are no part of an answer (lower case): GAOKAO-Bench's end-of-answer
/// and end-of-explanation marks (`【答案】: A <eoa>`), and end-of-sequence debris of chat
/// templates (`</s><s>`, `[/INST]`). docs/extract.md, "Exam outputs".
const CLOSING_TOKENS: [&[u8]; 5] = [b"<eoa>", b"<eoe>", b"</s>", b"<s>", b"[/inst]"];

/// The marker words every text is searched for (lower case), as searchers built once: see
/// [`find_with`].
static ANSWER_TAG: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"<answer>"));
static ANSWER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"answer"));
static OPTION: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"option"));
static CHOICE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"choice"));

/// The length of a closing token that `rest` (lower case) starts with.
fn closing_token(rest: &[u8]) -> Option<usize> {
    tag_at(rest, &CLOSING_TOKENS)
}

/// What any tag [`Hidden::of`] hides contains, besides a closing token: `hink>` (thought tags)
/// or `<|` (chat-template tokens).
const TAG_HINTS: [&[u8]; 2] = [b"hink>", b"<|"];

/// Whether `lower` holds one of the [`TAG_HINTS`] or [`CLOSING_TOKENS`]: one pass over the bytes
/// they end with (`>`, `|`, `]`), where a substring search for each read the whole text seven
/// times.
fn has_tag_hint(lower: &[u8]) -> bool {
    memchr::memchr3_iter(b'>', b'|', b']', lower).any(|i| {
        let upto = lower.get(..=i).unwrap_or(&[]);
        TAG_HINTS
            .iter()
            .chain(&CLOSING_TOKENS)
            .any(|h| upto.ends_with(h))
    })
}

impl Hidden {
    fn of(lower: &[u8]) -> Hidden {
        let mut h = Hidden {
            ranges: Vec::new(),
            closed_thoughts: Vec::new(),
        };
        // Most texts have no tag at all: one pass over a few bytes says so (the walk below
        // stops at every `<`, and GSM8K's `<<…>>` hold many).
        if !has_tag_hint(lower) {
            return h;
        }
        // One pass over the `<`s. `open`: where the current thought block started.
        let mut open: Option<usize> = None;
        let mut seen_open = false;
        let mut skip_to = 0;
        for i in memchr::memchr_iter(b'<', lower) {
            if i < skip_to {
                continue;
            }
            let rest = lower.get(i..).unwrap_or(&[]);
            if let Some(len) = tag_at(rest, &THOUGHT_OPEN) {
                if open.is_none() {
                    open = Some(i);
                    seen_open = true;
                }
                skip_to = i + len;
            } else if let Some(len) = tag_at(rest, &THOUGHT_CLOSE) {
                match open.take() {
                    Some(o) => {
                        h.ranges.push((o, i + len));
                        h.closed_thoughts.push((o, i));
                    }
                    // A reply that starts mid-thought has a closing tag without an opening
                    // one: everything before it is reasoning.
                    None if !seen_open && h.ranges.is_empty() => {
                        h.ranges.push((0, i + len));
                        h.closed_thoughts.push((0, i));
                        seen_open = true;
                    }
                    None => {}
                }
                skip_to = i + len;
            } else if open.is_some() {
                continue;
            } else if rest.starts_with(b"<|im_start|>user")
                || rest.starts_with(b"<|im_start|>system")
            {
                // A next turn after the answer (a chat-template leftover): not the model's
                // solution.
                h.ranges.push((i, lower.len()));
                return h;
            } else if let Some(len) = special_token(rest).or_else(|| closing_token(rest)) {
                h.ranges.push((i, i + len));
                skip_to = i + len;
            }
        }
        // `[INST]` opens the next user turn of a Llama-style template: what follows is not
        // the model's solution.
        // One inside a thought block or a hidden token is quoted, not a new turn.
        let turn = memchr::memmem::find_iter(lower, b"[inst]").find(|&at| !h.covers(at));
        if let Some(at) = turn {
            h.ranges.retain(|&(s, _)| s < at);
            h.ranges.push((at, lower.len()));
        }
        if let Some(o) = open {
            // An unclosed thought runs to the end: the model never concluded.
            h.ranges.push((o, lower.len()));
        }
        h
    }

    fn covers(&self, pos: usize) -> bool {
        // The ranges are sorted and disjoint: a binary search keeps many boxes in a text with
        // many `<think>` blocks linear-logarithmic instead of quadratic.
        let i = self.ranges.partition_point(|&(s, _)| s <= pos);
        i > 0
            && self
                .ranges
                .get(i - 1)
                .is_some_and(|&(s, e)| pos >= s && pos < e)
    }

    /// Visible sub-ranges of `0..len`.
    fn visible(&self, len: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = 0;
        for &(s, e) in &self.ranges {
            if s > at {
                out.push((at, s));
            }
            at = at.max(e);
        }
        if at < len {
            out.push((at, len));
        }
        out
    }
}

pub(super) fn trim_span(text: &str, s: usize, e: usize) -> Option<(usize, usize)> {
    let part = text.get(s..e)?;
    let lead = part.len() - part.trim_start().len();
    let trail = part.len() - part.trim_end().len();
    let (s2, e2) = (s + lead, e - trail);
    (s2 < e2).then_some((s2, e2))
}

fn make(text: &str, method: Method, span: (usize, usize)) -> Option<Candidate> {
    let raw = text.get(span.0..span.1)?;
    let answer = match factorial_in_box(&method, raw) {
        Some(operand) => format!("{}!", normalize(operand)),
        None => normalize(raw),
    };
    if answer.is_empty() {
        return None;
    }
    Some(Candidate {
        method,
        answer,
        raw: raw.to_string(),
        span,
        several: Vec::new(),
    })
}

/// Like [`make`], for a final equation's list of values already normalised (`2, 3` from
/// `$x = 2$ and $x = 3$`): one answer, the values joined by commas.
fn value_list(text: &str, span: (usize, usize), answers: &[String]) -> Option<Candidate> {
    Some(Candidate {
        method: Method::FinalEquation,
        answer: answers.join(","),
        raw: text.get(span.0..span.1)?.to_string(),
        span,
        several: Vec::new(),
    })
}

/// Like [`make`], but a sentence-like capture is narrowed to the answer inside it.
fn make_from_capture(text: &str, method: Method, span: (usize, usize)) -> Option<Candidate> {
    let c = make(text, method.clone(), span)?;
    // `1和3`, `A、B`: a Chinese list of values is one answer, all of them.
    if c.answer.contains(CHINESE_CONNECTORS) {
        if let Some(list) = joined_values(&c.answer) {
            return Some(Candidate { answer: list, ..c });
        }
    }
    let computed = c.raw.contains("<<") || is_prose(&c.answer);
    if computed && !equation_answer(text, span) {
        // "the final answer is 15 gallons * 8 = <<15*8=120>>120 pints": the result of the
        // capture's last equation, not its first number.
        if let Some(eq) = last_equals(text, span.0, span.1) {
            if let Some(n) = next_number(text, eq + 1, span.1) {
                return make(text, method, n);
            }
        }
    }
    if !is_prose(&c.answer) {
        return Some(c);
    }
    // "The final answer is "$12$ and $13$"": every value of a list of math spans, not the
    // first one alone.
    let spans = math_spans(text, span.0, span.1);
    if let Some(list) = value_list_line(text, &spans, span.0, span.1) {
        return Some(Candidate { method, ..list });
    }
    let Some((s, e)) = stated_value(&c.raw).or_else(|| answer_in_prose(&c.raw)) else {
        return text_answer(text, method, span);
    };
    let inner = trim_span(text, span.0 + s, span.0 + e)?;
    make(text, method, inner)
}

/// Truth values that answer a question when a marker's sentence starts with them.
const TRUTH_VALUES: [&str; 4] = ["true", "false", "yes", "no"];

/// A marker's capture that holds no value: a truth value opening it ("the answer is True: the
/// function is convex"), or a short Chinese text answer (`【答案】分层抽样。`), compared as text
/// (docs/extract.md, "Exam outputs"). Other prose stays no answer.
fn text_answer(text: &str, method: Method, span: (usize, usize)) -> Option<Candidate> {
    let raw = text.get(span.0..span.1)?;
    let lead = raw.len() - raw.trim_start_matches(['*', ' ']).len();
    let word_len = raw
        .get(lead..)?
        .bytes()
        .take_while(u8::is_ascii_alphabetic)
        .count();
    let word = raw.get(lead..lead + word_len)?.to_ascii_lowercase();
    // The word alone, or closed by punctuation ("True: the function is convex", "Yes."):
    // "No answer", "no real solution" are statements, not the truth value "no".
    let closed = raw
        .get(lead + word_len..)?
        .trim_start_matches([' ', '*'])
        .chars()
        .next()
        .is_none_or(|c| {
            matches!(
                c,
                ':' | '.' | ',' | ';' | '!' | '：' | '，' | '。' | '；' | '$'
            )
        });
    if closed && TRUTH_VALUES.contains(&word.as_str()) {
        return make(text, method, (span.0 + lead, span.0 + lead + word_len));
    }
    // `【答案】见解析` / `如上所述` points at the explanation: no answer itself, the other rules
    // read the explanation's conclusion.
    if ["解析", "见", "如上", "上述", "略"]
        .iter()
        .any(|w| raw.contains(w))
    {
        return None;
    }
    let chinese_only = raw.chars().count() <= 20
        && raw
            .chars()
            .all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c) || c == '、' || c == ' ');
    chinese_only.then(|| make(text, method, span)).flatten()
}

/// Words and marks that join a list of values in Chinese ("and", "or", the enumeration comma).
const CHINESE_CONNECTORS: [char; 5] = ['和', '与', '或', '及', '、'];

/// Whether the last `=` of a capture sits in a math span whose right side has a variable
/// (`切线方程为 $y=5x+2$`): the equation is the answer (a line, a circle), not a computation
/// whose result follows the `=` (docs/extract.md, "Exam outputs").
fn equation_answer(text: &str, span: (usize, usize)) -> bool {
    let Some(eq) = last_equals(text, span.0, span.1) else {
        return false;
    };
    math_spans(text, span.0, span.1)
        .into_iter()
        .find(|&(s, e)| s <= eq && eq < e)
        .and_then(|(_, e)| text.get(eq + 1..e))
        .is_some_and(has_variable)
}

/// Whether `math` has a letter outside `\commands` (`\frac` is no variable, `x` is).
fn has_variable(math: &str) -> bool {
    let mut in_command = false;
    for c in math.chars() {
        if c == '\\' {
            in_command = true;
        } else if c.is_ascii_alphabetic() {
            if !in_command {
                return true;
            }
        } else {
            in_command = false;
        }
    }
    false
}

/// Verbs that state a sentence's value: "The volume of $ABCDEFGH$ is 120".
const STATING_VERBS: [&str; 6] = [
    " is ",
    " are ",
    " equals ",
    " was ",
    " will be ",
    " would be ",
];

/// In a sentence captured after a marker ("Final Answer: The largest $n$ is 34."), the value
/// its verb states, relative to `raw`: what follows the first stating verb that has a value
/// after it. The math before the verb names the subject (`$n$`, `$f(x)$`), it is not the
/// answer (docs/extract.md, "What counts as the final answer"). `None` when no verb is
/// followed by a value ("$x = 5$ is the solution"): the first value then, as before.
fn stated_value(raw: &str) -> Option<(usize, usize)> {
    let lower = raw.to_ascii_lowercase();
    let mut verbs: Vec<usize> = STATING_VERBS
        .iter()
        .filter_map(|v| lower.find(v).map(|at| at + v.len()))
        .collect();
    verbs.sort_unstable();
    verbs.into_iter().find_map(|after| {
        let (s, e) = answer_in_prose(raw.get(after..)?)?;
        Some((after + s, after + e))
    })
}

fn answer_tag(text: &str, lower: &[u8], hidden: &Hidden) -> Option<Candidate> {
    let mut best = None;
    let mut pos = 0;
    while let Some(open) = find_with(lower, &ANSWER_TAG, pos) {
        let start = open + 8;
        let Some(close) = find_from(lower, b"</answer>", start) else {
            break;
        };
        pos = close + 9;
        if hidden.covers(open) {
            continue;
        }
        if let Some(span) = trim_span(text, start, close) {
            best = make(text, Method::AnswerTag, span).or(best);
        }
    }
    best
}

/// Every `{` of `text` with its matching `}`, found in one pass (same rules as `normalize::braced`:
/// `\{`, `\}` do not nest). Sorted by the opening position.
fn brace_pairs(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut open = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 1,
            b'{' => open.push(i),
            b'}' => {
                if let Some(o) = open.pop() {
                    pairs.push((o, i));
                }
            }
            _ => {}
        }
        i += 1;
    }
    pairs.sort_unstable();
    pairs
}

fn boxed(text: &str, hidden: &Hidden) -> Option<Candidate> {
    let bytes = text.as_bytes();
    let mut best: Option<Candidate> = None;
    let mut all: Vec<String> = Vec::new();
    let mut pos = 0;
    // Matched lazily and once: looking for the closing brace of each `\boxed{` separately
    // rescanned to the end of the text for every unclosed one (a 1 MB line took a minute).
    let mut pairs: Option<Vec<(usize, usize)>> = None;
    while let Some(at) = find_from(bytes, b"\\", pos) {
        pos = at + 1;
        let cmd_len = if bytes.get(at..at + 6) == Some(b"\\boxed") {
            6
        } else if bytes.get(at..at + 5) == Some(b"\\fbox") {
            5
        } else {
            continue;
        };
        if hidden.covers(at) {
            continue;
        }
        let mut i = at + cmd_len;
        while bytes.get(i) == Some(&b' ') {
            i += 1;
        }
        let span = if bytes.get(i) == Some(&b'{') {
            let pairs = pairs.get_or_insert_with(|| brace_pairs(bytes));
            pairs
                .binary_search_by_key(&i, |&(o, _)| o)
                .ok()
                .and_then(|k| pairs.get(k))
                .map(|&(o, c)| (o + 1, c))
        } else if i > at + cmd_len {
            // `\boxed 5` shorthand: the next token.
            let mut e = i;
            while bytes
                .get(e)
                .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'$')
            {
                e += 1;
            }
            Some((i, e))
        } else {
            None
        };
        if let Some((s, e)) = span.and_then(|(s, e)| trim_span(text, s, e)) {
            if let Some(c) = make(text, Method::Boxed, (s, e)) {
                // Several boxes ("\boxed{2} and \boxed{3}"): kept for a gold with several
                // answers; bounded so a hostile text of boxes stays linear.
                if all.len() < 64 && !all.contains(&c.answer) {
                    all.push(c.answer.clone());
                }
                best = Some(c);
            }
            pos = e;
        }
    }
    if let Some(b) = best.as_mut() {
        if all.len() >= 2 {
            b.several = all;
        }
    }
    best
}

const FULLWIDTH_STOPS: [&str; 4] = ["。", "，", "；", "！"];

/// Whether a closing token or `[INST]` starts at `i` (any case).
fn closing_at(bytes: &[u8], i: usize) -> bool {
    let rest = bytes.get(i..).unwrap_or(&[]);
    let head: Vec<u8> = rest.iter().take(7).map(u8::to_ascii_lowercase).collect();
    closing_token(&head).is_some() || head.starts_with(b"[inst]")
}

/// End of an answer captured after a marker: the end of its sentence or line.
fn capture_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let limit = (start + 300).min(bytes.len());
    let mut in_math = false;
    let mut depth = 0i32;
    let mut i = start;
    while i < limit {
        let b = bytes.get(i).copied().unwrap_or(b'\n');
        match b {
            b'\n' => return i,
            // A chat-template token (`27.<|end_of_solution|>`) or a closing token
            // (`A <eoa>`, `5</s>`, `[INST]`) ends the answer.
            b'<' | b'[' if bytes.get(i + 1) == Some(&b'|') || closing_at(bytes, i) => return i,
            b'$' => in_math = !in_math,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'.' | b'!' | b'?' | b';' if !in_math => {
                let next = bytes.get(i + 1).copied();
                let decimal = b == b'.'
                    && next.is_some_and(|n| n.is_ascii_digit())
                    && i > start
                    && bytes.get(i - 1).is_some_and(u8::is_ascii_digit);
                // `Final Answer: 7!` ends on a factorial, not an exclamation: after a colon
                // marker, a `!` right after the digits of a bare value at the end of the line
                // is kept (read as `7` it made `7!` equal to `7`). In a sentence
                // ("The answer is 42!") it stays punctuation.
                let factorial = b == b'!'
                    && text
                        .get(..start)
                        .is_some_and(|before| before.trim_end().ends_with(':'))
                    && next.is_none_or(|n| n == b'\n' || n == b'\r')
                    && i > start
                    && bytes.get(i - 1).is_some_and(u8::is_ascii_digit)
                    && text
                        .get(start..i)
                        .is_some_and(|v| v.trim().bytes().all(|c| c.is_ascii_digit()));
                if factorial {
                    return i + 1;
                }
                if !decimal && next.is_none_or(|n| n.is_ascii_whitespace() || n == b'*') {
                    return i;
                }
            }
            b',' if !in_math && depth <= 0 => {
                let next = bytes.get(i + 1).copied();
                let after = bytes.get(i + 2).copied();
                // `A, B <eoa>`: a list of option letters goes on; `5, which is` ends.
                let letter_list = after.is_some_and(|a| (b'A'..=b'J').contains(&a))
                    && !bytes
                        .get(i + 3)
                        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
                if next == Some(b' ')
                    && after.is_some_and(|a| a.is_ascii_alphabetic())
                    && !letter_list
                {
                    return i;
                }
            }
            0xE3 | 0xEF if !in_math => {
                let rest = text.get(i..).unwrap_or("");
                if FULLWIDTH_STOPS.iter().any(|s| rest.starts_with(s)) {
                    return i;
                }
                // A full-width full stop (`2．`) ends the answer, unless it is a decimal point
                // between digits (`2．5`).
                if let Some(after) = rest.strip_prefix('．') {
                    if !after.starts_with(|c: char| c.is_ascii_digit()) {
                        return i;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Do not end inside a multi-byte character.
    text.floor_char_boundary(limit)
}

/// Skips the glue between a marker and its answer: spaces, `:`, `：`, `**`, "is", "=".
fn skip_glue(text: &str, mut i: usize) -> usize {
    loop {
        let rest = text.get(i..).unwrap_or("");
        let trimmed = rest.trim_start_matches([' ', '\t', ':', '*', '=']);
        let trimmed = trimmed.trim_start_matches('：');
        let trimmed = ["是", "为", "is ", "indeed "]
            .iter()
            .find_map(|w| trimmed.strip_prefix(w))
            .unwrap_or(trimmed);
        let next = i + (rest.len() - trimmed.len());
        if next == i {
            return i;
        }
        i = next;
    }
}

/// Where the answer text starts after an English marker word ("answer", "option") of
/// `word_len` bytes at `at`, if it is used as a marker.
fn english_marker(lower: &[u8], at: usize, word_len: usize) -> Option<usize> {
    if at > 0 && lower.get(at - 1).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    let mut i = at + word_len;
    while matches!(lower.get(i), Some(b' ' | b'*')) {
        i += 1;
    }
    match lower.get(i)? {
        b':' => Some(i + 1),
        0xEF if lower.get(i..i + 3) == Some("：".as_bytes()) => Some(i + 3),
        _ => {
            for verb in [&b"is"[..], b"would be", b"should be", b"will be", b"="] {
                let end = i + verb.len();
                if lower.get(i..end) == Some(verb)
                    && !lower.get(end).is_some_and(u8::is_ascii_alphanumeric)
                {
                    return Some(end);
                }
            }
            None
        }
    }
}

/// "Answer \\( (9+1) \\)", "Answer $\\frac{10}{9}$": the word "Answer" opening a line, with
/// no colon, right before a math span labels that span as the answer. Where the math starts,
/// if so. Mid-sentence ("the answer $x$ we found") is not a label.
fn answer_label_before_math(text: &str, at: usize) -> Option<usize> {
    // Only the list marks and blanks just before it are read (never the whole line: a long
    // line of "answer"s stays linear).
    let before = text.get(..at)?.trim_end_matches([' ', '\t', '*', '#']);
    if !(before.is_empty() || before.ends_with('\n')) || !text.get(at..)?.starts_with("Answer") {
        return None;
    }
    let after = at + "Answer".len();
    let rest = text.get(after..)?;
    let math = rest.trim_start_matches([' ', '\t', '*']);
    (math.starts_with('$') || math.starts_with("\\(") || math.starts_with("\\["))
        .then_some(after + rest.len() - math.len())
}

/// Where the answer starts after a Chinese "答案" at `at`, if it is a marker.
fn chinese_marker(text: &str, at: usize) -> Option<usize> {
    let after = at + "答案".len();
    let rest = text.get(after..)?.trim_start();
    let ws = text.get(after..)?.len() - rest.len();
    let final_marker = text.get(..at)?.ends_with("最终");
    // `【答案】`, GAOKAO-Bench's answer section (and `[答案]`): the bracket closes the label.
    let before = text.get(..at)?;
    if (before.ends_with('【') && rest.starts_with('】'))
        || (before.ends_with('[') && rest.starts_with(']'))
    {
        let close = if rest.starts_with('】') {
            "】".len()
        } else {
            1
        };
        return Some(after + ws + close);
    }
    for glue in ["是", "为", "：", ":"] {
        if rest.starts_with(glue) {
            return Some(after + ws + glue.len());
        }
    }
    final_marker.then_some(after + ws)
}

/// Words before `选` ("choose") that make it the conclusion of a multiple-choice solution.
const CHOOSING_OPENERS: [&str; 8] = ["故", "应", "所以", "因此", "因而", "则", "即", "答案"];

/// Whether `rest` starts (after blanks, `:`, `$`, `*`) with option letters A–J that are not
/// the start of a word or a variable (`故选 B`, `故选：$ D $`, `故选AC`; not `故选 Alice`).
fn starts_with_letters(rest: &str) -> bool {
    let mut t = rest.trim_start_matches([' ', ':', '：', '$', '*', '(', '（', '\t']);
    // Font commands around the letter: `$\mathrm{\mathbf{(B)}}$`, `\textbf{C}`.
    while let Some(r) = ["\\mathrm", "\\mathbf", "\\textbf", "\\text", "{"]
        .iter()
        .find_map(|w| t.strip_prefix(w))
    {
        t = r.trim_start_matches([' ', '(', '（']);
    }
    let letters = t.bytes().take_while(|b| (b'A'..=b'J').contains(b)).count();
    letters > 0
        && !t
            .as_bytes()
            .get(letters)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'^')
}

fn final_marker(text: &str, lower: &[u8], hidden: &Hidden) -> Option<Candidate> {
    let mut starts = Vec::new();
    let mut pos = 0;
    while let Some(at) = find_with(lower, &ANSWER, pos) {
        pos = at + 6;
        if let Some(s) =
            english_marker(lower, at, "answer".len()).or_else(|| answer_label_before_math(text, at))
        {
            starts.push((at, s));
        }
    }
    // "The correct option is (C)", "choice: B": a marker only when a choice letter follows
    // ("one option is to double it" is not an answer).
    for (word, finder) in [(&b"option"[..], &*OPTION), (b"choice", &*CHOICE)] {
        pos = 0;
        while let Some(at) = find_with(lower, finder, pos) {
            pos = at + word.len();
            if let Some(s) = english_marker(lower, at, word.len()) {
                let rest = text.get(s..).unwrap_or("").trim_start_matches([' ', '\t']);
                // The letter on the marker's own line: "each option:\n\n**A. …" lists them.
                if rest.starts_with(['\n', '\r']) {
                    continue;
                }
                let head = rest
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .next()
                    .unwrap_or("")
                    .trim_end_matches(['.', '。', '．'])
                    .trim_matches(['$', '*']);
                if choice_letter(head).is_some() {
                    starts.push((at, s));
                }
            }
        }
    }
    let bytes = text.as_bytes();
    pos = 0;
    while let Some(at) = find_from(bytes, "答案".as_bytes(), pos) {
        pos = at + 6;
        if let Some(s) = chinese_marker(text, at) {
            starts.push((at, s));
        }
    }
    // `故选：$ D $．`, `所以选 B`, `故答案选C`: a choosing verb after a concluding word, with
    // option letters right after it.
    pos = 0;
    while let Some(at) = find_from(bytes, "选".as_bytes(), pos) {
        pos = at + "选".len();
        let before = text.get(..at).unwrap_or("");
        if CHOOSING_OPENERS.iter().any(|w| before.ends_with(w))
            && starts_with_letters(text.get(pos..).unwrap_or(""))
        {
            starts.push((at, pos));
        }
    }
    // `因此，选项为 $\mathrm{\mathbf{(B)}}$`, `正确选项是 C`: "the option is" with letters right
    // after it (`选项 A 中…` discusses an option and has no `为`/`是`).
    pos = 0;
    while let Some(at) = find_from(bytes, "选项".as_bytes(), pos) {
        pos = at + "选项".len();
        let rest = text.get(pos..).unwrap_or("");
        let glued = ["为", "是", "：", ":"]
            .iter()
            .find_map(|g| rest.trim_start_matches(' ').strip_prefix(g));
        if let Some(after) = glued {
            if starts_with_letters(after) {
                starts.push((at, text.len() - after.len()));
            }
        }
    }
    starts.sort_unstable();
    // The last marker wins; an empty capture falls back to the one before it.
    starts
        .iter()
        .rev()
        .filter(|(at, _)| !hidden.covers(*at))
        .find_map(|&(_, s)| {
            let mut s = skip_glue(text, s);
            // "Final Answer:\n42": the answer may sit on the next line.
            let rest = text.get(s..).unwrap_or("");
            if rest.starts_with('\n') || rest.starts_with("\r\n") {
                s += rest.len() - rest.trim_start().len();
            }
            let e = capture_end(text, s);
            let span = trim_span(text, s, e)?;
            make_from_capture(text, Method::FinalAnswerMarker, span)
        })
}

/// `# Answer` (any heading level, "Final Answer" too, an optional `:`) alone on its line: the
/// answer is the block of lines below it, up to a blank line or the next heading. PRM800K
/// solutions end this way, and without the rule the last number of the block won
/// (`\frac{3}{4}` → 4).
fn answer_heading(text: &str, lower: &[u8], hidden: &Hidden) -> Option<Candidate> {
    // Walks the `#`s, not the "answer"s: most texts have no `#` at all, while "answer" is
    // frequent prose (and the marker rule already scans for it).
    let mut pos = 0;
    let mut last = None;
    while let Some(hash) = lower.get(pos..).and_then(|r| memchr::memchr(b'#', r)) {
        let hash = pos + hash;
        pos = hash + 1;
        if hash > 0 && lower.get(hash - 1) != Some(&b'\n') {
            continue;
        }
        let mut at = hash;
        while lower.get(at) == Some(&b'#') {
            at += 1;
        }
        pos = at;
        while matches!(lower.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        if lower.get(at..at + 6) == Some(b"final ") {
            at += 6;
        }
        if lower.get(at..at + 6) != Some(b"answer") || hidden.covers(at) {
            continue;
        }
        let end = line_end(lower, at);
        let rest = lower.get(at + 6..end)?;
        if rest
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b':' | b'*'))
        {
            last = Some(end);
        }
        pos = end;
    }
    let mut start = last?;
    // Skip blank lines to the block.
    let bytes = text.as_bytes();
    while matches!(bytes.get(start), Some(b'\n' | b'\r' | b' ' | b'\t')) {
        start += 1;
    }
    // The block: lines until a blank line or a heading, at most 1,000 bytes.
    let mut end = start;
    while end < bytes.len() && end - start < 1000 {
        let le = line_end(bytes, end);
        let line = text.get(end..le)?.trim();
        if line.is_empty() || (end > start && line.starts_with('#')) {
            break;
        }
        end = le + 1;
    }
    let span = trim_span(text, start, end.min(bytes.len()))?;
    make_from_capture(text, Method::AnswerHeading, span)
}

/// The value of the last `"answer"` / `"final_answer"` key of a JSON object in the text
/// (JSON mode replies, often in a ```json fence): a string (decoded, then normalised) or a
/// number. The span is the value's text inside the quotes.
fn json_field(text: &str, lower: &[u8], hidden: &Hidden) -> Option<Candidate> {
    // One SIMD pass over the quotes (most texts have none), each checked against the keys:
    // a scan per key cost GSM8K's throughput ~10 %.
    let mut keys = Vec::new();
    for at in memchr::memchr_iter(b'"', lower) {
        let rest = lower.get(at..).unwrap_or(&[]);
        let key = [&b"\"answer\""[..], b"\"final_answer\"", b"\"finalanswer\""]
            .into_iter()
            .find(|k| rest.starts_with(k));
        if let Some(k) = key {
            if !hidden.covers(at) {
                keys.push(at + k.len());
            }
        }
    }
    // The last key with a readable value; only a few are tried so that a text of many keys
    // (each value read up to 4,000 bytes) stays linear.
    keys.iter().rev().take(4).find_map(|&k| json_value(text, k))
}

/// Reads `: "value"` or `: 42` at `from` (after a key).
fn json_value(text: &str, from: usize) -> Option<Candidate> {
    let bytes = text.as_bytes();
    let mut i = from;
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    if bytes.get(i) != Some(&b':') {
        return None;
    }
    i += 1;
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    if bytes.get(i) == Some(&b'"') {
        // The closing quote: the first one not escaped; bounded like a marker's capture.
        let open = i;
        let mut j = i + 1;
        let limit = (open + 4000).min(bytes.len());
        while j < limit {
            match bytes.get(j) {
                Some(b'\\') => j += 2,
                Some(b'"') => break,
                _ => j += 1,
            }
        }
        if bytes.get(j) != Some(&b'"') {
            return None;
        }
        let decoded: String = serde_json::from_str(text.get(open..=j)?).ok()?;
        let span = trim_span(text, open + 1, j)?;
        let raw = text.get(span.0..span.1)?;
        // A sentence in the field ("The answer is 42") is read like any capture.
        let inner = super::extract(&decoded, None);
        let answer = match inner {
            Some(e) if is_prose(&normalize(&decoded)) => e.answer,
            _ => normalize(&decoded),
        };
        return (!answer.is_empty()).then(|| Candidate {
            method: Method::JsonField,
            answer,
            raw: raw.to_string(),
            span,
            several: Vec::new(),
        });
    }
    let mut j = i;
    while bytes
        .get(j)
        .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
    {
        j += 1;
    }
    let span = trim_span(text, i, j)?;
    make(text, Method::JsonField, span)
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    find_from(bytes, b"\n", from).unwrap_or(bytes.len())
}

fn hash_marker(text: &str, hidden: &Hidden) -> Option<Candidate> {
    let bytes = text.as_bytes();
    let mut last = None;
    let mut pos = 0;
    while let Some(at) = find_from(bytes, b"####", pos) {
        pos = at + 4;
        if !hidden.covers(at) {
            last = Some(at);
        }
    }
    let at = last?;
    let mut s = at;
    while bytes.get(s) == Some(&b'#') {
        s += 1;
    }
    let span = trim_span(text, s, line_end(bytes, s))?;
    make_from_capture(text, Method::HashMarker, span)
}

/// The whole visible text, when it is a bare answer ("54.0", `\frac{1}{2}`, "x = 5").
fn whole_text(text: &str, visible: &[(usize, usize)]) -> Option<Candidate> {
    let [(s, e)] = visible else { return None };
    let (s, e) = trim_span(text, *s, *e)?;
    let part = text.get(s..e)?;
    if e - s > 160 || part.contains('\n') {
        return None;
    }
    let mut c = make(text, Method::WholeText, (s, e))?;
    if is_prose(&c.answer) && !text_in_math(part) {
        // A list of values joined by "and"/"or" (`19, 46, and 82`, `x>1 \text{ and } x<3`) is
        // one answer, every part of it: read by its last number it made `21, 36, and 82`
        // equal to `19, 46, and 82` (docs/extract.md, "What counts as the final answer").
        let list = joined_values(&c.answer)?;
        // Inequalities joined by "and"/"or" are one condition, not a list: the connective
        // is the answer (`x>1 \text{ and } x<3` is not `x>1 \text{ or } x<3`;
        // equiv/real_set.rs reads both).
        let relation = |p: &str| {
            ["<", ">", "\\le", "\\ge", "\\neq"]
                .iter()
                .any(|r| p.contains(r))
        };
        if !list.split(',').all(relation) {
            c.answer = list;
        }
    }
    Some(c)
}

/// Whether `part` is one math span holding nothing but `\text{…}` (`$$\text{The midpoints
/// form a regular hexagon}$$`): a conclusion written as text on purpose, so a text answer,
/// compared as text; prose outside math stays no answer.
fn text_in_math(part: &str) -> bool {
    let inner = [("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")]
        .iter()
        .find_map(|(open, close)| part.strip_prefix(open)?.strip_suffix(close));
    let Some(body) = inner.map(str::trim).and_then(|b| b.strip_prefix("\\text{")) else {
        return false;
    };
    // The `\text{` group closes at the very end: no brace of its own closes before.
    let mut depth = 1i32;
    for (i, b) in body.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1 == body.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// `a, b, and c` / `a and b` / `a or b` as the list `a,b,c`, when every part is a value
/// (no other word); `None` otherwise.
fn joined_values(answer: &str) -> Option<String> {
    // A brace left open (`\boxed{W(n) = 1 \text{ and } …` cut off) is not a list to split.
    if answer.matches('{').count() != answer.matches('}').count() {
        return None;
    }
    let plain = answer.replace("\\text{", " ").replace('}', " ");
    let plain = if plain.contains(CHINESE_CONNECTORS) {
        plain.replace(CHINESE_CONNECTORS, " and ")
    } else {
        plain
    };
    let mut parts: Vec<Vec<&str>> = Vec::new();
    let mut connectors = 0;
    // Commas and the connector words split; spaces inside one value (`2 \sqrt 3`) do not.
    for piece in plain.split(',') {
        let mut current: Vec<&str> = Vec::new();
        for token in piece.split_whitespace() {
            if matches!(token, "and" | "or") {
                connectors += 1;
                if !current.is_empty() {
                    parts.push(std::mem::take(&mut current));
                }
            } else {
                current.push(token);
            }
        }
        if !current.is_empty() {
            parts.push(current);
        }
    }
    // Every part a value: no word of prose in it (`the mean is 7 and …` is a sentence).
    if connectors == 0 || parts.len() < 2 || parts.iter().any(|p| is_prose(&p.join(" "))) {
        return None;
    }
    let list: Vec<String> = parts.iter().map(|p| p.concat()).collect();
    let list = list.join(",");
    (!list.contains('$')).then_some(list)
}

/// Position of the last `=` in `text[from..to]` outside `<<…>>` annotations.
fn last_equals(text: &str, from: usize, to: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut eq = None;
    let mut i = from;
    while i < to {
        // Only a `<` or an `=` matters here: jump to the next one.
        match bytes
            .get(i..to.min(bytes.len()))
            .and_then(|rest| memchr::memchr2(b'<', b'=', rest))
        {
            Some(off) => i += off,
            None => break,
        }
        if bytes.get(i..i + 2) == Some(b"<<") {
            i = find_from(bytes, b">>", i + 2).map_or(to, |e| e + 2);
            continue;
        }
        if bytes.get(i) == Some(&b'=') && !relation_equals(bytes, i) {
            eq = Some(i);
        }
        i += 1;
    }
    eq
}

/// Whether the `=` at `i` belongs to a relation (`<=`, `>=`, `!=`): "$x <= 2$ is our answer"
/// states the set `x \le 2`, not the value 2.
fn relation_equals(bytes: &[u8], i: usize) -> bool {
    i > 0 && matches!(bytes.get(i - 1), Some(b'<' | b'>' | b'!'))
}

/// The last `=` of `inner` that is not part of a relation (see [`relation_equals`]).
pub(super) fn last_plain_equals(inner: &str) -> Option<usize> {
    let bytes = inner.as_bytes();
    memchr::memrchr_iter(b'=', bytes).find(|&i| !relation_equals(bytes, i))
}

/// Phrases after an equation's result that restate the answer in its final form:
/// "= 16.66%, which rounds up to 17%", "6/3=.5 hour which is 30 minutes".
const RESTATEMENTS: &[&str] = &["rounds", "rounded", "which is", "meaning", "i.e."];

/// The first letters of the [`RESTATEMENTS`], in either case.
const RESTATEMENT_STARTS: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    while k < RESTATEMENTS.len() {
        let b = RESTATEMENTS[k].as_bytes()[0];
        t[b.to_ascii_lowercase() as usize] = true;
        t[b.to_ascii_uppercase() as usize] = true;
        k += 1;
    }
    t
};

/// The number a restatement after `from` (up to `to`) gives, if any.
fn restatement(text: &str, from: usize, to: usize) -> Option<(usize, usize)> {
    let rest = text.get(from..to)?.as_bytes();
    // The first place where a phrase starts, ignoring ASCII case (the phrases are lower-case
    // ASCII): one pass that stops only at a phrase's first letter, without a lower-case copy
    // of the rest of the line (this runs on every final equation).
    let at = rest.iter().enumerate().find_map(|(i, &b)| {
        let phrase = |p: &&str| {
            rest.get(i..i + p.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(p.as_bytes()))
        };
        (RESTATEMENT_STARTS[usize::from(b)] && RESTATEMENTS.iter().any(phrase)).then_some(i)
    })?;
    next_number(text, from + at, to)
}

/// Inside `\boxed{}` a `!` right after a number or bracket is a factorial (`\boxed{10!}`),
/// not the end of an exclamation as it may be in prose: the operand, when so.
fn factorial_in_box<'a>(method: &Method, raw: &'a str) -> Option<&'a str> {
    if *method != Method::Boxed {
        return None;
    }
    let operand = raw.trim_end().strip_suffix('!')?;
    operand
        .ends_with(|c: char| c.is_ascii_digit() || c == ')' || c == '}')
        .then_some(operand)
}

/// Inner ranges of the math spans (`$…$`, `$$…$$`, `\(…\)`, and LaTeX's display `\[…\]`) in
/// `text[start..end]`.
pub(super) fn math_spans(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Most lines have no math at all: one fast scan says so.
    // (Both are ASCII: a byte search finds them as the `char` search did, far faster.)
    if text
        .get(start..end)
        .is_none_or(|t| memchr::memchr2(b'$', b'\\', t.as_bytes()).is_none())
    {
        return out;
    }
    let mut i = start;
    while i < end {
        let (open, close): (&[u8], &[u8]) = match bytes.get(i..) {
            Some([b'\\', b'$', ..]) => {
                i += 2;
                continue;
            }
            Some([b'\\', b'(', ..]) => (b"\\(", b"\\)"),
            // Display math, as `$$…$$`: `\[x = -\frac{9}{4}\]` gives `-\frac{9}{4}`, not 9.
            Some([b'\\', b'[', ..]) => (b"\\[", b"\\]"),
            Some([b'$', b'$', ..]) => (b"$$", b"$$"),
            Some([b'$', ..]) => (b"$", b"$"),
            _ => {
                // Only a `\` or a `$` opens math: jump to the next one (or the end).
                i = bytes
                    .get(i + 1..end.min(bytes.len()))
                    .and_then(|rest| memchr::memchr2(b'\\', b'$', rest))
                    .map_or(end, |off| i + 1 + off);
                continue;
            }
        };
        let inner = i + open.len();
        match find_from(bytes, close, inner).filter(|&c| c + close.len() <= end) {
            Some(c) => {
                out.push((inner, c));
                i = c + close.len();
            }
            None => break,
        }
    }
    out
}

/// The answer the math span (of `spans`) around `pos` gives: what follows its last `=`, or all
/// of it — `$x = -\frac{9}{4}$` is `-\frac{9}{4}`, not `9`. Only spans that look like LaTeX
/// (a `\`, `^` or `{`), so currency such as "$5 and $7" stays with the number rules.
fn math_value_in(text: &str, spans: &[(usize, usize)], pos: usize) -> Option<(usize, usize)> {
    let &(s, e) = spans.iter().find(|&&(s, e)| s <= pos && pos < e)?;
    let inner = text.get(s..e)?;
    // A relation (`$x <= 2$`, `$x != 5$`) is a set of values, read whole; GSM8K's `<<…>>`
    // calculator notes between two dollar amounts are not one.
    let relation = inner.contains(['<', '>']) && !inner.contains("<<") || inner.contains("!=");
    // A tuple or interval in math (`\((15, -29)\)`) is one answer, not its last number.
    let tuple = inner.trim_start().starts_with(['(', '[']) && inner.contains(',');
    if !inner.contains(['\\', '^', '{']) && !relation && !tuple {
        return None;
    }
    let from = last_plain_equals(inner).map_or(s, |i| s + i + 1);
    trim_span(text, from, e)
}

/// A line that is nothing but two or more math spans of plain values joined by commas, "and"
/// or "or" (`$1$ and $2$ and $3$`, `$21,16$ or $11$`): one answer, the list of all of them.
fn value_list_line(
    text: &str,
    spans: &[(usize, usize)],
    start: usize,
    end: usize,
) -> Option<Candidate> {
    if spans.len() < 2 {
        return None;
    }
    let glue_only = |from: usize, to: usize| {
        text.get(from..to).is_some_and(|g| {
            g.split(|c: char| {
                c.is_whitespace() || matches!(c, ',' | '$' | '.' | '\\' | '(' | ')' | '"')
            })
            .all(|w| matches!(w, "" | "and" | "or"))
        })
    };
    let mut at = start;
    let mut answers = Vec::new();
    for &(s, e) in spans {
        let inner = text.get(s..e)?;
        if inner.contains(['=', '<', '>']) || !glue_only(at, s) {
            return None;
        }
        answers.push(normalize(inner));
        at = e;
    }
    if !glue_only(at, end) || answers.iter().any(String::is_empty) {
        return None;
    }
    let span = trim_span(text, start, end)?;
    value_list(text, span, &answers)
}

/// "the solutions are $x = 2$ and $x = 3$": two or more math spans that each give the same
/// variable a value, joined by nothing but "and", "or" or commas, at the end of the line, are
/// one answer, the list `2, 3`.
fn several_solutions(text: &str, spans: &[(usize, usize)], end: usize) -> Option<Candidate> {
    let mut values: Vec<(usize, usize)> = Vec::new();
    let mut name: Option<&str> = None;
    let mut last_end = end;
    for &(s, e) in spans.iter().rev() {
        let inner = text.get(s..e)?;
        let (lhs, rhs) = inner.split_once('=')?;
        let (lhs, rhs) = (lhs.trim(), rhs.trim());
        let one_letter = lhs.len() == 1 && lhs.bytes().all(|b| b.is_ascii_alphabetic());
        if !one_letter || rhs.is_empty() || rhs.contains('=') || name.is_some_and(|n| n != lhs) {
            break;
        }
        // Between this span and the next one (or the line's end): only glue.
        let gap = text
            .get(e + 1..last_end)?
            .trim_matches(|c: char| c.is_whitespace() || c == '$');
        let glue = gap.trim_end_matches(['.', '。']).trim();
        let joined = values.is_empty() || matches!(glue, "and" | "or" | "," | ", and" | ", or");
        let tail = !values.is_empty() || glue.is_empty();
        if !(joined && tail) {
            break;
        }
        name = Some(lhs);
        let offset = s + inner.find('=')? + 1;
        values.push(trim_span(text, offset, e)?);
        last_end = s.saturating_sub(1);
    }
    if values.len() < 2 {
        return None;
    }
    values.reverse();
    let answers: Vec<String> = values
        .iter()
        .filter_map(|&(s, e)| text.get(s..e).map(normalize))
        .collect();
    let span = (values.first()?.0, values.last()?.1);
    value_list(text, span, &answers)
}

/// The line of `text` that ends at `end` (its start).
fn line_start(text: &str, from: usize, end: usize) -> Option<usize> {
    Some(
        text.get(from..end)?
            .rfind('\n')
            .map_or(from, |p| from + p + 1),
    )
}

/// The line that concludes the visible text: its last non-empty line, or the one before it
/// when the last is a closing remark with no value in it ("I think that's the answer.",
/// "Everything checks out."; no digit, no math). Long chain-of-thought outputs end so; the
/// last number of the text was the guess before (docs/extract.md).
fn concluding_line(text: &str, visible: &[(usize, usize)]) -> Option<(usize, usize)> {
    let &(vs, ve) = visible.last()?;
    let body = text.get(vs..ve)?;
    let end = vs + body.trim_end().len();
    let start = line_start(text, vs, end)?;
    let line = text.get(start..end)?;
    if !is_remark(line) {
        return Some(concluding_sentence(text, start, end).unwrap_or((start, end)));
    }
    let before = text.get(vs..start)?.trim_end();
    if before.is_empty() {
        return Some((start, end));
    }
    let prev_end = vs + before.len();
    let prev_start = line_start(text, vs, prev_end)?;
    Some(concluding_sentence(text, prev_start, prev_end).unwrap_or((prev_start, prev_end)))
}

/// How a display's introduction ends when it states what the display is ("So, the expression
/// for ω(r) is:", "Thus, the differential equation would be:").
const INTRODUCING_VERBS: [&str; 7] = [
    " is:",
    " are:",
    " would be:",
    " will be:",
    " should be:",
    " must be:",
    " becomes:",
];

/// With no answer stated: the text's last display (`\[…\]`, `$$…$$`) when its introduction is a
/// conclusion naming a subject ("So, the differential equation would be:") and the closing
/// remark names that subject again ("… what I believe is the correct differential equation.").
/// Long chain-of-thought outputs end so: the result, then checks of it in prose, then a remark
/// pointing back at it; the guess rules read the checks ("as r grows, ω(r) approaches 0").
/// Nothing after the display may compute anew (no `=`), and a remark that does not name the
/// subject leaves the guesses (docs/extract.md, "What counts as the final answer").
fn concluding_display(text: &str, visible: &[(usize, usize)]) -> Option<Candidate> {
    let &(vs, ve) = visible.last()?;
    // The closing remark: the visible text's last line, with no value in it. Read first: most
    // texts end on a value, and the rule then stops before reading any math.
    let body_end = vs + text.get(vs..ve)?.trim_end().len();
    let remark_at = vs + text.get(vs..body_end)?.rfind('\n')? + 1;
    let remark = text.get(remark_at..body_end)?.trim();
    if !is_remark(remark) {
        return None;
    }
    let spans = math_spans(text, vs, ve);
    let display =
        |&&(s, _): &&(usize, usize)| s >= 2 && matches!(text.get(s - 2..s), Some("\\[" | "$$"));
    let &(s, e) = spans.iter().rev().find(display)?;
    // The display closes before the remark's line, and nothing between computes anew.
    if e + 2 > remark_at || text.get(e + 2..body_end)?.contains('=') {
        return None;
    }
    // The introduction: the last sentence before the display, ending in "<verb>:".
    let intro_end = vs + text.get(vs..s - 2)?.trim_end().len();
    let line = line_start(text, vs, intro_end)?;
    let line_spans = math_spans(text, line, intro_end);
    let start = sentence_start(text, &line_spans, line, intro_end).unwrap_or(line);
    let intro = text.get(start..intro_end)?;
    let lower = intro.to_ascii_lowercase();
    let opens = opens_conclusion(intro);
    let verb = INTRODUCING_VERBS.iter().find(|v| lower.ends_with(*v))?;
    let subject = lower
        .get(find_str(&lower, "the ")? + 4..lower.len() - verb.len())?
        .trim();
    let names = !subject.is_empty() && remark.to_ascii_lowercase().contains(subject);
    if !(opens && names) {
        return None;
    }
    make(text, Method::ConcludingDisplay, trim_span(text, s, e)?)
}

/// A closing remark: short, with no value in it (no digit, no math).
fn is_remark(part: &str) -> bool {
    !part.is_empty()
        && part.len() < 200
        && !part
            .bytes()
            .any(|b| b.is_ascii_digit() || matches!(b, b'$' | b'\\' | b'=' | b'^'))
}

/// Words that open a sentence drawing the conclusion.
const CONCLUDING_OPENERS: [&str; 6] = [
    "therefore",
    "thus",
    "hence",
    "so",
    "in conclusion",
    "in total",
];

/// Whether `sentence` opens with one of the [`CONCLUDING_OPENERS`] followed by `,` or a space.
/// Compared in place, ignoring ASCII case (the openers are ASCII): no lower-case copy.
fn opens_conclusion(sentence: &str) -> bool {
    let bytes = sentence.as_bytes();
    CONCLUDING_OPENERS.iter().any(|w| {
        bytes
            .get(..w.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(w.as_bytes()))
            && matches!(bytes.get(w.len()), Some(b',' | b' '))
    })
}

/// Within a concluding line written as a paragraph of sentences, the sentence that concludes:
/// the last one (or the one before a closing remark such as "I hope it is correct."), when it
/// opens with "Therefore", "Thus", "So"… and states a value without an equation ("…, so $d =
/// \frac{90}{n}$. … Therefore, there are 12 distinct sequences."). The final-equation rule
/// read the paragraph's last `=`, an intermediate step. `None` keeps the whole line.
pub(super) fn concluding_sentence(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let spans = math_spans(text, start, end);
    let last = sentence_start(text, &spans, start, end)?;
    let sentence = text.get(last..end)?;
    let (s, e) = if is_remark(sentence) {
        let prev_end = start + text.get(start..last)?.trim_end().len();
        (
            sentence_start(text, &spans, start, prev_end).unwrap_or(start),
            prev_end,
        )
    } else {
        (last, end)
    };
    let sentence = text.get(s..e)?;
    let opens = opens_conclusion(sentence);
    let states = sentence.bytes().any(|b| b.is_ascii_digit());
    // A sentence cut off inside math (`the midpoint is $\left(\frac{5}{2}, `) concludes
    // nothing.
    let count = |c: u8| sentence.bytes().filter(|&b| b == c).count();
    let closed = count(b'$') % 2 == 0 && count(b'{') == count(b'}');
    (s > start && opens && states && closed && last_equals(text, s, e).is_none()).then_some((s, e))
}

/// Where the last sentence of `text[start..end]` starts: after the last `.`, `?` or `!` that is
/// followed by a space and lies outside the math spans (`$1, 2, \dots$. We`); `None` when
/// the part is one sentence. A stop may sit just inside the math that closes there (`… \geq
/// 2.$$ Therefore`, `… = 5.\) So`).
fn sentence_start(text: &str, spans: &[(usize, usize)], start: usize, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    // The stops found with memchr from the end, not byte by byte (this reads the concluding
    // line of every text): the space that ends a later stop's sentence lies later too.
    let part = bytes.get(start..end.min(bytes.len()))?;
    for stop in memchr::memrchr3_iter(b'.', b'?', b'!', part).map(|k| start + k) {
        // What may close math between the stop and the space: `$`s, or `\)` / `\]`.
        let after = stop + 1;
        let dollars = bytes
            .get(after..)
            .map_or(0, |rest| rest.iter().take_while(|&&b| b == b'$').count());
        let closer = if dollars > 0 {
            dollars
        } else if matches!(bytes.get(after..after + 2), Some(b"\\)" | b"\\]")) {
            2
        } else {
            0
        };
        let space = after + closer;
        if space >= end || !bytes.get(space).is_some_and(u8::is_ascii_whitespace) {
            continue;
        }
        // The spans are sorted and disjoint: the one that may hold the stop, by binary search
        // (a long line of stops inside math stays linear-logarithmic).
        let k = spans.partition_point(|&(s, _)| s < after);
        let in_math = k > 0 && spans.get(k - 1).is_some_and(|&(_, e)| after <= e);
        if closer > 0 || !in_math {
            let rest = text.get(space..end)?;
            return Some(end - rest.trim_start().len());
        }
    }
    None
}

/// The first number after the last `=` of the last non-empty visible line (or its
/// restatement, see [`RESTATEMENTS`]); inside LaTeX math, the whole right-hand side.
/// `line`: the [`concluding_line`] of the visible text, and `eq` its [`last_equals`] (each
/// computed once for this rule and [`main_clause`]).
fn final_equation(
    text: &str,
    line: Option<(usize, usize)>,
    eq: Option<usize>,
) -> Option<Candidate> {
    let (line_start, trimmed_end) = line?;
    let spans = math_spans(text, line_start, trimmed_end);
    if let Some(c) = several_solutions(text, &spans, trimmed_end) {
        return Some(c);
    }
    if let Some(c) = value_list_line(text, &spans, line_start, trimmed_end) {
        return Some(c);
    }
    let eq = eq?;
    if let Some(span) = math_value_in(text, &spans, eq) {
        // "The value of $r$ for $z = 1 + \sqrt{3}i$ is 2.": the equation names what the
        // sentence is about; the value it states after it is the answer.
        let span = stated_after(text, span.1, trimmed_end).unwrap_or(span);
        if let Some(c) = make(text, Method::FinalEquation, span) {
            return Some(c);
        }
    }
    let mut span = next_number(text, eq + 1, trimmed_end)?;
    if let Some(restated) = restatement(text, span.1, trimmed_end) {
        span = restated;
    }
    if let Some(concluded) = concluding_clause(text, &spans, span.1, trimmed_end) {
        span = concluded;
    }
    make(text, Method::FinalEquation, span)
}

/// After a math span ending at `from`, the rest of the line is "is <number>." and nothing
/// else: that number.
fn stated_after(text: &str, from: usize, to: usize) -> Option<(usize, usize)> {
    let rest = text.get(from..to)?;
    let after_math = rest.trim_start_matches(['$', ')', ']', '\\', ' ']);
    let verb = ["is ", "equals ", "are "]
        .iter()
        .find_map(|v| after_math.strip_prefix(v))?;
    let at = to - verb.len();
    let number = next_number(text, at, to)?;
    let tail = text.get(number.1..to)?;
    tail.trim_matches(|c: char| c.is_whitespace() || matches!(c, '.' | '$' | '\\' | ')' | '('))
        .is_empty()
        .then_some(number)
}

/// "Since $a = 2$ and $b = 3$, the sum is $5$.": after the last equation, a new clause that
/// states a value ("…, the sum is 5", "…, so the total is 12") is the conclusion.
fn concluding_clause(
    text: &str,
    spans: &[(usize, usize)],
    from: usize,
    to: usize,
) -> Option<(usize, usize)> {
    let rest = text.get(from..to)?;
    let comma = find_str(rest, ", ")?;
    let clause = rest.get(comma + 2..)?;
    // A clause about "the" quantity ("the sum is", "so the total is"), not a comparison
    // ("that is 2 more than Tom").
    let lower = clause.to_ascii_lowercase();
    let subject = [
        "the ",
        "so the ",
        "thus the ",
        "hence the ",
        "then the ",
        "therefore the ",
    ];
    if !subject.iter().any(|s| lower.starts_with(s)) {
        return None;
    }
    let verb = [" is ", " are ", " equals ", " was "]
        .iter()
        .filter_map(|v| find_str(clause, v).map(|at| at + v.len()))
        .min()?;
    let at = from + comma + 2 + verb;
    let number = next_number(text, at, to)?;
    Some(math_value_in(text, spans, number.0).unwrap_or(number))
}

/// Words that start a qualifier after a sentence's main statement: "He has 22 apples
/// because 22 > 21", "135 meters in 5 minutes", "57 more eggs than 5 cakes".
const QUALIFIERS: &[&str] = &[
    " because ",
    " since ",
    ", which ",
    " which ",
    " if ",
    " than ",
    " after ",
    " to ",
    " in ",
    " for ",
    " when ",
];

/// For a last line without an equation (`eq`, its [`last_equals`]): the last number of its main
/// clause.
fn main_clause(text: &str, line: Option<(usize, usize)>, eq: Option<usize>) -> Option<Candidate> {
    let (start, end) = line?;
    let line = text.get(start..end)?;
    if eq.is_some() {
        return None;
    }
    if let Some(span) = subject_is_value(text, start, end) {
        return make(text, Method::MainClause, span);
    }
    let mut cut = line.len();
    for q in QUALIFIERS {
        if let Some(j) = line.get(..cut).and_then(|l| find_str(l, q)) {
            if next_number(text, start, start + j).is_some() {
                cut = j;
            }
        }
    }
    let span =
        restated_after(text, start + cut, end).or_else(|| last_value(text, start, start + cut))?;
    let spans = math_spans(text, start, end);
    let span = math_value_in(text, &spans, span.0).unwrap_or(span);
    make(text, Method::MainClause, span)
}

/// "The value of 6.5 kilograms in grams is 6500 grams.": a line that names its subject ("The
/// …") and states it with a verb right before a number gives that number; the numbers in the
/// subject name what is asked, they are not its value (docs/extract.md, "Exam outputs").
fn subject_is_value(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let line = text.get(start..end)?;
    let lead = line.len() - line.trim_start_matches(['*', ' ', '#']).len();
    if !line.get(lead..lead + 4)?.eq_ignore_ascii_case("the ") {
        return None;
    }
    let verb_end = [" is ", " are ", " equals "]
        .iter()
        .filter_map(|v| find_str(line, v).map(|at| at + v.len()))
        .min()?;
    let number = next_number(text, start + verb_end, end)?;
    let between = text.get(start + verb_end..number.0)?;
    if !between.trim_matches([' ', '$']).is_empty() {
        return None;
    }
    // The subject holds a number (else the usual rule reads the same value).
    next_number(text, start, start + verb_end)?;
    let spans = math_spans(text, start, end);
    Some(math_value_in(text, &spans, number.0).unwrap_or(number))
}

/// "so the number is 10 which is 1,000.99m²": a "which is" clause right after the stated value
/// that gives one more number and ends there (a unit at most after it) restates the value in
/// its final form, as [`RESTATEMENTS`] do after an equation. "which is 2 more than Tom's"
/// goes on, so it is a comparison, not a restatement.
fn restated_after(text: &str, cut: usize, end: usize) -> Option<(usize, usize)> {
    let rest = text.get(cut..end)?;
    let clause = rest.trim_start_matches([',', ' ']);
    let after = clause.strip_prefix("which is ")?;
    let from = end - after.len();
    let number = next_number(text, from, end)?;
    // Only the number between the verb and it: "which is about 3" is no restatement.
    if !text.get(from..number.0)?.trim().is_empty() {
        return None;
    }
    let tail = text.get(number.1..end)?.trim_end_matches(['.', '!', ' ']);
    let unit_at_most =
        tail.split_whitespace().count() <= 1 && !tail.bytes().any(|b| b.is_ascii_digit());
    unit_at_most.then_some(number)
}

/// Words whose number names a part of the work, not a value: "For subproblem 1, the solution
/// is:", "In step 3 we…". The guessing rules (main clause, last number) read the last number
/// that no such word names; a line whose only number is a label states no value.
const PART_LABELS: [&[u8]; 6] = [
    b"subproblem",
    b"problem",
    b"part",
    b"question",
    b"step",
    b"case",
];

/// Whether the number `span` follows a [`PART_LABELS`] word (one space between them) and ends
/// its clause (`,` `:` `;` `)`, a full stop, or the line's end): "In subproblem 1, I…", but
/// not "in that case 5 apples remain".
fn names_a_part(bytes: &[u8], span: (usize, usize)) -> bool {
    let (at, end) = span;
    let ends_clause = match bytes.get(end) {
        None | Some(b'\n' | b'\r' | b',' | b':' | b';' | b')') => true,
        Some(b'.') => bytes.get(end + 1).is_none_or(|b| b.is_ascii_whitespace()),
        Some(_) => false,
    };
    if !ends_clause {
        return false;
    }
    let Some(before) = at.checked_sub(1).and_then(|i| bytes.get(..i)) else {
        return false;
    };
    if bytes.get(at - 1) != Some(&b' ') {
        return false;
    }
    let word_start = before
        .iter()
        .rposition(|b| !b.is_ascii_alphabetic())
        .map_or(0, |i| i + 1);
    let word = before.get(word_start..).unwrap_or_default();
    PART_LABELS.iter().any(|l| word.eq_ignore_ascii_case(l))
}

/// The last number in `text[from..to]` that is not a part's label ([`names_a_part`]).
fn last_value(text: &str, from: usize, to: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let last = last_number(text, from, to)?;
    if !names_a_part(bytes, last) {
        return Some(last);
    }
    // Rare: the last number is a label; the scan again keeps the last one that is not.
    let mut last = None;
    let mut pos = from;
    while let Some((s, e)) = next_number(text, pos, to) {
        if !names_a_part(bytes, (s, e)) {
            last = Some((s, e));
        }
        pos = e.max(s + 1);
    }
    last
}

fn last_visible_number(text: &str, visible: &[(usize, usize)]) -> Option<Candidate> {
    visible.iter().rev().find_map(|&(s, e)| {
        let span = last_value(text, s, e)?;
        let line = line_start(text, s, span.0).unwrap_or(s);
        let spans = math_spans(text, line, e);
        let span = math_value_in(text, &spans, span.0).unwrap_or(span);
        make(text, Method::LastNumber, span)
    })
}

/// One candidate per rule that fired, best first: answer tag, boxed, the later of the
/// final-answer marker and `####`, the whole text, the final equation, the last number.
/// Which text is read: a model's output, or a ground truth (never "cut off": it is written to
/// be an answer, even `\\boxed{W(n) = 1` with its brace lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Output,
    GroundTruth,
}

pub fn find_all(text: &str, side: Side) -> Vec<Candidate> {
    // Most golds are a bare number (GSM8K's `72`): what the rules below find in one, without
    // running them (reading such a gold took ~7,500 of a GSM8K grade's ~60,000 instructions).
    if side == Side::GroundTruth {
        if let Some(found) = plain_number(text) {
            return found;
        }
    }
    find_all_by_rules(text, side)
}

/// The longest plain number [`plain_number`] reads; a longer one takes the rules (no gold
/// needs more, and the equality test below covers every length up to this one).
const PLAIN_NUMBER_MAX: usize = 40;

/// The candidates the rules find in a text that is one plain number, read without them: an
/// optional `-`, digits with optional thousands separators (`1,000,000`: groups of three, the
/// first group not starting with 0), and an optional decimal part (`1.50`, `.5`), between
/// ASCII spaces or line breaks. Every rule that fires on such a text reads the same number:
/// the whole text, the main clause and the last number, each with the separators dropped.
/// Anything else returns `None` and takes the rules: `+3`, `5.`, `12,34` and `1e5`, where the
/// rules do not all read the whole text, and forms left to them to keep this reader short
/// (`1 000`). `tests::plain_number_is_what_the_rules_find` compares the two readings.
fn plain_number(text: &str) -> Option<Vec<Candidate>> {
    let gap = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let bytes = text.as_bytes();
    let s = bytes.iter().position(|b| !gap(b))?;
    let e = bytes.iter().rposition(|b| !gap(b))? + 1;
    let number = bytes.get(s..e)?;
    if number.len() > PLAIN_NUMBER_MAX {
        return None;
    }
    let unsigned = number.strip_prefix(b"-").unwrap_or(number);
    let (whole, fraction) = match unsigned.iter().position(|&b| b == b'.') {
        Some(dot) => (unsigned.get(..dot)?, Some(unsigned.get(dot + 1..)?)),
        None => (unsigned, None),
    };
    let digits = |part: &[u8]| part.iter().all(u8::is_ascii_digit);
    match fraction {
        Some(f) if f.is_empty() || !digits(f) => return None,
        None if whole.is_empty() => return None,
        _ => {}
    }
    let mut groups = whole.split(|&b| b == b',');
    let first = groups.next().unwrap_or_default();
    let grouped = whole.contains(&b',');
    // `0,000` keeps its separators in the rules' reading: a grouped number starts at 1–9.
    let grouped_ok = (1..=3).contains(&first.len()) && first.first() != Some(&b'0');
    if !digits(first) || (grouped && !grouped_ok) {
        return None;
    }
    if !groups.all(|g| g.len() == 3 && digits(g)) {
        return None;
    }
    let raw = text.get(s..e)?;
    let answer = if grouped {
        raw.replace(',', "")
    } else {
        raw.to_string()
    };
    let candidate = |method| Candidate {
        method,
        answer: answer.clone(),
        raw: raw.to_string(),
        span: (s, e),
        several: Vec::new(),
    };
    Some(vec![
        candidate(Method::WholeText),
        candidate(Method::MainClause),
        candidate(Method::LastNumber),
    ])
}

/// Every rule, in order of priority (what [`find_all`] returns for any text).
fn find_all_by_rules(text: &str, side: Side) -> Vec<Candidate> {
    let lower = text.to_ascii_lowercase();
    let lower = lower.as_bytes();
    let hidden = Hidden::of(lower);
    let visible = hidden.visible(text.len());
    let mut out = Vec::with_capacity(6);
    out.extend(answer_tag(text, lower, &hidden));
    // A JSON reply's answer field is the structured answer: before any box in its reasoning.
    out.extend(json_field(text, lower, &hidden));
    let boxed = boxed(text, &hidden);
    // The heading first: `# Answer:` is also an "Answer:" marker at the same place, and the
    // stable sort keeps the more specific rule ahead on a tie.
    let mut markers: Vec<Candidate> = answer_heading(text, lower, &hidden)
        .into_iter()
        .chain(final_marker(text, lower, &hidden))
        .chain(hash_marker(text, &hidden))
        .collect();
    markers.sort_by_key(|c| std::cmp::Reverse(c.span.0));
    if final_answer_after_box(lower, boxed.as_ref(), markers.first()) {
        out.extend(markers);
        out.extend(boxed);
    } else {
        out.extend(boxed);
        out.extend(markers);
    }
    if !out.is_empty() {
        // An explicit answer wins; the guesses below are its runner-ups (the doubts read them).
        push_guesses(text, &visible, &mut out);
        return out;
    }
    let visible_end = visible.last().map_or(0, |&(_, e)| e);
    let cut_off =
        side == Side::Output && super::cutoff::cut_off(text.get(..visible_end).unwrap_or(""));
    if cut_off || visible_end == 0 {
        // The written-out solution stops before it concludes (or there is none): the box that
        // closed the thinking is the conclusion, if there is one; otherwise there is no answer
        // (never the last number of a text that was cut off).
        return closing_box(text, &hidden).into_iter().collect();
    }
    // A display the closing remark names again stands before the guesses (with no answer
    // stated only: an explicit answer's runner-ups stay the guesses).
    out.extend(concluding_display(text, &visible));
    push_guesses(text, &visible, &mut out);
    out
}

/// The guessing rules, in order of priority: the whole text, the final equation, the main
/// clause, the last number.
fn push_guesses(text: &str, visible: &[(usize, usize)], out: &mut Vec<Candidate>) {
    out.extend(whole_text(text, visible));
    let line = concluding_line(text, visible);
    // The concluding line's last `=`: the final equation reads after it, the main clause only
    // a line without one (found once for both).
    let eq = line.and_then(|(s, e)| last_equals(text, s, e));
    out.extend(final_equation(text, line, eq));
    out.extend(main_clause(text, line, eq));
    out.extend(last_visible_number(text, visible));
}

/// Whether the last marker is a "final answer" statement written after the last box
/// ("… = \\boxed{255} … Final Answer: The final answer is $10,455$."): the boxes were
/// intermediate results and the statement that names itself final is the answer
/// (docs/extract.md, "What counts as the final answer"). Only "final answer" / "最终答案": a
/// plain "the answer is" after a box keeps the box.
fn final_answer_after_box(
    lower: &[u8],
    boxed: Option<&Candidate>,
    last: Option<&Candidate>,
) -> bool {
    let (Some(b), Some(m)) = (boxed, last) else {
        return false;
    };
    if m.method != Method::FinalAnswerMarker || m.span.0 < b.span.1 {
        return false;
    }
    // The marker's words sit just before its capture ("The final answer is $10,455$").
    let before = lower
        .get(m.span.0.saturating_sub(48)..m.span.0)
        .unwrap_or(&[]);
    memchr::memmem::find(before, b"final answer").is_some()
        || memchr::memmem::find(before, "最终答案".as_bytes()).is_some()
}

/// Whether the visible text (outside thought blocks) is empty or cut off before it concludes.
pub(super) fn stops_before_conclusion(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let hidden = Hidden::of(lower.as_bytes());
    let visible = hidden.visible(text.len());
    let end = visible.last().map_or(0, |&(_, e)| e);
    let shown = text.get(..end).unwrap_or("");
    shown.trim().is_empty() || super::cutoff::cut_off(shown)
}

/// The `\boxed{…}` that ends the last closed thought block (only blank space, `$`, `\]` or
/// punctuation between it and the closing tag).
fn closing_box(text: &str, hidden: &Hidden) -> Option<Candidate> {
    let &(start, close) = hidden.closed_thoughts.last()?;
    let inside = text.get(start..close)?;
    let tail_len = inside.len()
        - inside
            .trim_end_matches(|c: char| {
                c.is_whitespace() || matches!(c, '$' | '.' | ']' | '\\' | ')')
            })
            .len();
    let body_end = close - tail_len;
    let bytes = text.as_bytes();
    if body_end == 0 || bytes.get(body_end - 1) != Some(&b'}') {
        return None;
    }
    // Walk back over the last group's braces to its `{`, then check the command before it.
    let mut depth = 0i32;
    let mut i = body_end;
    while i > start {
        i -= 1;
        match bytes.get(i) {
            Some(b'}') if bytes.get(i.wrapping_sub(1)) != Some(&b'\\') => depth += 1,
            Some(b'{') if bytes.get(i.wrapping_sub(1)) != Some(&b'\\') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    let before = text.get(start..i)?.trim_end();
    if !(before.ends_with("\\boxed") || before.ends_with("\\fbox")) {
        return None;
    }
    let span = trim_span(text, i + 1, body_end - 1)?;
    make(text, Method::Boxed, span)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`sentence_start`] as it read the part before: every byte from the end.
    fn sentence_start_by_bytes(
        text: &str,
        spans: &[(usize, usize)],
        start: usize,
        end: usize,
    ) -> Option<usize> {
        let bytes = text.as_bytes();
        let mut i = end;
        while i > start + 1 {
            i -= 1;
            if !bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                continue;
            }
            let mut j = i;
            while j > start && bytes.get(j - 1) == Some(&b'$') {
                j -= 1;
            }
            if j == i && j > start + 1 && matches!(bytes.get(j - 2..j), Some(b"\\)" | b"\\]")) {
                j -= 2;
            }
            let closes_math = j < i;
            let stop = j > start && matches!(bytes.get(j - 1), Some(b'.' | b'?' | b'!'));
            let k = spans.partition_point(|&(s, _)| s < j);
            let in_math = k > 0 && spans.get(k - 1).is_some_and(|&(_, e)| j <= e);
            if stop && (closes_math || !in_math) {
                let rest = text.get(i..end)?;
                return Some(end - rest.trim_start().len());
            }
        }
        None
    }

    /// Random lines of stops, spaces, math delimiters and words: the stops found with memchr
    /// give the sentence start the byte walk gave, for any part of the line.
    #[test]
    fn sentence_start_is_the_byte_walk() {
        const PIECES: [&str; 16] = [
            ".", "?", "!", " ", "\n", "\t", "$", "$$", "\\)", "\\]", "\\(", "\\[", "a", "1", "é",
            "\\",
        ];
        for (text, start, end) in
            super::super::random_texts(&PIECES, 30, 0x2545_f491_4f6c_dd1d, 100_000)
        {
            let spans = math_spans(&text, start, end);
            assert_eq!(
                sentence_start(&text, &spans, start, end),
                sentence_start_by_bytes(&text, &spans, start, end),
                "{text:?} {start}..{end}"
            );
        }
    }

    /// [`has_tag_hint`] finds what a search for each tag finds.
    #[test]
    fn one_pass_finds_every_tag_hint() {
        const PIECES: [&str; 14] = [
            "<", ">", "[", "]", "/", "|", "hink", "h", "eoa", "eoe", "s", "inst", "t", "é",
        ];
        let hints: Vec<&[u8]> = TAG_HINTS.into_iter().chain(CLOSING_TOKENS).collect();
        assert!(hints
            .iter()
            .all(|h| h.ends_with(b">") || h.ends_with(b"|") || h.ends_with(b"]")));
        for (text, _, _) in super::super::random_texts(&PIECES, 12, 0x1234_5678_9abc_def1, 100_000)
        {
            let lower = text.as_bytes();
            let searched = hints
                .iter()
                .any(|h| memchr::memmem::find(lower, h).is_some());
            assert_eq!(has_tag_hint(lower), searched, "{text:?}");
        }
    }

    /// What the rules find in `text`, when [`plain_number`] reads it.
    fn check(text: &str) -> bool {
        let Some(fast) = plain_number(text) else {
            return false;
        };
        assert_eq!(
            fast,
            find_all_by_rules(text, Side::GroundTruth),
            "plain number {text:?}"
        );
        true
    }

    #[test]
    fn plain_number_is_what_the_rules_find() {
        // The forms a gold is written in, each read without the rules.
        for text in [
            "72",
            "-0",
            "007",
            "0",
            "1,000",
            "1,000,000",
            "-1,234.5",
            "1.50",
            ".5",
            "-.5",
            "3.14159",
            " 72 ",
            "72\n",
            "\n 18\r\n",
            "12345678901234567890123456789012345678",
        ] {
            assert!(check(text), "{text:?} takes the rules");
        }
        // Where the rules read something else than the whole text, or more than a number.
        for text in [
            "+3",
            "5.",
            "1.",
            "12,34",
            "1,0000",
            ",000",
            "0,000",
            "01,000",
            "1 000",
            "1e5",
            "-",
            ".",
            "",
            " ",
            "1.2.3",
            "--1",
            "1-",
            "½",
            "72 apples",
            "x = 5",
            "１２",
        ] {
            assert!(
                plain_number(text).is_none(),
                "{text:?} read as a plain number"
            );
        }
        // Every text of up to 5 bytes over the bytes a plain number is made of (and a few it
        // is not): where the fast path reads one, the rules find the very same candidates.
        let alphabet = b"0179-,. +\n";
        let mut read = 0;
        for len in 1..=5u32 {
            for mut k in 0..alphabet.len().pow(len) {
                let mut text = String::new();
                for _ in 0..len {
                    text.push(char::from(alphabet[k % alphabet.len()]));
                    k /= alphabet.len();
                }
                read += usize::from(check(&text));
            }
        }
        assert!(read > 1000, "only {read} short texts read as plain numbers");
        // Generated numbers of every length up to the limit and past it: sign, digits,
        // separators, decimals, surrounding gaps.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for _ in 0..20_000 {
            let mut text = String::new();
            if next(4) == 0 {
                text.push_str([" ", "\n", "  ", "\t"][next(4) as usize]);
            }
            if next(3) == 0 {
                text.push('-');
            }
            if next(2) == 0 {
                let first = 1 + next(3);
                for _ in 0..first {
                    text.push(char::from(b'0' + next(10) as u8));
                }
                for _ in 0..next(12) {
                    text.push(',');
                    for _ in 0..3 {
                        text.push(char::from(b'0' + next(10) as u8));
                    }
                }
            } else {
                for _ in 0..next(45) {
                    text.push(char::from(b'0' + next(10) as u8));
                }
            }
            if next(2) == 0 {
                text.push('.');
                for _ in 0..next(8) {
                    text.push(char::from(b'0' + next(10) as u8));
                }
            }
            if next(4) == 0 {
                text.push_str([" ", "\n", " \r\n", "\t"][next(4) as usize]);
            }
            check(&text);
        }
    }
}
