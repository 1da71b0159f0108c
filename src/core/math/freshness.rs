//! Closed forms for the freshness of one page (thesis ch. 5, spec §1.1).
//!
//! Two parametrisations are offered. The *rate form* takes the change rate λ, the page's
//! revisit frequency f and its server's request frequency f_s. The *ratio form* takes
//! x = λ/f (written r in Eq 5-9) and c = f_s/f ≥ 1, which is all the factors depend on.

use super::elementary::{expm1, one_minus_exp_neg};

/// Eq 2-3 (generic): A = (1 − E[e^{−λU}]) / (λ/f) for revisit intervals U of mean 1/f,
/// given x = λ/f and the Laplace transform value `laplace` = E[e^{−λU}].
pub fn freshness_from_laplace(x: f64, laplace: f64) -> f64 {
    if x == 0.0 { 1.0 } else { (1.0 - laplace) / x }
}

/// Lemma 4.2, ratio form: A* = (1 − e^{−x})/x, the best freshness of a page with
/// x = λ/f, reached by equally spaced revisits. Tends to 1 as x → 0.
pub fn a_star_ratio(x: f64) -> f64 {
    if x == 0.0 { 1.0 } else { one_minus_exp_neg(x) / x }
}

/// Lemma 4.2, rate form: A*(f) = (f/λ)(1 − e^{−λ/f}). A page that never changes
/// (λ = 0) is always fresh; a changing page never revisited (f = 0) never is.
pub fn a_star(lambda: f64, f: f64) -> f64 {
    if lambda == 0.0 {
        1.0
    } else if f == 0.0 {
        0.0
    } else {
        a_star_ratio(lambda / f)
    }
}

/// g(x) = 1 − e^{−x}(1 + x) = λ·∂A*/∂f at x = λ/f: increases from 0 to 1. Below
/// x = 1/2 the alternating series Σ_{k≥2} (−1)^k (k − 1) x^k / k! avoids cancellation.
pub fn marginal_gain(x: f64) -> f64 {
    if x >= 0.5 {
        return one_minus_exp_neg(x) - x * (1.0 + expm1(-x));
    }
    // Horner on x²·Σ_{k=2}^{17} c_k x^{k−2}; the first omitted term is below 1e-17 relative
    let mut sum = 0.0;
    for &c in GAIN_SERIES.iter().rev() {
        sum = sum * x + c;
    }
    sum * x * x
}

/// c_k = (−1)^k (k − 1)/k! for k = 2 … 17.
const GAIN_SERIES: [f64; 16] = {
    let mut c = [0.0; 16];
    let mut factorial = 2.0;
    let mut k = 2;
    while k < 18 {
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        c[k - 2] = sign * (k - 1) as f64 / factorial;
        k += 1;
        factorial *= k as f64;
    }
    c
};

/// ∂A*/∂f = g(λ/f)/λ: the marginal freshness of one more revisit per unit time (used by
/// the allocations of §1.3).
pub fn a_star_marginal(lambda: f64, f: f64) -> f64 {
    if lambda == 0.0 {
        return 0.0;
    }
    if f == 0.0 {
        return 1.0 / lambda;
    }
    marginal_gain(lambda / f) / lambda
}

/// Eq 5-2 (RANDOM, exact), ratio form: A = (1/x)·(e^{x/c} − 1)/(1/c + e^{x/c} − 1).
pub fn random_freshness_ratio(x: f64, c: f64) -> f64 {
    if x == 0.0 {
        return 1.0;
    }
    // em/(1/c + em) = 1/(1 + 1/(c·em)) stays finite when em overflows.
    let em = expm1(x / c);
    (1.0 / x) / (1.0 + 1.0 / (c * em))
}

/// Eq 5-2 (RANDOM, exact), rate form.
pub fn random_freshness(lambda: f64, f: f64, fs: f64) -> f64 {
    rate_form(lambda, f, fs, random_freshness_ratio)
}

/// A ratio form A(x = λ/f, c = f_s/f) at rates: a page that never changes is always
/// fresh, one never revisited (but changing) never is.
fn rate_form(lambda: f64, f: f64, fs: f64, ratio: fn(f64, f64) -> f64) -> f64 {
    if lambda == 0.0 {
        1.0
    } else if f == 0.0 {
        0.0
    } else {
        ratio(lambda / f, fs / f)
    }
}

/// Eq 5-3: A > f/(λ + f), the f_s → ∞ limit of Eq 5-2 ("purely random", Cho & Garcia-Molina).
pub fn purely_random_freshness_ratio(x: f64) -> f64 {
    1.0 / (1.0 + x)
}

/// Eq 5-2 divided by Lemma 4.2: RANDOM's exact approximation factor for c = f_s/f.
pub fn random_factor(x: f64, c: f64) -> f64 {
    if x == 0.0 {
        return 1.0;
    }
    let em = expm1(x / c);
    1.0 / ((1.0 + 1.0 / (c * em)) * one_minus_exp_neg(x))
}

/// Corollary 5.5: A/A* > x/((1 + x)(1 − e^{−x})) for RANDOM, whatever f_s.
pub fn random_factor_bound(x: f64) -> f64 {
    if x == 0.0 { 1.0 } else { x / ((1.0 + x) * one_minus_exp_neg(x)) }
}

/// Eq 5-4 (MERGE, lower bound), ratio form:
/// A ≥ (1/x)(1 − exp[−x/c + (e^{−x/c} − 1)(c − 1)]).
pub fn merge_freshness_bound_ratio(x: f64, c: f64) -> f64 {
    if x == 0.0 {
        return 1.0;
    }
    let u = x / c;
    let exponent = -u + expm1(-u) * (c - 1.0);
    one_minus_exp_neg(-exponent) / x
}

/// Eq 5-4 (MERGE, lower bound), rate form.
pub fn merge_freshness_bound(lambda: f64, f: f64, fs: f64) -> f64 {
    rate_form(lambda, f, fs, merge_freshness_bound_ratio)
}

/// Eq 5-8 / Eq 5-9: MERGE's approximation factor
/// (1 − exp[−r/c + (e^{−r/c} − 1)(c − 1)]) / (1 − e^{−r}) for r = λ/f > 0, c = f_s/f ≥ 1.
/// Its continuous extension to r = 0 is 1.
pub fn merge_factor(r: f64, c: f64) -> f64 {
    if r == 0.0 {
        return 1.0;
    }
    let u = r / c;
    let exponent = -u + expm1(-u) * (c - 1.0);
    expm1(exponent) / expm1(-r)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::math::elementary::exp;
    use crate::core::math::optimize::golden_section_min;
    use crate::core::rng::{Purpose, Stream};

    /// E[e^{−λU}] for U = K/f_s, K geometric with p = f/f_s, summed term by term:
    /// an evaluation of Eq 2-3 independent of the closed form in Eq 5-2.
    fn random_laplace_by_series(x: f64, c: f64) -> f64 {
        let p = 1.0 / c;
        let a = exp(-x / c);
        let (mut sum, mut term) = (0.0, p * a);
        for _ in 0..200_000 {
            sum += term;
            term *= (1.0 - p) * a;
            if term < 1e-18 * sum {
                break;
            }
        }
        sum
    }

    fn random_params(stream: &mut Stream) -> (f64, f64) {
        let x = 10f64.powf(stream.uniform_in(-3.0, 2.0));
        let c = 10f64.powf(stream.uniform_in(0.0, 3.0));
        (x, c)
    }

    #[test]
    fn eq_5_2_agrees_with_eq_2_3_summed_over_the_geometric_law() {
        let mut s = Stream::of(1, Purpose::Test, 0);
        for _ in 0..2000 {
            let (x, c) = random_params(&mut s);
            let closed = random_freshness_ratio(x, c);
            let summed = freshness_from_laplace(x, random_laplace_by_series(x, c));
            assert!((closed - summed).abs() <= 1e-9 * closed.max(1e-300), "x={x} c={c}: {closed} vs {summed}");
        }
    }

    #[test]
    fn eq_5_3_lies_below_eq_5_2_and_is_its_limit() {
        let mut s = Stream::of(2, Purpose::Test, 0);
        for _ in 0..2000 {
            let (x, c) = random_params(&mut s);
            assert!(purely_random_freshness_ratio(x) < random_freshness_ratio(x, c) * (1.0 + 1e-12));
        }
        for x in [0.01, 0.5, 3.0, 40.0] {
            let far = random_freshness_ratio(x, 1e9);
            assert!((far - purely_random_freshness_ratio(x)).abs() < 1e-6, "x={x}");
        }
    }

    #[test]
    fn every_policy_lies_below_lemma_4_2() {
        let mut s = Stream::of(3, Purpose::Test, 0);
        for _ in 0..5000 {
            let (x, c) = random_params(&mut s);
            let best = a_star_ratio(x);
            assert!(random_freshness_ratio(x, c) <= best * (1.0 + 1e-12), "x={x} c={c}");
            assert!(merge_freshness_bound_ratio(x, c) <= best * (1.0 + 1e-12), "x={x} c={c}");
            let factor = merge_factor(x, c);
            assert!(factor > 0.0 && factor <= 1.0 + 1e-12, "x={x} c={c}: {factor}");
        }
    }

    #[test]
    fn a_page_alone_on_its_server_is_revisited_equally_spaced() {
        for x in [1e-6, 0.3, 2.0, 25.0] {
            assert!((random_factor(x, 1.0) - 1.0).abs() < 1e-12);
            assert!((merge_factor(x, 1.0) - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn rate_and_ratio_forms_agree() {
        let (lambda, f, fs) = (0.3, 0.2, 0.9);
        assert!((random_freshness(lambda, f, fs) - random_freshness_ratio(1.5, 4.5)).abs() < 1e-15);
        assert!((merge_freshness_bound(lambda, f, fs) - merge_freshness_bound_ratio(1.5, 4.5)).abs() < 1e-15);
        let a = a_star(lambda, f);
        assert!((a - (f / lambda) * (1.0 - (-lambda / f).exp())).abs() < 1e-15);
        assert_eq!(a_star(0.0, 0.0), 1.0);
        assert_eq!(a_star(1.0, 0.0), 0.0);
    }

    #[test]
    fn eq_5_8_is_eq_5_4_over_lemma_4_2() {
        let mut s = Stream::of(4, Purpose::Test, 0);
        for _ in 0..2000 {
            let (x, c) = random_params(&mut s);
            let quotient = merge_freshness_bound_ratio(x, c) / a_star_ratio(x);
            assert!((quotient - merge_factor(x, c)).abs() < 1e-12, "x={x} c={c}");
            let quotient = random_freshness_ratio(x, c) / a_star_ratio(x);
            assert!((quotient - random_factor(x, c)).abs() < 1e-12, "x={x} c={c}");
        }
    }

    #[test]
    fn corollary_5_5_critical_point_and_value() {
        let (x, value) = golden_section_min(random_factor_bound, 0.1, 10.0, 1e-12);
        assert!((x - 1.793).abs() < 5e-4, "critical point {x}");
        assert!(value > 0.77 && value < 0.7705, "bound {value}");
        // and it bounds the exact factor for every c
        let mut s = Stream::of(5, Purpose::Test, 0);
        for _ in 0..2000 {
            let (x, c) = random_params(&mut s);
            assert!(random_factor(x, c) > random_factor_bound(x) * (1.0 - 1e-12));
        }
    }

    #[test]
    fn small_arguments_do_not_cancel() {
        // Reference values from the series of each formula at x = 1e-10.
        let x = 1e-10;
        assert!((a_star_ratio(x) - (1.0 - x / 2.0)).abs() < 1e-16);
        assert!((merge_factor(x, 2.0) - (1.0 - x / 8.0)).abs() < 1e-15);
        assert!((a_star_marginal(1.0, 1e10) - 0.5e-20).abs() < 1e-30);
    }

    #[test]
    fn marginal_is_the_derivative_of_a_star() {
        for (lambda, f) in [(1.0, 0.5), (0.01, 3.0), (5.0, 0.2), (1.0, 1e3)] {
            let h = f * 1e-6;
            let numeric = (a_star(lambda, f + h) - a_star(lambda, f - h)) / (2.0 * h);
            let analytic = a_star_marginal(lambda, f);
            assert!((numeric - analytic).abs() < 1e-6 * analytic.abs() + 1e-12, "{lambda} {f}: {numeric} {analytic}");
        }
    }

    #[test]
    fn marginal_gain_is_accurate_on_both_sides_of_its_switch() {
        for x in [1e-8, 1e-4, 0.002, 0.1, 0.4999, 0.5, 0.5001, 2.0] {
            // reference: the same quantity in 128-bit-free form, 1 − e^{−x}(1+x) summed
            // with many terms in a different order (Horner from the top)
            let mut reference = 0.0;
            for k in (2..60).rev() {
                let mut t = 1.0;
                for j in 1..=k {
                    t *= x / j as f64;
                }
                reference += if k % 2 == 0 { 1.0 } else { -1.0 } * (k - 1) as f64 * t;
            }
            let got = marginal_gain(x);
            let tol = 1e-14 * got;
            assert!((got - reference).abs() <= tol, "x={x}: {got} vs {reference}");
        }
    }

    #[test]
    fn large_arguments_stay_finite() {
        assert_eq!(random_factor(1e4, 1.5), 1.0, "e^r overflows: the factor is its limit");
        assert!(merge_factor(1e4, 1e4).is_finite());
        assert!(random_freshness_ratio(800.0, 1.0).is_finite());
    }
}
