//! Extraction + grading throughput on the GSM8K fixture, one core, and the regression rate.
//! Run: `cargo bench --bench extract` (or `--profile release-native` for the CLI's profile).
//!
//! One item = extract the answer from a solution text (its `####` line removed), extract
//! the gold (`####` value), and compare them: what `verifyfast grade` does per line.

use std::time::{Duration, Instant};

/// Nanoseconds this thread has spent on a CPU (Linux), so a busy shared machine does not
/// make the figure look slower than the code is. `None` elsewhere.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
use verifyfast::extract::{grade, Preset};

/// The fixture sets and the flag's measurement, shared with tests/extract_confidence.rs.
#[path = "../tests/common/confidence.rs"]
mod confidence;
/// Math-Verify's own test pairs, shared with tests/extract_math_verify.rs.
#[path = "../tests/common/math_verify.rs"]
mod math_verify;
/// The real-output sets and their measurement, shared with tests/extract_real.rs.
#[path = "../tests/common/real.rs"]
mod real;

/// CPU seconds of this thread since `cpu_start`, or the wall-clock `secs` when unknown.
fn cpu_secs_since(cpu_start: Option<u64>, secs: f64) -> f64 {
    cpu_ns()
        .zip(cpu_start)
        .map_or(secs, |(b, a)| b.saturating_sub(a) as f64 / 1e9)
}

/// Real outputs: accuracy, false positives/negatives, undecided, the doubt signal
/// (firing rate, recall, per-kind precision), items/s; and one ~160 KB long-CoT output timed.
fn real_sets() {
    let dev = real::dev();
    for (name, items) in [
        ("dev long-CoT", &dev),
        ("GSM8K train (no ####)", &real::gsm8k()),
    ] {
        let start = Instant::now();
        let cpu_start = cpu_ns();
        let (report, _) = real::measure(items);
        let mut passes = 1usize;
        while start.elapsed() < Duration::from_secs(2) {
            std::hint::black_box(real::measure(items));
            passes += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        let cpu = cpu_secs_since(cpu_start, secs);
        let done = (passes * items.len()) as f64;
        print!("{}", report.render(name));
        println!(
            "  graded {:.0} items/s wall-clock, {:.0} per CPU-second ({} passes)",
            done / secs,
            done / cpu.max(1e-9),
            passes
        );
    }
    // The exam outputs: per language, per answer type and per subset, on both parts of the
    // hold-out split, with the doubt signal on the held-out part (tests/extract_exam.rs).
    let exam = real::exam();
    let start = Instant::now();
    let cpu_start = cpu_ns();
    let (figures, _) = real::measure_exam(&exam);
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_secs_since(cpu_start, secs);
    print!("{}", figures.text);
    println!(
        "  graded {:.0} items/s wall-clock, {:.0} per CPU-second (one pass)",
        exam.len() as f64 / secs,
        exam.len() as f64 / cpu.max(1e-9)
    );
    // The second exam set, graded once before any rule looked at it (tests/extract_exam.rs).
    let (more, _) = real::measure_exam(&real::exam_more());
    print!("more {}", more.text.replace("\nexam", "\nmore exam"));
    let (long, gold) = real::long_output(&dev, 160 * 1024);
    let mut sink = 0usize;
    let runs = 200usize;
    let start = Instant::now();
    let cpu_start = cpu_ns();
    for _ in 0..runs {
        sink += usize::from(grade(&long, &gold, None, Preset::Lenient).equivalent);
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_secs_since(cpu_start, secs);
    println!(
        "one {} KB long-CoT output (real dev outputs concatenated): extract+grade in {:.3} ms \
         wall-clock, {:.3} ms per CPU-second",
        long.len() / 1024,
        secs * 1e3 / runs as f64,
        cpu * 1e3 / runs as f64
    );
    std::hint::black_box(sink);
}

/// Per fixture set: how often the low-confidence flag (the LLM fallback's trigger) fires and
/// how many wrong verdicts it flags, and how fast the whole grade runs on that set.
fn confidence_signal() {
    let sets = [
        ("GSM8K train (no ####)", confidence::gsm8k()),
        ("MATH-style (ours)", confidence::math_style()),
        (
            "MATH-style, written after the design (traps)",
            confidence::math_style_fresh(),
        ),
    ];
    for (name, items) in &sets {
        let s = confidence::measure(items);
        let start = Instant::now();
        let cpu_start = cpu_ns();
        let mut passes = 0usize;
        while start.elapsed() < Duration::from_secs(1) {
            std::hint::black_box(confidence::measure(items));
            passes += 1;
        }
        let done = (passes * items.len()) as f64;
        let secs = start.elapsed().as_secs_f64();
        let cpu = cpu_ns()
            .zip(cpu_start)
            .map_or(secs, |(b, a)| b.saturating_sub(a) as f64 / 1e9);
        println!(
            "confidence signal, {name}: {} items, fires on {} ({:.2}%), {} wrong verdicts, \
             {} flagged (recall {:.1}%); graded {:.0} items/s wall-clock, {:.0} per CPU-second",
            s.items,
            s.fired,
            s.firing_rate(),
            s.wrong,
            s.wrong_flagged,
            s.recall(),
            done / secs,
            done / cpu.max(1e-9)
        );
        if items.iter().any(|i| i.category != "gsm8k") {
            for (category, c) in confidence::by_category(items) {
                println!(
                    "  {category}: {} items, fires on {}, {} wrong, {} flagged",
                    c.items, c.fired, c.wrong, c.wrong_flagged
                );
            }
        }
    }
}

fn main() {
    real_sets();
    for preset in [Preset::Lenient, Preset::Strict] {
        println!("{}", math_verify::figures(preset).summary(preset));
    }
    confidence_signal();
    let data = include_str!("../tests/fixtures/gsm8k_train.jsonl");
    let items: Vec<(String, String, String)> = data
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let answer = v.get("answer")?.as_str()?;
            let at = answer.rfind("####")?;
            Some((
                answer.get(..at)?.to_string(),
                answer.get(at + 4..)?.trim().to_string(),
                v.get("question")?.as_str()?.to_string(),
            ))
        })
        .collect();
    let n = items.len();
    let bytes: usize = items.iter().map(|(s, g, _)| s.len() + g.len()).sum();

    for preset in [Preset::Strict, Preset::Lenient] {
        let ok = items
            .iter()
            .filter(|(s, g, q)| grade(s, g, Some(q), preset).equivalent)
            .count();
        println!(
            "GSM8K regression ({preset:?}): {ok}/{n} = {:.2}%",
            100.0 * ok as f64 / n as f64
        );
    }

    // Warm up, then run whole passes for at least two seconds.
    let mut sink = 0usize;
    for (s, g, q) in &items {
        sink += usize::from(grade(s, g, Some(q), Preset::Lenient).equivalent);
    }
    let start = Instant::now();
    let cpu_start = cpu_ns();
    let mut done = 0usize;
    while start.elapsed() < Duration::from_secs(2) {
        for (s, g, q) in &items {
            sink += usize::from(grade(s, g, Some(q), Preset::Lenient).equivalent);
        }
        done += n;
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu_secs = cpu_ns()
        .zip(cpu_start)
        .map(|(b, a)| b.saturating_sub(a) as f64 / 1e9);
    println!(
        "extract+grade: {done} items in {secs:.2}s wall = {:.0} items/s wall-clock on one core \
         ({:.1} MB/s of text, avg {} bytes/item)",
        done as f64 / secs,
        (bytes as f64 * (done / n) as f64) / secs / 1e6,
        bytes / n.max(1)
    );
    if let Some(c) = cpu_secs.filter(|c| *c > 0.0) {
        println!(
            "extract+grade: {:.0} items/s per CPU-second of this thread ({c:.2}s on CPU; \
             differs from wall-clock when the machine is shared)",
            done as f64 / c
        );
    }
    let start = Instant::now();
    let cpu_start = cpu_ns();
    let mut extracted = 0usize;
    for _ in 0..3 {
        for (s, _, q) in &items {
            extracted += usize::from(verifyfast::extract::extract(s, Some(q)).is_some());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_ns()
        .zip(cpu_start)
        .map_or(secs, |(b, a)| b.saturating_sub(a) as f64 / 1e9);
    println!(
        "extract only (solution texts): {:.0} texts/s wall-clock, {:.0} per CPU-second",
        extracted as f64 / secs,
        extracted as f64 / cpu.max(1e-9)
    );
    // Hostile pastes: one 1 MB line of unclosed boxes (a minute when each box rescanned to the
    // end of the text; the Extract page extracts as the user types).
    for unit in [
        "\\boxed{1 ",
        "\\fbox{",
        "<think>\\boxed{</think>",
        // The JSON-field and `# Answer` rules: many keys and headings on one line or many.
        "\"answer\": \"",
        "{\"answer\": \"\\\"",
        "# Answer\n",
        "## answer answer ",
        "x \\le 2 \\cup ",
        // The selection rules from Math-Verify's suite: sentence stops inside math on one
        // line (the slowest of these, linear: 150,000 math spans, most of the time in the
        // rules that were there before), marker sentences with a verb, "Answer" labels,
        // decimal-comma prices.
        "$a. b$ ",
        "Final Answer: The $n$ is ",
        "Answer $ ",
        "2,74 $ which is ",
    ] {
        let text = unit.repeat((1 << 20) / unit.len());
        let start = Instant::now();
        let cpu_start = cpu_ns();
        sink += usize::from(grade(&text, "1", None, Preset::Lenient).equivalent);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "1 MB line of `{}` repeated: extract+grade in {:.1} ms ({:.1} ms on CPU)",
            unit.escape_debug(),
            secs * 1e3,
            cpu_secs_since(cpu_start, secs) * 1e3
        );
    }
    std::hint::black_box(sink);
}
