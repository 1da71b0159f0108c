//! The policies experiment's configuration: the repository (generated or a page list),
//! politeness, horizon, capacities, allocation, policies and crawlers; its validation
//! and its cost.

use super::sample::take_whole;
use crate::core::alloc::AllocationKind;
use crate::core::input::{InputError, count, distinct};
use crate::core::limits::{Cost, Fix};
use crate::core::model::rate_bins::RateBins;
use crate::core::model::source::{RepositorySource, takes_pages};
use crate::core::model::webbase::{RepositoryConfig, law_sizes_for_estimate, power_law_mean, power_law_quantile};
use crate::core::policy::PolicyKind;
use crate::core::sim::freshness::{Account, Estimator};
use crate::core::sim::redrawn;
use crate::core::sim::request_cost::{repository_share, seconds_per_request};
use crate::core::units::{Days, Seconds};
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

takes_pages! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PoliciesConfig {
    /// Minimum time between two requests to one server.
    pub politeness_seconds: Seconds = CLASSROOM_POLITENESS_SECONDS; politeness().at_most(Days(365.0).in_seconds().0);
    pub horizon_days: Days = SIX_YEARS; number("simulated days").positive().at_most(365.25 * 100.0);
    /// Total frequencies C to compare, as shares of the maximum #servers / P.
    pub capacities: Vec<f64> = vec![0.01, 0.1, 0.9]; list("C as shares of the maximum").help("the thesis: 0.01, 0.1, 0.9").positive().at_most(1.0);
    pub allocation: AllocationKind = AllocationKind::OptPolite;
        select("allocation").help("OPT_UNPOLITE ignores the caps; proportional: to λ; given: the page list’s frequency column");
    pub estimator: Estimator = Estimator::Expected; shared(Estimator::field());
    /// Allocation-driven policies, run at every capacity.
    pub policies: Vec<PolicyKind> = vec![PolicyKind::Merge, PolicyKind::Delayed, PolicyKind::Random, PolicyKind::Unpolite]; choices("policies");
    /// Deployed crawlers' schedules (adaptive), run once each.
    pub crawlers: Vec<PolicyKind> = vec![PolicyKind::Nutch, PolicyKind::Stormcrawler, PolicyKind::Fixed]; choices("deployed crawlers (learn from fetches)");
    pub bins: u64 = 100; integer("time bins of the freshness curves").count(10, 2000).why("more bins than pixels add nothing");
    /// The server shown page by page (its index; generated servers are largest first,
    /// a page list's in order of first appearance). None: the largest capped server.
    pub microscope_server: Option<u64> = None; optional("server shown page by page").help("empty: the largest capped server");
    /// Estimate freshness from this many servers drawn with probability ∝ their weight
    /// (with a 95 % interval) instead of simulating every server; absent: every server.
    /// At least one draw for each group of the interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_servers: Option<u64> = None;
        optional("estimate from a sample of servers (draws)")
            .help("empty: simulate every server. At least 16; the heaviest servers are taken whole, the rest drawn by weight; curves come with 95 % intervals; no deployed crawlers")
            .count(super::sample::GROUPS as u64, 100_000_000);
    pub seed: u64 = 1; seed();
    /// The runs this part of a split run does (the page's pool of workers), numbered
    /// capacity by capacity and policy by policy, then crawler by crawler; absent: all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only_runs: Option<Vec<u64>> = None; internal;
    /// The servers this part of a split run simulates (the page's pool of workers): of
    /// the run's fixed shards of servers, those numbered `index`, `index + of`, …;
    /// absent: every server. Its curves carry their shards' bins, for the join.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_part: Option<ServerPart> = None; internal;
}
}

/// One of `of` parts of a run split by servers: the shards k with k mod `of` = `index`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerPart {
    pub index: u64,
    pub of: u64,
}

impl ServerPart {
    /// Whether shard `k` is this part's.
    pub fn has(&self, k: usize) -> bool {
        k as u64 % self.of == self.index
    }
}

/// The thesis's horizon: six years of crawling (§5.5).
pub const SIX_YEARS: Days = Days(6.0 * 365.25);
/// The classroom repository's P: with 500 servers it keeps six years of every policy
/// within a few seconds in the page (docs/researchers.md, "Politeness that binds").
pub const CLASSROOM_POLITENESS_SECONDS: Seconds = Seconds(6.0 * 3600.0);
/// WEBBASE's P (thesis §5.5).
pub const WEBBASE_POLITENESS_SECONDS: Seconds = Seconds(15.0);
/// Native setup time on one thread per page: generating the repository, and at each
/// capacity the allocations and bounds (OPT_POLITE, OPT_UNPOLITE, the capped servers
/// and the microscope): 0.9–1.0 µs a page with one capacity, measured at 2 M pages
/// (1.90 s) and at the WEBBASE scale (12.9 s; BENCHMARKS.md's setup column); 32.6 s
/// with three capacities at the WEBBASE scale (this estimate: 34.8 s).
const SETUP_SECONDS_PER_PAGE: f64 = 0.3e-6;
/// A microscope request (a schedule's step and the page's renewal reward, an expm1):
/// 8 M requests in 0.3 s, measured on the fuzz campaign's case 17,153.
const MICROSCOPE_SECONDS_PER_REQUEST: f64 = 37e-9;
const SETUP_SECONDS_PER_PAGE_AND_CAPACITY: f64 = 0.7e-6;
/// A sample of servers (bytes, tests/cost_model.rs): per page of the whole repository, its
/// rate, weight and allocation (8 + 4 + 8); per simulated page, the sample's copy (the
/// whole repository's index, rate, weight: 8 + 8 + 4) and, as it runs, the sample's
/// share of the allocation, the schedules and the account (8 + 16 + 8).
const BYTES_PER_PAGE_BESIDE_A_SAMPLE: f64 = 20.0;
const BYTES_PER_SAMPLE_COPY: f64 = 20.0;
const BYTES_PER_SAMPLED_PAGE: f64 = BYTES_PER_SAMPLE_COPY + 32.0;

/// What a configuration will cost, computed before it runs (reported with the result).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Peak memory in bytes.
    pub bytes: u64,
    pub bytes_per_page: u64,
    /// Requests to simulate (the crawlers' count is an upper bound).
    pub requests: f64,
    /// The same, run by run: every policy at every capacity, every crawler, then MERGE at
    /// each crawler's bandwidth (the job's progress weighs its runs by them).
    #[serde(skip)]
    pub runs: Vec<f64>,
    /// The requests also counted under redrawn rates (with estimated rates: every run's
    /// but a reacting crawler's, which is run again on the redraws instead).
    #[serde(skip)]
    pub counted_under_redraws: f64,
}

/// Capacities compared in one run, at most.
const MAX_CAPACITIES: usize = 8;

impl PoliciesConfig {
    /// The runs of the experiment: every policy at every capacity, then every crawler
    /// (with MERGE at the bandwidth it used).
    pub fn runs(&self) -> usize {
        self.capacities.len() * self.policies.len() + self.crawlers.len()
    }

    /// The WEBBASE scale of spec §1.4: 14.5 M pages, 5,462 servers, P = 15 s, six years.
    pub fn webbase() -> Self {
        let classroom = PoliciesConfig::default();
        let per_page = |r: &RepositoryConfig, p: Seconds| r.servers as f64 * p.per_day() / r.pages as f64;
        let shape = RepositoryConfig::webbase_scaled(1.0);
        let scale = per_page(&shape, WEBBASE_POLITENESS_SECONDS) / per_page(&classroom.repository, classroom.politeness_seconds);
        PoliciesConfig { repository: RepositoryConfig::webbase_scaled(scale), politeness_seconds: WEBBASE_POLITENESS_SECONDS, horizon_days: SIX_YEARS, ..classroom }
    }

    /// The WEBBASE scale's whole Fig 5.8 estimated from 32 draws of servers, in minutes
    /// (a sample leaves deployed crawlers out).
    pub fn webbase_sampled() -> Self {
        PoliciesConfig { crawlers: vec![], sample_servers: Some(32), ..PoliciesConfig::webbase() }
    }

    pub fn politeness_days(&self) -> f64 {
        self.politeness_seconds.in_days().0
    }

    pub fn max_rate_for(&self, servers: u64) -> f64 {
        servers as f64 / self.politeness_days()
    }

    /// The cost of a run on the configured repository (a page list's from its size).
    pub fn estimate(&self) -> Estimate {
        let (pages, servers) = self.pages().shape();
        self.estimate_for(pages, servers)
    }

    /// Peak memory is the larger of two phases (measured, tests/cost_model.rs): at each
    /// capacity, the allocations (about 16 bytes a page) and one server simulated page
    /// by page under the microscope (about 65 bytes a page of that server, at most the
    /// largest); then the simulation (change rates, frequencies, schedules, accounting).
    pub fn estimate_for(&self, pages: u64, servers: u64) -> Estimate {
        self.estimate_with(pages, servers, self.law_sizes(pages).as_deref(), &self.rates_for(pages))
    }

    /// `pages` generated pages by rate; a page list's are read from its shape, and one
    /// change a day a page stands for a list known only by its size.
    fn rates_for(&self, pages: u64) -> RateBins {
        if self.source == RepositorySource::Generator { self.repository.rate_bins(pages) } else { RateBins::power_law(pages as f64, 0.0, 1.0, 1.0, 1.0) }
    }

    /// A deployed crawler's requests over the horizon, from a cold start: each page's
    /// interval walking to where it settles
    /// ([`Intervals::requests_over`](crate::core::policy::adaptive::Intervals::requests_over)),
    /// the fixed schedule one every 30 days. At most `slots`, one request every P a server.
    fn crawler_requests(&self, policy: PolicyKind, pages: f64, rates: &RateBins, slots: f64) -> f64 {
        policy.rule().map_or(0.0, |rule| rule.shipped().requests_over(self.horizon_days.0, pages, rates, 1.0)).min(slots)
    }

    /// [`Self::estimate_for`] with the servers' sizes when known and the pages' rates.
    pub(super) fn estimate_with(&self, pages: u64, servers: u64, sizes: Option<&[f64]>, rates: &RateBins) -> Estimate {
        let n = pages as f64;
        let allocated = 8 + 8 + 16 + Account::bytes_per_page(self.estimator);
        // a crawler's pages: rate and weight, its schedule's state, the exact account
        let crawling = 8 + 4 + crate::core::policy::adaptive::Adaptive::BYTES_PER_PAGE + Account::bytes_per_page(Estimator::Exact);
        // a reacting crawler's rerun on a redraw holds a second crawler's pages and the
        // redraw's rates beside its own run's
        let rerun = if self.reruns(&self.crawlers) > 0.0 { crawling + 8 } else { 0 };
        let per_page = if self.crawlers.is_empty() { allocated } else { allocated.max(crawling + rerun) } + self.redrawn_bytes_per_page();
        let largest = self.largest_server(n, sizes);
        let (allocating, simulating) = match self.sample_servers {
            None => (16.4 * n + 64.6 * largest + 1.4e6, n * per_page as f64 + servers as f64 * 200.0 + self.bins as f64 * 64.0),
            // the sample's copy of its pages lives through the allocations; each of its
            // servers has an account of its own
            Some(draws) => {
                let (sampled, accounts) = self.sampled_pages(n, servers as f64, draws, sizes);
                let allocating = 16.4 * n + 64.6 * largest + 1.4e6 + BYTES_PER_SAMPLE_COPY * sampled;
                (allocating, BYTES_PER_PAGE_BESIDE_A_SAMPLE * n + BYTES_PER_SAMPLED_PAGE * sampled + accounts * self.bins as f64 * 64.0 + servers as f64 * 200.0)
            }
        };
        let import = self.pages().import_bytes(pages) as f64;
        let bytes = allocating.max(simulating).max(import) as u64;
        let slots = self.max_rate_for(servers) * self.horizon_days.0;
        // a sample of n servers: each makes at most one request every P, except UNPOLITE
        // on an allocation that may give a server more than 1/P
        let sampled = self.sample_servers.map(|n| n as f64 + sizes.map_or(0.0, |sizes| take_whole(sizes, n.max(1) as f64).0.iter().filter(|&&w| w).count() as f64));
        let run_requests = |c: f64, policy: PolicyKind| match sampled {
            Some(n) if policy != PolicyKind::Unpolite || self.allocation == AllocationKind::OptPolite => (c * slots).min(n * self.horizon_days.0 / self.politeness_days()),
            _ => c * slots,
        };
        // the page asks the cost of every edit, valid or not (a list of 10,000 policies
        // too): each policy kind once, times how often it is listed
        let mut kinds: Vec<(PolicyKind, f64)> = Vec::new();
        for &p in &self.policies {
            match kinds.iter_mut().find(|(k, _)| *k == p) {
                Some((_, n)) => *n += 1.0,
                None => kinds.push((p, 1.0)),
            }
        }
        let allocated_requests: f64 = self.capacities.iter().map(|&c| kinds.iter().map(|&(p, n)| n * run_requests(c, p)).sum::<f64>()).sum();
        // a crawler's run and MERGE's at the bandwidth it spent: each crawler kind once,
        // as the policies (a list of 10,000 crawlers took 90 ms, one model each)
        let mut counted: Vec<(PolicyKind, f64)> = Vec::new();
        let crawling: Vec<f64> = self
            .crawlers
            .iter()
            .map(|&p| match counted.iter().find(|(k, _)| *k == p) {
                Some(&(_, r)) => r,
                None => {
                    let r = self.crawler_requests(p, n, rates, slots);
                    counted.push((p, r));
                    r
                }
            })
            .collect();
        // a reacting crawler's run with its reruns on the redraws
        let crawling_runs: Vec<f64> = self.crawlers.iter().zip(&crawling).map(|(&p, &r)| r * (1.0 + self.reruns(&[p]))).collect();
        let requests = allocated_requests + crawling_runs.iter().sum::<f64>() + crawling.iter().sum::<f64>();
        // each run's requests, for the progress of a run; lists longer than validation
        // allows are refused before they run and get none
        let mut runs: Vec<f64> = Vec::new();
        if self.capacities.len() <= MAX_CAPACITIES && self.policies.len() <= PolicyKind::ALLOCATED.len() && self.crawlers.len() <= PolicyKind::ADAPTIVE.len() {
            for &c in &self.capacities {
                runs.extend(self.policies.iter().map(|&p| run_requests(c, p)));
            }
            runs.extend(crawling_runs.iter().chain(&crawling).copied());
        }
        let reacting: f64 = self.crawlers.iter().zip(&crawling_runs).filter(|(p, _)| p.reacts_to_fetches()).map(|(_, r)| r).sum();
        let counted_under_redraws = if self.redraws() { requests - reacting } else { 0.0 };
        Estimate { bytes, bytes_per_page: per_page, requests, runs, counted_under_redraws }
    }

    /// The pages a sample of `draws` draws simulates, in expectation (repeated draws of one
    /// server make it fewer), and its servers at most: those taken whole and, per draw, a
    /// server's mean size when drawn by size (sizes standing for weights, as
    /// [`super::sample::ServerSample::draw`] chooses them). Without the generator's law,
    /// every page and server.
    fn sampled_pages(&self, n: f64, servers: f64, draws: u64, sizes: Option<&[f64]>) -> (f64, f64) {
        let Some(sizes) = sizes else { return (n, servers) };
        let draws = draws.max(1) as f64;
        let (whole, _) = take_whole(sizes, draws);
        let (mut taken, mut servers, mut rest, mut squares) = (0.0, 0.0, 0.0, 0.0);
        for (&size, whole) in sizes.iter().zip(whole) {
            if whole {
                taken += size;
                servers += 1.0;
            } else {
                rest += size;
                squares += size * size;
            }
        }
        let drawn = if rest > 0.0 { draws * squares / rest } else { 0.0 };
        ((taken + drawn).min(n), servers + draws)
    }

    /// The pages of the largest server of `n` pages: the law's, else a bound.
    fn largest_server(&self, n: f64, sizes: Option<&[f64]>) -> f64 {
        let r = &self.repository;
        match (self.source, sizes) {
            (_, Some(sizes)) => sizes.first().map_or(n, |&s| s.min(n)),
            // beyond the law's reach, a bound: the largest server holds at most the top 1 %'s share
            (RepositorySource::Generator, None) => (r.top_share.clamp(0.0, 1.0) * n).max(n / r.servers.max(1) as f64),
            (RepositorySource::PageList, None) => n,
        }
    }

    /// The generator's server sizes, largest first, by its rank-size law
    /// ([`law_sizes_for_estimate`]); None for a page list or many servers.
    fn law_sizes(&self, pages: u64) -> Option<Vec<f64>> {
        (self.source == RepositorySource::Generator && self.repository.pages == pages).then(|| law_sizes_for_estimate(&self.repository)).flatten()
    }

    /// The mean native cost of a request on one thread. Every server makes about as many
    /// requests (at most one every P), so the mean is over the servers simulated: all of
    /// them, or a sample's — those taken whole and `draws` drawn by weight (sizes standing
    /// for weights, as [`super::sample::ServerSample::draw`] chooses them). Without the
    /// generator's law, the mean size stands for every server's (a sample: the largest's).
    /// In a repository of 2 M pages: [`repository_share`] scales it to the one run.
    fn seconds_per_request(&self, pages: u64, servers: u64, sizes: Option<&[f64]>) -> f64 {
        let Some(sizes) = sizes else {
            let mean = pages as f64 / servers.max(1) as f64;
            return seconds_per_request(if self.sample_servers.is_some() { self.largest_server(pages as f64, None) } else { mean });
        };
        let Some(draws) = self.sample_servers.map(|d| d.max(1) as f64) else {
            return sizes.iter().map(|&n| seconds_per_request(n)).sum::<f64>() / sizes.len().max(1) as f64;
        };
        let (whole, rest) = take_whole(sizes, draws);
        let (mut taken, mut count, mut drawn) = (0.0, 0.0, 0.0);
        for (&n, whole) in sizes.iter().zip(whole) {
            if whole {
                taken += seconds_per_request(n);
                count += 1.0;
            } else {
                drawn += n * seconds_per_request(n);
            }
        }
        (taken + draws * drawn / rest.max(1.0)) / (count + draws)
    }

    /// The microscope's time at every capacity: MERGE and RANDOM on one server, for
    /// 1,000 visits of the least revisited of the (at most 200) pages it lists, f_s/f
    /// of them (`microscope::MIN_REQUESTS` to `MAX_REQUESTS`). That spread: n for an
    /// equal share; for the optima, about as many as it has; for a share proportional
    /// to λ, Σλ over the k-th largest λ of the server's c changing pages (k = the pages
    /// listed): c times the rate law's mean over its quantile at 1 − k/(c + 1) (the fuzz
    /// campaign's case 17,153: 300 pages, 8 M requests at each capacity, 0.9 s against
    /// 0.001 s estimated, before the microscope was counted; case 5,647: λ_max/λ_min in
    /// place of the mean over the quantile took 2.4 times the run's time); the most
    /// allowed for a page list's own frequencies; never over `MAX_SPREAD` times the
    /// server's pages (the microscope's own bound).
    fn microscope_seconds(&self, n: f64, sizes: Option<&[f64]>) -> f64 {
        use super::microscope::{MAX_LISTED, MAX_REQUESTS, MAX_SPREAD, MIN_REQUESTS};
        let largest = self.largest_server(n, sizes);
        let listed = largest.min(MAX_LISTED as f64);
        let spread = match (self.allocation, self.source) {
            (AllocationKind::Given, _) | (AllocationKind::Proportional, RepositorySource::PageList) => f64::INFINITY,
            // the cost is asked of any configuration, the checks' refusals included (the
            // fuzz campaign's case 9,313: rate_min over rate_max, a quantile's clamp panicked)
            (AllocationKind::Proportional, RepositorySource::Generator) if !(self.repository.rate_min > 0.0 && self.repository.rate_min < self.repository.rate_max) => listed,
            (AllocationKind::Proportional, RepositorySource::Generator) => {
                let r = &self.repository;
                let changing = (largest * (1.0 - r.never_changing)).max(1.0);
                let kth = power_law_quantile(r.rate_min, r.rate_max, r.rate_exponent, 1.0 - listed.min(changing) / (changing + 1.0));
                changing * power_law_mean(r.rate_min, r.rate_max, r.rate_exponent) / kth.max(1e-300)
            }
            (AllocationKind::Uniform, _) => largest,
            // the optima share the server's rate over all its changing pages, so the
            // listed pages' slowest gets about fs/n: n, not the pages listed (`npm run
            // estimates`: 200,000 generated pages, 1.0 s a capacity against 0.36 s
            // estimated with the pages listed)
            _ => largest,
        };
        let requests = 2.0 * (1000.0 * spread.min(MAX_SPREAD * largest)).clamp(MIN_REQUESTS, MAX_REQUESTS);
        self.capacities.len() as f64 * requests * MICROSCOPE_SECONDS_PER_REQUEST
    }

    /// Estimated rates (a history's list; not with a sample of the servers): each run's
    /// visits are also counted under the redrawn rates, at 8 bytes a rate and a page.
    fn redrawn_bytes_per_page(&self) -> u64 {
        if self.redraws() { redrawn::BYTES_PER_PAGE + 8 } else { 0 }
    }

    /// What counting a request under the redrawn rates adds.
    fn redrawn_seconds_per_request(&self) -> f64 {
        if self.redraws() { redrawn::SECONDS_PER_REQUEST } else { 0.0 }
    }

    fn redraws(&self) -> bool {
        self.sample_servers.is_none() && self.pages().estimated_rates()
    }

    /// The reruns one of `crawlers` makes on the redraws at most: [`REDRAWS`] where it
    /// reacts to what its fetches show (Nutch, StormCrawler) and the rates are estimated.
    fn reruns(&self, crawlers: &[PolicyKind]) -> f64 {
        if self.redraws() && crawlers.iter().any(|p| p.reacts_to_fetches()) { redrawn::REDRAWS as f64 } else { 0.0 }
    }

    /// The run's cost on `pages` pages and `servers` servers: its requests, and each
    /// run's setup (a pass over the pages).
    pub fn cost_for(&self, pages: u64, servers: u64) -> Cost {
        self.cost_with(pages, servers, self.law_sizes(pages).as_deref(), &self.rates_for(pages))
    }

    /// [`Self::cost_for`] with the servers' sizes, largest first, when known: the
    /// generator's law, a page list's shape, a repository read.
    pub fn cost_with(&self, pages: u64, servers: u64, sizes: Option<&[f64]>, rates: &RateBins) -> Cost {
        let e = self.estimate_with(pages, servers, sizes, rates);
        let runs = self.capacities.len() * self.policies.len() + 2 * self.crawlers.len();
        let setup = pages as f64 * (SETUP_SECONDS_PER_PAGE + self.capacities.len() as f64 * SETUP_SECONDS_PER_PAGE_AND_CAPACITY) + self.pages().import_seconds();
        Cost {
            work: e.requests + runs as f64 * pages as f64,
            unit: "requests".into(),
            bytes: e.bytes as f64,
            seconds: setup
                + e.requests * self.seconds_per_request(pages, servers, sizes) * repository_share(pages as f64)
                + e.counted_under_redraws * self.redrawn_seconds_per_request()
                + self.microscope_seconds(pages as f64, sizes),
            memory_fix: Fix::new(self.pages().size_field(), format!("use fewer pages ({} bytes each)", e.bytes_per_page)),
            time_fix: Fix::new("horizon_days", "shorten the horizon, lengthen politeness_seconds or run fewer policies"),
        }
    }
}

impl Settings for PoliciesConfig {
    fn rules(&self) -> Result<(), InputError> {
        self.pages().validate()?;
        if self.source == RepositorySource::Generator && self.allocation == AllocationKind::Given {
            return Err(InputError::new("allocation", "given needs a page list with a frequency column (source page_list); choose another allocation"));
        }
        if self.capacities.is_empty() {
            return Err(InputError::new("capacities", "needs at least one share of the maximum, e.g. 0.01, 0.1, 0.9"));
        }
        if self.capacities.len() > MAX_CAPACITIES {
            return Err(InputError::new("capacities", format!("has more than {MAX_CAPACITIES} values; compare at most {MAX_CAPACITIES} at once")));
        }
        if let Some(p) = self.policies.iter().find(|p| p.is_adaptive()) {
            return Err(InputError::new("policies", format!("{} learns its own schedule; list it under crawlers", p.label())));
        }
        if let Some(p) = self.crawlers.iter().find(|p| !p.is_adaptive()) {
            return Err(InputError::new("crawlers", format!("{} needs an allocation; list it under policies", p.label())));
        }
        distinct("capacities", &self.capacities)?;
        distinct("policies", &self.policies)?;
        distinct("crawlers", &self.crawlers)?;
        if self.sample_servers.is_some() && !self.crawlers.is_empty() {
            return Err(InputError::new(
                "crawlers",
                "a sample of servers estimates the allocated policies' freshness only: set crawlers to none, or leave sample_servers out to run them",
            ));
        }
        if let Some(runs) = &self.only_runs {
            let total = self.runs() as u64;
            if let Some((k, &r)) = runs.iter().enumerate().find(|(_, r)| **r >= total) {
                return Err(InputError::new(format!("only_runs[{k}]"), format!("must be below the number of runs, {total} (got {r}); leave only_runs out to do them all")));
            }
            distinct("only_runs", runs)?;
        }
        if let Some(part) = self.server_part {
            count("server_part.of", part.of, 1, 4096, "")?;
            if part.index >= part.of {
                return Err(InputError::new("server_part.index", format!("must be below server_part.of, {} (got {}); parts are numbered from 0", part.of, part.index)));
            }
            if !self.crawlers.is_empty() {
                return Err(InputError::new(
                    "crawlers",
                    "a run split by servers runs the allocated policies only (MERGE at a crawler's bandwidth needs every server's requests): set crawlers to none, or leave server_part out",
                ));
            }
            if self.only_runs.is_some() {
                return Err(InputError::new("server_part", "a part does either some runs (only_runs) or some servers (server_part): leave one out"));
            }
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        // a page list: its servers and their sizes, read once
        match self.pages().list_shape() {
            Some(shape) => self.cost_with(shape.pages.max(1), shape.servers.max(1), (!shape.sizes.is_empty()).then_some(&shape.sizes[..]), &shape.rates),
            None => {
                let (pages, servers) = self.pages().shape();
                self.cost_for(pages, servers)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::experiments::policies::sample::ServerSample;

    /// The estimate takes whole, from the generator's law, the servers that a sample of
    /// the generated repository takes whole.
    #[test]
    fn the_estimate_takes_whole_the_servers_a_sample_takes_whole() {
        let config = PoliciesConfig { repository: RepositoryConfig { pages: 200_000, servers: 2000, ..Default::default() }, ..Default::default() };
        let sizes = config.law_sizes(200_000).expect("the generator's law");
        let (repo, _, _) = config.pages().load().unwrap();
        for draws in [16, 64, 256, 1024] {
            let taken = ServerSample::draw(&repo, draws, 1).design.certain.iter().filter(|&&c| c).count();
            assert!(taken > 0, "{draws} draws take a server whole");
            assert_eq!(take_whole(&sizes, draws as f64).0.iter().filter(|&&w| w).count(), taken, "{draws} draws");
        }
    }
}
