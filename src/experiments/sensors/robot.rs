//! The robot concept (§4.1): robots walk a list of pages in a fixed order, forever; each
//! visit downloads the page and refreshes the copy. Several robots share the list; a
//! "smart" robot follows a MERGE order from an optimal allocation instead [beyond].

use super::page::{LifeRules, PageLife, Ties, is_error, uniform_int};
use super::record::{Record, Replica, WaitEnds};
use crate::core::policy::VirtualVisits;
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::queue::Engine;

/// The order in which robots take pages.
pub enum Order {
    /// The list, over and over (the article's robot).
    Cycle { next: usize },
    /// MERGE's order for frequencies `f`: the page with the earliest virtual time.
    Merge { visits: VirtualVisits, f: Vec<f64> },
}

/// A download in progress.
#[derive(Clone, Copy)]
struct Fetching {
    slot: usize,
    start: u64,
    ends_cycle: bool,
}

/// A page and what the repository holds of it.
pub struct Watched {
    pub life: PageLife,
    pub copy: Replica,
}

impl Watched {
    /// Bytes per watched page on a 64-bit machine (checked by a test).
    pub const BYTES: u64 = 104;

    /// Brings the page to unit `t` — changes in unit t included or not by the tie rule —
    /// updating the copy's freshness; counts a tie when a change falls in unit t.
    /// Most observations find no change due (the page's next one is later): they return
    /// at once, inlined in the caller.
    #[inline]
    pub fn observe(&mut self, t: u64, ties: Ties, rules: &LifeRules, record: &mut Record) {
        if self.life.next_change() > t {
            return;
        }
        if self.life.next_change() == t {
            record.ties += 1;
        }
        let copy = &mut self.copy;
        record.events += self.life.advance(t, ties == Ties::ChangeFirst, rules, |unit, version| copy.changed(unit, version, record));
    }

    /// Applies every change before unit `until` (between slices; ties are not at stake).
    #[inline]
    pub fn catch_up(&mut self, until: u64, rules: &LifeRules, record: &mut Record) {
        if self.life.next_change() >= until {
            return;
        }
        let copy = &mut self.copy;
        record.events += self.life.advance(until - 1, true, rules, |unit, version| copy.changed(unit, version, record));
    }

    /// The download that started at `start` completes at `end` (the page brought to `end`).
    pub fn complete(&mut self, start: u64, end: u64, ends: WaitEnds, record: &mut Record) {
        let bytes = if is_error(self.life.state) { 0 } else { self.life.size as u64 };
        self.copy.downloaded(start, end, self.life.version, bytes, ends, record);
        record.events += 1;
    }
}

pub struct RobotRun {
    /// The pages this run covers, in list order.
    pub watched: Vec<Watched>,
    /// Each robot's next event, in whole time units.
    engine: Engine<u32, u64>,
    /// Each robot's download in progress and its stream of download times.
    fetching: Vec<Option<Fetching>>,
    downloads: Vec<Stream>,
    walk: Walk,
    pub cycle_ends: Vec<u64>,
}

/// What every robot's visit follows: the order of pages, the tie rule, the download times.
struct Walk {
    order: Order,
    ties: Ties,
    download: (u64, u64),
}

impl RobotRun {
    pub fn new(watched: Vec<Watched>, robots: usize, order: Order, seed: u64, ties: Ties, download: (u64, u64)) -> Self {
        let mut engine = Engine::new();
        for r in 0..robots {
            engine.schedule(0, r as u32);
        }
        let downloads = (0..robots).map(|r| Stream::of(seed, Purpose::RobotDownloads, r as u64)).collect();
        RobotRun { watched, engine, fetching: vec![None; robots], downloads, walk: Walk { order, ties, download }, cycle_ends: Vec::new() }
    }

    /// Runs the robots' events before unit `until`.
    pub fn advance(&mut self, until: u64, rules: &LifeRules, record: &mut Record) {
        let RobotRun { watched, engine, fetching, downloads, walk, cycle_ends } = self;
        if fetching.len() > 1 {
            engine.run_until(until, |engine, t, robot| {
                let r = robot as usize;
                if let Some(next) = walk.act(t, &mut fetching[r], &mut downloads[r], watched, rules, record, cycle_ends) {
                    engine.schedule(next, robot);
                }
            });
            return;
        }
        // One robot (the article's): its events follow one another, so the engine would
        // hold a single event at a time; they are taken in a plain loop, with the robot's
        // download and stream in local variables, and the engine keeps the next event
        // between slices. The same events in the same order, the same draws.
        let Some(mut t) = engine.next_time().filter(|&t| t < until) else { return };
        engine.next();
        let (mut job, mut stream) = (fetching[0].take(), downloads[0].clone());
        let rests = loop {
            let Some(next) = walk.act(t, &mut job, &mut stream, watched, rules, record, cycle_ends) else { break true };
            t = next;
            if t >= until {
                break false;
            }
        };
        (fetching[0], downloads[0]) = (job, stream);
        if !rests {
            engine.schedule(t, 0);
        }
    }
}

impl Walk {
    /// A robot's event at `t`: its download `job` completes, then it takes pages until
    /// one needs a download (error pages answer at once), drawn from `stream`. Returns
    /// the time of its next event (none when MERGE's order has no page to visit).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn act(
        &mut self,
        t: u64,
        job: &mut Option<Fetching>,
        stream: &mut Stream,
        watched: &mut [Watched],
        rules: &LifeRules,
        record: &mut Record,
        cycle_ends: &mut Vec<u64>,
    ) -> Option<u64> {
        let n = watched.len();
        if let Some(done) = job.take() {
            let w = &mut watched[done.slot];
            w.observe(t, self.ties, rules, record);
            w.complete(done.start, t, WaitEnds::Completion, record);
            if done.ends_cycle {
                cycle_ends.push(t);
            }
        }
        let mut instant = 0;
        while let Some((slot, ends_cycle)) = self.order.next_slot(n) {
            let w = &mut watched[slot];
            w.observe(t, self.ties, rules, record);
            if !is_error(w.life.state) {
                let d = uniform_int(stream, self.download.0, self.download.1);
                *job = Some(Fetching { slot, start: t, ends_cycle });
                return Some(t + d);
            }
            w.complete(t, t, WaitEnds::Completion, record);
            if ends_cycle {
                cycle_ends.push(t);
            }
            instant += 1;
            if instant >= n {
                // every page answers with an error: look again in the next unit
                return Some(t + 1);
            }
        }
        None
    }
}

impl Order {
    /// The next page's slot in the list of `n`, and whether it ends a cycle.
    fn next_slot(&mut self, n: usize) -> Option<(usize, bool)> {
        match self {
            Order::Cycle { next } => {
                let slot = *next;
                let ends_cycle = slot + 1 >= n;
                *next = if ends_cycle { 0 } else { slot + 1 };
                Some((slot, ends_cycle))
            }
            Order::Merge { visits, f } => Some((visits.advance(f)?.1, false)),
        }
    }
}
