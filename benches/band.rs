//! Band report benchmark: a ~100 MB results file (50,000 records with long Chinese and
//! English contexts), evaluated in-process and by the CLI. Prints MB/s and peak memory.
//! The alternative users reach for (pandas read_json(lines=True) + sklearn confusion_matrix
//! + groupby) takes about 2.7 s on such a file on these machines.
//!
//! Run: cargo bench --bench band

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use verifyfast::band::{Evaluator, Options};

const RECORDS: usize = 50_000;

fn main() {
    let path = generate();
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let mb = bytes as f64 / 1e6;
    println!(
        "band bench: {RECORDS} records, {mb:.1} MB at {}",
        path.display()
    );

    let mut best = f64::MAX;
    let mut best_cpu = f64::MAX;
    for _ in 0..3 {
        let cpu0 = cpu_time_s();
        let t = Instant::now();
        let file = std::fs::File::open(&path).expect("open generated file");
        let mut ev = Evaluator::new(Options::default());
        verifyfast::jsonl::for_each_line(file, |l| match l.text {
            Ok(t) => ev.push_line(l.number, l.offset, &t),
            Err(e) => ev.bad_line(l.number, e.to_string()),
        })
        .expect("read");
        let report = ev.finish();
        assert_eq!(report.overall.n as usize, RECORDS);
        best = best.min(t.elapsed().as_secs_f64());
        best_cpu = best_cpu.min(cpu_time_s() - cpu0);
    }
    println!(
        "band bench: in-process evaluate {best:.3} s wall ({:.0} MB/s), {best_cpu:.3} s cpu ({:.0} MB/s)",
        mb / best,
        mb / best_cpu
    );

    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .args(["band", "--format", "json"])
        .arg(&path)
        .env("VERIFYFAST_REPORT_MEMORY", "1")
        .output()
        .expect("run the CLI");
    let cli = t.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let peak = stderr
        .lines()
        .find_map(|l| l.strip_prefix("verifyfast band: peak memory "))
        .unwrap_or("?");
    let cpu = stderr
        .lines()
        .find_map(|l| l.strip_prefix("verifyfast band: cpu time "))
        .and_then(|s| s.trim_end_matches(" s").parse::<f64>().ok());
    println!(
        "band bench: CLI `verifyfast band --format json` {cli:.3} s wall, {} cpu, peak memory {peak}",
        cpu.map_or("?".into(), |c| format!("{c:.3} s"))
    );
    println!(
        "band bench: speed-up vs pandas+scikit-learn (~2.7 s): {:.1}x wall, {} cpu (load average {})",
        2.7 / cli,
        cpu.map_or("?".into(), |c| format!("{:.1}x", 2.7 / c)),
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
            .unwrap_or_else(|| "?".into())
    );
}

/// Deterministic realistic records; reused if already generated.
fn generate() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("bench-band");
    let path = dir.join("results-100mb.jsonl");
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(&dir).expect("create bench dir");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("create file"));
    let tags = [
        ("clean", 5),
        ("minor_factual", 4),
        ("minor_logic", 4),
        ("multi_minor", 3),
        ("major_factual", 2),
        ("major_logic", 2),
        ("severe_factual", 1),
        ("sycophancy", 1),
    ];
    let zh = "根据2023年年报，公司营业收入同比增长12.5%，净利润率提升至8.3%，主要得益于海外市场扩张和成本控制。";
    let en = "According to the 2023 annual report, revenue grew 12.5% year over year and the net margin rose to 8.3%, driven by overseas expansion and cost control. ";
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for i in 0..RECORDS {
        let (tag, expected) = tags[(next() % tags.len() as u64) as usize];
        let actual = match next() % 10 {
            0..=5 => expected,
            6 | 7 => (expected % 5) + 1,
            _ => ((expected + 2) % 5) + 1,
        };
        let context = if i % 2 == 0 {
            zh.repeat(10)
        } else {
            en.repeat(6)
        };
        let output = if i % 2 == 0 {
            zh.repeat(5)
        } else {
            en.repeat(3)
        };
        let difficulty = ["easy", "medium", "hard"][i % 3];
        let profile = ["kimi-full", "cross-verify"][i % 2];
        let record = serde_json::json!({
            "id": i,
            "tag": tag,
            "difficulty": difficulty,
            "description": format!("generated case {i}"),
            "context_input": context,
            "model_output": output,
            "expected_credit_score": expected,
            "profile": profile,
            "credit_score": actual,
            "high_count": u8::from(actual <= 2),
            "low_count": u8::from(actual == 3 || actual == 4),
            "errors": [{"phase": "fact", "severity": "Low", "target": "C1", "evidence": "净利润率提升至8.3%", "explanation": "context says 8.1%"}],
            "latency_ms": 1234,
            "tokens": 3456
        });
        writeln!(out, "{record}").expect("write");
    }
    out.flush().expect("flush");
    path
}

/// CPU seconds of this process (Linux `/proc/self/schedstat`); wall time on a shared
/// machine mostly measures the other tenants.
fn cpu_time_s() -> f64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .next()
                .and_then(|v| v.parse::<f64>().ok())
        })
        .map_or(0.0, |ns| ns / 1e9)
}
