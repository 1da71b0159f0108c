#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

fn run(config: LevelSetsConfig) -> LevelSetsOutput {
    config.start().unwrap().finish()
}

#[test]
fn default_region_has_the_conjectured_minimum_inside() {
    let out = run(LevelSetsConfig::default());
    let m = out.minimum;
    // Conjecture 5.9: the factor stays above 0.927; the minimum is interior.
    assert!(m.value > 0.927 && m.value < 0.9273, "{m:?}");
    assert!((m.r - 1.6374).abs() < 1e-3 && (m.c - 2.2706).abs() < 1e-3, "{m:?}");
    assert!(!m.on_boundary);
    assert!(out.sampled_range[0] >= m.value);
}

#[test]
fn contour_points_lie_on_their_level() {
    let out = run(LevelSetsConfig::default());
    let mut checked = 0;
    for contour in &out.contours {
        for &[r, c] in contour.lines.iter().flatten() {
            assert!((merge_factor(r, c) - contour.level).abs() < 2e-3, "level {} at ({r},{c})", contour.level);
            checked += 1;
        }
    }
    assert!(checked > 500);
    // the 0.93 level is a small loop around the minimum
    let l93 = &out.contours[0];
    assert_eq!(l93.level, 0.93);
    assert!(l93.lines.iter().all(|l| l.first() == l.last()));
}

#[test]
fn highlighted_cells_cover_the_minimum_and_only_low_values() {
    let out = run(LevelSetsConfig::default());
    let m = out.minimum;
    assert!(out.below.iter().any(|b| b.r0 <= m.r && m.r <= b.r1 && b.c0 <= m.c && m.c <= b.c1));
    for b in &out.below {
        let (r, c) = (0.5 * (b.r0 + b.r1), 0.5 * (b.c0 + b.c1));
        assert!(merge_factor(r, c) < 0.935);
    }
}

#[test]
fn log_axes_up_to_ten_thousand() {
    let out = run(LevelSetsConfig { r_min: 0.01, r_max: 1e4, c_max: 1e4, log_r: true, log_c: true, grid: 101, ..Default::default() });
    assert!(out.minimum.value > 0.927);
    assert!(out.contours.iter().any(|c| !c.lines.is_empty()));
}

#[test]
fn a_region_that_cuts_the_minimum_off_reports_it_on_the_boundary() {
    let out = run(LevelSetsConfig { r_min: 3.0, r_max: 9.0, ..Default::default() });
    assert!(out.minimum.on_boundary);
    assert!((out.minimum.r - 3.0).abs() < 1e-9);
}

#[test]
fn bad_input_names_the_field() {
    let bad = |cfg: LevelSetsConfig| LevelSetsJob::new(cfg).err().unwrap().field;
    let d = LevelSetsConfig::default;
    assert_eq!(bad(LevelSetsConfig { r_min: 0.0, ..d() }), "r_min");
    assert_eq!(bad(LevelSetsConfig { r_min: -1.0, ..d() }), "r_min");
    assert_eq!(bad(LevelSetsConfig { r_min: f64::NAN, ..d() }), "r_min");
    assert_eq!(bad(LevelSetsConfig { c_min: 0.5, ..d() }), "c_min");
    assert_eq!(bad(LevelSetsConfig { r_min: 5.0, r_max: 2.0, ..d() }), "r_max");
    assert_eq!(bad(LevelSetsConfig { c_max: 1e6, ..d() }), "c_max");
    assert_eq!(bad(LevelSetsConfig { grid: 1_000_000, ..d() }), "grid");
    assert_eq!(bad(LevelSetsConfig { levels: vec![0.95, 0.93], ..d() }), "levels");
    assert_eq!(bad(LevelSetsConfig { levels: vec![1.5], ..d() }), "levels[0]");
    assert_eq!(bad(LevelSetsConfig { highlight_below: Some(-1.0), ..d() }), "highlight_below");
}

#[test]
fn progress_advances_to_one() {
    let mut job = LevelSetsJob::new(LevelSetsConfig { grid: 101, ..Default::default() }).unwrap();
    let first = job.advance(500);
    assert!(first > 0.0 && first < 0.1);
    while !job.done() {
        job.advance(1000);
    }
    assert_eq!(job.advance(10), 1.0);
}
