//! Resource allocation (spec §1.3): how often to revisit each page, given a total
//! frequency C and the politeness interval P (at most 1/P requests per server).

pub mod objective;
pub mod opt;
pub mod wolf;

use crate::core::labels::labelled;
use crate::core::math::freshness::a_star;
use crate::core::model::repository::Repository;
use objective::Objective;
use serde::{Deserialize, Serialize};
use std::cell::OnceCell;

labelled! {
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllocationKind {
    /// Every page alike, within the per-server caps.
    Uniform => "uniform",
    /// Proportional to the change rate, within the caps.
    Proportional => "proportional",
    /// Best freshness ignoring politeness (may exceed 1/P on a server).
    OptUnpolite => "OPT_UNPOLITE",
    /// Best freshness with Σ_{i∈s} f_i ≤ 1/P on every server (Eq 4-4).
    OptPolite => "OPT_POLITE",
    /// The frequencies a page list gives (its `frequency` column): no allocation.
    Given => "given",
}
}

impl AllocationKind {
    /// The four allocations Freshlab computes.
    pub const COMPUTED: [AllocationKind; 4] = [AllocationKind::Uniform, AllocationKind::Proportional, AllocationKind::OptUnpolite, AllocationKind::OptPolite];
}

/// How well an optimal allocation meets its optimality (KKT) conditions, each as a
/// relative residual.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kkt {
    /// The global multiplier μ (freshness per unit of frequency at the margin).
    pub multiplier: f64,
    /// max over revisited pages of |w·∂A*/∂f − (μ + ν_s)| / (μ + ν_s).
    pub stationarity: f64,
    /// max over pages left out of (the marginal value of their first crawl, w/λ for
    /// freshness − (μ + ν_s)) / (μ + ν_s), or 0: leaving them
    /// out must not be worth it.
    pub excluded: f64,
    /// max over servers of (Σ_{i∈s} f_i / cap_s − 1), or 0 (caps respected; cap_s is
    /// 1/P or the server's own).
    pub cap_excess: f64,
    /// max over capped servers (ν_s > 0) of |Σ_{i∈s} f_i / cap_s − 1|.
    pub slackness: f64,
    /// |Σ f − usable C| / C.
    pub total: f64,
}

impl Kkt {
    /// The largest residual.
    pub fn worst(&self) -> f64 {
        self.stationarity.max(self.excluded).max(self.cap_excess).max(self.slackness).max(self.total)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllocationReport {
    pub kind: AllocationKind,
    /// The total frequency asked for, per day.
    pub capacity: f64,
    /// The total frequency allocated (less than asked when the caps or the pages
    /// cannot absorb it).
    pub total: f64,
    /// Servers at their cap (1/P, or their own).
    pub capped_servers: u64,
    /// Servers above their cap (only OPT_UNPOLITE may have any).
    pub servers_over_cap: u64,
    /// Σ w A*(f) / Σ w: the best freshness any policy reaches with these frequencies
    /// (an observed page: min(1, f/λ)).
    pub bound: f64,
    pub kkt: Option<Kkt>,
}

pub struct Allocation {
    /// Revisit frequency of each page, per day.
    pub f: Vec<f64>,
    pub report: AllocationReport,
}

/// The freshness bound Σ w A*(λ, f) / Σ w of an allocation (a page whose every change
/// is observed counts its share of changes crawled, min(1, f/λ)).
pub fn bound(repo: &Repository, f: &[f64]) -> f64 {
    let total: f64 = (0..repo.pages()).map(|i| repo.weight(i) * Objective::Freshness.page_value(repo, i, f[i])).sum();
    total / repo.total_weight()
}

/// Allocates `capacity` requests per day; `politeness` is P in days (0: no limit).
/// `Given` has nothing to compute: use [`given`].
pub fn allocate(repo: &Repository, kind: AllocationKind, capacity: f64, politeness: f64) -> Allocation {
    allocate_for(Objective::Freshness, repo, kind, capacity, politeness)
}

/// OPT_POLITE's saturation multipliers ([`opt::saturations`]) for one repository and
/// one P, computed at the first OPT_POLITE allocation and reused at every other capacity.
/// Keep one per repository and P: it does not check that it is given the same ones.
#[derive(Default)]
pub struct Saturations(OnceCell<Vec<f64>>);

/// [`allocate`], sharing OPT_POLITE's saturation multipliers with the other allocations
/// of `repo` at P = `politeness` (the same result as without).
pub fn allocate_sharing(repo: &Repository, kind: AllocationKind, capacity: f64, politeness: f64, shared: &Saturations) -> Allocation {
    allocate_with(Objective::Freshness, repo, kind, capacity, politeness, shared)
}

/// The same, with the optimal allocations optimal for `objective`.
pub fn allocate_for(objective: Objective, repo: &Repository, kind: AllocationKind, capacity: f64, politeness: f64) -> Allocation {
    allocate_with(objective, repo, kind, capacity, politeness, &Saturations::default())
}

fn allocate_with(objective: Objective, repo: &Repository, kind: AllocationKind, capacity: f64, politeness: f64, shared: &Saturations) -> Allocation {
    let (f, kkt) = match kind {
        AllocationKind::Uniform => (waterfill(repo, capacity, politeness, |_| 1.0), None),
        AllocationKind::Proportional => (waterfill(repo, capacity, politeness, |i| repo.lambda[i]), None),
        AllocationKind::OptPolite if politeness > 0.0 => {
            let caps = opt::politeness_caps(repo, politeness);
            let m = shared.0.get_or_init(|| opt::saturations(objective, repo, &caps));
            let (f, kkt) = opt::optimal_capped(objective, repo, capacity, Some(opt::Caps { per_server: &caps, saturations: m }));
            (f, Some(kkt))
        }
        AllocationKind::OptUnpolite | AllocationKind::OptPolite => {
            let (f, kkt) = opt::optimal_capped(objective, repo, capacity, None);
            (f, Some(kkt))
        }
        AllocationKind::Given => unreachable!("given frequencies are not allocated: use alloc::given"),
    };
    let cap = if politeness > 0.0 { 1.0 / politeness } else { f64::INFINITY };
    report(repo, kind, capacity, |_| cap, f, kkt)
}

/// OPT_POLITE with each server's own cap on Σ_{i∈s} f_i (per day; ∞: none), e.g. the
/// least of 1/P, its Crawl-delay's and its capacity's ([`crate::core::model::host::Host::cap_per_day`]).
pub fn allocate_within(repo: &Repository, capacity: f64, caps: &[f64]) -> Allocation {
    let (f, kkt) = opt::optimal_within(Objective::Freshness, repo, capacity, caps);
    report(repo, AllocationKind::OptPolite, capacity, |s| caps[s], f, Some(kkt))
}

/// The report of frequencies given with the pages (Σ f is the capacity).
pub fn given(repo: &Repository, f: Vec<f64>, politeness: f64) -> Allocation {
    let total = f.iter().sum();
    let cap = if politeness > 0.0 { 1.0 / politeness } else { f64::INFINITY };
    report(repo, AllocationKind::Given, total, |_| cap, f, None)
}

/// The report of `f`, server s capped at `cap(s)` per day (∞: none).
fn report(repo: &Repository, kind: AllocationKind, capacity: f64, cap: impl Fn(usize) -> f64, f: Vec<f64>, kkt: Option<Kkt>) -> Allocation {
    let (mut capped, mut over) = (0, 0);
    for s in 0..repo.servers() {
        let cap = cap(s);
        let fs: f64 = f[repo.server_pages(s)].iter().sum();
        if fs > cap * (1.0 + 1e-9) {
            over += 1;
        } else if fs >= cap * (1.0 - 1e-9) {
            capped += 1;
        }
    }
    let report = AllocationReport { kind, capacity, total: f.iter().sum(), capped_servers: capped, servers_over_cap: over, bound: bound(repo, &f), kkt };
    Allocation { f, report }
}

/// Where politeness binds: the servers an allocation holds at their cap 1/P, and what
/// they carry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capped {
    pub servers: u64,
    /// Share of the pages on capped servers.
    pub page_share: f64,
    /// Share of the total weight Σ w on capped servers.
    pub weight_share: f64,
    /// Share of the allocation's freshness Σ w A*(f) earned on capped servers.
    pub freshness_share: f64,
    /// The capped server with the most pages (index into the repository's servers).
    pub largest: Option<usize>,
}

/// The servers `f` holds at their cap 1/P (P in days; 0: none).
pub fn capped(repo: &Repository, f: &[f64], politeness: f64) -> Capped {
    let mut out = Capped { servers: 0, page_share: 0.0, weight_share: 0.0, freshness_share: 0.0, largest: None };
    if politeness <= 0.0 {
        return out;
    }
    let cap = 1.0 / politeness;
    let (mut pages, mut weight, mut fresh, mut all_fresh) = (0usize, 0.0, 0.0, 0.0);
    for s in 0..repo.servers() {
        let range = repo.server_pages(s);
        let fs: f64 = f[range.clone()].iter().sum();
        let gain: f64 = range.clone().map(|i| repo.weight(i) * a_star(repo.lambda[i], f[i])).sum();
        all_fresh += gain;
        if fs >= cap * (1.0 - 1e-9) {
            out.servers += 1;
            pages += range.len();
            weight += range.clone().map(|i| repo.weight(i)).sum::<f64>();
            fresh += gain;
            if out.largest.is_none_or(|l| repo.server_pages(l).len() < range.len()) {
                out.largest = Some(s);
            }
        }
    }
    out.page_share = pages as f64 / repo.pages() as f64;
    out.weight_share = weight / repo.total_weight();
    out.freshness_share = if all_fresh > 0.0 { fresh / all_fresh } else { 0.0 };
    out
}

/// f_i = min(t, cap/G_s)·g_i with G_s = Σ_{i∈s} g_i, t chosen so that Σ f = C (or every
/// server with g > 0 is at its cap).
fn waterfill(repo: &Repository, capacity: f64, politeness: f64, g: impl Fn(usize) -> f64) -> Vec<f64> {
    let cap = if politeness > 0.0 { 1.0 / politeness } else { f64::INFINITY };
    let sums: Vec<f64> = (0..repo.servers()).map(|s| repo.server_pages(s).map(&g).sum()).collect();
    let total_at = |t: f64| sums.iter().map(|&gs| (t * gs).min(if gs > 0.0 { cap } else { 0.0 })).sum::<f64>();
    let reachable = total_at(f64::INFINITY);
    let t = if reachable <= capacity { f64::INFINITY } else { crate::core::math::roots::increasing_root(|t| total_at(t) - capacity, capacity / sums.iter().sum::<f64>()) };
    let mut f = vec![0.0; repo.pages()];
    for (s, &gs) in sums.iter().enumerate() {
        if gs == 0.0 {
            continue;
        }
        let scale = t.min(cap / gs);
        for i in repo.server_pages(s) {
            f[i] = scale * g(i);
        }
    }
    f
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn small() -> Repository {
        Repository::from_servers(&[vec![0.5, 1.0, 2.0, 0.0], vec![0.1], vec![3.0, 0.2]])
    }

    /// The saturation multipliers computed at one capacity and reused at the others give
    /// every allocation to the last bit, whichever capacity came first.
    #[test]
    fn shared_saturations_change_no_allocation() {
        let config = crate::core::model::webbase::RepositoryConfig { pages: 3000, servers: 40, top_share: 0.2, ..Default::default() };
        let repo = crate::core::model::webbase::generate(&config, 17);
        let p = 1.0 / 30.0;
        let shared = Saturations::default();
        for share in [0.9, 0.01, 0.1] {
            let c = share * repo.servers() as f64 / p;
            let (sharing, alone) = (allocate_sharing(&repo, AllocationKind::OptPolite, c, p, &shared), allocate(&repo, AllocationKind::OptPolite, c, p));
            assert_eq!(sharing.f, alone.f, "C = {share}");
            assert_eq!(sharing.report, alone.report, "C = {share}");
        }
        assert!(shared.0.get().is_some_and(|m| m.len() == repo.servers()));
    }

    #[test]
    fn uniform_and_proportional_respect_caps_and_the_total() {
        let repo = small();
        for kind in [AllocationKind::Uniform, AllocationKind::Proportional] {
            let a = allocate(&repo, kind, 2.5, 1.0);
            assert!((a.report.total - 2.5).abs() < 1e-9, "{kind:?}: {}", a.report.total);
            for s in 0..3 {
                assert!(a.f[repo.server_pages(s)].iter().sum::<f64>() <= 1.0 + 1e-9);
            }
        }
        let u = allocate(&repo, AllocationKind::Uniform, 1.0, 1.0);
        assert!((u.f[0] - u.f[4]).abs() < 1e-12, "uniform below the caps");
        let p = allocate(&repo, AllocationKind::Proportional, 1.0, 1.0);
        assert_eq!(p.f[3], 0.0);
        assert!((p.f[2] / p.f[1] - 2.0).abs() < 1e-12);
        // more than the caps allow: every server at its cap
        let all = allocate(&repo, AllocationKind::Uniform, 10.0, 1.0);
        assert!((all.report.total - 3.0).abs() < 1e-9);
        assert_eq!(all.report.capped_servers, 3);
    }
}
