//! The confidence signal: the reasons to doubt an extracted answer, each a [`Doubt`]. Any
//! doubt makes the answer low-confidence, which is what asks the LLM fallback. Designed from
//! what goes wrong on real outputs (docs/extract.md, "Confidence signal"): rules that disagree,
//! a text that goes on after its answer, an answer sentence with several values, a last line
//! that is a remark and not a conclusion, a truncated text, unfinished thinking, an asked unit
//! the answer is not in.
//! Every check looks at the answer's line, its neighbours or one pass over the text: linear.

use std::fmt;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::candidates::{concluding_sentence, math_spans};
use super::cutoff::{line_at, rfind_ascii_ci};
use super::normalize::{is_prose, normalize};
use super::scan::{next_number, HINK};
use super::{agrees, Candidate, Method};
use crate::json::{FieldError, FromJson, Path};

/// Why the extractor doubts its answer. Shown to users as [`Doubt`]'s `Display` (the
/// `confidence_reason` of the CLI and the Extract page).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Doubt {
    /// Two explicit rules give different answers (`\boxed{5}` and "the answer is 6").
    RulesDisagree {
        rule: String,
        answer: String,
        other_rule: String,
        other_answer: String,
    },
    /// The text goes on after its explicit answer and reaches another value ("\boxed{12}.
    /// Actually, we counted a corner twice … 11").
    ContinuesAfterAnswer { later: String },
    /// The answer's sentence holds other values too ("Answer: 3 and 7", "$x = 2$ or $x = -\frac13$").
    OtherValuesInAnswerSentence { other: String },
    /// The answer was read from a "because"/"since" clause while the statement before it
    /// says another value ("He spends $5 because 10 x .5 = 10").
    AnswerFromSideClause { stated: String },
    /// The final equation's result is not the last number of its line.
    EquationNotLastNumber { last: String },
    /// Another sentence follows the final equation on its line and states other numbers.
    SentenceAfterEquation { other: String },
    /// The last line, read as the conclusion, holds other numbers too.
    OtherNumbersOnLastLine { other: String },
    /// The last line is a check or a remark, and the line before it concluded with another
    /// value ("The number of ways is 120. / This matches $n!$ for $n = 5$.").
    RemarkAfterConclusion { earlier: String },
    /// No marker, no equation and no concluding sentence: the last number of the text.
    OnlyLastNumber,
    /// The text stops before it concludes (mid-sentence, inside math, an unclosed brace).
    Truncated { how: String },
    /// A `<think>` block opened after the answer never closes: the model was still reasoning.
    UnfinishedThinking,
    /// The question asks for cents and the answer is written in dollars (`$0.25`).
    AskedCents,
    /// The answer reads as a sentence, not a value.
    ProseAnswer,
    /// One answer written as several (`\pm`): the grader compares it as a set.
    PlusMinusAnswer,
    /// The text has a JSON `"answer"` field that could not be read (empty or cut off).
    UnreadableAnswerField,
}

/// A doubt read back as `verifyfast extract` writes it (`{"kind": "rules_disagree", …}`): by
/// serde's reader of the attributes that write it, so each kind's name is declared once. Only
/// what the writer writes reads (serde's tagged reader lets a kind without fields carry any
/// others): a doubt that would not be written back as it is, is refused.
impl FromJson for Doubt {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let wrong = |why: String| {
            FieldError::wrong(
                path,
                format!("a doubt as `verifyfast extract` writes it ({why})"),
                value,
            )
        };
        let doubt = Doubt::deserialize(value).map_err(|e| wrong(e.to_string()))?;
        match serde_json::to_value(&doubt) {
            Ok(written) if written == *value => Ok(doubt),
            _ => Err(wrong("fields it does not have".into())),
        }
    }
}

impl fmt::Display for Doubt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Doubt::RulesDisagree {
                rule,
                answer,
                other_rule,
                other_answer,
            } => write!(
                f,
                "{rule} says `{answer}` but {other_rule} says `{other_answer}`"
            ),
            Doubt::ContinuesAfterAnswer { later } => {
                write!(f, "the text goes on after the answer and reaches `{later}`")
            }
            Doubt::OtherValuesInAnswerSentence { other } => {
                write!(f, "the answer's sentence also says `{other}`")
            }
            Doubt::AnswerFromSideClause { stated } => write!(
                f,
                "the answer comes from a because/since clause; the statement says `{stated}`"
            ),
            Doubt::EquationNotLastNumber { last } => {
                write!(
                    f,
                    "the final equation's result is not the last number `{last}`"
                )
            }
            Doubt::SentenceAfterEquation { other } => {
                write!(f, "a sentence after the final equation says `{other}`")
            }
            Doubt::OtherNumbersOnLastLine { other } => {
                write!(f, "the last line also has the number `{other}`")
            }
            Doubt::RemarkAfterConclusion { earlier } => write!(
                f,
                "the last line is a remark; the line before concluded `{earlier}`"
            ),
            Doubt::OnlyLastNumber => {
                f.write_str("no answer marker, equation or concluding sentence: the last number")
            }
            Doubt::Truncated { how } => write!(f, "the text looks cut off: {how}"),
            Doubt::UnfinishedThinking => f.write_str("a <think> block after the answer never ends"),
            Doubt::AskedCents => {
                f.write_str("the question asks for cents and the answer looks like dollars")
            }
            Doubt::ProseAnswer => f.write_str("the answer reads as a sentence, not a value"),
            Doubt::PlusMinusAnswer => f.write_str("the answer holds two values (±)"),
            Doubt::UnreadableAnswerField => {
                f.write_str("the JSON \"answer\" field is empty or cut off")
            }
        }
    }
}

/// Every doubt about `winner` (the extracted answer) in `text`, most telling first.
pub(super) fn find(
    text: &str,
    winner: &Candidate,
    others: &[Candidate],
    question: Option<&str>,
) -> Vec<Doubt> {
    let mut out = Vec::new();
    // The answer's line, found once (every check below reads it).
    let line = line_at(text, winner.span.0);
    if let Some(d) = dissent(winner, others) {
        out.push(d);
    }
    match &winner.method {
        Method::FinalEquation => {
            out.extend(equation_not_last(winner, others));
            out.extend(sentence_after_equation(text, line, winner));
            out.extend(side_clause(text, line, winner));
            out.extend(same_variable_elsewhere(text, line, winner));
            out.extend(remark_after_conclusion(text, line, winner));
        }
        Method::MainClause => {
            // Read from the concluding sentence of a paragraph line: the values of the
            // sentences before it are the working, not rival answers.
            let scope = concluding_sentence(text, line.0, line.1)
                .filter(|&(s, e)| s <= winner.span.0 && winner.span.1 <= e)
                .unwrap_or(line);
            out.extend(other_numbers_on_line(text, scope, winner, question));
            out.extend(remark_after_conclusion(text, line, winner));
        }
        Method::LastNumber => out.push(Doubt::OnlyLastNumber),
        Method::FinalAnswerMarker | Method::HashMarker => {
            out.extend(continues_after(text, winner, others));
            out.extend(answer_sentence(text, line, winner));
        }
        m if m.is_explicit() => out.extend(continues_after(text, winner, others)),
        _ => {}
    }
    if !winner.method.is_explicit() {
        // A byte check first: most answers have no backslash (keeps extraction fast).
        let latex = memchr::memchr(b'\\', winner.answer.as_bytes()).is_some();
        if latex && (winner.answer.contains("\\pm") || winner.answer.contains("\\mp")) {
            out.push(Doubt::PlusMinusAnswer);
        }
        if winner.method == Method::WholeText && is_prose(&winner.raw) {
            out.push(Doubt::ProseAnswer);
        }
    }
    if winner.answer.contains('.') && asks_cents(question) {
        out.push(Doubt::AskedCents);
    }
    if winner.method != Method::JsonField
        && !others.iter().any(|c| c.method == Method::JsonField)
        && memchr::memchr(b'"', text.as_bytes()).is_some()
        && (text.contains("\"answer\"") || text.contains("\"final_answer\""))
    {
        out.push(Doubt::UnreadableAnswerField);
    }
    if unfinished_thinking(text, winner) {
        out.push(Doubt::UnfinishedThinking);
    }
    // A text cut off before it concludes has no answer unless it stated one explicitly (see
    // `cut_off`); an explicit answer before the cut is its conclusion. Flagging the cut as a
    // doubt found no wrong verdict on the real sets (0 of 5 on the long-CoT outputs, 0 of 5 on
    // GSM8K, 0 of 16 on our MATH-style cases), so `Doubt::Truncated` is no longer raised here.
    out
}

/// The first explicit rule that disagrees with the winner, outside the winner's own text (a
/// JSON field "The answer is 7." also holds an "answer is" marker).
fn dissent(winner: &Candidate, others: &[Candidate]) -> Option<Doubt> {
    let inside = |c: &Candidate| c.span.0 >= winner.span.0 && c.span.0 < winner.span.1;
    // A marker that caught a bare word ("the answer: Therefore, …") is not a second answer.
    let word =
        |c: &Candidate| c.answer.len() >= 4 && c.answer.bytes().all(|b| b.is_ascii_alphabetic());
    let d = others.iter().find(|c| {
        c.method.is_explicit() && !inside(c) && !word(c) && !agrees(&c.answer, &winner.answer)
    })?;
    Some(Doubt::RulesDisagree {
        rule: winner.method.as_str().to_string(),
        answer: winner.answer.clone(),
        other_rule: d.method.as_str().to_string(),
        other_answer: d.answer.clone(),
    })
}

fn equation_not_last(winner: &Candidate, others: &[Candidate]) -> Option<Doubt> {
    let l = others.iter().find(|c| c.method == Method::LastNumber)?;
    // A last number inside the equation's own answer (`2,3` from "$x = 2$ and $x = 3$")
    // agrees with it.
    let outside = l.span.0 < winner.span.0 || winner.span.1 < l.span.1;
    (outside && !agrees(&l.answer, &winner.answer)).then(|| Doubt::EquationNotLastNumber {
        last: l.answer.clone(),
    })
}

/// The non-empty line before the one starting at `start`, if any.
fn previous_line(text: &str, start: usize) -> Option<(usize, usize)> {
    let before = text.get(..start)?.trim_end();
    if before.is_empty() {
        return None;
    }
    let (s, e) = line_at(text, before.len() - 1);
    Some((s, e.min(before.len())))
}

/// The values stated in `text[from..to]`: each LaTeX math span is one value (what follows its
/// last `=`), other numbers one each; `<<…>>` annotations are skipped. Spans, in order.
fn values(text: &str, from: usize, to: usize) -> Vec<(usize, usize)> {
    let spans = math_spans(text, from, to);
    let mut out = Vec::new();
    let mut pos = from;
    for &(s, e) in spans.iter().chain(std::iter::once(&(to, to))) {
        let latex = text
            .get(s..e)
            .is_some_and(|m| m.contains(['\\', '^', '{', '_', '=']));
        if !latex && e > s {
            continue;
        }
        while let Some((ns, ne)) = next_number(text, pos, s) {
            out.push((ns, ne));
            pos = ne.max(ns + 1);
        }
        if e > s {
            let inner = text.get(s..e).unwrap_or("");
            let rhs = super::candidates::last_plain_equals(inner).map_or(s, |i| s + i + 1);
            if let Some(t) = super::candidates::trim_span(text, rhs, e) {
                out.push(t);
            }
        }
        pos = pos.max(e);
    }
    out
}

/// The first value of `text[from..to]` outside `skip` that disagrees with `answer`.
fn other_value(
    text: &str,
    from: usize,
    to: usize,
    skip: (usize, usize),
    answer: &str,
) -> Option<String> {
    // At most 64 values are compared: a hostile line of numbers stays linear.
    values(text, from, to)
        .into_iter()
        .filter(|&(s, e)| e <= skip.0 || s >= skip.1)
        .take(64)
        .filter_map(|(s, e)| text.get(s..e).map(normalize))
        .filter(|v| v.bytes().any(|b| b.is_ascii_alphanumeric()))
        .find(|v| v != answer && !agrees(v, answer))
}

/// Words that start a side clause after a sentence's statement (lower case: a sentence that
/// opens with "Since …" states its answer after the clause).
const SIDE_CLAUSES: &[&str] = &[" because ", " since ", " (since ", " (because "];

/// Where the first side clause starts in `s` (one pass over its spaces, no substring search:
/// this runs on every final equation).
fn first_side_clause(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    (0..b.len()).find(|&i| {
        b.get(i) == Some(&b' ')
            && b.get(i..)
                .is_some_and(|rest| SIDE_CLAUSES.iter().any(|q| rest.starts_with(q.as_bytes())))
    })
}

/// Whether the statement `text[from..to]` (before a side clause) states values, none of them
/// the answer; the first one, if so.
fn statement_says_other(text: &str, from: usize, to: usize, answer: &str) -> Option<String> {
    let stated: Vec<String> = values(text, from, to)
        .into_iter()
        .take(64)
        .filter_map(|(s, e)| text.get(s..e).map(normalize))
        .filter(|v| v.bytes().any(|b| b.is_ascii_alphanumeric()))
        .collect();
    if stated.iter().any(|v| v == answer || agrees(v, answer)) {
        return None;
    }
    stated.into_iter().next()
}

/// End of the sentence that contains `pos`, within its line.
fn sentence_bounds(text: &str, (ls, le): (usize, usize), pos: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let Some(line) = bytes.get(ls..le) else {
        return (ls, le);
    };
    let mut start = ls;
    let mut end = le;
    // The stops found with memchr, not byte by byte: this runs on most extractions.
    for i in memchr::memchr3_iter(b'.', b'!', b'?', line).map(|i| ls + i) {
        if !bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace) {
            continue;
        }
        if i < pos {
            start = i + 1;
        } else {
            end = i;
            break;
        }
    }
    (start, end)
}

/// A marker's answer sentence: the answer taken from a side clause, or other values beside it.
fn answer_sentence(text: &str, line: (usize, usize), winner: &Candidate) -> Option<Doubt> {
    let (s, e) = sentence_bounds(text, line, winner.span.0);
    let sentence = text.get(s..e)?;
    let side = first_side_clause(sentence).map(|q| s + q);
    match side {
        Some(q) if q < winner.span.0 => {
            let stated = statement_says_other(text, s, q, &winner.answer)?;
            Some(Doubt::AnswerFromSideClause { stated })
        }
        _ => {
            let other = other_value(text, s, side.unwrap_or(e), winner.span, &winner.answer)?;
            Some(Doubt::OtherValuesInAnswerSentence { other })
        }
    }
}

/// "… = 6 sodas. It takes Jerry 3 weeks to get down to 6 sodas.": a later sentence on the
/// final equation's line with numbers of its own.
fn sentence_after_equation(text: &str, line: (usize, usize), winner: &Candidate) -> Option<Doubt> {
    let (_, le) = line;
    let bytes = text.as_bytes();
    // The stops found with memchr: this runs on every final equation.
    let stop = memchr::memchr3_iter(
        b'.',
        b'!',
        b'?',
        bytes.get(winner.span.1..le.min(bytes.len()))?,
    )
    .map(|k| winner.span.1 + k)
    .find(|&i| {
        bytes.get(i + 1) == Some(&b' ') && bytes.get(i + 2).is_some_and(u8::is_ascii_uppercase)
    })?;
    let other = other_value(text, stop + 1, le, winner.span, &winner.answer)?;
    Some(Doubt::SentenceAfterEquation { other })
}

/// "The zeros are at $x = 0$ and $x = 4$": another math span on the line gives the answer's
/// variable another value (the final equation took only the last one); or the final equation
/// is a computation after a variable's value, a check ("Hence $n = 12$ …, and indeed
/// $12 \cdot 7 = 84$").
fn same_variable_elsewhere(text: &str, line: (usize, usize), winner: &Candidate) -> Option<Doubt> {
    let (ls, le) = line;
    // Two math spans need four `$` (or a LaTeX delimiter): a byte count first.
    let bytes = text.as_bytes().get(ls..le)?;
    let dollars = memchr::memchr_iter(b'$', bytes).take(4).count();
    if dollars < 4 && memchr::memchr(b'\\', bytes).is_none() {
        return None;
    }
    let spans = math_spans(text, ls, le);
    let name_of = |s: usize, e: usize| -> Option<&str> {
        let (lhs, _) = text.get(s..e)?.split_once('=')?;
        let lhs = lhs.trim();
        (lhs.len() == 1 && lhs.bytes().all(|b| b.is_ascii_alphabetic())).then_some(lhs)
    };
    let &(ws, we) = spans
        .iter()
        .find(|&&(s, e)| s <= winner.span.0 && winner.span.1 <= e)?;
    let own = text.get(ws..we)?;
    if !own.contains('=') {
        return None;
    }
    let name = name_of(ws, we);
    spans
        .iter()
        .take(64)
        .filter(|&&(s, _)| s != ws)
        .filter(|&&(s, e)| match name {
            Some(name) => name_of(s, e) == Some(name),
            None => s < ws && name_of(s, e).is_some(),
        })
        .find_map(|&(s, e)| {
            let v = normalize(text.get(s..e)?.split_once('=')?.1);
            (v != winner.answer && !agrees(&v, &winner.answer)).then_some(v)
        })
        .map(|other| Doubt::OtherValuesInAnswerSentence { other })
}

/// "He spends $5 because 10 x .5 = 10": the equation is the reason, the statement the answer.
fn side_clause(text: &str, line: (usize, usize), winner: &Candidate) -> Option<Doubt> {
    let (s, _) = sentence_bounds(text, line, winner.span.0);
    let head = text.get(s..winner.span.0)?;
    let q = first_side_clause(head)?;
    let stated = statement_says_other(text, s, s + q, &winner.answer)?;
    Some(Doubt::AnswerFromSideClause { stated })
}

/// A number the question states, restated in the concluding sentence ("the number of divisors
/// of 196 is 9"), is the question's data, not a competing answer: on the real long-CoT outputs
/// the doubt fired on such lines without finding a wrong verdict (docs/extract.md).
fn other_numbers_on_line(
    text: &str,
    line: (usize, usize),
    winner: &Candidate,
    question: Option<&str>,
) -> Option<Doubt> {
    let (ls, le) = line;
    let in_question = |v: &str| {
        question.is_some_and(|q| {
            v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                && q.match_indices(v).any(|(at, _)| {
                    let before = q.as_bytes().get(at.wrapping_sub(1)).copied();
                    let after = q.as_bytes().get(at + v.len()).copied();
                    let after2 = q.as_bytes().get(at + v.len() + 1).copied();
                    // A whole number of the question (`5` is not in `5.5`, `15` or `1.5`).
                    let decimals_follow =
                        after == Some(b'.') && after2.is_some_and(|b| b.is_ascii_digit());
                    !before.is_some_and(|b| b.is_ascii_digit() || b == b'.')
                        && !after.is_some_and(|b| b.is_ascii_digit())
                        && !decimals_follow
                })
        })
    };
    let other = values(text, ls, le)
        .into_iter()
        .filter(|&(s, e)| e <= winner.span.0 || s >= winner.span.1)
        .take(64)
        .filter_map(|(s, e)| text.get(s..e).map(normalize))
        .filter(|v| v.bytes().any(|b| b.is_ascii_alphanumeric()))
        .find(|v| v != &winner.answer && !in_question(v) && !agrees(v, &winner.answer))?;
    Some(Doubt::OtherNumbersOnLastLine { other })
}

/// How a check or a remark starts (lower case, after list marks): not a conclusion.
const REMARKS: &[&str] = &[
    "(",
    "check",
    "verif",
    "note",
    "substitut",
    "plugging",
    "double-check",
    "sanity",
    "this matches",
    "this occurs",
    "this is consistent",
    "which matches",
    "we can verify",
    "we could also",
    "as a check",
    "let me know",
    "i used",
    "i hope",
    "time taken",
    "explanation",
    // Definitions and comments after a boxed formula ("where $p = \sum …$", "This shows
    // that …"): on the real long-CoT outputs these are not revisions.
    "where ",
    "this shows",
];

/// How a conclusion starts.
const CONCLUSIONS: &[&str] = &[
    "so",
    "thus",
    "therefore",
    "hence",
    "in total",
    "altogether",
    "finally",
    "overall",
    "the answer",
    "in all",
    "total",
];

fn starts_with_any(line: &str, words: &[&str]) -> bool {
    let t = line
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '-' | '#' | '>'))
        .as_bytes();
    // The first byte first (the words are lower case): most lines start with none of the words'
    // first letters (this runs on every final equation's line).
    let Some(first) = t.first().map(u8::to_ascii_lowercase) else {
        return false;
    };
    words.iter().any(|w| {
        let w = w.as_bytes();
        if w.first() != Some(&first) {
            return false;
        }
        // A short word is a whole word ("so" is not the start of "some"); longer ones are
        // stems ("verif" for "verify", "verification").
        let word_end = w.len() <= 4
            && w.last().is_some_and(u8::is_ascii_alphabetic)
            && t.get(w.len()).is_some_and(u8::is_ascii_alphabetic);
        t.get(..w.len()).is_some_and(|p| p.eq_ignore_ascii_case(w)) && !word_end
    })
}

/// The last line is a check or a remark while the line before it stated one value, a
/// different one: the conclusion is the earlier line.
fn remark_after_conclusion(text: &str, line: (usize, usize), winner: &Candidate) -> Option<Doubt> {
    let (ls, le) = line;
    let line = text.get(ls..le)?;
    let (ps, pe) = previous_line(text, ls)?;
    let prev = text.get(ps..pe)?;
    let remark = starts_with_any(line, REMARKS);
    // A one-value statement (no computation) followed by a line that does not conclude.
    // (The ASCII signs by bytes: a `char` search decodes every character of the line.)
    let computes =
        || prev.bytes().any(|b| matches!(b, b'<' | b'=' | b'+' | b'*')) || prev.contains('×');
    let statement = || !computes() && !starts_with_any(line, CONCLUSIONS);
    // The shape first, the values only then: most previous lines are computations.
    if !remark && !statement() {
        return None;
    }
    let prev_values = values(text, ps, pe);
    let earlier = match prev_values.as_slice() {
        [one] => text.get(one.0..one.1).map(normalize)?,
        _ => return None,
    };
    (earlier != winner.answer && !agrees(&earlier, &winner.answer))
        .then_some(Doubt::RemarkAfterConclusion { earlier })
}

/// Words that say the reasoning changed its mind.
/// Words of a check after the answer (lower case).
const CHECKS: &[&str] = &["verif", "confirm", "check", "satisf", "consistent"];

const REVISIONS: &[&str] = &[
    "wait",
    "actually",
    "hmm",
    "however",
    "but ",
    "mistake",
    "error",
    "oops",
    "instead",
    "correct",
    "reflection",
    "recount",
    "reconsider",
    "wrong",
];

/// An explicit answer followed by reasoning that reaches another value: after a revision
/// word, after several boxes (parts of the answer), or as a later line's conclusion.
fn continues_after(text: &str, winner: &Candidate, others: &[Candidate]) -> Option<Doubt> {
    let later = others.iter().find(|c| {
        matches!(
            c.method,
            Method::FinalEquation | Method::MainClause | Method::LastNumber
        ) && c.span.0 >= winner.span.1
    })?;
    if agrees(&later.answer, &winner.answer) {
        return None;
    }
    let tail = text.get(winner.span.1..later.span.1)?;
    // Bounded: the revision words are looked for in the first 2,000 bytes after the answer.
    let end = tail.floor_char_boundary(2000);
    let lower = tail.get(..end).unwrap_or("").to_ascii_lowercase();
    let revised = REVISIONS.iter().any(|w| lower.contains(w));
    let (ls, le) = line_at(text, later.span.0);
    let line = text.get(ls..le)?;
    // What follows the answer only checks it ("Verifying: …", "Both equations are satisfied",
    // "… which also yields 3") or restates it ("$x \in \boxed{[-2, 7]}$. Final Answer: [-2,
    // 7]"): on the real long-CoT outputs this fired 16 times for 2 wrong verdicts
    // (docs/extract.md, "Confidence signal").
    let checked = CHECKS.iter().any(|w| lower.contains(w));
    // Restated: the line holds the answer as written, with no computation after it
    // (`$45 \cdot 0.8 = 36$` goes on from 45, it does not restate it).
    let restated = !winner.raw.is_empty()
        && line
            .find(winner.raw.as_str())
            .and_then(|at| line.get(at + winner.raw.len()..))
            .is_some_and(|after| !after.contains('='));
    let later_line = ls > winner.span.1 && !starts_with_any(line, REMARKS) && !checked && !restated;
    (revised || winner.several.len() >= 2 || later_line).then(|| Doubt::ContinuesAfterAnswer {
        later: later.answer.clone(),
    })
}

fn asks_cents(question: Option<&str>) -> bool {
    question.is_some_and(|q| {
        let q = q.to_ascii_lowercase();
        q.contains(" cents") || q.contains(" cent ")
    })
}

/// A `<think>` after the answer that never closes.
fn unfinished_thinking(text: &str, winner: &Candidate) -> bool {
    let bytes = text.as_bytes();
    // Most texts have no tag at all: one substring search says so (GSM8K's `<<…>>` make
    // walking the `<`s slow).
    static UPPER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"HINK>"));
    if HINK.find(bytes).is_none() && UPPER.find(bytes).is_none() {
        return false;
    }
    let Some(open) = rfind_ascii_ci(bytes, b"<think>") else {
        return false;
    };
    let closed = rfind_ascii_ci(bytes, b"</think>").is_some_and(|c| c > open);
    !closed && open > winner.span.0
}

#[cfg(test)]
mod tests {
    use super::super::extract;
    use super::Doubt;

    fn doubts(text: &str, question: Option<&str>) -> Vec<Doubt> {
        extract(text, question)
            .map(|e| e.doubts)
            .unwrap_or_default()
    }

    fn has(text: &str, question: Option<&str>, want: fn(&Doubt) -> bool) {
        let got = doubts(text, question);
        assert!(got.iter().any(want), "{text:?}: {got:?}");
        let e = extract(text, question).unwrap();
        assert!(e.low_confidence, "{text:?}: {}", e.confidence_reason);
    }

    fn sure(text: &str, question: Option<&str>) {
        let e = extract(text, question).unwrap();
        assert!(e.doubts.is_empty(), "{text:?}: {:?}", e.doubts);
        assert!(!e.low_confidence, "{text:?}: {}", e.confidence_reason);
    }

    /// `starts_with_any` compares the first byte as written: the words must be lower case.
    #[test]
    fn the_start_words_are_lower_case() {
        for w in super::REMARKS.iter().chain(super::CONCLUSIONS) {
            assert_eq!(*w, w.to_ascii_lowercase());
        }
    }

    #[test]
    fn a_doubt_reads_back_as_written() {
        use crate::json::read;
        let all = [
            Doubt::RulesDisagree {
                rule: "boxed".into(),
                answer: "5".into(),
                other_rule: "final_answer_marker".into(),
                other_answer: "6".into(),
            },
            Doubt::ContinuesAfterAnswer { later: "11".into() },
            Doubt::OtherValuesInAnswerSentence { other: "7".into() },
            Doubt::AnswerFromSideClause { stated: "5".into() },
            Doubt::EquationNotLastNumber { last: "3".into() },
            Doubt::SentenceAfterEquation { other: "4".into() },
            Doubt::OtherNumbersOnLastLine { other: "2".into() },
            Doubt::RemarkAfterConclusion {
                earlier: "120".into(),
            },
            Doubt::OnlyLastNumber,
            Doubt::Truncated {
                how: "mid-sentence".into(),
            },
            Doubt::UnfinishedThinking,
            Doubt::AskedCents,
            Doubt::ProseAnswer,
            Doubt::PlusMinusAnswer,
            Doubt::UnreadableAnswerField,
        ];
        for d in all {
            let v = serde_json::to_value(&d).unwrap();
            assert_eq!(read::<Doubt>(&v, "doubt"), Ok(d), "{v}");
        }
        for bad in [
            serde_json::json!({"kind": "no_such_doubt"}),
            serde_json::json!({"kind": "continues_after_answer"}),
            serde_json::json!({"kind": "only_last_number", "extra": 1}),
            serde_json::json!("only_last_number"),
        ] {
            let e = read::<Doubt>(&bad, "doubts[0]").unwrap_err().to_string();
            assert!(e.starts_with("doubts[0]: expected a doubt"), "{e}");
        }
    }

    #[test]
    fn rules_disagree() {
        has("\\boxed{5}\nThe answer is 6", None, |d| {
            matches!(d, Doubt::RulesDisagree { .. })
        });
        // A marker inside the JSON field's own sentence is not a second opinion.
        sure("{\"answer\": \"The answer is 7.\"}", None);
    }

    #[test]
    fn continues_after_answer() {
        let t = "The answer is $\\boxed{12}$.\nActually, we counted the corner twice, so the real count is $11$.";
        has(
            t,
            None,
            |d| matches!(d, Doubt::ContinuesAfterAnswer { later } if later == "11"),
        );
        let parts = "So $a = \\boxed{2}$ and $b = \\boxed{5}$, and $a + b = 7$.";
        has(parts, None, |d| {
            matches!(d, Doubt::ContinuesAfterAnswer { .. })
        });
        // A check that agrees, or a verification line, is not a revision.
        sure("The area is $\\boxed{24}$.\n\nHmm, let me double-check: $\\frac12 \\cdot 8 \\cdot 6 = 24$.", None);
        sure(
            "The answer is $\\boxed{9}$.\nVerification: $3 \\cdot 3 = 9$ and $9 - 1 = 8$ is even.",
            None,
        );
    }

    #[test]
    fn other_values_in_answer_sentence() {
        has(
            "Answer: 3 and 7",
            None,
            |d| matches!(d, Doubt::OtherValuesInAnswerSentence { other } if other == "7"),
        );
        sure("The final answer is $\\frac{16}{27}$ gallons.", None);
        sure(
            "So the answer is 64 (since $4^3 = 64$ and $64 < 100$).",
            None,
        );
    }

    #[test]
    fn one_variable_given_two_values_or_checked_after() {
        has(
            "The zeros of $f$ are at $x = 0$ and $x = 4$.",
            None,
            |d| matches!(d, Doubt::OtherValuesInAnswerSentence { other } if other == "0"),
        );
        has(
            "Hence $n = 12$ is the smallest such integer, and indeed $12 \\cdot 7 = 84$.",
            None,
            |d| matches!(d, Doubt::OtherValuesInAnswerSentence { other } if other == "12"),
        );
        sure(
            "Therefore, $\\frac{a}{b} = \\frac{3}{5}$, so $a + b = 8$.",
            None,
        );
    }

    #[test]
    fn answer_from_side_clause() {
        has(
            "The answer is 5 because $5^2 = 25$ and $25 < 30$.",
            None,
            |d| matches!(d, Doubt::AnswerFromSideClause { stated } if stated == "5"),
        );
        has("He spends $5 because 10 x .5 = 10", None, |d| {
            matches!(d, Doubt::AnswerFromSideClause { .. })
        });
        sure("He needs 10 cans because 80 / 8 = <<80/8=10>>10", None);
    }

    #[test]
    fn equation_not_last_number() {
        has(
            "He has 3+4=7 apples, that is 2 more than Tom",
            None,
            |d| matches!(d, Doubt::EquationNotLastNumber { last } if last == "2"),
        );
        sure("She earned 0.2 x 50 = $<<0.2*50=10>>10.", None);
    }

    #[test]
    fn sentence_after_equation() {
        let t = "Once more: 12 sodas / 2 = <<12/2=6>>6 sodas. It takes Jerry 3 weeks to get down to 6 sodas.";
        has(
            t,
            None,
            |d| matches!(d, Doubt::SentenceAfterEquation { other } if other == "3"),
        );
    }

    #[test]
    fn other_numbers_on_last_line() {
        has(
            "So Maria is 14 years old, and her brother is 2 years younger.",
            None,
            |d| matches!(d, Doubt::OtherNumbersOnLastLine { .. }),
        );
        sure("So she has 17 marbles left.", None);
    }

    #[test]
    fn remark_after_conclusion() {
        has(
            "The number of ways is 120.\nThis matches the formula $n!$ for $n = 5$.",
            None,
            |d| matches!(d, Doubt::RemarkAfterConclusion { earlier } if earlier == "120"),
        );
        has(
            "Thus she needs 7 more stickers.\nI used 2 steps to solve this problem.",
            None,
            |d| matches!(d, Doubt::RemarkAfterConclusion { .. }),
        );
        sure(
            "He had 5+3=<<5+3=8>>8 apples.\nSo he ate 8-2=<<8-2=6>>6 of them.",
            None,
        );
    }

    #[test]
    fn only_last_number() {
        has("It had 4 legs.\nThen we ate.\nThat is all", None, |d| {
            *d == Doubt::OnlyLastNumber
        });
    }

    #[test]
    fn truncated() {
        // Cut off before any conclusion: no answer at all (never the last number), and a
        // certain one (the fallback would find none either).
        for t in [
            "We have $\\boxed{\\frac{3}{",
            "So $3x = 15$, hence $x = 5$, and the",
            "The sixth term is $3 \\cdot 2^5 =",
            "<|begin_of_thought|>So the answer is 5.",
        ] {
            assert!(extract(t, None).is_none(), "{t:?}");
            assert!(!super::super::needs_fallback_for(t, None), "{t:?}");
        }
        assert!(super::super::cutoff::cut_off("and the"));
        // Written in paragraphs that end sentences, and the last one stops on a word.
        let para =
            "First we set up the sum.\n\nSo the total is 12.\n\nThe center is at 6 from the axis";
        assert!(super::super::cutoff::cut_off(para));
        assert!(extract(para, None).is_none());
        assert!(!super::super::cutoff::cut_off(
            "First.\n\nSo the total is 12.\n\nSo he has 12 apples."
        ));
        // One paragraph (GSM8K's solutions): never.
        assert!(!super::super::cutoff::cut_off(
            "He had 5.\nSo he spends 10 dollars"
        ));
        assert!(!super::super::cutoff::cut_off("so it is 5 gallons,"));
        sure("He paid $5 for the apples, so he spent 5.", None);
        // A box that closes the thinking beats a write-up cut off after it.
        let t = "<think>so $\\boxed{42}$</think>\nThe sum is 4 +";
        assert_eq!(extract(t, None).map(|e| e.answer).as_deref(), Some("42"));
        // A check or a restatement after the box is not a doubt.
        sure(
            "So $x \\in \\boxed{[-2, 7]}$.\n\nFinal Answer: [-2, 7]",
            None,
        );
        sure(
            "Thus $m = \\boxed{7}$.\n\nVerifying: $3 \\times 7 = 21$ and $21 + 11 = 32$.",
            None,
        );
    }

    #[test]
    fn unfinished_thinking() {
        has("\\boxed{2} <think>maybe it is 3", None, |d| {
            *d == Doubt::UnfinishedThinking
        });
        sure("<think>maybe 3</think>The answer is $\\boxed{2}$.", None);
    }

    #[test]
    fn asked_cents() {
        let q = "How much more expensive, per can, in cents, is this deal?";
        has(
            "so the grocery store is .50-.25 = $<<0.50-.25=0.25>>0.25 more per can",
            Some(q),
            |d| *d == Doubt::AskedCents,
        );
        sure(
            "so it is 50-25 = <<50-25=25>>25 cents more per can",
            Some(q),
        );
    }

    #[test]
    fn prose_and_plus_minus_answers() {
        has("Finally, $2^{10} = 1024$.", None, |d| {
            *d == Doubt::ProseAnswer
        });
        has("$x = \\frac{-1 \\pm \\sqrt{5}}{2}$", None, |d| {
            *d == Doubt::PlusMinusAnswer
        });
        sure("x = 5", None);
    }

    #[test]
    fn unreadable_answer_field() {
        has("{\"reasoning\": \"so 1/6\", \"answer\": \"\"}", None, |d| {
            *d == Doubt::UnreadableAnswerField
        });
        sure("{\"answer\": 42}", None);
    }

    #[test]
    fn doubts_are_named_in_records_and_in_words() {
        let e = extract("\\boxed{5}\nThe answer is 6", None).unwrap();
        let json = serde_json::to_string(&e.doubts).unwrap();
        assert!(json.contains("\"kind\":\"rules_disagree\""), "{json}");
        assert!(
            e.confidence_reason
                .contains("but final_answer_marker says `6`"),
            "{}",
            e.confidence_reason
        );
    }
}
