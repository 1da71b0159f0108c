//! The table of a result (every curve of freshness over time, bin by bin): the CSV export.

use super::PoliciesOutput;
use crate::experiments::Tabular;
use crate::table::{Cell, Table, columns};

impl Tabular for PoliciesOutput {
    fn table(&self) -> Table {
        let o = self;
        {
            let mut rows = Vec::new();
            let mut push = |group: &str, share: f64, curve: &super::PolicyCurve| {
                for (k, v) in curve.freshness.iter().enumerate() {
                    rows.push(vec![group.into(), Cell::Number(share), curve.policy.label().into(), Cell::Number((k as f64 + 0.5) * o.bin_days), Cell::Number(*v)]);
                }
            };
            for c in &o.capacities {
                for curve in &c.curves {
                    push("capacity", c.share, curve);
                }
            }
            for c in &o.crawlers {
                push("crawler", c.curve.bandwidth / o.max_rate, &c.curve);
                if let Some(m) = &c.merge_same_bandwidth {
                    push("merge_same_bandwidth", m.bandwidth / o.max_rate, m);
                }
            }
            Table { columns: columns(&["group", "share_of_maximum", "policy", "day", "freshness"]), rows }
        }
    }
}
