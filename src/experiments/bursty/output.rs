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

/// When one policy fetched the article at one request rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleFetches {
    pub policy: BurstyPolicy,
    pub fraction: f64,
    pub times: Vec<f64>,
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
