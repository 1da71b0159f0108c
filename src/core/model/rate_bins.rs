//! Pages by change rate, in bins a factor of 2 wide: what an estimate needs of a
//! repository's rates where a schedule's requests depend on each page's rate, not only
//! on their sum (an adaptive interval settles near a multiple of 1/λ, or at its bound).

use crate::core::math::elementary::{ln, pow};
use crate::core::model::webbase::{power_law_cdf, power_law_mean};
use serde::{Deserialize, Serialize};

/// Bin k holds the rates in [2^(k − ZERO), 2^(k + 1 − ZERO)) a day; rates beyond the
/// ends are counted in the end bins.
const ZERO: i32 = 40;
const BINS: usize = 80;

/// Pages with a positive rate by bin, and the sum of their rates (changes a day).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RateBins {
    pub counts: Vec<u64>,
    pub sum: f64,
}

impl RateBins {
    /// Counts a page of rate `rate` (one that never changes, or gives no rate: none).
    pub fn add(&mut self, rate: f64) {
        if !(rate.is_finite() && rate > 0.0) {
            return;
        }
        if self.counts.is_empty() {
            self.counts = vec![0; BINS];
        }
        let k = (ln(rate) / std::f64::consts::LN_2).floor() as i64 + ZERO as i64;
        self.counts[k.clamp(0, BINS as i64 - 1) as usize] += 1;
        self.sum += rate;
    }

    /// The rates of a slice of pages, all counted.
    pub fn of(rates: impl IntoIterator<Item = f64>) -> Self {
        let mut bins = RateBins::default();
        rates.into_iter().for_each(|r| bins.add(r));
        bins
    }

    /// `pages` pages, a share `never_changing` of them still, the others' rates on the
    /// power law of density ∝ λ^(−exponent) over [lo, hi] (the generator's).
    pub fn power_law(pages: f64, never_changing: f64, lo: f64, hi: f64, exponent: f64) -> Self {
        let changing = pages * (1.0 - never_changing);
        let edge = |k: usize| pow(2.0, k as f64 - ZERO as f64);
        let share = |k: usize| power_law_cdf(lo, hi, exponent, edge(k + 1)) - power_law_cdf(lo, hi, exponent, edge(k));
        let mean = if hi > lo { power_law_mean(lo, hi, exponent) } else { lo };
        RateBins { counts: (0..BINS).map(|k| (changing * share(k)).round() as u64).collect(), sum: changing * mean }
    }

    /// Pages with a positive rate (summed as reals: a refused configuration's estimate
    /// may count more than a u64 holds).
    pub fn pages(&self) -> f64 {
        self.counts.iter().map(|&n| n as f64).sum()
    }

    /// The mean over `pages` pages of `f` of their rates: each bin's pages spread evenly
    /// in the logarithm of their rate over its octave (a density ∝ 1/λ, the generator's
    /// at exponent 1; the midpoints of eight equal steps), the pages beyond the bins'
    /// (that never change) at 0. Each bin at its lower edge, before, counted a page of
    /// rate 0.02 a day as one of 0.0156: e^(−0.73) for e^(−0.93) where `f` is a quiet
    /// spell's chance.
    pub fn mean_within_octaves(&self, pages: f64, f: impl Fn(f64) -> f64) -> f64 {
        const STEPS: usize = 8;
        let octave = |k: usize| (0..STEPS).map(|j| f(pow(2.0, k as f64 - ZERO as f64 + (j as f64 + 0.5) / STEPS as f64))).sum::<f64>() / STEPS as f64;
        let binned: f64 = self.counts.iter().enumerate().filter(|(_, n)| **n > 0).map(|(k, &n)| n as f64 * octave(k)).sum();
        let still = (pages - self.pages()).max(0.0);
        (binned + still * f(0.0)) / pages.max(1.0)
    }

    /// Each bin's pages with the rate that stands for them: the bins' rates scaled so
    /// that they sum to [`RateBins::sum`] (each bin's geometric middle before).
    pub fn groups(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        let middle = |k: usize| pow(2.0, k as f64 - ZERO as f64 + 0.5);
        let binned: f64 = self.counts.iter().enumerate().map(|(k, &n)| n as f64 * middle(k)).sum();
        let fit = if binned > 0.0 { self.sum / binned } else { 1.0 };
        self.counts.iter().enumerate().filter(|(_, n)| **n > 0).map(move |(k, &n)| (middle(k) * fit, n as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rate_falls_in_its_octave_and_the_groups_keep_the_sum() {
        let bins = RateBins::of([1.0, 1.5, 0.25, 0.0, f64::NAN, 3.0]);
        assert_eq!(bins.pages(), 4.0, "the still page and the unreadable rate are not counted");
        assert_eq!(bins.counts[ZERO as usize], 2, "1 and 1.5 lie in [1, 2)");
        assert_eq!(bins.counts[ZERO as usize - 2], 1, "0.25 lies in [1/4, 1/2)");
        assert_eq!(bins.counts[ZERO as usize + 1], 1, "3 lies in [2, 4)");
        let groups: Vec<(f64, f64)> = bins.groups().collect();
        assert_eq!(groups.iter().map(|g| g.1).sum::<f64>(), 4.0);
        let sum: f64 = groups.iter().map(|(r, n)| r * n).sum();
        assert!((sum - 5.75).abs() < 1e-12, "{sum}");
    }

    #[test]
    fn a_power_law_fills_the_octaves_its_range_covers() {
        // density ∝ λ^−1 over [1/8, 8]: six octaves of equal mass
        let bins = RateBins::power_law(6000.0, 0.5, 0.125, 8.0, 1.0);
        assert_eq!(bins.pages(), 3000.0);
        for k in ZERO - 3..ZERO + 3 {
            assert_eq!(bins.counts[k as usize], 500, "octave {k}");
        }
        // the mean of 1/λ-density over [1/8, 8] is (8 − 1/8)/ln 64
        assert!((bins.sum - 3000.0 * 7.875 / 64f64.ln()).abs() < 1e-9, "{}", bins.sum);
        // every page at one rate
        let one = RateBins::power_law(10.0, 0.0, 1.0, 1.0, 1.5);
        assert_eq!((one.counts[ZERO as usize], one.sum), (10, 10.0));
    }
}
