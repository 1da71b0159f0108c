//! How fast this machine runs the engine, against the machine the cost model's times
//! per unit were measured on. Every estimated time is the model's time multiplied by
//! [`slowness`]: without it, estimates read 2.4× low on a slower host (the same binary
//! took 33 s here where the reference machine took 13.7 s).
//!
//! The probe is the engine's inner loop in miniature: 4,096 pages in a queue ordered by
//! their next event; each event pops the earliest page, draws its next interval from an
//! exponential stream and pushes it back. The probe's time is the least of seven runs
//! after a first that warms the caches (the least is the one nothing else interrupted):
//! about 35 ms natively, asked for only where a time is shown or near a limit.

use super::rng::{Purpose, Stream};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const PAGES: u64 = 4_096;
const EVENTS: u64 = 50_000;

/// The probe's time on the reference machine, derived in the open (docs/researchers.md,
/// "Time estimates on this machine"): the probe on the host where `npm run estimates`
/// measured the model's time ratios, times the median of those ratios.
pub const REFERENCE_SECONDS: f64 = 0.0025;

/// Natively, before any probe: never (the first estimate probes). In WebAssembly, where
/// the page probes once it is idle, the ratio before it has: WebAssembly runs at about
/// half the native speed (BENCHMARKS.md).
#[cfg(target_arch = "wasm32")]
const UNPROBED_WASM: f64 = 2.0;

/// The probe's work; returns a checksum so that nothing is optimised away.
pub fn probe_work() -> f64 {
    let mut stream = Stream::of(1, Purpose::SpeedProbe, 0);
    let rate = |page: u32| 1.0 + (page % 7) as f64;
    // a Poisson process per page (positive times order as their bits)
    let mut queue: BinaryHeap<Reverse<(u64, u32)>> = (0..PAGES as u32).map(|k| Reverse((stream.exponential(rate(k)).to_bits(), k))).collect();
    let mut last = 0.0;
    for _ in 0..EVENTS {
        let Reverse((at, page)) = queue.pop().expect("the queue holds every page");
        last = f64::from_bits(at);
        queue.push(Reverse(((last + stream.exponential(rate(page))).to_bits(), page)));
    }
    last
}

/// Seconds since an arbitrary origin.
fn now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into()).ok();
        let now = performance.as_ref().and_then(|p| js_sys::Reflect::get(p, &"now".into()).ok()).and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        match (performance, now) {
            (Some(p), Some(f)) => f.call0(&p).ok().and_then(|v| v.as_f64()).unwrap_or_else(js_sys::Date::now) / 1000.0,
            _ => js_sys::Date::now() / 1000.0,
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static ORIGIN: OnceLock<Instant> = OnceLock::new();
        ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64()
    }
}

/// One probe's seconds.
pub fn probe_seconds() -> f64 {
    let started = now();
    std::hint::black_box(probe_work());
    now() - started
}

#[cfg(not(target_arch = "wasm32"))]
static NATIVE: std::sync::OnceLock<f64> = std::sync::OnceLock::new();

#[cfg(target_arch = "wasm32")]
thread_local! {
    static BEST: std::cell::Cell<f64> = const { std::cell::Cell::new(f64::INFINITY) };
}

/// Runs one probe and keeps the least time seen (the page calls it a few times, each in
/// a task of its own, so that no task is long). Returns the slowness so far.
pub fn record_probe() -> f64 {
    let seconds = probe_seconds();
    #[cfg(target_arch = "wasm32")]
    BEST.with(|b| b.set(b.get().min(seconds)));
    #[cfg(not(target_arch = "wasm32"))]
    let _ = seconds;
    slowness()
}

/// This machine's time for the engine's work ÷ the reference machine's: what every
/// estimated time is multiplied by.
pub fn slowness() -> f64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        *NATIVE.get_or_init(|| (0..8).map(|_| probe_seconds()).skip(1).fold(f64::INFINITY, f64::min) / REFERENCE_SECONDS)
    }
    #[cfg(target_arch = "wasm32")]
    {
        let best = BEST.with(|b| b.get());
        if best.is_finite() { best / REFERENCE_SECONDS } else { UNPROBED_WASM }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn the_probe_is_deterministic_and_does_its_work() {
        // the same stream gives the same last event time; the pages' processes add up to
        // one of rate 4,096 × 4 (rates 1 to 7, as many of each but the first), so the
        // 50,000th event comes near 50,000 / 16,384 ≈ 3.05
        let (a, b) = (probe_work(), probe_work());
        assert_eq!(a.to_bits(), b.to_bits());
        assert!((2.6..3.5).contains(&a), "last event at {a}");
    }

    #[test]
    fn slowness_is_a_positive_finite_ratio() {
        let s = record_probe();
        assert!(s.is_finite() && s > 0.0, "{s}");
        assert_eq!(slowness(), slowness(), "measured once, then kept");
    }
}
