//! Revisit policies (spec §1.2): *when* each server is requested and *which* page is
//! fetched. Every policy is a [`Schedule`] per server; servers are independent, so a
//! simulation advances each server's schedule in turn.

pub mod adaptive;
pub mod greedy;
pub mod merge;
pub mod random;
pub mod server;
pub mod spaced;

use crate::core::rng::Stream;
use crate::core::sim::freshness::Fetch;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyKind {
    /// Per-server equally spaced requests, pages in per-page equally spaced order (§5.3).
    Merge,
    /// Per-server equally spaced requests, pages drawn with probability f_i/f_s (§5.2).
    Random,
    /// Per-page equally spaced targets, delayed to keep P between requests (ch. 4).
    Delayed,
    /// Per-page equally spaced revisits, politeness ignored (violations counted).
    Unpolite,
    /// Apache Nutch's AdaptiveFetchSchedule with its shipped defaults.
    Nutch,
    /// StormCrawler's AdaptiveScheduler with its defaults.
    Stormcrawler,
    /// A fixed interval for every page (Nutch's DefaultFetchSchedule, 30 days).
    Fixed,
}

impl PolicyKind {
    /// Policies that learn from fetches instead of using an allocation.
    pub fn is_adaptive(self) -> bool {
        matches!(self, PolicyKind::Nutch | PolicyKind::Stormcrawler | PolicyKind::Fixed)
    }

    pub fn label(self) -> &'static str {
        match self {
            PolicyKind::Merge => "MERGE",
            PolicyKind::Random => "RANDOM",
            PolicyKind::Delayed => "DELAYED",
            PolicyKind::Unpolite => "UNPOLITE",
            PolicyKind::Nutch => "Nutch adaptive",
            PolicyKind::Stormcrawler => "StormCrawler adaptive",
            PolicyKind::Fixed => "fixed 30 days",
        }
    }
}

/// The requests of one server, in time order.
pub trait Schedule {
    /// Time of the next request (∞ when the server is never requested).
    fn next_time(&self) -> f64;
    /// Takes the next request: (time, page). `f` is the allocation (revisit frequency
    /// of every page), which the allocation-driven schedules step through.
    fn take(&mut self, f: &[f64], rng: &mut Stream) -> (f64, usize);
    /// What the fetch just taken revealed; adaptive schedules reschedule from it.
    fn observe(&mut self, _page: usize, _time: f64, _fetch: Option<Fetch>) {}
}

/// Counts requests to one server that come less than P after the previous one.
#[derive(Clone, Copy, Debug)]
pub struct PolitenessCheck {
    politeness: f64,
    last: f64,
    pub violations: u64,
    pub requests: u64,
}

impl PolitenessCheck {
    pub fn new(politeness: f64) -> Self {
        PolitenessCheck { politeness, last: f64::NEG_INFINITY, violations: 0, requests: 0 }
    }

    /// Records a request at `t`. A gap short of P by more than rounding (1e-9 P) is a
    /// violation.
    #[inline]
    pub fn request(&mut self, t: f64) {
        if t - self.last < self.politeness * (1.0 - 1e-9) {
            self.violations += 1;
        }
        self.last = t;
        self.requests += 1;
    }
}

/// A uniform offset in [0, period): the first request of a periodic schedule.
pub fn offset(rng: &mut Stream, period: f64) -> f64 {
    rng.uniform() * period
}
