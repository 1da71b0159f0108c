//! Level sets of Eq 5-9, MERGE's approximation factor over (r, c) — the thesis's Fig 5.6.

use crate::core::math::axis::GridAxis;
use crate::experiments::Settings;
pub mod contour;
pub mod figures;
pub mod table;

use super::{Experiment, Job};
use crate::core::input::{InputError, check, count, ordered};
use crate::core::limits::{Cost, Fix};
use crate::core::math::freshness::merge_factor;
use crate::core::math::optimize::{Minimum2, pattern_search_in_box};
use contour::Grid;
use serde::{Deserialize, Serialize};

/// What to draw: the region, its scales, the contour levels and the shaded threshold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LevelSetsConfig {
    /// r = λ/f, the change rate over the revisit frequency.
    pub r_min: f64,
    pub r_max: f64,
    /// c = f_s/f, the server's request frequency over the page's revisit frequency.
    pub c_min: f64,
    pub c_max: f64,
    pub log_r: bool,
    pub log_c: bool,
    /// Contour levels, increasing, each in (0, 1].
    pub levels: Vec<f64>,
    /// Nodes per axis of the sampling grid.
    pub grid: u64,
    /// Shade where the factor is below this value (none when absent).
    pub highlight_below: Option<f64>,
}

impl Default for LevelSetsConfig {
    fn default() -> Self {
        LevelSetsConfig {
            r_min: 0.05,
            r_max: 9.0,
            c_min: 1.0,
            c_max: 20.0,
            log_r: false,
            log_c: false,
            levels: vec![0.93, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99],
            grid: 241,
            highlight_below: Some(0.93),
        }
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
    fn validate(&self) -> Result<(), InputError> {
        check("r_min", self.r_min)?.positive()?;
        check("r_max", self.r_max)?.positive()?.at_most(AXIS_LIMIT)?;
        ordered("r_min", self.r_min, "r_max", self.r_max)?;
        check("c_min", self.c_min)?.at_least(1.0)?;
        check("c_max", self.c_max)?.at_most(AXIS_LIMIT)?;
        ordered("c_min", self.c_min, "c_max", self.c_max)?;
        count("grid", self.grid, 11, MAX_GRID, "a finer grid adds nothing visible and costs memory")?;
        validate_levels("levels", &self.levels)?;
        if let Some(h) = self.highlight_below {
            check("highlight_below", h)?.positive()?.at_most(1.0)?;
        }
        Ok(())
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

/// Contour levels: at most [`MAX_LEVELS`], strictly increasing, each in (0, 1].
pub fn validate_levels(field: &str, levels: &[f64]) -> Result<(), InputError> {
    if levels.is_empty() {
        return Err(InputError::new(field, "needs at least one level, e.g. 0.93, 0.95, 0.99"));
    }
    if levels.len() > MAX_LEVELS {
        return Err(InputError::new(field, format!("has {} levels; at most {MAX_LEVELS} can be told apart", levels.len())));
    }
    for (k, &v) in levels.iter().enumerate() {
        check(&format!("{field}[{k}]"), v)?.positive()?.at_most(1.0)?;
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

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn run(config: LevelSetsConfig) -> LevelSetsOutput {
        config.start().unwrap().finish()
    }

    #[test]
    fn default_region_has_the_conjectured_minimum_inside() {
        let out = run(LevelSetsConfig::default());
        let m = out.minimum;
        // Conjecture 5.9: the factor stays above 0.927; the minimum is interior.
        assert!(m.value > 0.927 && m.value < 0.9273, "{m:?}");
        assert!((m.r - 1.6374).abs() < 1e-3 && (m.c - 2.2706).abs() < 1e-3, "{m:?}");
        assert!(!m.on_boundary);
        assert!(out.sampled_range[0] >= m.value);
    }

    #[test]
    fn contour_points_lie_on_their_level() {
        let out = run(LevelSetsConfig::default());
        let mut checked = 0;
        for contour in &out.contours {
            for &[r, c] in contour.lines.iter().flatten() {
                assert!((merge_factor(r, c) - contour.level).abs() < 2e-3, "level {} at ({r},{c})", contour.level);
                checked += 1;
            }
        }
        assert!(checked > 500);
        // the 0.93 level is a small loop around the minimum
        let l93 = &out.contours[0];
        assert_eq!(l93.level, 0.93);
        assert!(l93.lines.iter().all(|l| l.first() == l.last()));
    }

    #[test]
    fn highlighted_cells_cover_the_minimum_and_only_low_values() {
        let out = run(LevelSetsConfig::default());
        let m = out.minimum;
        assert!(out.below.iter().any(|b| b.r0 <= m.r && m.r <= b.r1 && b.c0 <= m.c && m.c <= b.c1));
        for b in &out.below {
            let (r, c) = (0.5 * (b.r0 + b.r1), 0.5 * (b.c0 + b.c1));
            assert!(merge_factor(r, c) < 0.935);
        }
    }

    #[test]
    fn log_axes_up_to_ten_thousand() {
        let out = run(LevelSetsConfig { r_min: 0.01, r_max: 1e4, c_max: 1e4, log_r: true, log_c: true, grid: 101, ..Default::default() });
        assert!(out.minimum.value > 0.927);
        assert!(out.contours.iter().any(|c| !c.lines.is_empty()));
    }

    #[test]
    fn a_region_that_cuts_the_minimum_off_reports_it_on_the_boundary() {
        let out = run(LevelSetsConfig { r_min: 3.0, r_max: 9.0, ..Default::default() });
        assert!(out.minimum.on_boundary);
        assert!((out.minimum.r - 3.0).abs() < 1e-9);
    }

    #[test]
    fn bad_input_names_the_field() {
        let bad = |cfg: LevelSetsConfig| LevelSetsJob::new(cfg).err().unwrap().field;
        let d = LevelSetsConfig::default;
        assert_eq!(bad(LevelSetsConfig { r_min: 0.0, ..d() }), "r_min");
        assert_eq!(bad(LevelSetsConfig { r_min: -1.0, ..d() }), "r_min");
        assert_eq!(bad(LevelSetsConfig { r_min: f64::NAN, ..d() }), "r_min");
        assert_eq!(bad(LevelSetsConfig { c_min: 0.5, ..d() }), "c_min");
        assert_eq!(bad(LevelSetsConfig { r_min: 5.0, r_max: 2.0, ..d() }), "r_max");
        assert_eq!(bad(LevelSetsConfig { c_max: 1e6, ..d() }), "c_max");
        assert_eq!(bad(LevelSetsConfig { grid: 1_000_000, ..d() }), "grid");
        assert_eq!(bad(LevelSetsConfig { levels: vec![0.95, 0.93], ..d() }), "levels");
        assert_eq!(bad(LevelSetsConfig { levels: vec![1.5], ..d() }), "levels[0]");
        assert_eq!(bad(LevelSetsConfig { highlight_below: Some(-1.0), ..d() }), "highlight_below");
    }

    #[test]
    fn progress_advances_to_one() {
        let mut job = LevelSetsJob::new(LevelSetsConfig { grid: 101, ..Default::default() }).unwrap();
        let first = job.advance(500);
        assert!(first > 0.0 && first < 0.1);
        while !job.done() {
            job.advance(1000);
        }
        assert_eq!(job.advance(10), 1.0);
    }
}
