//! The streaming evaluator: feed lines, get a report. Memory is a score matrix per group
//! plus a fixed-size `CaseRef` per scored line (capped), never the lines themselves.

use std::collections::hash_map::{Entry, HashMap};

use serde::Serialize;

use crate::audit::report::Band;
use crate::sorted_map::SortedMap;

use super::metrics::{GroupMetrics, ScoreMatrix};
use super::record::{parse_record, ParsedLine};

/// Report options.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Cross-band target: the rate must stay below this (5 % by default, docs/band.md).
    pub max_cross_band: f64,
    /// Drill-down index cap; past it cases are still counted, just not listed.
    pub max_case_refs: usize,
    /// Bad lines listed in full; past it they are only counted.
    pub max_bad_lines: usize,
    /// Distinct profile/tag/difficulty names kept; past it a new name counts under
    /// [`OTHER_GROUP`], so a file with a unique tag per line cannot grow memory.
    pub max_group_names: usize,
}

/// Where names beyond `Options::max_group_names` are counted.
pub const OTHER_GROUP: &str = "(other)";

impl Default for Options {
    fn default() -> Self {
        Options {
            max_cross_band: 0.05,
            // ~80 bytes each: at most ~20 MB for the drill-down index.
            max_case_refs: 250_000,
            max_bad_lines: 1_000,
            max_group_names: 10_000,
        }
    }
}

/// Which grouping a group belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupKind {
    Profile,
    Tag,
    Difficulty,
}

/// Where a scored case is in the file, for drill-down without keeping the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaseRef {
    pub line: usize,
    pub offset: u64,
    pub len: u32,
    pub expected: u8,
    pub actual: u8,
    pub id: Option<String>,
    pub profile: Option<u32>,
    pub tag: Option<u32>,
    pub difficulty: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadLine {
    pub line: usize,
    pub reason: String,
}

/// Accumulates lines. `push_line` is cheap enough for 100 MB files.
#[derive(Debug)]
pub struct Evaluator {
    options: Options,
    overall: ScoreMatrix,
    groups: SortedMap<(GroupKind, u32), ScoreMatrix>,
    names: Vec<String>,
    name_ids: SortedMap<String, u32>,
    /// (tag id, expected score) → count, for the tag-table check.
    tag_expected: SortedMap<(u32, u8), u64>,
    cases: Vec<CaseRef>,
    bad_lines: Vec<BadLine>,
    bad_line_count: u64,
    unscored: u64,
    /// Line numbers of the first unscored lines: bad lines in a results file, expected in a
    /// cases file, which is only known at the end.
    unscored_lines: Vec<usize>,
    scored: u64,
    names_overflowed: u64,
    /// The first line of each (id, profile) scored so far: a later line with the same pair is
    /// a bad line naming both, and counted once (the first). One entry per scored line with
    /// an id: the ids and profile names, not the lines.
    first_line: HashMap<(String, String), usize>,
}

impl Evaluator {
    pub fn new(options: Options) -> Self {
        Evaluator {
            options,
            overall: ScoreMatrix::default(),
            groups: SortedMap::new(),
            names: Vec::new(),
            name_ids: SortedMap::new(),
            tag_expected: SortedMap::new(),
            cases: Vec::new(),
            bad_lines: Vec::new(),
            bad_line_count: 0,
            unscored: 0,
            unscored_lines: Vec::new(),
            scored: 0,
            names_overflowed: 0,
            first_line: HashMap::new(),
        }
    }

    /// Feed one non-blank line (from `crate::jsonl`).
    pub fn push_line(&mut self, line: usize, offset: u64, text: &str) {
        match parse_record(text) {
            ParsedLine::Bad(reason) => self.bad_line(line, reason),
            ParsedLine::Unscored => {
                self.unscored += 1;
                if self.unscored_lines.len() < self.options.max_bad_lines {
                    self.unscored_lines.push(line);
                }
            }
            ParsedLine::Scored(r) => {
                if let Some(id) = &r.id {
                    // `None` and `Some("")` are different profiles: the key says which.
                    let profile = r
                        .profile
                        .as_deref()
                        .map_or(String::new(), |p| format!("={p}"));
                    match self.first_line.entry((id.clone(), profile)) {
                        Entry::Occupied(first) => {
                            let first = *first.get();
                            let shown = match &r.profile {
                                Some(p) => format!("id {id}, profile {p}"),
                                None => format!("id {id}"),
                            };
                            return self.bad_line(
                                line,
                                format!(
                                    "duplicate of line {first} ({shown}): lines {first} and {line} are the same (id, profile), counted once (line {first})"
                                ),
                            );
                        }
                        Entry::Vacant(slot) => {
                            slot.insert(line);
                        }
                    }
                }
                self.scored += 1;
                self.overall.add(r.expected, r.actual);
                let profile = r.profile.as_deref().map(|p| self.intern(p));
                let tag = r.tag.as_deref().map(|t| self.intern(t));
                let difficulty = r.difficulty.as_deref().map(|d| self.intern(d));
                for (kind, id) in [
                    (GroupKind::Profile, profile),
                    (GroupKind::Tag, tag),
                    (GroupKind::Difficulty, difficulty),
                ] {
                    if let Some(id) = id {
                        self.groups
                            .get_or_default(&(kind, id))
                            .add(r.expected, r.actual);
                    }
                }
                if let Some(t) = tag {
                    *self.tag_expected.get_or_default(&(t, r.expected)) += 1;
                }
                if self.cases.len() < self.options.max_case_refs {
                    self.cases.push(CaseRef {
                        line,
                        offset,
                        len: u32::try_from(text.len()).unwrap_or(u32::MAX),
                        expected: r.expected,
                        actual: r.actual,
                        id: r.id,
                        profile,
                        tag,
                        difficulty,
                    });
                }
            }
        }
    }

    /// A line the reader itself could not take (not UTF-8, too long).
    pub fn bad_line(&mut self, line: usize, reason: String) {
        self.bad_line_count += 1;
        if self.bad_lines.len() < self.options.max_bad_lines {
            self.bad_lines.push(BadLine { line, reason });
        }
    }

    /// In a results file a line without `credit_score` (and without an audit `error`) is
    /// a bad line like any other: merge them into the list in line order.
    fn unscored_are_bad_lines(&mut self) {
        self.bad_line_count += self.unscored;
        let missing = std::mem::take(&mut self.unscored_lines)
            .into_iter()
            .map(|line| BadLine {
                line,
                reason: "missing credit_score".into(),
            });
        let mut all: Vec<BadLine> = std::mem::take(&mut self.bad_lines)
            .into_iter()
            .chain(missing)
            .collect();
        all.sort_by_key(|b| b.line);
        all.truncate(self.options.max_bad_lines);
        self.bad_lines = all;
    }

    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.name_ids.get(name) {
            return id;
        }
        if self.names.len() >= self.options.max_group_names {
            self.names_overflowed += 1;
            if let Some(&id) = self.name_ids.get(OTHER_GROUP) {
                return id;
            }
            let id = self.names.len() as u32;
            self.names.push(OTHER_GROUP.to_string());
            self.name_ids.insert(OTHER_GROUP.to_string(), id);
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_string());
        self.name_ids.insert(name.to_string(), id);
        id
    }

    pub fn finish(mut self) -> BandReport {
        let cases_only = self.scored == 0 && self.unscored > 0;
        if !cases_only && self.unscored > 0 {
            self.unscored_are_bad_lines();
        }
        let target = self.options.max_cross_band;
        let group_map = |kind: GroupKind| -> SortedMap<String, GroupMetrics> {
            self.groups
                .iter()
                .filter(|((k, _), _)| *k == kind)
                .map(|((_, id), m)| {
                    (
                        self.names[*id as usize].clone(),
                        GroupMetrics::from_matrix(m, target),
                    )
                })
                .collect()
        };
        let overall = GroupMetrics::from_matrix(&self.overall, target);
        let mut warnings = coverage_warnings(&overall);
        warnings.extend(tag_warnings(&self.tag_expected, &self.names));
        if cases_only {
            warnings.insert(
                0,
                format!(
                    "this is a cases file: {} lines have expected_credit_score but no credit_score. \
                     Run a batch audit first (verifyfast batch, or the Audit page's batch run) and report on its results.",
                    self.unscored
                ),
            );
        }
        if self.names_overflowed > 0 {
            warnings.push(format!(
                "more than {} distinct profile/tag/difficulty names: {} value(s) counted under {OTHER_GROUP}",
                self.options.max_group_names, self.names_overflowed
            ));
        }
        if self.scored > self.cases.len() as u64 {
            warnings.push(format!(
                "drill-down lists the first {} of {} cases",
                self.cases.len(),
                self.scored
            ));
        }
        BandReport {
            target,
            profiles: group_map(GroupKind::Profile),
            tags: group_map(GroupKind::Tag),
            difficulties: group_map(GroupKind::Difficulty),
            overall,
            bad_line_count: self.bad_line_count,
            bad_lines: self.bad_lines,
            unscored: self.unscored,
            cases_only,
            warnings,
            names: self.names,
            cases: self.cases,
        }
    }
}

/// The finished report. `cases` and `names` serve drill-down and are not part of the JSON
/// export (`render::json`).
#[derive(Debug, Clone, PartialEq)]
pub struct BandReport {
    pub target: f64,
    pub overall: GroupMetrics,
    pub profiles: SortedMap<String, GroupMetrics>,
    pub tags: SortedMap<String, GroupMetrics>,
    pub difficulties: SortedMap<String, GroupMetrics>,
    pub bad_lines: Vec<BadLine>,
    pub bad_line_count: u64,
    pub unscored: u64,
    pub cases_only: bool,
    pub warnings: Vec<String>,
    pub names: Vec<String>,
    pub cases: Vec<CaseRef>,
}

/// Why a report has nothing to show: say that instead of a report of zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Emptiness {
    /// No line at all (an empty file, or only blank lines).
    NoResults,
    /// Lines, but none that is a JSON object: not a JSONL file.
    NotJsonl,
}

impl Emptiness {
    pub fn message(self) -> &'static str {
        match self {
            Emptiness::NoResults => "This file has no results: it is empty.",
            Emptiness::NotJsonl => "This is not JSONL: no line of this file is a JSON object. A results file has one JSON object per line (from a batch run).",
        }
    }
}

impl BandReport {
    /// `Some` when nothing was counted and the reason is the file itself, not its records:
    /// no lines at all, or no line is a JSON object (judged on the listed bad lines).
    pub fn emptiness(&self) -> Option<Emptiness> {
        if self.overall.n > 0 || self.cases_only {
            return None;
        }
        if self.bad_line_count == 0 && self.unscored == 0 {
            return Some(Emptiness::NoResults);
        }
        let not_json = |r: &str| {
            r.starts_with("not a JSON object")
                || r.starts_with("not valid UTF-8")
                || r.starts_with("longer than")
        };
        (!self.bad_lines.is_empty() && self.bad_lines.iter().all(|b| not_json(&b.reason)))
            .then_some(Emptiness::NotJsonl)
    }

    /// Evaluate a whole text (pasted or small files; tests).
    pub fn from_text(text: &str, options: Options) -> BandReport {
        let mut ev = Evaluator::new(options);
        for line in crate::jsonl::lines_of(text) {
            match line.text {
                Ok(t) => ev.push_line(line.number, line.offset, &t),
                Err(e) => ev.bad_line(line.number, e.reason()),
            }
        }
        ev.finish()
    }

    pub fn name(&self, id: Option<u32>) -> Option<&str> {
        id.and_then(|i| self.names.get(i as usize))
            .map(String::as_str)
    }

    /// Cases of one cell of the band matrix (rows expected, columns actual), optionally one group.
    pub fn cases_in_cell(
        &self,
        expected_band: usize,
        actual_band: usize,
    ) -> impl Iterator<Item = &CaseRef> {
        use super::metrics::band_index;
        self.cases.iter().filter(move |c| {
            band_index(c.expected) == expected_band && band_index(c.actual) == actual_band
        })
    }
}

/// The recommended band mix of a test set (by expected score; docs/band.md, "Warnings"), in
/// the order of the score matrix's bands.
pub const RECOMMENDED_MIX: [(Band, f64, f64); 3] = [
    (Band::Bad, 0.30, 0.40),
    (Band::Mid, 0.15, 0.25),
    (Band::Good, 0.35, 0.50),
];

fn coverage_warnings(overall: &GroupMetrics) -> Vec<String> {
    if overall.n == 0 {
        return Vec::new();
    }
    let n = overall.n as f64;
    RECOMMENDED_MIX
        .iter()
        .enumerate()
        .filter_map(|(i, (name, lo, hi))| {
            let share = overall.matrix[i].iter().sum::<u64>() as f64 / n;
            (share < *lo || share > *hi).then(|| {
                let name = name.as_str();
                format!("coverage: {name} cases are {:.0} % of the set; the recommended share is {:.0}–{:.0} %", share * 100.0, lo * 100.0, hi * 100.0)
            })
        })
        .collect()
}

/// The tag table (docs/band.md, "Warnings"): each tag's expected credit score.
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

fn tag_warnings(tag_expected: &SortedMap<(u32, u8), u64>, names: &[String]) -> Vec<String> {
    tag_expected
        .iter()
        .filter_map(|(&(tag, expected), &count)| {
            let name = names.get(tag as usize)?;
            let (_, want) = TAG_TABLE.iter().find(|(t, _)| t == name)?;
            (*want != expected).then(|| {
                format!("tag {name}: {count} case(s) expect score {expected}, but the tag table says {want}")
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_not_jsonl_files_say_so() {
        let r = |t: &str| BandReport::from_text(t, Options::default()).emptiness();
        assert_eq!(r(""), Some(Emptiness::NoResults));
        assert_eq!(r("\n\n"), Some(Emptiness::NoResults));
        assert_eq!(r("hello\nworld,1,2\n"), Some(Emptiness::NotJsonl));
        let one = r#"{"id":1,"expected_credit_score":5,"credit_score":4}"#;
        assert_eq!(r(one), None);
        // JSON lines that are not results are bad lines, listed as such.
        assert_eq!(r(r#"{"id":1}"#), None);
        // The reader's own errors lose their "line N: " prefix (the list shows the number).
        let e = crate::jsonl::LineError::NotUtf8 { line: 8, byte: 3 };
        assert_eq!(e.reason(), "not valid UTF-8 (byte 3 of the line)");
    }

    #[test]
    fn a_duplicated_id_and_profile_is_a_bad_line_naming_both_and_counted_once() {
        let line = |id: &str, profile: Option<&str>, score: u8| {
            let p = profile.map_or(String::new(), |p| format!(",\"profile\":\"{p}\""));
            format!("{{\"id\":{id},\"expected_credit_score\":5,\"credit_score\":{score}{p}}}\n")
        };
        let text = [
            line("1", Some("a"), 5),
            line("1", Some("b"), 1),
            line("1", Some("a"), 1),
            line("2", None, 5),
            line("2", None, 1),
            line("2", Some(""), 5),
            line("\"1\"", Some("a"), 2),
        ]
        .concat();
        let r = BandReport::from_text(&text, Options::default());
        // Lines 1, 2, 4 and 6 count; 3, 5 and 7 repeat lines 1, 4 and 1.
        assert_eq!(r.overall.n, 4);
        assert_eq!(r.bad_line_count, 3);
        let lines: Vec<usize> = r.bad_lines.iter().map(|b| b.line).collect();
        assert_eq!(lines, vec![3, 5, 7]);
        let first = &r.bad_lines[0].reason;
        assert!(
            first.contains("duplicate of line 1 (id 1, profile a)")
                && first.contains("lines 1 and 3"),
            "{first}"
        );
        assert!(
            r.bad_lines[1].reason.contains("duplicate of line 4 (id 2)"),
            "{:?}",
            r.bad_lines
        );
        assert_eq!(r.profiles["a"].n, 1);
        assert_eq!(
            r.profiles["a"].cross_band, 0,
            "the first line's score is the one counted"
        );
        assert_eq!(r.cases.len(), 4);
    }

    #[test]
    fn groups_bad_lines_and_drill_down() {
        let text = "{\"expected_credit_score\":1,\"credit_score\":5,\"profile\":\"a\",\"tag\":\"sycophancy\",\"id\":1}\n\
                    oops\n\
                    {\"expected_credit_score\":5,\"credit_score\":5,\"profile\":\"b\",\"tag\":\"clean\",\"id\":2}\n\
                    {\"expected_credit_score\":4,\"credit_score\":4,\"profile\":\"b\",\"tag\":\"clean\",\"id\":3}\n";
        let r = BandReport::from_text(text, Options::default());
        assert_eq!(r.overall.n, 3);
        assert_eq!(
            r.bad_lines,
            vec![BadLine {
                line: 2,
                reason: r.bad_lines[0].reason.clone()
            }]
        );
        assert!(r.bad_lines[0].reason.contains("not a JSON object"));
        assert_eq!(r.profiles["a"].cross_band, 1);
        assert_eq!(r.profiles["b"].n, 2);
        let cell: Vec<_> = r.cases_in_cell(0, 2).map(|c| c.id.clone()).collect();
        assert_eq!(cell, vec![Some("1".to_string())]);
        assert!(
            r.warnings
                .iter()
                .any(|w| w.contains("tag clean: 1 case(s) expect score 4")),
            "{:?}",
            r.warnings
        );
        let first = &r.cases[0];
        assert_eq!(
            &text[first.offset as usize..first.offset as usize + first.len as usize],
            text.lines().next().unwrap_or("")
        );
    }

    #[test]
    fn cases_only_file_says_so() {
        let r = BandReport::from_text(
            "{\"expected_credit_score\":3}\n{\"expected_credit_score\":5}\n",
            Options::default(),
        );
        assert!(r.cases_only);
        assert!(r.warnings[0].contains("Run a batch audit first"));
        assert_eq!(r.overall.verdict, super::super::Verdict::NoData);
    }
}
