#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

fn run(config: PerPageConfig) -> PerPageOutput {
    crate::experiments::job::in_slices(config.start().unwrap(), 1_000_000)
}

/// RANDOM matches Eq 5-2 within its interval; MERGE is at or above Eq 5-8 within its
/// interval; both stay at or below A* (factor 1) — for a page alone, two pages, and
/// many pages with mixed frequencies.
#[test]
fn simulation_agrees_with_the_closed_forms() {
    for (c, others) in [(1.0, 0), (2.0, 1), (4.0, 30)] {
        let config = PerPageConfig { c, other_pages: others, points: 5, revisits: 2000, replications: 24, ..Default::default() };
        let out = run(config);
        for series in &out.simulated {
            for &[x, mean, lo, hi] in &series.points {
                let slack = 0.003; // intervals are 95 %: allow for the rare miss
                assert!(lo <= 1.0 + slack, "{:?} c={c} x={x}: {mean} above A*", series.policy);
                match series.policy {
                    PolicyKind::Random => {
                        let exact = random_factor(x, c);
                        assert!(lo - slack <= exact && exact <= hi + slack, "RANDOM c={c} x={x}: [{lo}, {hi}] misses Eq 5-2 {exact}");
                    }
                    PolicyKind::Merge => {
                        let bound = merge_factor(x, c);
                        assert!(hi + slack >= bound, "MERGE c={c} x={x}: [{lo}, {hi}] below Eq 5-8 {bound}");
                    }
                    _ => unreachable!(),
                }
            }
        }
    }
}

#[test]
fn a_page_alone_is_equally_spaced_under_both_policies() {
    let out = run(PerPageConfig { c: 1.0, other_pages: 0, points: 3, revisits: 200, replications: 4, estimator: Estimator::Expected, ..Default::default() });
    for series in &out.simulated {
        for p in &series.points {
            assert!((p[1] - 1.0).abs() < 1e-12, "{:?}", series.policy);
        }
    }
}

#[test]
fn bad_input_is_refused() {
    let bad = |c: PerPageConfig| crate::experiments::start(crate::experiments::Config::PerPage(c)).err().unwrap().field;
    let d = PerPageConfig::default;
    assert_eq!(bad(PerPageConfig { c: 0.5, ..d() }), "c");
    assert_eq!(bad(PerPageConfig { c: 1.0, ..d() }), "other_pages");
    assert_eq!(bad(PerPageConfig { replications: 1, ..d() }), "replications");
    assert_eq!(bad(PerPageConfig { policies: vec![PolicyKind::Delayed], ..d() }), "policies");
    let long = crate::experiments::Config::PerPage(PerPageConfig { revisits: 1_000_000, replications: 1000, points: 200, c: 100.0, ..d() });
    assert_eq!(long.validate(&crate::core::limits::NATIVE).err().unwrap().field, "revisits", "too long natively");
    assert!(long.validate(&crate::core::limits::BROWSER).is_ok(), "the page refuses on memory only");
}
