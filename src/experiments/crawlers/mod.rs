//! Your crawler on your pages (issue 46): a deployed crawler configured from its own
//! file (Nutch, StormCrawler, Heritrix, Scrapy: `core::policy::crawler_files`), run on
//! generated pages or a page list, against MERGE on OPT_POLITE at the bandwidth the
//! crawler used; freshness over time, fetches of pages that had not changed, politeness.

pub mod config;
pub mod job;
pub mod output;
mod overlays;
mod pilot;
#[cfg(test)]
mod tests;

use crate::core::model::host::Refusal;
pub use config::CrawlersConfig;
pub use output::{CrawlersOutput, RunResult, Tuned};

use super::{Choice, Experiment, FileInput, FileOutput, Job, Sliced, inputs};
use crate::core::input::InputError;
use crate::core::model::source::RepositorySource;
use crate::core::policy::crawler_files::Crawler;
use crate::core::policy::crawler_files::nutch::Nutch1564;
use crate::core::policy::crawler_files::tuning::Objective;
use crate::core::policy::pushback::Backoff;
use job::CrawlersJob;

impl Experiment for CrawlersConfig {
    type Output = CrawlersOutput;

    fn start(self) -> Result<Box<dyn Job<CrawlersOutput>>, InputError> {
        Ok(Box::new(Sliced::new(CrawlersJob::new(self)?)))
    }

    fn files() -> &'static [FileInput] {
        &[inputs::PAGE_LIST, inputs::CRAWLER_CONFIG, inputs::HOST_INTERVALS, inputs::MIME_RATES, inputs::SEED_LIST, inputs::HERITRIX_OVERRIDES]
    }

    fn files_out() -> &'static [FileOutput] {
        &[
            FileOutput { flag: "tuned", sets: Some("tune"), help: "writes the tuned configuration, in the crawler's own format (the run searches for it)" },
            FileOutput {
                flag: "tuned_hosts",
                sets: Some("tune"),
                help: "writes the tuned adaptive-host-specific-intervals.txt (Nutch on a page list's hosts), when the tuning kept one",
            },
            FileOutput {
                flag: "tuned_mimes",
                sets: Some("tune"),
                help: "writes the tuned adaptive-mimetypes.txt (Nutch's MimeAdaptiveFetchSchedule on pages typed by their Content-Type), when the tuning moved its rates",
            },
            FileOutput { flag: "tuned_seeds", sets: Some("tune"), help: "writes the tuned seed list, each page's interval fixed (Nutch on a page list), when the tuning kept one" },
        ]
    }

    fn choices() -> Vec<Choice> {
        vec![
            Choice::of("source", &RepositorySource::ALL, RepositorySource::label),
            Choice::of("crawler", &Crawler::ALL, Crawler::label),
            Choice::of("refusal", &Refusal::ALL, Refusal::label),
            Choice::of("nutch_1564", &Nutch1564::ALL, Nutch1564::label),
            Choice::of("merge_backoff", &Backoff::ALL, Backoff::label),
            Choice::of("tune_for", &Objective::ALL, Objective::label),
        ]
    }
}
