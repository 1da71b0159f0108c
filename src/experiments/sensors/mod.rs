//! Robots vs sensors (Zemskov 2002; spec §3): two ways of keeping an index fresh, run on
//! the same page histories. Each page's change and request streams come from its own
//! seeded stream, so both concepts see the same events without storing the log.

pub mod config;
mod cost;
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
use job::join_pieces;
pub use output::{ConceptResult, Published, SensorsOutput, SweepPoint, published};

use super::{Choice, Experiment, Job, Sliced};
use page::Ties;

/// The most sensors' downloads (over the whole run) for which a run is shared out by its
/// sensed pages: the join decodes and sweeps every part's log of downloads, in the page's
/// joining worker (a million took 21–64 ms in Chromium), which holds them all — about 2.5
/// bytes a download at the article's rates, some 50 MB here.
const JOIN_DOWNLOADS: f64 = 20e6;
use crate::core::input::InputError;
use crate::core::parallel;

impl Experiment for SensorsConfig {
    type Output = SensorsOutput;

    fn start(self) -> Result<Box<dyn Job<SensorsOutput>>, InputError> {
        Ok(Box::new(Sliced::new(SensorsJob::new(self))))
    }

    fn choices() -> Vec<Choice> {
        vec![Choice::of("concepts", &Concept::ALL, Concept::label), Choice::of("ties", &Ties::ALL, Ties::label), Choice::of("robot_order", &RobotOrder::ALL, RobotOrder::label)]
    }

    /// At most `parts` parts. When its downloads are few enough for the join to stay
    /// within the page's main-thread budget, the sensors' run is cut into its parts of
    /// pages (`sensed_parts`), dealt out with the other runs (the robots' concept, the
    /// sweep's robot counts), the costliest first to the least loaded; otherwise the runs
    /// alone are dealt out. Every page's streams are its own, so a page gives the same
    /// bits in a part as in the whole.
    fn split(&self, parts: usize) -> Vec<Self> {
        let all: Vec<u64> = match &self.only_runs {
            Some(only) => only.clone(),
            None => (0..self.runs() as u64).collect(),
        };
        let runs = self.runs() as u64;
        let concepts = self.concepts.len() as u64;
        let sensed = self.sensed_pages() as f64;
        let sensors = self.concepts.iter().position(|&c| c == Concept::Sensors).map(|k| k as u64).filter(|k| all.contains(k));
        let cut = sensors.filter(|_| parts >= 2 && self.sensed_parts.is_none() && self.sensed_downloads() <= JOIN_DOWNLOADS);
        let visits = self.visits();
        let pieces = if cut.is_some() { self.pieces(visits.unsensed) } else { Vec::new() };
        // the runs, then the sensors' parts of pages numbered from `runs` on
        let items: Vec<u64> = all.iter().copied().filter(|&k| Some(k) != cut).chain((0..pieces.len() as u64).map(|j| runs + j)).collect();
        if parts.clamp(1, items.len().max(1)) == 1 {
            return vec![self.clone()];
        }
        let weight = |k: u64| match self.concepts.get(k as usize) {
            Some(Concept::Sensors) => self.run_events(self.robots, sensed, visits.unsensed),
            Some(Concept::Robot) => self.run_events(self.robots, 0.0, visits.all),
            None if k < runs => self.run_events(self.robot_sweep[(k - concepts) as usize], 0.0, visits.all),
            None => pieces[(k - runs) as usize],
        };
        parallel::deal(&items, weight, parts)
            .into_iter()
            .map(|dealt| {
                let (mut own_runs, own_pieces): (Vec<u64>, Vec<u64>) = dealt.into_iter().partition(|&k| k < runs);
                let sensed_parts = (!own_pieces.is_empty()).then(|| own_pieces.into_iter().map(|k| k - runs).collect());
                own_runs.extend(cut.filter(|_| sensed_parts.is_some()));
                own_runs.sort_unstable();
                SensorsConfig { only_runs: Some(own_runs), sensed_parts, ..self.clone() }
            })
            .collect()
    }

    /// The parts' results (final or partial) joined, to the whole run's bits: the
    /// concepts' results in the configuration's order (the sensors' shares joined, once
    /// every share is there), then the sweep's points in its order; done when every part
    /// is done and every run is there.
    fn merge(&self, outputs: Vec<SensorsOutput>) -> SensorsOutput {
        let whole = self.whole();
        let mut merged = outputs[0].clone();
        let mut present: Vec<usize> = outputs.iter().flat_map(|o| (0..whole.runs()).filter(|&k| o.config.does(k))).collect();
        present.sort_unstable();
        present.dedup();
        let (pieces, mut results): (Vec<&ConceptResult>, Vec<&ConceptResult>) = outputs.iter().flat_map(|o| &o.results).partition(|r| r.piece.is_some());
        let mut joined = None;
        let mut shares: Vec<u64> = outputs.iter().filter(|o| o.results.iter().any(|r| r.piece.is_some())).flat_map(|o| o.config.sensed_parts.iter().flatten().copied()).collect();
        shares.sort_unstable();
        shares.dedup();
        let cut = outputs.iter().any(|o| o.config.sensed_parts.is_some());
        let every_share = shares.len() == whole.sensed_pieces().len();
        if !pieces.is_empty() && every_share {
            let complete = pieces.iter().all(|r| r.complete);
            joined = Some(join_pieces(&whole, &pieces.iter().filter_map(|r| r.piece.as_ref()).collect::<Vec<_>>(), complete));
        }
        results.extend(joined.as_ref());
        merged.done = outputs.iter().all(|o| o.done) && present.len() == whole.runs() && (!cut || every_share);
        let place = |list: &[Concept], c: &Concept| list.iter().position(|x| x == c);
        merged.results = results.into_iter().cloned().collect();
        merged.results.sort_by_key(|r| place(&whole.concepts, &r.concept));
        merged.sweep = outputs.iter().flat_map(|o| o.sweep.iter().cloned()).collect();
        merged.sweep.sort_by_key(|p| whole.robot_sweep.iter().position(|&r| r == p.robots));
        merged.estimate_bytes = whole.estimate_bytes();
        merged.config = whole;
        merged
    }

    fn whole(&self) -> Self {
        SensorsConfig { only_runs: None, sensed_parts: None, ..self.clone() }
    }
}
