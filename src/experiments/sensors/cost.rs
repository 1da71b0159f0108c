//! What a robots-vs-sensors run costs: its events (the work its progress counts) and its
//! peak memory, from the configuration alone (checked against measurement in
//! tests/cost_model.rs).

use super::config::{Concept, RobotOrder, SensorsConfig};
use super::job::{SENSED_SHARDS, SLICE_EVENTS};
use super::record::IntervalLog;
use super::robot::Watched;
use super::sensor::SensedPage;
use crate::core::limits::{Cost, Fix};
use crate::core::math::elementary::{exp, ln_1p};

/// A sensed page's bytes: its layout and its slot in the list, and, once it has changed,
/// its pending events (a vector of four, allocated at the first notification); a robot's
/// page's: its layout and its index in the list of the robots' pages, held while the run
/// is set up (checked against measurement, tests/cost_model.rs).
const SENSED_PAGE_BYTES: f64 = (SensedPage::BYTES + 8) as f64;
const PENDING_EVENTS_BYTES: f64 = (4 * 24) as f64;
const ROBOT_PAGE_BYTES: f64 = (Watched::BYTES + 8) as f64;
/// The MERGE order's bytes a robot's page (measured: 37–46, and 61 with a sweep run).
const MERGE_ORDER_BYTES: f64 = 64.0;
/// Native time per event (BENCHMARKS.md: the article's experiment).
const SECONDS_PER_EVENT: f64 = 24e-9;
/// MERGE's order: seconds a visit × n^-0.54 (see `merge_order_seconds`).
const MERGE_VISIT_SECONDS: f64 = 1.05e-9;
/// Native time of a slice's pass over one page (catching up its changes): 3.8 ns,
/// measured on 46,667 slices of 200,000 pages (the fuzz campaign's case 39,693).
const SECONDS_PER_PASS: f64 = 3.8e-9;

/// The visits a robot makes over the horizon to the list of every page, and to the list
/// of the pages without a sensor.
#[derive(Clone, Copy)]
pub(super) struct Visits {
    pub all: f64,
    pub unsensed: f64,
}

impl SensorsConfig {
    /// Work (events), peak memory and time of the experiment (of its own runs, for a
    /// part of a split run).
    pub(super) fn estimate(&self) -> Cost {
        let sensed = self.sensed_pages() as f64;
        let visits = self.visits();
        let share = self.sensed_share(&visits);
        let Visits { all, unsensed } = visits;
        let concepts = self.own_concepts().into_iter().map(|c| match c {
            Concept::Sensors => self.run_events(self.robots, sensed, unsensed) * share,
            Concept::Robot => self.run_events(self.robots, 0.0, all),
        });
        let work: f64 = concepts.chain(self.own_sweep().into_iter().map(|robots| self.run_events(robots, 0.0, all))).sum();
        Cost {
            work,
            unit: "events".into(),
            bytes: self.peak_bytes(&visits),
            seconds: work * SECONDS_PER_EVENT + self.slice_passes() * SECONDS_PER_PASS + self.merge_order_seconds(&visits),
            memory_fix: Fix::new("pages", "use fewer pages"),
            time_fix: Fix::new("horizon", "shorten the horizon, or lower the rates of changes and requests"),
        }
    }

    /// Parts of the sensors' run: the robots' list (when some pages have no sensor), then
    /// the shards of the sensed pages, each with its work (events).
    pub fn sensed_pieces(&self) -> Vec<f64> {
        let unsensed = (self.pages - self.sensed_pages()) as f64;
        self.pieces(self.visits_per_robot(unsensed))
    }

    /// `sensed_pieces`, given a robot's visits to the list of the pages without a sensor.
    pub(super) fn pieces(&self, unsensed_visits: f64) -> Vec<f64> {
        let sensed = self.sensed_pages();
        let shard = sensed.div_ceil(SENSED_SHARDS as u64).max(1);
        let robots = (sensed < self.pages).then(|| self.robot_events(self.robots, sensed as f64, unsensed_visits));
        let shards = (0..sensed).step_by(shard as usize).map(|first| self.sensed_events((sensed - first).min(shard) as f64));
        robots.into_iter().chain(shards).collect()
    }

    /// The share of the sensors' run's work this configuration does (1: all of it).
    fn sensed_share(&self, visits: &Visits) -> f64 {
        match &self.sensed_parts {
            None => 1.0,
            Some(own) => {
                let pieces = self.pieces(visits.unsensed);
                let total: f64 = pieces.iter().sum();
                own.iter().filter_map(|&k| pieces.get(k as usize)).sum::<f64>() / total.max(1.0)
            }
        }
    }

    /// The sensors' downloads over the run (each a notification that is not lost, at most
    /// one a change that changes the page or a request).
    pub fn sensed_downloads(&self) -> f64 {
        let weeks = self.horizon as f64 / self.week as f64;
        self.sensed_pages() as f64 * (self.changes_per_week * weeks * self.effective_share()).min(self.requests_per_week * weeks)
    }

    /// Peak memory: the pages of one run (sensed pages are the larger), and the
    /// sensors' download intervals.
    pub fn estimate_bytes(&self) -> u64 {
        self.peak_bytes(&self.visits()) as u64
    }

    /// Slices of a run of about `slice_events` events each (at least one, at most one a
    /// time unit).
    /// Requests are made to sensed pages only, so they count only where the run with
    /// sensors is made (a robots-only run at 700,000 requests a page a week had been cut
    /// into 46,667 slices, each a pass over its 200,000 pages: 35 s, estimated 0.04 s).
    pub fn slices(&self, slice_events: f64) -> f64 {
        let weeks = self.horizon as f64 / self.week as f64;
        let requested = if self.own_concepts().contains(&Concept::Sensors) { self.sensed_pages() as f64 } else { 0.0 };
        let events = weeks * (self.pages as f64 * self.changes_per_week + requested * self.requests_per_week) + 1.0;
        (events / slice_events).ceil().min(self.horizon as f64).max(1.0)
    }

    /// The time MERGE's order adds to the robots' visits: each takes the next page from a
    /// heap of virtual visits over the list, whose cost per visit grows with the list as
    /// n^0.54 (cache misses; measured on robots-only runs of 20,000 and 200,000 pages:
    /// 0.22 and 0.76 µs a visit more than the cycle's; the fuzz campaign's case 1,833
    /// ran 0.46 s against 0.044 s estimated without it).
    fn merge_order_seconds(&self, visits: &Visits) -> f64 {
        if self.robot_order != RobotOrder::Merge {
            return 0.0;
        }
        let per_visit = |n: f64| MERGE_VISIT_SECONDS * n.max(1.0).powf(0.54);
        let (pages, unsensed) = (self.pages as f64, (self.pages - self.sensed_pages()) as f64);
        let concepts = self.own_concepts().into_iter().map(|c| match c {
            Concept::Robot => self.robots as f64 * visits.all * per_visit(pages),
            Concept::Sensors => self.robots as f64 * visits.unsensed * per_visit(unsensed),
        });
        concepts.chain(self.own_sweep().into_iter().map(|robots| robots as f64 * visits.all * per_visit(pages))).sum()
    }

    /// The passes over pages that slicing adds: every slice of every run passes over
    /// its pages once.
    fn slice_passes(&self) -> f64 {
        let runs = (self.own_concepts().len() + self.own_sweep().len()) as f64;
        self.slices(SLICE_EVENTS) * self.pages as f64 * runs
    }

    /// Peak memory, in floating point so that no configuration wraps it to a small
    /// number: the concepts run side by side — the run with sensors (a sensed page holds
    /// its life, streams and pending events; the intervals of the downloads begun in a
    /// slice are kept until the slice's end, in vectors that may double) beside the
    /// robots' run —, then the sweep's runs one at a time; every part of a run keeps its
    /// own samples, and every result its samples and its robots' cycle ends (measured,
    /// tests/cost_model.rs).
    fn peak_bytes(&self, visits: &Visits) -> f64 {
        let pages = self.pages as f64;
        let (own, sweep_runs) = (self.own_concepts(), self.own_sweep());
        // a share of the sensors' run holds its share of the sensed pages and keeps a log
        // of their downloads, copied into each result it hands on
        let share = self.sensed_share(visits);
        let sensed = if own.contains(&Concept::Sensors) { (self.sensed_pages() as f64 * share).ceil() } else { 0.0 };
        let downloads = if own.contains(&Concept::Sensors) { self.sensed_downloads() * share } else { 0.0 };
        let per_slice = downloads / self.slices(SLICE_EVENTS);
        let log = if self.sensed_parts.is_some() { 2.0 * IntervalLog::bound(downloads, self.horizon as f64, self.download_max) } else { 0.0 };
        // MERGE's order holds the rates, their allocation and its heap of virtual visits
        let robot_page = ROBOT_PAGE_BYTES + if self.robot_order == RobotOrder::Merge { MERGE_ORDER_BYTES } else { 0.0 };
        // a page is notified at a request after a change: the share of pages notified at
        // all is at most their mean changes over the horizon, and their mean requests
        // (the fuzz campaign's cases 18,080: 200,000 pages changing 6e-6 times a week,
        // and 6,605: requested 1e-308 times a week, 1.56 times the peak each when every
        // page was counted with its pending events)
        let weeks = self.horizon as f64 / self.week as f64;
        let notified = (self.changes_per_week * weeks).min(self.requests_per_week * weeks).min(1.0);
        let with_sensors = sensed * (SENSED_PAGE_BYTES + notified * PENDING_EVENTS_BYTES) + (pages - self.sensed_pages() as f64) * robot_page + per_slice * 32.0 + log;
        let robot_only = pages * robot_page;
        let concepts: f64 = own.iter().map(|c| if *c == Concept::Sensors { with_sensors } else { robot_only }).sum();
        let sweep = if sweep_runs.is_empty() { 0.0 } else { robot_only };
        let samples = (self.horizon as f64 / self.sample_every as f64).floor() * 8.0;
        let parts = own.iter().map(|c| if *c == Concept::Sensors { 1.0 + SENSED_SHARDS as f64 } else { 1.0 }).sum::<f64>();
        let runs = (own.len() + sweep_runs.len()) as f64;
        concepts.max(sweep) + (runs + parts) * samples + self.cycle_end_bytes(visits) + 16_384.0
    }

    /// A robot following the list ends a cycle each pass over it, and its run keeps every
    /// end (in a vector that may double, copied into its partial results): 32 bytes a
    /// pass, over every robots' run of this configuration.
    fn cycle_end_bytes(&self, visits: &Visits) -> f64 {
        if self.robot_order != RobotOrder::Cycle {
            return 0.0;
        }
        let (pages, sensed) = (self.pages as f64, self.sensed_pages() as f64);
        let (all, unsensed) = (visits.all / pages.max(1.0), visits.unsensed / (pages - sensed).max(1.0));
        let concepts = self.own_concepts().into_iter().map(|c| self.robots as f64 * if c == Concept::Sensors { unsensed } else { all });
        let passes: f64 = concepts.chain(self.own_sweep().into_iter().map(|robots| robots as f64 * all)).sum();
        32.0 * passes
    }

    /// A robot's visits to each list, computed once: every run's are a multiple of them.
    pub(super) fn visits(&self) -> Visits {
        let (pages, sensed) = (self.pages as f64, self.sensed_pages() as f64);
        Visits { all: self.visits_per_robot(pages), unsensed: self.visits_per_robot(pages - sensed) }
    }

    /// Work of one run: a pass over the pages to set it up, then its events — every
    /// change of every page, the sensed pages' external requests and their
    /// notifications (each followed by a download, unless lost), and the robots' visits
    /// (`visits_per_robot` each, to the list of the pages without a sensor).
    pub(super) fn run_events(&self, robots: u64, sensed: f64, visits_per_robot: f64) -> f64 {
        self.robot_events(robots, sensed, visits_per_robot) + self.sensed_events(sensed)
    }

    /// The work of the robots' pages (all but the `sensed` ones): setup, changes, visits.
    fn robot_events(&self, robots: u64, sensed: f64, visits_per_robot: f64) -> f64 {
        let (pages, weeks) = (self.pages as f64, self.horizon as f64 / self.week as f64);
        (pages - sensed) * (1.0 + self.changes_per_week * weeks) + robots as f64 * visits_per_robot
    }

    /// Visits a robot makes to a list of `n` pages over the horizon. A visit to a page in
    /// an error state takes no time, so a robot passes over the whole list while it
    /// downloads the m pages that are not in error, m·E[d] units: n/(m·E[d]) visits a
    /// unit, n when m = 0 (it looks again the next unit); robots sharing the list each
    /// make as many. m is binomial with the chance q(t) that a page is not in error: the
    /// last state drawn, or state 6 until its first change event. The time average of n/m
    /// exceeds n/E[m] (Jensen), by far when the pages not in error are few; and over a
    /// horizon of few changes a page, one run's m strays far from its mean (20 % of the
    /// runs of 200 pages changing 6 times, all into errors, walk over twice the mean's
    /// visits), so q is taken two standard deviations low, the deviation of the share out
    /// of error averaged over the horizon's independent stretches (one per 2/λ units).
    fn visits_per_robot(&self, n: f64) -> f64 {
        if n < 1.0 {
            return 0.0;
        }
        let total: f64 = self.states.iter().sum();
        let error = self.states[..3].iter().sum::<f64>() / total;
        let download = (self.download_min as f64 + self.download_max as f64) / 2.0;
        let horizon = self.horizon as f64;
        let stretches = 1.0 + self.changes_per_week / self.week as f64 * horizon / 2.0;
        let pessimistic = |q: f64| q - 2.0 * (q * (1.0 - q) / (n * stretches)).sqrt();
        // midpoint rule over the horizon: q(t) moves from 1 to 1 − error as pages change
        // (once it is there, one sum serves every later cell)
        let stationary = mean_pass_rate(n, pessimistic(1.0 - error), download);
        let cells = 128;
        let step = horizon / cells as f64;
        let rate: f64 = (0..cells)
            .map(|k| {
                let moving = error * self.unchanged_share((k as f64 + 0.5) * step);
                if moving < 1e-12 { stationary } else { mean_pass_rate(n, pessimistic((1.0 - error) + moving), download) }
            })
            .sum::<f64>()
            / cells as f64;
        n * rate * horizon
    }

    /// The share of pages with no change event by unit `t`: the mean of e^{−λt} over the
    /// pages' rates (spread log-uniformly, `change_rate`).
    fn unchanged_share(&self, t: f64) -> f64 {
        if self.rate_spread == 1.0 {
            return exp(-self.rate_at(0.5) * t);
        }
        let points = 32;
        (0..points).map(|j| exp(-self.rate_at((j as f64 + 0.5) / points as f64) * t)).sum::<f64>() / points as f64
    }

    /// The work of `sensed` sensed pages: setup, changes, requests, notifications and
    /// their downloads.
    fn sensed_events(&self, sensed: f64) -> f64 {
        let weeks = self.horizon as f64 / self.week as f64;
        let changes = self.changes_per_week * weeks;
        let notifications = (changes * self.effective_share()).min(self.requests_per_week * weeks);
        sensed * (1.0 + changes + self.requests_per_week * weeks + notifications * (2.0 - self.notification_loss))
    }
}

/// E[g(m)] for m binomial with `n` (whole) trials and chance `q`: g(0) = 1,
/// g(m) = 1/(m·d).
fn mean_pass_rate(n: f64, q: f64, d: f64) -> f64 {
    if q <= 0.0 {
        return 1.0;
    }
    if q >= 1.0 {
        return 1.0 / (n * d);
    }
    let (mean, p) = (n * q, 1.0 - q);
    if mean.is_nan() || mean > 100.0 {
        // (a configuration not yet valid may give NaN: no sum then)
        // E[1/m] = (1/μ)(1 + μ₂/μ² − μ₃/μ³ + μ₄/μ⁴ − …) with the binomial's central moments
        // μ₂ = μp, μ₃ = μp(1 − 2q), μ₄ = 3μ₂² + μp(1 − 6qp); P(m = 0) < e^{−100}
        let (m2, m3) = (mean * p, mean * p * (1.0 - 2.0 * q));
        let m4 = 3.0 * m2 * m2 + mean * p * (1.0 - 6.0 * q * p);
        let mean2 = mean * mean;
        return (1.0 + m2 / mean2 - m3 / (mean2 * mean) + m4 / (mean2 * mean2)) / (mean * d);
    }
    // the terms within 12σ + 30 of μ (beyond, below 1e-30 of the sum), from the end whose
    // chance is at least e^{−139} (μ ≤ 100): k counts the outcomes of the rarer kind (pages
    // out of error when q ≤ ½, in error otherwise), each term from the last by their ratio
    let (rare, flip) = if q <= 0.5 { (q, false) } else { (p, true) };
    let (odds, last) = (rare / (1.0 - rare), (n * rare + 12.0 * (mean * p).sqrt() + 30.0).min(n).floor());
    let g = |k: f64| {
        let m = if flip { n - k } else { k };
        if m == 0.0 { 1.0 } else { 1.0 / (m * d) }
    };
    let mut term = exp(n * ln_1p(-rare));
    let mut sum = term * g(0.0);
    let mut k = 1.0;
    while k <= last {
        term *= (n - k + 1.0) / k * odds;
        sum += term * g(k);
        k += 1.0;
    }
    sum
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// E[g(m)] by the binomial's terms written out, each from log-factorials (std's ln).
    fn by_terms(n: u64, q: f64, d: f64) -> f64 {
        let log_factorial: Vec<f64> = std::iter::once(0.0)
            .chain((1..=n).scan(0.0, |acc, k| {
                *acc += (k as f64).ln();
                Some(*acc)
            }))
            .collect();
        let nu = n as usize;
        (0..=nu)
            .map(|m| {
                let log_choose = log_factorial[nu] - log_factorial[m] - log_factorial[nu - m];
                let p = (log_choose + m as f64 * q.ln() + (nu - m) as f64 * (1.0 - q).ln()).exp();
                p * if m == 0 { 1.0 } else { 1.0 / (m as f64 * d) }
            })
            .sum()
    }

    #[test]
    fn the_mean_pass_rate_by_hand_and_by_terms() {
        // m ~ Binomial(3, ½), d = 2: 1/8·1 + 3/8·½ + 3/8·¼ + 1/8·⅙ = 41/96
        assert!((mean_pass_rate(3.0, 0.5, 2.0) - 41.0 / 96.0).abs() < 1e-15);
        assert_eq!(mean_pass_rate(10.0, 0.0, 2.0), 1.0, "every page in error: the list once a unit");
        assert_eq!(mean_pass_rate(10.0, 1.0, 2.0), 1.0 / 20.0);
        // the terms (μ ≤ 100, from either end) and the expansion (μ > 100) against the terms
        for (n, q) in [(40, 0.01), (400, 0.2), (1000, 0.099), (1000, 0.101), (400, 0.26), (150, 0.66), (101, 0.99), (12000, 0.5), (3000, 0.995)] {
            let (got, want) = (mean_pass_rate(n as f64, q, 20.5), by_terms(n, q, 20.5));
            assert!((got / want - 1.0).abs() < 1e-5, "n {n}, q {q}: {got} vs {want}");
        }
        // Jensen: few pages out of error make the walk far longer than n/E[m] says
        assert!(mean_pass_rate(2000.0, 0.005, 20.5) > 1.1 / (10.0 * 20.5));
    }
}
