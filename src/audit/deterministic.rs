//! Findings no model makes (docs/audit.md, "Deterministic findings"), and the checks of the
//! model's own bookkeeping ("Checks of the model's bookkeeping"):
//! - an unsupported number: a number of the output the number check found nowhere in the
//!   context, and not within the strategy's deviation threshold of a context number of the same
//!   kind (a smaller deviation is the rubric's Low, left to the fact check), is High;
//! - an opposite direction: the same quantity (one value, in any notation; percentages with
//!   percentages) stated in the context with one direction (rose, 增长, …) and in the output
//!   with the other is High; so is the same subject with the opposite change and no number
//!   (`收涨` / `收跌`, "profits rose" / "profits fell"), the opposite bound of one value ("over
//!   400" / "almost 400"), and a ranking the context's own figures reverse ("the most at X,
//!   followed by" a larger Y);
//! - a claim of Phase 1 is located in the output by its numbers (each in the output, in the
//!   same direction when both texts give one) and its words (a third of its words or Chinese
//!   character pairs).
//!
//! Pure and linear: one scan of each text by `grounding::scan`, then lookups per number.

use std::collections::HashMap;

use super::contract::Severity;
use super::grounding::{
    chinese_numeral_value, en_cardinal, is_chinese_numeral, is_cjk, is_quarter, measured,
    ordinal_written, same, same_written_unit, same_written_unit_or_bare, scan, significant_digits,
    written_as_ordinal, year_like, CheckedNumber, Num, NumberGrounding, NumberKind, CURRENCY_SIGNS,
};
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
    "增长", "增加", "上升", "上涨", "提高", "提升", "增幅", "涨幅", "攀升", "走高", "升高", "回升",
    "反弹", "涨", "增",
];
/// 负增长 ("negative growth") is a fall: read before 增长 is.
const DOWN_ZH: &[&str] = &[
    "负增长",
    "下降",
    "减少",
    "下滑",
    "下跌",
    "降低",
    "回落",
    "降幅",
    "跌幅",
    "走低",
    "萎缩",
    "下调",
    "跌",
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
                // The next few bytes only: lower-casing the whole rest would be quadratic.
                let next: String = rest[len..]
                    .trim_start()
                    .chars()
                    .take(8)
                    .map(|c| c.to_ascii_lowercase())
                    .collect();
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
                // Only the few bytes before the word (a linear scan, whatever the text).
                let from = text.ceil_char_boundary(i.saturating_sub(12));
                let before = text[from..i].to_ascii_lowercase();
                let negated = NEGATIONS.iter().any(|n| before.ends_with(n));
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

/// Whether one of the three English words before byte `i` negates what follows ("no more
/// than", "won't be more than"), in the same clause. Only the few bytes before are
/// read, whatever the text.
fn negated_in_english(text: &str, i: usize) -> bool {
    let from = text.ceil_char_boundary(i.saturating_sub(40));
    let before = &text[from..i];
    let clause = before
        .rfind(|c: char| is_clause_end(c) || c == '.')
        .map_or(before, |k| &before[k + 1..]);
    clause.split_whitespace().rev().take(3).any(|w| {
        let w = w.to_ascii_lowercase();
        matches!(w.as_str(), "not" | "never" | "no") || w.ends_with("n't")
    })
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
    // Clause boundaries, found once: (start of the boundary, end of it), in order. Each number
    // then looks its clause up by binary search, so the whole is O(n log n) on any text.
    let mut bounds: Vec<(usize, usize)> = text
        .char_indices()
        .filter(|&(_, c)| is_clause_end(c))
        .map(|(i, c)| (i, i + c.len_utf8()))
        .collect();
    bounds.extend(text.match_indices(". ").map(|(i, m)| (i, i + m.len())));
    bounds.sort_unstable();
    let mut out = Vec::with_capacity(nums.len());
    for (k, n) in nums.iter().enumerate() {
        let before_bound = bounds.partition_point(|&(b, _)| b < n.start);
        let clause_start = before_bound
            .checked_sub(1)
            .and_then(|i| bounds.get(i))
            .map_or(0, |&(_, e)| e.min(n.start));
        let after_bound = bounds.partition_point(|&(b, _)| b < n.end);
        let clause_end = bounds.get(after_bound).map_or(text.len(), |&(b, _)| b);
        let before_from = k
            .checked_sub(1)
            .and_then(|p| nums.get(p))
            .map_or(clause_start, |p| p.end.max(clause_start));
        let after_to = nums
            .get(k + 1)
            .map_or(clause_end, |next| next.start.min(clause_end));
        let near = |w: &Word| !NEAR_ONLY.contains(&w.word);
        // The words between the previous number and this one (disjoint for consecutive
        // numbers, so all numbers together look at each word at most twice).
        let from = words.partition_point(|w| w.start < before_from);
        let to = words.partition_point(|w| w.start < n.start);
        let before = words[from..to.max(from)]
            .iter()
            .rev()
            .filter(|w| w.end <= n.start)
            .find(|w| near(w) || n.start - w.end <= NEAR_BYTES);
        let after = || {
            let from = words.partition_point(|w| w.start < n.end);
            let to = words.partition_point(|w| w.start < after_to);
            words[from..to.max(from)]
                .iter()
                .filter(|w| w.end <= after_to)
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

/// A phrase for the report, at most 120 bytes (a long clause is cut at a char boundary).
fn bounded(s: &str) -> String {
    if s.len() <= 120 {
        return s.to_string();
    }
    let end = s.floor_char_boundary(120);
    format!("{}…", &s[..end])
}

/// The kind of quantity a number is, for comparing values: percentages with percentages, plain
/// numbers and quantities with each other, dates never (a year has no direction of change).
fn class(n: &Num) -> Option<u8> {
    match n.kind {
        NumberKind::Percent => Some(0),
        NumberKind::Number | NumberKind::Quantity => Some(1),
        // A quarter is a period whose figures rose or fell, as a year is ("sales fell in the
        // third quarter"); other dates are not.
        NumberKind::Date => n.quarter().map(|_| 2),
    }
}

fn comparable(a: &Num, b: &Num) -> bool {
    class(a).is_some() && class(a) == class(b) && same(a.value, b.value)
}

/// The directions the context gives one quantity.
#[derive(Debug, Clone, Copy)]
struct Directions {
    up: bool,
    down: bool,
}

impl Directions {
    fn of(d: Direction) -> Self {
        let mut x = Directions {
            up: false,
            down: false,
        };
        x.push_unique(d);
        x
    }

    fn push_unique(&mut self, d: Direction) {
        match d {
            Direction::Up => self.up = true,
            Direction::Down => self.down = true,
            Direction::More | Direction::Less => {}
        }
    }

    fn has(&self, d: Direction) -> bool {
        match d {
            Direction::Up => self.up,
            Direction::Down => self.down,
            Direction::More | Direction::Less => false,
        }
    }
}

/// One quantity of the context stated with a direction: its places in the sorted context
/// numbers (the first states it first), and the directions they give it.
struct Group {
    class: Option<u8>,
    value: f64,
    directions: Directions,
    places: std::ops::Range<usize>,
}

/// The direction check: each output quantity with a direction whose value the context states
/// only with the opposite direction.
pub fn direction_findings(context: &str, output: &str) -> Vec<DeterministicFinding> {
    let is_change = |d: &Direction| matches!(d, Direction::Up | Direction::Down);
    // The context's changes grouped by quantity (kind and value), sorted: each output number
    // finds its group by binary search, so any two texts cost O((n + m) log m).
    let mut ctx: Vec<Directed> = directed_numbers(context)
        .into_iter()
        .filter(|c| c.direction.as_ref().is_some_and(is_change) && class(&c.num).is_some())
        .collect();
    ctx.sort_by(|a, b| {
        class(&a.num)
            .cmp(&class(&b.num))
            .then(a.num.value.total_cmp(&b.num.value))
    });
    let mut groups: Vec<Group> = Vec::new();
    for (k, c) in ctx.iter().enumerate() {
        let dir = c.direction.unwrap_or(Direction::Up);
        match groups.last_mut() {
            Some(g) if g.class == class(&c.num) && same(g.value, c.num.value) => {
                g.directions.push_unique(dir);
                g.places.end = k + 1;
            }
            _ => groups.push(Group {
                class: class(&c.num),
                value: c.num.value,
                directions: Directions::of(dir),
                places: k..k + 1,
            }),
        }
    }
    // The direction a context place gives its value, and the phrase that gives it.
    fn stated<'c>(c: &'c Directed) -> (Direction, &'c str) {
        (c.direction.unwrap_or(Direction::Up), c.phrase.as_str())
    }
    let out = directed_numbers(output);
    // Scanned again only when a value is stated both ways (below).
    let (ctx_nums, out_nums) = (std::cell::OnceCell::new(), std::cell::OnceCell::new());
    let mut findings: Vec<DeterministicFinding> = subject_direction_findings(context, output);
    findings.extend(en_subject_direction_findings(context, output));
    findings.extend(bound_findings(context, output));
    findings.extend(ranking_findings(context, output));
    let mut seen = std::collections::BTreeSet::new();
    for o in &out {
        let Some(dir) = o.direction.filter(is_change) else {
            continue;
        };
        let key = class(&o.num);
        if key.is_none() {
            continue;
        }
        let v = o.num.value;
        let at = groups.partition_point(|g| {
            g.class < key || (g.class == key && g.value < v && !same(g.value, v))
        });
        let Some(first) = groups
            .get(at)
            .filter(|g| g.class == key && same(g.value, v))
        else {
            continue;
        };
        let mut was = stated(&ctx[first.places.start]);
        if first.directions.has(dir) {
            // A value the context gives both ways (`下降1.7%` of one income, `增长1.7%` of
            // another) is decided by what its sentence is about: the context's place of it that
            // shares strictly most words with the output's sentence, when that place went the
            // other way.
            if !(first.directions.up && first.directions.down) {
                continue;
            }
            let words = sentence_tokens(output, out_nums.get_or_init(|| scan(output)), &o.num);
            let shared = |c: &Directed| {
                sentence_tokens(context, ctx_nums.get_or_init(|| scan(context)), &c.num)
                    .iter()
                    .filter(|w| words.binary_search(w).is_ok())
                    .count()
            };
            let places = ctx[first.places.clone()].iter().take(16);
            let (mut best, mut best_k, mut tie) = (None, 0, false);
            for c in places {
                let k = shared(c);
                if k > best_k {
                    (best, best_k, tie) = (Some(c), k, false);
                } else if k == best_k && k > 0 {
                    tie = true;
                }
            }
            match best.filter(|_| !tie) {
                Some(c) if c.direction.is_some_and(|d| d != dir) => was = stated(c),
                _ => continue,
            }
        }
        // One finding per phrase: the subject checks above may have read the same one
        // ("三季度利润上升": its subject 季度利润 and its quarter).
        if !seen.insert(o.phrase.clone()) || findings.iter().any(|f| f.output_text == o.phrase) {
            continue;
        }
        findings.push(reversed(o.num.text, dir, &o.phrase, was.0, was.1));
    }
    findings
}

/// English verbs of a change that say which way their subject went ("profits rose", "sales
/// have fallen"); nouns ("growth", "a rise") and near-only words ("up", "higher") name no
/// subject of their own.
const EN_SUBJECT_VERBS: &[&str] = &[
    "increased",
    "increases",
    "decreased",
    "decreases",
    "declined",
    "declines",
    "climbed",
    "dropped",
    "drops",
    "plunged",
    "slumped",
    "shrank",
    "jumped",
    "surged",
    "soared",
    "risen",
    "rises",
    "rose",
    "grew",
    "fell",
    "falls",
    "fallen",
];
/// Between a subject and its verb: an auxiliary or adverb, skipped ("sales have fallen",
/// "profits also rose").
const EN_BETWEEN: &[&str] = &[
    "has", "have", "had", "was", "were", "is", "are", "been", "also", "then", "again", "both",
    "all", "each", "steadily", "sharply", "slightly",
];
/// Never a subject: pronouns, determiners, conjunctions, and words that make the change
/// hypothetical or someone else's ("expected to rise", "if prices fall", "which rose").
const EN_NOT_SUBJECT: &[&str] = &[
    "it", "its", "they", "them", "their", "he", "she", "we", "you", "who", "which", "that", "this",
    "these", "those", "there", "what", "and", "but", "or", "nor", "the", "a", "an", "to", "if",
    "will", "would", "could", "may", "might", "should", "can", "must", "shall", "when", "while",
    "as", "than", "one", "ones",
];
/// Too general to be a subject alone ("prices rose" of which?): a subject only with the word
/// before it ("oil prices", "BP shares").
const EN_GENERIC: &[&str] = &[
    "number", "figure", "rate", "level", "total", "amount", "price", "value", "index", "market",
    "share", "stock",
];

/// The subject of an English change verb at `at`: the one or two words right before it, once
/// [`EN_BETWEEN`] words are skipped, lower-cased, a plural "s" dropped ("Oil prices rose" → "oil
/// price"), and the byte where its first word starts. None when the word right before is no
/// subject ([`EN_NOT_SUBJECT`]) or not a word.
fn en_subject(text: &str, at: usize) -> Option<(Vec<String>, usize)> {
    let before = text.get(..at)?;
    // A few words back at most (linear whatever the text).
    let from = before.ceil_char_boundary(before.len().saturating_sub(80));
    // Each word with where it starts, last first.
    let words: Vec<(&str, usize)> = before[from..]
        .split_inclusive(char::is_whitespace)
        .scan(from, |pos, piece| {
            let at = *pos;
            *pos += piece.len();
            Some((piece.trim_end_matches(char::is_whitespace), at))
        })
        .filter(|(w, _)| !w.is_empty())
        .collect();
    let mut words = words.into_iter().rev();
    let mut start = at;
    let mut subject: Vec<String> = Vec::new();
    let mut between = 0;
    for (w, at_word) in words.by_ref() {
        // A word ending in punctuation closes the clause before it.
        let clean = w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
        let closed = clean.len() != w.len();
        if !clean.bytes().all(|b| b.is_ascii_alphabetic()) || clean.len() < 2 {
            break;
        }
        let lower = clean.to_ascii_lowercase();
        if subject.is_empty() && EN_BETWEEN.contains(&lower.as_str()) && between < 2 && !closed {
            between += 1;
            start = at_word;
            continue;
        }
        if EN_NOT_SUBJECT.contains(&lower.as_str())
            || EN_BETWEEN.contains(&lower.as_str())
            || (closed && subject.is_empty())
        {
            if subject.is_empty() {
                return None;
            }
            break;
        }
        if closed {
            break;
        }
        let singular = lower
            .strip_suffix('s')
            .filter(|s| s.len() >= 3 && !s.ends_with('s'))
            .map_or(lower.clone(), str::to_string);
        subject.insert(0, singular);
        start = at_word;
        if subject.len() == 2 {
            break;
        }
    }
    if subject.len() == 1 && EN_GENERIC.contains(&subject[0].as_str()) {
        return None;
    }
    // One word of three letters or fewer says too little ("oil", "gas" do; a pronoun was
    // left out above).
    (!subject.is_empty() && subject.iter().map(String::len).sum::<usize>() >= 3)
        .then_some((subject, start))
}

/// The English subject-direction check: a change verb with no number ("profits rose") whose
/// subject the context states only with the opposite verb ("profits fell"). Subjects are one
/// when the words of one end the other ("profit" and "net profit"; "oil price" and "gold price"
/// are two). A subject the context states both ways is not decided; in the output a verb
/// followed by its number is the number's check.
fn en_subject_direction_findings(context: &str, output: &str) -> Vec<DeterministicFinding> {
    let said = |text: &str, bare_only: bool| -> Vec<(Vec<String>, Direction, String)> {
        direction_words(text)
            .into_iter()
            .filter(|w| EN_SUBJECT_VERBS.contains(&w.word.to_ascii_lowercase().as_str()))
            .filter(|w| {
                let next = text.get(w.end..).unwrap_or("").trim_start();
                let next = next
                    .strip_prefix("by ")
                    .or_else(|| next.strip_prefix("to "))
                    .unwrap_or(next);
                !(bare_only && next.starts_with(|c: char| c.is_ascii_digit() || "$£€¥".contains(c)))
            })
            .filter_map(|w| {
                let (subject, from) = en_subject(text, w.start)?;
                Some((subject, w.direction, bounded(&text[from..w.end])))
            })
            .collect()
    };
    // Context subjects by their last word and their whole (at most two words): each output
    // subject is looked up twice.
    let ctx = said(context, false);
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for (k, (subject, _, _)) in ctx.iter().enumerate() {
        by_key.entry(subject.join(" ")).or_default().push(k);
        if subject.len() == 2 {
            by_key.entry(subject[1].clone()).or_default().push(k);
        }
    }
    let mut findings = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (subject, dir, phrase) in said(output, true) {
        // The same subject: equal, or one of one word that the other ends with. A subject
        // stated many times is read a bounded number of times (linear whatever the texts).
        let mut of: Vec<usize> = Vec::new();
        if let Some(v) = by_key.get(&subject.join(" ")) {
            of.extend(
                v.iter()
                    .filter(|&&k| ctx[k].0 == subject || subject.len() == 1)
                    .take(64),
            );
        }
        if subject.len() == 2 {
            if let Some(v) = by_key.get(&subject[1]) {
                of.extend(v.iter().filter(|&&k| ctx[k].0.len() == 1).take(64));
            }
        }
        if of.is_empty() || of.iter().any(|&k| ctx[k].1 == dir) {
            continue;
        }
        if !seen.insert(phrase.clone()) {
            continue;
        }
        let first = &ctx[of[0]];
        findings.push(reversed(
            &subject.join(" "),
            dir,
            &phrase,
            first.1,
            &first.2,
        ));
    }
    findings
}

/// Which side of its value a bound puts a quantity: "over 400" is above 400, "almost 400"
/// below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Above,
    Below,
}

/// Written right before a number: the quantity is above it ("over 400", "超过30%") or below it
/// ("almost 400", "不到30%"). Whole words; the longest of two that end alike comes first.
const ABOVE_BEFORE: &[&str] = &[
    "more than",
    "in excess of",
    "upwards of",
    "at least",
    "exceeding",
    "over",
    "above",
    "超过",
    "多于",
    "逾",
];
const BELOW_BEFORE: &[&str] = &[
    "a maximum of",
    "just short of",
    "just shy of",
    "fewer than",
    "less than",
    "not quite",
    "at most",
    "up to",
    "almost",
    "nearly",
    "under",
    "below",
    "将近",
    "接近",
    "不到",
    "不足",
    "少于",
    "近",
];
/// Written right after a number: above it ("300多", "300余人", "30%以上").
const ABOVE_AFTER: &[&str] = &["多", "余", "以上"];
/// Units of time: "over three years" may be "during three years".
const EN_TIME_UNITS: &[&str] = &[
    "year", "month", "week", "day", "hour", "minute", "decade", "season", "quarter", "night",
];
/// `近` before a span of time is "the last …" (`近3年`), not "almost".
const ZH_TIME_UNITS: &str = "年日天月周";

/// The bound written with `n` in `text`, if any. A negated one ("no more than", "won't be
/// more than") is neither side for certain: none.
fn bound_of(text: &str, n: &Num) -> Option<Bound> {
    written_bound(text, n).and_then(|(b, negated)| (!negated).then_some(b))
}

/// The bound word written with `n` in `text`, if any, and whether it is negated.
fn written_bound(text: &str, n: &Num) -> Option<(Bound, bool)> {
    let before = text.get(..n.start).unwrap_or("");
    let from = before.ceil_char_boundary(before.len().saturating_sub(20));
    let near = before[from..]
        .trim_end_matches(|c| c == ' ' || CURRENCY_SIGNS.contains(&c))
        .to_ascii_lowercase();
    let after = text.get(n.end..).unwrap_or("");
    let ends_with_word = |w: &str| {
        near.ends_with(w)
            && (!w.is_ascii()
                || !near[..near.len() - w.len()].ends_with(|c: char| c.is_ascii_alphabetic()))
    };
    // "over three years" is as often "during" as "more than".
    let over_a_time = near.ends_with("over")
        && EN_TIME_UNITS
            .iter()
            .any(|u| n.unit.to_ascii_lowercase().starts_with(u));
    let negated = |w: &str| w.is_ascii() && negated_in_english(text, from + near.len() - w.len());
    if let Some(w) = ABOVE_BEFORE
        .iter()
        .find(|w| ends_with_word(w) && !(**w == "over" && over_a_time))
    {
        return Some((Bound::Above, negated(w)));
    }
    if ABOVE_AFTER.iter().any(|w| after.starts_with(w)) {
        return Some((Bound::Above, false));
    }
    let time = after
        .trim_start_matches(|c: char| "个多".contains(c))
        .starts_with(|c: char| ZH_TIME_UNITS.contains(c));
    BELOW_BEFORE
        .iter()
        .find(|w| ends_with_word(w))
        .filter(|w| !(**w == "近" && time))
        .map(|w| (Bound::Below, negated(w)))
}

/// The bound check: an output quantity written with a bound ("over 400 people") whose value the
/// context states, with the same unit, only with the opposite bound ("almost 400 people"). Both
/// cannot hold of one quantity; a value the context also states exactly or with the same bound
/// is not decided (it may be another quantity of the same size).
fn bound_findings(context: &str, output: &str) -> Vec<DeterministicFinding> {
    // Sorted by kind and value: each output number finds its value by binary search, so any
    // two texts cost O((n + m) log m).
    let mut ctx: Vec<(Num, Option<Bound>)> = scan(context)
        .into_iter()
        .filter(|c| class(c).is_some() && !year_like(c) && !c.soft)
        .map(|c| (c, bound_of(context, &c)))
        .collect();
    ctx.sort_by(|(a, _), (b, _)| class(a).cmp(&class(b)).then(a.value.total_cmp(&b.value)));
    let mut findings = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for o in scan(output) {
        if class(&o).is_none() || year_like(&o) || o.soft {
            continue;
        }
        let Some(b) = bound_of(output, &o) else {
            continue;
        };
        // The first 64 occurrences of the value: a context of one value repeated is read once.
        let at = ctx.partition_point(|(c, _)| {
            class(c) < class(&o)
                || (class(c) == class(&o) && c.value < o.value && !same(c.value, o.value))
        });
        let same_quantity: Vec<&(Num, Option<Bound>)> = ctx[at..]
            .iter()
            .take_while(|(c, _)| comparable(c, &o))
            .take(64)
            .filter(|(c, _)| same_written_unit_or_bare(c, &o))
            .collect();
        let Some((c, _)) = same_quantity.first() else {
            continue;
        };
        if same_quantity
            .iter()
            .any(|(_, cb)| *cb != Some(opposite_bound(b)))
        {
            continue;
        }
        // The bound and its number, from a word's start ("at most 24", not "at left at most").
        let phrase = |text: &str, n: &Num| {
            let from = text.ceil_char_boundary(n.start.saturating_sub(16));
            let near = text.get(from..n.end).unwrap_or(n.text);
            let mid_word = text[..from].ends_with(|c: char| c.is_ascii_alphanumeric())
                && near.starts_with(|c: char| c.is_ascii_alphanumeric());
            let near = match near.split_once(' ') {
                Some((_, rest)) if mid_word => rest,
                _ => near,
            };
            bounded(near.trim_start())
        };
        let (out_phrase, ctx_phrase) = (phrase(output, &o), phrase(context, c));
        if !seen.insert(out_phrase.clone()) {
            continue;
        }
        let side = |b: Bound| match b {
            Bound::Above => "above",
            Bound::Below => "below",
        };
        findings.push(DeterministicFinding {
            check: DeterministicCheck::Direction,
            severity: Severity::High,
            output_text: out_phrase.clone(),
            context_text: ctx_phrase.clone(),
            explanation: format!(
                "the output puts this quantity {} {} (\"{out_phrase}\") but the context {} it \
(\"{ctx_phrase}\")",
                side(b),
                o.text,
                side(opposite_bound(b))
            ),
            status: DeterministicStatus::Counted,
            derivation: None,
            also_reported_by: None,
        });
    }
    findings
}

fn opposite_bound(b: Bound) -> Bound {
    match b {
        Bound::Above => Bound::Below,
        Bound::Below => Bound::Above,
    }
}

/// A ranking's top ("spent the most at £2,956,737") and bottom words.
const RANK_TOP: &[&str] = &[
    "the most",
    "the highest",
    "the largest",
    "the biggest",
    "the greatest",
];
const RANK_BOTTOM: &[&str] = &["the least", "the lowest", "the smallest", "the fewest"];
/// What introduces the next of a ranking ("…, followed by the Tories at £2,980,815").
const RANK_NEXT: &[&str] = &["followed by", "ahead of"];
/// How far (bytes) a ranking's value may follow its word, and the next one its "followed by".
const RANK_REACH: usize = 48;

/// The ranking check: the output names the top (bottom) of a ranking with its value and the
/// next one with a larger (smaller) value of the same unit ("UKIP spent the most at
/// £2,956,737, followed by the Tories at £2,980,815"), both values stated in the context: the
/// context's own figures rank them the other way.
fn ranking_findings(context: &str, output: &str) -> Vec<DeterministicFinding> {
    let nums = scan(output);
    let ctx = scan(context);
    let lower = output.to_ascii_lowercase();
    // Sentence ends, found once and looked up by binary search (linear in the text).
    let mut ends: Vec<usize> = [". ", ".\n", "\n", "。", "; "]
        .iter()
        .flat_map(|e| output.match_indices(e).map(|(i, _)| i))
        .collect();
    ends.sort_unstable();
    let sentence_end = |from: usize| {
        ends.get(ends.partition_point(|&e| e < from))
            .copied()
            .unwrap_or(output.len())
    };
    // Numbers are in text order: the first one starting in `from..to`, near `from`.
    let first_after = |from: usize, to: usize| {
        nums.get(nums.partition_point(|n| n.start < from))
            .filter(|n| n.start < to && n.start - from <= RANK_REACH)
    };
    let in_context = |n: &Num| {
        ctx.iter()
            .find(|c| comparable(c, n) && same_written_unit_or_bare(c, n))
            .copied()
    };
    let mut findings = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (words, top) in [(RANK_TOP, true), (RANK_BOTTOM, false)] {
        for w in words {
            // `lower` has the byte offsets of `output` (ASCII lower-casing keeps lengths).
            for (at, _) in lower.match_indices(w) {
                let end = at + w.len();
                if lower[end..].starts_with(|c: char| c.is_ascii_alphabetic()) {
                    continue;
                }
                let stop = sentence_end(end);
                let Some(a) = first_after(end, stop) else {
                    continue;
                };
                // Right after the value (a bounded window: no scan to the sentence's end).
                let window = lower.get(a.end..stop.min(a.end + RANK_REACH)).unwrap_or("");
                let Some((next_at, next)) = RANK_NEXT
                    .iter()
                    .filter_map(|n| window.find(n).map(|i| (a.end + i, *n)))
                    .min()
                else {
                    continue;
                };
                let Some(b) = first_after(next_at + next.len(), stop) else {
                    continue;
                };
                let reversed = if top {
                    b.value > a.value
                } else {
                    b.value < a.value
                };
                if !(reversed
                    && !same(a.value, b.value)
                    && class(a).is_some()
                    && class(a) == class(b)
                    && same_written_unit_or_bare(a, b))
                {
                    continue;
                }
                let (Some(_), Some(cb)) = (in_context(a), in_context(b)) else {
                    continue;
                };
                let phrase = bounded(output.get(at..b.end).unwrap_or(w));
                if !seen.insert(phrase.clone()) {
                    continue;
                }
                findings.push(DeterministicFinding {
                    check: DeterministicCheck::Direction,
                    severity: Severity::High,
                    output_text: phrase.clone(),
                    context_text: cb.text.to_string(),
                    explanation: format!(
                        "the output ranks {} as {w} ahead of {} (\"{phrase}\"), but {} is {} than \
{} (the context states both)",
                        a.text,
                        b.text,
                        b.text,
                        if top { "more" } else { "less" },
                        a.text
                    ),
                    status: DeterministicStatus::Counted,
                    derivation: None,
                    also_reported_by: None,
                });
            }
        }
    }
    findings
}

/// Words between a subject and its direction word that are not the subject ("股指双双收跌",
/// "股价小幅上涨", "沥青期货领涨"), stripped from the end of the subject, longest first.
const ZH_BETWEEN: &[&str] = &[
    "同比", "环比", "小幅", "大幅", "全线", "纷纷", "集体", "双双", "普遍", "整体", "明显", "略有",
    "有所", "出现", "呈现", "再度", "持续", "逆势", "收盘", "盘中", "继续", "股价", "价格", "同时",
    "今日", "当日", "昨日", "今天", "当天", "昨天", "均", "也", "则", "都", "收", "领", "微", "大",
    "再", "已", "将", "仍", "还", "近",
];

/// Verbs that change their object ("降低通关效率": the efficiency fell): with an object right
/// after them, the object is what went up or down, not the words before.
const ZH_TRANSITIVE: &[&str] = &["提高", "提升", "降低", "增加", "减少", "扩大", "缩小"];

/// `before` without a date at its end ("黄金、白银商品13日收跌", "沪指5月6日走高"): a news
/// report's day between a subject and its direction word.
fn strip_day(before: &str) -> Option<&str> {
    let rest = before
        .strip_suffix('日')
        .or_else(|| before.strip_suffix('号'))?;
    fn digits(s: &str) -> Option<&str> {
        let kept = s.trim_end_matches(|c: char| c.is_ascii_digit());
        (kept.len() < s.len()).then_some(kept)
    }
    let rest = digits(rest)?;
    Some(rest.strip_suffix('月').and_then(digits).unwrap_or(rest))
}

/// A subject's characters: CJK, and Latin letters of a name written in them (`PTA期货`).
fn subject_char(c: char) -> bool {
    is_cjk(c) || c.is_ascii_alphabetic()
}

/// A subject of a Chinese direction word: `key`, up to four CJK characters (with Latin
/// letters among them) that subjects are matched by, and where it is written in its text:
/// `from..end`, the whole name ending with the key (`纤维板期货` of the key `维板期货`), up to
/// twelve characters (shorter than the key where it runs into another direction word).
struct ZhSubject {
    key: String,
    from: usize,
    end: usize,
}

/// The subject of a Chinese direction word at `at`: the characters right before it, once the
/// words of [`ZH_BETWEEN`] and a day are stripped ("沪深两市股指双双收跌" → "两市股指"). None when
/// fewer than two are left. `market`: a contract's 期货 left out too, so the subject is its
/// market (`有色金属期货` → 有色金属).
fn zh_subject(text: &str, at: usize, market: bool) -> Option<ZhSubject> {
    let mut before = text.get(..at)?;
    // The day passed over, if any: part of the subject's key, so a subject of one day is not
    // matched with another day's (`沪指5日上涨` is not contradicted by `沪指6日下跌`), nor with a
    // subject of no day.
    let mut day = "";
    // A few strips at most: a run of them is no subject anyway (and stays linear).
    for _ in 0..6 {
        let stripped = ZH_BETWEEN.iter().find_map(|w| before.strip_suffix(w));
        let stripped = stripped.or_else(|| {
            let rest = strip_day(before)?;
            day = &before[rest.len()..];
            Some(rest)
        });
        match stripped {
            Some(b) => before = b,
            None => break,
        }
    }
    if market {
        before = before.strip_suffix("期货").unwrap_or(before);
    }
    // Four CJK characters at most, with the Latin letters among them.
    let mut cjk = 0;
    let key: Vec<char> = before
        .chars()
        .rev()
        .take_while(|&c| {
            cjk += usize::from(is_cjk(c));
            subject_char(c) && cjk <= 4
        })
        .take(12)
        .collect();
    if key.len() < 2 {
        return None;
    }
    // The name as written stops at another direction word (`金价上涨白银下跌`), and is never
    // shorter than two characters of the key.
    let name: Vec<char> = before
        .chars()
        .rev()
        .take_while(|&c| subject_char(c) && !"涨跌升降增减".contains(c))
        .take(12)
        .collect();
    let written: usize = if name.len() >= 2 { &name } else { &key }
        .iter()
        .map(|c| c.len_utf8())
        .sum();
    let mut key: String = key.into_iter().rev().collect();
    if !day.is_empty() {
        key = format!("{key}@{day}");
    }
    Some(ZhSubject {
        key,
        from: before.len() - written,
        end: before.len(),
    })
}

/// Closing-price verbs of a market report: "豆粕期货主力合约收于每吨2708元，涨幅0.67%" gives the
/// direction of the clause before's subject.
const ZH_CLOSED_AT: &[&str] = &["收于", "收报", "报收"];

/// The subject of a direction word that opens a clause (`，涨幅0.67%`) after a market report's
/// closing price (`豆粕期货主力合约收于每吨2708元`): the subject of that closing verb, its
/// contract words (`主力合约`) left out. None for any other clause.
fn zh_closed_subject(text: &str, at: usize) -> Option<ZhSubject> {
    let before = text.get(..at)?;
    let clause = before
        .strip_suffix('，')
        .or_else(|| before.strip_suffix('；'))?;
    // The clause before, within a few dozen bytes (linear whatever the text).
    let from = clause.ceil_char_boundary(clause.len().saturating_sub(90));
    let start = clause[from..]
        .char_indices()
        .rev()
        .find(|&(_, c)| is_clause_end(c))
        .map_or(from, |(i, c)| from + i + c.len_utf8());
    let verb = ZH_CLOSED_AT
        .iter()
        .filter_map(|v| clause[start..].find(v))
        .min()?;
    let named = &clause[start..start + verb];
    let named = named
        .strip_suffix("主力合约")
        .or_else(|| named.strip_suffix("合约"))
        .unwrap_or(named);
    zh_subject(text, start + named.len(), false).filter(|s| s.from >= start)
}

/// The object of a transitive direction word ending at `end` ([`ZH_TRANSITIVE`]): up to six
/// characters right after it (a `了` skipped), none when fewer than two follow.
fn zh_object(text: &str, end: usize) -> Option<ZhSubject> {
    let after = text.get(end..)?;
    let from = end
        + if after.starts_with('了') {
            '了'.len_utf8()
        } else {
            0
        };
    let object: String = text[from..]
        .chars()
        .take_while(|&c| subject_char(c))
        .take(6)
        .collect();
    (object.chars().count() >= 2).then(|| ZhSubject {
        from,
        end: from + object.len(),
        key: object,
    })
}

/// A Chinese direction word read with its subject: the subject's key and name as written, the
/// direction, and the phrase that says both.
struct Said {
    key: String,
    written: String,
    direction: Direction,
    phrase: String,
}

fn ascii_or_cn_digit(c: char) -> bool {
    c.is_ascii_digit() || ('０'..='９').contains(&c) || "一二两三四五六七八九十百千万".contains(c)
}

/// The subject-direction check: a Chinese direction word with no number ("沪指收涨", "沥青期货
/// 领跌", "涨幅居前", "降低通关效率") whose subject the context states only with the opposite
/// direction. Two subjects are one when one ends with the other (at least two characters: "股指"
/// and "两市股指"); a context subject equal to the output's or more specific decides, a shorter
/// one only when none such is stated; a day written with a subject is part of it. A subject the
/// context states both ways is not decided. An output subject that names a futures contract the
/// context never names is read as its market (`有色金属期货也上涨` of `有色金属近全线收跌`); one
/// the context names keeps its contract (豆粕期货 is not 豆粕).
fn subject_direction_findings(context: &str, output: &str) -> Vec<DeterministicFinding> {
    // In the output, a word with its number is the number check's ("增长3%"), not counted
    // twice; in the context every word says which way its subject went.
    // Each direction word's subject, direction and phrase, and where the word starts.
    let said = |text: &str, bare_only: bool| -> Vec<(Said, usize)> {
        direction_words(text)
            .into_iter()
            .filter(|w| {
                // Its number follows in its clause ("涨近1%"); one after a comma is another's
                // ("同时上升，30日").
                let next: String = text
                    .get(w.end..)
                    .unwrap_or("")
                    .chars()
                    .take(3)
                    .take_while(|&c| !is_clause_end(c))
                    .collect();
                matches!(w.direction, Direction::Up | Direction::Down)
                    && !w.word.is_ascii()
                    && !(bare_only && next.contains(ascii_or_cn_digit))
            })
            .filter_map(|w| {
                let object = ZH_TRANSITIVE
                    .contains(&w.word)
                    .then(|| zh_object(text, w.end))
                    .flatten();
                // The phrase runs from the subject to the word, or from the word to its object.
                let (subject, phrase) = match object {
                    Some(o) => {
                        let phrase = &text[w.start..o.end];
                        (o, phrase)
                    }
                    None => {
                        let s = zh_subject(text, w.start, false)
                            .or_else(|| zh_closed_subject(text, w.start))?;
                        let phrase = &text[s.from..w.end];
                        (s, phrase)
                    }
                };
                let said = Said {
                    written: text[subject.from..subject.end].to_string(),
                    key: subject.key,
                    direction: w.direction,
                    phrase: bounded(phrase),
                };
                Some((said, w.start))
            })
            .collect()
    };
    // The context's subjects by their whole key and by each ending of two characters or more,
    // so each output subject is looked up a few times (linear in both texts, whatever they hold).
    type Seen<'p> = (Directions, &'p Said);
    let ctx: Vec<Said> = said(context, false).into_iter().map(|(s, _)| s).collect();
    let mut whole: HashMap<&str, Seen> = HashMap::new();
    let mut endings: HashMap<&str, Seen> = HashMap::new();
    fn add<'p>(map: &mut HashMap<&'p str, Seen<'p>>, key: &'p str, item: &'p Said) {
        map.entry(key)
            .and_modify(|(d, _)| d.push_unique(item.direction))
            .or_insert((Directions::of(item.direction), item));
    }
    for item in &ctx {
        let subject = item.key.as_str();
        add(&mut whole, subject, item);
        for (i, _) in subject.char_indices().filter(|&(i, _)| i > 0) {
            if subject[i..].chars().count() >= 2 {
                add(&mut endings, &subject[i..], item);
            }
        }
    }
    let mut findings: Vec<DeterministicFinding> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    // Context subjects that end with `subject`; else the longest that it ends with (a context
    // subject more specific than the output's is the same one, a less specific one only when
    // none closer is stated: `纤维板期货` is not the `期货` of another contract).
    let stated = |subject: &str| -> Vec<Seen> {
        let mut of: Vec<Seen> = Vec::new();
        of.extend(whole.get(subject).copied());
        of.extend(endings.get(subject).copied());
        if of.is_empty() {
            of.extend(
                subject
                    .char_indices()
                    .filter(|&(i, _)| i > 0 && subject[i..].chars().count() >= 2)
                    .find_map(|(i, _)| whole.get(&subject[i..]).copied()),
            );
        }
        of
    };
    for (said, at) in said(output, true) {
        let mut of = stated(&said.key);
        let mut subject = said.written.clone();
        if of.is_empty() {
            if let Some(m) = zh_subject(output, at, true).filter(|m| m.key != said.key) {
                of = stated(&m.key);
                subject = m.key;
            }
        }
        if of.is_empty() || of.iter().any(|(d, _)| d.has(said.direction)) {
            continue;
        }
        if !seen.insert(said.phrase.clone()) {
            continue;
        }
        let first = of[0].1;
        findings.push(reversed(
            &subject,
            said.direction,
            &said.phrase,
            first.direction,
            &first.phrase,
        ));
    }
    findings
}

/// The direction check's finding: `subject` goes `dir` in the output's `phrase` but `was` in
/// the context's `context_phrase` (one wording for every way the check reads a direction).
fn reversed(
    subject: &str,
    dir: Direction,
    phrase: &str,
    was: Direction,
    context_phrase: &str,
) -> DeterministicFinding {
    let word = |d: Direction| match d {
        Direction::Up => "a rise",
        Direction::Down => "a fall",
        Direction::More => "more",
        Direction::Less => "less",
    };
    DeterministicFinding {
        check: DeterministicCheck::Direction,
        severity: Severity::High,
        output_text: phrase.to_string(),
        context_text: context_phrase.to_string(),
        explanation: format!(
            "{subject} is {} in the output (\"{phrase}\") but {} in the context (\"{context_phrase}\")",
            word(dir),
            word(was)
        ),
        status: DeterministicStatus::Counted,
        derivation: None,
        also_reported_by: None,
    }
}

crate::names::named_enum! {
    /// Why the unsupported-number rule counts nothing for a number the number check did not
    /// find. Each such number is left to the fact check (an audit's Phase 2); a check without a
    /// model lists it with its reason rather than calling it supported.
    pub enum Leniency {
        /// Written only inside a score or ratio ("won 34-23"): judged as that pair.
        InScore = "in_score",
        /// A bare count in words up to a dozen ("two actresses"): often the output's own count
        /// of what the context lists, which no rule can check.
        CountInWords = "count_in_words",
        /// Within the deviation threshold of a context figure of the same quantity: the
        /// rubric's Low ("$7.60" of $7.50).
        SlightChange = "slight_change",
        /// A round bound that an exact context figure of the same quantity meets ("more than
        /// 100 bodies" of 116).
        RoundBound = "round_bound",
    }
}

/// A number the number check did not find that the rules do not count, and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct UncountedNumber {
    /// As written in the output.
    pub text: String,
    pub leniency: Leniency,
    /// The context's figure it is close to (a slight change, a round bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near: Option<String>,
}

impl UncountedNumber {
    /// Why it counts nothing, in a sentence for the page and the CLI.
    pub fn describe(&self) -> String {
        let near = self.near.as_deref().unwrap_or("?");
        match self.leniency {
            Leniency::InScore => "judged with the score it is written in".into(),
            Leniency::CountInWords => {
                "a count in words, maybe the output's own count of what the context lists: no \
rule checks it"
                    .into()
            }
            Leniency::SlightChange => format!(
                "within the deviation threshold of the context's {near}: a slight change is the \
rubric's Low, left to the fact check"
            ),
            Leniency::RoundBound => format!("a round bound that the context's {near} meets"),
        }
    }
}

/// What the unsupported-number rule makes of the numbers the number check did not find.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnsupportedNumbers {
    /// One High finding per number (and score) that counts.
    pub findings: Vec<DeterministicFinding>,
    /// The others, each with why it does not count.
    pub uncounted: Vec<UncountedNumber>,
}

/// The unsupported-number rule: every number the number check found nowhere in the context
/// and not within `threshold` (relative) of a context number of the same kind.
pub fn unsupported_number_findings(
    context: &str,
    output: &str,
    grounding: &NumberGrounding,
    threshold: f64,
) -> Vec<DeterministicFinding> {
    unsupported_numbers(context, output, grounding, threshold).findings
}

/// The unsupported-number rule's findings, and the numbers not found that it does not count
/// with their reasons (what a check without a model leaves unjudged), from one pass.
pub fn unsupported_numbers(
    context: &str,
    output: &str,
    grounding: &NumberGrounding,
    threshold: f64,
) -> UnsupportedNumbers {
    let score_spans = scores(output);
    let mut rule = UnsupportedNumbers::default();
    for (n, why) in judge_not_found(context, output, grounding, threshold, &score_spans) {
        // A writing listed twice (it counts something else where it is repeated) is judged
        // at each place, and is one fabricated specific however often it counts.
        match why {
            Some(why) if rule.uncounted.contains(&why) => {}
            Some(why) => rule.uncounted.push(why),
            None if rule.findings.iter().any(|f| f.output_text == n) => {}
            None => rule.findings.push(DeterministicFinding {
                check: DeterministicCheck::UnsupportedNumber,
                severity: Severity::High,
                output_text: n.to_string(),
                context_text: String::new(),
                explanation: if is_quarter(n) {
                    format!(
                        "{n} is a quarter of a year that the context never names (in any \
notation: Q3, 3Q, third quarter, 第三季度): a fabricated specific is High"
                    )
                } else if ordinal_written(output, n) {
                    format!(
                        "{n} is written as a rank (an ordinal: a position, a century) that the \
context never states; a rank is exact, as a year is, so a near one is no slight change: a \
fabricated specific is High"
                    )
                } else {
                    format!(
                        "{n} appears nowhere in the context (not verbatim, in another notation, \
rounded, one step of arithmetic from two context numbers that chance would rarely give, or \
within the deviation threshold of one): a fabricated specific is High"
                    )
                },
                status: DeterministicStatus::Counted,
                derivation: None,
                also_reported_by: None,
            }),
        }
    }
    // A writing that counts at one place is not also left unjudged at another.
    let findings = &rule.findings;
    rule.uncounted
        .retain(|u| !findings.iter().any(|f| f.output_text == u.text));
    rule.findings
        .extend(unsupported_scores(context, &score_spans, output));
    rule
}

/// The one decision of the unsupported-number rule: each number the number check did not find,
/// with `None` when it counts, or why it does not.
fn judge_not_found<'g>(
    context: &str,
    output: &str,
    grounding: &'g NumberGrounding,
    threshold: f64,
    score_spans: &[(u32, u32, usize, usize)],
) -> Vec<(&'g str, Option<UncountedNumber>)> {
    let ctx = scan(context);
    let out = scan(output);
    // The writings of numbers written only inside scores, with their units: such a number is
    // judged with its score. A writing is checked once per unit ([`ground_numbers`]), so a
    // place outside a score with another unit is checked where it stands (`won 3-1 … World
    // War 1`: the name's `1` is found as `World War I`, the score's `1` is the score's); only
    // one with the same unit makes the writing a number of its own. The spans are in text
    // order, so each number is placed by one binary search.
    let mut only_in_scores: std::collections::HashSet<(&str, &str)> =
        std::collections::HashSet::new();
    if !score_spans.is_empty() {
        let mut outside: std::collections::HashSet<(&str, &str)> = std::collections::HashSet::new();
        for o in &out {
            let at = score_spans.partition_point(|&(_, _, s, _)| s <= o.start);
            let inside = at.checked_sub(1).is_some_and(|k| o.end <= score_spans[k].3);
            if inside {
                only_in_scores.insert((o.text, o.unit));
            } else {
                outside.insert((o.text, o.unit));
            }
        }
        only_in_scores.retain(|t| !outside.contains(t));
    }
    let lenient = |n: &CheckedNumber| -> Option<UncountedNumber> {
        let uncounted = |leniency, near| UncountedNumber {
            text: n.text.clone(),
            leniency,
            near,
        };
        // The output's own reading of the number (its unit, its hedge) where it was checked.
        let o = out
            .iter()
            .find(|o| o.start == n.at && o.text == n.text)
            .or_else(|| out.iter().find(|o| o.text == n.text))?;
        if only_in_scores.contains(&(o.text, o.unit)) {
            return Some(uncounted(Leniency::InScore, None));
        }
        // A count in words ("two individuals named Francis I", "two aces" of an ace on the
        // fourth and one on the eighth) is often the summary's own count of what the
        // context lists, which no rule can check: it counts only against a number the
        // context writes with the same unit ("three children" / "four children"), or when
        // it is a part of a stated whole ("six wins out of seven games"): a statistic the
        // context would have to state, not a count of what it lists. Nor is a count above
        // a dozen ("aged forty-five", "thirty-six hours"): no summary counts such a list
        // itself. A percentage or an amount with a scale word in words ("eighty percent",
        // "nine thousand people") is no count of a list, nor is a measure of time, length or
        // weight ("two years ago", "a six-year-old", "a four-year deal"): they are checked as
        // their digits are. Nor is one: a list of one is no list ("killing one person").
        if o.kind == NumberKind::Number
            && (2.0..=MAX_LISTED_COUNT).contains(&o.value)
            && o.text.starts_with(|c: char| c.is_ascii_alphabetic())
            && !part_of_whole(output, o)
            && !measured(output, o)
            && !ctx
                .iter()
                .any(|c| c.kind == o.kind && !year_like(c) && same_written_unit(c, o))
        {
            return Some(uncounted(Leniency::CountInWords, None));
        }
        let subject = clause_tokens(output, &out, o);
        // A round bound that an exact figure of the context meets, close to it ("more
        // than 100 bodies" of 116 bodies, "nearly 50" of 48), is that figure written
        // loosely, not a fabricated specific; a far one ("at least 11" of 17, "nearly 20%"
        // of 12%) says something the context does not.
        let bound = bound_of(output, o).filter(|_| round(o));
        let meets = |c: &Num| {
            bound.is_some_and(|b| {
                c.kind == o.kind
                                && one_quantity(c, o)
                                && (c.value - o.value).abs() <= MAX_BOUND_GAP * o.value.abs()
                                && match b {
                                    Bound::Above => c.value > o.value,
                                    Bound::Below => c.value < o.value,
                                }
                                // A bound of the context's own ("over 100 stores", "no more than
                                // 12.50") is its figure: "over 80 stores" changes it.
                                && written_bound(context, c).is_none()
            })
        };
        // An ordinal (a rank, a century) is exact, as a year is.
        let o_ordinal = written_as_ordinal(output, o);
        let ordinal = |c: &Num| o_ordinal || written_as_ordinal(context, c);
        // How many words of the output number's clause `words` say; and the clause of a
        // context number.
        let said = |words: &[String]| {
            words
                .iter()
                .filter(|w| subject.binary_search(w).is_ok())
                .count()
        };
        let shared = |c: &Num| said(&clause_tokens(context, &ctx, c));
        // The first 64 candidates: a context of one value repeated is not read once per
        // repetition. The one sharing most words is the figure the output restates.
        let lenient_to = |c: &&Num| (slightly_changed(c, o, threshold) && !ordinal(c)) || meets(c);
        let mut best: Option<(&Num, usize)> = None;
        for c in ctx.iter().filter(lenient_to).take(64) {
            let k = shared(c);
            if k > 0 && best.is_none_or(|(_, b)| k > b) {
                best = Some((c, k));
            }
        }
        let (c, k) = best?;
        // A figure of the same unit whose clause says more of the output's is the quantity the
        // output states, and it is far from it: the near one counts something else
        // (`最小年龄37岁` against `最大年龄34岁` when the context's 最小年龄 is 10), so the
        // number is no slight change. Clauses are compared whole here; two items of one `、`
        // list share their clause, and are told apart by their items below. A round bound is
        // loose by nature and stays with the figure that meets it ("more than 40
        // years" of a text that says "since 1976" and, of another crime, "a 45-year high").
        let round_bound = meets(c);
        if !round_bound
            && ctx
                .iter()
                .filter(|d| d.kind == o.kind && one_quantity(d, o) && !lenient_to(d))
                .take(64)
                .any(|d| shared(d) > k)
        {
            return None;
        }
        // Figures of one `、` list share their clause whole (`35公里挑战组、10公里悠游组`), so
        // their items tell them apart: when another item of the list, of the same unit, says more
        // of the output's clause than the near figure's own, the output states that item's
        // quantity (`悠游组全程约33公里` is no slight change of the 挑战组's 35).
        if !round_bound {
            if let Some(own) = list_item_tokens(context, c) {
                let k_own = said(&own);
                let another_item = ctx
                    .iter()
                    .filter(|d| d.start != c.start && d.kind == o.kind && one_quantity(d, o))
                    .filter(|d| !lenient_to(d) && one_list(context, c, d))
                    .take(16)
                    .any(|d| list_item_tokens(context, d).is_some_and(|t| said(&t) > k_own));
                if another_item {
                    return None;
                }
            }
        }
        let leniency = if round_bound {
            Leniency::RoundBound
        } else {
            Leniency::SlightChange
        };
        Some(uncounted(leniency, Some(c.text.to_string())))
    };
    grounding
        .not_found()
        .map(|n| (n.text.as_str(), lenient(n)))
        .collect()
}

/// How far (relative) a context figure may lie from a round bound that it meets for the bound
/// to be that figure written loosely ("more than 100" of 116 is 16 % away).
const MAX_BOUND_GAP: f64 = 0.25;

/// Whether `n` is a round figure: at most two digits before its trailing zeros (100, 450,
/// 20%, 1.5 million), as bounds are written.
fn round(n: &Num) -> bool {
    let mut v = n.value.abs();
    if v == 0.0 || !v.is_finite() {
        return false;
    }
    // In units of the last written digit: 100 → 100, 1.5 million → 15, 12.5 → 125.
    let step = 2.0 * n.half_step;
    if step > 0.0 {
        v = (v / step).round();
    }
    let mut digits = v.round() as u64;
    while digits >= 10 && digits.is_multiple_of(10) {
        digits /= 10;
    }
    digits < 100
}

/// A count in words above this is no summary's own count of what its context lists.
const MAX_LISTED_COUNT: f64 = 12.0;

/// At most this many scores of the output are checked (a results table could hold thousands).
const MAX_SCORES: usize = 64;

/// Scores and ratios of `text`, as (first, second, start byte, end byte) in text order: two
/// whole numbers joined by a colon or 比 ("0:1负于", "以91：85击败", "3比1"), or by a dash near a
/// word of a result ([`SCORE_WORDS`]: "won 34-23"). One fact of two numbers, which each of its
/// numbers alone cannot ground (0 and 1 are in every text; a made-up 38-25 hides behind any 38
/// and 25): supported only when the context writes the same pair ([`context_pairs`]). A time of
/// day (14:00, 9:30) is not a score.
fn scores(text: &str) -> Vec<(u32, u32, usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let digits_at = |k| whole_number_at(|i| chars.get(i).map(|&(_, c)| c), k);
    let blocks = |c: Option<char>| {
        c.is_some_and(|c| c.is_ascii_digit() || matches!(c, '.' | ':' | '：' | ',' | '/'))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() && out.len() < MAX_SCORES {
        let starts = chars[i].1.is_ascii_digit() && !blocks(i.checked_sub(1).map(|k| chars[k].1));
        if !starts {
            i += 1;
            continue;
        }
        let (a, la, j) = digits_at(i);
        let sep = chars.get(j).map(|&(_, c)| c);
        let dashed = matches!(sep, Some('-' | '–'))
            && !i
                .checked_sub(1)
                .is_some_and(|k| matches!(chars[k].1, '-' | '–'))
            && score_words_near(text, chars[i].0);
        let scored = matches!(sep, Some(':' | '：' | '比')) || dashed;
        let (b, lb, k) = digits_at(j + 1);
        let time = matches!(sep, Some(':' | '：'))
            && lb == 2
            && a <= 24
            && chars
                .get(j + 1)
                .is_some_and(|&(_, c)| ('0'..='5').contains(&c));
        if scored
            && (1..=3).contains(&la)
            && (1..=3).contains(&lb)
            && !time
            && !(blocks(chars.get(k).map(|&(_, c)| c))
                && chars.get(k + 1).is_some_and(|&(_, c)| c.is_ascii_digit()))
            && !chars.get(k).is_some_and(|&(_, c)| c.is_ascii_digit())
            && !(dashed
                && chars
                    .get(k)
                    .is_some_and(|&(_, c)| matches!(c, '-' | '–' | '%')))
        {
            let end = chars.get(k).map_or(text.len(), |&(b, _)| b);
            out.push((a, b, chars[i].0, end));
            i = k;
        } else {
            i = j.max(i + 1);
        }
    }
    if out.len() < MAX_SCORES {
        out.extend(
            chinese_scores(text)
                .into_iter()
                .take(MAX_SCORES - out.len()),
        );
    }
    if out.len() < MAX_SCORES {
        let scored = word_scores(text)
            .into_iter()
            .filter(|&(_, _, start, _)| score_words_near(text, start));
        out.extend(scored.take(MAX_SCORES - out.len()));
    }
    out.sort_by_key(|&(_, _, start, _)| start);
    out
}

/// Scores in words: two numbers of zero to twenty (and `nil`) joined by a dash, `to` or `goals
/// to` (`three-one`, `two to nil`, `three goals to one`), as (first, second, start byte, end
/// byte). `twenty-one` is a number, not a score.
fn word_scores(text: &str) -> Vec<(u32, u32, usize, usize)> {
    // Lower-cased on the stack: this runs over every word of a long context.
    let value = |w: &str| -> Option<u32> {
        let mut buf = [0u8; 9];
        buf.get_mut(..w.len())?.copy_from_slice(w.as_bytes());
        buf.make_ascii_lowercase();
        match std::str::from_utf8(&buf[..w.len()]).ok()? {
            "nil" | "zero" => Some(0),
            "one" => Some(1),
            w => en_cardinal(w).filter(|v| *v <= 20.0).map(|v| v as u32),
        }
    };
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut from = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_ascii_alphabetic(), from) {
            (true, None) => from = Some(i),
            (false, Some(f)) => {
                words.push((f, &text[f..i]));
                from = None;
            }
            _ => {}
        }
    }
    let word = |k: usize| words.get(k).copied().unwrap_or((text.len(), ""));
    let mut out = Vec::new();
    for k in 0..words.len() {
        if out.len() >= MAX_SCORES {
            break;
        }
        let (at, first) = word(k);
        let Some(a) = value(first) else { continue };
        let end = at + first.len();
        let gap = text.get(end..word(k + 1).0).unwrap_or("");
        // The second number: right after a dash, or after `to` / `goals to` / `points to`.
        let second = if gap == "-" && !first.eq_ignore_ascii_case("twenty") {
            word(k + 1)
        } else if word(k + 1).1.eq_ignore_ascii_case("to") && gap == " " {
            word(k + 2)
        } else if ["goals", "points", "runs"].contains(&word(k + 1).1) && word(k + 2).1 == "to" {
            word(k + 3)
        } else {
            continue;
        };
        if let Some(b) = value(second.1) {
            out.push((a, b, at, second.0 + second.1.len()));
        }
    }
    out
}

/// Scores in Chinese numerals (`三比一`, `二十一比十九`, `二比零`): a run of at most three numerals
/// on each side of 比, as (first, second, start byte, end byte).
fn chinese_scores(text: &str) -> Vec<(u32, u32, usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let numeral = |k: usize| chars.get(k).is_some_and(|&(_, c)| is_chinese_numeral(c));
    let value = |from: usize, to: usize| {
        let run: Vec<char> = chars[from..to].iter().map(|&(_, c)| c).collect();
        chinese_numeral_value(&run)
            .filter(|v| *v < 1000.0)
            .map(|v| v as u32)
    };
    let mut out = Vec::new();
    for (k, &(_, c)) in chars.iter().enumerate() {
        if c != '比' || out.len() >= MAX_SCORES {
            continue;
        }
        let mut start = k;
        while start > 0 && numeral(start - 1) && k - start < 3 {
            start -= 1;
        }
        let mut end = k + 1;
        while numeral(end) && end - k <= 3 {
            end += 1;
        }
        // Longer runs are other numbers (三千比一 is no score).
        if start == k || end == k + 1 || (start > 0 && numeral(start - 1)) || numeral(end) {
            continue;
        }
        if let (Some(a), Some(b)) = (value(start, k), value(k + 1, end)) {
            let end_byte = chars.get(end).map_or(text.len(), |&(b, _)| b);
            out.push((a, b, chars[start].0, end_byte));
        }
    }
    out
}

/// The whole number whose digits start at character `k` (`char_at` gives a text's characters by
/// index): its value (saturating), how many digits it has, and the index after them.
fn whole_number_at(char_at: impl Fn(usize) -> Option<char>, mut k: usize) -> (u32, usize, usize) {
    let from = k;
    let mut v: u32 = 0;
    while let Some(d) = char_at(k).and_then(|c| c.to_digit(10)) {
        v = v.saturating_mul(10).saturating_add(d);
        k += 1;
    }
    (v, k - from, k)
}

/// Words of a match result: a pair of numbers joined by a dash near one of them is a score
/// ("won 34-23", "a 5-0 victory", "led 20-13 at half-time"); without one it may be a range
/// (`1-5月`, "10-15 people") and is left to the number check.
const SCORE_WORDS: &[&str] = &[
    "won",
    "win",
    "wins",
    "winning",
    "winner",
    "lost",
    "lose",
    "loss",
    "beat",
    "beating",
    "defeated",
    "defeat",
    "defeating",
    "victory",
    "draw",
    "drew",
    "drawn",
    "lead",
    "led",
    "leading",
    "score",
    "scored",
    "scoreline",
    "ahead",
    "trailing",
    "ended",
    "final",
    "half",
    "halftime",
    "triumph",
    "edged",
    "thrashed",
    "routed",
    "game",
    "match",
    "tie",
    "tied",
];

/// Whether a word of [`SCORE_WORDS`] is within 40 bytes before `at` or 32 after it, in the same
/// sentence.
fn score_words_near(text: &str, at: usize) -> bool {
    let from = text.ceil_char_boundary(at.saturating_sub(40));
    let to = text.floor_char_boundary(at + 32);
    let before = text[from..at]
        .rsplit(['.', '!', '?', '\n'])
        .next()
        .unwrap_or("");
    let after = text[at..to]
        .split(['.', '!', '?', '\n'])
        .next()
        .unwrap_or("");
    [before, after].iter().any(|part| {
        part.split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| SCORE_WORDS.iter().any(|s| s.eq_ignore_ascii_case(w)))
    })
}

/// Every pair of whole numbers the context joins by a colon, 比 or a dash (`1:0`, `91：85`,
/// `3比1`, `23-20`, `23 - 20`, `2 to 1`), each as (smaller, larger): a score written either way
/// round is one pair. One pass over the context, so an output's scores are looked up, not
/// searched for one by one.
fn context_pairs(context: &str) -> std::collections::HashSet<(u32, u32)> {
    let chars: Vec<char> = context.chars().collect();
    let number = |k| whole_number_at(|i| chars.get(i).copied(), k);
    // A decimal point or another digit next to a number makes it another number.
    let decimal =
        |k: usize| chars.get(k) == Some(&'.') && chars.get(k + 1).is_some_and(char::is_ascii_digit);
    let mut pairs = std::collections::HashSet::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit()
            && !i
                .checked_sub(1)
                .is_some_and(|k| chars[k].is_ascii_digit() || chars[k] == '.');
        if !starts {
            i += 1;
            continue;
        }
        let (a, _, j) = number(i);
        if decimal(j) {
            i = j + 1;
            continue;
        }
        let mut k = j;
        while chars.get(k) == Some(&' ') && k < j + 1 {
            k += 1;
        }
        let sep = match chars.get(k) {
            Some(':' | '：' | '比' | '-' | '–') => Some(k + 1),
            Some('t') if chars.get(k + 1) == Some(&'o') && chars.get(k + 2) == Some(&' ') => {
                Some(k + 2)
            }
            _ => None,
        };
        if let Some(mut m) = sep {
            while chars.get(m) == Some(&' ') && m < k + 3 {
                m += 1;
            }
            let (b, lb, e) = number(m);
            if lb > 0 && !decimal(e) {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
        i = j.max(i + 1);
    }
    for (a, b, _, _) in chinese_scores(context)
        .into_iter()
        .chain(word_scores(context))
    {
        pairs.insert((a.min(b), a.max(b)));
    }
    // A draw with no goal is the score 0-0 in words ("Arsenal's goalless draw").
    let lower = context.to_ascii_lowercase();
    if NIL_DRAWS.iter().any(|w| lower.contains(w)) {
        pairs.insert((0, 0));
    }
    pairs
}

/// Words of a context that state the score 0-0.
const NIL_DRAWS: &[&str] = &["goalless", "scoreless", "nil-nil", "nil all"];

/// A finding for each of the output's `scores` (see [`scores`]) the context does not write.
fn unsupported_scores(
    context: &str,
    scores: &[(u32, u32, usize, usize)],
    output: &str,
) -> Vec<DeterministicFinding> {
    if scores.is_empty() {
        return Vec::new();
    }
    let stated = context_pairs(context);
    let mut seen: Vec<(u32, u32)> = Vec::new();
    scores
        .iter()
        .filter(|&&(a, b, _, _)| {
            let new = !seen.contains(&(a, b));
            seen.push((a, b));
            new && !stated.contains(&(a.min(b), a.max(b)))
        })
        .map(|&(_, _, start, end)| {
            let text = output.get(start..end).unwrap_or("").to_string();
            DeterministicFinding {
                check: DeterministicCheck::UnsupportedNumber,
                severity: Severity::High,
                explanation: format!(
                    "the score or ratio {text} appears nowhere in the context (each of its \
numbers alone does not state it): a fabricated specific is High"
                ),
                output_text: text,
                context_text: String::new(),
                status: DeterministicStatus::Counted,
                derivation: None,
                also_reported_by: None,
            }
        })
        .collect()
}

/// Whether the number `n` of `text` is a part of a whole written right after it: "six out of
/// seven", "six wins out of seven games" (at most two words between the number and "out of",
/// the whole a number in digits or words).
fn part_of_whole(text: &str, n: &Num) -> bool {
    let after = text.get(n.end..).unwrap_or("");
    let words: Vec<String> = after
        .split_whitespace()
        .take(5)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
                .to_ascii_lowercase()
        })
        .collect();
    (0..=2).any(|k| {
        words.get(k).is_some_and(|w| w == "out")
            && words.get(k + 1).is_some_and(|w| w == "of")
            && words.get(k + 2).is_some_and(|w| {
                w.starts_with(|c: char| c.is_ascii_digit())
                    || scan(w).iter().any(|m| m.kind == NumberKind::Number)
            })
    })
}

/// Words that say nothing about what a number counts (grammar, direction, time, the "old" of
/// every age).
const NOT_SUBJECTS: &[&str] = &[
    "the", "and", "was", "were", "from", "with", "that", "this", "for", "year", "than", "about",
    "old", "after", "before", "同比", "比上", "上年", "去年", "今年", "分别", "其中", "达到",
    "约为", "左右", "收于",
];

/// What a number is about: the words of its clause (see [`tokens`]), grammar and direction
/// words left out, sorted. Nor are the words another number of the clause counts (`nums`: the
/// scan of `text`): they say what that number is about. `凯文·乐福贡献32分20篮板` shares only
/// 篮板 with `韦少一人独得33分、9个篮板`: two players' points, not one figure slightly changed.
fn clause_tokens(text: &str, nums: &[Num], n: &Num) -> Vec<String> {
    tokens_around(text, nums, n, |c| is_clause_end(c) || c == '.')
}

/// What a number is about in its whole sentence (as [`clause_tokens`] reads its clause): a
/// Chinese figure's subject is often a clause before it (`中央一般公共预算收入11575亿元，下降1.7%`).
fn sentence_tokens(text: &str, nums: &[Num], n: &Num) -> Vec<String> {
    tokens_around(text, nums, n, |c| {
        matches!(c, '。' | '；' | ';' | '!' | '?' | '！' | '？' | '\n')
    })
}

/// The words of the span around `n` that `bound` ends, as [`clause_tokens`] says.
fn tokens_around(text: &str, nums: &[Num], n: &Num, bound: impl Fn(char) -> bool) -> Vec<String> {
    let (from, to, _) = around(text, n, bound);
    let clause = format!("{} {}", &text[from..n.start], &text[n.end..to]);
    let first = nums.partition_point(|m| m.start < from);
    let units: Vec<String> = nums[first..]
        .iter()
        .take_while(|m| m.start < to)
        .filter(|m| m.start != n.start)
        .flat_map(|m| unit_tokens(text, m))
        .collect();
    let mut t = tokens(&clause);
    t.retain(|w| {
        !NOT_SUBJECTS.contains(&w.as_str())
            && !units.contains(w)
            && ![UP_EN, DOWN_EN, UP_ZH, DOWN_ZH, MORE_EN, LESS_EN]
                .iter()
                .any(|l| l.contains(&w.as_str()))
    });
    t
}

/// How far (bytes) a clause or a list's item is read each side of its number: a text without
/// punctuation is not one long clause to read again for every number.
const MAX_AROUND_BYTES: usize = 120;

/// The byte range of `text` around the number `n` up to the nearest character each side that
/// `bound` accepts, at most [`MAX_AROUND_BYTES`] each side, and the bounds that close it (the
/// one before, the one after; None where the cap or the text's end closes it).
fn around(text: &str, n: &Num, bound: impl Fn(char) -> bool) -> (usize, usize, [Option<char>; 2]) {
    let before = text.get(..n.start).unwrap_or("");
    let after = text.get(n.end..).unwrap_or("");
    let near = before.ceil_char_boundary(before.len().saturating_sub(MAX_AROUND_BYTES));
    let (start, opened) = before[near..]
        .char_indices()
        .rev()
        .find(|&(_, c)| bound(c))
        .map_or((near, None), |(i, c)| (near + i + c.len_utf8(), Some(c)));
    let far = after.floor_char_boundary(MAX_AROUND_BYTES);
    let (end, closed) = after[..far]
        .char_indices()
        .find(|&(_, c)| bound(c))
        .map_or((far, None), |(i, c)| (i, Some(c)));
    (start, n.end + end, [opened, closed])
}

/// The words of the item of a `、` list that holds `n` (`35公里挑战组、10公里悠游组`: 挑战组 and
/// 公里 for 35), grammar words left out, sorted; None when `n` is in no such list.
fn list_item_tokens(text: &str, n: &Num) -> Option<Vec<String>> {
    let (from, to, bounds) = around(text, n, |c| is_clause_end(c) || c == '.' || c == '、');
    if !bounds.contains(&Some('、')) {
        return None;
    }
    let mut t = tokens(&format!("{} {}", &text[from..n.start], &text[n.end..to]));
    t.retain(|w| !NOT_SUBJECTS.contains(&w.as_str()));
    Some(t)
}

/// Whether the figures `a` and `b` of `text` are items of one `、` list: close, with no clause
/// end between them.
fn one_list(text: &str, a: &Num, b: &Num) -> bool {
    let (first, second) = if a.start <= b.start { (a, b) } else { (b, a) };
    let Some(between) = text.get(first.end..second.start) else {
        return false;
    };
    // A point before a digit is a decimal point (`12.5公里亲子组`), not a sentence's end.
    let ends = || {
        between.char_indices().any(|(i, c)| {
            is_clause_end(c)
                || (c == '.' && !between[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
        })
    };
    between.len() <= 2 * MAX_AROUND_BYTES && between.contains('、') && !ends()
}

/// Whether the context figure `c` and the output figure `o` can be one quantity stated twice:
/// `c` an exact figure (no loose reading such as "half"), neither a year, one unit written the
/// same way (or none on both). Shared by a slight change and a loose bound.
fn one_quantity(c: &Num, o: &Num) -> bool {
    !c.soft && !year_like(c) && !year_like(o) && same_written_unit_or_bare(c, o)
}

/// Whether the output number `o` is the context number `c` slightly changed (the rubric's Low,
/// left to the fact check): the same quantity — one kind, one unit written the same way (or
/// none on both: a "26-point lead" is not a score of 25), neither a year or a date
/// (years and dates are exact) — within `threshold`, and written as an approximation: hedged
/// ("about", "约", "300多"), the context's writing cut after fewer digits ([`truncated`]), or a
/// round figure of at most two significant digits. A number written as precisely as the context's (3066.36 for
/// 3075.91 points) is a different specific, not a slight change of this one. The caller also
/// asks for a word of the two clauses in common (what the numbers count: "revenue", "出口").
/// A loose reading of the context ("half", 三成: [`Num::soft`]) is no figure to deviate from.
fn slightly_changed(c: &Num, o: &Num, threshold: f64) -> bool {
    let kinds = match (c.kind, o.kind) {
        (NumberKind::Percent, NumberKind::Percent) => true,
        (NumberKind::Percent, _) | (_, NumberKind::Percent) => false,
        (NumberKind::Date, _) | (_, NumberKind::Date) => false,
        _ => true,
    };
    kinds
        && one_quantity(c, o)
        && c.value != 0.0
        && ((o.value - c.value) / c.value).abs() <= threshold + 1e-12
        && (o.hedged || truncated(c, o) || significant_digits(o) <= 2)
}

/// Whether `o` is `c` cut after its own last written digit, not rounded (`£1.5 million` for
/// £1,580,575; `238.4` for 238.45): fewer digits than the context's, each of them the context's.
/// A number written with fewer digits that is not `c` cut (236.2 for 233.95) is another
/// specific, not an approximation of this one.
fn truncated(c: &Num, o: &Num) -> bool {
    let (cv, ov) = (c.value.abs(), o.value.abs());
    significant_digits(o) < significant_digits(c)
        && cv >= ov * (1.0 - 1e-9)
        && cv - ov < 2.0 * o.half_step * (1.0 - 1e-6)
}

/// The tokens (see [`tokens`]) from a number to the end of its unit's word: `rebounds` of `9
/// rebounds`; 篮板 of `20篮板`, 个篮 and 篮板 of `9个篮板`; none for a sign before it (`$`).
fn unit_tokens(text: &str, m: &Num) -> Vec<String> {
    if m.unit.is_empty() {
        return Vec::new();
    }
    // The unit is borrowed from `text` (`grounding::unit_of`): its offset there.
    let Some(at) = (m.unit.as_ptr() as usize).checked_sub(text.as_ptr() as usize) else {
        return Vec::new();
    };
    let rest = text.get(at..).unwrap_or("");
    let len = match rest.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => {
            rest.bytes().take_while(u8::is_ascii_alphabetic).count()
        }
        // A character's word is the pair it starts.
        Some(_) => rest.chars().take(2).map(char::len_utf8).sum(),
        None => 0,
    };
    text.get(m.end..at + len).map(tokens).unwrap_or_default()
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
        if is_cjk(c) {
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
        // 负增长 is a fall.
        assert_eq!(
            direction_findings("同比增长5%。", "同比负增长5%。").len(),
            1
        );
        assert!(direction_findings("同比下降5%。", "同比负增长5%。").is_empty());
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
        // A quarter, as a year, is what rose or fell; counted once with its subject.
        let f = direction_findings(
            "Prices will increase by the end of the third quarter.",
            "Prices will decrease by the end of Q3.",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            direction_findings("三季度利润下降。", "三季度利润上升。").len(),
            1
        );
        assert!(direction_findings(
            "Prices will increase by the end of the third quarter.",
            "Prices will decrease by the end of the second quarter.",
        )
        .is_empty());
    }

    #[test]
    fn unsupported_numbers_leave_small_deviations_to_the_model() {
        let ctx = "该市2022年常住人口为842万人，毛利率为38%。";
        let g = ground_numbers(ctx, "常住人口约为870万人，毛利率41%，净利率12%。");
        let f = unsupported_number_findings(
            ctx,
            "常住人口约为870万人，毛利率41%，净利率12%。",
            &g,
            0.10,
        );
        let texts: Vec<&str> = f.iter().map(|f| f.output_text.as_str()).collect();
        // 870万 is 3.3 % off 842万 and 41% is 7.9 % off 38% (the rubric's Low); 12% is made up.
        assert_eq!(texts, vec!["12%"]);
    }

    #[test]
    fn a_quarter_the_context_never_names_is_explained_as_one() {
        let ctx = "Revenue in the second quarter rose 5%.";
        let out = "Q3 revenue rose 5%.";
        let f = unsupported_number_findings(ctx, out, &ground_numbers(ctx, out), 0.10);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].explanation
                .starts_with("Q3 is a quarter of a year that the context never names"),
            "{}",
            f[0].explanation
        );
    }

    #[test]
    fn a_measure_in_words_is_no_count_of_a_list() {
        let ctx = "The club signed him on Monday. The girl was hit by a stone.";
        for out in [
            "He signed a four-year deal.",
            "He signed a two - year contract.",
            "A six-year-old girl was hit by a stone.",
            "It began ten years ago.",
        ] {
            assert_eq!(flagged(ctx, out).len(), 1, "{out}");
        }
        // A count of what the summary lists stays the fact check's.
        assert!(flagged(ctx, "It names two clubs: Leeds and York.").is_empty());
        // The same word repeated as a measure is judged where it is a measure, once.
        let out = "It names two clubs: Leeds and York. He signed a two-year deal, two years ago.";
        assert_eq!(flagged(ctx, out), vec!["two"]);
    }

    #[test]
    fn a_rank_is_exact_as_a_year_is() {
        // 16th is within 10 % of 17th, but a rank or a century is no quantity to approximate.
        let ctx = "Storey can win a 17th title on Saturday. It began in the mid-13th century.";
        assert_eq!(flagged(ctx, "Storey won a 16th world title."), vec!["16"]);
        assert_eq!(flagged(ctx, "It began in the 14th century."), vec!["14"]);
        assert_eq!(flagged(ctx, "它始于第14世纪。"), vec!["14"]);
        let out = "Storey won a 16th world title.";
        let f = unsupported_number_findings(ctx, out, &ground_numbers(ctx, out), 0.10);
        assert!(
            f[0].explanation.starts_with("16 is written as a rank"),
            "{}",
            f[0].explanation
        );
        // The 6 of a 16th is no rank of its own.
        let out = "Storey won a 16th title and 6 medals.";
        let f = unsupported_number_findings(ctx, out, &ground_numbers(ctx, out), 0.10);
        let six = f
            .iter()
            .find(|f| f.output_text == "6")
            .map(|f| &f.explanation);
        assert!(
            six.is_some_and(|e| e.starts_with("6 appears nowhere")),
            "{f:?}"
        );
        // A count near the context's stays the rubric's Low.
        assert_eq!(
            flagged("She has won 17 titles.", "She has won about 16 titles."),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_hedge_reads_past_every_currency_sign() {
        // `about ₹512` is hedged as `about $512` is: a slight change of 520, left to the fact
        // check; unhedged, as precise as the context's figure, it is another specific.
        for sign in CURRENCY_SIGNS {
            let ctx = format!("The ticket costs {sign}520.");
            assert_eq!(
                flagged(&ctx, &format!("The ticket costs about {sign}512.")),
                Vec::<String>::new(),
                "{sign}"
            );
            assert_eq!(
                flagged(&ctx, &format!("The ticket costs {sign}512.")),
                vec!["512"],
                "{sign}"
            );
        }
    }

    fn flagged(ctx: &str, out: &str) -> Vec<String> {
        let g = ground_numbers(ctx, out);
        unsupported_number_findings(ctx, out, &g, 0.10)
            .into_iter()
            .map(|f| f.output_text)
            .collect()
    }

    #[test]
    fn an_item_of_a_list_is_told_from_the_others() {
        let f = judged;
        // Two figures of one `、` list share their clause: the item says which one is meant.
        let groups = "本次骑行活动设35公里挑战组、10公里悠游组，共有500人参加。";
        assert_eq!(f(groups, "悠游组全程约33公里。").0, vec!["33"]);
        assert_eq!(
            f(groups, "挑战组全程约33公里。"),
            (vec![], vec!["33".to_string()])
        );
        // A third item with a decimal between them keeps the list one list.
        let three = "本次骑行活动设35公里挑战组、12.5公里亲子组、10公里悠游组。";
        assert_eq!(f(three, "悠游组全程约33公里。").0, vec!["33"]);
        assert_eq!(
            f(three, "挑战组全程约33公里。"),
            (vec![], vec!["33".to_string()])
        );
        // Items of another unit are no rival: the player's points stay his points.
        let stats = "韦少一人独得33分、9个篮板和7次助攻。";
        assert_eq!(
            f(stats, "韦少得了约30分。"),
            (vec![], vec!["30".to_string()])
        );
    }

    /// The output numbers that count and those left uncounted, as the rule judges them.
    fn judged(ctx: &str, out: &str) -> (Vec<String>, Vec<String>) {
        let r = unsupported_numbers(ctx, out, &ground_numbers(ctx, out), 0.1);
        (
            r.findings.into_iter().map(|f| f.output_text).collect(),
            r.uncounted.into_iter().map(|u| u.text).collect(),
        )
    }

    #[test]
    fn the_leniency_is_for_the_same_quantity_written_as_an_approximation() {
        // Years are exact: every year is within 10 % of every other.
        assert_eq!(
            flagged("The band formed in 2000.", "They broke up in 1997."),
            vec!["1997"]
        );
        // A score is not a lead (and is one fact of two numbers).
        assert_eq!(
            flagged("Widnes built a 26-point lead.", "Widnes won 38-25."),
            vec!["38-25"]
        );
        assert_eq!(
            flagged("Widnes built a 26-point lead.", "Widnes 38, Castleford 25."),
            vec!["38", "25"]
        );
        // An age is about whom it is the age of: "old" is a word of every age, "after" a word
        // of grammar, neither what two ages have in common.
        let horse = "The 10-year-old horse collapsed after the race.";
        assert_eq!(
            flagged(
                horse,
                "A horse has died, after the death of an 11-year-old boy."
            ),
            vec!["11"]
        );
        assert!(flagged(horse, "An 11-year-old horse collapsed.").is_empty());
        // A number as precise as the context's is another specific, not a slight change.
        assert_eq!(
            flagged("上证综指收报3075.91点。", "上证综指报3066.36点。"),
            vec!["3066.36"]
        );
        // Fewer digits are an approximation only when they are the context's number cut
        // (238.4 for 238.45, £1.5 million for £1,580,575), not another specific (236.2 for
        // 233.95: written less precisely, yet no writing of 233.95).
        assert_eq!(
            flagged("最低探至每克233.95元", "最低探至每克236.2元"),
            vec!["236.2"]
        );
        assert!(flagged("最低探至每克238.45元", "最低探至每克238.4元").is_empty());
        assert!(flagged(
            "The Lib Dems spent £1,580,575.",
            "The Lib Dems spent £1.5 million."
        )
        .is_empty());
        // Another unit, or another subject, is another quantity.
        assert_eq!(flagged("每克240.1元", "每公斤241元"), vec!["241"]);
        assert_eq!(
            flagged("DAX指数涨幅为1.04%。", "英国石油公司股价上涨0.94%。"),
            vec!["0.94%"]
        );
        // The same quantity, hedged or rounder: the rubric's Low, left to the fact check.
        assert!(flagged(
            "Revenue was $12.4 billion.",
            "Revenue was about $12.9 billion."
        )
        .is_empty());
        assert!(flagged("出口同比下降12%。", "出口同比下降13%。").is_empty());
        // A round bound an exact figure meets, close to it, is that figure written loosely;
        // a far one, or one that changes the context's own bound, is another figure.
        assert!(flagged(
            "Authorities began exhuming 116 bodies.",
            "They began exhuming more than 100 bodies."
        )
        .is_empty());
        assert!(flagged(
            "Exports reached 48 tonnes.",
            "Exports reached nearly 50 tonnes."
        )
        .is_empty());
        assert_eq!(
            flagged("Sales rose 12%.", "Sales rose nearly 20%."),
            vec!["20%"]
        );
        assert_eq!(
            flagged("Sales rose 12%.", "Sales rose more than 10.5%."),
            vec!["10.5%"]
        );
        assert_eq!(
            flagged(
                "At least 17 people were killed.",
                "At least 11 people were killed."
            ),
            vec!["11"]
        );
        assert_eq!(
            flagged(
                "We plan to build over 100 stores.",
                "They plan to build over 80 stores."
            ),
            vec!["80"]
        );
        assert_eq!(
            flagged(
                "It costs no more than 12.50 euros.",
                "It costs under 15 euros."
            ),
            vec!["15"]
        );
        // A period is no fraction, and a loose reading ("half", 三成) is no exact quantity a
        // figure could be a slight change of: 27% is not "about a quarter" of "the third
        // quarter", nor 48% of "half the staff".
        assert_eq!(
            flagged(
                "Third quarter earnings per share were $0.34, up 17%.",
                "Third quarter earnings per share rose 27%."
            ),
            vec!["27%"]
        );
        assert_eq!(
            flagged("Half the staff said yes.", "48% of the staff said yes."),
            vec!["48%"]
        );
        assert!(flagged(
            "A quarter of the staff said yes.",
            "25% of the staff said yes."
        )
        .is_empty());
        assert_eq!(
            flagged(
                "Sales in the third quarter were flat.",
                "Sales were flat in 25% of stores."
            ),
            vec!["25%"]
        );
        // A count in words counts against the context's count of the same thing only.
        assert_eq!(
            flagged("He had four children.", "He had three children."),
            vec!["three"]
        );
        assert!(flagged("Francis I of France; Francis I, emperor.", "two people").is_empty());
        // A percentage or an amount in words is no count of a list: checked as digits are.
        let ctx = "Revenue was 120 million dollars; it employs 450 people.";
        assert_eq!(
            flagged(ctx, "Revenue rose eighty percent."),
            vec!["eighty percent"]
        );
        assert_eq!(
            flagged(ctx, "It employs nine thousand people."),
            vec!["nine thousand"]
        );
        assert_eq!(
            flagged(ctx, "Revenue was five hundred million dollars."),
            vec!["five hundred million"]
        );
        assert!(flagged(ctx, "It employs four hundred and fifty people.").is_empty());
        // A count above a dozen is no count of a listed thing.
        assert_eq!(
            flagged(
                "The suspect was arrested.",
                "The suspect, aged forty-five, was arrested."
            ),
            vec!["forty-five"]
        );
        assert!(flagged(ctx, "Revenue was one hundred twenty million dollars.").is_empty());
        // A part of a stated whole is a statistic the context must state.
        let ctx = "He has lost just once in seven games.";
        assert_eq!(
            flagged(ctx, "He has won six games out of seven."),
            vec!["six"]
        );
        assert_eq!(flagged(ctx, "six out of 7 games were won"), vec!["six"]);
        assert!(flagged("He won six of his seven games.", "six wins out of seven").is_empty());
        assert!(flagged(ctx, "He won two trophies, out of form.").is_empty());
    }

    #[test]
    fn many_scores_stay_fast() {
        // A context of 100,000 scores and an output of 20,000 made-up ones (64 are checked):
        // a search per score and separator through the context would be quadratic.
        let ctx: String = (0..100_000)
            .map(|i| format!("{}:{} ", i % 997, i % 991))
            .collect();
        let out: String = (0..20_000)
            .map(|i| format!("以{}：{}获胜。", 998 + i % 2, i % 7))
            .collect();
        let t = std::time::Instant::now();
        let g = ground_numbers(&ctx, &out);
        let f = unsupported_number_findings(&ctx, &out, &g, 0.1);
        let ms = t.elapsed().as_millis();
        assert!(f.iter().any(|d| d.output_text.contains('：')), "{f:?}");
        // A guard against a blow-up, not a speed figure (see grounding's a_long_context_stays_fast).
        assert!(ms < 15_000, "took {ms} ms");
    }

    #[test]
    fn a_number_of_a_name_beside_a_score_is_checked_where_it_stands() {
        let f = flagged;
        let ctx = "The club won the final by three goals to one. The stadium was built by a \
                   World War I veteran.";
        // The score's `1` is the score's (stated in words); the name's `1` is `World War I`,
        // in either order.
        for out in [
            "The club won 3-1 in the final. The stadium was built by a World War 1 veteran.",
            "The stadium was built by a World War 1 veteran. The club won 3-1 in the final.",
        ] {
            assert!(f(ctx, out).is_empty(), "{out}: {:?}", f(ctx, out));
        }
        // A place of the same writing and unit outside the score is a number of its own.
        assert!(f(
            ctx,
            "The club won 3-1 in the final, and 1 in 5 fans left early."
        )
        .contains(&"1".to_string()));
    }

    #[test]
    fn what_another_number_counts_is_no_subject_of_a_slight_change() {
        let f = judged;
        let ctx = "在菲尼克斯，韦少一人独得33分、9个篮板和7次助攻，帮助雷鸣队取胜。";
        // Another player's points: the clauses share only 篮板, what the other numbers count.
        assert_eq!(
            f(ctx, "凯文·乐福贡献32分9个篮板，带领骑士队取胜。").0,
            vec!["32"]
        );
        // The same player's points written roughly stay a slight change.
        assert_eq!(
            f(ctx, "韦少一人独得约32分。"),
            (vec![], vec!["32".to_string()])
        );
        let ctx = "Westbrook scored 33 points and 9 rebounds in Phoenix.";
        // What the number itself counts is a word of its own quantity.
        assert!(f(ctx, "Westbrook scored about 30 points.").0.is_empty());
        assert!(f(
            "Approximately 263,000 spectators attended.",
            "over 260,000 spectators"
        )
        .0
        .is_empty());
    }

    #[test]
    fn a_near_figure_of_another_quantity_is_no_slight_change() {
        let f = judged;
        // The youngest is 10: a 37 near the oldest's 34 changes the youngest's age.
        let ages = "参赛选手来自全国20个省，最大年龄34岁，最小年龄10岁。";
        assert_eq!(f(ages, "最小年龄37岁。").0, vec!["37"]);
        assert_eq!(
            f(ages, "最大年龄约35岁。"),
            (vec![], vec!["35".to_string()])
        );
        let en = "The men's race is 35 km long; the women's race is 10 km long.";
        assert_eq!(f(en, "The women's race is 37 km long.").0, vec!["37"]);
        assert!(f(en, "The men's race is about 37 km long.").0.is_empty());
        // A round bound stays with the figure that meets it.
        let bound = "Sexual crime in Scotland sits at a 45-year high. This is the lowest number \
                     of recorded homicides since 1976 and half the figure of nine years ago.";
        let out = "The number of recorded homicides in Scotland fell to its lowest for more than 40 years.";
        assert_eq!(f(bound, out), (vec![], vec!["40".to_string()]));
    }

    #[test]
    fn a_score_is_one_fact_of_two_numbers() {
        let f = flagged;
        let ctx = "巴西队1/4决赛点球负于巴拉圭队，此前1：1战平。";
        assert_eq!(f(ctx, "巴西队在1/4决赛中0:1负于秘鲁队。"), vec!["0:1"]);
        assert!(f(ctx, "两队1:1战平。").is_empty());
        // Either order, any separator the context uses.
        assert!(f("Gloucester lost 1-3 away.", "客场以3：1取胜").is_empty());
        assert!(f("以91比85击败对手", "以91：85击败对手").is_empty());
        assert!(f("They won 2 to 1.", "a 2:1 win").is_empty());
        assert!(f("Blues won 23-20.", "Blues won 23-20 at home.").is_empty());
        assert_eq!(
            f("Blues won 23-20.5 points", "Blues won 23-20."),
            vec!["23-20"]
        );
        // Times of day are not scores.
        assert!(f(
            "The attack began at 09:00 local time.",
            "at 09:00 local time"
        )
        .is_empty());
        assert_eq!(f("比分是12：10", "比分是12：1"), vec!["12：1"]);
        // A dashed pair is a score near a word of a result, else perhaps a range.
        let ctx = "Blues led 23-20 at half-time; Gloucester scored 13 more.";
        assert_eq!(f(ctx, "Gloucester won 23-13."), vec!["23-13"]);
        assert!(f(ctx, "Blues led 20-23 at the break.").is_empty());
        assert!(!f("1月至5月累计增长13%，比分1：5", "1-5月累计增长13%")
            .iter()
            .any(|t| t.contains('-')));
        assert!(f("from 2016 to 2017", "the 2016-2017 season").is_empty());
        // A goalless draw is 0-0; it states no other score.
        let ctx = "Henry spoke after Arsenal's goalless draw with Chelsea.";
        assert!(f(ctx, "Arsenal drew 0-0 with Chelsea.").is_empty());
        assert_eq!(f(ctx, "Arsenal drew 1-1 with Chelsea."), vec!["1-1"]);
        // In words: a dash, `to`, `goals to`; `twenty-one` is a number.
        assert_eq!(
            f("Arsenal beat Chelsea.", "Arsenal beat Chelsea three-one"),
            vec!["three-one"]
        );
        assert!(f(
            "Arsenal beat Chelsea three goals to one.",
            "Arsenal won 3-1"
        )
        .is_empty());
        assert!(f("Arsenal beat Chelsea 3-1.", "Arsenal won three-one").is_empty());
        assert_eq!(
            f("Arsenal beat Chelsea 3-1.", "Arsenal won three-two"),
            vec!["three-two"]
        );
        assert!(!f("Arsenal won.", "Arsenal won twenty-one games")
            .iter()
            .any(|t| t.contains('-') && t != "twenty-one"));
        // In Chinese numerals, as in digits, either side.
        assert_eq!(
            f("阿森纳战胜切尔西。", "阿森纳三比一战胜切尔西"),
            vec!["三比一"]
        );
        assert!(f("阿森纳以3比1战胜切尔西。", "阿森纳三比一获胜").is_empty());
        assert!(f("阿森纳以三比一战胜切尔西。", "阿森纳3:1获胜").is_empty());
        assert_eq!(
            f("阿森纳以三比一获胜。", "阿森纳三比二获胜"),
            vec!["三比二"]
        );
        assert!(!f("对比两队。", "一比较就知道，三千比一也不是比分")
            .iter()
            .any(|t| t.contains('比')));
    }

    fn direction_texts(ctx: &str, out: &str) -> Vec<String> {
        direction_findings(ctx, out)
            .into_iter()
            .map(|f| f.output_text)
            .collect()
    }

    #[test]
    fn an_english_subject_stated_with_the_opposite_change_without_a_number() {
        let ctx = "Net profits fell in the quarter, while oil prices rose sharply.";
        // The phrase runs from the subject to its verb.
        assert_eq!(
            direction_texts(ctx, "The company's profits rose."),
            vec!["profits rose"]
        );
        assert_eq!(
            direction_texts(ctx, "Oil prices have fallen."),
            vec!["Oil prices have fallen"]
        );
        // The same direction, another subject, a general word alone, a hypothetical change,
        // a pronoun: no finding.
        assert!(direction_texts(ctx, "Net profits declined.").is_empty());
        assert!(direction_texts(ctx, "Gold prices fell.").is_empty());
        assert!(direction_texts(ctx, "Prices fell.").is_empty());
        assert!(direction_texts(ctx, "Profits are expected to rise.").is_empty());
        assert!(direction_texts(ctx, "It rose.").is_empty());
        // A subject stated both ways is not decided.
        assert!(direction_texts(
            "Exports rose in May. Exports fell in June.",
            "Exports fell."
        )
        .is_empty());
        // With its number, the verb is the number's check (one finding, not two).
        assert_eq!(
            direction_findings("Exports fell 3%.", "Exports rose 3%.").len(),
            1
        );
    }

    #[test]
    fn a_bound_opposite_to_the_contexts_is_a_contradiction() {
        // "over 400" cannot be "almost 400"; nor 超过 / 不到.
        assert_eq!(
            direction_texts(
                "Almost 400 people were evacuated.",
                "Over 400 people were evacuated."
            ),
            vec!["Over 400"]
        );
        assert_eq!(
            direction_texts("不到30%的受访者表示支持。", "超过30%的受访者表示支持。"),
            vec!["超过30%"]
        );
        assert_eq!(
            direction_texts("More than 1,200 jobs went.", "nearly 1,200 jobs went"),
            vec!["nearly 1,200"]
        );
        // A ceiling is below its figure: "at most 24" is not "at least 24".
        let ctx = "A massacre that left at least 24 people dead.";
        assert_eq!(
            direction_texts(ctx, "A massacre that left at most 24 people dead."),
            vec!["left at most 24"]
        );
        assert_eq!(
            direction_texts(ctx, "It left up to 24 people dead.").len(),
            1
        );
        assert!(direction_texts("Up to 24 people died.", "Up to 24 people died.").is_empty());
        // A count whose measure word ends the phrase is no year (`2000只`).
        assert_eq!(
            direction_texts("告跌品种总数超过2000只。", "告跌品种总数不到2000只。"),
            vec!["种总数不到2000"]
        );
        // The same bound, another notation: no finding.
        assert!(direction_texts("nearly 1.2 thousand jobs", "almost 1,200 jobs").is_empty());
        // The context also states the value without a bound or with the same one: another
        // quantity of the same size may be meant.
        assert!(direction_texts(
            "Almost 400 people left; 400 people stayed.",
            "Over 400 people left."
        )
        .is_empty());
        assert!(direction_texts(
            "almost 400 people left and over 400 people arrived",
            "over 400 people left"
        )
        .is_empty());
        // Another unit is another quantity; 近3年 is "the last three years", not "almost".
        assert!(direction_texts("almost 400 people", "over 400 cars").is_empty());
        assert!(direction_texts("近3年来销量下降。", "超过3年").is_empty());
        // "over three years" may be "during three years".
        assert!(direction_texts("almost 3 years ago", "sales grew over 3 years").is_empty());
        assert_eq!(
            direction_texts("almost 3 years", "more than 3 years").len(),
            1
        );
        // A year is not a bound quantity.
        assert!(direction_texts("almost 2000 years ago", "over 2000 years ago").is_empty());
        // A negated bound is neither side for certain: "won't be more than 12.50" is at
        // most 12.50, which "under 12.50" does not contradict.
        assert!(direction_texts(
            "The cost won't be maxim more than twelve dot fifty Euros.",
            "The cost must stay under 12.50 Euros."
        )
        .is_empty());
        assert!(direction_texts("no less than 400 people", "almost 400 people").is_empty());
        assert_eq!(
            direction_texts(
                "The cost will be more than 12.50 Euros.",
                "under 12.50 Euros"
            )
            .len(),
            1
        );
    }

    #[test]
    fn a_ranking_the_contexts_figures_reverse_is_a_contradiction() {
        let ctx = "UKIP spent £2,956,737, while the Tories' campaign expenditure was \
£2,980,815. Labour spent £1,027,339.";
        let f = direction_findings(
            ctx,
            "UKIP spent the most at £2,956,737, followed by the Conservatives (£2,980,815).",
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].check, DeterministicCheck::Direction);
        assert_eq!(f[0].context_text, "2,980,815");
        // The right order, and a bottom of a ranking in the right order: no finding.
        assert!(direction_texts(
            ctx,
            "The Tories spent the most at £2,980,815, followed by UKIP at £2,956,737."
        )
        .is_empty());
        assert!(direction_texts(
            ctx,
            "Labour spent the least at £1,027,339, followed by UKIP (£2,956,737)."
        )
        .is_empty());
        assert_eq!(
            direction_texts(
                ctx,
                "UKIP spent the least at £2,956,737, followed by Labour (£1,027,339)."
            )
            .len(),
            1
        );
        // Values the context does not state are the number check's, not a ranking's.
        assert!(direction_texts(ctx, "A spent the most at £5, followed by B at £7.").is_empty());
        // Another unit: not one ranking.
        assert!(direction_texts(
            "It has 300 staff and £2,956,737 in debt.",
            "It has the most debt at £2,956,737, followed by 300 staff."
        )
        .is_empty());
    }

    #[test]
    fn a_subject_read_where_a_news_report_puts_it() {
        // A day between a subject and its direction word.
        let metals = "新华社上海5月13日专电 国内黄金、白银商品13日收涨。";
        assert_eq!(
            direction_findings(metals, "国内黄金、白银商品13日收跌。").len(),
            1
        );
        assert!(direction_findings(metals, "白银商品收涨。").is_empty());
        // A subject of one day is not another day's, nor one of no day.
        let days = "沪指5日上涨，6日下跌。";
        assert!(direction_findings(days, "沪指6日下跌。").is_empty());
        assert!(direction_findings(days, "沪指下跌。").is_empty());
        assert_eq!(direction_findings(days, "沪指5日下跌。").len(), 1);
        // A contract named in Latin letters, and a contract's own direction before the
        // direction of a shorter subject that ends it (another contract's 期货).
        let ctx = "截至收盘，PTA期货领涨，甲醇期货领跌。";
        assert_eq!(direction_findings(ctx, "PTA期货领跌。").len(), 1);
        let ctx = "截至收盘，纤维板期货领涨，PTA期货领跌。";
        let f = direction_findings(ctx, "截至收盘，纤维板期货领跌。");
        assert_eq!(f.len(), 1, "{f:?}");
        // Named as written, the phrase from the name to the word.
        assert_eq!(f[0].output_text, "纤维板期货领跌");
        assert_eq!(f[0].context_text, "纤维板期货领涨");
        assert!(
            f[0].explanation.starts_with("纤维板期货 is a fall"),
            "{}",
            f[0].explanation
        );
        assert!(direction_findings(ctx, "纤维板期货领涨。").is_empty());
        // The object of a verb that changes it went up or down.
        let ctx = "便利企业办理手续，提高通关效率，降低企业成本。";
        let f = direction_findings(ctx, "企业办理手续，降低了通关效率。");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].explanation.contains("通关效率"),
            "{}",
            f[0].explanation
        );
        assert!(direction_findings(ctx, "它降低企业成本。").is_empty());
        // A market report's change opens the clause after the closing price.
        let ctx = "豆粕期货主力合约收于每吨2708元，涨幅0.67%；豆油期货主力合约收于每吨5570元，跌幅2.35%。";
        assert_eq!(direction_findings(ctx, "豆粕期货领跌。").len(), 1);
        assert!(direction_findings(ctx, "豆油期货领跌。").is_empty());
        // A number after a comma is not the direction word's own.
        let ctx = "各大车站发送旅客数量同时上升，30日预计发送旅客17.3万人。";
        assert_eq!(
            direction_findings(
                ctx,
                "各大车站发送旅客数量同时下降，30日预计发送旅客17.3万人。"
            )
            .len(),
            1
        );
        // A value stated both ways is the one of the sentence that says the output's subject;
        // none when two say as much.
        let ctx = "中央一般公共预算收入11575亿元，下降1.7%。地方一般公共预算本级收入增长1.7%。";
        assert_eq!(
            direction_findings(ctx, "中央一般公共预算收入11575亿元，上升1.7%。").len(),
            1
        );
        assert!(direction_findings(ctx, "地方一般公共预算本级收入增长1.7%。").is_empty());
        assert!(direction_findings(ctx, "收入上升1.7%。").is_empty());
    }

    #[test]
    fn a_subject_stated_with_the_opposite_direction_without_a_number() {
        let ctx = "截至收盘，沪深两市股指双双收跌。沥青期货领涨，强麦期货领跌。";
        let f = direction_findings(ctx, "沪深两市股指收涨。");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].explanation.contains("股指"), "{}", f[0].explanation);
        assert_eq!(direction_findings(ctx, "强麦期货领涨。").len(), 1);
        assert!(direction_findings(ctx, "沥青期货领涨。").is_empty());
        // A contract the context never names is its market's: 有色金属 fell nearly across the
        // board, so its futures did not rise; a contract the context names keeps its own
        // direction (豆粕期货 rose while the meal itself fell).
        let metals = "具体品种方面，有色金属近全线收跌：铅期货主力合约收于每吨1.38万元。";
        assert_eq!(
            direction_findings(metals, "沪铜、沪锌、沪铝等有色金属期货也上涨。").len(),
            1
        );
        assert!(direction_findings(metals, "有色金属期货也下跌。").is_empty());
        let meal = "豆粕期货领涨。现货市场上，豆粕价格下跌。";
        assert!(direction_findings(meal, "豆粕期货上涨。").is_empty());
        // Both ways in the context: not decided.
        assert!(direction_findings("沪指早盘下跌，沪指午后上涨。", "沪指上涨。").is_empty());
        // A word with its number is the number's check, counted once.
        assert_eq!(
            direction_findings("净利润同比下降3%。", "净利润同比增长3%。").len(),
            1
        );
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
    fn hostile_texts_cost_linear_time() {
        // 40,000 numbers of one value with direction words and no clause break: each number
        // looks only at its own neighbourhood and its value's group (binary searches).
        let ctx = "profit rose 3% and ".repeat(40_000);
        let out = "profit fell 3% and ".repeat(40_000);
        let f = direction_findings(&ctx, &out);
        assert_eq!(f.len(), 1, "one distinct phrase");
        // The same for subjects without numbers: one lookup per word, one finding per phrase.
        let ctx = "股指收跌".repeat(50_000);
        let out = "股指收涨".repeat(50_000);
        assert!(direction_findings(&ctx, &out).len() <= 3);
        let out = "均".repeat(100_000) + "涨";
        assert!(direction_findings(&ctx, &out).is_empty());
        // English subjects stated many times.
        let ctx = "Net profits fell and ".repeat(20_000);
        let out = "net profits rose and ".repeat(20_000);
        assert!(direction_findings(&ctx, &out).len() <= 3);
        // Bounds of distinct values, and rankings without a sentence end.
        let ctx: String = (0..10_000).map(|k| format!("almost {k} people ")).collect();
        let out: String = (0..10_000).map(|k| format!("over {k} people ")).collect();
        assert!(direction_findings(&ctx, &out).len() > 1_000);
        let out = "the most at £2 followed by £3 ".repeat(10_000);
        assert_eq!(direction_findings("£2 and £3", &out).len(), 1);
        // A context of one value repeated, no punctuation: the leniency reads a few clauses.
        let ctx = "营收约100亿元 ".repeat(20_000);
        let out: String = (0..300)
            .map(|k| format!("营收约{}亿元 ", 101 + k % 9))
            .collect();
        let g = ground_numbers(&ctx, &out);
        assert!(unsupported_number_findings(&ctx, &out, &g, 0.10).is_empty());
        let words = "not ".repeat(100_000) + "rose 5%";
        assert_eq!(directed_numbers(&words).len(), 1);
    }
}
