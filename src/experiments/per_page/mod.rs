//! Experiment 1 of the view (spec §1.5): a page's simulated approximation factor
//! A_i/A*_i against x = λ/f, with 95 % confidence intervals, over the closed forms:
//! Eq 5-2 (RANDOM, exact) and Eq 5-8 (MERGE, bound) for the page's c = f_s/f.

pub mod figures;
pub mod table;
#[cfg(test)]
mod tests;

use super::{Choice, Experiment, Job};
use crate::core::field::settings;
use crate::core::input::{InputError, distinct, ordered};
use crate::core::limits::{Cost, Fix};
use crate::core::math::axis::GridAxis;
use crate::core::math::elementary::expm1;
use crate::core::math::freshness::{a_star_ratio, merge_factor, random_factor, random_factor_bound};
use crate::core::math::stats::mean_and_half_width;
use crate::core::policy::server::ServerSchedule;
use crate::core::policy::{PolicyKind, PolitenessCheck};
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::freshness::{Estimator, Fetch, Freshness};
use crate::experiments::Settings;
use crate::experiments::factor_curves::described;
use serde::{Deserialize, Serialize};

settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PerPageConfig {
    /// c = f_s/f: the server's request frequency over the test page's.
    pub c: f64 = 3.0; shared(described::c()).at_least(1.0).at_most(1e4);
    pub x_min: f64 = 0.1; shared(described::x_min()).positive();
    pub x_max: f64 = 10.0; shared(described::x_max()).positive().at_most(1e3);
    pub log_x: bool = true; shared(described::log_x());
    pub points: u64 = 13; shared(described::points()).count(2, 200).why("more points than that crowd the chart");
    /// Pages sharing the server with the test page; their frequencies, which add up to
    /// (c − 1)f, are drawn at random in each replication (at least one when c > 1: a rule).
    pub other_pages: u64 = 20;
        integer("other pages on the server").help("their frequencies are drawn at random").count(0, 10_000).why("a server with more pages adds nothing to the picture");
    /// Revisits of the test page measured in each replication.
    pub revisits: u64 = 4000; integer("revisits per replication").count(10, 1_000_000).why("more revisits make no visible difference");
    pub replications: u64 = 20;
        integer("replications").help("for the 95 % intervals").count(2, 1000).why("more replications narrow the 95 % interval little and cost time");
    pub policies: Vec<PolicyKind> = vec![PolicyKind::Merge, PolicyKind::Random]; choices("policies simulated");
    pub estimator: Estimator = Estimator::Exact; shared(Estimator::field());
    pub seed: u64 = 1; seed();
}
}

impl PerPageConfig {
    /// Requests simulated for one point: every replication's revisits of the test page,
    /// c server requests each.
    fn per_point(&self) -> f64 {
        self.replications as f64 * self.revisits as f64 * self.c
    }
}

impl Settings for PerPageConfig {
    fn rules(&self) -> Result<(), InputError> {
        if self.c > 1.0 && self.other_pages == 0 {
            return Err(InputError::new("other_pages", "must be at least 1 when c > 1 (the server's other requests go to other pages)"));
        }
        if self.c == 1.0 && self.other_pages > 0 {
            return Err(InputError::new("other_pages", "must be 0 when c = 1 (the page is alone on its server)"));
        }
        ordered("x_min", self.x_min, "x_max", self.x_max)?;
        distinct("policies", &self.policies)?;
        if self.policies.is_empty() {
            return Err(InputError::new("policies", "choose at least one policy: merge, random or both"));
        }
        if self.policies.iter().any(|p| !matches!(p, PolicyKind::Merge | PolicyKind::Random)) {
            return Err(InputError::new("policies", "choose among merge and random (the policies with closed forms)"));
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        let work = self.points as f64 * self.policies.len() as f64 * self.per_point();
        // the closed forms on 300 points, the simulated points, one server's pages
        let bytes = 300.0 * 4.0 * 8.0 + self.points as f64 * 64.0 + (self.other_pages as f64 + 1.0) * 64.0 + 4096.0;
        Cost {
            work,
            unit: "requests".into(),
            bytes,
            seconds: work * SECONDS_PER_REQUEST,
            memory_fix: Fix::new("other_pages", "put fewer pages on the server"),
            time_fix: Fix::new("revisits", "lower revisits, replications, points or c"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FactorPoints {
    pub policy: PolicyKind,
    /// [x, mean factor, lower, upper] of the 95 % interval.
    pub points: Vec<[f64; 4]>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerPageOutput {
    pub config: PerPageConfig,
    /// A fine grid for the closed forms.
    pub x: Vec<f64>,
    pub random_exact: Vec<f64>,
    pub merge_bound: Vec<f64>,
    pub random_bound: Vec<f64>,
    pub simulated: Vec<FactorPoints>,
}

/// Freshness of page 0 only, measured between its first and last visits.
struct TestPage {
    lambda: f64,
    estimator: Estimator,
    last: f64,
    stale_at: f64,
    fresh: f64,
    elapsed: f64,
    visits: u64,
}

impl Freshness for TestPage {
    fn visit(&mut self, page: usize, t: f64, rng: &mut Stream) -> Option<Fetch> {
        if page != 0 {
            return None;
        }
        if self.visits > 0 {
            let u = t - self.last;
            self.elapsed += u;
            self.fresh += match self.estimator {
                Estimator::Expected => -expm1(-self.lambda * u) / self.lambda,
                Estimator::Exact => (self.stale_at.min(t) - self.last).max(0.0),
            };
        }
        self.stale_at = t + rng.exponential(self.lambda);
        self.last = t;
        self.visits += 1;
        None
    }
}

/// The test page's simulated factor in one replication.
fn replicate(config: &PerPageConfig, policy: PolicyKind, x: f64, stream: &mut Stream) -> f64 {
    let m = config.other_pages as usize;
    // test page f = 1; the others share c − 1 in random proportions
    let shares: Vec<f64> = (0..m).map(|_| stream.exponential(1.0) + 1e-3).collect();
    let total: f64 = shares.iter().sum();
    let mut f = vec![1.0];
    f.extend(shares.iter().map(|s| (config.c - 1.0) * s / total));
    let mut schedule = ServerSchedule::new(policy, &f, 0..f.len(), 0.0, stream);
    let mut page = TestPage { lambda: x, estimator: config.estimator, last: 0.0, stale_at: 0.0, fresh: 0.0, elapsed: 0.0, visits: 0 };
    let mut check = PolitenessCheck::new(0.0);
    let mut horizon = 0.0;
    while page.visits <= config.revisits {
        horizon += (config.revisits + 1 - page.visits) as f64 + 1.0;
        schedule.advance(horizon, &f, &mut page, &mut check, stream);
    }
    (page.fresh / page.elapsed) / a_star_ratio(x)
}

pub struct PerPageJob {
    config: PerPageConfig,
    grid: Vec<f64>,
    /// (policy index, point index) next to compute.
    next: usize,
    output: PerPageOutput,
}

impl PerPageJob {
    pub fn new(config: PerPageConfig) -> Result<Self, InputError> {
        config.validate()?;
        let grid = GridAxis { min: config.x_min, max: config.x_max, log: config.log_x, n: config.points as usize }.nodes();
        let x = GridAxis { min: config.x_min, max: config.x_max, log: config.log_x, n: 300 }.nodes();
        let c = config.c;
        let output = PerPageOutput {
            random_exact: x.iter().map(|&v| random_factor(v, c)).collect(),
            merge_bound: x.iter().map(|&v| merge_factor(v, c)).collect(),
            random_bound: x.iter().map(|&v| random_factor_bound(v)).collect(),
            x,
            simulated: config.policies.iter().map(|&policy| FactorPoints { policy, points: Vec::new() }).collect(),
            config: config.clone(),
        };
        Ok(PerPageJob { config, grid, next: 0, output })
    }

    fn total(&self) -> usize {
        self.grid.len() * self.config.policies.len()
    }

    pub fn output(&self) -> PerPageOutput {
        self.output.clone()
    }
}

impl Job<PerPageOutput> for PerPageJob {
    /// Computes points until about `budget` requests are spent; returns progress.
    fn advance(&mut self, budget: u64) -> f64 {
        let per_point = self.config.per_point();
        let mut spent = 0.0;
        while self.next < self.total() && (spent == 0.0 || spent + per_point <= budget as f64) {
            let (p, k) = (self.next / self.grid.len(), self.next % self.grid.len());
            let policy = self.config.policies[p];
            let x = self.grid[k];
            let samples: Vec<f64> = (0..self.config.replications)
                .map(|r| replicate(&self.config, policy, x, &mut Stream::of(self.config.seed, Purpose::Replication { policy: p as u8, point: k as u32 }, r)))
                .collect();
            let (mean, half) = mean_and_half_width(&samples);
            self.output.simulated[p].points.push([x, mean, mean - half, mean + half]);
            self.next += 1;
            spent += per_point;
        }
        self.next as f64 / self.total() as f64
    }

    fn done(&self) -> bool {
        self.next >= self.total()
    }

    /// Requests simulated so far.
    fn work(&self) -> f64 {
        self.next as f64 * self.config.per_point()
    }

    fn partial(&self) -> Option<PerPageOutput> {
        Some(self.output())
    }
}

/// Native time per simulated request of the per-page experiment.
const SECONDS_PER_REQUEST: f64 = 25e-9;

impl Experiment for PerPageConfig {
    type Output = PerPageOutput;

    fn start(self) -> Result<Box<dyn Job<PerPageOutput>>, InputError> {
        Ok(Box::new(PerPageJob::new(self)?))
    }

    fn choices() -> Vec<Choice> {
        vec![Choice::of("policies", &[PolicyKind::Merge, PolicyKind::Random], PolicyKind::label), Choice::of("estimator", &Estimator::ALL, Estimator::label)]
    }
}
