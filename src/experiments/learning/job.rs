//! The learning job: one run per policy, epoch by epoch and server by server through
//! the one driver of the schedules ([`drive`]); then the estimators' chart. Each run
//! is cut into slices of whole servers, fixed by the configuration, so a result is the
//! same to the last bit however the job is advanced.

use super::config::{ESTIMATOR_POINTS, LearningConfig, LearningPolicy, PagesShape};
use super::output::{EstimatorPoint, LearningOutput, PolicyCurve, PolitenessPrice, Spread};
use super::watch::Watch;
use crate::core::alloc::objective::Objective;
use crate::core::alloc::opt::optimal_for;
use crate::core::alloc::{AllocationKind, allocate};
use crate::core::input::InputError;
use crate::core::limits;
use crate::core::math::elementary::{exp, ln, pow};
use crate::core::model::change_rate::{Seen, bias_reduced_seen, last_modified, maximum_likelihood, naive, observe};
use crate::core::model::rate_bins::RateBins;
use crate::core::model::repository::Repository;
use crate::core::model::webbase::RepositorySummary;
use crate::core::policy::PolitenessCheck;
use crate::core::policy::adaptive::{Adaptive, Rule};
use crate::core::policy::merge::{Merge, server_rate};
use crate::core::policy::on_change::{Listening, OnChange, PoliteListening};
use crate::core::policy::poisson::PoissonCrawls;
use crate::core::policy::server::{drive, drive_at_most};
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::redrawn::{self, RedrawnRates};
use crate::experiments::Plan;

/// The tags of the servers' streams: crawling, and moving a MERGE to new rates.
const CRAWL: u8 = 0x4C;
const RETARGET: u8 = 0x52;

/// Requests per slice (whole servers are taken until a slice holds this many).
const SLICE_REQUESTS: f64 = 100_000.0;

/// A deployed crawler is tuned to spend the bandwidth to within this share, in at most
/// [`ADAPTIVE_TRIALS`] runs, its intervals scaled within [`MIN_SCALE`, `MAX_SCALE`].
const BANDWIDTH_TOLERANCE: f64 = 0.01;
pub const ADAPTIVE_TRIALS: usize = 12;
/// A tuning run is stopped at an epoch's end once it has spent this × the bandwidth.
pub const OVERSPEND: f64 = 2.0;
/// …and at once, inside its epoch, past this × the bandwidth: with politeness off, a
/// trial whose intervals are too short would otherwise run to its epoch's end, up to a
/// request every few seconds a page. Far above what an epoch at the polite maximum
/// reaches on the sources' settings, so their runs are the same as with OVERSPEND alone.
pub const TRIAL_CAP: f64 = 20.0;
pub const MIN_SCALE: f64 = 0.05;
const MAX_SCALE: f64 = 1000.0;

/// The deployed crawler's tuning: after `trials` (each 1/scale and the requests it
/// made), the next 1/scale to try so that a run spends `target` requests, or None (one
/// was within [`BANDWIDTH_TOLERANCE`], all [`ADAPTIVE_TRIALS`] were made, or the next
/// was tried already, or the numbers cannot be compared). Requests grow with 1/scale, steeply where pages reach the
/// shortest interval: the scale is bracketed (proportional steps), then narrowed by
/// interpolation in log-scale, falling back to the bracket's middle when that lands
/// near an end; always within [`MIN_SCALE`, `MAX_SCALE`].
pub fn next_trial(trials: &[(f64, f64)], target: f64) -> Option<f64> {
    let &(_, requests) = trials.last()?;
    if (requests / target - 1.0).abs() <= BANDWIDTH_TOLERANCE || trials.len() >= ADAPTIVE_TRIALS {
        return None;
    }
    let below = trials.iter().filter(|t| t.1 < target).max_by(|a, b| a.0.total_cmp(&b.0));
    let above = trials.iter().filter(|t| t.1 > target).min_by(|a, b| a.0.total_cmp(&b.0));
    let next = match (below, above) {
        (Some(&(u0, r0)), Some(&(u1, r1))) => {
            let (l0, l1) = (ln(u0), ln(u1));
            let at = l0 + (target - r0) / (r1 - r0) * (l1 - l0);
            let inner = (at - l0) / (l1 - l0);
            exp(if (0.1..=0.9).contains(&inner) { at } else { 0.5 * (l0 + l1) })
        }
        (Some(&(u0, r0)), None) => u0 * (target / r0).max(1.5),
        (None, Some(&(u1, r1))) => u1 * (target / r1).min(1.0 / 1.5),
        // requests or a target that are not numbers (an estimate asked of a refused
        // configuration): nothing to aim at
        (None, None) => return None,
    };
    let next = next.clamp(1.0 / MAX_SCALE, 1.0 / MIN_SCALE);
    (!trials.iter().any(|t| t.0 == next)).then_some(next)
}

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
    /// A deployed crawler's schedule of each server, kept from epoch to epoch.
    adaptive: Vec<Adaptive>,
    /// An equally spaced policy's MERGE of each server, kept from epoch to epoch and
    /// moved to the new rates at each epoch's start (so a page's spacing and the
    /// server's gaps hold across the change).
    merges: Vec<Merge>,
    /// The rates MERGE spaces when the run listens: `f` with the announced pages at 0,
    /// as they are crawled on their changes instead (empty: MERGE spaces `f`).
    merge_f: Vec<f64>,
    /// Each server's politeness check, kept from epoch to epoch.
    checks: Vec<PolitenessCheck>,
    /// A listening policy's crawls on the announced changes of each server's observed
    /// pages, kept from epoch to epoch (empty: no page is observed, or it does not listen).
    listening: Vec<OnChange>,
    /// A deployed crawler's intervals × this (1 for the shipped rule and the others),
    /// and its runs so far: (1/scale, requests).
    scale: f64,
    trials: Vec<(f64, f64)>,
    /// The run is kept whatever it spends (the last trial, or one whose cut left no
    /// other to try): [`TRIAL_CAP`] does not cut it.
    uncapped: bool,
    /// A policy that reacts to what its fetches show, on estimated rates: its runs again
    /// on each redraw, once its own is done.
    reruns: Option<Reruns>,
}

/// A learner or a deployed crawler run again on each redraw of estimated rates (as
/// `crawlers` and `policies` do): the changes it sees follow the redrawn rates, and so
/// do its estimates and its schedule, where counting its one run under them would keep
/// what the estimates made it do. One rerun at a time, on the run's streams; a deployed
/// crawler keeps the scale its tuning found.
struct Reruns {
    /// The run on the estimates, kept once done.
    own: Option<PolicyCurve>,
    /// The redraw being run, and each rerun's mean freshness so far.
    k: usize,
    means: [f64; redrawn::REDRAWS],
}

/// Which run the plan starts next: the policies in order, then the estimators.
pub struct LearningJob {
    config: LearningConfig,
    /// The pages, those whose every change is announced marked observed.
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
    /// With estimated rates (a history's page list): each page's rates redrawn within
    /// its interval, for each policy's spread.
    redrawn: Option<RedrawnRates>,
}

impl LearningJob {
    pub fn new(config: LearningConfig) -> Result<Self, InputError> {
        let (repo, list, summary) = config.pages().load_observing(config.observed_share)?;
        let redrawn = list.and_then(|l| l.rate_bounds).map(|bounds| RedrawnRates::of(config.seed, &bounds));
        if repo.lambda.iter().all(|&l| l == 0.0) {
            return Err(InputError::new(config.pages().size_field(), "has no page that changes (every change rate is 0): there is nothing to learn or to crawl"));
        }
        let shape = PagesShape {
            pages: repo.pages() as u64,
            servers: repo.servers() as u64,
            sizes: Some((0..repo.servers()).map(|s| repo.server_pages(s).len() as f64).collect()),
            rates: RateBins::of(repo.lambda.iter().copied()),
        };
        config.cost_for(&shape).check(&limits::here())?;
        let p = config.politeness_days();
        let cap = (p > 0.0).then_some(p);
        let (oracle, _) = optimal_for(config.objective, &repo, config.capacity, cap);
        // MERGE's oracle does not listen: it sees the same pages, none observed
        let blind = repo.observed.is_some().then(|| Repository { observed: None, ..repo.clone() });
        let (oracle_merge, _) = optimal_for(Objective::Freshness, blind.as_ref().unwrap_or(&repo), config.capacity, cap);
        drop(blind);
        let uniform = allocate(&repo, AllocationKind::Uniform, config.capacity, p).f;
        let total_work = config.cost_for(&shape).work;
        let politeness = politeness_prices(&repo, p);
        Ok(LearningJob {
            edges: config.epochs(),
            config,
            repo,
            summary,
            oracle,
            oracle_merge,
            uniform,
            next: 0,
            done: Vec::new(),
            estimators: Vec::new(),
            politeness,
            total_work,
            redrawn,
        })
    }

    /// A run's watch: on the repository's rates (a policy that does not react counting
    /// its fetches under the redrawn ones too), or on redraw `k`'s.
    fn watch(&self, policy: LearningPolicy, redraw: Option<usize>) -> Watch {
        let (seed, horizon, bins) = (self.config.seed, self.config.horizon_days.0, self.config.bins as usize);
        match (redraw, &self.redrawn) {
            (Some(k), Some(r)) => Watch::on_rates(&self.repo, &r.set(k, self.repo.pages()), seed, horizon, bins, policy.learns()),
            _ => Watch::new(&self.repo, seed, horizon, bins, policy.learns())
                .with_redrawn(self.redrawn.as_ref().filter(|_| !policy.reacts()).map(|r| r.account(0, self.repo.pages()))),
        }
    }

    /// After a reacting policy's run on estimated rates, or one of its reruns: keeps what
    /// it gave and starts the next rerun (false: none is left, or none is made).
    fn next_rerun(&self, run: &mut Run) -> bool {
        let Some(mut reruns) = run.reruns.take() else { return false };
        match reruns.own {
            None => reruns.own = Some(self.curve(run, self.config.horizon_days.0)),
            Some(_) => {
                let (freshness, _) = run.watch.curves(self.repo.total_weight());
                reruns.means[reruns.k] = freshness.iter().sum::<f64>() / freshness.len() as f64;
                reruns.k += 1;
            }
        }
        let more = reruns.k < redrawn::REDRAWS;
        if more {
            run.watch = self.watch(run.policy, Some(reruns.k));
            run.listening = self.listening(run.policy, &run.watch);
            run.adaptive = self.adaptive(run.policy, run.scale);
            run.checks = self.checks();
            run.merges.clear();
            (run.epoch, run.server, run.violations, run.uncapped) = (0, 0, 0, true);
            if run.policy.learns() {
                run.estimates = vec![f64::NAN; self.repo.pages()];
            }
            run.f = self.rates(run);
            run.merge_f = self.merge_rates(run, &run.f);
        }
        run.reruns = Some(reruns);
        more
    }

    /// A deployed crawler's schedule of every server, its intervals × `scale` (none for
    /// the other policies).
    fn adaptive(&self, policy: LearningPolicy, scale: f64) -> Vec<Adaptive> {
        let rule = match policy {
            LearningPolicy::Nutch => Rule::Nutch,
            LearningPolicy::Stormcrawler => Rule::Stormcrawler,
            _ => return Vec::new(),
        };
        (0..self.repo.servers()).map(|s| Adaptive::scaled(rule, self.repo.server_pages(s), self.config.politeness_days(), scale)).collect()
    }

    /// A listening policy's crawls on the observed pages' announced changes, server by
    /// server, from the run's change streams (none for the others).
    fn listening(&self, policy: LearningPolicy, watch: &Watch) -> Vec<OnChange> {
        if self.repo.observed.is_none() || !policy.listens() {
            return Vec::new();
        }
        let observed = |s: usize| self.repo.server_pages(s).filter(|&i| self.repo.observed(i) && self.repo.lambda[i] > 0.0).map(|i| (i, watch.changes(i))).collect();
        (0..self.repo.servers()).map(|s| OnChange::new(observed(s))).collect()
    }

    fn checks(&self) -> Vec<PolitenessCheck> {
        vec![PolitenessCheck::new(self.config.politeness_days()); self.repo.servers()]
    }

    /// After a deployed crawler's run: if its requests missed the bandwidth C × horizon
    /// by more than [`BANDWIDTH_TOLERANCE`], start it again (same changes) with its
    /// intervals scaled as [`next_trial`] says, as an operator would tune it. At most
    /// [`ADAPTIVE_TRIALS`] runs, each stopped once past [`OVERSPEND`] × the bandwidth
    /// (then known to be above it); the last one is kept, matched or not.
    fn retry(&self, run: &mut Run) -> bool {
        run.trials.push((1.0 / run.scale, run.watch.requests as f64));
        match next_trial(&run.trials, self.config.requests_per_run()) {
            Some(next) => {
                self.restart(run, 1.0 / next);
                true
            }
            None => false,
        }
    }

    /// Starts the deployed crawler's run again from the beginning, its intervals × `scale`
    /// (the same changes); the last trial allowed is not cut.
    fn restart(&self, run: &mut Run, scale: f64) {
        run.scale = scale;
        run.watch = self.watch(run.policy, None);
        run.adaptive = self.adaptive(run.policy, run.scale);
        run.checks = self.checks();
        run.epoch = 0;
        run.server = 0;
        run.violations = 0;
        run.uncapped = run.trials.len() + 1 >= ADAPTIVE_TRIALS;
    }

    /// The rates `policy` crawls by in epoch `k`, from the estimates of its history.
    fn rates(&self, run: &mut Run) -> Vec<f64> {
        let start = self.edges[run.epoch];
        let p = self.config.politeness_days();
        let cap = (p > 0.0).then_some(p);
        // the rates a listening learner believes, by which it crawls its announced pages
        // with probability f/λ̂, are heard anew at every epoch, exploring or not
        // (explore-then-commit keeps those it committed with)
        let learned = |run: &mut Run, objective: Objective| {
            let read = run.watch.estimate(self.config.prior_days.0, &mut run.estimates);
            run.work += read as f64;
            self.hear(run, start);
            let observed = if run.listening.is_empty() { None } else { self.repo.observed.clone() };
            let estimated = Repository { lambda: run.estimates.clone(), weight: self.repo.weight.clone(), server_start: self.repo.server_start.clone(), observed };
            optimal_for(objective, &estimated, self.config.capacity, cap).0
        };
        match run.policy {
            LearningPolicy::Oracle => self.oracle.clone(),
            LearningPolicy::OracleMerge => self.oracle_merge.clone(),
            LearningPolicy::Uniform => self.uniform.clone(),
            LearningPolicy::Nutch | LearningPolicy::Stormcrawler => Vec::new(),
            LearningPolicy::LearnAndCrawl => learned(run, self.config.objective),
            LearningPolicy::MergeLearned => learned(run, Objective::Freshness),
            LearningPolicy::ExploreThenCommit => {
                let committed = run.epoch > 0 && self.edges[run.epoch - 1] >= self.config.explore_days.0;
                if committed {
                    run.f.clone()
                } else if start >= self.config.explore_days.0 {
                    learned(run, self.config.objective)
                } else {
                    self.hear(run, start);
                    self.uniform.clone()
                }
            }
        }
    }

    /// A listening learner's estimate of each announced page's rate from the changes
    /// announced before `t` (every one of them): the mean (N + 1)/(t + prior_days) of
    /// the Gamma posterior from a prior of one change in prior_days.
    fn hear(&self, run: &mut Run, t: f64) {
        if !run.policy.learns() {
            return;
        }
        for (i, n) in run.listening.iter().flat_map(OnChange::announced) {
            run.estimates[i] = (n as f64 + 1.0) / (t + self.config.prior_days.0);
        }
    }

    /// Server `s`'s stream for crawling in `epoch` ([`CRAWL`]) or for moving its MERGE
    /// to that epoch's rates ([`RETARGET`]): its own for every epoch and policy.
    fn stream(&self, tag: u8, epoch: usize, policy: LearningPolicy, s: usize) -> Stream {
        Stream::of(self.config.seed, Purpose::ServerSchedule { run: tag, series: (epoch as u32) << 8 | policy.index() as u32 }, s as u64)
    }

    /// A server's crawls on the changes announced before `end`, each with probability
    /// f/λ̂ at the rate `policy` believes (the oracle the true one, a learner its
    /// `estimates`).
    fn announce(&self, policy: LearningPolicy, estimates: &[f64], f: &[f64], announced: &mut OnChange, end: f64, rng: &mut Stream) {
        let believed = if policy.is_oracle() { &self.repo.lambda } else { estimates };
        announced.retarget(f, believed, end, rng);
    }

    /// The rates MERGE spaces for `run` at rates `f`: empty (`f` itself) unless the run
    /// is spaced and listens, else `f` with its announced pages at 0.
    fn merge_rates(&self, run: &Run, f: &[f64]) -> Vec<f64> {
        match &self.repo.observed {
            Some(observed) if !run.listening.is_empty() && self.config.spaced(run.policy) => f.iter().zip(observed).map(|(&x, &o)| if o { 0.0 } else { x }).collect(),
            _ => Vec::new(),
        }
    }

    fn curve(&self, run: &Run, until: f64) -> PolicyCurve {
        let (freshness, harmonic) = run.watch.curves(self.repo.total_weight());
        let bins = freshness.len();
        let whole = ((until / self.config.horizon_days.0) * bins as f64).floor() as usize;
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
            interval_scale: run.policy.is_adaptive().then_some(run.scale),
            tuning_runs: (run.policy.is_adaptive() && !run.trials.is_empty()).then_some(run.trials.len()),
            spread: run.watch.redrawn_fresh().filter(|_| until >= self.config.horizon_days.0).map(|f| redrawn::spread(f, self.repo.total_weight() * until)),
        }
    }

    /// The share of the bandwidth `policy` places elsewhere than its oracle would:
    /// Σ|f − f*| / (Σf + Σf*), from 0 (the oracle's rates) to 1 (none for the deployed
    /// crawlers, which have no rates).
    fn rate_error(&self, policy: LearningPolicy, rates: &[f64]) -> Option<f64> {
        if policy.is_adaptive() {
            return None;
        }
        let oracle = if policy.is_merge() { &self.oracle_merge } else { &self.oracle };
        let (apart, total) = rates.iter().zip(oracle).fold((0.0, 0.0), |(d, t), (a, b)| (d + (a - b).abs(), t + a + b));
        Some(if total > 0.0 { apart / total } else { 0.0 })
    }
}

/// The shares of the maximum polite rate the price of politeness is shown at.
pub(super) const PRICE_SHARES: [f64; 7] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.9];

/// Each objective's optimum with and without the caps, at shares of the maximum
/// polite rate #servers/P (none without politeness), the pages that announce their
/// changes crawled on them.
fn politeness_prices(repo: &Repository, p: f64) -> Vec<PolitenessPrice> {
    if p <= 0.0 {
        return Vec::new();
    }
    let max = repo.servers() as f64 / p;
    let mut out = Vec::new();
    for objective in Objective::ALL {
        let value = |o: Objective, f: &[f64]| (0..repo.pages()).map(|i| repo.weight(i) * o.page_value(repo, i, f[i])).sum::<f64>() / repo.total_weight();
        for share in PRICE_SHARES {
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
            let lambda = 0.05 * pow(100.0, k as f64 / (ESTIMATOR_POINTS - 1) as f64);
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
        let watch = self.watch(policy, None);
        let listening = self.listening(policy, &watch);
        let adaptive = self.adaptive(policy, 1.0);
        let estimates = if policy.learns() { vec![f64::NAN; pages] } else { Vec::new() };
        let mut run = Run {
            policy,
            epoch: 0,
            server: 0,
            f: Vec::new(),
            estimates,
            watch,
            work: 0.0,
            rate_errors: Vec::new(),
            violations: 0,
            adaptive,
            merges: Vec::new(),
            merge_f: Vec::new(),
            checks: self.checks(),
            listening,
            scale: 1.0,
            trials: Vec::new(),
            uncapped: false,
            reruns: (self.redrawn.is_some() && policy.reacts()).then_some(Reruns { own: None, k: 0, means: [0.0; redrawn::REDRAWS] }),
        };
        run.f = self.rates(&mut run);
        run.merge_f = self.merge_rates(&run, &run.f);
        run.rate_errors.extend(self.rate_error(run.policy, &run.f));
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
        let servers = self.repo.servers();
        let mut requests = 0.0;
        let cap = TRIAL_CAP * self.config.requests_per_run();
        let mut cut = false;
        // every schedule runs in the run's time; the deployed crawlers' and MERGE's are
        // kept across epochs, Poisson crawls start afresh (memoryless) at each epoch
        while run.server < servers && requests < SLICE_REQUESTS {
            let s = run.server;
            let pages = self.repo.server_pages(s);
            let mut rng = self.stream(CRAWL, run.epoch, run.policy, s);
            let check = &mut run.checks[s];
            let violations = check.violations;
            let n = if let Some(schedule) = run.adaptive.get_mut(s) {
                let budget = if run.uncapped { u64::MAX } else { (cap - run.watch.requests as f64).max(0.0) as u64 + 1 };
                let n = drive_at_most(schedule, end, budget, &[], &mut run.watch, check, &mut rng);
                cut = n == budget;
                n
            } else if self.config.spaced(run.policy) {
                let f = if run.merge_f.is_empty() { &run.f } else { &run.merge_f };
                if run.epoch == 0 {
                    // a listening server's requests come at the rate of all its pages
                    run.merges.push(Merge::with_slots(f, server_rate(&run.f, pages.clone()), pages.clone(), &mut rng));
                }
                let merge = &mut run.merges[s];
                match run.listening.get_mut(s) {
                    Some(announced) => {
                        self.announce(run.policy, &run.estimates, &run.f, announced, end, &mut rng);
                        drive(&mut PoliteListening { merge, announced }, end, f, &mut run.watch, check, &mut rng)
                    }
                    None => drive(merge, end, f, &mut run.watch, check, &mut rng),
                }
            } else if let Some(announced) = run.listening.get_mut(s) {
                let observed = self.repo.observed.as_deref().expect("listening runs have observed pages");
                let blind = &mut PoissonCrawls::new(&run.f, pages.clone().filter(|&i| !observed[i]), start, &mut rng);
                self.announce(run.policy, &run.estimates, &run.f, announced, end, &mut rng);
                drive(&mut Listening { blind, announced }, end, &run.f, &mut run.watch, check, &mut rng)
            } else {
                drive(&mut PoissonCrawls::new(&run.f, pages.clone(), start, &mut rng), end, &run.f, &mut run.watch, check, &mut rng)
            };
            requests += n as f64;
            run.violations += check.violations - violations;
            run.server += 1;
            if cut {
                break;
            }
        }
        // counted before a new trial clears the run's watch
        let done = run.watch.events as f64 + run.work - before;
        // a trial cut past TRIAL_CAP is above the bandwidth: the next one starts, or, if
        // none is left to try, this one again, uncut
        if cut {
            if !self.retry(run) {
                self.restart(run, run.scale);
                run.uncapped = true;
            }
            return (done, false);
        }
        if run.server < servers {
            return (done, false);
        }
        run.server = 0;
        run.epoch += 1;
        let finished = run.epoch + 1 >= self.edges.len();
        // a tuning run that has already spent OVERSPEND × the bandwidth is above it: stop it
        let overspent = run.watch.requests as f64 > OVERSPEND * self.config.requests_per_run();
        let rerun = run.reruns.as_ref().is_some_and(|r| r.own.is_some());
        if run.policy.is_adaptive() && !rerun && (finished || overspent) && self.retry(run) {
            return (done, false);
        }
        if !finished {
            let f = self.rates(run);
            let merge_f = self.merge_rates(run, &f);
            let (from, to) = if merge_f.is_empty() { (&run.f, &f) } else { (&run.merge_f, &merge_f) };
            for (s, merge) in run.merges.iter_mut().enumerate() {
                let mut rng = self.stream(RETARGET, run.epoch, run.policy, s);
                let pages = self.repo.server_pages(s);
                merge.retarget(from, to, server_rate(&f, pages.clone()), pages, end, &mut rng);
            }
            run.f = f;
            run.merge_f = merge_f;
            run.rate_errors.extend(self.rate_error(run.policy, &run.f));
            return (run.watch.events as f64 + run.work - before, false);
        }
        run.watch.close();
        let more = self.next_rerun(run);
        (run.watch.events as f64 + run.work - before, !more)
    }

    fn end(&mut self, run: Option<Run>) {
        if let Some(run) = run {
            let curve = match run.reruns {
                Some(Reruns { own: Some(own), means, .. }) => PolicyCurve { spread: Some(redrawn::spread(means, 1.0)), ..own },
                _ => self.curve(&run, self.config.horizon_days.0),
            };
            self.done.push(curve);
        }
    }

    fn output(&self, running: Option<&Option<Run>>) -> LearningOutput {
        let mut policies = self.done.clone();
        if let Some(Some(run)) = running {
            // during its reruns, the run on the estimates (its spread to come)
            match run.reruns.as_ref().and_then(|r| r.own.clone()) {
                Some(own) => policies.push(PolicyCurve { spread: None, ..own }),
                None => policies.push(self.curve(run, self.edges[run.epoch])),
            }
        }
        LearningOutput {
            config: LearningConfig { page_list: None, page_rows: None, ..self.config.clone() },
            repository: self.summary.clone(),
            bin_days: self.config.horizon_days.0 / self.config.bins as f64,
            policies,
            estimators: self.estimators.clone(),
            politeness: self.politeness.clone(),
            spaced: self.config.spaced(LearningPolicy::Oracle),
            observed_pages: self.repo.observed.as_ref().map(|o| o.iter().filter(|&&x| x).count() as u64),
        }
    }

    fn total_work(&self) -> f64 {
        self.total_work
    }
}
