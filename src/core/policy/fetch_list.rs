//! A crawl cycle's fetch list, as Nutch's Generator makes it (`Generator.Selector`: the
//! map keeps the entries due, the reduce walks them by score, highest first, skipping a
//! host's beyond `generate.max.count` and stopping at `generate.topN`). The pages left
//! off stay due and wait for the next cycle's list [beyond the thesis].
//!
//! Freshlab's reading: a page's score (the scoring filters' sort value, OPIC's by
//! default in Nutch) is its injected `nutch.score` from a seed list, else its weight,
//! never changed by links (Freshlab has none); Hadoop leaves the order of equal scores
//! unspecified, so Freshlab draws it at random each cycle (`Purpose::FetchList`). A page
//! still due from an earlier list (its server's politeness kept the fetcher from it)
//! competes again, as an entry Nutch had generated but not fetched would at its next
//! generate. One reducer: Nutch divides topN among its reducers.

use super::adaptive::{Adaptive, Intervals};
use crate::core::rng::{Purpose, Stream};

/// A page due at a cycle's start: its score, its draw among equal scores, when it fell
/// due, the page and its server.
#[derive(Clone, Copy)]
struct Candidate {
    score: f64,
    tie: f64,
    due: f64,
    page: u32,
    server: u32,
}

/// The caps of a cycle's fetch list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Caps {
    /// `generate.topN`: pages in the list (u64::MAX: no cap).
    pub top_n: u64,
    /// `generate.max.count`: pages of one host in the list (0: no cap).
    pub per_host: u64,
}

/// What one cycle's list took and left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Listed {
    pub listed: u64,
    /// Pages due that the list left for the next cycle.
    pub left: u64,
}

/// The buffers the lists are made in, kept from one cycle to the next (32 bytes a page
/// due, a count a server).
#[derive(Default)]
pub struct FetchList {
    due: Vec<(f64, u32, u32)>,
    candidates: Vec<Candidate>,
    per_server: Vec<u64>,
}

impl FetchList {
    /// Bytes a page due at a cycle's start holds while its list is made.
    pub const BYTES_PER_PAGE: u64 = 48;

    /// The list of the cycle starting at `start` over `servers` (the next cycle's start
    /// `next`): the pages listed keep their due times, the others are due at `next`.
    pub fn make(&mut self, servers: &mut [&mut Adaptive], start: f64, next: f64, caps: Caps, score: impl Fn(usize) -> f64, rng: &mut Stream) -> Listed {
        self.due.clear();
        for (s, schedule) in servers.iter_mut().enumerate() {
            schedule.take_due(start, s as u32, &mut self.due);
        }
        self.candidates.clear();
        self.candidates.extend(self.due.iter().map(|&(due, page, server)| Candidate { score: score(page as usize), tie: rng.uniform(), due, page, server }));
        let by_score = |a: &Candidate, b: &Candidate| b.score.total_cmp(&a.score).then(a.tie.total_cmp(&b.tie));
        let n = self.candidates.len();
        let top_n = usize::try_from(caps.top_n).unwrap_or(usize::MAX);
        let mut listed = 0;
        if caps.per_host == 0 {
            // the best top_n, in any order: no host's count to keep
            if n > top_n && top_n > 0 {
                self.candidates.select_nth_unstable_by(top_n - 1, by_score);
            }
            listed = n.min(top_n);
            for c in &mut self.candidates[listed..] {
                c.due = next;
            }
        } else {
            self.candidates.sort_unstable_by(by_score);
            self.per_server.clear();
            self.per_server.resize(servers.len(), 0);
            for c in &mut self.candidates {
                let count = &mut self.per_server[c.server as usize];
                if listed < top_n && *count < caps.per_host {
                    *count += 1;
                    listed += 1;
                } else {
                    c.due = next;
                }
            }
        }
        for c in &self.candidates {
            servers[c.server as usize].put(c.due, c.page);
        }
        Listed { listed: listed as u64, left: (n - listed) as u64 }
    }
}

/// A run's crawl cycles with fetch lists: the cycle, the caps, the next cycle's index,
/// the buffers, and the pages due the lists left for a later cycle (each time left).
pub struct Cycles {
    cycle: f64,
    caps: Caps,
    next: u64,
    list: FetchList,
    pub left: u64,
}

impl Cycles {
    /// The cycles of a crawler's settings, where it has a cycle and a cap on its lists.
    pub fn of(intervals: &Intervals) -> Option<Self> {
        let i = intervals;
        (i.cycle > 0.0 && (i.top_n > 0 || i.per_cycle > 0)).then(|| Cycles {
            cycle: i.cycle,
            caps: Caps { top_n: if i.top_n == 0 { u64::MAX } else { i.top_n }, per_host: i.per_cycle },
            next: 0,
            list: FetchList::default(),
            left: 0,
        })
    }

    /// Its lists' caps, by the settings that set them (`generate.topN 500, generate.max.count 20`).
    pub fn caps_said(&self) -> String {
        let Caps { top_n, per_host } = self.caps;
        let mut said = Vec::new();
        if top_n != u64::MAX {
            said.push(format!("generate.topN {top_n}"));
        }
        if per_host > 0 {
            said.push(format!("generate.max.count {per_host}"));
        }
        said.join(", ")
    }

    /// The start of the next cycle whose list is to be made, if before `until`: the run
    /// drives every server up to it, then makes the list ([`Cycles::make`]).
    pub fn due_before(&self, until: f64) -> Option<f64> {
        let start = self.next as f64 * self.cycle;
        (start < until).then_some(start)
    }

    /// The list of the cycle [`Cycles::due_before`] gave, over `servers` (the run's
    /// seed draws the order among equal scores).
    pub fn make(&mut self, servers: &mut [&mut Adaptive], score: impl Fn(usize) -> f64, seed: u64) -> Listed {
        let start = self.next as f64 * self.cycle;
        let mut rng = Stream::of(seed, Purpose::FetchList, self.next);
        self.next += 1;
        let made = self.list.make(servers, start, self.next as f64 * self.cycle, self.caps, score, &mut rng);
        self.left += made.left;
        made
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::policy::Schedule;
    use crate::core::policy::adaptive::{Intervals, Rule};
    use crate::core::rng::Purpose;
    use crate::core::sim::freshness::Fetch;

    fn daily(pages: std::ops::Range<usize>) -> Adaptive {
        Adaptive::with(Intervals { cycle: 1.0, ..Rule::Fixed.shipped() }, pages, 0.0, 1.0)
    }

    /// The pages each server has due by `t`, in order.
    fn due_by(a: &mut Adaptive, t: f64) -> Vec<u32> {
        let mut out = Vec::new();
        a.take_due(t, 0, &mut out);
        for &(due, page, _) in &out {
            a.put(due, page);
        }
        out.iter().map(|&(_, page, _)| page).collect()
    }

    /// Two hosts, pages 0–2 and 3–5, every page due at day 0, scores 6 − page: topN = 4
    /// takes pages 0–3 by score; with max.count = 2 too, a host's third page (2) is
    /// skipped and the walk goes on to 3 and 4. The pages left are due the next day.
    #[test]
    fn the_list_takes_the_highest_scores_up_to_top_n_and_a_hosts_cap() {
        let score = |page: usize| 6.0 - page as f64;
        for (caps, listed) in [(Caps { top_n: 4, per_host: 0 }, vec![0, 1, 2, 3]), (Caps { top_n: 4, per_host: 2 }, vec![0, 1, 3, 4])] {
            let (mut a, mut b) = (daily(0..3), daily(3..6));
            let mut rng = Stream::of(0, Purpose::Test, 0);
            let got = FetchList::default().make(&mut [&mut a, &mut b], 0.0, 1.0, caps, score, &mut rng);
            assert_eq!(got, Listed { listed: 4, left: 2 });
            let mut now = due_by(&mut a, 0.0);
            now.extend(due_by(&mut b, 0.0));
            now.sort_unstable();
            assert_eq!(now, listed, "{caps:?}");
            let mut tomorrow = due_by(&mut a, 1.0);
            tomorrow.extend(due_by(&mut b, 1.0));
            assert_eq!(tomorrow.len(), 6, "the two left are due at the next cycle's start");
            assert_eq!(a.next_time(), 0.0);
        }
    }

    /// Equal scores: the list is drawn at random. 2 of 10 pages a cycle over 4,000 cycles
    /// (fresh lists, each page due): each page listed 800 times in expectation, sd 25.3;
    /// every count within 5 sd.
    #[test]
    fn equal_scores_are_drawn_at_random() {
        let mut counts = [0u32; 10];
        let mut list = FetchList::default();
        for cycle in 0..4_000 {
            let mut a = daily(0..10);
            let mut rng = Stream::of(7, Purpose::FetchList, cycle);
            list.make(&mut [&mut a], 0.0, 1.0, Caps { top_n: 2, per_host: 0 }, |_| 1.0, &mut rng);
            for page in due_by(&mut a, 0.0) {
                counts[page as usize] += 1;
            }
        }
        let sd = (4_000.0 * 0.2 * 0.8f64).sqrt();
        assert!(counts.iter().all(|&c| (f64::from(c) - 800.0).abs() < 5.0 * sd), "{counts:?}");
    }

    /// generate.max.count = 2 on a daily cycle: five pages due at 0 on one host, one
    /// second apart — two on day 0 (0 and 1 s), two on day 1, the last on day 2.
    #[test]
    fn a_cycle_takes_at_most_its_cap_of_a_host() {
        let second = 1.0 / 86_400.0;
        let rule = Intervals { cycle: 1.0, per_cycle: 2, ..Rule::Fixed.shipped() };
        let mut a = Adaptive::with(rule, 0..5, second, 1.0);
        let mut cycles = Cycles::of(&rule).expect("a cap");
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let mut times = Vec::new();
        while times.len() < 5 {
            let start = cycles.due_before(f64::INFINITY).expect("cycles");
            while a.next_time() < start {
                let (t, page) = a.take(&[], &mut rng);
                a.observe(page, t, Some(Fetch { changed: true, first_change: 0.0, last_change: None }));
                times.push(t);
            }
            cycles.make(&mut [&mut a], |_| 1.0, 0);
        }
        let expected = [0.0, second, 1.0, 1.0 + second, 2.0];
        for (t, e) in times.iter().zip(expected) {
            assert!((t - e).abs() < 1e-12, "{times:?}");
        }
        assert_eq!(cycles.left, 3 + 1, "three left on day 0, one on day 1");
        // without a cycle, or a cap, there are no lists
        assert!(Cycles::of(&Intervals { cycle: 0.0, ..rule }).is_none() && Cycles::of(&Intervals { per_cycle: 0, ..rule }).is_none());
        let said = |i: Intervals| Cycles::of(&i).map(|c| c.caps_said());
        assert_eq!(said(rule).as_deref(), Some("generate.max.count 2"));
        assert_eq!(said(Intervals { top_n: 50, ..rule }).as_deref(), Some("generate.topN 50, generate.max.count 2"));
        assert_eq!(said(Intervals { top_n: 50, per_cycle: 0, ..rule }).as_deref(), Some("generate.topN 50"));
    }

    /// No cap: every page due is listed, none moved; a page not yet due is not taken.
    #[test]
    fn without_caps_every_page_due_is_listed() {
        let mut a = daily(0..3);
        let mut rng = Stream::of(0, Purpose::Test, 0);
        let (t, page) = a.take(&[], &mut rng);
        a.observe(page, t, Some(Fetch { changed: false, first_change: 0.0, last_change: None }));
        let got = FetchList::default().make(&mut [&mut a], 0.0, 1.0, Caps { top_n: u64::MAX, per_host: 0 }, |_| 1.0, &mut rng);
        assert_eq!(got, Listed { listed: 2, left: 0 });
        assert_eq!(due_by(&mut a, 0.0), vec![1, 2]);
        assert_eq!(due_by(&mut a, 30.0), vec![1, 2, 0], "page 0 due again at day 30");
    }
}
