#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

#[test]
fn figure_5_2_minimum_and_ordering() {
    let out = factor_curves(FactorCurvesConfig::default()).unwrap();
    assert!((out.random_bound_min.x - 1.793).abs() < 5e-4);
    assert!(out.random_bound_min.value > 0.77);
    for k in 0..out.x.len() {
        // exact RANDOM above its bound; MERGE's bound above RANDOM's exact factor
        assert!(out.random_exact[k] >= out.random_bound[k] * (1.0 - 1e-12));
        assert!(out.merge_bound[k] >= out.random_exact[k] * (1.0 - 1e-12), "x={}", out.x[k]);
    }
    assert!(out.merge_bound_min.value > 0.927);
}

#[test]
fn bad_c_is_refused() {
    let e = factor_curves(FactorCurvesConfig { c: 0.5, ..Default::default() }).unwrap_err();
    assert_eq!(e.field, "c");
    let e = factor_curves(FactorCurvesConfig { x_min: 0.0, ..Default::default() }).unwrap_err();
    assert_eq!(e.field, "x_min");
}
