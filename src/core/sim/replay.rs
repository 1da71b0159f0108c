//! Freshness of a repository whose changes are replayed from a trace: a copy is current
//! from a fetch until the page's next change (a change at the fetch's instant is in
//! the copy); every page starts stale (thesis §6.3).

use super::freshness::{Fetch, Freshness};
use crate::core::model::trace::Trace;
use crate::core::rng::Stream;

/// The state of the account; the trace is passed to each call.
pub struct TraceAccount {
    /// Per page: index of its first change after the last fetch.
    next: Vec<u32>,
    last_fetch: Vec<f64>,
    fresh: f64,
}

impl TraceAccount {
    pub fn new(trace: &Trace) -> Self {
        TraceAccount { next: vec![0; trace.pages()], last_fetch: vec![f64::NAN; trace.pages()], fresh: 0.0 }
    }

    /// The first change of `page` after its last fetch (∞ if none).
    fn stale_from(&self, trace: &Trace, page: usize) -> f64 {
        trace.changes(page).get(self.next[page] as usize).copied().unwrap_or(f64::INFINITY)
    }

    /// A fetch of `page` at `t` (fetches of a page come in time order); returns the
    /// page's last change up to `t`, which the fetch reveals.
    pub fn fetch(&mut self, trace: &Trace, page: usize, t: f64) -> Option<f64> {
        let last = self.last_fetch[page];
        if !last.is_nan() {
            self.fresh += self.stale_from(trace, page).min(t) - last;
        }
        let changes = trace.changes(page);
        let mut k = self.next[page] as usize;
        while k < changes.len() && changes[k] <= t {
            k += 1;
        }
        self.next[page] = k as u32;
        self.last_fetch[page] = t;
        k.checked_sub(1).map(|k| changes[k])
    }

    /// What fetching `page` at `t` reveals, before it is accounted.
    fn revealed(&self, trace: &Trace, page: usize, t: f64) -> (bool, f64) {
        let first = self.stale_from(trace, page);
        (self.last_fetch[page].is_nan() || first <= t, first)
    }

    /// Time-average share of current pages over [0, horizon].
    pub fn freshness(&self, trace: &Trace, horizon: f64) -> f64 {
        let mut fresh = self.fresh;
        for page in 0..trace.pages() {
            let last = self.last_fetch[page];
            if !last.is_nan() {
                fresh += self.stale_from(trace, page).min(horizon) - last;
            }
        }
        fresh / (horizon * trace.pages() as f64)
    }
}

/// A replayed account on its trace, as the drivers see it.
pub struct Replay<'a> {
    pub account: &'a mut TraceAccount,
    pub trace: &'a Trace,
}

impl Freshness for Replay<'_> {
    #[inline]
    fn visit(&mut self, page: usize, time: f64, _rng: &mut Stream) -> Option<Fetch> {
        let (changed, first_change) = self.account.revealed(self.trace, page, time);
        let last_change = self.account.fetch(self.trace, page, time);
        Some(Fetch { changed, first_change, last_change })
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn hand_computed_freshness() {
        // page 0 changes at 2 and 6, page 1 never; horizon 10
        let trace = Trace::from_pages(vec!["a".into(), "b".into()], vec![vec![2.0, 6.0], vec![]], 0.0, 10.0);
        let mut acc = TraceAccount::new(&trace);
        assert_eq!(acc.fetch(&trace, 0, 1.0), None); // fresh 1–2
        assert_eq!(acc.fetch(&trace, 1, 3.0), None); // fresh 3–10
        assert_eq!(acc.fetch(&trace, 0, 6.0), Some(6.0)); // stale 2–6; the change at 6 is in the copy
        assert_eq!(acc.fetch(&trace, 0, 8.0), Some(6.0)); // fresh 6–8, then 8–10
        let expected = (1.0 + 7.0 + 2.0 + 2.0) / 20.0;
        assert!((acc.freshness(&trace, 10.0) - expected).abs() < 1e-15);
    }
}
