//! The thesis's chapter 6 experiment (spec §2): a repository of articles whose changes
//! are not Poisson — bursty, as Wikipedia's are — one server requested at equally
//! spaced times under politeness, and MERGE (Wolf et al. allocation), MERGE2 (histograms
//! from the first month), UNPOLITE, RANDOM and GREEDY (sampled as in the thesis, or
//! computed) at 20–100 % of the maximum request rate. Time runs in minutes from the
//! start of the period. The articles come from a trace or from the bursty generator.

pub mod config;
pub mod figures;
pub mod job;
pub mod output;
mod pilot;
pub mod table;
#[cfg(test)]
mod tests;

pub use config::{BurstyConfig, BurstyPolicy, Estimate, Source, thesis_scale};
pub use job::BurstyJob;
pub use output::{ArticleDetail, ArticleFetches, BurstyOutput, Gap, PUBLISHED, PolicyPoint, TraceSummary};

use super::{Choice, Experiment, FileInput, Job, Preset, Sliced, inputs};
use crate::core::input::InputError;
use crate::core::limits::{self};
use crate::core::policy::greedy::Overdue;

impl Experiment for BurstyConfig {
    type Output = BurstyOutput;

    /// A trace's real span and size are checked against the limits once it is read.
    fn start(self) -> Result<Box<dyn Job<BurstyOutput>>, InputError> {
        let job = BurstyJob::new(self)?;
        job.cost().check(&limits::here())?;
        Ok(Box::new(Sliced::new(job)))
    }

    fn presets() -> Vec<Preset<Self>> {
        vec![Preset { name: "thesis", label: "the thesis's scale: 10,000 articles over a year at P = 15 s (GREEDY takes hours)", config: thesis_scale() }]
    }

    fn files() -> &'static [FileInput] {
        &[inputs::TRACE]
    }

    fn choices() -> Vec<Choice> {
        vec![
            Choice::of("source", &Source::ALL, Source::label),
            Choice::of("policies", &BurstyPolicy::ALL, BurstyPolicy::label),
            Choice::of("overdue", &Overdue::ALL, Overdue::label),
        ]
    }
}
