//! The event engine of every simulator: a heap of (time, item), earliest first.
//!
//! Ties in time are broken by the item's own order, so runs are deterministic: page
//! heaps use the page index, and [`Engine`] wraps events with an insertion counter to
//! get SimPy's rule (equal times in insertion order).

/// A min-heap of items keyed by time; `T`'s order breaks ties. Four children per
/// node: half the levels of a binary heap. Times and items are kept in two arrays side
/// by side: a family's four times share half a cache line, and items are read only to
/// break ties — what a revisit schedule of thousands of pages pays for.
#[derive(Clone, Debug, Default)]
pub struct EventQueue<T> {
    times: Vec<f64>,
    items: Vec<T>,
}

const ARITY: usize = 4;

impl<T: Ord + Copy> EventQueue<T> {
    pub fn new() -> Self {
        EventQueue { times: Vec::new(), items: Vec::new() }
    }

    pub fn with_capacity(n: usize) -> Self {
        EventQueue { times: Vec::with_capacity(n), items: Vec::with_capacity(n) }
    }

    /// Builds a heap from unordered entries in O(n).
    pub fn from_entries(entries: Vec<(f64, T)>) -> Self {
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

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The earliest entry.
    #[inline]
    pub fn peek(&self) -> Option<(f64, T)> {
        Some((*self.times.first()?, self.items[0]))
    }

    pub fn push(&mut self, time: f64, item: T) {
        self.times.push(time);
        self.items.push(item);
        self.sift_up(self.len() - 1, time, item);
    }

    pub fn pop(&mut self) -> Option<(f64, T)> {
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
    fn precedes(&self, time: f64, item: T, b: usize) -> bool {
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
    pub fn replace_top(&mut self, time: f64, item: T) -> (f64, T) {
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
    fn sift_up(&mut self, mut k: usize, time: f64, item: T) {
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

/// A discrete-event engine: events at times, equal times in insertion order.
#[derive(Clone, Debug)]
pub struct Engine<E> {
    queue: EventQueue<(u64, E)>,
    inserted: u64,
    now: f64,
}

impl<E: Ord + Copy> Default for Engine<E> {
    fn default() -> Self {
        Engine { queue: EventQueue::new(), inserted: 0, now: 0.0 }
    }
}

impl<E: Ord + Copy> Engine<E> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The time of the last event taken.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Schedules `event` at `time` (not before now).
    pub fn schedule(&mut self, time: f64, event: E) {
        debug_assert!(time >= self.now, "scheduling into the past: {time} < {}", self.now);
        self.queue.push(time, (self.inserted, event));
        self.inserted += 1;
    }

    /// The time of the next event, if any.
    pub fn next_time(&self) -> Option<f64> {
        self.queue.peek().map(|(t, _)| t)
    }

    /// Takes the next event and advances the clock to it.
    pub fn next(&mut self) -> Option<(f64, E)> {
        let (time, (_, event)) = self.queue.pop()?;
        self.now = time;
        Some((time, event))
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
        let order: Vec<char> = std::iter::from_fn(|| e.next().map(|(_, ev)| ev)).collect();
        assert_eq!(order, vec!['z', 'y', 'c', 'a']);
        assert_eq!(e.now(), 2.0);
    }
}
