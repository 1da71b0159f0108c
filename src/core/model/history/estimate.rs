//! From a page's records to its change rate, with a confidence interval that says how
//! sure the records make it, and the pages they cannot support said as such.
//!
//! Two kinds of evidence (spec §1.2: a page changes as a Poisson process of rate λ):
//! - **intervals** between visits, each seen changed or not (captures' digests, a crawl
//!   log): the likelihood is Π_changed (1 − e^{−λtᵢ}) · e^{−λU}, U the unchanged time;
//!   its maximum is Cho & Garcia-Molina's estimator for irregular visits
//!   ([`maximum_likelihood_from`]);
//! - **exact change times** (revisions, a lastmod history): N changes in a span T,
//!   likelihood λᴺe^{−λT}, maximum N/T.
//!
//! The interval is the likelihood-ratio one, {λ : 2(ℓ(λ̂) − ℓ(λ)) ≤ z²}. Where the
//! maximum is at a boundary the one-sided exact bound is given instead: never changed
//! → λ < −ln(1 − c)/U (at λ above it, no change in U has probability under 1 − c);
//! changed at every visit → λ > the root of Π(1 − e^{−λtᵢ}) = 1 − c, and no rate.

use crate::core::labels::labelled;
use crate::core::math::elementary::{exp, expm1, ln, ln_1p};
use crate::core::math::roots::brent;
use crate::core::math::stats::normal_quantile;
use crate::core::model::change_rate::maximum_likelihood_from;
use serde::{Deserialize, Serialize};

labelled! {
/// What a page's records allow to say of its rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A rate and a two-sided interval.
    Estimated => "estimated",
    /// Changed at some visits, but most intervals changed: visits too sparse for the
    /// rate (λ̂ × the typical interval above [`COARSE`]), the interval wide above.
    Coarse => "estimated, visits too sparse to be sure",
    /// Never seen changed: rate 0 is the likelihood's maximum, an upper bound given.
    NeverChanged => "never seen changed (an upper bound)",
    /// Changed at every visit: no finite maximum, a lower bound given, no rate.
    AlwaysChanged => "changed at every visit (a lower bound, no rate)",
    /// One record, or records all at one time: nothing to estimate.
    OneRecord => "one record (nothing to estimate)",
}
}

labelled! {
/// Which estimator the evidence allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Estimator {
    /// Cho & Garcia-Molina's maximum likelihood for irregular visits (changed or not).
    Intervals => "changed or not at irregular visits (Cho & Garcia-Molina's MLE)",
    /// Every change's time: N/T.
    ExactTimes => "exact change times (N/T)",
    /// Sitemap snapshots' lastmod dates at the snapshots' times: Cho & Garcia-Molina's
    /// last-modified estimator (X changed intervals over the time known free of changes).
    LastmodHistory => "lastmod dates at sitemap snapshots (Cho & Garcia-Molina's last-modified estimator)",
}
}

/// Above this λ̂ × typical visit interval (86 % of such intervals changed) an estimate is
/// [`Status::Coarse`].
pub const COARSE: f64 = 2.0;

/// A page's rate as its records give it (per day).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub status: Status,
    pub estimator: Estimator,
    /// The likelihood's maximum (None: none finite, or nothing to estimate).
    pub rate: Option<f64>,
    /// The interval's bounds (None: unbounded on that side, or nothing to estimate).
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Intervals between visits (or changes, for exact times) and the changes seen.
    pub observations: u64,
    pub changes: u64,
    /// Days from the first record to the last.
    pub span_days: f64,
    /// The typical interval between visits (days): the median weighted by length (half
    /// the observed time lies in intervals at most this long); for exact times, the mean
    /// between changes.
    pub spacing_days: f64,
}

/// A confidence level's two constants, computed once for every page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// −ln(1 − c): the one-sided exact bounds'.
    tail: f64,
    /// z²/2 with z the (1 + c)/2 normal quantile: the likelihood-ratio interval's drop.
    half: f64,
    confidence: f64,
}

impl Level {
    pub fn of(confidence: f64) -> Level {
        Level { tail: -ln_1p(-confidence), half: 0.5 * normal_quantile(0.5 + 0.5 * confidence).powi(2), confidence }
    }
}

/// Intervals between visits (days), each seen changed or not.
pub fn from_intervals(intervals: &[(f64, bool)], confidence: f64) -> Estimate {
    from_intervals_at(intervals, &Level::of(confidence))
}

/// [`from_intervals`] at a level computed once.
pub fn from_intervals_at(intervals: &[(f64, bool)], level: &Level) -> Estimate {
    let changed: Vec<f64> = intervals.iter().filter(|i| i.1).map(|i| i.0).collect();
    let unchanged: f64 = intervals.iter().filter(|i| !i.1).map(|i| i.0).sum();
    let span: f64 = intervals.iter().map(|i| i.0).sum();
    let spacing = median_by_time(intervals.iter().map(|i| i.0).collect(), span);
    let base = Estimate {
        status: Status::OneRecord,
        estimator: Estimator::Intervals,
        rate: None,
        low: None,
        high: None,
        observations: intervals.len() as u64,
        changes: changed.len() as u64,
        span_days: span,
        spacing_days: spacing,
    };
    if span <= 0.0 {
        return base;
    }
    let (tail, half, confidence) = (level.tail, level.half, level.confidence);
    // ℓ(λ) = Σ_changed ln(1 − e^{−λt}) − λU, with 1 − e^{−x} = −expm1(−x)
    let loglik = |lambda: f64| changed.iter().map(|&t| ln(-expm1(-lambda * t))).sum::<f64>() - lambda * unchanged;
    if changed.is_empty() {
        return Estimate { status: Status::NeverChanged, rate: Some(0.0), low: Some(0.0), high: Some(tail / unchanged), ..base };
    }
    if unchanged == 0.0 {
        let low = bound_below(|l| loglik(l) - ln_1p(-confidence), 1.0 / span);
        return Estimate { status: Status::AlwaysChanged, low: Some(low), ..base };
    }
    let rate = maximum_likelihood_from(changed.iter().copied(), unchanged);
    let top = loglik(rate) - half;
    let low = bound_below(|l| loglik(l) - top, rate);
    let high = bound_above(|l| loglik(l) - top, rate);
    let status = if rate * spacing > COARSE { Status::Coarse } else { Status::Estimated };
    Estimate { status, rate: Some(rate), low: Some(low), high: Some(high), ..base }
}

/// The interval length below which half the observed time lies (the median of the
/// intervals weighted by their length): with visits in bursts, the gap between bursts,
/// not the minutes within one.
pub fn median_by_time(mut lengths: Vec<f64>, span: f64) -> f64 {
    lengths.sort_by(f64::total_cmp);
    let mut held = 0.0;
    for length in &lengths {
        held += length;
        if held >= 0.5 * span {
            return *length;
        }
    }
    0.0
}

/// `changes` exact change times over `span` days.
pub fn from_exact(changes: u64, span: f64, estimator: Estimator, confidence: f64) -> Estimate {
    from_exact_at(changes, span, estimator, &Level::of(confidence))
}

/// [`from_exact`] at a level computed once.
pub fn from_exact_at(changes: u64, span: f64, estimator: Estimator, level: &Level) -> Estimate {
    let base = Estimate {
        status: Status::OneRecord,
        estimator,
        rate: None,
        low: None,
        high: None,
        observations: changes,
        changes,
        span_days: span,
        spacing_days: if changes > 0 { span / changes as f64 } else { span },
    };
    if span <= 0.0 {
        return base;
    }
    if changes == 0 {
        return Estimate { status: Status::NeverChanged, rate: Some(0.0), low: Some(0.0), high: Some(level.tail / span), ..base };
    }
    let n = changes as f64;
    let rate = n / span;
    let half = level.half;
    let loglik = |lambda: f64| n * ln(lambda) - lambda * span;
    let top = loglik(rate) - half;
    Estimate { status: Status::Estimated, rate: Some(rate), low: Some(bound_below(|l| loglik(l) - top, rate)), high: Some(bound_above(|l| loglik(l) - top, rate)), ..base }
}

/// The root of `g`, increasing up to `from` or beyond: halving or doubling from `from` to
/// a sign change, then Brent's method on ln λ.
fn bound_below(g: impl Fn(f64) -> f64, from: f64) -> f64 {
    let (mut lo, mut hi) = (from, from);
    if g(from) < 0.0 {
        while g(hi) < 0.0 {
            lo = hi;
            hi *= 2.0;
            if hi > 1e300 {
                return f64::MAX;
            }
        }
    } else {
        while g(lo) >= 0.0 {
            hi = lo;
            lo *= 0.5;
            if lo < 1e-300 {
                return 0.0;
            }
        }
    }
    root_between(g, lo, hi)
}

/// The root of `g` above `from`, where g(from) ≥ 0 and g decreases beyond.
fn bound_above(g: impl Fn(f64) -> f64, from: f64) -> f64 {
    let (mut lo, mut hi) = (from, from);
    while g(hi) >= 0.0 {
        lo = hi;
        hi *= 2.0;
        if hi > 1e300 {
            return f64::MAX;
        }
    }
    root_between(g, lo, hi)
}

/// The root of `g` between `a` and `b` (a sign change), by Brent's method on ln λ.
fn root_between(g: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    let (ta, tb) = (ln(a), ln(b));
    exp(brent(&mut |t| g(exp(t)), ta, g(a), tb, g(b)))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::math::elementary::exp;
    use crate::core::model::change_rate::observe;
    use crate::core::rng::{Purpose, Stream};

    #[test]
    fn the_normal_quantile_is_the_tables() {
        assert!((normal_quantile(0.975) - 1.959_963_984_540_054).abs() < 1e-12);
        assert!((normal_quantile(0.95) - 1.644_853_626_951_472_2).abs() < 1e-12);
        assert!((normal_quantile(0.995) - 2.575_829_303_548_901).abs() < 1e-12);
        assert!(normal_quantile(0.5).abs() < 1e-15);
    }

    /// Hand-computed: 3 changes in 10 days → 0.3; the interval's bounds satisfy
    /// 3 ln(λ/0.3) − (λ − 0.3)·10 = −1.92073 (z²/2 at 95 %), checked here by the formula.
    #[test]
    fn exact_times_by_hand() {
        let e = from_exact(3, 10.0, Estimator::ExactTimes, 0.95);
        assert_eq!(e.rate, Some(0.3));
        let half = 0.5 * 1.959_963_984_540_054f64.powi(2);
        for bound in [e.low.unwrap(), e.high.unwrap()] {
            let drop = 3.0 * (bound / 0.3).ln() - (bound - 0.3) * 10.0;
            assert!((drop + half).abs() < 1e-9, "{bound}: {drop}");
        }
        assert!(e.low.unwrap() < 0.3 && e.high.unwrap() > 0.3);
        // none in 10 days: below −ln(0.05)/10 = 0.29957
        let none = from_exact(0, 10.0, Estimator::ExactTimes, 0.95);
        assert_eq!((none.status, none.rate), (Status::NeverChanged, Some(0.0)));
        assert!((none.high.unwrap() - 0.05f64.ln().abs() / 10.0).abs() < 1e-15);
        assert_eq!(from_exact(0, 0.0, Estimator::ExactTimes, 0.95).status, Status::OneRecord);
    }

    /// Hand-computed intervals: changed in 1 day and in 2 days, unchanged for 1 day (the
    /// likelihood equation's root checked in change_rate); the bounds drop ℓ by z²/2; the
    /// boundary cases give the one-sided exact bounds.
    #[test]
    fn intervals_by_hand_and_at_the_boundaries() {
        let e = from_intervals(&[(1.0, true), (2.0, true), (1.0, false)], 0.95);
        let l = e.rate.unwrap();
        assert!((1.0 / (exp(l) - 1.0) + 2.0 / (exp(2.0 * l) - 1.0) - 1.0).abs() < 1e-12);
        let ll = |x: f64| (1.0 - exp(-x)).ln() + (1.0 - exp(-2.0 * x)).ln() - x;
        let half = 0.5 * 1.959_963_984_540_054f64.powi(2);
        for bound in [e.low.unwrap(), e.high.unwrap()] {
            assert!((ll(bound) - ll(l) + half).abs() < 1e-9, "{bound}");
        }
        assert_eq!((e.observations, e.changes, e.span_days, e.spacing_days), (3, 2, 4.0, 1.0));
        // never changed in 30 days of visits: rate 0, below 2.9957/30
        let never = from_intervals(&[(10.0, false); 3], 0.95);
        assert_eq!((never.status, never.rate, never.low), (Status::NeverChanged, Some(0.0), Some(0.0)));
        assert!((never.high.unwrap() - 0.05f64.ln().abs() / 30.0).abs() < 1e-15);
        // changed at each of 3 weekly visits: (1 − e^{−7λ})³ = 0.05 → λ = −ln(1 − 0.05^{1/3})/7
        let always = from_intervals(&[(7.0, true); 3], 0.95);
        assert_eq!((always.status, always.rate, always.high), (Status::AlwaysChanged, None, None));
        let want = -(1.0 - 0.05f64.powf(1.0 / 3.0)).ln() / 7.0;
        assert!((always.low.unwrap() / want - 1.0).abs() < 1e-12, "{:?} vs {want}", always.low);
        assert_eq!(from_intervals(&[], 0.95).status, Status::OneRecord);
        // mostly changed: coarse
        let coarse = from_intervals(&[(1.0, true), (1.0, true), (1.0, true), (1.0, true), (1.0, true), (1.0, true), (1.0, true), (1.0, false)], 0.95);
        assert_eq!(coarse.status, Status::Coarse);
    }

    /// Coverage by Monte Carlo (fixed seeds): Poisson pages visited at exponential gaps
    /// (mean 1 day), 40 visits; the 95 % interval holds λ in 95 % ± 1.5 % of 4,000 pages
    /// (three binomial standard errors at n = 4,000 are 1.0 %), for rates from 0.1 to 1
    /// a day; exact times likewise.
    #[test]
    fn intervals_cover_the_rate_95_percent_of_the_time() {
        for (k, lambda) in [0.1, 0.3, 1.0].into_iter().enumerate() {
            let mut rng = Stream::of(47, Purpose::Test, k as u64);
            let (mut covered, mut exact_covered, mut pages) = (0u32, 0u32, 0u32);
            for _ in 0..4000 {
                let mut t = 0.0;
                let visits: Vec<f64> = (0..41)
                    .map(|_| {
                        let now = t;
                        t += rng.exponential(1.0);
                        now
                    })
                    .collect();
                let seen = observe(lambda, &visits, &mut rng);
                let intervals: Vec<(f64, bool)> = seen.iter().map(|s| (s.interval, s.changed)).collect();
                let e = from_intervals(&intervals, 0.95);
                let inside = e.low.is_some_and(|l| l <= lambda) && e.high.is_none_or(|h| lambda <= h);
                covered += inside as u32;
                // exact: the changes of a Poisson process over the same span
                let (mut n, mut c) = (0u64, rng.exponential(lambda));
                while c < t {
                    n += 1;
                    c += rng.exponential(lambda);
                }
                let x = from_exact(n, t, Estimator::ExactTimes, 0.95);
                exact_covered += (x.low.unwrap() <= lambda && lambda <= x.high.unwrap()) as u32;
                pages += 1;
            }
            for (what, c) in [("intervals", covered), ("exact", exact_covered)] {
                let share = c as f64 / pages as f64;
                assert!((share - 0.95).abs() < 0.015, "λ = {lambda}, {what}: coverage {share}");
            }
        }
    }
}
