//! The figure of Eq 5-11's bound on channel bursts (thesis Fig 5.7).

use super::BurstsOutput;
use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen, series_pen};
use crate::chart::format::{curve, sig, thousands};
use crate::experiments::{Brief, Figures};

impl Figures for BurstsOutput {
    fn figures(&self) -> Vec<Figure> {
        vec![figure(self)]
    }

    /// With `x`: the bound at x for each n (one object for one n).
    fn brief(&self) -> Option<Brief> {
        let o = self;
        let json = match o.at_x.as_slice() {
            [] => return None,
            [one] => serde_json::to_value(one).expect("serialises"),
            all => serde_json::to_value(all).expect("serialises"),
        };
        let text = o.at_x.iter().map(|b| format!("n = {}: Pr[X_t > E[X_t] + {}] < {}", thousands(b.n), sig(b.x, 6), sig(b.bound, 6))).collect::<Vec<_>>().join("\n");
        Some(Brief { json, text: Some(text) })
    }
}

fn figure(o: &BurstsOutput) -> Figure {
    let cfg = &o.config;
    let p = cfg.probability;
    let mut layers: Vec<Layer> = o.curves.iter().enumerate().map(|(k, c)| Layer::lines(format!("n = {}", thousands(c.n)), curve(&o.x, &c.bound), series_pen(k))).collect();
    layers.push(Layer::HLine { label: format!("probability {}", sig(p, 3)), y: p, pen: Pen::new(Paint::Foreground, Dash::Dotted) });
    for (k, c) in o.curves.iter().enumerate() {
        if c.excess_at_probability <= cfg.x_max {
            layers.push(Layer::Marker { label: String::new(), at: [c.excess_at_probability, p], paint: Paint::Series(k), note: String::new() });
        }
    }
    Figure {
        title: "Bursts on the download channel: Eq 5-11 bound (Fig 5.7)".into(),
        x: Axis { label: "x  (requests above the expected count in a window)".into(), min: o.x[0], max: cfg.x_max, log: cfg.log_x },
        y: Axis::log("bound on Pr[X_t > E[X_t] + x]", cfg.probability_floor, 1.0),
        layers,
        legend: Corner::UpperRight,
        summary: format!(
            "Upper bound of Eq 5-11 on the probability that a window holds more than x requests above its mean, for n equally spaced \
             elements. The bound falls to {} at x = {}.",
            sig(p, 3),
            o.curves.iter().map(|c| format!("{} for n = {}", sig(c.excess_at_probability, 5), thousands(c.n))).collect::<Vec<_>>().join(", "),
        ),
    }
}
