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
/// seed 5, case 334: 9 samples ran 3.1× an estimate that ignored them): the estimate's
/// time grows by the same amount from 3 to 9 samples as three times from 1 to 3.
#[test]
fn the_estimate_counts_greedys_samples() {
    let seconds = |greedy_samples| BurstyConfig { policies: vec![BurstyPolicy::Greedy], greedy_samples, ..small() }.cost().seconds;
    let (one, three, nine) = (seconds(1), seconds(3), seconds(9));
    assert!(three > one && ((nine - three) / (three - one) - 3.0).abs() < 1e-9, "{one} {three} {nine}");
}
