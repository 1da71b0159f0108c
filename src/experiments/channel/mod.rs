//! Experiment 3 of the view (spec §1.5, Lemma 5.10): requests counted in windows of
//! fixed length, with per-page equally spaced revisits (n = pages) and per-server
//! equally spaced requests (n = servers), against the Eq 5-11 bound for each n.

use crate::core::alloc::{AllocationKind, allocate};
use crate::core::field::settings;
use crate::core::input::InputError;
use crate::core::math::bursts::{burst_bound, expected_requests};
use crate::core::model::webbase::{RepositoryConfig, generate};
use crate::core::rng::{Purpose, Stream};
use crate::core::units::Seconds;
use crate::experiments::Settings;
pub mod figures;
pub mod table;
#[cfg(test)]
mod tests;

use super::{Experiment, Job, ready};
use crate::core::limits::{Cost, Fix};
use serde::{Deserialize, Serialize};

settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChannelConfig {
    /// Total frequency C as a share of the maximum #servers / P (OPT_POLITE allocation).
    pub capacity: f64 = 0.5; number("C as a share of the maximum").positive().at_most(1.0);
    /// Expected requests in a window, E[X_t] = t·C, which fixes the window length t.
    pub window_requests: f64 = 500.0; number("expected requests per window").at_least(1.0).at_most(1e6);
    pub windows: u64 = 4000; integer("windows").count(10, 1_000_000).why("more windows make no visible difference");
    pub politeness_seconds: Seconds = Seconds(1200.0); politeness();
    pub seed: u64 = 1; seed();
    /// At most 2,000,000 pages (a rule): the experiment stores one offset per page.
    pub repository: RepositoryConfig = RepositoryConfig::default(); nested;
}
}

impl Settings for ChannelConfig {
    fn rules(&self) -> Result<(), InputError> {
        if self.repository.pages > 2_000_000 {
            return Err(InputError::new("repository.pages", "at most 2,000,000 pages for this experiment (it stores one offset per page)"));
        }
        // the window length follows: E[X_t] = t·C with C = capacity × servers / P
        let window_days = self.window_requests * self.politeness_seconds.in_days().0 / (self.capacity * self.repository.servers as f64);
        if !(window_days.is_finite() && window_days > 0.0 && window_days * self.windows as f64 <= 1e9) {
            return Err(InputError::new("capacity", format!("gives windows of {window_days:e} days; raise the capacity or lower window_requests")));
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        // the repository and its allocation, then every request counted twice (per page, per server)
        let pages = self.repository.pages as f64;
        let requests = 2.0 * self.window_requests * self.windows as f64;
        let work = requests + 50.0 * pages;
        // the repository, its allocation and each page's phase: 36 bytes a page (measured)
        let bytes = pages * 36.0 + self.windows as f64 * 16.0 + self.repository.servers as f64 * 64.0;
        Cost {
            work,
            unit: "requests counted".into(),
            bytes,
            seconds: work * 3e-9,
            memory_fix: Fix::new("repository.pages", "use fewer pages"),
            time_fix: Fix::new("windows", "lower windows or window_requests"),
        }
    }
}

/// The empirical tail of the excess over the mean for one way of spacing requests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spacing {
    /// Number of equally spaced elements n.
    pub elements: u64,
    /// Share of windows whose count exceeds E[X_t] + x, at each x of the output.
    pub tail: Vec<f64>,
    /// Eq 5-11's bound for this n at each x.
    pub bound: Vec<f64>,
    pub max_excess: f64,
    pub std_dev: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelOutput {
    pub config: ChannelConfig,
    /// Requests per day and window length in days.
    pub capacity: f64,
    pub window_days: f64,
    pub mean: f64,
    pub x: Vec<f64>,
    pub per_page: Spacing,
    pub per_server: Spacing,
}

/// Counts d + k/g for every (g, d) into windows of length `t` over `windows` windows.
fn count_windows(elements: &[(f64, f64)], t: f64, windows: usize) -> Vec<u32> {
    let horizon = t * windows as f64;
    let mut counts = vec![0u32; windows];
    for &(g, d) in elements {
        let step = 1.0 / g;
        let mut k = 0u64;
        loop {
            let time = d + k as f64 * step;
            if time >= horizon {
                break;
            }
            counts[((time / t) as usize).min(windows - 1)] += 1;
            k += 1;
        }
    }
    counts
}

fn spacing(elements: &[(f64, f64)], t: f64, windows: usize, mean: f64, x: &[f64]) -> Spacing {
    let counts = count_windows(elements, t, windows);
    let excess: Vec<f64> = counts.iter().map(|&c| c as f64 - mean).collect();
    let n = elements.len() as f64;
    let var = excess.iter().map(|e| e * e).sum::<f64>() / windows as f64;
    Spacing {
        elements: elements.len() as u64,
        tail: x.iter().map(|&v| excess.iter().filter(|&&e| e > v).count() as f64 / windows as f64).collect(),
        bound: x.iter().map(|&v| burst_bound(n, v)).collect(),
        max_excess: excess.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        std_dev: var.sqrt(),
    }
}

pub fn channel(config: ChannelConfig) -> Result<ChannelOutput, InputError> {
    config.validate()?;
    let repo = generate(&config.repository, config.seed);
    let p = config.politeness_seconds.in_days().0;
    let capacity = config.capacity * repo.servers() as f64 / p;
    let f = allocate(&repo, AllocationKind::OptPolite, capacity, p).f;
    let total: f64 = f.iter().sum();
    let t = config.window_requests / total;
    let mean = expected_requests(t, total);
    let mut stream = Stream::of(config.seed, Purpose::ChannelOffsets, 0);
    let pages: Vec<(f64, f64)> = f.iter().filter(|&&g| g > 0.0).map(|&g| (g, stream.uniform() / g)).collect();
    let servers: Vec<(f64, f64)> = (0..repo.servers()).map(|s| f[repo.server_pages(s)].iter().sum::<f64>()).filter(|&g| g > 0.0).map(|g| (g, stream.uniform() / g)).collect();
    let windows = config.windows as usize;
    let top = (4.0 * mean.sqrt()).max(10.0).ceil();
    let x: Vec<f64> = (0..=200).map(|k| top * k as f64 / 200.0).collect();
    Ok(ChannelOutput { per_page: spacing(&pages, t, windows, mean, &x), per_server: spacing(&servers, t, windows, mean, &x), capacity: total, window_days: t, mean, x, config })
}

impl Experiment for ChannelConfig {
    type Output = ChannelOutput;

    fn start(self) -> Result<Box<dyn Job<ChannelOutput>>, InputError> {
        ready(self, channel)
    }
}
