//! Crawling on announced changes (the complete-observation sources of Kolobov et al.,
//! NeurIPS 2019, §5): a page whose every change is announced — by a sitemap or a feed —
//! is crawled at each change with probability p = min(1, f/λ), its allocated rate f
//! over its change rate. Its copy is then fresh with probability p and pays −ln p in
//! harmonic staleness ([`crate::core::alloc::objective::Objective::observed_value`]).
//! The decisions are made epoch by epoch: a change before the epoch's end is crawled or
//! not at the probability of its epoch, one after waits for the next epoch's.

use super::Schedule;
use crate::core::model::changes::ChangeTimes;
use crate::core::rng::Stream;
use crate::core::sim::queue::EventQueue;

/// One server's announced pages.
pub struct OnChange {
    pages: Vec<Announced>,
    /// (next crawl, the page's place in `pages`), within the epoch.
    queue: EventQueue<u32>,
    end: f64,
}

struct Announced {
    page: usize,
    /// The page's changes from the first one not yet decided.
    changes: ChangeTimes,
    p: f64,
    /// Changes decided so far (all before the current epoch's end).
    announced: u64,
}

impl OnChange {
    /// `pages`: each announced page and its changes from time 0; nothing is crawled
    /// until [`OnChange::retarget`] gives the first epoch's rates.
    pub fn new(pages: Vec<(usize, ChangeTimes)>) -> Self {
        let pages = pages.into_iter().map(|(page, changes)| Announced { page, changes, p: 0.0, announced: 0 }).collect();
        OnChange { pages, queue: EventQueue::new(), end: f64::NEG_INFINITY }
    }

    /// The epoch ending at `end`: each page's crawl probability from its rate `f` and
    /// change rate `lambda` (indexed by page), and its next crawl.
    pub fn retarget(&mut self, f: &[f64], lambda: &[f64], end: f64, rng: &mut Stream) {
        self.end = end;
        let mut entries = Vec::with_capacity(self.pages.len());
        for (k, a) in self.pages.iter_mut().enumerate() {
            a.p = if lambda[a.page] > 0.0 { (f[a.page] / lambda[a.page]).min(1.0) } else { 0.0 };
            let t = next_crawl(a, end, rng);
            if t.is_finite() {
                entries.push((t, k as u32));
            }
        }
        self.queue = EventQueue::from_entries(entries);
    }

    /// (page, changes announced so far): every change before the epoch's end.
    pub fn announced(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.pages.iter().map(|a| (a.page, a.announced))
    }
}

/// The next change of `a` before `end` that is crawled (∞ if none), deciding each
/// change on the way.
fn next_crawl(a: &mut Announced, end: f64, rng: &mut Stream) -> f64 {
    loop {
        let c = a.changes.next();
        if c >= end {
            return f64::INFINITY;
        }
        a.changes.advance();
        a.announced += 1;
        if rng.uniform() < a.p {
            return c;
        }
    }
}

impl Schedule for OnChange {
    #[inline]
    fn next_time(&self) -> f64 {
        self.queue.peek().map_or(f64::INFINITY, |(t, _)| t)
    }

    fn take(&mut self, _f: &[f64], rng: &mut Stream) -> (f64, usize) {
        let (t, k) = self.queue.pop().expect("a crawl is due");
        let a = &mut self.pages[k as usize];
        let next = next_crawl(a, self.end, rng);
        if next.is_finite() {
            self.queue.push(next, k);
        }
        (t, a.page)
    }
}

/// A server some of whose pages announce their changes: the others' schedule (`blind`:
/// Poisson crawls, or MERGE's equally spaced ones) and crawls on the announced changes,
/// in time order (the blind first at a tie). Neither learns from a fetch.
pub struct Listening<'a, B: Schedule> {
    pub blind: &'a mut B,
    pub announced: &'a mut OnChange,
}

impl<B: Schedule> Schedule for Listening<'_, B> {
    #[inline]
    fn next_time(&self) -> f64 {
        self.blind.next_time().min(self.announced.next_time())
    }

    fn take(&mut self, f: &[f64], rng: &mut Stream) -> (f64, usize) {
        if self.blind.next_time() <= self.announced.next_time() { self.blind.take(f, rng) } else { self.announced.take(f, rng) }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    /// Every crawl is at one of the page's changes; each change is crawled with
    /// probability f/λ (within 4 standard errors); a page with f ≥ λ is crawled at every
    /// change; the count of announced changes is every change before the epoch's end;
    /// and cutting the time into epochs at the same rates changes nothing.
    #[test]
    fn crawls_fall_on_changes_at_the_probability() {
        let (lambda, f) = ([2.0, 1.0, 0.5], [0.5, 3.0, 0.0]);
        let pages = || (0..3).map(|i| (i, ChangeTimes::of(4, i as u64, lambda[i]))).collect::<Vec<_>>();
        let run = |epochs: &[f64]| {
            let mut s = OnChange::new(pages());
            let mut rng = Stream::of(1, Purpose::Test, 0);
            let mut crawls = Vec::new();
            for &end in epochs {
                s.retarget(&f, &lambda, end, &mut rng);
                while s.next_time() < end {
                    crawls.push(s.take(&f, &mut rng));
                }
            }
            (crawls, s.announced().collect::<Vec<_>>())
        };
        let days = 20_000.0;
        let (crawls, announced) = run(&[days]);
        let changes: Vec<Vec<f64>> = (0..3)
            .map(|i| {
                let mut c = ChangeTimes::of(4, i as u64, lambda[i]);
                let mut all = Vec::new();
                while c.next() < days {
                    all.push(c.next());
                    c.advance();
                }
                all
            })
            .collect();
        for &(t, i) in &crawls {
            assert!(changes[i].binary_search_by(|c| c.total_cmp(&t)).is_ok(), "a crawl of page {i} at {t} is not one of its changes");
        }
        let count = |i: usize| crawls.iter().filter(|c| c.1 == i).count() as f64;
        let n0 = changes[0].len() as f64;
        let p = f[0] / lambda[0];
        assert!((count(0) / n0 - p).abs() < 4.0 * (p * (1.0 - p) / n0).sqrt(), "page 0: {} of {n0}", count(0));
        assert_eq!(count(1), changes[1].len() as f64, "f ≥ λ: every change");
        assert_eq!(count(2), 0.0);
        assert_eq!(announced, (0..3).map(|i| (i, changes[i].len() as u64)).collect::<Vec<_>>());
        assert!(crawls.windows(2).all(|w| w[0].0 <= w[1].0), "in time order");
        // epochs at the same rates: each change is still decided once (the draws fall
        // in another order, so page 0's crawls differ, within their spread)
        let (cut, cut_announced) = run(&[5000.0, 12_345.0, days]);
        assert_eq!(cut_announced, announced);
        let on = |crawls: &[(f64, usize)], i: usize| crawls.iter().filter(|c| c.1 == i).map(|c| c.0).collect::<Vec<f64>>();
        assert_eq!(on(&cut, 1), changes[1]);
        assert!(on(&cut, 2).is_empty());
        let n = on(&cut, 0).len() as f64;
        assert!((n / n0 - p).abs() < 4.0 * (p * (1.0 - p) / n0).sqrt(), "page 0 in epochs: {n} of {n0}");
    }
}
