//! Servers that push back (issue 46): a server's robots.txt Crawl-delay, its capacity and
//! its base response time, and how it answers a crawler's requests.
//!
//! The load model: the server smooths the crawler's request rate over a window of
//! [`WINDOW_S`] seconds (an exponentially weighted rate r̂: after a gap of g seconds,
//! r̂ ← e^(−g/W)·r̂ + (1 − e^(−g/W))/g, so requests every g seconds give r̂ = 1/g and a
//! burst of k requests adds about k/W). Its load is ρ = r̂ / capacity. Below capacity it
//! answers in base / (1 − ρ) seconds (the mean time in an M/M/1 queue whose service time
//! is the base response time), ρ held at 0.95 at most; over capacity (ρ > 1) it refuses
//! with 429 or 503, answering in the base time, and with Retry-After (when it sends one)
//! the fewest whole seconds after which one more request finds it within capacity. The
//! crawler is the only load counted beyond the base time.

use crate::core::labels::labelled;
use serde::{Deserialize, Serialize};

/// The server's smoothing window (seconds).
pub const WINDOW_S: f64 = 60.0;
/// The load the response time is computed at, at most (base × 20).
const MAX_LOAD: f64 = 0.95;
const SECONDS_PER_DAY: f64 = 86_400.0;

/// One server's own limits.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// robots.txt Crawl-delay in seconds (0: none).
    pub crawl_delay_s: f64,
    /// Requests a second it serves (∞: no limit).
    pub capacity: f64,
    /// Its response time when idle (seconds).
    pub response_s: f64,
}

impl Host {
    /// The most requests a day a crawler keeping P (days; 0: none) can send it without
    /// breaking its Crawl-delay or its capacity (requests spaced 1/capacity seconds
    /// apart keep the smoothed rate at capacity, never over it); ∞: no limit.
    pub fn cap_per_day(&self, politeness: f64) -> f64 {
        let gap_s = (politeness * SECONDS_PER_DAY).max(self.crawl_delay_s).max(1.0 / self.capacity);
        SECONDS_PER_DAY / gap_s
    }
}

impl Default for Host {
    fn default() -> Self {
        Host { crawl_delay_s: 0.0, capacity: f64::INFINITY, response_s: 0.0 }
    }
}

labelled! {
/// The status a server over its capacity answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    TooManyRequests => "429 Too Many Requests",
    Unavailable => "503 Service Unavailable",
}
}

/// How servers refuse a request over their capacity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refusals {
    pub status: Refusal,
    /// With a Retry-After header.
    pub retry_after: bool,
}

/// What a server answered one request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Answer {
    /// 200, after `seconds`.
    Ok { seconds: f64 },
    /// 429 or 503, after `seconds`, with Retry-After in seconds when the server sends it.
    Refused { seconds: f64, retry_after_s: Option<f64> },
}

impl Answer {
    pub fn seconds(self) -> f64 {
        match self {
            Answer::Ok { seconds } | Answer::Refused { seconds, .. } => seconds,
        }
    }
}

/// A server's state: its smoothed request rate, its last request and the time its last
/// Retry-After asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostLoad {
    /// Requests a second, smoothed.
    rate: f64,
    /// The last request's time (days; −∞ before any).
    pub last: f64,
    /// Until when its last Retry-After asked the crawler to wait (days).
    pub retry_until: f64,
    /// Until when its last refusal left it over capacity (days): the whole seconds
    /// until one more request fits, as a Retry-After would say, sent or not.
    over_until: f64,
    /// Seconds over capacity before its last request.
    over_s: f64,
}

impl Default for HostLoad {
    fn default() -> Self {
        HostLoad { rate: 0.0, last: f64::NEG_INFINITY, retry_until: f64::NEG_INFINITY, over_until: f64::NEG_INFINITY, over_s: 0.0 }
    }
}

impl HostLoad {
    /// The answer of `host` to a request at `t` (days).
    pub fn answer(&mut self, host: &Host, refusals: Refusals, t: f64) -> Answer {
        // without a capacity a server is never over it and its load is 0 whatever its
        // rate: the rate is not kept (its update was an eighth of a crawler's run on
        // 1,000,000 pages without limits)
        if host.capacity == f64::INFINITY {
            self.last = t;
            return Answer::Ok { seconds: host.response_s };
        }
        self.rate = if self.last == f64::NEG_INFINITY { 0.0 } else { rate_after(self.rate, (t - self.last) * SECONDS_PER_DAY) };
        if self.over_until > self.last {
            // an episode over capacity was open: it ends by now at the latest
            self.over_s = self.over_seconds(t);
        }
        self.last = t;
        let load = self.rate / host.capacity;
        if over(load) {
            let recovery = recovery_s(self.rate, host.capacity);
            self.over_until = t + recovery / SECONDS_PER_DAY;
            let retry_after_s = refusals.retry_after.then_some(recovery);
            if let Some(s) = retry_after_s {
                self.retry_until = t + s / SECONDS_PER_DAY;
            }
            return Answer::Refused { seconds: host.response_s, retry_after_s };
        }
        Answer::Ok { seconds: host.response_s / (1.0 - load.min(MAX_LOAD)) }
    }

    /// Seconds the server spent over capacity before `until` (days, not before its last
    /// request): from each refusal until one more request would fit.
    pub fn over_seconds(&self, until: f64) -> f64 {
        let open = if self.over_until > self.last { (self.over_until.min(until) - self.last).max(0.0) } else { 0.0 };
        self.over_s + open * SECONDS_PER_DAY
    }

    /// The load ρ the server last computed (its rate over `capacity`).
    pub fn load(&self, host: &Host) -> f64 {
        self.rate / host.capacity
    }
}

/// Over capacity: ρ > 1 beyond rounding.
fn over(load: f64) -> bool {
    load > 1.0 + 1e-9
}

/// The smoothed rate seen by a request `gap` seconds after the last one (at one instant,
/// it adds 1/W): e^(−g/W)·r − (e^(−g/W) − 1)/g, both terms from one `exp_m1` (two
/// calls, an `exp` and an `exp_m1`, were a third of a refusing run's time).
fn rate_after(rate: f64, gap: f64) -> f64 {
    if gap <= 0.0 {
        return rate + 1.0 / WINDOW_S;
    }
    let m = (-gap / WINDOW_S).exp_m1();
    (1.0 + m) * rate - m / gap
}

/// The least capacity a server may have, in requests a second (about one a day): below
/// it every request is refused and the run is all refusals (the fuzz campaign's case
/// 1,619, a capacity of 1e-308: 7 µs a refusal spent finding a Retry-After of 10¹² s).
pub const MIN_CAPACITY: f64 = 1e-5;

/// The fewest whole seconds (at least 1) after which one more request finds the server
/// within `capacity`. The rate it would see, h(s) = e^(−s/W)·r + (1 − e^(−s/W))/s, falls
/// with the wait s and is convex, so Newton's method from a point left of the crossing
/// stays left of it: s₀ = max(1/c, W·ln(r/c)) is one (each of the two terms alone would
/// be within c there). Newton is taken from whole seconds: at w = ⌈s⌉ of a point s left
/// of the crossing, w − 1 < s does not fit, so w is the answer where it fits; where it
/// does not, w is itself left of the crossing and the next step starts there. Two or
/// three evaluations of h a refusal; the bracket of doubling and halving it replaced
/// took 14, Newton to 10⁻³ s and whole seconds tried about the root after it 8 (a
/// refusing run spent three quarters of its time here).
fn recovery_s(rate: f64, capacity: f64) -> f64 {
    const MOST_S: f64 = 1e12;
    let fits = |s: f64| !over(rate_after(rate, s) / capacity);
    let start = (1.0 / capacity).max(WINDOW_S * (rate / capacity).ln());
    // h falls: a crossing right of s₀ > 1 is right of 1 s too
    if start <= 1.0 && fits(1.0) {
        return 1.0;
    }
    // (s: the last point known left of the crossing; w = ⌈s⌉)
    let mut s = start.clamp(1.0, MOST_S);
    for _ in 0..50 {
        let w = s.ceil();
        // h(w) and h'(w) from one e^(−w/W) − 1
        let m = (-w / WINDOW_S).exp_m1();
        let h = (1.0 + m) * rate - m / w;
        if !over(h / capacity) {
            return lowest_fitting(w, s, fits);
        }
        let slope = (1.0 + m) * (1.0 / w - rate) / WINDOW_S + m / (w * w);
        let step = -(h - capacity * (1.0 + 1e-9)) / slope;
        if !(step.is_finite() && step > 0.0) {
            break;
        }
        s = (w + step).min(MOST_S);
        if s >= MOST_S {
            break;
        }
    }
    // (reached at the longest wait, or where rounding stalls a step: whole seconds from
    // where Newton stopped)
    let mut whole = s.ceil().max(1.0);
    while !fits(whole) && whole < MOST_S {
        whole += 1.0;
    }
    lowest_fitting(whole, s, fits)
}

/// `w`, a whole second that fits, or fewer where rounding put the point `s` found left of
/// the crossing (w − 1 < s) a hair right of it.
fn lowest_fitting(mut w: f64, s: f64, fits: impl Fn(f64) -> bool) -> f64 {
    if s - (w - 1.0) < 1e-6 {
        while w > 1.0 && fits(w - 1.0) {
            w -= 1.0;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    const S: f64 = 1.0 / SECONDS_PER_DAY;
    const REFUSE_WITH_HEADER: Refusals = Refusals { status: Refusal::TooManyRequests, retry_after: true };

    /// Requests every g seconds settle at a rate of 1/g: at g = 2 s on a server of 1
    /// request a second, load ½ and twice the base time, never a refusal.
    #[test]
    fn a_regular_crawler_below_capacity_is_served_at_its_load() {
        let host = Host { crawl_delay_s: 0.0, capacity: 1.0, response_s: 0.1 };
        let mut load = HostLoad::default();
        let mut last = None;
        for k in 0..2_000 {
            last = Some(load.answer(&host, REFUSE_WITH_HEADER, k as f64 * 2.0 * S));
        }
        assert!((load.load(&host) - 0.5).abs() < 1e-9, "{}", load.load(&host));
        match last.unwrap() {
            Answer::Ok { seconds } => assert!((seconds - 0.2).abs() < 1e-9, "{seconds}"),
            other => panic!("{other:?}"),
        }
    }

    /// At exactly its capacity a server still serves (the bound is ρ > 1).
    #[test]
    fn at_capacity_a_server_serves() {
        let host = Host { crawl_delay_s: 0.0, capacity: 0.5, response_s: 0.0 };
        let mut load = HostLoad::default();
        for k in 0..1_000 {
            assert!(matches!(load.answer(&host, REFUSE_WITH_HEADER, k as f64 * 2.0 * S), Answer::Ok { .. }), "request {k}");
        }
    }

    /// Hand-computed: requests in one instant on a server of 1 a second. The first finds
    /// an idle server (rate 0); each later one adds 1/60, so the 61st sees a rate of 1
    /// (served) and the 62nd 61/60: refused. One more request after τ seconds would see
    /// e^(−τ/60)·61/60 + (1 − e^(−τ/60))/τ: 1.0164 at τ = 1, 0.99973 at τ = 2, so
    /// Retry-After is 2 s. The 63rd (rate 62/60) would need 3 s: 1.0159 at 2 s, 0.9992 at 3.
    #[test]
    fn a_burst_is_refused_past_capacity_with_the_time_to_recover() {
        let host = Host { crawl_delay_s: 0.0, capacity: 1.0, response_s: 0.05 };
        let mut load = HostLoad::default();
        for k in 0..61 {
            assert!(matches!(load.answer(&host, REFUSE_WITH_HEADER, 0.0), Answer::Ok { .. }), "request {k}");
        }
        assert_eq!(load.answer(&host, REFUSE_WITH_HEADER, 0.0), Answer::Refused { seconds: 0.05, retry_after_s: Some(2.0) });
        assert_eq!(recovery_s(62.0 / 60.0, 1.0), 3.0);
        // no header when the server sends none
        let silent = Refusals { status: Refusal::Unavailable, retry_after: false };
        assert_eq!(load.answer(&host, silent, 0.0), Answer::Refused { seconds: 0.05, retry_after_s: None });
        let mut probe = load;
        assert!(matches!(probe.answer(&host, silent, 2.0 * S), Answer::Refused { .. }));
        assert!(matches!(load.answer(&host, silent, 3.0 * S), Answer::Ok { .. }));
    }

    /// The burst above: the 62nd request leaves the server over capacity for 2 s, the
    /// 63rd (same instant) for 3 s; a request at 3 s is served and ends the episode:
    /// 3 s over capacity, whatever comes later within capacity.
    #[test]
    fn time_over_capacity_runs_from_a_refusal_until_one_more_request_fits() {
        let host = Host { crawl_delay_s: 0.0, capacity: 1.0, response_s: 0.0 };
        let mut load = HostLoad::default();
        for _ in 0..61 {
            load.answer(&host, REFUSE_WITH_HEADER, 0.0);
        }
        assert_eq!(load.over_seconds(1.0), 0.0);
        load.answer(&host, REFUSE_WITH_HEADER, 0.0);
        assert!((load.over_seconds(1.0 * S) - 1.0).abs() < 1e-6, "open episode, read at 1 s");
        load.answer(&host, REFUSE_WITH_HEADER, 0.0);
        assert!((load.over_seconds(1.0) - 3.0).abs() < 1e-6, "{}", load.over_seconds(1.0));
        assert!(matches!(load.answer(&host, REFUSE_WITH_HEADER, 3.0 * S), Answer::Ok { .. }));
        load.answer(&host, REFUSE_WITH_HEADER, 60.0 * S);
        assert!((load.over_seconds(1.0) - 3.0).abs() < 1e-6, "{}", load.over_seconds(1.0));
    }

    /// A server slower than one request a minute: one request after a short wait still
    /// counts about 1/60 a second, so the wait is long (found, not looped over).
    #[test]
    fn recovery_on_a_slow_server_is_found_without_a_loop() {
        let wait = recovery_s(0.02, 0.001);
        assert!(!over(rate_after(0.02, wait) / 0.001) && over(rate_after(0.02, wait - 1.0) / 0.001), "{wait}");
    }

    /// The wait is the least whole second that fits, as a count second by second finds
    /// it, over rates from just over capacity to a burst's, on fast and slow servers.
    #[test]
    fn recovery_is_the_least_whole_second_that_fits() {
        for capacity in [0.002, 0.01, 0.05, 0.3, 1.0, 4.0, 100.0] {
            for over_by in [1.000_000_1, 1.01, 1.3, 2.0, 10.0, 300.0, 1e6] {
                let rate = capacity * over_by + 1.0 / WINDOW_S;
                let counted = (1..).map(f64::from).find(|&s| !over(rate_after(rate, s) / capacity)).expect("a wait that fits");
                assert_eq!(recovery_s(rate, capacity), counted, "rate {rate}, capacity {capacity}");
            }
        }
        // and 20,000 drawn pairs (capacity 10⁻³–10² a second, 1–10⁵ times over it)
        let mut rng = crate::core::rng::Stream::of(7, crate::core::rng::Purpose::RepositoryRates, 0);
        for _ in 0..20_000 {
            let capacity = 10f64.powf(-3.0 + 5.0 * rng.uniform());
            let rate = capacity * 10f64.powf(5.0 * rng.uniform()) + 1e-9;
            let counted = (1..).map(f64::from).find(|&s| !over(rate_after(rate, s) / capacity)).expect("a wait that fits");
            assert_eq!(recovery_s(rate, capacity), counted, "rate {rate}, capacity {capacity}");
        }
    }
}
