//! Deterministic number grounding: every number, percentage, date and quantity in the model
//! output, checked against the context without any model. A number is
//! - `verbatim`: written the same way in the context;
//! - `notation`: the same value written differently (1,200 / 1.2k / 1.2 thousand / 一千二百 /
//!   1200; 8 % / 0.08; 2023-05-01 / 2023年5月1日 / May 1, 2023);
//! - `rounded`: a context value rounded to the output's precision (1,234,567 → "1.2 million");
//! - `derived`: one arithmetic step from two context numbers (sum, difference, ratio, percent
//!   change), within the output's precision;
//! - `not_found`: none of these. These are what a fabricated specific looks like (the baseline's
//!   case #13, docs/audit.md: an admission rate that appears nowhere in the context was judged Low), so they
//!   go to the Phase 2 prompt as evidence and into the report.
//!
//! Pure and fast: one linear scan per text; notation lookups by binary search over the sorted
//! context values; the arithmetic search uses at most the first [`MAX_PAIR_NUMBERS`] distinct
//! context numbers and only runs for output numbers not found otherwise, so a long context costs
//! milliseconds, in the browser too.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

/// The arithmetic search pairs at most this many context numbers (200 × 199 ordered pairs).
pub const MAX_PAIR_NUMBERS: usize = 200;
/// At most this many distinct output numbers are checked (a table dump could hold thousands).
pub const MAX_OUTPUT_NUMBERS: usize = 300;

crate::names::named_enum! {
    /// What kind of number the text wrote.
    pub enum NumberKind {
        Number = "number",
        /// 35%, 百分之三十五, 5 percentage points: `value` is the fraction (0.35).
        Percent = "percent",
        /// A date or a year (2023年, 2023-05-01, May 2023), a time of day (14:00: `value` is
        /// its hour) or a quarter of a year (Q3, 第三季度: `value` is the quarter).
        Date = "date",
        /// A number with a scale word (1.2k, 3 million, 4200万): `value` is the full amount.
        Quantity = "quantity",
    }
}

crate::names::named_enum! {
    /// The one arithmetic step that gives a derived number.
    pub enum Operation {
        Sum = "sum",
        Difference = "difference",
        Ratio = "ratio",
        PercentChange = "percent_change",
        /// Only in a derivation a model names and the rules recompute
        /// (`audit::derivation`); the rules' own search never multiplies.
        Product = "product",
    }
}

/// Who offers a derivation, which decides how much [`plausible_derivation`] asks of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Vouch {
    /// The rules' own search: a dense context makes some step from two of its numbers land
    /// near almost any value, so the operands must also be stated together.
    Chance,
    /// A model named the operands and the rules recompute the step
    /// (`audit::derivation::recompute`): no sentence limit, and a step may combine counts of
    /// different things (15 men + 17 women, 1470 students / 30 classes), never money with
    /// anything else, into a number the output writes without a unit.
    Named,
}

/// How far one step's result may lie from the output number `out`: strictly inside half a
/// unit of its last written digit (598 − 565.5 = 32.5 is not "32"; 7.69 % is "7.7 %"). The one
/// precision rule of every derivation.
pub(crate) fn precision(out: &Num) -> f64 {
    out.half_step.max(1e-9 * out.value.abs()) * (1.0 - 1e-6)
}

crate::names::named_enum! {
    /// How an output number relates to the context. Its name is also the CSS class suffix on
    /// the page.
    pub enum Status {
        Verbatim = "verbatim",
        /// The same value written differently; `source` is the context's writing.
        Notation = "notation",
        /// The context value rounded to the output's precision.
        Rounded = "rounded",
        /// One arithmetic step; `source` shows it, e.g. "4200 − 3000" or "(5400 − 4200) / 4200".
        Derived = "derived",
        NotFound = "not_found",
    }
}

/// One distinct number of the model output and its grounding. Flat fields rather than a tagged
/// enum: serde's tagged and flattened enums buffer through a generic content tree, which cost
/// ~10 KB of the gzipped wasm here.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckedNumber {
    /// As written in the output.
    pub text: String,
    pub kind: NumberKind,
    /// The value compared (fractions for percentages; the year for a year).
    pub value: f64,
    pub status: Status,
    /// The context's writing (notation, rounded) or the step (derived).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<Operation>,
    /// Where the writing checked starts in the output (bytes), for the rules that read its
    /// unit and hedge there: a writing repeated is listed again where it is not found. Where
    /// it was read, not what was found: not kept in a report, not compared.
    #[serde(skip)]
    pub(crate) at: usize,
}

impl PartialEq for CheckedNumber {
    fn eq(&self, other: &Self) -> bool {
        (
            &self.text,
            self.kind,
            self.value,
            self.status,
            &self.source,
            self.operation,
        ) == (
            &other.text,
            other.kind,
            other.value,
            other.status,
            &other.source,
            other.operation,
        )
    }
}

impl CheckedNumber {
    /// What the page says about the number.
    pub fn describe(&self) -> String {
        let source = self.source.as_deref().unwrap_or("");
        match self.status {
            Status::Verbatim => "in the context as written".into(),
            Status::Notation => format!("in the context as {source}"),
            Status::Rounded => format!("rounded from {source}"),
            Status::Derived => format!("= {source}"),
            Status::NotFound => "not found in the context".into(),
        }
    }
}

/// The internal verdict, before it is flattened into a [`CheckedNumber`].
#[derive(Debug, Clone, PartialEq)]
enum Grounding {
    Verbatim,
    Notation {
        source: String,
    },
    Rounded {
        source: String,
    },
    Derived {
        operation: Operation,
        source: String,
    },
    NotFound,
}

impl Grounding {
    fn into_fields(self) -> (Status, Option<String>, Option<Operation>) {
        match self {
            Grounding::Verbatim => (Status::Verbatim, None, None),
            Grounding::Notation { source } => (Status::Notation, Some(source), None),
            Grounding::Rounded { source } => (Status::Rounded, Some(source), None),
            Grounding::Derived { operation, source } => {
                (Status::Derived, Some(source), Some(operation))
            }
            Grounding::NotFound => (Status::NotFound, None, None),
        }
    }
}

/// The number check of one audit (`AuditReport::number_grounding`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NumberGrounding {
    pub numbers: Vec<CheckedNumber>,
    /// Numbers found in the context.
    pub context_numbers: usize,
    /// Output numbers beyond [`MAX_OUTPUT_NUMBERS`] that were not checked.
    #[serde(default)]
    pub unchecked: usize,
}

impl NumberGrounding {
    pub fn not_found(&self) -> impl Iterator<Item = &CheckedNumber> {
        self.numbers.iter().filter(|n| n.status == Status::NotFound)
    }

    /// "7 numbers: 5 found, 1 derived, 1 not found".
    pub fn summary(&self) -> String {
        let derived = self
            .numbers
            .iter()
            .filter(|n| n.status == Status::Derived)
            .count();
        let missing = self.not_found().count();
        let found = self.numbers.len() - derived - missing;
        let mut s = format!(
            "{} number{}: {found} found, {derived} derived, {missing} not found",
            self.numbers.len(),
            if self.numbers.len() == 1 { "" } else { "s" }
        );
        if self.unchecked > 0 {
            s.push_str(&format!(" ({} more not checked)", self.unchecked));
        }
        s
    }
}

/// Check every number of `output` against `context`.
pub fn ground_numbers(context: &str, output: &str) -> NumberGrounding {
    let ctx = scan(context);
    let out = scan(output);
    let index = ContextIndex::new(&ctx);
    // Each writing once per unit: a number repeated in the output is one fact to check, unless
    // it counts something else where it is repeated (`one person … a one-year deal`, `two
    // clubs … a two-year deal`); such a repeat is listed only when it is not found there. At
    // most as many repeats as numbers are checked.
    let mut seen: Vec<(&str, &str)> = Vec::new();
    let mut repeats = 0;
    let mut numbers = Vec::new();
    let mut unchecked = 0;
    // Built when an output number is first not found.
    let mut identifiers = None;
    let mut context_apart = None;
    let mut numerals = None;
    let mut ones = None;
    for n in &out {
        if n.soft || seen.contains(&(n.text, n.unit)) {
            continue;
        }
        let repeat = seen.iter().any(|(text, _)| *text == n.text);
        if repeat {
            if repeats >= MAX_OUTPUT_NUMBERS {
                continue;
            }
            repeats += 1;
        } else if numbers.len() >= MAX_OUTPUT_NUMBERS {
            unchecked += 1;
            continue;
        }
        seen.push((n.text, n.unit));
        let grounding = match index.ground(n) {
            Grounding::NotFound => {
                let ids = identifiers.get_or_insert_with(|| context_identifiers(context));
                spaced_identifier(ids, output, n)
                    .or_else(|| period_in(&ctx, context, output, n))
                    .or_else(|| ordinal_word(context, output, n))
                    .or_else(|| {
                        let numerals = numerals.get_or_insert_with(|| context_numerals(context));
                        roman_in_name(numerals, output, n)
                    })
                    .or_else(|| short_year(&ctx, output, n))
                    .or_else(|| slashed_date(&ctx, output, n))
                    .or_else(|| written_apart(&out, &index, output, n))
                    .or_else(|| {
                        let joined =
                            context_apart.get_or_insert_with(|| joined_apart(&ctx, context));
                        joined_value(joined, n)
                    })
                    .or_else(|| space_parts(&ctx, n))
                    .or_else(|| article_count(&ctx, output, n))
                    .or_else(|| {
                        let ones = ones.get_or_insert_with(|| context_ones(context));
                        one_as_written(ones, output, n)
                    })
                    .map_or(Grounding::NotFound, |source| Grounding::Notation { source })
            }
            g => g,
        };
        if repeat && grounding != Grounding::NotFound {
            continue;
        }
        let (status, source, operation) = grounding.into_fields();
        numbers.push(CheckedNumber {
            text: n.text.to_string(),
            kind: n.kind,
            value: n.value,
            status,
            source,
            operation,
            at: n.start,
        });
    }
    NumberGrounding {
        numbers,
        context_numbers: ctx.len(),
        unchecked,
    }
}

/// The context's identifier that the output's number `n` is part of, written apart: "RC - 135U"
/// or "su - 27" (tokenized text) of the context's `RC-135U` / `SU-27`, "under - 17" of
/// `Under-17`. The context's identifier is skipped whole (a word running into digits), so
/// without this its digits support nothing. Only the same word and the same digits (and the
/// same letters glued after them) count: the output's number is the context's identifier, not a
/// figure taken from it.
fn spaced_identifier(
    identifiers: &HashMap<String, String>,
    output: &str,
    n: &Num,
) -> Option<String> {
    if !n.text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Apart by a dash with spaces, as tokenized text writes it: a space alone is a word and a
    // number ("buy 2 pizzas" is not the context's `buy-2-get-1-free`).
    let apart = output
        .get(..n.start)?
        .trim_end_matches(' ')
        .strip_suffix(['-', '–', '_'])?
        .trim_end_matches(' ');
    let word = &apart[apart
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .len()..];
    if word.is_empty() {
        return None;
    }
    let after = output.get(n.end..)?;
    let glued = &after[..after
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(after.len())];
    identifiers
        .get(&format!("{word}{}{glued}", n.text).to_ascii_lowercase())
        .cloned()
}

/// A context year within the decade or century the output's `n` names, by its writing: "the
/// 1980s" of the context's 1987, "the late 1800's" of 1865, "the 80's" / "80年代" of 1987 (any
/// century: the writing leaves it out), "the 15th century" / "19世纪" of c.1435 / 1850 ("early",
/// "mid" and "late" narrow the range). A period is that range, loosely; a year or another period
/// outside it is no support. A decade the context writes (`the late 1940s`) supports a period
/// of the output that overlaps it, even a two-digit one with no word that makes it a decade
/// (`in the late 40s and early 50s`; alone, `his late 40s` may be an age).
fn period_in(ctx: &[Num], context: &str, output: &str, n: &Num) -> Option<String> {
    if !n.text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v = n.text.parse::<u32>().ok()?;
    let after = output.get(n.end..)?;
    let before = output.get(..n.start)?;
    // The few bytes before the number only: a long output is not copied per number.
    let lower_before =
        before[before.floor_char_boundary(before.len().saturating_sub(12))..].to_ascii_lowercase();
    let suffixed = decade_suffix(after).is_some();
    // (first year, span in years, whether only the last two digits of a year are compared,
    // whether the writing alone makes it a period)
    let (start, span, two_digits, period) = match n.text.len() {
        4 if v % 10 == 0 && suffixed => (v, if v % 100 == 0 { 100 } else { 10 }, false, true),
        // "the 80's", "the '80s", "80年代", "a 60's band", "the mid 80's": a decade of any
        // century. Not "in their 80s", "in his late 40s" (an age).
        2 if v % 10 == 0 && (after.starts_with("年代") || suffixed) => {
            let led = after.starts_with("年代")
                || DECADE_LEADS.iter().any(|w| lower_before.ends_with(w))
                || before.ends_with(['\'', '’']);
            (v, 10, true, led)
        }
        1 | 2 if (1..=21).contains(&v) => {
            let century = strip_ordinal_ending(after)
                .and_then(|r| r.strip_prefix([' ', '-']))
                .is_some_and(|r| r.get(..6).is_some_and(|w| w.eq_ignore_ascii_case("centur")))
                || after.starts_with("世纪");
            if !century {
                return None;
            }
            ((v - 1) * 100, 100, false, true)
        }
        _ => return None,
    };
    let years = narrowed(before, start, span);
    let key = |y: u32| if two_digits { y % 100 } else { y };
    // A decade the context writes is its range, not its first year (below).
    let year_within = ctx.iter().find(|c| {
        if context_decade(context, c).is_some() {
            return false;
        }
        let year = c
            .date
            .and_then(|d| d.year)
            .or_else(|| year_like(c).then_some(c.value as u32));
        year.is_some_and(|y| years.contains(&key(y)))
    });
    if let Some(c) = year_within.filter(|_| period) {
        return Some(c.text.to_string());
    }
    ctx.iter().find_map(|c| {
        let decade = context_decade(context, c)?;
        let (from, to) = (key(decade.start), key(decade.end - 1) + 1);
        let after = context.get(c.end..)?;
        let end = c.end + after.len() - decade_suffix(after)?.len();
        (from < years.end && years.start < to)
            .then(|| context.get(c.start..end).map(str::to_string))?
    })
}

/// The rest of a text after a decade's `s` (`1980s`, `80's`, `80 ' s`), if one follows.
fn decade_suffix(after: &str) -> Option<&str> {
    ["s", "'s", "’s", " ' s", " 's"]
        .iter()
        .find_map(|suffix| after.strip_prefix(suffix))
        .filter(|rest| !rest.starts_with(char::is_alphanumeric))
}

/// The years of a period from `start` over `span` years, narrowed by the word before it
/// (`before`, the text up to the period): "early", "mid" and "late" are its first, middle or
/// last four tenths.
fn narrowed(before: &str, start: u32, span: u32) -> std::ops::Range<u32> {
    let before = before.trim_end_matches([' ', '-', '\'', '’']);
    let before = before.strip_suffix("the").map_or(before, str::trim_end);
    let word = word_ending(before).to_ascii_lowercase();
    let (from, to) = match word.as_str() {
        "early" => (0, 4),
        "mid" | "middle" => (3, 8),
        "late" => (6, 10),
        _ => (0, 10),
    };
    start + span * from / 10..start + span * to / 10
}

/// The years of a decade the context writes in full at `c` (`1940s`, `the late 1940s`).
fn context_decade(context: &str, c: &Num) -> Option<std::ops::Range<u32>> {
    if !year_like(c) || c.date.is_some() || c.value % 10.0 != 0.0 {
        return None;
    }
    decade_suffix(context.get(c.end..)?)?;
    let start = c.value as u32;
    Some(narrowed(
        context.get(..c.start)?,
        start,
        if start.is_multiple_of(100) { 100 } else { 10 },
    ))
}

/// The words before a two-digit decade ("the 80's", "a 60's band", "the late 40s") that make
/// it one: an age takes a possessive ("in his late 40s").
const DECADE_LEADS: [&str; 8] = [
    "the ",
    " a ",
    " an ",
    "the early ",
    "the mid ",
    "the mid-",
    "the middle ",
    "the late ",
];

/// `s` after an ordinal ending written right after a number ("th of May", "st century").
fn strip_ordinal_ending(s: &str) -> Option<&str> {
    ["st", "nd", "rd", "th"]
        .iter()
        .find(|o| s.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(o)))
        .map(|o| &s[o.len()..])
}

/// Whether `n` is written as an ordinal in `text` (`14th`, `3rd`, 第14): a rank, a century, a
/// position, which like a year is exact — the 16th title is not the 17th slightly changed.
pub(crate) fn written_as_ordinal(text: &str, n: &Num) -> bool {
    ordinal_at(text, n.start, n.end)
}

/// Whether the number written `number` is written as an ordinal somewhere in `text` (as a
/// whole number: the 6 of "16th" is not one).
pub(crate) fn ordinal_written(text: &str, number: &str) -> bool {
    text.match_indices(number).any(|(at, _)| {
        let whole = !text[..at].ends_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | ','));
        whole && ordinal_at(text, at, at + number.len())
    })
}

fn ordinal_at(text: &str, start: usize, end: usize) -> bool {
    // In digits: "four" before "th" is the word "fourth", read on its own.
    if !text
        .get(..end)
        .is_some_and(|t| t.ends_with(|c: char| c.is_ascii_digit()))
    {
        return false;
    }
    let after = text.get(end..).unwrap_or("");
    strip_ordinal_ending(after).is_some_and(|rest| !rest.starts_with(char::is_alphanumeric))
        || text.get(..start).unwrap_or("").ends_with('第')
}

/// A number written apart as tokenized text writes it, the one decision of both sides: the
/// run of numbers from `nums[first]` linked by a comma or a point with a space after (dialogue
/// corpora space both sides: `23 , 768`, `1 . 197 . 816`), each part after the first in digits,
/// at most [`MAX_APART_PARTS`] parts. Its last index and the values it may be: thousands (one
/// separator throughout, groups of exactly three digits behind a first of one to three: `$ 1,
/// 429`, `53, 193, 914`) and a fraction (two parts, a point, at most six places: `18. 9`,
/// `122. 5`). Only the whole run is a number: `53, 193` is none.
fn apart_run(nums: &[Num], text: &str, first: usize) -> (usize, Vec<f64>) {
    let mut last = first;
    let mut separators = Vec::new();
    while last + 1 < nums.len() && last - first + 1 < MAX_APART_PARTS {
        match apart_link(text, &nums[last], &nums[last + 1]) {
            Some(sep) => separators.push(sep),
            None => break,
        }
        last += 1;
    }
    let run = &nums[first..=last];
    let mut values = Vec::new();
    if last == first {
        return (last, values);
    }
    if (1.0..1000.0).contains(&run[0].value)
        && run[1..].iter().all(|x| x.text.len() == 3)
        && separators.windows(2).all(|w| w[0] == w[1])
    {
        values.push(
            run[1..]
                .iter()
                .fold(run[0].value, |v, x| v * 1000.0 + x.value),
        );
    }
    if let ([a, b], ['.']) = (run, separators.as_slice()) {
        // At most six places: the power fits.
        if let Some(places) = i32::try_from(b.text.len()).ok().filter(|p| *p <= 6) {
            values.push(a.value + b.value / 10f64.powi(places));
        }
    }
    (last, values)
}

/// Parts of one number written apart ([`apart_run`]): at most five (a quadrillion's groups).
const MAX_APART_PARTS: usize = 5;

/// The separator between `a` and `b` when `b` continues a number written apart.
fn apart_link(text: &str, a: &Num, b: &Num) -> Option<char> {
    let whole = a.value.fract() == 0.0 && a.value >= 0.0 && !a.soft && a.date.is_none();
    let digits = !b.text.is_empty() && b.text.bytes().all(|c| c.is_ascii_digit());
    if !(whole && digits) {
        return None;
    }
    match text.get(a.end..b.start)? {
        ", " | " , " => Some(','),
        ". " | " . " => Some('.'),
        _ => None,
    }
}

/// The context's number that the output's `n` is a part of, written apart ([`apart_run`]):
/// `$ 1, 429` of the context's `$1,429`, `2, 500 years` of `2500 years`, `18. 9 to 33. 3` of
/// `18.9 to 33.3`. Only when the context writes the joined number: `eaten 10, 100 - 10` is a
/// list and `in 2019. 3 of them` two sentences, which no context writes as 10,100 or 2019.3.
fn written_apart(out: &[Num], index: &ContextIndex, output: &str, n: &Num) -> Option<String> {
    let k = out.iter().position(|x| std::ptr::eq(x, n))?;
    // The run's first part: at most as far back as a run is long.
    let mut first = k;
    while first > 0
        && k - first + 1 < MAX_APART_PARTS
        && apart_link(output, &out[first - 1], &out[first]).is_some()
    {
        first -= 1;
    }
    let (last, values) = apart_run(out, output, first);
    if last < k {
        return None;
    }
    values.into_iter().find_map(|joined| {
        let slack = joined.abs() * 1e-9;
        index
            .within(joined - slack, joined + slack)
            .find(|c| c.date.is_none() && !c.soft)
            .map(|c| c.text.to_string())
    })
}

/// The numbers the context writes apart ([`apart_run`]; CNN/DailyMail copies: `235, 000
/// times`, `$ 53, 193, 914`, `age 122. 5`), each value with its writing, sorted by value: the
/// scanner reads two or three numbers there. What they support is the one joined value
/// ([`joined_value`]); never an operand of the rules' arithmetic.
fn joined_apart(ctx: &[Num], context: &str) -> Vec<(f64, String)> {
    let mut joined = Vec::new();
    let mut i = 0;
    while i < ctx.len() {
        let (last, values) = apart_run(ctx, context, i);
        let writing = || context[ctx[i].start..ctx[last].end].to_string();
        joined.extend(values.into_iter().map(|v| (v, writing())));
        i = last + 1;
    }
    joined.sort_by(|a, b| a.0.total_cmp(&b.0));
    joined
}

/// The context's two numbers that the space-thousands reading joined (`Just 39 250 GTOs were
/// made`: 39 cars of the 250 GTO model, or 39,250): of two groups, each part is also a number the
/// context states, as written. Three groups or more (`1 234 567`) are one number only.
fn space_parts(ctx: &[Num], n: &Num) -> Option<String> {
    if n.kind != NumberKind::Number || !n.text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    ctx.iter()
        .filter(|c| c.kind == NumberKind::Number && c.date.is_none())
        .find(|c| {
            let mut parts = c.text.split(SPACE_GROUP_SEPARATORS);
            let (Some(head), Some(tail), None) = (parts.next(), parts.next(), parts.next()) else {
                return false;
            };
            [head, tail]
                .iter()
                .all(|p| p.bytes().all(|b| b.is_ascii_digit()))
                && (n.text == head || n.text == tail)
        })
        .map(|c| c.text.to_string())
}

/// The context's writing apart ([`joined_apart`]) of the output's number `n`: the same value,
/// written whole in the output (`235,000` of `235, 000`), never a date.
fn joined_value(joined: &[(f64, String)], n: &Num) -> Option<String> {
    if n.date.is_some() || n.kind == NumberKind::Percent {
        return None;
    }
    let slack = n.value.abs() * 1e-9;
    let first = joined.partition_point(|(v, _)| *v < n.value - slack);
    joined
        .get(first)
        .filter(|(v, _)| *v <= n.value + slack)
        .map(|(_, text)| text.clone())
}

/// The context's date that the output writes with slashes, month and day in either order
/// (`12/4/1956` of "December 4, 1956" or of "12 April 1956"): the scanner reads the parts apart,
/// as it must where the order is unknown. Only a date with the written year (or none) whose
/// month and day are the two parts supports them; the year is checked on its own.
fn slashed_date(ctx: &[Num], output: &str, n: &Num) -> Option<String> {
    // Read no further than a date reaches ("12/" before, "/4/1956" after): a long run of
    // digits and slashes is no date, and is not read again for each of its numbers.
    let slash_or_digit = |b: &u8| b.is_ascii_digit() || *b == b'/';
    let before = output.get(..n.start)?;
    let back = before
        .bytes()
        .rev()
        .take(4)
        .take_while(slash_or_digit)
        .count();
    let ahead = output
        .get(n.end..)?
        .bytes()
        .take(9)
        .take_while(slash_or_digit)
        .count();
    if back > 3 || ahead > 8 {
        return None;
    }
    let (start, end) = (n.start - back, n.end + ahead);
    let parts: Vec<&str> = output.get(start..end)?.split('/').collect();
    let [month_or_day, day_or_month, year] = parts[..] else {
        return None;
    };
    let short = |p: &str| (1..=2).contains(&p.len());
    let at_part = n.start == start || n.start == start + month_or_day.len() + 1;
    if !(short(month_or_day) && short(day_or_month) && year.len() == 4 && at_part) {
        return None;
    }
    let (a, b, y) = (
        month_or_day.parse::<u32>().ok()?,
        day_or_month.parse::<u32>().ok()?,
        year.parse::<u32>().ok()?,
    );
    ctx.iter()
        .find(|c| {
            c.date.is_some_and(|d| {
                let (Some(m), Some(day)) = (d.month, d.day) else {
                    return false;
                };
                ((m, day) == (a, b) || (m, day) == (b, a)) && d.year.is_none_or(|x| x == y)
            })
        })
        .map(|c| c.text.to_string())
}

/// The context's year that the output writes with its last two digits: `in '81` or `in 81'`
/// (an apostrophe for the century; `81's` is a decade, read elsewhere), or a bare `in 93` with
/// no word of what it counts after it (`cast in 93 for the show`, `first appeared in 39`; `in
/// 93 minutes` is no year). Chat and dialogue write years so; only a year the context states
/// supports it.
fn short_year(ctx: &[Num], output: &str, n: &Num) -> Option<String> {
    if n.kind != NumberKind::Number
        || n.text.len() != 2
        || !n.text.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let before = output.get(..n.start)?;
    let after = output.get(n.end..)?;
    let apostrophe = |c: char| matches!(c, '\'' | '’');
    // Nothing of a word right before or after: the number stands apart.
    let free_before = |s: &str| !s.ends_with(|c: char| c.is_alphanumeric());
    let free_after = |s: &str| !s.starts_with(|c: char| c.is_alphanumeric());
    let clipped = before.strip_suffix(apostrophe).is_some_and(free_before)
        || after.strip_prefix(apostrophe).is_some_and(free_after);
    let bare = n.unit.is_empty()
        && before.strip_suffix("in ").is_some_and(free_before)
        && free_after(after);
    if !(clipped || bare) {
        return None;
    }
    let year = |c: &Num| match c.date {
        Some(d) => d.year.map(f64::from),
        None => year_like(c).then_some(c.value),
    };
    ctx.iter()
        .filter(|c| !c.soft)
        .find(|c| year(c).is_some_and(|y| y % 100.0 == n.value))
        .map(|c| c.text.to_string())
}

/// The context's ordinal word for the output's "1st" / "2nd" with the same word after it ("2nd
/// most common" of "second most common"): `first` and `second` are not read as numbers ("at
/// first", "a second"), so the rank the context writes in words supported nothing.
fn ordinal_word(context: &str, output: &str, n: &Num) -> Option<String> {
    let word = match n.text {
        "1" => "first",
        "2" => "second",
        _ => return None,
    };
    let after = output.get(n.end..)?;
    let rest = ["st", "nd"]
        .iter()
        .find_map(|o| after.get(..2).filter(|p| p.eq_ignore_ascii_case(o)))
        .map(|o| &after[o.len()..])?;
    let next = |r: &str| {
        let r = r.strip_prefix(' ')?;
        let w = &r[..r
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(r.len())];
        (!w.is_empty()).then(|| w.to_ascii_lowercase())
    };
    let following = next(rest)?;
    let lower = context.to_ascii_lowercase();
    lower.match_indices(word).find_map(|(at, _)| {
        let bounded = !lower[..at].ends_with(|c: char| c.is_ascii_alphanumeric());
        (bounded && next(&lower[at + word.len()..]).as_deref() == Some(following.as_str()))
            .then(|| context[at..at + word.len() + 1 + following.len()].to_string())
    })
}

/// The context's Roman numerals in names (`World War II`, `Henry VIII`, `Super Bowl XLIX`): the
/// word before each, its value and its writing. What [`roman_in_name`] looks up.
/// A lone `I` before a word may be the pronoun (`Today I ran`, `and I think`): it counts there
/// only after a capitalised word inside its sentence (`a World War I pilot`); elsewhere where no
/// word follows it (`Francis I.`, `World War I,`, `Francis I (1708`).
fn context_numerals(context: &str) -> Vec<(&str, u32, &str)> {
    let mut out = Vec::new();
    // Where the text starts, found once: trimming each space's whole prefix again would make a
    // long run of spaces quadratic.
    let text_start = context.len() - context.trim_start().len();
    for (at, _) in context.match_indices(' ') {
        let name = word_ending(&context[..at]);
        if name.is_empty() {
            continue;
        }
        let rest = &context[at + 1..];
        let len = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let word = &rest[..len];
        let before = &context[..at - name.len()];
        let opens_sentence = before.len() <= text_start
            || before
                .trim_end_matches(' ')
                .ends_with(['.', '!', '?', '\n', '"', '“', '(']);
        let named = name.starts_with(|c: char| c.is_ascii_uppercase()) && !opens_sentence;
        let pronoun = word == "I"
            && !named
            && rest[len..]
                .strip_prefix(' ')
                .is_some_and(|r| r.starts_with(|c: char| c.is_alphabetic()));
        if pronoun {
            continue;
        }
        if let Some(value) = roman_value(word) {
            out.push((name, value, &context[at - name.len()..at + 1 + len]));
        }
    }
    out
}

/// The context's Roman numeral in a name that the output writes in digits: "World War 2" of
/// "World War II", "Henry 8" of "Henry VIII". Only after the same word as in the context.
fn roman_in_name(numerals: &[(&str, u32, &str)], output: &str, n: &Num) -> Option<String> {
    if numerals.is_empty() || !n.text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let name = word_ending(output.get(..n.start)?.strip_suffix(' ')?);
    if name.is_empty() {
        return None;
    }
    numerals
        .iter()
        .find(|(word, value, _)| {
            word.eq_ignore_ascii_case(name) && same(f64::from(*value), n.value)
        })
        .map(|(_, _, writing)| writing.to_string())
}

/// The value of a Roman numeral in capitals written the standard way (`II`, `VIII`, `XLIX`; at
/// most 15 letters): a word written otherwise (`IIII`, `VX`) is none.
fn roman_value(word: &str) -> Option<u32> {
    const DIGITS: [(&str, u32); 13] = [
        ("M", 1000),
        ("CM", 900),
        ("D", 500),
        ("CD", 400),
        ("C", 100),
        ("XC", 90),
        ("L", 50),
        ("XL", 40),
        ("X", 10),
        ("IX", 9),
        ("V", 5),
        ("IV", 4),
        ("I", 1),
    ];
    if word.is_empty() || word.len() > 15 || !word.bytes().all(|b| b"IVXLCDM".contains(&b)) {
        return None;
    }
    let mut rest = word;
    let mut value = 0;
    for (digit, v) in DIGITS {
        while let Some(r) = rest.strip_prefix(digit) {
            rest = r;
            value += v;
        }
    }
    // Written the standard way: the value written back is the word.
    let mut written = String::new();
    let mut left = value;
    for (digit, v) in DIGITS {
        while left >= v {
            written.push_str(digit);
            left -= v;
        }
    }
    (rest.is_empty() && written == word).then_some(value)
}

/// The context's identifiers of a word and digits (`RC-135U`, `SU-27`, `Under-17`, `COVID19`),
/// by their letters and digits lower-cased without the separator ("rc135u"), each with its
/// writing: what [`spaced_identifier`] looks up.
fn context_identifiers(context: &str) -> HashMap<String, String> {
    let mut ids = HashMap::new();
    let bytes = context.as_bytes();
    let alnum = |k: usize| bytes.get(k).is_some_and(u8::is_ascii_alphanumeric);
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphabetic() || (i > 0 && alnum(i - 1)) {
            i += 1;
            continue;
        }
        let start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
        }
        let word_end = i;
        let sep = [&b"-"[..], "–".as_bytes(), b"_"]
            .into_iter()
            .find(|s| bytes[i..].starts_with(s))
            .map_or(0, <[u8]>::len);
        if !bytes.get(i + sep).is_some_and(u8::is_ascii_digit) {
            continue;
        }
        let digits = i + sep;
        i = digits;
        while alnum(i) {
            i += 1;
        }
        let key = format!("{}{}", &context[start..word_end], &context[digits..i]);
        ids.entry(key.to_ascii_lowercase())
            .or_insert_with(|| context[start..i].to_string());
    }
    ids
}

/// Year, month, day as far as written.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct DateParts {
    year: Option<u32>,
    month: Option<u32>,
    day: Option<u32>,
    /// A time of day, in minutes after midnight (14:00, 2pm, 2.30 p.m.): alone, never with
    /// the parts above.
    minute: Option<u32>,
    /// A quarter of a (fiscal) year, 1 to 4 (`Q3`, `third-quarter`, 第三季度): alone, never with
    /// the parts above (its year, when written, is read as a year of its own).
    quarter: Option<u32>,
    /// A season across two years (`2010-11`, `2010–11`, tokenized `2010 - 11`): `year` is its
    /// first year, and no month or day is written.
    season: bool,
}

/// One number found in a text, with its byte range (also read by `audit::deterministic`). Its
/// text is borrowed from the scanned text (no copy per number), so a dense text costs a fixed
/// size per number (docs/audit.md, "Size limits").
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Num<'t> {
    pub(crate) text: &'t str,
    pub(crate) kind: NumberKind,
    pub(crate) value: f64,
    /// Half a unit of the last written digit (scaled): the rounding tolerance.
    pub(crate) half_step: f64,
    date: Option<DateParts>,
    /// The unit written right after the number ("点", "万人" → "人", "people", "$" before it),
    /// as written; compared by [`same_unit`].
    pub(crate) unit: &'t str,
    /// Written as an approximation ("about 12.9 billion", "约870万", "300多").
    pub(crate) hedged: bool,
    /// Which sentence of its text the number is in (counted from 0).
    pub(crate) sentence: u32,
    /// A loose reading (an ordinal, "half", "doubled", 三成, 三分之一): it supports an output
    /// number when it is in the context but is not itself checked when it is in the output.
    pub(crate) soft: bool,
    /// The start of the whole this number is stated as a part of (13 of `19分中有13分`,
    /// 3 of `3 out of 4`): the two are one count, never added.
    pub(crate) part_of: Option<usize>,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Num<'_> {
    /// The quarter of a year this date names (`Q3`, 第三季度), if it is one.
    pub(crate) fn quarter(&self) -> Option<u32> {
        self.date.and_then(|d| d.quarter)
    }

    fn year_only(&self) -> Option<u32> {
        match self.date {
            Some(DateParts {
                year: Some(y),
                month: None,
                day: None,
                minute: None,
                quarter: None,
                season: false,
            }) => Some(y),
            _ => None,
        }
    }
}

pub(crate) fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}

struct ContextIndex<'a> {
    nums: &'a [Num<'a>],
    /// (value, index) of every non-date number and year, sorted by value.
    sorted: Vec<(f64, usize)>,
    /// The first MAX_PAIR_NUMBERS distinct values, for the arithmetic search.
    pool: Vec<usize>,
    /// The pool as (value, index), sorted by value, for the window searches.
    pool_sorted: Vec<(f64, usize)>,
    /// How many pairs of pooled numbers the rules' own search may combine: those stated in one
    /// sentence or two adjacent ones (see [`plausible_derivation`]).
    pairs: f64,
}

impl<'a> ContextIndex<'a> {
    fn new(nums: &'a [Num<'a>]) -> Self {
        // An article's one ("a man", "a year") states only a count of the same thing
        // ([`article_count`]): no value lookup finds it.
        let mut sorted: Vec<(f64, usize)> = nums
            .iter()
            .enumerate()
            .filter(|(_, n)| (n.date.is_none() || n.year_only().is_some()) && !article_one(n))
            .map(|(i, n)| (n.value, i))
            .collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut pool: Vec<usize> = Vec::new();
        for (i, n) in nums.iter().enumerate() {
            if pool.len() >= MAX_PAIR_NUMBERS {
                break;
            }
            // An article's one ("a man", "a year") supports a count of one, but is no operand:
            // every number is one step from its neighbour.
            if (n.date.is_some() && n.year_only().is_none()) || article_one(n) {
                continue;
            }
            if !pool.iter().any(|&j| same(nums[j].value, n.value)) {
                pool.push(i);
            }
        }
        let mut pool_sorted: Vec<(f64, usize)> = pool.iter().map(|&i| (nums[i].value, i)).collect();
        pool_sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut per_sentence: BTreeMap<u32, f64> = BTreeMap::new();
        for &i in &pool {
            *per_sentence.entry(nums[i].sentence).or_default() += 1.0;
        }
        let pairs = per_sentence
            .iter()
            .map(|(s, &k)| {
                let next = per_sentence.get(&(s + 1)).copied().unwrap_or(0.0);
                k * (k - 1.0) / 2.0 + k * next
            })
            .sum();
        Self {
            nums,
            sorted,
            pool,
            pool_sorted,
            pairs,
        }
    }

    /// Context numbers whose value lies within [lo, hi].
    fn within(&self, lo: f64, hi: f64) -> impl Iterator<Item = &'a Num<'a>> + '_ {
        let first = self.sorted.partition_point(|(v, _)| *v < lo);
        self.sorted[first..]
            .iter()
            .take_while(move |(v, _)| *v <= hi)
            .map(|&(_, i)| &self.nums[i])
    }

    fn ground(&self, n: &Num) -> Grounding {
        if self.nums.iter().any(|c| c.text == n.text) {
            return Grounding::Verbatim;
        }
        if let Some(d) = n.date {
            return self.ground_date(n, d);
        }
        // A bare year ("in 2013", "(1708-1765)") is the year of a full date of the context
        // ("28 June 2013", "8 December 1708").
        if year_like(n) {
            if let Some(c) = self.nums.iter().find(|c| {
                c.date
                    .is_some_and(|d| d.year.is_some_and(|y| same(f64::from(y), n.value)))
            }) {
                return Grounding::Notation {
                    source: c.text.to_string(),
                };
            }
        }
        let tol = 1e-9 * n.value.abs().max(1e-12);
        if let Some(c) = self.within(n.value - tol, n.value + tol).next() {
            return Grounding::Notation {
                source: c.text.to_string(),
            };
        }
        // "0.5 points" of a rate is "0.5 percentage points" (and the other way round).
        let points = |x: &Num| unit_key(x.unit) == "point" || x.text.ends_with("points");
        let as_points = match n.kind {
            NumberKind::Number if points(n) => Some((n.value / 100.0, NumberKind::Percent)),
            NumberKind::Percent if n.text.contains("point") => {
                Some((n.value * 100.0, NumberKind::Number))
            }
            _ => None,
        };
        if let Some((v, kind)) = as_points {
            if let Some(c) = self.nums.iter().find(|c| {
                c.kind == kind
                    && same(c.value, v)
                    && (kind == NumberKind::Number && points(c)
                        || kind == NumberKind::Percent && c.text.contains("point"))
            }) {
                return Grounding::Notation {
                    source: c.text.to_string(),
                };
            }
        }
        // The closest context value inside the output's rounding interval; for a range ("20多人",
        // 20 to 30) one of the same unit only: the range is wide, and 181个国家 is not
        // "100多个重点区域".
        let range = n.text.ends_with(['多', '余']);
        if let Some(c) = self
            .within(n.value - n.half_step, n.value + n.half_step)
            .filter(|c| !range || same_unit(c, n))
            .min_by(|a, b| {
                (a.value - n.value)
                    .abs()
                    .total_cmp(&(b.value - n.value).abs())
            })
        {
            return Grounding::Rounded {
                source: c.text.to_string(),
            };
        }
        if let Some(g) = self.derive(n) {
            return g;
        }
        // Two more readings, found only as steps of two context numbers: "增长2倍" may be
        // the 200 % rise of 100 to 300 (a ratio of 3 is read above), and "4 points" of a rate
        // the difference of 7.5 % and 3.5 %.
        let growth = n.kind == NumberKind::Number && unit_key(n.unit) == "倍";
        let rate_points = n.kind == NumberKind::Number && points(n);
        if growth || rate_points {
            let scale = if growth { 1.0 } else { 0.01 };
            let as_percent = Num {
                kind: NumberKind::Percent,
                value: n.value * scale,
                half_step: n.half_step * scale,
                unit: "",
                ..*n
            };
            // Only the step each reading means: a rise in percent of two amounts, or the
            // difference of two rates ("100 points" is no percent change of 10 to 20).
            let meant = if growth {
                Operation::PercentChange
            } else {
                Operation::Difference
            };
            if let Some(g @ Grounding::Derived { operation, .. }) = self.derive(&as_percent) {
                if operation == meant {
                    return g;
                }
            }
        }
        Grounding::NotFound
    }

    fn ground_date(&self, n: &Num, d: DateParts) -> Grounding {
        // A time of day is the same time in any notation (14:00 = 2pm), and exact; one written
        // without am/pm before 13:00 may be either half of the day (10:00 / 10:00 p.m.).
        if let Some(t) = d.minute {
            let meridiem = |x: &Num| x.text.bytes().any(|b| b.eq_ignore_ascii_case(&b'm'));
            let same_time = |c: &Num, ct: u32| {
                ct == t
                    || ((!meridiem(c) && ct < 780 || !meridiem(n) && t < 780)
                        && ct % 720 == t % 720)
            };
            return self
                .nums
                .iter()
                .find(|c| {
                    c.date
                        .and_then(|cd| cd.minute)
                        .is_some_and(|ct| same_time(c, ct))
                })
                .map_or(Grounding::NotFound, |c| Grounding::Notation {
                    source: c.text.to_string(),
                });
        }
        // A quarter is the same quarter named by the context, in any notation (Q3, 3Q, third
        // quarter, 第三季度): no other date or number states it.
        if let Some(q) = d.quarter {
            return self
                .nums
                .iter()
                .find(|c| c.date.and_then(|cd| cd.quarter) == Some(q))
                .map_or(Grounding::NotFound, |c| Grounding::Notation {
                    source: c.text.to_string(),
                });
        }
        // A season is the same season in the context, in any writing (2010-11, 2010–11,
        // 2010/11), or its two years written as a range (2010-2011, 2010 to 2011): no single
        // year or month states it.
        if d.season {
            let same_season = |c: &&Num| {
                c.date
                    .is_some_and(|cd| cd.season && cd.year == d.year && cd.year.is_some())
            };
            let year = |n: &Num| {
                n.year_only()
                    .or_else(|| year_like(n).then_some(n.value as u32))
            };
            let range = || {
                self.nums.windows(2).find_map(|w| {
                    let fits = year(&w[0]).is_some_and(|a| Some(a) == d.year)
                        && year(&w[1]).is_some_and(|b| Some(b) == d.year.map(|y| y + 1))
                        && w[1].start.saturating_sub(w[0].end) <= 4;
                    fits.then_some(&w[0])
                })
            };
            return self.nums.iter().find(same_season).or_else(range).map_or(
                Grounding::NotFound,
                |c| Grounding::Notation {
                    source: c.text.to_string(),
                },
            );
        }
        // A part the context's date leaves out is the one the context states elsewhere (a
        // dateline's year or month): "2015年7月5日" is "7月5日电" of a text that says 2015年,
        // "4月17日" is "17日" of a text dated 4月12日. The most precise part written must match.
        let stated = |of: fn(&DateParts) -> Option<u32>, year: bool, v: u32| {
            self.nums.iter().any(|c| {
                c.date.as_ref().and_then(of) == Some(v)
                    || (year && year_like(c) && same(c.value, f64::from(v)))
            })
        };
        let fits = |c: &DateParts| {
            let part = |o: Option<u32>, c: Option<u32>, of: fn(&DateParts) -> Option<u32>, y| {
                o.is_none() || o == c || (c.is_none() && o.is_some_and(|v| stated(of, y, v)))
            };
            let finest = if d.day.is_some() {
                d.day == c.day
            } else if d.month.is_some() {
                d.month == c.month
            } else {
                d.year == c.year
            };
            finest
                && part(d.year, c.year, |x| x.year, true)
                && part(d.month, c.month, |x| x.month, false)
                && part(d.day, c.day, |x| x.day, false)
        };
        for c in self.nums {
            let matched = match (c.date, d) {
                (Some(cd), _) => fits(&cd),
                // A year in the output is grounded by the same plain number in the context.
                (
                    None,
                    DateParts {
                        year: Some(y),
                        month: None,
                        day: None,
                        minute: None,
                        quarter: None,
                        season: false,
                    },
                ) => c.kind == NumberKind::Number && same(c.value, f64::from(y)),
                _ => false,
            };
            if matched {
                return Grounding::Notation {
                    source: c.text.to_string(),
                };
            }
        }
        match n.year_only() {
            // A year can be a difference ("5 years later"): search like a number.
            Some(_) => self.derive(n).unwrap_or(Grounding::NotFound),
            None => Grounding::NotFound,
        }
    }

    /// Pooled context numbers whose value lies within [lo, hi], in pool order.
    fn pooled_within(&self, lo: f64, hi: f64) -> impl Iterator<Item = &'a Num<'a>> + '_ {
        let first = self.pool_sorted.partition_point(|(v, _)| *v < lo);
        self.pool_sorted[first..]
            .iter()
            .take_while(move |(v, _)| *v <= hi)
            .map(|&(_, i)| &self.nums[i])
    }

    /// Whether the rules' own search takes the step `op` from the context numbers `a` and `b`
    /// to the output number `n`: a plausible derivation ([`plausible_derivation`]) that chance
    /// would rarely find. Some step from two numbers of a dense context lands near almost any
    /// coarse value; on the real labelled sets (TRUE's FRANK, QAGS-XSum, SummEval and DialFact,
    /// and SummEdits) nine in ten of the steps this search found were in outputs judged
    /// unfaithful, most of them such hits: `1` = 16 − 15 ("formula 1"), `nine` = 28 − 19, `46
    /// runs` = 5 + 41, `1 billion` = 441 million + 437 million, `28` = 1,000 / 36. So a step
    /// counts only when the pairs the search may combine ([`ContextIndex::pairs`]), times the
    /// share of their results that would land in the output's window ([`chance_share`]), stay
    /// at most [`MAX_CHANCE_HITS`]: "rose from 3.7% to 4.1%" → "0.4 points" (one pair) counts,
    /// as does 0.59 % = (238.55 − 237.14) / 237.14 in a dense price report.
    fn takes(&self, op: Operation, a: &Num, b: &Num, n: &Num) -> bool {
        plausible_derivation(op, a, b, n, Vouch::Chance)
            && self.pairs * chance_share(op, a, b, n) <= MAX_CHANCE_HITS
    }

    /// One arithmetic step between two pooled context numbers, within the output's precision.
    /// Sums and differences give a percentage only from percentages and a plain number only from
    /// plain numbers (or years, for elapsed time); ratios and percent changes only combine plain
    /// numbers (a ratio also two percentages), never years: "35 %" = 1470 / 4200, but 4200 / 70 %
    /// means nothing.
    ///
    /// Not a loop over all pairs: for each pooled `a`, the `b` that would hit the target lies in a
    /// window (b ≈ t − a, a ± t, a·t, a / t, a·(1 ± t), a / (1 ± t)) found by binary search, so
    /// one output number costs O(pool · log pool), ~200 × 8 window probes.
    fn derive(&self, n: &Num) -> Option<Grounding> {
        // A tenth (五成) spans ten points: some step from two numbers of a dense text lands
        // in it by chance ((6 − 4) / 4 of a 6：4 ratio "is" 五成). Only a context figure it
        // rounds supports it.
        if n.text.ends_with('成') {
            return None;
        }
        let t = n.value.abs();
        // Strictly inside the output's precision: 598 − 565.5 = 32.5 is not "32".
        let half = precision(n);
        let slack = |v: f64| v.abs() * 1e-12;
        let out_percent = n.kind == NumberKind::Percent;
        let out_year = n.year_only().is_some();
        let out_year_like = year_like(n);
        let plain = |x: &Num| matches!(x.kind, NumberKind::Number | NumberKind::Quantity);
        let other = |a: &Num, b: &Num| !std::ptr::eq(a, b);
        for &ai in &self.pool {
            let a = &self.nums[ai];
            let a_year = a.date.is_some();
            // 100 % − p: "the other 30 %" from "70 %".
            if out_percent
                && a.kind == NumberKind::Percent
                && ((1.0 - a.value).abs() - t).abs() <= half
            {
                return Some(derived(Operation::Difference, format!("100% − {}", a.text)));
            }
            let additive = |b: &Num| {
                if out_percent {
                    a.kind == NumberKind::Percent && b.kind == NumberKind::Percent
                } else {
                    plain(a) && plain(b)
                }
            };
            // A year and a number of years (the rest decided by `plausible_derivation`).
            let year_and_years = |b: &Num| out_year_like && year_like(a) != year_like(b);
            // a + b = t
            let (lo, hi) = (t - a.value - half, t - a.value + half);
            if let Some(b) = self
                .pooled_within(lo - slack(lo), hi + slack(hi))
                .find(|b| {
                    other(a, b)
                        && (additive(b) || year_and_years(b))
                        && self.takes(Operation::Sum, a, b, n)
                })
            {
                return Some(derived(Operation::Sum, format!("{} + {}", a.text, b.text)));
            }
            // |a − b| = t, years too ("5 years later")
            for centre in [a.value - t, a.value + t] {
                let (lo, hi) = (centre - half, centre + half);
                let fits = |b: &Num| {
                    other(a, b)
                        && (additive(b)
                            || (a_year && b.date.is_some() && !out_percent)
                            || year_and_years(b))
                        && self.takes(Operation::Difference, a, b, n)
                };
                if let Some(b) = self
                    .pooled_within(lo - slack(lo), hi + slack(hi))
                    .find(|b| fits(b))
                {
                    let (big, small) = if a.value >= b.value { (a, b) } else { (b, a) };
                    return Some(derived(
                        Operation::Difference,
                        format!("{} − {}", big.text, small.text),
                    ));
                }
            }
            if out_year || a_year || a.value == 0.0 {
                continue;
            }
            let ratio_ok = |b: &Num| {
                other(a, b)
                    && b.date.is_none()
                    && ((plain(a) && plain(b))
                        || (a.kind == NumberKind::Percent && b.kind == NumberKind::Percent))
            };
            // b / a = r  ⇔  b ∈ [a(r − half), a(r + half)];  a / b = r  ⇔  b ∈ [a/(r + half), a/(r − half)]
            let by = |r: f64| (a.value * (r - half), a.value * (r + half));
            // Empty (lo > hi) when no positive b fits: r + half ≤ 0.
            let over = |r: f64| {
                if r + half <= 0.0 {
                    return (1.0, 0.0);
                }
                let top = if r - half > 0.0 {
                    a.value / (r - half)
                } else {
                    f64::INFINITY
                };
                (a.value / (r + half), top)
            };
            let find = |(lo, hi): (f64, f64), ok: &dyn Fn(&Num) -> bool| {
                self.pooled_within(lo - slack(lo), hi + slack(hi))
                    .find(|b| ok(b))
            };
            let ratio_ok = |b: &Num| ratio_ok(b) && self.takes(Operation::Ratio, a, b, n);
            if let Some(b) = find(by(t), &ratio_ok) {
                return Some(derived(
                    Operation::Ratio,
                    format!("{} / {}", b.text, a.text),
                ));
            }
            if let Some(b) = find(over(t), &ratio_ok) {
                return Some(derived(
                    Operation::Ratio,
                    format!("{} / {}", a.text, b.text),
                ));
            }
            // Percent change |x − y| / y = t  ⇔  x / y = 1 ± t.
            let plains = |b: &Num| {
                ratio_ok(b) && plain(a) && plain(b) && self.takes(Operation::PercentChange, a, b, n)
            };
            for r in [1.0 + t, 1.0 - t] {
                if let Some(b) = find(by(r), &plains) {
                    return Some(derived(
                        Operation::PercentChange,
                        format!("({} − {}) / {}", b.text, a.text, a.text),
                    ));
                }
                if let Some(b) = find(over(r), &plains) {
                    return Some(derived(
                        Operation::PercentChange,
                        format!("({} − {}) / {}", a.text, b.text, b.text),
                    ));
                }
            }
        }
        None
    }
}

/// Whether one arithmetic step from the context numbers `a` and `b` is a plausible source of
/// the output number `out`. The one decision of what a derivation may combine (kinds, units,
/// years), for the rules' own search ([`Vouch::Chance`]) and for a derivation a model names that
/// the rules recompute ([`Vouch::Named`]); its precision is [`precision`].
///
/// A dense context makes some step from two of its numbers land near almost any value, so a
/// step counts only between numbers of one kind and unit that give a result of that kind and
/// unit (and, for the rules alone, stated together: in one sentence or two adjacent ones):
/// - a sum or difference: `a`, `b` and `out` of one kind and one unit, none of them a year,
///   and (for the rules alone) never a part added to the whole it is stated as a part of;
///   except the difference of two years, an elapsed time (a bare number or years; for the rules
///   alone written in years), and a year plus or minus a number of years (2015 − 150周年 =
///   1865; never 2005 + 11 goals);
/// - a ratio: `a` and `b` of one kind and unit, none a year, giving a percentage or a bare
///   number (never an amount with a unit: 3 % / 0.12 % is not 25 yuan);
/// - a percent change: two amounts of one unit, no year, giving a percentage;
/// - a product (named only): two amounts, or a percentage of an amount giving an amount of its
///   unit, no year.
///
/// A named step may combine counts of different things (the operands' units are read in the
/// context, not in the model's explanation), never money with anything else, into a number
/// written without a unit: the target is read alone, so its unit is compared only when written.
pub(crate) fn plausible_derivation(
    op: Operation,
    a: &Num,
    b: &Num,
    out: &Num,
    vouch: Vouch,
) -> bool {
    let named = vouch == Vouch::Named;
    if !named && a.sentence.abs_diff(b.sentence) > 1 {
        return false;
    }
    // A loose reading in words (a rank, a fraction or a multiple: `sixth`, `a third`,
    // `doubled`) is no count the rules' own search adds or divides: `37 + sixth` and `A third /
    // Half` land on 43 and 67 % by chance. (`100% − a third` is the complement, taken apart;
    // the parts of a ratio in digits, `10:45`, still add up to its whole.)
    let loose_word = |x: &Num| x.soft && !x.text.starts_with(|c: char| c.is_ascii_digit());
    if !named && (loose_word(a) || loose_word(b)) {
        return false;
    }
    // A sum or difference that moves one operand by under 1 % lands near that number whatever
    // it is (a dense price report holds changes of 0.12, 0.2, 1.85 beside prices of 273.48 and
    // 234.65): by chance it is that number slightly changed, which the precision rule judges
    // (`audit::deterministic`), not a derivation. A model may still name it (recomputed).
    // A part and the whole it is stated as a part of ("19分中有13分", "3 out of 4") are one
    // count: their sum counts the part twice (the rest, their difference, is a step).
    let parted = |x: &Num, y: &Num| x.part_of == Some(y.start);
    if !named && op == Operation::Sum && (parted(a, b) || parted(b, a)) {
        return false;
    }
    let tiny = |x: &Num, y: &Num| x.value.abs() < 0.01 * y.value.abs();
    if !named && matches!(op, Operation::Sum | Operation::Difference) && (tiny(a, b) || tiny(b, a))
    {
        return false;
    }
    let class = |x: &Num| match x.kind {
        NumberKind::Percent => 0u8,
        NumberKind::Number | NumberKind::Quantity => 1,
        NumberKind::Date => 2,
    };
    let years = [a, b, out].iter().filter(|x| year_like(x)).count();
    let one_kind = class(a) == class(b) && class(a) != 2;
    let money = |x: &Num| ["$", "£", "€", "元"].contains(&unit_key(x.unit).as_str());
    let out_bare = unit_key(out.unit).is_empty();
    let one_unit =
        same_unit(a, b) || (named && class(a) == 1 && !money(a) && !money(b) && out_bare);
    let out_unit = |x: &Num| same_unit(x, out) || (named && out_bare);
    // A bare English operand fits any unit, so the two written units of a step may still be
    // two measures: "35" and "five months" would make "30 years". The rules' own search takes
    // no step between two different measures of [`MEASURE_UNITS`].
    if !named {
        let mut measures = [a, b, out]
            .into_iter()
            .filter(|x| !x.unit.is_empty())
            .filter_map(|x| {
                let key = unit_key(x.unit);
                MEASURE_UNITS.iter().copied().find(|m| *m == key)
            });
        if let Some(first) = measures.next() {
            if measures.any(|m| m != first) {
                return false;
            }
        }
    }
    let bare = |x: &Num| x.kind == NumberKind::Percent || unit_key(x.unit).is_empty();
    // A number of years: bare, or written with years (年, 周年, years).
    let in_years = |x: &Num| {
        x.kind == NumberKind::Number
            && !year_like(x)
            && ["", "year", "年", "周"].contains(&unit_key(x.unit).as_str())
    };
    match op {
        // A year and a number of years: "诞辰150周年" of 2015 is 1865.
        Operation::Sum | Operation::Difference if year_like(out) => {
            years == 2 && (in_years(a) || in_years(b))
        }
        Operation::Sum => {
            years == 0 && one_kind && class(out) == class(a) && one_unit && out_unit(a)
        }
        Operation::Difference => {
            if year_like(a) || year_like(b) {
                // For the rules alone, an elapsed time written as one ("five years", 11年),
                // never a bare count: "only two were made between 1962 and 1964".
                let written_in_years =
                    !unit_key(out.unit).is_empty() || out.text.contains(['年', '周']);
                year_like(a) && year_like(b) && in_years(out) && (named || written_in_years)
            } else {
                years == 0 && one_kind && class(out) == class(a) && one_unit && out_unit(a)
            }
        }
        // A ratio is a bare number or a multiple (300 / 100 is "3", "3倍", "3 times").
        Operation::Ratio => {
            years == 0 && one_kind && one_unit && (bare(out) || multiple(out)) && class(out) != 2
        }
        // The rules' own search reads a change only between two figures in digits (`4,200
        // units` to `5,400`, `3.9` to `4.2 billion`): statistics are written so, and "the last
        // eight" and "four separate occasions" make no "100%".
        Operation::PercentChange => {
            let figures = || {
                [a, b]
                    .iter()
                    .all(|x| x.text.starts_with(|c: char| !c.is_alphabetic()))
            };
            years == 0
                && one_kind
                && class(a) == 1
                && one_unit
                && out.kind == NumberKind::Percent
                && (named || figures())
        }
        Operation::Product => {
            named
                && years == 0
                && class(out) == 1
                && match (class(a), class(b)) {
                    (1, 1) => !(money(a) && money(b)),
                    (0, 1) => out_unit(b),
                    (1, 0) => out_unit(a),
                    _ => false,
                }
        }
    }
}

/// At most this many chance hits expected for a step the rules' own search takes
/// ([`ContextIndex::takes`]).
const MAX_CHANCE_HITS: f64 = 0.5;

/// Over how many powers of e the ratios of a text's numbers spread (two orders of magnitude).
const RATIO_SPREAD: f64 = 4.6;

/// The share of the results of one step from a pair of context numbers that lands in the
/// window of the output number `out` (twice its half step): for a sum or difference, results
/// spread over the larger operand; for a ratio or percent change, over [`RATIO_SPREAD`] around
/// the result. The difference of two years, an elapsed time written in years
/// ([`plausible_derivation`]), is read whatever the text's density.
fn chance_share(op: Operation, a: &Num, b: &Num, out: &Num) -> f64 {
    let window = 2.0 * out.half_step.abs();
    match op {
        Operation::Difference if year_like(a) && year_like(b) && !year_like(out) => 0.0,
        Operation::Sum | Operation::Difference => window / a.value.abs().max(b.value.abs()),
        Operation::Ratio | Operation::PercentChange | Operation::Product => {
            window / (out.value.abs() * RATIO_SPREAD)
        }
    }
}

/// English units of time, length and weight (as [`unit_key`] spells them): two different ones
/// are two measures, which one step of the rules' own search never joins.
const MEASURE_UNITS: [&str; 19] = [
    "second",
    "minute",
    "hour",
    "day",
    "week",
    "month",
    "year",
    "decade",
    "mile",
    "km",
    "kilometre",
    "kilometer",
    "metre",
    "meter",
    "feet",
    "foot",
    "inche",
    "kg",
    "tonne",
];

/// Whether `n` is a measure of time, length or weight ([`MEASURE_UNITS`]): its next word, past
/// spaces and dashes, is one ("two years", "a six-year-old", tokenized "two - year deal").
pub(crate) fn measured(text: &str, n: &Num) -> bool {
    measure_follows(text.get(n.end..).unwrap_or(""))
}

/// Whether `after` starts, past spaces and dashes, with a measure of [`MEASURE_UNITS`].
fn measure_follows(after: &str) -> bool {
    measure_end(after).is_some()
}

/// The byte length of `after` up to the end of the measure it starts with ([`measure_follows`]).
fn measure_end(after: &str) -> Option<usize> {
    let rest = after.trim_start_matches([' ', '-', '\u{a0}']);
    let gap = after.len() - rest.len();
    let len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let key = unit_key(&rest[..len]);
    (gap <= 3 && MEASURE_UNITS.contains(&key.as_str())).then_some(gap + len)
}

/// Nouns of one person, for a count of one ("one person", "a man"): a casualty, arrest or
/// victim count that a summary states and the context must.
const PERSON_NOUNS: [&str; 16] = [
    "person",
    "man",
    "woman",
    "child",
    "boy",
    "girl",
    "baby",
    "teenager",
    "officer",
    "soldier",
    "passenger",
    "pedestrian",
    "driver",
    "victim",
    "suspect",
    "civilian",
];

/// The byte length of `after` (the text after "one" or "a") up to the end of the person it
/// names: past a space and at most `modifiers` words ("a 23-year-old man", "a police
/// officer"), a [`PERSON_NOUNS`] word that "of" does not follow ("one man of the people" is
/// no count).
fn person_end(after: &str, modifiers: usize) -> Option<usize> {
    let rest = after.strip_prefix(' ')?;
    let mut words = rest.split(' ');
    let mut end = 1;
    for _ in 0..=modifiers {
        let w = words.next()?;
        let bare = w.trim_end_matches([',', '.', ';', ':', '!', '?', '\'']);
        if PERSON_NOUNS.iter().any(|p| p.eq_ignore_ascii_case(bare)) {
            let counted = bare.len() < w.len() || words.next() != Some("of");
            return counted.then_some(end + bare.len());
        }
        if bare.is_empty() || !bare.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return None;
        }
        end += w.len() + 1;
    }
    None
}

/// What a count of one counts: a measure (by its unit key) or a person.
#[derive(PartialEq)]
enum OneOf {
    Measure(String),
    Person,
}

/// What the count of one before `after` counts ("-year deal", " person"), past at most
/// `modifiers` words for a person, and the byte length of `after` up to its noun. The one
/// decision of what "one", "a" and "an" count, for the scanner and for [`article_count`].
fn one_of(after: &str, modifiers: usize) -> Option<(OneOf, usize)> {
    if let Some(len) = measure_end(after) {
        let word = after[..len].trim_start_matches([' ', '-', '\u{a0}']);
        return Some((OneOf::Measure(unit_key(word)), len));
    }
    person_end(after, modifiers).map(|len| (OneOf::Person, len))
}

/// The context's article that states the output's count of one: the same measure ("a year"
/// of "one year", "1 year"), or a person for a person ("a man" of "one person"). "a man" is
/// no "one-year deal".
fn article_count(ctx: &[Num], output: &str, n: &Num) -> Option<String> {
    if n.value != 1.0 || n.kind != NumberKind::Number {
        return None;
    }
    let (counted, _) = one_of(output.get(n.end..)?, 0)?;
    ctx.iter()
        .filter(|c| article_one(c))
        .find(|c| {
            let noun = c.text.find(' ').map_or("", |i| &c.text[i..]);
            one_of(noun, 2).is_some_and(|(kind, _)| kind == counted)
        })
        .map(|c| c.text.to_string())
}

/// The context's ones that only a rank or a part of a count states, as written: "number one"
/// (or "number-one") and "one of two" (a count after it). The scanner leaves "one" alone ("one
/// of the best", "no one"), so these support only a `1` the output writes the same way
/// ([`one_as_written`]).
#[derive(Default)]
struct ContextOnes<'c> {
    rank: Option<&'c str>,
    of_count: Option<&'c str>,
}

fn context_ones(context: &str) -> ContextOnes<'_> {
    let mut ones = ContextOnes::default();
    let word_char = |c: char| c.is_ascii_alphanumeric();
    for (at, _) in context
        .match_indices("one")
        .chain(context.match_indices("One"))
    {
        let before = &context[..at];
        let after = &context[at + 3..];
        if before.ends_with(word_char) || after.starts_with(word_char) {
            continue;
        }
        let spaced = before.trim_end_matches([' ', '-']);
        if ones.rank.is_none() && word_ending(spaced).eq_ignore_ascii_case("number") {
            ones.rank = Some(&context[spaced.len() - "number".len()..at + 3]);
        }
        if ones.of_count.is_none() {
            if let Some(count) = after.strip_prefix(" of ").and_then(count_word) {
                ones.of_count = Some(&context[at..at + 3 + " of ".len() + count]);
            }
        }
        if ones.rank.is_some() && ones.of_count.is_some() {
            break;
        }
    }
    ones
}

/// The byte length of the count `text` starts with, in digits or an English cardinal ("two
/// inmates", "3 states").
fn count_word(text: &str) -> Option<usize> {
    let word = text.split(|c: char| !c.is_ascii_alphanumeric()).next()?;
    let digits = !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit());
    (digits || en_cardinal(&word.to_ascii_lowercase()).is_some()).then_some(word.len())
}

/// The context's "number one" for the output's rank `number 1` (`No. 1`, `#1`), its "one of
/// two" for `1 of 2`: the same one, in digits.
fn one_as_written(ones: &ContextOnes, output: &str, n: &Num) -> Option<String> {
    if n.text != "1" {
        return None;
    }
    let before = output.get(..n.start)?.trim_end_matches([' ', '-']);
    let rank = before.ends_with('#')
        || ["number", "no"].contains(&word_ending(before).to_ascii_lowercase().as_str())
        || before.to_ascii_lowercase().ends_with("no.");
    if rank {
        return ones.rank.map(str::to_string);
    }
    let of_count = output
        .get(n.end..)?
        .strip_prefix(" of ")
        .is_some_and(|r| count_word(r).is_some());
    of_count.then_some(ones.of_count?).map(str::to_string)
}

/// Whether `n` is the soft one an article states ("a year", "a 23-year-old man": see
/// `Scanner::number_word`).
fn article_one(n: &Num) -> bool {
    n.soft
        && n.value == 1.0
        && n.text
            .split(' ')
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("a") || w.eq_ignore_ascii_case("an"))
}

/// Whether `n` is written as a multiple: 3倍, 3 times, threefold.
fn multiple(n: &Num) -> bool {
    n.kind == NumberKind::Number && ["倍", "time", "fold"].contains(&unit_key(n.unit).as_str())
}

fn derived(operation: Operation, source: String) -> Grounding {
    Grounding::Derived { operation, source }
}

// ---------------------------------------------------------------------------------------------
// The scanner: one pass over the characters, no regex engine (the app ships none).

const CN_DIGITS: [(char, u32); 12] = [
    ('零', 0),
    ('〇', 0),
    ('一', 1),
    ('二', 2),
    ('两', 2),
    ('三', 3),
    ('四', 4),
    ('五', 5),
    ('六', 6),
    ('七', 7),
    ('八', 8),
    ('九', 9),
];
const CN_UNITS: [(char, f64); 5] = [
    ('十', 10.0),
    ('百', 100.0),
    ('千', 1e3),
    ('万', 1e4),
    ('亿', 1e8),
];

fn cn_digit(c: char) -> Option<u32> {
    CN_DIGITS.iter().find(|(d, _)| *d == c).map(|&(_, v)| v)
}

fn cn_unit(c: char) -> Option<f64> {
    CN_UNITS.iter().find(|(u, _)| *u == c).map(|&(_, v)| v)
}

/// The zeros of the decimal digits read as ASCII ones: ASCII, full-width (１２３．５ is 123.5),
/// Arabic-Indic and Extended, N'Ko, the Indic scripts, Thai, Lao, Tibetan, Myanmar, Khmer,
/// Mongolian, and the five mathematical alphabets (𝟓𝟎𝟎): a number in any of them is one a
/// reader sees, so it is checked (each is ten consecutive code points, Unicode's `Nd`).
const DIGIT_ZEROS: [u32; 25] = [
    0x30, 0xFF10, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6,
    0xD66, 0xE50, 0xED0, 0xF20, 0x1040, 0x17E0, 0x1810, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC,
    0x1D7F6,
];

fn decimal_digit(c: char) -> Option<u32> {
    let c = c as u32;
    DIGIT_ZEROS
        .iter()
        .find(|&&zero| (zero..zero + 10).contains(&c))
        .map(|zero| c - zero)
}

fn is_point(c: char) -> bool {
    c == '.' || c == '．'
}

/// Chinese scale words after digits (4200万, 1.2亿, 3百万); longest first. 千米/千克 are units
/// (km, kg), not thousands, so 千 followed by them is not a scale.
const CN_SCALES: [(&str, f64); 8] = [
    ("万亿", 1e12),
    ("千万", 1e7),
    ("百万", 1e6),
    ("十万", 1e5),
    ("亿", 1e8),
    ("万", 1e4),
    ("千", 1e3),
    ("百", 1e2),
];
/// With the Indian lakh (10⁵) and crore (10⁷): `Rs 500 crore` is 5 billion rupees, `1.5 lakh
/// crore` 1.5 × 10¹².
const EN_SCALES: [(&str, f64); 7] = [
    ("hundred", 1e2),
    ("thousand", 1e3),
    ("lakh", 1e5),
    ("crore", 1e7),
    ("million", 1e6),
    ("billion", 1e9),
    ("trillion", 1e12),
];
/// After a digit, 成 starting one of these is a word, not a tenth: 五成员国 ("five member
/// states"), 七成熟 ("medium well"), 三成份股.
const TENTH_WORD_STARTS: [char; 8] = ['员', '熟', '都', '份', '分', '果', '绩', '就'];

/// Currency signs written before an amount (`$5`, `£30m`, `₹500`): the unit of the amount, and
/// no word between a hedge or a bound and its number.
pub(crate) const CURRENCY_SIGNS: [char; 6] = ['$', '£', '€', '¥', '￥', '₹'];

/// Whether the text after a digit (2 to 9) makes it a tenth to check: 成, not a word 成 starts.
fn checked_tenth(after_digit: &str) -> bool {
    after_digit
        .strip_prefix('成')
        .is_some_and(|after| !after.starts_with(TENTH_WORD_STARTS))
}
/// Abbreviated scales also written after a space ("$450 mln", "3.5 bln", "$5 bn").
const SPACED_ABBREVIATIONS: [(&str, f64); 6] = [
    ("mln", 1e6),
    ("mn", 1e6),
    ("bln", 1e9),
    ("bn", 1e9),
    ("trln", 1e12),
    ("tn", 1e12),
];
/// Words a dash joins to a number in a compound ("innings-and-39-run", "mid-1980s", "top-10"):
/// the number is read, where a word glued to digits is an identifier (COVID-19, SU-27).
const NUMBER_JOINERS: [&str; 14] = [
    "and", "of", "to", "than", "by", "per", "in", "for", "mid", "early", "late", "top", "pre",
    "post",
];
/// Currency codes written glued to an amount (USD500 million).
const CURRENCY_CODES: [&str; 20] = [
    "USD", "US", "GBP", "EUR", "RMB", "CNY", "JPY", "HKD", "INR", "Rs", "AUD", "CAD", "CHF", "SGD",
    "NZD", "KRW", "RUB", "BRL", "ZAR", "NTD",
];
/// Attached abbreviations: 1.2k, 3M, 5bn, 2mn, 4B, $1.2tn.
const EN_ABBREVIATIONS: [(&str, f64); 9] = [
    ("bn", 1e9),
    ("bln", 1e9),
    ("mn", 1e6),
    ("mln", 1e6),
    ("tn", 1e12),
    ("k", 1e3),
    ("K", 1e3),
    ("M", 1e6),
    ("B", 1e9),
];
/// Percentage points in Chinese, after a number (5个百分点, 两个百分点).
const CN_PERCENT_POINTS: [&str; 2] = ["个百分点", "百分点"];
/// Percent signs written after a number (35%, 35％).
const PERCENT_SIGNS: [&str; 2] = ["%", "％"];
/// The spaces that set groups of three digits apart (`1 234 567`, a no-break or a narrow one):
/// what the scanner joins and [`space_parts`] splits.
const SPACE_GROUP_SEPARATORS: [char; 4] = [' ', '\u{a0}', '\u{202f}', '\u{2009}'];
/// Units of measure a decimal in Chinese numerals is written before (七点八级, 三点五米, 一点二倍,
/// 三点五美元): what makes X点Y a number rather than a time of day or a word.
const CN_DECIMAL_UNITS: [&str; 16] = [
    "级", "倍", "米", "度", "吨", "元", "岁", "公里", "公斤", "公顷", "千米", "千克", "克", "秒",
    "美元", "港元",
];
/// Measure words after a Chinese numeral that make it a count (三个, 五名, 两倍, 十人).
const CN_COUNTED: [&str; 18] = [
    "个", "名", "位", "家", "项", "只", "条", "种", "次", "年", "天", "周", "倍", "人", "届", "场",
    "轮", "份",
];
const PERCENT_WORDS: [&str; 9] = [
    "percentage points",
    "percentage point",
    "per cent",
    "percent",
    "pct",
    "ppts",
    "ppt",
    "pp",
    "pc",
];
/// Basis points: hundredths of a percentage point (25bps = 0.25 percentage points).
const BASIS_POINT_WORDS: [&str; 4] = ["basis points", "basis point", "bps", "bp"];
/// The value of an English cardinal word of [`EN_CARDINALS`] ("two" … "ninety").
pub(crate) fn en_cardinal(word: &str) -> Option<f64> {
    EN_CARDINALS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|&(_, v)| v)
}

/// two … twenty, then the tens (`one` is left out: "one of", "no one").
const EN_CARDINALS: [(&str, f64); 26] = [
    ("two", 2.0),
    ("three", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("seven", 7.0),
    ("eight", 8.0),
    ("nine", 9.0),
    ("ten", 10.0),
    ("eleven", 11.0),
    ("twelve", 12.0),
    ("thirteen", 13.0),
    ("fourteen", 14.0),
    ("fifteen", 15.0),
    ("sixteen", 16.0),
    ("seventeen", 17.0),
    ("eighteen", 18.0),
    ("nineteen", 19.0),
    ("twenty", 20.0),
    ("thirty", 30.0),
    ("forty", 40.0),
    ("fifty", 50.0),
    ("sixty", 60.0),
    ("seventy", 70.0),
    ("eighty", 80.0),
    ("ninety", 90.0),
];
/// third … twentieth (`first` and `second` are left out: "at first", "a second").
const EN_ORDINALS: [&str; 18] = [
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];
const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

struct Scanner<'t> {
    text: &'t str,
    /// (byte offset, character) of every character: 8 bytes a character (a `usize` offset
    /// made it 16). Texts are limited far below 4 GiB before they get here (`audit::limits`).
    chars: Vec<(u32, char)>,
    out: Vec<Num<'t>>,
    /// English month words: (month, start, end), merged with numbers into dates afterwards.
    months: Vec<(u32, usize, usize)>,
    /// List markers at line starts ("1. ", "2) "): (number, start char, end byte).
    markers: Vec<(u32, usize, usize)>,
}

pub(crate) fn scan(text: &str) -> Vec<Num<'_>> {
    // Offsets are u32: a longer text is scanned up to its last character below 4 GiB (the
    // audit's inputs are refused long before, `audit::limits`).
    let text = prefix_below(text, u32::MAX as usize);
    let mut s = Scanner {
        text,
        chars: text.char_indices().map(|(b, c)| (b as u32, c)).collect(),
        out: Vec::new(),
        months: Vec::new(),
        markers: Vec::new(),
    };
    s.run();
    s.list_lengths();
    let mut nums = quarters(
        text,
        part_of_whole_ratios(
            text,
            previous_days(
                text,
                merge_measures(text, merge_dates(text, s.out, &s.months)),
            ),
        ),
    );
    annotate(text, &mut nums);
    nums.retain(|n| !certainty(text, n));
    nums
}

/// Words of how sure a speaker is, after a hundred percent: a manner of speaking, no figure.
const CERTAINTY_WORDS: [&str; 6] = [
    "sure",
    "certain",
    "confident",
    "positive",
    "convinced",
    "agree",
];

/// Whether `n` is a hundred percent of how sure a speaker is (`I am not 100% sure`, `100
/// percent certain`): chat and dialogue say so of themselves, of no quantity of the context.
/// `100% accurate` and `100% of the seats` stay figures.
fn certainty(text: &str, n: &Num) -> bool {
    n.kind == NumberKind::Percent
        && same(n.value, 1.0)
        && CERTAINTY_WORDS
            .iter()
            .any(|w| starts_with_word(text.get(n.end..).unwrap_or("").trim_start(), w))
}

/// Words after a chat's `<3` that say whom or what is loved: the heart's object, never a unit.
const HEART_OBJECTS: [&str; 19] = [
    "you", "u", "him", "her", "it", "them", "me", "us", "this", "that", "these", "those", "my",
    "your", "his", "our", "their", "the", "ya",
];

/// Words for the day before the date last written (a dateline's "5月24日" and then "昨日",
/// "前一交易日" — the day before, or for a Monday the Friday before, which the words alone
/// do not say — "the day before").
const PREVIOUS_DAY_WORDS: [&str; 9] = [
    "昨日",
    "昨天",
    "前一交易日",
    "前一个交易日",
    "前一日",
    "前一天",
    "yesterday",
    "the day before",
    "the previous day",
];

/// The numbers of a text searched for the date of an event named before a
/// [`PREVIOUS_DAY_WORDS`] phrase (bounded work per phrase).
const MAX_EVENT_DATES: usize = 4096;

/// The day before the last date with a day written before a [`PREVIOUS_DAY_WORDS`] phrase,
/// a soft date at the phrase: a summary that writes "23日收盘价" for "前一交易日结算价" of a
/// text dated 24日 restates it. The day before an event is the eve of that event's date, not
/// of the last one: `开幕前一天` of a text that says `8月20日开幕` is 8月19日, whatever date
/// came last (an event named in English, "the day before the game", is not looked for). The
/// first 16 phrases of each kind only.
fn previous_days<'t>(text: &'t str, mut nums: Vec<Num<'t>>) -> Vec<Num<'t>> {
    let mut found = Vec::new();
    let has_day = |n: &Num| n.date.filter(|d| d.day.is_some_and(|d| d >= 2));
    for w in PREVIOUS_DAY_WORDS {
        for (at, _) in text.match_indices(w).take(16) {
            // The two characters before a Chinese phrase (开幕 of 开幕前一天), when a date with a
            // day is written right before them somewhere: that event's date.
            let before: Vec<char> = text[..at].chars().rev().take(2).collect();
            let event: Option<String> = (before.len() == 2 && before.iter().all(|&c| is_cjk(c)))
                .then(|| before.iter().rev().collect());
            let event_date = event.and_then(|e| {
                let dated = nums.iter().filter(|n| has_day(n).is_some());
                dated.take(MAX_EVENT_DATES).find_map(|n| {
                    let rest = text.get(n.end..)?;
                    // The event's two characters, with at most one between (`20日晚开幕`).
                    let next: String = rest.chars().take(3).collect();
                    next.contains(e.as_str()).then(|| has_day(n)).flatten()
                })
            });
            let date = event_date.or_else(|| {
                nums[..nums.partition_point(|n| n.start < at)]
                    .iter()
                    .rev()
                    .find_map(has_day)
            });
            if let Some(d) = date {
                let mut n = date_num(
                    text,
                    at,
                    at + w.len(),
                    d.day.map(|d| d - 1),
                    d.month,
                    d.year,
                );
                n.soft = true;
                found.push(n);
            }
        }
    }
    if !found.is_empty() {
        nums.extend(found);
        nums.sort_by_key(|n| n.start);
    }
    nums
}

/// Where a quarter of a year is named at byte `at` of `text`: (quarter, end of its writing).
/// `Q3` / `3Q` (a word of its own: `Q3FY21`, `Q35` are not), `third quarter` / `3rd-quarter`
/// (not `third quarter-final`), 第三季度 / 三季度 / 3季度 / 三季报 (not 前三季度, 上一季度).
fn quarter_at(text: &str, at: usize) -> Option<(u32, usize)> {
    let rest = text.get(at..)?;
    let word_before = text
        .get(..at)?
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric);
    let word_after = |end: usize| {
        text.get(end..)
            .and_then(|t| t.chars().next())
            .is_some_and(char::is_alphanumeric)
    };
    let digit = |c: u8| (b'1'..=b'4').contains(&c).then(|| u32::from(c - b'0'));
    let b = rest.as_bytes();
    if !word_before && b.len() >= 2 {
        let q = match (b[0], b[1]) {
            (b'Q' | b'q', d) => digit(d),
            (d, b'Q') => digit(d),
            _ => None,
        };
        if let Some(q) = q.filter(|_| !word_after(at + 2)) {
            return Some((q, at + 2));
        }
        for (w, q) in [
            ("first", 1),
            ("second", 2),
            ("third", 3),
            ("fourth", 4),
            ("1st", 1),
            ("2nd", 2),
            ("3rd", 3),
            ("4th", 4),
        ] {
            let Some(after) = rest
                .get(..w.len())
                .filter(|p| p.eq_ignore_ascii_case(w))
                .and_then(|_| rest.get(w.len()..))
                .and_then(|r| r.strip_prefix([' ', '-']))
            else {
                continue;
            };
            let Some(tail) = after
                .get(.."quarter".len())
                .filter(|p| p.eq_ignore_ascii_case("quarter"))
                .and_then(|_| after.get("quarter".len()..))
            else {
                continue;
            };
            // "quarter-final", "quarterback", "quarters" (the first two quarters) are not one.
            if tail.starts_with(|c: char| c == '-' || c.is_alphanumeric()) {
                continue;
            }
            return Some((q, text.len() - tail.len()));
        }
    }
    let mut chars = rest.char_indices();
    let (_, first) = chars.next()?;
    let (numeral, from) = if first == '第' {
        let (_, c) = chars.next()?;
        (c, at + first.len_utf8() + c.len_utf8())
    } else {
        // 前三季度 (the first three quarters together), 上一季度 / 下一季度 / 每一季度 (the
        // previous, next, every quarter) name no quarter.
        if text
            .get(..at)?
            .ends_with(|c: char| "前后上下每本这该近同".contains(c))
        {
            return None;
        }
        (first, at + first.len_utf8())
    };
    let q = match numeral {
        '一' | '1' => 1,
        '二' | '2' => 2,
        '三' | '3' => 3,
        '四' | '4' => 4,
        _ => return None,
    };
    let tail = text.get(from..)?;
    ["季度", "季报"]
        .iter()
        .find(|w| tail.starts_with(*w))
        .map(|w| (q, from + w.len()))
}

/// Where a quarter's writing may start, in order: at a `Q` or `q`, at a digit 1–4 before `Q`,
/// at the ordinal before a `quarter`, at the numeral (or 第) before a 季. Only these are tried:
/// trying every character of a long transcript cost a sixth of the whole check.
fn quarter_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut starts = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'Q' | b'q' => {
                starts.push(i);
                // The ordinal and its separator before "quarter": "third quarter", "3rd-quarter".
                let tail = &b[i + 1..];
                if tail.len() >= 6 && tail[..6].eq_ignore_ascii_case(b"uarter") && i > 0 {
                    let word_end = i - 1;
                    let start = b[..word_end]
                        .iter()
                        .rposition(|c| !c.is_ascii_alphanumeric())
                        .map_or(0, |k| k + 1);
                    starts.push(start);
                }
            }
            b'1'..=b'4' if b.get(i + 1) == Some(&b'Q') => starts.push(i),
            _ => {}
        }
    }
    for (at, _) in text.match_indices('季') {
        let before = &text[..at];
        let mut chars = before.char_indices().rev();
        if let Some((k, _)) = chars.next() {
            starts.push(k);
            if let Some((j, '第')) = chars.next() {
                starts.push(j);
            }
        }
    }
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// Whether `text` is, whole, the writing of a quarter of a year (`Q3`, `third quarter`, 三季度).
pub(crate) fn is_quarter(text: &str) -> bool {
    quarter_at(text, 0).is_some_and(|(_, end)| end == text.len())
}

/// Quarters of a year (`Q3`, `third-quarter`, 第三季度) read as dates of their own: a summary
/// of an earnings call that names another quarter than the call's states a different period.
/// A number read inside the writing (`3` of `3Q`, the ordinal `third`) gives way to it: the
/// scanner skips `Q3` as a word glued to digits and reads `third` as a loose ordinal.
fn quarters<'t>(text: &'t str, nums: Vec<Num<'t>>) -> Vec<Num<'t>> {
    let mut found: Vec<Num<'t>> = Vec::new();
    for at in quarter_starts(text) {
        if found.last().is_some_and(|f| at < f.end) {
            continue;
        }
        if let Some((quarter, end)) = quarter_at(text, at) {
            found.push(Num {
                value: f64::from(quarter),
                date: Some(DateParts {
                    quarter: Some(quarter),
                    ..DateParts::default()
                }),
                ..date_num(text, at, end, None, None, None)
            });
        }
    }
    if found.is_empty() {
        return nums;
    }
    let mut out: Vec<Num<'t>> = nums
        .into_iter()
        .filter(|n| !found.iter().any(|f| n.start < f.end && f.start < n.end))
        .collect();
    out.extend(found);
    out.sort_by_key(|n| n.start);
    out
}

/// "3 out of 4 voters", "one in five people", "2 of 3", "Of the 1,000 surveyed, 620 …",
/// "在1000名受访者中，620人…": a part of a whole is also the percentage it makes (75 %, 20 %,
/// 62 %), a soft reading placed after the later number, as a fraction in words is.
fn part_of_whole_ratios<'t>(text: &'t str, nums: Vec<Num<'t>>) -> Vec<Num<'t>> {
    let plain = |n: &Num| n.kind == NumberKind::Number && !n.soft && !year_like(n);
    let mut out: Vec<Num<'t>> = Vec::with_capacity(nums.len());
    for (k, b) in nums.iter().enumerate() {
        out.push(*b);
        if !plain(b) || b.value <= 0.0 {
            continue;
        }
        let part = |gap: &str| {
            [" out of ", " in ", " of "]
                .iter()
                .any(|g| gap.eq_ignore_ascii_case(g))
        };
        let before = text.get(..b.start).unwrap_or("");
        // The few bytes before the whole ("one out of " is 11): a long text is not copied per
        // number.
        let tail = &before[before.floor_char_boundary(before.len().saturating_sub(16))..];
        // The part: the number right before, or "one" (not read alone: "one of").
        let a = k
            .checked_sub(1)
            .map(|i| nums[i])
            .filter(|a| plain(a) && text.get(a.end..b.start).is_some_and(part))
            .map(|a| (a.start, a.value / b.value, true))
            .or_else(|| {
                let tail = tail.to_ascii_lowercase();
                let phrase = ["one out of ", "one in "]
                    .iter()
                    .find(|p| tail.ends_with(*p))?;
                let start = before.len() - phrase.len();
                let word_start = !before[..start].ends_with(|c: char| c.is_ascii_alphanumeric());
                word_start.then_some((start, 1.0 / b.value, true))
            });
        // The whole first: "Of the 1,000 surveyed, 620 ...", "在1000名受访者中，620人...",
        // "19分中有13分": a share of it is the next number of the sentence.
        let a = a.or_else(|| {
            let whole = k.checked_sub(1).map(|i| nums[i])?;
            let lead = text.get(..whole.start)?;
            let lead = &lead[lead.floor_char_boundary(lead.len().saturating_sub(12))..];
            let between = text.get(whole.end..b.start)?;
            // "Of 200 respondents, 50 ..." opening a sentence; "of the 1,000 ..." anywhere.
            let lower = lead.to_ascii_lowercase();
            let english = ["of the ", "among the ", "out of "]
                .iter()
                .any(|w| lower.ends_with(w))
                || lead.strip_suffix("Of ").is_some_and(|b| {
                    b.trim_end().is_empty() || b.trim_end().ends_with(['.', '!', '?', '\n'])
                });
            let chinese =
                (lead.ends_with('在') && between.contains('中')) || between.ends_with("中有");
            let near =
                between.len() <= 60 && !between.contains(['.', '。', ';', '；', '!', '?', '\n']);
            // A four-digit whole read like a year is a count when a measure word follows it
            // (1000名受访者, 1200家企业).
            let counted = text
                .get(whole.end..)
                .and_then(|t| t.chars().next())
                .is_some_and(|c| is_cjk(c) && c != '年');
            let whole_plain =
                plain(&whole) || (whole.kind == NumberKind::Number && !whole.soft && counted);
            (whole_plain && (english || chinese) && near).then_some((
                whole.start,
                b.value / whole.value,
                false,
            ))
        });
        // A part is less than its whole.
        if let Some((start, share, part_first)) = a.filter(|&(_, share, _)| share < 1.0) {
            // The part is marked with its whole's start: the whole is `b` when the part comes
            // first ("3 out of 4"), else the number `start` begins ("19分中有13分").
            let (part, whole) = if part_first {
                (
                    out.iter_mut().rev().find(|n| n.start == start && !n.soft),
                    b.start,
                )
            } else {
                (out.last_mut(), start)
            };
            if let Some(part) = part {
                part.part_of = Some(whole);
            }
            out.push(Num {
                text: text.get(start..b.end).unwrap_or(b.text),
                kind: NumberKind::Percent,
                value: share,
                half_step: 0.0005,
                soft: true,
                start,
                ..*b
            });
        }
    }
    out
}

impl<'t> Scanner<'t> {
    fn ch(&self, i: usize) -> Option<char> {
        self.chars.get(i).map(|&(_, c)| c)
    }

    fn byte(&self, i: usize) -> usize {
        self.chars
            .get(i)
            .map_or(self.text.len(), |&(b, _)| b as usize)
    }

    /// The text between two byte offsets, borrowed for as long as the text.
    fn slice(&self, from: usize, to: usize) -> &'t str {
        let text: &'t str = self.text;
        text.get(from..to).unwrap_or("")
    }

    /// Whether the word before character `i` makes "one" a pronoun or a choice, not a
    /// count: "no one", "the one", "each one", "which one".
    fn after_determiner(&self, i: usize) -> bool {
        let word = word_ending(self.slice(0, self.byte(i)).trim_end()).to_ascii_lowercase();
        ["no", "the", "any", "each", "every", "this", "that", "which"].contains(&word.as_str())
    }

    /// The rest of the text from char `i`.
    fn rest(&self, i: usize) -> &'t str {
        let text: &'t str = self.text;
        text.get(self.byte(i)..).unwrap_or("")
    }

    /// Past characters that render as nothing (zero-width space and joiners, word joiner, BOM,
    /// soft hyphen) when a digit follows: `4\u{200b}50` reads as the 450 a reader sees, not as
    /// 4 and 50.
    fn skip_invisible(&self, j: usize) -> usize {
        let mut k = j;
        while self.ch(k).is_some_and(|c| {
            matches!(
                c,
                '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{ad}'
            )
        }) {
            k += 1;
        }
        if k > j && self.ch(k).and_then(decimal_digit).is_some() {
            k
        } else {
            j
        }
    }

    /// A time of day at character `start`: `14:00`, `9:30` (two digits after the colon, at
    /// most 23 before), or with a meridiem, `2pm`, `2 p.m.`, `2.30pm`, `11:45 am`. One date
    /// part, so `2pm` is `14:00` and a made-up time is exact, never a slight change.
    fn time_of_day(&mut self, start: usize) -> Option<usize> {
        let digit = |s: &Self, k: usize| s.ch(k).and_then(decimal_digit);
        if start > 0
            && self
                .ch(start - 1)
                .is_some_and(|c| decimal_digit(c).is_some() || matches!(c, ':' | '.' | ','))
        {
            return None;
        }
        // One or two digits (a longer run is no hour, and is not summed: it could overflow).
        let mut k = start;
        let mut hour = 0;
        while let Some(d) = digit(self, k).filter(|_| k - start < 2) {
            hour = hour * 10 + d;
            k += 1;
        }
        if digit(self, k).is_some() {
            return None;
        }
        let hour_written = hour;
        let mut minute = None;
        let sep = self.ch(k);
        if matches!(sep, Some(':' | '.'))
            && digit(self, k + 1).is_some()
            && digit(self, k + 2).is_some()
            && digit(self, k + 3).is_none()
        {
            let m = digit(self, k + 1).unwrap_or(0) * 10 + digit(self, k + 2).unwrap_or(0);
            minute = Some((m, k + 3));
        }
        let after = minute.map_or(k, |(_, e)| e);
        // 2:01:09 is a duration (or a clock to the second): its parts are read one by one.
        if minute.is_some() && self.ch(after) == Some(':') && digit(self, after + 1).is_some() {
            return None;
        }
        // am / pm / a.m. / p.m., attached or after one space.
        let rest = self.rest(after);
        let spaced = rest.strip_prefix(' ').unwrap_or(rest);
        let meridiem = ["a.m.", "p.m.", "am", "pm"].iter().find_map(|w| {
            let len = w.len();
            (spaced.len() >= len
                && spaced.is_char_boundary(len)
                && spaced[..len].eq_ignore_ascii_case(w)
                && (w.ends_with('.')
                    || !spaced[len..].starts_with(|c: char| c.is_ascii_alphanumeric())))
            .then_some((w.starts_with('p'), rest.len() - spaced.len() + len))
        });
        let (m, end_byte) = match (minute, meridiem) {
            (_, Some((pm, len))) if (1..=12).contains(&hour) => {
                let m = minute.map_or(0, |(m, _)| m);
                hour = hour % 12 + if pm { 12 } else { 0 };
                (m, self.byte(after) + len)
            }
            (Some((m, e)), None) if sep == Some(':') && hour <= 23 => (m, self.byte(e)),
            _ => return None,
        };
        if m > 59 {
            return None;
        }
        let end = self.char_at(end_byte);
        let written_hour = f64::from(hour_written);
        self.push_date(
            start,
            end,
            DateParts {
                minute: Some(hour * 60 + m),
                ..DateParts::default()
            },
        );
        // The hour and the minutes as written stay soft numbers, as they were before being read
        // as one time ("10:45" still supports a duration's 45).
        self.push_soft(start, self.byte(k), NumberKind::Number, written_hour, 0.5);
        if let Some((m, e)) = minute {
            self.push_soft(k + 1, self.byte(e), NumberKind::Number, f64::from(m), 0.5);
        }
        Some(end)
    }

    /// The index of the character at byte offset `byte` (or of the first after it).
    fn char_at(&self, byte: usize) -> usize {
        self.chars.partition_point(|&(b, _)| (b as usize) < byte)
    }

    fn run(&mut self) {
        let mut i = 0;
        while i < self.chars.len() {
            let c = self.chars[i].1;
            i = if decimal_digit(c).is_some() {
                self.western(i)
            } else if c.is_ascii_alphabetic() {
                self.word(i)
            } else if self.rest(i).starts_with("百分之") {
                self.percent_prefix(i)
            } else if cn_digit(c).is_some() || c == '十' {
                self.chinese(i)
            } else if self.heart(i) {
                i + 2
            } else {
                i + 1
            };
        }
    }

    /// A heart written `<3` in chat (`I <3 him too!`, `so cute <3`): no three. Only a word
    /// apart and before the end, a punctuation mark or a word of whom or what is loved
    /// ([`HEART_OBJECTS`]): `<3 seconds`, `<3%`, `<3.5` are bounds, read as numbers.
    fn heart(&self, i: usize) -> bool {
        let apart = |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || ",.!?;:)".contains(c));
        if !(self.ch(i) == Some('<')
            && self.ch(i + 1) == Some('3')
            && apart(i.checked_sub(1).and_then(|k| self.ch(k)))
            && apart(self.ch(i + 2)))
        {
            return false;
        }
        let rest = self.rest(i + 2);
        if rest.starts_with('.') && self.ch(i + 3).is_some_and(|c| c.is_ascii_digit()) {
            return false;
        }
        let next = rest.trim_start();
        next.is_empty()
            || next.starts_with(|c: char| !c.is_alphanumeric())
            || HEART_OBJECTS.iter().any(|w| starts_with_word(next, w))
    }

    /// An ASCII word: a month name is kept; a word running into digits (H2O, Qwen2.5, COVID-19,
    /// v1.2) is an identifier and skipped whole, digits included.
    fn word(&mut self, i: usize) -> usize {
        let mut j = i;
        while self.ch(j).is_some_and(|c| c.is_ascii_alphabetic()) {
            j += 1;
        }
        let word = self.text[self.byte(i)..self.byte(j)].to_ascii_lowercase();
        let next = self.ch(j);
        let glued = next.is_some_and(|c| decimal_digit(c).is_some())
            || (matches!(next, Some('-' | '_'))
                && self.ch(j + 1).is_some_and(|c| c.is_ascii_digit()));
        // A currency code glued to its amount (USD500, RMB5bn, Rs500) is money, not an
        // identifier: the digits are read next.
        if next.is_some_and(|c| decimal_digit(c).is_some())
            && CURRENCY_CODES.contains(&&self.text[self.byte(i)..self.byte(j)])
        {
            return j;
        }
        // A fiscal year glued to its year (FY2023, FY2023/24) is that year or season; FY23
        // stays an identifier (a two-digit year is no year the context would write).
        let four_digits = (j..j + 4).all(|k| self.ch(k).and_then(decimal_digit).is_some())
            && self.ch(j + 4).and_then(decimal_digit).is_none();
        if word == "fy" && four_digits {
            return j;
        }
        // A grammar word or a modifier joined to a number by a dash is no identifier's stem:
        // "an innings-and-39-run defeat", "10-to-1", "mid-1980s", "a top-10 finish".
        if matches!(next, Some('-')) && NUMBER_JOINERS.contains(&word.as_str()) {
            return j;
        }
        if glued {
            while self
                .ch(j)
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
            {
                j += 1;
            }
            return j;
        }
        if let Some(end) = self.number_word(i, j, &word) {
            return end;
        }
        let month = MONTHS.iter().position(|m| {
            word == *m
                || (word.len() == 3 && m.starts_with(word.as_str()))
                || (word == "sept" && *m == "september")
        });
        if let Some(m) = month {
            // "may" is also a verb: only a month when a number is next to it (checked when merging).
            let mut end = self.byte(j);
            if self.ch(j) == Some('.') {
                end += 1;
            }
            self.months.push((m as u32 + 1, self.byte(i), end));
        }
        j
    }

    /// Digits with thousands separators and a decimal part, then a suffix.
    fn western(&mut self, start: usize) -> usize {
        if let Some(end) = self.duration(start) {
            return end;
        }
        if let Some(end) = self.time_of_day(start) {
            return end;
        }
        let mut j = start;
        let mut int = String::new();
        let mut grouped = false;
        let mut space_grouped = false;
        let mut zeros_apart = false;
        while let Some(d) = self.ch(j).and_then(decimal_digit) {
            int.push(char::from_digit(d, 10).unwrap_or('0'));
            j += 1;
            j = self.skip_invisible(j);
            // "1,200,000": a comma followed by exactly three digits is a thousands separator.
            if self.ch(j) == Some(',')
                && (1..=3).all(|k| self.ch(j + k).and_then(decimal_digit).is_some())
                && self.ch(j + 4).and_then(decimal_digit).is_none()
            {
                grouped = true;
                j += 1;
            }
            // "1 234 567": a space (or a narrow one) between groups of three after a first
            // group of at most three digits.
            if self
                .ch(j)
                .is_some_and(|c| SPACE_GROUP_SEPARATORS.contains(&c))
                && (int.len() <= 3 || space_grouped)
                && (1..=3).all(|k| self.ch(j + k).and_then(decimal_digit).is_some())
                && self.ch(j + 4).and_then(decimal_digit).is_none()
                && !self.ch(j + 4).is_some_and(is_point)
            {
                grouped = true;
                space_grouped = true;
                j += 1;
            }
            // "3, 000 families", "23 , 000 locations": a comma spaced as tokenized text spaces
            // it (dialogue corpora, CNN/DailyMail copies), before a group of zeros, which no
            // list writes. Other groups stay two numbers here (`eaten 10, 100 - 10` is a list;
            // see `written_apart`).
            let comma = match (self.ch(j), self.ch(j + 1), self.ch(j + 2)) {
                (Some(','), Some(' '), _) => Some(2),
                (Some(' '), Some(','), Some(' ')) => Some(3),
                _ => None,
            };
            if let Some(k) = comma.filter(|_| int.len() <= 3 || zeros_apart) {
                let after = j + k + 3;
                if (j + k..after).all(|m| self.ch(m) == Some('0'))
                    && self.ch(after).and_then(decimal_digit).is_none()
                    && !(self.ch(after).is_some_and(is_point)
                        && self.ch(after + 1).and_then(decimal_digit).is_some())
                {
                    grouped = true;
                    zeros_apart = true;
                    j += k;
                }
            }
        }
        let mut frac = String::new();
        let tokenized = self.tokenized_point(start, j, &int, grouped);
        if tokenized
            || self.ch(j).is_some_and(is_point) && self.ch(j + 1).and_then(decimal_digit).is_some()
        {
            j += if tokenized { 2 } else { 1 };
            while let Some(d) = self.ch(j).and_then(decimal_digit) {
                frac.push(char::from_digit(d, 10).unwrap_or('0'));
                j += 1;
                j = self.skip_invisible(j);
            }
            // 1.2.3 is a version or a section number, not a quantity; a dotted date
            // (2023.5.1, 2023.05.01, 1.5.2023) is a date.
            if self.ch(j).is_some_and(is_point) && self.ch(j + 1).and_then(decimal_digit).is_some()
            {
                if let Some(end) = self.dotted_date(start, j, &int, &frac) {
                    return end;
                }
                while self
                    .ch(j)
                    .is_some_and(|c| is_point(c) || decimal_digit(c).is_some())
                {
                    j += 1;
                }
                return j;
            }
        }
        // A list marker ("1. ", "2) ", "3、") at the start of a line numbers the list, not a fact.
        if frac.is_empty() && !grouped && int.len() <= 2 && self.line_start(start) {
            if let Some(c) = self.ch(j) {
                if matches!(c, '.' | ')' | '、')
                    && self.ch(j + 1).is_none_or(|c| !c.is_ascii_digit())
                {
                    if let Ok(n) = int.parse() {
                        self.markers.push((n, start, self.byte(j + 1)));
                    }
                    return j + 1;
                }
            }
        }
        // ".5%" is half a percent, not 5 %: a point right before, with no word or digit
        // before it.
        let leading_point = start > 0
            && frac.is_empty()
            && !grouped
            && self.ch(start - 1).is_some_and(is_point)
            && !start
                .checked_sub(2)
                .and_then(|k| self.ch(k))
                .is_some_and(|c| c.is_alphanumeric() || is_point(c));
        let start = if leading_point {
            frac = std::mem::replace(&mut int, "0".to_string());
            start - 1
        } else {
            start
        };
        let value: f64 = format!("{int}.{}", if frac.is_empty() { "0" } else { &frac })
            .parse()
            .unwrap_or(0.0);
        let unit = 10f64.powi(-(frac.len() as i32));
        if frac.is_empty() && !grouped && int.len() == 4 {
            if let Some(end) = self
                .season(start, j, &int)
                .or_else(|| self.iso_date(start, j, &int))
            {
                return end;
            }
        }
        self.suffix(start, j, value, unit, !frac.is_empty() || grouped, &int)
    }

    /// A duration in hours, minutes and seconds (2小时19分44秒, 4分17秒69, 59秒08): one number,
    /// in seconds, as precise as its last written part. Its parts read alone would be other
    /// numbers: the hundredths 69 of 4分17秒69 are not a count of 69, and a made-up 4分19秒87
    /// would pass as 4, 19 and a round 87.
    fn duration(&mut self, start: usize) -> Option<usize> {
        let digits = |s: &Self, mut k: usize| {
            let from = k;
            let mut v = 0.0;
            while let Some(d) = s.ch(k).and_then(decimal_digit) {
                v = v * 10.0 + f64::from(d);
                k += 1;
            }
            (v, k - from, k)
        };
        const UNITS: [(&str, f64); 3] = [("小时", 3600.0), ("分", 60.0), ("秒", 1.0)];
        let mut j = start;
        let mut total = 0.0;
        let mut parts = 0;
        let mut step = 0.0;
        let mut next_unit = 0;
        loop {
            let (v, len, k) = digits(self, j);
            if len == 0 || len > 3 {
                break;
            }
            let rest = self.rest(k);
            let Some(u) = (next_unit..UNITS.len()).find(|&u| rest.starts_with(UNITS[u].0)) else {
                // Hundredths after the seconds: 17秒69.
                if next_unit == UNITS.len() {
                    let place = 10f64.powi(-(len as i32));
                    total += v * place;
                    step = place;
                    parts += 1;
                    j = k;
                }
                break;
            };
            total += v * UNITS[u].1;
            step = UNITS[u].1;
            parts += 1;
            j = k + UNITS[u].0.chars().count();
            next_unit = u + 1;
            if u == UNITS.len() - 1 && self.ch(j).and_then(decimal_digit).is_none() {
                break;
            }
        }
        // Minutes alone ("32分" is also points) are no duration; a second part makes one.
        if parts < 2 {
            return None;
        }
        self.push_plain(start, self.byte(j), NumberKind::Number, total, step / 2.0);
        Some(j)
    }

    fn line_start(&self, i: usize) -> bool {
        let mut k = i;
        while k > 0 {
            k -= 1;
            match self.chars[k].1 {
                '\n' => return true,
                ' ' | '\t' => continue,
                _ => return false,
            }
        }
        true
    }

    /// Whether the point at `j` is a decimal point tokenized apart from its fraction: `$ 1. 9
    /// billion`, `2. 2 million`, `0. 9 per cent` (dialogue corpora, CNN/DailyMail copies). Only
    /// with a scale or percent word right after the fraction, after at most three digits that
    /// open no line: `1. 9 billion people` numbering a list is `1.` and 9 billion.
    fn tokenized_point(&self, start: usize, j: usize, int: &str, grouped: bool) -> bool {
        if grouped || int.len() > 3 || self.ch(j) != Some('.') || self.ch(j + 1) != Some(' ') {
            return false;
        }
        let digits = (j + 2..)
            .take_while(|&k| self.ch(k).and_then(decimal_digit).is_some())
            .count();
        if !(1..=2).contains(&digits) || self.line_start(start) {
            return false;
        }
        let rest = self.rest(j + 2 + digits);
        let spaced = rest.strip_prefix(' ').unwrap_or(rest);
        rest.starts_with('%')
            || scale_words(spaced).is_some()
            || PERCENT_WORDS.iter().any(|p| starts_with_word(spaced, p))
    }

    /// A season across two years: the first year, a dash or slash (spaced in tokenized text:
    /// `2010 - 11`) and the next year's last two digits (`2010-11`, `2010–11`, `2010/11`,
    /// `1999-00`), nothing numeric after. A season is not a month (`2010-11` is the 2010–11
    /// season, not November 2010: ISO writes a month with its day) and not a range.
    fn season(&mut self, start: usize, j: usize, year: &str) -> Option<usize> {
        let y: u32 = year.parse().ok()?;
        let dash = |c: Option<char>| matches!(c, Some('-' | '–' | '—' | '/'));
        let from = if dash(self.ch(j)) {
            j + 1
        } else if self.ch(j) == Some(' ') && dash(self.ch(j + 1)) && self.ch(j + 2) == Some(' ') {
            j + 3
        } else {
            return None;
        };
        let (a, b) = (
            self.ch(from).and_then(decimal_digit)?,
            self.ch(from + 1).and_then(decimal_digit)?,
        );
        let numeric_after = self
            .ch(from + 2)
            .is_some_and(|c| decimal_digit(c).is_some())
            || (dash(self.ch(from + 2)) || self.ch(from + 2).is_some_and(is_point))
                && self.ch(from + 3).and_then(decimal_digit).is_some();
        if a * 10 + b != (y + 1) % 100 || numeric_after {
            return None;
        }
        self.push_date(
            start,
            from + 2,
            DateParts {
                year: Some(y),
                season: true,
                ..DateParts::default()
            },
        );
        Some(from + 2)
    }

    /// 2023-05-01, 2023/5/1, 2023-05 (not 2019-2023, a range).
    fn iso_date(&mut self, start: usize, j: usize, year: &str) -> Option<usize> {
        let sep = self.ch(j).filter(|c| matches!(c, '-' | '/'))?;
        let two = |k: usize| -> Option<(u32, usize)> {
            let a = self.ch(k).and_then(decimal_digit)?;
            match self.ch(k + 1).and_then(decimal_digit) {
                Some(b) => {
                    if self.ch(k + 2).and_then(decimal_digit).is_some() {
                        None
                    } else {
                        Some((a * 10 + b, k + 2))
                    }
                }
                None => Some((a, k + 1)),
            }
        };
        let (month, mut end) = two(j + 1)?;
        if !(1..=12).contains(&month) {
            return None;
        }
        let mut day = None;
        if self.ch(end) == Some(sep) {
            if let Some((d, e)) = two(end + 1).filter(|(d, _)| (1..=31).contains(d)) {
                day = Some(d);
                end = e;
            }
        }
        let y: u32 = year.parse().ok()?;
        self.push_date(
            start,
            end,
            DateParts {
                year: Some(y),
                month: Some(month),
                day,
                minute: None,
                quarter: None,
                season: false,
            },
        );
        Some(end)
    }

    /// A date written with points: year.month.day (2023.5.1, as Chinese texts often write
    /// it) or day.month.year (1.5.2023, the European order). `int` and `frac` are the first
    /// two parts read, `j` the character of the second point. Anything more (1.5.2023.4) or
    /// out of range is no date.
    fn dotted_date(&mut self, start: usize, j: usize, int: &str, frac: &str) -> Option<usize> {
        let mut end = j + 1;
        let mut third = 0u32;
        let mut len = 0;
        while let Some(d) = self.ch(end).and_then(decimal_digit) {
            third = third.saturating_mul(10).saturating_add(d);
            len += 1;
            end += 1;
        }
        let more = self.ch(end).is_some_and(is_point)
            && self.ch(end + 1).and_then(decimal_digit).is_some();
        let first: u32 = int.parse().ok()?;
        let month: u32 = frac.parse().ok()?;
        let (year, day) = match (int.len(), frac.len(), len) {
            (4, 1..=2, 1..=2) => (first, third),
            (1..=2, 1..=2, 4) => (third, first),
            _ => return None,
        };
        let valid = !more
            && (1900..=2100).contains(&year)
            && (1..=12).contains(&month)
            && (1..=31).contains(&day);
        valid.then(|| {
            self.push_date(
                start,
                end,
                DateParts {
                    year: Some(year),
                    month: Some(month),
                    day: Some(day),
                    minute: None,
                    quarter: None,
                    season: false,
                },
            );
            end
        })
    }

    fn push_date(&mut self, start: usize, end: usize, d: DateParts) {
        let value = d.year.or(d.month).or(d.day).or(d.minute).unwrap_or(0);
        self.out.push(Num {
            text: self.slice(self.byte(start), self.byte(end)),
            kind: NumberKind::Date,
            value: f64::from(value),
            half_step: 0.5,
            date: Some(d),
            unit: "",
            hedged: false,
            sentence: 0,
            soft: false,
            part_of: None,
            start: self.byte(start),
            end: self.byte(end),
        });
    }

    /// What follows a number: %, percent words, scale words, Chinese date characters.
    /// `unit` is the value of the last written digit; `exact` says the writing is not a plain
    /// integer (so a year reading is off).
    fn suffix(
        &mut self,
        start: usize,
        j: usize,
        value: f64,
        unit: f64,
        exact: bool,
        int: &str,
    ) -> usize {
        let rest = self.rest(j);
        let spaced = rest.strip_prefix([' ', '\u{a0}']).unwrap_or(rest);
        let skip = rest.len() - spaced.len();
        let push = |s: &mut Self, end_byte: usize, kind, value: f64, half_step: f64| {
            s.out.push(Num {
                text: s.slice(s.byte(start), end_byte),
                kind,
                value,
                half_step,
                date: None,
                unit: "",
                hedged: false,
                sentence: 0,
                soft: false,
                part_of: None,
                start: s.byte(start),
                end: end_byte,
            });
        };
        let at = self.byte(j);
        let to_char =
            |s: &Self, byte: usize| s.chars.partition_point(|&(b, _)| (b as usize) < byte);
        // Percent: 35%, 35 %, 35 percent, 5 个百分点.
        for p in PERCENT_SIGNS.iter().chain(&CN_PERCENT_POINTS) {
            if spaced.starts_with(p) {
                let end = at + skip + p.len();
                push(self, end, NumberKind::Percent, value / 100.0, unit / 200.0);
                return to_char(self, end);
            }
        }
        for p in PERCENT_WORDS {
            // "12pc" (British press), lower case only: "5 PC" is a computer. Percentage
            // points as "4pp" only glued to the number: "120 pp." counts pages.
            let pages = p == "pp" && !rest.starts_with(p);
            if starts_with_word(spaced, p) && (p != "pc" || spaced.starts_with(p)) && !pages {
                let end = at + skip + p.len();
                push(self, end, NumberKind::Percent, value / 100.0, unit / 200.0);
                return to_char(self, end);
            }
        }
        for p in BASIS_POINT_WORDS {
            if starts_with_word(spaced, p) {
                let end = at + skip + p.len();
                push(
                    self,
                    end,
                    NumberKind::Percent,
                    value / 10_000.0,
                    unit / 20_000.0,
                );
                return to_char(self, end);
            }
        }
        if let Some((scale, len)) = scale_words(spaced) {
            let end = at + skip + len;
            push(
                self,
                end,
                NumberKind::Quantity,
                value * scale,
                unit * scale / 2.0,
            );
            return to_char(self, end);
        }
        // After a currency sign, an attached `m` is million and `b` billion (£30m, $5b), and a
        // spaced one too in tokenized text (XSum, CNN/DailyMail: `£ 7.8 m` for £7.8m);
        // elsewhere case matters: 5M is five million, 5m five metres.
        // Read only when an `m` or `b` follows: most numbers have no currency to look for.
        let money = spaced.starts_with(['m', 'b']) && {
            let before = self.text[..self.byte(start)].trim_end_matches([' ', '\u{a0}']);
            before.ends_with(CURRENCY_SIGNS)
                || CURRENCY_CODES.iter().any(|code| {
                    before
                        .strip_suffix(code)
                        .is_some_and(|b| !b.ends_with(|c: char| c.is_alphanumeric()))
                })
        };
        let currency_abbreviations: &[(&str, f64)] = if money {
            &[("m", 1e6), ("b", 1e9)]
        } else {
            &[]
        };
        let attached = EN_ABBREVIATIONS.iter().map(|a| (a, rest, 0));
        let spaced_money = currency_abbreviations.iter().map(|a| (a, spaced, skip));
        for (&(w, scale), rest, skip) in attached.chain(spaced_money) {
            if rest.starts_with(w)
                && !rest[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
            {
                let end = at + skip + w.len();
                push(
                    self,
                    end,
                    NumberKind::Quantity,
                    value * scale,
                    unit * scale / 2.0,
                );
                return to_char(self, end);
            }
        }
        // 3.5亿, and 3.5 亿 as some typesetting spaces it.
        let cn_rest = if spaced.starts_with(|c: char| is_cjk(c)) {
            spaced
        } else {
            rest
        };
        let cn_at = at + (rest.len() - cn_rest.len());
        for (w, scale) in CN_SCALES {
            if let Some(after) = cn_rest.strip_prefix(w) {
                if w.ends_with('千')
                    && (after.starts_with('米')
                        || after.starts_with('克')
                        || after.starts_with('瓦'))
                {
                    break;
                }
                let end = cn_at + w.len();
                push(
                    self,
                    end,
                    NumberKind::Quantity,
                    value * scale,
                    unit * scale / 2.0,
                );
                return to_char(self, end);
            }
        }
        // 7成 is a tenth, as 七成 is (see `chinese_word`).
        if !exact && (2.0..=9.0).contains(&value) && checked_tenth(rest) {
            let end = at + '成'.len_utf8();
            push(self, end, NumberKind::Percent, value / 10.0, 0.05);
            return to_char(self, end);
        }
        // Chinese dates: 2023年, 5月, 1日/1号 (merged into one date when adjacent).
        if !exact {
            let n: u32 = int.parse().unwrap_or(0);
            let part = if rest.starts_with('年') && int.len() == 4 {
                Some(DateParts {
                    year: Some(n),
                    ..DateParts::default()
                })
            } else if rest.starts_with('月') && (1..=12).contains(&n) {
                Some(DateParts {
                    month: Some(n),
                    ..DateParts::default()
                })
            } else if (rest.starts_with('日') || rest.starts_with('号')) && (1..=31).contains(&n)
            {
                Some(DateParts {
                    day: Some(n),
                    ..DateParts::default()
                })
            } else {
                None
            };
            if let Some(d) = part {
                let end = j + 1;
                self.push_date(start, end, d);
                return end;
            }
        }
        // 20多人, 300余名: a round number and "some" is the range up to the next round number
        // (20 to 30), which a context figure in it supports (23人); the number as written stays
        // a soft reading ("20").
        if !exact {
            let n: u64 = int.parse().unwrap_or(0);
            let some = ['多', '余'].into_iter().find(|&c| rest.starts_with(c));
            if let (Some(c), true) = (some, n >= 10 && n.is_multiple_of(10)) {
                let after = &rest[c.len_utf8()..];
                if !after.starts_with(|c: char| cn_unit(c).is_some() || c.is_ascii_digit()) {
                    let mut place = 1.0;
                    while n.is_multiple_of(place as u64 * 10) && place * 10.0 <= value {
                        place *= 10.0;
                    }
                    let end = at + c.len_utf8();
                    push(
                        self,
                        end,
                        NumberKind::Number,
                        value + place / 2.0,
                        place / 2.0,
                    );
                    self.push_soft(start, at, NumberKind::Number, value, unit / 2.0);
                    return to_char(self, end);
                }
            }
        }
        push(self, at, NumberKind::Number, value, unit / 2.0);
        j
    }

    /// 百分之三十五, 百分之35.5.
    fn percent_prefix(&mut self, i: usize) -> usize {
        let body = i + 3;
        let before = self.out.len();
        let end = match self.ch(body) {
            Some(c) if decimal_digit(c).is_some() => self.western(body),
            Some(c) if cn_digit(c).is_some() || cn_unit(c).is_some() => {
                self.chinese_run(body, true)
            }
            _ => return body,
        };
        if self.out.len() == before + 1 {
            let start = self.byte(i);
            let text: &'t str = self.text;
            if let Some(n) = self.out.last_mut() {
                if n.kind == NumberKind::Number {
                    n.kind = NumberKind::Percent;
                    n.value /= 100.0;
                    n.half_step /= 100.0;
                    n.start = start;
                    n.text = text.get(start..n.end).unwrap_or("");
                }
            }
        }
        end
    }

    fn chinese(&mut self, i: usize) -> usize {
        self.chinese_run(i, false)
    }

    /// A run of Chinese numerals. Outside 百分之 it must start with a digit or 十, be at least
    /// two characters and contain a unit (十百千万亿): 一千二百, 三十五, 十二 count; 一个, 十分,
    /// 千万 (by all means), 万一 (in case), 一一 are words, not numbers.
    fn chinese_run(&mut self, i: usize, forced: bool) -> usize {
        let mut j = i;
        while self
            .ch(j)
            .is_some_and(|c| cn_digit(c).is_some() || cn_unit(c).is_some())
        {
            j += 1;
        }
        // A month and day in Chinese numerals (三月七日, 十二月二十三日) is a date; a month
        // alone (五月) is a soft one: it supports 5月, but is not itself checked (阳春三月 is
        // an idiom as often as a month).
        if !forced {
            if let Some((month, e)) = self.chinese_date_part(i, &['月'], 12) {
                let day = self.chinese_date_part(e, &['日', '号'], 31);
                let end = day.map_or(e, |(_, end)| end);
                self.push_date(
                    i,
                    end,
                    DateParts {
                        month: Some(month),
                        day: day.map(|(d, _)| d),
                        ..DateParts::default()
                    },
                );
                if day.is_none() {
                    if let Some(n) = self.out.last_mut() {
                        n.soft = true;
                    }
                }
                return end;
            }
        }
        // A day in Chinese numerals after a month in digits (3月七日): the day of that date.
        if !forced && i > 0 && self.ch(i - 1) == Some('月') {
            if let Some((day, end)) = self.chinese_date_part(i, &['日', '号'], 31) {
                self.push_date(
                    i,
                    end,
                    DateParts {
                        day: Some(day),
                        ..DateParts::default()
                    },
                );
                return end;
            }
        }
        let run: Vec<char> = self.chars[i..j].iter().map(|&(_, c)| c).collect();
        let has_unit = run.iter().any(|&c| cn_unit(c).is_some());
        if let Some(end) = self.chinese_decimal(i, j, &run, forced) {
            return end;
        }
        if !forced && run.len() == 1 {
            if let Some(end) = self.chinese_word(i, j, run[0]) {
                return end;
            }
        }
        // A year in Chinese digits (二〇一六年), with the month and day after it in Chinese
        // numerals (二〇一六年五月三日): a date, as 2016年5月3日 is.
        if !forced && !has_unit && run.len() == 4 && self.ch(j) == Some('年') {
            let year = run
                .iter()
                .fold(0, |y, &c| y * 10 + cn_digit(c).unwrap_or(0));
            let mut date = DateParts {
                year: Some(year),
                ..DateParts::default()
            };
            let mut end = j + 1;
            if let Some((month, e)) = self.chinese_date_part(end, &['月'], 12) {
                date.month = Some(month);
                end = e;
                if let Some((day, e)) = self.chinese_date_part(end, &['日', '号'], 31) {
                    date.day = Some(day);
                    end = e;
                }
            }
            self.push_date(i, end, date);
            return end;
        }
        if !forced && (run.len() < 2 || !has_unit) {
            return j;
        }
        let Some(value) = chinese_value(&run) else {
            return j;
        };
        // The last unit written sets the precision: 三千 is exact to the thousand.
        let unit = run
            .iter()
            .rev()
            .find_map(|&c| cn_unit(c))
            .filter(|_| run.last().and_then(|&c| cn_unit(c)).is_some())
            .unwrap_or(1.0);
        self.suffix_cn(i, j, value, unit)
    }

    /// A decimal in Chinese numerals (七点八级, 三点五亿元, 百分之零点三), the run `run` being its
    /// whole part and 点 the character at `j`. Only inside 百分之 (`forced`) or before a scale, a
    /// percent or a unit of measure ([`CN_DECIMAL_UNITS`]): 三点五十分 and 八点一刻 are times,
    /// 一点一点 and 三点一线 are words.
    fn chinese_decimal(&mut self, i: usize, j: usize, run: &[char], forced: bool) -> Option<usize> {
        if self.ch(j) != Some('点') || run.iter().any(|&c| matches!(c, '万' | '亿')) {
            return None;
        }
        let whole = chinese_numeral_value(run)?;
        let (mut k, mut digits) = (j + 1, String::new());
        while let Some(d) = self.ch(k).and_then(cn_digit) {
            digits.push(char::from_digit(d, 10)?);
            k += 1;
        }
        if digits.is_empty() {
            return None;
        }
        // As written in digits, so 七点八 is the 7.8 that `7.8` reads.
        let value: f64 = format!("{whole}.{digits}").parse().ok()?;
        let step = 10f64.powi(-i32::try_from(digits.len()).ok()?);
        let scale = self.ch(k).and_then(|c| match c {
            '万' => Some(1e4),
            '亿' => Some(1e8),
            _ => None,
        });
        let rest = self.rest(k);
        let measured = forced
            || scale.is_some()
            || PERCENT_SIGNS
                .iter()
                .chain(&CN_PERCENT_POINTS)
                .chain(&CN_DECIMAL_UNITS)
                .any(|u| rest.starts_with(u));
        if !measured {
            return None;
        }
        let scale = scale.unwrap_or(1.0);
        let end = if scale > 1.0 { k + 1 } else { k };
        Some(self.suffix_cn(i, end, value * scale, step * scale))
    }

    /// A month or day in Chinese numerals at character `k` (五月, 十二月, 二十三日): its value
    /// (1 to `max`) and the index after the character that ends it.
    fn chinese_date_part(&self, k: usize, ends: &[char], max: u32) -> Option<(u32, usize)> {
        let mut e = k;
        while self
            .ch(e)
            .is_some_and(|c| cn_digit(c).is_some() || c == '十')
        {
            e += 1;
        }
        let run: Vec<char> = self.chars[k..e].iter().map(|&(_, c)| c).collect();
        let v = chinese_value(&run)?;
        let v = (v.fract() == 0.0 && (1.0..=f64::from(max)).contains(&v)).then_some(v as u32)?;
        self.ch(e).filter(|c| ends.contains(c)).map(|_| (v, e + 1))
    }

    /// A number written in English words: a cardinal ("three children", "twenty-five",
    /// "four hundred and fifty", "five hundred million": [`english_number`]) is a number, a
    /// quantity when it has a scale word; an ordinal ("eighth") and a fraction or multiple
    /// ("half", "a quarter", "a third", "doubled", "tripled") are soft readings (see
    /// [`Num::soft`]). `one` alone, `first` and `second` are left alone ("one of", "a second").
    fn number_word(&mut self, i: usize, j: usize, word: &str) -> Option<usize> {
        let at = |list: &[&str]| list.iter().position(|w| *w == word);
        let numerator = match word {
            "a" | "an" | "one" => Some(1.0),
            _ => en_cardinal(word),
        };
        // "a third", "two-thirds", "three quarters": a fraction, soft like "half".
        if let Some((num, (den, len))) =
            numerator.and_then(|num| Some((num, fraction_denominator(self.rest(j))?)))
        {
            if num < den {
                // Soft readings: the fraction ("a third" = 33 %) and, as the words alone
                // give, its numerator and denominator ("36/3" of "a third of 36", "2/3 * 9"
                // of "two-thirds of 9").
                let end = self.byte(j) + len;
                let den_at = self.char_at(self.byte(j) + 1);
                self.push_soft(i, end, NumberKind::Percent, num / den, 0.0005);
                if num >= 2.0 {
                    self.push_soft(i, self.byte(j), NumberKind::Number, num, 0.5);
                }
                self.push_soft(den_at, end, NumberKind::Number, den, 0.5);
                return Some(self.char_at(end));
            }
        }
        let read = if numerator.is_some() {
            english_number(self.rest(i))
        } else {
            None
        };
        if let Some(n) = read {
            let end = self.byte(i) + n.len;
            let after = self.char_at(end);
            if n.scaled {
                self.push_plain(i, end, NumberKind::Quantity, n.value, n.place / 2.0);
                return Some(after);
            }
            return Some(self.suffix(i, after, n.value, n.place, false, ""));
        }
        let soft = |s: &mut Self, kind, value: f64, half_step: f64| {
            s.push_soft(i, s.byte(j), kind, value, half_step);
            Some(j)
        };
        // A measure of one ("one year", "a one-year deal", tokenized "one - year") is a
        // number, checked as "two years" is; "a year" is the same measure, soft: it supports
        // "one year" but claims no count of its own. "one day" unhyphenated is "some day".
        let rest = self.rest(j);
        let some_day = rest
            .get(..4)
            .is_some_and(|w| w.eq_ignore_ascii_case(" day"));
        // The article's one spans its noun ("a year", "a man"), as the finding names it.
        let article = |s: &mut Self, len: usize| {
            s.push_soft(i, s.byte(j) + len, NumberKind::Number, 1.0, 0.5);
            Some(j)
        };
        // So is a count of one person ("killing one person", "one man was arrested"): a
        // casualty or arrest count the context must state; "a man", "a 23-year-old woman"
        // state it, softly. "no one", "the one", "one of" stay words.
        if matches!(word, "one" | "a" | "an") && !some_day {
            let one = word == "one";
            if let Some((counted, len)) = one_of(rest, if one { 0 } else { 2 }) {
                if !one {
                    return article(self, len);
                }
                if counted != OneOf::Person || !self.after_determiner(i) {
                    return Some(self.suffix(i, j, 1.0, 1.0, false, ""));
                }
            }
        }
        if let Some(k) = at(&EN_ORDINALS) {
            return soft(self, NumberKind::Number, k as f64 + 3.0, 0.5);
        }
        // A bare "quarter" is a fraction only after a numerator ("a quarter", "three
        // quarters", read above): alone it is most often a period ("the third quarter").
        let fraction = match word {
            "half" | "halved" => Some(0.5),
            "doubled" => Some(1.0),
            "tripled" => Some(2.0),
            _ => None,
        };
        fraction.and_then(|f| soft(self, NumberKind::Percent, f, 0.0005))
    }

    /// One Chinese digit that is a number by what follows it: a count (三个月, 两名, 五倍,
    /// 三年), a tenth (三成 = 30 %), or a soft reading — a fraction (三分之一), 一倍 (100 %),
    /// 一半 (50 %), 一成. 一 alone is an article (一个, 一家), not a number.
    fn chinese_word(&mut self, i: usize, j: usize, c: char) -> Option<usize> {
        if c == '十' {
            return self.lone_ten(i, j);
        }
        let d = f64::from(cn_digit(c)?);
        let rest = self.rest(j);
        let soft = |s: &mut Self, end: usize, value: f64, half_step: f64| {
            s.push_soft(i, s.byte(end), NumberKind::Percent, value, half_step);
            Some(end)
        };
        if rest.starts_with('成') && !rest.starts_with("成不变") && d > 0.0 {
            // 两成 … 九成 are tenths, a statistic the output states (超五成网民 = over 50 %):
            // checked like 50 %. 一成 is left soft (这一成果), as is a word 成 starts after a
            // digit (五成员国 "five member states", 七成熟 "medium well", 三成份股).
            if d >= 2.0 && checked_tenth(rest) {
                self.push_plain(i, self.byte(j + 1), NumberKind::Percent, d / 10.0, 0.05);
                return Some(j + 1);
            }
            return soft(self, j + 1, d / 10.0, 0.05);
        }
        if let Some(after) = rest.strip_prefix("分之") {
            let num = after.chars().next().and_then(cn_digit)?;
            if d > 0.0 {
                return soft(self, j + 3, f64::from(num) / d, 0.0005);
            }
        }
        // 两个百分点, 一个百分点: percentage points, as 2个百分点 is.
        if let Some(p) = CN_PERCENT_POINTS.iter().find(|p| rest.starts_with(**p)) {
            let end = self.byte(j) + p.len();
            self.push_plain(i, end, NumberKind::Percent, d / 100.0, 0.005);
            return Some(self.char_at(end));
        }
        if c == '一' {
            if rest.starts_with('倍') {
                return soft(self, j + 1, 1.0, 0.005);
            }
            if rest.starts_with('半') {
                return soft(self, j + 1, 0.5, 0.005);
            }
            return None;
        }

        if d >= 2.0 && CN_COUNTED.iter().any(|w| rest.starts_with(w)) {
            self.push_plain(i, self.byte(j), NumberKind::Number, d, 0.5);
            return Some(j);
        }
        None
    }

    /// 十 alone: a count before a measure word (十人, 十倍, 十名), as 三人 is; with 多 or 余 the
    /// range 10 to 20 (十余人), as 20多人 is 20 to 30; 十分之一 a soft tenth. Not after 数, 几, 上
    /// or 好 (数十届 is dozens), nor before 年 or 天: 十年寒窗 and 十天半月 are idioms as often
    /// as spans.
    fn lone_ten(&mut self, i: usize, j: usize) -> Option<usize> {
        if i > 0 && self.ch(i - 1).is_some_and(|c| "数几上好".contains(c)) {
            return None;
        }
        let rest = self.rest(j);
        if let Some(num) = rest.strip_prefix("分之").and_then(|r| r.chars().next()) {
            let num = cn_digit(num)?;
            self.push_soft(
                i,
                self.byte(j + 3),
                NumberKind::Percent,
                f64::from(num) / 10.0,
                0.0005,
            );
            return Some(j + 3);
        }
        let (some, counted) = match rest.strip_prefix(['多', '余']) {
            Some(after) => (true, after),
            None => (false, rest),
        };
        if !CN_COUNTED
            .iter()
            .any(|w| !["年", "天"].contains(w) && counted.starts_with(w))
        {
            return None;
        }
        if some {
            self.push_plain(i, self.byte(j + 1), NumberKind::Number, 15.0, 5.0);
            return Some(j + 1);
        }
        self.push_plain(i, self.byte(j), NumberKind::Number, 10.0, 0.5);
        Some(j)
    }

    fn suffix_cn(&mut self, start: usize, j: usize, value: f64, unit: f64) -> usize {
        let rest = self.rest(j);
        for p in PERCENT_SIGNS.iter().chain(&CN_PERCENT_POINTS) {
            if rest.starts_with(p) {
                let end = self.byte(j) + p.len();
                self.push_plain(start, end, NumberKind::Percent, value / 100.0, unit / 200.0);
                return self.chars.partition_point(|&(b, _)| (b as usize) < end);
            }
        }
        let end = self.byte(j);
        self.push_plain(start, end, NumberKind::Number, value, unit / 2.0);
        j
    }

    /// The length of each numbered list, a soft number at its last marker: "1. … 2. … 3. …
    /// 4. …" supports "the 4 products" and "four products" (a summary's count of the list),
    /// while the markers themselves stay no facts. A list counts from 1, one marker after
    /// another, and has two items at least.
    fn list_lengths(&mut self) {
        let markers = std::mem::take(&mut self.markers);
        let mut run = 0;
        for (k, &(n, start, end)) in markers.iter().enumerate() {
            run = if n == run + 1 { n } else { u32::from(n == 1) };
            let continues = markers.get(k + 1).is_some_and(|&(m, _, _)| m == n + 1);
            if run >= 2 && !continues {
                self.push_soft(start, end, NumberKind::Number, f64::from(run), 0.5);
            }
        }
    }

    /// A soft reading (see [`Num::soft`]): pushed like [`Self::push_plain`], never checked in
    /// the output.
    fn push_soft(
        &mut self,
        start: usize,
        end: usize,
        kind: NumberKind,
        value: f64,
        half_step: f64,
    ) {
        self.push_plain(start, end, kind, value, half_step);
        if let Some(n) = self.out.last_mut() {
            n.soft = true;
        }
    }

    fn push_plain(
        &mut self,
        start: usize,
        end: usize,
        kind: NumberKind,
        value: f64,
        half_step: f64,
    ) {
        self.out.push(Num {
            text: self.slice(self.byte(start), end),
            kind,
            value,
            half_step,
            date: None,
            unit: "",
            hedged: false,
            sentence: 0,
            soft: false,
            part_of: None,
            start: self.byte(start),
            end,
        });
    }
}

/// The denominator word after a numerator word ("a third", "two-thirds", "three quarters"):
/// the denominator and the bytes read, separator included.
fn fraction_denominator(s: &str) -> Option<(f64, usize)> {
    let rest = s.strip_prefix([' ', '-'])?;
    let n = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let word = rest[..n].to_ascii_lowercase();
    let den = match word.trim_end_matches('s') {
        "third" => 3.0,
        "quarter" => 4.0,
        "fifth" => 5.0,
        "tenth" => 10.0,
        _ => return None,
    };
    Some((den, 1 + n))
}

/// An English number in words read by [`english_number`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct EnglishNumber {
    value: f64,
    /// Bytes read.
    len: usize,
    /// The place of the last word written: "five hundred million" is exact to the hundred
    /// million, "four hundred and fifty" to the unit, "three point two five" to the hundredth.
    place: f64,
    /// Whether a scale word (hundred, thousand …) was read.
    scaled: bool,
}

/// The English number in words at the start of `s`: "three", "twenty-five", "ninety one",
/// "twelve hundred", "four hundred and fifty", "two thousand three hundred", "five hundred
/// million". Words are joined by one space or hyphen; "and" only after a scale word and
/// before a number word. `one` is a number only with more words ("one hundred",
/// "twenty-one"): alone it is "one of", "no one". None when `s` does not start with one.
fn english_number(s: &str) -> Option<EnglishNumber> {
    #[derive(Clone, Copy, PartialEq)]
    enum Last {
        Start,
        Unit,
        Teen,
        Tens,
        Hundred,
        Scale(f64),
        And,
    }
    let (mut total, mut group) = (0.0, 0.0);
    let (mut total_place, mut group_place) = (1.0, 1.0);
    let (mut last, mut last_scale) = (Last::Start, f64::INFINITY);
    let (mut pos, mut len, mut words, mut scaled) = (0, 0, 0, false);
    loop {
        let mut at = pos;
        // "twenty - five": tokenized text (meeting transcripts, CNN/DM and dialogue corpora)
        // sets the hyphen of a tens and its unit apart; only there.
        let spaced_dash = last == Last::Tens && s[pos..].starts_with(" - ");
        if spaced_dash {
            at += " - ".len();
        } else if last != Last::Start {
            match s[pos..].chars().next() {
                Some(c @ (' ' | '-' | '\u{a0}')) => at += c.len_utf8(),
                _ => break,
            }
        }
        let n = s[at..].bytes().take_while(u8::is_ascii_alphabetic).count();
        if n == 0 || s[at + n..].starts_with(|c: char| c.is_ascii_digit()) {
            break;
        }
        let word = s[at..at + n].to_ascii_lowercase();
        // "a hundred", "a million": one of the scale (the article alone is no number).
        let article = last == Last::Start && (word == "a" || word == "an");
        let value = if word == "one" || article {
            Some(1.0)
        } else {
            en_cardinal(&word)
        };
        if spaced_dash && !value.is_some_and(|v| v < 10.0) {
            break;
        }
        let scale = EN_SCALES.iter().find(|(w, _)| *w == word).map(|&(_, v)| v);
        let next = match (value, scale, word.as_str()) {
            (Some(v), _, _) => {
                let kind = if v < 10.0 {
                    Last::Unit
                } else if v < 20.0 {
                    Last::Teen
                } else {
                    Last::Tens
                };
                let fits = match last {
                    Last::Start | Last::Hundred | Last::Scale(_) | Last::And => true,
                    Last::Tens => kind == Last::Unit,
                    Last::Unit | Last::Teen => false,
                };
                if !fits {
                    break;
                }
                group += v;
                group_place = 1.0;
                kind
            }
            (_, Some(100.0), _) => {
                if !matches!(last, Last::Unit | Last::Teen | Last::Tens) || group >= 100.0 {
                    break;
                }
                group *= 100.0;
                group_place *= 100.0;
                scaled = true;
                Last::Hundred
            }
            (_, Some(f), _) => {
                if !matches!(last, Last::Unit | Last::Teen | Last::Tens | Last::Hundred)
                    || f >= last_scale
                {
                    break;
                }
                total += group * f;
                total_place = group_place * f;
                group = 0.0;
                last_scale = f;
                scaled = true;
                Last::Scale(f)
            }
            (_, _, "and") if matches!(last, Last::Hundred | Last::Scale(_)) => Last::And,
            _ => break,
        };
        last = next;
        pos = at + n;
        if last != Last::And {
            len = pos;
            words += 1;
        }
    }
    let mut value = total + group;
    let mut place = if group > 0.0 {
        group_place
    } else {
        total_place
    };
    let article = s
        .as_bytes()
        .first()
        .is_some_and(|b| b.eq_ignore_ascii_case(&b'a'));
    if len == 0 || (article && !scaled) {
        return None;
    }
    // Spoken decimals ("three point five", "twelve dot fifty", "two and a half") and a
    // currency's hundredths ("twelve euros and fifty cents"), as meeting transcripts write
    // 3.5, 12.50, 2.5 and €12.50: only after a whole number below a hundred, and a scale word
    // may follow ("two and a half million").
    let fraction = (!scaled && value < 100.0)
        .then(|| english_fraction(&s[len..]))
        .flatten();
    if let Some((frac, step, n)) = fraction {
        value += frac;
        place = step;
        len += n;
        if let Some((scale, n)) = s[len..].strip_prefix(' ').and_then(scale_words) {
            value *= scale;
            place *= scale;
            len += 1 + n;
            scaled = true;
        }
    } else if words == 1 && value == 1.0 {
        return None;
    }
    Some(EnglishNumber {
        value,
        len,
        place,
        scaled,
    })
}

/// The spoken decimal part right after a whole number in words: " point five", " point two
/// five", " dot fifty" (two digits in one word), " and a half", or a currency's hundredths
/// (" euros and fifty cents"): the fraction, the step of its last digit, and the bytes read.
/// A currency's hundredths end before the currency word is read, so that the number keeps
/// its unit ("twelve" of "twelve euros and fifty centimes" is 12.50 euros).
fn english_fraction(s: &str) -> Option<(f64, f64, usize)> {
    let word_at = |at: usize| {
        let n = s[at..].bytes().take_while(u8::is_ascii_alphabetic).count();
        (n > 0).then(|| (s[at..at + n].to_ascii_lowercase(), at + n))
    };
    let digit = |w: &str| match w {
        "zero" | "oh" | "nought" => Some(0.0),
        "one" => Some(1.0),
        w => en_cardinal(w).filter(|v| *v < 10.0),
    };
    // Two digits in one or two words: "fifty", "twenty-five", "twenty five", "fifteen".
    let two_digits = |at: usize| -> Option<(f64, usize)> {
        let (w, end) = word_at(at)?;
        let v = en_cardinal(&w).filter(|v| (10.0..100.0).contains(v))?;
        if v >= 20.0 && v % 10.0 == 0.0 {
            let more = s[end..]
                .strip_prefix([' ', '-'])
                .and_then(|_| word_at(end + 1));
            if let Some((u, e)) = more {
                if let Some(d) = digit(&u).filter(|&d| d > 0.0) {
                    return Some((v + d, e));
                }
            }
        }
        Some((v, end))
    };
    s.strip_prefix(' ')?;
    let (w, end) = word_at(1)?;
    match w.as_str() {
        "point" | "dot" => {
            let at = end + 1;
            if !s[end..].starts_with(' ') {
                return None;
            }
            // Digit by digit ("point two five"), or two digits in one word ("dot fifty").
            let mut digits = Vec::new();
            let mut pos = end;
            while let Some((d, e)) = s[pos..]
                .strip_prefix(' ')
                .and_then(|_| word_at(pos + 1))
                .and_then(|(w, e)| Some((digit(&w)?, e)))
            {
                digits.push(d);
                pos = e;
                if digits.len() == 6 {
                    break;
                }
            }
            if digits.is_empty() {
                let (v, e) = two_digits(at)?;
                return Some((v / 100.0, 0.01, e));
            }
            let (frac, step) = digits.iter().fold((0.0, 1.0), |(f, step), d| {
                (f + d * step / 10.0, step / 10.0)
            });
            Some((frac, step, pos))
        }
        "and" => {
            let tail = s[end..].strip_prefix(' ')?;
            let half = ["a half", "one half"]
                .iter()
                .find(|h| starts_with_word(tail, h))?;
            Some((0.5, 0.1, end + 1 + half.len()))
        }
        _ => {
            // " euros and fifty cents": hundredths of a currency named in words.
            let named = |list: &[&str], w: &str| {
                list.iter()
                    .any(|c| w.strip_prefix(c).is_some_and(|p| p.is_empty() || p == "s"))
            };
            if !named(&CURRENCY_WORDS, &w) || !s[end..].starts_with(" and ") {
                return None;
            }
            let at = end + " and ".len();
            let (v, e) = two_digits(at).or_else(|| {
                let (w, e) = word_at(at)?;
                Some((digit(&w).filter(|&d| d > 0.0)?, e))
            })?;
            let (sub, _) = s[e..].strip_prefix(' ').and_then(|_| word_at(e + 1))?;
            named(&SUBUNIT_WORDS, &sub).then_some((v / 100.0, 0.01, 0))
        }
    }
}

/// Currencies named in words whose hundredth has a name ([`SUBUNIT_WORDS`]), singular.
const CURRENCY_WORDS: [&str; 5] = ["dollar", "euro", "pound", "franc", "buck"];

/// A currency's hundredth, singular ("pence" is its own plural).
const SUBUNIT_WORDS: [&str; 4] = ["cent", "centime", "penny", "pence"];

/// The scale words at the start of `s`, multiplied ("million", "hundred thousand", "thousand
/// million"; a plural after digits, "120 millions", is the same scale): the scale and the bytes
/// read.
fn scale_words(s: &str) -> Option<(f64, usize)> {
    let one = |s: &str| {
        EN_SCALES
            .iter()
            .chain(&SPACED_ABBREVIATIONS)
            .find_map(|&(w, scale)| {
                let plural = s.len() > w.len() && s.as_bytes()[w.len()].eq_ignore_ascii_case(&b's');
                let len = w.len() + usize::from(plural);
                (s.len() >= w.len()
                    && s.is_char_boundary(w.len())
                    && s[..w.len()].eq_ignore_ascii_case(w)
                    && !s[len..].starts_with(|c: char| c.is_ascii_alphanumeric()))
                .then_some((scale, len))
            })
    };
    let (mut scale, mut len) = one(s)?;
    // A larger scale right after multiplies: five hundred million.
    while let Some((more, n)) = s[len..]
        .strip_prefix(' ')
        .and_then(one)
        .filter(|&(more, _)| more > scale)
    {
        scale *= more;
        len += 1 + n;
    }
    Some((scale, len))
}

/// `text` cut to at most `max` bytes, on a character boundary.
fn prefix_below(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let end = text.floor_char_boundary(max);
    &text[..end]
}

/// The ASCII letters that end `text` ("Henry" of "King Henry"; "" after a space or a digit).
fn word_ending(text: &str) -> &str {
    text.rsplit(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("")
}

fn starts_with_word(s: &str, w: &str) -> bool {
    s.len() >= w.len()
        && s.is_char_boundary(w.len())
        && s[..w.len()].eq_ignore_ascii_case(w)
        && !s[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
}

/// 一千二百 → 1200, 三亿五千万 → 350,000,000, 一千零五 → 1005, 十二 → 12.
/// Whether `c` is a Chinese numeral: a digit (三, 两, 零) or a unit (十, 百, 万).
pub(crate) fn is_chinese_numeral(c: char) -> bool {
    cn_digit(c).is_some() || cn_unit(c).is_some()
}

/// The value of a run of Chinese numerals (三, 二十一, 零), zero included.
pub(crate) fn chinese_numeral_value(run: &[char]) -> Option<f64> {
    if !run.iter().all(|&c| is_chinese_numeral(c)) {
        return None;
    }
    if !run.is_empty() && run.iter().all(|&c| cn_digit(c) == Some(0)) {
        return Some(0.0);
    }
    chinese_value(run)
}

fn chinese_value(run: &[char]) -> Option<f64> {
    let (mut total, mut wan, mut section, mut num) = (0.0, 0.0, 0.0, 0.0);
    for &c in run {
        if let Some(d) = cn_digit(c) {
            num = f64::from(d);
        } else if let Some(u) = cn_unit(c) {
            match c {
                '万' => {
                    wan += (section + num) * u;
                    section = 0.0;
                }
                '亿' => {
                    total += (wan + section + num) * u;
                    wan = 0.0;
                    section = 0.0;
                }
                // 十二, 一千零十: a unit with no digit before it means one of it.
                _ => section += if num == 0.0 { 1.0 } else { num } * u,
            }
            num = 0.0;
        }
    }
    let v = total + wan + section + num;
    (v > 0.0).then_some(v)
}

/// English month words next to numbers become dates: "May 1, 2023", "1 May 2023",
/// "May 2023", "May 1". Adjacent Chinese parts (2023年 5月 1日) become one date.
fn merge_dates<'t>(
    text: &'t str,
    mut nums: Vec<Num<'t>>,
    months: &[(u32, usize, usize)],
) -> Vec<Num<'t>> {
    // Only separators between the pieces of one date.
    let gap = |a: usize, b: usize| {
        a <= b
            && text.get(a..b).is_some_and(|g| {
                g.chars().all(|c| matches!(c, ' ' | ',' | '\u{a0}')) && g.len() <= 3
            })
    };
    // After a day, its ordinal ending and an "of" ("the 10th of May 1848", "May 10th, 1848").
    let day_gap = |a: usize, b: usize| {
        let Some(g) = text.get(a..b) else {
            return false;
        };
        match strip_ordinal_ending(g) {
            Some(rest) => {
                gap(a + (g.len() - rest.len()), b)
                    || rest.trim_matches(' ').eq_ignore_ascii_case("of")
            }
            None => gap(a, b),
        }
    };
    let int = |n: &Num| {
        (n.kind == NumberKind::Number && n.half_step == 0.5 && n.value.fract() == 0.0)
            .then_some(n.value as u32)
    };
    let is_year = |n: &Num| int(n).filter(|y| (1000..=2999).contains(y) && n.text.len() == 4);
    // An ordinal word is a day too ("the seventh of March", "March seventh").
    let word_day = |n: &Num| n.soft && n.text.bytes().all(|b| b.is_ascii_alphabetic());
    let is_day =
        |n: &Num| int(n).filter(|d| (1..=31).contains(d) && (n.text.len() <= 2 || word_day(n)));
    // Compacted in place: each step reads nums[k] (and nums[k + 1]) and writes at most one
    // number at `w <= k`, so no second vector of numbers is needed.
    let mut w = 0;
    let mut k = 0;
    // Months in text order; each month word is matched against the numbers around it.
    let mut mi = 0;
    nums.sort_by_key(|n| n.start);
    while k < nums.len() {
        // A month word that starts before this number and ends right before it, or right after.
        while mi < months.len()
            && months[mi].2 <= nums[k].start
            && !gap(months[mi].2, nums[k].start)
        {
            mi += 1;
        }
        let n = nums[k];
        if let Some(&(m, ms, me)) = months.get(mi) {
            // Month first: "May 1, 2023" / "May 2023" / "May 1".
            if me <= n.start && gap(me, n.start) {
                if let Some(y) = is_year(&n) {
                    put(
                        &mut nums,
                        &mut w,
                        date_num(text, ms, n.end, None, Some(m), Some(y)),
                    );
                    k += 1;
                    mi += 1;
                    continue;
                }
                if let Some(d) = is_day(&n) {
                    let next = nums
                        .get(k + 1)
                        .filter(|y| day_gap(n.end, y.start))
                        .and_then(is_year);
                    let end = if next.is_some() {
                        nums[k + 1].end
                    } else {
                        n.end
                    };
                    put(
                        &mut nums,
                        &mut w,
                        date_num(text, ms, end, Some(d), Some(m), next),
                    );
                    k += if next.is_some() { 2 } else { 1 };
                    mi += 1;
                    continue;
                }
            }
            // Day first: "1 May 2023".
            if let Some(d) = is_day(&n) {
                let of = word_day(&n)
                    && text
                        .get(n.end..ms)
                        .is_some_and(|g| g.trim().eq_ignore_ascii_case("of"));
                if n.end <= ms && (day_gap(n.end, ms) || of) {
                    let next = nums
                        .get(k + 1)
                        .filter(|y| gap(me, y.start))
                        .and_then(is_year);
                    let end = if next.is_some() { nums[k + 1].end } else { me };
                    put(
                        &mut nums,
                        &mut w,
                        date_num(text, n.start, end, Some(d), Some(m), next),
                    );
                    k += if next.is_some() { 2 } else { 1 };
                    mi += 1;
                    continue;
                }
            }
        }
        // Chinese parts: 2023年5月1日 (adjacent, no gap at all).
        if let (Some(a), Some(prev)) = (n.date, w.checked_sub(1).and_then(|p| nums.get_mut(p))) {
            if let Some(p) = prev.date.as_mut() {
                let fits = prev.end == n.start
                    && ((p.day.is_none()
                        && p.month.is_some()
                        && a.day.is_some()
                        && a.month.is_none()
                        && a.year.is_none())
                        || (p.month.is_none()
                            && p.day.is_none()
                            && p.year.is_some()
                            && a.month.is_some()
                            && a.year.is_none()));
                if fits {
                    p.month = p.month.or(a.month);
                    p.day = p.day.or(a.day);
                    prev.end = n.end;
                    prev.text = text.get(prev.start..prev.end).unwrap_or("");
                    k += 1;
                    continue;
                }
            }
        }
        put(&mut nums, &mut w, n);
        k += 1;
    }
    nums.truncate(w);
    nums
}

/// Writes `n` at `*w` (never past the number being read) and moves `w` on.
fn put<'t>(nums: &mut [Num<'t>], w: &mut usize, n: Num<'t>) {
    if let Some(slot) = nums.get_mut(*w) {
        *slot = n;
    }
    *w += 1;
}

/// A length in metres and centimetres (`8米10`, a long jump's 8.10 m) is one number, not 8 and
/// 10: two digits at most before `米`, exactly two after it and nothing numeric or counted
/// right after those (`5米10次` stays two numbers).
fn merge_measures<'t>(text: &'t str, nums: Vec<Num<'t>>) -> Vec<Num<'t>> {
    let digits = |n: &Num, len: std::ops::RangeInclusive<usize>| {
        n.kind == NumberKind::Number
            && len.contains(&n.text.len())
            && n.text.bytes().all(|b| b.is_ascii_digit())
    };
    let mut out: Vec<Num<'t>> = Vec::with_capacity(nums.len());
    let mut it = nums.into_iter().peekable();
    while let Some(a) = it.next() {
        let joined = it.peek().copied().filter(|b| {
            let after = text.get(b.end..).unwrap_or("");
            digits(&a, 1..=2)
                && digits(b, 2..=2)
                && text.get(a.end..b.start) == Some("米")
                && !after.starts_with(|c: char| {
                    c.is_ascii_digit()
                        || matches!(c, '.' | '%' | '米' | '次')
                        || CN_CLASSIFIERS.contains(c)
                })
        });
        match joined {
            Some(b) => {
                it.next();
                out.push(Num {
                    text: text.get(a.start..b.end).unwrap_or(a.text),
                    value: a.value + b.value / 100.0,
                    half_step: 0.005,
                    end: b.end,
                    ..a
                });
            }
            None => out.push(a),
        }
    }
    out
}

fn date_num<'t>(
    text: &'t str,
    start: usize,
    end: usize,
    day: Option<u32>,
    month: Option<u32>,
    year: Option<u32>,
) -> Num<'t> {
    Num {
        text: text.get(start..end).unwrap_or(""),
        kind: NumberKind::Date,
        value: f64::from(year.or(month).unwrap_or(0)),
        half_step: 0.5,
        date: Some(DateParts {
            year,
            month,
            day,
            minute: None,
            quarter: None,
            season: false,
        }),
        unit: "",
        hedged: false,
        sentence: 0,
        soft: false,
        part_of: None,
        start,
        end,
    }
}

/// Measure words of Chinese counts (三个月, 32名选手): the unit is the word after them.
const CN_CLASSIFIERS: &str = "个名位只家项条种座台辆架艘批";
/// Characters after a number that say it is approximate (300多人, 20余家, 十来个).
const CN_APPROX_AFTER: &str = "多余来";
/// Characters after a Chinese number that are not a unit (grammar, not what is counted).
const CN_NOT_UNITS: &str = "的和与及至到在是为了而或比较同中以从、";
/// English words after a number that are not a unit.
const EN_NOT_UNITS: [&str; 22] = [
    "of", "and", "to", "in", "the", "a", "an", "per", "more", "than", "or", "on", "at", "for",
    "from", "by", "with", "as", "is", "was", "were", "times",
];
/// Written right before a number: it is an approximation.
const HEDGES_BEFORE: [&str; 22] = [
    "about",
    "around",
    "approximately",
    "nearly",
    "almost",
    "roughly",
    "some",
    "over",
    "more than",
    "less than",
    "under",
    "close to",
    "up to",
    "an estimated",
    "~",
    "约",
    "约为",
    "大约",
    "近",
    "将近",
    "接近",
    "超过",
];
/// Written right after a number: it is an approximation.
const HEDGES_AFTER: [&str; 6] = ["多", "余", "左右", "上下", "以上", "来"];

/// A CJK unified ideograph: the characters read as Chinese (units, subjects, word pairs).
pub(crate) fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// The unit written with a number: a currency sign before it, else the word after it (Chinese:
/// the character after an approximation mark and a measure word; 美元/港元/英镑 as two). Empty
/// for percentages (the percent is the unit) and dates.
fn unit_of<'t>(text: &'t str, n: &Num<'t>) -> &'t str {
    if matches!(n.kind, NumberKind::Percent | NumberKind::Date) {
        return "";
    }
    // `£ 500,000`: tokenized text spaces the sign from its amount.
    let before = text
        .get(..n.start)
        .unwrap_or("")
        .trim_end_matches([' ', '\u{a0}']);
    if let Some(c) = before.chars().next_back() {
        if CURRENCY_SIGNS.contains(&c) {
            return before.get(before.len() - c.len_utf8()..).unwrap_or("");
        }
    }
    let after = text.get(n.end..).unwrap_or("");
    let Some(first) = after.chars().next() else {
        return "";
    };
    if is_cjk(first) {
        let mut rest = after;
        let mut classifier = "";
        for strip in [CN_APPROX_AFTER, CN_CLASSIFIERS] {
            if let Some(c) = rest.chars().next().filter(|c| strip.contains(*c)) {
                if strip == CN_CLASSIFIERS {
                    classifier = &rest[..c.len_utf8()];
                }
                rest = &rest[c.len_utf8()..];
            }
        }
        let mut chars = rest.char_indices();
        let Some((_, c)) = chars.next().filter(|(_, c)| is_cjk(*c)) else {
            // A measure word that ends the phrase is what is counted (`总数超过2000只。`):
            // no year is counted so.
            return classifier;
        };
        if CN_NOT_UNITS.contains(c) {
            return "";
        }
        let two = rest.chars().nth(1).is_some_and(|d| "元镑".contains(d))
            && "美欧港日英澳加韩".contains(c);
        let len = c.len_utf8() + if two { "元".len() } else { 0 };
        return rest.get(..len).unwrap_or("");
    }
    // English: the next word ("3 points", "3-year"), unless it is grammar.
    let rest = after.strip_prefix([' ', '\u{a0}', '-']).unwrap_or(after);
    let len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let word = &rest[..len];
    if len < 2 || EN_NOT_UNITS.iter().any(|w| w.eq_ignore_ascii_case(word)) {
        return "";
    }
    word
}

/// One spelling per unit: lower case, no plural "s", currencies by sign.
fn unit_key(unit: &str) -> String {
    let u = unit.to_ascii_lowercase();
    let u = match u.as_str() {
        "dollar" | "dollars" | "usd" | "美元" => "$",
        "pound" | "pounds" | "英镑" => "£",
        "euro" | "euros" | "欧元" => "€",
        "yuan" | "rmb" | "元" | "¥" | "￥" => "元",
        "percentage" | "pct" => "%",
        _ => u.as_str(),
    };
    u.strip_suffix('s')
        .filter(|s| s.len() > 2)
        .unwrap_or(u)
        .to_string()
}

/// Whether two numbers can be of one unit: both written with the same unit ("3 points" and "5
/// points"; "240元" and "241.2元"), or, in English, one of them bare (English leaves most
/// units to the sentence: "1,470 were exported" of "4,200 units").
pub(crate) fn same_unit(a: &Num, b: &Num) -> bool {
    let (x, y) = (unit_key(a.unit), unit_key(b.unit));
    // Chinese writes the unit with the number (240元, 15名): a bare one is another quantity.
    let written = |u: &str| u.chars().next().is_some_and(is_cjk);
    x == y || (x.is_empty() && !written(&y)) || (y.is_empty() && !written(&x))
}

/// Whether both numbers are written with one unit word ("three children", "four children").
pub(crate) fn same_written_unit(a: &Num, b: &Num) -> bool {
    let key = unit_key(a.unit);
    !key.is_empty() && key == unit_key(b.unit)
}

/// Whether both numbers are written with one unit, or both with none.
pub(crate) fn same_written_unit_or_bare(a: &Num, b: &Num) -> bool {
    unit_key(a.unit) == unit_key(b.unit)
}

/// A year, written as one (2023年, May 2023) or as a bare four-digit number 1000–2100 with no
/// Chinese unit after it ("in 2016", "the 2014 election"; 1500人 is a count).
pub(crate) fn year_like(n: &Num) -> bool {
    if n.year_only().is_some() {
        return true;
    }
    n.kind == NumberKind::Number
        && n.text.len() == 4
        && n.text.bytes().all(|b| b.is_ascii_digit())
        && (1000.0..=2100.0).contains(&n.value)
        && !n.unit.chars().next().is_some_and(is_cjk)
}

/// Significant digits as written (3066.36 → 6, 12.9 billion → 3, 870万 → 2, 41% → 2).
pub(crate) fn significant_digits(n: &Num) -> u32 {
    let step = 2.0 * n.half_step;
    if step <= 0.0 || n.value == 0.0 {
        return 1;
    }
    let digits = (n.value.abs() / step).log10().floor() + 1.0;
    digits.clamp(1.0, 30.0) as u32
}

fn hedged(text: &str, n: &Num) -> bool {
    let before = text.get(..n.start).unwrap_or("");
    let from = before.ceil_char_boundary(before.len().saturating_sub(16));
    let near = before[from..]
        .trim_end_matches(|c| c == ' ' || CURRENCY_SIGNS.contains(&c))
        .to_ascii_lowercase();
    let after = text.get(n.end..).unwrap_or("");
    HEDGES_BEFORE.iter().any(|h| {
        near.ends_with(h)
            && (!h.is_ascii()
                || !near[..near.len() - h.len()].ends_with(|c: char| c.is_ascii_alphabetic()))
    }) || HEDGES_AFTER.iter().any(|h| after.starts_with(h))
}

/// The scale word a quantity ends with (4.2 billion → 1e9), if any.
fn scale_of(text: &str) -> Option<f64> {
    let lower = text.to_ascii_lowercase();
    EN_SCALES
        .iter()
        .find(|(w, _)| lower.ends_with(w))
        .map(|&(_, s)| s)
        .or_else(|| {
            EN_ABBREVIATIONS
                .iter()
                .find(|(w, _)| text.ends_with(w))
                .map(|&(_, s)| s)
        })
        .or_else(|| {
            CN_SCALES
                .iter()
                .find(|(w, _)| text.ends_with(w))
                .map(|&(_, s)| s)
        })
}

/// Units and approximation marks, then a scale word shared by a range or a pair: "from 3.9 to
/// 4.2 billion", "3至4亿" — the first number is 3.9 billion too.
fn annotate<'t>(text: &'t str, nums: &mut [Num<'t>]) {
    let mut sentence = 0u32;
    let mut from = 0;
    for slot in nums.iter_mut() {
        let n = *slot;
        slot.unit = unit_of(text, &n);
        slot.hedged = hedged(text, &n);
        let between = text.get(from..n.start).unwrap_or("");
        sentence += between
            .char_indices()
            .filter(|&(i, c)| {
                matches!(c, '。' | '！' | '？' | '!' | '?' | '\n')
                    || (c == '.' && between[i + 1..].starts_with(char::is_whitespace))
            })
            .count() as u32;
        slot.sentence = sentence;
        from = n.start.max(from);
    }
    for k in (1..nums.len()).rev() {
        let (a, b) = (nums[k - 1], nums[k]);
        if a.kind != NumberKind::Number
            || !matches!(b.kind, NumberKind::Quantity | NumberKind::Percent)
            || a.end > b.start
            || a.soft
            || b.soft
        {
            continue;
        }
        let gap = text
            .get(a.end..b.start)
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if !["to", "and", "or", "-", "–", "至", "到", "和", "与", "、"].contains(&gap.as_str())
        {
            continue;
        }
        // A range of percentages: "5-7%", "5 to 7 per cent", "5至7%".
        if b.kind == NumberKind::Percent {
            let a = &mut nums[k - 1];
            a.kind = NumberKind::Percent;
            a.value /= 100.0;
            a.half_step /= 100.0;
            continue;
        }
        if let Some(scale) = scale_of(b.text) {
            let a = &mut nums[k - 1];
            a.kind = NumberKind::Quantity;
            a.value *= scale;
            a.half_step *= scale;
            a.unit = b.unit;
        }
    }
}

// Read back from a kept report (`AuditReport`'s reader, `audit::report`).

use crate::json::{FieldError, Fields, FromJson, Named, Path, Text};
use serde_json::Value;

impl FromJson for CheckedNumber {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let optional_text = |key: &'static str| match f.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => f.required::<Text>(key).map(|t| Some(t.0)),
        };
        Ok(CheckedNumber {
            text: f.required::<Text>("text")?.0,
            kind: f.required::<Named<NumberKind>>("kind")?.0,
            value: f.required("value")?,
            status: f.required::<Named<Status>>("status")?.0,
            source: optional_text("source")?,
            operation: match f.get("operation") {
                None | Some(Value::Null) => None,
                Some(_) => Some(f.required::<Named<Operation>>("operation")?.0),
            },
            at: 0,
        })
    }
}

impl FromJson for NumberGrounding {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(NumberGrounding {
            numbers: f.required("numbers")?,
            context_numbers: f.required("context_numbers")?,
            unchecked: f.or_default("unchecked")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(context: &str, output: &str) -> Vec<(String, String)> {
        ground_numbers(context, output)
            .numbers
            .into_iter()
            .map(|n| {
                let s = match n.source {
                    Some(source) => format!("{} {source}", n.status.as_str()),
                    None => n.status.as_str().to_string(),
                };
                (n.text, s)
            })
            .collect()
    }

    fn one(context: &str, output: &str) -> String {
        let all = status(context, output);
        assert_eq!(all.len(), 1, "{all:?}");
        all[0].1.clone()
    }

    fn values(text: &str) -> Vec<(String, f64)> {
        scan(text)
            .into_iter()
            .map(|n| (n.text.to_string(), n.value))
            .collect()
    }

    #[test]
    fn case_13_fabricated_admission_rate_is_not_found() {
        let ctx = "该校2023年本科招生4200人，其中省内生源占70%。";
        let out = "该校2023年本科招生4200人，985高校录取率达到35%，该校规模较大。";
        let s = status(ctx, out);
        assert_eq!(
            s,
            vec![
                ("2023年".into(), "verbatim".into()),
                ("4200".into(), "verbatim".into()),
                ("985".into(), "not_found".into()),
                ("35%".into(), "not_found".into()),
            ]
        );
    }

    #[test]
    fn a_duration_is_one_number_in_seconds() {
        let v = values("以4分17秒69夺冠，马拉松2小时19分44秒，59秒08，贡献32分20篮板");
        let texts: Vec<&str> = v.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            vec!["4分17秒69", "2小时19分44秒", "59秒08", "32", "20"]
        );
        assert!((v[0].1 - 257.69).abs() < 1e-9);
        assert!((v[1].1 - 8384.0).abs() < 1e-9);
        assert!((v[2].1 - 59.08).abs() < 1e-9);
        let ctx = "毛飞廉以4分17秒69的成绩夺冠。";
        assert_eq!(one(ctx, "以4分19秒87的成绩夺冠"), "not_found");
        assert_eq!(one(ctx, "以4分17秒69的成绩夺冠"), "verbatim");
    }

    #[test]
    fn english_notations() {
        let ctx = "Revenue was 1,200 thousand dollars; margin 8% and 1,234,567 users in 2023.";
        assert_eq!(
            one(ctx, "Revenue reached 1.2 million dollars."),
            "notation 1,200 thousand"
        );
        assert_eq!(one(ctx, "a margin of 0.08"), "notation 8%");
        assert_eq!(one(ctx, "a margin of 8 percent"), "notation 8%");
        assert_eq!(
            one("1,234,567 users", "about 1.2M users"),
            "rounded 1,234,567"
        );
        assert_eq!(one("1,234,567 users", "about 1.2m users"), "not_found");
        assert_eq!(one(ctx, "1234567 users"), "notation 1,234,567");
        assert_eq!(one(ctx, "9% margin"), "not_found");
        // Spoken decimals of a transcript.
        let said = "It costs no more than twelve Euros and fifty centimes; sales grew three \
point five percent.";
        assert_eq!(one(said, "It costs 12.50 Euros."), "notation twelve");
        assert_eq!(
            one(said, "Sales grew 3.5%."),
            "notation three point five percent"
        );
        assert_eq!(one(said, "Sales grew 3.6%."), "not_found");
        // Lakh and crore, the Indian scales.
        let ctx = "The scheme costs Rs 500 crore; about 15 lakh people registered.";
        assert_eq!(one(ctx, "It costs Rs 5 billion."), "notation 500 crore");
        assert_eq!(one(ctx, "1.5 million people"), "notation 15 lakh");
        assert_eq!(one(ctx, "It costs Rs 6 billion."), "not_found");
        assert_eq!(
            one("a budget of Rs 1.5 lakh crore", "Rs 1.5 trillion"),
            "notation 1.5 lakh crore"
        );
    }

    #[test]
    fn k_and_thousand_and_chinese_numerals_are_one_value() {
        let ctx = "共有1,200名学生。";
        for out in [
            "1.2k students",
            "1.2 thousand students",
            "一千二百名学生",
            "1200名",
        ] {
            assert!(
                one(ctx, out).starts_with("notation"),
                "{out}: {}",
                one(ctx, out)
            );
        }
        assert_eq!(values("一千二百"), vec![("一千二百".into(), 1200.0)]);
        assert_eq!(values("三亿五千万")[0].1, 350_000_000.0);
        assert_eq!(values("一千零五")[0].1, 1005.0);
        assert_eq!(values("十二个")[0].1, 12.0);
        assert_eq!(values("4200万")[0].1, 42_000_000.0);
        assert_eq!(values("百分之三十五")[0], ("百分之三十五".into(), 0.35));
        // Words, not numbers.
        assert!(values("一个统一的想法，十分重要，千万不要，万一失败").is_empty());
    }

    #[test]
    fn chinese_decimals_and_a_lone_ten_are_numbers() {
        // X点Y before a unit, a scale or a percent, or inside 百分之.
        assert_eq!(values("七点八级")[0], ("七点八".into(), 7.8));
        assert_eq!(values("三点五亿元")[0], ("三点五亿".into(), 350_000_000.0));
        assert_eq!(values("百分之零点三")[0], ("百分之零点三".into(), 0.003));
        assert_eq!(
            one("土耳其发生7.8级地震。", "发生七点八级地震"),
            "notation 7.8"
        );
        assert_eq!(one("土耳其发生强烈地震。", "发生七点八级地震"), "not_found");
        assert_eq!(one("失业率上升。", "失业率上升了百分之零点三"), "not_found");
        assert_eq!(
            one("全国有5.2万家企业。", "全国有五点二万家企业"),
            "notation 5.2万"
        );
        assert_eq!(
            one("全国有5.3万家企业。", "全国有五点二万家企业"),
            "not_found"
        );
        // A time of day, a word: no decimal.
        assert!(values("一点一点地，三点一线").is_empty());
        assert!(!values("八点一刻").iter().any(|(t, _)| t.contains('点')));
        // 十 alone before a measure word; 十余 is 10 to 20.
        assert_eq!(values("共有十人受伤"), vec![("十".into(), 10.0)]);
        assert_eq!(one("多人受伤。", "共有十人受伤"), "not_found");
        assert_eq!(one("需求大幅增长。", "需求增长了十倍"), "not_found");
        assert_eq!(one("共有12人受伤。", "共有十余人受伤"), "rounded 12");
        assert_eq!(one("共有25人受伤。", "共有十余人受伤"), "not_found");
        assert_eq!(one("需求增长了10倍。", "需求增长了十倍"), "notation 10");
        // Dozens, idioms: no count.
        assert!(values("数十届，十年寒窗，十天半月，几十人").is_empty());
    }

    #[test]
    fn a_number_the_context_states_in_any_notation_is_supported() {
        // A bare year is the year of a full date; a range of years too.
        let ctx = "Francis I (8 December 1708 -- 18 August 1765) was emperor.";
        assert_eq!(
            status(ctx, "Francis I (1708-1765)"),
            vec![
                ("1708".to_string(), "notation 8 December 1708".to_string()),
                ("1765".to_string(), "notation 18 August 1765".to_string())
            ]
        );
        assert_eq!(
            one("It ended on 28 June 2013.", "in 2013"),
            "notation 28 June 2013"
        );
        // A date's missing parts from the context's other dates (a dateline).
        let ctx = "新华社北京7月5日电 在5日结束的2015年公开赛中";
        assert_eq!(one(ctx, "2015年7月5日，"), "notation 7月5日");
        let ctx = "新华社汉诺威4月12日电 展会将从13日持续到17日。";
        assert_eq!(one(ctx, "展会将持续至4月17日"), "notation 17日");
        assert_eq!(one(ctx, "展会将持续至5月17日"), "not_found");
        // Space thousands.
        assert_eq!(
            values("1 234 567 people"),
            vec![("1 234 567".into(), 1_234_567.0)]
        );
        assert_eq!(
            one("a crowd of 1 234 567", "1,234,567 people"),
            "notation 1 234 567"
        );
        // Two groups may be two numbers (39 cars of the 250 GTO model); three are one.
        let ctx = "Just 39 250 GTOs were made.";
        assert_eq!(one(ctx, "only 39 were made"), "notation 39 250");
        assert_eq!(one(ctx, "the 250 GTO"), "notation 39 250");
        assert_eq!(one(ctx, "39,250 cars"), "notation 39 250");
        assert_eq!(one(ctx, "only 25 were made"), "not_found");
        assert_eq!(one("a crowd of 1 234 567", "1 person"), "not_found");
        // A scale word shared by a range: 3.9 is 3.9 billion.
        assert_eq!(
            one("Sales rose from 3.9 to 4.2 billion.", "sales rose 7.7%"),
            "derived (4.2 billion − 3.9) / 3.9"
        );
        // Points of a rate are percentage points.
        assert_eq!(
            one("The rate rose 0.5 percentage points.", "up 0.5 points"),
            "notation 0.5 percentage points"
        );
    }

    #[test]
    fn numbers_in_words_are_read() {
        assert_eq!(
            values("had three children and twenty-five cousins, four million fans"),
            vec![
                ("three".into(), 3.0),
                ("twenty-five".into(), 25.0),
                ("four million".into(), 4e6)
            ]
        );
        assert_eq!(
            one("He had four children.", "had three children"),
            "not_found"
        );
        assert_eq!(
            one("in the eighth round", "quit in the 8th round"),
            "notation eighth"
        );
        assert_eq!(one("sales fell by half", "sales fell 50%"), "notation half");
        assert_eq!(one("a third of voters", "33% of voters"), "rounded a third");
        assert_eq!(
            one("two-thirds of voters", "67% of voters"),
            "rounded two-thirds"
        );
        assert_eq!(
            one("three quarters of voters", "75% of voters"),
            "notation three quarters"
        );
        assert_eq!(
            one("profits doubled", "profits rose 100%"),
            "notation doubled"
        );
        assert_eq!(
            one("比上届增加了将近三成。", "增加了近30%"),
            "notation 三成"
        );
        assert_eq!(one("约占三分之一", "约占33%"), "rounded 三分之一");
        assert_eq!(one("营收增长了一倍", "增长100%"), "notation 一倍");
        assert_eq!(one("为期两个月", "为期三个月"), "not_found");
        // Soft readings are never checked in the output themselves.
        assert!(ground_numbers("nothing", "the second half, in the eighth")
            .numbers
            .is_empty());
        // 一 alone is an article.
        assert!(values("一个统一的想法").is_empty());
        // A tenth in the output is a statistic, checked; a word 成 starts is not a tenth.
        assert_eq!(one("48%的网民", "近五成网民"), "rounded 48%");
        assert_eq!(one("44%的网民", "超五成网民"), "not_found");
        assert!(ground_numbers("x", "五成员国，七成熟，这一成果")
            .numbers
            .is_empty());
        // A tenth is never one chance step of two context numbers ((6 − 4) / 4 = 50 %).
        assert_eq!(one("男女比例约6：4。", "超五成网民"), "not_found");
    }

    #[test]
    fn ranges_abbreviations_and_basis_points() {
        // A range of percentages: its first end is a percentage too.
        assert_eq!(
            status("Prices rose 5–7%.", "Prices rose 5% to 7%."),
            vec![
                ("5%".to_string(), "notation 5".to_string()),
                ("7%".to_string(), "verbatim".to_string())
            ]
        );
        // A round number and 多/余 is the range up to the next round number, of the same unit.
        assert_eq!(one("共有23人受伤。", "20多人受伤。"), "rounded 23");
        assert_eq!(one("共有33人受伤。", "20多人受伤。"), "not_found");
        assert_eq!(one("覆盖181个国家", "覆盖了100多个重点区域"), "not_found");
        assert_eq!(one("共有20多人受伤。", "20人受伤。"), "verbatim");
        // Reuters and British press abbreviations; basis points.
        assert_eq!(
            one("It raised $450 million.", "It raised $450 mln."),
            "notation 450 million"
        );
        assert_eq!(
            one("It rose 12 per cent.", "It rose 12pc."),
            "notation 12 per cent"
        );
        assert_eq!(values("5 PC sold"), vec![("5".into(), 5.0)]);
        assert_eq!(
            one("rates rose 0.25 percentage points", "rates rose 25bps"),
            "notation 0.25 percentage points"
        );
        // 7成 is 七成; ".5%" is half a percent, not the context's 5 %.
        assert_eq!(one("约7成网民", "七成网民"), "notation 7成");
        assert_eq!(one("rates are 5%", "rates are .5%"), "not_found");
    }

    #[test]
    fn times_of_day_in_any_notation() {
        assert_eq!(one("at about 14:00", "at 2pm"), "notation 14:00");
        assert_eq!(one("at 2 p.m. on Monday", "at 14:00"), "notation 2 p.m.");
        assert_eq!(one("at 2:30 p.m.", "at 2.30pm"), "notation 2:30 p.m.");
        assert_eq!(one("at 9am", "at 09:00"), "notation 9am");
        // A clock written without am/pm may be either half of the day.
        assert_eq!(
            one("opens at 10:00", "opens at 10:00 p.m."),
            "notation 10:00"
        );
        // Exact: another time is not a slight change.
        assert_eq!(one("at 2:30 p.m.", "at 3pm"), "not_found");
        assert_eq!(
            status("at 2pm", "at 14:00 and 2am"),
            vec![
                ("14:00".to_string(), "notation 2pm".to_string()),
                ("2am".to_string(), "not_found".to_string())
            ]
        );
        // Not times: a score, a decimal, a ratio with three digits.
        assert_eq!(
            values("won 3:1, 5.30 points"),
            vec![("3".into(), 3.0), ("1".into(), 1.0), ("5.30".into(), 5.3)]
        );
        // A long run of digits is no hour (and does not overflow).
        assert_eq!(values("99999999999999999999:00").len(), 2);
        // h:mm:ss is read part by part.
        assert_eq!(
            values("2:01:09"),
            vec![("2".into(), 2.0), ("01".into(), 1.0), ("09".into(), 9.0)]
        );
        // The hour and the minutes stay soft numbers of the context.
        assert_eq!(one("left at 10:45", "took 45 minutes"), "verbatim");
    }

    #[test]
    fn dates_in_chinese_numerals() {
        assert_eq!(
            one("2016年5月3日，公司成立。", "二〇一六年五月三日成立"),
            "notation 2016年5月3日"
        );
        assert_eq!(
            one("二〇一六年五月三日成立", "2016年5月3日"),
            "notation 二〇一六年五月三日"
        );
        assert_eq!(one("2016年5月3日", "二〇一七年"), "not_found");
        assert_eq!(
            values("一九九八年十二月二十三日"),
            vec![("一九九八年十二月二十三日".into(), 1998.0)]
        );
        assert_eq!(
            one("会议于3月7日召开", "会议于三月七日召开"),
            "notation 3月7日"
        );
        assert_eq!(one("会议于2024年召开", "会议于三月七日召开"), "not_found");
        // A month in digits, its day in numerals: one date, not the month alone.
        assert_eq!(one("会议于3月召开", "会议于3月七日召开"), "not_found");
        assert_eq!(
            one("会议于3月7日召开", "会议于3月七日召开"),
            "notation 3月7日"
        );
        // Not four digits before 年: no year (三年 is a count of years).
        assert_eq!(values("为期三年"), vec![("三".into(), 3.0)]);
        // The day before the date last written: 前一交易日 of a text dated 24日 is 23日.
        let dated =
            "新华社上海5月24日电 24日，黄金期货收于每克263.6元，较前一交易日结算价下跌2.15元。";
        assert_eq!(one(dated, "相较于23日收盘价"), "notation 前一交易日");
        assert_eq!(one(dated, "相较于22日收盘价"), "not_found");
        assert_eq!(
            one(
                "LONDON, May 24 - Shares fell 2% from the day before.",
                "since May 23"
            ),
            "notation the day before"
        );
        assert_eq!(
            one("较前一交易日下跌2元。", "相较于23日收盘价"),
            "not_found"
        );
        // The day before an event is the eve of the event's date, not of the last date.
        let eve = "运动会于8月20日开幕，8月25日闭幕。开幕前一天，举行了火炬传递。";
        assert_eq!(one(eve, "8月19日举行了火炬传递"), "notation 前一天");
        assert_eq!(one(eve, "8月24日举行了火炬传递"), "not_found");
    }

    #[test]
    fn dotted_dates_spaced_scales_and_a_month_in_chinese_numerals() {
        assert_eq!(
            one("活动于2023.5.1举行", "活动于2023年5月1日举行"),
            "notation 2023.5.1"
        );
        assert_eq!(
            one("活动于2023.05.01举行", "活动于2023年5月2日举行"),
            "not_found"
        );
        assert_eq!(
            one("The vote is on 05.12.2024.", "on December 5, 2024"),
            "notation 05.12.2024"
        );
        assert_eq!(one("In 2023 the event", "on 2023.5.1"), "not_found");
        // A version is still no date, nor a number.
        assert!(values("version 1.2.3 and 2023.5.1.4").is_empty());
        assert_eq!(one("营收3.5 亿元", "营收3.5亿元"), "notation 3.5 亿");
        assert_eq!(one("营收3.5亿元", "营收3.5 亿元"), "notation 3.5亿");
        // A month alone in Chinese numerals supports the month; it is not checked itself.
        assert_eq!(one("活动于五月举行", "活动于5月举行"), "notation 五月");
        assert!(status("活动于5月举行", "阳春三月").is_empty());
    }

    #[test]
    fn multiples_and_points_are_steps_of_two_context_figures() {
        let sales = "销售额从100亿元增至300亿元。";
        // 增至3倍 is the ratio; 增长2倍 the 200 % rise (a ratio of 2 would be read too).
        assert_eq!(one(sales, "销售额增至3倍。"), "derived 300亿 / 100亿");
        assert!(one(sales, "销售额增长2倍。").starts_with("derived"));
        assert_eq!(one(sales, "销售额增至4倍。"), "not_found");
        assert!(one(
            "Sales rose from $100 million to $300 million.",
            "3 times higher"
        )
        .starts_with("derived"));
        // Points of a rate: the difference of two rates, in words too.
        let rate = "Unemployment fell from 7.5% to 3.5%.";
        assert!(one(rate, "Unemployment fell 4 points.").starts_with("derived"));
        assert_eq!(one(rate, "Unemployment fell 3 points."), "not_found");
        assert_ne!(one(rate, "Unemployment fell 4pp."), "not_found");
        assert_eq!(
            one("It fell 4 percentage points.", "It fell 4 ppts."),
            "notation 4 percentage points"
        );
        // Spaced, pp counts pages.
        assert_eq!(
            one("The report has 120 pages.", "a 120 pp. report"),
            "verbatim"
        );
        let cn = "失业率从7.5%降至5.5%。";
        assert!(one(cn, "失业率下降了两个百分点。").starts_with("derived"));
        assert_eq!(one(cn, "失业率下降了三个百分点。"), "not_found");
        // Each reading only as the step it means: "100 points" is no percent change of 10 to
        // 20 (a sum of four scores is no step at all).
        assert_eq!(
            one(
                "The 4 teams scored 10, 20, 30 and 40 points.",
                "100 points in total"
            ),
            "not_found"
        );
    }

    #[test]
    fn a_numbered_list_has_its_length() {
        let listed = "Our offer:\n1. Shelving\n2. Workstations\n3. Lockers\n4. Storage\nThanks.";
        assert_eq!(one(listed, "The 4 products"), "notation 4.");
        assert_eq!(one(listed, "four products"), "notation 4.");
        // A marker is still no fact: not the 3 of "3. Lockers", nor 2 of a list that skips.
        assert_eq!(one(listed, "The 3 products"), "not_found");
        assert_eq!(one("Steps:\n1. Mix\n3. Bake", "3 steps"), "not_found");
        assert_eq!(one("Steps:\n1. Mix\nThen bake.", "1 step"), "not_found");
    }

    #[test]
    fn english_numbers_of_several_words_are_one_number() {
        fn read(s: &str) -> Option<(f64, &str, f64)> {
            english_number(s).map(|n| (n.value, &s[..n.len], n.place))
        }
        assert_eq!(read("ninety one people"), Some((91.0, "ninety one", 1.0)));
        assert_eq!(read("twenty-one left"), Some((21.0, "twenty-one", 1.0)));
        // Tokenized text sets the hyphen apart; only between a tens and its unit.
        assert_eq!(
            read("twenty - five machines"),
            Some((25.0, "twenty - five", 1.0))
        );
        assert_eq!(read("twenty - ten"), Some((20.0, "twenty", 1.0)));
        assert_eq!(read("five - six"), Some((5.0, "five", 1.0)));
        assert_eq!(
            read("four hundred and fifty people"),
            Some((450.0, "four hundred and fifty", 1.0))
        );
        assert_eq!(
            read("two thousand three hundred fans"),
            Some((2300.0, "two thousand three hundred", 100.0))
        );
        assert_eq!(
            read("five hundred million dollars"),
            Some((5e8, "five hundred million", 1e8))
        );
        assert_eq!(
            read("twelve hundred"),
            Some((1200.0, "twelve hundred", 100.0))
        );
        assert_eq!(read("one million"), Some((1e6, "one million", 1e6)));
        // "and" joins a scale word to a number word, or a half to a whole number.
        assert_eq!(read("eight and Tom"), Some((8.0, "eight", 1.0)));
        assert_eq!(
            read("eight and a half hours"),
            Some((8.5, "eight and a half", 0.1))
        );
        assert_eq!(
            read("one and a half years"),
            Some((1.5, "one and a half", 0.1))
        );
        assert_eq!(
            read("two and a half million people"),
            Some((2.5e6, "two and a half million", 1e5))
        );
        // Spoken decimals, as transcripts write them: digit by digit after "point", or two
        // digits in one word ("twelve dot fifty"); a currency's hundredths keep its unit after
        // the whole number ("twelve euros and fifty cents" is 12.50 euros).
        assert_eq!(
            read("three point two five percent"),
            Some((3.25, "three point two five", 0.01))
        );
        assert_eq!(read("one point five"), Some((1.5, "one point five", 0.1)));
        assert_eq!(
            read("twelve dot fifty euros"),
            Some((12.5, "twelve dot fifty", 0.01))
        );
        assert_eq!(
            read("twelve Euros and fifty centimes"),
            Some((12.5, "twelve", 0.01))
        );
        assert_eq!(
            read("five dollars and twenty five cents"),
            Some((5.25, "five", 0.01))
        );
        // Nothing after the point, or no hundredths named: the whole number alone.
        assert_eq!(read("nine point"), Some((9.0, "nine", 1.0)));
        assert_eq!(read("nine point of order"), Some((9.0, "nine", 1.0)));
        assert_eq!(read("five dollars and fifty"), Some((5.0, "five", 1.0)));
        assert_eq!(
            read("five apples and fifty cents"),
            Some((5.0, "five", 1.0))
        );
        assert_eq!(read("one and Tom"), None);
        assert_eq!(
            read("a hundred and ten"),
            Some((110.0, "a hundred and ten", 1.0))
        );
        assert_eq!(read("a million people"), Some((1e6, "a million", 1e6)));
        assert_eq!(read("a third"), None);
        assert_eq!(read("a man"), None);
        // Two counts side by side, a unit, a tens word twice: the first number only.
        assert_eq!(read("two three"), Some((2.0, "two", 1.0)));
        assert_eq!(read("three-year deal"), Some((3.0, "three", 1.0)));
        assert_eq!(read("twenty twenty"), Some((20.0, "twenty", 1.0)));
        assert_eq!(read("thousand million"), None);
        // "one" alone is "one of", "no one".
        assert_eq!(read("one of them"), None);
        assert_eq!(read("nothing"), None);
    }

    #[test]
    fn scales_currencies_and_digits_of_other_scripts() {
        // After a currency sign or code, an attached m is million; elsewhere metres.
        assert_eq!(
            one("The club raised £30 million.", "raised £30m"),
            "notation 30 million"
        );
        assert_eq!(
            one("The club raised £30m.", "raised £30 million"),
            "notation 30m"
        );
        assert_eq!(
            one("sales of $5 billion", "sales of $5b"),
            "notation 5 billion"
        );
        assert_eq!(values("He ran 5m."), vec![("5".into(), 5.0)]);
        // A currency code glued to its amount is money, not an identifier.
        assert_eq!(
            one(
                "Sales hit 500 million dollars.",
                "Sales hit USD500 million."
            ),
            "verbatim"
        );
        assert_eq!(values("USD500m"), vec![("500m".into(), 5e8)]);
        assert!(values("COVID19 H2O").is_empty());
        // Invisible characters inside digits: the number a reader sees.
        assert_eq!(
            values("4\u{200b}50 people"),
            vec![("4\u{200b}50".into(), 450.0)]
        );
        // Scale words multiply; a plural after digits is the same scale.
        assert_eq!(
            values("5 hundred million, 120 millions, 3 hundred thousand"),
            vec![
                ("5 hundred million".into(), 5e8),
                ("120 millions".into(), 1.2e8),
                ("3 hundred thousand".into(), 3e5)
            ]
        );
        assert_eq!(
            one(
                "The population is 1.2 million.",
                "twelve hundred thousand people"
            ),
            "notation 1.2 million"
        );
        // Any script's decimal digits are read: a number hidden in them is still checked.
        assert_eq!(
            values("𝟓𝟎𝟎 and ٩٠٠٠ and ९"),
            vec![
                ("𝟓𝟎𝟎".into(), 500.0),
                ("٩٠٠٠".into(), 9000.0),
                ("९".into(), 9.0)
            ]
        );
    }

    #[test]
    fn metres_and_centimetres_are_one_number() {
        assert_eq!(values("以8米11的成绩夺冠"), vec![("8米11".into(), 8.11)]);
        assert_eq!(
            one("李金哲以8米11的成绩夺冠。", "以8米10的成绩"),
            "not_found"
        );
        assert_eq!(
            one("李金哲以8米11的成绩夺冠。", "跳出8.11米"),
            "notation 8米11"
        );
        // Not a length: a count follows, or three digits.
        assert_eq!(values("跑5米10次").len(), 2);
        assert_eq!(values("8米105").len(), 2);
    }

    #[test]
    fn chance_derivations_are_not_plausible() {
        // A year plus a count is no year; a year minus a number of years is.
        assert_eq!(
            one(
                "He scored 11 goals. The club was founded in 2005.",
                "the 2016 Games"
            ),
            "not_found"
        );
        assert_eq!(
            one("今年是2015年，黄宾虹诞辰150周年。", "黄宾虹（1865年生）"),
            "derived 2015年 − 150"
        );
        // Percentages divided into money.
        assert_eq!(one("涨幅3%，占比0.12%。", "下跌25元"), "not_found");
        // Numbers of different units.
        assert_eq!(one("有15名选手和17个项目。", "共32名选手"), "not_found");
        assert_eq!(
            one("15名选手来自北京，17名选手来自上海。", "共32名选手"),
            "derived 15 + 17"
        );
        // Strictly inside the output's precision: 598 − 565.5 = 32.5 is not 32.
        assert_eq!(
            one("他考了598分，一本线565.5分。", "超出一本线32分"),
            "not_found"
        );
        // A step that moves a price by under 1 % is no derivation (a price report holds small
        // changes beside every price); a step of a real size still is.
        let prices = "全天最高价每克273.48元，较前一交易日上涨0.12元。";
        assert_eq!(one(prices, "最高价每克273.4元"), "not_found");
        assert_eq!(
            one("收报234.65元，下跌31.85元。", "前一交易日266.5元"),
            "derived 234.65 + 31.85"
        );
        // A part added to its stated whole counts it twice; the rest of the whole is a step.
        let whole = "他全场贡献的19分中有13分来自第四节。";
        assert_eq!(one(whole, "贡献32分"), "not_found");
        assert_eq!(one(whole, "前三节6分"), "derived 19 − 13");
        assert_eq!(one("He made 12 of 14 free throws.", "26"), "not_found");
        assert_eq!(one("He made 12 of 14 free throws.", "2"), "derived 14 − 12");
        // A rank, a fraction or a multiple in words is no operand of the rules' own search: the
        // sixth player and 37 completions make no 43 touchdown passes, a third and a quarter no
        // 133 %; the complement of a fraction still is one, and so is the sum of a ratio's parts.
        let ranks = "He became the sixth player to win four rings, with 37 completions.";
        assert_eq!(one(ranks, "43 touchdown passes"), "not_found");
        let shares = "A third of the areas were poor; a quarter were rural.";
        assert_eq!(one(shares, "133% of the areas"), "not_found");
        assert_eq!(
            one("One third of the seats went to women.", "67% went to men"),
            "derived 100% − One third"
        );
        assert_eq!(
            one(
                "The ratio of their coins is 10:45.",
                "The total ratio is 55"
            ),
            "derived 10 + 45"
        );
        // Operands stated far apart are not combined.
        let far = "A had 20 cars. Nothing else. Still nothing. B had 12 cars.";
        assert_eq!(one(far, "32 cars"), "not_found");
        // Two measures are not joined through a bare operand: an age of 35 and "five months"
        // make no "30 years", though the same step in years does.
        let ages = "Rose, 35, saw him five months before he died.";
        assert_eq!(one(ages, "he died 30 years ago"), "not_found");
        assert_eq!(
            one("Rose, 35, left five years ago.", "30 years ago"),
            "derived 35 − five"
        );
    }

    #[test]
    fn a_coarse_step_in_a_dense_context_is_chance() {
        // 28 pairs could be combined here: a whole number near 41 is hit by chance (5 + 41),
        // one near 171 is not (171 − 165).
        let match_report = "Ireland made 165-5, Wilson 41 not out and Porterfield 39. \
                            Afghanistan reached 171-4, Shenwari 56 and Shahzad 47.";
        assert_eq!(one(match_report, "they won by 46 runs"), "not_found");
        assert_eq!(one(match_report, "they won by 6 runs"), "derived 171 − 165");
        // With one pair, even a coarse step is no chance.
        assert_eq!(
            one(
                "The unemployment rate rose from 3.7% to 4.1%.",
                "up 0.4 points"
            ),
            "derived 4.1% − 3.7%"
        );
        assert_eq!(
            one("出口额从50亿元增至150亿元。", "出口额增长2倍"),
            "derived (150亿 − 50亿) / 50亿"
        );
        // Two years give an elapsed time written as one, not a bare count.
        let years = "The model was built from 1962 to 1964.";
        assert_eq!(
            one(years, "it was built for two years"),
            "derived 1964 − 1962"
        );
        assert_eq!(one(years, "only two were built"), "not_found");
        // A model that names its step is recomputed without this limit
        // (`audit::derivation`): chance did not choose its operands.
    }

    #[test]
    fn a_roman_numeral_of_a_name_is_its_number() {
        assert_eq!(
            one(
                "He rebuilt the firm after World War II.",
                "after world war 2"
            ),
            "notation War II"
        );
        assert_eq!(
            one("Henry VIII had six wives.", "Henry 8 married"),
            "notation Henry VIII"
        );
        // Another name's numeral, or a pronoun, is no number.
        assert_eq!(
            one("Henry VIII had six wives.", "Edward 8 married"),
            "not_found"
        );
        assert_eq!(
            one("Today I ran home.", "Today 1 man ran home"),
            "not_found"
        );
        // A lone I before a word only after a capitalised word inside its sentence.
        assert_eq!(
            one("a World War I pilot", "a World War 1 pilot"),
            "notation War I"
        );
        assert_eq!(
            one("Yesterday I ran home.", "Yesterday 1 man ran home"),
            "not_found"
        );
        assert_eq!(one("so I ran home.", "so 1 man ran home"), "not_found");
        assert_eq!(
            one("Francis I (1708-1765)", "Francis 1 was"),
            "notation Francis I"
        );
        for (word, value) in [("XLIX", Some(49)), ("MMXXIV", Some(2024)), ("IV", Some(4))] {
            assert_eq!(roman_value(word), value, "{word}");
        }
        for word in ["IIII", "VX", "IL", "ii", "", "MIXED"] {
            assert_eq!(roman_value(word), None, "{word}");
        }
    }

    #[test]
    fn a_year_written_with_its_last_two_digits() {
        let ctx = "Lucky was cast in 1993; the club opened in 1981.";
        for out in [
            "he was cast in 93 for the show.",
            "it opened in 81'.",
            "back in '81 when it opened",
            "back in ’81",
        ] {
            assert!(one(ctx, out).starts_with("notation 19"), "{out}");
        }
        // A count, or a year the context never states, is no such year.
        assert_eq!(one(ctx, "in 93 minutes"), "not_found");
        assert_eq!(one(ctx, "in '82 it opened"), "not_found");
        assert_eq!(one(ctx, "aged 93 for years"), "not_found");
    }

    #[test]
    fn a_hundred_percent_sure_is_no_figure() {
        assert!(scan("I am not 100% sure on that.").is_empty());
        assert!(scan("I'm 100 percent certain it was him").is_empty());
        assert_eq!(values("It is 100% accurate.").len(), 1);
        assert_eq!(values("They won 100% of the seats.").len(), 1);
        assert_eq!(values("I am 90% sure.").len(), 1);
    }

    #[test]
    fn a_chat_heart_is_no_three() {
        assert!(scan("I <3 him too!").is_empty());
        assert!(scan("so cute <3").is_empty());
        assert_eq!(values("if x <3.5 then"), [("3.5".to_string(), 3.5)]);
        // A bound of what is counted is a number.
        assert_eq!(values("it loads in <3 seconds"), [("3".to_string(), 3.0)]);
        assert_eq!(values("I <3 you <3"), []);
    }

    #[test]
    fn numbers_written_apart_are_the_contexts_number() {
        let ctx = "Obesity costs an average of $1,429 more. Wine has existed for 2500 years.";
        let both = |source: &str| {
            vec![
                ("1".to_string(), format!("notation {source}")),
                ("429".to_string(), format!("notation {source}")),
            ]
        };
        assert_eq!(status(ctx, "an average of $ 1, 429 more"), both("1,429"));
        let years = status(ctx, "nearly 2, 500 years");
        assert!(years.iter().all(|(_, s)| s == "notation 2500"), "{years:?}");
        let rates = status(
            "It rose from 18.9 to 33.3 per 1,000 births.",
            "from 18. 9 to 33. 3",
        );
        assert!(
            rates.iter().all(|(_, s)| s != "not_found")
                && rates.iter().any(|(t, s)| t == "9" && s == "notation 18.9"),
            "{rates:?}"
        );
        assert!(status("It rose in 2019.", "in 2019. 3 of them")
            .iter()
            .any(|(t, s)| t == "3" && s == "not_found"));
        // Dialogue corpora space both sides and may group with points.
        let ctx = "It has 23,768 locations. The city had 1,197,816 people.";
        for out in [
            "they have 23 , 768 locations",
            "a population of 1 . 197 . 816",
        ] {
            let all = status(ctx, out);
            assert!(
                all.iter().all(|(_, s)| s.starts_with("notation")),
                "{all:?}"
            );
        }
        // The whole run: two of its three groups are no number the context writes.
        let part = status(ctx, "a population of 1 . 197");
        assert!(part.iter().all(|(_, s)| s == "not_found"), "{part:?}");
        // A list is no number the context writes.
        let listed = status("He had 100 apples.", "eaten 10, 100 - 10");
        assert!(
            listed.iter().any(|(t, s)| t == "10" && s == "not_found"),
            "{listed:?}"
        );
    }

    #[test]
    fn a_count_of_one_is_read() {
        // A measure of one, hyphenated, spaced or tokenized, against the context's.
        assert_eq!(
            one("He signed a two-year deal.", "a one-year deal"),
            "not_found"
        );
        assert_eq!(
            one("He signed a one-year deal.", "a one - year contract"),
            "verbatim"
        );
        // "a year" states the same measure; "one day" alone is "some day".
        assert_eq!(
            one("He left a year ago.", "He left one year ago."),
            "notation a year"
        );
        assert_eq!(
            one("It is a four-day event.", "a one-day event"),
            "not_found"
        );
        assert!(scan("I will go there one day.").is_empty());
        // A count of one person: "a man" and "a 23-year-old woman" state it.
        assert_eq!(
            one("Several people were hurt.", "one person was hurt"),
            "not_found"
        );
        assert_eq!(
            one("A man was killed.", "killing one person"),
            "notation A man"
        );
        assert_eq!(
            one("A 23-year-old woman died.", "one woman died"),
            "notation A 23-year-old woman"
        );
        for words in [
            "no one was hurt",
            "the one man",
            "one man of the people",
            "one of them",
        ] {
            assert!(scan(words).is_empty(), "{words}");
        }
        // It states a count of the same thing only.
        assert_eq!(
            one("A man was hurt.", "He signed a one-year deal."),
            "not_found"
        );
        assert_eq!(
            one("He left a year ago.", "one person was hurt"),
            "not_found"
        );
        assert_eq!(
            one("He left a year ago.", "1 year later"),
            "notation a year"
        );
        assert_eq!(one("He left a year ago.", "one month later"), "not_found");
        assert_eq!(one("A man was hurt.", "1 goal"), "not_found");
        // A writing repeated where it counts something else is checked there too.
        let repeated = ground_numbers(
            "A man was hurt.",
            "One person was hurt; one person signed a one-year deal.",
        );
        let listed: Vec<(&str, Status)> = repeated
            .numbers
            .iter()
            .map(|n| (n.text.as_str(), n.status))
            .collect();
        assert_eq!(
            listed,
            [
                ("One", Status::Notation),
                ("one", Status::Notation),
                ("one", Status::NotFound)
            ]
        );
        let once = ground_numbers("Sales were 5 million.", "5 million, then 5 million again.");
        assert_eq!(once.numbers.len(), 1);
        // An article's one is no operand: 13 − "a child" is no 12.
        let ctx = "care for a child from age six weeks to age thirteen";
        assert_eq!(one(ctx, "until they are 12 years old"), "not_found");
    }

    #[test]
    fn derived_by_one_step() {
        let ctx = "Sales were 4,200 units in 2022 and 5,400 units in 2023; 1,470 were exported.";
        assert_eq!(
            one(ctx, "sales grew by 1,200 units"),
            "derived 5,400 − 4,200"
        );
        assert_eq!(one(ctx, "a total of 9600 units"), "derived 4,200 + 5,400");
        assert_eq!(
            one(ctx, "sales rose 28.6%"),
            "derived (5,400 − 4,200) / 4,200"
        );
        // Counts in words are no figures a change is read between.
        let words = "They failed to pass the last eight; scores were level four times.";
        assert_eq!(one(words, "a 100% start"), "not_found");
        assert_eq!(
            one("Sales rose to 900 units from 300.", "Sales rose 200%"),
            "derived (900 − 300) / 300"
        );
        assert_eq!(one(ctx, "35% were exported"), "derived 1,470 / 4,200");
        assert_eq!(one(ctx, "sales rose 31%"), "not_found");
    }

    #[test]
    fn chinese_derivations_and_complement() {
        let ctx = "2022年营收为5000万元，2023年营收为6000万元。省内生源占70%。";
        assert_eq!(
            one(ctx, "营收增长了20%"),
            "derived (6000万 − 5000万) / 5000万"
        );
        assert_eq!(one(ctx, "营收增加1000万元"), "derived 6000万 − 5000万");
        assert_eq!(one(ctx, "省外生源占30%"), "derived 100% − 70%");
        assert_eq!(one(ctx, "营收增长了25%"), "not_found");
    }

    #[test]
    fn dates_in_several_notations() {
        let ctx = "The merger closed on 2023-05-01. 合同于2021年3月15日签订。";
        assert_eq!(one(ctx, "It closed on May 1, 2023."), "notation 2023-05-01");
        assert_eq!(one(ctx, "It closed on 1 May 2023."), "notation 2023-05-01");
        assert_eq!(one(ctx, "合并于2023年5月1日完成"), "notation 2023-05-01");
        assert_eq!(one(ctx, "signed in March 2021"), "notation 2021年3月15日");
        assert_eq!(one(ctx, "It closed on May 2, 2023."), "not_found");
        assert_eq!(one(ctx, "在2021年"), "notation 2021年3月15日");
        // "may" the verb is not a month.
        assert_eq!(status(ctx, "It may rain."), vec![]);
        // A day with its ordinal ending, and "of": one date, not a day number and a month.
        let ctx = "Lipton was born in Glasgow on 10 May 1848.";
        assert_eq!(
            one(ctx, "he was born on the 10th of may 1848"),
            "notation 10 May 1848"
        );
        assert_eq!(one(ctx, "born on May 10th, 1848"), "notation 10 May 1848");
        assert_eq!(one(ctx, "born on the 11th of May 1848"), "not_found");
        assert_eq!(
            status(
                "sign up before 31st August 2022",
                "before August 31st, 2022"
            ),
            vec![(
                "August 31st, 2022".into(),
                "notation 31st August 2022".into()
            )]
        );
        // A day in words is a day: checked as one, not a soft ordinal.
        assert_eq!(
            one(ctx, "born on the tenth of May, 1848"),
            "notation 10 May 1848"
        );
        assert_eq!(one(ctx, "born on May tenth"), "notation 10 May 1848");
        assert_eq!(one(ctx, "born on the seventh of May"), "not_found");
        assert_eq!(
            one("It opened in March 2024.", "on the seventh of March"),
            "not_found"
        );
    }

    #[test]
    fn identifiers_versions_and_list_markers_are_skipped() {
        assert!(values("Qwen2.5 and H2O, COVID-19, v1.2.3, GPT-4").is_empty());
        // The markers are no facts; the list's length is a soft reading at its last one.
        let listed = scan("1. First\n2) second\n3、第三");
        assert!(listed.iter().all(|n| n.soft), "{listed:?}");
        assert_eq!(
            values("1. First\n2) second\n3、第三"),
            vec![("3、".into(), 3.0)]
        );
        assert_eq!(values("section 1.2.3 says 5"), vec![("5".into(), 5.0)]);
        assert_eq!(
            values("2019-2023"),
            vec![("2019".into(), 2019.0), ("2023".into(), 2023.0)]
        );
    }

    #[test]
    fn an_identifier_written_apart_is_the_contexts_identifier() {
        let ctx = "A U.S. RC-135U was intercepted by a Russian SU-27 Flanker before the \
Under-17 Championship.";
        assert_eq!(one(ctx, "a u.s. rc - 135u was flying"), "notation RC-135U");
        assert_eq!(one(ctx, "by a russian su - 27 flanker"), "notation SU-27");
        assert_eq!(one(ctx, "the SU -27 jet"), "notation SU-27");
        assert_eq!(one(ctx, "the SU 27 jet"), "not_found");
        assert_eq!(
            one("a buy-2-get-1-free offer", "to buy 2 pizzas"),
            "not_found"
        );
        assert_eq!(one(ctx, "the under - 17 championship"), "notation Under-17");
        // Another word, other digits, or other glued letters: the context states none of them.
        assert_eq!(one(ctx, "a russian mig - 27"), "not_found");
        assert_eq!(one(ctx, "a russian su - 35"), "not_found");
        assert_eq!(one(ctx, "a u.s. rc - 135v"), "not_found");
        // The digits alone are no figure of the context.
        assert_eq!(one(ctx, "27 jets"), "not_found");
        assert_eq!(
            one("COVID-19 spread.", "COVID - 19 spread."),
            "notation COVID-19"
        );
        assert_eq!(one("COVID-19 spread.", "19 deaths"), "not_found");
    }

    #[test]
    fn a_season_is_the_same_season_in_any_writing() {
        // Summaries write a hyphen where the source has an en dash, and tokenized text (XSum,
        // CNN/DailyMail, the dialogue corpora) spaces it.
        for (ctx, out) in [
            (
                "Following the 2000–01 season, the team moved.",
                "the 2000 - 01 season",
            ),
            (
                "Following the 2000–01 season, the team moved.",
                "the 2000-01 season",
            ),
            ("Derby (loan, 2010-11): 29 apps.", "at Derby in 2010 - 11"),
            ("Arsenal won the 2023-24 title.", "the 2023/24 title"),
            ("In 2007-2008 he played.", "the 2007-08 season"),
            ("the 2012–13 season", "the 2012-13 season"),
            (
                "In fiscal 2023-24, revenue rose.",
                "In FY2023/24, revenue rose.",
            ),
        ] {
            assert!(one(ctx, out).starts_with("notation"), "{ctx} / {out}");
        }
        // A season is no month, no other season, and no single year states it.
        assert_eq!(one("in January 2000", "the 2000-01 season"), "not_found");
        assert_eq!(one("the 2010-11 season", "in November 2010"), "not_found");
        assert_eq!(one("the 2010-11 season", "the 2011-12 season"), "not_found");
        assert_eq!(one("in 2010", "the 2010-11 season"), "not_found");
        // Its first year is still the year the context writes; an ISO date is not a season.
        assert_eq!(one("the 2010-11 season", "in 2010"), "notation 2010-11");
        assert_eq!(
            one("on 2010-11-05", "on 5 November 2010"),
            "notation 2010-11-05"
        );
        // A fiscal year glued to four digits is that year; FY23 stays an identifier.
        assert_eq!(
            one("In fiscal 2023, revenue rose.", "FY2023 revenue"),
            "verbatim"
        );
        assert_eq!(
            one("In fiscal 2023, revenue rose.", "FY2024 revenue"),
            "not_found"
        );
        assert!(status("In fiscal 2023, revenue rose.", "FY23 revenue").is_empty());
    }

    #[test]
    fn a_number_a_dash_joins_to_a_grammar_word_is_read() {
        let ctx =
            "England lost by an innings and 39 runs. It was built in 1986. She was in the top 10.";
        assert_eq!(one(ctx, "an innings-and-39-run defeat"), "verbatim");
        assert_eq!(one(ctx, "an innings-and-93-run defeat"), "not_found");
        assert_eq!(one(ctx, "built in the mid-1980s"), "notation 1986");
        assert_eq!(one(ctx, "built in the mid-1990s"), "not_found");
        assert_eq!(one(ctx, "a top-10 finish"), "verbatim");
        assert_eq!(one(ctx, "a top-5 finish"), "not_found");
        // An identifier's stem stays one: COVID-19, An-12, SU-27.
        for text in ["COVID-19 spread", "the An-12 crashed", "an SU-27 flew"] {
            assert!(scan(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_number_the_context_writes_apart_is_one() {
        // CNN/DailyMail copies set thousands and decimals apart; summaries join them.
        let ctx = "It was viewed 235, 000 times. They won $ 53, 193, 914 on Tuesday. She lived \
                   to age 122. 5. The deal is worth $ 100, 000 - a - week.";
        assert_eq!(one(ctx, "viewed 235,000 times"), "notation 235, 000");
        assert_eq!(one(ctx, "they won 53,193,914"), "notation 53, 193, 914");
        assert_eq!(one(ctx, "she lived to 122.5"), "notation 122. 5");
        assert_eq!(one(ctx, "a $100,000-a-week deal"), "notation 100, 000");
        // The whole run only, and only its value.
        assert_eq!(one(ctx, "they won 53,193"), "not_found");
        assert_eq!(one(ctx, "viewed 236,000 times"), "not_found");
        // Four digits before the comma are a number of their own: a year, then a count.
        assert_eq!(
            one("In 2019, 300 people came.", "2,019,300 people"),
            "not_found"
        );
    }

    #[test]
    fn a_tokenized_amount_keeps_its_currency_and_scale() {
        // `£ 7.8 m` is the context's £7.8m; `£ 500,000` is money, as `£500,000` is.
        let ctx = "A planned £7.8m deficit grew. He stole £572,206 from the firm.";
        assert!(one(ctx, "a £ 7.8 m overspend").starts_with("notation"));
        assert_eq!(one(ctx, "a £ 7.9 m overspend"), "not_found");
        // A decimal point tokenized apart, before a scale or percent word: `$ 1. 9 billion`.
        let ctx = "Sales reached $1.9 billion in 2011, 跌幅达2.61%.";
        assert!(one(ctx, "sales reached $ 1. 9 billion").starts_with("notation"));
        assert!(one(ctx, "跌幅达2. 61%").starts_with("notation"));
        assert_eq!(one(ctx, "sales reached $ 1. 7 billion"), "not_found");
        // Not a list's number, nor a sentence's end before a bare number.
        let listed = values("Steps:\n1. 9 billion people live there. In 2011. 9 cars");
        assert_eq!(listed[0], ("9 billion".to_string(), 9e9), "{listed:?}");
        assert!(listed.iter().any(|(t, _)| t == "9"), "{listed:?}");
        let money = scan("he stole £ 500,000; it is 5 m long");
        assert_eq!(money[0].unit, "£", "{money:?}");
        assert_eq!(
            money[1].value, 5.0,
            "a spaced m without a currency is metres"
        );
    }

    #[test]
    fn a_date_in_slashes_is_the_context_date_in_either_order() {
        let statuses = |ctx: &str, out: &str| -> Vec<String> {
            status(ctx, out).into_iter().map(|(_, s)| s).collect()
        };
        let ctx = "The session was made on December 4, 1956, at Sun Records.";
        assert_eq!(
            statuses(ctx, "They jammed on 12/4/1956 at Sun."),
            vec!["notation December 4, 1956"; 3]
        );
        assert_eq!(
            statuses("It opened on 12 April 1956.", "It opened on 12/4/1956."),
            vec!["notation 12 April 1956"; 3]
        );
        // Another day, or another year, is no writing of it.
        assert_eq!(
            statuses(ctx, "They jammed on 12/5/1956 at Sun.")[..2],
            ["not_found", "not_found"]
        );
        assert_eq!(
            statuses(ctx, "They jammed on 12/4/1957 at Sun.")[..2],
            ["not_found", "not_found"]
        );
        // Nor is a longer run of numbers and slashes a date.
        assert_eq!(
            statuses(ctx, "code 5/12/4/1956")[..3],
            ["not_found", "not_found", "not_found"]
        );
    }

    #[test]
    fn a_rank_of_one_and_one_of_a_count_support_the_same_one_in_digits() {
        let ctx = "It debuted at number one on the Billboard chart. Harley is One of two \
                   makers to survive the Depression.";
        assert_eq!(one(ctx, "it debuted at number 1"), "notation number one");
        assert_eq!(one(ctx, "the No. 1 album"), "notation number one");
        assert_eq!(one(ctx, "a #1 hit"), "notation number one");
        assert_eq!(
            status(ctx, "it is 1 of 2 makers")[0],
            ("1".to_string(), "notation One of two".to_string())
        );
        assert_eq!(
            one("the number-one spot", "to the number 1 of the day"),
            "notation number-one"
        );
        // No other one: a count of one, a rank the context does not give, "one of them".
        assert_eq!(one(ctx, "1 person died"), "not_found");
        assert_eq!(
            one("one of two inmates escaped", "it reached number 1"),
            "not_found"
        );
        assert_eq!(one("one of them left", "1 of them left"), "not_found");
        assert_eq!(one("no one came", "number 1 came"), "not_found");
    }

    #[test]
    fn a_tokenized_comma_before_zeros_is_a_thousands_group() {
        // Dialogue corpora space the comma (`23 , 000`, `3, 000`): one number, not 23 and a
        // made-up `000`.
        assert_eq!(
            values("there were 23 , 000 locations and over 3, 000 families, 1, 000, 000 in all"),
            vec![
                ("23 , 000".to_string(), 23_000.0),
                ("3, 000".to_string(), 3_000.0),
                ("1, 000, 000".to_string(), 1e6)
            ]
        );
        assert_eq!(
            one("It has 3,000 families.", "it has 3, 000 families ."),
            "notation 3,000"
        );
        // Other groups stay apart (a list), as do four digits and a decimal after the zeros.
        let apart = |t: &str| values(t).into_iter().map(|(_, v)| v).collect::<Vec<_>>();
        assert_eq!(apart("eaten 10, 100 - 10"), vec![10.0, 100.0, 10.0]);
        assert_eq!(apart("in 2019, 000 units"), vec![2019.0, 0.0]);
        assert_eq!(apart("3, 000.5 m"), vec![3.0, 0.5]);
    }

    #[test]
    fn a_decade_or_century_is_supported_by_a_context_year_within_it() {
        let ctx = "Warhammer 40,000 was created by Rick Priestley in 1987. He died on 2 May 1865.";
        assert_eq!(one(ctx, "it was created in the 1980s"), "notation 1987");
        assert_eq!(one(ctx, "created in the 1980 ' s"), "notation 1987");
        assert_eq!(one(ctx, "in the late 1800's"), "notation 2 May 1865");
        assert_eq!(one(ctx, "it was created in the 1990s"), "not_found");
        assert_eq!(one(ctx, "it was created in 1980"), "not_found");
        assert_eq!(one(ctx, "in the 1970s"), "not_found");
        assert_eq!(one(ctx, "in the early 1800s"), "not_found");
        assert_eq!(one(ctx, "in the mid 1980s"), "notation 1987");
        assert_eq!(one(ctx, "in the early 1980s"), "not_found");
        assert_eq!(
            one("born on May 24, 1941", "from the early 1900s"),
            "not_found"
        );
        // A decade of two digits, any century; not an age ("in their 80s").
        let ctx = "The band formed in 1984. 这支乐队成立于1984年。";
        assert_eq!(one(ctx, "big in the 80's"), "notation 1984");
        assert_eq!(one(ctx, "big in the '80s"), "notation 1984");
        assert_eq!(one(ctx, "上世纪80年代"), "notation 1984");
        assert_eq!(one(ctx, "big in the 90's"), "not_found");
        assert_eq!(one(ctx, "people in their 80s"), "not_found");
        assert_eq!(one(ctx, "it was an 80's band"), "notation 1984");
        assert_eq!(one(ctx, "in the mid 80's"), "notation 1984");
        assert_eq!(one(ctx, "in the late 80's"), "not_found");
        assert_eq!(one(ctx, "a man in his late 80s"), "not_found");
        // A century, by its ordinal or 世纪.
        let ctx = "Alberti (c.1435) wrote it. 他生于1850年。";
        assert_eq!(one(ctx, "back to the 15th Century"), "notation 1435");
        assert_eq!(one(ctx, "他是19世纪的人"), "notation 1850年");
        assert_eq!(one(ctx, "back to the 16th century"), "not_found");
        assert_eq!(one(ctx, "the late 15th-century style"), "not_found");
        assert_eq!(one(ctx, "in the 15th round"), "not_found");
        // A decade the context writes supports a period that overlaps it, even a bare `40s`.
        let ctx = "It evolved in the late 1940s and early 1950s from gospel.";
        assert_eq!(
            status(ctx, "around the late 40s / early 50s"),
            vec![
                ("40".to_string(), "notation 1940s".to_string()),
                ("50".to_string(), "notation 1950s".to_string())
            ]
        );
        assert_eq!(one(ctx, "in the early 40s"), "not_found");
        assert_eq!(one(ctx, "in the late 50s"), "not_found");
        assert_eq!(one(ctx, "in the 20th century"), "notation 1940s");
        // A year alone does not make a bare `40s` a decade: it may be an age.
        assert_eq!(one("It began in 1946.", "in his late 40s"), "not_found");
        assert_eq!(one("It began in 1946.", "in the late 40s"), "notation 1946");
    }

    #[test]
    fn a_rank_in_digits_is_the_contexts_rank_in_words() {
        let ctx = "Brown hair is the second most common hair color, after black.";
        assert_eq!(
            one(ctx, "the 2nd most common color"),
            "notation second most"
        );
        assert_eq!(one(ctx, "the 2nd rarest color"), "not_found");
        assert_eq!(one(ctx, "the 1st most common color"), "not_found");
        assert_eq!(one("At first it rained.", "the 1st time"), "not_found");
    }

    #[test]
    fn a_quarter_is_the_quarter_the_context_names() {
        let ctx = "Revenue in the second quarter rose 5%. 第三季度利润下降。";
        for out in [
            "Q2 revenue",
            "2Q revenue",
            "second-quarter revenue",
            "the 2nd quarter",
        ] {
            assert_eq!(one(ctx, out), "notation second quarter", "{out}");
        }
        assert_eq!(one(ctx, "Q3 revenue"), "notation 第三季度");
        assert_eq!(one(ctx, "三季度利润"), "notation 第三季度");
        assert_eq!(one(ctx, "Q4 revenue"), "not_found");
        assert_eq!(one(ctx, "一季度利润"), "not_found");
        assert_eq!(one(ctx, "fourth-quarter revenue"), "not_found");
        // A quarter is no number: the context's quarter supports no 2 or 3, nor its 5% a Q4.
        assert_eq!(one(ctx, "3 products"), "not_found");
        // Not a quarter of its own: the first three quarters together, a quarter-final, a
        // fraction, a word that runs on.
        for text in ["前三季度营收", "环比上一季度增长", "下一季度", "每一季度"]
        {
            assert!(scan(text).iter().all(|n| n.quarter().is_none()), "{text}");
        }
        assert_eq!(one("今年一季度营收增长", "一季度"), "verbatim");
        let none = scan("the third quarter-final; a quarter of sales; Q35, Q3FY21");
        assert!(none.iter().all(|n| n.quarter().is_none()), "{none:?}");
        assert_eq!(values("3Q revenue"), vec![("3Q".into(), 3.0)]);
    }

    #[test]
    fn full_width_digits_and_percent() {
        assert_eq!(values("增长１２．５％")[0].1, 0.125);
        assert_eq!(one("增长12.5%", "增长１２．５％"), "notation 12.5%");
    }

    #[test]
    fn repeated_numbers_are_checked_once_and_summary_counts() {
        let g = ground_numbers("a 10 b 20", "10 and 10 and 30 and 77");
        assert_eq!(g.numbers.len(), 3);
        assert_eq!(g.summary(), "3 numbers: 1 found, 1 derived, 1 not found");
        assert_eq!(
            g.not_found().map(|n| n.text.as_str()).collect::<Vec<_>>(),
            vec!["77"]
        );
    }

    #[test]
    fn report_json_shape() {
        let g = ground_numbers("招生4200人", "招生4200人，录取率35%");
        let v = serde_json::to_value(&g).unwrap_or_default();
        assert_eq!(v["numbers"][0]["status"], "verbatim");
        assert_eq!(v["numbers"][1]["status"], "not_found");
        assert_eq!(v["numbers"][1]["kind"], "percent");
        assert_eq!(v["numbers"][1]["text"], "35%");
        let back: NumberGrounding = serde_json::from_value(v).unwrap_or_default();
        assert_eq!(back, g);
    }

    #[test]
    fn a_long_context_stays_fast() {
        // 5,000 numbers in the context, 300 in the output, none found: the worst case.
        let ctx: String = (0..5000)
            .map(|i| format!("item {} costs {}.{} yuan; ", i * 7 + 3, i, i % 10))
            .collect();
        let out: String = (0..300)
            .map(|i| format!("value {} ", 9_000_000 + i * 13))
            .collect();
        let t = std::time::Instant::now();
        let g = ground_numbers(&ctx, &out);
        let ms = t.elapsed().as_millis();
        assert_eq!(g.numbers.len(), 300);
        // A guard against a blow-up (a scan per pair of numbers grown quadratic), not a speed
        // figure: it took ~150 ms in a debug build on a quiet machine and 1.7 s at a load of 28,
        // so the bound leaves room for a busy CI machine. `cargo bench --bench audit` measures.
        assert!(ms < 15_000, "took {ms} ms");
    }

    #[test]
    fn hostile_text_does_not_panic() {
        for t in [
            "%%%",
            "1,",
            "1,2",
            ",000",
            "1..",
            "百分之",
            "年月日",
            "May",
            "5月32日",
            "9999-99-99",
            "．５",
            "1e5",
            "十",
            "零零",
            "\u{a0}5\u{a0}%",
        ] {
            let _ = ground_numbers(t, t);
        }
    }
}
