//! The robots-vs-sensors experiment's configuration: the article's model and its
//! readings, the concepts to run and the settings beyond the article; validation (its
//! cost: cost.rs).

use super::page::{LifeRules, Ties};
use crate::core::field::settings;
use crate::core::input::{InputError, count, distinct, not_below};
use crate::core::labels::labelled;
use crate::core::limits::Cost;
use crate::core::math::elementary::{exp, ln};
use crate::core::rng::{Purpose, Stream};
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

labelled! {
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Concept {
    Robot => "robot",
    Sensors => "sensors",
}
}

labelled! {
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RobotOrder {
    /// The list in a fixed order (the article).
    Cycle => "the list, over and over",
    /// MERGE's order for the optimal allocation of the robots' throughput to the pages'
    /// change rates [beyond].
    Merge => "MERGE with an optimal allocation",
}
}

settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SensorsConfig {
    pub concepts: Vec<Concept> = vec![Concept::Robot, Concept::Sensors]; choices("concepts simulated");
    pub pages: u64 = 200_000; integer("pages").help("the article: 200,000").count(1, 50_000_000).why("that is beyond any machine this runs on");
    /// Simulated time units (the article: 6,048,000, one week).
    pub horizon: u64 = 6_048_000; integer("time units simulated").help("the article: 6,048,000 (one week)").count(1, 10_000_000_000).why("a longer run takes days");
    /// Units per week, the unit of the rates below.
    pub week: u64 = 6_048_000; integer("units per week").count(1, u64::MAX / 4);
    pub changes_per_week: f64 = 6.0; number("changes per page per week").at_least(0.0).at_most(1e6);
    pub requests_per_week: f64 = 70.0; number("requests per page per week").at_least(0.0).at_most(1e6);
    /// Download times from `download_min` to `download_max` units (not below: a rule).
    pub download_min: u64 = 1; integer("download time from (units)").count(0, 1_000_000);
    pub download_max: u64 = 40; integer("download time to (units)").count(1, 1_000_000);
    pub notify_min: u64 = 1; integer("notification delay from").count(0, 1_000_000);
    pub notify_max: u64 = 3; integer("notification delay to").count(0, 1_000_000);
    /// Page sizes, counted in 32 bits.
    pub size_min: u64 = 65; integer("page size from (bytes)").count(0, u32::MAX as u64).why("sizes are counted in 32 bits");
    pub size_max: u64 = 122_880; integer("page size to (bytes)").count(0, u32::MAX as u64).why("sizes are counted in 32 bits");
    /// Relative frequencies of state numbers 1–6 (normalised to sum to 1).
    pub states: [f64; 6] = [0.083, 0.125, 0.125, 0.25, 0.25, 0.166]; list("state frequencies 1–6").help("403, 404, 500, smaller, larger, unchanged").at_least(0.0);
    pub no_change_rules: bool = true; bool("apply the no-change rules");
    /// Zemskov's state 6 read the other way: drawing "available, unchanged" never counts
    /// as a change (the stated rule counts it after an error state): each plausible
    /// reading is an option (docs/model.md, robots and sensors).
    pub unchanged_never_changes: bool = false;
        bool("state 6 (unchanged) never counts as a change").help("the other reading: not even after an error state");
    pub ties: Ties = Ties::ChangeFirst; select("a change and an observation in one unit");
    /// At most the horizon (a rule), as is `stationary_from`.
    pub sample_every: u64 = 10_000; integer("sample freshness every (units)");
    pub stationary_from: u64 = 3_500_000; integer("stationary from (unit)");
    pub robots: u64 = 1; integer("robots").count(1, 10_000);
    pub robot_order: RobotOrder = RobotOrder::Cycle; select("robots’ order");
    /// Change rates spread log-uniformly over [m/s, m·s] around their mean m (1: all equal).
    pub rate_spread: f64 = 1.0; number("spread of change rates").help("1: all pages alike; 10: rates within ×/÷10").at_least(1.0).at_most(1e6);
    /// Share of the pages that have a sensor; the robots cover the others.
    pub sensor_share: f64 = 1.0; number("share of pages with a sensor").help("the robots cover the rest").at_least(0.0).at_most(1.0);
    pub notification_loss: f64 = 0.0; number("share of notifications lost").at_least(0.0).at_most(1.0);
    /// Extra robot runs with these numbers of robots, to see what bandwidth matches the
    /// sensors' freshness [beyond].
    pub robot_sweep: Vec<u64> = Vec::new(); list("robot counts to try").help("for the bandwidth chart").count(1, 10_000);
    pub seed: u64 = 1; seed();
    /// The runs this part of a split run does (the page's pool of workers, the CLI's
    /// `--part`), numbered concept by concept, then robot count by robot count of the
    /// sweep; absent: all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only_runs: Option<Vec<u64>> = None; internal;
    /// The parts of the sensors' run this part of a split run does, numbered from 0: the
    /// robots' list of the pages without a sensor (when some have none), then the shards
    /// of the sensed pages; absent: all of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensed_parts: Option<Vec<u64>> = None; internal;
}
}

impl SensorsConfig {
    /// The whole experiment's runs: the concepts, then the sweep's robot counts.
    pub fn runs(&self) -> usize {
        self.concepts.len() + self.robot_sweep.len()
    }

    /// Whether this configuration (the whole, or a part of a split run) does run `k`.
    pub fn does(&self, k: usize) -> bool {
        self.only_runs.as_ref().is_none_or(|only| only.contains(&(k as u64)))
    }

    /// The concepts this configuration runs.
    pub fn own_concepts(&self) -> Vec<Concept> {
        self.concepts.iter().enumerate().filter(|&(k, _)| self.does(k)).map(|(_, &c)| c).collect()
    }

    /// The sweep's robot counts this configuration runs.
    pub fn own_sweep(&self) -> Vec<u64> {
        let first = self.concepts.len();
        self.robot_sweep.iter().enumerate().filter(|&(k, _)| self.does(first + k)).map(|(_, &r)| r).collect()
    }

    pub fn rules(&self) -> LifeRules {
        let total: f64 = self.states.iter().sum();
        let mut cumulative = [0.0; 6];
        let mut acc = 0.0;
        for (c, &state) in cumulative.iter_mut().zip(&self.states) {
            acc += state / total;
            *c = acc;
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
    pub fn effective_share(&self) -> f64 {
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
    pub fn change_rate(&self, i: usize) -> f64 {
        if self.rate_spread == 1.0 {
            return self.rate_at(0.5);
        }
        self.rate_at(Stream::of(self.seed, Purpose::RateSpread, i as u64).uniform())
    }

    /// The change rate at quantile `u` of the log-uniform spread, normalised so that the
    /// mean over pages is the configured one.
    pub(super) fn rate_at(&self, u: f64) -> f64 {
        let mean = self.changes_per_week / self.week as f64;
        if self.rate_spread == 1.0 {
            return mean;
        }
        let s = self.rate_spread;
        let log_span = 2.0 * ln(s);
        let factor_mean = (s - 1.0 / s) / log_span;
        mean * exp(-log_span / 2.0 + u * log_span) / factor_mean
    }

    pub fn sensed_pages(&self) -> u64 {
        // at most the pages even for a share the checks refuse (over 1): the cost of any
        // configuration is computed before its checks (the fuzz campaign's case 3,681:
        // a share of 1.9 made the cost subtract past 0)
        ((self.sensor_share * self.pages as f64).round() as u64).min(self.pages)
    }
}

impl Settings for SensorsConfig {
    fn rules(&self) -> Result<(), InputError> {
        not_below("size_min", self.size_min, "size_max", self.size_max, u32::MAX as u64)?;
        not_below("download_min", self.download_min, "download_max", self.download_max, 1_000_000)?;
        not_below("notify_min", self.notify_min, "notify_max", self.notify_max, 1_000_000)?;
        if self.states.iter().sum::<f64>() <= 0.0 {
            return Err(InputError::new("states", "at least one state must have a positive frequency"));
        }
        count("sample_every", self.sample_every, 1, self.horizon, "sample at least once")?;
        count("stationary_from", self.stationary_from, 0, self.horizon, "the stationary part must start before the horizon")?;
        distinct("concepts", &self.concepts)?;
        distinct("robot_sweep", &self.robot_sweep)?;
        if self.concepts.is_empty() && self.robot_sweep.is_empty() {
            return Err(InputError::new("concepts", "choose robot, sensors or both"));
        }
        if self.robot_sweep.len() > 16 {
            return Err(InputError::new("robot_sweep", "at most 16 values"));
        }
        if let Some(only) = &self.only_runs {
            let total = self.runs() as u64;
            if let Some((k, &r)) = only.iter().enumerate().find(|(_, r)| **r >= total) {
                return Err(InputError::new(format!("only_runs[{k}]"), format!("must be below the number of runs, {total} (got {r}); leave only_runs out to do them all")));
            }
            distinct("only_runs", only)?;
            if only.is_empty() {
                return Err(InputError::new("only_runs", "name at least one run, or leave only_runs out to do them all"));
            }
        }
        if let Some(own) = &self.sensed_parts {
            let total = self.sensed_pieces().len() as u64;
            if let Some((k, &p)) = own.iter().enumerate().find(|(_, p)| **p >= total) {
                return Err(InputError::new(
                    format!("sensed_parts[{k}]"),
                    format!("must be below the sensors' run's number of parts, {total} (got {p}); leave sensed_parts out to do them all"),
                ));
            }
            distinct("sensed_parts", own)?;
            if own.is_empty() || !self.own_concepts().contains(&Concept::Sensors) {
                return Err(InputError::new(
                    "sensed_parts",
                    "parts of the sensors' run need the sensors concept among this part's runs and at least one part; leave sensed_parts out",
                ));
            }
        }
        Ok(())
    }

    /// Work (events), peak memory and time of the experiment (cost.rs).
    fn cost(&self) -> Cost {
        self.estimate()
    }
}
