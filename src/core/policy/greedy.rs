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
//!
//! Choosing without evaluating every article: an article's value is at most Pr[ε] times
//! the longest time to its next change (its longest interval for the estimator, whose
//! simulated excess ends within one interval; the largest R(y) of its renewal table for
//! the computed expectation). A request first bounds every article from two survival
//! lookups, then evaluates only those whose bound reaches the best value found so far,
//! and an estimate stops drawing as soon as its samples so far (each still to draw
//! adding at most the longest interval) show it cannot reach it. Each article draws
//! from its own stream of the request, so it draws the same numbers whichever others
//! are evaluated: the choice is the one evaluating every article would make (tested),
//! at a fraction of the cost.

use super::{Clock, Schedule};
use crate::core::labels::labelled;
use crate::core::math::elementary::expm1;
use crate::core::model::histogram::{Histogram, IntervalLaw, Survival};
use crate::core::model::renewal::RenewalTable;
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::freshness::Fetch;
use std::rc::Rc;

/// How GREEDY evaluates the expectation.
pub enum Gain {
    /// The thesis's estimator: `samples` simulations of the renewal process per article.
    Sampled { samples: u32 },
    /// The renewal equation, one table per article.
    Renewal(Rc<[RenewalTable]>),
}

labelled! {
/// What an article older than its histogram allows is worth (a reading; see above).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overdue {
    Memoryless => "memoryless since its last fetch",
    Stale => "surely stale (refetched until it changes)",
}
}

/// What is known of an article's value at t before any draw.
enum Prospect {
    /// The value itself: never fetched, or overdue.
    Known(f64),
    /// It may have changed: d₀ = u − b, d₁ = t − b and their survivals; the value is at
    /// most `changed`·`reach` (both rounded up).
    Uncertain { d0: f64, d1: f64, s0: f64, s1: f64, changed: f64, reach: f64 },
}

impl Prospect {
    /// The value, or what it cannot exceed.
    fn bound(&self) -> f64 {
        match *self {
            Prospect::Known(v) => v,
            Prospect::Uncertain { changed, reach, .. } => changed * reach,
        }
    }
}

/// What a request reads of every article, in five cache lines: the bounds stream
/// through these side by side.
#[repr(C)]
struct Article {
    survival: Survival,
    /// The last revisit u (NaN before the first) and the last change b known then.
    last_visit: f64,
    last_change: f64,
    /// The longest time from t to the next change the gain can return.
    reach: f64,
    /// E[X²]/(2E[X]): the value of an article never fetched.
    ceiling: f64,
}

pub struct Greedy {
    overdue: Overdue,
    laws: Rc<[Histogram]>,
    articles: Vec<Article>,
    gain: Gain,
    clock: Clock,
    /// Each article's bound at the current request (a buffer).
    bounds: Vec<f64>,
    evaluated: u64,
    /// Intervals drawn by the sampled gain (the run's work beside its evaluations).
    drawn: u64,
}

impl Greedy {
    /// Requests every `period` from `start`; articles' interval laws `laws`.
    pub fn new(laws: Rc<[Histogram]>, gain: Gain, overdue: Overdue, start: f64, period: f64) -> Self {
        let n = laws.len();
        let articles = laws
            .iter()
            .enumerate()
            .map(|(i, l)| Article {
                survival: l.survival_table().clone(),
                last_visit: f64::NAN,
                last_change: 0.0,
                reach: match &gain {
                    Gain::Sampled { .. } => l.support_end(),
                    Gain::Renewal(tables) => l.support_end().max(tables[i].longest_residual()),
                },
                ceiling: l.mean_residual(),
            })
            .collect();
        Greedy { overdue, laws, articles, gain, clock: Clock::new(start, period), bounds: Vec::with_capacity(n), evaluated: 0, drawn: 0 }
    }

    /// What the fetch of `page` at `time` revealed: its last change up to then.
    pub fn learn(&mut self, page: usize, time: f64, last_change: Option<f64>) {
        let article = &mut self.articles[page];
        article.last_visit = time;
        if let Some(b) = last_change {
            article.last_change = b;
        }
    }

    /// Articles whose gain was evaluated (drawn or computed), over all requests so far.
    pub fn evaluated(&self) -> u64 {
        self.evaluated
    }

    /// Intervals the sampled gain drew, over all requests so far.
    pub fn drawn(&self) -> u64 {
        self.drawn
    }

    fn prospect(&self, page: usize, t: f64) -> Prospect {
        let article = &self.articles[page];
        let u = article.last_visit;
        if u.is_nan() {
            return Prospect::Known(article.ceiling);
        }
        let b = article.last_change;
        let (d0, d1) = (u - b, t - b);
        let (s0, s1) = (article.survival.at(d0), article.survival.at(d1));
        if s0 <= 0.0 {
            return Prospect::Known(match self.overdue {
                Overdue::Memoryless => -expm1(-(t - u) / self.laws[page].mean()) * article.ceiling,
                Overdue::Stale => article.ceiling,
            });
        }
        // Pr[ε] = 1 − s₁/s₀; the slack covers the gains' rounding (the renewal gain sums
        // its own Pr[ε] per bin, and the simulated excess accumulates from b)
        let changed = (1.0 - s1 / s0).max(0.0) + 1e-6 * (1.0 + 1.0 / s0);
        Prospect::Uncertain { d0, d1, s0, s1, changed, reach: article.reach + 1e-9 * d1 }
    }

    /// The value of fetching `page` at `t` (Def 6.1), drawing from `rng` if sampled.
    pub fn value(&self, page: usize, t: f64, rng: &mut Stream) -> f64 {
        self.value_from(page, t, rng, f64::NEG_INFINITY, &mut 0)
    }

    /// The same, or −∞ as soon as the draws so far show it stays below `floor`: each
    /// sample still to draw adds at most `reach` to the sum. Counts its draws in `draws`.
    fn value_from(&self, page: usize, t: f64, rng: &mut Stream, floor: f64, draws: &mut u64) -> f64 {
        let (d0, d1, s0, s1, changed, reach) = match self.prospect(page, t) {
            Prospect::Known(v) => return v,
            Prospect::Uncertain { d0, d1, s0, s1, changed, reach } => (d0, d1, s0, s1, changed, reach),
        };
        let law = &self.laws[page];
        match &self.gain {
            Gain::Renewal(tables) => tables[page].gain_given(law, d0, d1, s0),
            Gain::Sampled { samples } => {
                if s1 >= s0 {
                    return 0.0;
                }
                // F(d) = 1 − S(d): rounding matters only where S < 1e-12, in the last bin
                let (lo, hi) = (1.0 - s0, 1.0 - s1);
                let mut sum = 0.0;
                for drawn in 0..*samples {
                    if changed * (sum + (*samples - drawn) as f64 * reach) < floor * *samples as f64 {
                        return f64::NEG_INFINITY;
                    }
                    let mut s = law.sample_between(lo, hi, rng);
                    *draws += 1;
                    while s <= d1 {
                        s += law.sample(rng);
                        *draws += 1;
                    }
                    sum += s - d1;
                }
                (1.0 - s1 / s0) * sum / *samples as f64
            }
        }
    }

    /// The value of `page` at `t` with the article's stream of the request keyed `key`,
    /// or −∞ if it cannot reach `floor`.
    fn evaluate(&mut self, page: usize, t: f64, key: u64, floor: f64) -> f64 {
        self.evaluated += 1;
        let mut drawn = 0;
        let v = self.value_from(page, t, &mut Stream::of(key, Purpose::GreedySample, page as u64), floor, &mut drawn);
        self.drawn += drawn;
        if v.is_nan() { f64::NEG_INFINITY } else { v }
    }
}

impl Schedule for Greedy {
    /// GREEDY learns each article's last change from what the fetch revealed.
    fn observe(&mut self, page: usize, time: f64, fetch: Option<Fetch>) {
        self.learn(page, time, fetch.expect("GREEDY needs an accounting that knows the changes").last_change);
    }

    fn next_time(&self) -> f64 {
        self.clock.next_time()
    }

    /// The best article now (the first of equals): every article bounded, the one with
    /// the largest bound evaluated first, then, in index order (memory order: faster
    /// than largest bound first, measured), the others whose bound reaches the best.
    fn take(&mut self, _f: &[f64], rng: &mut Stream) -> (f64, usize) {
        let t = self.clock.tick();
        let key = rng.bits();
        let mut bounds = std::mem::take(&mut self.bounds);
        bounds.clear();
        let mut first = (f64::NEG_INFINITY, 0);
        for page in 0..self.laws.len() {
            let bound = self.prospect(page, t).bound();
            if bound > first.0 {
                first = (bound, page);
            }
            bounds.push(bound);
        }
        let mut best = (self.evaluate(first.1, t, key, f64::NEG_INFINITY), first.1);
        for (page, &bound) in bounds.iter().enumerate() {
            if bound < best.0 || page == first.1 {
                continue;
            }
            let v = self.evaluate(page, t, key, best.0);
            if v > best.0 || (v == best.0 && page < best.1) {
                best = (v, page);
            }
        }
        self.bounds = bounds;
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
            let mut rng = Stream::of(1, Purpose::Test, 0);
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

    /// The choice of evaluating every article, each from its stream of the request.
    fn exhaustive(g: &Greedy, t: f64, key: u64) -> usize {
        let mut best = (f64::NEG_INFINITY, 0);
        for page in 0..g.laws.len() {
            let v = g.value(page, t, &mut Stream::of(key, Purpose::GreedySample, page as u64));
            if v > best.0 {
                best = (v, page);
            }
        }
        best.1
    }

    #[test]
    fn bounding_chooses_what_evaluating_every_article_chooses() {
        use crate::core::model::bursty::BurstyGenerator;
        use crate::core::sim::replay::TraceAccount;
        let trace = BurstyGenerator { articles: 300, days: 20.0, ..Default::default() }.generate(4).unwrap();
        let laws: Rc<[Histogram]> = Histogram::laws_from(&trace, trace.minutes).0.into();
        let tables: Rc<[RenewalTable]> = laws.iter().map(|l| RenewalTable::new(l, trace.minutes, 256)).collect::<Vec<_>>().into();
        for gain in [Gain::Sampled { samples: 3 }, Gain::Renewal(tables)] {
            // half the articles fetched once in the first two days, the rest never
            let mut g = Greedy::new(laws.clone(), gain, Overdue::Memoryless, 2880.0, 2.0);
            let mut account = TraceAccount::new(&trace);
            for page in (0..laws.len()).step_by(2) {
                let t = page as f64 * 9.0;
                let last = account.fetch(&trace, page, t);
                g.learn(page, t, last);
            }
            let mut rng = Stream::of(5, Purpose::Test, 0);
            let requests = 600;
            for _ in 0..requests {
                let expected = exhaustive(&g, g.next_time(), rng.clone().bits());
                let (t, page) = g.take(&[], &mut rng);
                assert_eq!(page, expected, "request at {t}");
                let last = account.fetch(&trace, page, t);
                g.learn(page, t, last);
            }
            let share = g.evaluated() as f64 / (requests * laws.len()) as f64;
            assert!(share < 0.9, "the bounds spare evaluations ({share})");
        }
    }

    #[test]
    fn the_estimator_is_unbiased_for_the_renewal_value() {
        let l = law(&[1.0, 2.0, 3.0, 5.0, 40.0, 60.0, 61.0, 300.0]);
        let laws: Rc<[Histogram]> = vec![l.clone()].into();
        let table = RenewalTable::new(&l, 2000.0, 20_000);
        let mut g = Greedy::new(laws, Gain::Sampled { samples: 1 }, Overdue::Memoryless, 0.0, 1.0);
        g.learn(0, 50.0, Some(10.0));
        let mut rng = Stream::of(2, Purpose::Test, 0);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| g.value(0, 400.0, &mut rng)).collect();
        let (mean, half) = crate::core::math::stats::mean_and_half_width(&xs);
        let exact = table.gain(&l, 40.0, 390.0).unwrap();
        assert!((mean - exact).abs() <= half + 2e-3 * exact, "{mean} ± {half} vs {exact}");
    }
}
