//! The figure of RANDOM's and MERGE's factors (thesis Fig 5.2).

use super::FactorCurvesOutput;
use crate::chart::figure::{Axis, Corner, Figure, Layer, Paint, series_pen};
use crate::chart::format::{curve, sig};
use crate::experiments::Figures;

impl Figures for FactorCurvesOutput {
    fn figures(&self) -> Vec<Figure> {
        vec![figure(self)]
    }
}

fn figure(o: &FactorCurvesOutput) -> Figure {
    let c = sig(o.config.c, 4);
    let lowest = o.random_bound_min.value.min(o.random_exact_min.value).min(o.merge_bound_min.value);
    let y_min = ((lowest - 0.03) * 20.0).floor() / 20.0;
    let b = o.random_bound_min;
    let m = o.merge_bound_min;
    let r = o.random_exact_min;
    Figure {
        title: "Approximation factors of RANDOM and MERGE (Fig 5.2, Eq 5-8)".into(),
        x: Axis { label: "x = λ/f  (change rate ÷ revisit frequency)".into(), min: o.config.x_min, max: o.config.x_max, log: o.config.log_x },
        y: Axis::linear("A / A*  (freshness ÷ best possible)", y_min, 1.005),
        layers: vec![
            Layer::lines("RANDOM bound, Cor 5.5 (any c)", curve(&o.x, &o.random_bound), series_pen(0)),
            Layer::lines(format!("RANDOM exact, Eq 5-2 / A* (c = {c})"), curve(&o.x, &o.random_exact), series_pen(1)),
            Layer::lines(format!("MERGE bound, Eq 5-8 (c = {c})"), curve(&o.x, &o.merge_bound), series_pen(2)),
            Layer::Marker { label: String::new(), at: [b.x, b.value], paint: Paint::Series(0), note: format!("{} at x = {}", sig(b.value, 4), sig(b.x, 4)) },
            Layer::Marker { label: String::new(), at: [m.x, m.value], paint: Paint::Series(2), note: format!("{} at x = {}", sig(m.value, 4), sig(m.x, 4)) },
        ],
        legend: Corner::LowerRight,
        summary: format!(
            "Approximation factor against x = λ/f from {} to {}. Corollary 5.5's bound for RANDOM has its minimum {} at x = {}. \
             For c = {c}, RANDOM's exact factor has minimum {} at x = {} and MERGE's bound (Eq 5-8) has minimum {} at x = {}.",
            sig(o.config.x_min, 4),
            sig(o.config.x_max, 4),
            sig(b.value, 5),
            sig(b.x, 5),
            sig(r.value, 5),
            sig(r.x, 5),
            sig(m.value, 5),
            sig(m.x, 5),
        ),
    }
}
