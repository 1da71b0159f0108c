//! The robots-vs-sensors experiment's results, and the article's figures beside them.

use super::config::Concept;
use super::config::SensorsConfig;
use super::record::{Record, Spread};
use serde::{Deserialize, Serialize};

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
    /// What a share of the run's pages measured, for the join (a part of a run split by
    /// its sensed pages; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
}

/// What some of a run's pages measured up to a unit, in integers: the pages of a run
/// are counted apart and added up, in one run or across the parts of a split one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// The last unit counted.
    pub now: u64,
    pub record: Record,
    pub notifications: u64,
    pub lost_notifications: u64,
    pub sensed_pages: u64,
    pub cycle_ends: Vec<u64>,
    /// The sensors' downloads [arrival, completion), in order (an [`super::record::IntervalLog`]).
    #[serde(with = "serde_bytes")]
    pub downloads: Vec<u8>,
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
