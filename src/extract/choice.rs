//! Multiple-choice grading: the answer is the **set of option letters** an output commits to,
//! compared with the gold's set (docs/extract.md, "Multiple choice").
//!
//! The mode is on when the caller asks for it ([`grade_choices`]: `verifyfast grade --choices`,
//! a record's `"answer_type": "choice"`) and, without being asked, when the gold is a set of
//! option letters and the question lists those options ([`auto`]). Rules:
//! - `\boxed{A, C, D}`, `A、C、D`, `ACD`, `A and C` are the set {A, C, D} / {A, C};
//!   `D. \frac{\sqrt{65}}{2}` (a letter with its option's text) is {D}.
//! - Two letters for a single-choice gold are a different set: never credit for one of them.
//! - An output whose explicit answers (its last box, its last answer marker) name different
//!   sets hedges: could not decide.
//! - Only when asked for the mode: an answer that is an option's text (`b<c<a`) is read as that
//!   option's letter when exactly one option of the question has that text. Without being asked,
//!   a value is not a letter (the benchmarks this mode was measured on score a value as wrong).

use std::collections::BTreeSet;

use super::equiv::{self, Comparison, Outcome, Path, Preset};
use super::{Extraction, Method};

/// Option letters a question may use.
const LETTERS: std::ops::RangeInclusive<char> = 'A'..='J';

/// The options a question lists, in order: `A. $a<b<c$` lines (or `A．`, `A、`, `A:`, `(A)`,
/// `（A）`, also several on one line), as (letter, text). Empty unless the letters run from
/// `A` without a gap and there are at least two.
pub fn options_in(question: &str) -> Vec<(char, String)> {
    let mut found: Vec<(char, usize, usize)> = Vec::new();
    let mut from = 0;
    for letter in LETTERS {
        let Some((start, body)) = option_label(question, letter, from) else {
            break;
        };
        found.push((letter, start, body));
        from = body;
    }
    if found.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(found.len());
    for (i, &(letter, _, body)) in found.iter().enumerate() {
        let end = found
            .get(i + 1)
            .map_or(question.len(), |&(_, next, _)| next);
        let text = question.get(body..end).unwrap_or("");
        // The last option ends at its line.
        let text = if i + 1 == found.len() {
            text.lines().next().unwrap_or("")
        } else {
            text
        };
        out.push((letter, text.trim().to_string()));
    }
    out
}

/// Where the label of option `letter` starts and where its text starts, from `from` on: the
/// letter at the start of a line or after a blank, followed by `.`/`．`/`、`/`:`/`：`/`)`, or
/// inside `(…)` / `（…）`.
fn option_label(q: &str, letter: char, from: usize) -> Option<(usize, usize)> {
    let mut at = from;
    while let Some(off) = q.get(at..)?.find(letter) {
        let i = at + off;
        at = i + 1;
        let before = q.get(..i)?;
        let after = q.get(i + 1..)?;
        let opened = ["(", "（"].into_iter().find(|o| before.ends_with(o));
        if let Some(open) = opened {
            let start = i - open.len();
            let at_boundary = q
                .get(..start)?
                .chars()
                .next_back()
                .is_none_or(char::is_whitespace);
            for close in [")", "）"] {
                if at_boundary && after.starts_with(close) {
                    return Some((start, i + 1 + close.len()));
                }
            }
            continue;
        }
        let boundary = before.chars().next_back().is_none_or(char::is_whitespace);
        let punct = [".", "．", "、", ":", "：", ")"]
            .into_iter()
            .find(|p| after.starts_with(p));
        if let (true, Some(p)) = (boundary, punct) {
            // `A.5` is a number, not an option.
            let rest = after.get(p.len()..)?;
            if !(p == "." && rest.starts_with(|c: char| c.is_ascii_digit())) {
                return Some((i, i + 1 + p.len()));
            }
        }
    }
    None
}

/// The option letters `answer` names, if it names only letters: `ACD`, `A, C, D`, `A、C、D`,
/// `A和C`, `A and C`, `(B)`, `\text{A、B}`, `选项 C`, `option C`, or one letter with its
/// option's text (`D. \frac{\sqrt{65}}{2}`).
pub fn letter_set(answer: &str) -> Option<BTreeSet<char>> {
    // Every set below is made of option letters the answer holds (the rewriting only deletes):
    // an answer with none (`72`, most golds) names no option.
    if !answer.chars().any(|c| LETTERS.contains(&c)) {
        return None;
    }
    let mut s = answer.trim().to_string();
    for (from, to) in [
        ("\\text", ""),
        ("\\mathrm", ""),
        ("\\textbf", ""),
        ("\\mathbf", ""),
        ("\\boxed", ""),
        ("\\quad", " "),
        ("\\ ", " "),
        ("\\,", " "),
        ("~", " "),
        ("$", ""),
        ("*", ""),
        ("{", ""),
        ("}", ""),
    ] {
        if s.contains(from) {
            s = s.replace(from, to);
        }
    }
    let s = s.trim();
    let s = [
        "选项", "答案", "option", "options", "Option", "Options", "choice", "Choice",
    ]
    .iter()
    .find_map(|p| s.strip_prefix(p))
    .unwrap_or(s)
    .trim()
    .trim_end_matches(['.', '。', '．', ' ']);
    // One letter with its option's text: `D. \frac{\sqrt{65}}{2}`, `(B) 42`, `C：-3`.
    let mut chars = s.chars();
    let (first, second) = (chars.next()?, chars.next());
    if LETTERS.contains(&first)
        && second.is_some_and(|c| matches!(c, '.' | '．' | ':' | '：' | ')' | '、'))
    {
        let rest = s.get(first.len_utf8() + second.map_or(0, char::len_utf8)..)?;
        if !rest.trim().is_empty() && letter_run(rest).is_none() {
            return Some(BTreeSet::from([first]));
        }
    }
    // `(D)\frac{1}{\cos 50^{\circ}}`, `（B）42`: one bracketed letter, then its option's text.
    for (open, close) in [('(', ')'), ('（', '）')] {
        let Some(rest) = s.strip_prefix(open) else {
            continue;
        };
        let mut cs = rest.chars();
        if let (Some(letter), Some(c)) = (cs.next(), cs.next()) {
            let text = cs.as_str();
            if LETTERS.contains(&letter)
                && c == close
                && !text.trim().is_empty()
                && letter_run(text).is_none()
            {
                return Some(BTreeSet::from([letter]));
            }
        }
    }
    if let Some(inner) = s
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| s.strip_prefix('（').and_then(|r| r.strip_suffix('）')))
    {
        return letter_run(inner);
    }
    letter_run(s)
}

/// Letters only, separated or not by blanks, commas, `、`, `和`/`与`/`及`/`and`: `ACD`, `A, C`.
fn letter_run(s: &str) -> Option<BTreeSet<char>> {
    let mut set = BTreeSet::new();
    let spaced = s
        .replace(" and ", " ")
        .replace(['、', ',', '，', ';', '；', '和', '与', '及', '/'], " ");
    for word in spaced.split_whitespace() {
        let word = word.trim_matches(['(', ')', '（', '）']);
        if word.is_empty() || !word.chars().all(|c| LETTERS.contains(&c)) {
            return None;
        }
        for c in word.chars() {
            // `AA` is not a set of options.
            if !set.insert(c) {
                return None;
            }
        }
    }
    (!set.is_empty()).then_some(set)
}

fn show(set: &BTreeSet<char>) -> String {
    set.iter().collect()
}

/// The letter of the one option whose text equals `answer` (strict comparison), if exactly
/// one does.
fn option_with_text(answer: &str, options: &[(char, String)]) -> Option<char> {
    let value = super::normalize::normalize(answer);
    let mut hits = options.iter().filter(|(_, text)| {
        let t = super::normalize::normalize(text);
        !t.is_empty() && equiv::compare(&value, &t, None, Preset::Strict).outcome == Outcome::Equal
    });
    let (letter, _) = hits.next()?;
    hits.next().is_none().then_some(*letter)
}

/// The letters one side names: its letters, or (when `by_text`) the option its text is.
fn letters_of(e: &Extraction, options: &[(char, String)], by_text: bool) -> Option<Letters> {
    if let Some(set) = letter_set(&e.raw).or_else(|| letter_set(&e.answer)) {
        return Some(Letters { set, by_text: None });
    }
    if !by_text {
        return None;
    }
    let letter = option_with_text(&e.raw, options)?;
    Some(Letters {
        set: BTreeSet::from([letter]),
        by_text: Some(letter),
    })
}

struct Letters {
    set: BTreeSet<char>,
    /// The letter an option's text was read as.
    by_text: Option<char>,
}

fn decided(outcome: Outcome, reason: String) -> Comparison {
    Comparison {
        equivalent: outcome == Outcome::Equal,
        outcome,
        path: Path::Choice,
        reason,
    }
}

/// Whether multiple-choice grading applies without being asked: the gold names option letters
/// and the question lists options with each of them.
pub(super) fn auto(gold: &Extraction, question: Option<&str>) -> bool {
    let Some(set) = letter_set(&gold.answer) else {
        return false;
    };
    let options = question.map(options_in).unwrap_or_default();
    !options.is_empty() && set.iter().all(|l| options.iter().any(|(o, _)| o == l))
}

/// Compares the option letters the output commits to with the gold's. `asked`: the caller
/// asked for the mode (an option's text then counts as its letter). `None` when the gold names
/// no option (the caller grades the values instead).
pub(super) fn compare(
    predicted: &Extraction,
    gold: &Extraction,
    question: Option<&str>,
    asked: bool,
) -> Option<Comparison> {
    let options = question.map(options_in).unwrap_or_default();
    let g = letters_of(gold, &options, asked)?;
    let Some(p) = letters_of(predicted, &options, asked) else {
        return Some(decided(
            Outcome::Different,
            format!(
                "multiple choice: the answer `{}` names no option (gold {})",
                predicted.answer,
                show(&g.set)
            ),
        ));
    };
    // A hedge: another explicit answer of the output names other options.
    let other = predicted
        .candidates
        .iter()
        .filter(|c| c.method.is_explicit() && c.method != Method::WholeText)
        .filter_map(|c| letter_set(&c.raw).or_else(|| letter_set(&c.answer)))
        .find(|set| *set != p.set);
    if let Some(other) = other {
        return Some(decided(
            Outcome::Undecided,
            format!(
                "multiple choice: the output names options {} and also {}: could not decide",
                show(&p.set),
                show(&other)
            ),
        ));
    }
    let via = |l: &Letters| {
        l.by_text
            .map(|c| format!(" (option {c}'s text)"))
            .unwrap_or_default()
    };
    let reason = if p.set == g.set {
        format!(
            "multiple choice: options {}{} vs {}{}: equal",
            show(&p.set),
            via(&p),
            show(&g.set),
            via(&g)
        )
    } else if g.set.len() == 1 && p.set.len() > 1 {
        format!(
            "multiple choice: {} options ({}) for a single-choice question (gold {}): different",
            p.set.len(),
            show(&p.set),
            show(&g.set)
        )
    } else {
        format!(
            "multiple choice: options {}{} vs {}{}: different",
            show(&p.set),
            via(&p),
            show(&g.set),
            via(&g)
        )
    };
    let outcome = if p.set == g.set {
        Outcome::Equal
    } else {
        Outcome::Different
    };
    Some(decided(outcome, reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> Option<String> {
        letter_set(s).map(|s| show(&s))
    }

    #[test]
    fn letter_sets() {
        for (s, want) in [
            ("A, C, D", "ACD"),
            ("ACD", "ACD"),
            ("A、C、D", "ACD"),
            ("\\text{A、B}", "AB"),
            ("B 和 C", "BC"),
            ("(B)", "B"),
            ("$ D $", "D"),
            ("选项 C", "C"),
            ("D.\\ \\frac{\\sqrt{65}}{2}", "D"),
            ("**A, C, D**", "ACD"),
        ] {
            assert_eq!(set(s).as_deref(), Some(want), "{s}");
        }
        for s in [
            "AA",
            "x",
            "5",
            "A城市",
            "Alice",
            "y=5x+2",
            "AB=3",
            "\\frac{1}{2}",
        ] {
            assert_eq!(set(s), None, "{s}");
        }
    }

    #[test]
    fn options_of_a_question() {
        let q = "则 $( )$\nA. $a<b<c$\nB. $b<c<a$\nC. $b<a<c$\nD. $c<a<b$\n";
        let o = options_in(q);
        assert_eq!(o.len(), 4);
        assert_eq!(o[1], ('B', "$b<c<a$".to_string()));
        let one_line = "值为 ( ) A．-1 B．0 C．1 D．2";
        assert_eq!(options_in(one_line).len(), 4);
        assert_eq!(options_in(one_line)[3], ('D', "2".to_string()));
        assert!(options_in("Let A. be a point; no options").is_empty());
        assert_eq!(option_with_text("b<c<a", &o), Some('B'));
    }
}
