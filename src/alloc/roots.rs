//! Root finding for monotone functions (the allocations' multipliers).

/// A root of an increasing `h` on (0, ∞), starting from the guess `x0 > 0`: brackets by
/// doubling, then Illinois regula falsi to full precision.
pub fn increasing_root(mut h: impl FnMut(f64) -> f64, x0: f64) -> f64 {
    let x0 = if x0.is_finite() && x0 > 0.0 { x0 } else { 1.0 };
    let (mut a, mut b) = (x0, x0);
    let (mut ha, mut hb) = (h(a), h(b));
    while ha > 0.0 {
        a /= 2.0;
        ha = h(a);
        if a < 1e-300 {
            return a;
        }
    }
    while hb < 0.0 {
        b *= 2.0;
        hb = h(b);
        if b > 1e300 {
            return b;
        }
    }
    illinois(&mut h, a, ha, b, hb)
}

/// A root of a decreasing `h` on (0, ∞).
pub fn decreasing_root(mut h: impl FnMut(f64) -> f64, x0: f64) -> f64 {
    increasing_root(|x| -h(x), x0)
}

/// Illinois regula falsi on [a, b] with h(a) ≤ 0 ≤ h(b).
fn illinois(h: &mut impl FnMut(f64) -> f64, mut a: f64, mut ha: f64, mut b: f64, mut hb: f64) -> f64 {
    let mut side = 0;
    for _ in 0..200 {
        if ha == 0.0 {
            return a;
        }
        if hb == 0.0 || (b - a) <= 1e-15 * b {
            return b;
        }
        let mut x = (a * hb - b * ha) / (hb - ha);
        if !(x > a && x < b) {
            x = 0.5 * (a + b);
        }
        let hx = h(x);
        if hx < 0.0 {
            a = x;
            ha = hx;
            if side == -1 {
                hb *= 0.5;
            }
            side = -1;
        } else {
            b = x;
            hb = hx;
            if side == 1 {
                ha *= 0.5;
            }
            side = 1;
        }
    }
    0.5 * (a + b)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn finds_roots_of_monotone_functions() {
        let r = increasing_root(|x| x * x * x - 27.0, 0.001);
        assert!((r - 3.0).abs() < 1e-12);
        let r = decreasing_root(|x| 1.0 / x - 4.0, 1e6);
        assert!((r - 0.25).abs() < 1e-14);
        // piecewise linear with a kink
        let r = increasing_root(|x| x.min(2.0) + 0.5 * x - 3.0, 1.0);
        assert!((r - 2.0).abs() < 1e-12);
    }
}
