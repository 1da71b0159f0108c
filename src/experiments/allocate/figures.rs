//! The figure of the allocation experiment.

use super::AllocateOutput;
use crate::chart::figure::{Axis, Corner, Figure, Layer, Paint};
use crate::chart::format::{sig, spread_note, thousands};
use crate::experiments::Figures;

/// Each page's frequency against its change rate, for the four allocations (§1.3).
impl Figures for AllocateOutput {
    fn figures(&self) -> Vec<Figure> {
        vec![figure(self)]
    }
}

fn figure(o: &AllocateOutput) -> Figure {
    let names = ["uniform", "proportional", "OPT_UNPOLITE", "OPT_POLITE"];
    // at most 2,000 points per allocation are drawn (every k-th page): enough to see the law
    let step = o.change_rates.len().div_ceil(2000).max(1);
    let mut layers = Vec::new();
    let (mut x_max, mut y_max) = (0.0f64, 0.0f64);
    for (k, (a, name)) in o.allocations().into_iter().zip(names).enumerate() {
        let points: Vec<[f64; 4]> = o.change_rates.iter().zip(&a.frequencies).step_by(step).map(|(&l, &f)| [l, f, f, f]).collect();
        for p in &points {
            x_max = x_max.max(p[0]);
            y_max = y_max.max(p[1]);
        }
        layers.push(Layer::Intervals { label: format!("{name}: freshness {}", sig(a.freshness, 4)), points, paint: Paint::Series(k) });
    }
    let limit = if o.config.politeness_seconds.0 > 0.0 { format!("P = {} s", sig(o.config.politeness_seconds.0, 4)) } else { "no politeness limit".into() };
    Figure {
        title: format!("Revisit frequency against change rate, C = {} a day", sig(o.config.capacity, 4)),
        x: Axis::linear("change rate λ (per day)", 0.0, if x_max > 0.0 { x_max * 1.05 } else { 1.0 }),
        y: Axis::linear("revisit frequency f (per day)", 0.0, if y_max > 0.0 { y_max * 1.05 } else { 1.0 }),
        layers,
        // frequencies grow with λ from the origin or fall to 0: the upper left stays empty
        legend: Corner::UpperLeft,
        summary: format!(
            "Allocations of {} requests a day over {} pages ({limit}; the optima of {}): freshness uniform {}, proportional {}, OPT_UNPOLITE {}, OPT_POLITE {}; OPT_POLITE caps {} servers.",
            sig(o.config.capacity, 4),
            thousands(o.change_rates.len() as f64),
            o.config.objective.label(),
            sig(o.uniform.freshness, 4),
            sig(o.proportional.freshness, 4),
            sig(o.opt_unpolite.freshness, 4),
            sig(o.opt_polite.freshness, 4),
            thousands(o.opt_polite.capped.servers as f64),
        ) + &observed_summary(o)
            + &spread_summary(o),
    }
}

/// With observed pages: how many, and the share of their changes OPT_POLITE crawls.
fn observed_summary(o: &AllocateOutput) -> String {
    let n = o.observed.iter().filter(|&&x| x).count();
    match o.opt_polite.observed_crawled {
        Some(share) if n > 0 => {
            let (pages, their) = if n == 1 { ("1 page has".to_string(), "its") } else { (format!("{} pages have", thousands(n as f64)), "their") };
            format!(" {pages} every change observed; OPT_POLITE crawls {} % of {their} changes.", sig(100.0 * share, 3))
        }
        _ => String::new(),
    }
}

/// With estimated rates: the freshness each allocation keeps when the true rates are
/// anywhere in their intervals.
fn spread_summary(o: &AllocateOutput) -> String {
    let Some(spread) = &o.spread else { return String::new() };
    let names = ["uniform", "proportional", "OPT_UNPOLITE", "OPT_POLITE"];
    let items: Vec<(String, [f64; 3])> = names.iter().map(|n| n.to_string()).zip(spread.freshness.iter().copied()).collect();
    spread_note("the freshness", spread.redraws as usize, &items)
}
