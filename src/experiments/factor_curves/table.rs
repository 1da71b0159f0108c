//! The table of a result (the three factors at each x): the CSV export.

use super::FactorCurvesOutput;
use crate::experiments::Tabular;
use crate::table::{Table, columns, numbers};

impl Tabular for FactorCurvesOutput {
    fn table(&self) -> Table {
        let o = self;
        Table {
            columns: columns(&["x", "random_bound_cor_5_5", "random_exact_eq_5_2", "merge_bound_eq_5_8"]),
            rows: (0..o.x.len()).map(|k| numbers(vec![o.x[k], o.random_bound[k], o.random_exact[k], o.merge_bound[k]])).collect(),
        }
    }
}
