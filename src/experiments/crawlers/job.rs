//! The crawlers experiment's runs: the crawler on its settings, then MERGE on OPT_POLITE
//! at the bandwidth the crawler used (the best Freshlab knows for the same pages,
//! bandwidth and politeness), each advanced server by server in fixed time slices; with
//! the tuning, the candidates of the search one after the other, then the tuned file,
//! written and read back, run again to confirm what the search measured.

use super::CrawlersConfig;
use super::output::{
    CrawlersOutput, GapSplit, HostBoundsUsed, RunResult, ServerGap, ServerRun, SheetsUsed, Tuned, TunedChange, TunedHosts, TunedMimes, TunedRedrawn, TunedSeeds, TuningProgress,
};
use super::overlays::{Overlays, TunedSheets};
use crate::core::alloc::{AllocationKind, allocate, allocate_within, bound};
use crate::core::input::InputError;
use crate::core::model::host::{Host, HostLoad, Refusal};
use crate::core::model::page_metadata::PageMetadata;
use crate::core::model::rate_bins::RateBins;
use crate::core::model::repository::Repository;
use crate::core::model::seed_list::{self, SeedsUsed};
use crate::core::model::webbase::RepositorySummary;
use crate::core::policy::adaptive::{Adaptive, OwnStarts};
use crate::core::policy::crawler_files::nutch_hosts::{self, HostIntervals};
use crate::core::policy::crawler_files::seed_metadata::{self, KeyUse};
use crate::core::policy::crawler_files::tuning::{self, Ground, HostStage, Score, Search, Typed};
use crate::core::policy::crawler_files::write::{self, Change};
use crate::core::policy::crawler_files::{Crawler, Loaded, Model, SECOND, heritrix_sheets, nutch_mimes, scrapy_slots};
use crate::core::policy::fetch_list::Cycles;
use crate::core::policy::pushback::{self, Answers, Backoff, CrawlDelayRule, CrawlerRules, HostGate, Reaction};
use crate::core::policy::server::ServerSchedule;
use crate::core::policy::{PolicyKind, PolitenessCheck, Retry};
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::freshness::{Account, Estimator, Fetch, Freshness};
use crate::core::sim::redrawn::{self, REDRAWS, RedrawnRates};
use crate::experiments::Plan;

/// Requests in a slice, about (the slices are fixed by the configuration alone).
const SLICE_REQUESTS: f64 = 200_000.0;
/// A tuning candidate's slices at least.
pub(super) const CANDIDATE_SLICES: usize = 100;
/// Servers listed in the gap per server.
const SERVERS_SHOWN: usize = 10;
/// A run of the gap's split at least: fine, so that one far over the crawler's requests
/// (Nutch before NUTCH-1564's fix without its cycles refetches at every slot) stops
/// within a thousandth of the horizon.
pub(super) const SPLIT_SLICES: usize = 1000;

/// Why a candidate from the optimum's intervals is not tried: it has none.
const NO_OPTIMUM: &str = "the optimum (MERGE at the crawler's bandwidth) made no request";

/// A run's slices for about `requests` requests (each slice steps every server once).
pub(super) fn slices_for(requests: f64) -> usize {
    (requests / SLICE_REQUESTS).ceil().clamp(1.0, 10_000.0) as usize
}

pub struct CrawlersJob {
    config: CrawlersConfig,
    loaded: Loaded,
    pub(super) repo: Repository,
    summary: RepositorySummary,
    /// P in days.
    politeness: f64,
    slices: usize,
    results: Vec<RunResult>,
    /// The crawler's bandwidth (requests a day), once it has run.
    bandwidth: Option<f64>,
    total_work: f64,
    /// Each server's limits: a page list's columns, else the settings.
    hosts: Vec<Host>,
    /// The search for a tuned configuration, once the crawler and MERGE have run.
    search: Option<Search>,
    /// The tuned file and what it gave, once the search is over.
    tuned: Option<Tuned>,
    /// Whether some server has a capacity (the tuning then tries slower spacings).
    pushed_back: bool,
    /// The page list's server names (none for the generator's).
    server_names: Vec<String>,
    /// Each server in the crawler's run, then in MERGE's.
    pub(super) per_server: Vec<Vec<ServerRun>>,
    /// The servers where the crawler loses most, once both have run.
    gaps: Vec<ServerGap>,
    /// The causes of the gap this run has, each removed in turn for one more run of
    /// the crawler (the gap split by cause), and the freshness and requests each gave.
    causes: Vec<Without>,
    without: Vec<(f64, u64)>,
    /// The requests a run of the crawler makes by its intervals alone (the estimate's).
    requests_per_run: f64,
    /// The cause whose run was stopped past twice the crawler's requests, or twice what
    /// its intervals ask (the gap is then not split).
    stopped: Option<Without>,
    /// UNPOLITE bound − POLITE bound at the crawler's bandwidth: what P costs the optimum.
    politeness_cost: Option<f64>,
    /// POLITE bound − the bound within the servers' own limits: what their Crawl-delays
    /// and capacities cost the optimum beyond P (None: MERGE does not know them).
    limits_cost: Option<f64>,
    /// With estimated rates (a history's page list): each page's rates redrawn within
    /// its interval, for the shown runs' spread.
    redrawn: Option<RedrawnRates>,
    /// The crawler's runs on each redraw so far, and the tuned file's (its model kept
    /// for them): freshness over the whole run and over its last quarter.
    redrawn_means: [Vec<(f64, f64)>; 2],
    tuned_model: Option<Model>,
    /// The tuned files as read back, where their rates by type moved (the tuned
    /// adaptive-mimetypes.txt's): the tuned runs' pages start from them.
    tuned_loaded: Option<Loaded>,
    /// Each server's own interval bounds (Nutch's host file; NUTCH-3029), and the file's use.
    host_bounds: Vec<Option<HostIntervals>>,
    host_used: Option<HostBoundsUsed>,
    /// OPT_POLITE's requests a day per page at the crawler's bandwidth (MERGE's), once run.
    optimum: Vec<f64>,
    /// Each server's one revisit from the optimum, unstretched (Heritrix's revisit
    /// sheets; solved once, each fitting run only stretches it).
    host_revisits: std::cell::OnceCell<Vec<Option<f64>>>,
    /// The host file the tuning tries last (Nutch on named hosts): its bounds per server,
    /// its text and what it bounds.
    tuned_hosts: Option<(Vec<Option<HostIntervals>>, String, HostBoundsUsed)>,
    /// The tuning's last candidates not tried, each with why (a sentence).
    untried: Vec<String>,
    /// The sheets the tuning tries last (Heritrix on named hosts with capacities).
    tuned_sheets: Option<TunedSheets>,
    /// The pages' fixed intervals the tuning tries very last (Nutch or StormCrawler on a
    /// page list): the starts they give, read back from each page's metadata, and each
    /// page's interval in its seed-list key's unit (None: never refetched).
    tuned_seeds: Option<(OwnStarts, Vec<Option<u64>>)>,
    /// The page list's page names, indexed like the repository (none for the generator's).
    page_names: Vec<String>,
    /// What the seed list did to the page list's pages, when one was given.
    seeds_used: Option<SeedsUsed>,
    /// The tuned seed list's text, once the search is over (empty before, or without one).
    seed_text: String,
    /// Every run has ended: the result is the final one (the seed list's text goes with
    /// it alone).
    complete: bool,
    /// The pages' metadata (a page list's column), and what each key of it does.
    metadata: Option<PageMetadata>,
    metadata_keys: Vec<KeyUse>,
    /// Nutch's scores as injected (a seed list's `nutch.score`), which order a cycle's
    /// fetch list; None: the pages' weights stand for them.
    scores: Option<Vec<f64>>,
    /// Heritrix's sheets over the servers' hosts, and what they covered.
    overlays: Overlays,
    sheets_used: Option<SheetsUsed>,
}

/// A cause of the gap between the crawler and MERGE, removed from the crawler for one
/// run; each removal keeps those before it (a sequential split: its order matters).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Without {
    /// Nutch's batch cycles: a page is fetched when due, not at the next cycle.
    Cycles,
    /// The servers' limits: no capacity, Crawl-delay or response time (so nothing to
    /// back off from).
    Limits,
}

/// A server without limits.
const FREE_HOST: Host = Host { crawl_delay_s: 0.0, capacity: f64::INFINITY, response_s: 0.0 };

/// What a run is for.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// The crawler as loaded.
    Crawler,
    /// MERGE on OPT_POLITE at the crawler's bandwidth.
    Merge,
    /// A candidate of the tuning: scored, not shown.
    Candidate,
    /// The tuned file, read back: shown.
    Tuned,
    /// The crawler without a cause of the gap: measured, not shown.
    Without(Without),
    /// The crawler (or the tuned file) again on redraw `k` of the estimated rates: a
    /// crawler that adapts to the changes its fetches show would have seen others, so
    /// its spread is of these runs, not of its one schedule counted under them.
    Redrawn { tuned: bool, k: usize },
}

/// One run in progress: every server's schedule, stream and politeness check; the
/// account of every page; the slices done.
pub struct Running {
    role: Role,
    /// Its slices: a candidate's are finer (at least [`CANDIDATE_SLICES`]), so that one
    /// far over the budget is stopped early.
    slices: usize,
    schedules: Vec<ServerSchedule>,
    streams: Vec<Stream>,
    checks: Vec<PolitenessCheck>,
    account: Account,
    f: Vec<f64>,
    bound: Option<f64>,
    unchanged: u64,
    slice: usize,
    /// How the run's crawler spaces requests and reacts to refusals: one set of rules
    /// for each set of Heritrix's sheets ([`Overlays`]; the first without any).
    rules: Vec<CrawlerRules>,
    loads: Vec<HostLoad>,
    gates: Vec<HostGate>,
    /// Each server's answers.
    answers: Vec<Answers>,
    /// Each server's weighted fresh time its visits have closed (days).
    fresh: Vec<f64>,
    /// Servers the crawler never requests (their Crawl-delay over its cap).
    skipped: u64,
    /// Whether its servers have no limits (the gap's split).
    free_hosts: bool,
    /// The pages' true rates in this run, where not the repository's (a redraw's).
    lambda: Option<Vec<f64>>,
    /// Nutch's crawl cycles, where their fetch lists have a cap (`generate.topN`,
    /// `generate.max.count`).
    cycles: Option<Cycles>,
    /// Whether its servers are under the tuning's sheets (else the file's).
    tuned_sheets: bool,
}

impl Running {
    /// The pages' true rates in this run.
    fn rates<'a>(&'a self, repo: &'a Repository) -> &'a [f64] {
        self.lambda.as_deref().unwrap_or(&repo.lambda)
    }
}

/// Every fetch accounted, those that found the page unchanged counted.
struct Visits<'a> {
    account: &'a mut Account,
    repo: &'a Repository,
    lambda: &'a [f64],
    unchanged: &'a mut u64,
}

impl Freshness for Visits<'_> {
    fn visit(&mut self, page: usize, time: f64, rng: &mut Stream) -> Option<Fetch> {
        let fetch = self.account.visit(page, time, self.lambda[page], self.repo.weight(page), rng);
        if fetch.is_some_and(|f| !f.changed) {
            *self.unchanged += 1;
        }
        fetch
    }
}

/// How the crawler of `model` spaces its requests and reacts to refusals: Scrapy's
/// retries wait behind the host's requests due (its next slot at least).
pub(super) fn crawler_rules(config: &CrawlersConfig, model: &Model) -> CrawlerRules {
    let retried = match config.refusal {
        Refusal::TooManyRequests => model.retries_429,
        Refusal::Unavailable => model.retries_503,
    };
    let retry = Retry { soon: model.politeness_s() / 86_400.0, times: if retried { model.retry_times } else { 0 }, later: model.retry_days };
    CrawlerRules { reaction: model.reaction.on_status(config.refusal), gap_s: model.politeness_s(), crawl_delay: model.crawl_delay_rule(), retry }
}

/// Each server's own bounds from the host file's `listed` hosts (matched by name,
/// case aside), and what the file bound (with one), and the hosts with pages whose
/// shortest interval lies past `refetch_max` (Nutch's db.fetch.interval.max).
fn host_bounds_of(listed: Vec<HostIntervals>, names: &[String], repo: &Repository, given: bool, refetch_max: Option<f64>) -> (Vec<Option<HostIntervals>>, Option<HostBoundsUsed>) {
    let mut by_host: std::collections::HashMap<String, HostIntervals> = listed.iter().map(|h| (h.host.clone(), h.clone())).collect();
    let bounds: Vec<Option<HostIntervals>> = (0..repo.servers()).map(|s| names.get(s).and_then(|n| by_host.remove(&n.to_ascii_lowercase()))).collect();
    let pages = (0..repo.servers()).filter(|&s| bounds[s].is_some()).map(|s| repo.server_pages(s).len() as u64).sum();
    let matched = bounds.iter().filter(|b| b.is_some()).count() as u64;
    let unmatched = listed.iter().filter(|h| by_host.contains_key(&h.host)).take(20).map(|h| h.host.clone()).collect();
    let past_max: Vec<(String, u64)> = match refetch_max {
        Some(m) => bounds.iter().flatten().filter(|h| h.min.is_some_and(|min| min > m)).map(|h| (h.host.clone(), h.line)).collect(),
        None => Vec::new(),
    };
    let used = given.then(|| HostBoundsUsed::of(listed.len() as u64, matched, pages, unmatched).with_past_max(past_max, refetch_max));
    (bounds, used)
}

impl CrawlersJob {
    pub fn new(config: CrawlersConfig) -> Result<Self, InputError> {
        let loaded = config.loaded()?;
        let (repo, list, summary) = config.pages().load_with_limits()?;
        let seeds = config.seeds()?;
        // the page list's page names in the repository's order
        let names_in_order = |l: &crate::core::model::page_list::PageList| {
            let mut names = vec![String::new(); l.names.len()];
            for (name, &i) in l.names.iter().zip(&l.position) {
                names[i].clone_from(name);
            }
            names
        };
        // a seed list's pairs stand for its pages' metadata cells
        let (metadata, seeds_used) = match &list {
            Some(l) if !seeds.is_empty() => {
                let (joined, mut used) = seed_list::join(&seeds, &names_in_order(l), l.metadata.as_ref());
                used.said = super::output::seeds_said(&used);
                (Some(joined), Some(used))
            }
            _ => (list.as_ref().and_then(|l| l.metadata.clone()), None),
        };
        let kind_pages = metadata.as_ref().map(|m| m.pages_of_kind()).unwrap_or_default();
        let metadata_keys = match (&metadata, &list) {
            (Some(m), Some(l)) => match seed_metadata::starts(&loaded, &loaded.model, &m.kinds, &kind_pages) {
                Ok(starts) => starts.keys,
                Err((kind, why)) => {
                    let row = l.position.iter().position(|&i| m.of[i] as usize == kind).unwrap_or(0);
                    let field = if seeds.iter().any(|s| s.url == l.names[row]) {
                        "seed_list"
                    } else if config.page_list.is_some() {
                        "page_list"
                    } else {
                        "page_rows"
                    };
                    return Err(InputError::new(field, format!("page “{}”: {why}", l.names[row])));
                }
            },
            _ => Vec::new(),
        };
        let scores = match &metadata {
            Some(m) if loaded.crawler == Crawler::Nutch => {
                let of_kind: Vec<Option<f64>> = m.kinds.iter().map(|k| seed_metadata::injected_score(k).ok().flatten()).collect();
                of_kind.iter().any(Option::is_some).then(|| m.of.iter().map(|&k| of_kind[k as usize].unwrap_or(seed_metadata::SCORE_INJECTED)).collect())
            }
            _ => None,
        };
        let set = config.host();
        let server_names = list.as_ref().map(|l| l.server_names.clone()).unwrap_or_default();
        // the page names, for the tuning's seed list (Nutch and StormCrawler only) and for
        // Heritrix's sheets over paths
        let seeded = config.tune && seed_metadata::fixed_key(loaded.crawler).is_some();
        let page_names = list.as_ref().filter(|_| seeded || loaded.sheets.iter().any(heritrix_sheets::sets_pages_apart)).map_or_else(Vec::new, names_in_order);
        let redrawn = list.as_ref().and_then(|l| l.rate_bounds.as_ref()).map(|bounds| RedrawnRates::of(config.seed, bounds));
        let listed = config.host_bounds(&loaded)?;
        let (host_bounds, host_used) = host_bounds_of(listed, &server_names, &repo, config.host_intervals.is_some(), loaded.model.intervals.refetch_max);
        let (overlays, sheets_used) = Overlays::of(&loaded.sheets, &server_names, &page_names, &repo, &loaded.model).map_err(|e| InputError::new("crawler_config", e))?;
        let hosts = match list.and_then(|l| l.servers) {
            Some(limits) => limits.iter().map(|l| l.over(set)).collect(),
            None => vec![set; repo.servers()],
        };
        let politeness = config.politeness_days(&loaded);
        let rates = RateBins::of(repo.lambda.iter().copied());
        let sizes: Vec<f64> = (0..repo.servers()).map(|s| repo.server_pages(s).len() as f64).collect();
        let mix = metadata.as_ref().map_or_else(Vec::new, |m| config.start_mix(&loaded, m.kinds.iter().map(String::as_str).zip(kind_pages.iter().map(|&n| n as f64)), 0.0));
        let requests = config.requests(&loaded, &mix, repo.pages() as f64, repo.servers() as f64, &rates, Some(&sizes));
        let slices = slices_for(requests);
        let pushed_back = hosts.iter().any(|h| h.capacity.is_finite());
        let mut causes = Vec::new();
        if loaded.model.intervals.cycle > 0.0 {
            causes.push(Without::Cycles);
        }
        if hosts.iter().any(|h| *h != FREE_HOST) {
            causes.push(Without::Limits);
        }
        let runs = 2.0
            + causes.len() as f64
            + if config.tune { Search::most_runs(config.crawler, &loaded.model, Ground::new(pushed_back, !server_names.is_empty())) as f64 + 1.0 } else { 0.0 }
            + if redrawn.is_some() { (REDRAWS * if config.tune { 2 } else { 1 }) as f64 } else { 0.0 };
        let total_work = runs * requests + repo.pages() as f64;
        Ok(CrawlersJob {
            config,
            loaded,
            repo,
            summary,
            politeness,
            slices,
            results: Vec::new(),
            bandwidth: None,
            total_work,
            hosts,
            search: None,
            tuned: None,
            pushed_back,
            server_names,
            per_server: Vec::new(),
            gaps: Vec::new(),
            causes,
            without: Vec::new(),
            requests_per_run: requests,
            stopped: None,
            politeness_cost: None,
            limits_cost: None,
            redrawn,
            redrawn_means: [Vec::new(), Vec::new()],
            tuned_model: None,
            tuned_loaded: None,
            host_bounds,
            host_used,
            optimum: Vec::new(),
            host_revisits: std::cell::OnceCell::new(),
            tuned_hosts: None,
            untried: Vec::new(),
            tuned_sheets: None,
            tuned_seeds: None,
            page_names,
            seeds_used,
            seed_text: String::new(),
            complete: false,
            metadata,
            metadata_keys,
            scores,
            overlays,
            sheets_used,
        })
    }

    fn horizon(&self) -> f64 {
        self.config.horizon_days.0
    }

    /// Whether MERGE's allocation and schedule keep each server's own limits: under
    /// Freshlab's rule, which knows them, where some server has any (Google's reads
    /// neither Crawl-delay nor capacity: it learns by slowing down).
    fn merge_knows_limits(&self) -> bool {
        self.config.merge_backoff == Backoff::Freshlab && self.hosts.iter().any(|h| h.cap_per_day(0.0).is_finite())
    }

    /// Each server's cap on MERGE's requests a day: 1/P, or where MERGE knows the
    /// server's limits the least of 1/P, its Crawl-delay's and its capacity's share
    /// `merge_load` (∞: none).
    fn merge_caps(&self) -> Vec<f64> {
        let (p, known) = (self.politeness, self.merge_knows_limits());
        let load = self.config.merge_load;
        self.hosts.iter().map(|h| if known { Host { capacity: h.capacity * load, ..*h } } else { FREE_HOST }.cap_per_day(p)).collect()
    }

    /// Whether MERGE has run at the crawler's bandwidth (or cannot: it made no request).
    fn compared(&self) -> bool {
        self.results.len() >= 2 || (self.results.len() == 1 && self.bandwidth == Some(0.0))
    }

    /// Whether every run is done: the crawler, MERGE, the gap's split, and the tuning's
    /// when asked.
    fn done(&self) -> bool {
        self.compared() && self.split() && (!self.config.tune || self.tuned.as_ref().is_some_and(|t| !t.changed() || t.confirmed.is_some()))
    }

    /// Whether the crawler has run without each cause of the gap (or cannot be compared).
    fn split(&self) -> bool {
        self.without.len() == self.causes.len() || self.stopped.is_some() || self.results.len() < 2
    }

    /// The gap split by cause, once every run of the split is done.
    fn gap_split(&self) -> Option<GapSplit> {
        let [crawler, merge, ..] = &self.results[..] else { return None };
        if !self.split() || self.stopped.is_some() {
            return None;
        }
        let part = |cause| {
            self.causes.iter().position(|&c| c == cause).map(|k| {
                let before = if k == 0 { crawler.converged } else { self.without[k - 1].0 };
                difference(self.without[k].0, before)
            })
        };
        let last = self.without.last().map_or(crawler.converged, |w| w.0);
        let cycles_position = self.causes.iter().position(|&c| c == Without::Cycles);
        Some(GapSplit {
            total: difference(merge.converged, crawler.converged),
            cycles: part(Without::Cycles),
            requests_without_cycles: cycles_position.map(|k| self.without[k].1 as f64 / crawler.requests.max(1) as f64),
            limits: part(Without::Limits),
            revisit: difference(merge.converged, last),
            politeness_cost: self.politeness_cost.unwrap_or(0.0),
            limits_cost: self.limits_cost,
            merge_load: self.config.merge_load,
        })
    }

    /// The loaded file with `changes` made, as the crawler would read it: its text and
    /// its settings (an error: a candidate the crawler would refuse, as a shortest
    /// interval over the longest).
    fn file_with(&self, changes: &[Change]) -> Result<(String, Loaded), String> {
        let value = |loaded: &Loaded, name: &str| loaded.settings.iter().find(|s| s.name == name).map_or_else(|| "unset".into(), |s| s.value.clone());
        let was = |name: &str| value(&self.loaded, name);
        // the file as run (crawler_settings written over it), then the tuning's changes
        let original = self.config.read(self.config.crawler_config.as_deref()).map_err(|e| e.message)?;
        let file = self.config.file_as_set(self.config.crawler_config.as_deref(), &|name: &str| value(&original, name)).map_err(|e| e.message)?;
        let text = write::write(self.loaded.crawler, file.as_deref(), changes, "Freshlab's tuning", &was)?;
        let loaded = self.config.read(Some(&text)).map_err(|e| e.message)?;
        Ok((text, loaded))
    }

    /// The next redraw to run the crawler (or the tuned file) on, with estimated rates.
    fn redraw_due(&self, tuned: bool) -> Option<usize> {
        let done = self.redrawn_means[usize::from(tuned)].len();
        (self.redrawn.is_some() && done < REDRAWS).then_some(done)
    }

    fn result(&self, run: &Running, until: f64, complete: bool) -> RunResult {
        let bins = run.account.closed_bins(until, run.rates(&self.repo), |i| self.repo.weight(i));
        let width = self.horizon() / self.config.bins as f64;
        let total = self.repo.total_weight();
        let done = ((until / width).floor() as usize).min(self.config.bins as usize);
        let freshness: Vec<f64> = bins.totals().iter().take(done).map(|t| t / (width * total)).collect();
        let requests: u64 = run.checks.iter().map(|c| c.requests).sum();
        let mut answers = Answers::default();
        for a in &run.answers {
            answers.add(a);
        }
        let over: Vec<f64> = run.loads.iter().map(|l| l.over_seconds(until)).collect();
        let average = |bins: &[f64]| if bins.is_empty() { 0.0 } else { bins.iter().sum::<f64>() / bins.len() as f64 };
        let mean = average(&freshness);
        let converged = average(&freshness[freshness.len() - freshness.len().div_ceil(4)..]);
        RunResult {
            label: match run.role {
                Role::Merge => match self.config.merge_backoff {
                    Backoff::Freshlab => "MERGE on OPT_POLITE, same bandwidth".into(),
                    Backoff::Google => "MERGE on OPT_POLITE, same bandwidth, Google's slow-down".into(),
                },
                Role::Tuned | Role::Redrawn { tuned: true, .. } => format!("{}, tuned", self.loaded.crawler.label()),
                Role::Crawler | Role::Candidate | Role::Without(_) | Role::Redrawn { tuned: false, .. } => self.loaded.crawler.label().into(),
            },
            freshness,
            complete,
            mean,
            converged,
            requests,
            unchanged: run.unchanged,
            bandwidth: requests as f64 / until.max(1e-12),
            violations: run.checks.iter().map(|c| c.violations).sum(),
            polite_bound: run.bound,
            answers,
            skipped_servers: run.skipped,
            over_capacity_s: over.iter().sum(),
            servers_over_capacity: over.iter().filter(|&&s| s > 0.0).count() as u64,
            left_off_lists: run.cycles.as_ref().map(|c| c.left),
            list_caps: run.cycles.as_ref().map(Cycles::caps_said).unwrap_or_default(),
            // MERGE's schedule does not react to what it fetches: its one schedule counted
            // under each redraw; a crawler's spread is of its runs again (set at their end)
            spread: run.account.redrawn_fresh(until, |i| self.repo.weight(i)).filter(|_| complete).map(|f| redrawn::spread(f, total * until)),
            refusals_unseen: answers.refused > 0 && run.rules.iter().all(|r| matches!(r.reaction, Reaction::Stormcrawler { backoff, .. } if !backoff.sees_refusals)),
        }
    }

    /// Each server in `run` up to `until`: its requests, refusals, time over capacity
    /// and its pages' freshness over the run.
    fn server_runs(&self, run: &Running, until: f64) -> Vec<ServerRun> {
        (0..self.repo.servers())
            .map(|s| {
                let pages = self.repo.server_pages(s);
                let weight: f64 = pages.clone().map(|i| self.repo.weight(i)).sum();
                let fresh = run.account.fresh_time(pages, run.fresh[s], until, run.rates(&self.repo), |i| self.repo.weight(i));
                ServerRun {
                    requests: run.checks[s].requests,
                    refused: run.answers[s].refused,
                    over_capacity_s: run.loads[s].over_seconds(until),
                    freshness: if weight > 0.0 && until > 0.0 { fresh / (weight * until) } else { 0.0 },
                }
            })
            .collect()
    }

    /// The servers where the crawler loses most against MERGE (its part of the gap over
    /// the run), once both have run.
    fn server_gaps(&self) -> Vec<ServerGap> {
        let [crawler, merge] = &self.per_server[..] else { return Vec::new() };
        let total = self.repo.total_weight();
        let models = self.overlays.models(&self.loaded.sheets, &self.loaded.model);
        let mut gaps: Vec<ServerGap> = (0..self.repo.servers())
            .map(|s| {
                let pages = self.repo.server_pages(s);
                let share = pages.clone().map(|i| self.repo.weight(i)).sum::<f64>() / total;
                let host = &self.hosts[s];
                ServerGap {
                    name: self.server_names.get(s).cloned().unwrap_or_else(|| format!("server {}", s + 1)),
                    pages: pages.len() as u64,
                    weight_share: share,
                    crawl_delay_s: host.crawl_delay_s,
                    capacity: host.capacity.is_finite().then_some(host.capacity),
                    response_ms: host.response_s * 1000.0,
                    skipped: {
                        let m = &models[self.overlays.set(s)];
                        m.reaction.skips(host, &m.crawl_delay_rule())
                    },
                    crawler: crawler[s],
                    merge: merge[s],
                    gap: share * (merge[s].freshness - crawler[s].freshness),
                }
            })
            .collect();
        gaps.sort_by(|a, b| b.gap.total_cmp(&a.gap));
        gaps.truncate(SERVERS_SHOWN);
        gaps
    }

    /// A run as the tuning scores it: the freshness asked (`tune_for`), its requests and
    /// refusals.
    fn score(&self, result: &RunResult) -> Score {
        Score { freshness: self.config.tune_for.of(result.mean, result.converged), requests: result.requests, refused: result.answers.refused }
    }

    /// What the crawler reads of the file that sets `model`'s settings (None: a file it
    /// would refuse), the types' rates kept as `model` moves them (the tuned
    /// adaptive-mimetypes.txt, written beside the file).
    fn realise(&self, model: &Model) -> Option<Model> {
        let changes = tuning::file_changes(&self.loaded, model);
        let read = if changes.is_empty() { Some(self.loaded.model) } else { self.file_with(&changes).ok().map(|(_, l)| l.model) };
        read.map(|m| Model { type_share: model.type_share, type_lead: model.type_lead, ..m })
    }

    /// The pages' own starts under the run's `model` (their metadata's custom intervals),
    /// and each page's index into them; None without metadata. A kind the loaded file
    /// takes but a tuning candidate does not (a fixed interval past db.fetch.interval.max
    /// once the candidate adapts, without cycles) keeps the candidate's rule.
    fn page_starts(&self, loaded: &Loaded, model: &Model) -> Option<OwnStarts> {
        let m = self.metadata.as_ref()?;
        let mut table = seed_metadata::StartTable::default();
        // (at most as many starts as the loaded file's, which new() counted)
        let of_kind: Vec<u16> = m.kinds.iter().map(|kind| table.index(seed_metadata::start_of(loaded, model, kind).unwrap_or(None)).unwrap_or(0)).collect();
        if table.starts.iter().all(Option::is_none) {
            return None;
        }
        Some(OwnStarts { starts: table.starts.into(), of: m.of.iter().map(|&k| of_kind[k as usize]).collect() })
    }

    /// The tuned adaptive-mimetypes.txt, each type some page has moved as in `model`,
    /// read back into `read_back` (None, and the file's rates kept: no type's rate moved).
    fn tuned_mimes(&self, model: &Model, read_back: &mut Loaded) -> Option<TunedMimes> {
        // (a type no page has is kept as written: no run measured it)
        let typed = self.typed().types;
        let text = self.config.mime_rates.as_deref().filter(|_| !typed.is_empty())?;
        let written = nutch_mimes::write(text, |k| if typed.contains(&k) { model.share_of_type(k) } else { 1.0 }).ok()?;
        let back = nutch_mimes::read(&written).ok()?;
        let changes: Vec<TunedChange> = self
            .loaded
            .mime_rates
            .iter()
            .zip(&back)
            .filter(|(was, now)| was.inc_rate != now.inc_rate)
            .map(|(was, now)| TunedChange { name: format!("{} inc_rate", was.mime), from: format!("{}", was.inc_rate), to: format!("{}", now.inc_rate) })
            .collect();
        if changes.is_empty() {
            return None;
        }
        read_back.mime_rates = back;
        Some(TunedMimes { file_name: nutch_mimes::FILE_NAME.into(), text: written, changes })
    }

    /// Which pages adapt at their type's rates (MimeAdaptiveFetchSchedule's file lists
    /// their Content-Type).
    fn typed(&self) -> Typed {
        let (Some(m), true) = (self.metadata.as_ref(), self.loaded.model.by_type) else { return Typed::default() };
        let kinds = m.kinds.iter().map(String::as_str).zip(m.pages_of_kind());
        Typed::of(&self.loaded.mime_rates, kinds, m.of.len() as u64)
    }

    /// The host file for `model`'s global bounds from the optimum's intervals times
    /// `stretch`, read back as Nutch reads it. Err: why there is none to try.
    fn host_file(&self, model: &Model, stretch: f64) -> Result<(Vec<Option<HostIntervals>>, String, HostBoundsUsed), String> {
        if self.optimum.len() != self.repo.pages() {
            return Err(NO_OPTIMUM.into());
        }
        let listed: Vec<HostIntervals> =
            tuning::host_bounds_from(&self.optimum, |s| self.repo.server_pages(s), &self.server_names, &model.intervals, stretch).into_iter().map(|(_, h)| h).collect();
        let text = nutch_hosts::write(
            &listed,
            "each host's bounds from the shortest and longest interval the optimum (OPT_POLITE at your crawler's bandwidth) gives its pages; Freshlab's tuning",
        );
        let read = nutch_hosts::read(&text, &model.intervals).map_err(|e| format!("the file written from the optimum's intervals cannot be read back: {e}"))?;
        let (bounds, used) = host_bounds_of(read, &self.server_names, &self.repo, true, model.intervals.refetch_max);
        let used = used.filter(|u| u.matched > 0).ok_or("no host's bounds from the optimum's intervals differ from the global ones")?;
        Ok((bounds, text, used))
    }

    /// Each page's interval fixed at the optimum's times `stretch` in its seed-list
    /// metadata (what it held besides kept), read back as the crawler reads its seeds
    /// under `model`, and each page's interval in the key's unit. Err: why there is none
    /// to try.
    fn seed_starts(&self, model: &Model, stretch: f64) -> Result<(OwnStarts, Vec<Option<u64>>), String> {
        let key = seed_metadata::fixed_key(self.loaded.crawler).ok_or("the crawler reads no page's own fixed interval")?;
        if self.optimum.len() != self.repo.pages() {
            return Err(NO_OPTIMUM.into());
        }
        if self.page_names.len() != self.repo.pages() {
            return Err("the pages have no URLs to list".into());
        }
        let most = (self.loaded.crawler == Crawler::Nutch).then(|| model.intervals.refetch_max.unwrap_or(model.intervals.max));
        let values = tuning::seed_intervals_from(&self.optimum, key.unit, most, stretch);
        let mut table = seed_metadata::StartTable::default();
        let mut index: std::collections::HashMap<(u32, Option<u64>), u16> = std::collections::HashMap::new();
        let mut of = Vec::with_capacity(values.len());
        for (i, &v) in values.iter().enumerate() {
            let kind = self.metadata.as_ref().map_or(0, |m| m.of[i]);
            let k = match index.get(&(kind, v)) {
                Some(&k) => k,
                None => {
                    let text = seed_metadata::with_fixed_interval(self.metadata.as_ref().map_or("", |m| &m.kinds[kind as usize]), &key, v);
                    let start = seed_metadata::start_of(&self.loaded, model, &text).map_err(|e| format!("a page's tuned pairs cannot be read back: {e}"))?;
                    let k = table.index(start).ok_or("its pages would have more kinds of start than a run holds")?;
                    index.insert((kind, v), k);
                    k
                }
            };
            of.push(k);
        }
        Ok((OwnStarts { starts: table.starts.into(), of }, values))
    }

    /// The seed list of `values` for each page (in its key's unit), as the crawler reads it.
    fn seed_list(&self, values: &[Option<u64>]) -> String {
        let Some(key) = seed_metadata::fixed_key(self.loaded.crawler) else { return String::new() };
        let kinds: Vec<String> =
            (0..self.repo.pages()).map(|i| seed_metadata::with_fixed_interval(self.metadata.as_ref().map_or("", |m| &m.kinds[m.of[i] as usize]), &key, values[i])).collect();
        let about = match self.loaded.crawler {
            Crawler::Nutch => {
                "Each page's interval fixed (seconds) at the one the optimum (OPT_POLITE at your crawler's bandwidth) gives it; Freshlab's tuning.\nInject with -overwrite so that pages already in your CrawlDb take their interval."
            }
            _ => {
                "Each page's interval (scheduler.delay.mins, minutes; -1 never) at the one the optimum (OPT_POLITE at your crawler's bandwidth) gives it; Freshlab's tuning.\nDefaultScheduler reads it (the tuned crawler-conf.yaml sets it). Inject into a new status index: a seed of a URL the index already holds does not replace its stored metadata."
            }
        };
        seed_metadata::seed_list(about, self.page_names.iter().map(String::as_str).zip(kinds.iter().map(String::as_str)))
    }

    /// The tuning's sheets (Scrapy's slots) for `model`: each host over capacity held to
    /// it, and for Heritrix each host's revisit from the optimum's, times `stretch` (its
    /// rescheduler turned on where the file has it off); why not where they cannot be.
    fn sheets_for(&self, model: &Model, stretch: f64) -> Result<Option<TunedSheets>, String> {
        let revisits = (self.loaded.crawler == Crawler::Heritrix && self.optimum.len() == self.repo.pages()).then(|| {
            let unstretched =
                self.host_revisits.get_or_init(|| tuning::host_revisits_from(&self.repo, &self.optimum, 1.0, &|i, s| !self.overlays.revisit_apart(&self.loaded.sheets, i, s)));
            unstretched.iter().map(|d| d.map(|days| days * stretch)).collect::<Vec<_>>()
        });
        let text = self.config.crawler_config.as_deref();
        TunedSheets::of(self.loaded.crawler, text, &self.loaded.sheets, model, &self.server_names, &self.page_names, &self.capacities(), revisits.as_deref(), &self.repo)
    }

    /// The servers' sets of Heritrix's sheets: the tuning's (`tuned`), else the file's.
    fn overlays_of(&self, tuned: bool) -> &Overlays {
        self.tuned_sheets.as_ref().filter(|_| tuned).map_or(&self.overlays, |t| &t.overlays)
    }

    fn sheets_of(&self, tuned: bool) -> &[heritrix_sheets::SheetRule] {
        self.tuned_sheets.as_ref().filter(|_| tuned).map_or(&self.loaded.sheets, |t| &t.rules)
    }

    /// Each server's capacity in requests a second (∞: none).
    fn capacities(&self) -> Vec<f64> {
        self.hosts.iter().map(|h| h.capacity).collect()
    }

    /// The search's next run (its model), or once it is over the tuned file, read
    /// back, to run; None when the file as loaded stays the best found.
    fn next_of_search(&mut self) -> Option<(Role, Model)> {
        let mut search = self.search.take()?;
        let mut next = search.next(&mut |m| self.realise(m));
        if let Some(model) = next.filter(|_| search.hosts == HostStage::Trying) {
            let first = self.tuned_hosts.is_none() && self.tuned_sheets.is_none();
            let crawler = self.loaded.crawler;
            let (nothing, why) = if matches!(crawler, Crawler::Heritrix | Crawler::Scrapy) {
                let sheets = self.sheets_for(&model, search.stretch());
                let why = sheets.as_ref().err().cloned();
                self.tuned_sheets = sheets.ok().flatten();
                (self.tuned_sheets.is_none(), why)
            } else {
                let file = self.host_file(&model, search.stretch());
                let why = file.as_ref().err().cloned();
                self.tuned_hosts = file.ok();
                (self.tuned_hosts.is_none(), why)
            };
            // no host whose bounds differ from the global ones (or who asks for a
            // longer gap): nothing to try, and the result says why
            if first && nothing {
                let file = match crawler {
                    Crawler::Scrapy => "slots",
                    Crawler::Heritrix => "sheets",
                    _ => nutch_hosts::FILE_NAME,
                };
                self.untried.push(match why {
                    Some(why) => format!("no {file}: {why}"),
                    None => format!("no {file}: no host's capacity asks for a longer gap than the file's"),
                });
                search.skip_trying();
                next = search.next(&mut |m| self.realise(m));
            }
        }
        if let Some(model) = next.filter(|_| search.seeds == HostStage::Trying) {
            if self.tuned_seeds.is_none() && matches!(search.hosts, HostStage::Tried { score: Some(_), .. }) {
                // the host file beside the seeds at its fittest stretch (not the last tried)
                self.tuned_hosts = self.host_file(&model, search.stretch()).ok();
            }
            let first = self.tuned_seeds.is_none();
            let seeds = self.seed_starts(&model, search.seed_stretch());
            let why = seeds.as_ref().err().cloned();
            self.tuned_seeds = seeds.ok();
            if let (true, Some(why)) = (first, why) {
                self.untried.push(format!("no seeds.txt: {why}"));
                search.skip_trying();
                next = search.next(&mut |m| self.realise(m));
            }
        }
        let outcome = match next {
            Some(model) => Some((Role::Candidate, model)),
            None => {
                let (model, score) = search.best();
                // the host file (Heritrix's revisit sheets) at its fittest stretch
                if matches!(search.hosts, HostStage::Tried { score: Some(_), .. }) {
                    match self.loaded.crawler {
                        Crawler::Nutch => self.tuned_hosts = self.host_file(&model, search.stretch()).ok(),
                        Crawler::Heritrix => self.tuned_sheets = self.sheets_for(&model, search.stretch()).ok().flatten(),
                        _ => {}
                    }
                }
                let kept = matches!(search.hosts, HostStage::Tried { kept: true, .. });
                let seeds = match search.seeds {
                    HostStage::Tried { score, kept, stretch, ruder } => {
                        seed_metadata::fixed_key(self.loaded.crawler).zip(self.seed_starts(&model, stretch).ok()).map(|(key, (starts, values))| {
                            let seconds = || values.iter().flatten().map(|&v| (v as f64 * key.unit / SECOND).round() as u64);
                            let tuned = TunedSeeds {
                                file_name: "seeds.txt".into(),
                                key: key.key.into(),
                                // kept apart (`seed_text`): the final result alone carries it
                                text: String::new(),
                                pages: values.len() as u64,
                                shortest_s: seconds().min().unwrap_or(0),
                                longest_s: seconds().max().unwrap_or(0),
                                never: values.iter().filter(|v| v.is_none()).count() as u64,
                                tried: score.map(|s| (s.freshness, s.requests)),
                                ruder: ruder.map(|s| (s.freshness, s.requests, s.refused)),
                                kept,
                            };
                            self.seed_text = self.seed_list(&values);
                            self.tuned_seeds = Some((starts, values));
                            tuned
                        })
                    }
                    _ => None,
                };
                let mut changes = tuning::file_changes(&self.loaded, &model);
                if changes.is_empty() && seeds.as_ref().is_some_and(|s| s.kept) {
                    // the seed list taken home with a file naming the class it runs
                    changes.extend(tuning::named_as_run(&self.loaded, &model));
                }
                let (text, read_back) = match self.file_with(&changes) {
                    Ok(file) => file,
                    Err(_) => (self.config.crawler_config.clone().unwrap_or_default(), self.loaded.clone()),
                };
                // Heritrix's sheets (Scrapy's slots) go into the tuned file itself, read back with it
                let (text, read_back) = match self.tuned_sheets.as_ref().filter(|_| kept) {
                    Some(t) => match t.written_into(self.loaded.crawler, &text).and_then(|with| Ok((self.config.read(Some(&with)).map_err(|e| e.message)?, with))) {
                        Ok((back, with)) => (with, back),
                        Err(_) => (text, read_back),
                    },
                    None => (text, read_back),
                };
                if let Some(t) = self.tuned_sheets.take() {
                    self.tuned_sheets = Some(t.read_back(&read_back.sheets, &self.server_names, &self.page_names, &self.repo, &read_back.model));
                }
                // the rates by type as the fit moved them, written and read back
                let mut read_back = read_back;
                let mimes = self.tuned_mimes(&model, &mut read_back);
                let setting = |loaded: &Loaded, name: &str| loaded.settings.iter().find(|s| s.name == name).map_or_else(String::new, |s| s.value.clone());
                let mut tuned = Tuned {
                    file_name: write::file_name(self.loaded.crawler).into(),
                    text,
                    changes: changes.iter().map(|(name, _)| TunedChange { name: name.to_string(), from: setting(&self.loaded, name), to: setting(&read_back, name) }).collect(),
                    objective: self.config.tune_for,
                    predicted: (score.freshness, score.requests),
                    confirmed: None,
                    budget: search.budget(),
                    refusals: search.refusals(),
                    runs: search.runs,
                    candidates: search.candidates,
                    freshest: search.freshest.map(|s| (s.freshness, s.requests)),
                    settings_alone: None,
                    hosts: match (search.hosts, &self.tuned_hosts, &self.tuned_sheets) {
                        (HostStage::Tried { score, kept, ruder, .. }, Some((_, text, used)), _) => Some(TunedHosts {
                            file_name: nutch_hosts::FILE_NAME.into(),
                            text: text.clone(),
                            hosts: used.matched,
                            pages: used.pages,
                            tried: score.map(|s| (s.freshness, s.requests)),
                            ruder: ruder.map(|s| (s.freshness, s.requests, s.refused)),
                            kept,
                            inside: false,
                            throttled: false,
                            shared_gaps: false,
                            revisits: None,
                        }),
                        (HostStage::Tried { score, kept, ruder, .. }, None, Some(t)) => Some(TunedHosts {
                            file_name: if self.loaded.crawler == Crawler::Scrapy { scrapy_slots::NAME } else { "sheets" }.into(),
                            text: t.beans.clone(),
                            hosts: t.hosts,
                            pages: t.pages,
                            tried: score.map(|s| (s.freshness, s.requests)),
                            ruder: ruder.map(|s| (s.freshness, s.requests, s.refused)),
                            kept,
                            inside: true,
                            throttled: matches!(self.loaded.model.reaction, Reaction::Scrapy { autothrottle: true, .. }),
                            shared_gaps: t.shared_gaps,
                            revisits: t.revisits.clone(),
                        }),
                        _ => None,
                    },
                    seeds,
                    mimes,
                    untried: self.untried.clone(),
                    redrawn: None,
                };
                // a host file or seed list kept beside the tuned file: what the file gives alone
                let beside = tuned.hosts.as_ref().is_some_and(|h| h.kept && !h.inside) || tuned.seeds_kept();
                tuned.settings_alone = search.settings.filter(|_| beside).map(|s| (s.freshness, s.requests));
                self.tuned = Some(tuned);
                let model = read_back.model;
                self.tuned_loaded = Some(read_back);
                self.tuned.as_ref().is_some_and(Tuned::changed).then_some((Role::Tuned, model))
            }
        };
        self.search = Some(search);
        outcome
    }
}

impl Plan for CrawlersJob {
    type Run = Running;
    type Output = CrawlersOutput;

    fn complete(&mut self) {
        self.complete = true;
    }

    fn begin(&mut self) -> Option<(Running, f64)> {
        let (role, model) = if self.results.is_empty() {
            (Role::Crawler, self.loaded.model)
        } else if !self.compared() {
            (Role::Merge, self.loaded.model)
        } else if !self.split() {
            let cause = self.causes[self.without.len()];
            let mut model = self.loaded.model;
            // each removal keeps the ones before it: cycles go first (a purged queue
            // then waits a day, as without cycles)
            model.intervals.cycle = 0.0;
            if let Reaction::Nutch { cycle_days, .. } = &mut model.reaction {
                *cycle_days = 0.0;
            }
            (Role::Without(cause), model)
        } else if let Some(k) = self.redraw_due(false) {
            (Role::Redrawn { tuned: false, k }, self.loaded.model)
        } else if self.config.tune && self.tuned.is_none() {
            self.next_of_search()?
        } else if let (Some(k), Some(model)) = (self.redraw_due(true), self.tuned_model) {
            (Role::Redrawn { tuned: true, k }, model)
        } else {
            return None;
        };
        if role == Role::Tuned {
            self.tuned_model = Some(model);
        }
        let merge = role == Role::Merge;
        let servers = self.repo.servers();
        let p = self.politeness;
        // MERGE's gap on each server: P, or (under Freshlab's rule, which knows them) the
        // server's Crawl-delay or the spacing its capacity allows when longer
        let merge_caps = self.merge_caps();
        let merge_gaps: Vec<f64> = merge_caps.iter().map(|&cap| if cap.is_finite() { 1.0 / cap } else { p }).collect();
        let (f, bound) = match self.bandwidth.filter(|_| merge) {
            Some(c) => {
                let polite = allocate(&self.repo, AllocationKind::OptPolite, c, p);
                let polite_bound = bound(&self.repo, &polite.f);
                let unpolite = bound(&self.repo, &allocate(&self.repo, AllocationKind::OptUnpolite, c, p).f);
                self.politeness_cost = Some(unpolite - polite_bound);
                let a = if self.merge_knows_limits() { allocate_within(&self.repo, c, &merge_caps) } else { polite };
                let b = bound(&self.repo, &a.f);
                self.limits_cost = self.merge_knows_limits().then_some(polite_bound - b);
                (a.f, Some(b))
            }
            None => (Vec::new(), None),
        };
        // the tuning's host file, in its candidate's runs and in the tuned files' when kept
        let tuned_hosts = match role {
            Role::Candidate => {
                self.search.as_ref().is_some_and(|s| s.hosts == HostStage::Trying || (s.seeds == HostStage::Trying && matches!(s.hosts, HostStage::Tried { kept: true, .. })))
            }
            Role::Tuned | Role::Redrawn { tuned: true, .. } => self.tuned.as_ref().is_some_and(Tuned::hosts_kept),
            _ => false,
        };
        // the tuning's seed list, in its candidate's runs and in the tuned files' when kept
        let tuned_seeds = match role {
            Role::Candidate => self.search.as_ref().is_some_and(|s| s.seeds == HostStage::Trying),
            Role::Tuned | Role::Redrawn { tuned: true, .. } => self.tuned.as_ref().is_some_and(Tuned::seeds_kept),
            _ => false,
        };
        let host_bounds = match &self.tuned_hosts {
            Some((bounds, ..)) if tuned_hosts => bounds,
            _ => &self.host_bounds,
        };
        // the streams of the policies experiment's first crawler and its MERGE (every
        // candidate on the crawler's, so that a setting's effect is not the streams')
        let purpose = Purpose::ServerSchedule { run: if merge { 3 } else { 2 }, series: 0 };
        let starts = match &self.tuned_seeds {
            _ if merge => None,
            Some((own, _)) if tuned_seeds => Some(OwnStarts { starts: own.starts.clone(), of: own.of.clone() }),
            _ => match role {
                Role::Tuned | Role::Redrawn { tuned: true, .. } => self.page_starts(self.tuned_loaded.as_ref().unwrap_or(&self.loaded), &model),
                _ => self.page_starts(&self.loaded, &model),
            },
        };
        // the crawler's model on each set of Heritrix's sheets (the first without any):
        // the file's, or the tuning's where they are tried or kept
        let tuned_sheets = tuned_hosts && self.tuned_sheets.is_some();
        let overlays = self.overlays_of(tuned_sheets);
        let models = overlays.models(self.sheets_of(tuned_sheets), &model);
        let model_of = |s: usize| &models[if merge { 0 } else { overlays.set(s) }];
        // (Heritrix's sheets over paths: each page revisited at its own URL's)
        let starts = if merge || starts.is_some() { starts } else { overlays.revisit_starts(&models) };
        let mut streams: Vec<Stream> = (0..servers).map(|s| Stream::of(self.config.seed, purpose, s as u64)).collect();
        let free_hosts = role == Role::Without(Without::Limits);
        let own_gap = |s: usize| model_of(s).own_gap_s(if free_hosts { &FREE_HOST } else { &self.hosts[s] });
        let schedules: Vec<ServerSchedule> = (0..servers)
            .zip(&mut streams)
            .map(|(s, rng)| {
                if merge {
                    ServerSchedule::new(PolicyKind::Merge, &f, self.repo.server_pages(s), merge_gaps[s], rng)
                } else {
                    // (a Heritrix sheet's revisit, over its hosts; over paths, the starts')
                    let own = model_of(s).intervals;
                    let intervals = host_bounds[s].as_ref().map_or(own, |h| h.bound(own));
                    // the run's own gap (a tuned one may be longer than the file's)
                    let pages = self.repo.server_pages(s);
                    let adaptive = Adaptive::with(intervals, pages.clone(), own_gap(s) / 86_400.0, 1.0);
                    ServerSchedule::Adaptive(match &starts {
                        Some(own) => adaptive.with_starts(own.starts.clone(), own.of[pages].to_vec()),
                        None => adaptive,
                    })
                }
            })
            .collect();
        // the runs shown (not the tuning's candidates, nor the gap's split) are also counted
        // under the redrawn rates, with estimated ones
        // MERGE's run is counted under the redrawn rates; the crawler's and the tuned
        // file's are run again on each redraw instead (Role::Redrawn)
        let redrawn = self.redrawn.as_ref().filter(|_| merge).map(|r| r.account(0, self.repo.pages()));
        let lambda = match role {
            Role::Redrawn { k, .. } => self.redrawn.as_ref().map(|r| r.set(k, self.repo.pages())),
            _ => None,
        };
        let account = Account::new(Estimator::Exact, lambda.as_deref().unwrap_or(&self.repo.lambda), |i| self.repo.weight(i), self.horizon(), self.config.bins as usize)
            .with_redrawn(redrawn);
        let rules: Vec<CrawlerRules> = if merge {
            let retry = Retry { soon: 0.0, times: 0, later: model.retry_days };
            vec![CrawlerRules { reaction: self.config.merge_backoff.reaction(), gap_s: p * 86_400.0, crawl_delay: CrawlDelayRule::up_to(f64::INFINITY), retry }]
        } else {
            models.iter().map(|m| crawler_rules(&self.config, m)).collect()
        };
        let rules_of = |s: usize| &rules[if merge { 0 } else { overlays.set(s) }];
        let skips: Vec<bool> = self.hosts.iter().enumerate().map(|(s, h)| !free_hosts && rules_of(s).reaction.skips(h, &rules_of(s).crawl_delay)).collect();
        let gates = skips.iter().map(|&skip| if skip { HostGate::closed() } else { HostGate::default() }).collect();
        let run = Running {
            role,
            slices: match role {
                Role::Candidate => self.slices.max(CANDIDATE_SLICES),
                Role::Without(_) => self.slices.max(SPLIT_SLICES),
                Role::Crawler | Role::Merge | Role::Tuned | Role::Redrawn { .. } => self.slices,
            },
            schedules,
            streams,
            checks: (0..servers).map(|s| PolitenessCheck::new(if merge { p } else { own_gap(s) / 86_400.0 })).collect(),
            account,
            f,
            bound,
            unchanged: 0,
            slice: 0,
            rules,
            loads: vec![HostLoad::default(); servers],
            gates,
            answers: vec![Answers::default(); servers],
            fresh: vec![0.0; servers],
            skipped: skips.iter().filter(|&&skip| skip).count() as u64,
            free_hosts,
            lambda,
            cycles: if merge { None } else { Cycles::of(&model.intervals) },
            tuned_sheets,
        };
        Some((run, self.repo.pages() as f64 / 2.0))
    }

    fn step(&mut self, run: &mut Running) -> (f64, bool) {
        run.slice += 1;
        let until = self.horizon() * run.slice as f64 / run.slices as f64;
        let mut work = 0;
        let Running { schedules, streams, checks, account, f, unchanged, rules, loads, gates, answers, fresh, free_hosts, lambda, cycles, tuned_sheets, .. } = run;
        let overlays = self.overlays_of(*tuned_sheets);
        let mut visits = Visits { account, repo: &self.repo, lambda: lambda.as_deref().unwrap_or(&self.repo.lambda), unchanged };
        let refusals = self.config.refusals();
        let mut drive_to = |schedules: &mut [ServerSchedule], to: f64| {
            let mut work = 0;
            for s in 0..schedules.len() {
                let host = if *free_hosts { &FREE_HOST } else { &self.hosts[s] };
                let server = pushback::Server { host, refusals, load: &mut loads[s], gate: &mut gates[s] };
                let before = visits.account.credited();
                let rules = match overlays.by_page() {
                    of if rules.len() > 1 && !of.is_empty() => pushback::ServerRules::ByPage { sets: rules, of },
                    _ => pushback::ServerRules::One(&rules[if rules.len() > 1 { overlays.set(s) } else { 0 }]),
                };
                work += pushback::drive(schedules[s].as_schedule(), to, f, &mut visits, &mut checks[s], &mut streams[s], rules, server, &mut answers[s]);
                fresh[s] += visits.account.credited() - before;
            }
            work
        };
        // every server up to a cycle's start, then the cycle's fetch list (Nutch's
        // generate.topN and generate.max.count), then on
        if let Some(c) = cycles {
            while let Some(start) = c.due_before(until) {
                work += drive_to(schedules, start);
                let mut crawler: Vec<&mut Adaptive> = schedules.iter_mut().filter_map(ServerSchedule::adaptive).collect();
                c.make(&mut crawler, |i| self.scores.as_ref().map_or_else(|| self.repo.weight(i), |s| s[i]), self.config.seed);
            }
        }
        work += drive_to(schedules, until);
        // a candidate past twice the budget is out of the search, and a run of the split
        // past twice the crawler's requests is no measure of it: stop them there
        let budget = match run.role {
            Role::Candidate => self.search.as_ref().map_or(u64::MAX, Search::budget),
            // the crawler's own, or what its intervals alone ask (a crawler the servers
            // held back makes more without their limits, and may)
            Role::Without(_) => self.results.first().map_or(u64::MAX, |r| r.requests.max(self.requests_per_run as u64)),
            Role::Crawler | Role::Merge | Role::Tuned | Role::Redrawn { .. } => u64::MAX,
        };
        let over = checks.iter().map(|c| c.requests).sum::<u64>() > budget.saturating_mul(2);
        (work as f64, run.slice >= run.slices || over)
    }

    fn end(&mut self, run: Running) {
        let result = self.result(&run, self.horizon(), true);
        if matches!(run.role, Role::Crawler | Role::Merge) {
            self.per_server.push(self.server_runs(&run, self.horizon()));
            self.gaps = self.server_gaps();
        }
        match run.role {
            Role::Crawler => {
                self.bandwidth = Some(result.bandwidth);
                if self.config.tune {
                    let named = !self.server_names.is_empty();
                    let mut search =
                        Search::new(self.loaded.crawler, self.loaded.model, Ground::new(self.pushed_back, named), self.typed(), self.repo.pages() as u64, self.score(&result));
                    // what Heritrix's host revisits leave where it is (no other crawler's
                    // fit reads it: a pass over every page saved)
                    if self.loaded.crawler == Crawler::Heritrix {
                        let models = self.overlays.models(&self.loaded.sheets, &self.loaded.model);
                        search = search.with_unmoved(self.overlays.unmoved_requests(&self.loaded.sheets, &models, &self.repo, self.horizon()));
                    }
                    if search.most() == 0 {
                        self.untried.push(nothing_to_tune(self.loaded.crawler));
                    }
                    self.search = Some(search);
                }
                self.results.push(result);
            }
            Role::Merge => {
                self.optimum = run.f;
                self.host_revisits = std::cell::OnceCell::new();
                self.results.push(result);
            }
            Role::Without(cause) if run.slice < run.slices => self.stopped = Some(cause),
            Role::Without(_) => self.without.push((result.converged, result.requests)),
            Role::Candidate => {
                if let Some(mut search) = self.search.take() {
                    search.report(self.score(&result), &mut |m| self.realise(m));
                    self.search = Some(search);
                }
            }
            Role::Tuned => {
                let score = self.score(&result);
                if let Some(t) = &mut self.tuned {
                    t.confirmed = Some((score.freshness, score.requests));
                }
                self.results.push(result);
            }
            Role::Redrawn { tuned, .. } => {
                let means = &mut self.redrawn_means[usize::from(tuned)];
                means.push((result.mean, result.converged));
                if let Ok(done) = <[(f64, f64); REDRAWS]>::try_from(&means[..]) {
                    let spread = redrawn::spread(done.map(|m| m.0), 1.0);
                    // the crawler's result is the first; the tuned file's the last
                    let shown = if tuned { self.results.last_mut() } else { self.results.first_mut() };
                    if let Some(r) = shown {
                        r.spread = Some(spread);
                    }
                    if let (true, Ok(yours), Some(t)) = (tuned, <[(f64, f64); REDRAWS]>::try_from(&self.redrawn_means[0][..]), &mut self.tuned) {
                        let of = |m: (f64, f64)| self.config.tune_for.of(m.0, m.1);
                        t.redrawn = Some(TunedRedrawn::of(&std::array::from_fn(|k| (of(yours[k]), of(done[k])))));
                    }
                }
            }
        }
    }

    fn output(&self, running: Option<&Running>) -> CrawlersOutput {
        let mut runs = self.results.clone();
        if let Some(r) = running {
            let until = self.horizon() * r.slice as f64 / r.slices as f64;
            if matches!(r.role, Role::Crawler | Role::Merge | Role::Tuned) {
                runs.push(self.result(r, until, false));
            }
        }
        let mut output = CrawlersOutput {
            // what was run: the page's pilot for its estimate is not part of it
            config: CrawlersConfig { limits_pilot: None, ..self.config.clone() },
            loaded: self.loaded.clone(),
            repository: self.summary.clone(),
            politeness_seconds: self.loaded.model.politeness_s(),
            bin_days: self.horizon() / self.config.bins as f64,
            runs,
            servers: self.gaps.clone(),
            gap: self.gap_split(),
            gap_unsplit: self.stopped.map(|cause| {
                match cause {
                    Without::Cycles => "without its batch cycles this crawler makes over twice its requests (it refetches pages at every chance), so the gap is not split by cause",
                    Without::Limits => "on servers without limits this crawler makes over twice its requests, so the gap is not split by cause",
                }
                .to_string()
            }),
            // a seed list's text (a line a page: 40 MB for half a million) goes with the
            // final result only, not copied into each partial one four times a second
            tuned: self.tuned.clone().map(|mut t| {
                if let Some(seeds) = t.seeds.as_mut().filter(|_| self.complete) {
                    seeds.text.clone_from(&self.seed_text);
                }
                t
            }),
            tuned_note: None,
            tuning: self.search.as_ref().filter(|_| self.tuned.is_none()).map(|s| TuningProgress {
                runs: s.runs,
                most: s.most(),
                freshness: s.best().1.freshness,
                objective: self.config.tune_for,
            }),
            host_intervals: self.host_used.clone(),
            sheets: self.sheets_used.clone(),
            seeds: self.seeds_used.clone(),
            metadata: self.metadata_keys.clone(),
            done: self.done(),
        };
        output.tuned_note = output.other_objective_note();
        output
    }

    fn total_work(&self) -> f64 {
        self.total_work
    }
}

/// Why the tuning has no candidate for `crawler` (Heritrix and Scrapy with no server
/// asking them to slow down): a sentence for [`Tuned::untried`].
fn nothing_to_tune(crawler: Crawler) -> String {
    let (revisit, gap, rules) = match crawler {
        Crawler::Scrapy => ("Scrapy has no revisit rule of its own (its recrawl interval is set beside the file)", "DOWNLOAD_DELAY", "DOWNLOAD_SLOTS"),
        _ => (
            "Heritrix revisits every page alike (its ReschedulingProcessor's delay, or the recrawl interval set beside the file), an interval the budget fixes",
            "the gap between two requests to a host",
            "sheets",
        ),
    };
    let revisits = if crawler == Crawler::Heritrix { ", and sheets giving each host its own revisit (its ReschedulingProcessor turned on where your file has it off)" } else { "" };
    format!(
        "no setting: {revisit}, and the tuning only ever lengthens {gap}, which it tries where some server has a capacity; on a page list of named hosts it also writes {rules} for the hosts the gap would push over capacity{revisits}"
    )
}

/// `a − b` for two freshness figures, none where they differ only by the rounding of
/// their sums (a part of the gap read "3.33 × 10⁻¹⁴ points" for two runs alike).
pub(super) fn difference(a: f64, b: f64) -> f64 {
    let d = a - b;
    if d.abs() <= 1e-12 * a.abs().max(b.abs()) { 0.0 } else { d }
}
