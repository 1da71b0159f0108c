//! The repository experiment (spec §1.4, thesis Fig 5.8): freshness over time of MERGE,
//! DELAYED, RANDOM and UNPOLITE under an allocation, at several total frequencies C,
//! against the POLITE bound; and the schedules of deployed crawlers, each compared
//! with MERGE and the POLITE bound at the bandwidth it actually used.

use crate::alloc::{AllocationKind, AllocationReport, allocate};
use crate::input::{InputError, check, count};
use crate::model::repository::Repository;
use crate::model::webbase::{RepositoryConfig, RepositorySummary, generate, summarise};
use crate::policy::server::{ServerSchedule, Visitor};
use crate::policy::{PolicyKind, PolitenessCheck};
use crate::rng::Stream;
use crate::sim::account::{Account, Estimator, Fetch};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PoliciesConfig {
    pub repository: RepositoryConfig,
    /// Minimum time between two requests to one server, in seconds.
    pub politeness_seconds: f64,
    pub horizon_days: f64,
    /// Total frequencies C to compare, as shares of the maximum #servers / P.
    pub capacities: Vec<f64>,
    pub allocation: AllocationKind,
    /// Allocation-driven policies, run at every capacity.
    pub policies: Vec<PolicyKind>,
    /// Deployed crawlers' schedules (adaptive), run once each.
    pub crawlers: Vec<PolicyKind>,
    pub estimator: Estimator,
    pub bins: u64,
    pub seed: u64,
}

impl Default for PoliciesConfig {
    fn default() -> Self {
        PoliciesConfig {
            repository: RepositoryConfig::default(),
            politeness_seconds: 1200.0,
            horizon_days: 365.0,
            capacities: vec![0.01, 0.1, 0.9],
            allocation: AllocationKind::OptPolite,
            policies: vec![PolicyKind::Merge, PolicyKind::Delayed, PolicyKind::Random, PolicyKind::Unpolite],
            crawlers: vec![PolicyKind::Nutch, PolicyKind::Stormcrawler, PolicyKind::Fixed],
            estimator: Estimator::Expected,
            bins: 100,
            seed: 1,
        }
    }
}

/// Memory a run may use: what a browser tab can reliably hold, or a workstation.
pub const MEMORY_LIMIT: u64 = if cfg!(target_arch = "wasm32") { 2 << 30 } else { 16 << 30 };
/// Requests per slice of a run (the granularity of progress and cancellation).
const SLICE_REQUESTS: f64 = 100_000.0;
/// More requests than this would take days even natively.
pub const MAX_REQUESTS: f64 = 2e12;

/// What a configuration will cost, computed before it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Peak memory in bytes.
    pub bytes: u64,
    pub bytes_per_page: u64,
    /// Requests to simulate (the crawlers' count is an upper bound).
    pub requests: f64,
}

impl PoliciesConfig {
    /// The WEBBASE scale of spec §1.4: 14.5 M pages, 5,462 servers, P = 15 s, six years.
    pub fn webbase() -> Self {
        PoliciesConfig { repository: RepositoryConfig::webbase(), politeness_seconds: 15.0, horizon_days: 6.0 * 365.25, ..Default::default() }
    }

    fn politeness_days(&self) -> f64 {
        self.politeness_seconds / 86_400.0
    }

    fn max_rate(&self) -> f64 {
        self.repository.servers as f64 / self.politeness_days()
    }

    pub fn estimate(&self) -> Estimate {
        let n = self.repository.pages;
        let allocated = 8 + 8 + 16 + Account::bytes_per_page(self.estimator);
        let crawling = 8 + crate::policy::adaptive::Adaptive::BYTES_PER_PAGE + Account::bytes_per_page(Estimator::Exact);
        let per_page = if self.crawlers.is_empty() { allocated } else { allocated.max(crawling) };
        let per_server = 200;
        let bytes = n * per_page + self.repository.servers * per_server + self.bins * 64;
        let slots = self.max_rate() * self.horizon_days;
        let allocated_requests: f64 = self.capacities.iter().map(|c| c * slots).sum::<f64>() * self.policies.len() as f64;
        let requests = allocated_requests + 2.0 * slots * self.crawlers.len() as f64;
        Estimate { bytes, bytes_per_page: per_page, requests }
    }

    pub fn validate(&self) -> Result<(), InputError> {
        self.repository.validate("repository.")?;
        check("politeness_seconds", self.politeness_seconds)?.positive()?.at_most(86_400.0 * 365.0)?;
        check("horizon_days", self.horizon_days)?.positive()?.at_most(365.25 * 100.0)?;
        if self.capacities.is_empty() {
            return Err(InputError::new("capacities", "needs at least one share of the maximum, e.g. 0.01, 0.1, 0.9"));
        }
        if self.capacities.len() > 8 {
            return Err(InputError::new("capacities", "has more than 8 values; compare at most 8 at once"));
        }
        for (k, &c) in self.capacities.iter().enumerate() {
            check(&format!("capacities[{k}]"), c)?.positive()?.at_most(1.0)?;
        }
        if self.policies.is_empty() && self.crawlers.is_empty() {
            return Err(InputError::new("policies", "choose at least one policy or crawler to simulate"));
        }
        if let Some(p) = self.policies.iter().find(|p| p.is_adaptive()) {
            return Err(InputError::new("policies", format!("{} learns its own schedule; list it under crawlers", p.label())));
        }
        if let Some(p) = self.crawlers.iter().find(|p| !p.is_adaptive()) {
            return Err(InputError::new("crawlers", format!("{} needs an allocation; list it under policies", p.label())));
        }
        for (field, list) in [("policies", &self.policies), ("crawlers", &self.crawlers)] {
            let mut sorted = list.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() != list.len() {
                return Err(InputError::new(field, "lists a policy twice; keep one"));
            }
        }
        count("bins", self.bins, 10, 2000, "more bins than pixels add nothing")?;
        let estimate = self.estimate();
        if estimate.bytes > MEMORY_LIMIT {
            return Err(InputError::new(
                "repository.pages",
                format!(
                    "needs about {} MB ({} bytes per page), more than the {} MB {} can hold; use fewer pages{}",
                    estimate.bytes >> 20,
                    estimate.bytes_per_page,
                    MEMORY_LIMIT >> 20,
                    if cfg!(target_arch = "wasm32") { "a browser tab" } else { "this program allows" },
                    if cfg!(target_arch = "wasm32") { " or run it with the command-line freshlab" } else { "" }
                ),
            ));
        }
        if estimate.requests > MAX_REQUESTS {
            return Err(InputError::new("horizon_days", format!("would simulate {:.1e} requests; shorten the horizon or lengthen politeness_seconds", estimate.requests)));
        }
        Ok(())
    }
}

/// The thesis's ratios to the POLITE bound after six years (§5.5).
pub fn published_ratio(policy: PolicyKind, share: f64) -> Option<f64> {
    let table: [(PolicyKind, [f64; 3]); 2] = [(PolicyKind::Merge, [0.970, 0.975, 0.977]), (PolicyKind::Random, [0.812, 0.875, 0.886])];
    let k = [0.01, 0.1, 0.9].iter().position(|&s| (s - share).abs() < 1e-12)?;
    table.iter().find(|(p, _)| *p == policy).map(|(_, r)| r[k])
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyCurve {
    pub policy: PolicyKind,
    /// Repository freshness averaged over each time bin (fewer bins while running).
    pub freshness: Vec<f64>,
    pub complete: bool,
    /// Time average over the horizon (cold start included).
    pub mean: f64,
    /// The last bin: freshness at the end of the horizon.
    pub end: f64,
    /// Average over the last quarter of the horizon.
    pub converged: f64,
    pub requests: u64,
    /// Requests per day actually made.
    pub bandwidth: f64,
    /// Requests less than P after the previous one to the same server.
    pub violations: u64,
    pub estimator: Estimator,
    /// `converged` (the last quarter of the horizon) over the POLITE bound at the same
    /// capacity: the thesis compares at the end of six years.
    pub ratio_to_polite: Option<f64>,
    /// The thesis's figure for the same policy and capacity, if it has one.
    pub published_ratio: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapacityResult {
    /// C as a share of the maximum #servers / P.
    pub share: f64,
    /// C in requests per day.
    pub capacity: f64,
    pub allocation: AllocationReport,
    /// The POLITE bound: best freshness with the per-server caps.
    pub polite_bound: f64,
    /// The UNPOLITE bound: best freshness without them.
    pub unpolite_bound: f64,
    pub curves: Vec<PolicyCurve>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrawlerResult {
    pub curve: PolicyCurve,
    /// The POLITE bound at the bandwidth the crawler used.
    pub polite_bound_same_bandwidth: Option<f64>,
    /// MERGE with OPT_POLITE at that bandwidth.
    pub merge_same_bandwidth: Option<PolicyCurve>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoliciesOutput {
    pub config: PoliciesConfig,
    pub repository: RepositorySummary,
    pub estimate: Estimate,
    /// The maximum total frequency #servers / P, per day.
    pub max_rate: f64,
    pub bin_days: f64,
    pub capacities: Vec<CapacityResult>,
    pub crawlers: Vec<CrawlerResult>,
    pub done: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Run {
    Allocated { capacity: usize, policy: PolicyKind },
    Crawler { index: usize, policy: PolicyKind },
    SameBandwidth { crawler: usize },
}

/// The state of the run in progress.
struct Running {
    run: Run,
    f: Vec<f64>,
    schedules: Vec<ServerSchedule>,
    streams: Vec<Stream>,
    checks: Vec<PolitenessCheck>,
    account: Account,
    time: f64,
    requests: u64,
    /// Slices run so far. Slice boundaries depend only on the configuration, never on
    /// the caller's budget, so the order of additions — and the result, to the last
    /// bit — is the same however the run is advanced.
    slices: u64,
    slice: f64,
    /// Requests expected per slice (for matching budgets).
    per_slice: f64,
}

struct RepoVisitor<'a> {
    account: &'a mut Account,
    repo: &'a Repository,
}

impl Visitor for RepoVisitor<'_> {
    #[inline]
    fn visit(&mut self, page: usize, time: f64, rng: &mut Stream) -> Option<Fetch> {
        self.account.visit(page, time, self.repo.lambda[page], self.repo.weight(page), rng)
    }
}

pub struct PoliciesJob {
    config: PoliciesConfig,
    repo: Repository,
    output: PoliciesOutput,
    runs: Vec<Run>,
    next: usize,
    running: Option<Running>,
    work_done: f64,
    partial: RefCell<Option<(f64, PoliciesOutput)>>,
    /// The allocation of the capacity being run (one kept at a time).
    allocation: Option<(usize, Vec<f64>)>,
}

fn stream_id(kind: u64, index: usize, server: usize) -> u64 {
    (kind << 56) ^ ((index as u64) << 32) ^ server as u64
}

impl PoliciesJob {
    pub fn new(config: PoliciesConfig) -> Result<Self, InputError> {
        config.validate()?;
        let repo = generate(&config.repository, config.seed);
        let mut runs = Vec::new();
        for capacity in 0..config.capacities.len() {
            for &policy in &config.policies {
                runs.push(Run::Allocated { capacity, policy });
            }
        }
        for (index, &policy) in config.crawlers.iter().enumerate() {
            runs.push(Run::Crawler { index, policy });
        }
        let output = PoliciesOutput {
            repository: summarise(&repo),
            estimate: config.estimate(),
            max_rate: config.max_rate(),
            bin_days: config.horizon_days / config.bins as f64,
            capacities: Vec::new(),
            crawlers: Vec::new(),
            done: false,
            config: config.clone(),
        };
        Ok(PoliciesJob { config, repo, output, runs, next: 0, running: None, work_done: 0.0, partial: RefCell::new(None), allocation: None })
    }

    fn capacity_result(&mut self, k: usize) -> &mut CapacityResult {
        while self.output.capacities.len() <= k {
            let j = self.output.capacities.len();
            let share = self.config.capacities[j];
            let capacity = share * self.config.max_rate();
            let p = self.config.politeness_days();
            let chosen = allocate(&self.repo, self.config.allocation, capacity, p);
            let bound_of = |kind: AllocationKind| {
                if kind == chosen.report.kind { chosen.report.bound } else { allocate(&self.repo, kind, capacity, p).report.bound }
            };
            let (polite_bound, unpolite_bound) = (bound_of(AllocationKind::OptPolite), bound_of(AllocationKind::OptUnpolite));
            self.output.capacities.push(CapacityResult { share, capacity, allocation: chosen.report, polite_bound, unpolite_bound, curves: Vec::new() });
            self.allocation = Some((j, chosen.f));
        }
        &mut self.output.capacities[k]
    }

    fn start(&mut self, run: Run) -> Running {
        let p = self.config.politeness_days();
        let (f, policy, kind, index) = match run {
            Run::Allocated { capacity, policy } => {
                let c = self.capacity_result(capacity).capacity;
                // the run borrows the capacity's allocation and hands it back when done
                let f = match self.allocation.take() {
                    Some((k, f)) if k == capacity => f,
                    _ => allocate(&self.repo, self.config.allocation, c, p).f,
                };
                (f, policy, 1, capacity)
            }
            Run::Crawler { index, policy } => (Vec::new(), policy, 2, index),
            Run::SameBandwidth { crawler } => {
                let c = self.output.crawlers[crawler].curve.bandwidth;
                (allocate(&self.repo, AllocationKind::OptPolite, c, p).f, PolicyKind::Merge, 3, crawler)
            }
        };
        let estimator = if policy.is_adaptive() { Estimator::Exact } else { self.config.estimator };
        let servers = self.repo.servers();
        let mut streams: Vec<Stream> = (0..servers).map(|s| Stream::new(self.config.seed, stream_id(kind, index, s))).collect();
        let schedules = (0..servers).map(|s| ServerSchedule::new(policy, &f, self.repo.server_pages(s), p, &mut streams[s])).collect();
        // crawlers' rates are not known in advance: their upper bound sets the slices
        let rate = if f.is_empty() { self.config.max_rate() } else { f.iter().sum() };
        let horizon = self.config.horizon_days;
        let count = (rate * horizon / SLICE_REQUESTS).ceil().clamp(1.0, 1e7);
        let repo = &self.repo;
        let account = Account::new(estimator, &repo.lambda, |i| repo.weight(i), horizon, self.config.bins as usize);
        self.work_done += repo.pages() as f64;
        Running {
            run,
            f,
            schedules,
            streams,
            checks: vec![PolitenessCheck::new(p); servers],
            account,
            time: 0.0,
            requests: 0,
            slices: 0,
            slice: horizon / count,
            per_slice: rate * horizon / count,
        }
    }

    /// Runs whole slices of the current run, about `budget` requests' worth (at least one).
    fn step(&mut self, budget: u64) {
        let horizon = self.config.horizon_days;
        let Some(running) = self.running.as_mut() else {
            return;
        };
        let slices = ((budget as f64 / running.per_slice).floor() as u64).max(1);
        let mut made = 0;
        for _ in 0..slices {
            running.slices += 1;
            let until = (running.slices as f64 * running.slice).min(horizon);
            let until = if running.slice * running.slices as f64 >= horizon * (1.0 - 1e-12) { horizon } else { until };
            for s in 0..self.repo.servers() {
                let mut visitor = RepoVisitor { account: &mut running.account, repo: &self.repo };
                made += running.schedules[s].advance(until, &running.f, &mut visitor, &mut running.checks[s], &mut running.streams[s]);
            }
            running.time = until;
            if until >= horizon {
                break;
            }
        }
        running.requests += made;
        self.work_done += made as f64;
    }

    fn curve(&self, running: &Running, until: f64, complete: bool) -> PolicyCurve {
        let repo = &self.repo;
        let bins = running.account.closed_bins(until, &repo.lambda, |i| repo.weight(i));
        let width = bins.width();
        let total_weight = repo.total_weight();
        let filled = if complete { bins.len() } else { ((until / width).floor() as usize).min(bins.len()) };
        let freshness: Vec<f64> = bins.totals().into_iter().take(filled).map(|t| t / (width * total_weight)).collect();
        let quarter = (freshness.len() / 4).max(1);
        let converged = if freshness.is_empty() { 0.0 } else { freshness[freshness.len() - quarter..].iter().sum::<f64>() / quarter as f64 };
        let policy = match running.run {
            Run::Allocated { policy, .. } | Run::Crawler { policy, .. } => policy,
            Run::SameBandwidth { .. } => PolicyKind::Merge,
        };
        let (ratio, published) = match running.run {
            Run::Allocated { capacity, policy } => {
                let c = &self.output.capacities[capacity];
                ((!freshness.is_empty()).then(|| converged / c.polite_bound), published_ratio(policy, c.share))
            }
            _ => (None, None),
        };
        PolicyCurve {
            policy,
            mean: if freshness.is_empty() { 0.0 } else { freshness.iter().sum::<f64>() / freshness.len() as f64 },
            end: freshness.last().copied().unwrap_or(0.0),
            converged,
            freshness,
            complete,
            requests: running.requests,
            bandwidth: if until > 0.0 { running.requests as f64 / until } else { 0.0 },
            violations: running.checks.iter().map(|c| c.violations).sum(),
            estimator: running.account.estimator(),
            ratio_to_polite: ratio,
            published_ratio: published,
        }
    }

    fn finish_run(&mut self) {
        let running = self.running.take().expect("a run in progress");
        let curve = self.curve(&running, self.config.horizon_days, true);
        match running.run {
            Run::Allocated { capacity, .. } => {
                self.output.capacities[capacity].curves.push(curve);
                self.allocation = Some((capacity, running.f));
            }
            Run::Crawler { .. } => {
                let bound = (curve.bandwidth > 0.0)
                    .then(|| allocate(&self.repo, AllocationKind::OptPolite, curve.bandwidth.min(self.config.max_rate()), self.config.politeness_days()).report.bound);
                let index = self.output.crawlers.len();
                let merge = curve.bandwidth > 0.0 && curve.bandwidth <= self.config.max_rate();
                self.output.crawlers.push(CrawlerResult { curve, polite_bound_same_bandwidth: bound, merge_same_bandwidth: None });
                if merge {
                    self.runs.push(Run::SameBandwidth { crawler: index });
                }
            }
            Run::SameBandwidth { crawler } => self.output.crawlers[crawler].merge_same_bandwidth = Some(curve),
        }
    }

    pub fn advance(&mut self, budget: u64) -> f64 {
        let mut left = budget as f64;
        while left > 0.0 && !self.done() {
            if self.running.is_none() {
                let run = self.runs[self.next];
                self.next += 1;
                self.running = Some(self.start(run));
                left -= self.repo.pages() as f64;
                continue;
            }
            let before = self.work_done;
            self.step(left.max(1.0) as u64);
            left -= (self.work_done - before).max(1.0);
            if self.running.as_ref().is_some_and(|r| r.time >= self.config.horizon_days) {
                self.finish_run();
            }
        }
        if self.done() {
            self.output.done = true;
        }
        self.progress()
    }

    fn progress(&self) -> f64 {
        if self.done() {
            return 1.0;
        }
        let estimate = self.output.estimate.requests + (self.runs.len() as f64) * self.repo.pages() as f64;
        (self.work_done / estimate).clamp(0.0, 0.999)
    }

    pub fn done(&self) -> bool {
        self.running.is_none() && self.next >= self.runs.len()
    }

    /// The results so far, with the run in progress as an incomplete curve.
    /// (Recomputed at most every 2 % of a run's horizon: it costs one pass over the pages.)
    pub fn partial(&self) -> PoliciesOutput {
        let Some(running) = self.running.as_ref() else {
            return self.output.clone();
        };
        let mut cache = self.partial.borrow_mut();
        if let Some((time, out)) = cache.as_ref() {
            if running.time - time < 0.02 * self.config.horizon_days && running.time >= *time && out.capacities.len() == self.output.capacities.len() {
                return out.clone();
            }
        }
        let mut out = self.output.clone();
        let curve = self.curve(running, running.time, false);
        match running.run {
            Run::Allocated { capacity, .. } => out.capacities[capacity].curves.push(curve),
            Run::Crawler { .. } => out.crawlers.push(CrawlerResult { curve, polite_bound_same_bandwidth: None, merge_same_bandwidth: None }),
            Run::SameBandwidth { crawler } => out.crawlers[crawler].merge_same_bandwidth = Some(curve),
        }
        *cache = Some((running.time, out.clone()));
        out
    }

    pub fn finish(mut self) -> PoliciesOutput {
        while !self.done() {
            self.advance(u64::MAX / 4);
        }
        self.output.done = true;
        self.output
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn small() -> PoliciesConfig {
        PoliciesConfig {
            repository: RepositoryConfig { pages: 1500, servers: 30, largest_server_share: 0.1, ..Default::default() },
            politeness_seconds: 3600.0,
            horizon_days: 240.0,
            bins: 40,
            ..Default::default()
        }
    }

    fn run(config: PoliciesConfig) -> PoliciesOutput {
        PoliciesJob::new(config).unwrap().finish()
    }

    #[test]
    fn politeness_holds_on_every_request_except_for_unpolite() {
        let out = run(small());
        for c in &out.capacities {
            for k in &c.curves {
                match k.policy {
                    PolicyKind::Unpolite => assert!(k.violations > 0 || c.share < 0.05, "UNPOLITE at {} should collide", c.share),
                    _ => assert_eq!(k.violations, 0, "{:?} at {}", k.policy, c.share),
                }
                assert!(k.requests > 0);
            }
        }
        for c in &out.crawlers {
            assert_eq!(c.curve.violations, 0, "{:?}", c.curve.policy);
        }
    }

    #[test]
    fn bandwidth_matches_the_allocation() {
        let out = run(small());
        for c in &out.capacities {
            for k in &c.curves {
                assert!((k.bandwidth / c.allocation.total - 1.0).abs() < 0.02, "{:?}: {} vs {}", k.policy, k.bandwidth, c.allocation.total);
            }
        }
    }

    /// Per-page equally spaced revisits reach A* for every page: once every page has
    /// been visited, UNPOLITE's expected freshness is the bound of its allocation.
    #[test]
    fn unpolite_reaches_the_bound_and_merge_and_delayed_stay_close() {
        let out = run(PoliciesConfig {
            policies: vec![PolicyKind::Unpolite, PolicyKind::Merge, PolicyKind::Delayed, PolicyKind::Random],
            crawlers: vec![],
            horizon_days: 600.0,
            ..small()
        });
        for c in &out.capacities {
            let get = |p: PolicyKind| c.curves.iter().find(|k| k.policy == p).unwrap().converged;
            assert!((get(PolicyKind::Unpolite) / c.polite_bound - 1.0).abs() < 0.01, "{}: {} vs {}", c.share, get(PolicyKind::Unpolite), c.polite_bound);
            assert!(get(PolicyKind::Merge) <= c.polite_bound * 1.01);
            assert!(get(PolicyKind::Merge) >= 0.927 * c.polite_bound, "Conjecture 5.9 on the repository (Prop 5.1)");
            assert!(get(PolicyKind::Random) >= 0.77 * c.polite_bound, "Cor 5.5 on the repository (Prop 5.1)");
            assert!(get(PolicyKind::Random) < get(PolicyKind::Merge));
            assert!(c.unpolite_bound >= c.polite_bound - 1e-12);
        }
    }

    #[test]
    fn the_two_estimators_agree_within_the_noise() {
        let base = PoliciesConfig { policies: vec![PolicyKind::Merge, PolicyKind::Random], crawlers: vec![], capacities: vec![0.1], ..small() };
        let expected = run(base.clone());
        let exact = run(PoliciesConfig { estimator: Estimator::Exact, ..base });
        for (a, b) in expected.capacities[0].curves.iter().zip(&exact.capacities[0].curves) {
            // 1,500 pages: the exact estimator's time average has a standard error well
            // under 0.01 here
            assert!((a.mean - b.mean).abs() < 0.015, "{:?}: {} vs {}", a.policy, a.mean, b.mean);
            assert_eq!(b.estimator, Estimator::Exact);
        }
    }

    #[test]
    fn partial_results_grow_and_the_run_is_reproducible() {
        // 0.9 × 720 requests/day over 600 days: four slices of about 100,000 requests
        let config = PoliciesConfig { capacities: vec![0.9], crawlers: vec![PolicyKind::Nutch], horizon_days: 600.0, ..small() };
        let mut job = PoliciesJob::new(config.clone()).unwrap();
        job.advance(5_000);
        let first = job.partial();
        assert!(!first.done);
        let running = first.capacities[0].curves.last().unwrap();
        assert!(!running.complete && running.freshness.len() < 40, "{} bins", running.freshness.len());
        // odd budgets must not change a single bit of the result
        let mut budget = 7_777;
        while !job.done() {
            job.advance(budget);
            budget = budget * 3 % 250_001 + 1;
        }
        let out = job.finish();
        assert!(out.done);
        assert_eq!(out.crawlers.len(), 1);
        assert!(out.crawlers[0].merge_same_bandwidth.is_some());
        assert!(out.crawlers[0].polite_bound_same_bandwidth.is_some());
        assert_eq!(run(config), out, "same seed, same result");
    }

    #[test]
    fn published_ratios_are_attached_where_the_thesis_has_them() {
        assert_eq!(published_ratio(PolicyKind::Merge, 0.1), Some(0.975));
        assert_eq!(published_ratio(PolicyKind::Random, 0.9), Some(0.886));
        assert_eq!(published_ratio(PolicyKind::Delayed, 0.1), None);
        assert_eq!(published_ratio(PolicyKind::Merge, 0.5), None);
    }

    #[test]
    fn what_would_not_fit_is_refused_with_the_estimate() {
        let big = PoliciesConfig { repository: RepositoryConfig { pages: 90_000_000, servers: 5462, ..Default::default() }, ..Default::default() };
        let estimate = big.estimate();
        assert!(estimate.bytes_per_page <= 57);
        if cfg!(target_arch = "wasm32") {
            let e = PoliciesJob::new(big).err().unwrap();
            assert_eq!(e.field, "repository.pages");
            assert!(e.message.contains("MB") && e.message.contains("browser tab"), "{}", e.message);
        }
        let webbase = PoliciesConfig::webbase();
        assert!(webbase.estimate().bytes < MEMORY_LIMIT || cfg!(target_arch = "wasm32"));
        let allocated_only = PoliciesConfig { crawlers: vec![], ..PoliciesConfig::webbase() };
        assert_eq!(allocated_only.estimate().bytes_per_page, 40, "the issue's budget: at most 48 bytes per page");
        let exact = PoliciesConfig { crawlers: vec![], estimator: Estimator::Exact, ..PoliciesConfig::webbase() };
        assert_eq!(exact.estimate().bytes_per_page, 48);
        let e = PoliciesJob::new(PoliciesConfig { horizon_days: 36_000.0, politeness_seconds: 0.001, ..Default::default() }).err().unwrap();
        assert_eq!(e.field, "horizon_days");
        assert!(e.message.contains("requests"));
    }

    #[test]
    fn bad_lists_are_refused() {
        let bad = |c: PoliciesConfig| PoliciesJob::new(c).err().unwrap().field;
        assert_eq!(bad(PoliciesConfig { policies: vec![PolicyKind::Nutch], ..small() }), "policies");
        assert_eq!(bad(PoliciesConfig { crawlers: vec![PolicyKind::Merge], ..small() }), "crawlers");
        assert_eq!(bad(PoliciesConfig { policies: vec![PolicyKind::Merge, PolicyKind::Merge], ..small() }), "policies");
        assert_eq!(bad(PoliciesConfig { capacities: vec![1.5], ..small() }), "capacities[0]");
        assert_eq!(bad(PoliciesConfig { capacities: vec![], ..small() }), "capacities");
        assert_eq!(bad(PoliciesConfig { policies: vec![], crawlers: vec![], ..small() }), "policies");
        assert_eq!(bad(PoliciesConfig { politeness_seconds: -1.0, ..small() }), "politeness_seconds");
    }
}
