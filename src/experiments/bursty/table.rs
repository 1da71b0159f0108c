//! The table of a result (each policy's freshness at each request rate): the CSV export.

use super::BurstyOutput;
use crate::experiments::Tabular;
use crate::table::{Cell, Table, columns};

impl Tabular for BurstyOutput {
    fn table(&self) -> Table {
        let o = self;
        Table {
            columns: columns(&["policy", "share_of_maximum", "freshness", "requests", "politeness_violations"]),
            rows: o
                .points
                .iter()
                .map(|p| vec![p.policy.label().into(), Cell::Number(p.fraction), Cell::Number(p.freshness), Cell::Number(p.requests as f64), Cell::Number(p.violations as f64)])
                .collect(),
        }
    }
}
