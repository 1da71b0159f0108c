//! One server's schedule, whatever the policy, and the one loop that runs every
//! schedule: [`drive`].

use super::adaptive::{Adaptive, Rule};
use super::merge::Merge;
use super::random::Random;
use super::spaced::Spaced;
use super::{PolicyKind, PolitenessCheck, Schedule};
use crate::core::rng::Stream;
use crate::core::sim::freshness::Freshness;
use std::ops::Range;

pub enum ServerSchedule {
    Merge(Merge),
    Random(Random),
    Spaced(Spaced),
    Adaptive(Adaptive),
}

impl ServerSchedule {
    /// The schedule of the server holding `pages`, with allocation `f` and politeness
    /// `politeness` (days).
    pub fn new(kind: PolicyKind, f: &[f64], pages: Range<usize>, politeness: f64, rng: &mut Stream) -> Self {
        match kind {
            PolicyKind::Merge => ServerSchedule::Merge(Merge::new(f, pages, rng)),
            PolicyKind::Random => ServerSchedule::Random(Random::new(f, pages, rng)),
            PolicyKind::Delayed => ServerSchedule::Spaced(Spaced::new(f, pages, rng, Some(politeness))),
            PolicyKind::Unpolite => ServerSchedule::Spaced(Spaced::new(f, pages, rng, None)),
            PolicyKind::Nutch => ServerSchedule::Adaptive(Adaptive::new(Rule::Nutch, pages, politeness)),
            PolicyKind::Stormcrawler => ServerSchedule::Adaptive(Adaptive::new(Rule::Stormcrawler, pages, politeness)),
            PolicyKind::Fixed => ServerSchedule::Adaptive(Adaptive::new(Rule::Fixed, pages, politeness)),
        }
    }

    /// Bytes per page of the schedule's state.
    pub fn bytes_per_page(kind: PolicyKind) -> u64 {
        match kind {
            PolicyKind::Merge | PolicyKind::Delayed | PolicyKind::Unpolite => 16,
            PolicyKind::Random => 16,
            _ => Adaptive::BYTES_PER_PAGE,
        }
    }

    /// The schedule itself, to drive request by request.
    /// A deployed crawler's schedule (None for the allocated policies').
    pub fn adaptive(&mut self) -> Option<&mut Adaptive> {
        match self {
            ServerSchedule::Adaptive(s) => Some(s),
            ServerSchedule::Merge(_) | ServerSchedule::Random(_) | ServerSchedule::Spaced(_) => None,
        }
    }

    pub fn as_schedule(&mut self) -> &mut dyn Schedule {
        match self {
            ServerSchedule::Merge(s) => s,
            ServerSchedule::Random(s) => s,
            ServerSchedule::Spaced(s) => s,
            ServerSchedule::Adaptive(s) => s,
        }
    }

    /// Runs the requests before `until`; returns how many there were.
    pub fn advance(&mut self, until: f64, f: &[f64], visitor: &mut impl Freshness, check: &mut PolitenessCheck, rng: &mut Stream) -> u64 {
        match self {
            ServerSchedule::Merge(s) => drive(s, until, f, visitor, check, rng),
            ServerSchedule::Random(s) => drive(s, until, f, visitor, check, rng),
            ServerSchedule::Spaced(s) => drive(s, until, f, visitor, check, rng),
            ServerSchedule::Adaptive(s) => drive(s, until, f, visitor, check, rng),
        }
    }
}

/// Runs `schedule`'s requests before `until`: each is checked for politeness,
/// accounted, and what it revealed is shown to the schedule. Returns the request count.
#[inline]
pub fn drive<S: Schedule>(schedule: &mut S, until: f64, f: &[f64], visitor: &mut impl Freshness, check: &mut PolitenessCheck, rng: &mut Stream) -> u64 {
    drive_at_most(schedule, until, u64::MAX, f, visitor, check, rng)
}

/// [`drive`], stopping after `budget` requests even before `until` (for a run that is
/// discarded once it has made that many).
#[inline]
pub fn drive_at_most<S: Schedule>(schedule: &mut S, until: f64, budget: u64, f: &[f64], visitor: &mut impl Freshness, check: &mut PolitenessCheck, rng: &mut Stream) -> u64 {
    let mut requests = 0;
    while requests < budget && schedule.next_time() < until {
        let (t, page) = schedule.take(f, rng);
        check.request(t);
        let fetch = visitor.visit(page, t, rng);
        schedule.observe(page, t, fetch);
        requests += 1;
    }
    requests
}
