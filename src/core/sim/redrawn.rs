//! Freshness under rates redrawn within their intervals: where a page list's rates are
//! estimates (a history's), what a run's schedule would keep fresh if the true rates were
//! elsewhere in their intervals. The schedule is the one run (on the estimates); at each
//! visit its interval adds the expected fresh time (1 − e^{−λU})/λ under each redrawn
//! rate. For a schedule that does not react to what fetches show (MERGE, RANDOM, an
//! allocation) this is its expected freshness under those rates exactly; a crawler that
//! adapts to the changes it saw adapted to the estimates' changes, not the redrawn ones,
//! and is run again on each redraw's rates instead ([`RedrawnRates::set`]; the crawlers
//! experiment).

use crate::core::math::elementary::{exp, ln};
use crate::core::rng::{Purpose, Stream};
use std::sync::Arc;

/// Redraws of the rates: how many rate sets a spread is taken over.
pub const REDRAWS: usize = 20;

/// Bytes per page the redrawn rates hold.
pub const BYTES_PER_PAGE: u64 = 8 * REDRAWS as u64;

/// What counting a request under the redrawn rates adds, natively: 59 ns on the 2-core
/// machine (`npm run bench:spread`, BENCHMARKS.md: 50,000 pages on 500 servers run by
/// `policies` with and without their rates' intervals).
pub const SECONDS_PER_REQUEST: f64 = 59e-9;

/// Page `page`'s rate redrawn [`REDRAWS`] times within `[low, high]`: log-uniformly, or
/// uniformly on [0, high] for a page never seen changed (low = 0). Each page draws from
/// its own stream, so a page's redraws do not depend on which others are simulated.
pub fn redraw(seed: u64, page: usize, [low, high]: [f64; 2]) -> [f64; REDRAWS] {
    let mut rng = Stream::of(seed, Purpose::RateRedraw, page as u64);
    std::array::from_fn(|_| {
        let u = rng.uniform();
        if low > 0.0 { exp(ln(low) + u * (ln(high) - ln(low))) } else { u * high }
    })
}

/// Every page's redrawn rates, page after page ([`REDRAWS`] each), shared by every run
/// and shard of a job.
#[derive(Clone, Debug)]
pub struct RedrawnRates(Arc<[f64]>);

impl RedrawnRates {
    /// The redraws of every page of `bounds` (indexed like the repository).
    pub fn of(seed: u64, bounds: &[[f64; 2]]) -> Self {
        RedrawnRates(bounds.iter().enumerate().flat_map(|(i, &b)| redraw(seed, i, b)).collect())
    }

    /// Page `i`'s redraws.
    #[inline]
    fn of_page(&self, i: usize) -> &[f64] {
        &self.0[i * REDRAWS..(i + 1) * REDRAWS]
    }

    /// Redraw `k`'s rate of each of the first `pages` pages: the rates a crawler that
    /// adapts to what its fetches show is run again on.
    pub fn set(&self, k: usize, pages: usize) -> Vec<f64> {
        (0..pages).map(|i| self.of_page(i)[k]).collect()
    }

    /// An accumulator for pages `first..first + pages`.
    pub fn account(&self, first: usize, pages: usize) -> Redrawn {
        Redrawn { rates: self.clone(), first, last: vec![f64::NEG_INFINITY; pages], fresh: [0.0; REDRAWS] }
    }
}

/// Expected fresh time of one interval of length `u` after a visit, at rate `lambda`.
#[inline]
fn fresh_in(lambda: f64, u: f64) -> f64 {
    if lambda == 0.0 { u } else { -(-lambda * u).exp_m1() / lambda }
}

/// The weighted fresh time of a range of pages' visits under each redraw: pages start
/// stale (as under the estimates) and are fresh from each visit for the expected time.
#[derive(Clone, Debug)]
pub struct Redrawn {
    rates: RedrawnRates,
    first: usize,
    last: Vec<f64>,
    /// Per redraw: the weighted fresh time the visits so far have closed (days).
    fresh: [f64; REDRAWS],
}

impl Redrawn {
    /// Page `first + i` (weight `w`) is visited at `t`.
    #[inline]
    pub fn visit(&mut self, i: usize, t: f64, w: f64) {
        let last = std::mem::replace(&mut self.last[i], t);
        if last > f64::NEG_INFINITY {
            for (fresh, &lambda) in self.fresh.iter_mut().zip(self.rates.of_page(self.first + i)) {
                *fresh += w * fresh_in(lambda, t - last);
            }
        }
    }

    /// Per redraw, the weighted fresh time over [0, until): the closed intervals and the
    /// open ones since each page's last visit (`weight(i)`: page `first + i`'s weight).
    pub fn fresh_time(&self, until: f64, weight: impl Fn(usize) -> f64) -> [f64; REDRAWS] {
        let mut fresh = self.fresh;
        for (i, &last) in self.last.iter().enumerate() {
            if last > f64::NEG_INFINITY && last < until {
                for (f, &lambda) in fresh.iter_mut().zip(self.rates.of_page(self.first + i)) {
                    *f += weight(i) * fresh_in(lambda, until - last);
                }
            }
        }
        fresh
    }
}

/// The lowest, median and highest of the redraws' fresh times, each over `scale` (the
/// total weight times the time): a run's mean freshness as the rates' intervals allow it.
pub fn spread(fresh: [f64; REDRAWS], scale: f64) -> [f64; 3] {
    let mut v = fresh.map(|f| f / scale);
    v.sort_by(f64::total_cmp);
    [v[0], v[REDRAWS / 2], v[REDRAWS - 1]]
}

/// Each redraw's fresh times of several accumulators, added.
pub fn added(parts: impl IntoIterator<Item = [f64; REDRAWS]>) -> [f64; REDRAWS] {
    parts.into_iter().fold([0.0; REDRAWS], |mut sum, p| {
        sum.iter_mut().zip(p).for_each(|(s, x)| *s += x);
        sum
    })
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// Redraws stay within their intervals, are log-uniform (median near the geometric
    /// mean over many pages) and depend on the page alone.
    #[test]
    fn redraws_stay_within_their_intervals() {
        let (low, high) = (0.01, 1.0);
        let mut logs = Vec::new();
        for page in 0..500 {
            let r = redraw(7, page, [low, high]);
            assert_eq!(r, redraw(7, page, [low, high]));
            for x in r {
                assert!((low..=high).contains(&x), "{x}");
                logs.push(x.ln());
            }
        }
        let mean = logs.iter().sum::<f64>() / logs.len() as f64;
        // ln-uniform on [ln 0.01, 0]: mean −2.303, sd 1.33; 10,000 draws: se 0.013
        assert!((mean - (0.1f64).ln()).abs() < 0.05, "{mean}");
        assert!(redraw(7, 3, [0.0, 2.0]).iter().all(|&x| (0.0..2.0).contains(&x)));
        assert_eq!(redraw(7, 3, [0.5, 0.5]), [0.5; REDRAWS]);
    }

    /// By hand: one page (weight 2) visited at 0, 1 and 3, counted to 4, at a point
    /// interval λ = 0.5: 2 [(1 − e^{−0.5})/0.5 + 2 (1 − e^{−1}) + 2 (1 − e^{−0.5})].
    #[test]
    fn a_point_interval_gives_the_expected_fresh_time() {
        let rates = RedrawnRates::of(1, &[[0.5, 0.5]]);
        let mut acc = rates.account(0, 1);
        for t in [0.0, 1.0, 3.0] {
            acc.visit(0, t, 2.0);
        }
        let e = |x: f64| (-x).exp();
        let by_hand = 2.0 * ((1.0 - e(0.5)) / 0.5 + 2.0 * (1.0 - e(1.0)) + 2.0 * (1.0 - e(0.5)));
        for f in acc.fresh_time(4.0, |_| 2.0) {
            assert!((f - by_hand).abs() < 1e-12, "{f} against {by_hand}");
        }
        assert_eq!(spread(acc.fresh_time(4.0, |_| 2.0), 8.0), [by_hand / 8.0; 3]);
        // never visited: never fresh; a second range's page indexes its own rates
        assert_eq!(rates.account(0, 1).fresh_time(4.0, |_| 1.0), [0.0; REDRAWS]);
    }

    /// Wider intervals give a wider spread around the point interval's freshness.
    #[test]
    fn the_spread_widens_with_the_interval() {
        let run = |bounds: [f64; 2]| {
            let rates = RedrawnRates::of(3, &vec![bounds; 50]);
            let mut acc = rates.account(0, 50);
            for k in 0..=100 {
                for i in 0..50 {
                    acc.visit(i, k as f64, 1.0);
                }
            }
            spread(acc.fresh_time(100.0, |_| 1.0), 50.0 * 100.0)
        };
        let point = run([1.0, 1.0]);
        let [lo, mid, hi] = run([0.5, 2.0]);
        assert!((point[0] - (1.0 - (-1.0f64).exp())).abs() < 1e-12);
        assert!(lo < point[0] && point[0] < hi && lo <= mid && mid <= hi, "{lo} {mid} {hi} around {}", point[0]);
    }
}
