//! Property tests: random Unicode, hostile delimiters, deep nesting and long lines fed to every
//! parser and renderer-facing splitter. Each must return (a value or a typed error) without
//! panicking, and within a time bound far above what it needs, so a quadratic scan or a runaway
//! recursion fails here rather than freezing a user's tab. A wasm panic kills the whole page.
//! (The YAML, settings and strategy readers have their own in src/config.)

use std::time::{Duration, Instant};

use proptest::prelude::*;

use verifyfast::audit::check::check;
use verifyfast::audit::contract::DecomposeReply;
use verifyfast::audit::grounding::{ground_numbers, Status};
use verifyfast::audit::report::DeterministicCheck;
use verifyfast::config::AuditParams;
use verifyfast::extract::{grade, Preset};
use verifyfast::jsonl::{lines_of, LineSplitter};
use verifyfast::llm::reply::{parse_reply, ReadRules};
use verifyfast::llm::Boundary;
use verifyfast::logic::document::load;
use verifyfast::logic::formula::parse_formula;
use verifyfast::logic::replay::parse_event_log;
use verifyfast::mathtext::split;

/// Debug builds are slow; this bounds one call on inputs of at most a few hundred KB. The
/// quadratic scans this catches took tens of seconds on such inputs; linear work takes up to
/// about 5 s. The bound is on the CPU time of the calling thread where the system reports it
/// (Linux), so a machine busy with other work (CI builds llama.cpp beside the tests) cannot push
/// linear work over it; elsewhere it is wall time.
const BOUND: Duration = Duration::from_secs(10);

/// This thread's CPU time so far (user + system), from `/proc/thread-self/stat`; `None` where
/// that file does not exist. Its fields 14 and 15 count clock ticks, 100 per second on Linux
/// (proc(5), `USER_HZ`); the command name before them is in parentheses and may hold spaces.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

fn timed<T>(what: &str, input: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let cpu_before = thread_cpu_time();
    let out = f();
    let took = match (cpu_before, thread_cpu_time()) {
        (Some(before), Some(after)) => after.saturating_sub(before),
        _ => started.elapsed(),
    };
    assert!(
        took < BOUND,
        "{what} took {took:?} on {} bytes starting {:?}",
        input.len(),
        input.chars().take(60).collect::<String>()
    );
    out
}

/// The bound above is only as good as the clock: on Linux the thread's CPU time must be read and
/// must grow with work done.
#[test]
#[cfg(target_os = "linux")]
fn the_cpu_clock_of_the_bound_counts_work() {
    let before = thread_cpu_time().expect("/proc/thread-self/stat is readable");
    let started = Instant::now();
    let mut x = 0u64;
    while thread_cpu_time().expect("readable") < before + Duration::from_millis(50) {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "CPU time never grew ({x})"
        );
    }
}

/// Pieces that matter to the parsers: every delimiter they know, multi-byte characters (2, 3 and
/// 4 bytes, combining marks, BOM), control characters, and plain letters and digits.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "$", "$$", "\\(", "\\)", "\\[", "\\]", "{", "}", "\\", "\\$", "\n", "\n\n", "\r\n",
            "\"", "'", ":", ": ", ",", "[", "]", "#", "-", "|", ">", "`", "```", "```json",
            "\\boxed{", "\\fbox{", "\\frac{", "^", "_", "\\forall ", "\\exists ", "\\to ", "\\land ",
            "\\neg ", "(", ")", "=", "<", "\\le ", "+", "*", "/", "0", "1.5", "-3", "e9",
            "<think>", "</think>", "{\"", "\":", "null", "true", "[]", "{}",
        ]).prop_map(str::to_string),
        3 => prop::sample::select(vec![
            "√", "α", "β", "ñ", "é", "e\u{301}", "答", "案", "是", "。", "😀", "𝔸", "\u{feff}",
            "\u{200b}", "\u{0}", "\u{7f}", "\t", " ", "€", "ß", "İ",
        ]).prop_map(str::to_string),
        2 => "[a-zA-Z0-9 ]{1,8}",
        1 => any::<char>().prop_map(|c| c.to_string()),
    ]
}

fn hostile_text() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..300).prop_map(|v| v.concat())
}

/// One opener repeated many times, unclosed (or closed at the very end): deep nesting and
/// many-opener inputs, up to 100,000 levels.
fn deep_text() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "[", "{", "(", "{\"a\":", "[[", "\\frac{", "\\boxed{", "$", "\\(", "\\neg ", "-", "√$",
        ]),
        1usize..100_000,
        prop::sample::select(vec!["", "]", "}", ")", "x", "$", "α"]),
    )
        .prop_map(|(open, n, close)| format!("{}x{}", open.repeat(n), close.repeat(n)))
}

/// A long line (up to ~300 KB) of one piece repeated, with multi-byte characters in it.
fn long_line() -> impl Strategy<Value = String> {
    (piece(), 1usize..60_000).prop_map(|(p, n)| p.repeat(n.min(300_000 / p.len().max(1))))
}

/// Text dense in what the number check reads: digits (ASCII and full-width), separators, scale
/// and percent words, Chinese numerals and date characters, month names.
fn numeric_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(vec![
                "1", "12", "2023", "1,200", "1,2", ",", ".", "．", "１２", "0.08", "%", "％", " ", "\n",
                "k", "K", "M", "bn", " thousand", " million", " percent", "万", "亿", "千", "百", "十",
                "一", "二", "两", "零", "〇", "百分之", "个百分点", "年", "月", "日", "号", "-", "/",
                "May ", "march", "Sept.", "H2O", "v1.2.3", "第", "米", "\u{a0}", "e", "答",
            ]).prop_map(str::to_string),
            // Words read since the fifth round: spoken decimals and hundredths, bounds and
            // their negation, list markers, multiples, points, the day before.
            2 => prop::sample::select(vec![
                "twelve", " point ", " dot ", "fifty", "two", " and a half", " euros and ",
                " cents", "pp", " ppts", " points", "倍", "增长", "增至", "more than ", "no ",
                "won't be ", "nearly ", "\n1. ", "\n2. ", "\n3) ", "昨日", "前一交易日",
                "the day before", "quarter", "五月", " 亿",
            ]).prop_map(str::to_string),
            // Read since the sixth round: identifiers written apart, goalless draws, a day's
            // ordinal ending with "of", decades.
            1 => prop::sample::select(vec![
                "RC-135U", " - ", "su", "th of ", "st, ", "1980s", "'s", " ' s", "early ", "late ",
                "goalless", "₹", "￥",
            ]).prop_map(str::to_string),
            // Read since the seventh round: quarters, tokenized tens, two-digit decades,
            // centuries, ranks in digits.
            1 => prop::sample::select(vec![
                "Q3", "3Q", "third-quarter", "second quarter", "第三季度", "三季报", "前三季度",
                "twenty - five", "the 80's", "80年代", "15th century", "19世纪", "2nd most",
                "second most", "five months",
            ]).prop_map(str::to_string),
            1 => any::<char>().prop_map(|c| c.to_string()),
        ],
        0..400,
    )
    .prop_map(|v| v.concat())
}

fn any_input() -> impl Strategy<Value = String> {
    prop_oneof![6 => hostile_text(), 2 => deep_text(), 1 => long_line()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mathtext_split_never_panics_and_keeps_the_text(input in any_input()) {
        let segments = timed("mathtext::split", &input, || split(&input));
        // Nothing is lost but delimiters and `\$` escapes: every text segment is a piece of the input.
        for s in &segments {
            if let verifyfast::mathtext::Segment::Math { tex, .. } = s {
                prop_assert!(input.contains(tex.as_str()));
            }
        }
    }

    #[test]
    fn formula_parser_returns_or_errs(input in any_input()) {
        let _ = timed("parse_formula", &input, || parse_formula(&input));
    }

    #[test]
    fn llm_reply_parser_returns_or_errs(input in any_input()) {
        let b = Boundary::fixed("t0k3n");
        let input_quoted = [input.as_str()];
        let b = ReadRules { json_mode: true, quoted: &input_quoted, ..ReadRules::new(&b) };
        let _ = timed("parse_reply", &input, || parse_reply::<DecomposeReply>(&input, &b));
        let wrapped = format!("```json\n{{\"claims\": [{input:?}], \"deductions\": [\n");
        let _ = timed("parse_reply (truncated)", &wrapped, || parse_reply::<DecomposeReply>(&wrapped, &b));
        // The same text between the call's own answer markers.
        let marked = format!("{}{input}{}", b.boundary.answer_open(), b.boundary.answer_close());
        let _ = timed("parse_reply (marked)", &marked, || parse_reply::<DecomposeReply>(&marked, &b));
    }

    #[test]
    fn jsonl_reader_agrees_however_the_bytes_are_chunked(input in any_input(), cut in 1usize..97) {
        let whole = timed("jsonl::lines_of", &input, || lines_of(&input));
        let mut chunked = Vec::new();
        let mut splitter = LineSplitter::default();
        timed("LineSplitter", &input, || {
            for chunk in input.as_bytes().chunks(cut) {
                splitter.push(chunk, &mut |line| chunked.push(line));
            }
            splitter.finish(&mut |line| chunked.push(line));
        });
        prop_assert_eq!(format!("{whole:?}"), format!("{chunked:?}"));
    }

    #[test]
    fn number_check_returns_and_finds_a_text_in_itself(a in numeric_text(), b in any_input()) {
        let g = timed("ground_numbers", &a, || ground_numbers(&b, &a));
        prop_assert!(g.numbers.len() <= 300);
        let same = timed("ground_numbers (itself)", &a, || ground_numbers(&a, &a));
        // Every number of a text is in that text as written.
        prop_assert!(same.numbers.iter().all(|n| n.status == Status::Verbatim), "{:?}", same.numbers);
        // The rules over the same pair return too (bounds, negations, scores, directions).
        let params = AuditParams::default();
        let _ = timed("check", &a, || check(&b, &a, &params));
        let r = timed("check (itself)", &a, || check(&a, &a, &params));
        // A text restating itself has no unsupported number.
        prop_assert!(
            r.deterministic_findings
                .iter()
                .all(|f| f.check != DeterministicCheck::UnsupportedNumber),
            "{:?}",
            r.deterministic_findings
        );
    }

    /// The grader with a question (the copied-question guard reads it): an output that is the
    /// question, and one that is anything else.
    #[test]
    fn grader_returns_with_any_question(output in any_input(), question in any_input()) {
        for preset in Preset::ALL {
            let _ = timed("grade (copied question)", &question, || {
                grade(&question, "5", Some(&question), preset)
            });
            let _ = timed("grade (with a question)", &output, || {
                grade(&output, "5", Some(&question), preset)
            });
        }
    }

    #[test]
    fn event_log_and_problem_readers_return_or_err(input in any_input()) {
        let _ = timed("parse_event_log", &input, || parse_event_log(&input));
        let _ = timed("document::load", &input, || load(&input));
        let log = format!("{{\"problem\": {{\"id\": \"p\", \"hypotheses\": [{input:?}], \"goals\": []}}, \"events\": [{{\"eventType\": {input:?}}}]}}");
        let _ = timed("parse_event_log (wrapped)", &log, || parse_event_log(&log));
        let _ = timed("document::load (wrapped)", &log, || load(&log));
    }
}

/// The openers that overflowed the stack before their depth was charged by frame size: each is
/// refused with "nesting deeper than …" (or parsed), never a crash.
#[test]
fn deep_formulas_are_refused_not_overflowed() {
    for open in [
        "\\frac{",
        "\\forall x ",
        "f(",
        "(",
        "\\neg ",
        "x^{",
        "\\frac{f(",
        "-\\frac{-",
    ] {
        for n in [100usize, 300, 499, 501, 5000] {
            let s = format!("{}x", open.repeat(n));
            let _ = timed("parse_formula (deep)", &s, || parse_formula(&s));
        }
    }
    let refused = parse_formula(&"\\frac{".repeat(300));
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| e.message.contains("nesting deeper")),
        "{refused:?}"
    );
}

/// The inputs the property test found slow, pinned: a reply nested 100,000 levels deep between
/// the call's answer markers offers a candidate object at every level, each nearly the whole
/// text, and an 800 KB cut-off reply offers a repair at each of its last commas. Both are read
/// (or refused) in a bounded number of passes over the text.
#[test]
fn deeply_nested_and_huge_cut_off_replies_are_read_in_linear_time() {
    let b = Boundary::fixed("t0k3n");
    let nested = format!("{}x{}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
    let quoted = [nested.as_str()];
    let rules = ReadRules {
        json_mode: true,
        quoted: &quoted,
        ..ReadRules::new(&b)
    };
    let marked = format!("{}{nested}{}", b.answer_open(), b.answer_close());
    let read = timed("parse_reply (marked, nested)", &marked, || {
        parse_reply::<DecomposeReply>(&marked, &rules)
    });
    assert!(read.is_err());
    let long = "é, ".repeat(100_000);
    let cut = format!("```json\n{{\"claims\": [{long:?}, {long:?}], \"deductions\": [\n");
    let _ = timed("parse_reply (cut off, long)", &cut, || {
        parse_reply::<DecomposeReply>(&cut, &rules)
    });
}

/// The input the property test found slow in the number check, pinned: a context of a long run
/// of spaces, and an output number the context does not state. Looking for a Roman numeral in a
/// name trimmed the whole text before each space (300 KB took a minute in a release build).
#[test]
fn a_context_of_spaces_is_read_in_linear_time() {
    let context = " ".repeat(300_000);
    let output = "World War 2 ended in 1945, more than 12 years ago.";
    let g = timed("ground_numbers (spaces)", &context, || {
        ground_numbers(&context, output)
    });
    assert!(g.numbers.iter().all(|n| n.status == Status::NotFound));
    let params = AuditParams::default();
    let _ = timed("check (spaces)", &context, || {
        check(&context, output, &params)
    });
}
