//! `verifyfast band`: the band report of a results JSONL, optionally as a CI gate.

use crate::band::{
    render_csv, render_json, render_markdown, BandEvaluator, BandOptions, BandReport, Dimension,
    DEFAULT_MAX_CROSS_BAND,
};
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Md,
    Json,
    Csv,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit codes: 0 report written (and gate met if --max-cross-band was given); \
1 --max-cross-band given and the verdict is not \"met\"; 2 some lines were bad (listed, skipped) \
and the gate, if any, was met; 3 usage/IO error or a cases-only file.\n\
Set VERIFYFAST_REPORT_PEAK_MEM=1 to print the peak resident memory (VmHWM) on stderr."
)]
pub struct BandArgs {
    /// Results JSONL (case fields + profile, credit_score, ...); `-` reads stdin.
    pub results: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: Format,
    /// Group tables besides the overall one (comma-separated: profile,tag,difficulty).
    #[arg(long, value_delimiter = ',', default_value = "profile,tag,difficulty")]
    pub by: Vec<String>,
    /// Gate: exit 1 unless the cross-band rate is shown below this (its 95 % Wilson upper
    /// bound included). Without it the report uses 0.05 for its verdict but always exits 0/2.
    #[arg(long, value_name = "RATE")]
    pub max_cross_band: Option<f64>,
}

pub fn run(a: BandArgs) -> ExitCode {
    let dimensions = match parse_dimensions(&a.by) {
        Ok(d) => d,
        Err(e) => return super::fail(e),
    };
    let target = a.max_cross_band.unwrap_or(DEFAULT_MAX_CROSS_BAND);
    if !(target > 0.0 && target <= 1.0) {
        return super::fail(format!(
            "band: --max-cross-band must be a rate in (0, 1], e.g. 0.05; got {target}"
        ));
    }
    let options = BandOptions {
        max_cross_band: target,
        dimensions,
        ..BandOptions::default()
    };
    let report = match evaluate(&a.results, options) {
        Ok(r) => r,
        Err(e) => return super::fail(format!("band: {}: {e}", a.results)),
    };
    let text = match a.format {
        Format::Md => render_markdown(&report),
        Format::Json => render_json(&report) + "\n",
        Format::Csv => render_csv(&report),
    };
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return super::fail(format!("band: writing the report: {e}"));
        }
    }
    report_peak_memory();
    exit_code(&report, a.max_cross_band.is_some())
}

fn parse_dimensions(by: &[String]) -> Result<Vec<Dimension>, String> {
    let mut out = Vec::new();
    for name in by.iter().filter(|s| !s.trim().is_empty()) {
        let dim = Dimension::parse(name)
            .ok_or_else(|| format!("band: --by {name:?} is not one of profile, tag, difficulty"))?;
        if !out.contains(&dim) {
            out.push(dim);
        }
    }
    Ok(out)
}

fn evaluate(path: &str, options: BandOptions) -> std::io::Result<BandReport> {
    let mut ev = BandEvaluator::new(options);
    if path == "-" {
        crate::jsonl::for_each_line(std::io::stdin().lock(), |l| ev.push_line(l))?;
    } else {
        let file = std::fs::File::open(path)?;
        crate::jsonl::for_each_line(file, |l| ev.push_line(l))?;
    }
    Ok(ev.finish())
}

fn exit_code(report: &BandReport, gate: bool) -> ExitCode {
    for b in report.bad_lines.iter().take(20) {
        eprintln!("verifyfast: band: line {}: {}", b.line, b.reason);
    }
    if report.cases_only {
        eprintln!("verifyfast: band: {}", crate::band::CASES_ONLY_HINT);
        return ExitCode::from(super::EXIT_USAGE);
    }
    if gate && !report.gate_met() {
        eprintln!(
            "verifyfast: band: gate not met: cross-band rate {} of {} case(s), verdict \"{}\" (target < {})",
            report
                .overall
                .cross_band_rate
                .map(|r| format!("{:.2} %", r * 100.0))
                .unwrap_or_else(|| "n/a".into()),
            report.overall.n,
            report.verdict.label(),
            report.target
        );
        return ExitCode::from(super::EXIT_GATE);
    }
    if report.bad_line_count > 0 {
        eprintln!(
            "verifyfast: band: {} bad line(s) skipped",
            report.bad_line_count
        );
        return ExitCode::from(super::EXIT_BAD_LINES);
    }
    ExitCode::SUCCESS
}

/// Peak resident set size, for the benchmark (`VmHWM` is Linux-only; silently absent elsewhere).
fn report_peak_memory() {
    if std::env::var_os("VERIFYFAST_REPORT_PEAK_MEM").is_none() {
        return;
    }
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:")) {
            eprintln!(
                "verifyfast: peak memory {}",
                line.trim_start_matches("VmHWM:").trim()
            );
        }
    }
}
