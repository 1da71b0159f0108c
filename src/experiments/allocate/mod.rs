//! Allocation on its own (spec §1.3): the four allocations of a repository — uniform,
//! proportional, OPT_UNPOLITE and OPT_POLITE — at a total frequency C in requests per
//! day, with each page's frequency, the freshness bound Σ w A*(f)/Σ w (Lemma 4.2) and
//! the optimality report. Politeness 0 means no per-server limit. The objective may
//! instead be binary freshness under Poisson crawls or harmonic staleness
//! ([`Objective`]): the two optima are then that objective's, and every allocation
//! reports its value under it. Some pages may have every change observed (a sitemap or
//! feed announces it: `observed_share` of the generated pages, or a page list's
//! `observed` column); the optima then crawl each of them on a change with probability
//! p = f/λ (under harmonic staleness Kolobov et al. 2019, Algorithm 2; under the
//! freshness objectives a fractional knapsack), sharing the multipliers with the other
//! pages ([`Objective::observed_value`]).

pub mod figures;
pub mod table;
#[cfg(test)]
mod tests;

use super::{Choice, Experiment, FileInput, Job, inputs, ready};
use crate::core::alloc::objective::Objective;
use crate::core::alloc::{AllocationKind, AllocationReport, Capped, allocate_for, capped};
use crate::core::input::InputError;
use crate::core::limits::{self, Cost, Fix};
use crate::core::model::source::Pages;
use crate::core::model::source::{RepositorySource, takes_pages};
use crate::core::model::webbase::RepositorySummary;
use crate::core::units::{Days, Seconds};
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

takes_pages! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AllocateConfig {
    /// Total revisit frequency C, in requests per day.
    pub capacity: f64 = 400.0; number("C (requests a day)").positive().at_most(1e15);
    /// Minimum time between two requests to one server; 0: no limit.
    pub politeness_seconds: Seconds = Seconds(0.0); politeness_or_none().at_most(Days(365.0).in_seconds().0);
    /// What the optimal allocations optimise (freshness: the thesis's Lemma 4.2).
    pub objective: Objective = Objective::Freshness;
        select("objective of the optima").help("Lemma 4.2 is the thesis’s; the others are Azar et al.’s and Kolobov et al.’s");
    /// The share of generated pages whose every change is observed, drawn with the seed
    /// (a page list marks them in its `observed` column).
    pub observed_share: f64 = 0.0; shared(Pages::observed_share_field());
    pub seed: u64 = 1; seed();
}
}

/// Bytes per page while the four allocations are computed and reported, and per server,
/// and what the generator holds besides (measured, tests/cost_model.rs).
const BYTES_PER_PAGE: f64 = 47.0;
const BYTES_PER_SERVER: f64 = 1000.0;
const BYTES_BESIDES: f64 = 600_000.0;

impl AllocateConfig {
    fn cost_for(&self, pages: u64, servers: u64) -> Cost {
        let n = pages as f64;
        // four allocations of about 60 Newton steps over the pages
        let work = 240.0 * n;
        Cost {
            work,
            unit: "page evaluations".into(),
            bytes: (n * BYTES_PER_PAGE + servers as f64 * BYTES_PER_SERVER + BYTES_BESIDES).max(self.pages().import_bytes(pages) as f64),
            seconds: work * 5e-9 + self.pages().import_seconds(),
            memory_fix: Fix::new(self.pages().size_field(), "use fewer pages (about 50 bytes each)"),
            time_fix: Fix::new(self.pages().size_field(), "use fewer pages"),
        }
    }
}

impl Settings for AllocateConfig {
    fn rules(&self) -> Result<(), InputError> {
        self.pages().validate()?;
        self.pages().check_observed_share(self.observed_share)
    }

    fn cost(&self) -> Cost {
        let (pages, servers) = self.pages().shape();
        self.cost_for(pages, servers)
    }
}

/// One allocation: its frequencies per page (per day, in the file's order for a page
/// list) and how fresh they can keep the repository.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllocationResult {
    /// Σ w A*(f) / Σ w, each page's A* from Lemma 4.2 at its frequency; under the
    /// binary or harmonic objective (Poisson crawls), Σ w f/(λ + f) / Σ w (a page whose
    /// every change is observed counts min(1, f/λ)).
    pub freshness: f64,
    /// Under the harmonic objective: the expected harmonic staleness per unit of
    /// weight and day, Σ w ln(1 + λ/f) / Σ w (Kolobov et al. 2019).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// Under the binary or harmonic objective: changing pages the allocation never crawls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starved: Option<u64>,
    /// With observed pages: the share of their changes the allocation crawls,
    /// Σ min(f, λ) / Σ λ over them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_crawled: Option<f64>,
    pub frequencies: Vec<f64>,
    pub report: AllocationReport,
    pub capped: Capped,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllocateOutput {
    pub config: AllocateConfig,
    pub repository: RepositorySummary,
    /// Page names in the file's order (a page list), or empty (generated pages are
    /// numbered in server order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<String>,
    /// Each page's change rate per day, in the same order as the frequencies.
    pub change_rates: Vec<f64>,
    /// Whether each page has every change observed, in the same order (empty: none has).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observed: Vec<bool>,
    pub uniform: AllocationResult,
    pub proportional: AllocationResult,
    pub opt_unpolite: AllocationResult,
    pub opt_polite: AllocationResult,
    /// With estimated rates (a history's page list): each allocation's freshness when the
    /// true rates are anywhere in their intervals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<Spread>,
}

/// Re-drawing the rates within their intervals ([`redrawn::redraw`]: log-uniformly within
/// [low, high], uniformly on [0, high] for a page never seen changed): each allocation,
/// computed on the estimates, kept, and its freshness under the redrawn rates — the
/// lowest, median and highest over the redraws, in the order of `allocations()`. A
/// spread of what the intervals allow, not a posterior.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub redraws: u64,
    pub freshness: Vec<[f64; 3]>,
}

/// The spread of `allocations`' freshness under `objective` when the rates of `repo`
/// are redrawn within `bounds` (indexed like `repo`).
fn spread(repo: &crate::core::model::repository::Repository, bounds: &[[f64; 2]], allocations: [&[f64]; 4], objective: Objective, seed: u64) -> Spread {
    use crate::core::sim::redrawn::{REDRAWS, redraw};
    let draws: Vec<[f64; REDRAWS]> = bounds.iter().enumerate().map(|(i, &b)| redraw(seed, i, b)).collect();
    // freshness as the allocations report it: Lemma 4.2's, or under Poisson crawls
    let measure = if objective == Objective::Freshness { Objective::Freshness } else { Objective::Binary };
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); 4];
    let mut drawn = repo.clone();
    for r in 0..REDRAWS {
        for (lambda, d) in drawn.lambda.iter_mut().zip(&draws) {
            *lambda = d[r];
        }
        for (k, f) in allocations.iter().enumerate() {
            values[k].push((0..drawn.pages()).map(|i| drawn.weight(i) * measure.page_value(&drawn, i, f[i])).sum::<f64>() / drawn.total_weight());
        }
    }
    let freshness = values
        .into_iter()
        .map(|mut v| {
            v.sort_by(f64::total_cmp);
            [v[0], v[v.len() / 2], v[v.len() - 1]]
        })
        .collect();
    Spread { redraws: REDRAWS as u64, freshness }
}

impl AllocateOutput {
    pub fn allocations(&self) -> [&AllocationResult; 4] {
        [&self.uniform, &self.proportional, &self.opt_unpolite, &self.opt_polite]
    }
}

/// Computes the four allocations.
pub fn allocations(mut config: AllocateConfig) -> Result<AllocateOutput, InputError> {
    config.validate()?;
    let (repo, list, summary) = config.pages().load_observing(config.observed_share)?;
    config.cost_for(repo.pages() as u64, repo.servers() as u64).check(&limits::here())?;
    config.page_list = None;
    config.page_rows = None;
    let p = config.politeness_seconds.in_days().0;
    let order = |values: Vec<f64>| match &list {
        Some(l) => l.in_file_order(&values),
        None => values,
    };
    let objective = config.objective;
    let one = |kind: AllocationKind| {
        let a = allocate_for(objective, &repo, kind, config.capacity, p);
        let capped = capped(&repo, &a.f, p);
        let mean = |o: Objective| (0..repo.pages()).map(|i| repo.weight(i) * o.page_value(&repo, i, a.f[i])).sum::<f64>() / repo.total_weight();
        let (freshness, cost, starved) = match objective {
            Objective::Freshness => (a.report.bound, None, None),
            Objective::Binary | Objective::Harmonic => {
                let starved = (0..repo.pages()).filter(|&i| repo.lambda[i] > 0.0 && a.f[i] == 0.0).count() as u64;
                (mean(Objective::Binary), (objective == Objective::Harmonic).then(|| mean(Objective::Harmonic)), Some(starved))
            }
        };
        let observed_crawled = repo.observed.is_some().then(|| {
            let observed = || (0..repo.pages()).filter(|&i| repo.observed(i));
            observed().map(|i| a.f[i].min(repo.lambda[i])).sum::<f64>() / observed().map(|i| repo.lambda[i]).sum::<f64>().max(f64::MIN_POSITIVE)
        });
        (AllocationResult { freshness, cost, starved, observed_crawled, frequencies: Vec::new(), report: a.report, capped }, a.f)
    };
    let computed = [AllocationKind::Uniform, AllocationKind::Proportional, AllocationKind::OptUnpolite, AllocationKind::OptPolite].map(one);
    let spread = list.as_ref().and_then(|l| l.rate_bounds.as_ref()).map(|bounds| spread(&repo, bounds, computed.each_ref().map(|(_, f)| f.as_slice()), objective, config.seed));
    let [uniform, proportional, opt_unpolite, opt_polite] = computed.map(|(result, f)| AllocationResult { frequencies: order(f), ..result });
    let change_rates = order(repo.lambda.clone());
    let observed = match (&repo.observed, &list) {
        (Some(o), Some(l)) => l.position.iter().map(|&i| o[i]).collect(),
        (Some(o), None) => o.clone(),
        (None, _) => Vec::new(),
    };
    Ok(AllocateOutput {
        repository: summary,
        pages: list.map(|l| l.names).unwrap_or_default(),
        change_rates,
        observed,
        uniform,
        proportional,
        opt_unpolite,
        opt_polite,
        spread,
        config,
    })
}

impl Experiment for AllocateConfig {
    type Output = AllocateOutput;

    fn start(self) -> Result<Box<dyn Job<AllocateOutput>>, InputError> {
        ready(self, allocations)
    }

    fn files() -> &'static [FileInput] {
        &[inputs::PAGE_LIST]
    }

    fn choices() -> Vec<Choice> {
        vec![Choice::of("source", &RepositorySource::ALL, RepositorySource::label), Choice::of("objective", &Objective::ALL, Objective::label)]
    }
}
