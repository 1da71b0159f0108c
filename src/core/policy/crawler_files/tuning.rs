//! A tuned configuration: the loaded crawler's settings that its file can change,
//! searched for the freshness a run keeps (over the horizon, or once settled: the
//! [`Objective`]) on no more requests than the file as loaded made (its budget).
//!
//! The search is a coordinate ascent (at most [`PASSES`] passes over the knobs): each
//! candidate changes one setting of the choice so far, then is fitted to the budget by
//! the adaptive rule's increment rate — the share of fetches that find a change once
//! the interval settles follows from the two rates, and requests go about as its
//! inverse ([`settled_share`]) — the run repeated with the share moved by requests ÷
//! budget, from the second run to the power the last two runs show (a batch cycle's
//! caps make requests follow the share less), at most [`FIT_RUNS`] runs, so that
//! candidates are compared at the same spending; the fittest within the budget, and
//! refused by servers no more often than
//! the file as loaded, stands for it (a server's refusal is its asking the crawler to
//! slow down: a tuned file never asks the servers more). A candidate is kept when it
//! is fresher than the choice by [`BETTER_BY`]; one past twice the budget is stopped
//! early (the experiment's job). A fixed schedule's interval is the budget itself: it is
//! searched as it is and, as a second start, as the crawler's adaptive rule at its
//! shipped settings from the same first interval, the file's batch settings kept
//! (Nutch's cycle, its fetch lists' caps, `db.fetch.interval.max`); where no run of that
//! start fits the budget, its branch goes on from its last run, the first candidate that
//! fits becoming the choice.
//!
//! The knobs: the adaptive rule's decrement rate (Nutch's sync delta on or off), its
//! shortest, longest and first interval (each × ¼ to × 10); where some server has a capacity,
//! the gap between two requests to a server, only ever longer than the file's
//! (politeness is the servers' to ask: the tuning never makes a crawler less polite);
//! with Nutch's batch cycles, the caps of a cycle's fetch list the file sets
//! (`generate.topN`, `generate.max.count`: half, twice, or none); with Nutch's
//! MimeAdaptiveFetchSchedule on pages its `adaptive-mimetypes.txt` types, each type's
//! share of changed fetches against the others' (half or twice), the fit moving every
//! type's share with `inc_rate`'s ([`Typed`]).
//! Every candidate is a file ([`super::write`]) read back by the crawler's parser — the
//! search runs what the crawler would read (whole seconds or minutes where it reads
//! integers).
//!
//! Nutch's last candidate, on a page list whose servers have host names: the best
//! settings found with each host's own bounds of the adaptive interval
//! (`adaptive-host-specific-intervals.txt`, NUTCH-3029) taken from the optimum's
//! intervals for the host's pages ([`host_bounds_from`]), fitted to the budget like the
//! others and kept only when fresher. Heritrix's, on named hosts some of which have a
//! capacity: the best settings at the file's own gap, with a sheet holding each host the
//! gap would push over capacity to a request per 1/capacity (the experiment writes them);
//! one run, kept only when fresher; where Heritrix runs the file's ReschedulingProcessor,
//! with a sheet giving each host its own revisit as well ([`host_revisits_from`]), fitted
//! to the budget by stretching every host's revisit. Scrapy's, the same with `DOWNLOAD_SLOTS`: a slot per
//! such host, its delay 1/capacity and not randomised, the file's own slots kept.
//!
//! Nutch's and StormCrawler's very last, on a page list: each page's interval fixed in
//! the seed list (Nutch's `nutch.fetchInterval.fixed`, which the Injector reads and
//! AdaptiveFetchSchedule keeps, DefaultFetchSchedule keeping any interval;
//! StormCrawler's `scheduler.delay.mins`, which DefaultScheduler reads first, so the
//! candidate runs it) at the optimum's interval for it ([`seed_intervals_from`]), the
//! best settings found (host bounds included) beside it, fitted to the budget by
//! stretching every page's interval and kept only when fresher.

use super::nutch_hosts::HostIntervals;
use super::nutch_mimes::{self, MimeRates};
use super::seed_metadata;
use super::write::Change;
use super::{Crawler, MINUTE, Model, SECOND, TUNED_TYPES};
use crate::core::labels::labelled;
use crate::core::math::freshness::a_star_marginal;
use crate::core::math::roots::increasing_root;
use crate::core::model::repository::Repository;
use crate::core::policy::adaptive::{Intervals, Rule};
use crate::core::policy::pushback::{Reaction, StormBackoff};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Passes over the knobs at most (the second finds what the first's choices opened).
pub const PASSES: usize = 2;
/// Runs an adaptive rule's candidate takes to fit, about, for the cost's estimate:
/// measured 1.9 to 2.6 a candidate once the fit found its power from the last two runs
/// (2026-12-07, runs over candidates, the last stages included: Nutch's sample file on
/// sample-hosts.csv 1.9, the same with `generate.max.count` 2 and daily cycles 2.6, an
/// adaptive StormCrawler file on the same hosts 2.4; the fit as the inverse alone had
/// taken 1.6 to 1.9). A fixed schedule's adaptive branch takes more (StormCrawler's
/// shipped defaults on the classroom pages 2.9, Nutch's on servers of a request in 20 s
/// 2.3) and is counted at the most, unless it asks less than the budget
/// ([`Search::adaptive_branch`]).
const EXPECTED_FIT_RUNS: f64 = 2.2;
/// Passes over an adaptive file's knobs, about, for the cost's estimate: the second runs
/// only where the first kept a change, which is not known before. Measured two on the
/// sample hosts and on 4,000 typed pages over 365 days, one on the same pages over 120
/// days (the file as loaded the best the first pass found, its candidates 3.2 times the
/// estimate's time while two were counted); counted midway, each is within ¾–1½ of it.
/// A fixed schedule's adaptive branch starts from the shipped rule and keeps a change in
/// its first pass (in every case measured): counted at two ([`Search::adaptive_branch`]).
const EXPECTED_PASSES: f64 = 1.5;
/// The same with pages typed (MimeAdaptiveFetchSchedule), whose types' shares are
/// knobs: both passes ran, and a candidate took 2.1 to 2.7 runs with the last stages, in
/// each of four measured (2026-12-06: 4,000 pages, all typed, over 120 and 365 days;
/// 2,000 all typed over 60 days; 4,000, 30 % untyped, over 120 days). Counted as the
/// others, each was estimated at 0.49 to 0.59 of its runs.
const TYPED_PASSES: f64 = 2.0;
const TYPED_FIT_RUNS: f64 = 2.3;
/// Runs of the last stages, about, for the cost's estimate: the host bounds' fit took 4
/// or 5 (of [`HOST_FIT_RUNS`]) and the seed list's 2 on the sample hosts and on 4,000
/// typed pages over 120 and 365 days; Heritrix's host sheets 6 on the sample
/// crawler-beans.cxml over the sample pages and the sample hosts, 2 on a weekly file
/// with hourly news (2026-12-06).
const EXPECTED_HOST_RUNS: f64 = 5.0;
const EXPECTED_SEED_RUNS: f64 = 2.0;

/// Runs to fit one candidate to the budget, at most.
pub const FIT_RUNS: usize = 3;
/// The same for the host bounds' candidate, fitted by stretching every host's bounds
/// (where they bind, the increment rate hardly moves the requests).
pub const HOST_FIT_RUNS: usize = 6;
/// A candidate must beat the choice by this much freshness (a tie keeps the choice).
const BETTER_BY: f64 = 1e-4;
/// The fit aims this far below the budget (a schedule's requests are not exactly the
/// inverse of its clock).
const AIM: f64 = 0.995;

labelled! {
/// The freshness the search maximises: over the whole run (a crawl started cold, its
/// first weeks included), or once settled, over the run's last quarter (a crawl that
/// has long been running).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    WholeRun => "the whole run",
    Settled => "once settled (last quarter)",
}
}

impl Objective {
    /// Of a run's freshness over the whole run and over its last quarter, the one scored.
    pub fn of(self, whole_run: f64, settled: f64) -> f64 {
        match self {
            Objective::WholeRun => whole_run,
            Objective::Settled => settled,
        }
    }

    /// The freshness scored, in the words of a sentence ("… of the pages fresh {words}").
    pub fn words(self) -> &'static str {
        match self {
            Objective::WholeRun => "over the whole run",
            Objective::Settled => "once settled (the last quarter)",
        }
    }
}

/// What a run of a candidate gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Freshness as the search's [`Objective`] scores it.
    pub freshness: f64,
    pub requests: u64,
    /// The requests servers refused (429 or 503).
    pub refused: u64,
}

/// A setting the search changes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Knob {
    /// StormCrawler's QueueRegulatorBolt sees the refusals and their Retry-After: the
    /// tuned `metadata.persist` keeps `fetch.statusCode` and the header's key.
    Sees,
    /// The adaptive rule's decrement rate.
    DecRate,
    /// Its shortest, longest and first interval.
    Min,
    Max,
    Initial,
    /// Nutch's sync delta, on or off.
    SyncDelta,
    /// MimeAdaptiveFetchSchedule: a type's share of changed fetches against the others'.
    TypeLead(usize),
    /// The gap between two requests to a server (only ever longer than the file's).
    Gap,
    /// Nutch's cycle caps, where the file sets them: `generate.topN` over all hosts and
    /// `generate.max.count` per host (× ½, × 2, or none).
    TopN,
    PerHost,
}

impl Knob {
    /// Whether a fixed schedule has it: the gap and the caps, not the adaptive rule's.
    fn fixed_too(self) -> bool {
        matches!(self, Knob::Sees | Knob::Gap | Knob::TopN | Knob::PerHost)
    }
}

/// A cycle cap's options against the file's: these multiples, then none.
const CAP_FACTORS: [f64; 2] = [0.5, 2.0];

/// A search's runs, about (the cost's estimate), what they spend in runs at the
/// budget (a run asking a tenth of it, a tenth), and their fetch lists' seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Expected {
    pub runs: f64,
    pub spent: f64,
    pub lists: f64,
}

impl Expected {
    /// `each` runs of every one of `models`, at the budget.
    fn at_budget(models: &[Model], each: f64, price: &Pricing) -> Expected {
        let runs = each * models.len() as f64;
        Expected { runs, spent: runs, lists: each * models.iter().map(price.lists).sum::<f64>() }
    }

    fn plus(self, other: Expected) -> Expected {
        Expected { runs: self.runs + other.runs, spent: self.spent + other.spent, lists: self.lists + other.lists }
    }
}

/// What a candidate's run costs the estimate: its requests over the file's (`spend`),
/// and the seconds its fetch lists take (`lists`: Nutch's batch cycles with a cap on
/// their lists; 0 without).
pub struct Pricing<'a> {
    pub spend: &'a dyn Fn(&Model) -> f64,
    pub lists: &'a dyn Fn(&Model) -> f64,
}

/// The pages that adapt at their type's rates (Nutch's MimeAdaptiveFetchSchedule, with
/// its `adaptive-mimetypes.txt` and pages whose Content-Type it lists).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Typed {
    /// The file's types some page has, by their places in the file.
    pub types: Vec<usize>,
    /// Every page has one: the configuration's own rates move none.
    pub every: bool,
}

impl Typed {
    /// Of pages of `kinds` (a page's metadata, and how many pages have it), `pages` in
    /// all, under MimeAdaptiveFetchSchedule's file `rates`: the types they have by their
    /// places in the file.
    pub fn of<'a>(rates: &[MimeRates], kinds: impl IntoIterator<Item = (&'a str, u64)>, pages: u64) -> Typed {
        let (mut types, mut typed) = (Vec::new(), 0);
        for (kind, n) in kinds {
            if let Some(t) = seed_metadata::content_type(kind).and_then(|t| rates.iter().position(|r| r.mime == nutch_mimes::clean(t))) {
                types.push(t);
                typed += n;
            }
        }
        types.sort_unstable();
        types.dedup();
        Typed { types, every: pages > 0 && typed == pages }
    }
}

/// A type's lead over the others: its factor on the share of changed fetches.
const LEADS: [f64; 2] = [0.5, 2.0];

/// The knobs of `crawler` (as loaded: `model`), each with how many options it has; with
/// pages `typed`, each of the file's first [`TUNED_TYPES`] types' lead, and the
/// decrement rate not where every page adapts at its type's (each type keeps its own).
fn knobs(crawler: Crawler, model: &Model, pushed_back: bool, typed: &Typed) -> Vec<(Knob, usize)> {
    let adaptive = matches!(crawler, Crawler::Nutch | Crawler::Stormcrawler);
    let mut knobs = if adaptive { vec![(Knob::DecRate, RATES.len()), (Knob::Min, 4), (Knob::Max, 4), (Knob::Initial, 4)] } else { Vec::new() };
    if typed.every {
        knobs.retain(|(k, _)| *k != Knob::DecRate);
    }
    if crawler == Crawler::Nutch {
        knobs.extend(typed.types.iter().filter(|&&k| k < TUNED_TYPES).map(|&k| (Knob::TypeLead(k), LEADS.len())));
    }
    if crawler == Crawler::Nutch {
        knobs.push((Knob::SyncDelta, 1));
    }
    if pushed_back {
        knobs.push((Knob::Gap, slower(model.server_delay_s).len()));
        // first: a crawler that sees the refusals is cheaper to run in every candidate after
        if let Reaction::Stormcrawler { backoff, .. } = model.reaction
            && !(backoff.sees_refusals && backoff.sees_retry_after)
        {
            knobs.insert(0, (Knob::Sees, 1));
        }
    }
    let i = &model.intervals;
    if crawler == Crawler::Nutch && i.cycle > 0.0 {
        for (knob, cap) in [(Knob::TopN, i.top_n), (Knob::PerHost, i.per_cycle)] {
            if cap > 0 {
                knobs.push((knob, CAP_FACTORS.len() + 1));
            }
        }
    }
    knobs
}

const RATES: [f64; 5] = [0.1, 0.2, 0.3, 0.4, 0.5];
const STORM_RATES: [f64; 5] = [0.1, 0.25, 0.5, 0.75, 0.9];

/// Option `j` of `knob` from the choice `m`: the knob's setting changed (None: the knob
/// has no such option here). The gap and the caps are taken from the file as loaded.
fn option(crawler: Crawler, loaded: &Model, m: &Model, knob: Knob, j: usize) -> Option<Model> {
    let mut c = *m;
    let i = &mut c.intervals;
    let rates = if crawler == Crawler::Stormcrawler { STORM_RATES } else { RATES };
    // a cap's option j: the file's times a factor (at least a page), or none (0)
    let cap = |now: u64| CAP_FACTORS.get(j).map_or(0, |f| ((now as f64 * f).round() as u64).max(1));
    match knob {
        Knob::Sees => c.reaction = seeing(c.reaction),
        Knob::Gap => c = with_gap(c, loaded, *slower(loaded.server_delay_s).get(j)?),
        Knob::TopN => i.top_n = cap(loaded.intervals.top_n),
        Knob::PerHost => i.per_cycle = cap(loaded.intervals.per_cycle),
        // a fixed schedule's interval is the budget: only the gap and caps are searched
        _ if i.rule == Rule::Fixed => return None,
        Knob::DecRate => i.dec_rate = rates[j],
        // (a minute cannot shrink: Nutch's shipped 60 s, 60 × 1/86,400 days, is a
        // rounding below 1/1,440, and its "shorter" options clamped to that: the search
        // found them the file's own once written, but the estimate counted them)
        Knob::Min => {
            let shorter = (i.min * [0.1, 1.0 / 3.0, 3.0, 10.0][j]).clamp(MINUTE, i.max);
            if (shorter - i.min).abs() <= 1e-9 * i.min {
                return None;
            }
            i.min = shorter;
        }
        Knob::Max => i.max = (i.max * [0.25, 0.5, 2.0, 4.0][j]).clamp(i.min, 3650.0),
        Knob::Initial => i.initial = (i.initial * [0.25, 0.5, 2.0, 4.0][j]).clamp(i.min, i.max),
        Knob::SyncDelta => i.sync_delta_rate = if i.sync_delta_rate.is_some() { None } else { Some(0.3) },
        Knob::TypeLead(k) => c.type_lead[k] *= LEADS[j],
    }
    Some(c)
}

/// StormCrawler's reaction with its QueueRegulatorBolt seeing the refusals and their
/// Retry-After ([`super::stormcrawler::kept_for`] writes what it takes); another's as it is.
fn seeing(reaction: Reaction) -> Reaction {
    match reaction {
        Reaction::Stormcrawler { max_retry_after_s, jitter, backoff } => {
            Reaction::Stormcrawler { max_retry_after_s, jitter, backoff: StormBackoff { sees_refusals: true, sees_retry_after: true, ..backoff } }
        }
        other => other,
    }
}

/// `m` with the gap `gap` (seconds). Heritrix caps the least gap at maxDelayMs: a gap
/// longer than the file's raises the most with it; the file's gap keeps the file's most.
fn with_gap(mut m: Model, loaded: &Model, gap: f64) -> Model {
    m.server_delay_s = gap;
    if let (Reaction::Heritrix { max_delay_s, .. }, Reaction::Heritrix { max_delay_s: was, .. }) = (&mut m.reaction, loaded.reaction) {
        *max_delay_s = if gap > loaded.server_delay_s { was.max(gap) } else { was };
    }
    m
}

/// Gaps between two requests to a server no shorter than `now`, in seconds.
fn slower(now: f64) -> Vec<f64> {
    let mut gaps: Vec<f64> = [0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0].into_iter().filter(|&g| g > now).collect();
    gaps.insert(0, now);
    gaps
}

/// The stretch whose run asks `aim` requests (halfway from a to `budget` where a is
/// past the aim), where requests go as a + b / stretch through the two runs
/// `(stretch, requests)`; None where they fix no such line (the same stretch, requests
/// not falling as it grows) or a leaves nothing under the budget.
fn two_run_stretch((s0, r0): (f64, f64), (s1, r1): (f64, f64), aim: f64, budget: f64) -> Option<f64> {
    let b = (r0 - r1) / (1.0 / s0 - 1.0 / s1);
    let a = r1 - b / s1;
    let aim = if aim > a { aim } else { 0.5 * (a + budget) };
    (b.is_finite() && b > 0.0 && budget > a).then(|| b / (aim - a))
}

/// The power k of requests ∝ share^k through two runs (share, requests), within −3 to
/// −0.3 (a step at most about 3.3 times the ratio's, at least a third of it); None where
/// the runs do not show requests falling as the share grows. Typed pages' shares move
/// their requests less than in inverse proportion where their intervals' bounds bind:
/// refitted as if in proportion, 26 of 36 candidates on 4,000 typed pages ended at their
/// third run short of the budget's last 2 %, 8 of them with no run within it.
fn share_power((s0, r0): (f64, f64), (s1, r1): (f64, f64)) -> Option<f64> {
    let k = (r1 / r0).ln() / (s1 / s0).ln();
    (k.is_finite() && k < 0.0).then(|| k.clamp(-3.0, -0.3))
}

/// The share of an adaptive rule's fetches that find a change once its interval has
/// settled: a changed fetch shortens it by (1 − dec), an unchanged one lengthens it by
/// (1 + inc), and it settles where they balance, p ln(1 − dec) + (1 − p) ln(1 + inc) = 0.
/// Its requests go about as 1/p (a page changing λ a day is fetched about λ/p a day).
pub(super) fn settled_share(inc: f64, dec: f64) -> f64 {
    let up = inc.ln_1p();
    up / (up - (-dec).ln_1p())
}

/// The increment rate at which the rule settles at share `p`, to three decimals (as a
/// file would give it), from 0.01 to 1.
pub(super) fn inc_for_share(p: f64, dec: f64) -> f64 {
    if p >= 1.0 {
        return 1.0;
    }
    ((p / (1.0 - p) * -(-dec).ln_1p()).exp_m1() * 1000.0).round().clamp(10.0, 1000.0) / 1000.0
}

/// `m` refitted toward `ratio` times fewer requests: an adaptive rule's increment rate
/// moved so that its settled share of changed fetches grows by `ratio`, and with pages
/// `typed` each listed type's alike ([`Model::type_share`]); a fixed interval is the
/// budget itself, not refitted (a shorter one fits a finite horizon only by its last
/// visit falling past the end).
fn refit(m: &Model, ratio: f64, typed: &Typed) -> Model {
    let mut c = *m;
    let i = &mut c.intervals;
    if i.rule != Rule::Fixed && i.dec_rate > 0.0 && !typed.every {
        i.inc_rate = inc_for_share(settled_share(i.inc_rate, i.dec_rate) * ratio, i.dec_rate);
    }
    if i.rule != Rule::Fixed && !typed.types.is_empty() {
        c.type_share *= ratio;
    }
    c
}

/// A model as it runs: a fixed schedule reads its interval alone, not the adaptive
/// settings beside it.
pub fn as_run(mut m: Model) -> Model {
    let i = &mut m.intervals;
    if i.rule == Rule::Fixed {
        (i.min, i.max, i.inc_rate, i.dec_rate, i.sync_delta_rate) = (i.initial, i.initial, 0.0, 0.0, None);
    }
    m
}

/// Each named server's bounds of the adaptive interval from the optimum's request
/// rates `f` (requests a day per page): from the shortest to the longest interval 1/f it
/// gives the server's pages, times `stretch` (the fit to a budget), in whole seconds
/// strictly within `global`'s bounds (as
/// Nutch's template of the file asks; a bound at or past a global one is written
/// `default`) and at most Nutch's `db.fetch.interval.max`; a server whose pages the
/// optimum never requests is held to the longest such interval less a second. Servers
/// whose bounds are both the global ones are left out.
pub fn host_bounds_from(f: &[f64], pages: impl Fn(usize) -> Range<usize>, names: &[String], global: &Intervals, stretch: f64) -> Vec<(usize, HostIntervals)> {
    let (low, high) = ((global.min / SECOND).ceil(), (global.max / SECOND).floor());
    // no bound past db.fetch.interval.max: an interval over it forces a refetch at the
    // next chance, and a host's shortest interval over it would refetch at every one
    let cap = global.refetch_max.map_or(high, |m| (m / SECOND).floor().min(high));
    let mut out = Vec::new();
    for (s, name) in names.iter().enumerate() {
        let intervals = pages(s).filter(|&i| f[i] > 0.0).map(|i| stretch / f[i] / SECOND);
        let (shortest, longest) = intervals.fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
        let (min, max) = if shortest.is_finite() { (shortest.round().min(cap), longest.round().min(cap)) } else { (cap - 1.0, cap) };
        let min = (min > low && min < high).then_some(min);
        let max = (max > low && max < high && max >= min.unwrap_or(low)).then_some(max);
        if min.is_some() || max.is_some() {
            out.push((s, HostIntervals { host: name.to_ascii_lowercase(), min: min.map(|v| v * SECOND), max: max.map(|v| v * SECOND), line: 0 }));
        }
    }
    out
}

/// Each server's one revisit for Heritrix's sheets (days; None: never), from the
/// optimum's request rates `f` (requests a day per page) on `repo`: the rate g a day
/// that all the server's pages share where their mean marginal freshness,
/// (1/n)·Σ w·∂A*/∂f at g, meets the optimum's multiplier μ (Cho & Garcia-Molina's
/// Lagrange condition with one rate a host; μ the least w·∂A*/∂f among the pages the
/// optimum requests, a server at its cap having a larger one), the interval 1/g times
/// `stretch` (the fit to a budget). A server whose pages' first revisit is worth no
/// more than μ (mean w/λ ≤ μ), or whose pages never change, is never revisited.
/// The pages are those the host's revisit `governs` (page, server): not those a sheet
/// over a path or by decide rules gives their own; all of them where it governs none
/// (the host's pages the list does not name take it).
pub fn host_revisits_from(repo: &Repository, f: &[f64], stretch: f64, governs: &dyn Fn(usize, usize) -> bool) -> Vec<Option<f64>> {
    let marginal = |i: usize, g: f64| repo.weight(i) * a_star_marginal(repo.lambda[i], g);
    let mu = (0..repo.pages()).filter(|&i| f[i] > 0.0).map(|i| marginal(i, f[i])).fold(f64::INFINITY, f64::min);
    (0..repo.servers())
        .map(|s| {
            let governed: Vec<usize> = repo.server_pages(s).filter(|&i| governs(i, s)).collect();
            let listed = if governed.is_empty() { repo.server_pages(s).collect() } else { governed };
            let pages = listed.iter().copied();
            let n = pages.len() as f64;
            let mean = |g: f64| pages.clone().map(|i| marginal(i, g)).sum::<f64>() / n;
            if !mu.is_finite() || n == 0.0 || mean(0.0) <= mu {
                return None;
            }
            let guess = pages.clone().map(|i| f[i]).sum::<f64>() / n;
            let g = increasing_root(|g| mu - mean(g), guess);
            Some(stretch / g)
        })
        .collect()
}

/// Heritrix's `rescheduleDelaySeconds` for a revisit of `days` (None: −1, never): whole
/// seconds at the nearest of ten steps a decade (1, 1.3, 1.6, 2, 2.5, 3.2, 4, 5, 6.3,
/// 7.9: Renard's R10 to two figures, each within 12 % of the delay; few distinct
/// sheets), at least one.
pub fn revisit_seconds(days: Option<f64>) -> i64 {
    let Some(days) = days else { return -1 };
    let seconds = 10f64.powf(((days * 86_400.0).max(1.0).log10() * 10.0).round() / 10.0);
    let digits = 10f64.powi(seconds.log10().floor() as i32 - 1).max(1.0);
    ((seconds / digits).round() * digits).min(i64::MAX as f64) as i64
}

/// Each page's fixed interval in `unit`s (days each: Nutch's seconds, StormCrawler's
/// minutes) from the optimum's request rates `f` (requests a day per page) times
/// `stretch` (the fit to a budget): to three significant figures (a seed list a person
/// can read, and few distinct intervals), at least one unit. With a `most` (Nutch's
/// `db.fetch.interval.max`, days: a fixed interval past it is forced to a refetch at
/// every generate cycle) at most that, and a page the optimum never requests waits it;
/// without (StormCrawler), such a page is never refetched (None) and the longest is
/// what the crawler reads as an integer.
pub fn seed_intervals_from(f: &[f64], unit: f64, most: Option<f64>, stretch: f64) -> Vec<Option<u64>> {
    let cap = most.map_or(f64::from(u32::MAX), |m| (m / unit).floor().max(1.0));
    f.iter()
        .map(|&rate| {
            if rate <= 0.0 && most.is_none() {
                return None;
            }
            let units = if rate > 0.0 { (stretch / rate / unit).clamp(1.0, cap) } else { cap };
            let digits = 10f64.powi(units.log10().floor() as i32 - 2).max(1.0);
            Some(((units / digits).round() * digits).min(cap) as u64)
        })
        .collect()
}

/// A last candidate, each host or each page its own settings (on a page list): Nutch's
/// bounds of the adaptive interval per host, or Heritrix's sheets (Scrapy's slots) of a
/// least gap for the hosts whose capacity the file's gap would exceed; then Nutch's or StormCrawler's
/// fixed interval per page in the seed list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HostStage {
    /// Not possible here (another crawler, generated pages).
    Off,
    /// Waits for the search over the settings (and the stage before) to end.
    Waiting,
    /// Being fitted to the budget: the runs the search gives use the host bounds (or
    /// the pages' intervals), stretched by [`Search::stretch`].
    Trying,
    /// Done: what the bounds gave fitted to the budget (None: no fit within it, or no
    /// host whose bounds differ from the global ones), whether they were kept, the
    /// stretch of the fittest, and with no fit the freshest run within the requests that
    /// the servers refused more often than the file as loaded.
    Tried { score: Option<Score>, kept: bool, stretch: f64, ruder: Option<Score> },
}

impl HostStage {
    fn stretch(self) -> Option<f64> {
        match self {
            HostStage::Tried { stretch, .. } => Some(stretch),
            _ => None,
        }
    }
}

/// What the pages and the file as loaded open to the search beyond the settings.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ground {
    /// Some server has a capacity (the gap is searched; sheets or slots may hold hosts).
    pub pushed_back: bool,
    /// A page list's, whose hosts have names (a host file, sheets, slots or a seed list
    /// can then be tried last).
    pub named: bool,
}

impl Ground {
    pub fn new(pushed_back: bool, named: bool) -> Self {
        Ground { pushed_back, named }
    }
}

/// The runs of the last candidate, each host its own settings (0: none): Nutch's bounds,
/// fitted by their stretch, on named hosts; Heritrix's sheets (each host's revisit, its
/// rescheduler turned on where the file has it off, fitted by their stretch); else Heritrix's sheets or Scrapy's
/// slots, one run (slowing some hosts only ever spends less), on named hosts some of
/// which have a capacity.
fn host_stage(crawler: Crawler, ground: Ground) -> usize {
    match crawler {
        Crawler::Nutch | Crawler::Heritrix if ground.named => HOST_FIT_RUNS,
        Crawler::Heritrix | Crawler::Scrapy if ground.named && ground.pushed_back => 1,
        _ => 0,
    }
}

/// The runs of the very last candidate, each page its own fixed interval (0: none):
/// Nutch or StormCrawler on a page list, fitted by the intervals' stretch.
fn seed_stage(crawler: Crawler, named: bool) -> usize {
    if matches!(crawler, Crawler::Nutch | Crawler::Stormcrawler) && named { HOST_FIT_RUNS } else { 0 }
}

/// A candidate being fitted to the budget.
struct Fitting {
    runs: usize,
    /// The run in progress (its file read back), and the fittest within the budget so far.
    running: Model,
    fittest: Option<(Model, Score, f64)>,
    /// The freshest run within the requests but refused more often than the file as
    /// loaded (said when none fits both).
    ruder: Option<Score>,
    /// The host bounds' stretch (their candidate is fitted by it, not by the rate).
    stretch: f64,
    /// What the fit moves and the requests of the run before: Heritrix's stretch (its
    /// revisits fitted by the last two runs), or the share typed pages' rates settle at
    /// (their power found by the last two).
    last: Option<(f64, f64)>,
    /// A branch's start: kept whatever it scores.
    start: bool,
}

/// The search, one run at a time: [`Search::next`] gives the next model to run (a file
/// read back), [`Search::report`] its score.
pub struct Search {
    crawler: Crawler,
    loaded: Model,
    typed: Typed,
    ground: Ground,
    knobs: Vec<(Knob, usize)>,
    budget: u64,
    /// The refusals of the file as loaded: no candidate may be refused more.
    refusals: u64,
    /// The pages, each fetched once at the start whatever its interval.
    pages: u64,
    /// The requests Heritrix's host revisits do not move (at least the pages' first
    /// fetches; [`Search::with_unmoved`]).
    unmoved: f64,
    /// Starts still to search (the adaptive counterpart of a fixed schedule).
    starts: Vec<Model>,
    chosen: Model,
    score: Score,
    /// The best within the budget over every branch.
    best: (Model, Score),
    knob: usize,
    option: usize,
    pass: usize,
    changed_this_pass: bool,
    fitting: Option<Fitting>,
    /// Runs done.
    pub runs: usize,
    /// Candidates fitted and compared.
    pub candidates: usize,
    /// The freshest of the settings' candidates within the budget, kept or not.
    pub freshest: Option<Score>,
    /// The best of the settings' search, as the last stages began from it (what the
    /// tuned file gives without a host file or seed list beside it).
    pub settings: Option<Score>,
    /// The host bounds' candidate (Nutch; Heritrix's sheets; Scrapy's slots).
    pub hosts: HostStage,
    /// The pages' fixed intervals' candidate (Nutch's or StormCrawler's seed list).
    pub seeds: HostStage,
}

impl Search {
    /// From the file as loaded (`loaded`), whose run scored `score` (its requests: the
    /// budget) on `pages` pages, on `ground`; `typed`: the pages that adapt at their
    /// type's rates.
    pub fn new(crawler: Crawler, loaded: Model, ground: Ground, typed: Typed, pages: u64, score: Score) -> Self {
        let starts = Self::adaptive_start(crawler, &loaded).into_iter().collect();
        Search {
            crawler,
            loaded,
            knobs: knobs(crawler, &loaded, ground.pushed_back, &typed),
            typed,
            ground,
            budget: score.requests,
            refusals: score.refused,
            pages,
            unmoved: pages as f64,
            starts,
            chosen: loaded,
            score,
            best: (loaded, score),
            knob: 0,
            option: 0,
            pass: 0,
            changed_this_pass: false,
            fitting: None,
            runs: 0,
            candidates: 0,
            freshest: None,
            settings: None,
            hosts: if host_stage(crawler, ground) > 0 { HostStage::Waiting } else { HostStage::Off },
            seeds: if seed_stage(crawler, ground.named) > 0 { HostStage::Waiting } else { HostStage::Off },
        }
    }

    /// The same, Heritrix's host revisits leaving `requests` where they are: the pages'
    /// first fetches and the revisits the file's sheets over paths or by decide rules
    /// give their pages (a tuned host sheet does not overrule them).
    pub fn with_unmoved(mut self, requests: f64) -> Self {
        self.unmoved = requests.max(self.pages as f64);
        self
    }

    /// The most runs a search of `crawler` as loaded may make.
    pub fn most_runs(crawler: Crawler, loaded: &Model, ground: Ground) -> usize {
        let all = knobs(crawler, loaded, ground.pushed_back, &Typed::default());
        let options = |fixed: bool| all.iter().filter(|(k, _)| !fixed || k.fixed_too()).map(|&(_, n)| n).sum::<usize>();
        // a fixed schedule's candidates are one run each (its interval is the budget: not
        // refitted); its adaptive start, and every candidate from there, up to FIT_RUNS
        let settings = match loaded.intervals.rule {
            Rule::Fixed if matches!(crawler, Crawler::Nutch | Crawler::Stormcrawler) => PASSES * options(true) + FIT_RUNS * (1 + PASSES * options(false)),
            Rule::Fixed => PASSES * options(true),
            _ => FIT_RUNS * PASSES * options(false),
        };
        settings + host_stage(crawler, ground) + seed_stage(crawler, ground.named)
    }

    /// The runs a search of `crawler` as loaded makes, about (the cost's estimate), on
    /// pages `typed`, and what they spend: the first pass's candidates as the search
    /// makes them from the file as loaded (an option that leaves the run as it is makes
    /// none), over [`EXPECTED_PASSES`], each fitted in [`EXPECTED_FIT_RUNS`] runs at the
    /// budget; the last stages at their measured runs, with the file's lists. A fixed
    /// schedule's adaptive branch ([`Self::adaptive_branch`]) is priced by what each of
    /// its candidates asks. Each run's lists are its own (`price.lists`): a candidate
    /// dropping a cap makes none, an adaptive one lists fewer pages due.
    pub fn expected_runs(crawler: Crawler, loaded: &Model, ground: Ground, typed: &Typed, price: &Pricing) -> Expected {
        let all = knobs(crawler, loaded, ground.pushed_back, typed);
        let made = |from: &Model, fixed: bool| -> Vec<Model> {
            let options = |&(knob, n): &(Knob, usize)| (0..n).filter_map(move |j| option(crawler, loaded, from, knob, j)).filter(|c| as_run(*c) != as_run(*from));
            all.iter().filter(|(k, _)| k.fixed_too() == fixed).flat_map(options).collect()
        };
        let both = |from: &Model| [made(from, false), made(from, true)].concat();
        let stage = |runs: usize, expected: f64| if runs > 0 { expected } else { 0.0 };
        let stages = stage(host_stage(crawler, ground), EXPECTED_HOST_RUNS) + stage(seed_stage(crawler, ground.named), EXPECTED_SEED_RUNS);
        let stages = Expected { runs: stages, spent: stages, lists: stages * (price.lists)(loaded) };
        let searched = match Self::adaptive_start(crawler, loaded) {
            Some(start) => Expected::at_budget(&made(loaded, true), PASSES as f64, price).plus(Self::adaptive_branch(&start, price, &both)),
            None => match loaded.intervals.rule {
                Rule::Fixed => Expected::at_budget(&made(loaded, true), EXPECTED_PASSES, price),
                _ if !typed.types.is_empty() => Expected::at_budget(&both(loaded), TYPED_PASSES * TYPED_FIT_RUNS, price),
                _ => Expected::at_budget(&both(loaded), EXPECTED_PASSES * EXPECTED_FIT_RUNS, price),
            },
        };
        searched.plus(stages)
    }

    /// A fixed schedule's adaptive branch from `start`, its candidates `made` from a
    /// choice: where the start asks the budget at its most eager (its increment rate at
    /// the floor), each candidate over both passes fitted in up to [`FIT_RUNS`] runs at
    /// the budget (measured 2.5 a candidate, StormCrawler's shipped defaults on the
    /// classroom pages). Where it falls short even so (a daily fixed interval on slowly
    /// changing pages: Nutch's adaptive rule with sync delta asked a tenth of it), its fit
    /// ends there, and each candidate of the first pass runs once at what it asks (no
    /// refit asks more) or, asking the budget, up to [`FIT_RUNS`] runs at what it asks,
    /// at most twice the budget (a run past it is stopped); the second pass from what the
    /// first chose, which may reach the budget (sync delta off, whose increment rate
    /// then counts), each candidate in [`EXPECTED_FIT_RUNS`] at the budget. Counted at
    /// the most, such a branch had been estimated at 2.5 times its time (152 runs at the
    /// budget where the search made 66, most of them a tenth of it).
    fn adaptive_branch(start: &Model, price: &Pricing, made: &dyn Fn(&Model) -> Vec<Model>) -> Expected {
        let (passes, fit) = (PASSES as f64, FIT_RUNS as f64);
        let mut eager = *start;
        eager.intervals.inc_rate = inc_for_share(0.0, eager.intervals.dec_rate);
        let reach = (price.spend)(&eager);
        if reach >= AIM * AIM {
            let first = Expected { runs: fit, spent: fit, lists: fit * (price.lists)(start) };
            return first.plus(Expected::at_budget(&made(start), fit * passes, price));
        }
        let candidates = made(&eager);
        let first = Expected { runs: fit, spent: fit * reach, lists: fit * (price.lists)(&eager) };
        let second = Expected::at_budget(&candidates, (passes - 1.0) * EXPECTED_FIT_RUNS, price);
        candidates.iter().fold(first.plus(second), |e, c| {
            let asks = (price.spend)(c).min(2.0);
            let runs = if asks < AIM * AIM { 1.0 } else { fit };
            e.plus(Expected { runs, spent: runs * asks, lists: runs * (price.lists)(c) })
        })
    }

    /// A fixed schedule's second start (Nutch's, StormCrawler's): the crawler's adaptive
    /// rule at its shipped settings from the same first interval (a StormCrawler file
    /// keeping no signature gets it kept by the tuned file's `metadata.persist`).
    fn adaptive_start(crawler: Crawler, loaded: &Model) -> Option<Model> {
        let rule = match crawler {
            Crawler::Nutch => Rule::Nutch,
            Crawler::Stormcrawler => Rule::Stormcrawler,
            _ => return None,
        };
        (loaded.intervals.rule == Rule::Fixed).then(|| {
            let mut adaptive = *loaded;
            let i = &loaded.intervals;
            // what is not the schedule class's stays the file's: Nutch's batch cycle and
            // its fetch lists' caps (Generator), db.fetch.interval.max (CrawlDbReducer),
            // the reading of NUTCH-1564 the run was asked for
            adaptive.intervals = Intervals { cycle: i.cycle, per_cycle: i.per_cycle, top_n: i.top_n, refetch_max: i.refetch_max, keeps_ahead: i.keeps_ahead, ..rule.shipped() };
            adaptive.intervals.initial = i.initial.clamp(adaptive.intervals.min, adaptive.intervals.max);
            adaptive
        })
    }

    /// The most runs the knobs of `types` types' leads add (MimeAdaptiveFetchSchedule on
    /// pages of that many listed types).
    fn lead_runs(types: usize) -> usize {
        FIT_RUNS * PASSES * LEADS.len() * types.min(TUNED_TYPES)
    }

    /// The most runs this search may make.
    pub fn most(&self) -> usize {
        let leads = self.knobs.iter().filter(|(k, _)| matches!(k, Knob::TypeLead(_))).count();
        Self::most_runs(self.crawler, &self.loaded, self.ground) + Self::lead_runs(leads)
    }

    /// The last stage being fitted, if one is.
    fn trying(&mut self) -> Option<&mut HostStage> {
        [&mut self.hosts, &mut self.seeds].into_iter().find(|s| **s == HostStage::Trying)
    }

    /// The stretch of the host bounds: the run in progress's while their candidate is
    /// fitted, the fittest's once it is done.
    pub fn stretch(&self) -> f64 {
        match (self.hosts, &self.fitting) {
            (HostStage::Trying, Some(f)) => f.stretch,
            (stage, _) => stage.stretch().unwrap_or(1.0),
        }
    }

    /// The stretch of the pages' intervals, as [`Search::stretch`] for the host bounds.
    pub fn seed_stretch(&self) -> f64 {
        match (self.seeds, &self.fitting) {
            (HostStage::Trying, Some(f)) => f.stretch,
            (stage, _) => stage.stretch().unwrap_or(1.0),
        }
    }

    /// The last stage being fitted is not run (no host's bounds differ from the global
    /// ones; no page to give an interval): the search goes on without it.
    pub fn skip_trying(&mut self) {
        if let Some(stage) = self.trying() {
            *stage = HostStage::Tried { score: None, kept: false, stretch: 1.0, ruder: None };
            self.fitting = None;
        }
    }

    /// The next model to run — `realise` turns a model into what the crawler reads of
    /// its file (None: a file it would refuse) — or None when the search is over.
    pub fn next(&mut self, realise: &mut dyn FnMut(&Model) -> Option<Model>) -> Option<Model> {
        if let Some(f) = &self.fitting {
            return Some(f.running);
        }
        loop {
            // the settings searched: only the last stages remain (a pass begun again
            // after each of them ran the settings' candidates over, up to four passes)
            if self.pass >= PASSES {
                return self.host_candidate();
            }
            if self.knob == self.knobs.len() {
                self.pass += 1;
                (self.knob, self.option) = (0, 0);
                if self.pass >= PASSES || !self.changed_this_pass {
                    let Some(mut start) = self.starts.pop() else {
                        self.pass = PASSES;
                        return self.host_candidate();
                    };
                    // what the bolt sees, as the fixed schedule's pass chose it
                    if self.best.0.reaction == seeing(self.best.0.reaction) {
                        start.reaction = seeing(start.reaction);
                    }
                    self.pass = 0;
                    if let Some(running) = realise(&start) {
                        self.fitting = Some(Fitting { runs: 0, running, fittest: None, ruder: None, start: true, stretch: 1.0, last: None });
                        return Some(running);
                    }
                }
                self.changed_this_pass = false;
                continue;
            }
            if self.option == self.knobs[self.knob].1 {
                (self.knob, self.option) = (self.knob + 1, 0);
                continue;
            }
            let candidate = option(self.crawler, &self.loaded, &self.chosen, self.knobs[self.knob].0, self.option);
            self.option += 1;
            let Some(candidate) = candidate else { continue };
            let Some(running) = realise(&candidate) else { continue };
            if as_run(running) == as_run(self.chosen) {
                continue;
            }
            self.fitting = Some(Fitting { runs: 0, running, fittest: None, ruder: None, start: false, stretch: 1.0, last: None });
            return Some(running);
        }
    }

    /// Once the settings are searched: the best found, to run with each host's own
    /// bounds (an adaptive schedule only: Nutch reads the host file with it alone), then
    /// with each page's own fixed interval.
    fn host_candidate(&mut self) -> Option<Model> {
        self.settings.get_or_insert(self.best.1);
        if self.hosts != HostStage::Waiting {
            if self.seeds != HostStage::Waiting {
                return None;
            }
            self.seeds = HostStage::Trying;
            let mut running = self.best.0;
            if self.crawler == Crawler::Stormcrawler {
                // DefaultScheduler: AdaptiveScheduler adapts a page's own interval
                running.intervals.rule = Rule::Fixed;
            }
            self.fitting = Some(Fitting { runs: 0, running, fittest: None, ruder: None, start: false, stretch: 1.0, last: None });
            return Some(running);
        }
        if self.crawler == Crawler::Nutch && self.best.0.intervals.rule == Rule::Fixed {
            self.hosts = HostStage::Tried { score: None, kept: false, stretch: 1.0, ruder: None };
            return self.host_candidate();
        }
        self.hosts = HostStage::Trying;
        let mut running = self.best.0;
        if matches!(self.crawler, Crawler::Heritrix | Crawler::Scrapy) {
            // the file's own gap (and most, which caps it): the sheets (slots) slow the
            // hosts that ask, not every host
            running = with_gap(running, &self.loaded, self.loaded.server_delay_s);
            running.min_delay_s = self.loaded.min_delay_s;
        }
        self.fitting = Some(Fitting { runs: 0, running, fittest: None, ruder: None, start: false, stretch: 1.0, last: None });
        Some(running)
    }

    /// The score of the run [`Search::next`] gave; `realise` as there.
    pub fn report(&mut self, score: Score, realise: &mut dyn FnMut(&Model) -> Option<Model>) {
        let Some(mut f) = self.fitting.take() else { return };
        self.runs += 1;
        f.runs += 1;
        let within = score.requests <= self.budget && score.refused <= self.refusals;
        if within && f.fittest.is_none_or(|(_, s, _)| score.freshness > s.freshness) {
            f.fittest = Some((f.running, score, f.stretch));
        }
        if score.requests <= self.budget && score.refused > self.refusals && f.ruder.is_none_or(|s| score.freshness > s.freshness) {
            f.ruder = Some(score);
        }
        let close = within && score.requests as f64 >= AIM * AIM * self.budget as f64;
        let hosts = self.hosts == HostStage::Trying;
        let seeds = self.seeds == HostStage::Trying;
        let most = if hosts {
            host_stage(self.crawler, self.ground)
        } else if seeds {
            seed_stage(self.crawler, true)
        } else {
            FIT_RUNS
        };
        if !close && f.runs < most && score.requests > 0 {
            // aim just below the budget
            let ratio = score.requests as f64 / (AIM * self.budget as f64);
            // refused more often than the file as loaded: the host bounds or pages' own
            // intervals bunch requests the file's spread; a longer gap spaces them
            if (hosts || seeds)
                && score.requests <= self.budget
                && score.refused > self.refusals
                && let Some(&gap) = slower(f.running.server_delay_s).get(1)
            {
                f.running = with_gap(f.running, &self.loaded, gap);
                self.fitting = Some(f);
                return;
            }
            if hosts || seeds {
                // the bounds (the intervals) bind: requests go about as their inverse —
                // beside the pages' first fetches, which a seed list's intervals (or
                // Heritrix's revisits, each after a fetch) do not move (every page is
                // due at the start)
                let first = if seeds {
                    self.pages as f64
                } else if self.crawler == Crawler::Heritrix {
                    self.unmoved
                } else {
                    0.0
                };
                // just below the budget, or where what does not move takes nearly all of
                // it, just below the budget in what does
                let budget = self.budget as f64;
                let aim = if first < AIM * budget { AIM * budget } else { first + AIM * (budget - first) };
                let requests = score.requests as f64;
                let stretched = f.stretch * if budget > first && requests > first { (requests - first) / (aim - first) } else { ratio };
                // Heritrix: a sheet over a path or by decide rules keeps its pages'
                // revisits whatever the hosts' stretch, so the requests it does not move
                // are more than the first fetches: from the second run on, they and the
                // rest are found from the last two runs (requests = a + b / stretch)
                let fitted = f.last.filter(|_| self.crawler == Crawler::Heritrix).and_then(|(s0, r0)| two_run_stretch((s0, r0), (f.stretch, requests), aim, self.budget as f64));
                f.last = Some((f.stretch, requests));
                f.stretch = fitted.unwrap_or(stretched);
                self.fitting = Some(f);
                return;
            }
            // an adaptive rule's requests go as its settled share of changed fetches (typed
            // pages': their types' share) to a power the last two runs give, −1 at first
            let step = match f.running.intervals.rule {
                Rule::Fixed => ratio,
                _ => {
                    let i = &f.running.intervals;
                    let share = if self.typed.types.is_empty() { settled_share(i.inc_rate, i.dec_rate) } else { f.running.type_share };
                    let now = (share, score.requests as f64);
                    let power = f.last.and_then(|before| share_power(before, now)).unwrap_or(-1.0);
                    f.last = Some(now);
                    ratio.powf(-1.0 / power)
                }
            };
            if let Some(running) = realise(&refit(&f.running, step, &self.typed)).filter(|r| as_run(*r) != as_run(f.running)) {
                f.running = running;
                self.fitting = Some(f);
                return;
            }
        }
        self.candidates += 1;
        if hosts || seeds {
            let kept = f.fittest.filter(|(_, s, _)| s.freshness > self.best.1.freshness + BETTER_BY);
            if let Some((model, score, _)) = kept {
                self.best = (model, score);
            }
            let tried = HostStage::Tried {
                score: f.fittest.map(|(_, s, _)| s),
                kept: kept.is_some(),
                stretch: f.fittest.map_or(1.0, |(_, _, k)| k),
                ruder: f.ruder.filter(|_| f.fittest.is_none()),
            };
            if hosts {
                self.hosts = tried
            } else {
                self.seeds = tried
            }
            return;
        }
        let Some((model, score, _)) = f.fittest else {
            if f.start {
                // a start no run of which fits the budget (its increment rate at its
                // limit: Nutch's adaptive rule from the shipped defaults' 30 days spends
                // more on the fast pages whatever it is): its branch goes on from the
                // last run, and the first candidate that fits becomes the choice
                (self.chosen, self.score) = (f.running, Score { freshness: f64::NEG_INFINITY, ..score });
            }
            return;
        };
        if self.freshest.is_none_or(|s| score.freshness > s.freshness) {
            self.freshest = Some(score);
        }
        if f.start || score.freshness > self.score.freshness + BETTER_BY {
            if !f.start {
                self.changed_this_pass = true;
            }
            (self.chosen, self.score) = (model, score);
            if score.freshness > self.best.1.freshness + BETTER_BY {
                self.best = (model, score);
            }
        }
    }

    /// The best model found within the budget (the file as loaded when nothing beat it)
    /// and its score.
    pub fn best(&self) -> (Model, Score) {
        self.best
    }

    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The refusals of the file as loaded: no candidate may be refused more.
    pub fn refusals(&self) -> u64 {
        self.refusals
    }
}

/// The changes that make the file `loaded` run `tuned`: its settings ([`changes`]) and
/// the metadata StormCrawler must keep for them ([`super::stormcrawler::kept_for`]); a
/// file changed so names the class it runs ([`named_as_run`]).
pub fn file_changes(loaded: &super::Loaded, tuned: &Model) -> Vec<Change> {
    let mut out = changes(loaded.crawler, &loaded.model, tuned);
    if loaded.crawler == Crawler::Stormcrawler {
        out.extend(super::stormcrawler::kept_for(loaded, tuned));
    }
    if !out.is_empty() {
        out.splice(0..0, named_as_run(loaded, tuned));
    }
    out
}

/// A StormCrawler file naming AdaptiveScheduler but keeping no signature runs
/// DefaultScheduler's interval: written for a fixed interval (`tuned`), the tuned file
/// names DefaultScheduler, as it runs (None: it names what it runs).
pub fn named_as_run(loaded: &super::Loaded, tuned: &Model) -> Option<Change> {
    let names_adaptive = loaded.settings.iter().any(|s| s.name == "scheduler.class" && s.value.ends_with("AdaptiveScheduler"));
    (loaded.crawler == Crawler::Stormcrawler && names_adaptive && tuned.intervals.rule == Rule::Fixed)
        .then(|| ("scheduler.class", "org.apache.stormcrawler.persistence.DefaultScheduler".into()))
}

/// The settings of `crawler`'s file that `tuned` changes from `loaded`, as the file
/// writes them (whole seconds or minutes where the crawler reads integers).
pub fn changes(crawler: Crawler, loaded: &Model, tuned: &Model) -> Vec<Change> {
    let (a, b) = (loaded.intervals, tuned.intervals);
    let mut out: Vec<Change> = Vec::new();
    let mut put = |differs: bool, name: &'static str, value: String| {
        if differs {
            out.push((name, value));
        }
    };
    let seconds = |days: f64| format!("{}", (days * 86_400.0).round());
    let minutes = |days: f64| format!("{}", (days * 1440.0).round());
    let adaptive = b.rule != Rule::Fixed;
    match crawler {
        Crawler::Nutch => {
            let class = if adaptive { "org.apache.nutch.crawl.AdaptiveFetchSchedule" } else { "org.apache.nutch.crawl.DefaultFetchSchedule" };
            put(a.rule != b.rule, "db.fetch.schedule.class", class.into());
            put(a.initial != b.initial, "db.fetch.interval.default", seconds(b.initial));
            put(adaptive && a.min != b.min, "db.fetch.schedule.adaptive.min_interval", seconds(b.min));
            put(adaptive && a.max != b.max, "db.fetch.schedule.adaptive.max_interval", seconds(b.max));
            put(adaptive && a.inc_rate != b.inc_rate, "db.fetch.schedule.adaptive.inc_rate", format!("{}", b.inc_rate));
            put(adaptive && a.dec_rate != b.dec_rate, "db.fetch.schedule.adaptive.dec_rate", format!("{}", b.dec_rate));
            put(adaptive && a.sync_delta_rate.is_some() != b.sync_delta_rate.is_some(), "db.fetch.schedule.adaptive.sync_delta", format!("{}", b.sync_delta_rate.is_some()));
            put(loaded.server_delay_s != tuned.server_delay_s, "fetcher.server.delay", format!("{}", tuned.server_delay_s));
            // a cap of none is Nutch's -1
            let cap = |n: u64| if n == 0 { "-1".to_string() } else { n.to_string() };
            put(a.top_n != b.top_n, "generate.topN", cap(b.top_n));
            put(a.per_cycle != b.per_cycle, "generate.max.count", cap(b.per_cycle));
        }
        Crawler::Stormcrawler => {
            let class = if adaptive { "org.apache.stormcrawler.persistence.AdaptiveScheduler" } else { "org.apache.stormcrawler.persistence.DefaultScheduler" };
            put(a.rule != b.rule, "scheduler.class", class.into());
            put(a.initial != b.initial, "fetchInterval.default", minutes(b.initial));
            put(adaptive && a.min != b.min, "scheduler.adaptive.fetchInterval.min", minutes(b.min));
            put(adaptive && a.max != b.max, "scheduler.adaptive.fetchInterval.max", minutes(b.max));
            put(adaptive && a.inc_rate != b.inc_rate, "scheduler.adaptive.fetchInterval.rate.incr", format!("{}", b.inc_rate));
            put(adaptive && a.dec_rate != b.dec_rate, "scheduler.adaptive.fetchInterval.rate.decr", format!("{}", b.dec_rate));
            put(loaded.server_delay_s != tuned.server_delay_s, "fetcher.server.delay", format!("{}", tuned.server_delay_s));
        }
        Crawler::Heritrix => {
            put(loaded.server_delay_s != tuned.server_delay_s, "disposition.minDelayMs", format!("{}", (tuned.server_delay_s * 1000.0).round()));
            if let (Reaction::Heritrix { max_delay_s: was, .. }, Reaction::Heritrix { max_delay_s: most, .. }) = (loaded.reaction, tuned.reaction) {
                put(was != most, "disposition.maxDelayMs", format!("{}", (most * 1000.0).round()));
            }
        }
        Crawler::Scrapy => put(loaded.server_delay_s != tuned.server_delay_s, "DOWNLOAD_DELAY", format!("{}", tuned.server_delay_s)),
    }
    out
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// A page's seed-list interval: 1/f stretched, in seconds to three significant
    /// figures, at most db.fetch.interval.max; a page never requested waits that most.
    /// In minutes without a most (StormCrawler): a page never requested, never.
    #[test]
    fn seed_intervals_round_to_three_figures_within_the_most() {
        let nutch = |f: &[f64], stretch| seed_intervals_from(f, SECOND, Some(90.0), stretch).into_iter().map(Option::unwrap).collect::<Vec<_>>();
        // 1/3 day = 28,800 s; 1/7 day = 12,342.9 s → 12,300; ×2 of 1/7 → 24,685.7 → 24,700
        assert_eq!(nutch(&[3.0, 7.0, 0.0, 1e-3, 1e9], 1.0), vec![28_800, 12_300, 7_776_000, 7_776_000, 1]);
        assert_eq!(nutch(&[7.0], 2.0), vec![24_700]);
        // 86,400 / 11 = 7,854.5 s → 7,850; 86,400 / 1,000 = 86.4 s → 86
        assert_eq!(nutch(&[11.0, 1000.0], 1.0), vec![7_850, 86]);
        // a rate past any second's: a second (no logarithm of nothing)
        assert_eq!(nutch(&[f64::MAX], 1e-300), vec![1]);
        // 1,440 / 7 = 205.7 min → 206; 1,440 / 1e-3 = 1,440,000; 1,440 / 1e-9 past u32::MAX
        // (4,294,967,295), to three figures below it
        let storm = seed_intervals_from(&[7.0, 0.0, 1e-3, 1e-9, 1e6], MINUTE, None, 1.0);
        assert_eq!(storm, vec![Some(206), None, Some(1_440_000), Some(4_290_000_000), Some(1)]);
    }

    /// Heritrix's revisit per host (Cho & Garcia-Molina's condition, one rate a host): a
    /// host whose pages all change alike gets the optimum's own interval for them; a
    /// host of mixed pages the rate at which the pages' mean marginal freshness, by a
    /// central difference of A*(λ/f) = (f/λ)(1 − e^(−λ/f)), meets the multiplier; a
    /// host whose pages are worth less than the multiplier at their first revisit, or
    /// never change, none. Stretched; the delay in R10 steps of seconds.
    #[test]
    fn a_hosts_revisit_meets_the_optimums_multiplier() {
        let repo = Repository::from_servers(&[vec![1.0; 3], vec![0.1; 2], vec![0.05, 0.5, 5.0], vec![500.0; 2], vec![0.0; 2]]);
        let (f, _) = crate::core::alloc::opt::optimal(&repo, 4.0, None);
        assert!(f[9] == 0.0 && f[11] == 0.0, "the fast host's pages are not worth a revisit: {f:?}");
        let days = host_revisits_from(&repo, &f, 1.0, &|_, _| true);
        assert!((days[0].unwrap() * f[0] - 1.0).abs() < 1e-9 && (days[1].unwrap() * f[3] - 1.0).abs() < 1e-9, "{days:?} {f:?}");
        assert_eq!((days[3], days[4]), (None, None));
        let fresh = |lambda: f64, g: f64| g / lambda * -(-lambda / g).exp_m1();
        let slope = |lambda: f64, g: f64| (fresh(lambda, g * (1.0 + 1e-6)) - fresh(lambda, g * (1.0 - 1e-6))) / (2e-6 * g);
        let g = 1.0 / days[2].unwrap();
        let mean = [0.05, 0.5, 5.0].iter().map(|&l| slope(l, g)).sum::<f64>() / 3.0;
        let mu = slope(1.0, f[0]);
        assert!((mean / mu - 1.0).abs() < 1e-5, "mean marginal {mean} against the multiplier {mu}");
        let stretched = host_revisits_from(&repo, &f, 2.0, &|_, _| true);
        assert!((stretched[2].unwrap() / days[2].unwrap() - 2.0).abs() < 1e-12);
        // 86,400 s: 10^4.94 → 10^4.9 = 79,433 → 79,000; 0.3 day = 25,920 s → 10^4.4 → 25,000
        assert_eq!([revisit_seconds(Some(1.0)), revisit_seconds(Some(0.3)), revisit_seconds(None), revisit_seconds(Some(1e-9))], [79_000, 25_000, -1, 1]);
    }

    /// StormCrawler's very last candidate, each page's own interval, runs DefaultScheduler
    /// (AdaptiveScheduler would adapt it). A run within the requests but refused more
    /// often than the file as loaded is run again a gap slower (1 s → 2, 5, 10, 30, 60
    /// s); still refused more at the last, it fits nothing: the freshest is said, none kept.
    #[test]
    fn stormcrawlers_seed_candidate_runs_its_default_scheduler_and_keeps_no_ruder_run() {
        let loaded = Model { intervals: Intervals { rule: Rule::Stormcrawler, ..super::super::stormcrawler::SHIPPED.intervals }, ..super::super::stormcrawler::SHIPPED };
        let file = Score { freshness: 0.5, requests: 1000, refused: 10 };
        let mut search = Search::new(Crawler::Stormcrawler, loaded, Ground::new(true, true), Typed::default(), 100, file);
        let (mut seed_runs, mut guard, mut gaps) = (0, 0, Vec::new());
        while let Some(model) = search.next(&mut |m| Some(*m)) {
            guard += 1;
            assert!(guard < 10_000, "the search ends");
            let score = if search.seeds == HostStage::Trying {
                assert_eq!(model.intervals.rule, Rule::Fixed);
                gaps.push(model.server_delay_s);
                seed_runs += 1;
                Score { freshness: 0.6 + seed_runs as f64 / 100.0, requests: 990, refused: 11 + seed_runs }
            } else {
                Score { freshness: 0.4, requests: 990, refused: 0 }
            };
            search.report(score, &mut |m| Some(*m));
        }
        assert_eq!(gaps, vec![1.0, 2.0, 5.0, 10.0, 30.0, 60.0]);
        let (best, score) = search.best();
        assert_eq!((best.intervals.rule, score), (Rule::Stormcrawler, file));
        let HostStage::Tried { score: None, kept: false, ruder: Some(ruder), .. } = search.seeds else { panic!("{:?}", search.seeds) };
        assert_eq!(ruder.refused, 11 + seed_runs, "the freshest, the last");
        assert_eq!(search.hosts, HostStage::Off);
    }

    /// With pages typed (MimeAdaptiveFetchSchedule), the fit moves every listed type's
    /// share of changed fetches with inc_rate's — every page typed, theirs alone (the
    /// configuration's rates move none of them, and its decrement rate is no knob) — and
    /// each of the first TUNED_TYPES types some page has is a knob of its own.
    #[test]
    fn typed_pages_are_fitted_by_their_types_shares_and_each_type_is_a_knob() {
        let mut loaded = super::super::nutch::SHIPPED;
        loaded.intervals.rule = Rule::Nutch;
        loaded.by_type = true;
        let some = Typed { types: vec![0, 2, 7], every: false };
        let half = refit(&loaded, 0.5, &some);
        assert_eq!(half.type_share, 0.5);
        assert_ne!(half.intervals.inc_rate, loaded.intervals.inc_rate, "the untyped pages' rate moves too");
        let every = Typed { every: true, ..some.clone() };
        let half = refit(&loaded, 0.5, &every);
        assert_eq!((half.type_share, half.intervals.inc_rate), (0.5, loaded.intervals.inc_rate));
        assert_eq!(refit(&loaded, 0.5, &Typed::default()).type_share, 1.0);
        // refitted again, by the power of the share the last two runs show: requests
        // going as share^−½ (bounds binding) ask a step of the ratio squared
        let power = share_power((1.0, 1000.0), (2.0, 1000.0 / 2f64.sqrt())).unwrap();
        assert!((power + 0.5).abs() < 1e-12, "{power}");
        assert!((0.5f64.powf(-1.0 / power) - 0.25).abs() < 1e-12);
        // clamped, and none where requests did not fall as the share grew
        assert_eq!(share_power((1.0, 1000.0), (2.0, 999.9)), Some(-0.3));
        assert_eq!(share_power((1.0, 1000.0), (2.0, 10.0)), Some(-3.0));
        assert_eq!(share_power((1.0, 1000.0), (2.0, 1000.0)), None);
        assert_eq!(share_power((1.0, 1000.0), (2.0, 1100.0)), None);
        assert_eq!(share_power((1.0, 1000.0), (1.0, 900.0)), None);
        let names = |typed: &Typed| knobs(Crawler::Nutch, &loaded, false, typed).into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        let with = names(&some);
        let leads: Vec<&Knob> = with.iter().filter(|k| matches!(k, Knob::TypeLead(_))).collect();
        assert!(with.contains(&Knob::DecRate) && leads == [&Knob::TypeLead(0), &Knob::TypeLead(2)], "{with:?}");
        assert!(!names(&every).contains(&Knob::DecRate));
        // a lead multiplies the type's own factor; the type's rates follow both
        let led = option(Crawler::Nutch, &loaded, &half, Knob::TypeLead(2), 1).unwrap();
        assert_eq!((led.share_of_type(2), led.share_of_type(0), led.share_of_type(7)), (1.0, 0.5, 0.5));
    }

    /// An adaptive rule's candidate is refitted by the power of its share the last two
    /// runs show, typed pages or not: requests going as share^−0.3 (a batch cycle's caps
    /// binding) from 1.2 times the budget reach it in a candidate's third run, where a
    /// step of the ratio alone leaves every run past it (12-hour cycles with
    /// `generate.topN` 1,000 on the sample hosts: 365,070, 349,442 and 338,194 requests
    /// for a budget of 312,257).
    #[test]
    fn an_adaptive_candidate_is_refitted_by_the_power_its_runs_show() {
        let mut loaded = super::super::nutch::SHIPPED;
        loaded.intervals.rule = Rule::Nutch;
        loaded.intervals.inc_rate = 0.1;
        let share = |m: &Model| settled_share(m.intervals.inc_rate, m.intervals.dec_rate);
        let run = |m: &Model| Score { freshness: share(m), requests: (1200.0 * (share(&loaded) / share(m)).powf(0.3)) as u64, refused: 0 };
        let file = Score { requests: 1000, ..run(&loaded) };
        let mut search = Search::new(Crawler::Nutch, loaded, Ground::new(false, false), Typed::default(), 0, file);
        let (mut fitted, mut guard) = (0, 0);
        while let Some(model) = search.next(&mut |m| Some(*m)) {
            guard += 1;
            assert!(guard < 10_000, "the search ends");
            let score = run(&model);
            fitted += usize::from((AIM * AIM * 1000.0..=1000.0).contains(&(score.requests as f64)));
            search.report(score, &mut |m| Some(*m));
        }
        assert!(fitted > 0 && search.freshest.is_some(), "some candidate fits the budget");
        let (best, score) = search.best();
        assert!(score.requests <= 1000 && score.freshness > file.freshness, "{score:?}");
        assert!(share(&best) > share(&loaded));
    }

    /// The most runs count a fixed schedule's candidates (the gap, the caps) one run each,
    /// and only a Nutch or StormCrawler fixed schedule's adaptive start and the adaptive
    /// settings from it up to FIT_RUNS (StormCrawler's shipped defaults were counted 207
    /// runs, and made 84).
    #[test]
    fn the_most_runs_count_a_fixed_schedules_candidates_once() {
        use super::super::{heritrix, stormcrawler};
        let gaps = slower(heritrix::SHIPPED.server_delay_s).len();
        assert_eq!(Search::most_runs(Crawler::Heritrix, &heritrix::SHIPPED, Ground::new(true, false)), PASSES * gaps);
        assert_eq!(Search::most_runs(Crawler::Heritrix, &heritrix::SHIPPED, Ground::new(false, false)), 0);
        let storm = stormcrawler::SHIPPED;
        assert_eq!(storm.intervals.rule, Rule::Fixed);
        let adaptive_options = RATES.len() + 4 + 4 + 4;
        assert_eq!(Search::most_runs(Crawler::Stormcrawler, &storm, Ground::new(false, false)), FIT_RUNS * (1 + PASSES * adaptive_options));
        // on servers that push back, the gaps and (the shipped bolt being blind) its sight
        let fixed = slower(storm.server_delay_s).len() + 1;
        assert_eq!(Search::most_runs(Crawler::Stormcrawler, &storm, Ground::new(true, false)), PASSES * fixed + FIT_RUNS * (1 + PASSES * (adaptive_options + fixed)));
        let mut adaptive = storm;
        adaptive.intervals.rule = Rule::Stormcrawler;
        assert_eq!(Search::most_runs(Crawler::Stormcrawler, &adaptive, Ground::new(false, false)), FIT_RUNS * PASSES * adaptive_options);
    }

    /// StormCrawler's tuned file keeps in `metadata.persist` what its choices need
    /// (AdaptiveScheduler and QueueRegulatorBolt javadocs): a file naming AdaptiveScheduler
    /// but keeping no signature runs a fixed interval, and the search's adaptive start
    /// from it is written keeping `signature` and `fetchInterval`; on servers that push
    /// back, the first candidate is the blind bolt made to see (`fetch.statusCode` and the
    /// header's key at the file's `protocol.md.prefix`), and an adaptive start after a
    /// fixed pass that chose it sees too. Each file read back runs as the search meant.
    #[test]
    fn stormcrawlers_tuned_file_keeps_the_metadata_its_choices_need() {
        use super::super::{read, write};
        let yaml = "config:\n  scheduler.class: \"org.apache.stormcrawler.persistence.AdaptiveScheduler\"\n  protocol.md.prefix: \"http.\"\n  metadata.persist:\n   - _redirTo # kept\n\n   - isFeed\n  fetcher.server.delay: 2.0\n";
        let loaded = read(Crawler::Stormcrawler, yaml, "crawler_config").unwrap();
        assert_eq!(loaded.model.intervals.rule, Rule::Fixed);
        assert!(loaded.settings.iter().any(|s| s.name == "metadata.persist" && s.overrules));
        let written = |m: &Model| {
            let changes = file_changes(&loaded, m);
            let text = write::write(Crawler::Stormcrawler, Some(yaml), &changes, "tuned", &|_| String::new()).unwrap();
            (changes, read(Crawler::Stormcrawler, &text, "tuned").unwrap(), text)
        };
        let file = Score { freshness: 0.5, requests: 1000, refused: 10 };
        let mut search = Search::new(Crawler::Stormcrawler, loaded.model, Ground::new(true, false), Typed::default(), 100, file);
        let mut tried = Vec::new();
        while let Some(m) = search.next(&mut |m| Some(*m)) {
            tried.push(m);
            // seeing the refusals beats the file; nothing else beats that
            let sees = matches!(m.reaction, Reaction::Stormcrawler { backoff, .. } if backoff.sees_refusals);
            let score = if sees && tried.len() == 1 { Score { freshness: 0.9, requests: 900, refused: 1 } } else { Score { freshness: 0.1, ..file } };
            search.report(score, &mut |m| Some(*m));
        }
        // the first candidate: the bolt made to see, its file keeping what the bolt reads
        let (changes, back, text) = written(&tried[0]);
        let fixed = "org.apache.stormcrawler.persistence.DefaultScheduler".to_string();
        assert_eq!(changes, vec![("scheduler.class", fixed), ("metadata.persist", "_redirTo, isFeed, fetch.statusCode, http.retry-after".to_string())], "named as it runs");
        assert!(text.contains("  metadata.persist: [_redirTo, isFeed, fetch.statusCode, http.retry-after] # tuned; was ; fetch.statusCode and the Retry-After header's key for the QueueRegulatorBolt's back-off (the bolt in your topology)\n  fetcher.server.delay: 2.0\n"), "{text}");
        assert_eq!(back.model, tried[0], "read back, the file runs the candidate");
        // the adaptive start: seeing (the fixed pass chose it), its file keeping the signature too
        let start = tried.iter().find(|m| m.intervals.rule == Rule::Stormcrawler).expect("the adaptive start is tried");
        assert!(matches!(start.reaction, Reaction::Stormcrawler { backoff, .. } if backoff.sees_refusals && backoff.sees_retry_after));
        let (changes, back, _) = written(start);
        let persist = &changes.iter().find(|(n, _)| *n == "metadata.persist").unwrap().1;
        assert_eq!(persist, "_redirTo, isFeed, signature, fetchInterval, fetch.statusCode, http.retry-after");
        assert_eq!(back.model.intervals.rule, Rule::Stormcrawler);
        assert!(!back.settings.iter().any(|s| s.overrules), "the signature kept, nothing overrules the class");
        assert_eq!(search.best().0, tried[0]);
    }

    /// The estimate's runs count the first pass's candidates as the search makes them
    /// (an option leaving the run as it is makes none: Nutch's shipped decrement rate is
    /// one of the options, and a shortest interval of a minute cannot shrink), over
    /// EXPECTED_PASSES, each fitted in EXPECTED_FIT_RUNS; with every page typed, no
    /// decrement rate and a lead a type. Counted by driving a search in which no candidate
    /// beats the file (one pass, each candidate one run at the budget).
    #[test]
    fn the_expected_runs_count_the_candidates_the_search_makes() {
        use super::super::{nutch, stormcrawler};
        let first_pass = |crawler: Crawler, loaded: Model, pushed_back: bool, typed: Typed| {
            let file = Score { freshness: 0.5, requests: 1000, refused: 0 };
            let mut search = Search::new(crawler, loaded, Ground::new(pushed_back, false), typed, 100, file);
            while search.next(&mut |m| Some(*m)).is_some() {
                search.report(Score { freshness: 0.4, ..file }, &mut |m| Some(*m));
            }
            assert_eq!(search.runs, search.candidates);
            search.candidates as f64
        };
        let nutch = Model { intervals: Intervals { rule: Rule::Nutch, min: MINUTE, ..nutch::SHIPPED.intervals }, ..nutch::SHIPPED };
        let storm = Model { intervals: Intervals { rule: Rule::Stormcrawler, ..stormcrawler::SHIPPED.intervals }, ..stormcrawler::SHIPPED };
        let typed = Typed { types: vec![0, 1, 2], every: true };
        let mut by_type = nutch;
        by_type.by_type = true;
        // Nutch: the decrement rate 4 of 5 (its 0.2 is one), the shortest interval 2 of 4
        // (a minute cannot shrink), the longest 4, the first 4, sync delta 1; with a
        // capacity, the gaps but the first (the file's own); StormCrawler 4 + 4 + 4 + 4;
        // every page typed: no decrement rate, 2 + 4 + 4 + 1 and 3 types × 2 leads
        for (crawler, loaded, pushed_back, typed, made) in [
            (Crawler::Nutch, nutch, false, Typed::default(), 15.0),
            (Crawler::Nutch, nutch, true, Typed::default(), 15.0 + slower(nutch.server_delay_s).len() as f64 - 1.0),
            (Crawler::Stormcrawler, storm, false, Typed::default(), 16.0),
            (Crawler::Nutch, by_type, false, typed, 17.0),
        ] {
            let counted = first_pass(crawler, loaded, pushed_back, typed.clone());
            assert_eq!(counted, made, "{crawler:?}");
            let expected = Search::expected_runs(crawler, &loaded, Ground::new(pushed_back, false), &typed, &Pricing { spend: &|_| 1.0, lists: &|_| 0.0 }).runs;
            // (typed pages over both passes, each candidate at their measured runs)
            let per = if typed.types.is_empty() { EXPECTED_PASSES * EXPECTED_FIT_RUNS } else { TYPED_PASSES * TYPED_FIT_RUNS };
            assert!((expected - per * made).abs() < 1e-9, "{crawler:?}: {expected}");
        }
        // on a page list's hosts the last stages add their measured runs
        let named = Search::expected_runs(Crawler::Nutch, &nutch, Ground::new(false, true), &Typed::default(), &Pricing { spend: &|_| 1.0, lists: &|_| 0.0 }).runs;
        assert!((named - EXPECTED_PASSES * EXPECTED_FIT_RUNS * 15.0 - EXPECTED_HOST_RUNS - EXPECTED_SEED_RUNS).abs() < 1e-9);
    }

    /// A fixed schedule's adaptive branch is priced by what it asks: where the start
    /// asks the budget at its most eager, the branch at the most (its 15 candidates from
    /// the start, as above, over two passes, three runs each, at the budget); where it
    /// falls short (here a tenth), the start's three runs at a tenth and each candidate
    /// of the first pass once at what it asks — but the one turning sync delta off, which
    /// asks three times the budget: three runs, each stopped at twice it — and the second
    /// pass's at the budget, as an adaptive file's.
    #[test]
    fn a_fixed_schedules_adaptive_branch_is_priced_by_what_it_asks() {
        let fixed = super::super::nutch::SHIPPED;
        assert_eq!(fixed.intervals.rule, Rule::Fixed);
        let ground = Ground::new(false, false);
        let none = |_: &Model| 0.0;
        let at_budget = Search::expected_runs(Crawler::Nutch, &fixed, ground, &Typed::default(), &Pricing { spend: &|_| 1.0, lists: &none });
        assert_eq!(at_budget, Expected { runs: 3.0 * (1.0 + 2.0 * 15.0), spent: 3.0 * (1.0 + 2.0 * 15.0), lists: 0.0 });
        let short = |m: &Model| match (m.intervals.rule, m.intervals.sync_delta_rate) {
            (Rule::Fixed, _) => 1.0,
            (_, None) => 3.0,
            _ => 0.1,
        };
        let expected = Search::expected_runs(Crawler::Nutch, &fixed, ground, &Typed::default(), &Pricing { spend: &short, lists: &none });
        let second = EXPECTED_FIT_RUNS * 15.0;
        assert!((expected.runs - (3.0 + 14.0 + 3.0 + second)).abs() < 1e-9, "{expected:?}");
        assert!((expected.spent - (3.0 * 0.1 + 14.0 * 0.1 + 3.0 * 2.0 + second)).abs() < 1e-9, "{expected:?}");
    }

    /// A fixed schedule's adaptive start changes the schedule class alone: Nutch's batch
    /// cycle, its fetch lists' caps, db.fetch.interval.max and the reading of NUTCH-1564
    /// stay the file's. (The start had taken the shipped ones: no cap, so the adaptive
    /// rule never ran under the file's own generate.max.count, whose options were then
    /// half and twice it.)
    #[test]
    fn the_adaptive_start_keeps_the_files_batch_settings() {
        let mut fixed = super::super::nutch::SHIPPED;
        fixed.intervals = Intervals { cycle: 1.0, per_cycle: 100, top_n: 1000, refetch_max: Some(30.0), keeps_ahead: false, ..fixed.intervals };
        let start = Search::adaptive_start(Crawler::Nutch, &fixed).expect("a fixed Nutch file has an adaptive start");
        let i = start.intervals;
        assert_eq!(i.rule, Rule::Nutch);
        assert_eq!((i.cycle, i.per_cycle, i.top_n, i.refetch_max, i.keeps_ahead), (1.0, 100, 1000, Some(30.0), false));
        assert_eq!((i.inc_rate, i.dec_rate, i.sync_delta_rate), (0.4, 0.2, Some(0.3)), "the adaptive rule's own settings are the shipped ones");
    }

    /// Each run of a search is priced with its own fetch lists: of a fixed Nutch file's
    /// three generate.max.count options (half, twice, none), the one without a cap makes
    /// no list (the lists priced here are the fixed schedule's; its adaptive branch
    /// follows, each pass of the fixed one counted).
    #[test]
    fn each_candidates_lists_are_its_own() {
        let mut fixed = super::super::nutch::SHIPPED;
        fixed.intervals = Intervals { cycle: 1.0, per_cycle: 100, ..fixed.intervals };
        let lists = |m: &Model| if m.intervals.per_cycle > 0 && m.intervals.rule == Rule::Fixed { 1.0 } else { 0.0 };
        let expected = Search::expected_runs(Crawler::Nutch, &fixed, Ground::new(false, false), &Typed::default(), &Pricing { spend: &|_| 1.0, lists: &lists });
        assert!(expected.runs > PASSES as f64 * 3.0, "{expected:?}");
        assert!((expected.lists - PASSES as f64 * 2.0).abs() < 1e-9, "{expected:?}");
    }

    /// Heritrix's gap option takes maxDelayMs from the file: raised with a gap longer
    /// than the file's, the file's own with the file's gap, whatever choice it starts
    /// from (a search back at the file's gap once kept a raised most, listed as a change
    /// that changed nothing).
    /// Two runs of requests 1,000 + 9,000 / stretch (stretch 1 and 3: 10,000 and 4,000)
    /// fix the line: 2,000 requests at stretch 9; an aim under a = 1,000 is taken
    /// halfway to the budget (1,500: stretch 18); none where requests do not fall or a
    /// is past the budget.
    #[test]
    fn two_runs_fix_the_stretch_of_requests_going_as_its_inverse() {
        let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-9);
        assert!(close(two_run_stretch((1.0, 10_000.0), (3.0, 4_000.0), 2_000.0, 2_100.0), 9.0));
        assert!(close(two_run_stretch((1.0, 10_000.0), (3.0, 4_000.0), 900.0, 2_000.0), 18.0));
        assert_eq!(two_run_stretch((1.0, 10_000.0), (3.0, 10_000.0), 2_000.0, 2_100.0), None);
        assert_eq!(two_run_stretch((1.0, 10_000.0), (3.0, 4_000.0), 900.0, 950.0), None);
        assert_eq!(two_run_stretch((2.0, 5_000.0), (2.0, 5_000.0), 2_000.0, 2_100.0), None);
    }

    #[test]
    fn heritrixs_gap_option_takes_the_most_from_the_file() {
        let loaded = super::super::heritrix::SHIPPED;
        let most = |m: &Model| match m.reaction {
            Reaction::Heritrix { max_delay_s, .. } => max_delay_s,
            _ => f64::NAN,
        };
        let far = slower(loaded.server_delay_s).iter().position(|&g| g == 60.0).expect("a 60 s option");
        let raised = option(Crawler::Heritrix, &loaded, &loaded, Knob::Gap, far).unwrap();
        assert_eq!((raised.server_delay_s, most(&raised)), (60.0, 60.0));
        let back = option(Crawler::Heritrix, &loaded, &raised, Knob::Gap, 0).unwrap();
        assert_eq!((back.server_delay_s, most(&back)), (3.0, 30.0));
    }
}
