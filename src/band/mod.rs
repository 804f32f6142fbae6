//! Band report: streaming evaluation of a results JSONL (seed 002, 分区评估框架).
//!
//! Scores 1–5 fold into bands BAD (1–2) / MID (3) / GOOD (4–5); the one error users cannot
//! afford is a cross-band confusion (BAD↔GOOD). The evaluator reads lines through the
//! shared [`crate::jsonl::LineSplitter`] and keeps counters per group, a bounded sample of
//! case references per matrix cell for drill-down, and a bounded list of bad lines:
//! memory does not grow with the file.

mod metrics;
mod record;
mod render;

pub use metrics::{
    quadratic_weighted_kappa, verdict, wilson_interval, Band, GroupMetrics, ScoreCounts, Verdict,
};
pub use record::{parse_line, BadLineReason, Record};
pub use render::{render_csv, render_json, render_markdown};

use crate::jsonl::{Line, LineError, LineSplitter};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Default target: cross-band rate below 5 % (seed 002).
pub const DEFAULT_MAX_CROSS_BAND: f64 = 0.05;

/// The seed's tag table (测试数据规范 · Tag 体系): tag → expected credit score.
pub const TAG_TABLE: [(&str, u8); 11] = [
    ("clean", 5),
    ("minor_factual", 4),
    ("minor_logic", 4),
    ("multi_minor", 3),
    ("major_factual", 2),
    ("major_logic", 2),
    ("severe_factual", 1),
    ("severe_logic", 1),
    ("severe_mixed", 1),
    ("severe_fabrication", 1),
    ("sycophancy", 1),
];

/// Recommended share of expected bands (分区覆盖要求), inclusive bounds.
pub const RECOMMENDED_MIX: [(Band, f64, f64); 3] = [
    (Band::Bad, 0.30, 0.40),
    (Band::Mid, 0.15, 0.25),
    (Band::Good, 0.35, 0.50),
];

pub fn expected_score_of_tag(tag: &str) -> Option<u8> {
    TAG_TABLE.iter().find(|(t, _)| *t == tag).map(|(_, s)| *s)
}

/// Which per-group tables to produce besides the overall one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    Profile,
    Tag,
    Difficulty,
}

impl Dimension {
    pub const ALL: [Dimension; 3] = [Dimension::Profile, Dimension::Tag, Dimension::Difficulty];

    pub fn parse(name: &str) -> Option<Dimension> {
        match name.trim() {
            "profile" | "profiles" => Some(Dimension::Profile),
            "tag" | "tags" => Some(Dimension::Tag),
            "difficulty" | "difficulties" => Some(Dimension::Difficulty),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dimension::Profile => "profile",
            Dimension::Tag => "tag",
            Dimension::Difficulty => "difficulty",
        }
    }
}

#[derive(Debug, Clone)]
pub struct BandOptions {
    /// The target is "cross-band rate < max_cross_band".
    pub max_cross_band: f64,
    pub dimensions: Vec<Dimension>,
    /// Case references kept per overall matrix cell for drill-down.
    pub sample_per_cell: usize,
    /// Bad lines kept with their reason (all are counted).
    pub max_bad_lines_listed: usize,
    /// Distinct values kept per dimension; the rest go to [`OTHER_GROUP`] so a file with
    /// a unique tag per line cannot grow memory.
    pub max_groups_per_dimension: usize,
}

impl Default for BandOptions {
    fn default() -> Self {
        Self {
            max_cross_band: DEFAULT_MAX_CROSS_BAND,
            dimensions: Dimension::ALL.to_vec(),
            sample_per_cell: 50,
            max_bad_lines_listed: 1000,
            max_groups_per_dimension: 200,
        }
    }
}

pub const OTHER_GROUP: &str = "(other)";

/// A case found in a matrix cell: enough to list it and to find it again in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseRef {
    pub line: usize,
    pub id: Option<String>,
    pub profile: Option<String>,
    pub tag: Option<String>,
    pub difficulty: Option<String>,
    pub expected: u8,
    pub actual: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadLine {
    pub line: usize,
    pub reason: BadLineReason,
}

/// Streaming evaluator. Feed it byte chunks ([`Self::push_bytes`]) or lines from a
/// [`LineSplitter`] you drive yourself ([`Self::push_line`]), then [`Self::finish`].
#[derive(Debug)]
pub struct BandEvaluator {
    options: BandOptions,
    splitter: LineSplitter,
    overall: ScoreCounts,
    groups: BTreeMap<Dimension, HashMap<String, ScoreCounts>>,
    overflowed: BTreeMap<Dimension, u64>,
    samples: [[Vec<CaseRef>; 3]; 3],
    bad_lines: Vec<BadLine>,
    bad_line_count: u64,
    bad_by_kind: BTreeMap<&'static str, u64>,
    result_lines: u64,
    lines_with_expected: u64,
    tag_mismatches: BTreeMap<String, (u8, u64)>,
    bytes: u64,
}

impl BandEvaluator {
    pub fn new(options: BandOptions) -> Self {
        let groups = options
            .dimensions
            .iter()
            .map(|d| (*d, HashMap::new()))
            .collect();
        Self {
            options,
            splitter: LineSplitter::default(),
            overall: ScoreCounts::default(),
            groups,
            overflowed: BTreeMap::new(),
            samples: Default::default(),
            bad_lines: Vec::new(),
            bad_line_count: 0,
            bad_by_kind: BTreeMap::new(),
            result_lines: 0,
            lines_with_expected: 0,
            tag_mismatches: BTreeMap::new(),
            bytes: 0,
        }
    }

    /// Feed the next chunk of the file (any size, any split point).
    pub fn push_bytes(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len() as u64;
        let mut splitter = std::mem::take(&mut self.splitter);
        splitter.push(chunk, &mut |line| self.push_line(line));
        self.splitter = splitter;
    }

    /// Count one line from the shared splitter.
    pub fn push_line(&mut self, line: Line) {
        let text = match line.text {
            Ok(text) => text,
            Err(LineError::NotUtf8 { byte, .. }) => {
                return self.bad(line.number, BadLineReason::NotUtf8 { byte })
            }
            Err(LineError::TooLong { limit, .. }) => {
                return self.bad(line.number, BadLineReason::TooLong { limit })
            }
        };
        self.push_text(line.number, &text);
    }

    /// Count one line of text with its 1-based line number.
    pub fn push_text(&mut self, line_number: usize, text: &str) {
        let parsed = parse_line(text);
        if parsed.looks_like_result {
            self.result_lines += 1;
        }
        match parsed.result {
            Ok(record) => self.count(line_number, record),
            Err(reason) => {
                if !matches!(
                    reason,
                    BadLineReason::MissingExpected
                        | BadLineReason::NotJson { .. }
                        | BadLineReason::NotAnObject { .. }
                ) {
                    self.lines_with_expected += 1;
                }
                self.bad(line_number, reason)
            }
        }
    }

    fn count(&mut self, line_number: usize, record: Record) {
        self.lines_with_expected += 1;
        self.overall.add(record.expected, record.actual);
        let max_groups = self.options.max_groups_per_dimension;
        for (dim, table) in self.groups.iter_mut() {
            let key = match dim {
                Dimension::Profile => record.profile.as_deref(),
                Dimension::Tag => record.tag.as_deref(),
                Dimension::Difficulty => record.difficulty.as_deref(),
            };
            let Some(key) = key else { continue };
            let counts = if let Some(c) = table.get_mut(key) {
                c
            } else if table.len() < max_groups {
                table.entry(key.to_string()).or_default()
            } else {
                *self.overflowed.entry(*dim).or_default() += 1;
                table.entry(OTHER_GROUP.to_string()).or_default()
            };
            counts.add(record.expected, record.actual);
        }
        if let Some(tag) = record.tag.as_deref() {
            if let Some(table_score) = expected_score_of_tag(tag) {
                if table_score != record.expected {
                    let entry = self
                        .tag_mismatches
                        .entry(tag.to_string())
                        .or_insert((table_score, 0));
                    entry.1 += 1;
                }
            }
        }
        let (e, a) = (
            Band::of(record.expected).index(),
            Band::of(record.actual).index(),
        );
        if let Some(cell) = self.samples.get_mut(e).and_then(|row| row.get_mut(a)) {
            if cell.len() < self.options.sample_per_cell {
                cell.push(CaseRef {
                    line: line_number,
                    id: record.id,
                    profile: record.profile,
                    tag: record.tag,
                    difficulty: record.difficulty,
                    expected: record.expected,
                    actual: record.actual,
                });
            }
        }
    }

    fn bad(&mut self, line: usize, reason: BadLineReason) {
        self.bad_line_count += 1;
        *self.bad_by_kind.entry(reason.kind()).or_default() += 1;
        if self.bad_lines.len() < self.options.max_bad_lines_listed {
            self.bad_lines.push(BadLine { line, reason });
        }
    }

    /// Flush the last line and compute the report.
    pub fn finish(mut self) -> BandReport {
        let mut splitter = std::mem::take(&mut self.splitter);
        splitter.finish(&mut |line| self.push_line(line));
        let target = self.options.max_cross_band;
        let overall = self.overall.metrics(target);
        let table = |dim: Dimension| -> BTreeMap<String, GroupMetrics> {
            self.groups
                .get(&dim)
                .map(|t| {
                    t.iter()
                        .map(|(k, c)| (k.clone(), c.metrics(target)))
                        .collect()
                })
                .unwrap_or_default()
        };
        let cases_only = overall.n == 0 && self.result_lines == 0 && self.lines_with_expected > 0;
        let mut report = BandReport {
            target,
            cases_only,
            dimensions: self.options.dimensions.clone(),
            verdict: overall.verdict,
            profiles: table(Dimension::Profile),
            tags: table(Dimension::Tag),
            difficulties: table(Dimension::Difficulty),
            overall,
            warnings: Vec::new(),
            bad_line_count: self.bad_line_count,
            bad_lines_by_kind: self
                .bad_by_kind
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
            bad_lines: std::mem::take(&mut self.bad_lines),
            samples: std::mem::take(&mut self.samples),
            bytes: self.bytes,
        };
        report.warnings = self.warnings(&report);
        report
    }

    fn warnings(&self, report: &BandReport) -> Vec<String> {
        let mut out = Vec::new();
        if report.cases_only {
            out.push(CASES_ONLY_HINT.to_string());
            return out;
        }
        out.extend(coverage_warnings(&report.overall));
        for (tag, (table_score, count)) in &self.tag_mismatches {
            out.push(format!(
                "tag `{tag}`: {count} case(s) have an expected_credit_score other than the tag table's {table_score} ({})",
                Band::of(*table_score).name()
            ));
        }
        for (dim, n) in &self.overflowed {
            out.push(format!(
                "more than {} distinct {} values: {n} case(s) counted under `{OTHER_GROUP}`",
                self.options.max_groups_per_dimension,
                dim.name()
            ));
        }
        if report.bad_line_count > report.bad_lines.len() as u64 {
            out.push(format!(
                "{} bad lines; only the first {} are listed",
                report.bad_line_count,
                report.bad_lines.len()
            ));
        }
        out
    }
}

pub const CASES_ONLY_HINT: &str = "this looks like a cases file: no line has a credit_score. \
Run the audit first (`verifyfast batch CASES.jsonl ... -o results.jsonl`, or the Batch page) \
and open its results file here.";

/// Warn when the expected-band mix is outside the seed's recommendation.
pub fn coverage_warnings(overall: &GroupMetrics) -> Vec<String> {
    if overall.n == 0 {
        return Vec::new();
    }
    let n = overall.n as f64;
    RECOMMENDED_MIX
        .iter()
        .filter_map(|(band, low, high)| {
            let count: u64 = overall
                .matrix
                .get(band.index())
                .map(|row| row.iter().sum())
                .unwrap_or(0);
            let share = count as f64 / n;
            // A tiny tolerance so 6/20 = 30 % is not flagged by rounding.
            let outside = share < low - 1e-9 || share > high + 1e-9;
            outside.then(|| {
                format!(
                    "coverage: expected {} is {:.1} % of cases ({count}/{}), recommended {:.0}–{:.0} %",
                    band.name(),
                    share * 100.0,
                    overall.n,
                    low * 100.0,
                    high * 100.0
                )
            })
        })
        .collect()
}

/// The finished report. Serialises to the JSON format of the CLI (`--format json`).
#[derive(Debug, Clone, Serialize)]
pub struct BandReport {
    /// The target: cross-band rate < `target`.
    pub target: f64,
    /// No line had a `credit_score`: a cases file, not a results file.
    pub cases_only: bool,
    #[serde(skip)]
    pub dimensions: Vec<Dimension>,
    /// Verdict of the overall group.
    pub verdict: Verdict,
    pub overall: GroupMetrics,
    pub profiles: BTreeMap<String, GroupMetrics>,
    pub tags: BTreeMap<String, GroupMetrics>,
    pub difficulties: BTreeMap<String, GroupMetrics>,
    pub warnings: Vec<String>,
    pub bad_line_count: u64,
    pub bad_lines_by_kind: BTreeMap<String, u64>,
    /// The first bad lines with line number and reason (all are counted above).
    pub bad_lines: Vec<BadLine>,
    /// Up to `sample_per_cell` cases per overall matrix cell, in file order.
    #[serde(skip)]
    pub samples: [[Vec<CaseRef>; 3]; 3],
    #[serde(skip)]
    pub bytes: u64,
}

impl BandReport {
    pub fn gate_met(&self) -> bool {
        self.verdict == Verdict::Met
    }

    /// The sampled cases of one overall cell (rows expected, columns actual).
    pub fn cell_cases(&self, expected: Band, actual: Band) -> &[CaseRef] {
        self.samples
            .get(expected.index())
            .and_then(|row| row.get(actual.index()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}

/// Evaluate a whole in-memory text (tests, pasted input).
pub fn evaluate_str(text: &str, options: BandOptions) -> BandReport {
    let mut ev = BandEvaluator::new(options);
    ev.push_bytes(text.as_bytes());
    ev.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: u32, tag: &str, expected: u8, actual: u8) -> String {
        format!(
            r#"{{"id":{id},"tag":"{tag}","difficulty":"easy","profile":"p","expected_credit_score":{expected},"credit_score":{actual}}}"#
        )
    }

    #[test]
    fn chunk_size_does_not_change_the_report() {
        let text: String = (0..30)
            .map(|i| line(i, "clean", 5, (i % 5 + 1) as u8) + "\r\n")
            .collect::<String>()
            + "garbage\n";
        let whole = evaluate_str(&text, BandOptions::default());
        for size in [1, 2, 7, 64] {
            let mut ev = BandEvaluator::new(BandOptions::default());
            for chunk in text.as_bytes().chunks(size) {
                ev.push_bytes(chunk);
            }
            let r = ev.finish();
            assert_eq!(r.overall, whole.overall, "chunk size {size}");
            assert_eq!(r.bad_lines, whole.bad_lines);
        }
        assert_eq!(whole.overall.n, 30);
        assert_eq!(whole.bad_lines.len(), 1);
        assert_eq!(whole.bad_lines[0].line, 31);
    }

    #[test]
    fn groups_are_capped() {
        let opts = BandOptions {
            max_groups_per_dimension: 3,
            ..BandOptions::default()
        };
        let text: String = (0..10)
            .map(|i| line(i, &format!("t{i}"), 5, 5) + "\n")
            .collect();
        let r = evaluate_str(&text, opts);
        assert_eq!(r.tags.len(), 4);
        assert_eq!(r.tags.get(OTHER_GROUP).map(|g| g.n), Some(7));
        assert!(r.warnings.iter().any(|w| w.contains("distinct tag")));
    }

    #[test]
    fn cases_only_file_is_recognised() {
        let text = r#"{"id":1,"tag":"clean","expected_credit_score":5}
{"id":2,"tag":"sycophancy","expected_credit_score":1}
"#;
        let r = evaluate_str(text, BandOptions::default());
        assert!(r.cases_only);
        assert_eq!(r.warnings, vec![CASES_ONLY_HINT.to_string()]);
        // A results file whose audits all failed is not a cases file.
        let failed = r#"{"id":1,"expected_credit_score":5,"credit_score":null,"error":"timeout"}"#;
        assert!(!evaluate_str(failed, BandOptions::default()).cases_only);
        assert!(!evaluate_str("", BandOptions::default()).cases_only);
    }

    #[test]
    fn tag_table_and_coverage_warnings() {
        let text = [
            line(1, "clean", 2, 2),
            line(2, "clean", 5, 5),
            line(3, "unknown", 3, 3),
        ]
        .join("\n");
        let r = evaluate_str(&text, BandOptions::default());
        assert!(r
            .warnings
            .iter()
            .any(|w| w.starts_with("tag `clean`: 1 case(s)") && w.contains("5 (GOOD)")));
        assert!(!r.warnings.iter().any(|w| w.contains("unknown")));
        // 1/3 BAD ok, 1/3 MID too many, 1/3 GOOD too few.
        let coverage: Vec<_> = r
            .warnings
            .iter()
            .filter(|w| w.starts_with("coverage"))
            .collect();
        assert_eq!(coverage.len(), 2, "{coverage:?}");
    }

    #[test]
    fn cell_samples_are_bounded_and_in_file_order() {
        let opts = BandOptions {
            sample_per_cell: 2,
            ..BandOptions::default()
        };
        let text: String = (1..=5)
            .map(|i| line(i, "major_factual", 2, 4) + "\n")
            .collect();
        let r = evaluate_str(&text, opts);
        let cases = r.cell_cases(Band::Bad, Band::Good);
        assert_eq!(cases.iter().map(|c| c.line).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(r.overall.missed, 5);
        assert!(r.cell_cases(Band::Good, Band::Bad).is_empty());
    }
}
