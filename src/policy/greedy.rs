//! GREEDY (thesis §6.2.2, Def 6.1): at each of the server's equally spaced requests,
//! fetch the article that maximises E[A_i(t) − t | ε_i(t)]·Pr[ε_i(t)], where u_i is its
//! last revisit, b_i the last change known then, ε_i "changed in (u_i, t]" and A_i(t)
//! its first change after t. Pr[ε] = Pr[X ≤ t − b | X > u − b] [reading: the thesis
//! writes it unconditioned]. The expectation is either estimated as in the thesis, by
//! simulating the renewal process k times per article, or computed from the renewal
//! equation ([`RenewalTable`]).
//!
//! Readings: an article never fetched is stale for sure and worth the stationary
//! E[X²]/(2E[X]); before any known change b is the start of the period; when the
//! article has gone unchanged for longer than its histogram's longest interval (which
//! the histogram says cannot happen), [`Overdue`] chooses: memoryless from its last
//! fetch, worth (1 − e^{−(t−u)/E[X]})·E[X²]/(2E[X]), or stale for sure like a
//! never-fetched article (then GREEDY refetches it at every request until it changes).

use super::Schedule;
use crate::math::elementary::expm1;
use crate::math::renewal::RenewalTable;
use crate::model::histogram::{Histogram, IntervalLaw};
use crate::rng::Stream;
use std::rc::Rc;

/// How GREEDY evaluates the expectation.
pub enum Gain {
    /// The thesis's estimator: `samples` simulations of the renewal process per article.
    Sampled { samples: u32 },
    /// The renewal equation, one table per article.
    Renewal(Rc<[RenewalTable]>),
}

/// What an article older than its histogram allows is worth (a reading; see above).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overdue {
    Memoryless,
    Stale,
}

pub struct Greedy {
    overdue: Overdue,
    laws: Rc<[Histogram]>,
    ceilings: Vec<f64>,
    gain: Gain,
    last_visit: Vec<f64>,
    last_change: Vec<f64>,
    start: f64,
    period: f64,
    taken: u64,
}

impl Greedy {
    /// Requests every `period` from `start`; articles' interval laws `laws`.
    pub fn new(laws: Rc<[Histogram]>, gain: Gain, overdue: Overdue, start: f64, period: f64) -> Self {
        let n = laws.len();
        let ceilings = laws.iter().map(|l| l.mean_residual()).collect();
        Greedy { overdue, laws, ceilings, gain, last_visit: vec![f64::NAN; n], last_change: vec![0.0; n], start, period, taken: 0 }
    }

    /// What the fetch of `page` at `time` revealed: its last change up to then.
    pub fn learn(&mut self, page: usize, time: f64, last_change: Option<f64>) {
        self.last_visit[page] = time;
        if let Some(b) = last_change {
            self.last_change[page] = b;
        }
    }

    /// The value of fetching `page` at `t` (Def 6.1).
    pub fn value(&self, page: usize, t: f64, rng: &mut Stream) -> f64 {
        let u = self.last_visit[page];
        if u.is_nan() {
            return self.ceilings[page];
        }
        let law = &self.laws[page];
        let b = self.last_change[page];
        let (d0, d1) = (u - b, t - b);
        let (s0, s1) = (law.survival(d0), law.survival(d1));
        if s0 <= 0.0 {
            return match self.overdue {
                Overdue::Memoryless => -expm1(-(t - u) / law.mean()) * self.ceilings[page],
                Overdue::Stale => self.ceilings[page],
            };
        }
        match &self.gain {
            Gain::Renewal(tables) => tables[page].gain_given(law, d0, d1, s0),
            Gain::Sampled { samples } => {
                if s1 >= s0 {
                    return 0.0;
                }
                // F(d) = 1 − S(d): rounding matters only where S < 1e-12, in the last bin
                let (lo, hi) = (1.0 - s0, 1.0 - s1);
                let mut sum = 0.0;
                for _ in 0..*samples {
                    let mut s = law.sample_between(lo, hi, rng);
                    while s <= d1 {
                        s += law.sample(rng);
                    }
                    sum += s - d1;
                }
                (1.0 - s1 / s0) * sum / *samples as f64
            }
        }
    }
}

impl Schedule for Greedy {
    fn next_time(&self) -> f64 {
        self.start + self.taken as f64 * self.period
    }

    /// The best article now (the first of equals).
    fn take(&mut self, _f: &[f64], rng: &mut Stream) -> (f64, usize) {
        let t = self.next_time();
        let mut best = (f64::NEG_INFINITY, 0);
        for page in 0..self.laws.len() {
            let v = self.value(page, t, rng);
            if v > best.0 {
                best = (v, page);
            }
        }
        self.taken += 1;
        (t, best.1)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn law(intervals: &[f64]) -> Histogram {
        Histogram::from_intervals(intervals).unwrap()
    }

    #[test]
    fn picks_the_unfetched_then_the_one_most_likely_changed() {
        // article 0 changes every ~10, article 1 every ~1000
        let laws: Rc<[Histogram]> = vec![law(&[8.0, 10.0, 12.0]), law(&[800.0, 1000.0, 1200.0])].into();
        for gain in [Gain::Sampled { samples: 3 }, Gain::Renewal(laws.iter().map(|l| RenewalTable::new(l, 5000.0, 5000)).collect::<Vec<_>>().into())] {
            let mut g = Greedy::new(laws.clone(), gain, Overdue::Memoryless, 0.0, 1.0);
            let mut rng = Stream::new(1, 0);
            // both unfetched: the larger stationary residual first (article 1)
            let (t, first) = g.take(&[], &mut rng);
            assert_eq!((t, first), (0.0, 1));
            g.learn(1, 0.0, None);
            let (_, second) = g.take(&[], &mut rng);
            assert_eq!(second, 0);
            g.learn(0, 1.0, None);
            // at t = 2, article 0 (fetched at 1, no change known) cannot have changed
            // (its intervals are ≥ 8), nor article 1: both are worth 0
            assert_eq!(g.value(0, 2.0, &mut rng), 0.0);
            assert_eq!(g.value(1, 2.0, &mut rng), 0.0);
            // by t = 11 article 0 has probably changed (its intervals end by 12)…
            let v0 = g.value(0, 11.0, &mut rng);
            assert!(v0 > 0.0);
            // …and the value is the time until its next change, at most 12 + 1
            assert!(v0 <= 13.0, "{v0}");
        }
    }

    #[test]
    fn the_estimator_is_unbiased_for_the_renewal_value() {
        let l = law(&[1.0, 2.0, 3.0, 5.0, 40.0, 60.0, 61.0, 300.0]);
        let laws: Rc<[Histogram]> = vec![l.clone()].into();
        let table = RenewalTable::new(&l, 2000.0, 20_000);
        let mut g = Greedy::new(laws, Gain::Sampled { samples: 1 }, Overdue::Memoryless, 0.0, 1.0);
        g.learn(0, 50.0, Some(10.0));
        let mut rng = Stream::new(2, 0);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| g.value(0, 400.0, &mut rng)).collect();
        let (mean, half) = crate::math::stats::mean_and_half_width(&xs);
        let exact = table.gain(&l, 40.0, 390.0).unwrap();
        assert!((mean - exact).abs() <= half + 2e-3 * exact, "{mean} ± {half} vs {exact}");
    }
}
