//! Generated records with known rates: each page changes as a Poisson process of a rate
//! drawn log-uniformly, and is captured at times of a chosen kind (Poisson, periodic,
//! or in bursts), each capture with its content's version as digest — a capture index
//! whose truth is known, to measure what the estimators recover from records like it.

use super::{Mark, Records, What};
use crate::core::labels::labelled;
use crate::core::math::elementary::{exp, ln};
use crate::core::rng::{Purpose, Stream};
use serde::{Deserialize, Serialize};

labelled! {
/// When a generated page is captured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Captures {
    /// At Poisson times (exponential gaps of the page's mean spacing).
    #[default]
    Poisson => "at Poisson times",
    /// Every spacing, from a random phase.
    Periodic => "periodically",
    /// In bursts: a visit at Poisson times of a fifth of the rate, then four more an
    /// hour apart (an archive's crawl that returns to a page within a session).
    Bursty => "in bursts (5 captures an hour apart)",
}
}

/// The generator's settings (days, rates per day).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Generator {
    pub pages: u64,
    pub servers: u64,
    pub days: f64,
    pub rate_min: f64,
    pub rate_max: f64,
    pub spacing_min: f64,
    pub spacing_max: f64,
    pub captures: Captures,
    pub seed: u64,
}

const DAY: f64 = 86_400.0;
/// The generated period starts on 2025-01-01 (Unix seconds).
const START: f64 = 1_735_689_600.0;

impl Generator {
    /// The records, and each page's true rate (per day), page k on server k mod servers.
    pub fn records(&self) -> (Records, Vec<f64>) {
        let mut records = Records::default();
        let mut truth = Vec::with_capacity(self.pages as usize);
        let log_uniform = |rng: &mut Stream, a: f64, b: f64| if a == b { a } else { exp(ln(a) + rng.uniform() * (ln(b) - ln(a))) };
        for k in 0..self.pages {
            let mut rng = Stream::of(self.seed, Purpose::HistoryRecords, k);
            let rate = log_uniform(&mut rng, self.rate_min, self.rate_max);
            let spacing = log_uniform(&mut rng, self.spacing_min, self.spacing_max);
            let url = format!("http://site{}.example/page{k}", k % self.servers);
            truth.push(rate);
            let mut times = Vec::new();
            match self.captures {
                Captures::Poisson => {
                    let mut t = rng.exponential(1.0 / spacing);
                    while t < self.days {
                        times.push(t);
                        t += rng.exponential(1.0 / spacing);
                    }
                }
                Captures::Periodic => {
                    let mut t = rng.uniform() * spacing;
                    while t < self.days {
                        times.push(t);
                        t += spacing;
                    }
                }
                Captures::Bursty => {
                    let mut t = rng.exponential(0.2 / spacing);
                    while t < self.days {
                        for j in 0..5 {
                            let at = t + j as f64 / 24.0;
                            if at < self.days {
                                times.push(at);
                            }
                        }
                        t += 4.0 / 24.0 + rng.exponential(0.2 / spacing);
                    }
                }
            }
            // the content's version at each capture: Poisson changes of the page's rate
            let (mut version, mut change) = (0u64, rng.exponential(rate));
            for t in times {
                while change <= t {
                    version += 1;
                    change += rng.exponential(rate);
                }
                records.add(&url, Mark { time: START + t * DAY, what: What::Digest(version) }).expect("within the pages' limit");
            }
            records.page(&url);
        }
        (records, truth)
    }
}
