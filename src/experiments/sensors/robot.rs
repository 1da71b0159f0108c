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
    /// The global indices of the pages this run covers, in list order.
    pub pages: Vec<usize>,
    pub watched: Vec<Watched>,
    /// Each robot's next event, in whole time units.
    engine: Engine<u32, u64>,
    fetching: Vec<Option<Fetching>>,
    order: Order,
    downloads: Vec<Stream>,
    ties: Ties,
    download: (u64, u64),
    pub cycle_ends: Vec<u64>,
}

impl RobotRun {
    pub fn new(pages: Vec<usize>, watched: Vec<Watched>, robots: usize, order: Order, seed: u64, ties: Ties, download: (u64, u64)) -> Self {
        let mut engine = Engine::new();
        for r in 0..robots {
            engine.schedule(0, r as u32);
        }
        RobotRun {
            pages,
            watched,
            engine,
            fetching: vec![None; robots],
            order,
            downloads: (0..robots).map(|r| Stream::of(seed, Purpose::RobotDownloads, r as u64)).collect(),
            ties,
            download,
            cycle_ends: Vec::new(),
        }
    }

    /// Runs the robots' events before unit `until`.
    pub fn advance(&mut self, until: u64, rules: &LifeRules, record: &mut Record) {
        let RobotRun { pages, watched, engine, fetching, order, downloads, ties, download, cycle_ends } = self;
        let n = pages.len();
        engine.run_until(until, |engine, t, robot| {
            let r = robot as usize;
            if let Some(job) = fetching[r].take() {
                let w = &mut watched[job.slot];
                w.observe(t, *ties, rules, record);
                w.complete(job.start, t, WaitEnds::Completion, record);
                if job.ends_cycle {
                    cycle_ends.push(t);
                }
            }
            // take pages until one needs a download: error pages answer at once
            let mut instant = 0;
            while let Some((slot, ends_cycle)) = order.next_slot(n) {
                let w = &mut watched[slot];
                w.observe(t, *ties, rules, record);
                if !is_error(w.life.state) {
                    let d = uniform_int(&mut downloads[r], download.0, download.1);
                    fetching[r] = Some(Fetching { slot, start: t, ends_cycle });
                    engine.schedule(t + d, robot);
                    break;
                }
                w.complete(t, t, WaitEnds::Completion, record);
                if ends_cycle {
                    cycle_ends.push(t);
                }
                instant += 1;
                if instant >= n {
                    // every page answers with an error: look again in the next unit
                    engine.schedule(t + 1, robot);
                    break;
                }
            }
        });
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
