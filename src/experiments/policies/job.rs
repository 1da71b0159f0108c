//! The policies experiment's job: each policy at each capacity, then each deployed
//! crawler and MERGE at the crawler's bandwidth, every server advancing through fixed
//! time slices.

use super::config::PoliciesConfig;
use super::microscope::microscope;
use super::output::{CapacityResult, CrawlerResult, CurvePart, FreshnessScale, PoliciesOutput, PolicyCurve, RunTally, SampleSummary};
use super::sample::{Auxiliary, ServerSample};
use crate::core::alloc::{Allocation, AllocationKind, Saturations, allocate, allocate_sharing, capped, given};
use crate::core::input::InputError;
use crate::core::limits;
use crate::core::model::rate_bins::RateBins;
use crate::core::model::repository::Repository;
use crate::core::model::source::RepositorySource;
use crate::core::parallel::{self, balanced_ranges};
use crate::core::policy::server::ServerSchedule;
use crate::core::policy::{PolicyKind, PolitenessCheck};
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::bins::TimeBins;
use crate::core::sim::freshness::{Account, Estimator, Fetch, Freshness};
use crate::core::sim::redrawn::{self, REDRAWS, RedrawnRates};
use crate::core::sim::request_cost::request_ns_at_decade;
use crate::experiments::Plan;
use std::cell::RefCell;

/// Requests per slice of a run (the granularity of progress and cancellation): at
/// least 100,000, and about 1,500 per server, so that each server, advanced through a
/// slice at a time, keeps its heap and pages in the cache for many requests (at the
/// WEBBASE scale a request costs 46 ns on 2 threads, against 162 ns with slices of
/// 100,000: BENCHMARKS.md). Fixed by the configuration: the result never depends on the caller.
fn slice_requests(servers: usize) -> f64 {
    (1_500.0 * servers as f64).max(1e5)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Run {
    Allocated {
        capacity: usize,
        policy: PolicyKind,
    },
    Crawler {
        index: usize,
        policy: PolicyKind,
    },
    /// MERGE at the bandwidth crawler `crawler` (its place in the output) used; `index`:
    /// the crawler's place in the configuration, which names the run's streams.
    SameBandwidth {
        crawler: usize,
        index: usize,
    },
}

/// The ends of the next whole slices after the first `done` (each `slice` days long,
/// the last at the horizon) that about `budget` requests take, at least one.
fn slice_ends(done: u64, slice: f64, slice_requests: f64, horizon: f64, budget: f64) -> Vec<f64> {
    let total = (horizon / slice).round() as u64;
    let wanted = (budget / slice_requests).floor().clamp(1.0, 1e6) as u64;
    (done + 1..=(done + wanted).min(total.max(done + 1))).map(|k| if slice * k as f64 >= horizon * (1.0 - 1e-12) { horizon } else { (k as f64 * slice).min(horizon) }).collect()
}

/// Shards of servers a run is split into (fewer when there are fewer servers): fixed,
/// so the result does not depend on how many threads, workers or machines compute them.
pub const SHARDS: usize = 64;

/// What a server costs a run, in ns: its requests (Σ f over its pages, for the horizon)
/// at the measured cost of a request on a server of its size, and 100 ns a page (its
/// schedule and account). Crawlers' rates are not known in advance: their pages alone.
/// The shards cut by it take about equal time (at the WEBBASE scale, a cut by pages gave
/// the shard of the smallest servers 45 % of the requests).
fn server_cost(pages: std::ops::Range<usize>, f: &[f64], horizon: f64) -> f64 {
    let size = pages.len();
    let requests = if f.is_empty() { 0.0 } else { f[pages].iter().sum::<f64>() * horizon };
    requests * request_ns_at_decade(size) + 100.0 * size as f64
}

/// The state of the run in progress.
pub struct Running {
    run: Run,
    /// The allocation over the whole repository (handed back to the job when done), and
    /// the sample's share of it when the servers are sampled.
    f: Vec<f64>,
    sampled_f: Option<Vec<f64>>,
    shards: Vec<Shard>,
    time: f64,
    requests: u64,
    /// Slices run so far. Slice boundaries depend only on the configuration, never on
    /// the caller's budget, so the order of additions — and the result, to the last
    /// bit — is the same however the run is advanced.
    slices: u64,
    slice: f64,
    /// Requests a slice is sized for (`slice_requests`).
    slice_requests: f64,
    /// How the freshness is estimated (the exact one for adaptive crawlers).
    estimator: Estimator,
    /// A sampled run's auxiliary for its ratio estimator.
    auxiliary: Option<Auxiliary>,
    /// A crawler that reacts to what its fetches show, on estimated rates: its runs
    /// again on each redraw of the rates, once its own is done.
    reruns: Option<Reruns>,
}

impl Running {
    /// The share of the run done: its own simulated time, then its reruns'.
    fn done_share(&self, horizon: f64) -> f64 {
        let own = self.time / horizon;
        match &self.reruns {
            Some(r) => (own + r.k as f64 + r.time / horizon) / (1 + REDRAWS) as f64,
            None => own,
        }
    }
}

/// An adaptive crawler run again on each redraw of estimated rates (as `crawlers` does):
/// the changes it sees, and so its schedule, follow the redrawn rates, where counting its
/// one schedule under them (as for a schedule that does not react) would keep the
/// schedule the estimates made. One rerun at a time, on the crawler's streams and cut.
struct Reruns {
    /// The redraw being run ([`REDRAWS`]: all done) and its rates.
    k: usize,
    lambda: Vec<f64>,
    shards: Vec<Shard>,
    slices: u64,
    time: f64,
    /// Each shard's (by id) fresh time on each rerun so far, for the spread.
    fresh: Vec<(u64, [f64; REDRAWS])>,
}

/// A contiguous range of servers: their schedules, streams and politeness checks,
/// and the freshness of their pages: advanced on its own (on any thread), combined with
/// the others in shard order.
struct Shard {
    /// Its place in the run's cut (a part of a run split by servers has some of them).
    id: usize,
    /// Where the freshness is counted: one account for the whole shard, or one per
    /// server (a sample needs each server's own), each with its first page.
    accounts: Vec<(usize, Account)>,
    schedules: Vec<ServerSchedule>,
    streams: Vec<Stream>,
    checks: Vec<PolitenessCheck>,
    requests: u64,
}

impl Shard {
    /// Runs every server of the shard through the slices ending at `ends`, slice by slice.
    /// `lambda`: the pages' change rates (the repository's, or a redraw's).
    fn advance(&mut self, ends: &[f64], f: &[f64], repo: &Repository, lambda: &[f64]) {
        for &until in ends {
            for k in 0..self.schedules.len() {
                let own = if self.accounts.len() > 1 { k } else { 0 };
                let (first_page, account) = &mut self.accounts[own];
                let mut visitor = RepoVisitor { account, repo, lambda, first_page: *first_page };
                self.requests += self.schedules[k].advance(until, f, &mut visitor, &mut self.checks[k], &mut self.streams[k]);
            }
        }
    }
}

struct RepoVisitor<'a> {
    account: &'a mut Account,
    repo: &'a Repository,
    lambda: &'a [f64],
    first_page: usize,
}

impl Freshness for RepoVisitor<'_> {
    #[inline]
    fn visit(&mut self, page: usize, time: f64, rng: &mut Stream) -> Option<Fetch> {
        self.account.visit(page - self.first_page, time, self.lambda[page], self.repo.weight(page), rng)
    }
}

pub struct PoliciesJob {
    config: PoliciesConfig,
    repo: Repository,
    /// A page list's own frequencies (allocation `given`).
    given: Option<Vec<f64>>,
    output: PoliciesOutput,
    runs: Vec<Run>,
    next: usize,
    partial: RefCell<Option<(f64, PoliciesOutput)>>,
    /// The allocation of the capacity being run (one kept at a time).
    allocation: Option<(usize, Vec<f64>)>,
    /// The servers simulated when `sample_servers` is set (all of them otherwise).
    sample: Option<ServerSample>,
    /// How the accounts' bins become freshness.
    scale: FreshnessScale,
    /// OPT_POLITE's saturation multipliers, shared by its allocations at every capacity.
    saturations: Saturations,
    /// Each run's weight in the progress, in the order they run (MERGE at each crawler's
    /// bandwidth last; a weight whose run is never added is passed over when all end).
    weights: Vec<f64>,
    /// The whole run's weights, this part's or not.
    weight_total: f64,
    /// With estimated rates (a history's page list; not for a sample of the servers):
    /// each page's rates redrawn within its interval, for each run's spread.
    redrawn: Option<RedrawnRates>,
}

impl PoliciesJob {
    /// Reads the repository of a valid configuration and plans its runs; a page list's
    /// real size is checked against the limits once it is read.
    pub fn new(mut config: PoliciesConfig) -> Result<Self, InputError> {
        let estimate_config = config.clone();
        let (repo, list, summary) = config.pages().load()?;
        config.page_list = None;
        config.page_rows = None;
        // the real repository's cost: its servers' sizes, as read
        let mut sizes: Vec<f64> = (0..repo.servers()).map(|s| repo.server_pages(s).len() as f64).collect();
        sizes.sort_by(|a, b| b.total_cmp(a));
        let rates = RateBins::of(repo.lambda.iter().copied());
        estimate_config.cost_with(repo.pages() as u64, repo.servers() as u64, Some(&sizes), &rates).check(&limits::here())?;
        if let Some(s) = config.microscope_server.filter(|&s| s >= repo.servers() as u64) {
            return Err(InputError::new("microscope_server", format!("must be below the number of servers, {} (got {s}); servers are numbered from 0", repo.servers())));
        }
        let p = config.politeness_days();
        let given = match (list.as_ref().and_then(|l| l.frequency.clone()), config.allocation) {
            (Some(f), AllocationKind::Given) => {
                let cap = 1.0 / p;
                for s in 0..repo.servers() {
                    let fs: f64 = f[repo.server_pages(s)].iter().sum();
                    if fs > cap * (1.0 + 1e-9) {
                        let name = &list.as_ref().expect("a list").server_names[s];
                        return Err(InputError::new(
                            "page_list",
                            format!(
                                "gives server “{name}” {} revisits a day in all, over the {} that P = {} s allows; lower its pages' frequencies or P",
                                fs, cap, config.politeness_seconds.0
                            ),
                        ));
                    }
                }
                config.capacities = vec![f.iter().sum::<f64>() / (repo.servers() as f64 / p)];
                Some(f)
            }
            (Some(_), _) => {
                return Err(InputError::new("allocation", "the page list gives each page's frequency: choose allocation given, or drop the frequency column to allocate"));
            }
            (None, AllocationKind::Given) => return Err(InputError::new("allocation", "given needs a frequency column in the page list; choose another allocation")),
            (None, _) => None,
        };
        let servers = repo.servers() as u64;
        let mut runs = Vec::new();
        for capacity in 0..config.capacities.len() {
            for &policy in &config.policies {
                runs.push(Run::Allocated { capacity, policy });
            }
        }
        for (index, &policy) in config.crawlers.iter().enumerate() {
            runs.push(Run::Crawler { index, policy });
        }
        let estimate = estimate_config.estimate_with(repo.pages() as u64, servers, Some(&sizes), &rates);
        // each run's weight in the progress: its estimated requests and its setup's pass; a
        // part of the runs reports its share of the whole run's progress (the pool adds them)
        let mut weights: Vec<f64> = estimate.runs.iter().map(|r| r + repo.pages() as f64).collect();
        let weight_total = weights.iter().sum();
        let merges = weights.split_off(runs.len());
        // a part of a split run does only its own runs (the same streams as in the whole)
        if let Some(only) = &config.only_runs {
            let kept = |k: usize| only.contains(&(k as u64));
            runs = runs.into_iter().enumerate().filter(|&(k, _)| kept(k)).map(|(_, r)| r).collect();
            weights = weights.into_iter().enumerate().filter(|&(k, _)| kept(k)).map(|(_, w)| w).collect();
        }
        // MERGE at a crawler's bandwidth runs after every crawler of the part
        weights.extend(runs.iter().filter_map(|r| if let Run::Crawler { index, .. } = r { Some(merges[*index]) } else { None }));
        let output = PoliciesOutput {
            repository: summary,
            estimate,
            max_rate: config.max_rate_for(servers),
            page_names: list.as_ref().map(|l| l.names.clone()).unwrap_or_default(),
            server_names: list.as_ref().map(|l| l.server_names.clone()).unwrap_or_default(),
            bin_days: config.horizon_days.0 / config.bins as f64,
            capacities: Vec::new(),
            crawlers: Vec::new(),
            done: false,
            sample: None,
            part: None,
            config: config.clone(),
        };
        let sample = config.sample_servers.map(|n| ServerSample::draw(&repo, n as usize, config.seed));
        let redrawn = list.as_ref().and_then(|l| l.rate_bounds.as_ref()).filter(|_| sample.is_none()).map(|bounds| RedrawnRates::of(config.seed, bounds));
        let mut output = output;
        output.sample = sample.as_ref().map(|s| SampleSummary::of(s, &repo));
        let scale = FreshnessScale { total_weight: repo.total_weight(), sample: sample.as_ref().map(|s| s.design.clone()) };
        output.part = config.server_part.map(|_| scale.clone());
        Ok(PoliciesJob {
            config,
            repo,
            given,
            output,
            runs,
            next: 0,
            partial: RefCell::new(None),
            allocation: None,
            sample,
            scale,
            saturations: Saturations::default(),
            weights,
            weight_total,
            redrawn,
        })
    }

    fn capacity_result(&mut self, k: usize) -> &mut CapacityResult {
        while self.output.capacities.len() <= k {
            // the last capacity's allocation is not needed again: free it before the next
            self.allocation = None;
            let j = self.output.capacities.len();
            let share = self.config.capacities[j];
            let capacity = share * self.max_rate();
            let p = self.config.politeness_days();
            let chosen = self.allocation_at(capacity);
            let polite =
                if chosen.report.kind == AllocationKind::OptPolite { None } else { Some(allocate_sharing(&self.repo, AllocationKind::OptPolite, capacity, p, &self.saturations)) };
            let polite = polite.as_ref().unwrap_or(&chosen);
            let (polite_bound, capped) = (polite.report.bound, capped(&self.repo, &polite.f, p));
            let unpolite_bound = allocate(&self.repo, AllocationKind::OptUnpolite, capacity, p).report.bound;
            let largest = || (0..self.repo.servers()).max_by_key(|&s| (self.repo.server_pages(s).len(), std::cmp::Reverse(s))).unwrap_or(0);
            let server = self.config.microscope_server.map(|s| s as usize).or(capped.largest).unwrap_or_else(largest);
            let microscope = microscope(&self.repo, server, &chosen.f, p, self.config.seed);
            self.output.capacities.push(CapacityResult { share, capacity, allocation: chosen.report, polite_bound, unpolite_bound, capped, microscope, curves: Vec::new() });
            self.allocation = Some((j, chosen.f));
        }
        &mut self.output.capacities[k]
    }

    fn max_rate(&self) -> f64 {
        self.output.max_rate
    }

    /// The repository the runs simulate: the sample's servers, or all of them.
    fn simulated(&self) -> &Repository {
        self.sample.as_ref().map_or(&self.repo, |s| &s.repo)
    }

    /// The configured allocation at `capacity` (a page list's own frequencies if given).
    fn allocation_at(&self, capacity: f64) -> Allocation {
        match &self.given {
            Some(f) => given(&self.repo, f.clone(), self.config.politeness_days()),
            None => allocate_sharing(&self.repo, self.config.allocation, capacity, self.config.politeness_days(), &self.saturations),
        }
    }

    fn start(&mut self, run: Run) -> Running {
        let p = self.config.politeness_days();
        let (f, policy, kind, index) = match run {
            Run::Allocated { capacity, policy } => {
                let c = self.capacity_result(capacity).capacity;
                // the run borrows the capacity's allocation and hands it back when done
                let f = match self.allocation.take() {
                    Some((k, f)) if k == capacity => f,
                    _ => self.allocation_at(c).f,
                };
                (f, policy, 1u8, capacity)
            }
            Run::Crawler { index, policy } => {
                // the crawlers come after every allocated run: the last allocation is done with
                self.allocation = None;
                (Vec::new(), policy, 2, index)
            }
            Run::SameBandwidth { crawler, index } => {
                let c = self.output.crawlers[crawler].curve.bandwidth;
                (allocate_sharing(&self.repo, AllocationKind::OptPolite, c, p, &self.saturations).f, PolicyKind::Merge, 3, index)
            }
        };
        let estimator = if policy.is_adaptive() { Estimator::Exact } else { self.config.estimator };
        let purpose = Purpose::ServerSchedule { run: kind, series: index as u32 };
        let repo = self.simulated();
        // a sampled server keeps its streams of the whole run; the sample's groups are its shards
        let sampled_f = self.sample.as_ref().filter(|_| !f.is_empty()).map(|s| s.pages.iter().map(|&i| f[i]).collect::<Vec<f64>>());
        let sim_f = sampled_f.as_ref().unwrap_or(&f);
        let auxiliary = match (&self.sample, run) {
            (Some(sample), Run::Allocated { .. }) => Some(Auxiliary::of(policy, &sample.repo, sim_f, &self.repo, &f)),
            _ => None,
        };
        let reruns = (self.redrawn.is_some() && matches!(run, Run::Crawler { .. }) && policy.reacts_to_fetches()).then(|| Reruns {
            k: 0,
            lambda: Vec::new(),
            shards: Vec::new(),
            slices: 0,
            time: 0.0,
            fresh: Vec::new(),
        });
        let shards = self.shards(policy, purpose, sim_f, estimator, &repo.lambda, reruns.is_none());
        // crawlers' rates are not known in advance: their upper bound sets the slices
        let horizon = self.config.horizon_days.0;
        let rate = if f.is_empty() { self.max_rate() } else { sim_f.iter().sum() };
        let per_slice = slice_requests(repo.servers());
        let count = (rate * horizon / per_slice).ceil().clamp(1.0, 1e7);
        Running { run, f, sampled_f, shards, time: 0.0, requests: 0, slices: 0, slice: horizon / count, slice_requests: per_slice, estimator, auxiliary, reruns }
    }

    /// A run's shards (this part's of its cut): each its servers' schedules on
    /// `purpose`'s streams and its accounts, the pages changing at `lambda` (the
    /// repository's rates, or a redraw's), the visits also counted under the redrawn
    /// rates when `count_redrawn`.
    fn shards(&self, policy: PolicyKind, purpose: Purpose, sim_f: &[f64], estimator: Estimator, lambda: &[f64], count_redrawn: bool) -> Vec<Shard> {
        let repo = self.simulated();
        let (horizon, p) = (self.config.horizon_days.0, self.config.politeness_days());
        let ids: Vec<usize> = match &self.sample {
            Some(sample) => sample.servers.clone(),
            None => (0..repo.servers()).collect(),
        };
        let account = |pages: std::ops::Range<usize>| {
            let redrawn = self.redrawn.as_ref().filter(|_| count_redrawn).map(|r| r.account(pages.start, pages.len()));
            (pages.start, Account::new(estimator, &lambda[pages.clone()], |i| repo.weight(pages.start + i), horizon, self.config.bins as usize).with_redrawn(redrawn))
        };
        // a sample counts each server on its own account, so its cut cannot change a bit:
        // one server a shard, which the threads share out evenly whatever the servers' costs
        // (a few heavy servers, whose requests cost most); the whole repository's cut, by
        // cost, depends on the configuration alone
        let cut = if self.sample.is_some() {
            (0..repo.servers()).map(|s| s..s + 1).collect()
        } else {
            let costs: Vec<f64> = (0..repo.servers()).map(|s| server_cost(repo.server_pages(s), sim_f, horizon)).collect();
            balanced_ranges(&costs, SHARDS)
        };
        let part = self.config.server_part;
        cut.into_iter()
            .enumerate()
            .filter(|&(id, _)| part.is_none_or(|p| p.has(id)))
            .map(|(id, servers)| {
                let mut streams: Vec<Stream> = servers.clone().map(|s| Stream::of(self.config.seed, purpose, ids[s] as u64)).collect();
                let schedules = servers.clone().zip(&mut streams).map(|(s, rng)| ServerSchedule::new(policy, sim_f, repo.server_pages(s), p, rng)).collect();
                let pages = if servers.is_empty() { 0..0 } else { repo.server_pages(servers.start).start..repo.server_pages(servers.end - 1).end };
                let accounts = if self.sample.is_some() { servers.clone().map(|s| account(repo.server_pages(s))).collect() } else { vec![account(pages)] };
                Shard { id, checks: vec![PolitenessCheck::new(p); servers.len()], schedules, streams, accounts, requests: 0 }
            })
            .collect()
    }

    /// Advances crawler `policy`'s reruns (its own run done) by about `budget` requests:
    /// the redraw in progress slice by slice, its shards' fresh time kept when it ends,
    /// then the next. Returns the requests made and whether every rerun is done.
    fn step_reruns(&self, running: &mut Running, budget: f64) -> (f64, bool) {
        let horizon = self.config.horizon_days.0;
        let Run::Crawler { index, policy } = running.run else { return (0.0, true) };
        let (slice, slice_requests) = (running.slice, running.slice_requests);
        let Some(r) = running.reruns.as_mut() else { return (0.0, true) };
        let Some(redrawn) = &self.redrawn else { return (0.0, true) };
        if r.k == REDRAWS {
            return (0.0, true);
        }
        let repo = self.simulated();
        if r.shards.is_empty() {
            // the crawler's own streams and cut, on the redraw's rates
            r.lambda = redrawn.set(r.k, repo.pages());
            r.shards = self.shards(policy, Purpose::ServerSchedule { run: 2, series: index as u32 }, &[], Estimator::Exact, &r.lambda, false);
            (r.slices, r.time) = (0, 0.0);
        }
        let ends = slice_ends(r.slices, slice, slice_requests, horizon, budget);
        r.slices += ends.len() as u64;
        let until = *ends.last().expect("at least one slice");
        let before: u64 = r.shards.iter().map(|s| s.requests).sum();
        let lambda = &r.lambda;
        parallel::for_each(&mut r.shards, |shard| shard.advance(&ends, &[], repo, lambda));
        let made = r.shards.iter().map(|s| s.requests).sum::<u64>() - before;
        r.time = until;
        if until >= horizon {
            for shard in std::mem::take(&mut r.shards) {
                let fresh: f64 =
                    shard.accounts.iter().map(|(first, a)| a.fresh_time(0..a.pages(), a.credited(), horizon, &lambda[*first..first + a.pages()], |i| repo.weight(first + i))).sum();
                match r.fresh.iter_mut().find(|(id, _)| *id == shard.id as u64) {
                    Some((_, f)) => f[r.k] = fresh,
                    None => {
                        let mut f = [0.0; REDRAWS];
                        f[r.k] = fresh;
                        r.fresh.push((shard.id as u64, f));
                    }
                }
            }
            r.k += 1;
            r.time = 0.0;
        }
        (made as f64, r.k == REDRAWS)
    }

    /// Each account's freshness bins (a shard's, or a sampled server's), open intervals
    /// closed at `until`, in order.
    fn account_bins(&self, running: &Running, until: f64) -> Vec<TimeBins> {
        let repo = self.simulated();
        running
            .shards
            .iter()
            .flat_map(|shard| &shard.accounts)
            .map(|(first, account)| {
                let pages = *first..first + account.pages();
                account.closed_bins(until, &repo.lambda[pages], |i| repo.weight(first + i))
            })
            .collect()
    }

    /// Each shard's fresh time under each redraw of the rates (with estimated rates).
    fn redrawn_fresh(&self, running: &Running, until: f64) -> Option<Vec<(u64, [f64; REDRAWS])>> {
        let repo = self.simulated();
        self.redrawn.as_ref()?;
        let shard = |s: &Shard| redrawn::added(s.accounts.iter().filter_map(|(first, a)| a.redrawn_fresh(until, |i| repo.weight(first + i))));
        Some(running.shards.iter().map(|s| (s.id as u64, shard(s))).collect())
    }

    fn curve(&self, running: &Running, until: f64, complete: bool) -> PolicyCurve {
        let accounts = self.account_bins(running, until);
        let redrawn = match &running.reruns {
            Some(r) => (complete && r.k == REDRAWS).then(|| r.fresh.clone()),
            None if complete => self.redrawn_fresh(running, until),
            None => None,
        };
        let policy = match running.run {
            Run::Allocated { policy, .. } | Run::Crawler { policy, .. } => policy,
            Run::SameBandwidth { .. } => PolicyKind::Merge,
        };
        let capacity = match running.run {
            Run::Allocated { capacity, .. } => Some(&self.output.capacities[capacity]),
            _ => None,
        };
        let violations = running.shards.iter().flat_map(|s| &s.checks).map(|c| c.violations).sum();
        let thesis_inputs = self.config.source == RepositorySource::Generator;
        let tally = RunTally { policy, estimator: running.estimator, requests: running.requests, violations, until, capacity, thesis_inputs };
        if self.config.server_part.is_some() {
            // a part's own figures would be its servers' alone: it hands on their bins
            let mut curve = PolicyCurve::of(tally, Vec::new(), None, complete);
            curve.part = Some(CurvePart {
                until,
                shards: running.shards.iter().map(|s| s.id as u64).zip(accounts).collect(),
                auxiliary: running.auxiliary.clone(),
                redrawn: redrawn.unwrap_or_default(),
            });
            return curve;
        }
        let (freshness, sampled) =
            self.scale.freshness(&accounts, until, complete, running.auxiliary.as_ref(), || TimeBins::new(self.config.horizon_days.0, self.config.bins as usize));
        let spread = redrawn.map(|shards| redrawn::spread(redrawn::added(shards.into_iter().map(|(_, f)| f)), self.scale.total_weight * until));
        PolicyCurve { spread, ..PolicyCurve::of(tally, freshness, sampled, complete) }
    }
}

impl Plan for PoliciesJob {
    type Run = Running;
    type Output = PoliciesOutput;

    fn begin(&mut self) -> Option<(Running, f64)> {
        let run = *self.runs.get(self.next)?;
        self.next += 1;
        // a run's setup counts a pass over the pages, a part's share of it
        let parts = self.config.server_part.map_or(1, |p| p.of);
        Some((self.start(run), self.repo.pages() as f64 / parts as f64))
    }

    /// Runs one slice of `running`: every server's requests up to the slice's end.
    fn step(&mut self, running: &mut Running) -> (f64, bool) {
        self.step_within(running, 0.0)
    }

    /// Runs as many whole slices as about `budget` requests take (at least one), each
    /// shard through all of them on its own, on every thread allowed.
    fn step_within(&mut self, running: &mut Running, budget: f64) -> (f64, bool) {
        let horizon = self.config.horizon_days.0;
        if running.time >= horizon {
            return self.step_reruns(running, budget);
        }
        let ends = slice_ends(running.slices, running.slice, running.slice_requests, horizon, budget);
        running.slices += ends.len() as u64;
        let until = *ends.last().expect("at least one slice");
        let before: u64 = running.shards.iter().map(|s| s.requests).sum();
        let (f, repo) = (running.sampled_f.as_ref().unwrap_or(&running.f), self.simulated());
        parallel::for_each(&mut running.shards, |shard| shard.advance(&ends, f, repo, &repo.lambda));
        let made = running.shards.iter().map(|s| s.requests).sum::<u64>() - before;
        running.time = until;
        running.requests += made;
        (made as f64, until >= horizon && running.reruns.is_none())
    }

    fn end(&mut self, running: Running) {
        let curve = self.curve(&running, self.config.horizon_days.0, true);
        match running.run {
            Run::Allocated { capacity, .. } => {
                self.output.capacities[capacity].curves.push(curve);
                self.allocation = Some((capacity, running.f));
            }
            Run::Crawler { index: configured, .. } => {
                let bound = (curve.bandwidth > 0.0).then(|| {
                    allocate_sharing(&self.repo, AllocationKind::OptPolite, curve.bandwidth.min(self.max_rate()), self.config.politeness_days(), &self.saturations).report.bound
                });
                let index = self.output.crawlers.len();
                let merge = curve.bandwidth > 0.0 && curve.bandwidth <= self.max_rate();
                self.output.crawlers.push(CrawlerResult { curve, polite_bound_same_bandwidth: bound, merge_same_bandwidth: None });
                if merge {
                    self.runs.push(Run::SameBandwidth { crawler: index, index: configured });
                }
            }
            Run::SameBandwidth { crawler, .. } => self.output.crawlers[crawler].merge_same_bandwidth = Some(curve),
        }
    }

    /// The results so far, with the run in progress as an incomplete curve.
    /// (Recomputed at most every 2 % of a run's horizon: it costs one pass over the pages.)
    fn output(&self, running: Option<&Running>) -> PoliciesOutput {
        let Some(running) = running else {
            return self.output.clone();
        };
        let mut cache = self.partial.borrow_mut();
        if let Some((time, out)) = cache.as_ref()
            && running.time - time < 0.02 * self.config.horizon_days.0
            && running.time >= *time
            && out.capacities.len() == self.output.capacities.len()
        {
            return out.clone();
        }
        let mut out = self.output.clone();
        let curve = self.curve(running, running.time, false);
        match running.run {
            Run::Allocated { capacity, .. } => out.capacities[capacity].curves.push(curve),
            Run::Crawler { .. } => out.crawlers.push(CrawlerResult { curve, polite_bound_same_bandwidth: None, merge_same_bandwidth: None }),
            Run::SameBandwidth { crawler, .. } => out.crawlers[crawler].merge_same_bandwidth = Some(curve),
        }
        *cache = Some((running.time, out.clone()));
        out
    }

    /// The runs before the one in progress, and that one's share of its simulated time,
    /// each weighted by its estimate: exact within a run, and at 1 when the last ends
    /// however far the estimate of requests is off (a sample's often is, by 1.6 times).
    fn progress(&self, running: Option<&Running>) -> Option<f64> {
        let current = self.next.saturating_sub(usize::from(running.is_some()));
        let weight = |k: usize| self.weights.get(k).copied().unwrap_or(0.0);
        let done: f64 = (0..current).map(weight).sum();
        let now = running.map_or(0.0, |r| weight(current) * r.done_share(self.config.horizon_days.0));
        (self.weight_total > 0.0).then(|| (done + now) / self.weight_total)
    }

    /// The whole run's work; a part of a run split by servers, its share (the shards
    /// are cut to about equal cost), so that its progress reads as its own.
    fn total_work(&self) -> f64 {
        let parts = self.config.server_part.map_or(1, |p| p.of);
        (self.output.estimate.requests + (self.runs.len() as f64) * self.repo.pages() as f64) / parts as f64
    }

    /// Every capacity's bounds, even those no policy ran at (a bounds-only run).
    fn complete(&mut self) {
        for k in self.output.capacities.len()..self.config.capacities.len() {
            self.capacity_result(k);
        }
        self.output.done = true;
    }
}
