#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

#[test]
fn per_server_spacing_is_smoother_and_both_respect_eq_5_11() {
    let out = channel(ChannelConfig { windows: 2000, ..Default::default() }).unwrap();
    assert!(out.per_server.elements < out.per_page.elements);
    assert!(out.per_server.std_dev < out.per_page.std_dev, "{} vs {}", out.per_server.std_dev, out.per_page.std_dev);
    for s in [&out.per_page, &out.per_server] {
        for (k, (&tail, &bound)) in s.tail.iter().zip(&s.bound).enumerate() {
            // Eq 5-11 bounds every window; the empirical share may exceed it only by
            // sampling noise (4 standard errors)
            let noise = 4.0 * (bound * (1.0 - bound) / 2000.0).sqrt() + 1e-12;
            assert!(tail <= bound + noise, "x = {}: {tail} > {bound}", out.x[k]);
        }
    }
}

#[test]
fn counts_add_up_to_the_expected_total() {
    let elements = [(2.0, 0.25), (0.5, 1.0)];
    let counts = count_windows(&elements, 1.0, 4);
    // 2/day from 0.25: 8 requests in [0, 4); 0.5/day from 1: at 1 and 3
    assert_eq!(counts, vec![2, 3, 2, 3]);
}
