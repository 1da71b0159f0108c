//! The repository experiment (spec §1.4, thesis Fig 5.8): freshness over time of MERGE,
//! DELAYED, RANDOM and UNPOLITE under an allocation, at several total frequencies C,
//! against the POLITE bound; and the schedules of deployed crawlers, each compared
//! with MERGE and the POLITE bound at the bandwidth it actually used.

pub mod config;
pub mod figures;
pub mod job;
pub mod microscope;
pub mod output;
pub mod sample;
pub mod table;
#[cfg(test)]
mod tests;

pub use config::{CLASSROOM_POLITENESS_SECONDS, Estimate, PoliciesConfig, SIX_YEARS, ServerPart, WEBBASE_POLITENESS_SECONDS};
pub use job::PoliciesJob;
pub use output::{CapacityResult, CrawlerResult, PoliciesOutput, PolicyCurve, published_ratio};

use crate::core::alloc::AllocationKind;
use crate::core::model::source::RepositorySource;
use crate::core::policy::PolicyKind;
use crate::core::sim::bins::TimeBins;
use crate::core::sim::freshness::Estimator;
use crate::core::sim::redrawn::{REDRAWS, added, spread};
use job::SHARDS;
use output::{CurvePart, FreshnessScale, RunTally};

use super::{Choice, Experiment, FileInput, Job, Preset, Sliced, inputs};
use crate::core::input::InputError;
use crate::core::parallel;

impl Experiment for PoliciesConfig {
    type Output = PoliciesOutput;

    fn start(self) -> Result<Box<dyn Job<PoliciesOutput>>, InputError> {
        Ok(Box::new(Sliced::new(PoliciesJob::new(self)?)))
    }

    fn presets() -> Vec<Preset<Self>> {
        vec![
            Preset { name: "webbase", label: "WEBBASE scale: 14.5 M pages on 5,462 servers, P = 15 s, six years", config: PoliciesConfig::webbase() },
            Preset {
                name: "webbase_sampled",
                label: "WEBBASE scale estimated from 32 draws of servers, with 95 % intervals: the whole Fig 5.8 in minutes",
                config: PoliciesConfig::webbase_sampled(),
            },
        ]
    }

    fn files() -> &'static [FileInput] {
        &[inputs::PAGE_LIST]
    }

    fn choices() -> Vec<Choice> {
        use crate::core::alloc::AllocationKind::{Given, OptPolite, OptUnpolite, Proportional, Uniform};
        vec![
            Choice::of("source", &RepositorySource::ALL, RepositorySource::label),
            Choice::of("policies", &PolicyKind::ALLOCATED, PolicyKind::label),
            Choice::of("crawlers", &PolicyKind::ADAPTIVE, PolicyKind::label),
            Choice::of("allocation", &[OptPolite, OptUnpolite, Uniform, Proportional, Given], AllocationKind::label),
            Choice::of("estimator", &Estimator::ALL, Estimator::label),
        ]
    }

    /// At most `parts` parts, each computing the repository, allocations and bounds
    /// itself. Without crawlers, each part simulates every run on a share of the servers
    /// (the run's fixed shards, dealt round-robin: they cost about the same each, or a
    /// sample's servers largest first). With crawlers (MERGE at a crawler's bandwidth
    /// needs every server's requests), the runs are dealt instead, the longest first to
    /// the least loaded (a run's requests grow with its capacity; a crawler's run is
    /// followed by MERGE at its bandwidth).
    fn split(&self, parts: usize) -> Vec<Self> {
        if self.crawlers.is_empty() && self.only_runs.is_none() && self.server_part.is_none() {
            // the whole repository's cut has at most SHARDS shards; a sample's, a server each
            let most = if self.sample_servers.is_some() { parts } else { SHARDS };
            let of = parts.clamp(1, most) as u64;
            if of == 1 {
                return vec![self.clone()];
            }
            return (0..of).map(|index| PoliciesConfig { server_part: Some(ServerPart { index, of }), ..self.clone() }).collect();
        }
        let all: Vec<u64> = match &self.only_runs {
            Some(only) => only.clone(),
            None => (0..self.runs() as u64).collect(),
        };
        let parts = parts.clamp(1, all.len().max(1));
        if parts == 1 {
            return vec![self.clone()];
        }
        let allocated = (self.capacities.len() * self.policies.len()) as u64;
        let weight = |r: u64| if r < allocated { self.capacities[(r / self.policies.len() as u64) as usize] } else { 2.0 };
        parallel::deal(&all, weight, parts).into_iter().map(|runs| PoliciesConfig { only_runs: Some(runs), ..self.clone() }).collect()
    }

    /// The parts' results joined, to the whole run's bits: beside the bounds every part
    /// computed alike, each curve from every part's servers (their shards' bins added in
    /// shard order, as one run adds them; a curve not yet begun by every part is left
    /// out), or the parts' runs in the order of the whole run (policies at each capacity
    /// in the configuration's order, then crawlers).
    fn merge(&self, outputs: Vec<PoliciesOutput>) -> PoliciesOutput {
        let mut merged = outputs.iter().max_by_key(|o| o.capacities.len()).expect("a part's result").clone();
        merged.config = self.whole();
        merged.done = outputs.iter().all(|o| o.done);
        merged.part = None;
        if let Some(scale) = outputs.iter().find_map(|o| o.part.clone()) {
            let of = outputs.iter().find_map(|o| o.config.server_part).map_or(1, |p| p.of as usize);
            let mut present: Vec<u64> = outputs.iter().filter_map(|o| o.config.server_part).map(|p| p.index).collect();
            present.sort_unstable();
            present.dedup();
            let every_part = present.len() == of;
            merged.done &= every_part;
            for (k, capacity) in merged.capacities.iter_mut().enumerate() {
                let pieces = |policy| outputs.iter().filter_map(move |o| o.capacities.get(k)?.curves.iter().find(|c| c.policy == policy));
                let joined = self
                    .policies
                    .iter()
                    .filter(|&&policy| every_part && pieces(policy).count() == of)
                    .map(|&policy| join_curve(&scale, pieces(policy).collect(), capacity, || TimeBins::new(self.horizon_days.0, self.bins as usize)));
                capacity.curves = joined.collect();
            }
            return merged;
        }
        let place = |list: &[crate::core::policy::PolicyKind], p| list.iter().position(|x| *x == p).unwrap_or(usize::MAX);
        for (k, capacity) in merged.capacities.iter_mut().enumerate() {
            let mut curves: Vec<PolicyCurve> = outputs.iter().filter_map(|o| o.capacities.get(k)).flat_map(|c| c.curves.iter().cloned()).collect();
            curves.sort_by_key(|c| place(&self.policies, c.policy));
            capacity.curves = curves;
        }
        let mut crawlers: Vec<CrawlerResult> = outputs.iter().flat_map(|o| o.crawlers.iter().cloned()).collect();
        crawlers.sort_by_key(|c| place(&self.crawlers, c.curve.policy));
        merged.crawlers = crawlers;
        merged
    }

    fn whole(&self) -> Self {
        PoliciesConfig { only_runs: None, server_part: None, ..self.clone() }
    }
}

/// One curve from the parts of a run split by servers: their shards' bins in shard order,
/// until the earliest part's time; requests and violations summed.
fn join_curve(scale: &FreshnessScale, pieces: Vec<&PolicyCurve>, capacity: &CapacityResult, empty: impl FnOnce() -> TimeBins) -> PolicyCurve {
    let parts: Vec<&CurvePart> = pieces.iter().filter_map(|c| c.part.as_ref()).collect();
    let until = parts.iter().map(|p| p.until).fold(f64::INFINITY, f64::min);
    let complete = pieces.iter().all(|c| c.complete);
    let mut shards: Vec<&(u64, TimeBins)> = parts.iter().flat_map(|p| &p.shards).collect();
    shards.sort_by_key(|(id, _)| *id);
    let bins: Vec<TimeBins> = shards.into_iter().map(|(_, b)| b.clone()).collect();
    let auxiliary = parts.iter().find_map(|p| p.auxiliary.as_ref());
    let (freshness, sampled) = scale.freshness(&bins, until, complete, auxiliary, empty);
    let tally = RunTally {
        policy: pieces[0].policy,
        estimator: pieces[0].estimator,
        requests: pieces.iter().map(|c| c.requests).sum(),
        violations: pieces.iter().map(|c| c.violations).sum(),
        until,
        capacity: Some(capacity),
        thesis_inputs: pieces[0].published_ratio.is_some(),
    };
    // each shard's fresh times under the redrawn rates, added in shard order as one run adds them
    let mut redrawn: Vec<&(u64, [f64; REDRAWS])> = parts.iter().flat_map(|p| &p.redrawn).collect();
    redrawn.sort_by_key(|(id, _)| *id);
    let spread = (complete && !redrawn.is_empty()).then(|| spread(added(redrawn.into_iter().map(|(_, f)| *f)), scale.total_weight * until));
    PolicyCurve { spread, ..PolicyCurve::of(tally, freshness, sampled, complete) }
}
