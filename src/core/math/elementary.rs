//! Elementary functions that give the same bits natively and in WebAssembly.
//!
//! `f64::exp` and friends call the platform's libm (glibc natively, a musl port on
//! wasm32), which may differ in the last bit. Every computation in the core goes
//! through these wrappers around the pure-Rust `libm` crate instead, so that the same
//! configuration and seed give identical results on every target.

/// e^x.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// e^x − 1, accurate for small |x|.
#[inline]
pub fn expm1(x: f64) -> f64 {
    libm::expm1(x)
}

/// Natural logarithm.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// ln(1 + x), accurate for small |x|.
#[inline]
pub fn ln_1p(x: f64) -> f64 {
    libm::log1p(x)
}

/// Base-10 logarithm.
#[inline]
pub fn log10(x: f64) -> f64 {
    libm::log10(x)
}

/// x^y.
#[inline]
pub fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// Square root (correctly rounded by IEEE 754 on every target).
#[inline]
pub fn sqrt(x: f64) -> f64 {
    x.sqrt()
}

/// 1 − e^{−x}, the probability that a Poisson process of unit rate fires within x.
#[inline]
pub fn one_minus_exp_neg(x: f64) -> f64 {
    -expm1(-x)
}

/// ⌈x⌉ as a whole time unit, for a time x ≥ 0 (u64::MAX for +∞, NaN or beyond):
/// exactly `x.ceil() as u64`, without the call to the C library's `ceil` that a
/// baseline x86-64 build makes (it has no rounding instruction). Below 2⁶³ it converts
/// through i64, one instruction each way there (u64's take five or six; the sensors
/// experiment, which asks for a ceiling at every event, ran 20 % faster for it).
#[inline]
pub fn ceil_unit(x: f64) -> u64 {
    if x > 0.0 && x < 9_223_372_036_854_775_808.0 {
        let t = x as i64;
        return if (t as f64) < x { t as u64 + 1 } else { t as u64 };
    }
    if x.is_nan() || x >= 18_446_744_073_709_551_616.0 {
        return u64::MAX;
    }
    let t = x as u64;
    if (t as f64) < x { t + 1 } else { t }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::ceil_unit;
    use crate::core::rng::{Purpose, Stream};

    #[test]
    fn ceil_unit_is_the_ceiling() {
        let mut s = Stream::of(5, Purpose::Test, 0);
        let special = [
            0.0,
            -0.0,
            1.0,
            1.0 - f64::EPSILON / 2.0,
            1.0 + f64::EPSILON,
            2.5,
            4503599627370495.5,
            9_223_372_036_854_774_784.0,
            9_223_372_036_854_775_808.0,
            -0.5,
            -3.0,
            9007199254740993.0,
            1.7e19,
            1.8e19,
            18_446_744_073_709_549_568.0,
            18_446_744_073_709_551_616.0,
            1e300,
            f64::INFINITY,
            f64::NAN,
        ];
        for x in special.into_iter().chain((0..100_000).map(|k| s.uniform() * 10f64.powi(k % 18))) {
            let want = if x.is_nan() { u64::MAX } else { x.ceil() as u64 };
            assert_eq!(ceil_unit(x), want, "{x}");
        }
    }
}
