//! The one random-number scheme of Freshlab: independent, reproducible streams.
//!
//! Every simulator draws from a [`Stream`] named by the run's seed, a [`Purpose`] and an
//! index (a page, a server, a replication): `Stream::of(seed, Purpose::PageChanges, i)`.
//! Every purpose is listed here, so no two can collide. The generator is named
//! explicitly — Xoshiro256++ — so the same seed gives the same numbers natively and in
//! WebAssembly (`SmallRng` would not), and a stream can be regenerated on its own, which
//! is how a page's event log is replayed without being stored.

use crate::core::math::elementary::{ln, ln_1p, sqrt};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// SplitMix64's finaliser: a bijective mixer that decorrelates nearby seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A 64-bit hash of `key` under `seed`, from the mixer that names streams: what a
/// crawler's hash partitioner computes from a host name, URL or IP.
pub fn hash(seed: u64, key: u64) -> u64 {
    mix(seed ^ mix(key))
}

/// What a stream is for. A stream is named by the run's seed, its purpose (with the
/// purpose's own fields) and an index, each in a word of its own (see [`Stream::of`]):
/// two different names cannot give the same stream, whatever the indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A server's schedule (its offsets, RANDOM's draws) in run `run` of an experiment:
    /// `run` tells apart the kinds of runs (allocated policies, crawlers, the microscope…)
    /// and `series` the capacity or crawler; the index is the server.
    ServerSchedule {
        run: u8,
        series: u32,
    },
    /// The generated repository's change rates.
    RepositoryRates,
    /// The k-th article of the bursty change generator (the index is k).
    BurstyArticle,
    /// A (request rate, policy) run of the bursty-changes experiment (index: rate·256 + policy).
    BurstyRun,
    /// GREEDY's renewal samples of one article at one request (the seed is the request's
    /// key, the index the article).
    GreedySample,
    /// The phases of the channel experiment's requests.
    ChannelOffsets,
    /// One replication of the per-page experiment (index: policy, point, replication).
    Replication {
        policy: u8,
        point: u32,
    },
    /// A page's change events and states (robots vs sensors).
    PageChanges,
    /// A page's external requests.
    PageRequests,
    /// A sensed page's own draws: notification delays, download times, losses.
    SensorDraws,
    /// The smart robot's MERGE offsets.
    RobotOffsets,
    /// A page's change rate, spread around the mean.
    RateSpread,
    /// A robot's download times.
    RobotDownloads,
    /// The synthetic web: host sizes, places, links, and one RTT row per IP.
    WebSizes,
    WebPlaces,
    WebLinks,
    WebRttRow,
    /// The servers drawn to estimate a repository's freshness from a sample of them.
    ServerSample,
    /// Which generated pages have every change observed (the allocate experiment).
    ObservedPages,
    /// A generated page's changes and captures (the history experiment; index: the page).
    HistoryRecords,
    /// Rates redrawn within their estimated intervals (index: the page).
    RateRedraw,
    /// Tests and benchmarks: the index is the stream id.
    Test,
    /// The machine's speed probe (see `core::speed`).
    SpeedProbe,
    /// The order among equal scores of a crawl cycle's fetch list (index: the cycle).
    FetchList,
}

impl Purpose {
    /// Every purpose, each with sample values of its fields (for the tests).
    #[cfg(test)]
    const SAMPLES: [Purpose; 28] = [
        Purpose::ServerSchedule { run: 0, series: 0 },
        Purpose::ServerSchedule { run: 1, series: 0 },
        Purpose::ServerSchedule { run: 0, series: 1 },
        Purpose::ServerSchedule { run: 255, series: u32::MAX },
        Purpose::RepositoryRates,
        Purpose::BurstyArticle,
        Purpose::BurstyRun,
        Purpose::GreedySample,
        Purpose::ChannelOffsets,
        Purpose::Replication { policy: 0, point: 0 },
        Purpose::Replication { policy: 1, point: 0 },
        Purpose::Replication { policy: 0, point: 1 },
        Purpose::PageChanges,
        Purpose::PageRequests,
        Purpose::SensorDraws,
        Purpose::RobotOffsets,
        Purpose::RateSpread,
        Purpose::RobotDownloads,
        Purpose::WebSizes,
        Purpose::WebPlaces,
        Purpose::WebLinks,
        Purpose::WebRttRow,
        Purpose::ServerSample,
        Purpose::ObservedPages,
        Purpose::HistoryRecords,
        Purpose::RateRedraw,
        Purpose::SpeedProbe,
        Purpose::FetchList,
    ];

    /// The purpose and its fields in one word: the kind in the top byte, its fields
    /// below (a byte and 32 bits at most), so that no two purposes share a word.
    fn word(self) -> u64 {
        let (kind, a, b): (u64, u64, u64) = match self {
            Purpose::ServerSchedule { run, series } => (1, run as u64, series as u64),
            Purpose::RepositoryRates => (2, 0, 0),
            Purpose::BurstyArticle => (3, 0, 0),
            Purpose::BurstyRun => (4, 0, 0),
            Purpose::GreedySample => (5, 0, 0),
            Purpose::ChannelOffsets => (6, 0, 0),
            Purpose::Replication { policy, point } => (7, policy as u64, point as u64),
            Purpose::PageChanges => (8, 0, 0),
            Purpose::PageRequests => (9, 0, 0),
            Purpose::SensorDraws => (10, 0, 0),
            Purpose::RobotOffsets => (11, 0, 0),
            Purpose::RateSpread => (12, 0, 0),
            Purpose::RobotDownloads => (13, 0, 0),
            Purpose::WebSizes => (14, 0, 0),
            Purpose::WebPlaces => (15, 0, 0),
            Purpose::WebLinks => (16, 0, 0),
            Purpose::WebRttRow => (17, 0, 0),
            Purpose::ServerSample => (18, 0, 0),
            Purpose::ObservedPages => (19, 0, 0),
            Purpose::Test => (20, 0, 0),
            Purpose::HistoryRecords => (21, 0, 0),
            Purpose::RateRedraw => (22, 0, 0),
            Purpose::SpeedProbe => (23, 0, 0),
            Purpose::FetchList => (24, 0, 0),
        };
        (kind << 56) | (a << 40) | b
    }
}

/// A reproducible random stream.
#[derive(Clone, Debug)]
pub struct Stream(Xoshiro256PlusPlus);

impl Stream {
    /// The `index`-th stream of `purpose` in the run seeded with `seed`. The generator's
    /// 256-bit state holds the seed, the purpose's word and the index each in a word of
    /// its own, each through a bijective mixer, and a fourth word hashing all three: two
    /// different (seed, purpose, index) never start from the same state.
    pub fn of(seed: u64, purpose: Purpose, index: u64) -> Self {
        let word = purpose.word();
        let (a, b, c) = (mix(seed), mix(word), mix(index));
        let words = [a, b, c, mix(a ^ b.rotate_left(21) ^ c.rotate_left(42))];
        let mut state = [0u8; 32];
        for (k, w) in words.iter().enumerate() {
            state[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
        Stream(Xoshiro256PlusPlus::from_seed(state))
    }

    /// Uniform in [0, 1), with 53 random bits.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.0.random::<u64>() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// 64 random bits: the seed of the streams one step draws from, one per item (GREEDY
    /// gives each article of a request its own stream, so what an article draws does not
    /// depend on which others were evaluated).
    #[inline]
    pub fn bits(&mut self) -> u64 {
        self.0.random::<u64>()
    }

    /// Uniform in [a, b).
    #[inline]
    pub fn uniform_in(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.uniform()
    }

    /// Exponential with the given rate, by inversion: −ln(1 − U)/rate.
    #[inline]
    pub fn exponential(&mut self, rate: f64) -> f64 {
        -ln_1p(-self.uniform()) / rate
    }

    /// A standard normal draw (Marsaglia's polar method).
    pub fn normal(&mut self) -> f64 {
        loop {
            let (u, v) = (2.0 * self.uniform() - 1.0, 2.0 * self.uniform() - 1.0);
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                return u * sqrt(-2.0 * ln(s) / s);
            }
        }
    }

    /// Uniform in 0..n (n > 0), by Lemire's multiply-shift (bias below n/2⁶⁴).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.0.random::<u64>() as u128 * n as u128) >> 64) as u64
    }
}

/// A seed for a run that did not name one, from the operating system or the browser.
/// The seed is reported with the result so the run can be repeated.
pub fn fresh_seed() -> u64 {
    let mut bytes = [0u8; 8];
    match getrandom::fill(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes) >> 11, // fits a JavaScript number exactly
        Err(_) => 0x5EED,
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<f64> = (0..4)
            .map({
                let mut s = Stream::of(7, Purpose::Test, 1);
                move |_| s.uniform()
            })
            .collect();
        let b: Vec<f64> = (0..4)
            .map({
                let mut s = Stream::of(7, Purpose::Test, 1);
                move |_| s.uniform()
            })
            .collect();
        let c: Vec<f64> = (0..4)
            .map({
                let mut s = Stream::of(7, Purpose::Test, 2);
                move |_| s.uniform()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn first_draws_are_pinned_on_every_target() {
        // Golden values: a change here breaks reproducibility of every saved run.
        let mut s = Stream::of(42, Purpose::Test, 0);
        let got: Vec<u64> = (0..3).map(|_| s.bits()).collect();
        assert_eq!(got, GOLDEN_42_0);
    }

    /// Issue 45: every purpose (with its fields' values) at many indices names a stream
    /// of its own: no two of 29 × 4,994 streams, nor the same ones under another seed,
    /// start with the same two draws. (By construction: the purpose's word and the index are
    /// each in a word of the state.)
    #[test]
    fn no_two_purposes_or_indices_share_a_stream() {
        let mut firsts = std::collections::HashSet::new();
        let mut words = std::collections::HashSet::new();
        for purpose in Purpose::SAMPLES.into_iter().chain([Purpose::Test]) {
            assert!(words.insert(purpose.word()), "{purpose:?} shares its word");
            for seed in [1, 2] {
                for index in (0..4_000).chain([1 << 20, 1 << 32, u64::MAX - 1, u64::MAX]).chain((1..991).map(|k| k << 40)) {
                    let mut stream = Stream::of(seed, purpose, index);
                    let first = (stream.bits(), stream.bits());
                    assert!(firsts.insert(first), "{purpose:?} at index {index}, seed {seed}: its first draws repeat another stream's");
                }
            }
        }
        assert_eq!(firsts.len(), 29 * 2 * 4_994);
    }

    #[test]
    fn normal_draws_have_unit_variance() {
        let mut rng = Stream::of(9, Purpose::Test, 9);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 4.0 / (n as f64).sqrt() && (var - 1.0).abs() < 0.02, "{mean} {var}");
    }

    #[test]
    fn below_is_uniform_over_its_range() {
        let mut rng = Stream::of(5, Purpose::Test, 1);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7) as usize] += 1;
        }
        // each count is Binomial(70,000, 1/7): sd ≈ 92.6; 5 sd is far outside chance
        assert!(counts.iter().all(|&c| (c as f64 - 10_000.0).abs() < 463.0), "{counts:?}");
    }
    const GOLDEN_42_0: [u64; 3] = [9822092088746171890, 4707706058760330636, 14032814061120662408];

    #[test]
    fn exponential_mean_is_within_its_confidence_interval() {
        let mut s = Stream::of(3, Purpose::Test, 9);
        let n = 200_000;
        let rate = 2.5;
        let mean = (0..n).map(|_| s.exponential(rate)).sum::<f64>() / n as f64;
        // standard error of the mean of Exp(rate) is 1/(rate·√n); 4 standard errors
        let se = 1.0 / (rate * (n as f64).sqrt());
        assert!((mean - 1.0 / rate).abs() < 4.0 * se, "mean {mean}");
    }

    #[test]
    fn fresh_seeds_fit_a_javascript_number() {
        assert!(fresh_seed() < (1u64 << 53));
    }
}
