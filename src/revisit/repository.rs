//! The repository experiment (spec §1.4, thesis Fig 5.8): freshness over time of MERGE,
//! DELAYED, RANDOM and UNPOLITE under an allocation, at several total frequencies C,
//! against the POLITE bound; and the schedules of deployed crawlers, each compared
//! with MERGE and the POLITE bound at the bandwidth it actually used.

use super::microscope::{ServerMicroscope, microscope};
use crate::alloc::{Allocation, AllocationKind, AllocationReport, Capped, allocate, capped, given};
use crate::input::{InputError, check, count};
use crate::model::page_list::{self, PageList, PageRow};
use crate::model::repository::Repository;
use crate::model::webbase::{RepositoryConfig, RepositorySummary, generate, rank_size_law, summarise};
use crate::policy::server::{ServerSchedule, Visitor};
use crate::policy::{PolicyKind, PolitenessCheck};
use crate::rng::Stream;
use crate::sim::account::{Account, Estimator, Fetch};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PoliciesConfig {
    /// Where the pages come from: the WEBBASE-like generator (`repository`) or a page
    /// list (`page_list` as CSV text, or `page_rows` inline).
    pub source: RepositorySource,
    pub repository: RepositoryConfig,
    /// A page list's CSV text: `page,server,change_rate[,weight][,frequency]`, rates
    /// and frequencies per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_list: Option<String>,
    /// The same pages as JSON objects {page, server, change_rate, weight?, frequency?}.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_rows: Option<Vec<PageRow>>,
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
    /// The server shown page by page (its index; generated servers are largest first,
    /// a page list's in order of first appearance). None: the largest capped server.
    pub microscope_server: Option<u64>,
    pub seed: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepositorySource {
    #[default]
    Generator,
    PageList,
}

impl Default for PoliciesConfig {
    fn default() -> Self {
        PoliciesConfig {
            source: RepositorySource::Generator,
            repository: RepositoryConfig::default(),
            page_list: None,
            page_rows: None,
            politeness_seconds: CLASSROOM_POLITENESS_SECONDS,
            horizon_days: SIX_YEARS,
            capacities: vec![0.01, 0.1, 0.9],
            allocation: AllocationKind::OptPolite,
            policies: vec![PolicyKind::Merge, PolicyKind::Delayed, PolicyKind::Random, PolicyKind::Unpolite],
            crawlers: vec![PolicyKind::Nutch, PolicyKind::Stormcrawler, PolicyKind::Fixed],
            estimator: Estimator::Expected,
            bins: 100,
            microscope_server: None,
            seed: 1,
        }
    }
}

/// The thesis's horizon: six years of crawling (§5.5).
pub const SIX_YEARS: f64 = 6.0 * 365.25;
/// The classroom repository's P: with 500 servers it keeps six years of every policy
/// within a few seconds in the page (README, "Calibration").
pub const CLASSROOM_POLITENESS_SECONDS: f64 = 6.0 * 3600.0;
/// WEBBASE's P (thesis §5.5).
pub const WEBBASE_POLITENESS_SECONDS: f64 = 15.0;

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
        let classroom = PoliciesConfig::default();
        let per_page = |r: &RepositoryConfig, p: f64| r.servers as f64 * 86_400.0 / (p * r.pages as f64);
        let shape = RepositoryConfig::webbase_scaled(1.0);
        let scale = per_page(&shape, WEBBASE_POLITENESS_SECONDS) / per_page(&classroom.repository, classroom.politeness_seconds);
        PoliciesConfig { repository: RepositoryConfig::webbase_scaled(scale), politeness_seconds: WEBBASE_POLITENESS_SECONDS, horizon_days: SIX_YEARS, ..classroom }
    }

    fn politeness_days(&self) -> f64 {
        self.politeness_seconds / 86_400.0
    }

    /// Pages and servers: the generator's, or a page list's rough size before it is read.
    fn shape(&self) -> (u64, u64) {
        match self.source {
            RepositorySource::Generator => (self.repository.pages, self.repository.servers),
            RepositorySource::PageList => {
                // a row is at least 6 bytes ("a,s,1\n"); servers at most the pages
                let rows = self.page_list.as_ref().map_or(0, |t| t.len() as u64 / 6) + self.page_rows.as_ref().map_or(0, |r| r.len() as u64);
                (rows.max(1), rows.max(1))
            }
        }
    }

    fn max_rate_for(&self, servers: u64) -> f64 {
        servers as f64 / self.politeness_days()
    }

    /// The cost of a run on the configured repository (a page list's from its size).
    pub fn estimate(&self) -> Estimate {
        let (pages, servers) = self.shape();
        self.estimate_for(pages, servers)
    }

    fn estimate_for(&self, pages: u64, servers: u64) -> Estimate {
        let n = pages;
        let allocated = 8 + 8 + 16 + Account::bytes_per_page(self.estimator);
        let crawling = 8 + crate::policy::adaptive::Adaptive::BYTES_PER_PAGE + Account::bytes_per_page(Estimator::Exact);
        let per_page = if self.crawlers.is_empty() { allocated } else { allocated.max(crawling) };
        let per_server = 200;
        let text = self.page_list.as_ref().map_or(0, |t| t.len() as u64) + self.page_rows.as_ref().map_or(0, |r| 80 * r.len() as u64);
        let import = if text > 0 { page_list::import_bytes(text, pages) } else { 0 };
        let bytes = (n * per_page + servers * per_server + self.bins * 64).max(import);
        let slots = self.max_rate_for(servers) * self.horizon_days;
        let allocated_requests: f64 = self.capacities.iter().map(|c| c * slots).sum::<f64>() * self.policies.len() as f64;
        let requests = allocated_requests + 2.0 * slots * self.crawlers.len() as f64;
        Estimate { bytes, bytes_per_page: per_page, requests }
    }

    pub fn validate(&self) -> Result<(), InputError> {
        self.validate_source()?;
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
        let (pages, servers) = self.shape();
        self.check_cost(pages, servers)
    }

    /// The repository's source and its fields (shared with the allocation experiment).
    pub fn validate_source(&self) -> Result<(), InputError> {
        match self.source {
            RepositorySource::Generator => {
                self.repository.validate("repository.")?;
                if self.page_list.is_some() || self.page_rows.is_some() {
                    let field = if self.page_list.is_some() { "page_list" } else { "page_rows" };
                    return Err(InputError::new(field, "is given but source is generator; set source to page_list to use it, or remove it"));
                }
                if self.allocation == AllocationKind::Given {
                    return Err(InputError::new("allocation", "given needs a page list with a frequency column (source page_list); choose another allocation"));
                }
            }
            RepositorySource::PageList => match (&self.page_list, &self.page_rows) {
                (None, None) => return Err(InputError::new("page_list", "is missing: source page_list needs a CSV page list (page,server,change_rate[,weight][,frequency])")),
                (Some(_), Some(_)) => return Err(InputError::new("page_rows", "is given beside page_list; give the pages once, as CSV text or as rows")),
                (Some(text), None) if text.len() > crate::model::trace::MAX_BYTES => {
                    return Err(InputError::new("page_list", format!("is {} MB, over the {} MB limit; keep fewer pages", text.len() >> 20, crate::model::trace::MAX_BYTES >> 20)));
                }
                _ => {}
            },
        }
        Ok(())
    }

    /// Refuses a run whose memory or requests are over the limits, before it starts.
    fn check_cost(&self, pages: u64, servers: u64) -> Result<(), InputError> {
        let estimate = self.estimate_for(pages, servers);
        let field = if self.source == RepositorySource::PageList { "page_list" } else { "repository.pages" };
        if estimate.bytes > MEMORY_LIMIT {
            return Err(InputError::new(
                field,
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
    /// `end` (the last bin) over the POLITE bound at the same capacity: the thesis's
    /// "at the end of the six years" reading.
    pub ratio_end: Option<f64>,
    /// `mean` (the whole horizon, cold start included) over the POLITE bound.
    pub ratio_mean: Option<f64>,
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
    /// Where politeness binds: the servers OPT_POLITE holds at their cap.
    pub capped: Capped,
    /// One server's pages, simulated one by one under MERGE and RANDOM.
    pub microscope: ServerMicroscope,
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
    /// The page list's page and server names (file order), when one was imported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub page_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub server_names: Vec<String>,
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
    /// A page list's own frequencies (allocation `given`).
    given: Option<Vec<f64>>,
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

/// The repository a configuration names: generated, or read from its page list (the
/// list's text is dropped from the configuration once read).
pub fn load_repository(config: &mut PoliciesConfig) -> Result<(Repository, Option<PageList>, RepositorySummary), InputError> {
    match config.source {
        RepositorySource::Generator => {
            let repo = generate(&config.repository, config.seed);
            let summary = summarise(&repo, Some(rank_size_law(&config.repository)));
            Ok((repo, None, summary))
        }
        RepositorySource::PageList => {
            let list = match (config.page_list.take(), config.page_rows.take()) {
                (Some(text), _) => page_list::parse(text.as_bytes(), "page_list")?,
                (None, Some(rows)) => page_list::from_page_rows(&rows, "page_rows")?,
                (None, None) => return Err(InputError::new("page_list", "is missing")),
            };
            let summary = summarise(&list.repo, None);
            Ok((list.repo.clone(), Some(list), summary))
        }
    }
}

impl PoliciesJob {
    pub fn new(mut config: PoliciesConfig) -> Result<Self, InputError> {
        config.validate()?;
        let estimate_config = config.clone();
        let (repo, list, summary) = load_repository(&mut config)?;
        estimate_config.check_cost(repo.pages() as u64, repo.servers() as u64)?;
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
                                fs, cap, config.politeness_seconds
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
        let output = PoliciesOutput {
            repository: summary,
            estimate: estimate_config.estimate_for(repo.pages() as u64, servers),
            max_rate: config.max_rate_for(servers),
            page_names: list.as_ref().map(|l| l.names.clone()).unwrap_or_default(),
            server_names: list.as_ref().map(|l| l.server_names.clone()).unwrap_or_default(),
            bin_days: config.horizon_days / config.bins as f64,
            capacities: Vec::new(),
            crawlers: Vec::new(),
            done: false,
            config: config.clone(),
        };
        Ok(PoliciesJob { config, repo, given, output, runs, next: 0, running: None, work_done: 0.0, partial: RefCell::new(None), allocation: None })
    }

    fn capacity_result(&mut self, k: usize) -> &mut CapacityResult {
        while self.output.capacities.len() <= k {
            let j = self.output.capacities.len();
            let share = self.config.capacities[j];
            let capacity = share * self.max_rate();
            let p = self.config.politeness_days();
            let chosen = self.allocation_at(capacity);
            let polite = if chosen.report.kind == AllocationKind::OptPolite { None } else { Some(allocate(&self.repo, AllocationKind::OptPolite, capacity, p)) };
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

    /// The configured allocation at `capacity` (a page list's own frequencies if given).
    fn allocation_at(&self, capacity: f64) -> Allocation {
        match &self.given {
            Some(f) => given(&self.repo, f.clone(), self.config.politeness_days()),
            None => allocate(&self.repo, self.config.allocation, capacity, self.config.politeness_days()),
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
        let rate = if f.is_empty() { self.max_rate() } else { f.iter().sum() };
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
        let mean = if freshness.is_empty() { 0.0 } else { freshness.iter().sum::<f64>() / freshness.len() as f64 };
        let end = freshness.last().copied().unwrap_or(0.0);
        let (ratio_end, ratio_mean, published) = match running.run {
            Run::Allocated { capacity, policy } => {
                let c = &self.output.capacities[capacity];
                let ratio = |v: f64| (!freshness.is_empty() && c.polite_bound > 0.0).then(|| v / c.polite_bound);
                (ratio(end), ratio(mean), published_ratio(policy, c.share))
            }
            _ => (None, None, None),
        };
        PolicyCurve {
            policy,
            mean,
            end,
            converged,
            freshness,
            complete,
            requests: running.requests,
            bandwidth: if until > 0.0 { running.requests as f64 / until } else { 0.0 },
            violations: running.checks.iter().map(|c| c.violations).sum(),
            estimator: running.account.estimator(),
            ratio_end,
            ratio_mean,
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
                    .then(|| allocate(&self.repo, AllocationKind::OptPolite, curve.bandwidth.min(self.max_rate()), self.config.politeness_days()).report.bound);
                let index = self.output.crawlers.len();
                let merge = curve.bandwidth > 0.0 && curve.bandwidth <= self.max_rate();
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
            self.complete();
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
        self.complete();
        self.output
    }

    /// Every capacity's bounds, even those no policy ran at (a bounds-only run).
    fn complete(&mut self) {
        for k in self.output.capacities.len()..self.config.capacities.len() {
            self.capacity_result(k);
        }
        self.output.done = true;
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn small() -> PoliciesConfig {
        PoliciesConfig {
            repository: RepositoryConfig { pages: 1500, servers: 30, top_share: 0.1, ..Default::default() },
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

    /// Issue 12: on the classroom default politeness binds at every capacity (capped
    /// servers, POLITE visibly below UNPOLITE), and a bounds-only run reports it.
    #[test]
    fn politeness_binds_on_the_classroom_default() {
        let out = run(PoliciesConfig { policies: vec![], crawlers: vec![], ..Default::default() });
        assert_eq!(out.capacities.len(), 3);
        for c in &out.capacities {
            assert!(c.capped.servers > 0 && c.capped.page_share > 0.1, "C = {}: {:?}", c.share, c.capped);
            assert!(c.unpolite_bound - c.polite_bound > 0.005, "C = {}: {} vs {}", c.share, c.polite_bound, c.unpolite_bound);
            assert!(c.capped.freshness_share > 0.0 && c.capped.freshness_share <= 1.0);
            assert!(c.allocation.kkt.as_ref().unwrap().worst() < 1e-9, "{:?}", c.allocation.kkt);
        }
        assert!(out.capacities[2].unpolite_bound - out.capacities[2].polite_bound > 0.2);
    }

    fn page_list_of(servers: &[&[(f64, f64)]]) -> String {
        let mut text = String::from("page,server,change_rate,frequency\n");
        for (s, pages) in servers.iter().enumerate() {
            for (k, (lambda, f)) in pages.iter().enumerate() {
                text.push_str(&format!("p{s}_{k},server{s},{lambda},{f}\n"));
            }
        }
        text
    }

    #[test]
    fn a_page_list_as_csv_or_inline_rows_gives_the_same_run() {
        let csv = "page,server,change_rate,weight\na,s1,0.5,2\nb,s2,0.1,1\nc,s1,0.02,1\nd,s3,0,1\n";
        let base = PoliciesConfig {
            source: RepositorySource::PageList,
            politeness_seconds: 86_400.0,
            horizon_days: 120.0,
            crawlers: vec![],
            capacities: vec![0.5],
            bins: 20,
            ..Default::default()
        };
        let from_csv = run(PoliciesConfig { page_list: Some(csv.into()), ..base.clone() });
        let rows = crate::model::page_list::parse(csv.as_bytes(), "x").unwrap();
        let inline: Vec<PageRow> = (0..4)
            .map(|k| PageRow {
                page: rows.names[k].clone(),
                server: ["s1", "s2", "s1", "s3"][k].into(),
                change_rate: [0.5, 0.1, 0.02, 0.0][k],
                weight: Some([2.0, 1.0, 1.0, 1.0][k]),
                frequency: None,
            })
            .collect();
        let from_rows = run(PoliciesConfig { page_rows: Some(inline), ..base });
        assert_eq!(from_csv.capacities, from_rows.capacities);
        assert_eq!(from_csv.page_names, vec!["a", "b", "c", "d"]);
        assert_eq!(from_csv.server_names, vec!["s1", "s2", "s3"]);
        assert_eq!(from_csv.max_rate, 3.0, "three servers, P = one day");
    }

    #[test]
    fn given_frequencies_skip_allocation_and_must_respect_the_caps() {
        let text = page_list_of(&[&[(1.0, 0.3), (0.5, 0.2)], &[(0.2, 0.4)]]);
        let base = PoliciesConfig { source: RepositorySource::PageList, politeness_seconds: 86_400.0, horizon_days: 60.0, crawlers: vec![], bins: 20, ..Default::default() };
        let e = PoliciesJob::new(PoliciesConfig { page_list: Some(text.clone()), ..base.clone() }).err().unwrap();
        assert_eq!(e.field, "allocation");
        let out = run(PoliciesConfig { page_list: Some(text), allocation: AllocationKind::Given, ..base.clone() });
        assert_eq!(out.capacities.len(), 1);
        assert!((out.capacities[0].capacity - 0.9).abs() < 1e-12);
        assert_eq!(out.capacities[0].allocation.kind, AllocationKind::Given);
        let over = page_list_of(&[&[(1.0, 0.8), (0.5, 0.7)]]);
        let e = PoliciesJob::new(PoliciesConfig { page_list: Some(over), allocation: AllocationKind::Given, ..base }).err().unwrap();
        assert!(e.field == "page_list" && e.message.contains("server0"), "{e}");
    }

    /// Server by server against the closed forms: each repository below is one server
    /// with given frequencies, so its freshness is that server's. Over 12 seeds, RANDOM's
    /// mean (last quarter) is within 3 standard errors of Eq 5-2 summed over its pages,
    /// and MERGE's is at least Eq 5-4's bound and at most the server's A* sum (the POLITE
    /// bound of these frequencies), less 3 standard errors.
    #[test]
    fn each_server_agrees_with_eq_5_2_and_eq_5_4() {
        use crate::math::freshness::{merge_freshness_bound, random_freshness};
        let servers: [&[(f64, f64)]; 3] = [&[(1.0, 0.5), (0.3, 0.2), (2.0, 0.3)], &[(0.5, 0.9)], &[(0.1, 0.05), (0.1, 0.05), (1.5, 0.6), (0.8, 0.3)]];
        for pages in servers {
            let fs: f64 = pages.iter().map(|p| p.1).sum();
            let n = pages.len() as f64;
            let eq_5_2: f64 = pages.iter().map(|&(l, f)| random_freshness(l, f, fs)).sum::<f64>() / n;
            let eq_5_4: f64 = pages.iter().map(|&(l, f)| merge_freshness_bound(l, f, fs)).sum::<f64>() / n;
            let bound: f64 = pages.iter().map(|&(l, f)| crate::math::freshness::a_star(l, f)).sum::<f64>() / n;
            let sample = |policy: PolicyKind| {
                let values: Vec<f64> = (0..12)
                    .map(|seed| {
                        let config = PoliciesConfig {
                            source: RepositorySource::PageList,
                            page_list: Some(page_list_of(&[pages])),
                            allocation: AllocationKind::Given,
                            politeness_seconds: 86_400.0,
                            horizon_days: 4000.0,
                            policies: vec![policy],
                            crawlers: vec![],
                            bins: 20,
                            seed,
                            ..Default::default()
                        };
                        run(config).capacities[0].curves[0].converged
                    })
                    .collect();
                let mean = values.iter().sum::<f64>() / 12.0;
                let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 11.0).sqrt();
                (mean, sd / 12f64.sqrt())
            };
            let (random, se) = sample(PolicyKind::Random);
            assert!((random - eq_5_2).abs() <= 3.0 * se + 1e-9, "RANDOM {random} ± {se} vs Eq 5-2 {eq_5_2}");
            let (merge, se) = sample(PolicyKind::Merge);
            assert!(merge >= eq_5_4 - 3.0 * se - 1e-9, "MERGE {merge} ± {se} below Eq 5-4 {eq_5_4}");
            assert!(merge <= bound + 3.0 * se + 1e-9, "MERGE {merge} ± {se} above the bound {bound}");
        }
    }

    #[test]
    fn bad_lists_are_refused() {
        let bad = |c: PoliciesConfig| PoliciesJob::new(c).err().unwrap().field;
        assert_eq!(bad(PoliciesConfig { policies: vec![PolicyKind::Nutch], ..small() }), "policies");
        assert_eq!(bad(PoliciesConfig { crawlers: vec![PolicyKind::Merge], ..small() }), "crawlers");
        assert_eq!(bad(PoliciesConfig { policies: vec![PolicyKind::Merge, PolicyKind::Merge], ..small() }), "policies");
        assert_eq!(bad(PoliciesConfig { capacities: vec![1.5], ..small() }), "capacities[0]");
        assert_eq!(bad(PoliciesConfig { capacities: vec![], ..small() }), "capacities");
        assert_eq!(bad(PoliciesConfig { page_list: Some("page,server,change_rate\na,s,1\n".into()), ..small() }), "page_list");
        assert_eq!(bad(PoliciesConfig { source: RepositorySource::PageList, ..small() }), "page_list");
        assert_eq!(bad(PoliciesConfig { allocation: AllocationKind::Given, ..small() }), "allocation");
        assert_eq!(bad(PoliciesConfig { politeness_seconds: -1.0, ..small() }), "politeness_seconds");
    }
}
