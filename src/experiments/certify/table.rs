//! The table of a result (the branch and bound's history): the CSV export.

use super::CertifyOutput;
use crate::table::{Table, columns, numbers};

pub fn table(o: &CertifyOutput) -> Table {
    Table {
        columns: columns(&["boxes_split", "proved_lower_bound", "best_value", "gap"]),
        rows: o.history.iter().map(|s| numbers(vec![s.boxes as f64, s.lower, s.upper, s.upper - s.lower])).collect(),
    }
}
