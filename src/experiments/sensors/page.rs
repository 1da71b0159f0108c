//! The life of one page (Zemskov 2002, §4; spec §3): exponential change events, each
//! drawing a state number from the state table; some draws change nothing.

use crate::core::labels::labelled;
use crate::core::math::elementary::ceil_unit;
use crate::core::rng::Stream;
use serde::{Deserialize, Serialize};

/// State numbers: 1–3 errors 403/404/500, 4 smaller, 5 larger, 6 available unchanged.
pub type StateNumber = u8;

pub fn is_error(state: StateNumber) -> bool {
    (1..=3).contains(&state)
}

labelled! {
/// Which of two events in the same time unit comes first (the article's open question).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ties {
    /// A change in the unit of an observation (request, download start or end) happens
    /// before it: the observation sees the new state.
    ChangeFirst => "the change comes first",
    /// The observation sees the state before the change.
    ObservationFirst => "the observation comes first",
}
}

/// The parameters every page shares.
#[derive(Clone, Debug, PartialEq)]
pub struct LifeRules {
    /// Cumulative probabilities of state numbers 1…6.
    pub cumulative: [f64; 6],
    pub no_change_rules: bool,
    /// The other reading of state 6 ("available, unchanged"): drawing it never changes
    /// the page, whatever the previous state (with the no-change rules on).
    pub unchanged_never_changes: bool,
    pub size_min: u32,
    pub size_max: u32,
}

impl LifeRules {
    /// Whether drawing `new` after `previous` changes the page (spec §3).
    pub fn changes(&self, previous: StateNumber, new: StateNumber) -> bool {
        if !self.no_change_rules {
            return true;
        }
        if self.unchanged_never_changes && new == 6 {
            return false;
        }
        let same_steady = new == previous && matches!(new, 1 | 2 | 3 | 6);
        let back_to_normal = new == 6 && matches!(previous, 4 | 5);
        !(same_steady || back_to_normal)
    }

    fn draw_state(&self, stream: &mut Stream) -> StateNumber {
        let u = stream.uniform();
        (self.cumulative.iter().position(|&c| u < c).unwrap_or(5) + 1) as StateNumber
    }
}

/// Integer uniform in [lo, hi], for spans under 2⁶² (every caller's are under 2³³:
/// sizes are u32, times at most a million units). The conversions go through i64, the
/// same values as u64's: one instruction each way where u64's take four to six, on the
/// robot's path at every download.
#[inline]
pub fn uniform_int(stream: &mut Stream, lo: u64, hi: u64) -> u64 {
    debug_assert!(hi - lo < 1 << 62, "a span of {} is too wide", hi - lo);
    let scaled = ((hi - lo + 1) as i64) as f64 * stream.uniform();
    // SAFETY: uniform() is in [0, 1), so `scaled` is finite, non-negative and below the
    // span (< 2⁶²): in range of i64, which `as` would otherwise check on every call
    lo + unsafe { scaled.to_int_unchecked::<i64>() } as u64
}

/// A page, generated lazily from its own stream: the same page on every run with the
/// same seed, whichever concept observes it.
#[derive(Clone, Debug)]
pub struct PageLife {
    stream: Stream,
    /// Change events per time unit.
    rate: f64,
    /// Continuous time of the next change event…
    next_event: f64,
    /// …and its unit, the ceiling (kept: every observation asks for it).
    next_unit: u64,
    pub state: StateNumber,
    pub size: u32,
    /// Counts the effective changes.
    pub version: u32,
}

impl PageLife {
    /// A page changing `rate` times per unit, available (state 6), of random size.
    pub fn new(stream: Stream, rules: &LifeRules, rate: f64) -> Self {
        let mut stream = stream;
        let size = uniform_int(&mut stream, rules.size_min as u64, rules.size_max as u64) as u32;
        let first = if rate > 0.0 { stream.exponential(rate) } else { f64::INFINITY };
        PageLife { stream, rate, next_event: first, next_unit: ceil_unit(first), state: 6, size, version: 0 }
    }

    /// The time unit of the next change event.
    pub fn next_change(&self) -> u64 {
        self.next_unit
    }

    /// Applies the change events up to `t` — including those in unit `t` when
    /// `inclusive` — and calls `on_change(unit, new version)` for each that changes the
    /// page. Returns the number of change events.
    pub fn advance(&mut self, t: u64, inclusive: bool, rules: &LifeRules, mut on_change: impl FnMut(u64, u32)) -> u64 {
        let mut events = 0;
        loop {
            let unit = self.next_change();
            if unit > t || (unit == t && !inclusive) {
                return events;
            }
            events += 1;
            let new = rules.draw_state(&mut self.stream);
            if rules.changes(self.state, new) {
                match new {
                    4 => self.size = uniform_int(&mut self.stream, rules.size_min as u64, self.size as u64) as u32,
                    5 => self.size = uniform_int(&mut self.stream, self.size as u64, rules.size_max as u64) as u32,
                    _ => {}
                }
                self.version += 1;
                on_change(unit, self.version);
            }
            self.state = new;
            self.next_event += self.stream.exponential(self.rate);
            self.next_unit = ceil_unit(self.next_event);
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    fn rules() -> LifeRules {
        let p = [0.083, 0.125, 0.125, 0.25, 0.25, 0.166];
        let mut cumulative = [0.0; 6];
        let mut acc = 0.0;
        for k in 0..6 {
            acc += p[k];
            cumulative[k] = acc;
        }
        LifeRules { cumulative, no_change_rules: true, unchanged_never_changes: false, size_min: 65, size_max: 122_880 }
    }

    #[test]
    fn the_no_change_rules_of_spec_3() {
        let r = rules();
        for s in [1, 2, 3, 6] {
            assert!(!r.changes(s, s), "{s} then {s}");
        }
        assert!(r.changes(4, 4) && r.changes(5, 5), "sizes move again");
        assert!(!r.changes(4, 6) && !r.changes(5, 6));
        assert!(r.changes(1, 6) && r.changes(6, 1) && r.changes(1, 2) && r.changes(6, 4));
        let off = LifeRules { no_change_rules: false, ..r.clone() };
        assert!(off.changes(6, 6));
        // the other reading: state 6 never changes the page, not even after an error
        let other = LifeRules { unchanged_never_changes: true, ..r };
        for previous in 1..=6 {
            assert!(!other.changes(previous, 6), "{previous} then 6");
        }
        assert!(other.changes(6, 1) && other.changes(4, 4) && !other.changes(2, 2));
    }

    #[test]
    fn sizes_stay_in_bounds_and_move_the_right_way() {
        let r = rules();
        let mut page = PageLife::new(Stream::of(1, Purpose::Test, 2), &r, 1e-3);
        let mut last = (page.state, page.size);
        // one unit at a time: two changes in one unit are a 1-in-2,000,000 event here
        for t in 0..300_000 {
            page.advance(t, true, &r, |_, _| {});
            assert!((65..=122_880).contains(&page.size));
            match page.state {
                4 if last.0 != 4 || page.size != last.1 => assert!(page.size <= last.1),
                5 => assert!(page.size >= last.1),
                _ => {}
            }
            last = (page.state, page.size);
        }
    }

    #[test]
    fn effective_change_rate_matches_the_state_table() {
        // P(no change) = p1² + p2² + p3² + p6² + (p4 + p5)·p6 for independent draws; in
        // the other reading of state 6, p1² + p2² + p3² + p6
        // the article's shares sum to 0.999: `rules()` draws state 6 for the last 0.167
        // of [0, 1)
        let p = [0.083, 0.125, 0.125, 0.25, 0.25, 0.167];
        let stated = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[5] * p[5] + (p[3] + p[4]) * p[5];
        let other = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[5];
        // "no change" at one event and at the next share a draw: the indicators are
        // 1-dependent, so the mean's variance is (q(1 − q) + 2·(P[both] − q²))/n, with
        // P[both] summed over three consecutive draws (states 1–6 as 0–5)
        let rule = |never: bool, a: usize, b: usize| if never { (b == a && a < 3) || b == 5 } else { (b == a && (a < 3 || a == 5)) || (b == 5 && (a == 3 || a == 4)) };
        let both = |never: bool| {
            let mut sum = 0.0;
            for a in 0..6 {
                for b in 0..6 {
                    for c in 0..6 {
                        if rule(never, a, b) && rule(never, b, c) {
                            sum += p[a] * p[b] * p[c];
                        }
                    }
                }
            }
            sum
        };
        for (unchanged_never_changes, no_change) in [(false, stated), (true, other)] {
            let r = LifeRules { unchanged_never_changes, ..rules() };
            let (mut events, mut changes) = (0u64, 0u64);
            for page in 0..400 {
                let mut life = PageLife::new(Stream::of(9, Purpose::Test, page), &r, 1e-3);
                events += life.advance(10_000_000, true, &r, |_, _| changes += 1);
            }
            let share = changes as f64 / events as f64;
            let covariance = both(unchanged_never_changes) - no_change * no_change;
            let sd = ((no_change * (1.0 - no_change) + 2.0 * covariance) / events as f64).sqrt();
            assert!((share - (1.0 - no_change)).abs() < 4.0 * sd, "{share} vs {}", 1.0 - no_change);
            let rate = events as f64 / (400.0 * 1e7);
            assert!((rate / 1e-3 - 1.0).abs() < 4.0 / (events as f64).sqrt());
        }
    }

    #[test]
    fn inclusive_decides_ties() {
        let r = rules();
        let life = PageLife::new(Stream::of(3, Purpose::Test, 3), &r, 1e-3);
        let t = life.next_change();
        let mut a = life.clone();
        let mut b = life.clone();
        assert_eq!(a.advance(t, false, &r, |_, _| {}), 0);
        assert_eq!(b.advance(t, true, &r, |_, _| {}), 1);
    }
}
