//! The repository experiment (spec §1.4, thesis Fig 5.8): freshness over time of MERGE,
//! DELAYED, RANDOM and UNPOLITE under an allocation, at several total frequencies C,
//! against the POLITE bound; and the schedules of deployed crawlers, each compared
//! with MERGE and the POLITE bound at the bandwidth it actually used.

pub mod config;
pub mod figures;
pub mod job;
pub mod microscope;
pub mod output;
pub mod table;
#[cfg(test)]
mod tests;

pub use config::{CLASSROOM_POLITENESS_SECONDS, Estimate, PoliciesConfig, SIX_YEARS, WEBBASE_POLITENESS_SECONDS};
pub use job::PoliciesJob;
pub use output::{CapacityResult, CrawlerResult, PoliciesOutput, PolicyCurve, published_ratio};

use super::{Experiment, FileInput, Job, Preset, Sliced, inputs};
use crate::core::input::InputError;

/// MERGE, DELAYED, RANDOM and UNPOLITE against the POLITE bound (Fig 5.8).
pub struct Policies;

impl Experiment for Policies {
    const NAME: &'static str = "policies";
    const SUMMARY: &'static str =
        "MERGE, RANDOM, DELAYED, UNPOLITE and deployed crawlers on a WEBBASE-like repository or your page list, against the POLITE bound (thesis Fig 5.8)";
    type Config = PoliciesConfig;
    type Output = PoliciesOutput;

    fn start(config: PoliciesConfig) -> Result<Box<dyn Job<PoliciesOutput>>, InputError> {
        Ok(Box::new(Sliced::new(PoliciesJob::new(config)?)))
    }

    fn presets() -> Vec<Preset<PoliciesConfig>> {
        vec![Preset { name: "webbase", label: "WEBBASE scale: 14.5 M pages on 5,462 servers, P = 15 s, six years", config: PoliciesConfig::webbase() }]
    }

    fn files() -> &'static [FileInput] {
        &[inputs::PAGE_LIST]
    }
}
