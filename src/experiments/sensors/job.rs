//! The robots-vs-sensors job: each concept (and each robot count of the sweep) in turn,
//! every page advancing through fixed slices of time units.

use super::config::{Concept, RobotOrder, SensorsConfig};
use super::output::{ConceptResult, SensorsOutput, SweepPoint, published};
use super::page::{LifeRules, PageLife};
use super::record::{Record, Replica, max_overlap};
use super::robot::{Order, RobotRun, Watched};
use super::sensor::{SensedPage, SensorRules, SensorTotals};
use crate::core::alloc::{AllocationKind, allocate};
use crate::core::math::stats::mean_and_half_width;
use crate::core::model::repository::Repository;
use crate::core::policy::VirtualVisits;
use crate::core::rng::{Purpose, Stream};
use crate::experiments::Plan;
use crate::experiments::Settings;

enum Run {
    Concept(Concept),
    Sweep(u64),
}

/// A run in progress: the robots' pages and the sensed pages.
pub struct Running {
    run: Run,
    robots: u64,
    robot: Option<RobotRun>,
    sensed: Vec<SensedPage>,
    totals: SensorTotals,
    record: Record,
    slices: u64,
    slice: u64,
}

pub struct SensorsJob {
    config: SensorsConfig,
    rules: LifeRules,
    sensor_rules: SensorRules,
    runs: Vec<Run>,
    next: usize,
    output: SensorsOutput,
}

/// Events per slice of a run (the granularity of progress and cancellation).
const SLICE_EVENTS: f64 = 300_000.0;

impl SensorsJob {
    pub fn new(config: SensorsConfig) -> Self {
        let mut runs: Vec<Run> = config.concepts.iter().map(|&c| Run::Concept(c)).collect();
        runs.extend(config.robot_sweep.iter().map(|&k| Run::Sweep(k)));
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
        SensorsJob { rules: config.rules(), sensor_rules, config, runs, next: 0, output }
    }

    fn watched(&self, i: usize) -> Watched {
        Watched { life: PageLife::new(Stream::of(self.config.seed, Purpose::PageChanges, i as u64), &self.rules, self.config.change_rate(i)), copy: Replica::new() }
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

    fn start(&mut self, run: Run) -> Running {
        let n = self.config.pages as usize;
        let (robots, sensed_count) = match run {
            Run::Concept(Concept::Robot) => (self.config.robots, 0),
            Run::Concept(Concept::Sensors) => (self.config.robots, self.config.sensed_pages() as usize),
            Run::Sweep(k) => (k, 0),
        };
        let robot_pages: Vec<usize> = (sensed_count..n).collect();
        let robot = (!robot_pages.is_empty()).then(|| {
            let watched = robot_pages.iter().map(|&i| self.watched(i)).collect();
            let order = self.order(&robot_pages, robots);
            RobotRun::new(robot_pages, watched, robots as usize, order, self.config.seed, self.config.ties, (self.config.download_min, self.config.download_max))
        });
        let sensed = (0..sensed_count)
            .map(|i| {
                SensedPage::new(
                    self.watched(i),
                    Stream::of(self.config.seed, Purpose::PageRequests, i as u64),
                    Stream::of(self.config.seed, Purpose::SensorDraws, i as u64),
                    &self.sensor_rules,
                )
            })
            .collect();
        let weeks = self.config.horizon as f64 / self.config.week as f64;
        let events = n as f64 * weeks * (self.config.changes_per_week + self.config.requests_per_week) + 1.0;
        let count = (events / SLICE_EVENTS).ceil().clamp(1.0, self.config.horizon as f64);
        let slice = (self.config.horizon as f64 / count).ceil() as u64;
        Running { run, robots, robot, sensed, totals: SensorTotals::default(), record: Record::new(self.config.horizon, self.config.sample_every), slices: 0, slice }
    }

    /// The result of the run in progress up to unit `now`.
    fn result(&self, running: &Running, now: u64, complete: bool) -> ConceptResult {
        let mut record = running.record.clone();
        let watched = running.robot.iter().flat_map(|r| r.watched.iter()).chain(running.sensed.iter().map(|p| &p.watched));
        for w in watched {
            w.copy.close(w.life.version, now + 1, &mut record);
        }
        let pages = self.config.pages as f64;
        let samples = (now / self.config.sample_every + 1) as usize;
        let freshness: Vec<f64> = record.counts().into_iter().take(samples).map(|c| c as f64 / pages).collect();
        let first = (self.config.stationary_from.div_ceil(self.config.sample_every) as usize).min(freshness.len());
        let stationary = &freshness[first..];
        // ten batch means: neighbouring samples are correlated
        let batches: Vec<f64> =
            if stationary.len() >= 10 { stationary.chunks(stationary.len().div_ceil(10)).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect() } else { stationary.to_vec() };
        let stationary_half_width = (batches.len() >= 2).then(|| mean_and_half_width(&batches).1);
        let stationary_mean = (!stationary.is_empty()).then(|| stationary.iter().sum::<f64>() / stationary.len() as f64);
        ConceptResult {
            concept: match running.run {
                Run::Concept(c) => c,
                Run::Sweep(_) => Concept::Robot,
            },
            robots: running.robots,
            freshness,
            complete,
            stationary_mean,
            stationary_half_width,
            downloads: record.downloads,
            useful_downloads: record.useful,
            bytes: record.bytes,
            waits: record.waits.spread(),
            changes_between_downloads: record.changes_between.spread(),
            max_concurrent: if running.sensed.is_empty() { running.robots } else { max_overlap(&running.totals.busy) },
            cycle_ends: running.robot.as_ref().map(|r| r.cycle_ends.clone()).unwrap_or_default(),
            notifications: running.totals.notifications,
            lost_notifications: running.totals.lost,
            ties: record.ties,
            events: record.events,
            sensed_pages: running.sensed.len() as u64,
        }
    }
}

impl Plan for SensorsJob {
    type Run = Running;
    type Output = SensorsOutput;

    fn begin(&mut self) -> Option<(Running, f64)> {
        let run = std::mem::replace(self.runs.get_mut(self.next)?, Run::Sweep(0));
        self.next += 1;
        Some((self.start(run), self.config.pages as f64))
    }

    /// One slice of the run in progress: every page advances to the slice's end.
    fn step(&mut self, running: &mut Running) -> (f64, bool) {
        let horizon = self.config.horizon;
        running.slices += 1;
        let until = (running.slices * running.slice).min(horizon + 1);
        let before = running.record.events;
        if let Some(robot) = running.robot.as_mut() {
            robot.advance(until, &self.rules, &mut running.record);
            for w in robot.watched.iter_mut() {
                w.catch_up(until, &self.rules, &mut running.record);
            }
        }
        for page in running.sensed.iter_mut() {
            page.advance(until, &self.rules, &self.sensor_rules, &mut running.record, &mut running.totals);
            page.watched.catch_up(until, &self.rules, &mut running.record);
        }
        ((running.record.events - before) as f64, running.slices * running.slice > horizon)
    }

    fn end(&mut self, running: Running) {
        let result = self.result(&running, self.config.horizon, true);
        match running.run {
            Run::Concept(_) => self.output.results.push(result),
            Run::Sweep(k) => {
                let weeks = self.config.horizon as f64 / self.config.week as f64;
                self.output.sweep.push(SweepPoint { robots: k, stationary_mean: result.stationary_mean, bytes_per_week: result.bytes as f64 / weeks });
            }
        }
    }

    /// Results so far, with the run in progress up to where it has got.
    fn output(&self, running: Option<&Running>) -> SensorsOutput {
        let mut out = self.output.clone();
        if let Some(running) = running {
            if let Run::Concept(_) = running.run {
                let now = (running.slices * running.slice).min(self.config.horizon).saturating_sub(1);
                out.results.push(self.result(running, now, false));
            }
        }
        out
    }

    fn total_work(&self) -> f64 {
        self.config.cost().work
    }

    fn complete(&mut self) {
        self.output.done = true;
    }
}
