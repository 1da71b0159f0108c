//! The table of a result (the branch and bound's history): the CSV export.

use super::CertifyOutput;
use crate::experiments::Tabular;
use crate::table::{Table, columns, numbers};

impl Tabular for CertifyOutput {
    fn table(&self) -> Table {
        let o = self;
        Table {
            columns: columns(&["boxes_split", "proved_lower_bound", "best_value", "gap"]),
            rows: o.history.iter().map(|s| numbers(vec![s.boxes as f64, s.lower, s.upper, s.upper - s.lower])).collect(),
        }
    }
}
