//! `verifyfast band`: the band report of a results file, and the comparison of two runs.
use std::io::Read;
use std::process::ExitCode;

use crate::band::compare::{self, RunLines};
use crate::band::render::{self, By};
use crate::band::{Evaluator, Options, Verdict};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit codes: 0 report printed (gate met or not asked); 1 --max-cross-band given and the \
target was not met (point estimate at or above it, or too few cases to show it is below); 2 some lines were bad \
(listed on stderr and in the report, the rest counted); 3 the file could not be read.\n\n\
Comparison (--compare B.jsonl, or --profile-a P --profile-b Q on one file): 0 printed; 2 some lines of either \
file could not be used; 3 a file could not be read."
)]
pub struct BandArgs {
    /// Results JSONL (one line per case and profile, with `expected_credit_score` and `credit_score`); `-` for stdin.
    pub results: String,
    /// Output format.
    #[arg(long, value_parser = ["md", "json", "csv"], default_value = "md")]
    pub format: String,
    /// Groupings to report, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "profile,tag,difficulty", value_parser = ["profile", "tag", "difficulty"])]
    pub by: Vec<String>,
    /// CI gate: exit 1 unless the cross-band confusion rate is shown to be below this fraction.
    #[arg(long)]
    pub max_cross_band: Option<f64>,
    /// Compare RESULTS (run A) with this results file (run B) case by case: score and band
    /// changes, cross-band flips first, exact McNemar test and Newcombe interval.
    #[arg(long, value_name = "B.jsonl")]
    pub compare: Option<String>,
    /// In a comparison: only this profile's lines of run A (with --profile-b and no
    /// --compare, two profiles of one file are compared).
    #[arg(long)]
    pub profile_a: Option<String>,
    /// In a comparison: only this profile's lines of run B.
    #[arg(long)]
    pub profile_b: Option<String>,
}

pub fn run(a: BandArgs) -> ExitCode {
    if a.compare.is_some() || a.profile_a.is_some() || a.profile_b.is_some() {
        return run_compare(&a).unwrap_or_else(super::fail);
    }
    let mut options = Options::default();
    if let Some(t) = a.max_cross_band {
        if !(0.0..=1.0).contains(&t) {
            return super::fail(format!(
                "--max-cross-band must be a fraction between 0 and 1, got {t}"
            ));
        }
        options.max_cross_band = t;
    }
    let reader: Box<dyn Read> = if a.results == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(&a.results) {
            Ok(f) => Box::new(f),
            Err(e) => return super::fail(format!("cannot open {}: {e}", a.results)),
        }
    };
    let mut ev = Evaluator::new(options);
    let read = crate::jsonl::for_each_line(reader, |line| match line.text {
        Ok(t) => ev.push_line(line.number, line.offset, &t),
        Err(e) => ev.bad_line(line.number, e.to_string()),
    });
    if let Err(e) = read {
        return super::fail(format!("reading {}: {e}", a.results));
    }
    let report = ev.finish();
    let by = By {
        profile: a.by.iter().any(|b| b == "profile"),
        tag: a.by.iter().any(|b| b == "tag"),
        difficulty: a.by.iter().any(|b| b == "difficulty"),
    };
    let text = match a.format.as_str() {
        "json" => render::json(&report, by),
        "csv" => render::csv(&report, by),
        _ => render::markdown(&report, by),
    };
    println!("{}", text.trim_end());
    for b in &report.bad_lines {
        eprintln!("verifyfast band: line {}: {}", b.line, b.reason);
    }
    if report.bad_line_count > report.bad_lines.len() as u64 {
        eprintln!(
            "verifyfast band: … {} bad lines in all",
            report.bad_line_count
        );
    }
    if std::env::var_os("VERIFYFAST_REPORT_MEMORY").is_some() {
        if let Ok(kb) = peak_memory_kb() {
            eprintln!("verifyfast band: peak memory {kb} KB");
        }
        // CPU time, not wall time: on a shared machine the wall clock mostly measures the
        // neighbours.
        if let Some(ns) = cpu_time_ns() {
            eprintln!("verifyfast band: cpu time {:.3} s", ns as f64 / 1e9);
        }
    }
    let o = &report.overall;
    if a.max_cross_band.is_some() && o.verdict != Verdict::Met {
        eprintln!(
            "verifyfast band: gate {}: cross-band rate {} with 95 % CI {:?}, target < {}",
            o.verdict.label(),
            o.cross_band_rate
                .map_or("–".into(), |r| format!("{:.2} %", r * 100.0)),
            o.cross_band_ci,
            report.target
        );
        return ExitCode::from(super::EXIT_GATE);
    }
    if report.bad_line_count > 0 {
        return ExitCode::from(super::EXIT_BAD_LINES);
    }
    ExitCode::SUCCESS
}

fn open(path: &str) -> Result<Box<dyn Read>, String> {
    if path == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    std::fs::File::open(path)
        .map(|f| Box::new(f) as Box<dyn Read>)
        .map_err(|e| format!("cannot open {path}: {e}"))
}

fn read_run(path: &str) -> Result<RunLines, String> {
    let mut run = RunLines::new(path);
    crate::jsonl::for_each_line(open(path)?, |line| match line.text {
        Ok(t) => run.push_line(line.number, &t),
        Err(e) => run.bad_lines.push((line.number, e.to_string())),
    })
    .map_err(|e| format!("reading {path}: {e}"))?;
    Ok(run)
}

/// `band A --compare B` (or `band A --profile-a P --profile-b Q`): the comparison on stdout,
/// bad lines on stderr. Exit 0, or 2 when either file had lines that could not be used.
fn run_compare(a: &BandArgs) -> Result<ExitCode, String> {
    if a.max_cross_band.is_some() {
        return Err(
            "--max-cross-band is a gate on one run; it does not combine with a comparison".into(),
        );
    }
    let sel = |p: &Option<String>| compare::Selection { profile: p.clone() };
    let run_a = read_run(&a.results)?;
    let (run_b, label_b) = match &a.compare {
        Some(path) if path == "-" && a.results == "-" => {
            return Err("only one of RESULTS and --compare can be stdin".into())
        }
        Some(path) => (read_run(path)?, path.clone()),
        None => match (&a.profile_a, &a.profile_b) {
            (Some(_), Some(pb)) => (run_a.clone(), format!("{} · {pb}", a.results)),
            _ => {
                return Err(
                    "compare with --compare B.jsonl, or two profiles of one file with --profile-a P --profile-b Q"
                        .into(),
                )
            }
        },
    };
    let mut c = compare::compare(&run_a, &sel(&a.profile_a), &run_b, &sel(&a.profile_b));
    if let Some(p) = &a.profile_a {
        c.label_a = format!("{} · {p}", c.label_a);
    }
    c.label_b = match (&a.compare, &a.profile_b) {
        (Some(_), Some(p)) => format!("{label_b} · {p}"),
        _ => label_b,
    };
    let text = match a.format.as_str() {
        "json" => compare::json(&c),
        "csv" => compare::csv(&c),
        _ => compare::markdown(&c),
    };
    println!("{}", text.trim_end());
    // With two profiles of one file, B's lines are A's: their bad lines are listed once.
    let mut sides = vec![(&run_a, a.results.as_str())];
    if a.compare.is_some() {
        sides.push((&run_b, c.label_b.as_str()));
    }
    let mut bad = 0;
    for (run, path) in sides {
        bad += run.bad_lines.len();
        for (line, why) in &run.bad_lines {
            eprintln!("verifyfast band: {path}: line {line}: {why}");
        }
    }
    eprintln!(
        "verifyfast band: {} paired; cross-band {} → {}; McNemar p = {:.4}; only in A {}, only in B {}",
        c.paired,
        c.cross_band_a,
        c.cross_band_b,
        c.mcnemar.p_value,
        c.only_in_a.len(),
        c.only_in_b.len()
    );
    Ok(if bad > 0 {
        ExitCode::from(super::EXIT_BAD_LINES)
    } else {
        ExitCode::SUCCESS
    })
}

/// Peak resident memory (Linux `VmHWM`), for the benchmark.
fn peak_memory_kb() -> Result<u64, ()> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(|_| ())?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or(())
}

/// CPU time of this process so far (Linux `/proc/self/schedstat`, first field, ns).
fn cpu_time_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
