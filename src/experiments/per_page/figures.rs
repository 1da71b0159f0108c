//! The figure of the per-page experiment.

use super::PerPageOutput;
use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen};
use crate::chart::format::{curve, sig};
use crate::core::policy::PolicyKind;
use crate::experiments::Figures;

/// Experiment 1: simulated factors with 95 % intervals over Eq 5-2, Eq 5-8, Cor 5.5.
impl Figures for PerPageOutput {
    fn figures(&self) -> Vec<Figure> {
        vec![figure(self)]
    }
}

fn figure(o: &PerPageOutput) -> Figure {
    let c = sig(o.config.c, 4);
    let mut layers = vec![
        Layer::lines(format!("RANDOM exact, Eq 5-2 (c = {c})"), curve(&o.x, &o.random_exact), Pen::new(Paint::Series(1), Dash::Dashed)),
        Layer::lines(format!("MERGE bound, Eq 5-8 (c = {c})"), curve(&o.x, &o.merge_bound), Pen::new(Paint::Series(0), Dash::Dashed)),
        Layer::lines("RANDOM bound, Cor 5.5", curve(&o.x, &o.random_bound), Pen { width: 1.2, ..Pen::new(Paint::Series(6), Dash::Dotted) }),
        Layer::HLine { label: String::new(), y: 1.0, pen: Pen { width: 1.0, ..Pen::new(Paint::Foreground, Dash::Dotted) } },
    ];
    let mut notes = Vec::new();
    for series in &o.simulated {
        let k = if series.policy == PolicyKind::Merge { 0 } else { 1 };
        layers.push(Layer::Intervals { label: format!("{} simulated (95 % interval)", series.policy.label()), points: series.points.clone(), paint: Paint::Series(k) });
        if let Some(min) = series.points.iter().min_by(|a, b| a[1].total_cmp(&b[1])) {
            notes.push(format!(
                "{} lowest simulated factor {} (interval {} to {}) at x = {}",
                series.policy.label(),
                sig(min[1], 4),
                sig(min[2], 4),
                sig(min[3], 4),
                sig(min[0], 3)
            ));
        }
    }
    let low = o.random_bound.iter().chain(o.simulated.iter().flat_map(|s| s.points.iter().map(|p| &p[2]))).copied().fold(1.0, f64::min);
    Figure {
        title: "One page's approximation factor: simulation against Eq 5-2 and Eq 5-8".into(),
        x: Axis { label: "x = λ/f  (change rate ÷ revisit frequency)".into(), min: o.config.x_min, max: o.config.x_max, log: o.config.log_x },
        y: Axis::linear("A / A*", ((low - 0.02) * 20.0).floor() / 20.0, 1.01),
        layers,
        legend: Corner::LowerRight,
        summary: format!(
            "A page sharing its server with {} others (c = {c}), {} revisits × {} replications per point, {:?} estimator. {}.",
            o.config.other_pages,
            o.config.revisits,
            o.config.replications,
            o.config.estimator,
            if notes.is_empty() { "No point yet".into() } else { notes.join("; ") }
        ),
    }
}
