//! The policies experiment's results: a curve per policy and capacity, the bounds, where
//! politeness binds, the microscope and the deployed crawlers; and the thesis's figures
//! beside them.

use super::config::{Estimate, PoliciesConfig};
use super::microscope::ServerMicroscope;
use super::sample::ServerSample;
use crate::core::alloc::{AllocationReport, Capped};
use crate::core::model::webbase::RepositorySummary;
use crate::core::policy::PolicyKind;
use crate::core::sim::freshness::Estimator;
use serde::{Deserialize, Serialize};

/// The thesis's ratios to the POLITE bound after six years (§5.5).
pub fn published_ratio(policy: PolicyKind, share: f64) -> Option<f64> {
    let table: [(PolicyKind, [f64; 3]); 2] = [(PolicyKind::Merge, [0.970, 0.975, 0.977]), (PolicyKind::Random, [0.812, 0.875, 0.886])];
    let k = [0.01, 0.1, 0.9].iter().position(|&s| (s - share).abs() < 1e-12)?;
    table.iter().find(|(p, _)| *p == policy).map(|(_, r)| r[k])
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyCurve {
    pub policy: PolicyKind,
    /// Repository freshness averaged over each time bin (fewer bins while running).
    pub freshness: Vec<f64>,
    pub complete: bool,
    /// Time average over the horizon (cold start included).
    pub mean: f64,
    /// The last bin: freshness at the end of the horizon.
    pub end: f64,
    /// Average over the last quarter of the horizon.
    pub converged: f64,
    pub requests: u64,
    /// Requests per day actually made.
    pub bandwidth: f64,
    /// Requests less than P after the previous one to the same server.
    pub violations: u64,
    pub estimator: Estimator,
    /// `end` (the last bin) over the POLITE bound at the same capacity: the thesis's
    /// "at the end of the six years" reading.
    pub ratio_end: Option<f64>,
    /// `mean` (the whole horizon, cold start included) over the POLITE bound.
    pub ratio_mean: Option<f64>,
    /// The thesis's figure for the same policy and capacity, if it has one.
    pub published_ratio: Option<f64>,
    /// When the servers were sampled: the curve is an estimate, with these intervals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampled: Option<SampledInterval>,
}

/// 95 % half-widths of a sampled curve (Student's t over the groups of draws).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampledInterval {
    pub freshness_half_width: Vec<f64>,
    pub mean_half_width: f64,
    pub end_half_width: f64,
}

/// What a sampled run simulated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleSummary {
    pub draws: u64,
    /// Servers simulated: those taken whole, and those drawn at least once.
    pub servers: u64,
    pub servers_taken_whole: u64,
    /// Groups of draws (the interval has one fewer degrees of freedom).
    pub groups: u64,
    /// The simulated servers' pages as a share of the repository's.
    pub page_share: f64,
    /// The weight of the servers taken whole, as a share of the repository's.
    pub weight_taken_whole: f64,
}

impl SampleSummary {
    pub fn of(sample: &ServerSample, whole: &crate::core::model::repository::Repository) -> Self {
        SampleSummary {
            draws: sample.groups.iter().map(|g| g.len() as u64).sum(),
            servers: sample.servers.len() as u64,
            servers_taken_whole: sample.certain.iter().filter(|&&c| c).count() as u64,
            groups: sample.groups.len() as u64,
            page_share: sample.repo.pages() as f64 / whole.pages() as f64,
            weight_taken_whole: 1.0 - sample.rest_weight / sample.total_weight,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapacityResult {
    /// C as a share of the maximum #servers / P.
    pub share: f64,
    /// C in requests per day.
    pub capacity: f64,
    pub allocation: AllocationReport,
    /// The POLITE bound: best freshness with the per-server caps.
    pub polite_bound: f64,
    /// The UNPOLITE bound: best freshness without them.
    pub unpolite_bound: f64,
    /// Where politeness binds: the servers OPT_POLITE holds at their cap.
    pub capped: Capped,
    /// One server's pages, simulated one by one under MERGE and RANDOM.
    pub microscope: ServerMicroscope,
    pub curves: Vec<PolicyCurve>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrawlerResult {
    pub curve: PolicyCurve,
    /// The POLITE bound at the bandwidth the crawler used.
    pub polite_bound_same_bandwidth: Option<f64>,
    /// MERGE with OPT_POLITE at that bandwidth.
    pub merge_same_bandwidth: Option<PolicyCurve>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoliciesOutput {
    pub config: PoliciesConfig,
    pub repository: RepositorySummary,
    pub estimate: Estimate,
    /// The maximum total frequency #servers / P, per day.
    pub max_rate: f64,
    /// The page list's page and server names (file order), when one was imported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub page_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub server_names: Vec<String>,
    pub bin_days: f64,
    pub capacities: Vec<CapacityResult>,
    pub crawlers: Vec<CrawlerResult>,
    pub done: bool,
    /// Present when the freshness curves are estimated from a sample of servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<SampleSummary>,
}
