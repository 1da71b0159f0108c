//! The robots-vs-sensors job: the concepts side by side, then each robot count of the
//! sweep, every page advancing through fixed slices of time units. A concept's pages
//! are split into parts (the robots' list, and shards of the sensed pages, which are
//! independent of each other) advanced on every core; what they measure is counted in
//! integers, so the parts add up to the same result whatever the split or the threads.

use super::config::{Concept, RobotOrder, SensorsConfig};
use super::output::{ConceptResult, Piece, SensorsOutput, SweepPoint, published};
use super::page::{LifeRules, PageLife};
use super::record::{IntervalLog, Overlap, Record, Replica};
use super::robot::{Order, RobotRun, Watched};
use super::sensor::{SensedPage, SensorRules, SensorTotals};
use crate::core::alloc::{AllocationKind, allocate};
use crate::core::math::stats::mean_and_half_width;
use crate::core::model::repository::Repository;
use crate::core::parallel;
use crate::core::policy::VirtualVisits;
use crate::core::rng::{Purpose, Stream};
use crate::experiments::{Experiment, Plan, Settings};

enum Run {
    Concept(Concept),
    Sweep(u64),
}

/// Shards of the sensed pages (independent pages: any split gives the same integers).
pub const SENSED_SHARDS: usize = 16;

/// The runs in progress: the concepts side by side, or one robot count of the sweep.
pub struct Running {
    groups: Vec<Group>,
    slices: u64,
    slice: u64,
    /// The work of setting up the pages, counted with the first slice.
    setup: f64,
}

/// One run: a concept (or a sweep's robot count) and the parts its pages are split into.
struct Group {
    run: Run,
    robots: u64,
    parts: Vec<Part>,
    /// The sensors' downloads at once, swept slice by slice.
    overlap: Overlap,
    /// The sensors' downloads, kept for the join when this is a share of the run's parts
    /// (a part of a run split by its sensed pages).
    log: Option<IntervalLog>,
}

/// Pages advanced together on one thread, with what they measured.
struct Part {
    /// The pages to set up, on the thread that advances the part first (set-up writes
    /// fresh memory: on two threads it took a tenth of a 2,000-page run when done first,
    /// on one).
    pages: Option<PartPages>,
    robot: Option<RobotRun>,
    sensed: Vec<SensedPage>,
    totals: SensorTotals,
    record: Record,
}

/// A part's pages: the robots' list (with the robots' number), or a shard of sensed pages.
enum PartPages {
    Robot { pages: Vec<usize>, robots: u64 },
    Sensed(std::ops::Range<usize>),
}

impl Part {
    fn new(pages: PartPages, record: Record) -> Self {
        Part { pages: Some(pages), robot: None, sensed: Vec::new(), totals: SensorTotals::default(), record }
    }

    /// Sets up the part's pages, if not done yet.
    fn set_up(&mut self, job: &SensorsJob) {
        match self.pages.take() {
            Some(PartPages::Robot { pages, robots }) => {
                let watched = pages.iter().map(|&i| job.watched(i)).collect();
                let order = job.order(&pages, robots);
                let config = &job.config;
                self.robot = Some(RobotRun::new(watched, robots as usize, order, config.seed, config.ties, (config.download_min, config.download_max)));
            }
            Some(PartPages::Sensed(pages)) => self.sensed = pages.map(|i| job.sensed(i)).collect(),
            None => {}
        }
    }

    /// Every page of the part to the end of the slice, unit `until` excluded.
    fn advance(&mut self, until: u64, rules: &LifeRules, sensor_rules: &SensorRules) {
        if let Some(robot) = self.robot.as_mut() {
            robot.advance(until, rules, &mut self.record);
            for w in robot.watched.iter_mut() {
                w.catch_up(until, rules, &mut self.record);
            }
        }
        for page in self.sensed.iter_mut() {
            page.advance(until, rules, sensor_rules, &mut self.record, &mut self.totals);
            page.watched.catch_up(until, rules, &mut self.record);
        }
    }
}

pub struct SensorsJob {
    config: SensorsConfig,
    rules: LifeRules,
    sensor_rules: SensorRules,
    runs: Vec<Run>,
    next: usize,
    output: SensorsOutput,
    slice_events: f64,
}

/// Events per slice of a run (the granularity of progress and cancellation). Every
/// slice passes over every page once more (catching up its changes), so more slices
/// cost more than their events: at the article's scale 51 slices of 300,000 events
/// took 0.92 s on one thread and 6 slices of 3 M take 0.62 s (`cargo bench --bench
/// sensors`, same result to the bit), a slice lasting about 0.1 s natively.
pub const SLICE_EVENTS: f64 = 3_000_000.0;

impl SensorsJob {
    pub fn new(config: SensorsConfig) -> Self {
        // a part of a split run does its own runs only (the same streams as in the whole)
        let mut runs: Vec<Run> = config.own_concepts().into_iter().map(Run::Concept).collect();
        runs.extend(config.own_sweep().into_iter().map(Run::Sweep));
        let week = config.week as f64;
        let sensor_rules = SensorRules {
            request_rate: config.requests_per_week / week,
            notify: (config.notify_min, config.notify_max),
            download: (config.download_min, config.download_max),
            loss: config.notification_loss,
            ties: config.ties,
        };
        let output = SensorsOutput {
            published: published(),
            effective_share: config.effective_share(),
            estimate_bytes: config.estimate_bytes(),
            results: Vec::new(),
            sweep: Vec::new(),
            done: false,
            config: config.clone(),
        };
        SensorsJob { rules: config.rules(), sensor_rules, config, runs, next: 0, output, slice_events: SLICE_EVENTS }
    }

    /// The same job in slices of about `events` events (tests: the result must not move).
    #[cfg(test)]
    pub fn with_slice_events(self, events: f64) -> Self {
        SensorsJob { slice_events: events, ..self }
    }

    fn watched(&self, i: usize) -> Watched {
        Watched { life: PageLife::new(Stream::of(self.config.seed, Purpose::PageChanges, i as u64), &self.rules, self.config.change_rate(i)), copy: Replica::new() }
    }

    fn sensed(&self, i: usize) -> SensedPage {
        let seed = self.config.seed;
        SensedPage::new(self.watched(i), Stream::of(seed, Purpose::PageRequests, i as u64), Stream::of(seed, Purpose::SensorDraws, i as u64), &self.sensor_rules)
    }

    /// The robots' order over `pages`.
    fn order(&self, pages: &[usize], robots: u64) -> Order {
        match self.config.robot_order {
            RobotOrder::Cycle => Order::Cycle { next: 0 },
            RobotOrder::Merge => {
                // effective change rates; the robots' throughput as the capacity
                let share = self.config.effective_share();
                let lambda: Vec<f64> = pages.iter().map(|&i| self.config.change_rate(i) * share).collect();
                let repo = Repository::from_servers(&[lambda]);
                let mean_download = (self.config.download_min + self.config.download_max) as f64 / 2.0;
                let capacity = robots as f64 / mean_download;
                let f = allocate(&repo, AllocationKind::OptUnpolite, capacity, 1.0).f;
                let mut offsets = Stream::of(self.config.seed, Purpose::RobotOffsets, 0);
                let entries = (0..pages.len()).filter(|&k| f[k] > 0.0).map(|k| (offsets.uniform() / f[k], k as u32)).collect();
                Order::Merge { visits: VirtualVisits::from_entries(entries), f }
            }
        }
    }

    /// The run's pages in parts: the robots' list (if any pages are not sensed), then the
    /// shards of the sensed pages; a share of a split run has only its own parts. The
    /// parts are set up at the first slice, each on its thread.
    fn start(&self, run: Run) -> Group {
        let n = self.config.pages as usize;
        let (robots, sensed_count) = match run {
            Run::Concept(Concept::Robot) => (self.config.robots, 0),
            Run::Concept(Concept::Sensors) => (self.config.robots, self.config.sensed_pages() as usize),
            Run::Sweep(k) => (k, 0),
        };
        let share = match run {
            Run::Concept(Concept::Sensors) => self.config.sensed_parts.as_ref(),
            _ => None,
        };
        let mine = |k: usize| share.is_none_or(|own| own.contains(&(k as u64)));
        let record = || Record::new(self.config.horizon, self.config.sample_every);
        let mut parts = Vec::new();
        let robot_pages: Vec<usize> = (sensed_count..n).collect();
        let first_shard = usize::from(!robot_pages.is_empty());
        if !robot_pages.is_empty() && mine(0) {
            parts.push(Part::new(PartPages::Robot { pages: robot_pages, robots }, record()));
        }
        let shard = sensed_count.div_ceil(SENSED_SHARDS).max(1);
        for (k, first) in (0..sensed_count).step_by(shard).enumerate() {
            if mine(first_shard + k) {
                parts.push(Part::new(PartPages::Sensed(first..(first + shard).min(sensed_count)), record()));
            }
        }
        Group { run, robots, parts, overlap: Overlap::default(), log: share.map(|_| IntervalLog::default()) }
    }

    /// Units per slice: about `SLICE_EVENTS` events each (results do not depend on the
    /// slices: every measure is an integer), the units 0..=horizon in `slices` steps.
    fn slice(&self) -> u64 {
        (self.config.horizon + 1).div_ceil(self.config.slices(self.slice_events) as u64)
    }

    /// The result of a run in progress up to unit `now`: its parts added up; a share of a
    /// split run carries what it measured, for the join.
    fn result(&self, group: &Group, now: u64, complete: bool) -> ConceptResult {
        let mut piece = self.measured(group, now);
        let concept = match group.run {
            Run::Concept(c) => c,
            Run::Sweep(_) => Concept::Robot,
        };
        let most = if piece.sensed_pages == 0 { group.robots } else { group.overlap.most() };
        let mut result = conclude(&self.config, concept, group.robots, &piece, most, complete);
        if let Some(log) = &group.log {
            piece.downloads = log.bytes().to_vec();
            result.piece = Some(piece);
        }
        result
    }

    /// What the run's pages measured up to unit `now`, open fresh copies counted to it.
    fn measured(&self, group: &Group, now: u64) -> Piece {
        let mut record = Record::new(self.config.horizon, self.config.sample_every);
        let (mut notifications, mut lost) = (0, 0);
        for part in &group.parts {
            record.absorb(&part.record);
            notifications += part.totals.notifications;
            lost += part.totals.lost;
        }
        let watched = group.parts.iter().flat_map(|p| p.robot.iter().flat_map(|r| r.watched.iter()).chain(p.sensed.iter().map(|s| &s.watched)));
        for w in watched {
            w.copy.close(w.life.version, now + 1, &mut record);
        }
        let robot = group.parts.iter().find_map(|p| p.robot.as_ref());
        Piece {
            now,
            record,
            notifications,
            lost_notifications: lost,
            sensed_pages: group.parts.iter().map(|p| p.sensed.len() as u64).sum(),
            cycle_ends: robot.map(|r| r.cycle_ends.clone()).unwrap_or_default(),
            downloads: Vec::new(),
        }
    }
}

/// A run's result from what its pages measured up to `piece.now`, and the most
/// downloads at once (`most`).
pub fn conclude(config: &SensorsConfig, concept: Concept, robots: u64, piece: &Piece, most: u64, complete: bool) -> ConceptResult {
    let record = &piece.record;
    let pages = config.pages as f64;
    let samples = (piece.now / config.sample_every + 1) as usize;
    let freshness: Vec<f64> = record.counts().into_iter().take(samples).map(|c| c as f64 / pages).collect();
    let first = (config.stationary_from.div_ceil(config.sample_every) as usize).min(freshness.len());
    let stationary = &freshness[first..];
    // ten batch means: neighbouring samples are correlated
    let batches: Vec<f64> =
        if stationary.len() >= 10 { stationary.chunks(stationary.len().div_ceil(10)).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect() } else { stationary.to_vec() };
    let stationary_half_width = (batches.len() >= 2).then(|| mean_and_half_width(&batches).1);
    let stationary_mean = (!stationary.is_empty()).then(|| stationary.iter().sum::<f64>() / stationary.len() as f64);
    ConceptResult {
        concept,
        robots,
        freshness,
        complete,
        stationary_mean,
        stationary_half_width,
        downloads: record.downloads,
        useful_downloads: record.useful,
        bytes: record.bytes,
        waits: record.waits.spread(),
        changes_between_downloads: record.changes_between.spread(),
        max_concurrent: most,
        cycle_ends: piece.cycle_ends.clone(),
        notifications: piece.notifications,
        lost_notifications: piece.lost_notifications,
        ties: record.ties,
        events: record.events,
        sensed_pages: piece.sensed_pages,
        piece: None,
    }
}

/// The pieces of one run, from the parts of a run split by its sensed pages, joined:
/// their measures added up to the earliest part's unit, the downloads at once swept over
/// all of theirs up to it.
pub fn join_pieces(config: &SensorsConfig, pieces: &[&Piece], complete: bool) -> ConceptResult {
    let now = pieces.iter().map(|p| p.now).min().unwrap_or(0);
    let mut joined = Piece {
        now,
        record: Record::new(config.horizon, config.sample_every),
        notifications: 0,
        lost_notifications: 0,
        sensed_pages: 0,
        cycle_ends: Vec::new(),
        downloads: Vec::new(),
    };
    for piece in pieces {
        joined.record.absorb(&piece.record);
        joined.notifications += piece.notifications;
        joined.lost_notifications += piece.lost_notifications;
        joined.sensed_pages += piece.sensed_pages;
        joined.cycle_ends.extend(piece.cycle_ends.iter().copied().filter(|&end| end <= now));
    }
    let logs: Vec<&[u8]> = pieces.iter().map(|p| p.downloads.as_slice()).collect();
    let most = if joined.sensed_pages == 0 { config.robots } else { Overlap::of_logs(&logs, now) };
    conclude(config, Concept::Sensors, config.robots, &joined, most, complete)
}

impl Plan for SensorsJob {
    type Run = Running;
    type Output = SensorsOutput;

    /// The concepts together (they are independent), or the sweep's next robot count.
    fn begin(&mut self) -> Option<(Running, f64)> {
        let mut runs = Vec::new();
        while let Some(run) = self.runs.get_mut(self.next) {
            if !runs.is_empty() && (matches!(run, Run::Sweep(_)) || matches!(runs[0], Run::Sweep(_))) {
                break;
            }
            runs.push(std::mem::replace(run, Run::Sweep(0)));
            self.next += 1;
        }
        if runs.is_empty() {
            return None;
        }
        // the pages are set up in the first slice, which counts their work
        let setup = runs.len() as f64 * self.config.pages as f64;
        let groups = runs.into_iter().map(|run| self.start(run)).collect();
        Some((Running { groups, slices: 0, slice: self.slice(), setup }, 0.0))
    }

    /// One slice: every part of every run to the slice's end, on every thread allowed.
    fn step(&mut self, running: &mut Running) -> (f64, bool) {
        let horizon = self.config.horizon;
        running.slices += 1;
        let until = (running.slices * running.slice).min(horizon + 1);
        let events = |r: &Running| r.groups.iter().flat_map(|g| &g.parts).map(|p| p.record.events).sum::<u64>();
        let before = events(running);
        let mut parts: Vec<&mut Part> = running.groups.iter_mut().flat_map(|g| g.parts.iter_mut()).collect();
        let job = &*self;
        parallel::for_each(&mut parts, |part| {
            part.set_up(job);
            part.advance(until, &job.rules, &job.sensor_rules)
        });
        for group in running.groups.iter_mut() {
            let mut started: Vec<(u64, u64)> = group.parts.iter_mut().flat_map(|p| p.totals.busy.drain(..)).collect();
            match group.log.as_mut() {
                // sorted once, for the log and the sweep
                Some(log) => {
                    started.retain(|(a, b)| b > a);
                    started.sort_unstable();
                    log.extend(&started);
                    group.overlap.sweep_sorted(&started, until);
                }
                None => group.overlap.sweep(started, until),
            }
        }
        let setup = std::mem::take(&mut running.setup);
        ((events(running) - before) as f64 + setup, running.slices * running.slice > horizon)
    }

    fn end(&mut self, running: Running) {
        for group in &running.groups {
            let result = self.result(group, self.config.horizon, true);
            match group.run {
                Run::Concept(_) => self.output.results.push(result),
                Run::Sweep(k) => {
                    let weeks = self.config.horizon as f64 / self.config.week as f64;
                    self.output.sweep.push(SweepPoint { robots: k, stationary_mean: result.stationary_mean, bytes_per_week: result.bytes as f64 / weeks });
                }
            }
        }
    }

    /// Results so far, with the runs in progress up to where they have got.
    fn output(&self, running: Option<&Running>) -> SensorsOutput {
        let mut out = self.output.clone();
        if let Some(running) = running {
            let now = (running.slices * running.slice).min(self.config.horizon).saturating_sub(1);
            // a run shows once its pages are set up, in its first slice (begun with it)
            for group in running.groups.iter().filter(|g| matches!(g.run, Run::Concept(_)) && running.slices > 0) {
                out.results.push(self.result(group, now, false));
            }
        }
        out
    }

    /// The whole run's work, also for a part of a split run: the parts' fractions add up
    /// to the whole's (the page's pool sums them).
    fn total_work(&self) -> f64 {
        self.config.whole().cost().work
    }

    fn complete(&mut self) {
        self.output.done = true;
    }
}
