//! The deterministic findings with no model on five more sets of real, human-labelled
//! summaries, read in place from a clone of each project (never copied here) and skipped with a
//! notice when their variable is unset:
//! - `VERIFYFAST_SUMMEDITS`: the `data/summedits/` folder of salesforce/factualNLG (SummEdits,
//!   Apache-2.0): documents of eight domains (news, podcasts, earnings calls, meetings, sales
//!   calls and emails, dialogues, papers), each with edited summaries labelled consistent or
//!   not;
//! - `VERIFYFAST_QAGS`: the `data/` folder of W4ngatang/qags (QAGS: CNN/DailyMail and XSum
//!   articles, one-sentence summaries judged by three annotators each);
//! - `VERIFYFAST_SUMMEVAL`: the file `data/true/summeval.csv` of asappresearch/scale-score, the
//!   TRUE benchmark's copy of SummEval (Yale-LILY/SummEval, MIT: CNN/DailyMail articles with
//!   the summaries of 16 systems of 2017–2020, consistent when every expert gave the top
//!   consistency mark). Its summaries are tokenized ("rc - 135u", "under - 17"); its articles
//!   are not. Its six false alarms as it came were all in the tune part;
//! - `VERIFYFAST_FRANK`: the file `data/true/frank.csv` of the same repository, TRUE's copy of
//!   FRANK's test part (artidoro/frank, MIT: CNN/DailyMail and XSum articles with the summaries
//!   of 9 systems of 2019–2020, consistent when annotators found no error), in the same form;
//! - `VERIFYFAST_AGGREFACT`: the `data/error_type_mapping/` folder of Liyan06/AggreFact (no
//!   licence file; read for measurement only), its span-annotated copies of CLIFF (BART and
//!   PEGASUS summaries of XSum articles, 600) and Goyal'21 (150 XSum summaries, lower-cased
//!   and tokenized): each summary with the error spans annotators marked, or none.
//!
//! What is measured, as in `tests/audit_real.rs` (any counted finding makes the score 2):
//! - consistent summaries (SummEdits label 1; QAGS sentences all three annotators accepted)
//!   scored GOOD;
//! - a summary with a number written in digits that is in neither the document nor (SummEdits)
//!   the summary it was edited from, labelled inconsistent (QAGS: by two of three; AggreFact:
//!   the number is inside an annotated error span), scored BAD; for AggreFact also one whose
//!   marked span holds a number word from one to twelve that the article never writes;
//!   for SummEdits also one naming a quarter of a year (`Q3`, `third quarter`) that neither
//!   names.
//!   Some of these are a figure changed by less than the deviation threshold, which the
//!   rubric makes Low (a score of 4), so they cannot all be caught;
//! - over every article of these sets, its first sentences restated (none may be flagged) and
//!   with one number changed (`common::restate`, as in `tests/audit_real.rs`).
//!
//! Each set is split by a fixed hash of its document (FNV-1a 64, `% 10 < 7`): the rules were
//! developed on the tune part only; the held-out part is printed, never listed. QAGS's CNN/DM
//! articles are tokenized ("3, 800", "2. 4", "100, 000 - a - week") and checked as they are;
//! joined back ("3,800", "2.4", "100,000-a-week"), as the summaries write them, they only
//! decide which rejected sentences have a number the article does not state.
//! `AUDIT_EXTERNAL_SHOW=1` lists the tune part's misses and false alarms.

mod common;

use common::restate::{Floors, Restated};
use serde_json::Value;
use verifyfast::audit::deterministic::{direction_findings, unsupported_number_findings};
use verifyfast::audit::grounding::ground_numbers;
use verifyfast::config::AuditParams;

fn counted(context: &str, output: &str) -> bool {
    let threshold = AuditParams::default().numeric_deviation_threshold;
    !unsupported_number_findings(context, output, &ground_numbers(context, output), threshold)
        .is_empty()
        || !direction_findings(context, output).is_empty()
}

/// Adds the first sentences of each context of `cases` to `restated`, restated and changed
/// (`common::restate`).
fn restate(restated: &mut Restated, cases: &[Case]) {
    for c in cases {
        restated.add(&c.id, &c.context, &counted);
    }
}

/// Numbers written with digits, as written ("3,800", "12.50"), trailing punctuation off.
fn digit_numbers(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        let part = c.is_ascii_digit() || (start.is_some() && matches!(c, ',' | '.'));
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(text[s..i].trim_end_matches([',', '.']));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The quarters of a year a text names in English, by a reader of the test's own (`Q3`,
/// `3Q`, `third quarter`, `third-quarter`), as numbers 1 to 4.
fn quarters_named(text: &str) -> Vec<u32> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let ordinal = ["first", "second", "third", "fourth"]
            .iter()
            .position(|o| o == w)
            .filter(|_| words.get(i + 1).is_some_and(|n| n == "quarter"));
        let short = match w.as_bytes() {
            [b'q', d @ b'1'..=b'4'] | [d @ b'1'..=b'4', b'q'] => Some(usize::from(d - b'1')),
            _ => None,
        };
        if let Some(q) = ordinal.or(short) {
            out.push(q as u32 + 1);
        }
    }
    out
}

/// One labelled case: its document key (for the split), whether it should be flagged.
struct Case {
    doc: String,
    id: String,
    context: String,
    output: String,
    want_bad: bool,
}

/// (cases, got right) for the tune and held-out parts of `cases`.
fn measure(name: &str, cases: &[Case]) -> [(usize, usize); 2] {
    let show = std::env::var("AUDIT_EXTERNAL_SHOW").is_ok_and(|v| v == "1");
    let mut parts = [(0, 0); 2];
    for c in cases {
        let tune = common::fnv(&c.doc) % 10 < 7;
        let right = counted(&c.context, &c.output) == c.want_bad;
        let p = &mut parts[usize::from(!tune)];
        p.0 += 1;
        p.1 += usize::from(right);
        if show && tune && !right {
            let what = if c.want_bad { "miss" } else { "false alarm" };
            println!("--- {name} {} ({what}): {}", c.id, c.output);
        }
    }
    for (part, (n, ok)) in ["tune", "held-out"].iter().zip(parts) {
        let pct = if n == 0 {
            100.0
        } else {
            100.0 * ok as f64 / n as f64
        };
        println!("{name:<60} {part:<9} {n:>5}   {pct:5.1} % ({ok}/{n})");
    }
    parts
}

/// The three sets of SummEdits: consistent summaries, a number edited in, a quarter edited in.
type SummEdits = (Vec<Case>, Vec<Case>, Vec<Case>);

fn summedits(dir: &str) -> Option<SummEdits> {
    let (mut clean, mut edited, mut quarter) = (Vec::new(), Vec::new(), Vec::new());
    let mut read = 0;
    for domain in [
        "news",
        "podcast",
        "ectsum",
        "qmsumm",
        "sales_call",
        "sales_email",
        "samsum",
        "scitldr",
    ] {
        let path = format!("{dir}/summedits_{domain}.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("NOTICE: {path} is absent: skipped");
            continue;
        };
        read += 1;
        let items: Vec<Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for x in &items {
            let s = |k: &str| x[k].as_str().unwrap_or_default().to_string();
            let id = s("id");
            let doc = format!(
                "{domain}:{}",
                id.rsplit_once('_').map_or(id.as_str(), |p| p.0)
            );
            let case = |want_bad| Case {
                doc: doc.clone(),
                id: format!("{domain}:{id}"),
                context: s("doc"),
                output: s("summary"),
                want_bad,
            };
            if x["label"] == 1 {
                clean.push(case(false));
            } else {
                let (summary, original, document) = (s("summary"), s("original_summary"), s("doc"));
                let before = digit_numbers(&original);
                let new = digit_numbers(&summary)
                    .into_iter()
                    .any(|n| !before.contains(&n) && !document.contains(n));
                if new {
                    edited.push(case(true));
                }
                let (before, named) = (quarters_named(&original), quarters_named(&document));
                if quarters_named(&summary)
                    .into_iter()
                    .any(|q| !before.contains(&q) && !named.contains(&q))
                {
                    quarter.push(case(true));
                }
            }
        }
    }
    (read > 0).then_some((clean, edited, quarter))
}

/// Whether `text` writes a number in digits that `doc` does not hold.
fn digits_absent(text: &str, doc: &str) -> bool {
    digit_numbers(text).into_iter().any(|n| !doc.contains(n))
}

/// The index of each named column in a CSV's header row; a missing one stops the test.
fn columns<const N: usize>(header: &[String], path: &str, names: [&str; N]) -> [usize; N] {
    names.map(|name| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{path}: no column {name}"))
    })
}

/// The rows of a CSV text (RFC 4180: quoted fields hold commas, newlines and doubled quotes).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, '\r') => {}
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A set of the TRUE benchmark's CSV form (`grounding`, `generated_text`, `label`: 1 consistent):
/// SummEval, FRANK.
fn true_csv(path: &str, name: &str) -> Option<(Vec<Case>, Vec<Case>)> {
    let text = std::fs::read_to_string(path).ok()?;
    let rows = csv_rows(&text);
    let header = rows.first()?;
    let [doc, summary, label] = columns(header, path, ["grounding", "generated_text", "label"]);
    let (mut clean, mut bad) = (Vec::new(), Vec::new());
    for (i, row) in rows.iter().enumerate().skip(1) {
        let field = |k: usize| row.get(k).cloned().unwrap_or_default();
        let case = |want_bad| Case {
            doc: field(doc),
            id: format!("{name}:{i}"),
            context: field(doc),
            output: field(summary),
            want_bad,
        };
        if field(label) == "1" {
            clean.push(case(false));
        } else if digits_absent(&field(summary), &field(doc)) {
            bad.push(case(true));
        }
    }
    Some((clean, bad))
}

/// AggreFact's span-annotated sets (`CLIFF_error_types.csv`, `Goyal21_error_types.csv`: `doc`,
/// `summ`, `error_type` — `correct` or empty for none — and `annotated_span`, the marked spans
/// as a list literal).
fn aggrefact(dir: &str) -> Option<AggreFact> {
    let (mut clean, mut bad, mut words) = (Vec::new(), Vec::new(), Vec::new());
    let mut read = 0;
    for set in ["CLIFF", "Goyal21"] {
        let path = format!("{dir}/{set}_error_types.csv");
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("NOTICE: {path} is absent: skipped");
            continue;
        };
        read += 1;
        let rows = csv_rows(&text);
        let Some(header) = rows.first() else { continue };
        let [doc, summary, error, spans] = columns(
            header,
            &path,
            ["doc", "summ", "error_type", "annotated_span"],
        );
        for (i, row) in rows.iter().enumerate().skip(1) {
            let field = |k: usize| row.get(k).cloned().unwrap_or_default();
            let case = |want_bad| Case {
                doc: field(doc),
                id: format!("{set}:{i}"),
                context: field(doc),
                output: field(summary),
                want_bad,
            };
            if matches!(field(error).as_str(), "correct" | "") {
                clean.push(case(false));
            } else if digits_absent(&field(spans), &field(doc)) {
                bad.push(case(true));
            } else if !field(spans).bytes().any(|b| b.is_ascii_digit()) {
                let in_doc = lower_words(&field(doc));
                let absent = lower_words(&field(spans))
                    .into_iter()
                    .any(|w| NUMBER_WORDS.contains(&w.as_str()) && !in_doc.contains(&w));
                if absent {
                    words.push(case(true));
                }
            }
        }
    }
    (read > 0).then_some((clean, bad, words))
}

/// AggreFact's three sets: no error marked, a number in digits marked, one in words marked.
type AggreFact = (Vec<Case>, Vec<Case>, Vec<Case>);

/// Counts in words, one to twelve: the ones the rules leave to the fact check as a list's
/// count unless they measure something (`two years`, `a six-year-old`).
const NUMBER_WORDS: [&str; 12] = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
];

/// The lower-case ASCII words of a text.
fn lower_words(text: &str) -> std::collections::HashSet<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// QAGS's CNN/DM articles are tokenized: "3, 800", "2. 4", "100, 000 - a - week". Its
/// patterns are compiled once for all articles.
struct Detokenizer {
    thousands: regex_lite::Regex,
    point: regex_lite::Regex,
}

impl Detokenizer {
    fn new() -> Self {
        Detokenizer {
            thousands: regex_lite::Regex::new(r"(\d), (\d{3})\b").expect("a fixed pattern"),
            point: regex_lite::Regex::new(r"(\d)\. (\d)").expect("a fixed pattern"),
        }
    }

    fn apply(&self, text: &str) -> String {
        // Twice: "53, 193, 914" overlaps.
        let t = self.thousands.replace_all(text, "$1,$2");
        let t = self.thousands.replace_all(&t, "$1,$2");
        self.point.replace_all(&t, "$1.$2").replace(" - ", "-")
    }
}

fn qags(dir: &str) -> Option<(Vec<Case>, Vec<Case>)> {
    let (mut clean, mut bad) = (Vec::new(), Vec::new());
    let mut read = 0;
    let detokenizer = Detokenizer::new();
    for set in ["cnndm", "xsum"] {
        let path = format!("{dir}/mturk_{set}.jsonl");
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("NOTICE: {path} is absent: skipped");
            continue;
        };
        read += 1;
        for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            let x: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}: {e}"));
            // The article as it came goes to the check; joined back, it only decides which
            // rejected sentences have a number it does not state.
            let article = x["article"].as_str().unwrap_or_default().to_string();
            let joined = detokenizer.apply(&article);
            let empty = Vec::new();
            let sentences = x["summary_sentences"].as_array().unwrap_or(&empty);
            for (j, s) in sentences.iter().enumerate() {
                let sentence = s["sentence"].as_str().unwrap_or_default().to_string();
                let responses = s["responses"].as_array().unwrap_or(&empty);
                let yes = responses.iter().filter(|r| r["response"] == "yes").count();
                let case = |want_bad| Case {
                    doc: format!("{set}:{i}"),
                    id: format!("{set}:{i}:{j}"),
                    context: article.clone(),
                    output: sentence.clone(),
                    want_bad,
                };
                if yes == responses.len() && yes > 0 {
                    clean.push(case(false));
                } else if yes * 2 < responses.len() && digits_absent(&sentence, &joined) {
                    bad.push(case(true));
                }
            }
        }
    }
    (read > 0).then_some((clean, bad))
}

#[test]
fn rules_alone_on_more_real_summaries() {
    // A sentence of every article restated and changed (`common::restate`), over all the sets.
    let mut restated = Restated::default();
    // Floors (tune, held-out), raised when the rules improve, never lowered silently.
    let check = |got: [(usize, usize); 2], floors: (f64, f64), name: &str| {
        let pct = |(n, ok): (usize, usize)| {
            if n == 0 {
                100.0
            } else {
                100.0 * ok as f64 / n as f64
            }
        };
        let (t, h) = (pct(got[0]), pct(got[1]));
        assert!(
            t + 1e-9 >= floors.0 && h + 1e-9 >= floors.1,
            "{name}: {t:.1} % / {h:.1} % under the floors {:.1} % / {:.1} %",
            floors.0,
            floors.1
        );
    };
    match std::env::var("VERIFYFAST_SUMMEDITS")
        .ok()
        .and_then(|d| summedits(&d))
    {
        Some((clean, edited, quarter)) => {
            let c = measure("summedits: consistent summary -> GOOD", &clean);
            check(c, (99.9, 96.5), "summedits clean");
            let e = measure("summedits: a number edited in -> BAD", &edited);
            // Held-out 92.8 % -> 91.8 % when "August 31st, 2022" became one date (the one catch it
            // lost was flagged only for that date), back to 92.8 % in the seventh round
            // (docs/audit.md).
            check(e, (93.6, 92.7), "summedits numbers");
            let q = measure("summedits: a quarter edited in -> BAD", &quarter);
            check(q, (100.0, 100.0), "summedits quarters");
            for cases in [&clean, &edited] {
                restate(&mut restated, cases);
            }
        }
        None => println!("NOTICE: VERIFYFAST_SUMMEDITS unset or empty: SummEdits skipped"),
    }
    match std::env::var("VERIFYFAST_QAGS").ok().and_then(|d| qags(&d)) {
        Some((clean, bad)) => {
            let c = measure("qags: sentence all annotators accept -> GOOD", &clean);
            check(c, (100.0, 100.0), "qags clean");
            let b = measure("qags: rejected, a number not in the article -> BAD", &bad);
            check(b, (100.0, 100.0), "qags numbers");
            for cases in [&clean, &bad] {
                restate(&mut restated, cases);
            }
        }
        None => println!("NOTICE: VERIFYFAST_QAGS unset or empty: QAGS skipped"),
    }
    match std::env::var("VERIFYFAST_AGGREFACT")
        .ok()
        .and_then(|d| aggrefact(&d))
    {
        Some((clean, bad, words)) => {
            let c = measure("aggrefact: no error annotated -> GOOD", &clean);
            check(c, (99.3, 99.1), "aggrefact clean");
            let b = measure("aggrefact: a number not in the article marked -> BAD", &bad);
            check(b, (90.3, 100.0), "aggrefact numbers");
            let w = measure(
                "aggrefact: one to twelve in words, not in it, marked -> BAD",
                &words,
            );
            check(w, (100.0, 25.0), "aggrefact numbers in words");
            for cases in [&clean, &bad, &words] {
                restate(&mut restated, cases);
            }
        }
        None => println!("NOTICE: VERIFYFAST_AGGREFACT unset or empty: AggreFact skipped"),
    }
    // The sets in TRUE's CSV form: (name, variable, floors of the consistent line, of the
    // numbers line).
    for (name, var, clean_floors, number_floors) in [
        (
            "summeval",
            "VERIFYFAST_SUMMEVAL",
            (99.8, 100.0),
            (100.0, 100.0),
        ),
        ("frank", "VERIFYFAST_FRANK", (100.0, 100.0), (96.9, 75.0)),
    ] {
        let Some((clean, bad)) = std::env::var(var).ok().and_then(|p| true_csv(&p, name)) else {
            println!("NOTICE: {var} unset or unreadable: {name} skipped");
            continue;
        };
        let c = measure(&format!("{name}: consistent summary -> GOOD"), &clean);
        check(c, clean_floors, &format!("{name} clean"));
        let b = measure(
            &format!("{name}: inconsistent, a number not in the article -> BAD"),
            &bad,
        );
        check(b, number_floors, &format!("{name} numbers"));
        for cases in [&clean, &bad] {
            restate(&mut restated, cases);
        }
    }
    if restated.restated > 0 {
        // Floor: the figure measured when the measure was written.
        restated.report(
            "every set above",
            Floors {
                changed: 98.9,
                reversed: [96.6, 100.0],
                bounds: [91.3, 86.3],
            },
        );
    }
}
