//! Crawling on announced changes (the complete-observation sources of Kolobov et al.,
//! NeurIPS 2019, §5): a page whose every change is announced — by a sitemap or a feed —
//! is crawled at each change with probability p = min(1, f/λ), its allocated rate f
//! over its change rate. Crawled at the change's instant, its copy is then fresh with
//! probability p and pays −ln p in harmonic staleness
//! ([`crate::core::alloc::objective::Objective::observed_value`]); a polite server
//! ([`PoliteListening`]) makes the crawl at its next request instead.
//! The decisions are made epoch by epoch: a change before the epoch's end is crawled or
//! not at the probability of its epoch, one after waits for the next epoch's.

use super::Schedule;
use super::merge::Merge;
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
    /// change rate `lambda` (indexed by page), and its next crawl. A crawl still due
    /// from the last epoch (a polite server had no request free for it yet) stays due.
    pub fn retarget(&mut self, f: &[f64], lambda: &[f64], end: f64, rng: &mut Stream) {
        self.end = end;
        let mut entries: Vec<(f64, u32)> = self.queue.entries().collect();
        let mut due = vec![false; self.pages.len()];
        for &(_, k) in &entries {
            due[k as usize] = true;
        }
        for (k, a) in self.pages.iter_mut().enumerate() {
            a.p = if lambda[a.page] > 0.0 { (f[a.page] / lambda[a.page]).min(1.0) } else { 0.0 };
            if due[k] {
                continue;
            }
            let t = next_crawl(a, end, rng);
            if t.is_finite() {
                entries.push((t, k as u32));
            }
        }
        self.queue = EventQueue::from_entries(entries);
    }

    /// Takes the earliest crawl due and makes it at `t`, at or after its change: the
    /// fetch covers the page's changes up to `t`, so its next crawl is on a later one.
    /// Returns the page.
    pub fn take_at(&mut self, t: f64, rng: &mut Stream) -> usize {
        let (_, k) = self.queue.pop().expect("a crawl is due");
        let a = &mut self.pages[k as usize];
        let mut next = next_crawl(a, self.end, rng);
        while next <= t {
            next = next_crawl(a, self.end, rng);
        }
        if next.is_finite() {
            self.queue.push(next, k);
        }
        a.page
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
        let t = self.next_time();
        (t, self.take_at(t, rng))
    }
}

/// A server some of whose pages announce their changes: the others' Poisson crawls
/// (`blind`) and crawls at the announced changes, in time order (the blind first at a
/// tie). Neither learns from a fetch; like the Poisson crawls, the crawls at the changes
/// keep P on average only ([`PoliteListening`] keeps it on every gap).
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

/// MERGE on a server some of whose pages announce their changes, keeping P on every
/// gap: the server is requested every 1/f_s, f_s the rates of all its pages (the
/// announced ones' f = pλ included), so the gaps are at least P wherever the allocation
/// keeps f_s ≤ 1/P. A request goes to the earliest crawl due on an announced change if
/// one has come (the crawl waits for the server's next request), else to MERGE's next
/// page among the others (`merge`, built with [`Merge::with_slots`]). A server whose
/// pages all announce is requested only when a crawl is due, at its next request time.
pub struct PoliteListening<'a> {
    pub merge: &'a mut Merge,
    pub announced: &'a mut OnChange,
}

impl Schedule for PoliteListening<'_> {
    #[inline]
    fn next_time(&self) -> f64 {
        if self.merge.has_pages() { self.merge.next_time() } else { self.merge.slot_from(self.announced.next_time()) }
    }

    fn take(&mut self, f: &[f64], rng: &mut Stream) -> (f64, usize) {
        let t = self.next_time();
        if self.announced.next_time() <= t {
            let t = self.merge.lend(t);
            (t, self.announced.take_at(t, rng))
        } else {
            self.merge.take(f, rng)
        }
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

    /// A page's changes before `until`.
    fn changes_of(seed: u64, page: usize, lambda: f64, until: f64) -> Vec<f64> {
        let mut c = ChangeTimes::of(seed, page as u64, lambda);
        std::iter::from_fn(|| (c.next() < until).then(|| (c.next(), c.advance()).0)).collect()
    }

    /// A polite server, by hand: one page announcing its changes and crawled at every
    /// one (f = λ), beside two pages MERGE spaces. The server is requested every
    /// g = 1/(f₀ + f₁ + f₂), exactly (P holds on every gap); the announced page is
    /// fetched at request k exactly when it changed since request k − 1; the others
    /// take the remaining requests in proportion to their rates; and the announced page
    /// is fresh for (1 − e^{−λg})/(λg) of the time, the closed form of a page fetched
    /// every g (within 4 standard errors).
    #[test]
    fn a_polite_server_crawls_announced_changes_at_its_next_request() {
        let (lambda0, f) = (3.0, [3.0, 2.0, 1.0]);
        let lambda = [lambda0, 0.5, 0.5];
        let blind = [0.0, f[1], f[2]];
        let (g, days) = (1.0 / 6.0, 5_000.0);
        let mut rng = Stream::of(3, Purpose::Test, 0);
        let mut merge = Merge::with_slots(&blind, 6.0, 0..3, &mut rng);
        let mut announced = OnChange::new(vec![(0, ChangeTimes::of(8, 0, lambda0))]);
        announced.retarget(&f, &lambda, days, &mut rng);
        let mut server = PoliteListening { merge: &mut merge, announced: &mut announced };
        let requests: Vec<(f64, usize)> = std::iter::from_fn(|| (server.next_time() < days).then(|| server.take(&blind, &mut rng))).collect();
        assert!((requests.len() as f64 - days / g).abs() <= 1.0, "the bandwidth: {} requests", requests.len());
        for w in requests.windows(2) {
            assert!((w[1].0 - w[0].0 - g).abs() < 1e-9, "a gap of {} at {}", w[1].0 - w[0].0, w[0].0);
        }
        let changes = changes_of(8, 0, lambda0, days);
        let mut next_change = changes.iter().peekable();
        let mut previous = f64::NEG_INFINITY;
        for &(t, page) in &requests {
            let mut changed = false;
            while next_change.peek().is_some_and(|&&c| c <= t) {
                changed |= *next_change.next().unwrap() > previous;
            }
            assert_eq!(page == 0, changed, "request at {t} to page {page}");
            previous = t;
        }
        let count = |i: usize| requests.iter().filter(|r| r.1 == i).count() as f64;
        assert!((count(1) - 2.0 * count(2)).abs() <= 2.0, "MERGE's pages 2:1: {} and {}", count(1), count(2));
        // freshness of page 0: each gap, fresh until its first change
        let per_gap: Vec<f64> =
            requests.windows(2).map(|w| (changes.partition_point(|&c| c <= w[0].0), w[0].0)).map(|(k, t)| changes.get(k).map_or(g, |&c| (c - t).min(g)) / g).collect();
        let n = per_gap.len() as f64;
        let mean = per_gap.iter().sum::<f64>() / n;
        let sd = (per_gap.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let closed = -(-lambda0 * g).exp_m1() / (lambda0 * g);
        assert!((mean - closed).abs() < 4.0 * sd / n.sqrt(), "freshness {mean} against {closed}");
    }

    /// A polite server whose pages all announce: it is requested only when a crawl is
    /// due, at its next request time (the gaps are at least 1/f_s), each change is
    /// fetched within three requests' time (one a page, and an epoch's start), and a crawl still due at
    /// an epoch's end is made in the next epoch, not lost.
    #[test]
    fn a_polite_server_of_announcing_pages_waits_for_its_next_request() {
        let lambda = [2.0, 0.7];
        let f = lambda;
        let g = 1.0 / (f[0] + f[1]);
        let days = 3_000.0;
        let mut rng = Stream::of(2, Purpose::Test, 0);
        let mut merge = Merge::with_slots(&[0.0, 0.0], 1.0 / g, 0..2, &mut rng);
        let mut announced = OnChange::new((0..2).map(|i| (i, ChangeTimes::of(6, i as u64, lambda[i]))).collect());
        let mut requests = Vec::new();
        // epochs end at arbitrary times, with crawls still due across them
        for (start, end) in [(0.0, 17.3), (17.3, 400.05), (400.05, 1234.567), (1234.567, days)] {
            announced.retarget(&f, &lambda, end, &mut rng);
            if start > 0.0 {
                merge.retarget(&[0.0, 0.0], &[0.0, 0.0], 1.0 / g, 0..2, start, &mut rng);
            }
            let mut server = PoliteListening { merge: &mut merge, announced: &mut announced };
            requests.extend(std::iter::from_fn(|| (server.next_time() < end).then(|| server.take(&[0.0, 0.0], &mut rng))));
        }
        for w in requests.windows(2) {
            let gaps = (w[1].0 - w[0].0) / g;
            assert!(gaps >= 1.0 - 1e-9, "a gap of {gaps} requests at {}", w[0].0);
        }
        for (i, &rate) in lambda.iter().enumerate() {
            let crawls: Vec<f64> = requests.iter().filter(|r| r.1 == i).map(|r| r.0).collect();
            for c in changes_of(6, i, rate, days - 3.0 * g) {
                let k = crawls.partition_point(|&t| t < c);
                assert!(k < crawls.len() && crawls[k] <= c + 3.0 * g, "page {i}'s change at {c} waits until {:?}", crawls.get(k));
            }
        }
    }
}
