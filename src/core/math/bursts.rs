//! Lemma 5.10: bursts on the download channel when n elements are each requested at
//! equally spaced times (thesis §5.4, spec §1.1).

use super::elementary::{exp, ln_1p};

/// φ(t) = (1 + t)·ln(1 + t) − t, computed without cancellation for small t
/// (series Σ_{k≥2} (−t)^k / (k(k−1)), since φ(t) ≈ t²/2 when t → 0).
fn phi(t: f64) -> f64 {
    if t.abs() < 0.05 {
        let mut sum = 0.0;
        let mut power = t * t; // t^k with k = 2
        for k in 2..40 {
            let term = power / (k * (k - 1)) as f64;
            sum += if k % 2 == 0 { term } else { -term };
            if term.abs() < 1e-18 * sum.abs() {
                break;
            }
            power *= t;
        }
        sum
    } else {
        (1.0 + t) * ln_1p(t) - t
    }
}

/// Natural logarithm of the Eq 5-11 bound: ln(e^x (n/(n+x))^{n+x}) = −n·φ(x/n).
pub fn ln_burst_bound(n: f64, x: f64) -> f64 {
    -n * phi(x / n)
}

/// Eq 5-11: Pr[X_t > E[X_t] + x] < e^x (n/(n+x))^{n+x}, for n equally spaced streams.
/// Valid for any window length t; the bound is 1 at x = 0 and decreases in x.
pub fn burst_bound(n: f64, x: f64) -> f64 {
    exp(ln_burst_bound(n, x))
}

/// The smallest excess x whose Eq 5-11 bound is at most `probability`
/// (e.g. 160 for n = 5,462 and 10 %, the thesis's WEBBASE example).
pub fn excess_for_probability(n: f64, probability: f64) -> f64 {
    let target = probability.ln();
    let mut hi = 1.0;
    while ln_burst_bound(n, hi) > target {
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if ln_burst_bound(n, mid) > target {
            lo = mid
        } else {
            hi = mid
        }
        if hi - lo <= 1e-12 * hi {
            break;
        }
    }
    hi
}

/// Eq 5-10: E[X_t] = t·f, the expected number of requests in a window of length t.
pub fn expected_requests(t: f64, total_frequency: f64) -> f64 {
    t * total_frequency
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn bound_matches_direct_formula_where_that_is_accurate() {
        for (n, x) in [(5.0f64, 3.0f64), (50.0, 40.0), (5000.0, 200.0), (10.0, 100.0)] {
            let direct: f64 = x.exp() * (n / (n + x)).powf(n + x);
            let ours = burst_bound(n, x);
            assert!((ours - direct).abs() <= 1e-12 * direct, "n={n} x={x}: {ours} vs {direct}");
        }
    }

    #[test]
    fn series_and_closed_form_of_phi_agree_at_the_switch() {
        for t in [0.049_999f64, 0.05, 0.050_001, -0.049_999] {
            let closed = (1.0 + t) * f64::ln_1p(t) - t;
            assert!((phi(t) - closed).abs() < 1e-15, "t={t}");
        }
    }

    #[test]
    fn webbase_worked_example_of_section_5_4() {
        // 5,462 servers: fewer than 10 % of windows exceed their mean by more than 160.
        assert!(burst_bound(5462.0, 160.0) < 0.10);
        assert!(burst_bound(5462.0, 150.0) > 0.10);
        let x = excess_for_probability(5462.0, 0.10);
        assert!((x - 159.364).abs() < 1e-3, "{x}"); // bisection in Python on the same equation
        // 100 requests/s over 16 s: 1,600 expected, 10 % above is 160.
        assert_eq!(expected_requests(16.0, 100.0) * 0.10, 160.0);
    }

    #[test]
    fn more_elements_mean_wider_bursts() {
        let xs = [10.0, 100.0, 1000.0];
        for x in xs {
            let mut last = 0.0;
            for n in [5e3, 5e4, 5e5, 5e6] {
                let b = burst_bound(n, x);
                assert!(b > last && b <= 1.0);
                last = b;
            }
        }
        assert_eq!(burst_bound(5e6, 0.0), 1.0);
    }
}
