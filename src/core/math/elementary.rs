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
