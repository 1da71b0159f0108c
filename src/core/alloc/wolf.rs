//! The allocation of Wolf et al. (WWW 2002) as the thesis's chapter 6 uses it (spec §2):
//! revisit frequencies that minimise the repository's staleness with per-page equally
//! spaced visits, for any law of the time between changes.
//!
//! A page refreshed every T at a random phase of its renewal process is fresh a share
//! H(T)/T of the time (1 − Wolf's staleness), so the problem is: maximise
//! Σ f_i H_i(1/f_i) subject to Σ f_i = C. It is concave and separable; at the optimum
//! every revisited page has the same marginal gain H_i(T_i) − T_i G_i(T_i) = ν, and a
//! page whose gain cannot reach ν (its E[X²]/2E[X] ≤ ν) is not revisited — the same
//! KKT structure as OPT_UNPOLITE, which it reproduces for exponential laws. Continuous
//! frequencies stand for Wolf's integer visit counts [reading].

use super::Kkt;
use crate::core::math::roots::increasing_root;
use crate::core::model::histogram::IntervalLaw;

/// The interval T at which `law`'s marginal gain is ν (0 < ν < mean_residual):
/// Newton on the increasing gain (its slope is T·Pr[X > T]/E[X]) inside a bracket.
pub fn interval_at<L: IntervalLaw>(law: &L, nu: f64) -> f64 {
    let mean = law.mean();
    let (mut lo, mut hi) = (0.0, law.support_end());
    if !hi.is_finite() {
        hi = mean;
        while law.marginal(hi) < nu {
            lo = hi;
            hi *= 2.0;
        }
    }
    let mut t = 0.5 * (lo + hi);
    for _ in 0..200 {
        let r = law.marginal(t) - nu;
        if r == 0.0 {
            return t;
        }
        if r < 0.0 {
            lo = t
        } else {
            hi = t
        }
        let slope = t * (1.0 - law.cdf(t)) / mean;
        let newton = t - r / slope;
        let next = if slope > 0.0 && newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
        if (next - t).abs() <= 1e-15 * t || hi - lo <= 1e-15 * hi {
            return next;
        }
        t = next;
    }
    t
}

/// Frequencies (per unit time) adding up to `capacity`, with the optimality residuals.
pub fn allocate<L: IntervalLaw>(laws: &[L], capacity: f64) -> (Vec<f64>, Kkt) {
    let ceilings: Vec<f64> = laws.iter().map(|l| l.mean_residual()).collect();
    let frequency = |law: &L, ceiling: f64, nu: f64| {
        if nu < ceiling { 1.0 / interval_at(law, nu) } else { 0.0 }
    };
    let spend = |nu: f64| laws.iter().zip(&ceilings).map(|(l, &c)| frequency(l, c, nu)).sum::<f64>();
    // start where every page would be visited at the uniform rate
    let uniform = laws.len() as f64 / capacity;
    let mut guess: Vec<f64> = laws.iter().map(|l| l.marginal(uniform)).collect();
    guess.sort_by(f64::total_cmp);
    let nu = increasing_root(|nu| capacity - spend(nu), guess[guess.len() / 2]);
    let f: Vec<f64> = laws.iter().zip(&ceilings).map(|(l, &c)| frequency(l, c, nu)).collect();
    let mut kkt = Kkt { multiplier: nu, stationarity: 0.0, excluded: 0.0, cap_excess: 0.0, slackness: 0.0, total: (f.iter().sum::<f64>() - capacity).abs() / capacity };
    for ((law, &fi), &ceiling) in laws.iter().zip(&f).zip(&ceilings) {
        if fi > 0.0 {
            kkt.stationarity = kkt.stationarity.max((law.marginal(1.0 / fi) - nu).abs() / nu);
        } else {
            kkt.excluded = kkt.excluded.max((ceiling - nu) / nu);
        }
    }
    (f, kkt)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::model::histogram::{Exponential, Histogram};
    use crate::core::model::repository::Repository;
    use crate::core::rng::{Purpose, Stream};

    #[test]
    fn exponential_laws_give_opt_unpolite() {
        let mut rng = Stream::of(2, Purpose::Test, 0);
        let rates: Vec<f64> = (0..300).map(|_| 0.01 * (1000.0f64).powf(rng.uniform())).collect();
        let laws: Vec<Exponential> = rates.iter().map(|&rate| Exponential { rate }).collect();
        for capacity in [0.5, 5.0, 50.0] {
            let (f, kkt) = allocate(&laws, capacity);
            assert!(kkt.worst() < 1e-9, "{kkt:?}");
            let repo = Repository::from_servers(std::slice::from_ref(&rates));
            let (g, _) = crate::core::alloc::opt::optimal(&repo, capacity, None);
            for (a, b) in f.iter().zip(&g) {
                assert!((a - b).abs() <= 1e-7 * capacity / 300.0, "capacity {capacity}: {a} vs {b}");
            }
            // pages left out are those that change fastest, when capacity is short
            if capacity == 0.5 {
                assert!(f.contains(&0.0));
            }
        }
    }

    #[test]
    fn histogram_laws_meet_the_optimality_conditions() {
        let mut rng = Stream::of(3, Purpose::Test, 0);
        let laws: Vec<Histogram> = (0..200)
            .map(|k| {
                let scale = 10.0 * (1.0 + k as f64);
                let xs: Vec<f64> = (0..300).map(|_| scale * rng.exponential(1.0) * if rng.uniform() < 0.3 { 20.0 } else { 0.2 }).collect();
                Histogram::from_intervals(&xs).unwrap()
            })
            .collect();
        for capacity in [0.05, 1.0, 20.0] {
            let (f, kkt) = allocate(&laws, capacity);
            assert!(kkt.worst() < 1e-9, "{capacity}: {kkt:?}");
            // no small shift of frequency between two pages improves the freshness
            let value = |f: &[f64]| laws.iter().zip(f).map(|(l, &x)| if x > 0.0 { x * l.excess_integral(1.0 / x) / l.mean() } else { 0.0 }).sum::<f64>();
            let best = value(&f);
            let (i, j) = (3, 150);
            for d in [1e-4, -1e-4] {
                let mut g = f.clone();
                let step = d * f[i].min(f[j]).max(1e-9);
                g[i] += step;
                g[j] -= step;
                if g[i] >= 0.0 && g[j] >= 0.0 {
                    assert!(value(&g) <= best + 1e-12 * best);
                }
            }
        }
    }

    #[test]
    fn a_histogram_of_exponential_samples_loses_little_freshness() {
        // 10 bins cannot follow an exponential closely, so the allocations differ; the
        // freshness they reach under the true Poisson changes is near the optimum when
        // bandwidth is ample and measurably below it when it is scarce (which pages to
        // leave out hinges on the tail the bins blur)
        let mut rng = Stream::of(5, Purpose::Test, 1);
        let rates = [0.2, 1.0, 5.0, 0.05];
        let laws: Vec<Histogram> = rates.iter().map(|&r| Histogram::from_intervals(&(0..200_000).map(|_| rng.exponential(r)).collect::<Vec<_>>()).unwrap()).collect();
        let exact: Vec<Exponential> = rates.iter().map(|&rate| Exponential { rate }).collect();
        let freshness = |f: &[f64]| exact.iter().zip(f).map(|(l, &x)| if x > 0.0 { l.spaced_freshness(1.0 / x) } else { 0.0 }).sum::<f64>() / 4.0;
        for (capacity, tolerance) in [(0.3, 0.08), (3.0, 0.01), (30.0, 1e-4)] {
            let (f, _) = allocate(&laws, capacity);
            let (g, _) = allocate(&exact, capacity);
            let (a, b) = (freshness(&f), freshness(&g));
            assert!(a <= b + 1e-12 && b - a < tolerance * b, "capacity {capacity}: {a} vs optimum {b}");
        }
    }
}
