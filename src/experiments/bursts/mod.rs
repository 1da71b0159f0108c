//! The Eq 5-11 bound on bursts of requests against the excess x, for several numbers n
//! of equally spaced elements — the thesis's Fig 5.7.

pub mod figures;
pub mod table;
#[cfg(test)]
mod tests;

use super::{Experiment, Job, ready};
use crate::core::field::settings;
use crate::core::input::{InputError, distinct};
use crate::core::limits::{Cost, Fix};
use crate::core::math::axis::GridAxis;
use crate::core::math::bursts::{burst_bound, excess_for_probability};
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BurstsConfig {
    /// Numbers of equally spaced elements (pages or servers).
    pub n: Vec<f64> = vec![5_000.0, 50_000.0, 500_000.0, 5_000_000.0]; list("n (elements)").help("pages or servers, e.g. 5462").count(1, 1_000_000_000_000);
    /// The excess whose bound falls to this probability is reported for each n.
    pub probability: f64 = 0.1; number("mark probability").help("in (0, 1)").positive().below(1.0);
    pub x_max: f64 = 10_000.0; number("x up to").positive().at_most(1e12);
    pub log_x: bool = false; bool("log scale for x");
    /// Lowest probability shown on the chart's log axis.
    pub probability_floor: f64 = 1e-10; number("lowest probability shown").at_least(1e-300).below(1.0);
    pub points: u64 = 400; integer("points per curve").count(10, 100_000).why("more points than pixels add nothing");
    /// An excess whose bound is reported for each n (the CLI's `--x`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64> = None; optional("the bound at this excess").help("reported for each n (the CLI's --x)").at_least(0.0).at_most(1e15);
}
}

impl Settings for BurstsConfig {
    fn rules(&self) -> Result<(), InputError> {
        if self.n.is_empty() {
            return Err(InputError::new("n", "needs at least one number of elements, e.g. 5462"));
        }
        if self.n.len() > MAX_SERIES {
            return Err(InputError::new("n", format!("has {} values; at most {MAX_SERIES} curves can be told apart", self.n.len())));
        }
        distinct("n", &self.n)
    }

    fn cost(&self) -> Cost {
        let work = self.n.len() as f64 * (self.points as f64 + 200.0);
        let fix = Fix::new("points", "use fewer points");
        Cost {
            work,
            unit: "evaluations".into(),
            bytes: 8.0 * (self.n.len() as f64 + 1.0) * self.points as f64 + 1024.0,
            seconds: work * 100e-9,
            memory_fix: fix.clone(),
            time_fix: fix,
        }
    }
}

pub const MAX_SERIES: usize = 12;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BurstCurve {
    pub n: f64,
    /// The bound at each x of the output (may underflow to 0 far out).
    pub bound: Vec<f64>,
    /// Smallest x whose bound is at most `probability`.
    pub excess_at_probability: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BurstsOutput {
    pub config: BurstsConfig,
    pub x: Vec<f64>,
    pub curves: Vec<BurstCurve>,
    /// The bound at the configuration's `x`, for each n.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub at_x: Vec<BoundAt>,
}

/// Eq 5-11's bound for n elements at one excess x.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoundAt {
    pub n: f64,
    pub x: f64,
    pub bound: f64,
}

pub fn bursts(config: BurstsConfig) -> Result<BurstsOutput, InputError> {
    config.validate()?;
    let x_min = if config.log_x { config.x_max * 1e-4 } else { 0.0 };
    let x = GridAxis { min: x_min, max: config.x_max, log: config.log_x, n: config.points as usize }.nodes();
    let curves = config
        .n
        .iter()
        .map(|&n| BurstCurve { n, bound: x.iter().map(|&x| burst_bound(n, x)).collect(), excess_at_probability: excess_for_probability(n, config.probability) })
        .collect();
    let at_x = config.x.map(|x| config.n.iter().map(|&n| BoundAt { n, x, bound: burst_bound(n, x) }).collect()).unwrap_or_default();
    Ok(BurstsOutput { config, x, curves, at_x })
}

impl Experiment for BurstsConfig {
    type Output = BurstsOutput;

    fn start(self) -> Result<Box<dyn Job<BurstsOutput>>, InputError> {
        ready(self, bursts)
    }
}
