//! Per-page equally spaced revisits (ch. 4): page i is due at d_i + k/f_i. UNPOLITE
//! requests it then, whatever the server's last request; DELAYED (Fig 4.2–4.3) delays a
//! request that would come less than P after the previous one to previous + P.

use super::{Schedule, VirtualVisits};
use crate::core::rng::Stream;
use std::ops::Range;

pub struct Spaced {
    visits: VirtualVisits,
    /// P for DELAYED; `None` for UNPOLITE.
    politeness: Option<f64>,
    last: f64,
}

impl Spaced {
    pub fn new(f: &[f64], pages: Range<usize>, rng: &mut Stream, politeness: Option<f64>) -> Self {
        Spaced { visits: VirtualVisits::new(f, pages, rng), politeness, last: f64::NEG_INFINITY }
    }
}

impl Schedule for Spaced {
    #[inline]
    fn next_time(&self) -> f64 {
        let due = self.visits.peek().map_or(f64::INFINITY, |(t, _)| t);
        match self.politeness {
            Some(p) => due.max(self.last + p),
            None => due,
        }
    }

    #[inline]
    fn take(&mut self, f: &[f64], _rng: &mut Stream) -> (f64, usize) {
        let t = self.next_time();
        // the next target follows the per-page schedule, not the delayed time
        let (_, page) = self.visits.advance(f).expect("a requested server has pages");
        self.last = t;
        (t, page)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    #[test]
    fn delayed_keeps_politeness_and_unpolite_keeps_the_targets() {
        // two pages every 10, offsets close together: UNPOLITE collides, DELAYED waits
        let f = [0.1, 0.1];
        let mut rng = Stream::of(8, Purpose::Test, 0);
        let mut unpolite = Spaced::new(&f, 0..2, &mut rng, None);
        let mut rng = Stream::of(8, Purpose::Test, 0);
        let mut delayed = Spaced::new(&f, 0..2, &mut rng, Some(6.0));
        let u: Vec<f64> = (0..6).map(|_| unpolite.take(&f, &mut rng).0).collect();
        let d: Vec<f64> = (0..6).map(|_| delayed.take(&f, &mut rng).0).collect();
        for w in u.chunks(2).zip(d.chunks(2)) {
            assert!(w.1[0] >= w.0[0] && w.1[1] >= w.0[1]);
        }
        assert!(u.windows(2).any(|w| w[1] - w[0] < 6.0), "UNPOLITE violates: {u:?}");
        assert!(d.windows(2).all(|w| w[1] - w[0] >= 6.0), "DELAYED never does: {d:?}");
    }
}
