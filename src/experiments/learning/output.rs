//! The learning experiment's results.

use super::config::{LearningConfig, LearningPolicy};
use crate::core::alloc::objective::Objective;
use crate::core::model::webbase::RepositorySummary;
use serde::{Deserialize, Serialize};

/// One policy's run: freshness and harmonic staleness per time bin (weighted shares).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyCurve {
    pub policy: LearningPolicy,
    /// Σ w × fresh time / (Σ w × bin width), per bin (only the bins already run).
    pub freshness: Vec<f64>,
    /// Σ w × ∫H(missed changes) / (Σ w × bin width), per bin.
    pub harmonic: Vec<f64>,
    pub mean_freshness: f64,
    pub mean_harmonic: f64,
    pub requests: u64,
    /// Requests sooner than P after the previous one to their server (Poisson crawls,
    /// and crawls at announced changes beside them, keep politeness on average only;
    /// equally spaced servers keep it exactly).
    pub violations: u64,
    /// At each epoch's start, the share of the bandwidth placed elsewhere than the
    /// oracle that crawls the same way would place it: Σ|f − f*| / (Σf + Σf*).
    pub rate_errors: Vec<f64>,
    /// A deployed crawler's intervals × this to spend the bandwidth (its rule as shipped
    /// at 1); none for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_scale: Option<f64>,
    /// The runs its tuning made to find that scale (each from the start, on the same
    /// changes); none for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuning_runs: Option<usize>,
    /// With estimated rates, once complete: `mean_freshness` with each rate redrawn
    /// within its interval (`core::sim::redrawn`): lowest, median, highest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<[f64; 3]>,
}

/// Mean and spread (standard deviation) of an estimator's ratio to the true rate, over
/// the finite estimates; `infinite` counts the others (every interval changed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub mean: f64,
    pub sd: f64,
    pub infinite: u64,
}

impl Spread {
    pub fn of(values: impl Iterator<Item = f64>) -> Spread {
        let (mut n, mut sum, mut sq, mut infinite) = (0.0, 0.0, 0.0, 0);
        for v in values {
            if v.is_finite() {
                n += 1.0;
                sum += v;
                sq += v * v;
            } else {
                infinite += 1;
            }
        }
        let mean = if n > 0.0 { sum / n } else { f64::NAN };
        let sd = if n > 1.0 { ((sq - n * mean * mean) / (n - 1.0)).max(0.0).sqrt() } else { f64::NAN };
        Spread { mean, sd, infinite }
    }
}

/// The four estimators at one λ·I (one visit a day, so λ·I is λ in days⁻¹).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EstimatorPoint {
    pub lambda_interval: f64,
    pub naive: Spread,
    pub bias_reduced: Spread,
    pub last_modified: Spread,
    pub maximum_likelihood: Spread,
}

/// An objective's optimum with and without the per-server caps at one capacity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolitenessPrice {
    pub objective: Objective,
    /// The capacity as a share of the maximum polite rate #servers/P.
    pub share: f64,
    pub capacity: f64,
    pub unpolite: f64,
    pub polite: f64,
}

impl PolitenessPrice {
    /// The share of the unpolite optimum that politeness keeps (≤ 1): polite/unpolite
    /// for freshness, unpolite/polite for the harmonic cost.
    pub fn kept(&self) -> f64 {
        if self.objective.is_cost() { self.unpolite / self.polite } else { self.polite / self.unpolite }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearningOutput {
    pub config: LearningConfig,
    pub repository: RepositorySummary,
    pub bin_days: f64,
    /// The policies run so far, in the configuration's order.
    pub policies: Vec<PolicyCurve>,
    /// The oracle and the learners crawl equally spaced by MERGE (else Poisson crawls).
    pub spaced: bool,
    /// Empty until the policies have run.
    pub estimators: Vec<EstimatorPoint>,
    /// Empty without politeness.
    pub politeness: Vec<PolitenessPrice>,
    /// Pages whose every change is announced (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_pages: Option<u64>,
}

impl LearningOutput {
    pub fn curve(&self, policy: LearningPolicy) -> Option<&PolicyCurve> {
        self.policies.iter().find(|c| c.policy == policy)
    }
}
