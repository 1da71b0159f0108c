//! The estimate's pilot: the search itself, up to [`BOXES`] boxes. The box budget only
//! bounds a run — the mean-value form converges long before it (4,211 boxes at the
//! defaults, 19,510 over r from 10⁻⁶ to 10⁴ and c to 10⁶ at a tolerance of 10⁻¹³), where
//! the estimate said 2,000,000 boxes, 6.4 s and 108 MB for a run of 4 ms. The
//! search is deterministic and does not depend on its budget until it reaches it, so a
//! pilot that ends (converged, or at a budget within its own) has split exactly the
//! boxes the run will, and its heap grew exactly as the run's will: the estimate is
//! then the run's own. A search still going at [`BOXES`] (the natural extension's
//! usually) keeps the budget's bound.
//!
//! The pilot takes milliseconds (about 20 natively at its whole budget), too long
//! for a page's main thread at every edit: there the form sends its key (the internal
//! field `boxes_pilot`) with what its worker's pilot found, and prices the run at its
//! budget until the worker answers. The command line runs it.

use super::{BYTES_PER_BOX, CertifyConfig, CertifyJob, Status};
use crate::core::input::InputError;
use crate::core::memo::read_once;
use crate::experiments::{Job, PilotKey};
use serde::{Deserialize, Serialize};

/// Boxes the pilot splits at most.
pub const BOXES: u64 = 32_768;

/// What a search that ended took: the boxes it split and the cells its heap grew to hold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Search {
    pub boxes: u64,
    pub heap_cells: u64,
}

impl Search {
    /// The heap's bytes at its largest.
    pub fn heap_bytes(self) -> f64 {
        self.heap_cells as f64 * BYTES_PER_BOX as f64
    }
}

/// A pilot run elsewhere (the page's worker) for the configuration whose [`key`] it
/// carries: the search, where it ended within the pilot (None: it did not, or the pilot
/// is still running: the estimate is then the budget's bound).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxesPilot {
    pub key: String,
    #[serde(default)]
    pub search: Option<Search>,
}

impl BoxesPilot {
    /// What a pilot can give: a key's length, at most its boxes, a heap of at least one cell.
    pub fn check(&self) -> Result<(), InputError> {
        if self.key.len() > 64 || self.search.is_some_and(|s| s.boxes > BOXES || s.heap_cells == 0 || s.heap_cells > 2 * BOXES + 4) {
            return Err(InputError::new("boxes_pilot", "is not a pilot's search (the page's worker computes it); remove it"));
        }
        Ok(())
    }
}

/// The pilot's configuration: the run's, its budget at most [`BOXES`].
fn pilot_config(config: &CertifyConfig) -> CertifyConfig {
    CertifyConfig { max_boxes: config.max_boxes.min(BOXES), boxes_pilot: None, ..config.clone() }
}

/// The key of the pilot a valid configuration's estimate needs: a digest of its inputs.
pub fn key(config: &CertifyConfig) -> String {
    PilotKey::digest(&pilot_config(config))
}

/// Runs the pilot: what the page's worker sends back for the form's checks.
pub fn run_for(config: &CertifyConfig) -> BoxesPilot {
    BoxesPilot { key: key(config), search: search(config) }
}

/// The search the run will make, where it ends within the pilot: from the pilot given
/// with the configuration (`boxes_pilot`) where its key is the configuration's, else
/// (another key, or still running) None; without one given, the pilot runs here (the
/// last one's answer kept: the checks ask for it more than once).
pub fn search_of(config: &CertifyConfig) -> Option<Search> {
    match &config.boxes_pilot {
        Some(BoxesPilot { key: given, search }) => search.filter(|_| *given == key(config)),
        None => search(config),
    }
}

/// The pilot's search, None where it had not ended at [`BOXES`].
fn search(config: &CertifyConfig) -> Option<Search> {
    let pilot = pilot_config(config);
    let inputs = serde_json::to_string(&pilot).unwrap_or_default();
    read_once("certify pilot", &inputs, |_| {
        let mut job = CertifyJob::new(pilot.clone()).ok()?;
        while !job.done() {
            job.advance(BOXES + 1);
        }
        // stopped at the pilot's budget below the run's, the run goes on past it
        let ended = job.status == Status::Converged || pilot.max_boxes == config.max_boxes;
        ended.then(|| Search { boxes: job.split, heap_cells: job.heap.capacity() as u64 })
    })
}
