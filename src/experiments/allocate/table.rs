//! The table of a result (every page's frequency under the four allocations, and with
//! observed pages the probability OPT_POLITE crawls each announced change): the CSV export.

use super::AllocateOutput;
use crate::experiments::Tabular;
use crate::table::{Cell, Table, columns};

impl Tabular for AllocateOutput {
    fn table(&self) -> Table {
        let o = self;
        {
            let name = |k: usize| if o.pages.is_empty() { Cell::Number(k as f64) } else { Cell::Text(o.pages[k].clone()) };
            let rows = (0..o.change_rates.len())
                .map(|k| {
                    let mut row = vec![name(k), Cell::Number(o.change_rates[k])];
                    if !o.observed.is_empty() {
                        row.push(Cell::Number(if o.observed[k] { 1.0 } else { 0.0 }));
                    }
                    row.extend(o.allocations().iter().map(|a| Cell::Number(a.frequencies[k])));
                    // what a crawler does with an announced change: crawl it with this probability
                    if o.observed.get(k) == Some(&true) {
                        row.push(Cell::Number((o.opt_polite.frequencies[k] / o.change_rates[k]).min(1.0)));
                    } else if !o.observed.is_empty() {
                        row.push(Cell::Text(String::new()));
                    }
                    row
                })
                .collect();
            let (observed, probability): (&[&str], &[&str]) = if o.observed.is_empty() { (&[], &[]) } else { (&["observed"], &["p_opt_polite"]) };
            let names: Vec<&str> =
                ["page", "change_rate"].iter().chain(observed).chain(&["f_uniform", "f_proportional", "f_opt_unpolite", "f_opt_polite"]).chain(probability).copied().collect();
            Table { columns: columns(&names), rows }
        }
    }
}
