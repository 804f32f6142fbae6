//! Per-group counters and the metrics derived from them.
//!
//! A group keeps only a 5×5 count table (expected score × actual score): every metric of
//! the report — band matrix, exact, ±1, MAE, kappa — is a function of it, so memory per
//! group is constant however large the file.

use serde::Serialize;

/// BAD 1–2, MID 3, GOOD 4–5 (seed 002, 分区评估框架).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Band {
    Bad,
    Mid,
    Good,
}

impl Band {
    pub const ALL: [Band; 3] = [Band::Bad, Band::Mid, Band::Good];

    /// Scores outside 1..=5 never reach here (rejected as bad lines); they map to MID
    /// rather than panicking.
    pub fn of(score: u8) -> Band {
        match score {
            1 | 2 => Band::Bad,
            4 | 5 => Band::Good,
            _ => Band::Mid,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Band::Bad => "BAD",
            Band::Mid => "MID",
            Band::Good => "GOOD",
        }
    }
}

/// Counts of (expected, actual) score pairs; index = score − 1.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreCounts {
    pub cells: [[u64; 5]; 5],
}

impl ScoreCounts {
    pub fn add(&mut self, expected: u8, actual: u8) {
        let (e, a) = (usize::from(expected), usize::from(actual));
        if let Some(c) = self
            .cells
            .get_mut(e.wrapping_sub(1))
            .and_then(|row| row.get_mut(a.wrapping_sub(1)))
        {
            *c += 1;
        }
    }

    fn pairs(&self) -> impl Iterator<Item = (u8, u8, u64)> + '_ {
        (1u8..=5).flat_map(move |e| {
            (1u8..=5).map(move |a| (e, a, self.cells[usize::from(e - 1)][usize::from(a - 1)]))
        })
    }

    pub fn n(&self) -> u64 {
        self.pairs().map(|(_, _, c)| c).sum()
    }

    /// Rows expected band, columns actual band.
    pub fn band_matrix(&self) -> [[u64; 3]; 3] {
        let mut m = [[0u64; 3]; 3];
        for (e, a, c) in self.pairs() {
            m[Band::of(e).index()][Band::of(a).index()] += c;
        }
        m
    }

    pub fn metrics(&self, target: f64) -> GroupMetrics {
        let n = self.n();
        let m = self.band_matrix();
        let (bad, mid, good) = (Band::Bad.index(), Band::Mid.index(), Band::Good.index());
        let band_hits = m[bad][bad] + m[mid][mid] + m[good][good];
        let missed = m[bad][good];
        let false_alarm = m[good][bad];
        let cross_band = missed + false_alarm;
        let boundary = m[bad][mid] + m[mid][bad] + m[mid][good] + m[good][mid];
        let mut exact = 0;
        let mut within_one = 0;
        let mut abs_sum = 0u64;
        let mut in_band = 0;
        for (e, a, c) in self.pairs() {
            let d = e.abs_diff(a);
            if d == 0 {
                exact += c;
            }
            if d <= 1 {
                within_one += c;
            }
            if d > 0 && Band::of(e) == Band::of(a) {
                in_band += c;
            }
            abs_sum += u64::from(d) * c;
        }
        let ratio = |x: u64| (n > 0).then(|| x as f64 / n as f64);
        let cross_band_rate = ratio(cross_band);
        let cross_band_ci = wilson_interval(cross_band, n);
        GroupMetrics {
            n,
            matrix: m,
            band_accuracy: ratio(band_hits),
            cross_band,
            cross_band_rate,
            cross_band_ci,
            missed,
            false_alarm,
            boundary,
            in_band,
            exact_count: exact,
            exact: ratio(exact),
            within_one_count: within_one,
            within_one: ratio(within_one),
            mae: ratio(abs_sum),
            qwk: quadratic_weighted_kappa(&self.cells),
            verdict: verdict(cross_band_rate, cross_band_ci, target),
        }
    }
}

/// Everything the report shows for one group. Rates are fractions (0.05 = 5 %); `None`
/// (JSON `null`) when the group is empty or the value is undefined.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupMetrics {
    pub n: u64,
    /// Rows expected BAD/MID/GOOD, columns actual BAD/MID/GOOD.
    pub matrix: [[u64; 3]; 3],
    pub band_accuracy: Option<f64>,
    /// BAD→GOOD + GOOD→BAD.
    pub cross_band: u64,
    pub cross_band_rate: Option<f64>,
    /// 95 % Wilson score interval of `cross_band_rate`, `[low, high]`.
    pub cross_band_ci: Option<[f64; 2]>,
    /// Expected BAD, judged GOOD: an untrustworthy report passed as trustworthy.
    pub missed: u64,
    /// Expected GOOD, judged BAD.
    pub false_alarm: u64,
    /// Off-diagonal band cells that touch MID.
    pub boundary: u64,
    /// Same band, different score (1↔2, 4↔5).
    pub in_band: u64,
    pub exact_count: u64,
    pub exact: Option<f64>,
    pub within_one_count: u64,
    pub within_one: Option<f64>,
    /// Mean absolute error on the 5-point score.
    pub mae: Option<f64>,
    /// Quadratic weighted Cohen's kappa on the 5-point scores (not the bands).
    pub qwk: Option<f64>,
    pub verdict: Verdict,
}

/// 97.5 % quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// 95 % Wilson score interval for `x` successes in `n` trials. Chosen over the normal
/// approximation because our rates sit near 0 with n≈20, where that one collapses to
/// a zero-width interval at x=0.
pub fn wilson_interval(x: u64, n: u64) -> Option<[f64; 2]> {
    if n == 0 || x > n {
        return None;
    }
    let n = n as f64;
    let p = x as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some([(centre - half).max(0.0), (centre + half).min(1.0)])
}

/// Quadratic weighted kappa over the 5×5 score table. `None` when chance agreement is
/// already perfect (e.g. every case expected and judged the same score): kappa is 0/0.
pub fn quadratic_weighted_kappa(cells: &[[u64; 5]; 5]) -> Option<f64> {
    let n: u64 = cells.iter().flatten().sum();
    if n == 0 {
        return None;
    }
    let rows: Vec<f64> = cells.iter().map(|r| r.iter().sum::<u64>() as f64).collect();
    let cols: Vec<f64> = (0..5)
        .map(|j| cells.iter().map(|r| r[j]).sum::<u64>() as f64)
        .collect();
    let (mut observed, mut chance) = (0.0, 0.0);
    for (i, row) in cells.iter().enumerate() {
        for (j, &c) in row.iter().enumerate() {
            let w = ((i as f64) - (j as f64)).powi(2) / 16.0;
            observed += w * c as f64;
            chance += w * rows[i] * cols[j] / n as f64;
        }
    }
    (chance > 0.0).then(|| 1.0 - observed / chance)
}

/// Whether the cross-band rate meets the target "cross-band rate < target".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The whole 95 % interval is below the target.
    Met,
    /// The point estimate is at or above the target.
    NotMet,
    /// The point estimate is below the target but the interval reaches it: too few
    /// cases to claim the target.
    NotShown,
    /// No cases.
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

pub fn verdict(rate: Option<f64>, ci: Option<[f64; 2]>, target: f64) -> Verdict {
    match (rate, ci) {
        (Some(rate), Some([_, high])) => {
            if rate >= target {
                Verdict::NotMet
            } else if high < target {
                Verdict::Met
            } else {
                Verdict::NotShown
            }
        }
        _ => Verdict::NoData,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_values() {
        let [lo, hi] = wilson_interval(1, 20).unwrap_or_default();
        assert!(close(lo, 0.008_88, 1e-4), "{lo}");
        assert!(close(hi, 0.236_1, 1e-4), "{hi}");
        let [lo, hi] = wilson_interval(0, 20).unwrap_or_default();
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.161_1, 1e-4), "{hi}");
        let [lo, hi] = wilson_interval(50, 100).unwrap_or_default();
        assert!(close(lo, 0.403_8, 1e-4) && close(hi, 0.596_2, 1e-4));
        let [lo, hi] = wilson_interval(20, 20).unwrap_or_default();
        assert!(close(lo, 0.838_9, 1e-4) && hi == 1.0);
        assert_eq!(wilson_interval(0, 0), None);
    }

    #[test]
    fn kappa_hand_computed() {
        // expected/actual pairs: (1,1) (2,3) (3,3) (4,4) (5,4)
        // rows: 1,1,1,1,1; cols: 1,0,2,2,0 (scores 1..5); n=5
        // observed weighted disagreement = (1 + 1)/16 = 0.125
        // chance = Σ_ij w_ij r_i c_j / n:
        //   i=1: c1·0 + c3·4/16·... computed by hand = 28/16/5·... → 1.75 / 5 * ... (see below)
        // Σ_ij (i−j)² r_i c_j = Σ_i Σ_j (i−j)² c_j with r_i=1
        //   j=1 (c=1): Σ_i (i−1)² = 0+1+4+9+16 = 30
        //   j=3 (c=2): Σ_i (i−3)² = 4+1+0+1+4 = 10 → 20
        //   j=4 (c=2): Σ_i (i−4)² = 9+4+1+0+1 = 15 → 30
        //   total 80 → chance = 80/16/5 = 1.0
        // kappa = 1 − 0.125/1.0 = 0.875
        let mut c = ScoreCounts::default();
        for (e, a) in [(1, 1), (2, 3), (3, 3), (4, 4), (5, 4)] {
            c.add(e, a);
        }
        let k = quadratic_weighted_kappa(&c.cells).unwrap_or(f64::NAN);
        assert!(close(k, 0.875, 1e-12), "{k}");
    }

    #[test]
    fn kappa_undefined_and_perfect() {
        let mut c = ScoreCounts::default();
        c.add(3, 3);
        c.add(3, 3);
        assert_eq!(quadratic_weighted_kappa(&c.cells), None);
        c.add(5, 5);
        assert_eq!(quadratic_weighted_kappa(&c.cells), Some(1.0));
    }

    #[test]
    fn deviation_kinds() {
        let mut c = ScoreCounts::default();
        for (e, a) in [(1, 2), (5, 4), (3, 4), (2, 3), (1, 5), (4, 2), (3, 3)] {
            c.add(e, a);
        }
        let m = c.metrics(0.05);
        assert_eq!(
            (m.in_band, m.boundary, m.missed, m.false_alarm),
            (2, 2, 1, 1)
        );
        assert_eq!(m.cross_band, 2);
        assert_eq!(m.exact_count, 1);
        assert_eq!(m.within_one_count, 5);
        assert_eq!(m.mae, Some((1 + 1 + 1 + 1 + 4 + 2) as f64 / 7.0));
    }

    #[test]
    fn verdict_rule() {
        assert_eq!(
            verdict(Some(0.05), wilson_interval(1, 20), 0.05),
            Verdict::NotMet
        );
        assert_eq!(
            verdict(Some(0.0), wilson_interval(0, 20), 0.05),
            Verdict::NotShown
        );
        assert_eq!(
            verdict(Some(0.0), wilson_interval(0, 100), 0.05),
            Verdict::Met
        );
        assert_eq!(
            verdict(Some(0.01), wilson_interval(10, 1000), 0.05),
            Verdict::Met
        );
        assert_eq!(verdict(None, None, 0.05), Verdict::NoData);
    }
}
