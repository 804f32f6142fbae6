//! Findings no model makes (docs/audit.md, "Deterministic findings"), and the checks of the
//! model's own bookkeeping ("Checks of the model's bookkeeping"):
//! - an unsupported number: a number of the output the number check found nowhere in the
//!   context, and not within the strategy's deviation threshold of a context number of the same
//!   kind (a smaller deviation is the rubric's Low, left to the fact check), is High;
//! - an opposite direction: the same quantity (one value, in any notation; percentages with
//!   percentages) stated in the context with one direction (rose, 增长, …) and in the output
//!   with the other is High;
//! - a claim of Phase 1 is located in the output by its numbers (each in the output, in the
//!   same direction when both texts give one) and its words (a third of its words or Chinese
//!   character pairs).
//!
//! Pure and linear: one scan of each text by `grounding::scan`, then lookups per number.

use super::contract::Severity;
use super::grounding::{same, scan, Num, NumberGrounding, NumberKind};
use super::report::{DeterministicCheck, DeterministicFinding, DeterministicStatus};

/// Which way a quantity moved ("rose", "下降") or compares ("more", "fewer"). Comparatives are
/// read (so "30% fewer" is not taken for a change) but never held against anything: "A has 40
/// more than B" and "B has 40 fewer than A" say the same (on GSM8K's solutions, 9 of the 11
/// flags before this rule were such reversed comparisons).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    More,
    Less,
}

impl Direction {
    fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::More => Direction::Less,
            Direction::Less => Direction::More,
        }
    }
}

/// Comparatives: a direction of their own kind (see [`Direction`]).
const MORE_EN: &[&str] = &["more"];
const LESS_EN: &[&str] = &["fewer", "less"];

/// Direction words, longest first where one contains another. English ones are whole words.
const UP_EN: &[&str] = &[
    "increased",
    "increases",
    "increasing",
    "increase",
    "climbed",
    "climbing",
    "boosted",
    "expanded",
    "growing",
    "jumped",
    "surged",
    "soared",
    "gained",
    "rising",
    "growth",
    "higher",
    "raised",
    "risen",
    "rises",
    "grown",
    "grows",
    "gains",
    "rose",
    "rise",
    "grew",
    "grow",
    "gain",
    "up",
];
const DOWN_EN: &[&str] = &[
    "decreased",
    "decreases",
    "decreasing",
    "declined",
    "declines",
    "declining",
    "reduction",
    "dropped",
    "dropping",
    "plunged",
    "slumped",
    "reduced",
    "reduces",
    "decrease",
    "decline",
    "falling",
    "shrank",
    "shrunk",
    "fallen",
    "reduce",
    "lower",
    "drops",
    "falls",
    "shrink",
    "fell",
    "fall",
    "drop",
    "slid",
    "down",
    "cut",
    "cuts",
];
/// Words that only say a direction right next to the number ("up 3%", "3% lower").
const NEAR_ONLY: &[&str] = &["up", "down", "more", "less", "higher", "lower"];
const UP_ZH: &[&str] = &[
    "增长", "增加", "上升", "上涨", "提高", "提升", "增幅", "涨幅", "攀升", "走高", "升高", "涨",
    "增",
];
const DOWN_ZH: &[&str] = &[
    "下降", "减少", "下滑", "下跌", "降低", "回落", "降幅", "跌幅", "走低", "萎缩", "下调", "跌",
    "降",
];
/// A direction word right after one of these is negated ("did not rise", "未增长").
const NEGATIONS: &[&str] = &[
    "not ", "n't ", "never ", "no ", "未", "没有", "没", "不", "无",
];
/// How close (bytes) a near-only word must be to its number.
const NEAR_BYTES: usize = 12;

fn is_clause_end(c: char) -> bool {
    matches!(
        c,
        ',' | ';'
            | '，'
            | '；'
            | '。'
            | '：'
            | ':'
            | '!'
            | '?'
            | '！'
            | '？'
            | '\n'
            | '('
            | ')'
            | '（'
            | '）'
    )
}

/// A direction word found in a text, with its byte range.
#[derive(Debug, Clone, Copy)]
struct Word {
    direction: Direction,
    word: &'static str,
    start: usize,
    end: usize,
}

/// Every direction word of `text`, left to right, negated ones left out. Linear: each position
/// tries the short word lists.
fn direction_words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        if !text.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let c = rest.chars().next().unwrap_or(' ');
        let mut hit: Option<(Direction, &'static str)> = None;
        if c.is_ascii_alphabetic() {
            let word_start = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
            let len = rest.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
            if word_start {
                let w = rest[..len].to_ascii_lowercase();
                let find = |list: &[&'static str]| list.iter().copied().find(|x| *x == w);
                hit = find(UP_EN)
                    .map(|x| (Direction::Up, x))
                    .or_else(|| find(DOWN_EN).map(|x| (Direction::Down, x)))
                    .or_else(|| find(MORE_EN).map(|x| (Direction::More, x)))
                    .or_else(|| find(LESS_EN).map(|x| (Direction::Less, x)));
                let next = rest[len..].trim_start().to_ascii_lowercase();
                // "up to 5%" is a bound, "a down payment" a payment.
                if hit.is_some_and(|(_, x)| {
                    (x == "up" && next.starts_with("to "))
                        || (x == "down" && next.starts_with("payment"))
                }) {
                    hit = None;
                }
            }
            if hit.is_none() {
                i += len.max(1);
                continue;
            }
        } else {
            let find = |list: &[&'static str]| list.iter().copied().find(|x| rest.starts_with(x));
            let up = find(UP_ZH);
            let down = find(DOWN_ZH);
            hit = match (up, down) {
                (Some(u), Some(d)) if d.len() > u.len() => Some((Direction::Down, d)),
                (Some(u), _) => Some((Direction::Up, u)),
                (None, Some(d)) => Some((Direction::Down, d)),
                (None, None) => None,
            };
        }
        match hit {
            Some((direction, word)) => {
                let before = &text[..i];
                let negated = NEGATIONS
                    .iter()
                    .any(|n| before.to_ascii_lowercase().ends_with(n));
                let end = i + word.len();
                if !negated {
                    out.push(Word {
                        direction,
                        word,
                        start: i,
                        end,
                    });
                }
                i = end;
            }
            None => i += c.len_utf8(),
        }
    }
    out
}

/// A number of a text with the direction its clause gives it, if any.
#[derive(Debug, Clone)]
pub(crate) struct Directed<'t> {
    pub(crate) num: Num<'t>,
    pub(crate) direction: Option<Direction>,
    /// The direction word and the number, as written ("fell 3%", "下降3%").
    pub(crate) phrase: String,
}

/// The numbers of `text` with their directions: the last direction word between the previous
/// number of the clause (or the clause's start) and the number, else the first one between the
/// number and the next number of the clause (or its end). "up/down/higher/lower/more/less" only
/// count right next to the number.
pub(crate) fn directed_numbers(text: &str) -> Vec<Directed<'_>> {
    let nums = scan(text);
    let words = direction_words(text);
    let mut out = Vec::with_capacity(nums.len());
    for (k, n) in nums.iter().enumerate() {
        let clause_start = text[..n.start]
            .char_indices()
            .rev()
            .find(|&(_, c)| is_clause_end(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let clause_start = sentence_start(text, n.start).max(clause_start);
        let clause_end = text[n.end..]
            .char_indices()
            .find(|&(_, c)| is_clause_end(c))
            .map_or(text.len(), |(i, _)| n.end + i);
        let clause_end = sentence_end(text, n.end).min(clause_end);
        let before_from = k
            .checked_sub(1)
            .and_then(|p| nums.get(p))
            .map_or(clause_start, |p| p.end.max(clause_start));
        let after_to = nums
            .get(k + 1)
            .map_or(clause_end, |next| next.start.min(clause_end));
        let near = |w: &Word| !NEAR_ONLY.contains(&w.word);
        let before = words
            .iter()
            .filter(|w| w.start >= before_from && w.end <= n.start)
            .rfind(|w| near(w) || n.start - w.end <= NEAR_BYTES);
        let after = || {
            words
                .iter()
                .filter(|w| w.start >= n.end && w.end <= after_to)
                .find(|w| near(w) || w.start - n.end <= NEAR_BYTES)
        };
        let found = before.or_else(after);
        let phrase = match found {
            Some(w) if w.end <= n.start => text[w.start..n.end].to_string(),
            Some(w) => text[n.start..w.end].to_string(),
            None => n.text.to_string(),
        };
        out.push(Directed {
            num: *n,
            direction: found.map(|w| w.direction),
            phrase: bounded(&phrase),
        });
    }
    out
}

/// Start of the sentence holding `at`: after the last ". " (a full stop and a space) before it.
fn sentence_start(text: &str, at: usize) -> usize {
    text[..at].rfind(". ").map_or(0, |i| i + 2)
}

fn sentence_end(text: &str, at: usize) -> usize {
    text[at..].find(". ").map_or(text.len(), |i| at + i)
}

/// A phrase for the report, at most 120 bytes (a long clause is cut at a char boundary).
fn bounded(s: &str) -> String {
    if s.len() <= 120 {
        return s.to_string();
    }
    let mut end = 120;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// Percentages compare with percentages; plain numbers and quantities with each other; dates
/// never (a year has no direction of change).
fn comparable(a: &Num, b: &Num) -> bool {
    let class = |n: &Num| match n.kind {
        NumberKind::Percent => Some(0),
        NumberKind::Number | NumberKind::Quantity => Some(1),
        NumberKind::Date => None,
    };
    class(a).is_some() && class(a) == class(b) && same(a.value, b.value)
}

/// The direction check: each output quantity with a direction whose value the context states
/// only with the opposite direction.
pub fn direction_findings(context: &str, output: &str) -> Vec<DeterministicFinding> {
    let ctx = directed_numbers(context);
    let out = directed_numbers(output);
    let mut findings: Vec<DeterministicFinding> = Vec::new();
    for o in &out {
        let Some(dir) = o
            .direction
            .filter(|d| matches!(d, Direction::Up | Direction::Down))
        else {
            continue;
        };
        let stated: Vec<&Directed> = ctx
            .iter()
            .filter(|c| c.direction.is_some() && comparable(&c.num, &o.num))
            .collect();
        // Held only against the context's statements of the same kind (change or comparison).
        let stated: Vec<&Directed> = stated
            .into_iter()
            .filter(|c| c.direction == Some(dir) || c.direction == Some(dir.opposite()))
            .collect();
        let Some(first) = stated.first() else {
            continue;
        };
        if stated.iter().any(|c| c.direction == Some(dir)) {
            continue;
        }
        if findings.iter().any(|f| f.output_text == o.phrase) {
            continue;
        }
        let word = |d: Direction| match d {
            Direction::Up => "a rise",
            Direction::Down => "a fall",
            Direction::More => "more",
            Direction::Less => "less",
        };
        findings.push(DeterministicFinding {
            check: DeterministicCheck::Direction,
            severity: Severity::High,
            output_text: o.phrase.clone(),
            context_text: first.phrase.clone(),
            explanation: format!(
                "{} is {} in the output (\"{}\") but {} in the context (\"{}\")",
                o.num.text,
                word(dir),
                o.phrase,
                word(first.direction.unwrap_or(dir)),
                first.phrase
            ),
            status: DeterministicStatus::Counted,
            derivation: None,
            also_reported_by: None,
        });
    }
    findings
}

/// The unsupported-number rule: every number the number check found nowhere in the context
/// and not within `threshold` (relative) of a context number of the same kind.
pub fn unsupported_number_findings(
    context: &str,
    grounding: &NumberGrounding,
    threshold: f64,
) -> Vec<DeterministicFinding> {
    let ctx = scan(context);
    grounding
        .not_found()
        .filter(|n| {
            n.kind == NumberKind::Date
                || !ctx.iter().any(|c| {
                    let kinds = match (c.kind, n.kind) {
                        (NumberKind::Percent, NumberKind::Percent) => true,
                        (NumberKind::Percent, _) | (_, NumberKind::Percent) => false,
                        (NumberKind::Date, _) | (_, NumberKind::Date) => false,
                        _ => true,
                    };
                    kinds
                        && c.value != 0.0
                        && ((n.value - c.value) / c.value).abs() <= threshold + 1e-12
                })
        })
        .map(|n| DeterministicFinding {
            check: DeterministicCheck::UnsupportedNumber,
            severity: Severity::High,
            output_text: n.text.to_string(),
            context_text: String::new(),
            explanation: format!(
                "{} appears nowhere in the context (not verbatim, in another notation, rounded, \
one step of arithmetic from two context numbers, or within the deviation threshold of one): a \
fabricated specific is High",
                n.text
            ),
            status: DeterministicStatus::Counted,
            derivation: None,
            also_reported_by: None,
        })
        .collect()
}

/// Whether `explanation` names at least one number of the context: a derivation from the
/// context must cite the numbers it starts from.
pub fn cites_context_number(explanation: &str, context: &str) -> bool {
    let ctx = scan(context);
    scan(explanation).iter().any(|e| {
        e.kind != NumberKind::Date
            && ctx
                .iter()
                .any(|c| c.kind != NumberKind::Date && same(c.value, e.value))
    })
}

/// Word tokens for locating a claim: ASCII words of 3+ letters (lower-cased) and pairs of
/// adjacent CJK characters.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_cjk: Option<char> = None;
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            word.push(c.to_ascii_lowercase());
        } else if !word.is_empty() {
            if word.len() >= 3 {
                out.push(std::mem::take(&mut word));
            } else {
                word.clear();
            }
        }
        let cjk = ('\u{4e00}'..='\u{9fff}').contains(&c);
        if cjk {
            if let Some(p) = prev_cjk {
                out.push(format!("{p}{c}"));
            }
            prev_cjk = Some(c);
        } else {
            prev_cjk = None;
        }
    }
    if word.len() >= 3 {
        out.push(word);
    }
    out.sort();
    out.dedup();
    out
}

/// The part of model_output a claim is checked against, scanned once per audit.
pub struct OutputIndex<'t> {
    numbers: Vec<Directed<'t>>,
    tokens: Vec<String>,
}

impl<'t> OutputIndex<'t> {
    pub fn new(output: &'t str) -> Self {
        OutputIndex {
            numbers: directed_numbers(output),
            tokens: tokens(output),
        }
    }

    /// Whether `claim` is a statement of the output: each of its numbers is in the output (in
    /// the same direction when both give one), and at least a third of its words are.
    pub fn locates(&self, claim: &str) -> bool {
        for c in directed_numbers(claim) {
            let here: Vec<&Directed> = self
                .numbers
                .iter()
                .filter(|o| {
                    o.num.text == c.num.text
                        || comparable(&o.num, &c.num)
                        || (c.num.kind != NumberKind::Date
                            && o.num.kind == c.num.kind
                            && (o.num.value - c.num.value).abs()
                                <= o.num.half_step.max(c.num.half_step))
                })
                .collect();
            if here.is_empty() {
                return false;
            }
            if let Some(d) = c
                .direction
                .filter(|d| matches!(d, Direction::Up | Direction::Down))
            {
                let directed: Vec<_> = here.iter().filter_map(|o| o.direction).collect();
                if directed.contains(&d.opposite()) && !directed.contains(&d) {
                    return false;
                }
            }
        }
        let words = tokens(claim);
        if words.is_empty() {
            return true;
        }
        let found = words
            .iter()
            .filter(|w| self.tokens.binary_search(w).is_ok())
            .count();
        found * 3 >= words.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::grounding::ground_numbers;

    fn dirs(text: &str) -> Vec<(String, Option<Direction>)> {
        directed_numbers(text)
            .into_iter()
            .map(|d| (d.num.text.to_string(), d.direction))
            .collect()
    }

    #[test]
    fn directions_attach_to_their_own_numbers() {
        use Direction::*;
        assert_eq!(
            dirs("Revenue rose 12% and profit fell 3% to 15 billion."),
            vec![
                ("12%".into(), Some(Up)),
                ("3%".into(), Some(Down)),
                ("15 billion".into(), None)
            ]
        );
        assert_eq!(
            dirs("2023年公司营业收入为120亿元，同比增长8%；净利润为15亿元，同比下降3%。"),
            vec![
                ("2023年".into(), None),
                ("120亿".into(), None),
                ("8%".into(), Some(Up)),
                ("15亿".into(), None),
                ("3%".into(), Some(Down))
            ]
        );
        assert_eq!(
            dirs("30% fewer admissions"),
            vec![("30%".into(), Some(Less))]
        );
        assert_eq!(dirs("a 20% down payment"), vec![("20%".into(), None)]);
        assert_eq!(dirs("costs up to 5% of sales"), vec![("5%".into(), None)]);
        assert_eq!(dirs("sales did not rise 5%"), vec![("5%".into(), None)]);
        assert_eq!(dirs("利润未增长5%"), vec![("5%".into(), None)]);
    }

    #[test]
    fn a_flipped_direction_is_found_in_english_and_chinese() {
        let f = direction_findings(
            "Net profit fell 3% to 1.5 billion.",
            "Net profit rose 3% to 1.5 billion.",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].output_text, "rose 3%");
        assert_eq!(f[0].context_text, "fell 3%");
        let f = direction_findings("净利润同比下降3%。", "净利润同比增长3%。");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].output_text, "增长3%");
        // Same direction, other words: nothing.
        assert!(direction_findings("净利润同比下降3%。", "净利润同比下滑3%。").is_empty());
        // A change is not held against a comparison.
        assert!(
            direction_findings("Steven had 13 more falls.", "Stephanie fell 13 times.").is_empty()
        );
        assert!(direction_findings("A has 40 more than B.", "B has 40 fewer than A.").is_empty());
        // The context states the value both ways: not decided here.
        assert!(
            direction_findings("Revenue rose 3% while costs fell 3%.", "Revenue fell 3%.")
                .is_empty()
        );
    }

    #[test]
    fn unsupported_numbers_leave_small_deviations_to_the_model() {
        let ctx = "该市2022年常住人口为842万人，毛利率为38%。";
        let g = ground_numbers(ctx, "常住人口约为870万人，毛利率41%，净利率12%。");
        let f = unsupported_number_findings(ctx, &g, 0.10);
        let texts: Vec<&str> = f.iter().map(|f| f.output_text.as_str()).collect();
        // 870万 is 3.3 % off 842万 and 41% is 7.9 % off 38% (the rubric's Low); 12% is made up.
        assert_eq!(texts, vec!["12%"]);
    }

    #[test]
    fn claims_are_located_by_numbers_words_and_direction() {
        let out =
            OutputIndex::new("Exports rose 12% year on year in March, continuing a recovery.");
        assert!(out.locates("Exports rose 12% year on year in March"));
        assert!(out.locates("Exports increased by 12% in March"));
        assert!(
            !out.locates("Exports fell 12% in March"),
            "the context's direction"
        );
        assert!(!out.locates("It was the third monthly decline in a row"));
        assert!(!out.locates("Exports rose 15% in March"));
        let out =
            OutputIndex::new("该校2023年本科招生4200人，省内生源占70%，985高校录取率达到35%。");
        assert!(out.locates("985高校录取率达到35%"));
        assert!(!out.locates("其中省外生源占30%"));
    }

    #[test]
    fn a_derivation_must_cite_context_numbers() {
        let ctx = "招生4200人，录取1470人";
        assert!(cites_context_number("1470 / 4200 = 35%", ctx));
        assert!(!cites_context_number("it is a well-known rate", ctx));
    }
}
