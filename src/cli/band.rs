use std::io::Read;
use std::process::ExitCode;

use crate::band::render::{self, By};
use crate::band::{Evaluator, Options, Verdict};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit codes: 0 report printed (gate met or not asked); 1 --max-cross-band given and the \
target was not met (point estimate at or above it, or too few cases to show it is below); 2 some lines were bad \
(listed on stderr and in the report, the rest counted); 3 the file could not be read."
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
}

pub fn run(a: BandArgs) -> ExitCode {
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
