//! Tests of the bursty-changes experiment.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::chart::format::thousands;
use crate::core::model::bursty::BurstyGenerator;
use crate::core::units::Seconds;
use crate::experiments::{Figures, Settings};

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
    let (at3, at9) = (pilot::greedy_work(&config(3)).unwrap(), pilot::greedy_work(&config(9)).unwrap());
    assert!(at9.evaluated == at3.evaluated && (at9.drawn / (3.0 * at3.drawn) - 1.0).abs() < 1e-12, "{at3:?} {at9:?}");
}

/// GREEDY's work per article and request in a run of `config`.
fn greedy_work_of(config: &BurstyConfig) -> (f64, f64) {
    let (requests, evaluated, drawn) = BurstyJob::new(config.clone()).unwrap().greedy_counts(f64::INFINITY);
    let per = (requests * config.generator.articles) as f64;
    (evaluated as f64 / per, drawn as f64 / per)
}

/// Where the run is within the pilot's limits (20 articles, 1,728 requests), the pilot
/// is the run: its counts are the run's GREEDY's.
#[test]
fn the_pilot_of_a_small_run_is_the_run() {
    let config =
        BurstyConfig { generator: BurstyGenerator { articles: 20, days: 5.0, ..BurstyGenerator::default() }, policies: vec![BurstyPolicy::Greedy], ..BurstyConfig::default() };
    let work = pilot::greedy_work(&config).unwrap();
    assert_eq!((work.evaluated, work.drawn), greedy_work_of(&config));
}

/// The pilot (32 articles, each requested as often as in the run) scaled to 96 articles
/// gives the run's work within ½–2×, at burstiness 0.5 and 3, whose draws differ tenfold.
#[test]
fn the_pilot_follows_burstiness_and_the_articles() {
    let at = |burstiness| BurstyConfig {
        generator: BurstyGenerator { articles: 96, days: 20.0, burstiness, ..BurstyGenerator::default() },
        policies: vec![BurstyPolicy::Greedy],
        ..BurstyConfig::default()
    };
    let mut draws = Vec::new();
    for burstiness in [0.5, 3.0] {
        let (evaluated, drawn) = greedy_work_of(&at(burstiness));
        let pilot = pilot::greedy_work(&at(burstiness)).unwrap();
        for (what, estimated, ran) in [("evaluated", pilot.evaluated, evaluated), ("drawn", pilot.drawn, drawn)] {
            assert!((0.5..=2.0).contains(&(estimated / ran)), "burstiness {burstiness}, {what}: pilot {estimated}, run {ran}");
        }
        draws.push(drawn);
    }
    assert!(draws[1] > 5.0 * draws[0], "{draws:?}");
}
