//! A synthetic stand-in for the thesis's Wikipedia edit histories (spec §2), for when
//! no trace is imported: each article changes as a renewal process with lognormal
//! intervals (heavy-tailed, bursty: many edits minutes apart, then quiet weeks), and,
//! like the thesis's sample, only articles with at least a given number of changes a
//! year are kept.

use super::trace::Trace;
use crate::core::field::{Nested, settings};
use crate::core::input::{InputError, ordered};
use crate::core::limits::{Cost, Fix};
use crate::core::math::elementary::{exp, ln, pow};
use crate::core::rng::{Purpose, Stream};
use serde::{Deserialize, Serialize};

const MINUTES_PER_YEAR: f64 = 525_600.0;
/// Candidates drawn per article before giving up on the acceptance rule.
const TRIES: usize = 1000;
/// Native time per interval drawn (a normal draw and an exponential).
const SECONDS_PER_DRAW: f64 = 40e-9;

settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BurstyGenerator {
    pub articles: u64 = 1000; integer("articles (generator)").help("the thesis: 10,000").count(1, super::trace::MAX_PAGES as u64).why("the trace limit");
    pub days: f64 = 365.0; number("days (generator)").help("the thesis: 365 (2007)").at_least(1.0).at_most(3660.0);
    /// Articles are drawn with a mean rate log-uniform in [rate_min, rate_max] changes
    /// a year… (below one change in a million years a rate means nothing, and
    /// rate_max/rate_min must stay finite: 1e-306 made it overflow and every interval 0,
    /// an endless loop)
    pub rate_min: f64 = 300.0; number("mean changes a year, from").at_least(1e-6);
    pub rate_max: f64 = 3000.0; number("mean changes a year, to").positive().at_most(525_600.0);
    /// …and kept only with at least this many changes a year (the thesis: 300 in 2007).
    pub min_changes_per_year: f64 = 300.0; number("keep articles with at least (changes a year)").help("the thesis: 300").at_least(0.0);
    /// σ of the intervals' lognormal law: 0 is periodic, 2 is very bursty
    /// (coefficient of variation √(e^{σ²} − 1) ≈ 7.3).
    pub burstiness: f64 = 2.0; number("burstiness σ").help("0: periodic; 2: edits minutes apart, then quiet weeks").at_least(0.0).at_most(3.0);
}
}

impl Nested for BurstyGenerator {
    /// rate_min ≤ rate_max; a keep threshold some articles can pass; a trace of bounded size.
    fn rules(&self, prefix: &str) -> Result<(), InputError> {
        let f = |name: &str| format!("{prefix}{name}");
        if self.rate_max < self.rate_min {
            ordered(&f("rate_min"), self.rate_min, &f("rate_max"), self.rate_max)?;
        }
        if self.min_changes_per_year > 2.0 * self.rate_max {
            return Err(InputError::new(
                f("min_changes_per_year"),
                format!("is more than twice the highest mean rate ({}): few articles would pass; raise {} or lower this", self.rate_max, f("rate_max")),
            ));
        }
        let changes = self.articles as f64 * self.rate_max * self.days / 365.0;
        if changes > super::trace::MAX_ROWS as f64 {
            return Err(InputError::new(
                f("articles"),
                format!("could make up to {changes:.2e} changes, over the {} a trace may hold; use fewer articles, days or a lower {}", super::trace::MAX_ROWS, f("rate_max")),
            ));
        }
        Ok(())
    }
}

impl BurstyGenerator {
    /// Generating the trace: at most `TRIES` candidates per article, each drawing its
    /// intervals up to the horizon (about rate × days draws; a bursty law draws a few
    /// more that fall within a minute of the last).
    pub fn cost(&self) -> Cost {
        let draws_per_try = self.rate_max * self.days / 365.0 * 2.0 + 2.0;
        let expected = self.articles as f64 * draws_per_try;
        Cost {
            work: expected,
            unit: "interval draws".into(),
            bytes: self.articles as f64 * (self.rate_max * self.days / 365.0 * 8.0 + 64.0),
            // one candidate per article is the rule; every candidate rejected (TRIES each)
            // is the bound, and validation keeps it under an hour
            seconds: expected * SECONDS_PER_DRAW,
            memory_fix: Fix::new("generator.articles", "use fewer articles or days"),
            time_fix: Fix::new("generator.min_changes_per_year", "lower it or raise generator.rate_min, or use fewer articles"),
        }
    }

    pub fn minutes(&self) -> f64 {
        self.days * 1440.0
    }

    /// The changes of every article (article k from its own stream).
    pub fn generate(&self, seed: u64) -> Result<Trace, InputError> {
        self.validate("generator.")?;
        let horizon = self.minutes();
        let needed = (self.min_changes_per_year * self.days / 365.0).ceil() as usize;
        let sigma = self.burstiness;
        let mut pages = Vec::with_capacity(self.articles as usize);
        for k in 0..self.articles {
            let mut rng = Stream::of(seed, Purpose::BurstyArticle, k);
            let mut accepted = None;
            for _ in 0..TRIES {
                let rate = self.rate_min * pow(self.rate_max / self.rate_min, rng.uniform());
                let mean = MINUTES_PER_YEAR / rate;
                // lognormal with that mean: e^{m + σZ}, m = ln(mean) − σ²/2
                let m = ln(mean) - 0.5 * sigma * sigma;
                let interval = |rng: &mut Stream| exp(m + sigma * rng.normal());
                // start a month early so the first change is not at a renewal
                let mut t = -43_200.0 + interval(&mut rng);
                let mut changes = Vec::new();
                while t < horizon {
                    if t >= 0.0 && changes.last().is_none_or(|&last| t > last) {
                        changes.push(t);
                    }
                    t += interval(&mut rng);
                }
                if changes.len() >= needed {
                    accepted = Some(changes);
                    break;
                }
            }
            let Some(changes) = accepted else {
                return Err(InputError::new(
                    "generator.min_changes_per_year",
                    format!("no article among {TRIES} drawn reached {needed} changes in {} days; lower it or raise generator.rate_min", self.days),
                ));
            };
            pages.push(changes);
        }
        let names = (0..self.articles).map(|k| format!("Article {}", k + 1)).collect();
        // the thesis's year: 2007-01-01 00:00 UTC
        Ok(Trace::from_pages(names, pages, 1_167_609_600.0, horizon))
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn articles_pass_the_threshold_and_are_bursty() {
        let c = BurstyGenerator { articles: 40, ..BurstyGenerator::default() };
        let t = c.generate(3).unwrap();
        assert_eq!(t.pages(), 40);
        let mut cvs = Vec::new();
        for i in 0..t.pages() {
            let ch = t.changes(i);
            assert!(ch.len() >= 300, "article {i}: {}", ch.len());
            assert!(ch.windows(2).all(|w| w[0] < w[1]) && ch[0] >= 0.0 && *ch.last().unwrap() < c.minutes());
            let gaps: Vec<f64> = ch.windows(2).map(|w| w[1] - w[0]).collect();
            let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
            let sd = (gaps.iter().map(|g| (g - mean) * (g - mean)).sum::<f64>() / gaps.len() as f64).sqrt();
            cvs.push(sd / mean);
        }
        cvs.sort_by(f64::total_cmp);
        // Poisson changes would give a coefficient of variation of 1
        assert!(cvs[cvs.len() / 2] > 2.0, "median CV {}", cvs[cvs.len() / 2]);
        assert_eq!(c.generate(3).unwrap(), t, "same seed, same trace");
    }

    #[test]
    fn impossible_thresholds_are_refused() {
        let c = BurstyGenerator { articles: 2, rate_min: 10.0, rate_max: 12.0, min_changes_per_year: 24.0, burstiness: 0.0, ..BurstyGenerator::default() };
        let e = c.generate(1).unwrap_err();
        assert_eq!(e.field, "generator.min_changes_per_year");
        let e = BurstyGenerator { rate_min: 0.0, ..BurstyGenerator::default() }.validate("generator.").unwrap_err();
        assert_eq!(e.field, "generator.rate_min");
        // issue 13: a subnormal rate made rate_max/rate_min overflow and the generator loop forever
        let e = BurstyGenerator { rate_min: 1e-306, ..BurstyGenerator::default() }.validate("generator.").unwrap_err();
        assert_eq!(e.field, "generator.rate_min");
        assert!(e.message.contains("at least"), "{}", e.message);
    }
}
