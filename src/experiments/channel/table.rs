//! The table of a result (the share of windows over each excess, and the bounds): the CSV export.

use super::ChannelOutput;
use crate::experiments::Tabular;
use crate::table::{Table, columns, numbers};

impl Tabular for ChannelOutput {
    fn table(&self) -> Table {
        let o = self;
        Table {
            columns: columns(&["x", "share_per_page", "share_per_server", "bound_n_pages", "bound_n_servers"]),
            rows: (0..o.x.len()).map(|k| numbers(vec![o.x[k], o.per_page.tail[k], o.per_server.tail[k], o.per_page.bound[k], o.per_server.bound[k]])).collect(),
        }
    }
}
