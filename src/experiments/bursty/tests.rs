//! Tests of the bursty-changes experiment.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::chart::format::thousands;
use crate::core::model::bursty::BurstyGenerator;
use crate::core::units::Seconds;
use crate::experiments::{Figures, Settings};
use pilot::GREEDYS;

fn small() -> BurstyConfig {
    BurstyConfig {
        generator: BurstyGenerator { articles: 20, days: 40.0, ..BurstyGenerator::default() },
        politeness_seconds: Seconds(20_000.0),
        fractions: vec![0.5, 1.0],
        policies: vec![BurstyPolicy::Merge, BurstyPolicy::Random],
        training_days: 10.0,
        ..BurstyConfig::default()
    }
}

#[test]
fn the_article_is_followed_at_every_rate_and_shown_at_the_chosen_one() {
    let mut output = Sliced::new(BurstyJob::new(small()).unwrap()).finish();
    let fetched = |o: &BurstyOutput, p: BurstyPolicy, fraction: f64| o.article.fetches.iter().find(|f| f.policy == p && f.fraction == fraction).map(|f| f.count);
    for p in [BurstyPolicy::Merge, BurstyPolicy::Random] {
        assert!(fetched(&output, p, 0.5).is_some() && fetched(&output, p, 1.0).is_some(), "{p:?} at both rates");
    }
    // Wolf et al.'s allocation gives no article less when the budget grows
    let (half, full) = (fetched(&output, BurstyPolicy::Merge, 0.5).unwrap(), fetched(&output, BurstyPolicy::Merge, 1.0).unwrap());
    assert!(full > 0 && full >= half, "{half} then {full}");
    for (rate, percent) in [(0, "50 %"), (1, "100 %")] {
        output.config.article_rate = rate;
        let figure = &output.figures()[2];
        assert!(figure.title.contains(percent), "{}", figure.title);
        let merge = if rate == 0 { half } else { full };
        assert!(figure.summary.contains(&format!("MERGE ({} fetches)", thousands(merge as f64))), "{}", figure.summary);
    }
}

#[test]
fn a_repeated_rate_is_refused_by_name() {
    let config = BurstyConfig { fractions: vec![0.5, 1.0, 0.5], ..small() };
    let error = config.validate().unwrap_err();
    assert_eq!(error.field, "fractions[2]");
    assert!(error.message.contains("repeats an earlier rate (0.5)"), "{}", error.message);
}

#[test]
fn a_rate_beyond_the_list_is_refused_by_name() {
    let config = BurstyConfig { article_rate: 2, ..small() };
    let error = config.validate().unwrap_err();
    assert_eq!(error.field, "article_rate");
    assert!(error.message.contains("below the number of request rates (2)"), "{}", error.message);
}

#[test]
fn fetch_marks_count_every_fetch_and_keep_the_first_of_each_column() {
    // 40 minutes in 4,000 columns: a column is 0.01 minutes
    let mut marks = output::FetchMarks::new(40.0);
    for t in [0.001, 0.002, 0.015, 0.019, 39.999] {
        marks.record(t);
    }
    let fetches = marks.into_fetches(BurstyPolicy::Merge, 1.0);
    assert_eq!(fetches.count, 5);
    assert_eq!(fetches.times, vec![0.001, 0.015, 39.999]);
}

/// GREEDY's sampled evaluations cost in proportion to their samples (the fuzz campaign's
/// seed 5, case 334: 9 samples ran 3.1× an estimate that ignored them): the pilot draws
/// at most 3 samples an evaluation and scales its draws to the run's.
#[test]
fn the_estimate_counts_greedys_samples() {
    let config = |greedy_samples| BurstyConfig { policies: vec![BurstyPolicy::Greedy], greedy_samples, ..small() };
    let (one, three, nine) = (config(1).cost().seconds, config(3).cost().seconds, config(9).cost().seconds);
    assert!(one < three && three < nine, "{one} {three} {nine}");
    let (at3, at9) = (pilot_of(&config(3), BurstyPolicy::Greedy), pilot_of(&config(9), BurstyPolicy::Greedy));
    assert!(at9.evaluated == at3.evaluated && (at9.drawn / (3.0 * at3.drawn) - 1.0).abs() < 1e-12, "{at3:?} {at9:?}");
}

/// The pilot's work of `policy` (a GREEDY the run uses).
fn pilot_of(config: &BurstyConfig, policy: BurstyPolicy) -> pilot::GreedyWork {
    pilot::greedy_work(config)[GREEDYS.iter().position(|&p| p == policy).unwrap()].unwrap()
}

/// The work per article and request of `policy` (a GREEDY) in a run of `config`.
fn greedy_work_of(config: &BurstyConfig, policy: BurstyPolicy) -> (f64, f64) {
    let c = BurstyJob::new(config.clone()).unwrap().greedy_counts(policy, f64::INFINITY);
    let per = (c.requests * config.generator.articles) as f64;
    (c.evaluated as f64 / per, c.drawn as f64 / per)
}

/// A trace's articles, changes and period priced as they are (from its text or the
/// shape the page's worker read), not guessed from its size: 600 rows of 2 articles,
/// whose size reads as 504 rows of 1 article.
#[test]
fn a_traces_estimate_reads_its_articles_and_changes() {
    let text: String = (0..600).map(|i| format!("article {},{}\n", i % 2, 1_167_609_600 + 3_600 * i)).collect();
    let shape = crate::core::model::trace::TraceShape::of(&text).unwrap();
    let trace = BurstyConfig { source: Source::Trace, trace: Some(text.clone()), ..small() };
    let shaped = BurstyConfig { trace: None, trace_shape: Some(shape), ..trace.clone() };
    let sized = BurstyConfig { trace: None, trace_bytes: Some(text.len() as u64), ..trace.clone() };
    for config in [&trace, &shaped] {
        let e = config.estimate();
        assert_eq!((e.articles, e.changes), (2, 600));
        assert_eq!(e.per_policy, config.estimate_for(2, 600, 25.0 * 1440.0).per_policy, "600 hours end on the 25th day");
    }
    assert_eq!(sized.estimate().articles, 1, "the size alone reads {} rows of 300", text.len() / 25);
    // the article shown is checked against the articles known, before a run
    for config in [&trace, &shaped] {
        let e = BurstyConfig { article: 2, ..config.clone() }.validate().unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("article", "must be below the number of articles (2)"));
    }
    assert!(BurstyConfig { article: 2, ..sized }.validate().is_ok(), "a size says no articles: the run checks");
}

/// Where the run is within the pilot's limits (20 articles, 1,728 requests, 512 grid
/// steps), the pilot is the run: its counts are the run's, for both GREEDYs.
#[test]
fn the_pilot_of_a_small_run_is_the_run() {
    let config = BurstyConfig {
        generator: BurstyGenerator { articles: 20, days: 5.0, ..BurstyGenerator::default() },
        policies: GREEDYS.to_vec(),
        renewal_steps: 512,
        ..BurstyConfig::default()
    };
    for policy in GREEDYS {
        let work = pilot_of(&config, policy);
        assert_eq!((work.evaluated, work.drawn), greedy_work_of(&config, policy), "{policy:?}");
    }
}

/// The pilot (32 articles, each requested as often as in the run) scaled to 96 articles
/// gives the run's work within ½–2×, at burstiness 0.5 and 3, whose draws differ tenfold,
/// for both GREEDYs (the renewal equation's evaluated 0.24 to 0.68 of the articles a
/// request on 200 articles at these two burstinesses).
#[test]
fn the_pilot_follows_burstiness_and_the_articles() {
    let at = |burstiness| BurstyConfig {
        generator: BurstyGenerator { articles: 96, days: 20.0, burstiness, ..BurstyGenerator::default() },
        policies: GREEDYS.to_vec(),
        ..BurstyConfig::default()
    };
    let mut draws = Vec::new();
    for burstiness in [0.5, 3.0] {
        for policy in GREEDYS {
            let (evaluated, drawn) = greedy_work_of(&at(burstiness), policy);
            let pilot = pilot_of(&at(burstiness), policy);
            let mut checks = vec![("evaluated", pilot.evaluated, evaluated)];
            if policy == BurstyPolicy::Greedy {
                checks.push(("drawn", pilot.drawn, drawn));
                draws.push(drawn);
            }
            for (what, estimated, ran) in checks {
                assert!((0.5..=2.0).contains(&(estimated / ran)), "{policy:?}, burstiness {burstiness}, {what}: pilot {estimated}, run {ran}");
            }
        }
    }
    assert!(draws[1] > 5.0 * draws[0], "{draws:?}");
}

/// GREEDY (renewal eq.)'s estimate counts its tables' building, a grid step an article,
/// and the articles its pilot evaluates: fewer at burstiness 0.5 than at 3 (0.24 against
/// 0.68 of them a request on 200 articles), where pricing every article ran 2.8× over.
#[test]
fn the_renewal_equations_estimate_counts_its_tables_and_its_evaluations() {
    let at = |burstiness, renewal_steps| BurstyConfig {
        generator: BurstyGenerator { articles: 200, days: 60.0, burstiness, ..BurstyGenerator::default() },
        policies: vec![BurstyPolicy::GreedyExact],
        renewal_steps,
        ..BurstyConfig::default()
    };
    let seconds = |c: BurstyConfig| c.cost().seconds;
    let tables = seconds(at(2.0, 8192)) - seconds(at(2.0, 512));
    let expected = 200.0 * 7680.0 * 95e-9;
    assert!((tables / expected - 1.0).abs() < 1e-9, "{tables} against {expected}");
    let (calm, bursty) = (seconds(at(0.5, 2048)), seconds(at(3.0, 2048)));
    assert!(bursty > 1.3 * calm, "burstiness 0.5: {calm} s, 3: {bursty} s");
}

/// The page's form sends the pilot its worker ran (`greedy_pilot`): with this
/// configuration's key it prices the run as the pilot run here does; with another's
/// (an edit since), or none yet, both GREEDYs are priced without a pilot — the pilot
/// never runs where it was given. The article shown is not among its inputs.
#[test]
fn a_pilot_run_elsewhere_stands_for_its_own_inputs_only() {
    let config = BurstyConfig { policies: GREEDYS.to_vec(), ..BurstyConfig::default() };
    let ran = pilot::run_for(&config).unwrap();
    assert!(ran.works.unwrap().iter().all(Option::is_some), "both GREEDYs: {ran:?}");
    let with = |pilot: pilot::GreedyPilot| BurstyConfig { greedy_pilot: Some(pilot), ..config.clone() };
    assert_eq!(with(ran.clone()).cost(), config.cost(), "the worker's pilot is the one run here");
    assert_eq!(pilot::greedy_work(&with(ran.clone())), pilot::greedy_work(&config));
    let other = BurstyConfig { generator: BurstyGenerator { burstiness: 0.5, ..config.generator.clone() }, ..config.clone() };
    assert_ne!(pilot::key(&other), Some(ran.key.clone()), "burstiness is an input");
    assert_eq!(pilot::key(&BurstyConfig { article: 7, ..config.clone() }), Some(ran.key.clone()), "the article shown is not");
    let stale = BurstyConfig { greedy_pilot: Some(ran.clone()), ..other.clone() };
    let running = with(pilot::GreedyPilot { key: ran.key.clone(), works: None });
    for unpiloted in [stale, running] {
        assert_eq!(pilot::greedy_work(&unpiloted), [None; 2]);
        assert_ne!(unpiloted.cost().seconds, config.cost().seconds, "priced as without a pilot");
    }
    // not part of the run: its result's configuration leaves it out
    let small_greedy = BurstyConfig { policies: vec![BurstyPolicy::Greedy], ..small() };
    let given = BurstyConfig { greedy_pilot: pilot::run_for(&small_greedy), ..small_greedy.clone() };
    assert_eq!(Sliced::new(BurstyJob::new(given).unwrap()).finish().config, small_greedy);
    // none where none is needed
    assert_eq!(pilot::key(&small()), None, "no GREEDY");
    assert_eq!(pilot::key(&BurstyConfig { generator: BurstyGenerator { articles: 0, ..config.generator.clone() }, ..config.clone() }), None, "refused");
}

/// A pilot sent by hand is checked: counts a pilot can give, and only where a pilot
/// can run.
#[test]
fn a_pilot_that_no_pilot_gives_is_refused() {
    let config = BurstyConfig { policies: GREEDYS.to_vec(), ..BurstyConfig::default() };
    let ran = pilot::run_for(&config).unwrap();
    let [sampled, exact] = ran.works.unwrap();
    for bad in [f64::NAN, -1.0, f64::INFINITY] {
        let work = pilot::GreedyWork { evaluated: bad, ..sampled.unwrap() };
        let e = BurstyConfig { greedy_pilot: Some(pilot::GreedyPilot { works: Some([Some(work), exact]), ..ran.clone() }), ..config.clone() }.validate().unwrap_err();
        assert_eq!(e.field, "greedy_pilot", "{bad}: {e}");
    }
    let long = pilot::GreedyPilot { key: "0".repeat(65), ..ran.clone() };
    assert_eq!(BurstyConfig { greedy_pilot: Some(long), ..config.clone() }.validate().unwrap_err().field, "greedy_pilot");
    let on_trace = BurstyConfig { source: Source::Trace, trace_bytes: Some(1000), greedy_pilot: Some(ran), ..config };
    let e = on_trace.validate().unwrap_err();
    assert_eq!((e.field.as_str(), e.message.contains("a trace's GREEDYs have no pilot")), ("greedy_pilot", true), "{e}");
}
