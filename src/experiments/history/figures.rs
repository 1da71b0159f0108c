//! The history's figures: the estimated rates' distribution, each page's rate and
//! interval against its visit spacing (where spacing censors what can be known), pages
//! per server, and sitemaps' declared change frequency against their lastmod histories.

use super::output::HistoryOutput;
use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen};
use crate::chart::format::{sig, thousands};
use crate::core::math::elementary::{log10, pow};
use crate::core::model::history::estimate::{COARSE, Status};
use crate::core::model::history::server::ServerBy;
use crate::experiments::{Brief, Figures};

/// At most this many pages drawn with their interval (evenly chosen by position).
pub const DRAWN: usize = 400;

impl Figures for HistoryOutput {
    fn figures(&self) -> Vec<Figure> {
        if self.refused.is_some() || self.pages.is_empty() {
            return vec![empty(self)];
        }
        let mut figures = vec![rates(self), spacing(self), servers(self)];
        if self.accuracy.is_some() {
            figures.push(against_truth(self));
        }
        if self.pages.iter().any(|p| p.declared.is_some() && p.estimate.rate.is_some()) {
            figures.push(declared(self));
        }
        figures
    }

    fn brief(&self) -> Option<Brief> {
        Some(self.brief_of())
    }

    fn file_out(&self, flag: &str) -> Option<String> {
        self.trace.clone().filter(|_| flag == "trace_out")
    }

    /// The page lists the ten fastest-changing pages; crossing whole to it, a history's
    /// pages held its main thread about 1.7 ms per 1,000.
    fn shown(&self) -> Option<Self> {
        Some(self.fastest_only())
    }

    /// Fewer pages than its statuses count: the page's cut.
    fn is_cut(&self) -> bool {
        self.pages.len() as u64 != self.statuses.iter().map(|s| s.1).sum::<u64>()
    }
}

fn empty(o: &HistoryOutput) -> Figure {
    Figure {
        title: "Change rates from the records".into(),
        x: Axis::log("change rate (per day)", 1e-3, 10.0),
        y: Axis::linear("pages", 0.0, 1.0),
        layers: Vec::new(),
        legend: Corner::UpperRight,
        summary: o.said.clone(),
    }
}

/// Decades spanned by `values` (positive), widened to whole decades.
fn decades(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.filter(|v| *v > 0.0 && v.is_finite()).fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return (1e-3, 10.0);
    }
    let (lo, hi) = (log10(lo).floor(), log10(hi).ceil().max(log10(lo).floor() + 1.0));
    (pow(10.0, lo), pow(10.0, hi))
}

/// ", from a to b a day": the rates' own lowest and highest (not the axis's decades).
fn range_words(rates: impl Iterator<Item = f64>) -> String {
    let (lo, hi) = rates.fold((f64::INFINITY, 0.0f64), |(a, b), r| (a.min(r), b.max(r)));
    match lo.is_finite() {
        true if lo == hi => format!(", all {} a day", sig(lo, 3)),
        true => format!(", from {} to {} a day", sig(lo, 3), sig(hi, 3)),
        false => String::new(),
    }
}

/// The estimated rates' distribution, four bins a decade; pages never seen changed are
/// counted in the summary (rate 0 has no place on a log axis).
fn rates(o: &HistoryOutput) -> Figure {
    let estimated: Vec<(f64, bool)> = o.pages.iter().filter_map(|p| p.estimate.rate.filter(|r| *r > 0.0).map(|r| (r, p.estimate.status == Status::Coarse))).collect();
    let (lo, hi) = decades(estimated.iter().map(|e| e.0));
    let bins = (4.0 * log10(hi / lo)).round().max(1.0) as usize;
    let edge = |k: usize| pow(10.0, log10(lo) + k as f64 / 4.0);
    let mut sure = vec![0u64; bins];
    let mut coarse = vec![0u64; bins];
    for (rate, is_coarse) in &estimated {
        let k = ((4.0 * log10(rate / lo)).floor().max(0.0) as usize).min(bins - 1);
        if *is_coarse { coarse[k] += 1 } else { sure[k] += 1 }
    }
    let top = sure.iter().zip(&coarse).map(|(a, b)| a + b).max().unwrap_or(1).max(1) as f64;
    let sure_rects = (0..bins).filter(|&k| sure[k] > 0).map(|k| [edge(k), edge(k + 1), 0.0, sure[k] as f64]).collect();
    let coarse_rects = (0..bins).filter(|&k| coarse[k] > 0).map(|k| [edge(k), edge(k + 1), sure[k] as f64, (sure[k] + coarse[k]) as f64]).collect();
    Figure {
        title: "Estimated change rates".into(),
        x: Axis::log("change rate (per day)", lo, hi),
        // headroom above the tallest bar for the legend (bars are not points it avoids)
        y: Axis::linear("pages", 0.0, (top * 1.6).ceil()),
        layers: vec![
            Layer::Rects { label: "estimated".into(), rects: sure_rects, paint: Paint::Series(0) },
            Layer::Rects { label: "visits too sparse to be sure".into(), rects: coarse_rects, paint: Paint::Series(3) },
        ],
        legend: Corner::UpperRight,
        summary: format!(
            "{} pages with a rate{} ({} with visits too sparse to be sure); {} never seen changed and {} changed at every visit are not on this axis.",
            thousands(estimated.len() as f64),
            range_words(estimated.iter().map(|e| e.0)),
            thousands(o.count(Status::Coarse) as f64),
            thousands(o.count(Status::NeverChanged) as f64),
            thousands(o.count(Status::AlwaysChanged) as f64),
        ),
    }
}

/// Each page's rate and interval against its typical visit interval: above the line
/// λ·spacing = COARSE most intervals changed, and the records only bound the rate below.
fn spacing(o: &HistoryOutput) -> Figure {
    let step = o.pages.len().div_ceil(DRAWN).max(1);
    let drawn: Vec<_> = o.pages.iter().step_by(step).filter(|p| p.estimate.spacing_days > 0.0).collect();
    let (x_lo, x_hi) = decades(drawn.iter().map(|p| p.estimate.spacing_days));
    let (y_lo, y_hi) = decades(drawn.iter().flat_map(|p| [p.estimate.low, p.estimate.high, p.estimate.rate]).flatten());
    let clamp = |v: f64| v.clamp(y_lo, y_hi);
    let mut estimated = Vec::new();
    let mut above = Vec::new();
    let mut below = Vec::new();
    for p in &drawn {
        let e = &p.estimate;
        match (e.status, e.rate, e.low, e.high) {
            (Status::Estimated | Status::Coarse, Some(r), Some(l), Some(h)) if r > 0.0 => estimated.push([e.spacing_days, r, clamp(l), clamp(h)]),
            (Status::NeverChanged, _, _, Some(h)) => below.push([e.spacing_days, clamp(h)]),
            (Status::AlwaysChanged, _, Some(l), _) => above.push([e.spacing_days, clamp(l)]),
            _ => {}
        }
    }
    let line: Vec<[f64; 2]> =
        (0..=40).map(|k| pow(10.0, log10(x_lo) + k as f64 / 40.0 * log10(x_hi / x_lo))).map(|x| [x, COARSE / x]).filter(|p| p[1] >= y_lo && p[1] <= y_hi).collect();
    Figure {
        title: "Each page's rate and its 95 % interval, against how often it was seen".replace("95", &sig(100.0 * o.config.confidence, 3)),
        x: Axis::log("typical interval between visits (days, median by time)", x_lo, x_hi),
        y: Axis::log("change rate (per day)", y_lo, y_hi),
        layers: vec![
            Layer::Intervals { label: "rate and interval".into(), points: estimated, paint: Paint::Series(0) },
            Layer::Dots { label: "never seen changed: below".into(), points: below, paint: Paint::Series(2), radius: 3.0, shape: 2 },
            Layer::Dots { label: "changed at every visit: above".into(), points: above, paint: Paint::Series(1), radius: 3.0, shape: 1 },
            Layer::lines(format!("rate × interval = {COARSE}: sparser visits cannot tell"), vec![line], Pen::new(Paint::Foreground, Dash::Dashed)),
        ],
        legend: Corner::LowerLeft,
        summary: format!(
            "{} of {} pages drawn. Above the dashed line most intervals between visits saw a change, so the records bound the rate from below only: a page seen monthly cannot show a daily rate.",
            thousands(drawn.len() as f64),
            thousands(o.pages.len() as f64)
        ),
    }
}

/// Pages per server, by rank.
fn servers(o: &HistoryOutput) -> Figure {
    let mut counts: std::collections::HashMap<&str, u64> = std::collections::HashMap::new();
    for p in &o.pages {
        if let Some(s) = &p.server {
            *counts.entry(s.as_str()).or_insert(0) += 1;
        }
    }
    let mut sizes: Vec<u64> = counts.values().copied().collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let points: Vec<[f64; 2]> = sizes.iter().enumerate().map(|(k, n)| [(k + 1) as f64, *n as f64]).collect();
    let top = sizes.first().copied().unwrap_or(1).max(1) as f64;
    Figure {
        title: "Pages per server, by rank".into(),
        x: Axis::log("server's rank", 1.0, (sizes.len() as f64).max(10.0)),
        y: Axis::log("pages", 1.0, pow(10.0, log10(top).ceil().max(1.0))),
        layers: vec![Layer::Dots { label: "a server".into(), points, paint: Paint::Series(0), radius: 2.5, shape: 0 }],
        legend: Corner::UpperRight,
        summary: format!(
            "{} {}; the largest has {} pages ({} of all).",
            sizes.len(),
            match o.config.server_by {
                ServerBy::Host => "servers (host names)".to_string(),
                ServerBy::Domain => format!("servers (registrable domains by the Public Suffix List of {})", crate::core::model::history::server::psl_version()),
            },
            sizes.first().unwrap_or(&0),
            sig(top / o.pages.len().max(1) as f64, 2)
        ),
    }
}

/// Sitemaps' declared changefreq against the rate their lastmod histories give.
fn declared(o: &HistoryOutput) -> Figure {
    let pairs: Vec<[f64; 4]> = o
        .pages
        .iter()
        .filter_map(|p| {
            let d = p.declared?.per_day().filter(|d| *d > 0.0)?;
            let e = &p.estimate;
            Some([d, e.rate.filter(|r| *r > 0.0)?, e.low?, e.high?])
        })
        .collect();
    let (lo, hi) = decades(pairs.iter().flat_map(|p| [p[0], p[1]]));
    let clamp = |v: f64| v.clamp(lo, hi);
    let points = pairs.iter().map(|p| [p[0], p[1], clamp(p[2]), clamp(p[3])]).collect();
    Figure {
        title: "Declared changefreq against the lastmod history".into(),
        x: Axis::log("declared change frequency (per day)", lo, hi),
        y: Axis::log("rate from lastmod dates (per day)", lo, hi),
        layers: vec![
            Layer::Intervals { label: "a page".into(), points, paint: Paint::Series(0) },
            Layer::lines("as declared", vec![vec![[lo, lo], [hi, hi]]], Pen::new(Paint::Foreground, Dash::Dotted)),
        ],
        legend: Corner::UpperLeft,
        summary: format!("{} pages declare a change frequency and have a rate from their lastmod dates; on the dotted line they change as declared.", pairs.len()),
    }
}

/// Generated records: each page's estimate and interval against the rate that made it.
fn against_truth(o: &HistoryOutput) -> Figure {
    let step = o.pages.len().div_ceil(DRAWN).max(1);
    let drawn: Vec<_> = o.pages.iter().step_by(step).collect();
    let (lo, hi) = decades(drawn.iter().flat_map(|p| [p.true_rate, p.estimate.rate]).flatten());
    let clamp = |v: f64| v.clamp(lo, hi);
    let points = drawn
        .iter()
        .filter_map(|p| {
            let e = &p.estimate;
            Some([p.true_rate?, clamp(e.rate.filter(|r| *r > 0.0)?), clamp(e.low?), clamp(e.high?)])
        })
        .collect();
    let a = o.accuracy.as_ref().expect("generated records");
    Figure {
        title: "Estimates against the true rates (generated records)".into(),
        x: Axis::log("true change rate (per day)", lo, hi),
        y: Axis::log("estimated rate (per day)", lo, hi),
        layers: vec![
            Layer::Intervals { label: "a page's estimate and interval".into(), points, paint: Paint::Series(0) },
            Layer::lines("estimate = true rate", vec![vec![[lo, lo], [hi, hi]]], Pen::new(Paint::Foreground, Dash::Dotted)),
        ],
        legend: Corner::UpperLeft,
        summary: format!(
            "The intervals hold the true rate for {} of {} pages ({} %); median estimate ÷ true rate {}.",
            a.covered,
            a.bounded,
            sig(100.0 * a.covered as f64 / a.bounded.max(1) as f64, 3),
            sig(a.median_ratio, 3)
        ),
    }
}
