//! The table of a result (the CSV export): each policy's freshness and harmonic
//! staleness per time bin.

use super::output::LearningOutput;
use crate::experiments::Tabular;
use crate::table::{Cell, Table, columns};

impl Tabular for LearningOutput {
    fn table(&self) -> Table {
        let mut rows = Vec::new();
        for c in &self.policies {
            for (k, (f, h)) in c.freshness.iter().zip(&c.harmonic).enumerate() {
                rows.push(vec![Cell::Text(c.policy.label().into()), Cell::Number((k as f64 + 0.5) * self.bin_days), Cell::Number(*f), Cell::Number(*h)]);
            }
        }
        Table { columns: columns(&["policy", "time_days", "freshness", "harmonic_staleness"]), rows }
    }
}
