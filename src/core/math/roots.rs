//! Root finding for monotone functions (the allocations' multipliers, the change-rate
//! estimators' likelihood equations): bracketing by
//! factors of two, then Brent's method on the logarithm of the argument.

use crate::core::math::elementary::{exp, ln};

/// A root of an increasing `h` on (0, ∞), starting from the guess `x0 > 0`.
pub fn increasing_root(mut h: impl FnMut(f64) -> f64, x0: f64) -> f64 {
    let x0 = if x0.is_finite() && x0 > 0.0 { x0 } else { 1.0 };
    let step = ln(2.0);
    let mut g = |t: f64| h(exp(t));
    let (mut a, mut b) = (ln(x0), ln(x0));
    let (mut ga, mut gb) = (g(a), g(a));
    if ga > 0.0 {
        while ga > 0.0 {
            b = a;
            gb = ga;
            a -= step;
            ga = g(a);
            if a < -690.0 {
                return exp(a);
            }
        }
    } else {
        while gb < 0.0 {
            a = b;
            ga = gb;
            b += step;
            gb = g(b);
            if b > 690.0 {
                return exp(b);
            }
        }
    }
    exp(brent(&mut g, a, ga, b, gb))
}

/// The root of S(m) = target for a positive, decreasing S with known slope, by Newton's
/// method on ln S against ln m (nearly linear for these sums), kept inside a bracket
/// and falling back to bisection. `s` returns (S(m), S'(m)).
pub fn newton_root_decreasing(mut s: impl FnMut(f64) -> (f64, f64), target: f64, m0: f64) -> f64 {
    let mut t = ln(if m0.is_finite() && m0 > 0.0 { m0 } else { 1.0 });
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY); // φ(lo) > 0 > φ(hi)
    for _ in 0..300 {
        let m = exp(t);
        let (value, slope) = s(m);
        if value == target {
            return m;
        }
        if value > target {
            lo = lo.max(t)
        } else {
            hi = hi.min(t)
        }
        let newton = if value > 0.0 && slope < 0.0 {
            // φ = ln(S/target), φ' = m S'/S
            t - ln(value / target) / (m * slope / value)
        } else {
            f64::NAN
        };
        let next = if newton > lo && newton < hi {
            newton
        } else if lo.is_finite() && hi.is_finite() {
            0.5 * (lo + hi)
        } else if value > target {
            t + 1.0
        } else {
            t - 1.0
        };
        if (next - t).abs() <= 2e-15 * t.abs().max(1.0) || (hi - lo) <= 4.0 * f64::EPSILON * t.abs().max(1.0) {
            return exp(next);
        }
        t = next;
    }
    exp(t)
}

/// Brent's method on [a, b] with g(a) ≤ 0 ≤ g(b), to an absolute tolerance of a few
/// ulps of the logarithm (relative 1e-15 on the argument).
pub(crate) fn brent(g: &mut impl FnMut(f64) -> f64, a: f64, fa: f64, b: f64, fb: f64) -> f64 {
    let (mut a, mut fa, mut b, mut fb) = (a, fa, b, fb);
    if fa.abs() < fb.abs() {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut fa, &mut fb);
    }
    let (mut c, mut fc) = (a, fa);
    let mut d = b - a;
    let mut bisected = true;
    for _ in 0..200 {
        if fb == 0.0 || (b - a).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0) {
            return b;
        }
        let mut s = if fa != fc && fb != fc {
            // inverse quadratic interpolation
            a * fb * fc / ((fa - fb) * (fa - fc)) + b * fa * fc / ((fb - fa) * (fb - fc)) + c * fa * fb / ((fc - fa) * (fc - fb))
        } else {
            b - fb * (b - a) / (fb - fa)
        };
        let lo = (3.0 * a + b) / 4.0;
        let outside = !((s > lo.min(b) && s < lo.max(b)) || (s > b.min(lo) && s < b.max(lo)));
        let tol = 4.0 * f64::EPSILON * b.abs().max(1.0);
        if outside
            || (bisected && (s - b).abs() >= (b - c).abs() / 2.0)
            || (!bisected && (s - b).abs() >= (c - d).abs() / 2.0)
            || (bisected && (b - c).abs() < tol)
            || (!bisected && (c - d).abs() < tol)
        {
            s = (a + b) / 2.0;
            bisected = true;
        } else {
            bisected = false;
        }
        let fs = g(s);
        d = c;
        c = b;
        fc = fb;
        if fa * fs < 0.0 {
            b = s;
            fb = fs;
        } else {
            a = s;
            fa = fs;
        }
        if fa.abs() < fb.abs() {
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut fa, &mut fb);
        }
    }
    b
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use std::cell::Cell;

    #[test]
    fn finds_roots_of_monotone_functions() {
        let r = increasing_root(|x| x * x * x - 27.0, 0.001);
        assert!((r - 3.0).abs() < 1e-12);
        let r = increasing_root(|x| 4.0 - 1.0 / x, 1e6);
        assert!((r - 0.25).abs() < 1e-14);
        // piecewise linear with a kink
        let r = increasing_root(|x| x.min(2.0) + 0.5 * x - 3.0, 1.0);
        assert!((r - 2.0).abs() < 1e-12);
    }

    #[test]
    fn newton_on_a_decreasing_sum() {
        // S(m) = Σ a_k / m^{p_k}, decreasing; its slope is known
        let terms = [(2.0, 0.5), (5.0, 1.0), (0.3, 2.0)];
        let calls = Cell::new(0);
        let s = |m: f64| {
            calls.set(calls.get() + 1);
            terms.iter().fold((0.0, 0.0), |(v, d), &(a, p)| (v + a * m.powf(-p), d - p * a * m.powf(-p - 1.0)))
        };
        let m = newton_root_decreasing(s, 3.0, 1e-3);
        assert!((s(m).0 - 3.0).abs() < 1e-13);
        assert!(calls.get() < 20, "{} evaluations", calls.get());
    }

    #[test]
    fn a_cliff_with_infinite_slope_converges_quickly() {
        // like Σf(μ): falls to zero with an infinite slope, 1/ln(1/(1 − y)) near the edge
        let calls = Cell::new(0);
        let h = |m: f64| {
            calls.set(calls.get() + 1);
            let y = (m / 3.0).min(1.0);
            let f = if y >= 1.0 { 0.0 } else { 1.0 / (1.0 + (-(1.0 - y).ln())) };
            0.05 - f
        };
        let r = increasing_root(h, 0.5);
        // the function is ill-conditioned there: check the root, not the value
        assert!((r - 3.0 * (1.0 - (-19f64).exp())).abs() < 1e-12, "root {r}");
        assert!(calls.get() < 80, "{} evaluations", calls.get());
    }
}
