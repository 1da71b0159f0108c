//! The approximation factors of RANDOM and MERGE against x = λ/f — the thesis's Fig 5.2,
//! with the exact RANDOM factor (Eq 5-2 / A*) and the MERGE bound (Eq 5-8) for one c.

pub mod figures;
pub mod table;
#[cfg(test)]
mod tests;

use super::{Experiment, Job, ready};
use crate::core::field::settings;
use crate::core::input::{InputError, ordered};
use crate::core::limits::{Cost, Fix};
use crate::core::math::axis::GridAxis;
use crate::core::math::freshness::{merge_factor, random_factor, random_factor_bound};
use crate::core::math::optimize::golden_section_min;
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FactorCurvesConfig {
    /// c = f_s/f for the exact RANDOM factor and the MERGE bound.
    pub c: f64 = 5.0; shared(described::c()).at_least(1.0).at_most(1e6);
    pub x_min: f64 = 0.01; shared(described::x_min()).positive();
    pub x_max: f64 = 10.0; shared(described::x_max()).positive().at_most(1e4);
    pub log_x: bool = false; shared(described::log_x());
    pub points: u64 = 400; shared(described::points()).count(10, 100_000).why("more points than pixels add nothing");
}
}

impl Settings for FactorCurvesConfig {
    fn rules(&self) -> Result<(), InputError> {
        ordered("x_min", self.x_min, "x_max", self.x_max)
    }

    fn cost(&self) -> Cost {
        // three curves, and three golden-section searches of about 160 evaluations
        let work = 3.0 * self.points as f64 + 480.0;
        let fix = Fix::new("points", "use fewer points");
        Cost { work, unit: "evaluations".into(), bytes: 4.0 * 8.0 * self.points as f64 + 1024.0, seconds: work * 100e-9, memory_fix: fix.clone(), time_fix: fix }
    }
}

/// A curve's smallest value on the range and where it occurs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurveMinimum {
    pub x: f64,
    pub value: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FactorCurvesOutput {
    pub config: FactorCurvesConfig,
    pub x: Vec<f64>,
    /// Corollary 5.5: x/((1 + x)(1 − e^{−x})), RANDOM's bound for every c.
    pub random_bound: Vec<f64>,
    /// Eq 5-2 / Lemma 4.2 at the chosen c.
    pub random_exact: Vec<f64>,
    /// Eq 5-8 at the chosen c.
    pub merge_bound: Vec<f64>,
    pub random_bound_min: CurveMinimum,
    pub random_exact_min: CurveMinimum,
    pub merge_bound_min: CurveMinimum,
}

/// Minimum of f over sampled xs: best sample, then golden section between its neighbours.
fn minimum_of(f: impl Fn(f64) -> f64, xs: &[f64]) -> CurveMinimum {
    let (k, _) = xs.iter().map(|&x| f(x)).enumerate().min_by(|a, b| a.1.total_cmp(&b.1)).expect("points ≥ 10");
    let (a, b) = (xs[k.saturating_sub(1)], xs[(k + 1).min(xs.len() - 1)]);
    let (x, value) = golden_section_min(&f, a, b, 1e-13);
    CurveMinimum { x, value }
}

pub fn factor_curves(config: FactorCurvesConfig) -> Result<FactorCurvesOutput, InputError> {
    config.validate()?;
    let x = GridAxis { min: config.x_min, max: config.x_max, log: config.log_x, n: config.points as usize }.nodes();
    let c = config.c;
    Ok(FactorCurvesOutput {
        random_bound: x.iter().map(|&x| random_factor_bound(x)).collect(),
        random_exact: x.iter().map(|&x| random_factor(x, c)).collect(),
        merge_bound: x.iter().map(|&x| merge_factor(x, c)).collect(),
        random_bound_min: minimum_of(random_factor_bound, &x),
        random_exact_min: minimum_of(|x| random_factor(x, c), &x),
        merge_bound_min: minimum_of(|x| merge_factor(x, c), &x),
        x,
        config,
    })
}

/// The factor charts' range (ch. 5): c = f_s/f and x = λ/f, described for forms and
/// `--help` (per_page shares them).
/// The x range and c of a factor's curves, described for this experiment and
/// `per_page` (each declares its own ranges).
pub mod described {
    use crate::core::field::Field;

    pub fn c() -> Field {
        Field::number("c = f_s/f").help("server ÷ page frequency, ≥ 1")
    }
    pub fn x_min() -> Field {
        Field::number("x from").help("x = λ/f > 0")
    }
    pub fn x_max() -> Field {
        Field::number("x to")
    }
    pub fn log_x() -> Field {
        Field::bool("log scale for x")
    }
    pub fn points() -> Field {
        Field::integer("points per curve")
    }
}

impl Experiment for FactorCurvesConfig {
    type Output = FactorCurvesOutput;

    fn start(self) -> Result<Box<dyn Job<FactorCurvesOutput>>, InputError> {
        ready(self, factor_curves)
    }
}
