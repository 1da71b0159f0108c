//! The fuzzer in WebAssembly (issue 13): the native campaign's cases (`fuzz/cases.rs`),
//! parsed, compared with what was asked, checked against the browser's limits, costed, and — the small ones — run and
//! drawn, in the same module the page runs. A panic here fails the test run.
#![cfg(target_arch = "wasm32")]

#[path = "fuzz/cases.rs"]
mod cases;

use freshlab::chart::draw::figure_svg;
use freshlab::chart::theme::DrawOptions;
use freshlab::core::limits;
use freshlab::experiments::{config_from_value, start};
use wasm_bindgen_test::wasm_bindgen_test as test;

#[test]
fn mutated_configs_are_refused_or_run_and_drawn_in_wasm() {
    let (mut refused, mut ran, mut skipped) = (0, 0, 0);
    for k in 0..1500 {
        let case = cases::case(1, k);
        let what = format!("case {k} ({}: {})", case.experiment, cases::describe(&case));
        let Ok(config) = config_from_value(case.config.clone()) else {
            refused += 1;
            continue;
        };
        // what was asked is what runs, in wasm as natively
        if let Some(change) = cases::silent_change(case.experiment, &case.config, &serde_json::to_value(&config).unwrap()) {
            panic!("{what}: accepted, but not as asked: {change}");
        }
        let cost = config.cost();
        if let Err(e) = config.validate(&limits::BROWSER) {
            assert!(!e.message.trim().is_empty(), "{what}: a refusal without a message");
            refused += 1;
            continue;
        }
        if cost.seconds > 0.005 || cost.bytes > 64e6 {
            skipped += 1;
            continue;
        }
        let Ok(mut job) = start(config) else {
            refused += 1;
            continue;
        };
        while !job.done() {
            job.advance(1 << 16);
        }
        for figure in job.finish().figures() {
            if let Err(e) = figure_svg(&figure, 480, 300, &DrawOptions::default()) {
                panic!("{what}: a figure does not draw: {e}");
            }
        }
        ran += 1;
    }
    assert_eq!(refused + ran + skipped, 1500);
    assert!(ran > 100, "only {ran} cases ran");
}
