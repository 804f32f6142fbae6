//! Metrics of one group of scored cases, all derived from its 5×5 score matrix.

use serde::Serialize;

use crate::audit::report::Band;
use crate::audit::score::band;

/// Counts of (expected score, actual score), both 1–5; index = score − 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ScoreMatrix(pub [[u64; 5]; 5]);

impl ScoreMatrix {
    pub fn add(&mut self, expected: u8, actual: u8) {
        let (e, a) = (
            usize::from(expected.clamp(1, 5) - 1),
            usize::from(actual.clamp(1, 5) - 1),
        );
        self.0[e][a] += 1;
    }

    pub fn n(&self) -> u64 {
        self.0.iter().flatten().sum()
    }

    /// The 3×3 band matrix: rows expected BAD/MID/GOOD, columns actual.
    pub fn bands(&self) -> [[u64; 3]; 3] {
        let mut m = [[0; 3]; 3];
        for (e, row) in self.0.iter().enumerate() {
            for (a, &c) in row.iter().enumerate() {
                m[band_index(e as u8 + 1)][band_index(a as u8 + 1)] += c;
            }
        }
        m
    }

    fn count(&self, keep: impl Fn(u8, u8) -> bool) -> u64 {
        let mut total = 0;
        for e in 1..=5u8 {
            for a in 1..=5u8 {
                if keep(e, a) {
                    total += self.0[usize::from(e - 1)][usize::from(a - 1)];
                }
            }
        }
        total
    }
}

/// The band matrix row or column of a score (`Band::index`).
pub fn band_index(score: u8) -> usize {
    Band::of(score).index()
}

/// Is this the fatal kind of error: BAD judged GOOD or GOOD judged BAD? (`Band::crosses`)
pub fn is_cross_band(expected: u8, actual: u8) -> bool {
    Band::of(expected).crosses(Band::of(actual))
}

/// The verdict on the cross-band target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Point estimate and the interval's upper bound are both below the target.
    Met,
    /// The point estimate is at or above the target.
    NotMet,
    /// The point estimate is below the target but the interval reaches above it: too few cases to say.
    NotShown,
    NoData,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Met => "met",
            Verdict::NotMet => "not met",
            Verdict::NotShown => "not shown",
            Verdict::NoData => "no data",
        }
    }
}

/// Everything the report says about one group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupMetrics {
    pub n: u64,
    /// 3×3, rows expected BAD/MID/GOOD, columns actual.
    pub matrix: [[u64; 3]; 3],
    pub score_matrix: ScoreMatrix,
    pub band_accuracy: Option<f64>,
    pub cross_band: u64,
    pub cross_band_rate: Option<f64>,
    /// 95 % Wilson interval of the cross-band rate.
    pub cross_band_ci: Option<[f64; 2]>,
    /// Expected BAD, judged GOOD: a bad output passed as trustworthy.
    pub missed: u64,
    /// Expected GOOD, judged BAD.
    pub false_alarm: u64,
    /// Band differs by one step (one side is MID).
    pub boundary: u64,
    /// Same band, different score.
    pub in_band: u64,
    pub exact: Option<f64>,
    pub within_one: Option<f64>,
    pub mae: Option<f64>,
    /// Quadratic weighted kappa on the 5-point scores; None when undefined (one class only).
    pub qwk: Option<f64>,
    pub verdict: Verdict,
}

impl GroupMetrics {
    pub fn from_matrix(m: &ScoreMatrix, target: f64) -> Self {
        let n = m.n();
        let ratio = |x: u64| (n > 0).then(|| x as f64 / n as f64);
        let cross_band = m.count(is_cross_band);
        let same_band = m.count(|e, a| band(e) == band(a));
        let ci = (n > 0).then(|| wilson_interval(cross_band, n));
        let abs_err: u64 = (1..=5u8)
            .flat_map(|e| (1..=5u8).map(move |a| (e, a)))
            .map(|(e, a)| m.0[usize::from(e - 1)][usize::from(a - 1)] * u64::from(e.abs_diff(a)))
            .sum();
        GroupMetrics {
            n,
            matrix: m.bands(),
            score_matrix: *m,
            band_accuracy: ratio(same_band),
            cross_band,
            cross_band_rate: ratio(cross_band),
            cross_band_ci: ci.map(|(lo, hi)| [lo, hi]),
            missed: m.count(|e, a| band(e) == Band::Bad && band(a) == Band::Good),
            false_alarm: m.count(|e, a| band(e) == Band::Good && band(a) == Band::Bad),
            boundary: m.count(|e, a| band(e) != band(a) && !is_cross_band(e, a)),
            in_band: m.count(|e, a| band(e) == band(a) && e != a),
            exact: ratio(m.count(|e, a| e == a)),
            within_one: ratio(m.count(|e, a| e.abs_diff(a) <= 1)),
            mae: ratio(abs_err),
            qwk: quadratic_weighted_kappa(m),
            verdict: verdict(cross_band, n, target),
        }
    }
}

/// 95 % Wilson score interval for x successes out of n (n > 0).
pub fn wilson_interval(x: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, x as f64 / n as f64);
    let z2n = z * z / n;
    let center = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    let lo = if x == 0 {
        0.0
    } else {
        (center - half).max(0.0)
    };
    let hi = if p >= 1.0 {
        1.0
    } else {
        (center + half).min(1.0)
    };
    (lo, hi)
}

fn verdict(cross_band: u64, n: u64, target: f64) -> Verdict {
    if n == 0 {
        return Verdict::NoData;
    }
    let rate = cross_band as f64 / n as f64;
    let (_, upper) = wilson_interval(cross_band, n);
    if rate >= target {
        Verdict::NotMet
    } else if upper > target {
        Verdict::NotShown
    } else {
        Verdict::Met
    }
}

/// Cohen's kappa with quadratic weights over the five score classes.
pub fn quadratic_weighted_kappa(m: &ScoreMatrix) -> Option<f64> {
    let n = m.n() as f64;
    if n == 0.0 {
        return None;
    }
    let rows: Vec<f64> = (0..5).map(|i| m.0[i].iter().sum::<u64>() as f64).collect();
    let cols: Vec<f64> = (0..5)
        .map(|j| (0..5).map(|i| m.0[i][j]).sum::<u64>() as f64)
        .collect();
    let (mut observed, mut expected) = (0.0, 0.0);
    // i and j are score indexes: the weight is their distance, so index loops read best.
    #[allow(clippy::needless_range_loop)]
    for i in 0..5 {
        for j in 0..5 {
            let w = ((i as f64 - j as f64) / 4.0).powi(2);
            observed += w * m.0[i][j] as f64;
            expected += w * rows[i] * cols[j] / n;
        }
    }
    (expected > 0.0).then(|| 1.0 - observed / expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(pairs: &[(u8, u8, u64)]) -> ScoreMatrix {
        let mut m = ScoreMatrix::default();
        for &(e, a, c) in pairs {
            for _ in 0..c {
                m.add(e, a);
            }
        }
        m
    }

    #[test]
    fn wilson_matches_the_issue_example() {
        let (lo, hi) = wilson_interval(1, 20);
        assert!((lo - 0.00889).abs() < 5e-5, "{lo}");
        assert!((hi - 0.23613).abs() < 5e-5, "{hi}");
        let (lo, hi) = wilson_interval(0, 100);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.036995).abs() < 5e-5, "{hi}");
        let (lo, hi) = wilson_interval(10, 10);
        assert!((lo - 0.72246).abs() < 5e-5, "{lo}");
        assert_eq!(hi, 1.0);
    }

    #[test]
    fn kappa_hand_computed() {
        // 4 cases: (1,1), (2,1), (5,5), (5,4).
        // rows: r1=1 r2=1 r5=2; cols: c1=2 c4=1 c5=1. Weights (i-j)^2/16.
        // observed = (1/16)*1 [2→1] + (1/16)*1 [5→4] = 2/16.
        // expected = Σ w r_i c_j / 4:
        //  r1: c1 0, c4 (9/16)*1*1, c5 (16/16)*1*1  → 9/16+1
        //  r2: c1 (1/16)*1*2, c4 (4/16)*1, c5 (9/16)*1 → 2/16+4/16+9/16
        //  r5: c1 (16/16)*2*2, c4 (1/16)*2, c5 0 → 4 + 2/16
        //  total = (9+16+2+4+9+64+2)/16 /4 = 106/64
        // kappa = 1 - (2/16)/(106/64) = 1 - 8/106
        let m = matrix(&[(1, 1, 1), (2, 1, 1), (5, 5, 1), (5, 4, 1)]);
        let k = quadratic_weighted_kappa(&m).unwrap_or(f64::NAN);
        assert!((k - (1.0 - 8.0 / 106.0)).abs() < 1e-12, "{k}");
        assert_eq!(quadratic_weighted_kappa(&matrix(&[(3, 3, 4)])), None);
    }

    #[test]
    fn deviation_kinds_partition_the_errors() {
        let m = matrix(&[
            (1, 2, 1),
            (2, 4, 1),
            (3, 4, 1),
            (5, 5, 1),
            (4, 1, 1),
            (3, 1, 1),
        ]);
        let g = GroupMetrics::from_matrix(&m, 0.05);
        assert_eq!(
            (g.in_band, g.boundary, g.missed, g.false_alarm),
            (1, 2, 1, 1)
        );
        assert_eq!(g.cross_band, 2);
        assert_eq!(g.in_band + g.boundary + g.cross_band + 1, g.n);
        assert_eq!(g.verdict, Verdict::NotMet);
    }

    #[test]
    fn verdicts() {
        assert_eq!(verdict(1, 20, 0.05), Verdict::NotMet);
        assert_eq!(verdict(0, 20, 0.05), Verdict::NotShown);
        assert_eq!(verdict(0, 100, 0.05), Verdict::Met);
        assert_eq!(verdict(0, 0, 0.05), Verdict::NoData);
    }
}
