//! Freshness accounting, request by request: the one interface ([`Freshness`]) between
//! a schedule's driver and what a run measures, and what a fetch reveals ([`Fetch`]).
//! [`Account`] accumulates a repository's freshness under Poisson changes (spec §1.2):
//! exactly, by simulating each page's changes, or in expectation, by adding at each
//! revisit the expected fresh time of the elapsed interval (same mean, far less
//! variance). [`super::replay`] does the same for changes replayed from a trace.

use super::bins::TimeBins;
use super::redrawn::{REDRAWS, Redrawn};
use crate::core::field::Field;
use crate::core::labels::labelled;
use crate::core::rng::Stream;
use serde::{Deserialize, Serialize};

labelled! {
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Estimator {
    /// Fresh time of an interval U after a visit: its expectation (1 − e^{−λU})/λ.
    Expected => "expected value (low variance)",
    /// Fresh time of an interval after a visit: until the first simulated change.
    Exact => "exact Poisson changes",
}
}

impl Estimator {
    /// The `estimator` field, described for forms and `--help`.
    pub fn field() -> Field {
        Field::select("freshness estimator")
    }
}

/// What a fetch revealed to the crawler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fetch {
    /// The page had changed since the previous fetch (always true for the first).
    pub changed: bool,
    /// When the first change after the previous fetch happened (if `changed`).
    pub first_change: f64,
    /// The page's last change up to the fetch, when the accounting knows it (a trace
    /// does; GREEDY learns from it).
    pub last_change: Option<f64>,
}

/// What happens at each request: freshness accounting, a single page's meter, a
/// request counter… The driver of every schedule calls it once per request.
pub trait Freshness {
    /// Page `page` is fetched at `time`; returns what the fetch revealed, when the
    /// accounting simulates changes (None for an expected value).
    fn visit(&mut self, page: usize, time: f64, rng: &mut Stream) -> Option<Fetch>;
}

pub struct Account {
    estimator: Estimator,
    bins: TimeBins,
    /// Per page: time of the last visit, −∞ before the first.
    last_visit: Vec<f64>,
    /// Per page (exact estimator): time of the first change after the last visit.
    stale_at: Vec<f64>,
    /// The weighted fresh time the visits so far have closed (days): what `bins` holds
    /// beyond the never-changing pages, as one sum (a group of pages' share is its
    /// difference across their visits).
    credited: f64,
    /// The same visits' fresh time under rates redrawn within their intervals.
    redrawn: Option<Redrawn>,
}

impl Account {
    /// Tracks `pages` pages; all start stale except those that never change, which
    /// are fresh throughout (spec §1.4) and added here once.
    pub fn new(estimator: Estimator, lambda: &[f64], weight: impl Fn(usize) -> f64, horizon: f64, bins: usize) -> Self {
        let mut b = TimeBins::new(horizon, bins);
        let mut never = 0.0;
        for (i, &l) in lambda.iter().enumerate() {
            if l == 0.0 {
                never += weight(i);
            }
        }
        b.add_interval(0.0, horizon, never);
        let pages = lambda.len();
        let stale_at = if estimator == Estimator::Exact { vec![0.0; pages] } else { Vec::new() };
        Account { estimator, bins: b, last_visit: vec![f64::NEG_INFINITY; pages], stale_at, credited: 0.0, redrawn: None }
    }

    /// Also counts the visits' fresh time under `redrawn`'s rates.
    pub fn with_redrawn(self, redrawn: Option<Redrawn>) -> Self {
        Account { redrawn, ..self }
    }

    /// Per redraw, the weighted fresh time over [0, until) (with redrawn rates).
    pub fn redrawn_fresh(&self, until: f64, weight: impl Fn(usize) -> f64) -> Option<[f64; REDRAWS]> {
        self.redrawn.as_ref().map(|r| r.fresh_time(until, weight))
    }

    pub fn estimator(&self) -> Estimator {
        self.estimator
    }

    /// Pages tracked.
    pub fn pages(&self) -> usize {
        self.last_visit.len()
    }

    /// Bytes per page this accountant holds.
    pub const fn bytes_per_page(estimator: Estimator) -> u64 {
        match estimator {
            Estimator::Expected => 8,
            Estimator::Exact => 16,
        }
    }

    /// Records a visit of page `i` (change rate `lambda`, weight `w`) at time `t`.
    #[inline]
    pub fn visit(&mut self, i: usize, t: f64, lambda: f64, w: f64, rng: &mut Stream) -> Option<Fetch> {
        if let Some(redrawn) = &mut self.redrawn {
            redrawn.visit(i, t, w);
        }
        if lambda == 0.0 {
            // never changes: counted as fresh throughout by `new`
            self.last_visit[i] = t;
            return (self.estimator == Estimator::Exact).then_some(Fetch { changed: false, first_change: f64::INFINITY, last_change: None });
        }
        let last = self.last_visit[i];
        self.last_visit[i] = t;
        match self.estimator {
            Estimator::Expected => {
                if last > f64::NEG_INFINITY {
                    self.credited += self.bins.add_decay(last, last, t, w, lambda);
                }
                None
            }
            Estimator::Exact => {
                let stale_at = self.stale_at[i];
                let fetch = if last > f64::NEG_INFINITY {
                    self.credited += self.bins.add_interval(last, stale_at.min(t), w);
                    Fetch { changed: stale_at <= t, first_change: stale_at, last_change: None }
                } else {
                    Fetch { changed: true, first_change: 0.0, last_change: None }
                };
                self.stale_at[i] = t + rng.exponential(lambda);
                Some(fetch)
            }
        }
    }

    /// The weighted fresh time the visits so far have closed (days).
    pub fn credited(&self) -> f64 {
        self.credited
    }

    /// Page `i`'s fresh time over [last, until) after its visit at `last` (days, within
    /// the horizon): until its first change (exact), or its expectation
    /// (1 − e^{−λ(until − last)})/λ.
    fn fresh_after(&self, i: usize, last: f64, until: f64, lambda: f64) -> f64 {
        let (a, b) = (last.max(0.0), until.min(self.bins.horizon()));
        if b <= a {
            return 0.0;
        }
        match self.estimator {
            Estimator::Expected => -(-lambda * (b - last)).exp_m1() / lambda - -(-lambda * (a - last)).exp_m1() / lambda,
            Estimator::Exact => (self.stale_at[i].min(b) - a).max(0.0),
        }
    }

    /// The weighted fresh time of `pages` over [0, until): what their visits closed
    /// (`closed`, from [`Self::credited`]), the open intervals since their last visits,
    /// and the never-changing ones, fresh throughout.
    pub fn fresh_time(&self, pages: std::ops::Range<usize>, closed: f64, until: f64, lambda: &[f64], weight: impl Fn(usize) -> f64) -> f64 {
        let until = until.min(self.bins.horizon());
        let mut fresh = closed;
        for i in pages {
            let last = self.last_visit[i];
            if lambda[i] == 0.0 {
                fresh += weight(i) * until;
            } else if last > f64::NEG_INFINITY && last < until {
                fresh += weight(i) * self.fresh_after(i, last, until, lambda[i]);
            }
        }
        fresh
    }

    /// Bins with the open intervals (from each page's last visit) counted up to `until`.
    pub fn closed_bins(&self, until: f64, lambda: &[f64], weight: impl Fn(usize) -> f64) -> TimeBins {
        let mut bins = self.bins.clone();
        for (i, &last) in self.last_visit.iter().enumerate() {
            if last == f64::NEG_INFINITY || lambda[i] == 0.0 || last >= until {
                continue;
            }
            match self.estimator {
                Estimator::Expected => bins.add_decay(last, last, until, weight(i), lambda[i]),
                Estimator::Exact => bins.add_interval(last, self.stale_at[i].min(until), weight(i)),
            };
        }
        bins
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::math::freshness::a_star_ratio;
    use crate::core::rng::Purpose;

    /// One page revisited every U: both estimators approach A* = (1 − e^{−λU})/(λU).
    #[test]
    fn equally_spaced_visits_reach_lemma_4_2() {
        let (lambda, u, visits) = (0.7, 1.3, 40_000);
        let horizon = u * visits as f64;
        for estimator in [Estimator::Expected, Estimator::Exact] {
            let mut acc = Account::new(estimator, &[lambda], |_| 1.0, horizon, 10);
            let mut rng = Stream::of(1, Purpose::Test, 0);
            for k in 0..visits {
                acc.visit(0, k as f64 * u, lambda, 1.0, &mut rng);
            }
            let fresh: f64 = acc.closed_bins(horizon, &[lambda], |_| 1.0).totals().iter().sum();
            // the first interval [0, 0) adds nothing: all of [0, horizon) is covered
            let a = fresh / horizon;
            let want = a_star_ratio(lambda * u);
            let tol = if estimator == Estimator::Expected { 1e-12 } else { 4.0 * (want * (1.0 - want) / visits as f64).sqrt() };
            assert!((a - want).abs() < tol, "{estimator:?}: {a} vs {want}");
        }
    }

    #[test]
    fn never_changing_pages_are_fresh_throughout_and_others_start_stale() {
        let lambda = [0.0, 2.0];
        let acc = Account::new(Estimator::Exact, &lambda, |_| 1.0, 10.0, 5);
        assert_eq!(acc.closed_bins(10.0, &lambda, |_| 1.0).totals(), vec![2.0; 5]);
    }

    #[test]
    fn exact_fetches_report_changes() {
        let mut acc = Account::new(Estimator::Exact, &[1e-9, 1e9], |_| 1.0, 10.0, 1);
        let mut rng = Stream::of(2, Purpose::Test, 0);
        assert!(acc.visit(0, 0.0, 1e-9, 1.0, &mut rng).unwrap().changed, "first fetch");
        assert!(!acc.visit(0, 1.0, 1e-9, 1.0, &mut rng).unwrap().changed);
        acc.visit(1, 0.0, 1e9, 1.0, &mut rng);
        let f = acc.visit(1, 1.0, 1e9, 1.0, &mut rng).unwrap();
        assert!(f.changed && f.first_change < 1e-6);
    }

    /// The fresh time summed page by page (closed visits, open intervals, pages that
    /// never change) is the bins' total, for each estimator, and splits by group.
    #[test]
    fn fresh_time_by_group_adds_up_to_the_bins() {
        let lambda = [0.5, 0.0, 2.0, 0.1, 1.0];
        let weight = |i: usize| 1.0 + i as f64;
        let horizon = 20.0;
        for estimator in [Estimator::Expected, Estimator::Exact] {
            let mut acc = Account::new(estimator, &lambda, weight, horizon, 8);
            let mut rng = Stream::of(3, Purpose::Test, 0);
            // the first three pages, then the last two, visited at their own times
            let mut groups = [0.0; 2];
            for (g, pages) in [(0usize, 0..3usize), (1, 3..5)] {
                let before = acc.credited();
                for k in 0..30 {
                    for i in pages.clone() {
                        acc.visit(i, 0.3 + k as f64 * 0.61 + 0.07 * i as f64, lambda[i], weight(i), &mut rng);
                    }
                }
                groups[g] = acc.credited() - before;
            }
            let until = 19.5;
            let bins: f64 = acc.closed_bins(until, &lambda, weight).totals().iter().sum();
            // the bins count the never-changing page over the whole horizon
            let never = weight(1) * (horizon - until);
            let split = acc.fresh_time(0..3, groups[0], until, &lambda, weight) + acc.fresh_time(3..5, groups[1], until, &lambda, weight);
            assert!((split + never - bins).abs() < 1e-9 * bins, "{estimator:?}: {split} + {never} against {bins}");
        }
    }
}
