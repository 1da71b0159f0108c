#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

fn run(config: CertifyConfig) -> CertifyOutput {
    crate::experiments::job::in_slices(config.start().unwrap(), 10_000)
}

#[test]
fn generic_factor_encloses_the_float_formula() {
    for (r, c) in [(0.3, 1.0), (1.6374, 2.2706), (9.0, 1000.0), (0.25, 17.0)] {
        let g = at_point(r, c);
        assert!(g.contains(merge_factor(r, c)), "({r},{c}) {g:?} vs {}", merge_factor(r, c));
        assert!(g.width() < 1e-14);
    }
}

#[test]
fn certifies_conjecture_5_9_on_the_default_region() {
    let out = run(CertifyConfig::default());
    assert_eq!(out.status, Status::Converged);
    // the minimum is 0.92723044 (local search); the proof brackets it
    assert!(out.lower_bound > 0.927 && out.lower_bound <= out.upper_bound);
    assert!(out.upper_bound - out.lower_bound <= 1e-9 + 1e-15);
    assert!((out.lower_bound - 0.927_230_437).abs() < 2e-9, "{}", out.lower_bound);
    assert!((out.best_r - 1.6374).abs() < 1e-3 && (out.best_c - 2.2706).abs() < 1e-3);
    let global = out.global_bound.expect("c_min = 1 covers the domain");
    assert_eq!(global, out.lower_bound, "the tails are all weaker than the minimum");
}

#[test]
fn a_region_with_a_known_answer() {
    // Along c = 1 the factor is exactly 1; a thin strip [1, 1 + 1e-6] stays near 1.
    let out = run(CertifyConfig { r_min: 0.5, r_max: 4.0, c_min: 1.0, c_max: 1.000_001, tolerance: 1e-12, ..Default::default() });
    assert!(out.lower_bound > 0.999_999 && out.lower_bound <= 1.0, "{}", out.lower_bound);
    // A region away from the minimum: its minimum is on its edge and is bracketed.
    let out = run(CertifyConfig { r_min: 4.0, r_max: 6.0, c_min: 3.0, c_max: 5.0, ..Default::default() });
    let corner = [(4.0, 3.0), (4.0, 5.0), (6.0, 3.0), (6.0, 5.0)].map(|(r, c)| merge_factor(r, c));
    let edge_min = corner.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(out.lower_bound <= edge_min + 1e-12);
    assert!(out.global_bound.is_none(), "c_min > 1 leaves [1, c_min) unproved");
}

#[test]
fn a_tiny_budget_still_gives_a_valid_but_loose_bound() {
    let out = run(CertifyConfig { max_boxes: 50, ..Default::default() });
    assert_eq!(out.status, Status::BudgetExhausted);
    assert!(out.lower_bound < 0.9272304);
    assert!(out.upper_bound >= 0.9272304);
    assert!(out.history.len() >= 2);
}

#[test]
fn the_natural_extension_proves_less_with_the_same_boxes() {
    let budget = CertifyConfig { max_boxes: 20_000, ..Default::default() };
    let natural = run(CertifyConfig { enclosure: Enclosure::Natural, ..budget.clone() });
    let mean_value = run(budget);
    assert_eq!(natural.status, Status::BudgetExhausted);
    assert_eq!(mean_value.status, Status::Converged);
    assert!(natural.lower_bound < mean_value.lower_bound - 1e-6, "{} vs {}", natural.lower_bound, mean_value.lower_bound);
    assert!(natural.lower_bound > 0.9, "still a valid, useful bound: {}", natural.lower_bound);
    assert!(natural.lower_bound <= merge_factor(natural.best_r, natural.best_c));
}

#[test]
fn bad_regions_are_refused() {
    let bad = |c: CertifyConfig| CertifyJob::new(c).err().unwrap().field;
    let d = CertifyConfig::default;
    assert_eq!(bad(CertifyConfig { r_min: 0.0, ..d() }), "r_min");
    assert_eq!(bad(CertifyConfig { c_min: 0.9, ..d() }), "c_min");
    assert_eq!(bad(CertifyConfig { r_max: 0.1, ..d() }), "r_max");
    assert_eq!(bad(CertifyConfig { max_boxes: 1_000_000_000, ..d() }), "max_boxes");
    assert_eq!(bad(CertifyConfig { tolerance: 0.0, ..d() }), "tolerance");
}

/// The estimate is the run's own where the pilot's search ends: its boxes split, and its
/// heap as it grew (the default converges; the natural extension at a budget within the
/// pilot's is exhausted).
#[test]
fn the_estimate_is_the_runs_own_where_its_pilot_ends() {
    for config in [CertifyConfig::default(), CertifyConfig { enclosure: Enclosure::Natural, max_boxes: 20_000, ..Default::default() }] {
        let cost = config.cost();
        let mut job = CertifyJob::new(config.clone()).unwrap();
        while !job.done() {
            job.advance(1000);
        }
        assert_eq!(cost.work, job.split as f64, "{config:?}");
        assert_eq!(cost.bytes, (job.heap.capacity() * BYTES_PER_BOX as usize) as f64 + 64.0 * 1024.0, "{config:?}");
        assert!(cost.work < 0.1 * config.max_boxes as f64 || config.enclosure == Enclosure::Natural, "the default converges far within its budget: {}", cost.work);
    }
}

/// A search still going at the pilot's budget, below the run's, is priced at the run's
/// budget (a bound: the pilot cannot tell where it will stop).
#[test]
fn past_its_pilot_the_estimate_is_the_budgets_bound() {
    let config = CertifyConfig { enclosure: Enclosure::Natural, max_boxes: 100_000, ..Default::default() };
    assert!(pilot::BOXES < config.max_boxes);
    assert_eq!(pilot::run_for(&config).search, None);
    let cost = config.cost();
    assert_eq!(cost.work, 100_000.0);
    assert_eq!(cost.bytes, (131_072 * BYTES_PER_BOX) as f64 + 64.0 * 1024.0);
}

/// The page's form sends the pilot its worker ran (`boxes_pilot`): it stands for the
/// inputs whose key it carries, and for no others; while it runs (its key alone), the
/// estimate is the bound; what no pilot could give is refused, naming the field. The
/// key is the same natively and in WebAssembly (this test runs in both).
#[test]
fn a_pilot_from_the_page_stands_for_its_inputs_alone() {
    let config = CertifyConfig::default();
    let ran = pilot::run_for(&config);
    assert_eq!(ran.key, "3eee176aafbc8566", "the key of the default inputs, natively and in the page");
    let with = |p: pilot::BoxesPilot| CertifyConfig { boxes_pilot: Some(p), ..config.clone() };
    assert_eq!(with(ran.clone()).cost(), config.cost());
    let bound = CertifyConfig { max_boxes: config.max_boxes, ..Default::default() };
    let running = with(pilot::BoxesPilot { key: ran.key.clone(), search: None }).cost();
    assert_eq!(running.work, bound.max_boxes as f64, "while the worker runs it");
    let other = CertifyConfig { tolerance: 1e-6, boxes_pilot: Some(ran.clone()), ..Default::default() };
    assert_eq!(other.cost().work, other.max_boxes as f64, "another configuration's pilot stands for nothing");
    let search = ran.search.expect("the default converges within the pilot");
    for bad in [pilot::Search { boxes: pilot::BOXES + 1, ..search }, pilot::Search { heap_cells: 0, ..search }] {
        let e = with(pilot::BoxesPilot { search: Some(bad), ..ran.clone() }).validate().unwrap_err();
        assert_eq!(e.field, "boxes_pilot", "{e}");
    }
    // the run neither keeps nor reports it
    let out = run(with(ran));
    assert_eq!(out.config.boxes_pilot, None);
}
