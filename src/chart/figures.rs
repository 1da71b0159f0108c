//! The figure of each result: what the page draws and the CLI writes as SVG.

use super::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen, series_pen};
use crate::experiment::Output;
use crate::theory::certify::{CertifyOutput, Status};
use crate::theory::channel_bursts::BurstsOutput;
use crate::theory::factor_curves::FactorCurvesOutput;
use crate::theory::level_sets::LevelSetsOutput;

/// `v` with `digits` significant digits, without trailing zeros.
pub fn sig(v: f64, digits: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    if v.abs() < 1e-4 || v.abs() >= 1e12 {
        let text = format!("{:.*e}", digits.saturating_sub(1), v);
        let (mantissa, exponent) = text.split_once('e').expect("exponent form");
        let mantissa = if mantissa.contains('.') { mantissa.trim_end_matches('0').trim_end_matches('.') } else { mantissa };
        return format!("{mantissa}e{exponent}");
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// A count with thousands separators: 5,000,000.
pub fn thousands(v: f64) -> String {
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (k, ch) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if v < 0.0 { format!("-{out}") } else { out }
}

/// The figures of a result (most have one; the repository experiment one per
/// capacity plus the deployed crawlers).
pub fn figures(output: &Output) -> Vec<Figure> {
    match output {
        Output::LevelSets(o) => vec![level_sets(o)],
        Output::FactorCurves(o) => vec![factor_curves(o)],
        Output::Bursts(o) => vec![bursts(o)],
        Output::Certify(o) => vec![certify(o)],
        Output::Policies(o) => super::policy_figures::policies(o),
        Output::Allocate(o) => vec![super::policy_figures::allocate(o)],
        Output::PerPage(o) => vec![super::policy_figures::per_page(o)],
        Output::Channel(o) => vec![super::policy_figures::channel(o)],
        Output::Sensors(o) => super::sensor_figures::sensors(o),
        Output::Wikipedia(o) => super::wikipedia_figures::wikipedia(o),
        Output::Partition(o) => super::partition_figures::partition(o),
    }
}

/// The first figure of a result.
pub fn figure(output: &Output) -> Figure {
    figures(output).swap_remove(0)
}

fn level_sets(o: &LevelSetsOutput) -> Figure {
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

pub fn curve(x: &[f64], y: &[f64]) -> Vec<Vec<[f64; 2]>> {
    vec![x.iter().zip(y).map(|(&a, &b)| [a, b]).collect()]
}

fn factor_curves(o: &FactorCurvesOutput) -> Figure {
    let c = sig(o.config.c, 4);
    let lowest = o.random_bound_min.value.min(o.random_exact_min.value).min(o.merge_bound_min.value);
    let y_min = ((lowest - 0.03) * 20.0).floor() / 20.0;
    let b = o.random_bound_min;
    let m = o.merge_bound_min;
    let r = o.random_exact_min;
    Figure {
        title: "Approximation factors of RANDOM and MERGE (Fig 5.2, Eq 5-8)".into(),
        x: Axis { label: "x = λ/f  (change rate ÷ revisit frequency)".into(), min: o.config.x_min, max: o.config.x_max, log: o.config.log_x },
        y: Axis { label: "A / A*  (freshness ÷ best possible)".into(), min: y_min, max: 1.005, log: false },
        layers: vec![
            Layer::Lines { label: "RANDOM bound, Cor 5.5 (any c)".into(), lines: curve(&o.x, &o.random_bound), pen: series_pen(0), tag: None },
            Layer::Lines { label: format!("RANDOM exact, Eq 5-2 / A* (c = {c})"), lines: curve(&o.x, &o.random_exact), pen: series_pen(1), tag: None },
            Layer::Lines { label: format!("MERGE bound, Eq 5-8 (c = {c})"), lines: curve(&o.x, &o.merge_bound), pen: series_pen(2), tag: None },
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

fn bursts(o: &BurstsOutput) -> Figure {
    let cfg = &o.config;
    let p = cfg.probability;
    let mut layers: Vec<Layer> =
        o.curves.iter().enumerate().map(|(k, c)| Layer::Lines { label: format!("n = {}", thousands(c.n)), lines: curve(&o.x, &c.bound), pen: series_pen(k), tag: None }).collect();
    layers.push(Layer::HLine { label: format!("probability {}", sig(p, 3)), y: p, pen: Pen::new(Paint::Foreground, Dash::Dotted) });
    for (k, c) in o.curves.iter().enumerate() {
        if c.excess_at_probability <= cfg.x_max {
            layers.push(Layer::Marker { label: String::new(), at: [c.excess_at_probability, p], paint: Paint::Series(k), note: String::new() });
        }
    }
    Figure {
        title: "Bursts on the download channel: Eq 5-11 bound (Fig 5.7)".into(),
        x: Axis { label: "x  (requests above the expected count in a window)".into(), min: o.x[0], max: cfg.x_max, log: cfg.log_x },
        y: Axis { label: "bound on Pr[X_t > E[X_t] + x]".into(), min: cfg.probability_floor, max: 1.0, log: true },
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

fn certify(o: &CertifyOutput) -> Figure {
    let gaps: Vec<[f64; 2]> = o.history.iter().map(|s| [(s.boxes + 1) as f64, (s.upper - s.lower).max(1e-17)]).collect();
    let tol = o.config.tolerance;
    let top = gaps.iter().map(|g| g[1]).fold(tol, f64::max) * 3.0;
    let bottom = gaps.iter().map(|g| g[1]).fold(tol, f64::min) / 3.0;
    let right = ((o.boxes_split + 1) as f64).max(10.0) * 1.5;
    let state = match o.status {
        Status::Running => "running",
        Status::Converged => "converged",
        Status::BudgetExhausted => "stopped at the box budget",
    };
    let global = match o.global_bound {
        Some(g) => format!(" With the written argument for the rest of the domain, Eq 5-9 ≥ {} for every r > 0 and c ≥ 1.", sig(g, 10)),
        None => " The region starts above c = 1, so no statement about the whole domain follows.".into(),
    };
    Figure {
        title: "Certifying Conjecture 5.9: branch and bound on Eq 5-9".into(),
        x: Axis { label: "boxes split".into(), min: 1.0, max: right, log: true },
        y: Axis { label: "gap: best value − proved bound".into(), min: bottom, max: top, log: true },
        layers: vec![
            Layer::Lines { label: "gap".into(), lines: vec![gaps], pen: series_pen(0), tag: None },
            Layer::HLine { label: format!("tolerance {}", sig(tol, 2)), y: tol, pen: Pen::new(Paint::Foreground, Dash::Dotted) },
        ],
        legend: Corner::UpperRight,
        summary: format!(
            "Search {state} after {} boxes. Proved: Eq 5-9 ≥ {} on r ∈ [{}, {}], c ∈ [{}, {}]; the factor equals at most {} at r = {}, c = {}.{global}",
            thousands(o.boxes_split as f64),
            sig(o.lower_bound, 10),
            sig(o.config.r_min, 4),
            sig(o.config.r_max, 4),
            sig(o.config.c_min, 4),
            sig(o.config.c_max, 4),
            sig(o.upper_bound, 10),
            sig(o.best_r, 6),
            sig(o.best_c, 6),
        ),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::chart::draw::figure_svg;
    use crate::chart::theme::DrawOptions;
    use crate::experiment::{parse_config, run};

    #[test]
    fn number_formats() {
        assert_eq!(sig(0.927230437, 7), "0.9272304");
        assert_eq!(sig(1.0, 4), "1");
        assert_eq!(sig(159.36404, 5), "159.36");
        assert_eq!(thousands(5_000_000.0), "5,000,000");
        assert_eq!(thousands(5462.0), "5,462");
        assert_eq!(thousands(12.0), "12");
        assert_eq!(sig(1e-9, 2), "1e-9");
        assert_eq!(sig(2.5e-7, 2), "2.5e-7");
        assert_eq!(sig(1e-9, 4), "1e-9");
    }

    #[test]
    fn every_theory_figure_renders_to_svg_with_its_labels() {
        for (json, must_contain) in [
            (r#"{"experiment":"level_sets","grid":61}"#, "min 0.92723"),
            (r#"{"experiment":"factor_curves"}"#, "RANDOM bound, Cor 5.5"),
            (r#"{"experiment":"bursts"}"#, "n = 5,000,000"),
            (r#"{"experiment":"certify","tolerance":1e-6}"#, "tolerance"),
        ] {
            let out = run(parse_config(json).unwrap(), |_, _| {}).unwrap();
            let fig = figure(&out);
            assert!(!fig.summary.is_empty());
            for dark in [false, true] {
                let svg = figure_svg(&fig, 800, 500, &DrawOptions { dark, ..Default::default() }).unwrap();
                assert!(svg.starts_with("<svg") && svg.contains(must_contain), "{json}: {must_contain} missing");
                assert!(svg.matches("<polyline").count() + svg.matches("<path").count() + svg.matches("<line").count() > 5);
            }
        }
    }
}
