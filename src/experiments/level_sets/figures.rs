//! The figure of the level sets of Eq 5-9 (thesis Fig 5.6).

use super::LevelSetsOutput;
use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen};
use crate::chart::format::sig;
use crate::experiments::{Brief, Figures};

impl Figures for LevelSetsOutput {
    fn figures(&self) -> Vec<Figure> {
        vec![figure(self)]
    }

    /// The minimum found: {"min", "r", "c"}.
    fn brief(&self) -> Option<Brief> {
        let o = self;
        Some(Brief { json: serde_json::json!({"min": o.minimum.value, "r": o.minimum.r, "c": o.minimum.c}), text: None })
    }
}

fn figure(o: &LevelSetsOutput) -> Figure {
    let cfg = &o.config;
    let mut layers = Vec::new();
    if let Some(h) = cfg.highlight_below {
        layers.push(Layer::Rects { label: format!("factor < {}", sig(h, 4)), rects: o.below.iter().map(|r| [r.r0, r.r1, r.c0, r.c1]).collect(), paint: Paint::Highlight });
    }
    let last = (cfg.levels.len().max(2) - 1) as f64;
    for (k, contour) in o.contours.iter().enumerate() {
        layers.push(Layer::Lines {
            label: String::new(),
            lines: contour.lines.clone(),
            pen: Pen { paint: Paint::Ramp(k as f64 / last), dash: Dash::Solid, width: 1.8 },
            tag: Some(sig(contour.level, 4)),
        });
    }
    let m = &o.minimum;
    layers.push(Layer::Marker {
        label: "smallest factor".into(),
        at: [m.r, m.c],
        paint: Paint::Series(1),
        note: format!("min {} at r = {}, c = {}", sig(m.value, 7), sig(m.r, 4), sig(m.c, 4)),
    });
    let below = match cfg.highlight_below {
        Some(h) if o.below.is_empty() => {
            format!(" The factor is nowhere below {} in this region.", sig(h, 4))
        }
        Some(h) => format!(" The shaded area is where the factor is below {}.", sig(h, 4)),
        None => String::new(),
    };
    let place = if m.on_boundary { "on the region's edge (the region cuts the valley off)" } else { "inside the region" };
    Figure {
        title: "MERGE approximation factor: level sets of Eq 5-9 (Fig 5.6)".into(),
        x: Axis { label: "r = λ/f  (change rate ÷ revisit frequency)".into(), min: cfg.r_min, max: cfg.r_max, log: cfg.log_r },
        y: Axis { label: "c = f_s/f  (server ÷ page frequency)".into(), min: cfg.c_min, max: cfg.c_max, log: cfg.log_c },
        layers,
        legend: Corner::UpperRight,
        summary: format!(
            "Contour lines of MERGE's approximation factor (Eq 5-9) for r from {} to {} and c from {} to {}, at levels {}. \
             The smallest factor is {} at r = {}, c = {}, {place}.{below} Sampled values range from {} to {}.",
            sig(cfg.r_min, 4),
            sig(cfg.r_max, 4),
            sig(cfg.c_min, 4),
            sig(cfg.c_max, 4),
            cfg.levels.iter().map(|l| sig(*l, 4)).collect::<Vec<_>>().join(", "),
            sig(m.value, 7),
            sig(m.r, 5),
            sig(m.c, 5),
            sig(o.sampled_range[0], 5),
            sig(o.sampled_range[1], 5),
        ),
    }
}
