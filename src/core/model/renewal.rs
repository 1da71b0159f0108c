//! The expectation behind GREEDY (thesis Def 6.1), computed instead of sampled.
//!
//! An article last changed at b and was last revisited at u, without a change known in
//! between; at t it is worth E[(A(t) − t)·1{ε}] where ε = "changed in (u, t]" and A(t) is
//! the first change after t. With d₀ = u − b, d₁ = t − b and X₁ the interval from b:
//!
//!   E[A(t) − t | ε]·Pr[ε] = (1/Pr[X₁ > d₀]) ∫_{d₀}^{d₁} R(d₁ − x) dF(x),
//!
//! where R(y) = E[first renewal after y] − y for a renewal process started at 0, and
//! R(y) = E[X](1 + M(y)) − y by Wald's identity, M the renewal function. M solves the
//! renewal equation M = F + M ∗ F, which for a histogram (uniform pieces) needs only
//! K(z) = ∫₀ᶻ M: it is solved on a uniform grid with M piecewise linear (the grid step
//! is the one approximation), and the integral above is then a difference of
//! J(z) = ∫₀ᶻ R = E[X](z + K(z)) − z²/2 per bin: O(1) per bin and article.

use crate::core::model::histogram::{BINS, Histogram, IntervalLaw};

/// K and M on the grid 0, h, 2h, …, for one law.
#[derive(Clone, Debug)]
pub struct RenewalTable {
    h: f64,
    inverse_h: f64,
    /// [K(y_i), M(y_i)] side by side: a lookup reads one cache line.
    grid: Vec<[f64; 2]>,
    mean: f64,
    /// E[X²]/(2E[X]²) − 1: M(y) − y/E[X] tends to it (the asymptote beyond the grid).
    offset: f64,
}

impl RenewalTable {
    /// Bytes per grid step (M and K).
    pub const BYTES_PER_STEP: u64 = 16;

    /// Solves the renewal equation of `law` in `steps` steps over [0, horizon], or over
    /// the first 64 mean intervals (at least 4 of the longest) when that is shorter:
    /// beyond them M is on its asymptote y/E[X] + E[X²]/(2E[X]²) − 1 (renewal theorem;
    /// [`Self::asymptote_gap`] says how close it got).
    pub fn new(law: &Histogram, horizon: f64, steps: usize) -> RenewalTable {
        let mean = law.mean();
        let span = horizon.min((64.0 * mean).max(4.0 * law.support_end()));
        let h = span / steps as f64;
        let mut m = Vec::with_capacity(steps + 1);
        let mut k = Vec::with_capacity(steps + 1);
        m.push(law.cdf(0.0));
        k.push(0.0);
        let bins: Vec<(f64, f64, f64)> = (0..BINS).map(|b| law.bin(b)).filter(|b| b.2 > 0.0).collect();
        for j in 1..=steps {
            let y = j as f64 * h;
            // M_j = F(y) + Σ (p/w)[K(y − a) − K(y − min(b, y))] + Σ_point p M(y − a),
            // each term linear in the unknown M_j: c0 + c1·M_j
            let (mut c0, mut c1) = (law.cdf(y), 0.0);
            for &(a, b, p) in &bins {
                if a > y {
                    continue;
                }
                if b == a {
                    let (v0, v1) = Self::m_at(&m, h, j, y - a);
                    c0 += p * v0;
                    c1 += p * v1;
                } else {
                    let (u0, u1) = Self::k_at(&m, &k, h, j, y - a);
                    let (l0, l1) = Self::k_at(&m, &k, h, j, y - b.min(y));
                    let s = p / (b - a);
                    c0 += s * (u0 - l0);
                    c1 += s * (u1 - l1);
                }
            }
            let mj = c0 / (1.0 - c1);
            k.push(k[j - 1] + 0.5 * h * (m[j - 1] + mj));
            m.push(mj);
        }
        let grid = k.into_iter().zip(m).map(|(k, m)| [k, m]).collect();
        RenewalTable { h, inverse_h: 1.0 / h, grid, mean, offset: law.second_moment() / (2.0 * mean * mean) - 1.0 }
    }

    /// M(z) for z ≤ y_j as c0 + c1·M_j (c1 ≠ 0 only in the last step).
    fn m_at(m: &[f64], h: f64, j: usize, z: f64) -> (f64, f64) {
        let i = ((z / h) as usize).min(j - 1);
        let d = (z - i as f64 * h) / h;
        if i + 1 < j { (m[i] + d * (m[i + 1] - m[i]), 0.0) } else { (m[i] * (1.0 - d), d) }
    }

    /// K(z) for z ≤ y_j as c0 + c1·M_j.
    fn k_at(m: &[f64], k: &[f64], h: f64, j: usize, z: f64) -> (f64, f64) {
        let i = ((z / h) as usize).min(j - 1);
        let d = z - i as f64 * h;
        let base = k[i] + d * m[i] - d * d / (2.0 * h) * m[i];
        if i + 1 < j { (base + d * d / (2.0 * h) * m[i + 1], 0.0) } else { (base, d * d / (2.0 * h)) }
    }

    /// K(z) = ∫₀ᶻ M, with the renewal theorem's asymptote beyond the grid.
    fn k(&self, z: f64) -> f64 {
        let last = self.grid.len() - 1;
        let i = (z * self.inverse_h) as usize;
        if i >= last {
            let [k, m] = self.grid[last];
            let d = z - last as f64 * self.h;
            // beyond the grid M grows at 1/E[X] from its last value
            return k + d * m + d * d / (2.0 * self.mean);
        }
        let d = z - i as f64 * self.h;
        let ([k, m], [_, next]) = (self.grid[i], self.grid[i + 1]);
        k + d * m + 0.5 * d * d * self.inverse_h * (next - m)
    }

    /// The renewal function M(y).
    pub fn renewals(&self, y: f64) -> f64 {
        let last = self.grid.len() - 1;
        let i = (y * self.inverse_h) as usize;
        if i >= last {
            return self.grid[last][1] + (y - last as f64 * self.h) / self.mean;
        }
        let d = y * self.inverse_h - i as f64;
        let (m, next) = (self.grid[i][1], self.grid[i + 1][1]);
        m + d * (next - m)
    }

    /// R(y): the expected time from y to the next renewal.
    pub fn residual(&self, y: f64) -> f64 {
        self.mean * (1.0 + self.renewals(y)) - y
    }

    /// The largest R(y) over all y: R is linear between grid points and constant
    /// beyond the grid, so the largest is at a grid point (GREEDY's pruning bound).
    pub fn longest_residual(&self) -> f64 {
        self.grid.iter().enumerate().map(|(i, &[_, m])| self.mean * (1.0 + m) - i as f64 * self.h).fold(0.0, f64::max)
    }

    /// J(z) = ∫₀ᶻ R.
    fn residual_integral(&self, z: f64) -> f64 {
        self.mean * (z + self.k(z)) - 0.5 * z * z
    }

    /// ∫ R over [z0, z1]: a difference of J, or, within one grid step (where R is
    /// linear), the midpoint rule, which is exact there and free of J's cancellation.
    fn residual_between(&self, z0: f64, z1: f64) -> f64 {
        if (z0 * self.inverse_h) as usize == (z1 * self.inverse_h) as usize {
            self.residual(0.5 * (z0 + z1)) * (z1 - z0)
        } else {
            self.residual_integral(z1) - self.residual_integral(z0)
        }
    }

    /// M(y) − y/E[X] at the end of the grid against its limit: how far the grid is from
    /// the stationary regime (for reports).
    pub fn asymptote_gap(&self) -> f64 {
        let last = self.grid.len() - 1;
        self.grid[last][1] - last as f64 * self.h / self.mean - self.offset
    }

    /// E[A(t) − t | ε]·Pr[ε] for d₀ = u − b, d₁ = t − b (Def 6.1), or `None` when the
    /// histogram says the article cannot have gone unchanged for d₀.
    pub fn gain(&self, law: &Histogram, d0: f64, d1: f64) -> Option<f64> {
        let survival = law.survival(d0);
        (survival > 0.0).then(|| self.gain_given(law, d0, d1, survival))
    }

    /// The same, with Pr[X > d₀] > 0 already known; only the bins that meet (d₀, d₁].
    #[inline]
    pub fn gain_given(&self, law: &Histogram, d0: f64, d1: f64, survival: f64) -> f64 {
        let mut sum = 0.0;
        let first = law.edges.partition_point(|&e| e <= d0).saturating_sub(1);
        for b in first..BINS {
            let (a, e, p) = law.bin(b);
            if a > d1 {
                break;
            }
            if p == 0.0 {
                continue;
            }
            if a == e {
                if d0 < a && a <= d1 {
                    sum += p * self.residual(d1 - a);
                }
                continue;
            }
            let (lo, hi) = (a.max(d0), e.min(d1));
            if lo < hi {
                sum += p / (e - a) * self.residual_between(d1 - hi, d1 - lo);
            }
        }
        sum / survival
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::math::elementary::exp;
    use crate::core::rng::{Purpose, Stream};

    /// A law uniform on (0, 1]: nine empty bins of zero width at its end.
    fn uniform01() -> Histogram {
        let mut edges = vec![1.0; BINS + 1];
        edges[0] = 0.0;
        let mut counts = vec![0; BINS];
        counts[0] = 1;
        Histogram::from_counts(edges, counts)
    }

    #[test]
    fn uniform_intervals_have_the_textbook_renewal_function() {
        // for U(0,1) intervals, M(y) = e^y − 1 on [0, 1]
        let law = uniform01();
        let t = RenewalTable::new(&law, 2.0, 4000);
        for y in [0.1, 0.5, 0.9, 1.0] {
            assert!((t.renewals(y) - (exp(y) - 1.0)).abs() < 1e-6, "M({y}) = {} vs {}", t.renewals(y), exp(y) - 1.0);
        }
        // and R(y) → E[X²]/(2E[X]) = 1/3
        let far = RenewalTable::new(&law, 30.0, 30_000);
        assert!((far.residual(29.0) - 1.0 / 3.0).abs() < 1e-5);
        assert!(far.asymptote_gap().abs() < 1e-5);
    }

    /// The thesis's estimator with many samples: X₁ from (d₀, d₁], renewals to d₁.
    fn sampled(law: &Histogram, d0: f64, d1: f64, n: usize, rng: &mut Stream) -> (f64, f64) {
        let (lo, hi) = (law.cdf(d0), law.cdf(d1));
        let p = (hi - lo) / (1.0 - lo);
        let xs: Vec<f64> = (0..n)
            .map(|_| {
                let mut s = law.sample_between(lo, hi, rng);
                while s <= d1 {
                    s += law.sample(rng);
                }
                p * (s - d1)
            })
            .collect();
        crate::core::math::stats::mean_and_half_width(&xs)
    }

    #[test]
    fn gains_agree_with_the_sampled_expectation() {
        let mut rng = Stream::of(11, Purpose::Test, 0);
        // bursty intervals: minutes apart, then days
        let xs: Vec<f64> = (0..600).map(|_| if rng.uniform() < 0.7 { 1.0 + 30.0 * rng.uniform() } else { 500.0 + 5000.0 * rng.uniform() }).collect();
        let law = Histogram::from_intervals(&xs).unwrap();
        let table = RenewalTable::new(&law, 20_000.0, 20_000);
        for (d0, d1) in [(0.0, 10.0), (5.0, 400.0), (100.0, 3000.0), (2000.0, 2100.0), (10.0, 15_000.0)] {
            let exact = table.gain(&law, d0, d1).unwrap();
            let (mean, half) = sampled(&law, d0, d1, 200_000, &mut rng);
            assert!((exact - mean).abs() <= half + 1e-3 * mean.abs(), "({d0}, {d1}): {exact} vs {mean} ± {half}");
        }
        assert_eq!(table.gain(&law, 1e9, 2e9), None, "older than any interval");
        assert_eq!(table.gain(&law, 3000.0, 3000.0), Some(0.0), "no time, no change");
    }
}
