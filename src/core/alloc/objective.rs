//! What an allocation optimises (spec §1.3 and the research since the thesis).
//!
//! Every objective here is separable and concave in each page's crawl rate f, so one
//! solver ([`super::opt`]) serves them all: at a marginal value m each page's rate is
//! the f where its marginal benefit equals m (0 when even its first crawl is worth
//! less), and m is found so that the rates spend the bandwidth, per server inside the
//! caps Σ_{i∈s} f_i ≤ 1/P. Page weights w are the importances μ of the papers.

use super::opt::inverse_gain_from;
use crate::core::labels::labelled;
use crate::core::math::elementary::{ln_1p, sqrt};
use crate::core::math::freshness::{a_star, a_star_marginal};
use crate::core::model::repository::Repository;
use serde::{Deserialize, Serialize};

labelled! {
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// Binary freshness with equally spaced crawls: Σ w A*(λ, f), Lemma 4.2 (the thesis).
    #[default]
    Freshness => "freshness, Lemma 4.2 (equally spaced crawls)",
    /// Binary freshness with Poisson crawls: a page crawled at rate f is fresh with
    /// probability f/(λ + f) (Azar et al., PNAS 2018).
    Binary => "binary freshness (Poisson crawls)",
    /// Harmonic staleness: a page pays the harmonic number of the changes missed since
    /// its last crawl, at the expected rate w·ln(1 + λ/f) (Kolobov et al., NeurIPS 2019).
    /// A cost: the allocation minimises it.
    Harmonic => "harmonic staleness (Poisson crawls)",
}
}

impl Objective {
    pub fn is_freshness(&self) -> bool {
        *self == Objective::Freshness
    }

    /// True when the objective is a cost to minimise (its value per page grows as
    /// the page is neglected).
    pub fn is_cost(self) -> bool {
        self == Objective::Harmonic
    }

    /// A page's contribution at crawl rate f, weight excluded: A*(λ, f) (Lemma 4.2),
    /// f/(λ + f), or ln(1 + λ/f) (+∞ for a changing page never crawled).
    pub fn value(self, lambda: f64, f: f64) -> f64 {
        match self {
            Objective::Freshness => a_star(lambda, f),
            Objective::Binary => {
                if lambda == 0.0 {
                    1.0
                } else {
                    f / (lambda + f)
                }
            }
            Objective::Harmonic => {
                if lambda == 0.0 {
                    0.0
                } else if f == 0.0 {
                    f64::INFINITY
                } else {
                    ln_1p(lambda / f)
                }
            }
        }
    }

    /// The marginal benefit w·∂(value)/∂f of one more crawl per day (for a cost, the
    /// marginal saving −w·∂(value)/∂f): w·∂A*/∂f, wλ/(λ + f)², wλ/(f(f + λ)).
    pub fn marginal(self, lambda: f64, w: f64, f: f64) -> f64 {
        if lambda == 0.0 {
            return 0.0;
        }
        match self {
            Objective::Freshness => w * a_star_marginal(lambda, f),
            Objective::Binary => w * lambda / ((lambda + f) * (lambda + f)),
            Objective::Harmonic => w * lambda / (f * (f + lambda)),
        }
    }

    /// The marginal benefit of a page's first crawl: w/λ for both freshness
    /// objectives (pages whose w/λ is at most the multiplier are never crawled), +∞
    /// for harmonic staleness (every changing page is crawled).
    pub fn first_marginal(self, lambda: f64, w: f64) -> f64 {
        match self {
            Objective::Harmonic => f64::INFINITY,
            Objective::Freshness | Objective::Binary => w / lambda,
        }
    }

    /// The page's optimal rate at marginal value m > 0 and its slope df/dm. `x` is
    /// the freshness objective's scratch (its last λ/f, NaN for none: Newton's start).
    /// - freshness: f = λ/g⁻¹(mλ/w), df/dm = −λ² eˣ/(w x³) with x = λ/f;
    /// - binary: f = √(wλ/m) − λ, df/dm = −√(wλ)/(2 m^{3/2});
    /// - harmonic: f = (−λ + √(λ² + 4wλ/m))/2, written q/(2(λ + √(λ² + q))) with
    ///   q = 4wλ/m so that a small q does not cancel; df/dm = −wλ/(m² √(λ² + q)).
    #[inline]
    pub fn rate_at(self, lambda: f64, w: f64, m: f64, x: &mut f64) -> (f64, f64) {
        if lambda == 0.0 || w == 0.0 || m * lambda >= w && self != Objective::Harmonic {
            return (0.0, 0.0);
        }
        match self {
            Objective::Freshness => {
                let (xi, e) = inverse_gain_from(m * lambda / w, *x);
                *x = xi;
                (lambda / xi, -lambda * lambda / (e * w * xi * xi * xi))
            }
            Objective::Binary => {
                let root = sqrt(w * lambda / m);
                (root - lambda, -0.5 * root / m)
            }
            Objective::Harmonic => {
                let q = 4.0 * w * lambda / m;
                let root = sqrt(lambda * lambda + q);
                (q / (2.0 * (lambda + root)), -w * lambda / (m * m * root))
            }
        }
    }
}

/// Pages whose every change is observed (a sitemap or feed announces it: the
/// complete-observation sources of Kolobov et al., NeurIPS 2019, §5). Such a page is
/// crawled on a change with probability p, so its crawl rate is f = pλ ≤ λ; it is fresh
/// with probability p (the last change was crawled) and pays −ln p in harmonic
/// staleness per unit of weight (their Prop. 4). The allocation of Freshlab's solver
/// spends f on it at the marginal saving w/f: f = min(λ, w/m), the rate of their
/// Algorithm 2, and with per-server caps the same multipliers as every other page —
/// so pages of both kinds share one root-find instead of their Algorithm 3's search
/// over how to split the bandwidth. Under both freshness objectives its value w·f/λ is
/// linear in f: at m it takes all of λ when w/λ > m and nothing when w/λ < m (the
/// fractional knapsack's greedy rule), and the solver splits what is left among the
/// pages with w/λ = m, whose every rate in [0, λ] is optimal.
impl Objective {
    /// An observed page's value at crawl rate f: p = min(1, f/λ) for both freshness
    /// objectives, −ln p for harmonic staleness (+∞ for a changing page never crawled;
    /// rates above λ are wasted).
    pub fn observed_value(self, lambda: f64, f: f64) -> f64 {
        if lambda == 0.0 {
            return if self.is_cost() { 0.0 } else { 1.0 };
        }
        let p = (f / lambda).min(1.0);
        match self {
            Objective::Harmonic if f == 0.0 => f64::INFINITY,
            // −ln p = −ln(1 + (f − λ)/λ): exact near p = 1
            Objective::Harmonic => -ln_1p((f.min(lambda) - lambda) / lambda),
            Objective::Freshness | Objective::Binary => p,
        }
    }

    /// An observed page's marginal benefit at rate f < λ: w/λ for both freshness
    /// objectives (its value w·f/λ is linear), the saving w/f for harmonic staleness.
    pub fn observed_marginal(self, lambda: f64, w: f64, f: f64) -> f64 {
        if self.is_cost() { w / f } else { w / lambda }
    }

    /// An observed page's rate at marginal value m ≥ 0 and its slope: under harmonic
    /// staleness f = min(λ, w/m), df/dm = −w/m² below λ, 0 at λ (m = 0: every change
    /// crawled); under both freshness objectives λ when w/λ > m, else 0 (at w/λ = m any
    /// rate in [0, λ] is optimal: the solver fills such pages to spend the rest).
    #[inline]
    pub fn observed_rate_at(self, lambda: f64, w: f64, m: f64) -> (f64, f64) {
        if lambda == 0.0 || w == 0.0 {
            return (0.0, 0.0);
        }
        if !self.is_cost() {
            return (if m * lambda < w { lambda } else { 0.0 }, 0.0);
        }
        if m * lambda <= w { (lambda, 0.0) } else { (w / m, -w / (m * m)) }
    }

    /// Page i's value at rate f, observed or not.
    pub fn page_value(self, repo: &Repository, i: usize, f: f64) -> f64 {
        if repo.observed(i) { self.observed_value(repo.lambda[i], f) } else { self.value(repo.lambda[i], f) }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// Each page's rate at m is where its marginal benefit is m, and the slope is the
    /// derivative of that rate, both checked by independent arithmetic.
    #[test]
    fn rates_meet_their_marginal_and_slopes_are_derivatives() {
        for objective in Objective::ALL {
            for (lambda, w, m) in [(1.0, 1.0, 0.25), (0.1, 2.0, 3.0), (5.0, 0.5, 0.01), (1e-3, 1.0, 10.0), (20.0, 1.0, 1e-4)] {
                let (f, slope) = objective.rate_at(lambda, w, m, &mut f64::NAN.clone());
                assert!(f > 0.0, "{objective:?} {lambda} {w} {m}");
                let back = objective.marginal(lambda, w, f);
                assert!((back - m).abs() <= 1e-9 * m, "{objective:?}: marginal {back} at f = {f}, want {m}");
                let h = m * 1e-6;
                let (up, _) = objective.rate_at(lambda, w, m + h, &mut f64::NAN.clone());
                let (down, _) = objective.rate_at(lambda, w, m - h, &mut f64::NAN.clone());
                let numeric = (up - down) / (2.0 * h);
                assert!((numeric - slope).abs() <= 1e-5 * slope.abs(), "{objective:?} {lambda} {w} {m}: {numeric} vs {slope}");
            }
        }
    }

    /// By hand: λ = w = 1 crawled once a day: binary m = 1/(1+1)² = 1/4, harmonic
    /// m = 1/(1·2) = 1/2; the harmonic rate never reaches 0 and the binary one starves
    /// a page once m ≥ w/λ.
    #[test]
    fn hand_computed_rates() {
        let mut x = f64::NAN;
        assert!((Objective::Binary.rate_at(1.0, 1.0, 0.25, &mut x).0 - 1.0).abs() < 1e-15);
        assert!((Objective::Harmonic.rate_at(1.0, 1.0, 0.5, &mut x).0 - 1.0).abs() < 1e-15);
        assert_eq!(Objective::Binary.rate_at(1.0, 1.0, 1.0, &mut x).0, 0.0);
        assert!(Objective::Harmonic.rate_at(1.0, 1.0, 1e6, &mut x).0 > 0.0);
        assert!((Objective::Binary.value(1.0, 1.0) - 0.5).abs() < 1e-16);
        assert!((Objective::Harmonic.value(1.0, 1.0) - 2f64.ln()).abs() < 1e-16);
        assert_eq!(Objective::Harmonic.value(1.0, 0.0), f64::INFINITY);
        assert_eq!(Objective::Harmonic.value(0.0, 0.0), 0.0);
    }

    /// By hand: an observed page (λ = 2, w = 1) crawled at f = 1 catches half its
    /// changes: freshness 1/2, harmonic staleness ln 2; under harmonic staleness its
    /// rate at m = 1 is w/m = 1, at m = 1/4 all of λ, and w/f is the derivative of
    /// −w ln(f/λ); under both freshness objectives its value w·f/λ has the constant
    /// marginal w/λ = 1/2, so it takes all of λ below m = 1/2 and nothing from there on.
    #[test]
    fn observed_pages_by_hand() {
        assert_eq!(Objective::Binary.observed_value(2.0, 1.0), 0.5);
        assert!((Objective::Harmonic.observed_value(2.0, 1.0) - 2f64.ln()).abs() < 1e-16);
        assert_eq!(Objective::Harmonic.observed_value(2.0, 2.0), 0.0);
        assert_eq!(Objective::Harmonic.observed_value(2.0, 5.0), 0.0, "rates above λ are wasted");
        assert_eq!(Objective::Harmonic.observed_value(2.0, 0.0), f64::INFINITY);
        assert_eq!(Objective::Harmonic.observed_value(0.0, 0.0), 0.0);
        let harmonic = Objective::Harmonic;
        assert_eq!(harmonic.observed_rate_at(2.0, 1.0, 1.0), (1.0, -1.0));
        assert_eq!(harmonic.observed_rate_at(2.0, 1.0, 0.25), (2.0, 0.0));
        assert_eq!(harmonic.observed_rate_at(2.0, 1.0, 0.0), (2.0, 0.0));
        assert_eq!(harmonic.observed_rate_at(2.0, 0.0, 1.0), (0.0, 0.0));
        for (lambda, w, f) in [(2.0, 1.0, 1.0), (10.0, 3.0, 0.01), (0.5, 0.2, 0.499)] {
            for objective in Objective::ALL {
                let h = 1e-6 * f;
                let sign = if objective.is_cost() { -1.0 } else { 1.0 };
                let numeric = sign * (objective.observed_value(lambda, f + h) - objective.observed_value(lambda, f - h)) * w / (2.0 * h);
                let marginal = objective.observed_marginal(lambda, w, f);
                assert!((numeric / marginal - 1.0).abs() < 1e-6, "{objective:?} {lambda} {w} {f}: {numeric} vs {marginal}");
            }
        }
        for objective in [Objective::Freshness, Objective::Binary] {
            assert_eq!(objective.observed_marginal(2.0, 1.0, 0.3), 0.5);
            assert_eq!(objective.observed_rate_at(2.0, 1.0, 0.49), (2.0, 0.0));
            assert_eq!(objective.observed_rate_at(2.0, 1.0, 0.0), (2.0, 0.0));
            assert_eq!(objective.observed_rate_at(2.0, 1.0, 0.5), (0.0, 0.0), "the edge: the solver fills it");
            assert_eq!(objective.observed_rate_at(2.0, 1.0, 3.0), (0.0, 0.0));
        }
        // near p = 1 the value keeps its digits: −ln(1 − 10⁻¹²) = 10⁻¹² + …
        let v = Objective::Harmonic.observed_value(1.0, 1.0 - 1e-12);
        assert!((v / 1e-12 - 1.0).abs() < 1e-3, "{v}");
    }

    /// A tiny q = 4wλ/m against λ²: the stable form keeps every digit where the
    /// textbook (−λ + √(λ² + q))/2 loses them all.
    #[test]
    fn the_harmonic_rate_does_not_cancel() {
        let (lambda, w, m) = (1e4, 1e-6, 1.0);
        let (f, _) = Objective::Harmonic.rate_at(lambda, w, m, &mut f64::NAN.clone());
        // the series in a = w/m: f = a − a²/λ + 2a³/λ² − …
        let a = w / m;
        let series = a - a * a / lambda + 2.0 * a * a * a / (lambda * lambda);
        assert!((f / series - 1.0).abs() < 1e-15, "{f} vs {series}");
        let naive = (-lambda + (lambda * lambda + 4.0 * w * lambda / m).sqrt()) / 2.0;
        assert!((naive / series - 1.0).abs() > 1e-8, "the naive form cancels: {naive}");
    }
}
