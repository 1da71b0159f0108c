//! The table of a result (the closed forms and the simulated factors with their intervals): the CSV export.

use super::PerPageOutput;
use crate::experiments::Tabular;
use crate::table::{Cell, Table, columns};

impl Tabular for PerPageOutput {
    fn table(&self) -> Table {
        let o = self;
        {
            let mut rows = Vec::new();
            for (name, values) in [("random_exact_eq_5_2", &o.random_exact), ("merge_bound_eq_5_8", &o.merge_bound), ("random_bound_cor_5_5", &o.random_bound)] {
                for (x, v) in o.x.iter().zip(values.iter()) {
                    rows.push(vec![name.into(), Cell::Number(*x), Cell::Number(*v), Cell::Number(*v), Cell::Number(*v)]);
                }
            }
            for s in &o.simulated {
                for p in &s.points {
                    rows.push(vec![format!("{}_simulated", s.policy.label()).as_str().into(), Cell::Number(p[0]), Cell::Number(p[1]), Cell::Number(p[2]), Cell::Number(p[3])]);
                }
            }
            Table { columns: columns(&["series", "x", "factor", "lower_95", "upper_95"]), rows }
        }
    }
}
