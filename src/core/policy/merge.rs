//! MERGE (§5.3, Fig 5.4): the server is requested every 1/f_s; each request fetches the
//! page a per-page equally spaced schedule would visit next (a heap of virtual times).

use super::{Clock, Schedule, VirtualVisits, offset};
use crate::core::rng::Stream;
use std::ops::Range;

pub struct Merge {
    visits: VirtualVisits,
    clock: Clock,
}

impl Merge {
    /// Server of `pages` with frequencies `f` (global indices); offsets from `rng`.
    pub fn new(f: &[f64], pages: Range<usize>, rng: &mut Stream) -> Self {
        Self::with_slots(f, server_rate(f, pages.clone()), pages, rng)
    }

    /// MERGE's order over `pages` at frequencies `f`, on a server requested every 1/`fs`
    /// (`fs` ≥ Σf: the requests over Σf are lent to crawls of announced changes,
    /// [`super::on_change::PoliteListening`]).
    pub fn with_slots(f: &[f64], fs: f64, pages: Range<usize>, rng: &mut Stream) -> Self {
        let visits = VirtualVisits::new(f, pages, rng);
        // a server with no page to revisit is never requested
        let clock = if fs > 0.0 { Clock::new(offset(rng, 1.0 / fs), 1.0 / fs) } else { Clock::never() };
        Merge { visits, clock }
    }

    /// A server with given first virtual visits and first request (the §5.3 example).
    pub fn with_offsets(f: &[f64], first_visits: &[(usize, f64)], start: f64) -> Self {
        let entries: Vec<(f64, u32)> = first_visits.iter().map(|&(i, t)| (t, i as u32)).collect();
        let fs: f64 = first_visits.iter().map(|&(i, _)| f[i]).sum();
        Merge { visits: VirtualVisits::from_entries(entries), clock: Clock::new(start, 1.0 / fs) }
    }

    pub fn period(&self) -> f64 {
        self.clock.period()
    }

    /// The same server going on at new frequencies `to` from time `now` (a learner's
    /// new epoch), requested every 1/`fs` (Σ`to` over its pages, or more beside
    /// announced pages: [`Merge::with_slots`]): each page keeps its place in its own
    /// spacing ([`VirtualVisits::retarget`]) and the server's next request comes 1/fs
    /// after its last one (so P still holds across the change when fs ≤ 1/P), but not
    /// before `now`; a server not yet requested starts at a uniform offset after `now`.
    pub fn retarget(&mut self, from: &[f64], to: &[f64], fs: f64, pages: Range<usize>, now: f64, rng: &mut Stream) {
        self.visits.retarget(from, to, pages, now, rng);
        self.clock = match (fs > 0.0, self.clock.last_time()) {
            (false, _) => Clock::never(),
            (true, Some(last)) => Clock::new((last + 1.0 / fs).max(now), 1.0 / fs),
            (true, None) => Clock::new(now + offset(rng, 1.0 / fs), 1.0 / fs),
        };
    }

    /// Whether any page has a virtual visit (else the server's requests are all lent).
    pub fn has_pages(&self) -> bool {
        !self.visits.is_empty()
    }

    /// The server's first request at or after `t`.
    pub fn slot_from(&self, t: f64) -> f64 {
        self.clock.first_from(t)
    }

    /// Lends the server's first request at or after `t` to another schedule: the
    /// server's clock moves on, its pages' order does not. Returns the request's time.
    pub fn lend(&mut self, t: f64) -> f64 {
        self.clock.tick_from(t)
    }
}

/// f_s: the sum of the positive frequencies of a server's pages.
pub fn server_rate(f: &[f64], pages: Range<usize>) -> f64 {
    pages.map(|i| f[i]).filter(|&x| x > 0.0).sum()
}

impl Schedule for Merge {
    #[inline]
    fn next_time(&self) -> f64 {
        self.clock.next_time()
    }

    #[inline]
    fn take(&mut self, f: &[f64], _rng: &mut Stream) -> (f64, usize) {
        let (_, page) = self.visits.advance(f).expect("a requested server has pages");
        (self.clock.tick(), page)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    #[test]
    fn worked_example_of_section_5_3() {
        // f1 = 1/40, f2 = 1/60; first per-page revisits at 10 (page 1) and 0 (page 2)
        let f = [1.0 / 40.0, 1.0 / 60.0];
        let mut m = Merge::with_offsets(&f, &[(0, 10.0), (1, 0.0)], 0.0);
        assert!((m.period() - 24.0).abs() < 1e-12, "server interval 1/(f1 + f2) = 24");
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let visits: Vec<(f64, usize)> = (0..6).map(|_| m.take(&f, &mut rng)).collect();
        let pages: Vec<usize> = visits.iter().map(|v| v.1 + 1).collect();
        assert_eq!(pages, vec![2, 1, 1, 2, 1, 2]);
        let times: Vec<f64> = visits.iter().map(|v| v.0).collect();
        for (k, t) in times.iter().enumerate() {
            assert!((t - 24.0 * k as f64).abs() < 1e-12, "request {k} at {t}");
        }
    }

    /// A learner's new epoch at unchanged rates changes nothing: the requests after
    /// `retarget` are the ones the server would have made anyway, the same pages at the
    /// same times (to rounding: the restarted clock counts from its last request).
    #[test]
    fn retargeting_to_the_same_rates_goes_on_unchanged() {
        let f = [0.5, 0.25, 0.125, 0.0625, 0.0625];
        let mut rng = Stream::of(5, Purpose::Test, 0);
        let mut kept = Merge::new(&f, 0..5, &mut rng);
        let mut moved = Merge::new(&f, 0..5, &mut Stream::of(5, Purpose::Test, 0));
        let before: Vec<(f64, usize)> = std::iter::from_fn(|| (kept.next_time() < 40.0).then(|| kept.take(&f, &mut rng))).collect();
        let same: Vec<(f64, usize)> = std::iter::from_fn(|| (moved.next_time() < 40.0).then(|| moved.take(&f, &mut rng))).collect();
        assert_eq!(before, same);
        moved.retarget(&f, &f, server_rate(&f, 0..5), 0..5, 40.0, &mut rng);
        let after: Vec<(f64, usize)> = (0..100).map(|_| moved.take(&f, &mut rng)).collect();
        let expected: Vec<(f64, usize)> = (0..100).map(|_| kept.take(&f, &mut rng)).collect();
        assert_eq!(after.iter().map(|a| a.1).collect::<Vec<_>>(), expected.iter().map(|e| e.1).collect::<Vec<_>>());
        for (a, e) in after.iter().zip(&expected) {
            assert!((a.0 - e.0).abs() <= 1e-12 * e.0, "{a:?} against {e:?}");
        }
    }

    /// New rates: the server's next request is 1/f_s′ after its last (P holds across the
    /// change), each kept page is next due 1/f′ after its last virtual visit, a page
    /// whose rate falls to 0 is never fetched again and a new page joins; then every
    /// page is fetched at its new frequency.
    #[test]
    fn retargeting_keeps_spacing_across_new_rates() {
        let from = [0.5, 0.25, 0.25, 0.0];
        let to = [0.125, 0.25, 0.0, 0.125];
        let mut rng = Stream::of(9, Purpose::Test, 0);
        let mut m = Merge::new(&from, 0..4, &mut rng);
        let mut last = f64::NAN;
        while m.next_time() < 30.0 {
            last = m.take(&from, &mut rng).0;
        }
        let due: Vec<(f64, u32)> = m.visits.heap.entries().collect();
        m.retarget(&from, &to, server_rate(&to, 0..4), 0..4, 30.0, &mut rng);
        assert_eq!(m.next_time(), (last + 2.0).max(30.0), "f_s′ = 0.5: two days after the last request");
        for (v, page) in m.visits.heap.entries() {
            let i = page as usize;
            match due.iter().find(|e| e.1 == page) {
                Some(&(old, _)) => assert!((v - (old - 1.0 / from[i] + 1.0 / to[i])).abs() < 1e-12, "page {i}"),
                None => assert!(i == 3 && (30.0..38.0).contains(&v), "the new page starts within one interval: {v}"),
            }
        }
        let mut counts = [0u32; 4];
        for _ in 0..4000 {
            counts[m.take(&to, &mut rng).1] += 1;
        }
        assert_eq!(counts[2], 0, "a page whose rate fell to 0 is not fetched");
        for i in [0, 1, 3] {
            assert!((counts[i] as f64 - 4000.0 * to[i] / 0.5).abs() <= 1.0, "page {i}: {}", counts[i]);
        }
    }

    /// Issue 13: a server whose pages all have frequency 0 is never due (a period of ∞
    /// made its next time 0·∞ = NaN, which a caller's "not yet due" test let through).
    #[test]
    fn a_server_with_nothing_to_revisit_is_never_due() {
        let mut rng = Stream::of(1, Purpose::Test, 0);
        let m = Merge::new(&[0.0, 0.0], 0..2, &mut rng);
        assert_eq!(m.next_time(), f64::INFINITY);
        let r = super::super::random::Random::new(&[0.0, 0.0], 0..2, &mut rng);
        assert_eq!(r.next_time(), f64::INFINITY);
    }

    #[test]
    fn every_page_is_fetched_at_its_frequency() {
        let f = [0.5, 0.25, 0.125, 0.125];
        let mut rng = Stream::of(3, Purpose::Test, 0);
        let mut m = Merge::new(&f, 0..4, &mut rng);
        let mut counts = [0u32; 4];
        for _ in 0..8000 {
            counts[m.take(&f, &mut rng).1] += 1;
        }
        assert_eq!(counts.map(|c| (c as f64 / 1000.0).round() as u32), [4, 2, 1, 1]);
        for (c, fi) in counts.iter().zip(f) {
            assert!((*c as f64 - 8000.0 * fi).abs() <= 1.0, "MERGE keeps each page within one visit of its share");
        }
    }
}
