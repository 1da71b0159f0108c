//! The table of a result (every simulation and every algebraic estimate): the CSV export.

use super::PartitionOutput;
use crate::experiments::Tabular;
use crate::table::{Cell, Table, columns};

impl Tabular for PartitionOutput {
    fn table(&self) -> Table {
        let o = self;
        {
            let blank = || Cell::Text(String::new());
            let mut rows: Vec<Vec<Cell>> = o
                .points
                .iter()
                .map(|p| {
                    vec![
                        "simulation".into(),
                        p.scheme.label().into(),
                        p.politeness.label().into(),
                        Cell::Number(p.robots as f64),
                        Cell::Number(p.total_s),
                        Cell::Number(p.exchange_pct),
                        blank(),
                        blank(),
                        Cell::Number(p.violations as f64),
                        Cell::Number(p.mean_wait_s),
                        Cell::Number(p.load_ratio),
                    ]
                })
                .collect();
            for a in &o.algebraic {
                rows.push(vec![
                    "algebraic".into(),
                    a.scheme.label().into(),
                    blank(),
                    Cell::Number(a.robots as f64),
                    Cell::Number(a.download_s),
                    Cell::Number(a.crossing_pct),
                    Cell::Number(a.exchange_s),
                    a.redistribution_s.map_or_else(blank, Cell::Number),
                    blank(),
                    blank(),
                    Cell::Number(a.load_ratio),
                ]);
            }
            let head = [
                "source",
                "scheme",
                "politeness",
                "robots",
                "download_s",
                "exchange_pct",
                "exchange_time_s",
                "redistribution_s",
                "politeness_violations",
                "mean_wait_s",
                "load_ratio",
            ];
            Table { columns: columns(&head), rows }
        }
    }
}
