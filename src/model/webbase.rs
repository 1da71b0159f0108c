//! A WEBBASE-like repository (spec §1.4): heavy-tailed pages per server, power-law
//! change rates and a share of pages that never change. The real WEBBASE data are not
//! public; these are synthetic, generated from the parameters below.

use super::repository::Repository;
use crate::input::{InputError, check, count};
use crate::math::elementary::{exp, expm1, ln, ln_1p};
use crate::rng::Stream;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RepositoryConfig {
    pub pages: u64,
    pub servers: u64,
    /// Share of all pages held by the largest server; the other servers' sizes follow
    /// a truncated power law whose exponent is solved to give the requested totals.
    pub largest_server_share: f64,
    /// Change rates of changing pages: density ∝ λ^(−rate_exponent) on
    /// [rate_min, rate_max], in changes per day.
    pub rate_min: f64,
    pub rate_max: f64,
    pub rate_exponent: f64,
    /// Share of pages that never change (fresh throughout). The default, 10 %, is kept
    /// low because Cor 5.5 (RANDOM loses at most 23 % on changing pages) makes the
    /// thesis's RANDOM ratio of 0.812 impossible if never-changing pages held more than
    /// about 18 % of the POLITE freshness.
    pub never_changing: f64,
}

impl Default for RepositoryConfig {
    fn default() -> Self {
        RepositoryConfig {
            pages: 10_000,
            servers: 100,
            largest_server_share: 0.05,
            rate_min: 0.00274, // about once a year
            rate_max: 1.0,
            rate_exponent: 1.5,
            never_changing: 0.1,
        }
    }
}

/// A sanity bound on the page count (the WEBBASE scale is 14.5 M); what really limits a
/// run is its memory, which each experiment estimates and checks.
pub const MAX_PAGES: u64 = 100_000_000;

impl RepositoryConfig {
    /// The WEBBASE totals of spec §1.4.
    pub fn webbase() -> Self {
        RepositoryConfig { pages: 14_500_000, servers: 5_462, ..Default::default() }
    }

    pub fn validate(&self, prefix: &str) -> Result<(), InputError> {
        let f = |name: &str| format!("{prefix}{name}");
        count(&f("pages"), self.pages, 1, MAX_PAGES, "that is beyond any machine this runs on")?;
        count(&f("servers"), self.servers, 1, self.pages, "every server holds at least one page")?;
        check(&f("largest_server_share"), self.largest_server_share)?.positive()?.at_most(1.0)?;
        let largest = self.largest();
        let others = self.pages - largest;
        if self.servers > 1 && (others < self.servers - 1 || (others as f64) / ((self.servers - 1) as f64) > largest as f64) {
            return Err(InputError::new(
                f("largest_server_share"),
                format!(
                    "cannot be met: the largest server would hold {largest} pages, leaving {others} for {} other servers that must each hold between 1 and {largest}",
                    self.servers - 1
                ),
            ));
        }
        if self.servers == 1 && largest != self.pages {
            return Err(InputError::new(f("largest_server_share"), "must be 1 when there is a single server"));
        }
        check(&f("rate_min"), self.rate_min)?.positive()?;
        check(&f("rate_max"), self.rate_max)?.positive()?.at_most(1e6)?;
        crate::input::ordered(&f("rate_min"), self.rate_min, &f("rate_max"), self.rate_max)?;
        check(&f("rate_exponent"), self.rate_exponent)?.at_least(-5.0)?.at_most(5.0)?;
        check(&f("never_changing"), self.never_changing)?.at_least(0.0)?.below(1.0)?;
        Ok(())
    }

    fn largest(&self) -> u64 {
        ((self.largest_server_share * self.pages as f64).round() as u64).clamp(1, self.pages)
    }
}

/// The quantile u of a power law with density ∝ x^(−exponent) on [lo, hi].
pub fn power_law_quantile(lo: f64, hi: f64, exponent: f64, u: f64) -> f64 {
    let span = ln(hi / lo);
    let q = 1.0 - exponent;
    let z = q * span;
    let log_ratio = if z.abs() < 1e-12 { u * span } else { ln_1p(u * expm1(z)) / q };
    (lo * exp(log_ratio)).clamp(lo, hi)
}

/// Mean of that power law.
fn power_law_mean(lo: f64, hi: f64, exponent: f64) -> f64 {
    // ∫ x^{p} dx over [lo, hi] = lo^{p+1} (e^{(p+1)L} − 1)/(p + 1), L = ln(hi/lo)
    let span = ln(hi / lo);
    let integral = |p: f64| {
        let z = (p + 1.0) * span;
        if z.abs() < 1e-12 { span } else { expm1(z) / (p + 1.0) }
    };
    lo * integral(1.0 - exponent) / integral(-exponent)
}

/// Pages per server, largest first, summing exactly to `pages`.
pub fn server_sizes(config: &RepositoryConfig) -> Vec<u64> {
    let largest = config.largest();
    let s = config.servers as usize;
    if s == 1 {
        return vec![config.pages];
    }
    let rest = config.pages - largest;
    let mean = rest as f64 / (s - 1) as f64;
    let top = largest as f64;
    // the mean decreases with the exponent: bisection
    let (mut a, mut b) = (-60.0, 60.0);
    for _ in 0..200 {
        let mid = 0.5 * (a + b);
        if power_law_mean(1.0, top, mid) > mean { a = mid } else { b = mid }
    }
    let exponent = 0.5 * (a + b);
    let mut sizes: Vec<u64> = (0..s - 1)
        .map(|k| {
            let u = 1.0 - (k as f64 + 0.5) / (s - 1) as f64; // largest first
            (power_law_quantile(1.0, top, exponent, u).round() as u64).clamp(1, largest)
        })
        .collect();
    // fix the rounding so the totals are exact, largest servers first
    let mut total: u64 = sizes.iter().sum();
    let mut k = 0;
    while total != rest {
        let i = k % sizes.len();
        if total < rest && sizes[i] < largest {
            sizes[i] += 1;
            total += 1;
        } else if total > rest && sizes[i] > 1 {
            sizes[i] -= 1;
            total -= 1;
        }
        k += 1;
    }
    sizes.sort_unstable_by(|x, y| y.cmp(x));
    let mut all = vec![largest];
    all.extend(sizes);
    all
}

/// Stream id of the change rates.
const RATES: u64 = 0x5241_5445;

/// Generates the repository for `seed`.
pub fn generate(config: &RepositoryConfig, seed: u64) -> Repository {
    let sizes = server_sizes(config);
    let mut server_start = Vec::with_capacity(sizes.len() + 1);
    server_start.push(0);
    for &n in &sizes {
        server_start.push(server_start.last().unwrap() + n as usize);
    }
    let mut stream = Stream::new(seed, RATES);
    let lambda = (0..config.pages)
        .map(|_| {
            let (u, v) = (stream.uniform(), stream.uniform());
            if u < config.never_changing { 0.0 } else { power_law_quantile(config.rate_min, config.rate_max, config.rate_exponent, v) }
        })
        .collect();
    Repository { lambda, weight: None, server_start }
}

/// Numbers that describe a generated repository.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RepositorySummary {
    pub pages: u64,
    pub servers: u64,
    pub largest_server: u64,
    pub median_server: u64,
    /// Share of pages on the largest 1 % of servers (at least one server).
    pub top_percent_share: f64,
    pub never_changing_share: f64,
    /// Mean change rate of the changing pages, per day.
    pub mean_rate: f64,
}

pub fn summarise(repo: &Repository) -> RepositorySummary {
    let mut sizes: Vec<u64> = (0..repo.servers()).map(|s| repo.server_pages(s).len() as u64).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let top = (sizes.len() / 100).max(1);
    let changing: Vec<f64> = repo.lambda.iter().copied().filter(|&l| l > 0.0).collect();
    RepositorySummary {
        pages: repo.pages() as u64,
        servers: repo.servers() as u64,
        largest_server: sizes[0],
        median_server: sizes[sizes.len() / 2],
        top_percent_share: sizes[..top].iter().sum::<u64>() as f64 / repo.pages() as f64,
        never_changing_share: 1.0 - changing.len() as f64 / repo.pages() as f64,
        mean_rate: if changing.is_empty() { 0.0 } else { changing.iter().sum::<f64>() / changing.len() as f64 },
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn totals_are_exact_and_heavy_tailed() {
        for config in [RepositoryConfig::default(), RepositoryConfig { pages: 145_000, servers: 55, ..Default::default() }] {
            let sizes = server_sizes(&config);
            assert_eq!(sizes.len() as u64, config.servers);
            assert_eq!(sizes.iter().sum::<u64>(), config.pages);
            assert_eq!(sizes[0], (config.largest_server_share * config.pages as f64).round() as u64);
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]));
            assert!(*sizes.last().unwrap() >= 1);
            let median = sizes[sizes.len() / 2] as f64;
            let mean = config.pages as f64 / config.servers as f64;
            assert!(median < mean, "heavy tail: median {median} below mean {mean}");
        }
    }

    #[test]
    fn webbase_totals() {
        let sizes = server_sizes(&RepositoryConfig::webbase());
        assert_eq!(sizes.len(), 5462);
        assert_eq!(sizes.iter().sum::<u64>(), 14_500_000);
    }

    #[test]
    fn power_law_quantiles_and_mean() {
        for exponent in [-1.0, 0.0, 1.0, 1.5, 2.0, 3.0] {
            let (lo, hi) = (0.01, 5.0);
            assert!((power_law_quantile(lo, hi, exponent, 0.0) - lo).abs() < 1e-12);
            assert!((power_law_quantile(lo, hi, exponent, 1.0) - hi).abs() < 1e-9);
            // the mean of stratified quantiles approaches the closed form
            let n = 200_000;
            let m: f64 = (0..n).map(|k| power_law_quantile(lo, hi, exponent, (k as f64 + 0.5) / n as f64)).sum::<f64>() / n as f64;
            let want = power_law_mean(lo, hi, exponent);
            assert!((m - want).abs() < 1e-4 * want, "exponent {exponent}: {m} vs {want}");
        }
    }

    #[test]
    fn never_changing_share_and_rates() {
        let config = RepositoryConfig { pages: 50_000, ..Default::default() };
        let repo = generate(&config, 3);
        let summary = summarise(&repo);
        // binomial: 4 standard deviations
        let sd = (0.1 * 0.9 / 50_000f64).sqrt();
        assert!((summary.never_changing_share - 0.1).abs() < 4.0 * sd, "{summary:?}");
        assert!(repo.lambda.iter().all(|&l| l == 0.0 || (config.rate_min..=config.rate_max).contains(&l)));
        assert_eq!(generate(&config, 3), repo, "same seed, same repository");
        assert_ne!(generate(&config, 4).lambda, repo.lambda);
    }

    #[test]
    fn impossible_shapes_are_refused() {
        let bad = |c: RepositoryConfig| c.validate("repository.").unwrap_err().field;
        let d = RepositoryConfig::default;
        assert_eq!(bad(RepositoryConfig { largest_server_share: 0.001, ..d() }), "repository.largest_server_share");
        assert_eq!(bad(RepositoryConfig { servers: 20_000, ..d() }), "repository.servers");
        assert_eq!(bad(RepositoryConfig { pages: 300_000_000, ..d() }), "repository.pages");
        assert_eq!(bad(RepositoryConfig { rate_min: 2.0, ..d() }), "repository.rate_max");
        assert_eq!(bad(RepositoryConfig { never_changing: 1.0, ..d() }), "repository.never_changing");
        assert!(RepositoryConfig::webbase().validate("").is_ok());
    }
}
