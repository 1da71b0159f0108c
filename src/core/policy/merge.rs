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
        let fs: f64 = pages.clone().map(|i| f[i]).filter(|&x| x > 0.0).sum();
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
