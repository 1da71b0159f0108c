//! Each result as a table of numbers, for CSV export (page and CLI alike).

use crate::experiment::Output;

/// One value of a table: a number (written in shortest round-trip form) or a name.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Number(f64),
    Text(String),
}

impl From<f64> for Cell {
    fn from(v: f64) -> Self {
        Cell::Number(v)
    }
}

impl From<&str> for Cell {
    fn from(v: &str) -> Self {
        Cell::Text(v.to_string())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

impl Table {
    /// RFC 4180 CSV with a header line.
    pub fn to_csv(&self) -> String {
        let mut out = self.columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",");
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .map(|c| match c {
                    Cell::Number(v) => v.to_string(),
                    Cell::Text(s) => quote(s),
                })
                .collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }
}

fn numbers(values: Vec<f64>) -> Vec<Cell> {
    values.into_iter().map(Cell::Number).collect()
}

fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

pub fn table(output: &Output) -> Table {
    match output {
        Output::LevelSets(o) => Table {
            columns: columns(&["level", "line", "r", "c"]),
            rows: o.contours.iter().flat_map(|c| c.lines.iter().enumerate().flat_map(move |(k, l)| l.iter().map(move |p| numbers(vec![c.level, k as f64, p[0], p[1]])))).collect(),
        },
        Output::FactorCurves(o) => Table {
            columns: columns(&["x", "random_bound_cor_5_5", "random_exact_eq_5_2", "merge_bound_eq_5_8"]),
            rows: (0..o.x.len()).map(|k| numbers(vec![o.x[k], o.random_bound[k], o.random_exact[k], o.merge_bound[k]])).collect(),
        },
        Output::Bursts(o) => Table {
            columns: std::iter::once("x".to_string()).chain(o.curves.iter().map(|c| format!("bound_n_{}", c.n))).collect(),
            rows: (0..o.x.len()).map(|k| numbers(std::iter::once(o.x[k]).chain(o.curves.iter().map(|c| c.bound[k])).collect())).collect(),
        },
        Output::Certify(o) => Table {
            columns: columns(&["boxes_split", "proved_lower_bound", "best_value", "gap"]),
            rows: o.history.iter().map(|s| numbers(vec![s.boxes as f64, s.lower, s.upper, s.upper - s.lower])).collect(),
        },
        Output::Policies(o) => {
            let mut rows = Vec::new();
            let mut push = |group: &str, share: f64, curve: &crate::revisit::repository::PolicyCurve| {
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
        Output::Allocate(o) => {
            let name = |k: usize| if o.pages.is_empty() { Cell::Number(k as f64) } else { Cell::Text(o.pages[k].clone()) };
            let rows = (0..o.change_rates.len())
                .map(|k| {
                    let mut row = vec![name(k), Cell::Number(o.change_rates[k])];
                    row.extend(o.allocations().iter().map(|a| Cell::Number(a.frequencies[k])));
                    row
                })
                .collect();
            Table { columns: columns(&["page", "change_rate", "f_uniform", "f_proportional", "f_opt_unpolite", "f_opt_polite"]), rows }
        }
        Output::PerPage(o) => {
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
        Output::Sensors(o) => {
            let mut rows = Vec::new();
            for r in &o.results {
                let name = format!("{:?}", r.concept).to_lowercase();
                for (k, v) in r.freshness.iter().enumerate() {
                    rows.push(vec![name.as_str().into(), Cell::Number(r.robots as f64), Cell::Number((k as u64 * o.config.sample_every) as f64), Cell::Number(*v)]);
                }
            }
            Table { columns: columns(&["concept", "robots", "time_unit", "freshness"]), rows }
        }
        Output::Wikipedia(o) => Table {
            columns: columns(&["policy", "share_of_maximum", "freshness", "requests", "politeness_violations"]),
            rows: o
                .points
                .iter()
                .map(|p| vec![p.policy.label().into(), Cell::Number(p.fraction), Cell::Number(p.freshness), Cell::Number(p.requests as f64), Cell::Number(p.violations as f64)])
                .collect(),
        },
        Output::Partition(o) => {
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
        Output::Channel(o) => Table {
            columns: columns(&["x", "share_per_page", "share_per_server", "bound_n_pages", "bound_n_servers"]),
            rows: (0..o.x.len()).map(|k| numbers(vec![o.x[k], o.per_page.tail[k], o.per_server.tail[k], o.per_page.bound[k], o.per_server.bound[k]])).collect(),
        },
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::experiment::{parse_config, run};

    #[test]
    fn csv_has_a_header_and_one_row_per_point() {
        let out = run(parse_config(r#"{"experiment":"factor_curves","points":50}"#).unwrap(), |_, _| {}).unwrap();
        let csv = table(&out).to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "x,random_bound_cor_5_5,random_exact_eq_5_2,merge_bound_eq_5_8");
        assert_eq!(lines.len(), 51);
        let first: Vec<f64> = lines[1].split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(first[0], 0.01);
        let Output::FactorCurves(f) = &out else { unreachable!() };
        assert_eq!(first[3], f.merge_bound[0], "values survive the CSV exactly");
    }

    #[test]
    fn header_fields_are_quoted_when_needed() {
        let t = Table { columns: vec!["a,b".into(), "say \"x\"".into()], rows: vec![vec![1.0.into(), "p, q".into()]] };
        assert_eq!(t.to_csv(), "\"a,b\",\"say \"\"x\"\"\"\n1,\"p, q\"\n");
    }
}
