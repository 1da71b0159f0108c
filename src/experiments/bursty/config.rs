//! The bursty-changes experiment's configuration (thesis ch. 6): the articles (a trace
//! or the generator), politeness, request rates and policies; validation and cost.

use super::output::MARK_COLUMNS;
use crate::core::field::settings;
use crate::core::input::{InputError, distinct};
use crate::core::labels::labelled;
use crate::core::limits::{Cost, Fix};
use crate::core::model::bursty::BurstyGenerator;
use crate::core::model::renewal::RenewalTable;
use crate::core::model::trace;
use crate::core::policy::greedy::Overdue;
use crate::core::units::{Days, Seconds};
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

labelled! {
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The synthetic bursty generator.
    Generator => "the synthetic bursty generator",
    /// An imported trace (`trace`).
    Trace => "an imported trace",
}
}

labelled! {
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BurstyPolicy {
    Merge => "MERGE",
    Merge2 => "MERGE2",
    Unpolite => "UNPOLITE",
    Random => "RANDOM",
    Greedy => "GREEDY (sampled)",
    GreedyExact => "GREEDY (renewal eq.)",
}
}

impl BurstyPolicy {
    pub fn is_greedy(self) -> bool {
        matches!(self, BurstyPolicy::Greedy | BurstyPolicy::GreedyExact)
    }
}

settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BurstyConfig {
    pub source: Source = Source::Generator; select("changes from");
    /// A quarter keeps GREEDY's runs to seconds; the thesis replays a year.
    pub generator: BurstyGenerator = BurstyGenerator { articles: 200, days: 91.0, ..BurstyGenerator::default() }; nested;
    /// The CSV text of a trace (`page,timestamp` rows), when `source` is `trace` (a file
    /// input: `--trace FILE`).
    pub trace: Option<String> = None; internal;
    /// The size in bytes of a trace the page holds but leaves out of its checks (checking
    /// a form must not copy hundreds of MB on the page's main thread); it stands for
    /// `trace` in validation and the cost, and a run needs the trace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_bytes: Option<u64> = None; internal;
    /// The shape of a trace the page holds (its size, articles, changes and period),
    /// read by the page's worker: it stands for `trace` in validation and the cost, as
    /// `trace_bytes` does until it is read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_shape: Option<trace::TraceShape> = None; internal;
    /// GREEDY's pilot for the estimate as the page's worker ran it (its key and
    /// counts; [`super::pilot`]): the form's checks price the run with it, and without a
    /// pilot until the worker answers (it takes milliseconds, too long for the page's
    /// main thread at every edit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub greedy_pilot: Option<super::pilot::GreedyPilot> = None; internal;
    /// Minimum time between two requests to the server (the thesis: 15 s for 10,000
    /// articles; 200 at 750 s keep its requests per article).
    pub politeness_seconds: Seconds = Seconds(750.0);
        number("politeness P (seconds)").help("the thesis: 15 s for 10,000 articles").at_least(0.001).at_most(Days(30.0).in_seconds().0);
    /// Shares of the maximum request rate 1/P.
    pub fractions: Vec<f64> = vec![0.2, 0.4, 0.6, 0.8, 1.0]; list("request rates (share of 1/P)").positive().at_most(1.0);
    pub policies: Vec<BurstyPolicy> = BurstyPolicy::ALL.to_vec();
        choices("policies").help("GREEDY (sampled) estimates as the thesis did; GREEDY (renewal eq.) solves the renewal equation");
    /// Renewal simulations per article in GREEDY's estimator (the thesis: 3).
    pub greedy_samples: u32 = 3; integer("GREEDY samples per article").help("the thesis: 3").count(1, 1000).why("more samples only slow GREEDY down");
    /// Grid steps of the renewal equation over the period (exact GREEDY).
    pub renewal_steps: u32 = 2048; integer("renewal equation grid steps").count(64, 1 << 20).why("a finer grid needs more memory than it is worth");
    /// GREEDY's reading for an article unchanged longer than its histogram allows.
    pub overdue: Overdue = Overdue::Memoryless; select("overdue article (older than its histogram allows)");
    /// MERGE2 builds its histograms from the changes of the first days only.
    pub training_days: f64 = 31.0; number("MERGE2 learns from the first (days)").help("the thesis: January").positive();
    /// The article shown in the per-article panel (index, from 0).
    pub article: u64 = 0; integer("article shown below (from 0)");
    /// The request rate whose fetches the panel shows (index into `fractions`, from 0);
    /// every rate's are recorded, so the page changes it without a rerun.
    pub article_rate: u64 = 0;
        integer("its fetches at request rate (from 0, in the list’s order)").help("every rate is recorded: changing this redraws, no rerun");
    pub seed: u64 = 1; seed();
}
}

/// The thesis's settings (10,000 articles, 15 s), with the synthetic generator.
pub fn thesis_scale() -> BurstyConfig {
    BurstyConfig { generator: BurstyGenerator { articles: 10_000, days: 365.0, ..BurstyGenerator::default() }, politeness_seconds: Seconds(15.0), ..BurstyConfig::default() }
}

/// What a run will cost, from its configuration alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub articles: u64,
    /// Requests of one policy at all the rates together.
    pub per_policy: f64,
    pub changes: u64,
    pub requests: u64,
    /// Article evaluations of the GREEDY runs (requests × articles).
    pub greedy_evaluations: f64,
    pub bytes: f64,
}

/// Native time per request of the allocation-driven policies (BENCHMARKS.md, selection).
const SECONDS_PER_REQUEST: f64 = 36e-9;
/// GREEDY (sampled)'s time per article and request, with the work its pilot measured
/// ([`super::pilot`]): each article bounded, each evaluation (a stream and its floor),
/// and each interval drawn. Fitted, weighted by relative error, to 11 runs (burstiness
/// 0–3, 200–1,000 articles, 1–30 samples, 0.1–10 s; each within 0.82–1.22× of the fit,
/// their counts those the runs made; 2026-12-03, this machine).
const SECONDS_PER_BOUND: f64 = 3.7e-9;
const SECONDS_PER_SAMPLED_EVALUATION: f64 = 48e-9;
const SECONDS_PER_DRAW: f64 = 6.2e-9;
/// Without a pilot (a trace): every article evaluated at every request, at 36 ns an
/// evaluation at 3 samples, each sample costing alike (9 samples ran 3.1× an estimate
/// that ignored them, the fuzz campaign's seed 5, case 334).
const SECONDS_PER_EVALUATION_WITHOUT_PILOT: f64 = 36e-9;
const SAMPLES_MEASURED: f64 = 3.0;
/// GREEDY (renewal eq.)'s time per article and request, with the share of the articles
/// its pilot evaluated: each article bounded, each evaluation a read of its renewal table.
/// Fitted to 16 runs (200–5,000 articles, burstiness 0.5–3, 1,024–8,192 steps, P 15–2,000
/// s; each within 0.70–1.24× of the fit with the share the run evaluated; 2026-12-03,
/// this machine). Without a pilot (a trace) every article is taken as evaluated.
const SECONDS_PER_EXACT_BOUND: f64 = 10e-9;
const SECONDS_PER_EXACT_EVALUATION: f64 = 55e-9;
/// Building the renewal tables, a grid step of an article (60–100 ns on the same runs).
const SECONDS_PER_RENEWAL_STEP: f64 = 95e-9;

impl BurstyConfig {
    pub fn cost_of(&self, e: &Estimate) -> Cost {
        let greedy = |p: BurstyPolicy| if self.uses(p) { e.per_policy * e.articles as f64 } else { 0.0 };
        let (sampled, exact) = (greedy(BurstyPolicy::Greedy), greedy(BurstyPolicy::GreedyExact));
        let plain = e.per_policy * self.policies.iter().filter(|p| !p.is_greedy()).count() as f64;
        let [sampled_work, exact_work] = super::pilot::greedy_work(self);
        let sampled_seconds = match sampled_work {
            Some(w) => sampled * (SECONDS_PER_BOUND + w.evaluated * SECONDS_PER_SAMPLED_EVALUATION + w.drawn * SECONDS_PER_DRAW),
            None => sampled * SECONDS_PER_EVALUATION_WITHOUT_PILOT * f64::from(self.greedy_samples) / SAMPLES_MEASURED,
        };
        let exact_seconds = if exact > 0.0 {
            let evaluated = exact_work.map_or(1.0, |w| w.evaluated);
            let tables = e.articles as f64 * (f64::from(self.renewal_steps) + 1.0) * SECONDS_PER_RENEWAL_STEP;
            tables + exact * (SECONDS_PER_EXACT_BOUND + evaluated * SECONDS_PER_EXACT_EVALUATION)
        } else {
            0.0
        };
        let greedy_seconds = sampled_seconds + exact_seconds;
        let size_field = if self.source == Source::Trace { "trace" } else { "generator.articles" };
        let generating = if self.source == Source::Generator { self.generator.cost() } else { Cost { seconds: 0.0, bytes: 0.0, ..self.generator.cost() } };
        let simulating = plain * SECONDS_PER_REQUEST + greedy_seconds;
        if generating.seconds > simulating {
            return Cost {
                work: plain + sampled + exact,
                unit: "requests and GREEDY evaluations".into(),
                seconds: generating.seconds + simulating,
                bytes: e.bytes.max(generating.bytes),
                ..generating
            };
        }
        Cost {
            work: plain + sampled + exact,
            unit: "requests and GREEDY evaluations".into(),
            bytes: e.bytes.max(generating.bytes),
            seconds: simulating + generating.seconds,
            memory_fix: Fix::new(size_field, "use fewer articles, or fewer renewal_steps"),
            time_fix: Fix::new(if sampled + exact > plain { "policies" } else { "politeness_seconds" }, "drop GREEDY, use fewer articles, a shorter period or a longer politeness"),
        }
    }

    fn uses(&self, p: BurstyPolicy) -> bool {
        self.policies.contains(&p)
    }

    /// The trace's size in bytes: its text's, or the shape's or size that stands for it.
    fn trace_len(&self) -> u64 {
        match (&self.trace, &self.trace_shape) {
            (Some(text), _) => text.len() as u64,
            (None, Some(shape)) => shape.bytes,
            (None, None) => self.trace_bytes.unwrap_or(0),
        }
    }

    /// The trace's shape where it is known: read from its text (the command line, the
    /// worker) or sent by the page's worker; None from a size alone, or a text the run
    /// will refuse (it says why when it starts).
    fn known_trace_shape(&self) -> Option<trace::TraceShape> {
        match (&self.trace, &self.trace_shape) {
            (Some(text), _) => shape_of_text(text),
            (None, shape) => shape.clone(),
        }
    }

    /// The period in minutes, the articles and changes (a trace's from its shape, or
    /// guessed from its size until the shape is known).
    pub fn estimate(&self) -> Estimate {
        let (articles, changes, minutes) = match self.source {
            Source::Generator => {
                let g = &self.generator;
                (g.articles, (g.articles as f64 * (g.rate_min + g.rate_max) / 2.0 * g.days / 365.0) as u64, g.minutes())
            }
            Source::Trace => match self.known_trace_shape() {
                Some(shape) => (shape.pages, shape.changes, shape.minutes),
                // from a size alone (while the page's worker reads the shape): about 25
                // bytes a row, 300 rows an article, a year
                None => {
                    let rows = self.trace_len() / 25;
                    ((rows / 300).max(1), rows, 525_600.0)
                }
            },
        };
        self.estimate_for(articles, changes, minutes)
    }

    /// The cost on `articles` articles with `changes` changes over `minutes`.
    pub fn estimate_for(&self, articles: u64, changes: u64, minutes: f64) -> Estimate {
        let per_fraction: f64 = self.fractions.iter().map(|f| minutes * 60.0 * f / self.politeness_seconds.0).sum();
        let greedy_runs = [BurstyPolicy::Greedy, BurstyPolicy::GreedyExact].iter().filter(|&&p| self.uses(p)).count() as f64;
        let tables = if self.uses(BurstyPolicy::GreedyExact) { articles as f64 * (self.renewal_steps as f64 + 1.0) * RenewalTable::BYTES_PER_STEP as f64 } else { 0.0 };
        Estimate {
            articles,
            changes,
            per_policy: per_fraction,
            requests: (per_fraction * self.policies.len() as f64) as u64,
            greedy_evaluations: per_fraction * greedy_runs * articles as f64,
            // the changes, each article's laws and state, the renewal tables, the trace's
            // text while it is read, and the followed article's fetch marks in every run
            // (at most one a column, kept and copied into the result)
            bytes: changes as f64 * 8.0
                + articles as f64 * 400.0
                + tables
                + 2.0 * self.trace_len() as f64
                + 2.0 * 8.0 * MARK_COLUMNS as f64 * (self.fractions.len() * self.policies.len()) as f64,
        }
    }
}

/// A trace text's shape (None where the run will refuse it), read once a text: the
/// command line checks and prices a configuration several times.
fn shape_of_text(text: &str) -> Option<trace::TraceShape> {
    crate::core::memo::read_once("trace shape", text, |text| trace::TraceShape::of(text).ok())
}

impl Settings for BurstyConfig {
    fn rules(&self) -> Result<(), InputError> {
        match self.source {
            Source::Generator => {
                if let Some(field) = [("trace", self.trace.is_some()), ("trace_bytes", self.trace_bytes.is_some()), ("trace_shape", self.trace_shape.is_some())]
                    .iter()
                    .find(|(_, given)| *given)
                    .map(|(f, _)| *f)
                {
                    return Err(InputError::new(field, "is given but source is generator; set source to trace to replay it, or remove it"));
                }
            }
            Source::Trace => {
                if self.trace.is_some() && self.trace_bytes.is_some() {
                    return Err(InputError::new("trace_bytes", "is given beside trace; it stands for a trace left out of the page's checks, so remove it"));
                }
                if let Some(shape) = &self.trace_shape {
                    if self.trace.is_some() {
                        return Err(InputError::new("trace_shape", "is given beside trace; it stands for a trace left out of the page's checks, so remove it"));
                    }
                    if self.trace_bytes.is_some() {
                        return Err(InputError::new(
                            "trace_bytes",
                            "is given beside trace_shape; both stand for the trace left out of the page's checks, and the shape says more: remove the size",
                        ));
                    }
                    shape.consistent().map_err(|e| InputError::new("trace_shape", e))?;
                }
                if self.trace.is_none() && self.trace_bytes.is_none() && self.trace_shape.is_none() {
                    return Err(InputError::new("trace", "is empty: choose a CSV file of page,timestamp rows (or use the generator)"));
                }
                if self.trace_len() > trace::MAX_BYTES as u64 {
                    return Err(InputError::new("trace", format!("is {} MB, over the {} MB limit", self.trace_len() >> 20, trace::MAX_BYTES >> 20)));
                }
            }
        }
        if let Some(pilot) = &self.greedy_pilot {
            if self.source == Source::Trace {
                return Err(InputError::new("greedy_pilot", "is given but source is trace: a trace's GREEDYs have no pilot; remove it"));
            }
            pilot.check()?;
        }
        if self.fractions.is_empty() || self.fractions.len() > 20 {
            return Err(InputError::new("fractions", "give 1 to 20 shares of the maximum rate, such as 0.2, 0.4, 0.6, 0.8, 1"));
        }
        for (k, &f) in self.fractions.iter().enumerate() {
            // results and the article's fetches are looked up by rate: each rate once
            if self.fractions[..k].contains(&f) {
                return Err(InputError::new(format!("fractions[{k}]"), format!("repeats an earlier rate ({f}); give each request rate once")));
            }
        }
        distinct("policies", &self.policies)?;
        if self.policies.is_empty() {
            return Err(InputError::new("policies", "choose at least one policy"));
        }
        if self.article_rate as usize >= self.fractions.len() {
            return Err(InputError::new("article_rate", format!("must be below the number of request rates ({}): 0 is the first rate of the list", self.fractions.len())));
        }
        // the articles where they are known (a trace's from its shape or text)
        let articles = match self.source {
            Source::Generator => Some(self.generator.articles),
            Source::Trace => self.known_trace_shape().map(|s| s.pages),
        };
        if let Some(articles) = articles.filter(|&n| self.article >= n) {
            return Err(InputError::new("article", format!("must be below the number of articles ({articles})")));
        }
        Ok(())
    }

    /// Work: a unit per request, and per article GREEDY evaluates at each of its requests.
    fn cost(&self) -> Cost {
        self.cost_of(&self.estimate())
    }

    fn pilot_key(&self) -> Option<crate::experiments::PilotKey> {
        super::pilot::key(self).map(|key| crate::experiments::PilotKey { field: "greedy_pilot", key })
    }

    fn pilot(&self) -> Option<serde_json::Value> {
        super::pilot::run_for(self).and_then(|p| serde_json::to_value(p).ok())
    }
}
