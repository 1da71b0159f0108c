//! Level sets of Eq 5-9, MERGE's approximation factor over (r, c) — the thesis's Fig 5.6.

use crate::core::field::settings;
use crate::core::math::axis::GridAxis;
use crate::experiments::Settings;
pub mod contour;
pub mod figures;
pub mod table;
#[cfg(test)]
mod tests;

use super::{Experiment, Job};
use crate::core::input::{InputError, ordered};
use crate::core::limits::{Cost, Fix};
use crate::core::math::freshness::merge_factor;
use crate::core::math::optimize::{Minimum2, pattern_search_in_box};
use contour::Grid;
use serde::{Deserialize, Serialize};

settings! {
/// What to draw: the region, its scales, the contour levels and the shaded threshold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LevelSetsConfig {
    /// r = λ/f, the change rate over the revisit frequency.
    pub r_min: f64 = 0.05; number("r from").help("r = λ/f > 0").positive();
    pub r_max: f64 = 9.0; number("r to").help("up to 10⁴").positive().at_most(AXIS_LIMIT);
    pub log_r: bool = false; bool("log scale for r");
    /// c = f_s/f, the server's request frequency over the page's revisit frequency.
    pub c_min: f64 = 1.0; number("c from").help("c = f_s/f ≥ 1").at_least(1.0);
    pub c_max: f64 = 20.0; number("c to").help("up to 10⁴").at_most(AXIS_LIMIT);
    pub log_c: bool = false; bool("log scale for c").help("spreads the band c < 5 where the factor is lowest");
    /// Contour levels, increasing (a rule), each in (0, 1].
    pub levels: Vec<f64> = vec![0.93, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99]; list("contour levels").help("increasing, in (0, 1]").positive().at_most(1.0);
    /// Shade where the factor is below this value (none when absent).
    pub highlight_below: Option<f64> = Some(0.93); optional("shade where factor <").help("empty: no shading").positive().at_most(1.0);
    /// Nodes per axis of the sampling grid.
    pub grid: u64 = 241; integer("grid points per axis").count(11, MAX_GRID).why("a finer grid adds nothing visible and costs memory");
}
}

/// Largest value allowed for r and c: the thesis explores up to 10⁴.
pub const AXIS_LIMIT: f64 = 1e4;
/// Finest grid: 1,001² evaluations is under 0.1 s and finer adds nothing visible.
pub const MAX_GRID: u64 = 1001;
pub const MAX_LEVELS: usize = 40;

impl LevelSetsConfig {
    fn axes(&self) -> (GridAxis, GridAxis) {
        let n = self.grid as usize;
        (GridAxis { min: self.r_min, max: self.r_max, log: self.log_r, n }, GridAxis { min: self.c_min, max: self.c_max, log: self.log_c, n })
    }
}

impl Settings for LevelSetsConfig {
    fn rules(&self) -> Result<(), InputError> {
        ordered("r_min", self.r_min, "r_max", self.r_max)?;
        ordered("c_min", self.c_min, "c_max", self.c_max)?;
        validate_levels("levels", &self.levels)
    }

    fn cost(&self) -> Cost {
        let nodes = (self.grid as f64).powi(2);
        // the values, and the contours: about 120 bytes per grid line and level
        // (measured, tests/cost_model.rs)
        let bytes = nodes * 8.0 + 120.0 * self.grid as f64 * self.levels.len() as f64 + 32_768.0;
        let fix = Fix::new("grid", "use a coarser grid");
        Cost { work: nodes, unit: "evaluations of Eq 5-9".into(), bytes, seconds: nodes * SECONDS_PER_NODE, memory_fix: fix.clone(), time_fix: fix }
    }
}

/// Contour levels: at least one, at most [`MAX_LEVELS`], strictly increasing (each
/// item's range is declared).
fn validate_levels(field: &str, levels: &[f64]) -> Result<(), InputError> {
    if levels.is_empty() {
        return Err(InputError::new(field, "needs at least one level, e.g. 0.93, 0.95, 0.99"));
    }
    if levels.len() > MAX_LEVELS {
        return Err(InputError::new(field, format!("has {} levels; at most {MAX_LEVELS} can be told apart", levels.len())));
    }
    for (k, &v) in levels.iter().enumerate() {
        if k > 0 && v <= levels[k - 1] {
            return Err(InputError::new(field, format!("must increase strictly ({} then {v}); sort them and remove repeats", levels[k - 1])));
        }
    }
    Ok(())
}

/// One contour level and its polylines in (r, c) coordinates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contour {
    pub level: f64,
    pub lines: Vec<Vec<[f64; 2]>>,
}

/// A rectangle [r0, r1] × [c0, c1] of the region.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    pub r0: f64,
    pub r1: f64,
    pub c0: f64,
    pub c1: f64,
}

/// The smallest factor found in the region and where.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FactorMinimum {
    pub r: f64,
    pub c: f64,
    pub value: f64,
    /// True when the minimum sits on the region's edge (the region cuts it off).
    pub on_boundary: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelSetsOutput {
    pub config: LevelSetsConfig,
    pub contours: Vec<Contour>,
    /// Cells (merged along rows) where the factor is below `highlight_below`.
    pub below: Vec<Rect>,
    pub minimum: FactorMinimum,
    /// Smallest and largest sampled values.
    pub sampled_range: [f64; 2],
}

/// Evaluates the grid row by row so a large grid can report progress.
pub struct LevelSetsJob {
    config: LevelSetsConfig,
    r: GridAxis,
    c: GridAxis,
    r_nodes: Vec<f64>,
    c_nodes: Vec<f64>,
    values: Vec<f64>,
}

impl LevelSetsJob {
    pub fn new(config: LevelSetsConfig) -> Result<Self, InputError> {
        config.validate()?;
        let (r, c) = config.axes();
        let values = Vec::with_capacity(r.n * c.n);
        Ok(LevelSetsJob { config, r, c, r_nodes: r.nodes(), c_nodes: c.nodes(), values })
    }

    /// The contours, once every node is evaluated.
    fn output(self) -> LevelSetsOutput {
        let grid = Grid { nx: self.r.n, ny: self.c.n, z: &self.values };
        let to_coords = |(i, j): (f64, f64)| [self.r.at(i), self.c.at(j)];
        let contours =
            self.config.levels.iter().map(|&level| Contour { level, lines: grid.contour(level).into_iter().map(|l| l.into_iter().map(to_coords).collect()).collect() }).collect();
        let below = self.config.highlight_below.map(|h| self.cells_below(h)).unwrap_or_default();
        let minimum = self.minimum();
        let lo = self.values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = self.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        LevelSetsOutput { config: self.config, contours, below, minimum, sampled_range: [lo, hi] }
    }

    /// Row runs of nodes whose value is below `threshold`; each node stands for the cell
    /// reaching half-way to its neighbours.
    fn cells_below(&self, threshold: f64) -> Vec<Rect> {
        let (nx, ny) = (self.r.n, self.c.n);
        let edge = |axis: &GridAxis, k: usize, side: f64| axis.at((k as f64 + side).clamp(0.0, (axis.n - 1) as f64));
        let mut rects = Vec::new();
        for j in 0..ny {
            let row = &self.values[j * nx..(j + 1) * nx];
            let mut i = 0;
            while i < nx {
                if row[i] < threshold {
                    let start = i;
                    while i < nx && row[i] < threshold {
                        i += 1;
                    }
                    rects.push(Rect { r0: edge(&self.r, start, -0.5), r1: edge(&self.r, i - 1, 0.5), c0: edge(&self.c, j, -0.5), c1: edge(&self.c, j, 0.5) });
                } else {
                    i += 1;
                }
            }
        }
        rects
    }

    /// Best grid node, refined by pattern search inside the region.
    fn minimum(&self) -> FactorMinimum {
        let (k, &value) = self.values.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).expect("grid is not empty");
        let start = Minimum2 { x: self.r_nodes[k % self.r.n], y: self.c_nodes[k / self.r.n], value };
        let m = pattern_search_in_box(merge_factor, start, (self.r.min, self.r.max), (self.c.min, self.c.max), 1e-12);
        let near = |v: f64, a: f64, b: f64| (v - a).abs() <= 1e-9 * (b - a) || (v - b).abs() <= 1e-9 * (b - a);
        let on_boundary = near(m.x, self.r.min, self.r.max) || near(m.y, self.c.min, self.c.max);
        FactorMinimum { r: m.x, c: m.y, value: m.value, on_boundary }
    }
}

/// Native time per evaluation of Eq 5-9 with the contouring that follows.
const SECONDS_PER_NODE: f64 = 80e-9;

impl Experiment for LevelSetsConfig {
    type Output = LevelSetsOutput;

    fn start(self) -> Result<Box<dyn Job<LevelSetsOutput>>, InputError> {
        Ok(Box::new(LevelSetsJob::new(self)?))
    }
}

impl Job<LevelSetsOutput> for LevelSetsJob {
    /// Evaluates about `budget` grid nodes; returns the fraction done.
    fn advance(&mut self, budget: u64) -> f64 {
        let total = self.r.n * self.c.n;
        let rows = (budget as usize / self.r.n).max(1);
        for _ in 0..rows {
            let j = self.values.len() / self.r.n;
            if j == self.c.n {
                break;
            }
            let c = self.c_nodes[j];
            self.values.extend(self.r_nodes.iter().map(|&r| merge_factor(r, c)));
        }
        self.values.len() as f64 / total as f64
    }

    fn done(&self) -> bool {
        self.values.len() == self.r.n * self.c.n
    }

    fn finish(mut self: Box<Self>) -> LevelSetsOutput {
        while !self.done() {
            self.advance(u64::MAX);
        }
        self.output()
    }
    fn work(&self) -> f64 {
        self.values.len() as f64
    }
}
