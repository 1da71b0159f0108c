#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

#[test]
fn figure_5_7_curves_fall_faster_for_fewer_elements() {
    let out = bursts(BurstsConfig::default()).unwrap();
    assert_eq!(out.curves.len(), 4);
    assert_eq!(out.x[0], 0.0);
    assert!(out.curves.iter().all(|c| c.bound[0] == 1.0));
    let mid = out.x.len() / 2;
    for pair in out.curves.windows(2) {
        assert!(pair[0].bound[mid] < pair[1].bound[mid]);
        assert!(pair[0].excess_at_probability < pair[1].excess_at_probability);
    }
}

#[test]
fn webbase_servers() {
    let out = bursts(BurstsConfig { n: vec![5462.0], ..Default::default() }).unwrap();
    assert!((out.curves[0].excess_at_probability - 159.364).abs() < 1e-3);
}

#[test]
fn bad_n_is_refused() {
    assert_eq!(bursts(BurstsConfig { n: vec![0.0], ..Default::default() }).unwrap_err().field, "n[0]");
    assert_eq!(bursts(BurstsConfig { n: vec![10.5], ..Default::default() }).unwrap_err().field, "n[0]");
    assert_eq!(bursts(BurstsConfig { n: vec![], ..Default::default() }).unwrap_err().field, "n");
    assert_eq!(bursts(BurstsConfig { probability: 1.0, ..Default::default() }).unwrap_err().field, "probability");
}
