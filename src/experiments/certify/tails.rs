//! The written argument for Eq 5-9 outside a compact region [r₀, R] × [1, C]: three
//! explicit lower bounds, each proved below and evaluated with outward rounding.
//!
//! Notation: g(r, c) = N/D with u = r/c, a = 1 − e^{−u},
//! E = −u − (c − 1)a, N = 1 − e^{E}, D = 1 − e^{−r}.
//!
//! **(A) Small r: r ∈ (0, r₀], every c ≥ 1.** Since e^{−u} ≤ 1 − u + u²/2, a ≥ u − u²/2, so
//! E ≤ −cu + (c − 1)u²/2 = −r + δ with δ = (c − 1)r²/(2c²) ≤ r²/8 ((c − 1)/c² ≤ 1/4).
//! Then g ≥ (1 − e^{−r}e^{δ})/(1 − e^{−r}) = 1 − (e^{δ} − 1)/(e^{r} − 1)
//! ≥ 1 − δe^{δ}/r ≥ 1 − (r/8)e^{r²/8} ≥ 1 − (r₀/8)e^{r₀²/8}.
//!
//! **(B) Large r: r ≥ R, every c ≥ 1.** Since D ≤ 1, g ≥ N = 1 − e^{E}. By concavity,
//! a ≥ k·min(u, 1) with k = 1 − e^{−1}. If u ≤ 1, E ≤ −u(1 + k(c − 1)) ≤ −kcu = −kr.
//! If u ≥ 1, E ≤ −r/c − k(c − 1) ≤ −(2√(kr) − k) (minimum over c at c = √(r/k)).
//! Both grow with r, so g ≥ 1 − e^{−K} with K = min(kR, 2√(kR) − k).
//!
//! **(C) Large c: c ≥ C, every r ∈ (0, R].** As in (A) with (c − 1)/c² ≤ 1/c ≤ 1/C:
//! δ ≤ r²/(2C), so g ≥ 1 − (r/(2C))e^{r²/(2C)} ≥ 1 − (R/(2C))e^{R²/(2C)}.
//!
//! (A), (B), (C) and the compact region [r₀, R] × [1, C] cover r > 0, c ≥ 1.

use crate::core::math::interval::Interval;
use serde::{Deserialize, Serialize};

/// A proved lower bound for one part of the domain, with the argument that proves it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TailBound {
    /// Which part of the domain, e.g. "r ≤ 0.25, c ≥ 1".
    pub part: String,
    /// The bound, rounded down.
    pub bound: f64,
    /// The inequality chain, in words and symbols.
    pub argument: String,
}

fn p(x: f64) -> Interval {
    Interval::point(x)
}

/// 1 − (x/m)·e^{x²/m} rounded down, the shape shared by (A) (m = 8) and (C) (m = 2C).
fn one_minus_scaled_exp(x: f64, m: Interval) -> f64 {
    let x = p(x);
    let t = x / m * (x * x / m).exp();
    (p(1.0) - t).lo
}

/// (A): Eq 5-9 ≥ 1 − (r₀/8)e^{r₀²/8} for r ∈ (0, r₀] and every c ≥ 1.
pub fn small_r(r0: f64) -> TailBound {
    TailBound {
        part: format!("0 < r ≤ {r0}, every c ≥ 1"),
        bound: one_minus_scaled_exp(r0, p(8.0)),
        argument: "a = 1 − e^{−u} ≥ u − u²/2 gives E ≤ −r + δ, δ = (c−1)r²/(2c²) ≤ r²/8; then g ≥ 1 − (e^δ − 1)/(e^r − 1) ≥ 1 − (r/8)e^{r²/8}, which decreases in r".into(),
    }
}

/// (B): Eq 5-9 ≥ 1 − e^{−K}, K = min(kR, 2√(kR) − k), k = 1 − e^{−1}, for r ≥ R, every c.
pub fn large_r(r_max: f64) -> TailBound {
    let k = -p(-1.0).expm1();
    let kr = k * p(r_max);
    let two_sqrt = p(2.0) * kr.sqrt() - k;
    let big_k = kr.min(two_sqrt);
    // 1 − e^{−K} increases in K: use K's lower end
    let bound = (-(-p(big_k.lo)).expm1()).lo;
    TailBound {
        part: format!("r ≥ {r_max}, every c ≥ 1"),
        bound,
        argument: "D ≤ 1 so g ≥ N = 1 − e^E; a ≥ (1 − e^{−1})·min(u, 1) by concavity gives E ≤ −min(kr, 2√(kr) − k), k = 1 − e^{−1}".into(),
    }
}

/// (C): Eq 5-9 ≥ 1 − (R/(2C))e^{R²/(2C)} for c ≥ C and r ∈ (0, R].
pub fn large_c(r_max: f64, c_max: f64) -> TailBound {
    TailBound {
        part: format!("c ≥ {c_max}, 0 < r ≤ {r_max}"),
        bound: one_minus_scaled_exp(r_max, p(2.0) * p(c_max)),
        argument: "as for small r, with (c−1)/c² ≤ 1/C: δ ≤ r²/(2C), so g ≥ 1 − (r/(2C))e^{r²/(2C)}".into(),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::math::freshness::merge_factor;
    use crate::core::rng::{Purpose, Stream};

    /// log-uniform sample in [a, b]
    fn log_uniform(s: &mut Stream, a: f64, b: f64) -> f64 {
        (a.ln() + (b.ln() - a.ln()) * s.uniform()).exp()
    }

    /// Eq 5-9 at 50,000 log-uniform points of the tail's region [r0, r1] × [c0, c1] is at
    /// least the tail's bound; `also` checks more at each point.
    fn holds_on_samples(t: &TailBound, seed: u64, (r0, r1): (f64, f64), (c0, c1): (f64, f64), also: impl Fn(f64, f64)) {
        let mut s = Stream::of(seed, Purpose::Test, 0);
        for _ in 0..50_000 {
            let (r, c) = (log_uniform(&mut s, r0, r1), log_uniform(&mut s, c0, c1));
            assert!(merge_factor(r, c) >= t.bound, "r={r} c={c}");
            also(r, c);
        }
    }

    #[test]
    fn small_r_bound_holds_on_samples() {
        let t = small_r(0.25);
        assert!(t.bound > 0.968 && t.bound < 0.969, "{}", t.bound);
        // and the intermediate step: g ≥ 1 − (r/8)e^{r²/8}
        holds_on_samples(&t, 21, (1e-9, 0.25), (1.0, 1e9), |r, c| assert!(merge_factor(r, c) >= 1.0 - r / 8.0 * (r * r / 8.0).exp() - 1e-15));
    }

    #[test]
    fn large_r_bound_holds_on_samples() {
        let t = large_r(9.0);
        assert!(t.bound > 0.98 && t.bound < 0.99, "{}", t.bound);
        holds_on_samples(&t, 22, (9.0, 1e9), (1.0, 1e9), |_, _| ());
    }

    #[test]
    fn large_c_bound_holds_on_samples() {
        let t = large_c(9.0, 1000.0);
        assert!(t.bound > 0.995 && t.bound < 0.996, "{}", t.bound);
        holds_on_samples(&t, 23, (1e-9, 9.0), (1000.0, 1e12), |_, _| ());
    }

    #[test]
    fn the_concavity_step_of_b() {
        let k = 1.0 - (-1f64).exp();
        let mut s = Stream::of(24, Purpose::Test, 0);
        for _ in 0..10_000 {
            let u = log_uniform(&mut s, 1e-6, 1e3);
            assert!(-(-u).exp_m1() >= k * u.min(1.0) - 1e-15);
        }
    }
}
