//! Benchmarks shared by `cargo bench` and the browser bench (`npm run bench`), so both
//! measure the same code: the scheduling kernel, page selection, and the distributed pipeline.

use crate::core::alloc::{AllocationKind, allocate};
use crate::core::model::webbase::{RepositoryConfig, generate};
use crate::core::policy::server::ServerSchedule;
use crate::core::policy::{PolicyKind, PolitenessCheck};
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::freshness::{Account, Estimator, Fetch, Freshness};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchConfig {
    pub pages: u64,
    pub servers: u64,
    pub policy: PolicyKind,
    /// Requests to schedule (about).
    pub requests: u64,
    /// Also account freshness (expected-value estimator), as a simulation does.
    pub accounting: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchResult {
    pub config: BenchConfig,
    pub requests: u64,
    pub seconds: f64,
    pub ns_per_request: f64,
    /// Bytes per page held by the run (repository, allocation, schedule, accounting).
    pub bytes_per_page: u64,
    pub setup_seconds: f64,
}

/// Only counts: the cost of deciding which page each request fetches.
struct Count;

impl Freshness for Count {
    #[inline]
    fn visit(&mut self, _: usize, _: f64, _: &mut Stream) -> Option<Fetch> {
        None
    }
}

struct Accounting<'a> {
    account: &'a mut Account,
    lambda: &'a [f64],
}

impl Freshness for Accounting<'_> {
    #[inline]
    fn visit(&mut self, page: usize, time: f64, rng: &mut Stream) -> Option<Fetch> {
        self.account.visit(page, time, self.lambda[page], 1.0, rng)
    }
}

/// A WEBBASE-like repository with OPT_POLITE at 90 % of the maximum and P = 15 s;
/// times the requests of `requests / C` days, server after server. `now` is a clock in
/// seconds (the browser passes its own).
pub fn scheduling(config: &BenchConfig, now: impl Fn() -> f64) -> BenchResult {
    let t0 = now();
    let repo = generate(&RepositoryConfig { pages: config.pages, servers: config.servers, ..RepositoryConfig::default() }, 1);
    let p = crate::core::units::Seconds(15.0).in_days().0;
    let capacity = 0.9 * config.servers as f64 / p;
    let f = allocate(&repo, AllocationKind::OptPolite, capacity, p).f;
    let horizon = config.requests as f64 / capacity;
    let mut streams: Vec<Stream> = (0..repo.servers()).map(|s| Stream::of(1, Purpose::ServerSchedule { run: 0, series: 0 }, s as u64)).collect();
    let mut schedules: Vec<ServerSchedule> = (0..repo.servers()).map(|s| ServerSchedule::new(config.policy, &f, repo.server_pages(s), p, &mut streams[s])).collect();
    let mut checks = vec![PolitenessCheck::new(p); repo.servers()];
    let mut account = Account::new(Estimator::Expected, &repo.lambda, |_| 1.0, horizon, 100);
    let setup = now() - t0;
    let start = now();
    let mut requests = 0;
    for s in 0..repo.servers() {
        requests += if config.accounting {
            schedules[s].advance(horizon, &f, &mut Accounting { account: &mut account, lambda: &repo.lambda }, &mut checks[s], &mut streams[s])
        } else {
            schedules[s].advance(horizon, &f, &mut Count, &mut checks[s], &mut streams[s])
        };
    }
    let seconds = now() - start;
    assert_eq!(checks.iter().map(|c| c.violations).sum::<u64>(), 0, "a benchmark run must stay polite");
    let bytes_per_page = 8 + 8 + ServerSchedule::bytes_per_page(config.policy) + if config.accounting { Account::bytes_per_page(Estimator::Expected) } else { 0 };
    BenchResult { config: config.clone(), requests, seconds, ns_per_request: seconds * 1e9 / requests as f64, bytes_per_page, setup_seconds: setup }
}

/// Which page-selection rule the selection benchmark times (thesis §6.3's costs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selector {
    /// GREEDY with the thesis's estimator (`samples` renewal simulations per article).
    Greedy,
    /// GREEDY with the renewal-equation expectation.
    GreedyExact,
    /// MERGE with Wolf et al.'s allocation.
    Merge,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelectionConfig {
    pub articles: u64,
    pub selector: Selector,
    pub selections: u64,
    pub samples: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelectionResult {
    pub config: SelectionConfig,
    pub selections: u64,
    pub seconds: f64,
    pub ns_per_selection: f64,
    pub setup_seconds: f64,
    /// GREEDY: articles whose gain was evaluated per selection (the others were bounded).
    pub evaluated_per_selection: Option<f64>,
}

/// The thesis's setting (ch. 6): `articles` bursty articles over 60 days, one server at
/// 4 requests a minute (P = 15 s). Two days of MERGE fetches give every article a last
/// fetch and a last known change; then `selections` selections are timed from there
/// (GREEDY with each fetch's bookkeeping, MERGE the selection alone).
pub fn selection(config: &SelectionConfig, now: impl Fn() -> f64) -> SelectionResult {
    use crate::core::alloc::wolf;
    use crate::core::model::histogram::Histogram;
    use crate::core::policy::Schedule;
    use crate::core::policy::greedy::{Gain, Greedy, Overdue};
    use crate::core::policy::merge::Merge;
    use crate::core::sim::replay::TraceAccount;
    let t0 = now();
    let generator = crate::core::model::bursty::BurstyGenerator { articles: config.articles, days: 60.0, ..Default::default() };
    let trace = generator.generate(1).expect("a valid generator");
    let (laws, _) = Histogram::laws_from(&trace, trace.minutes);
    let period = 0.25; // minutes
    let (f, _) = wolf::allocate(&laws, 1.0 / period);
    let mut rng = Stream::of(1, Purpose::Test, 0);
    let warmup = 2.0 * 1440.0;
    let laws: std::rc::Rc<[crate::core::model::histogram::Histogram]> = laws.into();
    let gain = match config.selector {
        Selector::GreedyExact => Gain::Renewal(laws.iter().map(|l| crate::core::model::renewal::RenewalTable::new(l, trace.minutes, 2048)).collect::<Vec<_>>().into()),
        _ => Gain::Sampled { samples: config.samples },
    };
    let mut greedy = Greedy::new(laws.clone(), gain, Overdue::Memoryless, warmup, period);
    let mut merge = Merge::new(&f, 0..laws.len(), &mut rng);
    let mut account = TraceAccount::new(&trace);
    while merge.next_time() < warmup {
        let (t, page) = merge.take(&f, &mut rng);
        let last = account.fetch(&trace, page, t);
        greedy.learn(page, t, last);
    }
    let setup = now() - t0;
    let start = now();
    let mut checksum = 0usize;
    let evaluated_before = greedy.evaluated();
    if config.selector == Selector::Merge {
        // the selection alone, as the thesis timed it (MERGE needs nothing from a fetch)
        for _ in 0..config.selections {
            checksum = checksum.wrapping_add(merge.take(&f, &mut rng).1);
        }
    } else {
        // GREEDY learns from each fetch; that bookkeeping is a few ns against its ms
        for _ in 0..config.selections {
            let (t, page) = greedy.take(&f, &mut rng);
            let last = account.fetch(&trace, page, t);
            greedy.learn(page, t, last);
            checksum = checksum.wrapping_add(page);
        }
    }
    let seconds = now() - start;
    std::hint::black_box(checksum);
    let evaluated = (config.selector != Selector::Merge).then(|| (greedy.evaluated() - evaluated_before) as f64 / config.selections as f64);
    SelectionResult {
        config: config.clone(),
        selections: config.selections,
        seconds,
        ns_per_selection: seconds * 1e9 / config.selections as f64,
        setup_seconds: setup,
        evaluated_per_selection: evaluated,
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartitioningConfig {
    pub web: crate::experiments::partition::web::WebConfig,
    pub robots: u64,
    pub scheme: crate::experiments::partition::scheme::Scheme,
    pub politeness: crate::experiments::partition::download::Politeness,
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartitioningResult {
    pub config: PartitioningConfig,
    pub pages: u64,
    pub links: u64,
    /// Generating the synthetic web.
    pub generate_s: f64,
    /// Building the unit graph of hyperlinks (graph schemes; shared by every robot count).
    pub topology_s: f64,
    /// Partitioning: the hash, or the combined graph's greedy start and KL/FM refinement.
    pub partition_s: f64,
    /// The §6.4 download simulation of every page.
    pub simulate_s: f64,
    pub downloads: u64,
    pub violations: u64,
    /// The simulated crawl's length (s of simulated time) and URL exchanges (%).
    pub simulated_s: f64,
    pub exchange_pct: f64,
}

/// Exposto's ch. 5–6 pipeline, phase by phase: generate the web, build the unit graph,
/// partition among `robots` robots, and simulate the crawl of every page (§6.4).
pub fn partitioning(config: &PartitioningConfig, now: impl Fn() -> f64) -> PartitioningResult {
    use crate::experiments::partition::download::{Download, DownloadParams};
    use crate::experiments::partition::scheme::{GraphParams, Topology, assign};
    use std::sync::Arc;
    let t0 = now();
    let web = Arc::new(config.web.generate(config.seed).expect("a valid web"));
    let t1 = now();
    let topology = config.scheme.is_graph().then(|| Topology::new(&web, config.scheme.unit()));
    let t2 = now();
    let robots = config.robots as usize;
    let a = Arc::new(assign(&web, config.scheme, robots, &GraphParams::default(), topology.as_ref(), config.seed));
    let t3 = now();
    let mut download = Download::new(Arc::clone(&web), a, robots, config.politeness, &DownloadParams::default(), config.web.rtt_s_of_km());
    while !download.advance(u64::MAX / 4) {}
    let m = download.finish();
    let t4 = now();
    PartitioningResult {
        config: config.clone(),
        pages: web.pages() as u64,
        links: web.links() as u64,
        generate_s: t1 - t0,
        topology_s: t2 - t1,
        partition_s: t3 - t2,
        simulate_s: t4 - t3,
        downloads: m.downloads,
        violations: m.violations,
        simulated_s: m.total_s,
        exchange_pct: m.exchange_pct(),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_small_benchmark_schedules_what_it_was_asked() {
        for policy in [PolicyKind::Merge, PolicyKind::Random] {
            let r = scheduling(&BenchConfig { pages: 5000, servers: 50, policy, requests: 20_000, accounting: true }, || 0.0);
            assert!((r.requests as f64 / 20_000.0 - 1.0).abs() < 0.02, "{}", r.requests);
            assert!(r.bytes_per_page <= 48);
        }
    }

    #[test]
    fn a_small_selection_benchmark_runs_every_selector() {
        for selector in [Selector::Greedy, Selector::GreedyExact, Selector::Merge] {
            let r = selection(&SelectionConfig { articles: 30, selector, selections: 50, samples: 3 }, || 0.0);
            assert_eq!(r.selections, 50);
        }
    }

    #[test]
    fn a_small_partitioning_benchmark_crawls_every_page_politely() {
        use crate::experiments::partition::{download::Politeness, scheme::Scheme, web::WebConfig};
        let web = WebConfig { hosts: 60, ips: 20, mean_pages: 10.0, max_pages: 80, ..WebConfig::default() };
        for scheme in [Scheme::HashHost, Scheme::GraphRtt] {
            let r = partitioning(&PartitioningConfig { web: web.clone(), robots: 4, scheme, politeness: Politeness::Density, seed: 3 }, || 0.0);
            assert_eq!(r.downloads, r.pages);
            assert_eq!(r.violations, 0);
            assert!(r.simulated_s > 0.0 && r.exchange_pct > 0.0 && r.exchange_pct < 100.0, "{r:?}");
        }
    }
}

/// The LambdaCrawl comparison (issue 17): `pages` synthetic pages — importances uniform
/// in [0.1, 10) (stored as f32, as Freshlab stores weights), change rates log-uniform
/// over [0.01, 100) a day, the bandwidth half of Σλ — the same arrays the peer is given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LambdaCrawlConfig {
    pub pages: usize,
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LambdaCrawlResult {
    pub config: LambdaCrawlConfig,
    pub bandwidth: f64,
    /// Seconds of the harmonic-staleness optimum and of the binary-freshness one
    /// (without politeness: the peer has none).
    pub harmonic_seconds: f64,
    pub binary_seconds: f64,
}

/// The pages of [`LambdaCrawlConfig`]: (importances, change rates, bandwidth).
pub fn lambdacrawl_pages(config: &LambdaCrawlConfig) -> (Vec<f32>, Vec<f64>, f64) {
    let mut s = Stream::of(config.seed, Purpose::Test, 17);
    let importances: Vec<f32> = (0..config.pages).map(|_| s.uniform_in(0.1, 10.0) as f32).collect();
    let rates: Vec<f64> = (0..config.pages).map(|_| crate::core::math::elementary::pow(10.0, s.uniform_in(-2.0, 2.0))).collect();
    let bandwidth = 0.5 * rates.iter().sum::<f64>();
    (importances, rates, bandwidth)
}

/// Times Freshlab's harmonic and binary optima on the pages of `config`: each the mean
/// of as many calls as fill [`LAMBDACRAWL_SECONDS`] (a page's clock ticks in milliseconds).
pub fn lambdacrawl(config: &LambdaCrawlConfig, now: impl Fn() -> f64) -> LambdaCrawlResult {
    use crate::core::alloc::objective::Objective;
    use crate::core::alloc::opt::optimal_for;
    use crate::core::model::repository::Repository;
    let (importances, rates, bandwidth) = lambdacrawl_pages(config);
    let repo = Repository { server_start: vec![0, rates.len()], lambda: rates, weight: Some(importances), observed: None };
    let per_call = |objective: Objective| {
        let start = now();
        let mut calls = 0u32;
        loop {
            let (f, _) = optimal_for(objective, &repo, bandwidth, None);
            assert!(f.len() == repo.lambda.len(), "the optimum covers every page");
            calls += 1;
            let elapsed = now() - start;
            if elapsed >= LAMBDACRAWL_SECONDS {
                return elapsed / calls as f64;
            }
        }
    };
    let harmonic_seconds = per_call(Objective::Harmonic);
    let binary_seconds = per_call(Objective::Binary);
    LambdaCrawlResult { config: config.clone(), bandwidth, harmonic_seconds, binary_seconds }
}

/// The least time each LambdaCrawl timing spends, in seconds.
pub const LAMBDACRAWL_SECONDS: f64 = 0.2;
