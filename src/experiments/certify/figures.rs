//! The figure of the branch and bound's progress on Conjecture 5.9.

use super::{CertifyOutput, Status};
use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen, series_pen};
use crate::chart::format::{sig, sig_bound, thousands};
use crate::experiments::{Brief, Figures};

impl Figures for CertifyOutput {
    fn figures(&self) -> Vec<Figure> {
        vec![figure(self)]
    }

    /// The bound, its region and the argument for the rest, without the history.
    fn brief(&self) -> Option<Brief> {
        let o = self;
        let json = serde_json::json!({
            "lower_bound": o.lower_bound,
            "region": {"r_min": o.config.r_min, "r_max": o.config.r_max, "c_min": o.config.c_min, "c_max": o.config.c_max},
            "upper_bound": o.upper_bound,
            "best": {"r": o.best_r, "c": o.best_c},
            "status": o.status,
            "boxes_split": o.boxes_split,
            "tails": o.tails,
            "global_bound": o.global_bound,
        });
        Some(Brief { json, text: None })
    }
}

fn figure(o: &CertifyOutput) -> Figure {
    let gaps: Vec<[f64; 2]> = o.history.iter().map(|s| [(s.boxes + 1) as f64, (s.upper - s.lower).max(1e-17)]).collect();
    let tol = o.config.tolerance;
    let top = gaps.iter().map(|g| g[1]).fold(tol, f64::max) * 3.0;
    let bottom = gaps.iter().map(|g| g[1]).fold(tol, f64::min) / 3.0;
    let right = ((o.boxes_split + 1) as f64).max(10.0) * 1.5;
    let state = match o.status {
        Status::Running => "running",
        Status::Converged => "converged",
        Status::BudgetExhausted => "stopped at the box budget",
    };
    let global = match o.global_bound {
        Some(g) => format!(" With the written argument for the rest of the domain, Eq 5-9 ≥ {} for every r > 0 and c ≥ 1.", sig_bound(g, 10, true)),
        None => " The region starts above c = 1, so no statement about the whole domain follows.".into(),
    };
    Figure {
        title: "Certifying Conjecture 5.9: branch and bound on Eq 5-9".into(),
        x: Axis::log("boxes split", 1.0, right),
        y: Axis::log("gap: best value − proved bound", bottom, top),
        layers: vec![
            Layer::lines("gap", vec![gaps], series_pen(0)),
            Layer::HLine { label: format!("tolerance {}", sig(tol, 2)), y: tol, pen: Pen::new(Paint::Foreground, Dash::Dotted) },
        ],
        legend: Corner::UpperRight,
        summary: format!(
            "Search {state} after {} boxes. Proved: Eq 5-9 ≥ {} on r ∈ [{}, {}], c ∈ [{}, {}]; the factor equals at most {} at r = {}, c = {}.{global}",
            thousands(o.boxes_split as f64),
            sig_bound(o.lower_bound, 10, true),
            sig(o.config.r_min, 4),
            sig(o.config.r_max, 4),
            sig(o.config.c_min, 4),
            sig(o.config.c_max, 4),
            sig_bound(o.upper_bound, 10, false),
            sig(o.best_r, 6),
            sig(o.best_c, 6),
        ),
    }
}
