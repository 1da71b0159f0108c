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

impl Experiment for SensorsConfig {
    type Output = SensorsOutput;

    fn start(self) -> Result<Box<dyn Job<SensorsOutput>>, InputError> {
        Ok(Box::new(Sliced::new(SensorsJob::new(self))))
    }
}
