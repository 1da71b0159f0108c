//! Figures of the repository experiment: freshness over time at each capacity (the
//! thesis's Fig 5.8) and where deployed crawlers sit against MERGE and the POLITE bound.

use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen, series_pen};
use crate::chart::format::{amount, sig, spread_note, thousands};
use crate::core::policy::PolicyKind;
use crate::core::sim::redrawn::REDRAWS;
use crate::experiments::Figures;
use crate::experiments::policies::microscope::{MAX_REQUESTS, MIN_VISITS};
use crate::experiments::policies::{PoliciesOutput, PolicyCurve};

/// A fixed colour and pattern per policy, the same on every chart.
pub fn policy_pen(policy: PolicyKind) -> Pen {
    let k = match policy {
        PolicyKind::Merge => 0,
        PolicyKind::Random => 1,
        PolicyKind::Delayed => 2,
        PolicyKind::Unpolite => 3,
        PolicyKind::Nutch => 4,
        PolicyKind::Stormcrawler => 5,
        PolicyKind::Fixed => 6,
    };
    series_pen(k)
}

/// Days or years, whichever reads better for the horizon.
fn time_unit(horizon_days: f64) -> (f64, &'static str) {
    if horizon_days >= 730.0 { (365.25, "years") } else { (1.0, "days") }
}

fn curve_line(curve: &PolicyCurve, bin_days: f64, unit: f64) -> Vec<Vec<[f64; 2]>> {
    vec![curve.freshness.iter().enumerate().map(|(k, &v)| [(k as f64 + 0.5) * bin_days / unit, v]).collect()]
}

fn lowest(curves: &[&PolicyCurve], floor: f64) -> f64 {
    let low = curves.iter().flat_map(|c| c.freshness.iter().copied()).fold(floor, f64::min);
    ((low - 0.05) * 10.0).floor().max(0.0) / 10.0
}

impl Figures for PoliciesOutput {
    /// The result's figures.
    fn figures(&self) -> Vec<Figure> {
        policies(self)
    }
}

/// " Estimated from a sample of servers …" when the curves are estimates.
fn sampled_note(o: &PoliciesOutput) -> String {
    o.sample.as_ref().map_or(String::new(), |s| {
        format!(
            " Curves estimated from {} of {} servers ({} taken whole, holding {} % of the weight, and {} draws from the rest in {} groups; {} % of the pages), as ratio estimates leaning on each server's closed form (Eq 5-2 for RANDOM, Lemma 4.2 for the others), with 95 % intervals (±).",
            thousands(s.servers as f64),
            thousands(o.repository.servers as f64),
            thousands(s.servers_taken_whole as f64),
            sig(100.0 * s.weight_taken_whole, 3),
            thousands(s.draws as f64),
            s.groups,
            sig(100.0 * s.page_share, 3),
        )
    })
}

fn policies(o: &PoliciesOutput) -> Vec<Figure> {
    let (unit, unit_name) = time_unit(o.config.horizon_days.0);
    let mut figures = Vec::new();
    for c in &o.capacities {
        let mut layers: Vec<Layer> = c
            .curves
            .iter()
            .map(|curve| {
                Layer::lines(
                    format!("{}{}", curve.policy.label(), if curve.complete { String::new() } else { " (running)".into() }),
                    curve_line(curve, o.bin_days, unit),
                    policy_pen(curve.policy),
                )
            })
            .collect();
        layers.push(Layer::HLine { label: format!("POLITE bound {}", sig(c.polite_bound, 4)), y: c.polite_bound, pen: Pen::new(Paint::Foreground, Dash::Dashed) });
        layers.push(Layer::HLine {
            label: format!("UNPOLITE bound {}", sig(c.unpolite_bound, 4)),
            y: c.unpolite_bound,
            pen: Pen { width: 1.2, ..Pen::new(Paint::Foreground, Dash::Dotted) },
        });
        let curves: Vec<&PolicyCurve> = c.curves.iter().collect();
        let ratios: Vec<String> = c
            .curves
            .iter()
            .filter_map(|k| {
                k.ratio_end.map(|r| {
                    let published = k.published_ratio.map(|p| format!(" (thesis {}, difference {:+.3})", sig(p, 3), r - p)).unwrap_or_default();
                    let mean = k.ratio_mean.map(|m| format!(", over the whole run {}", sig(m, 3))).unwrap_or_default();
                    let interval = k.sampled.as_ref().map(|s| format!(" ± {}", sig(s.end_half_width / c.polite_bound, 2))).unwrap_or_default();
                    format!("{} {}{interval}{published}{mean}", k.policy.label(), sig(r, 3))
                })
            })
            .collect();
        figures.push(Figure {
            title: format!("Repository freshness, C = {} % of the maximum (Fig 5.8)", sig(100.0 * c.share, 3)),
            x: Axis::linear(format!("time ({unit_name})"), 0.0, o.config.horizon_days.0 / unit),
            y: Axis::linear("freshness (share of pages up to date)", lowest(&curves, c.polite_bound), 1.0),
            layers,
            legend: Corner::LowerRight,
            summary: format!(
                "Freshness over {} {unit_name} with C = {} % of the maximum ({} requests per day), {} allocation. POLITE bound {}, UNPOLITE bound {}: politeness caps {} server{} holding {} % of the pages. Ratios to the POLITE bound at the end: {}.{}{}",
                sig(o.config.horizon_days.0 / unit, 3),
                sig(100.0 * c.share, 3),
                amount(c.capacity),
                c.allocation.kind.label(),
                sig(c.polite_bound, 4),
                sig(c.unpolite_bound, 4),
                thousands(c.capped.servers as f64),
                if c.capped.servers == 1 { "" } else { "s" },
                sig(100.0 * c.capped.page_share, 3),
                if ratios.is_empty() { "none yet".into() } else { ratios.join("; ") },
                sampled_note(o),
                spread_note("each policy's mean freshness over the run", REDRAWS, &spreads(&curves)),
            ),
        });
    }
    if let Some(f) = ratios(o) {
        figures.push(f);
    }
    if !o.crawlers.is_empty() {
        figures.push(crawlers(o));
    }
    figures.extend(o.capacities.iter().filter(|c| !c.microscope.pages.is_empty()).map(|c| microscope(o, c)));
    figures
}

/// What the crawlers' spread is of: a crawler that reacts to its fetches is run again on
/// each redraw, the fixed schedule's one schedule counted under them.
fn crawlers_spread(o: &PoliciesOutput) -> &'static str {
    if o.crawlers.iter().any(|c| c.curve.policy.reacts_to_fetches()) {
        "the mean freshness from the cold start (Nutch and StormCrawler run again on each redraw, a schedule that does not react counted under them)"
    } else {
        "the mean freshness from the cold start"
    }
}

/// Each finished curve's mean freshness under the redrawn rates (with estimated rates).
fn spreads(curves: &[&PolicyCurve]) -> Vec<(String, [f64; 3])> {
    curves.iter().filter_map(|k| Some((k.policy.label().to_string(), k.spread?))).collect()
}

/// Each policy's freshness at the end over the POLITE bound, against C, with the
/// thesis's ratios (§5.5) beside them: the lines that lie on top of each other in the
/// freshness charts part here.
fn ratios(o: &PoliciesOutput) -> Option<Figure> {
    let done: Vec<_> = o.capacities.iter().filter(|c| c.curves.iter().any(|k| k.ratio_end.is_some())).collect();
    if done.is_empty() {
        return None;
    }
    let policies: Vec<PolicyKind> = done[0].curves.iter().map(|k| k.policy).collect();
    let mut layers = Vec::new();
    let (mut low, mut high, mut shares) = (1.0f64, 1.0f64, Vec::new());
    for (k, &policy) in policies.iter().enumerate() {
        let points: Vec<[f64; 2]> = done.iter().filter_map(|c| c.curves.iter().find(|x| x.policy == policy).and_then(|x| x.ratio_end).map(|r| [100.0 * c.share, r])).collect();
        low = points.iter().map(|p| p[1]).fold(low, f64::min);
        high = points.iter().map(|p| p[1]).fold(high, f64::max);
        shares.extend(points.iter().map(|p| p[0]));
        let pen = policy_pen(policy);
        let Paint::Series(colour) = pen.paint else { unreachable!("policies have palette colours") };
        if points.len() > 1 {
            layers.push(Layer::lines(String::new(), vec![points.clone()], pen));
        }
        layers.push(Layer::Dots { label: policy.label().into(), points, paint: pen.paint, radius: 4.5, shape: (k % 4) as u8 });
        // the thesis's own ratios, where the run's curves carry them (generated pages)
        let published: Vec<[f64; 2]> =
            done.iter().filter_map(|c| c.curves.iter().find(|x| x.policy == policy).and_then(|x| x.published_ratio).map(|p| [100.0 * c.share, p])).collect();
        if !published.is_empty() {
            low = published.iter().map(|p| p[1]).fold(low, f64::min);
            layers.push(Layer::Dots { label: format!("{}, thesis (WEBBASE)", policy.label()), points: published, paint: Paint::Series(colour), radius: 6.0, shape: 4 });
        }
    }
    let (lo, hi) = shares.iter().fold((f64::INFINITY, 0.0f64), |(a, b), &s| (a.min(s), b.max(s)));
    let measured: Vec<String> = done
        .iter()
        .map(|c| {
            let each: Vec<String> = c
                .curves
                .iter()
                .filter_map(|k| {
                    let r = k.ratio_end?;
                    Some(format!("{} {}{}", k.policy.label(), sig(r, 3), k.published_ratio.map(|p| format!(" (thesis {}, {:+.3})", sig(p, 3), r - p)).unwrap_or_default()))
                })
                .collect();
            format!("C = {} %: {}", sig(100.0 * c.share, 3), each.join(", "))
        })
        .collect();
    Some(Figure {
        title: "Freshness at the end over the POLITE bound (§5.5)".into(),
        x: Axis::log("C (% of the maximum #servers / P, log scale)", lo / 2.0, hi * 2.0),
        y: Axis::linear("freshness ÷ POLITE bound", ((low - 0.03) * 50.0).floor().max(0.0) / 50.0, high + 0.01),
        layers,
        legend: Corner::LowerRight,
        summary: format!(
            "Each policy's freshness in the last bin divided by the POLITE bound at the same capacity; {}. {}.",
            if o.config.source == crate::core::model::source::RepositorySource::Generator {
                "the thesis's ratios (MERGE 0.970, 0.975, 0.977; RANDOM 0.812, 0.875, 0.886 at C = 1, 10, 90 %) drawn as rings, on WEBBASE's data, ours on a synthetic repository"
            } else {
                "on your page list (the thesis's ratios, on WEBBASE's data, are not drawn beside it: MERGE 0.970, 0.975, 0.977; RANDOM 0.812, 0.875, 0.886 at C = 1, 10, 90 %)"
            },
            measured.join("; ")
        ),
    })
}

/// One server page by page: simulated MERGE and RANDOM factors against Eq 5-2 and
/// Eq 5-8, over r = λ/f.
fn microscope(o: &PoliciesOutput, c: &crate::experiments::policies::CapacityResult) -> Figure {
    let m = &c.microscope;
    let name = o.server_names.get(m.server as usize).cloned().unwrap_or_else(|| format!("server {}", m.server));
    let dots =
        |get: &dyn Fn(&crate::experiments::policies::microscope::MicroPage) -> Option<f64>| -> Vec<[f64; 2]> { m.pages.iter().filter_map(|p| get(p).map(|y| [p.r, y])).collect() };
    let merge = dots(&|p| p.merge_simulated);
    let random = dots(&|p| p.random_simulated);
    let exact: Vec<[f64; 4]> = m.pages.iter().map(|p| [p.r, p.random_exact, p.random_exact, p.random_exact]).collect();
    let bound: Vec<[f64; 4]> = m.pages.iter().map(|p| [p.r, p.merge_bound, p.merge_bound, p.merge_bound]).collect();
    let all = m.pages.iter().flat_map(|p| [Some(p.random_exact), Some(p.merge_bound), p.merge_simulated, p.random_simulated]).flatten();
    let low = all.fold(1.0f64, f64::min);
    let (r_lo, r_hi) = m.pages.iter().fold((f64::INFINITY, 0.0f64), |(a, b), p| (a.min(p.r), b.max(p.r)));
    let log = r_hi > 20.0 * r_lo;
    let (x_min, x_max) = if log { (r_lo / 1.5, r_hi * 1.5) } else { ((r_lo - 0.1 * (r_hi - r_lo)).max(0.0), r_hi + 0.1 * (r_hi - r_lo).max(0.1)) };
    // a page's factor is measured from 20 visits on: none may reach it on a server of
    // millions of pages within the microscope's requests
    let mean = |v: &[[f64; 2]]| match v.len() {
        0 => format!("none measured (under {MIN_VISITS} visits each in {} days)", sig(m.days, 3)),
        n => format!("{} ({n} pages)", sig(v.iter().map(|p| p[1]).sum::<f64>() / n as f64, 3)),
    };
    let measured = match m.pages.first() {
        Some(top) if m.days == 0.0 => format!(
            "Not simulated: its most revisited page would get {} visits in {} requests, and a factor needs {MIN_VISITS}.",
            sig(top.f * MAX_REQUESTS / m.server_rate, 2),
            thousands(MAX_REQUESTS)
        ),
        _ => format!("Mean factor of the shown pages: MERGE {}, RANDOM {}.", mean(&merge), mean(&random)),
    };
    Figure {
        title: format!("One server page by page: {name}, C = {} %", sig(100.0 * c.share, 3)),
        x: Axis { label: "r = λ/f (changes per revisit)".into(), min: x_min, max: x_max, log },
        // the data keep the upper half of the plot, the legend the lower left (at font 2
        // it is half the plot's height)
        y: Axis::linear("factor A/A*", ((low - 1.2 * (1.01 - low)).max(0.0) * 50.0).floor() / 50.0, 1.01),
        layers: vec![
            Layer::Intervals { label: "RANDOM exact (Eq 5-2)".into(), points: exact, paint: Paint::Series(4) },
            Layer::Intervals { label: "MERGE guarantee (Eq 5-8)".into(), points: bound, paint: Paint::Series(5) },
            Layer::Dots { label: "MERGE simulated".into(), points: merge.clone(), paint: Paint::Series(0), radius: 3.0, shape: 0 },
            Layer::Dots { label: "RANDOM simulated".into(), points: random.clone(), paint: Paint::Series(1), radius: 3.0, shape: 1 },
        ],
        legend: Corner::LowerLeft,
        summary: format!(
            "{name}: {} pages, {} requests a day{}; {} pages shown. {measured} RANDOM's factor is lowest near r = 1.79 (Cor 5.5's 0.77 when c = f_s/f is large); MERGE's stays at or above Eq 5-8, which falls below 1 only where c is small.",
            thousands(m.pages_on_server as f64),
            sig(m.server_rate, 4),
            if m.capped { " (capped at 1/P)" } else { "" },
            m.pages.len(),
        ),
    }
}

/// Freshness against bandwidth: the POLITE bound and MERGE at the experiment's
/// capacities, and each deployed crawler beside MERGE at the bandwidth it used.
fn crawlers(o: &PoliciesOutput) -> Figure {
    let mut bound: Vec<[f64; 2]> = o.capacities.iter().map(|c| [c.capacity, c.polite_bound]).collect();
    bound.extend(o.crawlers.iter().filter_map(|c| c.polite_bound_same_bandwidth.map(|b| [c.curve.bandwidth, b])));
    bound.sort_by(|a, b| a[0].total_cmp(&b[0]));
    let merge: Vec<[f64; 2]> = o
        .capacities
        .iter()
        .filter_map(|c| c.curves.iter().find(|k| k.policy == PolicyKind::Merge && k.complete).map(|k| [c.capacity, k.converged]))
        .chain(o.crawlers.iter().filter_map(|c| c.merge_same_bandwidth.as_ref().filter(|m| m.complete).map(|m| [c.curve.bandwidth, m.converged])))
        .collect();
    let mut layers = vec![Layer::lines("POLITE bound", vec![bound.clone()], Pen::new(Paint::Foreground, Dash::Dashed))];
    layers.push(Layer::Intervals { label: "MERGE (last quarter)".into(), points: merge.iter().map(|p| [p[0], p[1], p[1], p[1]]).collect(), paint: Paint::Series(0) });
    let mut notes = Vec::new();
    for c in &o.crawlers {
        let k = &c.curve;
        if k.bandwidth <= 0.0 {
            continue;
        }
        layers.push(Layer::Marker {
            label: k.policy.label().into(),
            at: [k.bandwidth, k.converged],
            paint: policy_pen(k.policy).paint,
            note: format!("{} {}", k.policy.label(), sig(k.converged, 3)),
        });
        let against = c.merge_same_bandwidth.as_ref().map(|m| format!(", MERGE at the same bandwidth {}", sig(m.converged, 3))).unwrap_or_default();
        let bound = c.polite_bound_same_bandwidth.map(|b| format!(", POLITE bound {}", sig(b, 3))).unwrap_or_default();
        notes.push(format!(
            "{}: {} requests per day, freshness {} after convergence ({} from the cold start){against}{bound}",
            k.policy.label(),
            amount(k.bandwidth),
            sig(k.converged, 3),
            sig(k.mean, 3)
        ));
    }
    let xs: Vec<f64> = bound.iter().map(|p| p[0]).chain(o.crawlers.iter().map(|c| c.curve.bandwidth)).filter(|&x| x > 0.0).collect();
    let (lo, hi) = (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(0.0, f64::max));
    let ys: Vec<f64> = bound.iter().map(|p| p[1]).chain(o.crawlers.iter().map(|c| c.curve.converged)).collect();
    let y_min = ((ys.iter().copied().fold(1.0, f64::min) - 0.05) * 10.0).floor().max(0.0) / 10.0;
    Figure {
        title: "Deployed crawlers' schedules against MERGE and the POLITE bound".into(),
        x: Axis::log("bandwidth (requests per day, log scale)", (lo / 2.0).max(1e-9), (hi * 2.0).max(lo * 4.0)),
        y: Axis::linear("freshness after convergence", y_min, 1.0),
        layers,
        legend: Corner::LowerRight,
        summary: if notes.is_empty() {
            "No crawler has finished yet.".into()
        } else {
            notes.join(". ") + "." + &spread_note(crawlers_spread(o), REDRAWS, &spreads(&o.crawlers.iter().map(|c| &c.curve).collect::<Vec<_>>()))
        },
    }
}
