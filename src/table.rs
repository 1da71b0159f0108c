//! Results as tables of numbers and names, for CSV export (page and CLI alike). Each
//! experiment writes its own (`experiments/<name>/table.rs`); CSV is written by the
//! `csv` crate.

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

impl Table {
    /// RFC 4180 CSV with a header line.
    pub fn to_csv(&self) -> String {
        let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
        let mut write = |record: Vec<String>| writer.write_record(record).expect("writing to memory cannot fail");
        write(self.columns.clone());
        for row in &self.rows {
            write(
                row.iter()
                    .map(|c| match c {
                        Cell::Number(v) => v.to_string(),
                        Cell::Text(s) => s.clone(),
                    })
                    .collect(),
            );
        }
        String::from_utf8(writer.into_inner().expect("writing to memory cannot fail")).expect("the cells are UTF-8")
    }
}

pub fn numbers(values: Vec<f64>) -> Vec<Cell> {
    values.into_iter().map(Cell::Number).collect()
}

pub fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::experiments::{Output, parse_config, run};

    #[test]
    fn csv_has_a_header_and_one_row_per_point() {
        let out = run(parse_config(r#"{"experiment":"factor_curves","points":50}"#).unwrap(), |_, _| {}).unwrap();
        let csv = out.table().to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "x,random_bound_cor_5_5,random_exact_eq_5_2,merge_bound_eq_5_8");
        assert_eq!(lines.len(), 51);
        let first: Vec<f64> = lines[1].split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(first[0], 0.01);
        let Output::FactorCurves(f) = &out else { unreachable!() };
        assert_eq!(first[3], f.merge_bound[0], "values survive the CSV exactly");
    }

    #[test]
    fn fields_are_quoted_when_needed() {
        let t = Table { columns: vec!["a,b".into(), "say \"x\"".into()], rows: vec![vec![1.0.into(), "p, q".into()], vec![2.0.into(), "two\nlines".into()]] };
        assert_eq!(t.to_csv(), "\"a,b\",\"say \"\"x\"\"\"\n1,\"p, q\"\n2,\"two\nlines\"\n");
    }
}
