//! A WEBBASE-like repository (spec §1.4): heavy-tailed pages per server, power-law
//! change rates and a share of pages that never change. The real WEBBASE data are not
//! public; these are synthetic, generated from the parameters below.

use super::rate_bins::RateBins;
use super::repository::Repository;
use crate::core::field::{Nested, settings};
use crate::core::input::{InputError, count};
use crate::core::math::elementary::{exp, expm1, ln, ln_1p};
use crate::core::rng::{Purpose, Stream};
use serde::{Deserialize, Serialize};

settings! {
/// The generator's settings. Its defaults are the classroom repository: small enough for
/// a few seconds in the page, with the calibrated concentration (docs/researchers.md,
/// "Politeness that binds"), so that politeness binds at 1 %, 10 % and 90 % of the
/// maximum total frequency.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RepositoryConfig {
    pub pages: u64 = 10_000; integer("pages (generator)").help("WEBBASE: 14,500,000").count(1, MAX_PAGES).why("that is beyond any machine this runs on");
    /// Every server holds at least one page (at most `pages`: a rule).
    pub servers: u64 = 1_000; integer("servers (generator)").help("WEBBASE: 5,462").count(1, MAX_PAGES);
    /// Concentration of pages on servers (thesis Figs 3.1–3.2): the share of all pages
    /// held by the largest 1 % of servers (at least one server). Server sizes follow a
    /// rank-size (Zipf) law, the k-th largest holding max(1, A·k^(−α)) pages; α and A
    /// are solved so that the top 1 % hold this share and the sizes sum to `pages`.
    pub top_share: f64 = CLASSROOM_TOP_SHARE;
        number("share of pages on the largest 1 % of servers").help("calibrated: 0.6 here, 0.55 at WEBBASE scale").positive().at_most(1.0);
    /// Change rates of changing pages: density ∝ λ^(−rate_exponent) on
    /// [rate_min, rate_max], in changes per day (about once a year to once a day).
    pub rate_min: f64 = 0.00274; number("slowest change rate (per day)").at_least(super::repository::MIN_CHANGE_RATE);
    pub rate_max: f64 = 1.0; number("fastest change rate (per day)").positive().at_most(1e6);
    pub rate_exponent: f64 = 1.5; number("power-law exponent of rates").help("density ∝ λ^−exponent").at_least(-5.0).at_most(5.0);
    /// Share of pages that never change (fresh throughout). The default, 10 %, is kept
    /// low because Cor 5.5 (RANDOM loses at most 23 % on changing pages) makes the
    /// thesis's RANDOM ratio of 0.812 impossible if never-changing pages held more than
    /// about 18 % of the POLITE freshness.
    pub never_changing: f64 = 0.1; number("share of pages that never change").at_least(0.0).below(1.0);
}
}

/// The calibrated concentrations (docs/researchers.md, "Politeness that binds"): chosen so that the POLITE
/// bound at C = 1 %, 10 %, 90 % lands near the 0.53, 0.65, 0.68 implied by the
/// thesis's ratios and losses (§5.5); nothing else was fitted.
pub const CLASSROOM_TOP_SHARE: f64 = 0.6;
pub const WEBBASE_TOP_SHARE: f64 = 0.55;

/// A sanity bound on the page count (the WEBBASE scale is 14.5 M); what really limits a
/// run is its memory, which each experiment estimates and checks.
pub const MAX_PAGES: u64 = 100_000_000;

impl RepositoryConfig {
    /// The WEBBASE totals of spec §1.4, as a scale model of the classroom repository:
    /// `scale` multiplies the classroom's change rates so that λ/f is the same at the
    /// same share of the maximum (the ratio of the capacities per page, #servers/(P·pages)).
    pub fn webbase_scaled(scale: f64) -> Self {
        let classroom = RepositoryConfig::default();
        RepositoryConfig {
            pages: 14_500_000,
            servers: 5_462,
            top_share: WEBBASE_TOP_SHARE,
            rate_min: classroom.rate_min * scale,
            rate_max: classroom.rate_max * scale,
            ..classroom
        }
    }

    /// The mean change rate of a generated page (never-changing pages included).
    pub fn mean_rate(&self) -> f64 {
        (1.0 - self.never_changing) * power_law_mean(self.rate_min, self.rate_max, self.rate_exponent)
    }

    /// `pages` generated pages by change rate (for an estimate).
    pub fn rate_bins(&self, pages: u64) -> RateBins {
        RateBins::power_law(pages as f64, self.never_changing, self.rate_min, self.rate_max, self.rate_exponent)
    }

    /// The servers counted as "the largest 1 %".
    fn top_count(&self) -> u64 {
        (self.servers / 100).max(1)
    }

    /// The top share's possible range: equal servers, and all but one page per server
    /// on the top ones.
    fn top_share_range(&self) -> (f64, f64) {
        let (n, s, t) = (self.pages as f64, self.servers as f64, self.top_count() as f64);
        (t / s, (n - (s - t)) / n)
    }
}

impl Nested for RepositoryConfig {
    /// Servers at most the pages; the top share within what the sizes allow; rate_min < rate_max.
    fn rules(&self, prefix: &str) -> Result<(), InputError> {
        let f = |name: &str| format!("{prefix}{name}");
        count(&f("servers"), self.servers, 1, self.pages, "every server holds at least one page")?;
        let (lo, hi) = self.top_share_range();
        if self.top_share < lo - 1e-12 || self.top_share > hi + 1e-12 {
            return Err(InputError::new(
                f("top_share"),
                format!(
                    "must be between {} (every server the same size) and {} (every other server holding one page) for {} pages on {} servers (got {})",
                    round4(lo),
                    round4(hi),
                    self.pages,
                    self.servers,
                    self.top_share
                ),
            ));
        }
        crate::core::input::ordered(&f("rate_min"), self.rate_min, &f("rate_max"), self.rate_max)
    }
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The quantile u of a power law with density ∝ x^(−exponent) on [lo, hi].
pub fn power_law_quantile(lo: f64, hi: f64, exponent: f64, u: f64) -> f64 {
    let span = ln(hi / lo);
    let q = 1.0 - exponent;
    let z = q * span;
    let log_ratio = if z.abs() < 1e-12 { u * span } else { ln_1p(u * expm1(z)) / q };
    (lo * exp(log_ratio)).clamp(lo, hi)
}

/// The mean of that power law: ∫x^(1−a) / ∫x^(−a) over [lo, hi] (√(lo·hi) at a = 3/2).
pub fn power_law_mean(lo: f64, hi: f64, exponent: f64) -> f64 {
    let b = ln(hi / lo);
    // ∫ x^(q−1) dx over [lo, hi], over lo^q: (e^(q·b) − 1)/q, or b at q = 0
    let integral = |q: f64| if (q * b).abs() < 1e-12 { b } else { expm1(q * b) / q };
    lo * integral(2.0 - exponent) / integral(1.0 - exponent)
}

/// The cumulative distribution of that power law at x.
pub fn power_law_cdf(lo: f64, hi: f64, exponent: f64, x: f64) -> f64 {
    if x <= lo {
        return 0.0;
    }
    if x >= hi {
        return 1.0;
    }
    let q = 1.0 - exponent;
    let (a, b) = (ln(x / lo), ln(hi / lo));
    if (q * b).abs() < 1e-12 { a / b } else { expm1(q * a) / expm1(q * b) }
}

/// The rank-size law of the server sizes: the k-th largest server (k = 1…S) holds
/// max(1, A·k^(−α)) pages before rounding.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankSize {
    pub alpha: f64,
    pub scale: f64,
}

impl RankSize {
    pub fn size(&self, k: u64) -> f64 {
        (self.scale * exp(-self.alpha * ln(k as f64))).max(1.0)
    }
}

/// Σ_{k≤K} k^(−α) for K = 1…S: summed in rank order up to the first `exact` ranks and,
/// beyond them, by the midpoint rule, ∫ from exact + ½ to K + ½ of x^(−α) dx (its error,
/// about α·x^(−α−1)/24 at x = exact, is under 1e-9 of the sum from 10,000 ranks on: a test).
struct PowerSums {
    alpha: f64,
    powers: Vec<f64>,
    prefix: Vec<f64>,
}

impl PowerSums {
    /// `logs`: ln k for the exact ranks.
    fn new(alpha: f64, logs: &[f64]) -> Self {
        let powers: Vec<f64> = logs.iter().map(|&l| exp(-alpha * l)).collect();
        let mut prefix = Vec::with_capacity(powers.len());
        let mut sum = 0.0;
        for &p in &powers {
            sum += p;
            prefix.push(sum);
        }
        PowerSums { alpha, powers, prefix }
    }

    /// k^(−α), k ≥ 1.
    fn power(&self, k: usize) -> f64 {
        self.powers.get(k - 1).copied().unwrap_or_else(|| exp(-self.alpha * ln(k as f64)))
    }

    /// Σ_{j≤k} j^(−α), k ≥ 1.
    fn sum(&self, k: usize) -> f64 {
        let m = self.prefix.len();
        if k <= m {
            return self.prefix[k - 1];
        }
        // ∫_a^b x^(q−1) dx = a^q (e^(q·l) − 1)/q with l = ln(b/a), or a^q·l at q = 0
        let (a, b) = (m as f64 + 0.5, k as f64 + 0.5);
        let (q, l) = (1.0 - self.alpha, ln(b / a));
        let integral = if (q * l).abs() < 1e-12 { l } else { expm1(q * l) / q };
        self.prefix[m - 1] + exp(q * ln(a)) * integral
    }
}

/// A for a given α: Σ_k max(1, A k^(−α)) = N over `servers` servers. With p_k = k^(−α)
/// decreasing, the sizes above 1 are the first K, so the sum is A·Σ_{k≤K} p_k + (S − K),
/// increasing in A.
fn rank_scale(sums: &PowerSums, servers: usize, pages: f64) -> f64 {
    let s = servers;
    // try each K: A = (N − (S − K)) / Σ_{k≤K} p_k must give A p_K ≥ 1 > A p_{K+1}
    let mut k_hi = s;
    let mut k_lo = 1;
    // the valid K is the largest with A_K p_K ≥ 1 (binary search: the condition holds
    // for every K up to it)
    let a_of = |k: usize| (pages - (s - k) as f64) / sums.sum(k);
    while k_lo < k_hi {
        let mid = (k_lo + k_hi).div_ceil(2);
        if a_of(mid) * sums.power(mid) >= 1.0 { k_lo = mid } else { k_hi = mid - 1 }
    }
    a_of(k_lo)
}

/// α and A so that the top `top` of `s` servers hold `share` of `n` pages.
pub fn rank_size_law(config: &RepositoryConfig) -> RankSize {
    rank_size_law_within(config, 0.0, usize::MAX)
}

/// The most servers whose sizes an estimate takes from the law (their list is a pass
/// over the servers; 100,000: about 2 ms natively). Beyond, the estimates take every
/// server at the mean size, which prices a request low where a few servers hold most
/// pages (a request costs more on a larger server).
pub const LAW_SIZES_MAX_SERVERS: u64 = 100_000;

/// The ranks an estimate's law sums one by one (beyond, [`PowerSums`]' integral): its
/// bisection is a pass over them a step, and the page checks every edit on its main
/// thread (10,000: 6 ms natively on this project's slower host, within the 50 ms of a
/// task in WebAssembly there).
const LAW_EXACT_RANKS: usize = 10_000;

/// The generator's server sizes for an estimate, largest first: the rank-size law with
/// α to 1e-6 (25 bisection steps, not the generator's 60: the sizes to about 1e-5 of
/// themselves, far inside any estimate's margin), its sums exact over the first
/// [`LAW_EXACT_RANKS`] ranks. None beyond [`LAW_SIZES_MAX_SERVERS`] or where servers
/// outnumber pages (a configuration being refused).
pub fn law_sizes_for_estimate(config: &RepositoryConfig) -> Option<Vec<f64>> {
    (config.servers <= LAW_SIZES_MAX_SERVERS && config.servers <= config.pages).then(|| {
        let law = rank_size_law_within(config, 1e-6, LAW_EXACT_RANKS);
        (1..=config.servers).map(|k| law.size(k)).collect()
    })
}

/// [`rank_size_law`] with the bisection stopped once α is known to `tolerance` (0: to
/// the last bit, as the generator needs it), its sums exact over the first `exact` ranks
/// (all of them: the generator's).
fn rank_size_law_within(config: &RepositoryConfig, tolerance: f64, exact: usize) -> RankSize {
    let (n, s, top) = (config.pages as f64, config.servers as usize, config.top_count() as usize);
    // one server holds every page; none (a configuration being refused, whose cost is
    // still asked) has no law to speak of
    if s <= 1 {
        return RankSize { alpha: 0.0, scale: n };
    }
    let logs: Vec<f64> = (1..=s.min(exact).max(top.min(s))).map(|k| ln(k as f64)).collect();
    let law = |alpha: f64| {
        let sums = PowerSums::new(alpha, &logs);
        let scale = rank_scale(&sums, s, n);
        let law = RankSize { alpha, scale };
        // law.size(k), from the powers already taken (the same bits)
        let top_pages: f64 = (1..=top.min(s)).map(|k| (scale * sums.power(k)).max(1.0)).sum();
        (law, top_pages / n)
    };
    // the top share grows with α: bisection on [0, 20]
    let (mut lo, mut hi) = (0.0f64, 20.0f64);
    for _ in 0..60 {
        if hi - lo <= tolerance {
            break;
        }
        let mid = 0.5 * (lo + hi);
        if law(mid).1 < config.top_share { lo = mid } else { hi = mid }
    }
    law(0.5 * (lo + hi)).0
}

/// Pages per server, largest first, summing exactly to `pages`.
pub fn server_sizes(config: &RepositoryConfig) -> Vec<u64> {
    let s = config.servers as usize;
    if s == 1 {
        return vec![config.pages];
    }
    let law = rank_size_law(config);
    let mut sizes: Vec<u64> = (1..=s as u64).map(|k| (law.size(k).round() as u64).max(1)).collect();
    // fix the rounding so the totals are exact: largest servers first, never below 1
    let mut total: u64 = sizes.iter().sum();
    let mut k = 0;
    while total != config.pages {
        let i = k % s;
        if total < config.pages {
            sizes[i] += 1;
            total += 1;
        } else if sizes[i] > 1 {
            sizes[i] -= 1;
            total -= 1;
        }
        k += 1;
    }
    sizes.sort_unstable_by(|x, y| y.cmp(x));
    sizes
}

/// Generates the repository for `seed`.
pub fn generate(config: &RepositoryConfig, seed: u64) -> Repository {
    let sizes = server_sizes(config);
    let mut server_start = Vec::with_capacity(sizes.len() + 1);
    server_start.push(0);
    for &n in &sizes {
        server_start.push(server_start.last().unwrap() + n as usize);
    }
    let mut stream = Stream::of(seed, Purpose::RepositoryRates, 0);
    let lambda = (0..config.pages)
        .map(|_| {
            let (u, v) = (stream.uniform(), stream.uniform());
            if u < config.never_changing { 0.0 } else { power_law_quantile(config.rate_min, config.rate_max, config.rate_exponent, v) }
        })
        .collect();
    Repository { lambda, weight: None, server_start, observed: None }
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
    /// The rank-size exponent α of the generator's law (None for an imported list).
    pub rank_size_exponent: Option<f64>,
    pub never_changing_share: f64,
    /// Mean change rate of the changing pages, per day.
    pub mean_rate: f64,
    /// Pages whose rate is an estimate with an interval (a history's page list, issue 47):
    /// the result says the rates are estimated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_rates: Option<u64>,
}

pub fn summarise(repo: &Repository, law: Option<RankSize>) -> RepositorySummary {
    let mut sizes: Vec<u64> = (0..repo.servers()).map(|s| repo.server_pages(s).len() as u64).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let top = (sizes.len() / 100).max(1);
    let (changing, rate_sum) = repo.lambda.iter().filter(|&&l| l > 0.0).fold((0usize, 0.0), |(n, sum), &l| (n + 1, sum + l));
    RepositorySummary {
        pages: repo.pages() as u64,
        servers: repo.servers() as u64,
        largest_server: sizes[0],
        median_server: sizes[sizes.len() / 2],
        top_percent_share: sizes[..top].iter().sum::<u64>() as f64 / repo.pages() as f64,
        rank_size_exponent: law.map(|l| l.alpha),
        never_changing_share: 1.0 - changing as f64 / repo.pages() as f64,
        mean_rate: if changing == 0 { 0.0 } else { rate_sum / changing as f64 },
        estimated_rates: None,
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn totals_are_exact_and_heavy_tailed() {
        for config in [RepositoryConfig::default(), RepositoryConfig { pages: 145_000, servers: 55, top_share: 0.2, ..Default::default() }] {
            let sizes = server_sizes(&config);
            assert_eq!(sizes.len() as u64, config.servers);
            assert_eq!(sizes.iter().sum::<u64>(), config.pages);
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]));
            assert!(*sizes.last().unwrap() >= 1);
            let median = sizes[sizes.len() / 2] as f64;
            let mean = config.pages as f64 / config.servers as f64;
            assert!(median < mean, "heavy tail: median {median} below mean {mean}");
        }
    }

    /// Goodness of fit of the sizes to their stated law: the top 1 % hold `top_share`
    /// (to the rounding of one page per server), and every server is within one page
    /// (plus the spread of the total's rounding) of max(1, A·k^(−α)).
    #[test]
    fn server_sizes_follow_the_stated_rank_size_law() {
        for config in [RepositoryConfig::default(), RepositoryConfig::webbase_scaled(5.0), RepositoryConfig { pages: 50_000, servers: 2_000, top_share: 0.3, ..Default::default() }]
        {
            let sizes = server_sizes(&config);
            let law = rank_size_law(&config);
            let top = (config.servers / 100).max(1) as usize;
            let share = sizes[..top].iter().sum::<u64>() as f64 / config.pages as f64;
            assert!((share - config.top_share).abs() <= 2.0 * top as f64 / config.pages as f64 + 1e-9, "{share} vs {}", config.top_share);
            let spread = (config.servers as f64 / 2.0 / config.servers as f64).ceil() + 1.0;
            for (k, &n) in sizes.iter().enumerate() {
                let want = law.size(k as u64 + 1);
                assert!((n as f64 - want).abs() <= spread.max(1.0) + 1e-9 * want, "server {k}: {n} vs {want}");
            }
            // a heavy tail: the slope of log size against log rank is −α where sizes exceed 1
            assert!(law.alpha > 0.3, "α = {}", law.alpha);
        }
    }

    /// The estimate's law past its exact ranks: the integral's sums against sums taken
    /// rank by rank, and the law it finds for 40,000 servers against the generator's.
    #[test]
    fn the_estimates_law_past_its_exact_ranks_is_the_generators() {
        for alpha in [0.2, 0.9, 1.0, 1.1, 2.5] {
            let logs: Vec<f64> = (1..=LAW_EXACT_RANKS).map(|k| ln(k as f64)).collect();
            let sums = PowerSums::new(alpha, &logs);
            let mut exact = sums.sum(LAW_EXACT_RANKS);
            for k in LAW_EXACT_RANKS + 1..=250_000 {
                exact += (k as f64).powf(-alpha);
                if k % 10_007 == 0 || k == 250_000 {
                    let got = sums.sum(k);
                    assert!((got - exact).abs() < 1e-9 * exact, "α = {alpha}, K = {k}: {got} against {exact}");
                }
            }
            let beyond = LAW_EXACT_RANKS + 5;
            assert!((sums.power(beyond) / (beyond as f64).powf(-alpha) - 1.0).abs() < 1e-13);
        }
        for config in [
            RepositoryConfig { pages: 1_000_000, servers: 40_000, ..Default::default() },
            RepositoryConfig { pages: 2_000_000, servers: 100_000, top_share: 0.3, ..Default::default() },
        ] {
            let exact = rank_size_law(&config);
            let sizes = law_sizes_for_estimate(&config).expect("within the estimate's servers");
            let estimated = rank_size_law_within(&config, 1e-6, LAW_EXACT_RANKS);
            assert!((estimated.alpha - exact.alpha).abs() < 2e-6, "α {} against {}", estimated.alpha, exact.alpha);
            assert!((estimated.scale / exact.scale - 1.0).abs() < 1e-4, "A {} against {}", estimated.scale, exact.scale);
            assert_eq!(sizes.len() as u64, config.servers);
            let total: f64 = sizes.iter().sum();
            assert!((total / config.pages as f64 - 1.0).abs() < 1e-4, "{total} pages");
        }
    }

    #[test]
    fn webbase_totals() {
        let sizes = server_sizes(&RepositoryConfig::webbase_scaled(5.0));
        assert_eq!(sizes.len(), 5462);
        assert_eq!(sizes.iter().sum::<u64>(), 14_500_000);
    }

    #[test]
    fn power_law_quantiles_invert_the_cdf() {
        for exponent in [-1.0, 0.0, 1.0, 1.5, 2.0, 3.0] {
            let (lo, hi) = (0.01, 5.0);
            assert!((power_law_quantile(lo, hi, exponent, 0.0) - lo).abs() < 1e-12);
            assert!((power_law_quantile(lo, hi, exponent, 1.0) - hi).abs() < 1e-9);
            for u in [0.01, 0.3, 0.5, 0.77, 0.99] {
                let x = power_law_quantile(lo, hi, exponent, u);
                assert!((power_law_cdf(lo, hi, exponent, x) - u).abs() < 1e-12, "exponent {exponent}, u {u}");
            }
        }
    }

    /// The power law's mean: √(lo·hi) at exponent 3/2 and (hi − lo)/ln(hi/lo) at 1, by
    /// hand, and the mean of a generated repository within 4 standard errors.
    #[test]
    fn the_mean_rate() {
        assert!((power_law_mean(0.01, 4.0, 1.5) - 0.2).abs() < 1e-15);
        assert!((power_law_mean(0.5, 2.0, 1.0) - 1.5 / 4f64.ln()).abs() < 1e-15);
        assert!((power_law_mean(1.0, 3.0, 0.0) - 2.0).abs() < 1e-15);
        let config = RepositoryConfig { pages: 200_000, ..Default::default() };
        let repo = generate(&config, 9);
        let n = repo.pages() as f64;
        let mean = repo.lambda.iter().sum::<f64>() / n;
        let sd = (repo.lambda.iter().map(|l| (l - mean) * (l - mean)).sum::<f64>() / (n - 1.0)).sqrt();
        assert!((mean - config.mean_rate()).abs() < 4.0 * sd / n.sqrt(), "{mean} vs {}", config.mean_rate());
    }

    /// Goodness of fit of the generated change rates to their stated power law
    /// (Kolmogorov–Smirnov at the 1 % level, fixed seed).
    #[test]
    fn change_rates_pass_a_kolmogorov_smirnov_test() {
        let config = RepositoryConfig { pages: 20_000, ..Default::default() };
        let repo = generate(&config, 5);
        let mut rates: Vec<f64> = repo.lambda.iter().copied().filter(|&l| l > 0.0).collect();
        rates.sort_by(f64::total_cmp);
        let n = rates.len() as f64;
        let d = rates
            .iter()
            .enumerate()
            .map(|(k, &x)| {
                let f = power_law_cdf(config.rate_min, config.rate_max, config.rate_exponent, x);
                (f - k as f64 / n).abs().max(((k + 1) as f64 / n - f).abs())
            })
            .fold(0.0, f64::max);
        assert!(d < 1.63 / n.sqrt(), "KS distance {d}");
    }

    #[test]
    fn never_changing_share_and_rates() {
        let config = RepositoryConfig { pages: 50_000, ..Default::default() };
        let repo = generate(&config, 3);
        let summary = summarise(&repo, None);
        // binomial: 4 standard deviations
        let sd = (0.1 * 0.9 / 50_000f64).sqrt();
        assert!((summary.never_changing_share - 0.1).abs() < 4.0 * sd, "{summary:?}");
        assert!(repo.lambda.iter().all(|&l| l == 0.0 || (config.rate_min..=config.rate_max).contains(&l)));
        assert_eq!(generate(&config, 3), repo, "same seed, same repository");
        assert_ne!(generate(&config, 4).lambda, repo.lambda);
    }

    #[test]
    fn impossible_shapes_are_refused() {
        use crate::core::field::Nested;
        let bad = |c: RepositoryConfig| c.validate("repository.").unwrap_err().field;
        let d = RepositoryConfig::default;
        assert_eq!(bad(RepositoryConfig { top_share: 0.001, ..d() }), "repository.top_share");
        assert_eq!(bad(RepositoryConfig { top_share: 0.9999, ..d() }), "repository.top_share");
        assert_eq!(bad(RepositoryConfig { servers: 20_000, ..d() }), "repository.servers");
        assert!(RepositoryConfig { pages: 7, servers: 1, top_share: 1.0, ..d() }.validate("").is_ok());
        assert_eq!(bad(RepositoryConfig { pages: 300_000_000, ..d() }), "repository.pages");
        assert_eq!(bad(RepositoryConfig { rate_min: 2.0, ..d() }), "repository.rate_max");
        assert_eq!(bad(RepositoryConfig { never_changing: 1.0, ..d() }), "repository.never_changing");
        assert!(RepositoryConfig::webbase_scaled(5.0).validate("").is_ok());
    }
}
