//! "Learning to crawl": crawlers that do not know the change rates. Each page's rate
//! is estimated from what the crawler sees (Cho & Garcia-Molina 2003) and the schedule
//! re-solved — LambdaLearnAndCrawl (Kolobov et al., NeurIPS 2019), explore-then-commit
//! (Upadhyay et al., AAAI 2020), the thesis's MERGE on learned rates — against the
//! oracle that knows the rates and a uniform schedule, at equal bandwidth under
//! per-server politeness; for binary freshness (Azar et al. 2018), harmonic staleness
//! or the thesis's freshness.

pub mod config;
pub mod figures;
pub mod job;
pub mod output;
pub mod table;
#[cfg(test)]
mod tests;
pub mod watch;

pub use config::{LearningConfig, LearningPolicy, Spacing};
pub use output::LearningOutput;

use super::{Choice, Experiment, FileInput, Job, Sliced, inputs};
use crate::core::alloc::objective::Objective;
use crate::core::field::Field;
use crate::core::input::InputError;
use crate::core::model::source::Pages;
use crate::core::model::source::RepositorySource;
use job::LearningJob;

impl Experiment for LearningConfig {
    fn fields() -> Vec<Field> {
        let mut fields = Pages::fields();
        fields.extend([
            Field::number("capacity", "bandwidth (requests a day)"),
            Field::politeness_or_none(),
            Field::select("objective", "objective"),
            Field::select("spacing", "the oracle’s and learners’ crawls").help("Poisson crawls keep P on average only"),
            Field::choices("policies", "policies").help("Nutch and StormCrawler have their intervals scaled until they spend the bandwidth"),
            Field::number("horizon_days", "horizon (days)"),
            Field::number("epoch_days", "learners re-estimate every (days)"),
            Field::number("explore_days", "explore-then-commit explores for (days)"),
            Field::number("prior_days", "prior interval (days)").help("each page starts with one changed and one unchanged interval this long"),
            Pages::observed_share_field(),
            Field::integer("estimator_visits", "visits per page in the estimators chart"),
            Field::integer("estimator_runs", "pages per point in the estimators chart"),
            Field::integer("bins", "time bins"),
            Field::seed(),
        ]);
        fields
    }

    type Output = LearningOutput;

    fn start(self) -> Result<Box<dyn Job<LearningOutput>>, InputError> {
        let job = LearningJob::new(self)?;
        Ok(Box::new(Sliced::new(job)))
    }

    fn files() -> &'static [FileInput] {
        &[inputs::PAGE_LIST]
    }

    fn choices() -> Vec<Choice> {
        vec![
            Choice::of("source", &RepositorySource::ALL, RepositorySource::label),
            Choice::of("policies", &LearningPolicy::ALL, LearningPolicy::label),
            Choice::of("objective", &[Objective::Harmonic, Objective::Binary, Objective::Freshness], Objective::label),
            Choice::of("spacing", &Spacing::ALL, Spacing::label),
        ]
    }
}
