//! The table of a result (the contour lines of Eq 5-9, point by point): the CSV export.

use super::LevelSetsOutput;
use crate::experiments::Tabular;
use crate::table::{Table, columns, numbers};

impl Tabular for LevelSetsOutput {
    fn table(&self) -> Table {
        let o = self;
        Table {
            columns: columns(&["level", "line", "r", "c"]),
            rows: o.contours.iter().flat_map(|c| c.lines.iter().enumerate().flat_map(move |(k, l)| l.iter().map(move |p| numbers(vec![c.level, k as f64, p[0], p[1]])))).collect(),
        }
    }
}
