//! The Extract page's single-solution view: its grading mode in the URL (strict, multiple
//! choice), so reload, Back and a shared link grade the same way (the texts are drafts), and
//! what the view says about a multiple-choice answer: the option letters and the rule that
//! found them. Pure: the page reads and writes the URL around it.

use crate::extract::choice::letter_set;
use crate::extract::equiv::Path;
use crate::extract::{Extraction, Verdict};
use crate::route::state::ViewState;

/// URL keys (`strict=on`, `choices=on`; absent when off).
const STRICT_KEY: &str = "strict";
const CHOICES_KEY: &str = "choices";

/// How the single solution is graded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SingleMode {
    pub strict: bool,
    /// Multiple-choice grading asked for (`extract::grade_choices`).
    pub choices: bool,
}

impl SingleMode {
    /// Read from a URL: only `on` turns a mode on.
    pub fn from_view(v: &ViewState) -> SingleMode {
        let on = |key: &str| v.unknown.iter().any(|(k, s)| k == key && s == "on");
        SingleMode {
            strict: on(STRICT_KEY),
            choices: on(CHOICES_KEY),
        }
    }

    /// Write into `v`, keeping its other keys (the grade table's).
    pub fn to_view(self, v: &mut ViewState) {
        v.unknown
            .retain(|(k, _)| k != STRICT_KEY && k != CHOICES_KEY);
        for (key, on) in [(STRICT_KEY, self.strict), (CHOICES_KEY, self.choices)] {
            if on {
                v.unknown.push((key.to_string(), "on".to_string()));
            }
        }
    }
}

/// What the view says about a multiple-choice answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceFound {
    /// The option letters the answer names (`B, C`); empty when it names none.
    pub letters: String,
    /// The rule that found the answer (`final_answer_marker`, `boxed`, a pattern's name).
    pub rule: String,
    /// The line of the solution the answer was found on (`【答案】 B <eoa>`), at most
    /// [`LINE_CHARS`] characters of it.
    pub line: String,
}

/// A longer line is cut (a whole paragraph on one line says nothing more).
pub const LINE_CHARS: usize = 160;

/// The line of `text` around `span` (byte offsets), cut to [`LINE_CHARS`] characters.
fn line_around(text: &str, span: (usize, usize)) -> String {
    let start = text
        .get(..span.0)
        .and_then(|b| b.rfind('\n'))
        .map_or(0, |i| i + 1);
    let end = text
        .get(span.1..)
        .and_then(|a| a.find('\n'))
        .map_or(text.len(), |i| span.1 + i);
    let line = text.get(start..end).unwrap_or("").trim();
    let mut cut: String = line.chars().take(LINE_CHARS).collect();
    if cut.len() < line.len() {
        cut.push('…');
    }
    cut
}

/// The option letters an answer names and the rule that found them, shown when multiple-choice
/// grading was asked for or decided the verdict (the gold names options the question lists).
/// `None` otherwise, or when no answer was found (the view says "No answer found" already).
pub fn choice_found(
    text: &str,
    extraction: Option<&Extraction>,
    verdict: Option<&Verdict>,
    asked: bool,
) -> Option<ChoiceFound> {
    let by_letters = verdict.is_some_and(|v| v.path == Path::Choice);
    if !(asked || by_letters) {
        return None;
    }
    let e = extraction?;
    // The raw text first, as the grader reads it (`D. \frac{1}{2}` is {D}).
    let set = letter_set(&e.raw).or_else(|| letter_set(&e.answer));
    let letters = set
        .map(|s| s.iter().map(char::to_string).collect::<Vec<_>>().join(", "))
        .unwrap_or_default();
    Some(ChoiceFound {
        letters,
        rule: e.method.as_str().to_string(),
        line: line_around(text, e.span),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{extract_with, grade_choices, grade_with, AnswerPatterns, Preset};

    #[test]
    fn the_mode_round_trips_through_the_url_and_keeps_the_table_state() {
        let mut v = ViewState::decode("show=no_answer&choices=on");
        let m = SingleMode::from_view(&v);
        assert_eq!(
            m,
            SingleMode {
                strict: false,
                choices: true
            }
        );
        SingleMode {
            strict: true,
            choices: false,
        }
        .to_view(&mut v);
        let q = v.encode();
        assert!(
            q.contains("show=no_answer") && q.contains("strict=on"),
            "{q}"
        );
        assert!(!q.contains("choices"), "{q}");
        // Anything but `on` is off.
        let v = ViewState::decode("choices=1&strict=yes");
        assert_eq!(SingleMode::from_view(&v), SingleMode::default());
    }

    #[test]
    fn a_gaokao_answer_names_its_letters_and_the_marker_that_found_them() {
        let p = AnswerPatterns::NONE;
        let text = "【解析】由条件得 $x=2$，故选 B。<eoe>\n【答案】 B <eoa>";
        let e = extract_with(text, None, &p);
        let v = grade_choices(text, "B", None, Preset::Lenient, &p);
        let found = choice_found(text, e.as_ref(), Some(&v), true).expect("asked");
        assert_eq!(found.letters, "B");
        assert_eq!(found.line, "【答案】 B <eoa>");
        assert_eq!(found.rule, "final_answer_marker");
        assert!(v.equivalent, "{}", v.reason);

        let two = text.replace("【答案】 B", "【答案】 B、C");
        let e = extract_with(&two, None, &p);
        let v = grade_choices(&two, "B", None, Preset::Lenient, &p);
        let found = choice_found(&two, e.as_ref(), Some(&v), true).expect("asked");
        assert_eq!(found.letters, "B, C");
        assert!(!v.equivalent);

        // Not asked and graded as a value: nothing said about options.
        let e = extract_with("so it is 72", None, &p);
        let v = grade_with("so it is 72", "72", None, Preset::Lenient, &p);
        assert_eq!(
            choice_found("so it is 72", e.as_ref(), Some(&v), false),
            None
        );
        // Asked, an answer naming no option: said as such (no letters).
        let found = choice_found("so it is 72", e.as_ref(), Some(&v), true).expect("asked");
        assert_eq!(found.letters, "");
        assert_eq!(found.line, "so it is 72");
        // No answer: the view says so already.
        assert_eq!(choice_found("", None, Some(&v), true), None);
    }
}
