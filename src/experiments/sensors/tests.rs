//! Tests of the robots-vs-sensors experiment.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::page::PageLife;
use super::*;
use crate::core::limits;
use crate::core::rng::{Purpose, Stream};
use crate::experiments::Settings;

/// Validates, checks the cost and plans, as the registry does.
fn start(config: SensorsConfig) -> Result<Sliced<SensorsJob>, InputError> {
    config.validate()?;
    config.cost().check(&limits::here())?;
    Ok(Sliced::new(SensorsJob::new(config)))
}

fn run(config: SensorsConfig) -> SensorsOutput {
    start(config).unwrap().finish()
}

fn small() -> SensorsConfig {
    SensorsConfig { pages: 2000, horizon: 600_000, week: 600_000, sample_every: 1000, stationary_from: 300_000, ..Default::default() }
}

fn get(out: &SensorsOutput, c: Concept) -> &ConceptResult {
    out.results.iter().find(|r| r.concept == c).unwrap()
}

/// No changes: every copy stays fresh; the robot's fixed 10-unit downloads make its
/// cycles end at exact multiples of 10·N (units 0 to the horizon, inclusive); the
/// sensors never notify.
#[test]
fn a_world_without_changes_has_known_answers() {
    let out = run(SensorsConfig { pages: 100, horizon: 10_000, sample_every: 100, stationary_from: 5000, changes_per_week: 0.0, download_min: 10, download_max: 10, ..small() });
    let robot = get(&out, Concept::Robot);
    assert_eq!(robot.cycle_ends, (1..=10).map(|k| k * 1000).collect::<Vec<u64>>());
    assert!(robot.freshness.iter().all(|&f| f == 1.0));
    assert_eq!(robot.useful_downloads, 0);
    assert_eq!(robot.downloads, 1000, "a download every 10 units, the last ending at the horizon");
    let sizes: u64 = (0..100).map(|i| PageLife::new(Stream::of(1, Purpose::PageChanges, i), &SensorsConfig::default().rules(), 0.0).size as u64).sum();
    assert_eq!(robot.bytes, 10 * sizes);
    let sensors = get(&out, Concept::Sensors);
    assert_eq!((sensors.notifications, sensors.downloads, sensors.bytes), (0, 0, 0));
    assert!(sensors.freshness.iter().all(|&f| f == 1.0));
}

/// Without requests the sensors see nothing: each page stays fresh until its first
/// effective change, so freshness follows e^{−μ' t}.
#[test]
fn silent_sensors_let_freshness_decay_exponentially() {
    let config = SensorsConfig { pages: 20_000, requests_per_week: 0.0, concepts: vec![Concept::Sensors], ..small() };
    let mu = config.changes_per_week / config.week as f64 * config.effective_share();
    let out = run(config);
    let f = &get(&out, Concept::Sensors).freshness;
    for k in [50, 100, 300, 600] {
        let want = (-mu * (k * 1000) as f64).exp();
        let sd = (want * (1.0 - want) / 20_000.0).sqrt();
        assert!((f[k] - want).abs() < 4.5 * sd + 1e-9, "t = {}: {} vs {want}", k * 1000, f[k]);
    }
}

/// With every change event effective and no error state, the robot revisits each page
/// once per cycle T, and its stationary freshness is (1 − e^{−μT})/(μT).
#[test]
fn the_robot_matches_the_closed_form_of_cyclic_revisits() {
    let config = SensorsConfig {
        pages: 5000,
        no_change_rules: false,
        states: [0.0, 0.0, 0.0, 0.5, 0.5, 0.0],
        concepts: vec![Concept::Robot],
        horizon: 3_000_000,
        week: 600_000,
        stationary_from: 800_000,
        ..small()
    };
    let mu = config.changes_per_week / config.week as f64;
    let out = run(config);
    let r = get(&out, Concept::Robot);
    let ends = &r.cycle_ends;
    let t = (ends[ends.len() - 1] - ends[0]) as f64 / (ends.len() - 1) as f64;
    let want = crate::core::math::freshness::a_star_ratio(mu * t);
    let (mean, half) = (r.stationary_mean.unwrap(), r.stationary_half_width.unwrap());
    assert!((mean - want).abs() <= half.max(2e-3), "{mean} ± {half} vs {want} (T = {t})");
}

#[test]
fn losing_notifications_costs_freshness_and_sensing_half_the_pages_lies_between() {
    let base = small();
    let full = get(&run(base.clone()), Concept::Sensors).stationary_mean.unwrap();
    let lossy = get(&run(SensorsConfig { notification_loss: 0.5, ..base.clone() }), Concept::Sensors).clone();
    assert!(lossy.stationary_mean.unwrap() < full - 0.05);
    assert!(lossy.lost_notifications > lossy.notifications / 3);
    // half the pages sensed, the robot covering the other half twice as often
    let out = run(SensorsConfig { sensor_share: 0.5, ..base });
    let (robot, half) = (get(&out, Concept::Robot).stationary_mean.unwrap(), get(&out, Concept::Sensors).stationary_mean.unwrap());
    assert!(robot < half, "{robot} < {half}");
    assert_eq!(get(&out, Concept::Sensors).sensed_pages, 1000);
}

#[test]
fn a_smart_robot_beats_the_cycle_when_rates_differ() {
    let base = SensorsConfig { rate_spread: 30.0, concepts: vec![Concept::Robot], ..small() };
    let cycle = get(&run(base.clone()), Concept::Robot).stationary_mean.unwrap();
    let merge = get(&run(SensorsConfig { robot_order: RobotOrder::Merge, ..base }), Concept::Robot).stationary_mean.unwrap();
    assert!(merge > cycle + 0.02, "MERGE {merge} vs cycle {cycle}");
}

#[test]
fn more_robots_are_fresher_and_the_sweep_reports_them() {
    let out = run(SensorsConfig { concepts: vec![Concept::Sensors], robot_sweep: vec![1, 4, 16], ..small() });
    let means: Vec<f64> = out.sweep.iter().map(|p| p.stationary_mean.unwrap()).collect();
    assert!(means.windows(2).all(|w| w[0] < w[1]), "{means:?}");
    assert!(out.sweep[2].bytes_per_week > 3.0 * out.sweep[0].bytes_per_week);
}

#[test]
fn slicing_and_partials_do_not_change_a_bit() {
    let config = small();
    // slices of 10,000 events (the whole run is one slice of the default length)
    let mut job = Sliced::new(SensorsJob::new(config.clone()).with_slice_events(10_000.0));
    job.advance(1);
    let partial = job.partial();
    assert!(!partial.done && !partial.results.is_empty() && !partial.results[0].complete);
    let mut budget = 12_345;
    while !job.done() {
        job.advance(budget);
        budget = budget * 7 % 900_001 + 1;
    }
    assert_eq!(job.finish(), run(config));
}

/// Slices of 10,000 events (16 here) or one slice for the whole run: the same bits.
#[test]
fn the_slice_length_does_not_change_a_bit() {
    let config = small();
    let sliced = Sliced::new(SensorsJob::new(config.clone()).with_slice_events(10_000.0));
    let whole = Sliced::new(SensorsJob::new(config).with_slice_events(1e12));
    assert_eq!(sliced.finish(), whole.finish());
}

#[cfg(target_pointer_width = "64")]
#[test]
fn the_stated_size_covers_the_layout() {
    use super::robot::Watched;
    assert!(std::mem::size_of::<Watched>() as u64 + 8 <= Watched::BYTES);
}

#[test]
fn bad_input_is_refused() {
    let bad = |c: SensorsConfig| start(c).err().unwrap().field;
    let d = small;
    assert_eq!(bad(SensorsConfig { pages: 0, ..d() }), "pages");
    assert_eq!(bad(SensorsConfig { download_max: 0, ..d() }), "download_max");
    assert_eq!(bad(SensorsConfig { states: [0.0; 6], ..d() }), "states");
    assert_eq!(bad(SensorsConfig { states: [0.1, -0.1, 0.2, 0.2, 0.2, 0.2], ..d() }), "states[1]");
    assert_eq!(bad(SensorsConfig { stationary_from: 700_000, ..d() }), "stationary_from");
    assert_eq!(bad(SensorsConfig { notification_loss: 2.0, ..d() }), "notification_loss");
    assert_eq!(bad(SensorsConfig { concepts: vec![], ..d() }), "concepts");
}

/// Issue 16: the page's pool of workers — the sensors' pages shared out, the robots'
/// concept and the sweep's robot counts dealt out, each part run on its own, the results
/// joined — gives the whole run's result to the last bit, and so do partial results
/// joined mid-run; a join that lacks a part is not done; a part names only runs and
/// shares that exist.
#[test]
fn parts_of_a_split_run_join_into_the_whole() {
    let config = SensorsConfig { pages: 300, horizon: 100_000, week: 100_000, sample_every: 2000, stationary_from: 50_000, sensor_share: 0.5, robot_sweep: vec![2, 3], ..small() };
    let whole = run(config.clone());
    // 150 sensed pages in shards of 10
    let pieces = config.sensed_pieces();
    assert_eq!(pieces.len(), 16, "the robots' list and 15 shards");
    for parts in [2, 3, 4, 16, 19, 40] {
        let split = config.split(parts);
        assert_eq!(split.len(), parts.min(19), "{parts} parts: three runs and 16 parts of the sensors' run");
        let mut own: Vec<u64> = split.iter().flat_map(|c| c.sensed_parts.clone().unwrap_or_default()).collect();
        own.sort_unstable();
        assert_eq!(own, (0..16).collect::<Vec<_>>(), "every part of the sensors' run once");
        let mut dealt: Vec<u64> = split.iter().flat_map(|c| c.only_runs.clone().unwrap()).filter(|&k| k != 1).collect();
        dealt.sort_unstable();
        assert_eq!(dealt, vec![0, 2, 3], "every other run once");
        assert!(split.iter().all(|c| c.only_runs.as_ref().unwrap().contains(&1) == c.sensed_parts.is_some() && c.whole() == config && c.validate().is_ok()));
        let work: f64 = split.iter().map(|c| c.cost().work).sum();
        assert!((work / config.cost().work - 1.0).abs() < 1e-9, "{parts} parts: the parts' work adds up to the whole's");
        let outputs: Vec<SensorsOutput> = split.iter().cloned().map(run).collect();
        assert_eq!(config.merge(outputs.clone()), whole, "{parts} parts");
        let missing = outputs.iter().position(|o| o.config.sensed_parts.is_some()).unwrap();
        let short = config.merge(outputs.iter().enumerate().filter(|&(k, _)| k != missing).map(|(_, o)| o.clone()).collect());
        assert!(!short.done && short.results.iter().all(|r| r.concept != Concept::Sensors), "{parts} parts, one missing");
    }
    // two workers on the article's experiment: the robots' concept beside seven of the 16
    // shards, nine on the other
    let article: Vec<(Vec<u64>, usize)> = SensorsConfig::default().split(2).into_iter().map(|c| (c.only_runs.unwrap(), c.sensed_parts.map_or(0, |p| p.len()))).collect();
    assert_eq!(article, vec![(vec![0, 1], 7), (vec![1], 9)]);
    // runs alone dealt out when the sensors' run is not split
    let robots_only = SensorsConfig { concepts: vec![Concept::Robot], ..config.clone() };
    let split = robots_only.split(2);
    assert!(split.iter().all(|c| c.sensed_parts.is_none()) && split.len() == 2);
    assert_eq!(robots_only.merge(split.into_iter().map(run).collect()), run(robots_only));
    // too many downloads for the page's join: the runs alone are dealt out
    let large: Vec<Option<Vec<u64>>> = SensorsConfig { pages: 5_000_000, ..Default::default() }.split(2).into_iter().map(|c| c.only_runs).collect();
    assert_eq!(large, vec![Some(vec![1]), Some(vec![0])]);
    assert_eq!(config.split(1), vec![config.clone()]);
    let bad = SensorsConfig { only_runs: Some(vec![0, 4]), ..config.clone() };
    assert_eq!(bad.validate().unwrap_err().field, "only_runs[1]");
    let none = SensorsConfig { only_runs: Some(vec![]), ..config.clone() };
    assert_eq!(none.validate().unwrap_err().field, "only_runs");
    let share = SensorsConfig { sensed_parts: Some(vec![3, 16]), ..config.clone() };
    assert_eq!(share.validate().unwrap_err().field, "sensed_parts[1]");
    let robots = SensorsConfig { only_runs: Some(vec![0]), sensed_parts: Some(vec![0]), ..config };
    assert_eq!(robots.validate().unwrap_err().field, "sensed_parts");
}

/// Partial results of the parts, joined as the page does while they run, equal the
/// whole run's partial result at the same slice (every part sliced alike).
#[test]
fn partial_results_of_the_parts_join_into_the_whole_runs() {
    let config = SensorsConfig { pages: 400, horizon: 200_000, week: 100_000, sample_every: 2000, stationary_from: 50_000, ..small() };
    let slice_events = 20_000.0;
    let sliced = |c: SensorsConfig| Sliced::new(SensorsJob::new(c).with_slice_events(slice_events));
    let mut whole = sliced(config.clone());
    let mut parts: Vec<_> = config.split(3).into_iter().map(sliced).collect();
    for step in 0..6 {
        whole.advance(1);
        for p in parts.iter_mut() {
            p.advance(1);
        }
        let joined = config.merge(parts.iter().map(|p| p.partial()).collect());
        assert_eq!(joined.results, whole.partial().results, "step {step}");
    }
}

/// The fuzz campaign's case 39,693: requests go to sensed pages only, so a robots-only
/// run is sliced by its changes (700,000 requests a page a week had cut it into 46,667
/// slices, each a pass over 200,000 pages: 35 s against 0.04 s estimated).
#[test]
fn a_robots_only_run_is_not_sliced_by_requests_it_never_makes() {
    use super::job::SLICE_EVENTS;
    let robots = SensorsConfig { concepts: vec![Concept::Robot], requests_per_week: 700_000.0, ..SensorsConfig::default() };
    let quiet = SensorsConfig { requests_per_week: 0.0, ..robots.clone() };
    assert_eq!(robots.slices(SLICE_EVENTS), quiet.slices(SLICE_EVENTS));
    let sensed = SensorsConfig { concepts: vec![Concept::Sensors], ..robots.clone() };
    assert!(sensed.slices(SLICE_EVENTS) > 100.0 * robots.slices(SLICE_EVENTS), "a run with sensors counts its requests");
}

#[test]
fn the_cost_of_a_share_over_one_is_computed_and_the_share_refused() {
    // the fuzz campaign's case 3,681: the cost subtracted past 0 before the checks ran
    let config = SensorsConfig { sensor_share: 1.9, robot_order: RobotOrder::Merge, concepts: vec![Concept::Robot], ..SensorsConfig::default() };
    assert!(config.cost().seconds.is_finite());
    assert_eq!(config.validate().unwrap_err().field, "sensor_share");
}
