//! Your history (issue 47): change rates from the records people already have — a web
//! archive's capture index (CDX, CDXJ), sitemaps, a crawler's log (Heritrix's crawl.log,
//! a CSV), Wikipedia's revisions — each page's rate with its interval, what the records
//! cannot support said as such, and a page list every other experiment reads.

pub mod config;
pub mod cost;
pub mod figures;
pub mod job;
pub mod output;
pub mod table;
#[cfg(test)]
mod tests;

pub use config::{HistoryConfig, RecordFile, RecordSource};
pub use output::{HistoryOutput, PageHistory};

use super::{Brief, Choice, Experiment, FileOutput, Job};
use crate::core::input::InputError;
use crate::core::limits;
use crate::core::model::history::Format;
use crate::core::model::history::generate::Captures;
use crate::core::model::history::server::ServerBy;
use crate::experiments::Settings;
use job::HistoryJob;

impl Experiment for HistoryConfig {
    type Output = HistoryOutput;

    fn start(self) -> Result<Box<dyn Job<HistoryOutput>>, InputError> {
        self.validate()?;
        self.cost().check(&limits::here())?;
        Ok(Box::new(HistoryJob::new(self)?))
    }

    fn files_out() -> &'static [FileOutput] {
        &[FileOutput { flag: "trace_out", sets: None, help: "writes MediaWiki revisions as a change trace (page,timestamp) that freshlab bursty --trace reads" }]
    }

    fn choices() -> Vec<Choice> {
        vec![
            Choice::of("source", &RecordSource::ALL, RecordSource::label),
            Choice::of("captures", &Captures::ALL, Captures::label),
            Choice::of("format", &Format::ALL, Format::label),
            Choice::of("server_by", &ServerBy::ALL, ServerBy::label),
        ]
    }
}

impl HistoryOutput {
    /// The CLI's few numbers: what was read and what the records support.
    pub fn brief_of(&self) -> Brief {
        let json = serde_json::json!({
            "refused": self.refused,
            "records": self.kept,
            "lines": self.lines,
            "pages": self.pages.len(),
            "servers": self.servers,
            "statuses": self.statuses,
            "skipped": self.skipped,
            "left_out_of_page_list": self.left_out,
        });
        Brief { json, text: Some(self.said.clone()) }
    }
}
