//! What a learning crawler's pages do and what it sees of them: each page changes as
//! a Poisson process drawn from its own stream in time order (so every policy faces the
//! same changes: common random numbers), every page is fetched at time 0, and each
//! fetch is accounted two ways in time bins — binary freshness (the copy is fresh until
//! the first change after the fetch) and harmonic staleness (after the k-th missed
//! change the copy pays H(k) = 1 + 1/2 + … + 1/k per unit of time; Kolobov et al.
//! 2019) — and recorded as the crawler sees it: changed or not, and the interval.

use crate::core::model::change_rate::maximum_likelihood_from;
use crate::core::model::changes::ChangeTimes;
use crate::core::model::repository::Repository;
use crate::core::rng::Stream;
use crate::core::sim::bins::TimeBins;
use crate::core::sim::freshness::{Fetch, Freshness};
use crate::core::sim::redrawn::{REDRAWS, Redrawn};

/// What the crawler has seen of a page: the lengths of the intervals between two fetches
/// in which it changed, and the total length of those in which it did not.
#[derive(Clone, Debug, Default)]
pub struct History {
    pub changed: Vec<f32>,
    pub unchanged: f64,
}

pub struct Watch {
    horizon: f64,
    weight: Vec<f64>,
    changes: Vec<ChangeTimes>,
    last_fetch: Vec<f64>,
    /// Empty for runs that never estimate (they keep no history).
    pub history: Vec<History>,
    fresh: TimeBins,
    harmonic: TimeBins,
    /// Fetches and simulated changes so far (the cost model's events).
    pub events: u64,
    pub requests: u64,
    /// The same fetches' fresh time under rates redrawn within their intervals.
    redrawn: Option<Redrawn>,
}

impl Watch {
    /// `record`: keep what the crawler sees (for runs that estimate rates).
    pub fn new(repo: &Repository, seed: u64, horizon: f64, bins: usize, record: bool) -> Self {
        Self::on_rates(repo, &repo.lambda, seed, horizon, bins, record)
    }

    /// The same, the pages changing at `lambda` (a redraw of estimated rates) rather than
    /// the repository's rates, each from its own stream as ever.
    pub fn on_rates(repo: &Repository, lambda: &[f64], seed: u64, horizon: f64, bins: usize, record: bool) -> Self {
        let pages = repo.pages();
        Watch {
            horizon,
            weight: (0..pages).map(|i| repo.weight(i)).collect(),
            changes: (0..pages).map(|i| ChangeTimes::of(seed, i as u64, lambda[i])).collect(),
            last_fetch: vec![0.0; pages],
            history: if record { vec![History::default(); pages] } else { Vec::new() },
            fresh: TimeBins::new(horizon, bins),
            harmonic: TimeBins::new(horizon, bins),
            events: 0,
            requests: 0,
            redrawn: None,
        }
    }

    /// Also counts the fetches' fresh time under `redrawn`'s rates (every page fetched
    /// at time 0, as here).
    pub fn with_redrawn(self, mut redrawn: Option<Redrawn>) -> Self {
        if let Some(r) = redrawn.as_mut() {
            for (i, &w) in self.weight.iter().enumerate() {
                r.visit(i, 0.0, w);
            }
        }
        Watch { redrawn, ..self }
    }

    /// Per redraw, the weighted fresh time over the horizon (with redrawn rates).
    pub fn redrawn_fresh(&self) -> Option<[f64; REDRAWS]> {
        self.redrawn.as_ref().map(|r| r.fresh_time(self.horizon, |i| self.weight[i]))
    }

    /// Accounts page i from its last fetch to `t`: fresh until the first change, then
    /// H(k) after the k-th. Returns (changed, first change, last change).
    fn account(&mut self, i: usize, t: f64) -> (bool, f64, f64) {
        let (a, w) = (self.last_fetch[i], self.weight[i]);
        let changes = &mut self.changes[i];
        let mut c = changes.next();
        if c > t {
            self.fresh.add_interval(a, t, w);
            return (false, f64::INFINITY, f64::NEG_INFINITY);
        }
        self.fresh.add_interval(a, c, w);
        let (first, mut last, mut k, mut h) = (c, c, 0u32, 0.0);
        while c <= t {
            k += 1;
            h += 1.0 / k as f64;
            last = c;
            changes.advance();
            c = changes.next();
            self.harmonic.add_interval(last, c.min(t), w * h);
            self.events += 1;
        }
        (true, first, last)
    }

    /// Accounts every page up to the horizon (no fetch at its end).
    pub fn close(&mut self) {
        for i in 0..self.changes.len() {
            self.account(i, self.horizon);
            self.last_fetch[i] = self.horizon;
        }
    }

    /// Page i's changes from where the account stands (at the start of a run: all of
    /// them), for a schedule that crawls on each announced change.
    pub fn changes(&self, i: usize) -> ChangeTimes {
        self.changes[i].clone()
    }

    /// Each page's change rate as estimated by maximum likelihood from its history and
    /// a prior of one changed and one unchanged interval of `prior` days; `previous`
    /// holds the last estimates (the starting guesses) and receives the new ones.
    /// Returns the history items read.
    pub fn estimate(&self, prior: f64, previous: &mut [f64]) -> u64 {
        let mut read = 0;
        for (i, h) in self.history.iter().enumerate() {
            let changed = h.changed.iter().map(|&x| x as f64).chain(std::iter::once(prior));
            previous[i] = maximum_likelihood_from(changed, h.unchanged + prior);
            read += h.changed.len() as u64 + 1;
        }
        read
    }

    /// Weighted freshness and harmonic staleness per bin, as shares of Σw × bin width.
    pub fn curves(&self, total_weight: f64) -> (Vec<f64>, Vec<f64>) {
        let scale = 1.0 / (total_weight * self.fresh.width());
        let f = self.fresh.totals().into_iter().map(|x| x * scale).collect();
        let h = self.harmonic.totals().into_iter().map(|x| x * scale).collect();
        (f, h)
    }
}

impl Freshness for Watch {
    fn visit(&mut self, page: usize, t: f64, _rng: &mut Stream) -> Option<Fetch> {
        let interval = t - self.last_fetch[page];
        if let Some(r) = self.redrawn.as_mut() {
            r.visit(page, t, self.weight[page]);
        }
        let (changed, first, last) = self.account(page, t);
        if let Some(h) = self.history.get_mut(page) {
            if changed {
                h.changed.push(interval as f32);
            } else {
                h.unchanged += interval;
            }
        }
        self.last_fetch[page] = t;
        self.events += 1;
        self.requests += 1;
        Some(Fetch { changed, first_change: first, last_change: changed.then_some(last) })
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// A page fetched every day for 4,000 days at λ = 0.5: fresh (1 − e^{−λ})/λ of each
    /// day, and the harmonic staleness of equally spaced fetches, by hand:
    /// ∫₀¹ E[H(N(t))] dt with N(t) Poisson(λt) and E[H(N)] = Σ_k P(N ≥ k)/k.
    #[test]
    fn daily_fetches_match_the_closed_forms() {
        let lambda = 0.5;
        let repo = Repository::from_servers(&[vec![lambda]]);
        let days = 4000.0;
        let mut watch = Watch::new(&repo, 5, days, 1, true);
        let mut rng = Stream::of(0, crate::core::rng::Purpose::Test, 0);
        for d in 1..=4000 {
            watch.visit(0, d as f64, &mut rng);
        }
        watch.close();
        let (f, h) = watch.curves(1.0);
        let fresh = (1.0 - (-lambda).exp()) / lambda;
        // one day's fresh time has variance below 1/4: the mean of 4,000 within 4 sd
        assert!((f[0] - fresh).abs() < 4.0 * 0.5 / days.sqrt(), "{} vs {fresh}", f[0]);
        // E[H(N(t))] = Σ_k P(N(t) ≥ k)/k, integrated over the day by the midpoint rule
        let steps = 2000;
        let mut want = 0.0;
        for s in 0..steps {
            let mu = lambda * (s as f64 + 0.5) / steps as f64;
            let (mut p_eq, mut p_ge, mut e) = ((-mu).exp(), 1.0, 0.0);
            for k in 1..60 {
                p_ge -= p_eq;
                e += p_ge / k as f64;
                p_eq *= mu / k as f64;
            }
            want += e / steps as f64;
        }
        assert!((h[0] - want).abs() < 0.02, "{} vs {want}", h[0]);
        let seen = &watch.history[0];
        assert_eq!(seen.changed.len() as f64 + seen.unchanged, days, "every day is one interval");
    }
}
