//! Answers that are no answer, whatever they compare equal to: the question copied back
//! (under every preset), and, under the reward preset, what a policy trained on the verdict
//! would learn to write (docs/extract.md, "Reward preset"): several different final answers,
//! a negated statement of the answer, a cut-off text's stray list marker, and a decimal that
//! is equal to an exact gold only by rounding.
//!
//! Each guard returns the reason in words, written into the verdict ("no answer (restates the
//! question): …"); `None` lets the comparison decide. They read the extracted answers and the
//! output's text only: no verdict comes from here, only the refusal of one.

use super::expr::{self, Node};
use super::number::Num;
use super::{equiv, normalize, Extraction, Method, Preset};

/// Words a question uses to ask for a value or a simpler form of an expression it states
/// (lowercase; the Chinese verbs too). A question without one of them asks something else
/// (solve, prove, how many), and its expressions are not answers copied back.
const ASKS_TO_COMPUTE: &[&str] = &[
    "simplif",
    "compute",
    "evaluate",
    "calculate",
    "value of",
    "what is",
    "expand",
    "factor",
    "rationaliz",
    "express",
    "化简",
    "计算",
    "求值",
    "的值",
    "展开",
    "因式分解",
];

/// At most this many expressions of a question are tried (bounded work on hostile questions).
const MAX_QUESTION_EXPRESSIONS: usize = 16;
/// A longer math segment is not read as one expression.
const MAX_EXPRESSION_BYTES: usize = 400;

/// How the reason of a restated answer starts (the Extract page's "restated the question"
/// filter reads it back).
pub(super) const RESTATES_QUESTION: &str = "no answer (restates the question)";

/// "No answer (restates the question)": the output's answer is, after normalisation, an
/// expression the question asks to simplify, compute or evaluate (`\sqrt{8}` for "Simplify
/// $\sqrt{8}$", `\tan(100\pi/180)+4\sin(100\pi/180)` for "Simplify tan 100° + 4 sin 100°").
/// Such an answer equals the gold's value, so the comparison would pay for copying the
/// question. A plain number is never a restatement, and neither is an answer that the gold
/// itself writes the same way.
pub(super) fn restates_question(
    predicted: &Extraction,
    gold: &Extraction,
    question: Option<&str>,
) -> Option<String> {
    let question = question?;
    if plain_number(&predicted.answer) {
        return None;
    }
    let lower = question.to_lowercase();
    if !ASKS_TO_COMPUTE.iter().any(|w| lower.contains(w)) {
        return None;
    }
    let answer = Shape::of(&predicted.answer);
    let gold_shape = Shape::of(&gold.answer);
    if answer.same(&gold_shape) {
        return None;
    }
    question_expressions(question)
        .into_iter()
        .find(|q| answer.same(&Shape::of(q)))
        .map(|q| {
            format!(
                "{RESTATES_QUESTION}: `{}` is the question's own `{q}`",
                predicted.answer
            )
        })
}

/// The question's own text copied around an answer, at least this many characters of it besides
/// the answer (case and runs of white space aside), makes the answer the question's, not the
/// output's. On the real sets the longest stretch of the question around a right answer is 23
/// characters with the answer (`10 hours of television`, a GSM8K solution); an output that
/// copies a whole question back has hundreds.
const MIN_COPIED_CHARS: usize = 40;
/// A question, or a sentence of it, copied whole around an answer is a copy from this many
/// characters besides the answer (a question that is little more than its expression, `$5$`,
/// is not).
const MIN_WHOLE_CHARS: usize = 10;
/// Only this much of a question is searched for the copy (bounded work on hostile questions).
const MAX_QUESTION_SEARCH: usize = 64 * 1024;

/// "No answer (restates the question)": the answer is read from a stretch of the question that
/// the output copies back (an output that is the question, `Tom has 5 apples and eats none. How
/// many apples does Tom have?` against the gold `5`; a copied multiple-choice question, read as
/// its last option; a short question, or one sentence of it, copied whole). The rules find the
/// question's own number or option there, and it equals the gold whenever the question states
/// it, so the comparison would pay for copying. Under every preset. In a multiple-choice grade,
/// a copy that starts at the answer is the option the output chose, written as the question
/// lists it (`The answer is D. <its text>`). docs/extract.md, "Reward preset".
pub(super) fn copied_from_question(
    predicted: &Extraction,
    output: Option<&str>,
    question: Option<&str>,
    choice: bool,
) -> Option<String> {
    let (output, question) = (output?, question?);
    let (s, e) = predicted.span;
    let answer: Vec<char> = folded(output.get(s..e)?.chars()).collect();
    if answer.is_empty() {
        return None;
    }
    let searched = question.floor_char_boundary(MAX_QUESTION_SEARCH);
    let question: Vec<char> = folded(question.get(..searched)?.trim().chars()).collect();
    // The output's text next to the answer, nearest first, as far as a copy could reach.
    let before: Vec<char> = folded(output.get(..s)?.chars().rev())
        .take(MIN_COPIED_CHARS)
        .collect();
    let after: Vec<char> = folded(output.get(e..)?.chars())
        .take(MIN_COPIED_CHARS)
        .collect();
    let copy = (0..question.len().saturating_sub(answer.len() - 1))
        .filter(|&at| question[at..at + answer.len()] == answer[..])
        .map(|at| {
            let left = before
                .iter()
                .zip(question[..at].iter().rev())
                .take_while(|(a, b)| a == b)
                .count();
            let right = after
                .iter()
                .zip(&question[at + answer.len()..])
                .take_while(|(a, b)| a == b)
                .count();
            (at, left, right)
        })
        .find(|&(at, left, right)| {
            let chosen_option = choice && !before[..left].iter().any(|c| c.is_alphanumeric());
            // A short question, or one sentence of it, copied whole (`Write $\frac{3}{20}$ as a
            // decimal.`, `Tom is 7 years old.`).
            let whole = sentence_copied(&question, at - left, at + answer.len() + right);
            let long = left + right >= MIN_COPIED_CHARS || whole && left + right >= MIN_WHOLE_CHARS;
            long && !chosen_option
        })?;
    let (_, left, right) = copy;
    // The copy as the output writes it.
    let from = s - raw_bytes(output.get(..s)?.chars().rev(), left);
    let to = e + raw_bytes(output.get(e..)?.chars(), right);
    // Where the copy was read only as far as it needed, it may go on.
    let more = |n: usize| if n == MIN_COPIED_CHARS { "…" } else { "" };
    Some(format!(
        "{RESTATES_QUESTION}: `{}` is read from the question's own text, copied back (`{}{}{}`)",
        predicted.answer,
        more(left),
        output.get(from..to)?.trim(),
        more(right)
    ))
}

/// How many bytes of `chars` make its first `n` [`folded`] characters.
fn raw_bytes(chars: impl Iterator<Item = char>, n: usize) -> usize {
    let mut bytes = 0;
    let mut seen = 0;
    let mut space = false;
    for c in chars {
        if fold_char(&mut space, c).is_some() {
            if seen == n {
                break;
            }
            seen += 1;
        }
        bytes += c.len_utf8();
    }
    bytes
}

/// Whether `question[from..to]` is whole sentences of the question (spaces at its ends aside):
/// it starts the question or follows a sentence's stop, and it ends with a stop that ends the
/// question or is followed by a space (not `2.5`).
fn sentence_copied(question: &[char], from: usize, to: usize) -> bool {
    const STOPS: [char; 6] = ['.', '?', '!', '。', '？', '！'];
    let copy = &question[from..to];
    let lead = copy.iter().take_while(|c| **c == ' ').count();
    let trail = copy.iter().rev().take_while(|c| **c == ' ').count();
    let (from, to) = (from + lead, to.saturating_sub(trail).max(from + lead));
    let before = question[..from].iter().rev().find(|c| **c != ' ');
    let starts = before.is_none_or(|c| STOPS.contains(c));
    let last = to.checked_sub(1).and_then(|i| question.get(i));
    let ends =
        last.is_some_and(|c| STOPS.contains(c)) && question.get(to).is_none_or(|c| *c == ' ');
    to > from && starts && ends
}

/// Characters lower-cased, each run of white space one space: how a copy is compared (a copy
/// re-wrapped or re-cased is still a copy). A character that lower-cases to several (`İ`) is
/// kept as it is, so the text reads the same backwards.
fn folded(chars: impl Iterator<Item = char>) -> impl Iterator<Item = char> {
    let mut space = false;
    chars.filter_map(move |c| fold_char(&mut space, c))
}

/// One character of [`folded`]: `c` lower-cased, a space for the first of a run of white space,
/// nothing for the rest of the run. `space` says whether the character before was white space.
fn fold_char(space: &mut bool, c: char) -> Option<char> {
    let white = c.is_whitespace();
    if std::mem::replace(space, white) && white {
        return None;
    }
    if white {
        return Some(' ');
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(one), None) => Some(one),
        _ => Some(c),
    }
}

/// A normalised answer that is one number (`5`, `-2.5`, `\frac{1}{3}`): an answer, never a
/// copy of an expression to compute.
fn plain_number(answer: &str) -> bool {
    // Most answers are a decimal (`72`, `-2.5`): the parser would read them as one literal
    // (exactly, through big rationals); this says the same without building it.
    if plain_decimal(answer) {
        return true;
    }
    match expr::parse(answer).map(|e| e.root) {
        Some(Node::Lit(_)) => true,
        Some(Node::Neg(a)) => matches!(*a, Node::Lit(_)),
        Some(Node::Div(a, b)) => matches!((*a, *b), (Node::Lit(_), Node::Lit(_))),
        _ => false,
    }
}

/// `-?digits(.digits)?` within the parser's input bound: what [`expr::parse`] reads as one
/// literal (or its negation) with nothing around it.
fn plain_decimal(answer: &str) -> bool {
    let body = answer.strip_prefix('-').unwrap_or(answer).as_bytes();
    let (int, frac) = match body.iter().position(|&b| b == b'.') {
        Some(dot) => (body.get(..dot).unwrap_or(&[]), body.get(dot + 1..)),
        None => (body, None),
    };
    let digits = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
    answer.len() <= 256 && digits(int) && frac.is_none_or(digits)
}

/// The expressions a question states, normalised: its math segments (`$…$`, `\(…\)`,
/// `\[…\]`) and, for a question written without math delimiters ("Simplify tan 100° + 4 sin
/// 100°."), the rest of the sentence after the verb.
fn question_expressions(question: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |raw: &str| {
        let raw = raw.trim();
        if raw.is_empty()
            || raw.len() > MAX_EXPRESSION_BYTES
            || out.len() >= MAX_QUESTION_EXPRESSIONS
        {
            return;
        }
        let n = normalize::normalize(&as_tex(raw));
        if !n.is_empty() && !out.contains(&n) {
            out.push(n);
        }
    };
    let mut rest = question;
    let mut any_math = false;
    while let Some(open) = rest.find(['$', '\\']) {
        let after = &rest[open..];
        let (opener, closer) = if after.starts_with("$$") {
            ("$$", "$$")
        } else if after.starts_with('$') {
            ("$", "$")
        } else if after.starts_with("\\(") {
            ("\\(", "\\)")
        } else if after.starts_with("\\[") {
            ("\\[", "\\]")
        } else {
            rest = &after[1..];
            continue;
        };
        let body = &after[opener.len()..];
        let Some(close) = body.find(closer) else {
            break;
        };
        any_math = true;
        push(&body[..close]);
        rest = &body[close + closer.len()..];
    }
    if !any_math {
        let lower = question.to_ascii_lowercase();
        for verb in ["simplify", "compute", "evaluate", "calculate", "value of"] {
            if let Some(at) = lower.find(verb) {
                let tail = question.get(at + verb.len()..).unwrap_or("");
                let end = sentence_end(tail);
                push(tail.get(..end).unwrap_or(""));
            }
        }
    }
    out
}

/// A question's expression written as plain text (`tan 100° + 4 sin 100°`) in TeX, as an answer
/// writes it (`\tan 100^\circ + 4\sin 100^\circ`): function names get their backslash and
/// the degree sign is `^\circ`, so that both normalise alike.
fn as_tex(raw: &str) -> String {
    const FUNCTIONS: [&str; 10] = [
        "sin", "cos", "tan", "cot", "sec", "csc", "log", "ln", "sqrt", "arctan",
    ];
    let mut out = String::with_capacity(raw.len() + 8);
    let mut rest = raw;
    'outer: while !rest.is_empty() {
        let prev = out.chars().last();
        let word_start = prev.is_none_or(|c| !c.is_ascii_alphabetic() && c != '\\');
        if word_start {
            for f in FUNCTIONS {
                let follows = rest.as_bytes().get(f.len()).copied();
                if rest.starts_with(f) && follows.is_none_or(|b| !b.is_ascii_alphabetic()) {
                    out.push('\\');
                    out.push_str(f);
                    rest = &rest[f.len()..];
                    continue 'outer;
                }
            }
        }
        let Some(c) = rest.chars().next() else { break };
        if c == '°' {
            out.push_str("^\\circ");
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Where the sentence that starts `text` ends: `?`, a newline, `:` or `,`, or a `.` that does
/// not sit between two digits (`2.5` goes on).
fn sentence_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let decimal_point = b == b'.'
            && i > 0
            && bytes[i - 1].is_ascii_digit()
            && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        if matches!(b, b'?' | b'\n' | b':' | b',' | b';') || (b == b'.' && !decimal_point) {
            return i;
        }
    }
    text.len()
}

/// What an answer is as a restatement sees it: its text without spaces and braces, and its
/// expression with every constant part that no function touches folded to its value, so that
/// `\tan(100\pi/180)` and `\tan 100°` (the normaliser writes degrees as `\pi/180`) are one
/// shape while `-\sqrt{3}` (the value computed) is another.
struct Shape {
    text: String,
    folded: Option<Folded>,
}

/// An expression with its function-free constant parts folded to numbers.
#[derive(Debug, PartialEq)]
enum Folded {
    Value(f64),
    Var(usize),
    /// An operation or function and its operands: the shape is kept where a function (or a
    /// factorial, a binomial, a root, a logarithm) is still to be evaluated.
    Op(&'static str, Vec<Folded>),
}

impl Shape {
    fn of(answer: &str) -> Shape {
        let text: String = answer
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '{' | '}'))
            .collect();
        let folded = expr::parse(answer).and_then(|e| fold(&e.root));
        Shape { text, folded }
    }

    /// The same text, or the same expression with a function still to evaluate in it.
    fn same(&self, other: &Shape) -> bool {
        if !self.text.is_empty() && self.text == other.text {
            return true;
        }
        match (&self.folded, &other.folded) {
            (Some(a), Some(b)) => has_op(a) && close(a, b),
            _ => false,
        }
    }
}

fn has_op(f: &Folded) -> bool {
    matches!(f, Folded::Op(..))
}

fn close(a: &Folded, b: &Folded) -> bool {
    match (a, b) {
        (Folded::Value(x), Folded::Value(y)) => {
            (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
        }
        (Folded::Var(x), Folded::Var(y)) => x == y,
        (Folded::Op(p, xs), Folded::Op(q, ys)) => {
            p == q && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| close(x, y))
        }
        _ => false,
    }
}

/// Whether `n` holds something left to evaluate: a function call, factorial, binomial, root
/// or logarithm.
fn unevaluated(n: &Node) -> bool {
    use Node::*;
    match n {
        Call(..) | Fact(_) | Binom(..) | Root(..) | LogBase(..) | Apply(..) => true,
        Neg(a) => unevaluated(a),
        Add(a, b) | Sub(a, b) | Mul(a, b) | Div(a, b) | Pow(a, b) => {
            unevaluated(a) || unevaluated(b)
        }
        _ => false,
    }
}

/// [`Folded`] of a node; `None` when a constant part has no finite value.
fn fold(n: &Node) -> Option<Folded> {
    use Node::*;
    if !unevaluated(n) && !expr::mentions(n, None) {
        return match expr::eval(n, &[]) {
            Num::Exact(r) => num_traits::ToPrimitive::to_f64(&r).map(Folded::Value),
            Num::Real(x) => Some(Folded::Value(x)),
            _ => None,
        };
    }
    let op = |name: &'static str, parts: &[&Node]| -> Option<Folded> {
        let parts = parts.iter().map(|p| fold(p)).collect::<Option<Vec<_>>>()?;
        Some(Folded::Op(name, parts))
    };
    match n {
        Var(i) => Some(Folded::Var(*i)),
        Neg(a) => op("neg", &[a]),
        Add(a, b) => op("+", &[a, b]),
        Sub(a, b) => op("-", &[a, b]),
        Mul(a, b) => op("*", &[a, b]),
        Div(a, b) => op("/", &[a, b]),
        Pow(a, b) => op("^", &[a, b]),
        Fact(a) => op("!", &[a]),
        Call(f, a) => op(func_name(*f), &[a]),
        Root(a, b) => op("root", &[a, b]),
        Binom(a, b) => op("binom", &[a, b]),
        LogBase(a, b) => op("log_base", &[a, b]),
        // Unknown functions and constants with no number: compared by text instead.
        _ => None,
    }
}

fn func_name(f: expr::Func) -> &'static str {
    use expr::Func::*;
    match f {
        Sin => "sin",
        Cos => "cos",
        Tan => "tan",
        Cot => "cot",
        Sec => "sec",
        Csc => "csc",
        Asin => "asin",
        Acos => "acos",
        Atan => "atan",
        Ln => "ln",
        Log => "log",
        Exp => "exp",
        Sqrt => "sqrt",
        Abs => "abs",
        Sinh => "sinh",
        Cosh => "cosh",
        Tanh => "tanh",
        Floor => "floor",
        Ceil => "ceil",
        DoubleFact => "!!",
    }
}

/// Under the reward preset, the reason an output's answer is not paid for even if it equals
/// the gold: several different final answers (the grader would keep the last; a policy learns
/// to box every candidate), a negated statement ("The answer is not 5."), or a list marker
/// that a cut-off text stopped on. `None` when none applies.
pub(super) fn reward_refusal(
    predicted: &Extraction,
    gold: &Extraction,
    output: Option<&str>,
) -> Option<String> {
    if let Some(r) = several_answers(predicted, gold, output) {
        return Some(r);
    }
    let text = output?;
    if let Some(r) = negated(predicted, text) {
        return Some(r);
    }
    if let Some(r) = offered_alternatives(predicted, gold, text) {
        return Some(r);
    }
    if let Some(r) = bound_not_value(predicted, text) {
        return Some(r);
    }
    stray_list_marker(predicted, text)
}

/// How far past the answer its statement is read for another value offered beside it.
const STATEMENT_BYTES: usize = 200;

/// Where the statement that holds the answer ends, at or after `from`: a line break, or a
/// stop followed by a space (`.`, `!`, `?`, `。`; not `;`: "2; other answers: 3" is one
/// statement), or the end of the text; at most [`STATEMENT_BYTES`] past `from`.
fn statement_end(text: &str, from: usize) -> usize {
    let end = text.floor_char_boundary(from + STATEMENT_BYTES);
    let part = text.get(from..end).unwrap_or("");
    let bytes = part.as_bytes();
    let stop = part.char_indices().find(|&(i, c)| {
        matches!(c, '\n' | '。')
            || matches!(c, '.' | '!' | '?') && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace)
    });
    stop.map_or(end, |(i, _)| from + i)
}

/// Words that offer another answer beside the stated one: "or" and "else" as words (`2 or 3`,
/// `2 (or 3 if rounding)`, `2 \text{ or } 3`, "2 if x > 0, else 3"), "alternatively",
/// "otherwise", "other answers", `或`.
fn offers_another(statement: &str) -> Option<usize> {
    let lower = statement.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let word = |at: usize, len: usize| {
        let before = at.checked_sub(1).and_then(|i| bytes.get(i));
        let after = bytes.get(at + len);
        !before.is_some_and(u8::is_ascii_alphanumeric)
            && !after.is_some_and(u8::is_ascii_alphanumeric)
    };
    let first_word = |w: &str| {
        lower
            .match_indices(w)
            .map(|(at, _)| at)
            .find(|&at| word(at, w.len()))
            .map(|at| at + w.len())
    };
    // Not "and": "… = 8 and 5 are left", "$12$ and $13$" join the parts of one answer (on
    // the real sets, reading "and" so refused 16 right answers).
    let phrases = ["alternatively", "otherwise", "other answer", "或"]
        .into_iter()
        .filter_map(|w| lower.find(w).map(|at| at + w.len()));
    ["or", "else"]
        .into_iter()
        .filter_map(first_word)
        .chain(phrases)
        .min()
}

/// "The answer is 2 or 3.", "Answer: 2 (alternatively 3)": the answer's statement offers
/// another value after it, one that is not the same answer written again (`\frac12 or 0.5`,
/// `\boxed{0.1476} or \( 14.76\% \)`, `$\boxed{\sqrt[3]{1.5}}$ (or $\sqrt[3]{\frac{3}{2}}$)`:
/// real outputs restate their answer so).
/// The grader reads the first value; a policy would learn to list every candidate. The boxes
/// of such a statement are [`several_answers`]'.
fn offered_alternatives(predicted: &Extraction, gold: &Extraction, text: &str) -> Option<String> {
    // Against a gold with several answers the statement lists them (`$x=1$ or $x=-1$` for
    // `\pm 1`); the comparison decides, as for several boxes.
    if has_several_answers(gold) {
        return None;
    }
    let (s, e) = predicted.span;
    let end = statement_end(text, e.max(s));
    let statement = text.get(s..end)?;
    let after = s + offers_another(statement)?;
    // What is offered, read by the rules as an answer of its own (`$\sqrt[3]{\frac{3}{2}}$`
    // whole, `14.76\%`, "maybe 3"), without the bracket or stop that closes the statement.
    let offered = text.get(after..end)?.trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, ')' | '）' | '.' | '。' | ',')
    });
    let other = super::extract(offered, None)?.answer;
    // A value, not a word ("… do not like either fries or burgers"): digits, LaTeX, or a
    // number in words ("2 or three").
    let value = other.bytes().any(|b| b.is_ascii_digit() || b == b'\\')
        || super::words::parse_number_words(&other).is_some();
    // The same answer in another form, or the gold itself ("0.60 or 60% off" against 60):
    // nothing else is offered.
    let same = |a: &str| equiv::compare(&other, a, None, Preset::Lenient).equivalent;
    if !value || same(&predicted.answer) || same(&gold.answer) {
        return None;
    }
    Some(format!(
        "no answer (several different final answers: `{}` and `{other}` offered beside it)",
        predicted.answer
    ))
}

/// Whether the gold has several answers (boxed apart, or listed in one): then an output that
/// states several is compared with them as a set (see `compare_answers`), never refused here.
fn has_several_answers(gold: &Extraction) -> bool {
    gold.several.len() >= 2 || equiv::answer_count(&gold.answer) >= 2
}

/// Two or more boxed answers that do not all agree in the paragraph of the final one (`It is
/// \boxed{1} or \boxed{2}.`), against a gold with one answer (a gold with several answers is
/// compared as a set, see `compare_answers`). Boxes in earlier paragraphs are the parts of a
/// multi-part solution or intermediate results (on the long-CoT dev file, 8 right answers box
/// each subproblem's result in its own paragraph), not alternatives offered at the end.
fn several_answers(
    predicted: &Extraction,
    gold: &Extraction,
    output: Option<&str>,
) -> Option<String> {
    if predicted.several.len() < 2 || predicted.method != Method::Boxed || has_several_answers(gold)
    {
        return None;
    }
    let paragraph_boxes = output.and_then(|text| {
        let (s, e) = predicted.span;
        let start = text.get(..s)?.rfind("\n\n").map_or(0, |i| i + 2);
        let end = text.get(e..)?.find("\n\n").map_or(text.len(), |i| e + i);
        let paragraph = text.get(start..end)?;
        Some(super::extract(paragraph, None).map_or_else(Vec::new, |x| x.several))
    });
    let several = paragraph_boxes.as_ref().unwrap_or(&predicted.several);
    let last = several.last()?;
    let all_agree = several
        .iter()
        .all(|a| a == last || equiv::compare(a, last, None, Preset::Strict).equivalent);
    (!all_agree).then(|| {
        format!(
            "no answer (several different final answers: {})",
            several
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// Words that negate what follows them (lowercase), looked for between the statement's start
/// and the answer.
const NEGATIONS: &[&str] = &[
    " not ",
    "n't ",
    " never ",
    "\\neq",
    "\\ne ",
    "≠",
    "不是",
    "不等于",
    "不为",
];

/// Phrases that deny the statement they open, wherever they stand before the answer in its
/// sentence ("It is not true that the answer is 5.").
const DENIALS: &[&str] = &[
    "not true that",
    "n't true that",
    "not the case that",
    "false that",
    "untrue that",
    "wrong to say",
    "incorrect to say",
    "并不是",
    "不对",
];

/// Words right before an answer that make it a bound ("The answer is at least 5.").
const BOUND_BEFORE: &[&str] = &[
    "at least",
    "at most",
    "more than",
    "less than",
    "fewer than",
    "greater than",
    "no more than",
    "no less than",
    "至少",
    "至多",
    "最多",
    "大于",
    "小于",
];

/// Words right after an answer that make it a bound ("5 or more").
const BOUND_AFTER: &[&str] = &[
    "or more",
    "or less",
    "or fewer",
    "or greater",
    "or higher",
    "or lower",
    "or above",
    "or below",
    "and above",
    "and up",
    "以上",
    "以下",
];

/// "The answer is at least 5.", "5 or more": the statement gives a bound, not the value; an
/// explicit answer only (a worked solution's "she must sell at least 12" states its result).
fn bound_not_value(predicted: &Extraction, text: &str) -> Option<String> {
    if !predicted.method.is_explicit() {
        return None;
    }
    let (s, e) = (
        predicted.span.0.min(text.len()),
        predicted.span.1.min(text.len()),
    );
    let from = text.ceil_char_boundary(s.saturating_sub(24));
    let to = text.floor_char_boundary(e + 24);
    let markup =
        |c: char| c.is_whitespace() || matches!(c, '$' | '*' | '{' | '}' | '(' | ')' | '\\');
    let before = text.get(from..s)?.trim_end_matches(markup).to_lowercase();
    let after = text.get(e..to)?.trim_start_matches(markup).to_lowercase();
    // `\boxed{` before a box's answer: its command name is markup too.
    let before = before
        .strip_suffix("boxed")
        .unwrap_or(&before)
        .trim_end_matches(markup);
    let bound = BOUND_BEFORE
        .iter()
        .find(|b| before.ends_with(*b))
        .or_else(|| BOUND_AFTER.iter().find(|b| after.starts_with(*b)))?;
    Some(format!(
        "no answer (a bound, not a value: `{}` with `{bound}`)",
        predicted.answer
    ))
}

/// What denies the answer right after it ("`\boxed{5}` is wrong").
const DENIED_AFTER: &[&str] = &[
    "is wrong",
    "is incorrect",
    "is not correct",
    "is not right",
    "is not the answer",
    "is not the correct answer",
    "is not the final answer",
    "isn't the answer",
    "isn't correct",
    "是错的",
    "不是答案",
    "不正确",
];

/// "The answer is not 5.": a negation right before the answer, nothing but a few words
/// (`equal to`) and markup between them; or a denial of the whole statement earlier in its
/// sentence ("It is not true that the answer is 5."). Another negation earlier in the sentence
/// ("has not sold them yet, so 50 - 27 = 23") is not about the answer.
fn negated(predicted: &Extraction, text: &str) -> Option<String> {
    let start = predicted.span.0.min(text.len());
    let from = text.ceil_char_boundary(start.saturating_sub(48));
    let sentence = text.ceil_char_boundary(start.saturating_sub(STATEMENT_BYTES));
    let lead = text.get(sentence..start)?;
    // The sentence's start: after the last line break or stop followed by a space.
    let opens = lead
        .char_indices()
        .rev()
        .find(|&(i, c)| {
            matches!(c, '\n' | '。')
                || matches!(c, '.' | '!' | '?') && lead.as_bytes().get(i + 1) == Some(&b' ')
        })
        .map_or(0, |(i, c)| i + c.len_utf8());
    let lead = lead.get(opens..)?.to_lowercase();
    if let Some(denial) = DENIALS.iter().find(|d| lead.contains(*d)) {
        return Some(format!(
            "no answer (a negated statement: `{}` after `{denial}`)",
            predicted.answer
        ));
    }
    // "\boxed{5} is not the answer.": the statement right after the answer denies it.
    let end = predicted.span.1.min(text.len());
    let cut = text.floor_char_boundary(end + 48);
    let follows = text
        .get(end..cut)?
        .trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, '$' | '*' | '}' | ')' | ']' | '\\')
        })
        .to_lowercase();
    if let Some(denial) = DENIED_AFTER.iter().find(|d| follows.starts_with(*d)) {
        return Some(format!(
            "no answer (a negated statement: `{}` followed by `{denial}`)",
            predicted.answer
        ));
    }
    let before = text.get(from..start)?.to_lowercase();
    let padded = format!(" {before}");
    // The raw capture of a marker may start with the negation itself ("not 5").
    let raw = format!(" {}", predicted.raw.to_lowercase());
    let hit = NEGATIONS.iter().find(|n| {
        if raw.starts_with(*n) {
            return true;
        }
        padded.rfind(*n).is_some_and(|at| {
            let gap = padded.get(at + n.len()..).unwrap_or("");
            let gap = gap.trim_matches(|c: char| {
                c.is_whitespace() || matches!(c, '$' | '*' | '{' | '(' | '\\')
            });
            gap.len() <= 16 && gap.chars().all(|c| c.is_alphabetic() || c == ' ')
        })
    })?;
    Some(format!(
        "no answer (a negated statement: `{}` after `{}`)",
        predicted.answer,
        hit.trim()
    ))
}

/// `Let me compute the cases:\n\n1.`: the answer is the item number of a list the text
/// stopped at, found by a rule that guesses from position (not an explicit statement).
fn stray_list_marker(predicted: &Extraction, text: &str) -> Option<String> {
    if predicted.method.is_explicit() || matches!(predicted.method, Method::Fallback) {
        return None;
    }
    let last = text.trim_end().rsplit('\n').next()?.trim();
    let marker = last
        .strip_suffix(['.', ')'])
        .map(|m| m.trim_start_matches(['(', '*', '#', ' ']))
        .is_some_and(|m| !m.is_empty() && m.len() <= 3 && m.bytes().all(|b| b.is_ascii_digit()));
    let in_last_line = predicted.span.0 >= text.trim_end().len().saturating_sub(last.len());
    (marker && in_last_line).then(|| {
        format!("no answer (the text stops at the list marker `{last}`: cut off before its answer)")
    })
}

/// Under the reward preset, whether a lenient "equal" rests on rounding the output's answer
/// where the gold is exact (`3.14` for `\pi`, `0.33` for `\frac13`): rounding is accepted only
/// where the gold itself is written rounded (`3.14` as the gold of `\pi` or of `3.14159`).
/// Called only when the strict comparison did not find the pair equal.
pub(super) fn rounded_answer(predicted: &str, gold: &str) -> Option<String> {
    if !has_decimal(predicted) {
        return None;
    }
    let refuse = || {
        Some(format!(
            "different: `{predicted}` equals `{gold}` only rounded, and the ground truth is not \
             written rounded (the reward preset pays rounding only where the gold is)"
        ))
    };
    let value = |s: &str| {
        expr::parse(s)
            .and_then(|e| expr::eval(&e.root, &[]).to_f64())
            .or_else(|| leading_number(s).and_then(|n| n.parse().ok()))
    };
    let places = leading_number(predicted).and_then(decimal_places);
    match (places, value(predicted), value(gold)) {
        // Two values: refused when the output's is the gold rounded to the output's places
        // (`3.14` for `\pi`, `0.33` for `0.333`); where the gold is the coarser side (`300` for
        // `299.4`, `3.14` for `3.14159`) the gold is written rounded and lenient's rule stands.
        (Some(places), Some(p), Some(g)) => {
            let half_unit = 0.5 * 10f64.powi(-i32::try_from(places).unwrap_or(i32::MAX));
            if (p - g).abs() <= half_unit * (1.0 + 1e-9) {
                refuse()
            } else {
                None
            }
        }
        // A tuple, a set, an interval: rounding stays where the gold has decimals itself.
        _ if has_decimal(gold) => None,
        _ => refuse(),
    }
}

/// Whether an answer writes a decimal point followed by a digit (`3.14`, `.5`): only such an
/// answer can be a rounding (the reward preset's extra comparison runs only then).
pub(super) fn has_decimal(answer: &str) -> bool {
    answer
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'.' && w[1].is_ascii_digit())
}

/// The number an answer starts with when a unit or word follows it (`299.4 km/s` → `299.4`).
fn leading_number(answer: &str) -> Option<&str> {
    let t = answer.trim();
    let sign = usize::from(t.starts_with('-'));
    let end = t
        .char_indices()
        .skip(sign)
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
        .map_or(t.len(), |(i, _)| i);
    let (number, rest) = t.split_at(end);
    let unit = rest.trim_start();
    (end > sign && (unit.is_empty() || rest.starts_with(' ') || unit.starts_with("\\text")))
        .then_some(number)
}

/// The number of decimal places of an answer that is one decimal number (`3.14` → 2).
fn decimal_places(answer: &str) -> Option<usize> {
    let t = answer.trim().trim_start_matches('-');
    let (int, frac) = t.split_once('.')?;
    (int.bytes().all(|b| b.is_ascii_digit())
        && !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit()))
    .then_some(frac.len())
}

#[cfg(test)]
mod tests {
    use super::super::{grade, Outcome, Path, Preset};

    const RESTATE_Q: &str = "Simplify tan 100° + 4 sin 100°.";

    /// The shortcut says what the parser says, and only where it is sure.
    #[test]
    fn plain_decimal_agrees_with_the_parser() {
        for s in [
            "72",
            "-5",
            "0.25",
            "-0.5",
            "007",
            "1234567890123456789012345678901234567890",
        ] {
            assert!(super::plain_decimal(s), "{s}");
            assert!(super::plain_number(s), "{s}");
        }
        for s in [
            "",
            "-",
            ".5",
            "5.",
            "1.2.3",
            "1,000",
            "1e5",
            "--5",
            "+5",
            "5%",
            "3\\frac{1}{2}",
            "x",
        ] {
            assert!(!super::plain_decimal(s), "{s}");
        }
        let long = "9".repeat(300);
        assert!(!super::plain_decimal(&long));
        assert!(super::plain_number(&long), "the parser still reads it");
    }

    #[test]
    fn a_copied_question_is_no_answer_under_every_preset() {
        for preset in Preset::ALL {
            for out in [
                r"So the answer is $\boxed{\tan(100\pi/180)+4\sin(100\pi/180)}$.",
                r"\boxed{\tan 100^\circ + 4 \sin 100^\circ}",
            ] {
                let v = grade(out, r"-\sqrt{3}", Some(RESTATE_Q), preset);
                assert_eq!(
                    v.outcome,
                    Outcome::Different,
                    "{preset:?} {out}: {}",
                    v.reason
                );
                assert_eq!(v.path, Path::NoAnswer);
                assert!(v.reason.contains("restates the question"), "{}", v.reason);
            }
            let v = grade(
                r"\boxed{\sqrt{8}}",
                r"2\sqrt{2}",
                Some(r"Simplify $\sqrt{8}$."),
                preset,
            );
            assert!(v.reason.contains("restates the question"), "{}", v.reason);
            // The computed value is an answer.
            let v = grade(r"\boxed{-\sqrt{3}}", r"-\sqrt{3}", Some(RESTATE_Q), preset);
            assert!(v.equivalent, "{}", v.reason);
            let v = grade(
                r"\boxed{2\sqrt{2}}",
                r"2\sqrt{2}",
                Some(r"Simplify $\sqrt{8}$."),
                preset,
            );
            assert!(v.equivalent, "{}", v.reason);
        }
    }

    const APPLES: &str = "Tom has 5 apples and eats none. How many apples does Tom have?";

    #[test]
    fn an_answer_read_from_the_question_copied_back_is_no_answer() {
        let choice_q = "5. Which vector is perpendicular to $b$? ( )\nA. $a+2b$\nB. $2a+b$\nC. $a-2b$\nD. $2a-b$\n";
        for preset in Preset::ALL {
            // The question itself, re-cased and re-wrapped, or after a preamble.
            for out in [
                APPLES.to_string(),
                APPLES.to_uppercase().replace(". ", ".\n\n"),
                format!("Let me restate the problem. {APPLES}"),
            ] {
                let v = grade(&out, "5", Some(APPLES), preset);
                assert_eq!(v.path, Path::NoAnswer, "{preset:?} {out}: {}", v.reason);
                assert!(v.reason.contains("copied back"), "{}", v.reason);
            }
            // The copy is quoted as the output writes it.
            let v = grade(&APPLES.to_uppercase(), "5", Some(APPLES), preset);
            assert!(
                v.reason
                    .contains("copied back (`TOM HAS 5 APPLES AND EATS NONE. HOW MANY"),
                "{}",
                v.reason
            );
            // One sentence of it, the one that states the number.
            let v = grade("Tom has 5 apples and eats none.", "5", Some(APPLES), preset);
            assert_eq!(v.path, Path::NoAnswer, "{preset:?}: {}", v.reason);
            // A copied multiple-choice question is read as its last option.
            let v = grade(choice_q, "D", Some(choice_q), preset);
            assert!(!v.equivalent, "{preset:?}: {}", v.reason);
            assert!(v.reason.contains("copied back"), "{}", v.reason);
            // The question restated first and then answered: the answer is the output's.
            let out = format!("{APPLES} He eats none of them, so he still has \\boxed{{5}}.");
            let v = grade(&out, "5", Some(APPLES), preset);
            assert!(v.equivalent, "{preset:?}: {}", v.reason);
            // A conclusion in the question's words, shorter than a copy.
            let v = grade("So Tom has 5 apples.", "5", Some(APPLES), preset);
            assert!(v.equivalent, "{preset:?}: {}", v.reason);
            // The option chosen, written as the question lists it, is an answer.
            let long_q = "Which holds?\nA. The function is increasing on the whole interval (0, 1)\nB. The function is decreasing on the whole interval (0, 1) and nowhere else\n";
            let v = grade(
                "The answer is B. The function is decreasing on the whole interval (0, 1) and nowhere else.",
                "B",
                Some(long_q),
                preset,
            );
            assert!(v.equivalent, "{preset:?}: {}", v.reason);
        }
    }

    #[test]
    fn an_expression_that_is_the_answer_is_not_a_restatement() {
        // A number is an answer even when the question writes it.
        let v = grade(
            r"\boxed{5}",
            "5",
            Some("What is $5$ plus $0$?"),
            Preset::Lenient,
        );
        assert!(v.equivalent, "{}", v.reason);
        // The gold itself is written as the question's expression.
        let v = grade(
            r"\boxed{\sqrt{2}}",
            r"\sqrt{2}",
            Some(r"Simplify $\sqrt{2}$ if you can."),
            Preset::Lenient,
        );
        assert!(v.equivalent, "{}", v.reason);
        // Asked to solve, not to compute: the question's expressions are not copies.
        let v = grade(
            r"\boxed{x^2+1}",
            r"x^2+1",
            Some(r"Find $f$ such that $f' = 2x$ and $f(0)=1$; it is $x^2+1$."),
            Preset::Lenient,
        );
        assert!(v.equivalent, "{}", v.reason);
    }

    #[test]
    fn the_reward_preset_refuses_what_a_policy_would_learn() {
        let zero = |out: &str, gold: &str| {
            let v = grade(out, gold, None, Preset::Reward);
            assert!(!v.equivalent, "{out} vs {gold}: {}", v.reason);
            v.reason
        };
        assert!(zero(r"It is \boxed{1} or \boxed{2}.", "2").contains("several different"));
        assert!(zero("The answer is not 5.", "5").contains("negated"));
        assert!(zero("Let me compute the cases:\n\n1.", "1").contains("list marker"));
        assert!(zero(r"\boxed{3.14}", r"\pi").contains("rounded"));
        assert!(zero(r"\boxed{1.41}", r"\sqrt2").contains("rounded"));
        assert!(zero(r"\boxed{0.33}", r"\frac13").contains("rounded"));
        zero(r"\boxed{0.33}", "0.333");
        // Several values offered in one statement (the grader reads the first).
        for hedge in [
            "The answer is 2 or 3.",
            "The answer is either 2 or 3.",
            "The answer is 2, or maybe 3.",
            "The answer is 2 (or 3 if rounding).",
            "Answer: 2 (alternatively 3)",
            "Answer: 2; other answers: 3",
            "So the answer is:\n\\[ 2 \\text{ or } 3 \\]\nI think this is the answer.",
            r"\boxed{2}, otherwise 3",
            "答案是2或3。",
        ] {
            assert!(zero(hedge, "2").contains("several different"), "{hedge}");
        }
        // A denial of the whole statement.
        assert!(zero("It is not true that the answer is 5.", "5").contains("negated"));
        assert!(zero("It isn't true that the answer is 5.", "5").contains("negated"));
        // A bound, not a value.
        for bound in [
            "The answer is at least 5.",
            "The answer is 5 or more.",
            r"The answer is at most $\boxed{5}$.",
            "答案是至少5。",
        ] {
            assert!(zero(bound, "5").contains("a bound"), "{bound}");
        }
        // A denial right after it.
        for denied in [
            r"\boxed{5} is wrong.",
            r"$\boxed{5}$ is not the answer.",
            "5 是错的。",
        ] {
            assert!(zero(denied, "5").contains("negated"), "{denied}");
        }
        // What stays paid: the gold written rounded, one answer boxed twice, a plain statement.
        let one = |out: &str, gold: &str| {
            let v = grade(out, gold, None, Preset::Reward);
            assert!(v.equivalent, "{out} vs {gold}: {}", v.reason);
        };
        one(r"\boxed{\pi}", "3.14");
        one(r"\boxed{3.14159}", "3.14");
        one(r"\boxed{0.5}", r"\frac12");
        one(r"First \boxed{2}, checked: \boxed{2}.", "2");
        one(r"The roots are \boxed{1} and \boxed{2}.", "1, 2");
        one("The answer is 5.", "5");
        one("The answer is 5, not 6.", "5");
        // The same answer written again, an "or" in another sentence, a word holding "or".
        one(r"The answer is \frac12 or 0.5.", r"\frac12");
        one("The answer is 12 (or 12.0).", "12");
        one(
            "Either way, we get 4 cookies or more. The answer is 12.",
            "12",
        );
        one("The answer is 12 for order 3", "12");
        one("Is it 3? It is not. The answer is 5.", "5");
        one(r"The total is \boxed{5}, which is right.", "5");
        one("So she must sell at least 5 more cookies.", "5");
        one(r"The answer is \boxed{5} or \boxed{5}.", "5");
        // A gold with several answers: the statement lists them.
        one("The roots are $x=1$ or $x=-1$.", r"\pm 1");
        // Real outputs restate their answer in another form after "or".
        one(
            r"approximately \( \boxed{0.1476} \) or \( 14.76\% \).",
            "0.1476",
        );
        one(
            r"$\boxed{\sqrt[3]{1.5}}$ (or $\sqrt[3]{\frac{3}{2}}$)",
            r"\sqrt[3]{\frac{3}{2}}",
        );
        let asked = Some("What percent off did she get?");
        let out = "That means she saved 210 / 350 = 0.60 or 60% off on the dress.";
        let v = grade(out, "60", asked, Preset::Reward);
        assert!(v.equivalent, "{}", v.reason);
        one("So 125 students like chess or basketball.", "125");
        assert!(zero("The answer is 2 or three.", "2").contains("several different"));
        assert!(zero("The answer is 2 if x>0, else 3.", "2").contains("several different"));
        one("Steps:\n1. add\n2. done\nSo the total is 12.", "12");
        // The lenient preset keeps its documented tolerance.
        assert!(grade(r"\boxed{0.33}", r"\frac13", None, Preset::Lenient).equivalent);
    }
}
