//! The event engine of every simulator: a heap of (time, item), earliest first.
//!
//! Ties in time are broken by the item's own order, so runs are deterministic: page
//! heaps use the page index, and [`Engine`] wraps events with an insertion counter to
//! get SimPy's rule (equal times in insertion order).

/// A time: continuous (f64, days or minutes) or in whole units (u64, the robots-vs-
/// sensors experiment). Times are never NaN (every simulator validates its inputs).
pub trait Time: Copy + PartialOrd + std::fmt::Debug {}
impl Time for f64 {}
impl Time for u64 {}

/// A min-heap of items keyed by time; `T`'s order breaks ties. Four children per
/// node: half the levels of a binary heap. Times and items are kept in two arrays side
/// by side: a family's four times share half a cache line, and items are read only to
/// break ties — what a revisit schedule of thousands of pages pays for.
#[derive(Clone, Debug)]
pub struct EventQueue<T, K = f64> {
    times: Vec<K>,
    items: Vec<T>,
}

impl<T, K> Default for EventQueue<T, K> {
    fn default() -> Self {
        EventQueue { times: Vec::new(), items: Vec::new() }
    }
}

const ARITY: usize = 4;

impl<T: Ord + Copy, K: Time> EventQueue<T, K> {
    pub fn new() -> Self {
        EventQueue { times: Vec::new(), items: Vec::new() }
    }

    pub fn with_capacity(n: usize) -> Self {
        EventQueue { times: Vec::with_capacity(n), items: Vec::with_capacity(n) }
    }

    /// Builds a heap from unordered entries in O(n).
    pub fn from_entries(entries: Vec<(K, T)>) -> Self {
        let (times, items) = entries.into_iter().unzip();
        let mut q = EventQueue { times, items };
        let n = q.len();
        if n > 1 {
            for k in (0..=(n - 2) / ARITY).rev() {
                q.sift_down(k);
            }
        }
        q
    }

    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Every entry, in heap (not time) order.
    pub fn entries(&self) -> impl Iterator<Item = (K, T)> + '_ {
        self.times.iter().copied().zip(self.items.iter().copied())
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The earliest entry.
    #[inline]
    pub fn peek(&self) -> Option<(K, T)> {
        Some((*self.times.first()?, self.items[0]))
    }

    pub fn push(&mut self, time: K, item: T) {
        self.times.push(time);
        self.items.push(item);
        self.sift_up(self.len() - 1, time, item);
    }

    pub fn pop(&mut self) -> Option<(K, T)> {
        let (time, item) = (self.times.pop()?, self.items.pop()?);
        if self.times.is_empty() {
            return Some((time, item));
        }
        let top = (std::mem::replace(&mut self.times[0], time), std::mem::replace(&mut self.items[0], item));
        self.sift_down(0);
        Some(top)
    }

    /// Whether (time, item) comes before entry b. Times are never NaN (every simulator
    /// validates its inputs), so plain comparisons order them; equal times, rare, are a
    /// branch the processor predicts, and the rest a conditional move.
    #[inline(always)]
    fn precedes(&self, time: K, item: T, b: usize) -> bool {
        let tb = self.times[b];
        if time == tb { item < self.items[b] } else { time < tb }
    }

    /// Moves entry `from` to slot `to`.
    #[inline(always)]
    fn shift(&mut self, from: usize, to: usize) {
        self.times[to] = self.times[from];
        self.items[to] = self.items[from];
    }

    /// Replaces the earliest entry by (time, item): a pop and a push in one pass.
    /// Bottom-up (Floyd/Wegener): the hole at the top follows the earliest child down to
    /// a leaf without comparing with the new entry, which then rises from there — fewer
    /// comparisons when, as in a revisit schedule, the new time is usually among the
    /// latest. Keys are totally ordered, so the pops come out as with any discipline.
    #[inline]
    pub fn replace_top(&mut self, time: K, item: T) -> (K, T) {
        let top = (self.times[0], self.items[0]);
        let n = self.len();
        let mut k = 0;
        loop {
            let first = ARITY * k + 1;
            if first >= n {
                break;
            }
            let child = self.earliest_child(first, n);
            self.shift(child, k);
            k = child;
        }
        self.sift_up(k, time, item);
        top
    }

    /// The earliest of the children first, first + 1, … (those below n): a full family
    /// in two rounds of a tournament (the order is total, so it finds the same child).
    #[inline(always)]
    fn earliest_child(&self, first: usize, n: usize) -> usize {
        if let Some(family) = self.times.get(first..first + ARITY) {
            // one bounds check for the family; items only on equal times
            let pick = |a: usize, b: usize| {
                let (ta, tb) = (family[a], family[b]);
                let b_first = if ta == tb { self.items[first + b] < self.items[first + a] } else { tb < ta };
                if b_first { b } else { a }
            };
            return first + pick(pick(0, 1), pick(2, 3));
        }
        (first + 1..n).fold(first, |a, b| if self.precedes(self.times[b], self.items[b], a) { b } else { a })
    }

    /// Puts (time, item) in the hole at `k` and moves it up to its place.
    #[inline]
    fn sift_up(&mut self, mut k: usize, time: K, item: T) {
        while k > 0 {
            let parent = (k - 1) / ARITY;
            if !self.precedes(time, item, parent) {
                break;
            }
            self.shift(parent, k);
            k = parent;
        }
        self.times[k] = time;
        self.items[k] = item;
    }

    #[inline]
    fn sift_down(&mut self, mut k: usize) {
        let n = self.len();
        let (time, item) = (self.times[k], self.items[k]);
        loop {
            let first = ARITY * k + 1;
            if first >= n {
                break;
            }
            let child = self.earliest_child(first, n);
            if self.precedes(time, item, child) || (self.times[child] == time && self.items[child] == item) {
                break;
            }
            self.shift(child, k);
            k = child;
        }
        self.times[k] = time;
        self.items[k] = item;
    }
}

/// The discrete-event engine of every simulator (SimPy's rule: one event heap, equal
/// times in insertion order), generic over its time type.
#[derive(Clone, Debug)]
pub struct Engine<E, K: Time = f64> {
    queue: EventQueue<(u64, E), K>,
    inserted: u64,
    now: Option<K>,
}

/// The events in time order: each taken advances the clock to it (events the caller
/// schedules meanwhile join the order).
impl<E: Ord + Copy, K: Time> Iterator for Engine<E, K> {
    type Item = (K, E);

    fn next(&mut self) -> Option<(K, E)> {
        let (time, (_, event)) = self.queue.pop()?;
        self.now = Some(time);
        Some((time, event))
    }
}

impl<E: Ord + Copy, K: Time> Default for Engine<E, K> {
    fn default() -> Self {
        Engine { queue: EventQueue::default(), inserted: 0, now: None }
    }
}

impl<E: Ord + Copy, K: Time> Engine<E, K> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The time of the last event taken (none before the first).
    pub fn now(&self) -> Option<K> {
        self.now
    }

    /// Schedules `event` at `time` (not before now).
    pub fn schedule(&mut self, time: K, event: E) {
        debug_assert!(self.now.is_none_or(|now| time >= now), "scheduling into the past: {time:?} < {:?}", self.now);
        self.queue.push(time, (self.inserted, event));
        self.inserted += 1;
    }

    /// The time of the next event, if any.
    pub fn next_time(&self) -> Option<K> {
        self.queue.peek().map(|(t, _)| t)
    }

    /// Handles every event before `until`, in order; `handle` may schedule more.
    /// Returns how many were handled.
    pub fn run_until(&mut self, until: K, mut handle: impl FnMut(&mut Self, K, E)) -> u64 {
        let mut handled = 0;
        while self.next_time().is_some_and(|t| t < until) {
            let (time, event) = self.next().expect("an event is due");
            handle(self, time, event);
            handled += 1;
        }
        handled
    }

    /// Handles at most `budget` events, in order; returns whether none is left.
    pub fn run_for(&mut self, budget: u64, mut handle: impl FnMut(&mut Self, K, E)) -> bool {
        for _ in 0..budget {
            let Some((time, event)) = self.next() else { return true };
            handle(self, time, event);
        }
        self.queue.is_empty()
    }

    pub fn pending(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::{Purpose, Stream};

    #[test]
    fn pops_in_time_order_with_ties_by_item() {
        let mut s = Stream::of(5, Purpose::Test, 0);
        let mut q = EventQueue::new();
        let mut all = Vec::new();
        for k in 0..2000u32 {
            let t = (s.uniform() * 50.0).floor(); // many ties
            q.push(t, k);
            all.push((t, k));
        }
        all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let popped: Vec<(f64, u32)> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(popped, all);
    }

    #[test]
    fn replace_top_equals_pop_then_push() {
        let mut s = Stream::of(6, Purpose::Test, 0);
        let entries: Vec<(f64, u32)> = (0..500).map(|k| (s.uniform(), k)).collect();
        let mut a = EventQueue::from_entries(entries.clone());
        let mut b = EventQueue::from_entries(entries);
        for k in 0..3000u32 {
            let t = s.uniform() * 3.0 + k as f64 * 1e-3;
            let x = a.replace_top(t, k + 1000);
            let y = b.pop().unwrap();
            b.push(t, k + 1000);
            assert_eq!(x, y);
        }
    }

    #[test]
    fn engine_keeps_insertion_order_for_equal_times() {
        let mut e = Engine::new();
        e.schedule(2.0, 'c');
        e.schedule(1.0, 'z');
        e.schedule(2.0, 'a');
        e.schedule(1.0, 'y');
        let order: Vec<char> = e.by_ref().map(|(_, ev)| ev).collect();
        assert_eq!(order, vec!['z', 'y', 'c', 'a']);
        assert_eq!(e.now(), Some(2.0));
    }

    #[test]
    fn run_until_handles_what_is_due_and_what_handling_schedules() {
        // whole time units: each event k < 3 schedules k + 1 one unit later
        let mut e: Engine<u32, u64> = Engine::new();
        e.schedule(0, 0);
        e.schedule(5, 9);
        let mut seen = Vec::new();
        let handled = e.run_until(4, |engine, t, k| {
            seen.push((t, k));
            if k < 3 {
                engine.schedule(t + 1, k + 1);
            }
        });
        assert_eq!(handled, 4);
        assert_eq!(seen, vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
        assert_eq!(e.next_time(), Some(5), "the later event waits");
        assert!(e.run_for(10, |_, _, _| {}), "then nothing is left");
    }
}
