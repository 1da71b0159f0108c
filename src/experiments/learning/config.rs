//! "Learning to crawl": the configuration (pages, bandwidth, politeness, the objective
//! the learners optimise, epochs, the policies), its checks and its cost.

use crate::core::alloc::objective::Objective;
use crate::core::input::{InputError, check, distinct};
use crate::core::labels::labelled;
use crate::core::limits::{Cost, Fix};
use crate::core::model::change_rate::Seen;
use crate::core::model::rate_bins::RateBins;
use crate::core::model::source::{Pages, RepositorySource, takes_pages};
use crate::core::model::webbase::{RepositoryConfig, law_sizes_for_estimate};
use crate::core::sim::redrawn;
use crate::core::units::{Days, Seconds};
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

labelled! {
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LearningPolicy {
    /// Knows every change rate: the objective's optimum under the caps, crawled as the
    /// objective assumes (the reference of the learners that crawl the same way).
    Oracle => "oracle (knows the rates)",
    /// LambdaLearnAndCrawl (Kolobov et al. 2019, Alg. 4): at each epoch's start every
    /// page's rate is re-estimated by maximum likelihood from its history and the
    /// objective's optimum re-solved.
    LearnAndCrawl => "LambdaLearnAndCrawl",
    /// Explore-then-commit (Upadhyay et al., AAAI 2020): uniform crawls while exploring,
    /// then the optimum of the rates estimated once, kept to the end.
    ExploreThenCommit => "explore-then-commit",
    /// Every page alike within the caps: what not learning at all gives.
    Uniform => "uniform (no learning)",
    /// Knows every change rate: OPT_POLITE crawled by MERGE (the reference of MERGE on
    /// learned rates; equally spaced crawls are fresher than Poisson ones at equal rates).
    OracleMerge => "MERGE knowing the rates",
    /// The thesis's MERGE: OPT_POLITE (Lemma 4.2 freshness) from the estimated rates,
    /// re-estimated each epoch, equally spaced per server (politeness kept exactly).
    MergeLearned => "MERGE (learned rates)",
    /// Apache Nutch's AdaptiveFetchSchedule, its time constants scaled until it spends
    /// `capacity` (the job's `retry`).
    Nutch => "Nutch adaptive",
    /// StormCrawler's AdaptiveScheduler, scaled likewise.
    Stormcrawler => "StormCrawler adaptive",
}
}

impl LearningPolicy {
    /// The run's place in the palette and its stream ids.
    pub fn index(self) -> usize {
        LearningPolicy::ALL.iter().position(|&p| p == self).expect("listed")
    }

    /// Crawls equally spaced by MERGE, whatever the objective.
    pub fn is_merge(self) -> bool {
        matches!(self, LearningPolicy::MergeLearned | LearningPolicy::OracleMerge)
    }

    /// Knows the rates.
    pub fn is_oracle(self) -> bool {
        matches!(self, LearningPolicy::Oracle | LearningPolicy::OracleMerge)
    }

    /// A deployed crawler's schedule, driven by its own rules.
    pub fn is_adaptive(self) -> bool {
        matches!(self, LearningPolicy::Nutch | LearningPolicy::Stormcrawler)
    }

    /// The oracle a learner is measured against: the one that crawls the same way at
    /// the same bandwidth (none for the oracles and the deployed crawlers).
    pub fn reference(self) -> Option<LearningPolicy> {
        match self {
            LearningPolicy::Oracle | LearningPolicy::OracleMerge | LearningPolicy::Nutch | LearningPolicy::Stormcrawler => None,
            LearningPolicy::MergeLearned => Some(LearningPolicy::OracleMerge),
            LearningPolicy::LearnAndCrawl | LearningPolicy::ExploreThenCommit | LearningPolicy::Uniform => Some(LearningPolicy::Oracle),
        }
    }

    /// Crawls a page whose every change is announced on its changes, with probability
    /// f/λ from the rates it believes: the oracle and the learners that crawl as the
    /// objective assumes (uniform, which believes no rate, MERGE and the deployed
    /// crawlers do not listen).
    pub fn listens(self) -> bool {
        matches!(self, LearningPolicy::Oracle | LearningPolicy::LearnAndCrawl | LearningPolicy::ExploreThenCommit)
    }

    /// Keeps what it sees to estimate rates from.
    pub fn learns(self) -> bool {
        matches!(self, LearningPolicy::LearnAndCrawl | LearningPolicy::ExploreThenCommit | LearningPolicy::MergeLearned)
    }

    /// Whether what it fetches, and when, follows what its fetches show (a learner, a
    /// deployed crawler): on other change rates it would have crawled otherwise.
    pub fn reacts(self) -> bool {
        self.learns() || self.is_adaptive()
    }
}

labelled! {
/// How the oracle and the learners space their crawls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spacing {
    /// As the objective assumes: Poisson crawls for binary freshness and harmonic
    /// staleness (the papers' model, which keeps P on average only), equally spaced for
    /// the thesis's freshness.
    #[default]
    Objective => "as the objective assumes (Poisson for binary and harmonic)",
    /// Equally spaced by MERGE at the objective's rates, whatever the objective: P on
    /// every gap, crawls on announced changes at their server's next request.
    Equal => "equally spaced by MERGE (P on every gap)",
}
}

takes_pages! {
repository = RepositoryConfig { pages: 2000, servers: 40, ..RepositoryConfig::default() };
/// A page list's `weight` column is the importance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LearningConfig {
    /// Total crawl rate (bandwidth), requests per day.
    pub capacity: f64 = 300.0; number("bandwidth (requests a day)").positive().at_most(1e9);
    /// Minimum time between two requests to one server; 0: no limit.
    pub politeness_seconds: Seconds = Seconds(900.0); politeness_or_none().at_most(Days(365.0).in_seconds().0);
    /// What the oracle and the learners optimise; with `spacing` at `objective`, it also
    /// sets how they crawl: Poisson crawls for binary and harmonic (the papers' model),
    /// equally spaced for freshness.
    pub objective: Objective = Objective::Harmonic; select("objective");
    pub spacing: Spacing = Spacing::Objective; select("the oracle’s and learners’ crawls").help("Poisson crawls keep P on average only");
    pub policies: Vec<LearningPolicy> = LearningPolicy::ALL.to_vec();
        choices("policies").help("Nutch and StormCrawler have their intervals scaled until they spend the bandwidth");
    pub horizon_days: Days = Days(240.0); number("horizon (days)").positive().at_most(3650.0);
    /// Learners re-estimate the rates and re-solve at the start of every epoch (at most
    /// the horizon: a rule).
    pub epoch_days: Days = Days(15.0); number("learners re-estimate every (days)").positive();
    /// Explore-then-commit explores (uniform crawls) until the first epoch boundary at
    /// or after this time (at most the horizon: a rule).
    pub explore_days: Days = Days(45.0); number("explore-then-commit explores for (days)").at_least(0.0);
    /// Every page's history starts with one changed and one unchanged interval of this
    /// length (a prior: the estimate before any visit is ln 2 / prior_days, and no
    /// estimate is 0 or infinite). At least 0.001 days (a minute and a half): the fuzz
    /// campaign's case 13,671 (5e-324 days) ran 7.5 s against 0.55 s estimated.
    pub prior_days: Days = Days(30.0);
        number("prior interval (days)").help("each page starts with one changed and one unchanged interval this long").at_least(0.001).at_most(3650.0);
    /// The share of generated pages whose every change is announced (a sitemap, a
    /// feed), drawn with the seed. A page list marks them in its `observed` column.
    pub observed_share: f64 = 0.0; shared(Pages::observed_share_field());
    /// Visits per simulated page in the estimators' chart (regular visits).
    pub estimator_visits: u64 = 30; integer("visits per page in the estimators chart").count(2, 10_000);
    /// Simulated pages per point of the estimators' chart.
    pub estimator_runs: u64 = 2000; integer("pages per point in the estimators chart").count(10, 100_000);
    /// Time bins of the curves.
    pub bins: u64 = 48; integer("time bins").count(1, 2000);
    pub seed: u64 = 1; seed();
}
}

/// Points (λ·I values) of the estimators' chart.
pub const ESTIMATOR_POINTS: usize = 13;

/// Bytes per page of a run: rates, estimates, the accountant's state (a change stream,
/// times, the history's header) and the repository.
const BYTES_PER_PAGE: f64 = 200.0;
/// …and per page that announces its changes, during a listening run: its copy of the
/// change times, its probability and count, its place in the server's queue (measured:
/// 34 bytes more a page for 200,000 pages all announcing; counted with room to spare).
const BYTES_PER_ANNOUNCED_PAGE: f64 = 60.0;
/// Per history item (a fetch that found a change): an f32, in vectors grown by doubling.
const BYTES_PER_HISTORY_ITEM: f64 = 8.0;
const BYTES_BESIDES: f64 = 1_000_000.0;
/// Native ns per request by the repository's size (log₁₀ pages, ns): the slower of
/// UNIFORM and ORACLE, measured as the time 24 M more requests add (bandwidth 1,000 and
/// 100,000 a day over 240 days, P = 0, 100 pages a server) on 2,000, 20,000, 200,000
/// and 1 M generated pages; a larger repository's pages fall out of the cache. (At a
/// flat 150 ns, 2,000 pages changing once in 500 days were estimated 6.1 times their time.)
const NS_PER_REQUEST: [(f64, f64); 4] = [(3.301, 31.0), (4.301, 33.0), (5.301, 44.0), (6.0, 68.0)];
/// Native seconds per change simulated (a draw and a comparison).
const SECONDS_PER_CHANGE: f64 = 25e-9;
/// Native seconds per page of each allocation solved before the runs: the two oracles',
/// and with politeness the price of politeness chart's (each objective with and without
/// the caps at 7 bandwidths: 42 solves). Measured: that chart takes 8.7–10 µs a page on
/// 10⁵–10⁶ generated pages (the same run at P = 0 less at P = 60 s); uncounted, 300,000
/// pages at P = 60 s ran 3 s longer than estimated.
const SECONDS_PER_SETUP_PAGE_SOLVE: f64 = 0.24e-6;
/// Solves of the price of politeness chart: each objective, free and capped, at each share.
const PRICE_SOLVES: f64 = (2 * Objective::ALL.len() * super::job::PRICE_SHARES.len()) as f64;
/// Native seconds per history item a re-estimation reads (one term of a page's
/// likelihood), and per visit the estimators' chart simulates and estimates from: 0.31 s
/// for the 4.0 M items of LambdaLearnAndCrawl on the fuzz campaign's case 10,824, and
/// 0.07 s and 0.97 s for the chart's 1.56 M and 15.6 M units (2,000 and 20,000 pages a
/// point); counted at 150 ns, that case's time was over-estimated 2.2 times.
const SECONDS_PER_HISTORY_ITEM: f64 = 70e-9;
const SECONDS_PER_ESTIMATOR_UNIT: f64 = 65e-9;
/// Native seconds per page each time a learner re-solves its allocation (an epoch's
/// start): the fuzz campaign's learning cases 2,613 and 4,377 (`epoch_days` 2 alone) ran
/// 1.6 s against 0.5 s estimated without it. Fitted on the default pages (2,000, 40
/// servers, 240 days) from 16 to 240 epochs: 2.1 s more on this machine (1.7–2.1× the
/// reference's slowness) for 225 × 2 learners' re-solves of 2,000 pages, less the history
/// the estimate already counted; the thesis's freshness takes about 20 % more than the
/// harmonic and binary objectives.
const SECONDS_PER_PAGE_SOLVE: f64 = 0.8e-6;

/// What an estimate needs of the pages: their number, servers, the servers' sizes
/// (pages each, in any order, where known) and the pages' rates.
pub struct PagesShape {
    pub pages: u64,
    pub servers: u64,
    pub sizes: Option<Vec<f64>>,
    pub rates: RateBins,
}

/// One run's work by kind (see [`LearningConfig::run_work`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct RunWork {
    pub requests: f64,
    pub changes: f64,
    pub scans: f64,
    /// Pages re-allocated, once a page at each re-solve (timed, not counted as work: the
    /// run's progress does not count them).
    pub solves: f64,
    /// The runs it makes (a deployed crawler's tuning; 1 for the others).
    pub trials: f64,
}

impl RunWork {
    pub fn total(&self) -> f64 {
        self.requests + self.changes + self.scans
    }

    /// Its native time, a request costing `per_request` seconds.
    fn seconds(&self, per_request: f64) -> f64 {
        self.requests * per_request + self.changes * SECONDS_PER_CHANGE + self.scans * SECONDS_PER_HISTORY_ITEM + self.solves * SECONDS_PER_PAGE_SOLVE
    }
}

/// A request's native time in a repository of `pages` pages ([`NS_PER_REQUEST`],
/// interpolated in log₁₀ pages, its ends beyond it).
pub(super) fn seconds_per_request(pages: f64) -> f64 {
    let points = &NS_PER_REQUEST;
    let k = pages.max(1.0).log10().clamp(points[0].0, points[points.len() - 1].0);
    let i = points.windows(2).position(|w| k <= w[1].0).unwrap_or(0);
    let ((a, ta), (b, tb)) = (points[i], points[i + 1]);
    1e-9 * (ta + (k - a) / (b - a) * (tb - ta))
}

impl LearningConfig {
    pub fn politeness_days(&self) -> f64 {
        self.politeness_seconds.in_days().0
    }

    /// Epochs in the horizon (1 for fields the checks refuse: the cost is asked of any
    /// configuration).
    pub fn epoch_count(&self) -> usize {
        let n = (self.horizon_days.0 / self.epoch_days.0).ceil();
        if n.is_finite() && (1.0..=10_000.0).contains(&n) { n as usize } else { 1 }
    }

    /// Epoch boundaries: 0, e, 2e… below the horizon, then the horizon.
    pub fn epochs(&self) -> Vec<f64> {
        let n = self.epoch_count();
        let mut edges: Vec<f64> = (0..n).map(|k| k as f64 * self.epoch_days.0).collect();
        edges.push(self.horizon_days.0);
        edges
    }

    /// Whether `policy` crawls equally spaced (MERGE): the thesis's MERGE always, the
    /// others under the thesis's freshness or when asked to; else Poisson crawls.
    pub fn spaced(&self, policy: LearningPolicy) -> bool {
        policy.is_merge() || self.objective == Objective::Freshness || self.spacing == Spacing::Equal
    }

    /// Requests of one run (the bandwidth over the horizon, at most).
    pub fn requests_per_run(&self) -> f64 {
        self.capacity * self.horizon_days.0
    }

    /// The requests a deployed crawler's tuning may spend beyond those expected when P
    /// lets a server take far more than the bandwidth: its trials with too short
    /// intervals run on until an epoch's end, up to [`super::job::TRIAL_CAP`] × the
    /// bandwidth, and the search may take all [`super::job::ADAPTIVE_TRIALS`] (the fuzz
    /// campaign's case 7,711, P = 1 s: Nutch's tuning spent about 9 times the bandwidth a
    /// trial over 12 trials, 4.2 times the work estimated without this). A bound for the
    /// work and the progress, not the time. None where the tuning's runs cannot spend
    /// the bandwidth (`tuning`: the work [`Self::adaptive_requests`] expects).
    fn overshoot(&self, servers: f64, tuning: &RunWork) -> f64 {
        use super::job::{ADAPTIVE_TRIALS, TRIAL_CAP};
        let target = self.requests_per_run();
        if self.polite_requests(servers) < TRIAL_CAP * target || tuning.requests < tuning.trials * target {
            return 0.0;
        }
        (ADAPTIVE_TRIALS as f64 * 0.5 * TRIAL_CAP * target - tuning.requests).max(0.0)
    }

    /// A deployed crawler's requests over its tuning runs, and the runs: the tuning's own
    /// search ([`super::job::next_trial`]) made on the model of a run, its requests as
    /// [`Self::adaptive_reach`] counts them at one request every P a server at most
    /// (each server's share of the pages by its size, where the sizes are known), a run
    /// past [`super::job::OVERSPEND`] × the bandwidth stopped there.
    fn adaptive_requests(&self, policy: LearningPolicy, shape: &PagesShape) -> (f64, f64) {
        use super::job::{OVERSPEND, next_trial};
        let pages = shape.pages as f64;
        let server_most = self.polite_requests(1.0);
        let polite = |reach: f64| match &shape.sizes {
            Some(sizes) => sizes.iter().map(|m| (reach * m / pages).min(server_most)).sum(),
            None => reach.min(self.polite_requests(shape.servers as f64)),
        };
        let target = self.requests_per_run();
        let run = |scale: f64| polite(self.adaptive_reach(policy, pages, &shape.rates, scale)).min(OVERSPEND * target);
        let (mut trials, mut spent, mut u) = (Vec::new(), 0.0, 1.0);
        loop {
            let requests = run(1.0 / u);
            spent += requests;
            trials.push((u, requests));
            match next_trial(&trials, target) {
                Some(next) => u = next,
                None => return (spent, trials.len() as f64),
            }
        }
    }

    /// The most requests `servers` servers take over the horizon, one every P each.
    fn polite_requests(&self, servers: f64) -> f64 {
        if self.politeness_seconds.0 > 0.0 { servers * self.politeness_seconds.per_day() * self.horizon_days.0 } else { f64::INFINITY }
    }

    /// The requests of a deployed crawler's run at its shipped intervals × `scale`,
    /// whatever the bandwidth ([`Intervals::requests_over`](crate::core::policy::adaptive::Intervals::requests_over)).
    pub(super) fn adaptive_reach(&self, policy: LearningPolicy, pages: f64, rates: &RateBins, scale: f64) -> f64 {
        use crate::core::policy::adaptive::Rule;
        let rule = if policy == LearningPolicy::Nutch { Rule::Nutch } else { Rule::Stormcrawler }.shipped();
        rule.requests_over(self.horizon_days.0, pages, rates, scale)
    }

    /// Work of one run of `policy` on `pages` pages: its requests, the changes it
    /// simulates, and the history items its re-estimations read (each epoch, every page
    /// and the history so far).
    pub fn run_work(&self, policy: LearningPolicy, shape: &PagesShape) -> RunWork {
        let (pages, rates) = (shape.pages as f64, &shape.rates);
        let (requests, trials) =
            if policy.is_adaptive() { self.adaptive_requests(policy, shape) } else { (self.requests_per_run().min(self.polite_requests(shape.servers as f64)), 1.0) };
        // a tuning run simulates every change again
        let changes = self.changes(rates) * trials;
        let epochs = self.epoch_count() as f64;
        let (scans, solves) = match policy {
            LearningPolicy::LearnAndCrawl | LearningPolicy::MergeLearned => (self.history_items(rates) * epochs / 2.0 + pages * epochs, pages * epochs),
            LearningPolicy::ExploreThenCommit => (self.history_items(rates) + pages, pages),
            LearningPolicy::Oracle | LearningPolicy::OracleMerge | LearningPolicy::Uniform | LearningPolicy::Nutch | LearningPolicy::Stormcrawler => (0.0, 0.0),
        };
        RunWork { requests, changes, scans, solves, trials }
    }

    /// The changes a run simulates over the horizon, from the pages' rates in all
    /// (changes a day: the generator's, or a page list's, read from its shape).
    fn changes(&self, rates: &RateBins) -> f64 {
        rates.sum * self.horizon_days.0
    }

    /// The configured pages: the generator's, or a page list's shape (one pass over
    /// it); a list known only by its size, one change a day a page.
    pub fn sized(&self) -> PagesShape {
        match self.pages().list_shape() {
            Some(shape) => PagesShape { pages: shape.pages.max(1), servers: shape.servers.max(1), sizes: (!shape.sizes.is_empty()).then_some(shape.sizes), rates: shape.rates },
            None => {
                let (pages, servers) = self.pages().shape();
                let r = &self.repository;
                let generated = self.source == RepositorySource::Generator;
                let rates = if generated { r.rate_bins(pages) } else { RateBins::power_law(pages as f64, 0.0, 1.0, 1.0, 1.0) };
                let sizes = if generated && r.pages == pages { law_sizes_for_estimate(r) } else { None };
                PagesShape { pages, servers, sizes, rates }
            }
        }
    }

    /// A learner's history at the end of a run: an interval for each fetch that found a
    /// change, so at most one for each request and for each change.
    fn history_items(&self, rates: &RateBins) -> f64 {
        self.requests_per_run().min(self.changes(rates))
    }

    /// The estimators' chart holds one point's pages at a time, each its visits (the
    /// fuzz campaign found 6,000 pages a point peaking at 4.5 MB against 1.7 MB
    /// estimated without them).
    fn estimator_bytes(&self) -> f64 {
        let per_page = self.estimator_visits as f64 * std::mem::size_of::<Seen>() as f64 + std::mem::size_of::<Vec<Seen>>() as f64;
        self.estimator_runs as f64 * per_page
    }

    fn estimator_work(&self) -> f64 {
        ESTIMATOR_POINTS as f64 * self.estimator_runs as f64 * self.estimator_visits as f64 * 2.0
    }

    /// The share of pages that may announce their changes: `observed_share` of the
    /// generated pages, or all of a page list with an observed column (before it is read).
    fn announced_share(&self) -> f64 {
        let header = |text: &String| text.lines().next().is_some_and(|h| h.to_ascii_lowercase().contains("observed"));
        let listed = self.page_list.as_ref().is_some_and(header) || self.page_rows.as_ref().is_some_and(|rows| rows.iter().any(|r| r.observed == Some(true)));
        if listed { 1.0 } else { self.observed_share }
    }

    pub fn cost_for(&self, shape: &PagesShape) -> Cost {
        let PagesShape { pages, servers, rates, .. } = shape;
        let (n, servers) = (*pages as f64, *servers);
        let mut runs: Vec<RunWork> = self.policies.iter().map(|&p| self.run_work(p, shape)).collect();
        // with estimated rates, a reacting policy's reruns on the redraws: one run each (a
        // deployed crawler keeps the scale its tuning found)
        if self.pages().estimated_rates() {
            for &p in self.policies.iter().filter(|p| p.reacts()) {
                let mut rerun = self.run_work(p, shape);
                rerun.requests /= rerun.trials;
                rerun.changes /= rerun.trials;
                runs.extend(std::iter::repeat_n(rerun, redrawn::REDRAWS));
            }
        }
        let expected = runs.iter().map(RunWork::total).sum::<f64>() + self.estimator_work();
        // the work's bound adds the tuning runs that overshoot under a loose P; the time
        // is the expected runs'
        let overshoot: f64 = self.policies.iter().zip(&runs).filter(|(p, _)| p.is_adaptive()).map(|(_, r)| self.overshoot(servers as f64, r)).sum();
        let work = expected + overshoot;
        Cost {
            work,
            unit: "events".into(),
            bytes: (n * BYTES_PER_PAGE
                + self.announced_share() * n * BYTES_PER_ANNOUNCED_PAGE
                + self.merge_rates_bytes(n)
                + self.history_items(rates) * BYTES_PER_HISTORY_ITEM
                + self.estimator_bytes()
                + BYTES_BESIDES
                + n * self.redrawn_bytes_per_page())
            .max(self.pages().import_bytes(*pages) as f64),
            seconds: runs.iter().map(|r| r.seconds(seconds_per_request(n))).sum::<f64>()
                + self.setup_solves() * n * SECONDS_PER_SETUP_PAGE_SOLVE
                + self.estimator_work() * SECONDS_PER_ESTIMATOR_UNIT
                + self.pages().import_seconds()
                + runs.iter().map(|r| r.requests).sum::<f64>() * self.redrawn_seconds_per_request(),
            memory_fix: Fix::new("capacity", "lower the bandwidth or the horizon (each fetch that finds a change keeps 4 to 8 bytes of history), or use fewer pages"),
            time_fix: Fix::new("horizon_days", "shorten the horizon, lower the bandwidth or use fewer pages"),
        }
    }
}

impl LearningConfig {
    /// The allocations solved before the runs: the two oracles', and the price of
    /// politeness chart's where there is politeness.
    fn setup_solves(&self) -> f64 {
        2.0 + if self.politeness_seconds.0 > 0.0 { PRICE_SOLVES } else { 0.0 }
    }

    /// Estimated rates (a history's list): each run's fetches are also counted under the
    /// redrawn rates, which hold 8 bytes a rate and a page, and a last fetch a page.
    fn redrawn_bytes_per_page(&self) -> f64 {
        if self.pages().estimated_rates() { (redrawn::BYTES_PER_PAGE + 8) as f64 } else { 0.0 }
    }

    /// What counting a fetch under the redrawn rates adds.
    fn redrawn_seconds_per_request(&self) -> f64 {
        if self.pages().estimated_rates() { redrawn::SECONDS_PER_REQUEST } else { 0.0 }
    }

    /// An equally spaced listening run keeps the rates MERGE spaces beside its crawls on
    /// announced changes: one f64 a page.
    fn merge_rates_bytes(&self, n: f64) -> f64 {
        if self.spaced(LearningPolicy::Oracle) && self.announced_share() > 0.0 { 8.0 * n } else { 0.0 }
    }
}

impl Settings for LearningConfig {
    fn rules(&self) -> Result<(), InputError> {
        self.pages().validate()?;
        check("epoch_days", self.epoch_days.0)?.at_most(self.horizon_days.0)?;
        if self.horizon_days.0 / self.epoch_days.0 > 10_000.0 {
            return Err(InputError::new("epoch_days", "makes more than 10,000 epochs in the horizon: lengthen the epochs"));
        }
        check("explore_days", self.explore_days.0)?.at_most(self.horizon_days.0)?;
        if self.policies.is_empty() {
            return Err(InputError::new(
                "policies",
                "choose at least one policy (oracle, learn_and_crawl, explore_then_commit, uniform, oracle_merge, merge_learned, nutch, stormcrawler)",
            ));
        }
        distinct("policies", &self.policies)?;
        self.pages().check_observed_share(self.observed_share)
    }

    fn cost(&self) -> Cost {
        self.cost_for(&self.sized())
    }
}
