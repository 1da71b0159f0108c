//! The bursty-changes job: each policy at each request rate, one server requested at
//! equally spaced times, every request through the one driver of the schedules.

use super::config::{BurstyConfig, BurstyPolicy, Source};
use super::output::{ArticleDetail, ArticleFetches, BurstyOutput, FetchMarks, Gap, PUBLISHED, PolicyPoint, TraceSummary};
use crate::core::alloc::wolf;
use crate::core::input::InputError;
use crate::core::model::histogram::Histogram;
use crate::core::model::renewal::RenewalTable;
use crate::core::model::trace::{self, Trace};
use crate::core::policy::PolitenessCheck;
use crate::core::policy::greedy::{Gain, Greedy};
use crate::core::policy::merge::Merge;
use crate::core::policy::random::Random;
use crate::core::policy::server::drive;
use crate::core::policy::spaced::Spaced;
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::freshness::{Fetch, Freshness};
use crate::core::sim::replay::{Replay, TraceAccount};
use crate::experiments::Plan;
use std::rc::Rc;

/// Work per slice of a run: requests, or articles GREEDY evaluates (the granularity of
/// progress and cancellation; slices are fixed by the configuration alone).
const SLICE_UNITS: f64 = 200_000.0;

enum Runner {
    Merge(Merge),
    Random(Random),
    Spaced(Spaced),
    Greedy(Box<Greedy>),
}

struct Task {
    policy: BurstyPolicy,
    fraction_index: usize,
}

impl Task {
    /// Requests of the task over `minutes`.
    fn requests(&self, config: &BurstyConfig, minutes: f64) -> f64 {
        minutes * 60.0 * config.fractions[self.fraction_index] / config.politeness_seconds.0
    }

    /// Work per request: GREEDY evaluates every article.
    fn per_request(&self, articles: f64) -> f64 {
        if self.policy.is_greedy() { articles } else { 1.0 }
    }
}

/// One (rate, policy) simulation in progress.
pub struct Current {
    policy: BurstyPolicy,
    fraction_index: usize,
    runner: Runner,
    f: Vec<f64>,
    account: TraceAccount,
    check: PolitenessCheck,
    rng: Stream,
    requests: u64,
    fetches: FetchMarks,
    slices: u64,
    /// Minutes per slice.
    slice: f64,
    per_request: f64,
}

/// The replayed account, recording the followed article's fetches.
struct Watching<'a> {
    replay: Replay<'a>,
    article: usize,
    fetches: &'a mut FetchMarks,
}

impl Freshness for Watching<'_> {
    #[inline]
    fn visit(&mut self, page: usize, time: f64, rng: &mut Stream) -> Option<Fetch> {
        if page == self.article {
            self.fetches.record(time);
        }
        self.replay.visit(page, time, rng)
    }
}

pub struct BurstyJob {
    config: BurstyConfig,
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
    points: Vec<PolicyPoint>,
    fetches: Vec<ArticleFetches>,
    work_total: f64,
    complete: bool,
}

/// What GREEDY's runs did (see [`BurstyJob::greedy_counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct GreedyCounts {
    pub requests: u64,
    pub evaluated: u64,
    pub drawn: u64,
}

impl BurstyJob {
    /// Reads or generates the articles of a valid configuration, and allocates.
    pub fn new(mut config: BurstyConfig) -> Result<Self, InputError> {
        let trace = match config.source {
            Source::Generator => config.generator.generate(config.seed)?,
            Source::Trace => match &config.trace {
                Some(text) => trace::parse(text.as_bytes())?,
                None => return Err(InputError::new("trace", "is not given: its size or shape stands for it in the page's checks only; a run needs the trace's text")),
            },
        };
        config.trace = None;
        if config.article as usize >= trace.pages() {
            return Err(InputError::new("article", format!("must be below the number of articles ({})", trace.pages())));
        }
        let minutes = trace.minutes;
        let (laws, without) = Histogram::laws_from(&trace, minutes);
        let (training_laws, without_training) = Histogram::laws_from(&trace, config.training_days.min(minutes / 1440.0) * 1440.0);
        let capacities: Vec<f64> = config.fractions.iter().map(|f| f * 60.0 / config.politeness_seconds.0).collect();
        let mut allocations = Vec::new();
        let mut kkt = Vec::new();
        let mut training_allocations = Vec::new();
        for &c in &capacities {
            let (f, k) = wolf::allocate(&laws, c);
            allocations.push(f);
            kkt.push(k.worst());
            if config.policies.contains(&BurstyPolicy::Merge2) {
                training_allocations.push(wolf::allocate(&training_laws, c).0);
            }
        }
        let tables: Option<Rc<[RenewalTable]>> =
            config.policies.contains(&BurstyPolicy::GreedyExact).then(|| laws.iter().map(|l| RenewalTable::new(l, minutes, config.renewal_steps as usize)).collect());
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
        let work_total = tasks.iter().map(|t| t.requests(&config, minutes) * t.per_request(n)).sum();
        Ok(BurstyJob {
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
            points: Vec::new(),
            fetches: Vec::new(),
            work_total,
            complete: false,
        })
    }

    /// The cost on the articles as read (a trace's real span and size).
    pub fn cost(&self) -> crate::core::limits::Cost {
        let e = self.config.estimate_for(self.trace.pages() as u64, self.trace.total_changes() as u64, self.trace.minutes);
        self.config.cost_of(&e)
    }

    fn period(&self, fraction_index: usize) -> f64 {
        self.config.politeness_seconds.in_minutes() / self.config.fractions[fraction_index]
    }

    fn start(&self, task: &Task) -> Current {
        let k = task.fraction_index;
        let n = self.trace.pages();
        let mut rng = Stream::of(self.config.seed, Purpose::BurstyRun, ((k as u64) << 8) | task.policy as u64);
        let period = self.period(k);
        let start = rng.uniform() * period;
        let (runner, f) = match task.policy {
            BurstyPolicy::Merge => (Runner::Merge(Merge::new(&self.allocations[k], 0..n, &mut rng)), self.allocations[k].clone()),
            BurstyPolicy::Merge2 => (Runner::Merge(Merge::new(&self.training_allocations[k], 0..n, &mut rng)), self.training_allocations[k].clone()),
            BurstyPolicy::Unpolite => (Runner::Spaced(Spaced::new(&self.allocations[k], 0..n, &mut rng, None)), self.allocations[k].clone()),
            BurstyPolicy::Random => {
                let f = vec![1.0 / (period * n as f64); n];
                (Runner::Random(Random::new(&f, 0..n, &mut rng)), f)
            }
            BurstyPolicy::Greedy => {
                (Runner::Greedy(Box::new(Greedy::new(self.laws.clone(), Gain::Sampled { samples: self.config.greedy_samples }, self.config.overdue, start, period))), Vec::new())
            }
            BurstyPolicy::GreedyExact => {
                let tables = self.tables.clone().expect("tables built for exact GREEDY");
                (Runner::Greedy(Box::new(Greedy::new(self.laws.clone(), Gain::Renewal(tables), self.config.overdue, start, period))), Vec::new())
            }
        };
        let per_request = task.per_request(n as f64);
        let slice = period * (SLICE_UNITS / per_request).max(1.0);
        Current {
            policy: task.policy,
            fraction_index: k,
            runner,
            f,
            account: TraceAccount::new(&self.trace),
            check: PolitenessCheck::new(self.config.politeness_seconds.in_minutes()),
            rng,
            requests: 0,
            fetches: FetchMarks::new(self.trace.minutes),
            slices: 0,
            slice,
            per_request,
        }
    }

    /// What the runs of `policy` (a GREEDY) did over their first `minutes`, every rate
    /// together: requests, article evaluations and intervals drawn (the estimate's pilot).
    pub(super) fn greedy_counts(&mut self, policy: BurstyPolicy, minutes: f64) -> GreedyCounts {
        let mut counts = GreedyCounts::default();
        let runs: Vec<usize> = (0..self.tasks.len()).filter(|&k| self.tasks[k].policy == policy).collect();
        for k in runs {
            let mut c = self.start(&self.tasks[k]);
            c.slice = minutes.min(self.trace.minutes);
            self.step(&mut c);
            if let Runner::Greedy(g) = &c.runner {
                counts.requests += c.requests;
                counts.evaluated += g.evaluated();
                counts.drawn += g.drawn();
            }
        }
        counts
    }

    fn gaps(&self) -> Vec<Gap> {
        let at = |p: BurstyPolicy, k: usize| self.points.iter().find(|x| x.policy == p && x.fraction == self.config.fractions[k]).map(|x| x.freshness);
        let pairs = [
            (BurstyPolicy::Merge, BurstyPolicy::Unpolite),
            (BurstyPolicy::Merge, BurstyPolicy::Merge2),
            (BurstyPolicy::Merge, BurstyPolicy::Greedy),
            (BurstyPolicy::Random, BurstyPolicy::Greedy),
            (BurstyPolicy::Greedy, BurstyPolicy::GreedyExact),
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

    /// The result so far; `detail` adds the article's changes and fetches (partial
    /// results leave them out: the page redraws them once, at the end).
    fn output_with(&self, detail: bool) -> BurstyOutput {
        let i = self.config.article as usize;
        BurstyOutput {
            // what was run: the page's pilot for its estimate is not part of it
            config: BurstyConfig { greedy_pilot: None, ..self.config.clone() },
            trace: self.summary.clone(),
            points: self.points.clone(),
            gaps: self.gaps(),
            article: ArticleDetail {
                index: i as u64,
                name: self.trace.names[i].clone(),
                changes: if detail { self.trace.changes(i).to_vec() } else { Vec::new() },
                histogram: Some(self.laws[i].clone()),
                training_histogram: self.config.policies.contains(&BurstyPolicy::Merge2).then(|| self.training_laws[i].clone()),
                fetches: if detail { self.fetches.clone() } else { Vec::new() },
            },
            kkt: self.kkt.clone(),
            renewal_gap: self.tables.as_ref().map(|t| t.iter().map(|x| x.asymptote_gap().abs()).fold(0.0, f64::max)),
            complete: self.complete,
        }
    }
}

impl Plan for BurstyJob {
    type Run = Current;
    type Output = BurstyOutput;

    fn begin(&mut self) -> Option<(Current, f64)> {
        let task = self.tasks.get(self.next_task)?;
        let current = self.start(task);
        self.next_task += 1;
        Some((current, 0.0))
    }

    /// One slice of the run: its requests up to the slice's end, through the driver.
    fn step(&mut self, c: &mut Current) -> (f64, bool) {
        let minutes = self.trace.minutes;
        c.slices += 1;
        let until = (c.slices as f64 * c.slice).min(minutes);
        let mut watching = Watching { replay: Replay { account: &mut c.account, trace: &self.trace }, article: self.config.article as usize, fetches: &mut c.fetches };
        let (check, rng, f) = (&mut c.check, &mut c.rng, &c.f);
        let made = match &mut c.runner {
            Runner::Merge(s) => drive(s, until, f, &mut watching, check, rng),
            Runner::Random(s) => drive(s, until, f, &mut watching, check, rng),
            Runner::Spaced(s) => drive(s, until, f, &mut watching, check, rng),
            Runner::Greedy(s) => drive(s.as_mut(), until, f, &mut watching, check, rng),
        };
        c.requests += made;
        (made as f64 * c.per_request, until >= minutes)
    }

    fn end(&mut self, c: Current) {
        let fraction = self.config.fractions[c.fraction_index];
        self.points.push(PolicyPoint {
            policy: c.policy,
            fraction,
            freshness: c.account.freshness(&self.trace, self.trace.minutes),
            requests: c.requests,
            violations: c.check.violations,
        });
        self.fetches.push(c.fetches.into_fetches(c.policy, fraction));
    }

    /// The results so far: partial results leave out the article's changes and fetches
    /// (the page draws them once, at the end).
    fn output(&self, _running: Option<&Current>) -> BurstyOutput {
        self.output_with(self.complete)
    }

    fn total_work(&self) -> f64 {
        self.work_total
    }

    fn complete(&mut self) {
        self.complete = true;
    }
}
