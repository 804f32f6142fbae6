//! Phase 4: the credit score from error counts alone, with the formula of docs/audit.md
//! ("Score (Phase 4)") and the strategy's thresholds. No model is asked; the same counts always give the same score.

use crate::config::ScoreThresholds;
use crate::sorted_map::SortedMap;

use super::contract::Severity;
use super::report::{Band, Counting, Finding, Phase};

/// High ≥ high_for_1 → 1; High ≥ high_for_2 → 2; Low ≥ low_for_3 → 3; Low ≥ low_for_4 → 4;
/// otherwise 5.
pub fn credit_score(high: u32, low: u32, t: &ScoreThresholds) -> u8 {
    if high >= t.high_for_1 {
        1
    } else if high >= t.high_for_2 {
        2
    } else if low >= t.low_for_3 {
        3
    } else if low >= t.low_for_4 {
        4
    } else {
        5
    }
}

/// BAD 1–2, MID 3, GOOD 4–5.
pub fn band(credit_score: u8) -> Band {
    match credit_score {
        0..=2 => Band::Bad,
        3 => Band::Mid,
        _ => Band::Good,
    }
}

/// Everything the reports say about a band, in one place: its scores, its row or column in the
/// band matrix, and which confusions are cross-band (docs/band.md).
impl Band {
    /// The band of a credit score (`band`).
    pub fn of(credit_score: u8) -> Band {
        band(credit_score)
    }

    /// Its row and column in the 3×3 band matrix: its place in `Band::ALL` (BAD 0, MID 1,
    /// GOOD 2).
    pub fn index(self) -> usize {
        match self {
            Band::Bad => 0,
            Band::Mid => 1,
            Band::Good => 2,
        }
    }

    /// The band at a matrix index, `None` beyond GOOD.
    pub fn at(index: usize) -> Option<Band> {
        Band::ALL.get(index).copied()
    }

    /// The name with its scores, as matrix headers say it: "BAD (1–2)".
    pub fn with_scores(self) -> &'static str {
        match self {
            Band::Bad => "BAD (1–2)",
            Band::Mid => "MID (3)",
            Band::Good => "GOOD (4–5)",
        }
    }

    /// The one unacceptable confusion: BAD judged GOOD or GOOD judged BAD.
    pub fn crosses(self, actual: Band) -> bool {
        matches!(
            (self, actual),
            (Band::Bad, Band::Good) | (Band::Good, Band::Bad)
        )
    }
}

/// What makes two errors "the same": the phase plus the target they concern. Errors
/// without a target fall back to their evidence; with neither they are never merged.
pub(crate) fn norm_target(s: &str) -> String {
    s.trim().to_lowercase()
}

fn identity(f: &Finding) -> Option<(Phase, String)> {
    let target = norm_target(&f.target);
    if !target.is_empty() && target != "output" {
        return Some((f.phase, format!("t:{target}")));
    }
    let evidence = norm_target(&f.evidence);
    (!evidence.is_empty()).then(|| (f.phase, format!("e:{evidence}")))
}

/// Decide which errors count: one per (phase, target), the most severe one kept, then at
/// most `cap` per phase, High first. Errors marked `UnknownTarget` or `EvidenceNotFound` stay
/// so and never count.
pub fn mark_counting(findings: &mut [Finding], cap: u32) {
    let mut first: SortedMap<(Phase, String), usize> = SortedMap::new();
    for i in 0..findings.len() {
        if matches!(
            findings[i].counting,
            Counting::UnknownTarget | Counting::EvidenceNotFound
        ) {
            continue;
        }
        findings[i].counting = Counting::Counted;
        let Some(key) = identity(&findings[i]) else {
            continue;
        };
        match first.get(&key).copied() {
            None => {
                first.insert(key, i);
            }
            Some(kept) if findings[i].severity < findings[kept].severity => {
                // Severity orders High before Low: the later, more severe one wins.
                findings[kept].counting = Counting::Duplicate { of: i };
                for f in findings.iter_mut() {
                    if f.counting == (Counting::Duplicate { of: kept }) {
                        f.counting = Counting::Duplicate { of: i };
                    }
                }
                first.insert(key, i);
            }
            Some(kept) => findings[i].counting = Counting::Duplicate { of: kept },
        }
    }
    for phase in [Phase::FactCheck, Phase::LogicCheck] {
        let mut counted: Vec<usize> = (0..findings.len())
            .filter(|&i| findings[i].phase == phase && findings[i].counting == Counting::Counted)
            .collect();
        counted.sort_by_key(|&i| (findings[i].severity, i));
        for &i in counted.iter().skip(cap as usize) {
            findings[i].counting = Counting::OverCap;
        }
    }
}

/// (High, Low) among the counted errors.
pub fn counts(findings: &[Finding]) -> (u32, u32) {
    findings
        .iter()
        .filter(|f| f.counting == Counting::Counted)
        .fold((0, 0), |(h, l), f| match f.severity {
            Severity::High => (h + 1, l),
            Severity::Low => (h, l + 1),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::contract::ErrorType;

    fn f(phase: Phase, target: &str, severity: Severity) -> Finding {
        Finding {
            phase,
            target: target.into(),
            error_type: ErrorType::Unsupported,
            severity,
            evidence: String::new(),
            explanation: String::new(),
            counting: Counting::Counted,
            evidence_not_found: false,
        }
    }

    #[test]
    fn the_design_note_table() {
        let t = ScoreThresholds::default();
        let table = [
            ((3, 0), 1),
            ((5, 4), 1),
            ((2, 0), 2),
            ((1, 7), 2),
            ((0, 2), 3),
            ((0, 9), 3),
            ((0, 1), 4),
            ((0, 0), 5),
        ];
        for ((h, l), want) in table {
            assert_eq!(credit_score(h, l, &t), want, "high {h} low {l}");
        }
    }

    #[test]
    fn thresholds_come_from_the_strategy() {
        let t = ScoreThresholds {
            high_for_1: 2,
            high_for_2: 1,
            low_for_3: 3,
            low_for_4: 1,
        };
        assert_eq!(credit_score(2, 0, &t), 1);
        assert_eq!(credit_score(0, 2, &t), 4);
        assert_eq!(credit_score(0, 3, &t), 3);
    }

    #[test]
    fn band_indexes_names_and_crossings_agree() {
        for (i, b) in Band::ALL.iter().enumerate() {
            assert_eq!(b.index(), i);
            assert_eq!(Band::at(i), Some(*b));
            assert!(b.with_scores().starts_with(b.as_str()));
        }
        assert_eq!(Band::at(3), None);
        let crossing: Vec<(Band, Band)> = Band::ALL
            .iter()
            .flat_map(|&e| Band::ALL.iter().map(move |&a| (e, a)))
            .filter(|(e, a)| e.crosses(*a))
            .collect();
        assert_eq!(crossing, [(Band::Bad, Band::Good), (Band::Good, Band::Bad)]);
        assert_eq!(Band::of(2), Band::Bad);
        assert_eq!(Band::of(4), Band::Good);
    }

    #[test]
    fn bands() {
        let got: Vec<_> = (1..=5).map(band).collect();
        assert_eq!(
            got,
            vec![Band::Bad, Band::Bad, Band::Mid, Band::Good, Band::Good]
        );
    }

    #[test]
    fn duplicates_on_one_target_count_once_keeping_the_most_severe() {
        let mut v = vec![
            f(Phase::FactCheck, "C1", Severity::Low),
            f(Phase::FactCheck, " c1 ", Severity::High),
            f(Phase::FactCheck, "C1", Severity::Low),
            f(Phase::LogicCheck, "C1", Severity::Low),
            f(Phase::FactCheck, "C2", Severity::Low),
        ];
        mark_counting(&mut v, 3);
        assert_eq!(v[0].counting, Counting::Duplicate { of: 1 });
        assert_eq!(v[1].counting, Counting::Counted);
        assert_eq!(v[2].counting, Counting::Duplicate { of: 1 });
        assert_eq!(v[3].counting, Counting::Counted, "other phase, other error");
        assert_eq!(counts(&v), (1, 2));
    }

    #[test]
    fn targets_match_by_unicode_lower_case_in_every_script() {
        // The credit score depends on this: a partial fold (Latin/Greek/Cyrillic only) counted
        // `ԱՐԵՎ` and `արեվ` (Armenian) or `Ꭰ`/`ꭰ` (Cherokee) as two errors.
        for (a, b) in [
            ("ÉCOLE", "école"),
            ("ΣΟΦΊΑ", "σοφία"),
            ("ԱՐԵՎ", "արեվ"),
            ("ᎠᎡ", "ꭰꭱ"),
            ("Ǆ", "ǆ"),
        ] {
            let mut v = vec![
                f(Phase::FactCheck, a, Severity::High),
                f(Phase::FactCheck, b, Severity::High),
            ];
            mark_counting(&mut v, 3);
            assert_eq!(v[1].counting, Counting::Duplicate { of: 0 }, "{a} / {b}");
            assert_eq!(counts(&v), (1, 0), "{a} / {b}");
        }
        // Characters that only look alike stay apart.
        let mut v = vec![
            f(Phase::FactCheck, "x²", Severity::High),
            f(Phase::FactCheck, "x2", Severity::High),
        ];
        mark_counting(&mut v, 3);
        assert_eq!(counts(&v), (2, 0));
    }

    #[test]
    fn several_lows_each_count() {
        let mut v = vec![
            f(Phase::FactCheck, "C1", Severity::Low),
            f(Phase::FactCheck, "C2", Severity::Low),
        ];
        mark_counting(&mut v, 3);
        let (h, l) = counts(&v);
        assert_eq!(credit_score(h, l, &ScoreThresholds::default()), 3);
    }

    #[test]
    fn cap_per_phase_keeps_high_first() {
        let mut v = vec![
            f(Phase::FactCheck, "C1", Severity::Low),
            f(Phase::FactCheck, "C2", Severity::Low),
            f(Phase::FactCheck, "C3", Severity::High),
            f(Phase::LogicCheck, "D1", Severity::Low),
        ];
        mark_counting(&mut v, 2);
        assert_eq!(v[1].counting, Counting::OverCap);
        assert_eq!(counts(&v), (1, 2));
    }

    #[test]
    fn untargeted_errors_without_evidence_are_never_merged() {
        let mut v = vec![
            f(Phase::FactCheck, "", Severity::Low),
            f(Phase::FactCheck, "", Severity::Low),
        ];
        mark_counting(&mut v, 3);
        assert_eq!(counts(&v), (0, 2));
    }
}
