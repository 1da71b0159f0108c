//! The bursty-changes experiment's results, and the thesis's reading of its Fig 6.3.

use super::config::{BurstyConfig, BurstyPolicy};
use crate::core::model::histogram::Histogram;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyPoint {
    pub policy: BurstyPolicy,
    pub fraction: f64,
    pub freshness: f64,
    pub requests: u64,
    /// Requests less than P after the previous one (UNPOLITE only).
    pub violations: u64,
}

/// The article of the per-article panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleDetail {
    pub index: u64,
    pub name: String,
    pub changes: Vec<f64>,
    pub histogram: Option<Histogram>,
    pub training_histogram: Option<Histogram>,
    /// Fetch times of each policy at each request rate.
    pub fetches: Vec<ArticleFetches>,
}

/// When one policy fetched the article at one request rate: how often, and the first fetch
/// in each of [`MARK_COLUMNS`] equal stretches of the period (a chart's columns), so a
/// fast rate keeps thousands of times, not millions (bursty fuzz case 12,335: 54 MB of
/// them at P = 1 s).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleFetches {
    pub policy: BurstyPolicy,
    pub fraction: f64,
    /// Every fetch of the article.
    pub count: u64,
    /// The first fetch time in each stretch that has one (minutes).
    pub times: Vec<f64>,
}

/// The stretches of the period an article's fetch marks are kept in: more than any
/// chart's pixel columns.
pub const MARK_COLUMNS: usize = 4_000;

/// Records an article's fetches as [`ArticleFetches`] keeps them.
#[derive(Debug)]
pub struct FetchMarks {
    count: u64,
    times: Vec<f64>,
    column_minutes: f64,
    last_column: Option<u64>,
}

impl FetchMarks {
    /// Marks over a period of `minutes`.
    pub fn new(minutes: f64) -> Self {
        FetchMarks { count: 0, times: Vec::new(), column_minutes: minutes / MARK_COLUMNS as f64, last_column: None }
    }

    #[inline]
    pub fn record(&mut self, time: f64) {
        self.count += 1;
        let column = (time / self.column_minutes) as u64;
        if self.last_column != Some(column) {
            self.last_column = Some(column);
            self.times.push(time);
        }
    }

    pub fn into_fetches(self, policy: BurstyPolicy, fraction: f64) -> ArticleFetches {
        ArticleFetches { policy, fraction, count: self.count, times: self.times }
    }
}

/// A published gap between two policies (percentage points) beside the measured ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    pub name: String,
    pub published: String,
    /// At each rate: first − second, in points, when both were run.
    pub measured: Vec<Option<f64>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceSummary {
    pub articles: u64,
    pub changes: u64,
    pub start: String,
    pub days: f64,
    pub blank_lines: u64,
    /// Articles with no interval to build a histogram from (given one interval as long
    /// as the period) [reading].
    pub without_histogram: u64,
    /// The same for MERGE2's first month.
    pub without_training_histogram: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BurstyOutput {
    /// The configuration, without the trace's text.
    pub config: BurstyConfig,
    pub trace: TraceSummary,
    pub points: Vec<PolicyPoint>,
    pub gaps: Vec<Gap>,
    pub article: ArticleDetail,
    /// Worst KKT residual of the Wolf allocation at each rate.
    pub kkt: Vec<f64>,
    /// E[R] at the end of the renewal grid against its limit, worst article (exact GREEDY).
    pub renewal_gap: Option<f64>,
    pub complete: bool,
}

/// The thesis's reading of its Fig 6.3, in percentage points of freshness.
pub const PUBLISHED: [(&str, &str); 4] =
    [("MERGE − UNPOLITE", "|gap| < 0.4"), ("MERGE − MERGE2", "2.9 falling to 1.5"), ("MERGE − GREEDY", "10.30 ± 0.95"), ("RANDOM − GREEDY", "up to 2.4 (at 20 %)")];
