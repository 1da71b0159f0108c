//! Figures of the non-Poisson experiment: freshness against the request rate for each
//! policy (the thesis's Fig 6.3), and one article's intervals and fetches.

use crate::chart::figure::{Axis, Corner, Figure, Layer, Paint, series_pen};
use crate::chart::format::{sig, thousands};
use crate::core::model::histogram::{Histogram, IntervalLaw};
use crate::experiments::Figures;
use crate::experiments::bursty::output::MARK_COLUMNS;
use crate::experiments::bursty::{BurstyOutput, BurstyPolicy};

impl Figures for BurstyOutput {
    /// The result's figures.
    fn figures(&self) -> Vec<Figure> {
        wikipedia(self)
    }
}

fn wikipedia(o: &BurstyOutput) -> Vec<Figure> {
    vec![fig_6_3(o), intervals(o), fetches(o)]
}

fn policy_index(p: BurstyPolicy) -> usize {
    p as usize
}

fn fig_6_3(o: &BurstyOutput) -> Figure {
    let mut layers = Vec::new();
    let (mut lo, mut hi) = (1.0f64, 0.0f64);
    for &p in &o.config.policies {
        let points: Vec<[f64; 2]> = o.points.iter().filter(|x| x.policy == p).map(|x| [100.0 * x.fraction, x.freshness]).collect();
        for q in &points {
            lo = lo.min(q[1]);
            hi = hi.max(q[1]);
        }
        let label = if points.len() < o.config.fractions.len() && !o.complete { format!("{} (running)", p.label()) } else { p.label().to_string() };
        layers.push(Layer::lines(label, vec![points], series_pen(policy_index(p))));
    }
    let (lo, hi) = if hi < lo { (0.0, 1.0) } else { (((lo - 0.05).max(0.0) * 20.0).floor() / 20.0, ((hi + 0.05).min(1.0) * 20.0).ceil() / 20.0) };
    let gaps: Vec<String> = o
        .gaps
        .iter()
        .filter_map(|g| {
            let m: Vec<f64> = g.measured.iter().flatten().copied().collect();
            (!m.is_empty()).then(|| format!("{}: {} points (thesis: {})", g.name, m.iter().map(|v| sig(*v, 3)).collect::<Vec<_>>().join(", "), g.published))
        })
        .collect();
    let xs: Vec<f64> = o.config.fractions.iter().map(|f| 100.0 * f).collect();
    Figure {
        title: "Freshness against request rate, non-Poisson changes (thesis Fig 6.3)".into(),
        x: Axis::linear("request rate (% of the maximum 1/P)", xs.iter().copied().fold(100.0, f64::min).min(20.0) - 5.0, 105.0),
        y: Axis::linear("freshness (time-average share of current articles)", lo, hi.max(lo + 0.05)),
        layers,
        legend: Corner::LowerRight,
        summary: format!(
            "{} articles, {} changes over {} days, politeness {} s. Freshness per policy and rate: {}. Gaps in percentage points: {}.",
            thousands(o.trace.articles as f64),
            thousands(o.trace.changes as f64),
            sig(o.trace.days, 4),
            sig(o.config.politeness_seconds.0, 4),
            o.points.iter().map(|x| format!("{} at {} %: {}", x.policy.label(), sig(100.0 * x.fraction, 3), sig(x.freshness, 4))).collect::<Vec<_>>().join("; "),
            if gaps.is_empty() { "none yet".into() } else { gaps.join("; ") }
        ),
    }
}

/// The article's intervals: observed counts per bin, and the histogram's density.
fn intervals(o: &BurstyOutput) -> Figure {
    let a = &o.article;
    let observed: Vec<f64> = a.changes.windows(2).map(|w| w[1] - w[0]).filter(|&x| x > 0.0).collect();
    let mut layers = Vec::new();
    let bars = |h: &Histogram| -> Vec<[f64; 4]> {
        let total: u64 = h.counts.iter().sum();
        (0..h.counts.len()).filter(|&k| h.counts[k] > 0 && h.edges[k + 1] > h.edges[k]).map(|k| [h.edges[k], h.edges[k + 1], 0.0, h.counts[k] as f64 / total as f64]).collect()
    };
    if let Some(h) = &a.histogram {
        layers.push(Layer::Rects { label: "whole period (MERGE, GREEDY)".into(), rects: bars(h), paint: Paint::Series(0) });
    }
    if let Some(h) = &a.training_histogram {
        let lines: Vec<Vec<[f64; 2]>> = bars(h).iter().map(|r| vec![[r[0], r[3]], [r[1], r[3]]]).collect();
        layers.push(Layer::lines(format!("first {} days (MERGE2)", sig(o.config.training_days, 3)), lines, series_pen(1)));
    }
    let (lo, hi) = match &a.histogram {
        Some(h) => (h.edges[0].max(1e-3), h.edges[h.edges.len() - 1].max(h.edges[0] * 10.0)),
        None => (1.0, 10.0),
    };
    let mean = a.histogram.as_ref().map(|h| h.mean()).unwrap_or(f64::NAN);
    Figure {
        title: format!("{}: time between changes (share of intervals per bin)", a.name),
        x: Axis::log("interval (minutes, log scale)", lo, hi),
        y: Axis::linear("share of intervals", 0.0, 1.0),
        layers,
        legend: Corner::UpperRight,
        summary: format!(
            "{}: {} changes, {} intervals from {} to {} minutes, mean {} minutes; 10 bins with exponentially growing widths.",
            a.name,
            thousands(a.changes.len() as f64),
            thousands(observed.len() as f64),
            sig(observed.iter().copied().fold(f64::INFINITY, f64::min), 3),
            sig(observed.iter().copied().fold(0.0, f64::max), 3),
            sig(mean, 3)
        ),
    }
}

/// When each policy fetched the article at the chosen request rate, over its changes.
fn fetches(o: &BurstyOutput) -> Figure {
    let a = &o.article;
    let days = o.trace.days;
    let mut layers = Vec::new();
    let tick = |t: f64, row: f64| vec![[t / 1440.0, row - 0.35], [t / 1440.0, row + 0.35]];
    layers.push(Layer::lines("changes", a.changes.iter().map(|&t| tick(t, 0.0)).collect(), crate::chart::figure::Pen { width: 1.0, ..series_pen(6) }));
    let fractions = &o.config.fractions;
    let rate = fractions.get(o.config.article_rate as usize).or(fractions.first()).copied().unwrap_or(1.0);
    let shown: Vec<_> = a.fetches.iter().filter(|f| f.fraction == rate).collect();
    let mut names = Vec::new();
    for (row, f) in shown.iter().enumerate() {
        let y = row as f64 + 1.0;
        names.push(format!("row {}: {} ({} fetches)", row + 1, f.policy.label(), thousands(f.count as f64)));
        layers.push(Layer::lines(f.policy.label(), f.times.iter().map(|&t| tick(t, y)).collect(), crate::chart::figure::Pen { width: 1.0, ..series_pen(policy_index(f.policy)) }));
    }
    Figure {
        title: format!("{}: changes (row 0) and fetches at {} % of the maximum rate", a.name, sig(100.0 * rate, 3)),
        x: Axis::linear("day", 0.0, days),
        y: Axis::linear("row", -0.6, shown.len() as f64 + 0.6),
        layers,
        legend: Corner::UpperRight,
        summary: format!(
            "At {} % of the maximum rate. Row 0: {} changes of {}. {}.{}",
            sig(100.0 * rate, 3),
            thousands(a.changes.len() as f64),
            a.name,
            names.join("; "),
            if shown.iter().any(|f| f.count > f.times.len() as u64) {
                format!(" Each row marks the first fetch in each {}th of the period.", thousands(MARK_COLUMNS as f64))
            } else {
                String::new()
            }
        ),
    }
}
