//! The thesis's chapter 6 experiment (spec §2): a repository of articles whose changes
//! are not Poisson, one server requested at equally spaced times under politeness, and
//! MERGE (Wolf et al. allocation), MERGE2 (histograms from the first month), UNPOLITE,
//! RANDOM and GREEDY (sampled as in the thesis, or computed) at 20–100 % of the
//! maximum request rate. Time runs in minutes from the start of the period.

pub mod account;

use crate::alloc::wolf;
use crate::experiment::Job;
use crate::input::{InputError, check, count};
use crate::math::renewal::RenewalTable;
use crate::model::bursty::BurstyConfig;
use crate::model::histogram::Histogram;
use crate::model::trace::{self, Trace};
use crate::policy::greedy::{Gain, Greedy, Overdue};
use crate::policy::merge::Merge;
use crate::policy::random::Random;
use crate::policy::spaced::Spaced;
use crate::policy::{PolitenessCheck, Schedule};
use crate::rng::Stream;
use account::TraceAccount;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

pub use crate::concepts::MEMORY_LIMIT;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The synthetic bursty generator.
    Generator,
    /// An imported trace (`trace`).
    Trace,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WikiPolicy {
    Merge,
    Merge2,
    Unpolite,
    Random,
    Greedy,
    GreedyExact,
}

impl WikiPolicy {
    pub fn label(self) -> &'static str {
        match self {
            WikiPolicy::Merge => "MERGE",
            WikiPolicy::Merge2 => "MERGE2",
            WikiPolicy::Unpolite => "UNPOLITE",
            WikiPolicy::Random => "RANDOM",
            WikiPolicy::Greedy => "GREEDY (sampled)",
            WikiPolicy::GreedyExact => "GREEDY (renewal eq.)",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WikipediaConfig {
    pub source: Source,
    pub generator: BurstyConfig,
    /// The CSV text of a trace (`page,timestamp` rows), when `source` is `trace`.
    pub trace: Option<String>,
    /// Minimum time between two requests to the server (the thesis: 15 s).
    pub politeness_seconds: f64,
    /// Shares of the maximum request rate 1/P.
    pub fractions: Vec<f64>,
    pub policies: Vec<WikiPolicy>,
    /// Renewal simulations per article in GREEDY's estimator (the thesis: 3).
    pub greedy_samples: u32,
    /// GREEDY's reading for an article unchanged longer than its histogram allows.
    pub overdue: Overdue,
    /// Grid steps of the renewal equation over the period (exact GREEDY).
    pub renewal_steps: u32,
    /// MERGE2 builds its histograms from the changes of the first days only.
    pub training_days: f64,
    /// The article shown in the per-article panel (index, from 0).
    pub article: u64,
    /// The request rate whose fetches the panel shows (index into `fractions`, from 0);
    /// every rate's are recorded, so the page changes it without a rerun.
    pub article_rate: u64,
    pub seed: u64,
}

impl Default for WikipediaConfig {
    fn default() -> Self {
        WikipediaConfig {
            source: Source::Generator,
            // a quarter keeps GREEDY's runs to seconds; the thesis replays a year
            generator: BurstyConfig { articles: 200, days: 91.0, ..BurstyConfig::default() },
            trace: None,
            // 10,000 articles at 15 s in the thesis: 200 at 750 s keep its requests per article
            politeness_seconds: 750.0,
            fractions: vec![0.2, 0.4, 0.6, 0.8, 1.0],
            policies: vec![WikiPolicy::Merge, WikiPolicy::Merge2, WikiPolicy::Unpolite, WikiPolicy::Random, WikiPolicy::Greedy, WikiPolicy::GreedyExact],
            greedy_samples: 3,
            overdue: Overdue::Memoryless,
            renewal_steps: 2048,
            training_days: 31.0,
            article: 0,
            article_rate: 0,
            seed: 1,
        }
    }
}

/// The random stream ids of the generator's articles start here.
pub const GENERATOR_STREAM: u64 = 1 << 40;

/// The thesis's settings (10,000 articles, 15 s), with the synthetic generator.
pub fn thesis_scale() -> WikipediaConfig {
    WikipediaConfig { generator: BurstyConfig { articles: 10_000, days: 365.0, ..BurstyConfig::default() }, politeness_seconds: 15.0, ..WikipediaConfig::default() }
}

/// What a run will cost, from its configuration alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub articles: u64,
    pub changes: u64,
    pub requests: u64,
    /// Article evaluations of the GREEDY runs (requests × articles).
    pub greedy_evaluations: f64,
    pub bytes: u64,
}

/// Beyond this many GREEDY evaluations a run would take hours: refused.
const MAX_GREEDY_EVALUATIONS: f64 = 2e12;

impl WikipediaConfig {
    pub fn validate(&self) -> Result<(), InputError> {
        match self.source {
            Source::Generator => self.generator.validate()?,
            Source::Trace => {
                let Some(text) = &self.trace else {
                    return Err(InputError::new("trace", "is empty: choose a CSV file of page,timestamp rows (or use the generator)"));
                };
                if text.len() > trace::MAX_BYTES {
                    return Err(InputError::new("trace", format!("is {} MB, over the {} MB limit", text.len() >> 20, trace::MAX_BYTES >> 20)));
                }
            }
        }
        check("politeness_seconds", self.politeness_seconds)?.at_least(0.001)?.at_most(86_400.0 * 30.0)?;
        if self.fractions.is_empty() || self.fractions.len() > 20 {
            return Err(InputError::new("fractions", "give 1 to 20 shares of the maximum rate, such as 0.2, 0.4, 0.6, 0.8, 1"));
        }
        for (k, &f) in self.fractions.iter().enumerate() {
            check(&format!("fractions[{k}]"), f)?.positive()?.at_most(1.0)?;
            // results and the article's fetches are looked up by rate: each rate once
            if self.fractions[..k].contains(&f) {
                return Err(InputError::new(format!("fractions[{k}]"), format!("repeats an earlier rate ({f}); give each request rate once")));
            }
        }
        if self.policies.is_empty() {
            return Err(InputError::new("policies", "choose at least one policy"));
        }
        count("greedy_samples", self.greedy_samples as u64, 1, 1000, "more samples only slow GREEDY down")?;
        count("renewal_steps", self.renewal_steps as u64, 64, 1 << 20, "a finer grid needs more memory than it is worth")?;
        check("training_days", self.training_days)?.positive()?;
        let e = self.estimate();
        if self.article_rate as usize >= self.fractions.len() {
            return Err(InputError::new("article_rate", format!("must be below the number of request rates ({}): 0 is the first rate of the list", self.fractions.len())));
        }
        if self.article >= e.articles && self.source == Source::Generator {
            return Err(InputError::new("article", format!("must be below the number of articles ({})", e.articles)));
        }
        if e.bytes > MEMORY_LIMIT {
            return Err(InputError::new(
                "generator.articles",
                format!(
                    "needs about {} MB, more than the {} MB {} can hold; use fewer articles or renewal_steps",
                    e.bytes >> 20,
                    MEMORY_LIMIT >> 20,
                    if cfg!(target_arch = "wasm32") { "a browser tab" } else { "this program allows" }
                ),
            ));
        }
        if e.greedy_evaluations > MAX_GREEDY_EVALUATIONS {
            return Err(InputError::new(
                "policies",
                format!(
                    "GREEDY would evaluate {:.1e} articles (requests × articles), which takes hours; drop GREEDY, or use fewer articles or a longer politeness",
                    e.greedy_evaluations
                ),
            ));
        }
        Ok(())
    }

    fn uses(&self, p: WikiPolicy) -> bool {
        self.policies.contains(&p)
    }

    /// The period in minutes, the articles and changes (a trace's from its text size).
    pub fn estimate(&self) -> Estimate {
        let (articles, changes, minutes) = match self.source {
            Source::Generator => {
                let g = &self.generator;
                (g.articles, (g.articles as f64 * (g.rate_min + g.rate_max) / 2.0 * g.days / 365.0) as u64, g.minutes())
            }
            // about 25 bytes a row; a year by default
            Source::Trace => {
                let rows = self.trace.as_ref().map_or(0, |t| t.len() / 25) as u64;
                ((rows / 300).max(1), rows, 525_600.0)
            }
        };
        let per_fraction: f64 = self.fractions.iter().map(|f| minutes * 60.0 * f / self.politeness_seconds).sum();
        let greedy_runs = [WikiPolicy::Greedy, WikiPolicy::GreedyExact].iter().filter(|&&p| self.uses(p)).count() as f64;
        let tables = if self.uses(WikiPolicy::GreedyExact) { articles * (self.renewal_steps as u64 + 1) * RenewalTable::BYTES_PER_STEP } else { 0 };
        Estimate {
            articles,
            changes,
            requests: (per_fraction * self.policies.len() as f64) as u64,
            greedy_evaluations: per_fraction * greedy_runs * articles as f64,
            bytes: changes * 8 + articles * 400 + tables + self.trace.as_ref().map_or(0, |t| 2 * t.len() as u64),
        }
    }
}

/// One policy at one request rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyPoint {
    pub policy: WikiPolicy,
    pub fraction: f64,
    pub freshness: f64,
    pub requests: u64,
    /// Requests less than P after the previous one (UNPOLITE only).
    pub violations: u64,
}

/// The article of the per-article panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleDetail {
    pub index: u64,
    pub name: String,
    pub changes: Vec<f64>,
    pub histogram: Option<Histogram>,
    pub training_histogram: Option<Histogram>,
    /// Fetch times of each policy at each request rate.
    pub fetches: Vec<ArticleFetches>,
}

/// When one policy fetched the article at one request rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArticleFetches {
    pub policy: WikiPolicy,
    pub fraction: f64,
    pub times: Vec<f64>,
}

/// A published gap between two policies (percentage points) beside the measured ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    pub name: String,
    pub published: String,
    /// At each rate: first − second, in points, when both were run.
    pub measured: Vec<Option<f64>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceSummary {
    pub articles: u64,
    pub changes: u64,
    pub start: String,
    pub days: f64,
    pub blank_lines: u64,
    /// Articles with no interval to build a histogram from (given one interval as long
    /// as the period) [reading].
    pub without_histogram: u64,
    /// The same for MERGE2's first month.
    pub without_training_histogram: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WikipediaOutput {
    /// The configuration, without the trace's text.
    pub config: WikipediaConfig,
    pub trace: TraceSummary,
    pub points: Vec<PolicyPoint>,
    pub gaps: Vec<Gap>,
    pub article: ArticleDetail,
    /// Worst KKT residual of the Wolf allocation at each rate.
    pub kkt: Vec<f64>,
    /// E[R] at the end of the renewal grid against its limit, worst article (exact GREEDY).
    pub renewal_gap: Option<f64>,
    pub complete: bool,
}

/// The thesis's reading of its Fig 6.3, in percentage points of freshness.
pub const PUBLISHED: [(&str, &str); 4] =
    [("MERGE − UNPOLITE", "|gap| < 0.4"), ("MERGE − MERGE2", "2.9 falling to 1.5"), ("MERGE − GREEDY", "10.30 ± 0.95"), ("RANDOM − GREEDY", "up to 2.4 (at 20 %)")];

/// Each page's histogram from its changes before `until`, and how many had no interval
/// (given one as long as `until` [reading]).
pub fn laws_from(trace: &Trace, until: f64) -> (Vec<Histogram>, u64) {
    let mut missing = 0;
    let laws = (0..trace.pages())
        .map(|i| {
            let changes: Vec<f64> = trace.changes(i).iter().copied().take_while(|&t| t < until).collect();
            let intervals: Vec<f64> = changes.windows(2).map(|w| w[1] - w[0]).collect();
            Histogram::from_intervals(&intervals).unwrap_or_else(|| {
                missing += 1;
                // no interval seen: it changes at most once in the window [reading]
                Histogram::from_intervals(&[until]).expect("positive")
            })
        })
        .collect();
    (laws, missing)
}

enum Runner {
    Merge(Merge),
    Random(Random),
    Spaced(Spaced),
    Greedy(Box<Greedy>),
}

struct Task {
    policy: WikiPolicy,
    fraction_index: usize,
}

/// One (rate, policy) simulation in progress.
struct Current {
    runner: Runner,
    f: Vec<f64>,
    account: TraceAccount,
    check: PolitenessCheck,
    rng: Stream,
    requests: u64,
    fetches: Vec<f64>,
}

pub struct WikipediaJob {
    config: WikipediaConfig,
    trace: Trace,
    summary: TraceSummary,
    laws: Rc<[Histogram]>,
    training_laws: Vec<Histogram>,
    tables: Option<Rc<[RenewalTable]>>,
    allocations: Vec<Vec<f64>>,
    training_allocations: Vec<Vec<f64>>,
    kkt: Vec<f64>,
    tasks: Vec<Task>,
    next_task: usize,
    current: Option<Current>,
    points: Vec<PolicyPoint>,
    fetches: Vec<ArticleFetches>,
    work_done: f64,
    work_total: f64,
}

impl WikipediaJob {
    pub fn new(mut config: WikipediaConfig) -> Result<Self, InputError> {
        config.validate()?;
        let trace = match config.source {
            Source::Generator => config.generator.generate(config.seed, GENERATOR_STREAM)?,
            Source::Trace => trace::parse(config.trace.as_deref().unwrap_or("").as_bytes())?,
        };
        config.trace = None;
        if config.article as usize >= trace.pages() {
            return Err(InputError::new("article", format!("must be below the number of articles ({})", trace.pages())));
        }
        let minutes = trace.minutes;
        let (laws, without) = laws_from(&trace, minutes);
        let (training_laws, without_training) = laws_from(&trace, config.training_days.min(minutes / 1440.0) * 1440.0);
        let capacities: Vec<f64> = config.fractions.iter().map(|f| f * 60.0 / config.politeness_seconds).collect();
        let mut allocations = Vec::new();
        let mut kkt = Vec::new();
        let mut training_allocations = Vec::new();
        for &c in &capacities {
            let (f, k) = wolf::allocate(&laws, c);
            allocations.push(f);
            kkt.push(k.worst());
            if config.policies.contains(&WikiPolicy::Merge2) {
                training_allocations.push(wolf::allocate(&training_laws, c).0);
            }
        }
        let tables: Option<Rc<[RenewalTable]>> =
            config.policies.contains(&WikiPolicy::GreedyExact).then(|| laws.iter().map(|l| RenewalTable::new(l, minutes, config.renewal_steps as usize)).collect());
        let summary = TraceSummary {
            articles: trace.pages() as u64,
            changes: trace.total_changes() as u64,
            start: trace::iso(trace.start),
            days: minutes / 1440.0,
            blank_lines: trace.blank_lines as u64,
            without_histogram: without,
            without_training_histogram: without_training,
        };
        let tasks: Vec<Task> = (0..config.fractions.len()).flat_map(|k| config.policies.iter().map(move |&policy| Task { policy, fraction_index: k })).collect();
        let n = trace.pages() as f64;
        let work_total = tasks.iter().map(|t| Self::cost(t, &config, minutes, n)).sum();
        Ok(WikipediaJob {
            config,
            trace,
            summary,
            laws: laws.into(),
            training_laws,
            tables,
            allocations,
            training_allocations,
            kkt,
            tasks,
            next_task: 0,
            current: None,
            points: Vec::new(),
            fetches: Vec::new(),
            work_done: 0.0,
            work_total,
        })
    }

    /// Work of a task: requests, times the articles each GREEDY request evaluates.
    fn cost(task: &Task, config: &WikipediaConfig, minutes: f64, articles: f64) -> f64 {
        let requests = minutes * 60.0 * config.fractions[task.fraction_index] / config.politeness_seconds;
        requests * if matches!(task.policy, WikiPolicy::Greedy | WikiPolicy::GreedyExact) { articles } else { 1.0 }
    }

    fn period(&self, fraction_index: usize) -> f64 {
        self.config.politeness_seconds / 60.0 / self.config.fractions[fraction_index]
    }

    fn begin(&self, task: &Task) -> Current {
        let k = task.fraction_index;
        let n = self.trace.pages();
        let mut rng = Stream::new(self.config.seed, ((k as u64) << 8) | task.policy as u64);
        let period = self.period(k);
        let start = rng.uniform() * period;
        let (runner, f) = match task.policy {
            WikiPolicy::Merge => (Runner::Merge(Merge::new(&self.allocations[k], 0..n, &mut rng)), self.allocations[k].clone()),
            WikiPolicy::Merge2 => (Runner::Merge(Merge::new(&self.training_allocations[k], 0..n, &mut rng)), self.training_allocations[k].clone()),
            WikiPolicy::Unpolite => (Runner::Spaced(Spaced::new(&self.allocations[k], 0..n, &mut rng, None)), self.allocations[k].clone()),
            WikiPolicy::Random => {
                let f = vec![1.0 / (period * n as f64); n];
                (Runner::Random(Random::new(&f, 0..n, &mut rng)), f)
            }
            WikiPolicy::Greedy => {
                (Runner::Greedy(Box::new(Greedy::new(self.laws.clone(), Gain::Sampled { samples: self.config.greedy_samples }, self.config.overdue, start, period))), Vec::new())
            }
            WikiPolicy::GreedyExact => {
                let tables = self.tables.clone().expect("tables built for exact GREEDY");
                (Runner::Greedy(Box::new(Greedy::new(self.laws.clone(), Gain::Renewal(tables), self.config.overdue, start, period))), Vec::new())
            }
        };
        Current { runner, f, account: TraceAccount::new(&self.trace), check: PolitenessCheck::new(self.config.politeness_seconds / 60.0), rng, requests: 0, fetches: Vec::new() }
    }

    fn step(&mut self, budget: f64) {
        let minutes = self.trace.minutes;
        let task_index = self.next_task;
        let task = &self.tasks[task_index];
        let (policy, k) = (task.policy, task.fraction_index);
        let mut current = match self.current.take() {
            Some(c) => c,
            None => {
                let t = Task { policy, fraction_index: k };
                self.begin(&t)
            }
        };
        let per_request = if matches!(policy, WikiPolicy::Greedy | WikiPolicy::GreedyExact) { self.trace.pages() as f64 } else { 1.0 };
        let article = self.config.article as usize;
        let mut spent = 0.0;
        let c = &mut current;
        loop {
            let next = match &c.runner {
                Runner::Merge(s) => s.next_time(),
                Runner::Random(s) => s.next_time(),
                Runner::Spaced(s) => s.next_time(),
                Runner::Greedy(s) => s.next_time(),
            };
            if next >= minutes {
                break;
            }
            if spent >= budget {
                self.work_done += spent;
                self.current = Some(current);
                return;
            }
            let (t, page) = match &mut c.runner {
                Runner::Merge(s) => s.take(&c.f, &mut c.rng),
                Runner::Random(s) => s.take(&c.f, &mut c.rng),
                Runner::Spaced(s) => s.take(&c.f, &mut c.rng),
                Runner::Greedy(s) => s.take(&c.f, &mut c.rng),
            };
            c.check.request(t);
            let last = c.account.fetch(&self.trace, page, t);
            if let Runner::Greedy(g) = &mut c.runner {
                g.learn(page, t, last);
            }
            if page == article {
                c.fetches.push(t);
            }
            c.requests += 1;
            spent += per_request;
        }
        self.work_done += spent;
        self.points.push(PolicyPoint {
            policy,
            fraction: self.config.fractions[k],
            freshness: c.account.freshness(&self.trace, minutes),
            requests: c.requests,
            violations: c.check.violations,
        });
        self.fetches.push(ArticleFetches { policy, fraction: self.config.fractions[k], times: std::mem::take(&mut c.fetches) });
        self.next_task += 1;
    }

    pub fn advance(&mut self, budget: u64) -> f64 {
        let target = self.work_done + budget as f64;
        while !self.done() && self.work_done < target {
            self.step(target - self.work_done);
        }
        self.fraction()
    }

    fn fraction(&self) -> f64 {
        if self.done() { 1.0 } else { (self.work_done / self.work_total).min(0.999) }
    }

    pub fn done(&self) -> bool {
        self.next_task >= self.tasks.len()
    }

    fn gaps(&self) -> Vec<Gap> {
        let at = |p: WikiPolicy, k: usize| self.points.iter().find(|x| x.policy == p && x.fraction == self.config.fractions[k]).map(|x| x.freshness);
        let pairs = [
            (WikiPolicy::Merge, WikiPolicy::Unpolite),
            (WikiPolicy::Merge, WikiPolicy::Merge2),
            (WikiPolicy::Merge, WikiPolicy::Greedy),
            (WikiPolicy::Random, WikiPolicy::Greedy),
            (WikiPolicy::Greedy, WikiPolicy::GreedyExact),
        ];
        pairs
            .iter()
            .enumerate()
            .map(|(j, &(a, b))| Gap {
                name: format!("{} − {}", a.label(), b.label()),
                published: PUBLISHED.get(j).map_or("— (beyond the thesis)".to_string(), |p| p.1.to_string()),
                measured: (0..self.config.fractions.len()).map(|k| Some(100.0 * (at(a, k)? - at(b, k)?))).collect(),
            })
            .collect()
    }

    pub fn output(&self) -> WikipediaOutput {
        self.output_with(true)
    }

    /// The result so far; `detail` adds the article's changes and fetches (partial
    /// results leave them out: the page redraws them once, at the end).
    fn output_with(&self, detail: bool) -> WikipediaOutput {
        let i = self.config.article as usize;
        WikipediaOutput {
            config: self.config.clone(),
            trace: self.summary.clone(),
            points: self.points.clone(),
            gaps: self.gaps(),
            article: ArticleDetail {
                index: i as u64,
                name: self.trace.names[i].clone(),
                changes: if detail { self.trace.changes(i).to_vec() } else { Vec::new() },
                histogram: Some(self.laws[i].clone()),
                training_histogram: self.config.policies.contains(&WikiPolicy::Merge2).then(|| self.training_laws[i].clone()),
                fetches: if detail { self.fetches.clone() } else { Vec::new() },
            },
            kkt: self.kkt.clone(),
            renewal_gap: self.tables.as_ref().map(|t| t.iter().map(|x| x.asymptote_gap().abs()).fold(0.0, f64::max)),
            complete: self.done(),
        }
    }
}

impl Job for WikipediaJob {
    fn advance(&mut self, budget: u64) -> f64 {
        WikipediaJob::advance(self, budget)
    }
    fn done(&self) -> bool {
        WikipediaJob::done(self)
    }
    fn partial(&self) -> Option<crate::experiment::Output> {
        Some(crate::experiment::Output::Wikipedia(self.output_with(self.done())))
    }
    fn finish(mut self: Box<Self>) -> crate::experiment::Output {
        while !WikipediaJob::done(&self) {
            WikipediaJob::advance(&mut self, u64::MAX / 2);
        }
        crate::experiment::Output::Wikipedia(self.output())
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn small() -> WikipediaConfig {
        WikipediaConfig {
            generator: BurstyConfig { articles: 20, days: 40.0, ..BurstyConfig::default() },
            politeness_seconds: 20_000.0,
            fractions: vec![0.5, 1.0],
            policies: vec![WikiPolicy::Merge, WikiPolicy::Random],
            training_days: 10.0,
            ..WikipediaConfig::default()
        }
    }

    #[test]
    fn the_article_is_followed_at_every_rate_and_shown_at_the_chosen_one() {
        let mut job = WikipediaJob::new(small()).unwrap();
        while !job.done() {
            job.advance(u64::MAX / 2);
        }
        let mut output = job.output();
        let fetched = |o: &WikipediaOutput, p: WikiPolicy, fraction: f64| o.article.fetches.iter().find(|f| f.policy == p && f.fraction == fraction).map(|f| f.times.len());
        for p in [WikiPolicy::Merge, WikiPolicy::Random] {
            assert!(fetched(&output, p, 0.5).is_some() && fetched(&output, p, 1.0).is_some(), "{p:?} at both rates");
        }
        // Wolf et al.'s allocation gives no article less when the budget grows
        let (half, full) = (fetched(&output, WikiPolicy::Merge, 0.5).unwrap(), fetched(&output, WikiPolicy::Merge, 1.0).unwrap());
        assert!(half > 0 && full >= half, "{half} then {full}");
        for (rate, percent) in [(0, "50 %"), (1, "100 %")] {
            output.config.article_rate = rate;
            let figure = &crate::chart::wikipedia_figures::wikipedia(&output)[2];
            assert!(figure.title.contains(percent), "{}", figure.title);
            let merge = if rate == 0 { half } else { full };
            assert!(figure.summary.contains(&format!("MERGE ({merge} fetches)")), "{}", figure.summary);
        }
    }

    #[test]
    fn a_repeated_rate_is_refused_by_name() {
        let config = WikipediaConfig { fractions: vec![0.5, 1.0, 0.5], ..small() };
        let error = config.validate().unwrap_err();
        assert_eq!(error.field, "fractions[2]");
        assert!(error.message.contains("repeats an earlier rate (0.5)"), "{}", error.message);
    }

    #[test]
    fn a_rate_beyond_the_list_is_refused_by_name() {
        let config = WikipediaConfig { article_rate: 2, ..small() };
        let error = config.validate().unwrap_err();
        assert_eq!(error.field, "article_rate");
        assert!(error.message.contains("below the number of request rates (2)"), "{}", error.message);
    }
}
