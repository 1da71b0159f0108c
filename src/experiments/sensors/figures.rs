//! Figures of robots vs sensors: freshness over time for both concepts (the article's
//! Fig 3), and the robots a run would need to match the sensors [beyond].

use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen, series_pen};
use crate::chart::format::{sig, thousands};
use crate::experiments::Figures;
use crate::experiments::sensors::{Concept, ConceptResult, SensorsOutput};

fn label(r: &ConceptResult) -> String {
    let who = match (r.concept, r.robots) {
        (Concept::Robot, 1) => "robot".to_string(),
        (Concept::Robot, k) => format!("{k} robots"),
        (Concept::Sensors, _) => "sensors".to_string(),
    };
    if r.complete { who } else { format!("{who} (running)") }
}

impl Figures for SensorsOutput {
    /// The result's figures.
    fn figures(&self) -> Vec<Figure> {
        sensors(self)
    }
}

fn sensors(o: &SensorsOutput) -> Vec<Figure> {
    let every = o.config.sample_every as f64;
    let mut layers = Vec::new();
    for (k, r) in o.results.iter().enumerate() {
        let points: Vec<[f64; 2]> = r.freshness.iter().enumerate().map(|(j, &v)| [j as f64 * every, v]).collect();
        layers.push(Layer::lines(label(r), vec![points], series_pen(k)));
    }
    let p = &o.published;
    layers.push(Layer::HLine {
        label: format!("article: robot {}", sig(p.robot_freshness, 3)),
        y: p.robot_freshness,
        pen: Pen { width: 1.2, ..Pen::new(Paint::Series(0), Dash::Dotted) },
    });
    layers.push(Layer::HLine {
        label: format!("article: sensors {}", sig(p.sensor_freshness, 3)),
        y: p.sensor_freshness,
        pen: Pen { width: 1.2, ..Pen::new(Paint::Series(1), Dash::Dotted) },
    });
    let notes: Vec<String> = o
        .results
        .iter()
        .map(|r| {
            let mean = r
                .stationary_mean
                .map(|m| format!("{} % ± {}", sig(100.0 * m, 3), sig(100.0 * r.stationary_half_width.unwrap_or(0.0), 2)))
                .unwrap_or_else(|| "not yet stationary".into());
            format!(
                "{}: stationary freshness {mean}, {} bytes downloaded in {} downloads ({} % useful)",
                label(r),
                thousands(r.bytes as f64),
                thousands(r.downloads as f64),
                sig(100.0 * r.useful_downloads as f64 / r.downloads.max(1) as f64, 3)
            )
        })
        .collect();
    let mut figures = vec![Figure {
        title: "Repository freshness: robot against sensors (Zemskov 2002, Fig 3)".into(),
        x: Axis::linear("model time (units)", 0.0, o.config.horizon as f64),
        y: Axis::linear("share of pages whose copy is current", 0.0, 1.0),
        layers,
        legend: Corner::LowerRight,
        summary: format!(
            "{} pages over {} units. {}. The article reports robot 40.7 %, sensors 93.6 %.",
            thousands(o.config.pages as f64),
            thousands(o.config.horizon as f64),
            notes.join("; ")
        ),
    }];
    if !o.sweep.is_empty() {
        figures.push(sweep(o));
    }
    figures
}

/// Freshness against the bytes a week that k robots download, with the sensors' point.
fn sweep(o: &SensorsOutput) -> Figure {
    let weeks = o.config.horizon as f64 / o.config.week as f64;
    let points: Vec<[f64; 2]> = o.sweep.iter().filter_map(|s| s.stationary_mean.map(|m| [s.bytes_per_week, m])).collect();
    let mut layers = vec![Layer::lines("robots (1, 2, 4, …)", vec![points.clone()], series_pen(0))];
    for s in &o.sweep {
        if let Some(m) = s.stationary_mean {
            layers.push(Layer::Marker { label: String::new(), at: [s.bytes_per_week, m], paint: Paint::Series(0), note: format!("{}", s.robots) });
        }
    }
    let sensors = o.results.iter().find(|r| r.concept == Concept::Sensors && r.complete);
    if let Some(s) = sensors
        && let Some(m) = s.stationary_mean
    {
        layers.push(Layer::Marker { label: "sensors".into(), at: [s.bytes as f64 / weeks, m], paint: Paint::Series(1), note: "sensors".into() });
    }
    let xs: Vec<f64> = layers
        .iter()
        .filter_map(|l| match l {
            Layer::Marker { at, .. } => Some(at[0]),
            _ => None,
        })
        .collect();
    let (lo, hi) = (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(0.0, f64::max));
    let matching = sensors.and_then(|s| {
        let target = s.stationary_mean?;
        o.sweep.iter().find(|p| p.stationary_mean.is_some_and(|m| m >= target)).map(|p| (p.robots, p.bytes_per_week, s.bytes as f64 / weeks))
    });
    Figure {
        title: "What a robot needs to match the sensors".into(),
        x: Axis::log("bytes downloaded per week (log scale)", (lo / 1.5).max(1.0), (hi * 1.5).max(lo * 3.0).max(2.0)),
        y: Axis::linear("stationary freshness", 0.0, 1.0),
        layers,
        legend: Corner::LowerRight,
        summary: match matching {
            Some((k, robot, sensor)) => format!(
                "{k} robots reach the sensors' freshness, downloading {} bytes a week against the sensors' {} ({}×).",
                thousands(robot),
                thousands(sensor),
                sig(robot / sensor, 3)
            ),
            None => "No number of robots tried reaches the sensors' freshness.".into(),
        },
    }
}
