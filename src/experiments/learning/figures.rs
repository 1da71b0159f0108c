//! The learning experiment's figures: freshness and harmonic staleness over time for
//! every policy, the price of not knowing the rates (the gap to the oracle), the
//! estimators' bias and spread, and the price of politeness for each objective.

use super::config::LearningPolicy;
use super::output::{LearningOutput, PolicyCurve, Spread};
use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen, series_pen};
use crate::chart::format::{sig, spread_note};
use crate::core::alloc::objective::Objective;
use crate::core::sim::redrawn::REDRAWS;
use crate::experiments::Figures;

impl Figures for LearningOutput {
    fn figures(&self) -> Vec<Figure> {
        let mut figures = vec![over_time(self, Metric::Freshness), over_time(self, Metric::Harmonic), gap_to_oracle(self)];
        if !self.estimators.is_empty() {
            figures.push(estimators(self));
        }
        if !self.politeness.is_empty() {
            figures.push(politeness(self));
        }
        figures
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Metric {
    Freshness,
    Harmonic,
}

fn values(c: &PolicyCurve, metric: Metric) -> &[f64] {
    match metric {
        Metric::Freshness => &c.freshness,
        Metric::Harmonic => &c.harmonic,
    }
}

/// Bin midpoints (days) against `y`.
fn points(o: &LearningOutput, y: impl Iterator<Item = f64>) -> Vec<[f64; 2]> {
    y.enumerate().map(|(k, v)| [(k as f64 + 0.5) * o.bin_days, v]).collect()
}

fn time_axis(o: &LearningOutput) -> Axis {
    Axis::linear("time (days)", 0.0, o.config.horizon_days.0)
}

/// What a policy's schedule optimises, when it optimises one: the oracle and the
/// learners the run's objective, MERGE Lemma 4.2's freshness; uniform and the deployed
/// crawlers none.
fn aim(policy: LearningPolicy, objective: Objective) -> Option<Metric> {
    match policy {
        LearningPolicy::Oracle | LearningPolicy::LearnAndCrawl | LearningPolicy::ExploreThenCommit => {
            Some(if objective == Objective::Harmonic { Metric::Harmonic } else { Metric::Freshness })
        }
        LearningPolicy::OracleMerge | LearningPolicy::MergeLearned => Some(Metric::Freshness),
        LearningPolicy::Uniform | LearningPolicy::Nutch | LearningPolicy::Stormcrawler => None,
    }
}

fn over_time(o: &LearningOutput, metric: Metric) -> Figure {
    let mut layers = Vec::new();
    let (mut low, mut top) = (f64::INFINITY, 0.0f64);
    for c in &o.policies {
        let v = values(c, metric);
        top = top.max(v.iter().copied().fold(0.0, f64::max));
        low = low.min(v.iter().copied().fold(f64::INFINITY, f64::min));
        let mean = match metric {
            Metric::Freshness => c.mean_freshness,
            Metric::Harmonic => c.mean_harmonic,
        };
        // a schedule that optimises the other measure says so: its line is not aiming here
        let other = match aim(c.policy, o.config.objective) {
            Some(Metric::Harmonic) if metric == Metric::Freshness => ", aims at harmonic",
            Some(Metric::Freshness) if metric == Metric::Harmonic => ", aims at freshness",
            _ => "",
        };
        layers.push(Layer::lines(format!("{}{other}: {}", c.policy.label(), sig(mean, 3)), vec![points(o, v.iter().copied())], series_pen(c.policy.index())));
    }
    // freshness: the axis fits the curves (in twentieths), up to 1
    let floor = if low.is_finite() { (((low - 0.03) * 20.0).floor() / 20.0).clamp(0.0, 0.9) } else { 0.0 };
    let (title, label, min, max) = match metric {
        Metric::Freshness => ("Freshness while learning the change rates", "freshness (weighted share of fresh time)", floor, 1.0),
        Metric::Harmonic => ("Harmonic staleness while learning the change rates", "harmonic staleness (per unit of weight)", 0.0, if top > 0.0 { top * 1.1 } else { 1.0 }),
    };
    let best = |better: fn(f64, f64) -> bool| {
        o.policies.iter().filter(|c| !c.policy.is_oracle()).fold(None::<&PolicyCurve>, |b, c| {
            let (x, y) = (mean_of(c, metric), b.map(|b| mean_of(b, metric)));
            if y.is_none_or(|y| better(x, y)) { Some(c) } else { b }
        })
    };
    let leader = match metric {
        Metric::Freshness => best(|a, b| a > b),
        Metric::Harmonic => best(|a, b| a < b),
    };
    let summary = match leader {
        Some(l) => {
            format!(
                "{} of {} objective, {} requests a day, P = {} s: best learner {} with {} on average ({}).",
                label,
                o.config.objective.label(),
                sig(o.config.capacity, 4),
                sig(o.config.politeness_seconds.0, 4),
                l.policy.label(),
                sig(mean_of(l, metric), 4),
                o.policies.iter().map(|c| format!("{} {}", c.policy.label(), sig(mean_of(c, metric), 4))).collect::<Vec<_>>().join(", ")
            ) + &if metric == Metric::Freshness {
                spread_note(
                    "the mean freshness (a learner or a deployed crawler run again on each redraw, a policy that does not react counted under them)",
                    REDRAWS,
                    &o.policies.iter().filter_map(|c| Some((c.policy.label().to_string(), c.spread?))).collect::<Vec<_>>(),
                )
            } else {
                String::new()
            }
        }
        None => "No learner has run yet.".into(),
    };
    Figure {
        title: title.into(),
        x: time_axis(o),
        y: Axis::linear(label, min, max),
        layers,
        legend: if metric == Metric::Freshness { Corner::LowerRight } else { Corner::UpperRight },
        summary,
    }
}

fn mean_of(c: &PolicyCurve, metric: Metric) -> f64 {
    match metric {
        Metric::Freshness => c.mean_freshness,
        Metric::Harmonic => c.mean_harmonic,
    }
}

/// Each learner's freshness below its oracle's (the one that crawls the same way),
/// per bin: what not knowing the rates costs.
fn gap_to_oracle(o: &LearningOutput) -> Figure {
    let mut layers = vec![Layer::HLine { label: "no loss".into(), y: 0.0, pen: Pen::new(Paint::Foreground, Dash::Dotted) }];
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    let mut words = Vec::new();
    for c in &o.policies {
        let Some(oracle) = c.policy.reference().and_then(|r| o.curve(r)) else { continue };
        let gaps: Vec<f64> = oracle.freshness.iter().zip(&c.freshness).map(|(a, b)| a - b).collect();
        for &g in &gaps {
            lo = lo.min(g);
            hi = hi.max(g);
        }
        let late = &gaps[gaps.len() / 2..];
        let mean = if late.is_empty() { f64::NAN } else { late.iter().sum::<f64>() / late.len() as f64 };
        // a learner that did better than its oracle over the half (chance, on pages that
        // barely change) is said to be above it, not a negative amount below
        let side = if mean < 0.0 { "above" } else { "below" };
        words.push(format!("{} {} {side} {} over the second half", c.policy.label(), sig(mean.abs(), 3), oracle.policy.label()));
        layers.push(Layer::lines(c.policy.label(), vec![points(o, gaps.into_iter())], series_pen(c.policy.index())));
    }
    let pad = 0.1 * (hi - lo).max(0.01);
    let summary = if words.is_empty() {
        "Run an oracle beside a learner that crawls the same way (oracle with the LambdaCrawl learners and uniform; MERGE knowing the rates with MERGE on learned rates) to see what not knowing the rates costs.".into()
    } else {
        format!("Freshness lost to not knowing the change rates: {}.", words.join("; "))
    };
    Figure {
        title: "The price of not knowing the rates".into(),
        x: time_axis(o),
        y: Axis::linear("freshness below its oracle's", lo - pad, hi + pad),
        layers,
        legend: Corner::UpperRight,
        summary,
    }
}

fn estimators(o: &LearningOutput) -> Figure {
    let names = ["naive X/T", "bias-reduced (Cho & Garcia-Molina)", "last-modified dates", "maximum likelihood"];
    let pick: [fn(&super::output::EstimatorPoint) -> &Spread; 4] = [|p| &p.naive, |p| &p.bias_reduced, |p| &p.last_modified, |p| &p.maximum_likelihood];
    let mut layers = vec![Layer::HLine { label: "unbiased".into(), y: 1.0, pen: Pen::new(Paint::Foreground, Dash::Dotted) }];
    let mut top = 1.5f64;
    for (k, (name, get)) in names.iter().zip(pick).enumerate() {
        // each estimator a little to the side of the others, so the bars do not overlap
        let nudge = 1.0 + 0.04 * (k as f64 - 1.5);
        let pts: Vec<[f64; 4]> = o
            .estimators
            .iter()
            .filter(|p| get(p).mean.is_finite())
            .map(|p| {
                let s = get(p);
                let sd = if s.sd.is_finite() { s.sd } else { 0.0 };
                [p.lambda_interval * nudge, s.mean, (s.mean - sd).max(0.0), s.mean + sd]
            })
            .collect();
        for p in &pts {
            top = top.max(p[3].min(4.0));
        }
        layers.push(Layer::Intervals { label: (*name).into(), points: pts, paint: Paint::Series(k) });
    }
    let infinite: u64 = o.estimators.iter().map(|p| p.maximum_likelihood.infinite).sum();
    let at = |x: f64| o.estimators.iter().min_by(|a, b| (a.lambda_interval - x).abs().total_cmp(&(b.lambda_interval - x).abs()));
    let summary = match at(2.0) {
        Some(p) => format!(
            "Each estimator's estimate over the true rate (mean ± one standard deviation over {} pages of {} daily visits). At λI = {}: naive {}, bias-reduced {}, last-modified {}, maximum likelihood {}{}.",
            o.config.estimator_runs,
            o.config.estimator_visits,
            sig(p.lambda_interval, 3),
            sig(p.naive.mean, 3),
            sig(p.bias_reduced.mean, 3),
            sig(p.last_modified.mean, 3),
            sig(p.maximum_likelihood.mean, 3),
            if infinite > 0 { format!(" (maximum likelihood infinite in {infinite} pages where every visit saw a change: left out)") } else { String::new() }
        ),
        None => String::new(),
    };
    Figure {
        title: "Change-rate estimators: bias and spread".into(),
        x: Axis::log("λ·I (changes per visit interval)", 0.04, 6.0),
        y: Axis::linear("estimate / true rate", 0.0, top),
        layers,
        legend: Corner::LowerLeft,
        summary,
    }
}

fn politeness(o: &LearningOutput) -> Figure {
    let mut layers = Vec::new();
    let mut low = 1.0f64;
    let mut words = Vec::new();
    for (k, objective) in Objective::ALL.into_iter().enumerate() {
        let pts: Vec<[f64; 2]> = o.politeness.iter().filter(|p| p.objective == objective).map(|p| [p.share, p.kept()]).collect();
        for p in &pts {
            low = low.min(p[1]);
        }
        if let Some(worst) = pts.iter().map(|p| p[1]).reduce(f64::min) {
            words.push(format!("{} keeps at worst {}", objective.label(), sig(worst, 3)));
        }
        layers.push(Layer::lines(objective.label(), vec![pts], series_pen(k)));
    }
    Figure {
        title: "The price of politeness for each objective".into(),
        x: Axis::log("bandwidth (share of the most the caps allow, #servers/P)", 0.008, 1.0),
        y: Axis::linear("share of the unpolite optimum kept", (low - 0.1 * (1.0 - low).max(0.02)).max(0.0), 1.0 + 0.02),
        layers,
        legend: Corner::LowerLeft,
        summary: format!(
            "With P = {} s, the optimum under the per-server caps over the optimum without them (for harmonic staleness, the inverse ratio of costs): {}.",
            sig(o.config.politeness_seconds.0, 4),
            words.join("; ")
        ),
    }
}
