//! Estimating a page's change rate λ from what a crawler sees (Cho & Garcia-Molina,
//! "Estimating frequency of change", ACM TOIT 2003): at each visit only whether the
//! page changed since the previous one, and sometimes its last-modified date. The
//! page changes as a Poisson process of rate λ (spec §1.2).

use crate::core::math::elementary::{expm1, ln_1p};
use crate::core::math::roots::increasing_root;
use crate::core::rng::Stream;

/// One interval between two visits, as the crawler saw it at its end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seen {
    /// Length of the interval (days).
    pub interval: f64,
    /// The page changed at least once during the interval.
    pub changed: bool,
    /// With a last-modified date: the time from the last change to the visit (days),
    /// when `changed`.
    pub since_change: f64,
}

/// What a crawler visiting at `visits` (increasing times, the first being the start of
/// observation) sees of a Poisson page of rate `lambda`.
pub fn observe(lambda: f64, visits: &[f64], rng: &mut Stream) -> Vec<Seen> {
    let mut seen = Vec::with_capacity(visits.len().saturating_sub(1));
    let mut next_change = visits.first().copied().unwrap_or(0.0) + rng.exponential(lambda);
    for pair in visits.windows(2) {
        let (start, end) = (pair[0], pair[1]);
        let mut last = f64::NEG_INFINITY;
        while next_change <= end {
            last = next_change;
            next_change += rng.exponential(lambda);
        }
        let changed = last > start;
        seen.push(Seen { interval: end - start, changed, since_change: if changed { end - last } else { 0.0 } });
    }
    seen
}

/// The naive estimator X/T: changes detected over time observed. It counts at most
/// one change a visit, so for regular visits of interval I its mean is
/// (1 − e^{−λI})/I, below λ.
pub fn naive(seen: &[Seen]) -> f64 {
    let (x, t) = seen.iter().fold((0.0, 0.0), |(x, t), s| (x + s.changed as u8 as f64, t + s.interval));
    if t > 0.0 { x / t } else { 0.0 }
}

/// Cho & Garcia-Molina's bias-reduced estimator for n regular visits of interval I
/// with X detected changes: −ln((n − X + 0.5)/(n + 0.5))/I, written with ln(1 + ·)
/// as −ln_1p(−X/(n + 0.5))/I. Finite even when every visit saw a change.
pub fn bias_reduced(n: u64, x: u64, interval: f64) -> f64 {
    let (n, x) = (n as f64, x as f64);
    -ln_1p(-x / (n + 0.5)) / interval
}

/// The same from the intervals seen (all of length I).
pub fn bias_reduced_seen(seen: &[Seen]) -> f64 {
    let x = seen.iter().filter(|s| s.changed).count() as u64;
    let interval = seen.first().map_or(1.0, |s| s.interval);
    bias_reduced(seen.len() as u64, x, interval)
}

/// From last-modified dates, the likelihood's estimator: a changed interval says the
/// last change came `since_change` before the visit (density λe^{−λ·since}), an
/// unchanged one that none came in the whole interval (e^{−λ·interval}); the maximum
/// is X/S with S the time known to be free of changes.
pub fn last_modified(seen: &[Seen]) -> f64 {
    let (x, s) = seen.iter().fold((0.0, 0.0), |(x, s), v| if v.changed { (x + 1.0, s + v.since_change) } else { (x, s + v.interval) });
    if x == 0.0 { 0.0 } else { x / s }
}

/// The maximum-likelihood estimator for visits at any intervals, from changed/unchanged
/// alone: the root of Σ_changed tᵢ/(e^{λtᵢ} − 1) = Σ_unchanged tⱼ (e^{λt} − 1 taken by
/// expm1). 0 when no change was seen; +∞ (no finite maximum) when every interval
/// changed.
pub fn maximum_likelihood(seen: &[Seen]) -> f64 {
    let unchanged: f64 = seen.iter().filter(|s| !s.changed).map(|s| s.interval).sum();
    maximum_likelihood_from(seen.iter().filter(|s| s.changed).map(|s| s.interval), unchanged)
}

/// The same from the lengths of the intervals that changed and the total length of
/// those that did not.
pub fn maximum_likelihood_from(changed: impl Iterator<Item = f64> + Clone, unchanged: f64) -> f64 {
    let (count, total) = changed.clone().fold((0usize, 0.0), |(n, t), x| (n + 1, t + x));
    if count == 0 {
        return 0.0;
    }
    if unchanged == 0.0 {
        return f64::INFINITY;
    }
    // increasing in λ: from −∞ near 0 to Σ_unchanged at ∞
    let h = |lambda: f64| unchanged - changed.clone().map(|t| t / expm1(lambda * t)).sum::<f64>();
    increasing_root(h, count as f64 / (unchanged + total))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::math::elementary::exp;
    use crate::core::rng::Purpose;

    /// Mean and 99.9 % half-width (normal approximation) of `f` over `runs` samples.
    fn mean_ci(runs: u64, mut f: impl FnMut(u64) -> f64) -> (f64, f64) {
        let values: Vec<f64> = (0..runs).map(&mut f).collect();
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
        (mean, 3.29 * (var / n).sqrt())
    }

    fn regular(n: usize, interval: f64) -> Vec<f64> {
        (0..=n).map(|k| k as f64 * interval).collect()
    }

    /// A hand-made case: visits at 0, 1, 3, 4; changes at 0.5 and 2.5 and 2.8.
    #[test]
    fn hand_computed_observations_and_estimates() {
        let seen = [
            Seen { interval: 1.0, changed: true, since_change: 0.5 },
            Seen { interval: 2.0, changed: true, since_change: 0.2 },
            Seen { interval: 1.0, changed: false, since_change: 0.0 },
        ];
        assert_eq!(naive(&seen), 2.0 / 4.0);
        assert_eq!(last_modified(&seen), 2.0 / (0.5 + 0.2 + 1.0));
        // the likelihood equation by hand: 1/(e^λ − 1) + 2/(e^{2λ} − 1) = 1
        let l = maximum_likelihood(&seen);
        assert!((1.0 / (exp(l) - 1.0) + 2.0 / (exp(2.0 * l) - 1.0) - 1.0).abs() < 1e-12, "{l}");
        assert_eq!(bias_reduced(4, 0, 1.0), 0.0);
        assert!((bias_reduced(4, 4, 1.0) - (4.5f64 / 0.5).ln()).abs() < 1e-15);
        assert_eq!(maximum_likelihood(&seen[..2]), f64::INFINITY, "every interval changed: no finite maximum");
        assert_eq!(maximum_likelihood(&seen[2..]), 0.0);
    }

    /// The simulated crawler sees a change in an interval I with probability 1 − e^{−λI}.
    #[test]
    fn observation_matches_the_poisson_law() {
        let (lambda, interval) = (0.7, 1.3);
        let mut rng = Stream::of(1, Purpose::Test, 0);
        let seen = observe(lambda, &regular(200_000, interval), &mut rng);
        let share = seen.iter().filter(|s| s.changed).count() as f64 / seen.len() as f64;
        let p = 1.0 - exp(-lambda * interval);
        let half = 3.29 * (p * (1.0 - p) / seen.len() as f64).sqrt();
        assert!((share - p).abs() < half, "{share} vs {p} ± {half}");
        // time since the last change in a changed interval: mean 1/λ − I e^{−λI}/(1 − e^{−λI})
        let since: Vec<f64> = seen.iter().filter(|s| s.changed).map(|s| s.since_change).collect();
        let mean = since.iter().sum::<f64>() / since.len() as f64;
        let want = 1.0 / lambda - interval * exp(-lambda * interval) / p;
        assert!((mean - want).abs() < 0.01 * want, "{mean} vs {want}");
    }

    /// Regular visits: the naive estimator's mean is (1 − e^{−λI})/I, exactly; the
    /// bias-reduced one's mean is the sum over the binomial law of X (computed here
    /// independently), and it stays within 0.1 % of λ up to λI = 2 with n = 50, where the
    /// naive one's mean (1 − e^{−2})/2 is 78 % low.
    #[test]
    fn regular_visits_have_the_stated_bias() {
        let (n, interval) = (50usize, 1.0);
        for (k, lambda) in [0.1, 0.5, 1.0, 2.0].into_iter().enumerate() {
            let p = 1.0 - exp(-lambda * interval);
            let visits = regular(n, interval);
            let mut rng = Stream::of(7, Purpose::Test, k as u64);
            let runs: Vec<Vec<Seen>> = (0..4000).map(|_| observe(lambda, &visits, &mut rng)).collect();
            let (naive_mean, naive_half) = mean_ci(runs.len() as u64, |r| naive(&runs[r as usize]));
            let want = p / interval;
            assert!((naive_mean - want).abs() < naive_half, "λ = {lambda}: naive {naive_mean} vs {want} ± {naive_half}");
            let (mean, half) = mean_ci(runs.len() as u64, |r| bias_reduced_seen(&runs[r as usize]));
            // E = Σ_x C(n, x) p^x (1 − p)^{n−x} r̂(x), the binomial weights by recurrence
            let mut weight = (1.0 - p).powi(n as i32);
            let mut exact = 0.0;
            for x in 0..=n {
                exact += weight * bias_reduced(n as u64, x as u64, interval);
                weight *= (n - x) as f64 / (x + 1) as f64 * p / (1.0 - p);
            }
            assert!((mean - exact).abs() < half, "λ = {lambda}: bias-reduced {mean} vs {exact} ± {half}");
            assert!((exact / lambda - 1.0).abs() < 1e-3, "λ = {lambda}: bias-reduced mean {exact}");
        }
    }

    /// Irregular visits (exponential gaps of mean 1 day): the maximum-likelihood and
    /// last-modified estimators are consistent (within 2 % of λ at 2,000 visits, the
    /// mean over runs inside its confidence interval around λ to first order), where
    /// the naive one is biased low.
    #[test]
    fn irregular_visits_are_estimated_by_likelihood() {
        for (k, lambda) in [0.2, 1.0, 3.0].into_iter().enumerate() {
            let mut rng = Stream::of(11, Purpose::Test, k as u64);
            let runs: Vec<Vec<Seen>> = (0..200)
                .map(|_| {
                    let mut t = 0.0;
                    let visits: Vec<f64> = (0..2001)
                        .map(|_| {
                            let now = t;
                            t += rng.exponential(1.0);
                            now
                        })
                        .collect();
                    observe(lambda, &visits, &mut rng)
                })
                .collect();
            for (name, estimator) in [("maximum likelihood", maximum_likelihood as fn(&[Seen]) -> f64), ("last-modified", last_modified)] {
                let (mean, half) = mean_ci(runs.len() as u64, |r| estimator(&runs[r as usize]));
                assert!((mean / lambda - 1.0).abs() < 0.02 && (mean - lambda).abs() < half + 0.002 * lambda, "λ = {lambda}: {name} {mean} ± {half}");
            }
            let (naive_mean, _) = mean_ci(runs.len() as u64, |r| naive(&runs[r as usize]));
            assert!(naive_mean < 0.97 * lambda, "λ = {lambda}: naive {naive_mean}");
        }
    }
}
