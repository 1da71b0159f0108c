//! Revisit schedules of deployed crawlers [beyond the thesis]. They do not know the
//! change rates: each fetch reveals only whether the page changed, and the page's next
//! fetch time follows from that. Politeness is kept the way a fetcher's per-host queue
//! keeps it: the server takes its due pages in order, at most one every P.
//!
//! Each rule runs on its settings ([`Intervals`]); [`Rule::shipped`] gives the projects'
//! shipped defaults, and a crawler's own configuration file gives others
//! (`core::policy::crawler_files`). Readings (from the projects' source and shipped
//! configuration):
//! - **Nutch AdaptiveFetchSchedule** (nutch-default.xml): start at
//!   `db.fetch.interval.default` (30 days); changed → interval × (1 − dec_rate) and
//!   modifiedTime = fetch time; unchanged → × (1 + inc_rate); sync delta (when
//!   `sync_delta`): delta = fetch − modifiedTime, interval ≥ delta, next = fetch −
//!   sync_delta_rate·delta + interval; interval clamped to [min_interval, max_interval];
//!   since NUTCH-1564's fix (January 2026) the next fetch within [fetch + min_interval,
//!   fetch + max_interval] (before it, `keeps_ahead` off, it could fall in the past).
//!   The first fetch has no signature to compare (CrawlDbReducer: STATUS_UNKNOWN) and
//!   keeps the interval. An interval past `db.fetch.interval.max` (90 days) forces a
//!   refetch (CrawlDbReducer, AbstractFetchSchedule.forceRefetch and shouldFetch).
//! - **StormCrawler AdaptiveScheduler**: the first fetch has no previous signature and
//!   falls back to `fetchInterval.default` (1 day); later, changed → (1 − decr) ×
//!   interval plus decr × min (slowed down near the minimum), unchanged → × (1 + incr)
//!   up to the maximum; whole minutes (Java's int cast); a refused fetch (FETCH_ERROR)
//!   clears the interval, the next fetch starting again from the default.
//! - **Fixed** (Nutch DefaultFetchSchedule): every `db.fetch.interval.default` (Nutch's
//!   forced refetch past `db.fetch.interval.max` too).
//!
//! Times are in days.

use super::{Retry, Schedule};
use crate::core::math::elementary::{ln, ln_1p};
use crate::core::math::roots::increasing_root;
use crate::core::model::rate_bins::RateBins;
use crate::core::rng::Stream;
use crate::core::sim::freshness::Fetch;
use crate::core::sim::queue::EventQueue;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::Arc;

const MINUTE: f64 = 1.0 / 1440.0;
const SECOND: f64 = 1.0 / 86_400.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    Nutch,
    Stormcrawler,
    Fixed,
}

/// A rule's settings, in days (and rates): what a crawler's configuration sets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Intervals {
    pub rule: Rule,
    /// The interval every page starts with.
    pub initial: f64,
    /// The shortest and longest adaptive interval.
    pub min: f64,
    pub max: f64,
    /// Unchanged: × (1 + inc_rate); changed: × (1 − dec_rate) (StormCrawler: towards min).
    pub inc_rate: f64,
    pub dec_rate: f64,
    /// Nutch's sync delta: the share of the time since the last change the next fetch
    /// is moved earlier by (None: `sync_delta` off).
    pub sync_delta_rate: Option<f64>,
    /// Nutch since the fix of NUTCH-1564 (January 2026): the next fetch falls within
    /// [fetch + min_interval, fetch + max_interval] — Freshlab's reading of the fix, what
    /// its test asserts (the patch itself is not in the sources Freshlab had). Before it,
    /// a page unchanged for longer than max_interval / sync_delta_rate got a next fetch
    /// in the past, and was refetched at every chance.
    #[serde(default = "keeps_ahead")]
    pub keeps_ahead: bool,
    /// Nutch's batch cycle, in days (0: none): a generate–fetch–update cycle starts every
    /// `cycle`, and a page due is fetched in the first cycle at or after its due time —
    /// never the one it was fetched in.
    #[serde(default)]
    pub cycle: f64,
    /// Nutch `generate.max.count` (count mode host): at most this many of a server's
    /// pages in one cycle's fetch list (0: no cap; only with a cycle). The others stay
    /// due and wait for the next cycle (`core::policy::fetch_list`).
    #[serde(default)]
    pub per_cycle: u64,
    /// Nutch `generate.topN`: at most this many pages over all servers in one cycle, the
    /// highest-scored first (0: no cap; only with a cycle).
    #[serde(default)]
    pub top_n: u64,
    /// Nutch `db.fetch.interval.max`, in days (None: no such check, the other crawlers):
    /// CrawlDbReducer forces a refetch of a page whose interval grew past it
    /// (AbstractFetchSchedule.forceRefetch: the interval cut to 0.9 × it, the signature
    /// and modified time cleared), and the Generator (shouldFetch) takes a page due
    /// further ahead than it at once.
    #[serde(default)]
    pub refetch_max: Option<f64>,
}

fn keeps_ahead() -> bool {
    true
}

impl Intervals {
    /// nutch-default.xml: 30 days, 60 s to 365 days, inc_rate 0.4, dec_rate 0.2, sync
    /// delta 0.3 (AdaptiveFetchSchedule's settings, read whichever schedule runs); a
    /// refetch forced past db.fetch.interval.max, 90 days.
    pub const NUTCH: Intervals = Intervals {
        rule: Rule::Nutch,
        initial: 30.0,
        min: 60.0 * SECOND,
        max: 365.0,
        inc_rate: 0.4,
        dec_rate: 0.2,
        sync_delta_rate: Some(0.3),
        keeps_ahead: true,
        cycle: 0.0,
        per_cycle: 0,
        top_n: 0,
        refetch_max: Some(90.0),
    };
    /// StormCrawler's AdaptiveScheduler: 1 day, 60 minutes to two weeks, 0.5 and 0.5.
    pub const STORMCRAWLER: Intervals = Intervals {
        rule: Rule::Stormcrawler,
        initial: 1.0,
        min: 60.0 * MINUTE,
        max: 20_160.0 * MINUTE,
        inc_rate: 0.5,
        dec_rate: 0.5,
        sync_delta_rate: None,
        keeps_ahead: true,
        cycle: 0.0,
        per_cycle: 0,
        top_n: 0,
        refetch_max: None,
    };
    /// Every page every 30 days (Nutch's DefaultFetchSchedule; the recrawl interval given
    /// beside Heritrix and Scrapy, which have no revisit rule of their own).
    pub const FIXED_30_DAYS: Intervals = Intervals {
        rule: Rule::Fixed,
        initial: 30.0,
        min: 30.0,
        max: 30.0,
        inc_rate: 0.0,
        dec_rate: 0.0,
        sync_delta_rate: None,
        keeps_ahead: true,
        cycle: 0.0,
        per_cycle: 0,
        top_n: 0,
        refetch_max: None,
    };

    /// λ × the mean gap between fetches where a changing page's interval settles, what
    /// a cost estimate counts a page's fetches by: an unchanged fetch grows the interval
    /// by 1 + inc_rate and a changed one shrinks it by 1 − dec_rate, so it holds where a
    /// fetch finds a change with the probability p that balances the two, p = ln(1 + inc)
    /// / (ln(1 + inc) − ln(1 − dec)), at λ·I = −ln(1 − p): 0.92 for Nutch's 0.4 and 0.2
    /// without sync delta, 0.46 for StormCrawler's 0.5 and 0.5; with Nutch's sync delta,
    /// [`synced_changes`]. Infinite where changes do not move the interval (a fixed rule,
    /// or both rates 0): they add no fetches.
    pub fn settled_changes(&self) -> f64 {
        let (grow, shrink) = (ln_1p(self.inc_rate), -ln_1p(-self.dec_rate));
        if self.rule == Rule::Fixed || grow + shrink <= 0.0 || (grow + shrink).is_nan() {
            return f64::INFINITY;
        }
        match self.sync_delta_rate {
            Some(rate) if self.rule == Rule::Nutch && shrink > 0.0 => synced_changes(self.inc_rate, self.dec_rate, rate),
            _ => -ln_1p(-grow / (grow + shrink)),
        }
    }

    /// The interval a page changing `rate` times a day settles at
    /// ([`Self::settled_changes`]), within the rule's bounds (Nutch's
    /// `db.fetch.interval.max` where shorter); a page that never changes, at the longest;
    /// under a rule that does not move, its first interval.
    pub fn settled_interval(&self, rate: f64) -> f64 {
        let longest = self.max.min(self.refetch_max.unwrap_or(f64::INFINITY));
        let changes = self.settled_changes();
        if changes.is_infinite() {
            return self.initial.clamp(self.min, longest.max(self.min));
        }
        (changes / rate).clamp(self.min, longest.max(self.min))
    }

    /// Fetches of one page in [0, `horizon`) days whose interval walks from the first to
    /// `settled` one step a fetch, × f = 1 + inc_rate up or 1 − dec_rate down, then stays
    /// there: the walk's n = ln(I/I₀) / ln f steps take I₀·(fⁿ − 1)/(f − 1) = (I − I₀)/(f − 1)
    /// days, then one fetch every I; a walk longer than the horizon is cut where its days
    /// reach it (m = ln(1 + H·(f − 1)/I₀) / ln f steps). The first fetch keeps the first
    /// interval (Nutch: no signature to compare yet, CrawlDbReducer's STATUS_UNKNOWN).
    pub fn fetches_walking_to(&self, settled: f64, horizon: f64) -> f64 {
        let first = self.initial;
        if horizon <= 0.0 || horizon.is_nan() {
            return 0.0;
        }
        let step = if settled > first { self.inc_rate } else { -self.dec_rate };
        if settled == first || step == 0.0 {
            return 1.0 + horizon / first;
        }
        if step <= -1.0 {
            // an interval cut to nothing at the first change: there at once
            return 2.0 + (horizon - first).max(0.0) / settled;
        }
        let (n, days) = (ln(settled / first) / ln_1p(step), (settled - first) / step);
        if days <= horizon { 1.0 + n + (horizon - days) / settled } else { 1.0 + ln_1p(horizon * step / first) / ln_1p(step) }
    }

    /// A run's fetches of `pages` pages over `horizon` days at these intervals × `scale`,
    /// whatever the bandwidth: each page's walk to where its interval settles
    /// ([`Self::fetches_walking_to`], [`Self::settled_interval`]); the pages `rates` does
    /// not hold never change. What a cost estimate counts a deployed crawler's requests
    /// by (Nutch's sync delta where the interval settles, not on the walk there; not
    /// modelled: batch cycles, the spread of a page's interval around where it settles).
    pub fn requests_over(&self, horizon: f64, pages: f64, rates: &RateBins, scale: f64) -> f64 {
        // intervals × scale over the horizon fetch as the rule's own over horizon / scale
        let fetches = |rate: f64| self.fetches_walking_to(self.settled_interval(rate * scale), horizon / scale);
        let still = (pages - rates.pages()).max(0.0);
        still * fetches(0.0) + rates.groups().map(|(rate, n)| n * fetches(rate)).sum::<f64>()
    }

    /// Fetches of a page that never changes after its first, in [0, `horizon`) days: the
    /// rule itself run on one page (its ramp from the first interval up to the longest,
    /// Nutch's sync delta, a batch cycle's rounding). What a cost estimate counts for the
    /// slowly changing pages, where the ramp from a short first interval asks for far
    /// more than once a longest interval. Past 10,000 fetches the last gap is assumed to
    /// repeat (infinite where the next fetch fell due at once: NUTCH-1564 before its fix).
    pub fn unchanged_fetches(&self, horizon: f64) -> f64 {
        self.unchanged_fetches_from(None, horizon)
    }

    /// [`Self::unchanged_fetches`] of a page with its own start (its metadata's).
    pub fn unchanged_fetches_from(&self, start: Option<PageStart>, horizon: f64) -> f64 {
        const STEPS: u32 = 10_000;
        // a page's own fixed interval within db.fetch.interval.max, without cycles: at 0,
        // I, 2I, … (a tuned seed list gives thousands of them, each a run of this loop)
        if let Some(s) = start.filter(|s| (s.fixed || self.rule == Rule::Fixed) && self.cycle == 0.0 && s.initial > 0.0 && s.initial <= self.refetch_max.unwrap_or(f64::INFINITY)) {
            let n = (horizon / s.initial).max(0.0);
            return if n > f64::from(STEPS) { n } else { n.ceil() };
        }
        let mut a = Adaptive::with(*self, 0..1, 0.0, 1.0).with_starts(Arc::new([start]), vec![0]);
        let (mut count, mut previous) = (0_u32, f64::NEG_INFINITY);
        loop {
            let t = a.next_time();
            if t >= horizon {
                return f64::from(count);
            }
            if count == STEPS {
                let gap = t - previous;
                return if gap > 0.0 { f64::from(count) + (horizon - t) / gap } else { f64::INFINITY };
            }
            a.observe(0, t, Some(Fetch { changed: count == 0, first_change: 0.0, last_change: None }));
            (count, previous) = (count + 1, t);
        }
    }
}

/// [`Intervals::settled_changes`] under Nutch AdaptiveFetchSchedule's sync delta
/// (setFetchSchedule, SYNC_DELTA): the time since the last change found, δ, sets the
/// interval to at least δ and moves the next fetch s·δ earlier, so after a change the
/// gaps grow about × (2 − s) a fetch whatever inc_rate is (a page of rate λ is then
/// fetched about λ times a day at inc_rate 0.01, not 23λ as the balance without it
/// says). In units of the interval I a change leaves, the gaps of a cycle up to the next
/// change found are fixed, and the cycle's ratio R of the interval it leaves to I
/// depends only on the fetch m that finds it, whose law depends on x = λI: the interval
/// settles where E_x[ln R] = 0, and the fetches come E[m] a cycle of E[Σ gaps] × I days,
/// λ × the mean gap = x·E[Σ gaps] / E[m]. Not modelled: the intervals' bounds.
fn synced_changes(inc: f64, dec: f64, s: f64) -> f64 {
    // (E ln R, E m, E Σ gaps) of a cycle at x = λI
    let cycle = |x: f64| {
        let (mut stored, mut since, mut gap) = (1.0_f64, 0.0_f64, 1.0_f64);
        let (mut unfound, mut ln_ratio, mut fetches, mut days) = (1.0_f64, 0.0, 0.0, 0.0);
        for _ in 0..1_000 {
            // the next fetch, `gap` after the last, finds the change with 1 − e^(−x·gap)
            let found = -unfound * (-x * gap).exp_m1();
            fetches += unfound;
            days += unfound * gap;
            ln_ratio += found * (ln_1p(-dec) + ln(stored));
            unfound -= found;
            if unfound < 1e-15 {
                break;
            }
            since += gap;
            stored = (stored * (1.0 + inc)).max(since);
            gap = stored - s * since;
        }
        (ln_ratio + unfound * (ln_1p(-dec) + ln(stored)), fetches, days)
    };
    let x = increasing_root(|x| -cycle(x).0, 1.0);
    let (_, fetches, days) = cycle(x);
    x * days / fetches
}

impl Rule {
    /// The project's shipped defaults ([`Intervals::NUTCH`], [`Intervals::STORMCRAWLER`],
    /// [`Intervals::FIXED_30_DAYS`]).
    pub fn shipped(self) -> Intervals {
        match self {
            Rule::Nutch => Intervals::NUTCH,
            Rule::Stormcrawler => Intervals::STORMCRAWLER,
            Rule::Fixed => Intervals::FIXED_30_DAYS,
        }
    }

    /// The interval every page starts with under the shipped defaults, in days.
    pub fn initial_interval(self) -> f64 {
        self.shipped().initial
    }
}

/// A page's own start where its metadata sets one (a seed list's custom interval, read
/// by `crawler_files::seed_metadata`): its first interval, whether an adaptive rule
/// keeps it fixed (Nutch's `nutch.fetchInterval.fixed`), its wait after a refusal
/// (StormCrawler's custom interval for FETCH_ERROR; None: the crawler's), and its own
/// inc and dec rates (Nutch's MimeAdaptiveFetchSchedule by its type; None: the rule's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageStart {
    pub initial: f64,
    pub fixed: bool,
    pub later: Option<f64>,
    pub rates: Option<[f64; 2]>,
}

/// The pages' own starts: page k's is `starts[of[k]]` (None: the rule's).
pub struct OwnStarts {
    pub starts: Arc<[Option<PageStart>]>,
    pub of: Vec<u16>,
}

pub struct Adaptive {
    rule: Intervals,
    /// The pages' own starts, where their metadata sets some (None: the rule's for all).
    own: Option<Box<OwnStarts>>,
    first: usize,
    heap: EventQueue<u32>,
    interval: Vec<f64>,
    /// Nutch: when a change was last detected (−∞ before any).
    modified: Vec<f64>,
    fetched: Vec<bool>,
    /// Refusals in a row since the page's last fetch or its last wait of `later` (a
    /// retry's count; Scrapy's RETRY_TIMES is read up to 100): empty until a first
    /// refusal, so that a schedule never refused holds none.
    retried: Vec<u8>,
    politeness: f64,
    last: f64,
    /// Every time constant of the rule multiplied by this (1: the rule as set).
    scale: f64,
}

impl Adaptive {
    /// Cold start: every page due at time 0, the shipped initial interval.
    pub fn new(rule: Rule, pages: Range<usize>, politeness: f64) -> Self {
        Self::scaled(rule, pages, politeness, 1.0)
    }

    /// The shipped rule with every time constant (initial, shortest and longest
    /// interval, StormCrawler's minutes) multiplied by `scale`: the rule run on a clock
    /// `scale` times slower, as an operator tunes a crawler to spend its bandwidth.
    pub fn scaled(rule: Rule, pages: Range<usize>, politeness: f64, scale: f64) -> Self {
        Self::with(rule.shipped(), pages, politeness, scale)
    }

    /// A rule on its settings (a crawler's own configuration).
    pub fn with(rule: Intervals, pages: Range<usize>, politeness: f64, scale: f64) -> Self {
        let n = pages.len();
        let entries = pages.clone().map(|i| (0.0, i as u32)).collect();
        Adaptive {
            rule,
            first: pages.start,
            heap: EventQueue::from_entries(entries),
            interval: vec![rule.initial; n],
            modified: vec![f64::NEG_INFINITY; n],
            fetched: vec![false; n],
            retried: Vec::new(),
            politeness,
            last: f64::NEG_INFINITY,
            scale,
            own: None,
        }
    }

    /// The same with each page's own start (`start_of`: its index into `starts`, one a
    /// page of the range).
    pub fn with_starts(mut self, starts: Arc<[Option<PageStart>]>, start_of: Vec<u16>) -> Self {
        debug_assert_eq!(start_of.len(), self.interval.len());
        for (interval, &s) in self.interval.iter_mut().zip(&start_of) {
            if let Some(start) = starts[s as usize] {
                *interval = start.initial;
            }
        }
        self.own = Some(Box::new(OwnStarts { starts, of: start_of }));
        self
    }

    /// Page k's own start, where its metadata sets one.
    fn start(&self, k: usize) -> Option<PageStart> {
        self.own.as_ref().and_then(|o| o.starts[o.of[k] as usize])
    }

    /// Takes out the pages due by `start` (a cycle's), in due order, into `out` with
    /// their due times: the candidates of the cycle's fetch list
    /// (`core::policy::fetch_list`). Each goes back with [`Adaptive::put`].
    pub fn take_due(&mut self, start: f64, server: u32, out: &mut Vec<(f64, u32, u32)>) {
        while let Some((due, page)) = self.heap.peek().filter(|&(due, _)| due <= start) {
            self.heap.pop();
            out.push((due, page, server));
        }
    }

    /// A page taken out by [`Adaptive::take_due`] back, due at `due`.
    pub fn put(&mut self, due: f64, page: u32) {
        self.heap.push(due, page);
    }

    /// Bytes per page (heap 16, interval 8, modified 8, flag 1), and a retry count's
    /// once a server refuses.
    pub const BYTES_PER_PAGE: u64 = 33;
    pub const RETRY_BYTES_PER_PAGE: u64 = 1;

    /// Nutch past `db.fetch.interval.max` (M): the page's new `interval`, and its next
    /// fetch `next` as the schedule set it. CrawlDbReducer: an interval over M forces a
    /// refetch (AbstractFetchSchedule.forceRefetch: 0.9 × M, signature and modified time
    /// cleared, so the next fetch is STATUS_UNKNOWN); the Generator's shouldFetch, at the
    /// next generate, takes a page due more than M after that generate in its fetch list
    /// (here `t`: the next batch cycle, or at once without cycles).
    fn refetch_past_max(&mut self, k: usize, t: f64, interval: f64, next: f64) -> f64 {
        self.interval[k] = interval;
        let Some(m) = self.rule.refetch_max.filter(|&m| interval > m) else { return next };
        self.interval[k] = 0.9 * m;
        self.modified[k] = f64::NEG_INFINITY;
        if next - self.next_generate(t) > m { t } else { next }
    }

    /// Nutch's first generate after a fetch at `t` (the rule's clock): the next batch
    /// cycle's start, as `observe` rounds to it; without cycles, `t` itself.
    fn next_generate(&self, t: f64) -> f64 {
        let c = self.rule.cycle / self.scale;
        if c > 0.0 { c * ((t / c).floor() + 1.0) } else { t }
    }

    /// The next fetch time of a page fetched at `t`, updating its interval.
    fn reschedule(&mut self, k: usize, t: f64, changed: bool) -> f64 {
        let r = self.rule;
        match r.rule {
            // Nutch DefaultFetchSchedule.setFetchSchedule: the page's interval, always
            Rule::Fixed => {
                let next = t + self.interval[k];
                self.refetch_past_max(k, t, self.interval[k], next)
            }
            // Nutch AdaptiveFetchSchedule.setFetchSchedule: an interval fixed in the
            // page's metadata (the Injector's nutch.fetchInterval.fixed) is kept as it is
            Rule::Nutch if self.start(k).is_some_and(|s| s.fixed) => {
                let fixed = self.start(k).map_or(r.initial, |s| s.initial);
                let next = self.refetch_past_max(k, t, fixed, t + fixed);
                // more than db.fetch.interval.max past the next generate, it is forced to
                // a refetch at every generate cycle; without cycles (a tuning's candidate:
                // a file's run is refused so), after the interval forceRefetch sets
                if next == t && r.cycle == 0.0 { t + self.interval[k] } else { next }
            }
            // Nutch AdaptiveFetchSchedule.setFetchSchedule (MimeAdaptiveFetchSchedule's:
            // the page's type's rates where its file lists the type)
            Rule::Nutch => {
                let [inc_rate, dec_rate] = self.start(k).and_then(|s| s.rates).unwrap_or([r.inc_rate, r.dec_rate]);
                let mut interval = self.interval[k];
                if self.modified[k] == f64::NEG_INFINITY {
                    // CrawlDbReducer: no signature kept (the page's first fetch, or the
                    // one after a forced refetch) is STATUS_UNKNOWN, the interval kept;
                    // a modified time ≤ 0 is the fetch time
                    self.modified[k] = t;
                } else if changed {
                    interval *= 1.0 - dec_rate;
                    self.modified[k] = t;
                } else {
                    interval *= 1.0 + inc_rate;
                }
                let mut reference = t;
                if let Some(rate) = r.sync_delta_rate {
                    // sync_delta: the interval at least the time since the last change,
                    // the next fetch moved earlier by a share of it
                    let delta = t - self.modified[k];
                    if delta > interval {
                        interval = delta;
                    }
                    reference = t - rate * delta;
                }
                interval = interval.clamp(r.min, r.max);
                let next = if r.keeps_ahead { (reference + interval).clamp(t + r.min, t + r.max) } else { reference + interval };
                let next = self.refetch_past_max(k, t, interval, next);
                // a host's shortest interval past db.fetch.interval.max forces a refetch at
                // every generate cycle; without cycles (a tuning's candidate: a file's run
                // is refused so) after the interval forceRefetch sets, never at once again
                if next == t && r.cycle == 0.0 && r.refetch_max.is_some_and(|m| r.min > m) { t + self.interval[k] } else { next }
            }
            // StormCrawler AdaptiveScheduler.schedule, in whole minutes
            Rule::Stormcrawler => {
                let minutes = self.interval[k] / MINUTE;
                let next = if !self.fetched[k] {
                    (self.start(k).map_or(r.initial, |s| s.initial) / MINUTE).round()
                } else if changed {
                    ((1.0 - r.dec_rate) * minutes + r.dec_rate * (r.min / MINUTE).round()).floor()
                } else {
                    (minutes * (1.0 + r.inc_rate)).floor().min((r.max / MINUTE).round())
                };
                self.interval[k] = next * MINUTE;
                t + self.interval[k]
            }
        }
    }
}

impl Schedule for Adaptive {
    #[inline]
    fn next_time(&self) -> f64 {
        self.heap.peek().map_or(f64::INFINITY, |(due, _)| due.max(self.last + self.politeness))
    }

    fn take(&mut self, _f: &[f64], _rng: &mut Stream) -> (f64, usize) {
        let t = self.next_time();
        self.last = t;
        (t, self.heap.peek().expect("pages").1 as usize)
    }

    fn refused(&mut self, page: usize, time: f64, retry: Retry) {
        let k = page - self.first;
        if self.retried.is_empty() {
            self.retried = vec![0; self.interval.len()];
        }
        let wait = if u32::from(self.retried[k]) < retry.times {
            self.retried[k] += 1;
            retry.soon
        } else {
            self.retried[k] = 0;
            self.start(k).and_then(|s| s.later).unwrap_or(retry.later)
        };
        // StormCrawler AdaptiveScheduler.schedule: a status other than FETCHED (a 429 or
        // 503 is FETCH_ERROR) removes the page's fetchInterval and signatures, so the
        // next fetch decides nothing and starts again from the default interval
        if self.rule.rule == Rule::Stormcrawler {
            self.fetched[k] = false;
        }
        let (_, top) = self.heap.replace_top(time + wait, page as u32);
        debug_assert_eq!(top as usize, page);
    }

    fn observe(&mut self, page: usize, time: f64, fetch: Option<Fetch>) {
        let k = page - self.first;
        let changed = fetch.expect("adaptive schedules need the exact estimator").changed;
        // the rule runs on its own clock (exact for scale 1)
        let mut due = self.scale * self.reschedule(k, time / self.scale, changed);
        if self.rule.cycle > 0.0 {
            let c = self.rule.cycle;
            due = c * (due / c).ceil().max((time / c).floor() + 1.0);
        }
        self.fetched[k] = true;
        if let Some(count) = self.retried.get_mut(k) {
            *count = 0;
        }
        let (_, top) = self.heap.replace_top(due, page as u32);
        debug_assert_eq!(top as usize, page);
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    fn fetch(changed: bool) -> Option<Fetch> {
        Some(Fetch { changed, first_change: 0.0, last_change: None })
    }

    fn step(a: &mut Adaptive, changed: bool) -> (f64, f64) {
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let (t, page) = a.take(&[], &mut rng);
        a.observe(page, t, fetch(changed));
        (t, a.interval[page - a.first])
    }

    #[test]
    fn nutch_shrinks_on_change_grows_otherwise_and_syncs() {
        let mut a = Adaptive::new(Rule::Nutch, 0..1, 0.0);
        // the first fetch has no signature to compare (CrawlDbReducer: STATUS_UNKNOWN),
        // changed or not: the 30 days kept
        let (t0, i0) = step(&mut a, true);
        assert_eq!((t0, i0), (0.0, 30.0));
        let (t1, i1) = step(&mut a, false);
        assert_eq!(t1, 30.0);
        // unchanged: × 1.4 = 42 > delta = 30; next = 30 − 0.3·30 + 42
        assert!((i1 - 42.0).abs() < 1e-12);
        let (t2, i2) = step(&mut a, true);
        assert!((t2 - (30.0 - 9.0 + 42.0)).abs() < 1e-12);
        assert!((i2 - 42.0 * 0.8).abs() < 1e-12, "changed: × 0.8");
        let mut b = Adaptive::new(Rule::Nutch, 0..1, 0.0);
        for _ in 0..200 {
            step(&mut b, true);
        }
        assert!((b.interval[0] - 60.0 * SECOND).abs() < 1e-15, "floor of 60 s");
        for _ in 0..200 {
            step(&mut b, false);
        }
        assert_eq!(b.interval[0], 81.0, "past db.fetch.interval.max (90 days) cut to 0.9 × it");
        let mut c = Adaptive::with(Intervals { refetch_max: None, ..Intervals::NUTCH }, 0..1, 0.0, 1.0);
        for _ in 0..200 {
            step(&mut c, false);
        }
        assert_eq!(c.interval[0], 365.0, "the adaptive ceiling of a year where nothing forces a refetch");
    }

    /// The settled interval against its definition: where the expected step of ln I,
    /// P(change in I)·ln(1 − dec) + (1 − P)·ln(1 + inc), is zero (written with `f64::ln`
    /// here, the balance's own code with ln_1p); outside it, the step pushes back.
    #[test]
    fn the_settled_interval_balances_growth_and_shrinking() {
        let unsynced = Intervals { sync_delta_rate: None, ..Intervals::NUTCH };
        for rule in [unsynced, Intervals::STORMCRAWLER] {
            let drift = |rate: f64, interval: f64| {
                let p = 1.0 - (-rate * interval).exp();
                p * (1.0 - rule.dec_rate).ln() + (1.0 - p) * (1.0 + rule.inc_rate).ln()
            };
            let rate = 0.3;
            let settled = rule.settled_interval(rate);
            assert!(drift(rate, settled).abs() < 1e-12, "{:?}: {}", rule.rule, drift(rate, settled));
            assert!(drift(rate, 1.1 * settled) < 0.0 && drift(rate, 0.9 * settled) > 0.0);
            assert!((rate * settled - rule.settled_changes()).abs() < 1e-12);
        }
        assert!((unsynced.settled_changes() - 0.919_435).abs() < 1e-6);
        assert!((Intervals::STORMCRAWLER.settled_changes() - 0.460_561).abs() < 1e-6);
        // within the bounds: a still page at db.fetch.interval.max, a fast one at 60 s
        assert_eq!(Intervals::NUTCH.settled_interval(0.0), 90.0);
        assert_eq!(Intervals::NUTCH.settled_interval(1e9), 60.0 * SECOND);
        assert_eq!(Intervals::STORMCRAWLER.settled_interval(0.0), 14.0);
        // a rule that does not move keeps its first interval; changes add no fetches
        assert_eq!(Intervals::FIXED_30_DAYS.settled_interval(5.0), 30.0);
        assert!(Intervals::FIXED_30_DAYS.settled_changes().is_infinite());
        let still = Intervals { inc_rate: 0.0, dec_rate: 0.0, ..Intervals::NUTCH };
        assert_eq!(still.settled_interval(5.0), 30.0);
    }

    /// The settled interval against the rule itself: a Nutch page without sync delta
    /// whose fetches find a change as a Poisson page's would (probability 1 − e^(−λI)),
    /// 20,000 fetches: the geometric mean of its intervals within 10 % of the balance
    /// (the walk's steps, ×1.4 and ×0.8, spread it around the point; fixed seed).
    #[test]
    fn a_nutch_page_settles_where_the_estimate_says() {
        let rule = Intervals { sync_delta_rate: None, refetch_max: None, ..Intervals::NUTCH };
        let rate = 0.05;
        let mut a = Adaptive::with(rule, 0..1, 0.0, 1.0);
        let mut rng = Stream::of(7, Purpose::Test, 0);
        let (mut sum, mut count) = (0.0, 0);
        for n in 0..21_000 {
            let interval = a.interval[0];
            let changed = rng.uniform() < 1.0 - (-rate * interval).exp();
            step(&mut a, changed);
            if n >= 1_000 {
                sum += a.interval[0].ln();
                count += 1;
            }
        }
        let mean = (sum / f64::from(count)).exp();
        let settled = rule.settled_interval(rate);
        assert!((mean / settled - 1.0).abs() < 0.1, "geometric mean {mean} against {settled}");
    }

    /// The same with Nutch's sync delta (0.3), where the time since the last change, not
    /// inc_rate, grows the gaps: a Poisson page (a fetch finds a change with probability
    /// 1 − e^(−λ·gap)) run 50,000 fetches at four increment rates; the estimate,
    /// λ / [`Intervals::settled_changes`], counts 11–17 % more fetches a day than the rule
    /// makes (balancing the mean of ln R, not the intervals' spread around it), never
    /// fewer: held within [1, 1.25) of it. The balance without sync delta had said 23λ at
    /// inc_rate 0.01 where the rule fetches about 1.07λ (fixed seed).
    #[test]
    fn a_nutch_page_with_sync_delta_is_fetched_as_the_estimate_says() {
        let rate = 0.05;
        for inc_rate in [0.01, 0.1, 0.4, 1.0] {
            let rule = Intervals { inc_rate, initial: 1.0, refetch_max: None, ..Intervals::NUTCH };
            let mut a = Adaptive::with(rule, 0..1, 0.0, 1.0);
            let (mut rng, mut unused) = (Stream::of(7, Purpose::Test, 0), Stream::of(0, Purpose::Test, 0));
            let (mut last, mut since) = (0.0, 0.0);
            for n in 0..50_000 {
                let (t, page) = a.take(&[], &mut unused);
                let changed = rng.uniform() < -(-rate * (t - last)).exp_m1();
                a.observe(page, t, fetch(changed));
                last = t;
                if n == 5_000 {
                    since = t;
                }
            }
            let per_day = 45_000.0 / (last - since);
            let model = rate / rule.settled_changes();
            let over = model / per_day;
            assert!((1.0..1.25).contains(&over), "inc_rate {inc_rate}: the rule {per_day} a day, the estimate {model}");
        }
    }

    /// The walk's fetches against the rule run on one page, every fetch changed (the
    /// interval walks down) or none (up), over horizons the walk ends within and not:
    /// the model counts fetches as reals, the rule whole ones (within one; StormCrawler
    /// steps towards the minimum, I ← ½I + ½·min, not × ½, in whole minutes: within 2 %).
    #[test]
    fn a_walks_fetches_are_the_rules_own() {
        let nutch = Intervals { sync_delta_rate: None, refetch_max: None, ..Intervals::NUTCH };
        for (rule, share) in [(nutch, 0.0), (Intervals::STORMCRAWLER, 0.02)] {
            for changed in [true, false] {
                for horizon in [20.0, 90.0, 400.0, 3_000.0] {
                    let mut a = Adaptive::with(rule, 0..1, 0.0, 1.0);
                    let mut fetches = 0.0;
                    while a.next_time() < horizon {
                        step(&mut a, changed);
                        fetches += 1.0;
                    }
                    let settled = if changed { rule.min } else { rule.max };
                    let model = rule.fetches_walking_to(settled, horizon);
                    assert!((model - fetches).abs() <= (share * fetches).max(1.0), "{:?} changed {changed} over {horizon} days: model {model}, rule {fetches}", rule.rule);
                }
            }
        }
        // by hand: StormCrawler's day growing × 1.5 to 14 days takes ln 14 / ln 1.5 = 6.51
        // steps and 13 / 0.5 = 26 days; over 40 days, 1 + 6.51 + 14 / 14
        let model = Intervals::STORMCRAWLER.fetches_walking_to(14.0, 40.0);
        assert!((model - (2.0 + 14f64.ln() / 1.5f64.ln())).abs() < 1e-12, "{model}");
        // a fixed rule: one every interval
        assert_eq!(Intervals::FIXED_30_DAYS.fetches_walking_to(30.0, 90.0), 4.0);
    }

    /// NUTCH-1564's first test case: a 2-day first interval, 1 to 7 days, sync delta 0.3,
    /// a page fetched at day 0 (changed) then found unchanged at day 30. Before the fix
    /// its next fetch falls in the past (30 − 0.3·30 + 7 = 28 < 30); since, within
    /// StormCrawler's AdaptiveScheduler forgets a refused page's interval: fetched at
    /// day 0 (the default 1,440 minutes next), unchanged at day 1 (× 1.5: 2,160 minutes,
    /// due day 2.5), refused there (FETCH_ERROR, tried again 120 minutes later), then
    /// fetched unchanged at day 2.5833: the default 1,440 minutes again (day 3.5833), not
    /// 2,160 × 1.5 = 3,240 minutes (day 4.8333).
    #[test]
    fn stormcrawler_starts_a_refused_page_again_from_its_default_interval() {
        let retry = Retry { soon: 0.0, times: 0, later: 120.0 * MINUTE };
        let mut a = Adaptive::with(Rule::Stormcrawler.shipped(), 0..1, 0.0, 1.0);
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let mut due = Vec::new();
        for refused in [false, false, true, false, false] {
            let (t, page) = a.take(&[], &mut rng);
            due.push(t);
            if refused { a.refused(page, t, retry) } else { a.observe(page, t, fetch(false)) }
        }
        for (t, e) in due.iter().zip([0.0, 1.0, 2.5, 2.5 + 120.0 * MINUTE, 3.5 + 120.0 * MINUTE]) {
            assert!((t - e).abs() < 1e-9, "{due:?}");
        }
        // Nutch keeps the interval over a refusal (CrawlDbReducer: STATUS_FETCH_RETRY)
        let mut n = Adaptive::with(Intervals { sync_delta_rate: None, ..Rule::Nutch.shipped() }, 0..1, 0.0, 1.0);
        let before = n.interval[0];
        let (t, page) = n.take(&[], &mut rng);
        n.refused(page, t, retry);
        assert_eq!(n.interval[0], before);
    }

    /// A page's own start (its metadata's): StormCrawler's custom interval is its first
    /// and its first again after a refusal, which waits the custom FETCH_ERROR interval;
    /// Nutch's fixed interval is kept whatever the page does, and more than
    /// db.fetch.interval.max past the next generate the page is forced to a refetch at
    /// every cycle (its Generator's shouldFetch, at generate time).
    #[test]
    fn a_pages_own_start_from_its_metadata() {
        let retry = Retry { soon: 0.0, times: 0, later: 120.0 * MINUTE };
        let own = |initial: f64, fixed: bool, later: Option<f64>| Arc::from([Some(PageStart { initial, fixed, later, rates: None })]);
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let mut a = Adaptive::with(Rule::Stormcrawler.shipped(), 0..1, 0.0, 1.0).with_starts(own(60.0 * MINUTE, false, Some(5.0 * MINUTE)), vec![0]);
        let mut due = Vec::new();
        for refused in [false, false, true, false, false] {
            let (t, page) = a.take(&[], &mut rng);
            due.push(t / MINUTE);
            if refused { a.refused(page, t, retry) } else { a.observe(page, t, fetch(false)) }
        }
        for (t, e) in due.iter().zip([0.0, 60.0, 150.0, 155.0, 215.0]) {
            assert!((t - e).abs() < 1e-6, "{due:?}");
        }
        let times = |intervals: Intervals, initial: f64, n: usize| {
            let mut a = Adaptive::with(intervals, 0..1, 0.0, 1.0).with_starts(own(initial, true, None), vec![0]);
            let mut rng = Stream::of(0, Purpose::Test, 0);
            (0..n)
                .map(|k| {
                    let (t, page) = a.take(&[], &mut rng);
                    a.observe(page, t, fetch(k % 2 == 0));
                    t
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(times(Intervals::NUTCH, 2.0, 4), vec![0.0, 2.0, 4.0, 6.0]);
        assert_eq!(times(Intervals { cycle: 1.0, ..Intervals::NUTCH }, 100.0, 4), vec![0.0, 1.0, 2.0, 3.0]);
        // a weekly cycle: fetched on day 0 with a fixed 100 days, due 93 days after the
        // generate of day 7 (over the 90: forced then); with 95 days, 88 after it (not
        // forced: fetched when due, day 95, in the cycle of day 98, and so on)
        let weekly = Intervals { cycle: 7.0, ..Intervals::NUTCH };
        assert_eq!(times(weekly, 100.0, 4), vec![0.0, 7.0, 14.0, 21.0]);
        assert_eq!(times(weekly, 95.0, 3), vec![0.0, 98.0, 196.0]);
        // without cycles (a tuning's candidate), after the interval forceRefetch sets
        assert_eq!(times(Intervals::NUTCH, 100.0, 3), vec![0.0, 81.0, 162.0]);
    }

    /// Scrapy's RetryMiddleware with RETRY_TIMES = 2: a page refused three times in a
    /// row is tried again one slot later, again, then at its next recrawl; a fetch
    /// resets the count.
    #[test]
    fn a_refused_page_is_retried_soon_its_times_then_later() {
        let retry = Retry { soon: 0.001, times: 2, later: 30.0 };
        let mut a = Adaptive::with(Rule::Fixed.shipped(), 0..1, 0.0, 1.0);
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let mut refuse = |a: &mut Adaptive| {
            let (t, page) = a.take(&[], &mut rng);
            a.refused(page, t, retry);
            t
        };
        let times = [refuse(&mut a), refuse(&mut a), refuse(&mut a), refuse(&mut a)];
        for (t, e) in times.iter().zip([0.0, 0.001, 0.002, 30.002]) {
            assert!((t - e).abs() < 1e-12, "{times:?}");
        }
        // fetched at 30.002 after two more refusals would be the third: here it is served
        let (t, page) = a.take(&[], &mut rng);
        assert!((t - 30.003).abs() < 1e-12, "{t}");
        a.observe(page, t, fetch(false));
        assert_eq!(a.retried[0], 0, "a fetch resets the count");
    }

    /// [30 + 1, 30 + 7]: day 31. With a daily cycle a page due in the past waits for the
    /// next cycle, day 31 too; the two differ when a fetch falls between cycle starts
    /// (the fixed one then waits a shortest interval, then the cycle after it).
    #[test]
    fn nutch_1564_sync_delta_put_the_next_fetch_in_the_past_until_its_fix() {
        let rule = |keeps_ahead: bool, cycle: f64| Intervals {
            rule: Rule::Nutch,
            initial: 2.0,
            min: 1.0,
            max: 7.0,
            inc_rate: 0.4,
            dec_rate: 0.2,
            sync_delta_rate: Some(0.3),
            keeps_ahead,
            cycle,
            per_cycle: 0,
            top_n: 0,
            refetch_max: None,
        };
        let next_after_30_days = |r: Intervals| {
            let mut a = Adaptive::with(r, 0..1, 0.0, 1.0);
            a.observe(0, 0.0, fetch(true));
            // a fetch at day 30 finds the page unchanged since day 0
            let (_, page) = a.heap.replace_top(30.0, 0);
            a.observe(page as usize, 30.0, fetch(false));
            a.next_time()
        };
        let before = next_after_30_days(rule(false, 0.0));
        assert!((before - 28.0).abs() < 1e-12, "in the past: refetched at once ({before})");
        assert!((next_after_30_days(rule(true, 0.0)) - 31.0).abs() < 1e-12, "at least the shortest interval ahead");
        assert_eq!(next_after_30_days(rule(false, 1.0)), 31.0, "before the fix, with a daily cycle: the next cycle");
        assert_eq!(next_after_30_days(rule(true, 1.0)), 31.0);
    }

    #[test]
    fn stormcrawler_halves_towards_the_minimum_and_caps_at_two_weeks() {
        let mut a = Adaptive::new(Rule::Stormcrawler, 0..1, 0.0);
        assert_eq!(step(&mut a, true).1, 1.0, "first fetch: default interval");
        assert!((step(&mut a, true).1 - 750.0 * MINUTE).abs() < 1e-12, "(1440 + 60)/2");
        assert!((step(&mut a, false).1 - 1125.0 * MINUTE).abs() < 1e-12, "× 1.5");
        for _ in 0..50 {
            step(&mut a, false);
        }
        assert!((a.interval[0] - 14.0).abs() < 1e-12);
    }

    #[test]
    fn a_busy_server_takes_due_pages_one_per_p() {
        let mut a = Adaptive::new(Rule::Fixed, 0..5, 0.5);
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let times: Vec<f64> = (0..5)
            .map(|_| {
                let (t, p) = a.take(&[], &mut rng);
                a.observe(p, t, fetch(false));
                t
            })
            .collect();
        assert_eq!(times, vec![0.0, 0.5, 1.0, 1.5, 2.0]);
        assert_eq!(a.next_time(), 30.0);
    }

    #[test]
    fn a_scaled_rule_runs_on_a_slower_clock() {
        // Nutch at scale 2: the first fetch keeps 30 days, × 2 = 60 days; then unchanged
        // at 60: in rule time t = 30, delta = 30, interval 30 × 1.4 = 42, next = 30 − 9 + 42,
        // × 2
        let mut a = Adaptive::scaled(Rule::Nutch, 0..1, 0.0, 2.0);
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let (t, p) = a.take(&[], &mut rng);
        a.observe(p, t, fetch(true));
        assert_eq!(a.next_time(), 60.0);
        let (t, p) = a.take(&[], &mut rng);
        a.observe(p, t, fetch(false));
        assert!((a.next_time() - 2.0 * (30.0 - 9.0 + 42.0)).abs() < 1e-12);
        // StormCrawler at scale 0.5: the first interval is half a day, then (1440 + 60)/2
        // = 750 minutes of the rule's clock, 375 real minutes
        let mut b = Adaptive::scaled(Rule::Stormcrawler, 0..1, 0.0, 0.5);
        let (t, p) = b.take(&[], &mut rng);
        b.observe(p, t, fetch(true));
        assert_eq!(b.next_time(), 0.5);
        let (t, p) = b.take(&[], &mut rng);
        b.observe(p, t, fetch(true));
        assert!((b.next_time() - (0.5 + 0.5 * 750.0 * MINUTE)).abs() < 1e-12);
    }

    #[test]
    fn a_page_that_never_changes_is_fetched_along_the_rules_ramp() {
        // fixed: every 30 days, at 0, 30, 60, 90
        assert_eq!(Intervals::FIXED_30_DAYS.unchanged_fetches(100.0), 4.0);
        // Nutch without sync delta, first interval 10: the first fetch keeps it (no
        // signature yet), then × 1.4: fetches at 0, 10, 24, 43.6, 71.04
        let nutch = Intervals { initial: 10.0, sync_delta_rate: None, ..Intervals::NUTCH };
        assert_eq!(nutch.unchanged_fetches(44.0), 4.0);
        assert_eq!(nutch.unchanged_fetches(43.0), 3.0);
        // nutch-default.xml whole: 30, then 42 (next 30 − 9 + 42 = 63), 63 (delta; next
        // 63 − 18.9 + 63 = 107.1), 107.1 (delta; next 74.97 + 107.1 = 182.07) — past 90
        // days: cut to 81, the modified time cleared, the next fetch not forced sooner
        // (182.07 − 107.1 < 90); at 182.07 no signature: 81 kept (263.07); unchanged:
        // 113.4 > 90 again, next 263.07 − 24.3 + 113.4 = 352.17; and so on, 81 and 89.1
        // days apart
        let shipped = Intervals::NUTCH;
        assert_eq!([182.0, 183.0, 352.0, 353.0].map(|h| shipped.unchanged_fetches(h)), [4.0, 5.0, 6.0, 7.0]);
        // DefaultFetchSchedule every 120 days, over db.fetch.interval.max: the Generator
        // takes the page at once (due 120 days ahead), then every 81 days
        let fixed = Intervals { rule: Rule::Fixed, initial: 120.0, ..Intervals::NUTCH };
        assert_eq!([80.0, 81.5, 162.5].map(|h| fixed.unchanged_fetches(h)), [2.0, 3.0, 4.0]);
        // a page's own fixed interval (a seed list's nutch.fetchInterval.fixed), counted
        // without running the rule: 2.5 days over 10 → at 0, 2.5, 5, 7.5; over 10.1 also 10;
        // 3 days over 10 → 0, 3, 6, 9; an hour over 10,000 days: 240,000 (past 10,000
        // fetches, as the loop extrapolates); past db.fetch.interval.max (90 days) the rule
        // runs: without cycles, the interval forceRefetch sets, 81 days, from the first
        let own = |days: f64| Some(PageStart { initial: days, fixed: true, later: None, rates: None });
        let adaptive = Intervals { sync_delta_rate: None, ..Intervals::NUTCH };
        assert_eq!([(2.5, 10.0), (2.5, 10.1), (3.0, 10.0), (1.0 / 24.0, 10_000.0)].map(|(i, h)| adaptive.unchanged_fetches_from(own(i), h)), [4.0, 5.0, 4.0, 240_000.0]);
        assert_eq!([80.0, 81.5, 162.5].map(|h| adaptive.unchanged_fetches_from(own(120.0), h)), [1.0, 2.0, 3.0]);
        // StormCrawler, whole minutes: 1440, then ⌊× 1.5⌋ 2160, 3240, 4860, 7290, 10935,
        // 16402, then the two-week cap 20160
        let minutes = [0.0, 1440.0, 2160.0, 3240.0, 4860.0, 7290.0, 10935.0, 16402.0, 20160.0, 20160.0];
        let times: Vec<f64> = minutes
            .iter()
            .scan(0.0, |t, m| {
                *t += m * MINUTE;
                Some(*t)
            })
            .collect();
        let s = Intervals::STORMCRAWLER;
        assert_eq!(s.unchanged_fetches(times[9] + 1e-9), 10.0);
        assert_eq!(s.unchanged_fetches(times[9] - 1e-9), 9.0);
        // a batch cycle of 7 days rounds every due time up to a cycle: the gaps of 1 to
        // 5.1 days wait for the next cycle (0, 7, 14, 21, 28, 35), 7.6 days for two (49)
        let weekly = Intervals { cycle: 7.0, ..s };
        assert_eq!(weekly.unchanged_fetches(49.0 - 1e-9), 6.0);
        assert_eq!(weekly.unchanged_fetches(49.0 + 1e-9), 7.0);
        // NUTCH-1564 before its fix: after 365 / 0.3 days unchanged the next fetch falls in
        // the past, refetched at every chance (the one page's rule alone: no end); since
        // the fix 17 within those 1,217 days (the gaps grow to 0.7 × 365 days, then
        // shrink as the sync shift grows), then (Freshlab's reading: the next fetch
        // clamped to fetch + min_interval) once every minute
        // (db.fetch.interval.max off: at its 90 days the forced refetches clear the
        // modified time every 170 days, and sync delta never reaches that far back)
        let rule_alone = Intervals { refetch_max: None, ..Intervals::NUTCH };
        let before = Intervals { keeps_ahead: false, ..rule_alone };
        assert_eq!(before.unchanged_fetches(3_000.0), f64::INFINITY);
        assert_eq!(rule_alone.unchanged_fetches(1_200.0), 17.0);
        assert!(Intervals { keeps_ahead: false, ..Intervals::NUTCH }.unchanged_fetches(3_000.0) < 40.0, "not with the 90 days");
        let after = rule_alone.unchanged_fetches(3_000.0);
        assert!(after.is_finite() && after > 0.9 * (3_000.0 - 1_217.0) * 1440.0, "{after}");
    }
}
