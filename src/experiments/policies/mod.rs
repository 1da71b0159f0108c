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

use super::{Experiment, FileInput, Job, Preset, Sliced};
use crate::chart::figure::Figure;
use crate::core::input::InputError;
use crate::core::limits::Cost;
use crate::core::model::page_list;
use crate::table::Table;

/// MERGE, DELAYED, RANDOM and UNPOLITE against the POLITE bound (Fig 5.8).
pub struct Policies;

/// `--repository FILE` and `--page-list FILE`: a page list read by the CLI.
pub const PAGE_LIST_FILES: &[FileInput] = &[
    FileInput {
        flag: "repository",
        field: "page_list",
        sets: Some(("source", "page_list")),
        check: |bytes| page_list::parse(bytes, "page_list").map(|_| ()),
        max_bytes: page_list::MAX_BYTES,
        help: "your own pages: page,server,change_rate[,weight][,frequency] (per day)",
    },
    FileInput {
        flag: "page_list",
        field: "page_list",
        sets: Some(("source", "page_list")),
        check: |bytes| page_list::parse(bytes, "page_list").map(|_| ()),
        max_bytes: page_list::MAX_BYTES,
        help: "the same as --repository",
    },
];

impl Experiment for Policies {
    const NAME: &'static str = "policies";
    const SUMMARY: &'static str =
        "MERGE, RANDOM, DELAYED, UNPOLITE and deployed crawlers on a WEBBASE-like repository or your page list, against the POLITE bound (thesis Fig 5.8)";
    type Config = PoliciesConfig;
    type Output = PoliciesOutput;

    fn validate(config: &PoliciesConfig) -> Result<(), InputError> {
        config.validate()
    }

    fn cost(config: &PoliciesConfig) -> Cost {
        let (pages, servers) = config.pages().shape();
        config.cost_for(pages, servers)
    }

    fn start(config: PoliciesConfig) -> Result<Box<dyn Job<PoliciesOutput>>, InputError> {
        Ok(Box::new(Sliced::new(PoliciesJob::new(config)?)))
    }

    fn figures(output: &PoliciesOutput) -> Vec<Figure> {
        figures::policies(output)
    }

    fn table(output: &PoliciesOutput) -> Table {
        table::table(output)
    }

    fn presets() -> Vec<Preset<PoliciesConfig>> {
        vec![Preset { name: "webbase", label: "WEBBASE scale: 14.5 M pages on 5,462 servers, P = 15 s, six years", config: PoliciesConfig::webbase() }]
    }

    fn files() -> &'static [FileInput] {
        PAGE_LIST_FILES
    }
}
