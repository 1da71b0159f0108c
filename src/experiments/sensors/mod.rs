//! Robots vs sensors (Zemskov 2002; spec §3): two ways of keeping an index fresh, run on
//! the same page histories. Each page's change and request streams come from its own
//! seeded stream, so both concepts see the same events without storing the log.

pub mod config;
pub mod figures;
pub mod job;
pub mod output;
pub mod page;
pub mod record;
pub mod robot;
pub mod sensor;
pub mod table;
#[cfg(test)]
mod tests;

pub use config::{Concept, RobotOrder, SensorsConfig};
pub use job::SensorsJob;
pub use output::{ConceptResult, Published, SensorsOutput, SweepPoint, published};

use super::{Experiment, Job, Sliced};
use crate::core::input::InputError;
use crate::core::parallel;

impl Experiment for SensorsConfig {
    type Output = SensorsOutput;

    fn start(self) -> Result<Box<dyn Job<SensorsOutput>>, InputError> {
        Ok(Box::new(Sliced::new(SensorsJob::new(self))))
    }

    /// At most `parts` parts, each doing some of the runs (the concepts and the sweep's
    /// robot counts), the costliest first to the least loaded. Every page's streams are
    /// its own, so a run gives the same bits in a part as in the whole.
    fn split(&self, parts: usize) -> Vec<Self> {
        let all: Vec<u64> = match &self.only_runs {
            Some(only) => only.clone(),
            None => (0..self.runs() as u64).collect(),
        };
        if parts.clamp(1, all.len().max(1)) == 1 {
            return vec![self.clone()];
        }
        let concepts = self.concepts.len() as u64;
        let sensed = self.sensed_pages() as f64;
        let weight = |k: u64| match self.concepts.get(k as usize) {
            Some(Concept::Sensors) => self.events_per_run(self.robots, sensed),
            Some(Concept::Robot) => self.events_per_run(self.robots, 0.0),
            None => self.events_per_run(self.robot_sweep[(k - concepts) as usize], 0.0),
        };
        parallel::deal(&all, weight, parts).into_iter().map(|runs| SensorsConfig { only_runs: Some(runs), ..self.clone() }).collect()
    }

    /// The parts' results (final or partial) joined, to the whole run's bits: the
    /// concepts' results in the configuration's order, then the sweep's points in its
    /// order; done when every part is done and every run is there.
    fn merge(&self, outputs: Vec<SensorsOutput>) -> SensorsOutput {
        let whole = self.whole();
        let mut merged = outputs[0].clone();
        let mut present: Vec<usize> = outputs.iter().flat_map(|o| (0..whole.runs()).filter(|&k| o.config.does(k))).collect();
        present.sort_unstable();
        present.dedup();
        merged.done = outputs.iter().all(|o| o.done) && present.len() == whole.runs();
        let place = |list: &[Concept], c: &Concept| list.iter().position(|x| x == c);
        merged.results = outputs.iter().flat_map(|o| o.results.iter().cloned()).collect();
        merged.results.sort_by_key(|r| place(&whole.concepts, &r.concept));
        merged.sweep = outputs.iter().flat_map(|o| o.sweep.iter().cloned()).collect();
        merged.sweep.sort_by_key(|p| whole.robot_sweep.iter().position(|&r| r == p.robots));
        merged.estimate_bytes = whole.estimate_bytes();
        merged.config = whole;
        merged
    }

    fn whole(&self) -> Self {
        SensorsConfig { only_runs: None, ..self.clone() }
    }
}
