//! The figure of the channel experiment.

use super::ChannelOutput;
use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen};
use crate::chart::format::{curve, sig, thousands};
use crate::experiments::Figures;

/// Experiment 3: the share of windows whose count exceeds the mean by more than x.
impl Figures for ChannelOutput {
    fn figures(&self) -> Vec<Figure> {
        vec![figure(self)]
    }
}

fn figure(o: &ChannelOutput) -> Figure {
    let floor = 0.5 / o.config.windows as f64;
    let clip = |v: &[f64]| v.iter().map(|&p| p.max(floor * 1e-3)).collect::<Vec<f64>>();
    let pages = thousands(o.per_page.elements as f64);
    let servers = thousands(o.per_server.elements as f64);
    Figure {
        title: "Requests per window: per-page against per-server spacing (Lemma 5.10)".into(),
        x: Axis::linear(format!("x  (requests above the mean of {} per window)", sig(o.mean, 4)), 0.0, *o.x.last().unwrap_or(&1.0)),
        y: Axis::log("share of windows above mean + x", floor, 1.0),
        layers: vec![
            Layer::lines(format!("per page, n = {pages} (measured)"), curve(&o.x, &clip(&o.per_page.tail)), Pen::new(Paint::Series(3), Dash::Solid)),
            Layer::lines(format!("Eq 5-11, n = {pages}"), curve(&o.x, &o.per_page.bound), Pen::new(Paint::Series(3), Dash::Dotted)),
            Layer::lines(format!("per server, n = {servers} (measured)"), curve(&o.x, &clip(&o.per_server.tail)), Pen::new(Paint::Series(0), Dash::Solid)),
            Layer::lines(format!("Eq 5-11, n = {servers}"), curve(&o.x, &o.per_server.bound), Pen::new(Paint::Series(0), Dash::Dotted)),
        ],
        legend: Corner::UpperRight,
        summary: format!(
            "{} windows of {} days each ({} requests expected). Per-page spacing: standard deviation {}, largest excess {}. Per-server spacing: standard deviation {}, largest excess {}.",
            thousands(o.config.windows as f64),
            sig(o.window_days, 3),
            sig(o.mean, 4),
            sig(o.per_page.std_dev, 3),
            sig(o.per_page.max_excess, 4),
            sig(o.per_server.std_dev, 3),
            sig(o.per_server.max_excess, 4),
        ),
    }
}
