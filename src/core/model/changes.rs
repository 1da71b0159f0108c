//! A page's Poisson changes, drawn in time order from the page's own stream
//! (`Purpose::PageChanges`): whoever replays a page's changes — the account of what a
//! crawler's copies are worth, or a schedule that crawls on each announced change —
//! holds a copy of the same [`ChangeTimes`], so both see the same instants to the bit.

use crate::core::rng::{Purpose, Stream};

#[derive(Clone, Debug)]
pub struct ChangeTimes {
    stream: Stream,
    rate: f64,
    next: f64,
}

impl ChangeTimes {
    /// Page `page`'s changes at `rate` a day from time 0 (none at rate 0).
    pub fn of(seed: u64, page: u64, rate: f64) -> Self {
        let mut stream = Stream::of(seed, Purpose::PageChanges, page);
        let next = if rate > 0.0 { stream.exponential(rate) } else { f64::INFINITY };
        ChangeTimes { stream, rate, next }
    }

    /// The time of the next change not yet passed (∞ for a page that never changes).
    #[inline]
    pub fn next(&self) -> f64 {
        self.next
    }

    /// Passes the next change.
    #[inline]
    pub fn advance(&mut self) {
        self.next += self.stream.exponential(self.rate);
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// The gaps are exponential of mean 1/rate (within 4 standard errors), a copy
    /// replays the same instants, and a page of rate 0 never changes.
    #[test]
    fn changes_are_poisson_and_copies_replay_them() {
        let mut a = ChangeTimes::of(7, 3, 2.0);
        let mut copy = a.clone();
        let n = 100_000;
        for _ in 0..n {
            a.advance();
        }
        let mean = a.next() / (n + 1) as f64;
        assert!((mean * 2.0 - 1.0).abs() < 4.0 / (n as f64).sqrt(), "mean gap {mean}");
        for _ in 0..n {
            copy.advance();
        }
        assert_eq!(copy.next(), a.next());
        assert_eq!(ChangeTimes::of(7, 3, 0.0).next(), f64::INFINITY);
    }
}
