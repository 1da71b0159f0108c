//! Interval arithmetic with outward rounding, and intervals carrying a gradient.
//!
//! Each basic operation (+, −, ×, ÷, √) is correctly rounded by IEEE 754, so its exact
//! result lies within one ulp of the computed one: widening by one ulp each way
//! encloses it. `exp` and `expm1` come from the `libm` crate (musl's algorithms), whose
//! documented error is below 1 ulp; they are widened by [`TRANSCENDENTAL_ULPS`] ulps,
//! and a test measures their error against high-precision references.

use super::elementary::{expm1, sqrt};

/// Ulps added on each side of a transcendental result (twice the documented error).
pub const TRANSCENDENTAL_ULPS: u32 = 2;

/// A closed interval [lo, hi] of reals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

fn down(x: f64, ulps: u32) -> f64 {
    (0..ulps).fold(x, |v, _| v.next_down())
}

fn up(x: f64, ulps: u32) -> f64 {
    (0..ulps).fold(x, |v, _| v.next_up())
}

impl Interval {
    /// [lo, hi]; `lo ≤ hi` is the caller's promise.
    pub const fn new(lo: f64, hi: f64) -> Self {
        Interval { lo, hi }
    }

    /// The degenerate interval [x, x] (exact: x is a float).
    pub const fn point(x: f64) -> Self {
        Interval { lo: x, hi: x }
    }

    /// An enclosure of a real that is not exactly representable, e.g. a decimal constant.
    pub fn around(x: f64) -> Self {
        Interval { lo: x.next_down(), hi: x.next_up() }
    }

    pub fn width(self) -> f64 {
        self.hi - self.lo
    }

    pub fn mid(self) -> f64 {
        0.5 * (self.lo + self.hi)
    }

    pub fn contains(self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// Both halves of the interval, split at its midpoint.
    pub fn bisect(self) -> (Self, Self) {
        let m = self.mid();
        (Interval::new(self.lo, m), Interval::new(m, self.hi))
    }

    fn rounded(lo: f64, hi: f64) -> Self {
        Interval { lo: down(lo, 1), hi: up(hi, 1) }
    }

    /// Enclosure of e^x − 1 (increasing).
    pub fn expm1(self) -> Self {
        Interval { lo: down(expm1(self.lo), TRANSCENDENTAL_ULPS), hi: up(expm1(self.hi), TRANSCENDENTAL_ULPS) }
    }

    /// Enclosure of e^x (increasing); computed as expm1 + 1 with outward rounding.
    pub fn exp(self) -> Self {
        self.expm1() + Interval::point(1.0)
    }

    /// Enclosure of √x for x ≥ 0.
    pub fn sqrt(self) -> Self {
        Interval::rounded(sqrt(self.lo.max(0.0)), sqrt(self.hi)).max_with(0.0)
    }

    fn max_with(self, floor: f64) -> Self {
        Interval { lo: self.lo.max(floor), hi: self.hi.max(floor) }
    }

    /// The smaller of two intervals' values: [min lo, min hi].
    pub fn min(self, other: Self) -> Self {
        Interval { lo: self.lo.min(other.lo), hi: self.hi.min(other.hi) }
    }
}

impl std::ops::Add for Interval {
    type Output = Interval;
    fn add(self, o: Interval) -> Interval {
        Interval::rounded(self.lo + o.lo, self.hi + o.hi)
    }
}

impl std::ops::Sub for Interval {
    type Output = Interval;
    fn sub(self, o: Interval) -> Interval {
        Interval::rounded(self.lo - o.hi, self.hi - o.lo)
    }
}

impl std::ops::Neg for Interval {
    type Output = Interval;
    fn neg(self) -> Interval {
        Interval { lo: -self.hi, hi: -self.lo }
    }
}

impl std::ops::Mul for Interval {
    type Output = Interval;
    fn mul(self, o: Interval) -> Interval {
        let p = [self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi];
        let lo = p.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = p.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Interval::rounded(lo, hi)
    }
}

impl std::ops::Div for Interval {
    type Output = Interval;
    /// Division; a divisor containing 0 gives the whole real line.
    fn div(self, o: Interval) -> Interval {
        if o.lo <= 0.0 && o.hi >= 0.0 {
            return Interval::new(f64::NEG_INFINITY, f64::INFINITY);
        }
        let q = [self.lo / o.lo, self.lo / o.hi, self.hi / o.lo, self.hi / o.hi];
        let lo = q.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = q.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Interval::rounded(lo, hi)
    }
}

/// An interval value with interval enclosures of its two partial derivatives:
/// forward-mode differentiation over a box, for mean-value enclosures.
#[derive(Clone, Copy, Debug)]
pub struct Graded {
    pub value: Interval,
    pub d: [Interval; 2],
}

impl Graded {
    /// The k-th coordinate (k = 0 or 1) ranging over `x`.
    pub fn variable(x: Interval, k: usize) -> Self {
        let mut d = [Interval::point(0.0); 2];
        d[k] = Interval::point(1.0);
        Graded { value: x, d }
    }

    pub fn constant(x: f64) -> Self {
        Graded { value: Interval::point(x), d: [Interval::point(0.0); 2] }
    }

    /// e^x − 1, whose derivative is e^x.
    pub fn expm1(self) -> Self {
        let value = self.value.expm1();
        let slope = value + Interval::point(1.0);
        Graded { value, d: [slope * self.d[0], slope * self.d[1]] }
    }
}

impl std::ops::Add for Graded {
    type Output = Graded;
    fn add(self, o: Graded) -> Graded {
        Graded { value: self.value + o.value, d: [self.d[0] + o.d[0], self.d[1] + o.d[1]] }
    }
}

impl std::ops::Sub for Graded {
    type Output = Graded;
    fn sub(self, o: Graded) -> Graded {
        Graded { value: self.value - o.value, d: [self.d[0] - o.d[0], self.d[1] - o.d[1]] }
    }
}

impl std::ops::Neg for Graded {
    type Output = Graded;
    fn neg(self) -> Graded {
        Graded { value: -self.value, d: [-self.d[0], -self.d[1]] }
    }
}

impl std::ops::Mul for Graded {
    type Output = Graded;
    /// The product rule: (uv)' = u'v + uv'.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn mul(self, o: Graded) -> Graded {
        let d = |k: usize| self.d[k] * o.value + self.value * o.d[k];
        Graded { value: self.value * o.value, d: [d(0), d(1)] }
    }
}

impl std::ops::Div for Graded {
    type Output = Graded;
    /// The quotient rule.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn div(self, o: Graded) -> Graded {
        let value = self.value / o.value;
        // (u/v)' = (u' − (u/v)·v') / v
        let d = |k: usize| (self.d[k] - value * o.d[k]) / o.value;
        Graded { value, d: [d(0), d(1)] }
    }
}

/// The arithmetic a formula needs to be evaluated on points, intervals or graded
/// intervals alike, so one definition serves every use.
pub trait Arith:
    Copy + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> + std::ops::Mul<Output = Self> + std::ops::Div<Output = Self> + std::ops::Neg<Output = Self>
{
    fn constant(x: f64) -> Self;
    fn expm1(self) -> Self;
}

impl Arith for Interval {
    fn constant(x: f64) -> Self {
        Interval::point(x)
    }
    fn expm1(self) -> Self {
        Interval::expm1(self)
    }
}

impl Arith for Graded {
    fn constant(x: f64) -> Self {
        Graded::constant(x)
    }
    fn expm1(self) -> Self {
        Graded::expm1(self)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::{Purpose, Stream};

    fn sample(stream: &mut Stream, x: Interval) -> f64 {
        stream.uniform_in(x.lo, x.hi)
    }

    #[test]
    fn operations_enclose_every_sampled_result() {
        let mut s = Stream::of(11, Purpose::Test, 0);
        for _ in 0..20_000 {
            let a = {
                let l = s.uniform_in(-5.0, 5.0);
                Interval::new(l, l + s.uniform_in(0.0, 2.0))
            };
            let b = {
                let l = s.uniform_in(0.1, 5.0);
                Interval::new(l, l + s.uniform_in(0.0, 2.0))
            };
            let (x, y) = (sample(&mut s, a), sample(&mut s, b));
            assert!((a + b).contains(x + y));
            assert!((a - b).contains(x - y));
            assert!((a * b).contains(x * y));
            assert!((a / b).contains(x / y));
            assert!(a.expm1().contains(x.exp_m1()));
            assert!(b.sqrt().contains(y.sqrt()));
            assert!((-a).contains(-x));
        }
    }

    #[test]
    fn outward_rounding_encloses_inexact_results() {
        let third = Interval::point(1.0) / Interval::point(3.0);
        assert!(third.lo < 1.0 / 3.0 && 1.0 / 3.0 < third.hi);
        assert!(third.width() < 1e-15);
    }

    #[test]
    fn graded_derivatives_enclose_finite_differences() {
        // g(x, y) = expm1(−x/y)·(y − 1) / (x + 1)
        let f = |x: Graded, y: Graded| (-(x / y)).expm1() * (y - Graded::constant(1.0)) / (x + Graded::constant(1.0));
        let fp = |x: f64, y: f64| (-(x / y)).exp_m1() * (y - 1.0) / (x + 1.0);
        let bx = Interval::new(0.5, 0.75);
        let by = Interval::new(1.5, 2.5);
        let g = f(Graded::variable(bx, 0), Graded::variable(by, 1));
        let mut s = Stream::of(12, Purpose::Test, 0);
        for _ in 0..2000 {
            let (x, y) = (sample(&mut s, bx), sample(&mut s, by));
            let h = 1e-6;
            let dx = (fp(x + h, y) - fp(x - h, y)) / (2.0 * h);
            let dy = (fp(x, y + h) - fp(x, y - h)) / (2.0 * h);
            assert!(g.value.contains(fp(x, y)));
            assert!(g.d[0].lo - 1e-8 <= dx && dx <= g.d[0].hi + 1e-8);
            assert!(g.d[1].lo - 1e-8 <= dy && dy <= g.d[1].hi + 1e-8);
        }
    }

    #[test]
    fn division_by_an_interval_around_zero_is_unbounded() {
        let q = Interval::point(1.0) / Interval::new(-1.0, 1.0);
        assert_eq!(q.lo, f64::NEG_INFINITY);
        assert_eq!(q.hi, f64::INFINITY);
    }
}
