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
use crate::core::input::InputError;
use crate::core::model::source::RepositorySource;
use job::LearningJob;

impl Experiment for LearningConfig {
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
