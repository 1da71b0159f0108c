//! Robots vs sensors (Zemskov 2002; spec §3): two ways of keeping an index fresh, run on
//! the same page histories. Each page's change and request streams come from its own
//! seeded stream, so both concepts see the same events without storing the log.

pub mod page;
pub mod record;
pub mod robot;
pub mod sensor;

use crate::alloc::{AllocationKind, allocate};
use crate::input::{InputError, check, count};
use crate::math::stats::mean_and_half_width;
use crate::model::repository::Repository;
use crate::rng::Stream;
use crate::sim::queue::EventQueue;
use page::{LifeRules, PageLife, Ties};
use record::{Copy, Record, Spread, max_overlap};
use robot::{Order, RobotRun, Watched};
use sensor::{SensedPage, SensorRules, SensorTotals};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Concept {
    Robot,
    Sensors,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RobotOrder {
    /// The list in a fixed order (the article).
    Cycle,
    /// MERGE's order for the optimal allocation of the robots' throughput to the pages'
    /// change rates [beyond].
    Merge,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SensorsConfig {
    pub pages: u64,
    /// Simulated time units (the article: 6,048,000, one week).
    pub horizon: u64,
    /// Units per week, the unit of the rates below.
    pub week: u64,
    pub changes_per_week: f64,
    pub requests_per_week: f64,
    pub size_min: u64,
    pub size_max: u64,
    pub download_min: u64,
    pub download_max: u64,
    pub notify_min: u64,
    pub notify_max: u64,
    /// Relative frequencies of state numbers 1–6 (normalised to sum to 1).
    pub states: [f64; 6],
    pub no_change_rules: bool,
    /// Zemskov's state 6 read the other way: drawing "available, unchanged" never counts
    /// as a change (the stated rule counts it after an error state). SPEC §3 asks for
    /// each plausible reading as an option.
    pub unchanged_never_changes: bool,
    pub ties: Ties,
    pub sample_every: u64,
    pub stationary_from: u64,
    pub concepts: Vec<Concept>,
    pub robots: u64,
    pub robot_order: RobotOrder,
    /// Change rates spread log-uniformly over [m/s, m·s] around their mean m (1: all equal).
    pub rate_spread: f64,
    /// Share of the pages that have a sensor; the robots cover the others.
    pub sensor_share: f64,
    pub notification_loss: f64,
    /// Extra robot runs with these numbers of robots, to see what bandwidth matches the
    /// sensors' freshness [beyond].
    pub robot_sweep: Vec<u64>,
    pub seed: u64,
}

impl Default for SensorsConfig {
    fn default() -> Self {
        SensorsConfig {
            pages: 200_000,
            horizon: 6_048_000,
            week: 6_048_000,
            changes_per_week: 6.0,
            requests_per_week: 70.0,
            size_min: 65,
            size_max: 122_880,
            download_min: 1,
            download_max: 40,
            notify_min: 1,
            notify_max: 3,
            states: [0.083, 0.125, 0.125, 0.25, 0.25, 0.166],
            no_change_rules: true,
            unchanged_never_changes: false,
            ties: Ties::ChangeFirst,
            sample_every: 10_000,
            stationary_from: 3_500_000,
            concepts: vec![Concept::Robot, Concept::Sensors],
            robots: 1,
            robot_order: RobotOrder::Cycle,
            rate_spread: 1.0,
            sensor_share: 1.0,
            notification_loss: 0.0,
            robot_sweep: Vec::new(),
            seed: 1,
        }
    }
}

/// What a browser tab, or this program, may use.
pub const MEMORY_LIMIT: u64 = if cfg!(target_arch = "wasm32") { 2 << 30 } else { 16 << 30 };

impl SensorsConfig {
    pub fn validate(&self) -> Result<(), InputError> {
        count("pages", self.pages, 1, 50_000_000, "that is beyond any machine this runs on")?;
        count("horizon", self.horizon, 1, 10_000_000_000, "a longer run takes days")?;
        count("week", self.week, 1, u64::MAX / 4, "")?;
        check("changes_per_week", self.changes_per_week)?.at_least(0.0)?.at_most(1e6)?;
        check("requests_per_week", self.requests_per_week)?.at_least(0.0)?.at_most(1e6)?;
        count("size_min", self.size_min, 0, u32::MAX as u64, "sizes are counted in 32 bits")?;
        count("size_max", self.size_max, self.size_min, u32::MAX as u64, "sizes are counted in 32 bits")?;
        count("download_min", self.download_min, 0, 1_000_000, "")?;
        count("download_max", self.download_max, self.download_min.max(1), 1_000_000, "")?;
        count("notify_min", self.notify_min, 0, 1_000_000, "")?;
        count("notify_max", self.notify_max, self.notify_min, 1_000_000, "")?;
        for (k, &p) in self.states.iter().enumerate() {
            check(&format!("states[{k}]"), p)?.at_least(0.0)?;
        }
        if self.states.iter().sum::<f64>() <= 0.0 {
            return Err(InputError::new("states", "at least one state must have a positive frequency"));
        }
        count("sample_every", self.sample_every, 1, self.horizon, "sample at least once")?;
        count("stationary_from", self.stationary_from, 0, self.horizon, "the stationary part must start before the horizon")?;
        if self.concepts.is_empty() && self.robot_sweep.is_empty() {
            return Err(InputError::new("concepts", "choose robot, sensors or both"));
        }
        count("robots", self.robots, 1, 10_000, "")?;
        check("rate_spread", self.rate_spread)?.at_least(1.0)?.at_most(1e6)?;
        check("sensor_share", self.sensor_share)?.at_least(0.0)?.at_most(1.0)?;
        check("notification_loss", self.notification_loss)?.at_least(0.0)?.at_most(1.0)?;
        for (k, &r) in self.robot_sweep.iter().enumerate() {
            count(&format!("robot_sweep[{k}]"), r, 1, 10_000, "")?;
        }
        if self.robot_sweep.len() > 16 {
            return Err(InputError::new("robot_sweep", "at most 16 values"));
        }
        let bytes = self.estimate_bytes();
        if bytes > MEMORY_LIMIT {
            return Err(InputError::new(
                "pages",
                format!(
                    "needs about {} MB, more than the {} MB {} can hold; use fewer pages",
                    bytes >> 20,
                    MEMORY_LIMIT >> 20,
                    if cfg!(target_arch = "wasm32") { "a browser tab" } else { "this program allows" }
                ),
            ));
        }
        Ok(())
    }

    /// Peak memory: the pages of one run (sensed pages are the larger), and the
    /// sensors' download intervals.
    pub fn estimate_bytes(&self) -> u64 {
        let sensed = SensedPage::BYTES + 8;
        let watched = Watched::BYTES;
        let weeks = self.horizon as f64 / self.week as f64;
        let downloads = (self.pages as f64 * self.changes_per_week * weeks * 1.2) as u64;
        self.pages * sensed.max(watched) + downloads * 16 + (self.horizon / self.sample_every) * 8
    }

    fn rules(&self) -> LifeRules {
        let total: f64 = self.states.iter().sum();
        let mut cumulative = [0.0; 6];
        let mut acc = 0.0;
        for k in 0..6 {
            acc += self.states[k] / total;
            cumulative[k] = acc;
        }
        cumulative[5] = 1.0;
        LifeRules {
            cumulative,
            no_change_rules: self.no_change_rules,
            unchanged_never_changes: self.unchanged_never_changes,
            size_min: self.size_min as u32,
            size_max: self.size_max as u32,
        }
    }

    /// The probability that a change event changes the page (draws are independent).
    fn effective_share(&self) -> f64 {
        let total: f64 = self.states.iter().sum();
        let p: Vec<f64> = self.states.iter().map(|s| s / total).collect();
        if !self.no_change_rules {
            return 1.0;
        }
        if self.unchanged_never_changes {
            return 1.0 - (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[5]);
        }
        1.0 - (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[5] * p[5] + (p[3] + p[4]) * p[5])
    }

    /// Change events per unit of page `i` (log-uniform spread around the mean).
    fn change_rate(&self, i: usize) -> f64 {
        let mean = self.changes_per_week / self.week as f64;
        if self.rate_spread == 1.0 {
            return mean;
        }
        let s = self.rate_spread;
        let log_span = 2.0 * crate::math::elementary::ln(s);
        let u = Stream::new(self.seed, 0x5350_5245_4144_0000 ^ i as u64).uniform();
        // normalised so that the mean over pages is `mean`
        let factor_mean = (s - 1.0 / s) / log_span;
        mean * crate::math::elementary::exp(-log_span / 2.0 + u * log_span) / factor_mean
    }

    fn sensed_pages(&self) -> u64 {
        (self.sensor_share * self.pages as f64).round() as u64
    }
}

/// The article's figures (§6.2), shown beside Freshlab's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Published {
    pub robot_freshness: f64,
    pub sensor_freshness: f64,
    pub robot_bytes: u64,
    pub sensor_bytes: u64,
    pub robot_cycle_ends: Vec<u64>,
    pub robot_wait: Spread,
    pub sensor_wait: Spread,
    pub max_notifications: u64,
    /// Hours of computing: building the event log, the robot run, the sensor run.
    pub hours: [f64; 3],
}

pub fn published() -> Published {
    Published {
        robot_freshness: 0.407,
        sensor_freshness: 0.936,
        robot_bytes: 16_186_441_922,
        sensor_bytes: 33_168_534_243,
        robot_cycle_ends: vec![3_122_177, 5_876_590],
        robot_wait: Spread { count: 0, min: 4, mean: 1_642_301.8, max: 3_119_397 },
        sensor_wait: Spread { count: 0, min: 1, mean: 85_179.4, max: 1_104_508 },
        max_notifications: 12,
        hours: [27.0 + 8.0 / 60.0, 1.0 + 10.0 / 60.0, 7.0 + 4.0 / 60.0],
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConceptResult {
    pub concept: Concept,
    pub robots: u64,
    /// Share of pages fresh at each sample (fewer samples while running).
    pub freshness: Vec<f64>,
    pub complete: bool,
    /// Mean freshness over the stationary part, and its 95 % half-width (ten batch
    /// means); none before the run reaches it.
    pub stationary_mean: Option<f64>,
    pub stationary_half_width: Option<f64>,
    pub downloads: u64,
    pub useful_downloads: u64,
    pub bytes: u64,
    /// From a page's first unrecorded change to its download's completion (robot) or
    /// start (sensors); episodes still open at the horizon are not counted.
    pub waits: Spread,
    /// Changes between consecutive downloads of a page; all but the last of each are
    /// versions the repository never held.
    pub changes_between_downloads: Spread,
    /// Robots' downloads in progress at most at once (sensors: notifications handled).
    pub max_concurrent: u64,
    pub cycle_ends: Vec<u64>,
    pub notifications: u64,
    pub lost_notifications: u64,
    /// A change in the same unit as an observation (resolved by `ties`).
    pub ties: u64,
    /// Events processed: changes, requests, notifications, downloads.
    pub events: u64,
    pub sensed_pages: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub robots: u64,
    pub stationary_mean: Option<f64>,
    pub bytes_per_week: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SensorsOutput {
    pub config: SensorsConfig,
    pub published: Published,
    /// Probability that a change event changes the page.
    pub effective_share: f64,
    pub estimate_bytes: u64,
    pub results: Vec<ConceptResult>,
    pub sweep: Vec<SweepPoint>,
    pub done: bool,
}

enum Run {
    Concept(Concept),
    Sweep(u64),
}

/// A run in progress: the robots' pages and the sensed pages.
struct Running {
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
    running: Option<Running>,
    output: SensorsOutput,
    work: f64,
}

const CHANGES: u64 = 0x4348_0000_0000_0000;
const REQUESTS: u64 = 0x5245_0000_0000_0000;
const DRAWS: u64 = 0x4452_0000_0000_0000;
const OFFSETS: u64 = 0x4F46_0000_0000_0000;
/// Events per slice of a run (the granularity of progress and cancellation).
const SLICE_EVENTS: f64 = 300_000.0;

impl SensorsJob {
    pub fn new(config: SensorsConfig) -> Result<Self, InputError> {
        config.validate()?;
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
        Ok(SensorsJob { rules: config.rules(), sensor_rules, config, runs, next: 0, running: None, output, work: 0.0 })
    }

    fn watched(&self, i: usize) -> Watched {
        Watched { life: PageLife::new(Stream::new(self.config.seed, CHANGES ^ i as u64), &self.rules, self.config.change_rate(i)), copy: Copy::new() }
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
                let mut offsets = Stream::new(self.config.seed, OFFSETS);
                let entries = (0..pages.len()).filter(|&k| f[k] > 0.0).map(|k| (offsets.uniform() / f[k], k as u32)).collect();
                Order::Merge { heap: EventQueue::from_entries(entries), f }
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
            .map(|i| SensedPage::new(self.watched(i), Stream::new(self.config.seed, REQUESTS ^ i as u64), Stream::new(self.config.seed, DRAWS ^ i as u64), &self.sensor_rules))
            .collect();
        let weeks = self.config.horizon as f64 / self.config.week as f64;
        let events = n as f64 * weeks * (self.config.changes_per_week + self.config.requests_per_week) + 1.0;
        let count = (events / SLICE_EVENTS).ceil().clamp(1.0, self.config.horizon as f64);
        let slice = (self.config.horizon as f64 / count).ceil() as u64;
        self.work += n as f64;
        Running { run, robots, robot, sensed, totals: SensorTotals::default(), record: Record::new(self.config.horizon, self.config.sample_every), slices: 0, slice }
    }

    /// One slice of the run in progress: every page advances to the slice's end.
    fn step(&mut self) {
        let horizon = self.config.horizon;
        let running = self.running.as_mut().expect("a run");
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
        self.work += (running.record.events - before) as f64;
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

    pub fn advance(&mut self, budget: u64) -> f64 {
        let mut left = budget as f64;
        while left > 0.0 && !self.done() {
            if self.running.is_none() {
                let run = std::mem::replace(&mut self.runs[self.next], Run::Sweep(0));
                self.next += 1;
                self.running = Some(self.start(run));
                left -= self.config.pages as f64;
                continue;
            }
            let before = self.work;
            self.step();
            left -= (self.work - before).max(1.0);
            let running = self.running.as_ref().expect("a run");
            if running.slices * running.slice > self.config.horizon {
                let running = self.running.take().expect("a run");
                let result = self.result(&running, self.config.horizon, true);
                match running.run {
                    Run::Concept(_) => self.output.results.push(result),
                    Run::Sweep(k) => {
                        let weeks = self.config.horizon as f64 / self.config.week as f64;
                        self.output.sweep.push(SweepPoint { robots: k, stationary_mean: result.stationary_mean, bytes_per_week: result.bytes as f64 / weeks });
                    }
                }
            }
        }
        self.output.done = self.done();
        self.progress()
    }

    fn progress(&self) -> f64 {
        if self.done() {
            return 1.0;
        }
        let weeks = self.config.horizon as f64 / self.config.week as f64;
        let per_run = self.config.pages as f64 * (1.0 + weeks * (self.config.changes_per_week + self.config.requests_per_week));
        (self.work / (per_run * self.runs.len() as f64)).clamp(0.0, 0.999)
    }

    pub fn done(&self) -> bool {
        self.running.is_none() && self.next >= self.runs.len()
    }

    /// Results so far, with the run in progress up to where it has got.
    pub fn partial(&self) -> SensorsOutput {
        let mut out = self.output.clone();
        if let Some(running) = &self.running {
            if let Run::Concept(_) = running.run {
                let now = (running.slices * running.slice).min(self.config.horizon).saturating_sub(1);
                out.results.push(self.result(running, now, false));
            }
        }
        out
    }

    pub fn finish(mut self) -> SensorsOutput {
        while !self.done() {
            self.advance(u64::MAX / 4);
        }
        self.output
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn run(config: SensorsConfig) -> SensorsOutput {
        SensorsJob::new(config).unwrap().finish()
    }

    fn small() -> SensorsConfig {
        SensorsConfig { pages: 2000, horizon: 600_000, week: 600_000, sample_every: 1000, stationary_from: 300_000, ..Default::default() }
    }

    fn get(out: &SensorsOutput, c: Concept) -> &ConceptResult {
        out.results.iter().find(|r| r.concept == c).unwrap()
    }

    /// No changes: every copy stays fresh; the robot's fixed 10-unit downloads make its
    /// cycles end at exact multiples of 10·N (units 0 to the horizon, inclusive); the
    /// sensors never notify.
    #[test]
    fn a_world_without_changes_has_known_answers() {
        let out =
            run(SensorsConfig { pages: 100, horizon: 10_000, sample_every: 100, stationary_from: 5000, changes_per_week: 0.0, download_min: 10, download_max: 10, ..small() });
        let robot = get(&out, Concept::Robot);
        assert_eq!(robot.cycle_ends, (1..=10).map(|k| k * 1000).collect::<Vec<u64>>());
        assert!(robot.freshness.iter().all(|&f| f == 1.0));
        assert_eq!(robot.useful_downloads, 0);
        assert_eq!(robot.downloads, 1000, "a download every 10 units, the last ending at the horizon");
        let sizes: u64 = (0..100).map(|i| PageLife::new(Stream::new(1, CHANGES ^ i), &SensorsConfig::default().rules(), 0.0).size as u64).sum();
        assert_eq!(robot.bytes, 10 * sizes);
        let sensors = get(&out, Concept::Sensors);
        assert_eq!((sensors.notifications, sensors.downloads, sensors.bytes), (0, 0, 0));
        assert!(sensors.freshness.iter().all(|&f| f == 1.0));
    }

    /// Without requests the sensors see nothing: each page stays fresh until its first
    /// effective change, so freshness follows e^{−μ' t}.
    #[test]
    fn silent_sensors_let_freshness_decay_exponentially() {
        let config = SensorsConfig { pages: 20_000, requests_per_week: 0.0, concepts: vec![Concept::Sensors], ..small() };
        let mu = config.changes_per_week / config.week as f64 * config.effective_share();
        let out = run(config);
        let f = &get(&out, Concept::Sensors).freshness;
        for k in [50, 100, 300, 600] {
            let want = (-mu * (k * 1000) as f64).exp();
            let sd = (want * (1.0 - want) / 20_000.0).sqrt();
            assert!((f[k] - want).abs() < 4.5 * sd + 1e-9, "t = {}: {} vs {want}", k * 1000, f[k]);
        }
    }

    /// With every change event effective and no error state, the robot revisits each page
    /// once per cycle T, and its stationary freshness is (1 − e^{−μT})/(μT).
    #[test]
    fn the_robot_matches_the_closed_form_of_cyclic_revisits() {
        let config = SensorsConfig {
            pages: 5000,
            no_change_rules: false,
            states: [0.0, 0.0, 0.0, 0.5, 0.5, 0.0],
            concepts: vec![Concept::Robot],
            horizon: 3_000_000,
            week: 600_000,
            stationary_from: 800_000,
            ..small()
        };
        let mu = config.changes_per_week / config.week as f64;
        let out = run(config);
        let r = get(&out, Concept::Robot);
        let ends = &r.cycle_ends;
        let t = (ends[ends.len() - 1] - ends[0]) as f64 / (ends.len() - 1) as f64;
        let want = crate::math::freshness::a_star_ratio(mu * t);
        let (mean, half) = (r.stationary_mean.unwrap(), r.stationary_half_width.unwrap());
        assert!((mean - want).abs() <= half.max(2e-3), "{mean} ± {half} vs {want} (T = {t})");
    }

    #[test]
    fn losing_notifications_costs_freshness_and_sensing_half_the_pages_lies_between() {
        let base = small();
        let full = get(&run(base.clone()), Concept::Sensors).stationary_mean.unwrap();
        let lossy = get(&run(SensorsConfig { notification_loss: 0.5, ..base.clone() }), Concept::Sensors).clone();
        assert!(lossy.stationary_mean.unwrap() < full - 0.05);
        assert!(lossy.lost_notifications > lossy.notifications / 3);
        // half the pages sensed, the robot covering the other half twice as often
        let out = run(SensorsConfig { sensor_share: 0.5, ..base });
        let (robot, half) = (get(&out, Concept::Robot).stationary_mean.unwrap(), get(&out, Concept::Sensors).stationary_mean.unwrap());
        assert!(robot < half, "{robot} < {half}");
        assert_eq!(get(&out, Concept::Sensors).sensed_pages, 1000);
    }

    #[test]
    fn a_smart_robot_beats_the_cycle_when_rates_differ() {
        let base = SensorsConfig { rate_spread: 30.0, concepts: vec![Concept::Robot], ..small() };
        let cycle = get(&run(base.clone()), Concept::Robot).stationary_mean.unwrap();
        let merge = get(&run(SensorsConfig { robot_order: RobotOrder::Merge, ..base }), Concept::Robot).stationary_mean.unwrap();
        assert!(merge > cycle + 0.02, "MERGE {merge} vs cycle {cycle}");
    }

    #[test]
    fn more_robots_are_fresher_and_the_sweep_reports_them() {
        let out = run(SensorsConfig { concepts: vec![Concept::Sensors], robot_sweep: vec![1, 4, 16], ..small() });
        let means: Vec<f64> = out.sweep.iter().map(|p| p.stationary_mean.unwrap()).collect();
        assert!(means.windows(2).all(|w| w[0] < w[1]), "{means:?}");
        assert!(out.sweep[2].bytes_per_week > 3.0 * out.sweep[0].bytes_per_week);
    }

    #[test]
    fn slicing_and_partials_do_not_change_a_bit() {
        let config = small();
        let mut job = SensorsJob::new(config.clone()).unwrap();
        job.advance(1);
        let partial = job.partial();
        assert!(!partial.done && !partial.results.is_empty() && !partial.results[0].complete);
        let mut budget = 12_345;
        while !job.done() {
            job.advance(budget);
            budget = budget * 7 % 900_001 + 1;
        }
        assert_eq!(job.finish(), run(config));
    }

    #[cfg(target_pointer_width = "64")]
    #[test]
    fn the_stated_size_covers_the_layout() {
        assert!(std::mem::size_of::<Watched>() as u64 + 8 <= Watched::BYTES);
    }

    #[test]
    fn bad_input_is_refused() {
        let bad = |c: SensorsConfig| SensorsJob::new(c).err().unwrap().field;
        let d = small;
        assert_eq!(bad(SensorsConfig { pages: 0, ..d() }), "pages");
        assert_eq!(bad(SensorsConfig { download_max: 0, ..d() }), "download_max");
        assert_eq!(bad(SensorsConfig { states: [0.0; 6], ..d() }), "states");
        assert_eq!(bad(SensorsConfig { states: [0.1, -0.1, 0.2, 0.2, 0.2, 0.2], ..d() }), "states[1]");
        assert_eq!(bad(SensorsConfig { stationary_from: 700_000, ..d() }), "stationary_from");
        assert_eq!(bad(SensorsConfig { notification_loss: 2.0, ..d() }), "notification_loss");
        assert_eq!(bad(SensorsConfig { concepts: vec![], ..d() }), "concepts");
    }
}
