//! The policies experiment's results: a curve per policy and capacity, the bounds, where
//! politeness binds, the microscope and the deployed crawlers; and the thesis's figures
//! beside them.

use super::config::{Estimate, PoliciesConfig};
use super::microscope::ServerMicroscope;
use super::sample::{Auxiliary, GROUPS, SampleDesign, ServerSample};
use crate::core::alloc::{AllocationReport, Capped};
use crate::core::math::stats::ratio_estimate;
use crate::core::model::webbase::RepositorySummary;
use crate::core::policy::PolicyKind;
use crate::core::sim::bins::TimeBins;
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
    /// With estimated rates, once complete: the run's mean freshness with each rate
    /// redrawn within its interval (`core::sim::redrawn`): lowest, median, highest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<[f64; 3]>,
    /// In a part of a run split by servers: its shards' bins, for the join (the curve's
    /// own figures are then left empty). Never in a whole run's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<CurvePart>,
}

/// What a part of a run split by servers simulated of one curve: each of its shards'
/// freshness bins, closed at `until` (the part's time; the horizon once complete).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePart {
    pub until: f64,
    pub shards: Vec<(u64, TimeBins)>,
    /// A sampled run's auxiliary (every part computes the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auxiliary: Option<Auxiliary>,
    /// With estimated rates, once complete: each shard's fresh time under each redraw.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redrawn: Vec<(u64, [f64; crate::core::sim::redrawn::REDRAWS])>,
}

/// How freshness bins become a curve: over the repository's weight W, or, when the
/// servers are sampled, as the estimate of the sample's design. A part of a run split by
/// servers hands it on with its bins: all the join needs besides them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FreshnessScale {
    pub total_weight: f64,
    pub sample: Option<SampleDesign>,
}

impl FreshnessScale {
    /// The freshness of each bin filled by `until` (every bin once `complete`), from the
    /// accounts' bins in order (a shard's each, or a sampled server's each): their sum
    /// over W, or the sample's estimate with its 95 % intervals (a ratio estimate leaning
    /// on the run's `auxiliary`; the plain mean of the groups without one).
    pub fn freshness(
        &self,
        accounts: &[TimeBins],
        until: f64,
        complete: bool,
        auxiliary: Option<&Auxiliary>,
        empty: impl FnOnce() -> TimeBins,
    ) -> (Vec<f64>, Option<SampledInterval>) {
        let mut all: Option<TimeBins> = None;
        for bins in accounts {
            match all.as_mut() {
                None => all = Some(bins.clone()),
                Some(total) => total.merge(bins),
            }
        }
        let bins = all.unwrap_or_else(empty);
        let width = bins.width();
        let filled = if complete { bins.len() } else { ((until / width).floor() as usize).min(bins.len()) };
        match &self.sample {
            Some(design) => {
                let (freshness, interval) = sampled_curve(design, accounts, filled, auxiliary);
                (freshness, Some(interval))
            }
            None => (bins.totals().into_iter().take(filled).map(|t| t / (width * self.total_weight)).collect(), None),
        }
    }
}

/// A sample's estimate from each simulated server's bins: each bin's freshness as the
/// ratio estimate from its groups' estimates (the plain mean of them without an
/// auxiliary), with the 95 % half-widths of each bin, of the mean over the bins and of
/// the last bin.
fn sampled_curve(design: &SampleDesign, servers: &[TimeBins], filled: usize, auxiliary: Option<&Auxiliary>) -> (Vec<f64>, SampledInterval) {
    let width = servers.first().map_or(1.0, |b| b.width());
    let totals: Vec<Vec<f64>> = servers.iter().map(|b| b.totals()).collect();
    // per bin: each group's estimate of the fresh weight-time, over the bin's width
    let groups: Vec<Vec<f64>> = (0..filled).map(|b| design.group_estimates(&totals.iter().map(|t| t[b] / width).collect::<Vec<f64>>())).collect();
    let (known, whole) = auxiliary.map_or((vec![0.0; design.groups.len()], 0.0), |a| (design.group_estimates(&a.servers), a.whole));
    let estimate = |g: &[f64]| ratio_estimate(g, &known, whole);
    let (freshness, half): (Vec<f64>, Vec<f64>) = groups.iter().map(|g| estimate(g)).unzip();
    let means: Vec<f64> = (0..GROUPS).map(|g| if filled == 0 { 0.0 } else { groups.iter().map(|b| b[g]).sum::<f64>() / filled as f64 }).collect();
    let interval = SampledInterval { mean_half_width: estimate(&means).1, end_half_width: half.last().copied().unwrap_or(0.0), freshness_half_width: half };
    (freshness, interval)
}

/// What a run made, besides its freshness: its policy and estimator, its requests and
/// politeness violations by `until`, and the capacity it ran at (its bounds), if any.
pub struct RunTally<'a> {
    pub policy: PolicyKind,
    pub estimator: Estimator,
    pub requests: u64,
    pub violations: u64,
    pub until: f64,
    pub capacity: Option<&'a CapacityResult>,
    /// Whether the thesis's ratios apply: on generated pages, not on the user's own list
    /// (issue 45: a run on a page list was compared with the thesis as if its inputs
    /// were the thesis's).
    pub thesis_inputs: bool,
}

impl PolicyCurve {
    /// The curve of a run from its freshness per bin: its means, and its ratios to the
    /// POLITE bound beside the thesis's where it has them.
    pub fn of(run: RunTally, freshness: Vec<f64>, sampled: Option<SampledInterval>, complete: bool) -> Self {
        let quarter = (freshness.len() / 4).max(1);
        let converged = if freshness.is_empty() { 0.0 } else { freshness[freshness.len() - quarter..].iter().sum::<f64>() / quarter as f64 };
        let mean = if freshness.is_empty() { 0.0 } else { freshness.iter().sum::<f64>() / freshness.len() as f64 };
        let end = freshness.last().copied().unwrap_or(0.0);
        let (ratio_end, ratio_mean, published) = match run.capacity {
            Some(c) => {
                let ratio = |v: f64| (!freshness.is_empty() && c.polite_bound > 0.0).then(|| v / c.polite_bound);
                (ratio(end), ratio(mean), published_ratio(run.policy, c.share).filter(|_| run.thesis_inputs))
            }
            None => (None, None, None),
        };
        PolicyCurve {
            policy: run.policy,
            mean,
            end,
            converged,
            freshness,
            complete,
            requests: run.requests,
            bandwidth: if run.until > 0.0 { run.requests as f64 / run.until } else { 0.0 },
            violations: run.violations,
            estimator: run.estimator,
            ratio_end,
            ratio_mean,
            published_ratio: published,
            sampled,
            spread: None,
            part: None,
        }
    }
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
            draws: sample.design.groups.iter().map(|g| g.len() as u64).sum(),
            servers: sample.servers.len() as u64,
            servers_taken_whole: sample.design.certain.iter().filter(|&&c| c).count() as u64,
            groups: sample.design.groups.len() as u64,
            page_share: sample.repo.pages() as f64 / whole.pages() as f64,
            weight_taken_whole: 1.0 - sample.design.rest_weight / sample.design.total_weight,
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
    /// In a part of a run split by servers: what the join needs to scale its curves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<FreshnessScale>,
}
