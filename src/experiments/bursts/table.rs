//! The table of a result (Eq 5-11's bound at each x for each n): the CSV export.

use super::BurstsOutput;
use crate::experiments::Tabular;
use crate::table::{Table, numbers};

impl Tabular for BurstsOutput {
    fn table(&self) -> Table {
        let o = self;
        Table {
            columns: std::iter::once("x".to_string()).chain(o.curves.iter().map(|c| format!("bound_n_{}", c.n))).collect(),
            rows: (0..o.x.len()).map(|k| numbers(std::iter::once(o.x[k]).chain(o.curves.iter().map(|c| c.bound[k])).collect())).collect(),
        }
    }
}
