//! Sentences of real contexts restated and changed, shared by tests/audit_real.rs (the audit
//! dev sets) and tests/audit_external.rs (the public summarization sets): a sentence of the
//! context restated, as written and in another notation, must not be flagged; the same sentence
//! with one number changed should be. What real text writes, numbers and notations nobody here
//! chose, checked both ways; no rule was tuned on these figures. The same is done with a
//! direction word and with a bound before a figure: a sentence that states which way something
//! went, or on which side of a figure it lies, restated, must not be flagged; with the word
//! reversed (涨 → 跌, `rose` → `fell`, `more than` → `fewer than`) it should be. The rules were
//! developed on the reversals of a tune part of the contexts (FNV-1a 64 of the context, `% 10 <
//! 7`); the held-out part is printed beside it. `RESTATE_SHOW=1` lists the changed sentences
//! that were not flagged, and the tune part's reversals that were not.

/// The least share caught, in percent, that [`Restated::report`] accepts: the figures measured
/// when each line was written, raised when the rules improve, never lowered silently.
pub struct Floors {
    /// Sentences with a number changed.
    pub changed: f64,
    /// Sentences with a direction word reversed: tune, held-out.
    pub reversed: [f64; 2],
    /// Sentences with a bound reversed: tune, held-out.
    pub bounds: [f64; 2],
}

/// What [`Restated::add`] measured over a set of contexts.
#[derive(Default)]
pub struct Restated {
    /// The contexts added so far: one given twice (several summaries of one article) is
    /// measured once.
    seen: std::collections::HashSet<String>,
    /// Sentences restated (as written, and in another notation where one applies).
    pub restated: usize,
    /// Those flagged: `id: sentence`.
    pub flagged: Vec<String>,
    /// Sentences with a number changed to one their context does not write, and those flagged.
    pub changed: usize,
    pub caught: usize,
    /// Sentences with a direction word (涨, `rose 5%`) restated and reversed.
    pub directions: Reversals,
    /// Sentences with a bound before a figure (`more than 200`) restated and reversed.
    pub bounds: Reversals,
}

/// Sentences restated (their flags join [`Restated::flagged`]) and, with one word reversed,
/// those sentences and the ones flagged: the tune part, then the held-out part.
#[derive(Default)]
pub struct Reversals {
    pub restated: usize,
    pub parts: [(usize, usize); 2],
}

impl Restated {
    /// The share of changed sentences flagged, in percent.
    pub fn caught_pct(&self) -> f64 {
        if self.changed == 0 {
            100.0
        } else {
            100.0 * self.caught as f64 / self.changed as f64
        }
    }

    /// Adds the first [`SENTENCES_PER_CONTEXT`] sentences of `context` that write a digit (once
    /// per context), restated and changed, as `flagged` (the rules alone: any counted finding)
    /// judges them.
    pub fn add(&mut self, id: &str, context: &str, flagged: &dyn Fn(&str, &str) -> bool) {
        if !self.seen.insert(context.to_string()) {
            return;
        }
        for s in digit_sentences(context)
            .into_iter()
            .take(SENTENCES_PER_CONTEXT)
        {
            for said in std::iter::once(s.to_string()).chain(in_another_notation(s)) {
                self.restated += 1;
                if flagged(context, &said) {
                    self.flagged.push(format!("{id}: {said}"));
                }
            }
            if let Some((changed, new)) = with_a_number_changed(s) {
                if !context.contains(new.as_str()) {
                    let caught = flagged(context, &changed);
                    self.changed += 1;
                    self.caught += usize::from(caught);
                    if !caught && std::env::var("RESTATE_SHOW").is_ok_and(|v| v == "1") {
                        println!("--- missed {new} ({id}): {changed}");
                        let g = verifyfast::audit::grounding::ground_numbers(context, &changed);
                        for n in g.numbers.iter().filter(|n| n.text.contains(new.as_str())) {
                            println!("  number {:?}: {}", n.text, n.describe());
                        }
                    }
                }
            }
        }
        let part = usize::from(super::fnv(context) % 10 >= 7);
        let Restated {
            directions,
            bounds,
            flagged: listed,
            ..
        } = self;
        for (reverse, what, tally) in [
            (
                with_a_direction_reversed as Reverse,
                "direction",
                directions,
            ),
            (with_a_bound_reversed, "bound", bounds),
        ] {
            let sentences = sentences(context).filter(|s| reverse(s).is_some());
            for s in sentences.take(SENTENCES_PER_CONTEXT) {
                tally.restated += 1;
                if flagged(context, s) {
                    listed.push(format!("{id}: {s}"));
                }
                let Some((reversed, word)) = reverse(s) else {
                    continue;
                };
                if context.contains(reversed.as_str()) {
                    continue;
                }
                let caught = flagged(context, &reversed);
                let (n, k) = &mut tally.parts[part];
                *n += 1;
                *k += usize::from(caught);
                if !caught && part == 0 && std::env::var("RESTATE_SHOW").is_ok_and(|v| v == "1") {
                    println!("--- {what} not reversed: {word} ({id}): {reversed}");
                }
            }
        }
    }

    /// Prints the figures under `name`, then fails when a restated sentence was flagged or a
    /// share caught is under its floor.
    pub fn report(&self, name: &str, floors: Floors) {
        println!(
            "{name}: context sentences restated (as written, in another notation): {}, flagged {}",
            self.restated,
            self.flagged.len()
        );
        println!(
            "{name}: a number of a context sentence changed -> BAD: {:5.1} % ({}/{})",
            self.caught_pct(),
            self.caught,
            self.changed
        );
        let lines = [
            ("a direction word", &self.directions, floors.reversed),
            ("a bound before a figure", &self.bounds, floors.bounds),
        ];
        for (what, tally, floors) in lines {
            println!(
                "{name}: context sentences with {what} restated: {}",
                tally.restated
            );
            for ((part, (n, k)), floor) in ["tune", "held-out"].iter().zip(tally.parts).zip(floors)
            {
                let pct = if n == 0 {
                    100.0
                } else {
                    100.0 * k as f64 / n as f64
                };
                println!(
                    "{name}: {what} of a context sentence reversed -> BAD ({part}): {pct:5.1} % ({k}/{n})"
                );
                assert!(
                    pct + 1e-9 >= floor,
                    "{name}: {pct:.1} % of reversed sentences ({what}) caught ({part}), under the floor {floor:.1} %"
                );
            }
        }
        assert!(
            self.flagged.is_empty(),
            "{name}: restated sentences flagged:\n{}",
            self.flagged.join("\n")
        );
        assert!(
            self.caught_pct() + 1e-9 >= floors.changed,
            "{name}: {:.1} % of changed numbers caught, under the floor {:.1} %",
            self.caught_pct(),
            floors.changed
        );
    }
}

/// At most this many sentences of each context are restated and changed: the debug build of
/// `scripts/test` checks each in ~10 ms.
const SENTENCES_PER_CONTEXT: usize = 3;

/// The sentences of `text` that write a digit: ended by 。！？ or by `.`, `!`, `?` before a
/// space and a capital or a quote (not a decimal point, not `No. 5`).
fn digit_sentences(text: &str) -> Vec<&str> {
    sentences(text)
        .filter(|s| s.bytes().any(|b| b.is_ascii_digit()))
        .collect()
}

/// The sentences of `text` of eight characters or more, trimmed (split as [`digit_sentences`]
/// says).
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        let ends = match c {
            '。' | '！' | '？' => true,
            '.' | '!' | '?' => text[end..].strip_prefix(' ').is_some_and(|r| {
                r.starts_with(|n: char| n.is_uppercase() || n == '"' || n == '\'')
            }),
            _ => false,
        };
        if ends {
            parts.push(&text[start..end]);
            start = end;
        }
    }
    parts.push(&text[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|s| s.chars().count() >= 8)
}

/// `sentence` with its first number in digits changed far from what it was (a year moved by
/// seven, any other `n` to `3n + 7`), and the new number; none when it writes no such number.
/// Skipped: decimals and groups of thousands (`7.2`, `1,520`), and names written with digits
/// (`A34`, `F-16`, `COVID-19`, `Pt9995`, `5pm`), which the reader leaves alone by design, and
/// list markers.
fn with_a_number_changed(sentence: &str) -> Option<(String, String)> {
    let b = sentence.as_bytes();
    let letter = |i: usize| b.get(i).is_some_and(u8::is_ascii_alphabetic);
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while digit(i) {
            i += 1;
        }
        // Tokenized text spaces a decimal point or a thousands comma (`10. 2`, `3, 800`).
        let separated = |k: usize| {
            matches!(b.get(k), Some(b'.' | b','))
                && (digit(k + 1) || (b.get(k + 1) == Some(&b' ') && digit(k + 2)))
        };
        let glued_before = start > 0
            && (letter(start - 1)
                || matches!(b[start - 1], b'.' | b',')
                || (start > 1 && b[start - 1] == b' ' && separated(start - 2))
                || (b[start - 1] == b'-' && start > 1 && letter(start - 2)));
        let glued_after = letter(i) || separated(i);
        // A list marker at a line's start (`1.`, `2)`) numbers the list, no quantity.
        let line_start = sentence[..start]
            .trim_end_matches([' ', '\t'])
            .ends_with('\n')
            || sentence[..start].trim().is_empty();
        let marker = line_start && matches!(b.get(i), Some(b'.' | b')'));
        let Ok(n) = sentence[start..i].parse::<u64>() else {
            continue;
        };
        if glued_before || glued_after || marker || i - start > 9 {
            continue;
        }
        let new = if (1900..=2030).contains(&n) {
            n + 7
        } else {
            3 * n + 7
        }
        .to_string();
        return Some((
            format!("{}{new}{}", &sentence[..start], &sentence[i..]),
            new,
        ));
    }
    None
}

/// Direction words and the word that reverses each, longest first where one contains another.
/// English ones are whole words before a figure; words that also name something else (`fall`,
/// `lower`, `up`, `cut`) are left out.
const REVERSALS: &[(&str, &str)] = &[
    ("上涨", "下跌"),
    ("下跌", "上涨"),
    ("上升", "下降"),
    ("下降", "上升"),
    ("增长", "下降"),
    ("增加", "减少"),
    ("减少", "增加"),
    ("提高", "降低"),
    ("降低", "提高"),
    ("涨幅", "跌幅"),
    ("跌幅", "涨幅"),
    ("增幅", "降幅"),
    ("降幅", "增幅"),
    ("走高", "走低"),
    ("走低", "走高"),
    ("回升", "回落"),
    ("回落", "回升"),
    ("下滑", "上升"),
    ("攀升", "下滑"),
    ("涨", "跌"),
    ("跌", "涨"),
    ("increased", "decreased"),
    ("decreased", "increased"),
    ("increases", "decreases"),
    ("decreases", "increases"),
    ("declined", "increased"),
    ("dropped", "rose"),
    ("climbed", "fell"),
    ("jumped", "fell"),
    ("surged", "fell"),
    ("soared", "fell"),
    ("plunged", "rose"),
    ("slumped", "rose"),
    ("rising", "falling"),
    ("falling", "rising"),
    ("risen", "fallen"),
    ("fallen", "risen"),
    ("rises", "falls"),
    ("falls", "rises"),
    ("rose", "fell"),
    ("fell", "rose"),
    ("grew", "shrank"),
];

/// Nouns of a quantity: an English change verb right after one says which way it went.
const QUANTITY_NOUNS: &[&str] = &[
    "price",
    "prices",
    "shares",
    "sales",
    "profit",
    "profits",
    "revenue",
    "revenues",
    "costs",
    "rate",
    "rates",
    "earnings",
    "income",
    "exports",
    "imports",
    "output",
    "production",
    "unemployment",
    "inflation",
    "stocks",
    "index",
    "spending",
    "demand",
    "wages",
    "numbers",
    "population",
    "temperatures",
    "value",
    "values",
];

/// Words between a quantity noun and its verb.
const QUANTITY_BETWEEN: &[&str] = &["have", "has", "had", "also", "then", "sharply", "slightly"];

/// The reversal of `word` at byte `at` of `s`, when it is a direction word there: English ones
/// whole words, Chinese ones not part of a pair of both directions (`涨跌互现`, `升降`) and not
/// negated.
fn reversal_at(s: &str, at: usize) -> Option<(&'static str, &'static str)> {
    let rest = &s[at..];
    let (word, to) = REVERSALS.iter().copied().find(|(w, _)| {
        rest.get(..w.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(w))
    })?;
    let before = s[..at].chars().next_back();
    let after = rest[word.len()..].chars().next();
    if word.is_ascii() {
        // Only a change of a quantity: English direction verbs also fall down, decline an
        // offer and grow up ("rose 5%", "fell to $3.2 million", "increased by 10", "prices
        // fell").
        let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        let next = rest[word.len()..].trim_start();
        let next = [
            "by ",
            "to ",
            "from ",
            "nearly ",
            "almost ",
            "about ",
            "more than ",
        ]
        .iter()
        .find_map(|w| next.strip_prefix(w))
        .unwrap_or(next);
        let figure = next.starts_with(|c: char| c.is_ascii_digit() || "$£€¥".contains(c));
        // Or a quantity noun right before it, an auxiliary or adverb between ("oil prices
        // have fallen", "sales rose sharply").
        let quantity = s[..at]
            .split_whitespace()
            .rev()
            .filter(|w| !QUANTITY_BETWEEN.contains(w))
            .take(1)
            .any(|w| QUANTITY_NOUNS.contains(&w.to_ascii_lowercase().as_str()));
        return (!letter(before) && !letter(after) && (figure || quantity)).then_some((word, to));
    }
    let both = |c: Option<char>| c.is_some_and(|c| "涨跌升降增减".contains(c));
    let negated = s[..at].ends_with(['不', '未', '没', '无']);
    (!both(before) && !both(after) && !negated).then_some((word, to))
}

/// Bounds written before a figure and the bound that contradicts each (`nearly 50` is below 50,
/// `more than 50` above it). 近 before a span of time is "the last" (`近10年`), no bound.
const BOUND_REVERSALS: &[(&str, &str)] = &[
    ("more than ", "fewer than "),
    ("fewer than ", "more than "),
    ("less than ", "more than "),
    ("at least ", "at most "),
    ("almost ", "more than "),
    ("nearly ", "more than "),
    ("超过", "不到"),
    ("不到", "超过"),
    ("逾", "不到"),
    ("近", "超过"),
];

/// `sentence` with its first bound before a figure reversed ([`BOUND_REVERSALS`]), and that
/// bound.
fn with_a_bound_reversed(sentence: &str) -> Option<(String, &'static str)> {
    sentence.char_indices().find_map(|(i, _)| {
        let rest = &sentence[i..];
        let (word, to) = BOUND_REVERSALS.iter().copied().find(|(w, _)| {
            rest.starts_with(w) || (w.is_ascii() && rest.to_ascii_lowercase().starts_with(w))
        })?;
        let after = &rest[word.len()..];
        // Not inside a word: `almost` of `foralmost`, 近 of 接近 or 逼近 (their own bounds).
        let letter_before = sentence[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || "接逼将临附靠最".contains(c));
        let figure = after.starts_with(|c: char| c.is_ascii_digit() || "$£€".contains(c));
        let digits = after.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let span_of_time = word == "近" && digits.starts_with(['年', '天', '日', '月', '个', '周']);
        (figure && !letter_before && !span_of_time)
            .then(|| (format!("{}{to}{after}", &sentence[..i]), word))
    })
}

/// A sentence with one word reversed, and that word (none when it has no such word).
type Reverse = fn(&str) -> Option<(String, &'static str)>;

/// `sentence` with its first direction word reversed, and that word.
fn with_a_direction_reversed(sentence: &str) -> Option<(String, &'static str)> {
    sentence.char_indices().find_map(|(i, _)| {
        let (word, to) = reversal_at(sentence, i)?;
        Some((
            format!("{}{to}{}", &sentence[..i], &sentence[i + word.len()..]),
            word,
        ))
    })
}

/// A number in digits, with its decimal point or thousands separators: compiled once.
static NUMBER: std::sync::LazyLock<regex_lite::Regex> = std::sync::LazyLock::new(|| {
    regex_lite::Regex::new(r"\d+(?:[.,]\d+)*").expect("a valid pattern")
});

/// A whole number under a hundred in Chinese numerals (`22` → `二十二`, `10` → `十`).
fn chinese_numeral(n: u32) -> Option<String> {
    const DIGITS: [char; 10] = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let (tens, ones) = ((n / 10) as usize, (n % 10) as usize);
    let mut s = String::new();
    match tens {
        0 => {}
        1 => s.push('十'),
        2..=9 => {
            s.push(DIGITS[tens]);
            s.push('十');
        }
        _ => return None,
    }
    if ones > 0 || tens == 0 {
        s.push(DIGITS[ones]);
    }
    Some(s)
}

/// `sentence` with its first number that has another common writing written so: thousands
/// without their separator (`1,520` → `1520`), a percentage spelled (`22%` → `22 percent`,
/// `百分之二十二`) or a spelled one as `%`, 万 in digits (`5万` → `50000`). What a summary does
/// to the context's numbers without changing them.
fn in_another_notation(sentence: &str) -> Option<String> {
    let chinese = sentence
        .chars()
        .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    for m in NUMBER.find_iter(sentence) {
        let (before, text, after) = (&sentence[..m.start()], m.as_str(), &sentence[m.end()..]);
        if before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == ',') {
            continue;
        }
        let whole: Option<u32> = text.parse().ok();
        let new = if text.len() >= 5 && text.matches(',').count() == 1 && !text.contains('.') {
            let (head, group) = text.split_once(',')?;
            (head.len() <= 3 && group.len() == 3).then(|| format!("{head}{group}{after}"))
        } else if let Some(rest) = after.strip_prefix('%') {
            if chinese {
                whole
                    .and_then(chinese_numeral)
                    .map(|c| format!("百分之{c}{rest}"))
            } else {
                Some(format!("{text} percent{rest}"))
            }
        } else if let Some(rest) = after
            .strip_prefix(" per cent")
            .or_else(|| after.strip_prefix(" percent"))
        {
            Some(format!("{text}%{rest}"))
        } else if let Some(rest) = after.strip_prefix('万').filter(|r| !r.starts_with('亿')) {
            whole.map(|n| format!("{}{rest}", u64::from(n) * 10_000))
        } else {
            None
        };
        if let Some(new) = new {
            return Some(format!("{before}{new}"));
        }
    }
    None
}
