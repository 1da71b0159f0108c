//! The table of a result (each concept's freshness at every sample): the CSV export.

use super::SensorsOutput;
use crate::experiments::Tabular;
use crate::table::{Cell, Table, columns};

impl Tabular for SensorsOutput {
    fn table(&self) -> Table {
        let o = self;
        {
            let mut rows = Vec::new();
            for r in &o.results {
                let name = format!("{:?}", r.concept).to_lowercase();
                for (k, v) in r.freshness.iter().enumerate() {
                    rows.push(vec![name.as_str().into(), Cell::Number(r.robots as f64), Cell::Number((k as u64 * o.config.sample_every) as f64), Cell::Number(*v)]);
                }
            }
            Table { columns: columns(&["concept", "robots", "time_unit", "freshness"]), rows }
        }
    }
}
