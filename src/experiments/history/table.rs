//! The table of a result: the page list the other experiments read
//! (`page,server,change_rate,weight,rate_low,rate_high`, rates per day, and with
//! `types` a `metadata` column giving each page's captured `Content-Type`), pages
//! without a rate the records support left out (counted in the result).

use super::output::HistoryOutput;
use crate::core::model::history::Format;
use crate::experiments::Tabular;
use crate::table::{Cell, Table, columns};

impl HistoryOutput {
    /// The page list, with each page's captured mime type as metadata when `typed`.
    pub fn page_list(&self, typed: bool) -> Table {
        let weighted = self.pages.iter().any(|p| p.weight.is_some());
        // the sitemaps protocol's default priority is 0.5
        let default_weight = if self.format == Some(Format::Sitemap) { 0.5 } else { 1.0 };
        let mut rows = Vec::new();
        for p in &self.pages {
            let (Some(rate), Some(server)) = (p.listed_rate(), &p.server) else { continue };
            let mut row = vec![Cell::Text(p.url.clone()), Cell::Text(server.clone()), Cell::Number(rate)];
            if weighted {
                row.push(Cell::Number(p.weight.unwrap_or(default_weight)));
            }
            row.push(Cell::Number(p.estimate.low.unwrap_or(0.0)));
            row.push(Cell::Number(p.estimate.high.expect("a listed rate has an upper bound")));
            if typed {
                row.push(Cell::Text(p.mime.as_ref().map_or(String::new(), |m| format!("Content-Type={m}"))));
            }
            rows.push(row);
        }
        let mut names = vec!["page", "server", "change_rate"];
        if weighted {
            names.push("weight");
        }
        names.extend(["rate_low", "rate_high"]);
        if typed {
            names.push("metadata");
        }
        Table { columns: columns(&names), rows }
    }
}

impl Tabular for HistoryOutput {
    fn table(&self) -> Table {
        self.page_list(self.config.types && self.typed > 0)
    }

    /// The crawlers experiment reads the pages' mime types; the others refuse them.
    fn table_for(&self, reader: &str) -> Table {
        self.page_list(reader == "crawlers" && self.typed > 0)
    }
}
