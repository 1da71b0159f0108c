//! The certifier widens each exp/expm1 result by 2 ulps, assuming the libm crate errs by
//! less than one. This measures that error against correctly rounded references
//! (tests/data/make_libm_reference.py, mpmath at 200 bits), natively and in wasm.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use freshlab::core::math::elementary::{exp, expm1};
use freshlab::core::math::interval::{Interval, TRANSCENDENTAL_ULPS};

const REFERENCE: &str = include_str!("data/libm_reference.txt");

fn bits(hex: &str) -> f64 {
    f64::from_bits(u64::from_str_radix(hex, 16).expect("hex bit pattern"))
}

/// Distance in ulps between two finite doubles of the same sign.
fn ulps_apart(a: f64, b: f64) -> u64 {
    let key = |x: f64| {
        let i = x.to_bits() as i64;
        if i < 0 { i64::MIN - i } else { i }
    };
    key(a).abs_diff(key(b))
}

#[test]
fn exp_and_expm1_are_within_one_ulp_of_the_correctly_rounded_value() {
    let (mut worst_exp, mut worst_expm1, mut n) = (0, 0, 0);
    for line in REFERENCE.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<f64> = line.split_whitespace().map(bits).collect();
        let [x, e, em] = fields[..] else { panic!("bad line {line}") };
        worst_exp = worst_exp.max(ulps_apart(exp(x), e));
        worst_expm1 = worst_expm1.max(ulps_apart(expm1(x), em));
        n += 1;
    }
    assert_eq!(n, 6006);
    // within one ulp of the correctly rounded value means an error below 1.5 ulps,
    // inside the 2-ulp widening
    assert!(worst_exp <= 1 && worst_expm1 <= 1, "exp {worst_exp} ulps, expm1 {worst_expm1} ulps");
    const { assert!(TRANSCENDENTAL_ULPS >= 2, "the widening must exceed the measured 1.5 ulps") };
}

#[test]
fn interval_expm1_encloses_the_reference_value() {
    for line in REFERENCE.lines().filter(|l| !l.starts_with('#')).take(2000) {
        let fields: Vec<f64> = line.split_whitespace().map(bits).collect();
        let enclosure = Interval::point(fields[0]).expm1();
        assert!(enclosure.contains(fields[2]), "{line}");
    }
}
