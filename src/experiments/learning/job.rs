//! The learning job: one run per policy, epoch by epoch and server by server through
//! the one driver of the schedules ([`drive`]); then the estimators' chart. Each run
//! is cut into slices of whole servers, fixed by the configuration, so a result is the
//! same to the last bit however the job is advanced.

use super::config::{ESTIMATOR_POINTS, LearningConfig, LearningPolicy};
use super::output::{EstimatorPoint, LearningOutput, PolicyCurve, PolitenessPrice, Spread};
use super::watch::Watch;
use crate::core::alloc::objective::Objective;
use crate::core::alloc::opt::optimal_for;
use crate::core::alloc::{AllocationKind, allocate};
use crate::core::input::InputError;
use crate::core::limits;
use crate::core::model::change_rate::{Seen, bias_reduced_seen, last_modified, maximum_likelihood, naive, observe};
use crate::core::model::repository::Repository;
use crate::core::model::webbase::RepositorySummary;
use crate::core::policy::PolitenessCheck;
use crate::core::policy::merge::Merge;
use crate::core::policy::poisson::PoissonCrawls;
use crate::core::policy::server::drive;
use crate::core::rng::{Purpose, Stream};
use crate::experiments::Plan;

/// Requests per slice (whole servers are taken until a slice holds this many).
const SLICE_REQUESTS: f64 = 100_000.0;

/// A run of one policy in progress.
pub struct Run {
    policy: LearningPolicy,
    /// Epoch under way and the next server to crawl in it.
    epoch: usize,
    server: usize,
    f: Vec<f64>,
    estimates: Vec<f64>,
    watch: Watch,
    work: f64,
    /// Largest relative error of the rates the run crawled by, at each epoch's start.
    rate_errors: Vec<f64>,
    /// Requests that came less than P after the previous one to their server.
    violations: u64,
}

/// Which run the plan starts next: the policies in order, then the estimators.
pub struct LearningJob {
    config: LearningConfig,
    repo: Repository,
    summary: RepositorySummary,
    edges: Vec<f64>,
    /// The oracle's rates (the objective's optimum on the true rates) and OPT_POLITE's.
    oracle: Vec<f64>,
    oracle_merge: Vec<f64>,
    uniform: Vec<f64>,
    next: usize,
    done: Vec<PolicyCurve>,
    estimators: Vec<EstimatorPoint>,
    politeness: Vec<PolitenessPrice>,
    total_work: f64,
}

impl LearningJob {
    pub fn new(config: LearningConfig) -> Result<Self, InputError> {
        let (repo, _, summary) = config.pages().load()?;
        if repo.lambda.iter().all(|&l| l == 0.0) {
            return Err(InputError::new(config.pages().size_field(), "has no page that changes (every change rate is 0): there is nothing to learn or to crawl"));
        }
        config.cost_for(repo.pages() as u64).check(&limits::here())?;
        let p = config.politeness_days();
        let cap = (p > 0.0).then_some(p);
        let (oracle, _) = optimal_for(config.objective, &repo, config.capacity, cap);
        let (oracle_merge, _) = optimal_for(Objective::Freshness, &repo, config.capacity, cap);
        let uniform = allocate(&repo, AllocationKind::Uniform, config.capacity, p).f;
        let total_work = config.cost_for(repo.pages() as u64).work;
        let politeness = politeness_prices(&repo, p);
        Ok(LearningJob { edges: config.epochs(), config, repo, summary, oracle, oracle_merge, uniform, next: 0, done: Vec::new(), estimators: Vec::new(), politeness, total_work })
    }

    /// The rates `policy` crawls by in epoch `k`, from the estimates of its history.
    fn rates(&self, run: &mut Run) -> Vec<f64> {
        let start = self.edges[run.epoch];
        let p = self.config.politeness_days();
        let cap = (p > 0.0).then_some(p);
        let learned = |run: &mut Run, objective: Objective| {
            let read = run.watch.estimate(self.config.prior_days, &mut run.estimates);
            run.work += read as f64;
            let estimated = Repository { lambda: run.estimates.clone(), weight: self.repo.weight.clone(), server_start: self.repo.server_start.clone() };
            optimal_for(objective, &estimated, self.config.capacity, cap).0
        };
        match run.policy {
            LearningPolicy::Oracle => self.oracle.clone(),
            LearningPolicy::OracleMerge => self.oracle_merge.clone(),
            LearningPolicy::Uniform => self.uniform.clone(),
            LearningPolicy::LearnAndCrawl => learned(run, self.config.objective),
            LearningPolicy::MergeLearned => learned(run, Objective::Freshness),
            LearningPolicy::ExploreThenCommit => {
                let committed = run.epoch > 0 && self.edges[run.epoch - 1] >= self.config.explore_days;
                if committed {
                    run.f.clone()
                } else if start >= self.config.explore_days {
                    learned(run, self.config.objective)
                } else {
                    self.uniform.clone()
                }
            }
        }
    }

    /// Poisson crawls for binary and harmonic objectives, equally spaced (MERGE) for
    /// freshness and for the thesis's MERGE.
    fn spaced(&self, policy: LearningPolicy) -> bool {
        policy.is_merge() || self.config.objective == Objective::Freshness
    }

    fn curve(&self, run: &Run, until: f64) -> PolicyCurve {
        let (freshness, harmonic) = run.watch.curves(self.repo.total_weight());
        let bins = freshness.len();
        let whole = ((until / self.config.horizon_days) * bins as f64).floor() as usize;
        let keep = |v: Vec<f64>| v.into_iter().take(whole.min(bins)).collect::<Vec<f64>>();
        let (freshness, harmonic) = (keep(freshness), keep(harmonic));
        let mean = |v: &[f64]| if v.is_empty() { f64::NAN } else { v.iter().sum::<f64>() / v.len() as f64 };
        PolicyCurve {
            policy: run.policy,
            mean_freshness: mean(&freshness),
            mean_harmonic: mean(&harmonic),
            freshness,
            harmonic,
            requests: run.watch.requests,
            violations: run.violations,
            rate_errors: run.rate_errors.clone(),
        }
    }

    /// The share of the bandwidth `policy` places elsewhere than its oracle would:
    /// Σ|f − f*| / (Σf + Σf*), from 0 (the oracle's rates) to 1.
    fn rate_error(&self, policy: LearningPolicy, rates: &[f64]) -> f64 {
        let oracle = if policy.is_merge() { &self.oracle_merge } else { &self.oracle };
        let (apart, total) = rates.iter().zip(oracle).fold((0.0, 0.0), |(d, t), (a, b)| (d + (a - b).abs(), t + a + b));
        if total > 0.0 { apart / total } else { 0.0 }
    }
}

/// Each objective's optimum with and without the caps, at shares of the maximum
/// polite rate #servers/P (none without politeness).
fn politeness_prices(repo: &Repository, p: f64) -> Vec<PolitenessPrice> {
    if p <= 0.0 {
        return Vec::new();
    }
    let max = repo.servers() as f64 / p;
    let value = |o: Objective, f: &[f64]| (0..repo.pages()).map(|i| repo.weight(i) * o.value(repo.lambda[i], f[i])).sum::<f64>() / repo.total_weight();
    let mut out = Vec::new();
    for objective in Objective::ALL {
        for share in [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.9] {
            let c = share * max;
            let (free, _) = optimal_for(objective, repo, c, None);
            let (polite, _) = optimal_for(objective, repo, c, Some(p));
            out.push(PolitenessPrice { objective, share, capacity: c, unpolite: value(objective, &free), polite: value(objective, &polite) });
        }
    }
    out
}

/// The estimators' chart: for λ·I from 0.05 to 5 (log-spaced), `runs` pages of rate λ
/// visited `visits` times once a day, and each estimator's ratio to λ (mean, spread).
fn estimator_points(config: &LearningConfig) -> Vec<EstimatorPoint> {
    let n = config.estimator_visits as usize;
    let visits: Vec<f64> = (0..=n).map(|k| k as f64).collect();
    (0..ESTIMATOR_POINTS)
        .map(|k| {
            let lambda = 0.05 * 100f64.powf(k as f64 / (ESTIMATOR_POINTS - 1) as f64);
            let mut rng = Stream::of(config.seed, Purpose::Replication { policy: 0, point: k as u32 }, 0);
            let runs: Vec<Vec<Seen>> = (0..config.estimator_runs).map(|_| observe(lambda, &visits, &mut rng)).collect();
            let spread = |estimator: fn(&[Seen]) -> f64| Spread::of(runs.iter().map(|r| estimator(r) / lambda));
            EstimatorPoint {
                lambda_interval: lambda,
                naive: spread(naive),
                bias_reduced: spread(bias_reduced_seen),
                last_modified: spread(last_modified),
                maximum_likelihood: spread(maximum_likelihood),
            }
        })
        .collect()
}

impl Plan for LearningJob {
    type Run = Option<Run>;
    type Output = LearningOutput;

    fn begin(&mut self) -> Option<(Option<Run>, f64)> {
        if self.next > self.config.policies.len() {
            return None;
        }
        self.next += 1;
        let Some(&policy) = self.config.policies.get(self.next - 1) else {
            // the estimators' chart: one run, done in one step
            return Some((None, 0.0));
        };
        let pages = self.repo.pages();
        let watch = Watch::new(&self.repo, self.config.seed, self.config.horizon_days, self.config.bins as usize);
        let mut run = Run { policy, epoch: 0, server: 0, f: Vec::new(), estimates: vec![f64::NAN; pages], watch, work: 0.0, rate_errors: Vec::new(), violations: 0 };
        run.f = self.rates(&mut run);
        run.rate_errors.push(self.rate_error(run.policy, &run.f));
        let setup = run.work;
        run.work = 0.0;
        Some((Some(run), setup))
    }

    fn step(&mut self, run: &mut Option<Run>) -> (f64, bool) {
        let Some(run) = run else {
            self.estimators = estimator_points(&self.config);
            let work = ESTIMATOR_POINTS as f64 * self.config.estimator_runs as f64 * self.config.estimator_visits as f64 * 2.0;
            return (work, true);
        };
        let (start, end) = (self.edges[run.epoch], self.edges[run.epoch + 1]);
        let before = run.watch.events as f64 + run.work;
        run.watch.origin = start;
        let servers = self.repo.servers();
        let mut requests = 0.0;
        while run.server < servers && requests < SLICE_REQUESTS {
            let s = run.server;
            let pages = self.repo.server_pages(s);
            let series = (run.epoch as u32) << 8 | run.policy.index() as u32;
            let mut rng = Stream::of(self.config.seed, Purpose::ServerSchedule { run: 0x4C, series }, s as u64);
            let mut check = PolitenessCheck::new(self.config.politeness_days());
            let n = if self.spaced(run.policy) {
                drive(&mut Merge::new(&run.f, pages.clone(), &mut rng), end - start, &run.f, &mut run.watch, &mut check, &mut rng)
            } else {
                drive(&mut PoissonCrawls::new(&run.f, pages.clone(), &mut rng), end - start, &run.f, &mut run.watch, &mut check, &mut rng)
            };
            requests += n as f64;
            run.violations += check.violations;
            run.server += 1;
        }
        if run.server < servers {
            return (run.watch.events as f64 + run.work - before, false);
        }
        run.server = 0;
        run.epoch += 1;
        if run.epoch + 1 < self.edges.len() {
            run.f = self.rates(run);
            run.rate_errors.push(self.rate_error(run.policy, &run.f));
            return (run.watch.events as f64 + run.work - before, false);
        }
        run.watch.close();
        (run.watch.events as f64 + run.work - before, true)
    }

    fn end(&mut self, run: Option<Run>) {
        if let Some(run) = run {
            let curve = self.curve(&run, self.config.horizon_days);
            self.done.push(curve);
        }
    }

    fn output(&self, running: Option<&Option<Run>>) -> LearningOutput {
        let mut policies = self.done.clone();
        if let Some(Some(run)) = running {
            policies.push(self.curve(run, self.edges[run.epoch]));
        }
        LearningOutput {
            config: LearningConfig { page_list: None, page_rows: None, ..self.config.clone() },
            repository: self.summary.clone(),
            bin_days: self.config.horizon_days / self.config.bins as f64,
            policies,
            estimators: self.estimators.clone(),
            politeness: self.politeness.clone(),
        }
    }

    fn total_work(&self) -> f64 {
        self.total_work
    }
}
