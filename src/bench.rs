//! Benchmarks of the scheduling kernel, shared by `cargo bench` and the browser bench
//! (`npm run bench`), so both measure the same code.

use crate::alloc::{AllocationKind, allocate};
use crate::model::webbase::{RepositoryConfig, generate};
use crate::policy::server::{ServerSchedule, Visitor};
use crate::policy::{PolicyKind, PolitenessCheck};
use crate::rng::Stream;
use crate::sim::account::{Account, Estimator, Fetch};
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

impl Visitor for Count {
    #[inline]
    fn visit(&mut self, _: usize, _: f64, _: &mut Stream) -> Option<Fetch> {
        None
    }
}

struct Accounting<'a> {
    account: &'a mut Account,
    lambda: &'a [f64],
}

impl Visitor for Accounting<'_> {
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
    let p = 15.0 / 86_400.0;
    let capacity = 0.9 * config.servers as f64 / p;
    let f = allocate(&repo, AllocationKind::OptPolite, capacity, p).f;
    let horizon = config.requests as f64 / capacity;
    let mut streams: Vec<Stream> = (0..repo.servers()).map(|s| Stream::new(1, s as u64)).collect();
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
}
