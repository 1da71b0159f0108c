//! The estimate's pilot for both GREEDYs (sampled, and by the renewal equation): the
//! share of the articles a request evaluates, and the intervals the sampled gain draws,
//! depend on how bursty the articles are and how often each is requested — 200 generated
//! articles at 9 samples and the same requests took 0.19 s at burstiness 0.5 (0.16 of the
//! articles evaluated a request, 0.8 intervals drawn per article and request) and 1.69 s
//! at burstiness 3 (0.40, 11.0), while the estimate said 0.77 s for both; the renewal
//! equation's GREEDY, priced as evaluating every article, ran 0.22–1.1 of its estimate.
//! The pilot runs GREEDY on the run's first articles, each requested as often as in the
//! run (politeness stretched by the articles left out), over the run's period or, where
//! that would take more than a few milliseconds, its first days; its counts per article
//! and request, scaled to the run's articles, stand for the run's.
//!
//! The pilot takes milliseconds (5.5–20.9 ms in the page here), too long for a page's
//! main thread at every edit: there the form sends its key ([`key`]) with the counts its
//! worker computed ([`GreedyPilot`], in the internal field `greedy_pilot`), and prices
//! the GREEDYs without a pilot until the worker answers. The command line runs it.

use super::config::{BurstyConfig, BurstyPolicy, Source};
use super::job::{BurstyJob, GreedyCounts};
use crate::core::input::InputError;
use crate::core::units::Seconds;
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// The pilot's articles (the run's first ones). The sampled GREEDY's share evaluated and
/// its draws fall with the articles competing, as powers of their number: from 32
/// articles to 200–10,000 each requested as often, the share fell as n^−0.27 to n^−0.31
/// and the draws as n^−0.37 to n^−0.50 (five series: burstiness 2 and 3, 200–10,000
/// articles, P 15–750 s, 2026-12-03; from 8 to 32 both fell faster, so two pilots' slope
/// misled), so the run's are the pilot's scaled by these powers.
const ARTICLES: u64 = 32;
/// GREEDY (renewal eq.)'s share fell as n^−0.05 to n^−0.18 beyond its pilot's (median
/// −0.08; 16 runs, 200–5,000 articles, burstiness 0.5–3, 2026-12-03).
const EVALUATED_POWER: [f64; 2] = [-0.3, -0.08];
const DRAWN_POWER: f64 = -0.4;
/// Requests the pilot makes at most, over all its rates.
const REQUESTS: f64 = 2_000.0;
/// Changes the pilot generates at most.
const CHANGES: f64 = 40_000.0;
/// Samples the pilot draws per article at most (the draws scale with the samples).
const SAMPLES: u32 = 3;
/// The pilot's renewal-equation grid at most (its tables take 0.1 µs a step to build).
const RENEWAL_STEPS: u32 = 512;

/// A pilot's configuration and the minutes it runs.
type Pilot = (BurstyConfig, f64);

/// What GREEDY does per article and request.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GreedyWork {
    /// Evaluations (drawn or computed) per article and request.
    pub evaluated: f64,
    /// Intervals the sampled gain draws per article and request, at the run's samples.
    pub drawn: f64,
}

/// Both GREEDYs' work in a pilot (None for one the run does not use).
pub type Works = [Option<GreedyWork>; 2];

/// A pilot run elsewhere (the page's worker) for the configuration whose [`key`] it
/// carries: its counts, unscaled, or None while it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GreedyPilot {
    pub key: String,
    #[serde(default)]
    pub works: Option<Works>,
}

impl GreedyPilot {
    /// Counts a pilot can give: finite and not negative.
    pub fn check(&self) -> Result<(), InputError> {
        let counts = self.works.iter().flatten().flatten().flat_map(|w| [w.evaluated, w.drawn]);
        if self.key.len() > 64 || counts.into_iter().any(|c| !(c.is_finite() && c >= 0.0)) {
            return Err(InputError::new("greedy_pilot", "is not a pilot's counts (the page's worker computes them); remove it"));
        }
        Ok(())
    }
}

thread_local! {
    /// The last pilot's counts (unscaled): the page checks the configuration at every
    /// edit, and most edits leave the pilot's inputs as they were.
    static LAST: RefCell<Option<(Pilot, u32, Works)>> = const { RefCell::new(None) };
}

/// The pilot's work of each GREEDY, in [`GREEDYS`]' order, for a valid generated run:
/// None for one the run does not use, and for both on a trace or a configuration its
/// checks refuse (they say why).
///
/// A pilot given with the configuration (`greedy_pilot`) stands for it where its key is
/// the configuration's; otherwise (another key, or still running) both are priced
/// without a pilot. Without one given, the pilot runs here.
pub fn greedy_work(config: &BurstyConfig) -> Works {
    let Some(pilot) = pilot_of(config) else { return [None; 2] };
    let samples = config.greedy_samples;
    let works = match &config.greedy_pilot {
        Some(GreedyPilot { key: given, works: Some(works) }) if *given == key_of(&pilot, samples) => *works,
        Some(_) => return [None; 2],
        None => match counts(&pilot, samples) {
            Some(works) => works,
            None => return [None; 2],
        },
    };
    let more = config.generator.articles as f64 / pilot.0.generator.articles as f64;
    std::array::from_fn(|k| works[k].map(|w| GreedyWork { evaluated: w.evaluated * more.powf(EVALUATED_POWER[k]), drawn: w.drawn * more.powf(DRAWN_POWER) }))
}

/// The key of the pilot a configuration's estimate needs (None where it needs none): a
/// digest of the pilot's inputs, the same natively and in the page's worker.
pub fn key(config: &BurstyConfig) -> Option<String> {
    pilot_of(config).map(|pilot| key_of(&pilot, config.greedy_samples))
}

/// Runs the pilot a configuration's estimate needs (None where it needs none): what the
/// page's worker sends back for the form's checks.
pub fn run_for(config: &BurstyConfig) -> Option<GreedyPilot> {
    let pilot = pilot_of(config)?;
    let samples = config.greedy_samples;
    Some(GreedyPilot { key: key_of(&pilot, samples), works: counts(&pilot, samples) })
}

/// The pilot of a valid generated run with a GREEDY.
fn pilot_of(config: &BurstyConfig) -> Option<Pilot> {
    let needed = config.source == Source::Generator && GREEDYS.iter().any(|p| config.policies.contains(p));
    (needed && config.validate().is_ok()).then(|| pilot_config(config))
}

fn key_of((pilot, minutes): &Pilot, samples: u32) -> String {
    crate::experiments::PilotKey::digest(&(pilot, minutes.to_bits(), samples))
}

/// The pilot's counts, from the last pilot where its inputs are the same.
fn counts(pilot: &Pilot, samples: u32) -> Option<Works> {
    let cached = LAST.with(|last| last.borrow().as_ref().filter(|(p, s, _)| (p, *s) == (pilot, samples)).map(|(_, _, w)| *w));
    if cached.is_some() {
        return cached;
    }
    let works = run(pilot.clone(), samples)?;
    LAST.with(|last| *last.borrow_mut() = Some((pilot.clone(), samples, works)));
    Some(works)
}

/// The GREEDYs a pilot runs, in [`Works`]' order.
pub(super) const GREEDYS: [BurstyPolicy; 2] = [BurstyPolicy::Greedy, BurstyPolicy::GreedyExact];

/// The run's first [`ARTICLES`], each requested as often as in the run (its days cut only
/// where the pilot would generate more than [`CHANGES`]), and the minutes it runs (at
/// most [`REQUESTS`]).
fn pilot_config(config: &BurstyConfig) -> Pilot {
    let g = &config.generator;
    let articles = g.articles.min(ARTICLES);
    let politeness = config.politeness_seconds.0 * g.articles as f64 / articles as f64;
    let days = (g.days * (CHANGES / (articles as f64 * g.rate_max * g.days / 365.0)).min(1.0)).max(g.days.min(1.0));
    let requests = days * 86_400.0 * config.fractions.iter().sum::<f64>() / politeness;
    let minutes = days * 1440.0 * (REQUESTS / requests).min(1.0);
    let pilot = BurstyConfig {
        generator: crate::core::model::bursty::BurstyGenerator { articles, days, ..g.clone() },
        politeness_seconds: Seconds(politeness),
        policies: GREEDYS.into_iter().filter(|p| config.policies.contains(p)).collect(),
        greedy_samples: config.greedy_samples.min(SAMPLES),
        renewal_steps: config.renewal_steps.min(RENEWAL_STEPS),
        article: 0,
        article_rate: 0,
        training_days: config.training_days.min(days),
        greedy_pilot: None,
        ..config.clone()
    };
    (pilot, minutes)
}

/// Runs a pilot: each GREEDY's counts per article and request, the draws scaled to
/// `samples`.
fn run((pilot, minutes): Pilot, samples: u32) -> Option<Works> {
    let mut job = BurstyJob::new(pilot.clone()).ok()?;
    let per_request = |c: GreedyCounts| {
        let per = (c.requests * pilot.generator.articles).max(1) as f64;
        GreedyWork { evaluated: c.evaluated as f64 / per, drawn: c.drawn as f64 / per * f64::from(samples) / f64::from(pilot.greedy_samples) }
    };
    Some(GREEDYS.map(|p| pilot.policies.contains(&p).then(|| per_request(job.greedy_counts(p, minutes)))))
}
