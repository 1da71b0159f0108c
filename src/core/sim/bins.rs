//! Freshness over time: weighted fresh time accumulated in equal time bins.

use crate::core::math::elementary::{exp, expm1};
use serde::{Deserialize, Serialize};

/// `n` bins covering [0, horizon). Each bin holds Σ w × (fresh time inside the bin).
/// Serialised as they are (a part of a split run hands its servers' bins over whole, so
/// that joining them adds the same numbers in the same order as one run does).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeBins {
    width: f64,
    horizon: f64,
    direct: Vec<f64>,
    /// Difference array for whole bins: bin k gets Σ_{j≤k} step[j].
    step: Vec<f64>,
}

impl TimeBins {
    pub fn new(horizon: f64, n: usize) -> Self {
        TimeBins { width: horizon / n as f64, horizon, direct: vec![0.0; n], step: vec![0.0; n + 1] }
    }

    /// The time the bins cover (days).
    pub fn horizon(&self) -> f64 {
        self.horizon
    }

    pub fn len(&self) -> usize {
        self.direct.len()
    }

    pub fn is_empty(&self) -> bool {
        self.direct.is_empty()
    }

    pub fn width(&self) -> f64 {
        self.width
    }

    fn bin(&self, t: f64) -> usize {
        ((t / self.width) as usize).min(self.direct.len() - 1)
    }

    /// Adds weight `w` over [a, b): fresh throughout (exact estimator). O(1). Returns
    /// what it added (w × the part of [a, b) within the horizon).
    pub fn add_interval(&mut self, a: f64, b: f64, w: f64) -> f64 {
        let (a, b) = (a.max(0.0), b.min(self.horizon));
        if b <= a {
            return 0.0;
        }
        let (ka, kb) = (self.bin(a), self.bin(b));
        if ka == kb {
            self.direct[ka] += w * (b - a);
            return w * (b - a);
        }
        self.direct[ka] += w * ((ka + 1) as f64 * self.width - a);
        self.direct[kb] += w * (b - kb as f64 * self.width);
        if kb > ka + 1 {
            self.step[ka + 1] += w * self.width;
            self.step[kb] -= w * self.width;
        }
        w * (b - a)
    }

    /// Adds w·e^{−λ(x − t0)} over x ∈ [a, b), a ≥ t0: the expected freshness of a page
    /// last refreshed at t0 that changes at rate λ (expected-value estimator).
    /// Bins are walked with a geometric recurrence, stopping once terms vanish. Returns
    /// what it added.
    pub fn add_decay(&mut self, t0: f64, a: f64, b: f64, w: f64, lambda: f64) -> f64 {
        let (a, b) = (a.max(0.0), b.min(self.horizon));
        if b <= a {
            return 0.0;
        }
        if lambda == 0.0 {
            return self.add_interval(a, b, w);
        }
        // ∫_u^v w e^{−λ(x − t0)} dx, skipping e^0 when the piece starts at t0
        let integral = |u: f64, v: f64| {
            let start = if u == t0 { 1.0 } else { exp(-lambda * (u - t0)) };
            w * start * -expm1(-lambda * (v - u)) / lambda
        };
        let (ka, kb) = (self.bin(a), self.bin(b));
        if ka == kb {
            let added = integral(a, b);
            self.direct[ka] += added;
            return added;
        }
        let first_end = (ka + 1) as f64 * self.width;
        let mut added = integral(a, first_end);
        self.direct[ka] += added;
        // whole bins: term_k = w e^{−λ(start_k − t0)} (1 − e^{−λΔ})/λ, ratio e^{−λΔ}
        let whole = -expm1(-lambda * self.width);
        let ratio = 1.0 - whole;
        let mut term = w * exp(-lambda * (first_end - t0)) * whole / lambda;
        let mut k = ka + 1;
        while k < kb {
            self.direct[k] += term;
            added += term;
            term *= ratio;
            k += 1;
            if term < 1e-300 {
                return added;
            }
        }
        let last = integral(kb as f64 * self.width, b);
        self.direct[kb] += last;
        added + last
    }

    /// Σ w × fresh time per bin.
    pub fn totals(&self) -> Vec<f64> {
        let mut running = 0.0;
        self.direct
            .iter()
            .enumerate()
            .map(|(k, d)| {
                running += self.step[k];
                d + running
            })
            .collect()
    }

    /// Adds another set of bins of the same shape.
    pub fn merge(&mut self, other: &TimeBins) {
        for (a, b) in self.direct.iter_mut().zip(&other.direct) {
            *a += b;
        }
        for (a, b) in self.step.iter_mut().zip(&other.step) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn intervals_split_over_bins() {
        let mut b = TimeBins::new(10.0, 5);
        b.add_interval(1.0, 7.5, 2.0);
        assert_eq!(b.totals(), vec![2.0, 4.0, 4.0, 3.0, 0.0]);
        b.add_interval(-3.0, 0.5, 1.0);
        b.add_interval(9.0, 20.0, 1.0);
        assert_eq!(b.totals(), vec![2.5, 4.0, 4.0, 3.0, 1.0]);
    }

    #[test]
    fn decay_integrates_the_exponential() {
        let (lambda, t0) = (0.3, 1.0);
        let mut b = TimeBins::new(20.0, 8);
        b.add_decay(t0, 1.0, 17.0, 1.5, lambda);
        let totals = b.totals();
        let exact = |u: f64, v: f64| 1.5 * ((-lambda * (u - t0)).exp() - (-lambda * (v - t0)).exp()) / lambda;
        let w = 2.5;
        for (k, got) in totals.iter().enumerate() {
            let (u, v) = ((k as f64 * w).max(1.0), ((k + 1) as f64 * w).min(17.0));
            let want = if v > u { exact(u, v) } else { 0.0 };
            assert!((got - want).abs() < 1e-12, "bin {k}: {got} vs {want}");
        }
        let sum: f64 = totals.iter().sum();
        assert!((sum - exact(1.0, 17.0)).abs() < 1e-12);
    }

    #[test]
    fn zero_rate_decay_is_an_interval() {
        let mut a = TimeBins::new(4.0, 4);
        let mut b = TimeBins::new(4.0, 4);
        a.add_decay(0.2, 0.5, 3.5, 1.0, 0.0);
        b.add_interval(0.5, 3.5, 1.0);
        assert_eq!(a.totals(), b.totals());
    }
}
