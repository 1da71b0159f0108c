//! Figures of distributed crawling (Exposto 2008): simulated download time and URL
//! exchanges against the number of robots (Figs 5.12–5.23), the algebraic estimates
//! (Figs 5.4–5.8), and a map of hosts coloured by robot.

use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen};
use crate::chart::format::{sig, thousands};
use crate::core::math::elementary::{log10, pow};
use crate::experiments::Figures;
use crate::experiments::partition::PartitionOutput;
use crate::experiments::partition::download::Politeness;
use crate::experiments::partition::scheme::Scheme;

impl Figures for PartitionOutput {
    /// The result's figures.
    fn figures(&self) -> Vec<Figure> {
        partition(self)
    }
}

/// The figures; where lines would be too many to tell apart (more than 8), small
/// multiples: the download time one chart per politeness, the algebraic estimates one for
/// download and one for exchange times.
fn partition(o: &PartitionOutput) -> Vec<Figure> {
    let mut out = Vec::new();
    if o.config.schemes.len() * o.config.politeness.len() > 8 {
        out.extend(o.config.politeness.iter().map(|&q| download(o, &[q])));
    } else {
        out.push(download(o, &o.config.politeness));
    }
    out.push(exchanges(o));
    if 2 * o.config.schemes.len() > 8 {
        out.push(algebraic(o, true, false));
        out.push(algebraic(o, false, true));
    } else {
        out.push(algebraic(o, true, true));
    }
    out.push(map(o));
    out
}

fn scheme_paint(o: &PartitionOutput, s: Scheme) -> Paint {
    Paint::Series(o.config.schemes.iter().position(|&x| x == s).unwrap_or(0))
}

/// Colour by scheme, dash by politeness; schemes drawn earlier are wider, so a later line
/// on the same values (hash and graph under fixed politeness can coincide) leaves the
/// earlier one visible around it.
fn politeness_pen(o: &PartitionOutput, s: Scheme, q: Politeness) -> Pen {
    let k = o.config.politeness.iter().position(|&x| x == q).unwrap_or(0);
    let dash = [Dash::Solid, Dash::Dashed, Dash::Dotted][k % 3];
    let schemes = o.config.schemes.len();
    let later = schemes - 1 - o.config.schemes.iter().position(|&x| x == s).unwrap_or(schemes - 1);
    let base = if k >= 3 { 1.2 } else { 2.0 };
    Pen { width: base + 1.25 * later.min(3) as f64, ..Pen::new(scheme_paint(o, s), dash) }
}

/// A log axis spanning the values' decades.
fn log_axis(label: &str, values: impl Iterator<Item = f64>) -> Axis {
    let (lo, hi) = values.filter(|v| *v > 0.0).fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let (min, max) = if hi > 0.0 { (pow(10.0, log10(lo).floor()), pow(10.0, log10(hi).ceil()).max(pow(10.0, log10(lo).floor() + 1.0))) } else { (0.1, 10.0) };
    Axis::log(label, min, max)
}

/// The largest number of robots run so far (captions report it).
fn most_robots<T>(items: &[T], robots: impl Fn(&T) -> u64) -> u64 {
    items.iter().map(robots).max().unwrap_or(0)
}

fn robots_axis(o: &PartitionOutput) -> Axis {
    let max = o.config.robots.iter().copied().max().unwrap_or(2) as f64;
    Axis::linear("robots (partitions)", 0.0, max + 1.0)
}

const HOUR: f64 = 3600.0;

/// Simulated total download time under the politeness policies `shown` (thesis Figs 5.12,
/// 5.16, 5.18, 5.21, 5.23).
fn download(o: &PartitionOutput, shown: &[Politeness]) -> Figure {
    let mut layers = Vec::new();
    for &s in &o.config.schemes {
        for &q in shown {
            let line: Vec<[f64; 2]> = o.points.iter().filter(|p| p.scheme == s && p.politeness == q).map(|p| [p.robots as f64, p.total_s / HOUR]).collect();
            if !line.is_empty() {
                layers.push(Layer::lines(format!("{}, {}", s.label(), q.label()), vec![line], politeness_pen(o, s, q)));
            }
        }
    }
    let violations: u64 = o.points.iter().map(|p| p.violations).sum();
    let most = most_robots(&o.points, |p| p.robots);
    let title = match shown {
        [one] if o.config.politeness.len() > 1 => format!("Total download time by simulation, {} politeness (thesis Figs 5.12–5.23)", one.label()),
        _ => "Total download time by simulation (thesis Figs 5.12–5.23)".into(),
    };
    Figure {
        title,
        x: robots_axis(o),
        y: log_axis("hours until every page is downloaded", o.points.iter().map(|p| p.total_s / HOUR)),
        layers,
        legend: Corner::UpperRight,
        summary: format!(
            "{} simulations of {} pages on {} hosts; politeness violations: {violations}. With {most} robots: {}.",
            o.points.len(),
            thousands(o.web.pages as f64),
            thousands(o.web.hosts as f64),
            o.points
                .iter()
                .filter(|p| p.robots == most)
                .map(|p| format!("{}, {}: {} h", p.scheme.label(), p.politeness.label(), sig(p.total_s / HOUR, 3)))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// Share of routed URLs sent to another robot (thesis Figs 5.13, 5.15, 5.17).
fn exchanges(o: &PartitionOutput) -> Figure {
    let mut layers = Vec::new();
    let mut top: f64 = 1.0;
    for &s in &o.config.schemes {
        let line: Vec<[f64; 2]> = o.algebraic.iter().filter(|a| a.scheme == s).map(|a| [a.robots as f64, a.crossing_pct]).collect();
        top = line.iter().fold(top, |m, p| m.max(p[1]));
        if !line.is_empty() {
            layers.push(Layer::lines(s.label(), vec![line], Pen::new(scheme_paint(o, s), Dash::Solid)));
        }
    }
    let most = most_robots(&o.algebraic, |a| a.robots);
    Figure {
        title: "URLs exchanged between robots (thesis Figs 5.13, 5.15, 5.17)".into(),
        x: robots_axis(o),
        y: Axis::linear("routed URLs sent to another robot (%)", 0.0, (top * 1.15).min(100.0)),
        layers,
        legend: Corner::LowerRight,
        summary: format!(
            "{} % of links stay in their host, {} % in their community. URLs sent to another robot with {most} robots: {}.",
            sig(o.web.intra_host_pct, 3),
            sig(o.web.intra_community_pct, 3),
            o.algebraic.iter().filter(|a| a.robots == most).map(|a| format!("{}: {} %", a.scheme.label(), sig(a.crossing_pct, 3))).collect::<Vec<_>>().join("; ")
        ),
    }
}

/// Eq 5.1–5.3: download and/or exchange times (thesis Figs 5.4–5.10).
fn algebraic(o: &PartitionOutput, download: bool, exchange: bool) -> Figure {
    let mut layers = Vec::new();
    for &s in &o.config.schemes {
        let points: Vec<_> = o.algebraic.iter().filter(|a| a.scheme == s).collect();
        if points.is_empty() {
            continue;
        }
        let paint = scheme_paint(o, s);
        if download {
            layers.push(Layer::lines(
                format!("{}: download (Eq 5.1–5.2)", s.label()),
                vec![points.iter().map(|a| [a.robots as f64, a.download_s / HOUR]).collect()],
                Pen::new(paint, Dash::Solid),
            ));
        }
        if exchange {
            layers.push(Layer::lines(
                format!("{}: exchange (Eq 5.3)", s.label()),
                vec![points.iter().map(|a| [a.robots as f64, a.exchange_s / HOUR]).collect()],
                Pen::new(paint, Dash::Dashed),
            ));
        }
    }
    layers.push(Layer::HLine {
        label: format!("one central robot: {} h", sig(o.central_s / HOUR, 3)),
        y: o.central_s / HOUR,
        pen: Pen { width: 1.2, ..Pen::new(Paint::Foreground, Dash::Dotted) },
    });
    let values = o.algebraic.iter().flat_map(|a| [a.download_s / HOUR, a.exchange_s / HOUR]).chain([o.central_s / HOUR]);
    let most = most_robots(&o.algebraic, |a| a.robots);
    let what = match (download, exchange) {
        (true, true) => "download and exchange times",
        (true, false) => "download times",
        _ => "exchange times",
    };
    Figure {
        title: format!("Algebraic estimates: {what} (thesis Eq 5.1–5.3, Figs 5.4–5.10)"),
        x: robots_axis(o),
        y: log_axis("hours", values),
        layers,
        legend: Corner::UpperRight,
        summary: format!(
            "One central robot: {} h. With {most} robots: {}.",
            sig(o.central_s / HOUR, 3),
            o.algebraic
                .iter()
                .filter(|a| a.robots == most)
                .map(|a| format!("{}: download {} h, exchange {} h", a.scheme.label(), sig(a.download_s / HOUR, 3), sig(a.exchange_s / HOUR, 3)))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// Hosts on the map, coloured by the robot that downloads them; robots as numbered marks.
fn map(o: &PartitionOutput) -> Figure {
    let km = o.config.web.map_km;
    let Some(m) = &o.map else {
        return Figure {
            title: "Hosts by robot: the map appears once its partition has run".into(),
            x: Axis::linear("km", 0.0, km),
            y: Axis::linear("km", 0.0, km),
            layers: Vec::new(),
            legend: Corner::UpperRight,
            summary: "The map appears when its partition has run.".into(),
        };
    };
    let robots = m.robots as usize;
    let mut layers = Vec::new();
    for r in 0..robots {
        let points: Vec<[f64; 2]> = m.hosts.iter().filter(|h| h[2] as usize == r).map(|h| [h[0], h[1]]).collect();
        // colour and shape together: 32 robots told apart
        layers.push(Layer::Dots { label: String::new(), points, paint: Paint::Series(r % 8), radius: 2.5, shape: (r / 8) as u8 });
    }
    // robots are named on the map while the names cannot crowd it
    for (r, at) in m.sites.iter().enumerate() {
        let note = if robots <= 10 { format!("R{}", r + 1) } else { String::new() };
        layers.push(Layer::Marker { label: if r == 0 { "robot".into() } else { String::new() }, at: *at, paint: Paint::Series(r % 8), note });
    }
    let pages_of = |r: usize| m.hosts.iter().filter(|h| h[2] as usize == r).map(|h| h[3]).sum::<f64>();
    Figure {
        title: format!("Hosts by robot: {}, {} robots (synthetic map)", m.scheme.label(), robots),
        x: Axis::linear("km", 0.0, km),
        y: Axis::linear("km", 0.0, km),
        layers,
        legend: Corner::UpperRight,
        summary: format!(
            "{} hosts split among {robots} robots by {}; colours repeat after 8 robots. Pages per robot: {}",
            thousands(m.hosts.len() as f64),
            m.scheme.label(),
            (0..robots).map(|r| format!("R{}: {}", r + 1, thousands(pages_of(r)))).collect::<Vec<_>>().join(", ")
        ),
    }
}
