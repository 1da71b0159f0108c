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

pub use config::{CLASSROOM_POLITENESS_SECONDS, Estimate, PoliciesConfig, SIX_YEARS, WEBBASE_POLITENESS_SECONDS};
pub use job::PoliciesJob;
pub use output::{CapacityResult, CrawlerResult, PoliciesOutput, PolicyCurve, published_ratio};

use super::{Experiment, FileInput, Job, Preset, Sliced, inputs};
use crate::core::input::InputError;

impl Experiment for PoliciesConfig {
    type Output = PoliciesOutput;

    fn start(self) -> Result<Box<dyn Job<PoliciesOutput>>, InputError> {
        Ok(Box::new(Sliced::new(PoliciesJob::new(self)?)))
    }

    fn presets() -> Vec<Preset<Self>> {
        vec![Preset { name: "webbase", label: "WEBBASE scale: 14.5 M pages on 5,462 servers, P = 15 s, six years", config: PoliciesConfig::webbase() }]
    }

    fn files() -> &'static [FileInput] {
        &[inputs::PAGE_LIST]
    }

    /// The runs dealt to at most `parts` parts, the longest first to the least loaded
    /// (a run's requests grow with its capacity; a crawler's run is followed by MERGE at
    /// its bandwidth). Each part computes the repository, allocations and bounds itself.
    fn split(&self, parts: usize) -> Vec<Self> {
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
        let mut order = all.clone();
        order.sort_by(|a, b| weight(*b).total_cmp(&weight(*a)).then(a.cmp(b)));
        let mut load: Vec<(f64, Vec<u64>)> = vec![(0.0, Vec::new()); parts];
        for r in order {
            let least = (0..parts).min_by(|&i, &j| load[i].0.total_cmp(&load[j].0).then(i.cmp(&j))).expect("a part");
            load[least].0 += weight(r);
            load[least].1.push(r);
        }
        load.into_iter()
            .filter(|(_, runs)| !runs.is_empty())
            .map(|(_, mut runs)| {
                runs.sort_unstable();
                PoliciesConfig { only_runs: Some(runs), ..self.clone() }
            })
            .collect()
    }

    /// The parts' curves in the order of the whole run (policies at each capacity in the
    /// configuration's order, then crawlers), beside the bounds every part computed alike.
    fn merge(&self, outputs: Vec<PoliciesOutput>) -> PoliciesOutput {
        let mut merged = outputs.iter().max_by_key(|o| o.capacities.len()).expect("a part's result").clone();
        merged.config = PoliciesConfig { only_runs: None, ..self.clone() };
        merged.done = outputs.iter().all(|o| o.done);
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
}
