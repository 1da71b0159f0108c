//! The event engine of every simulator: a binary heap of (time, item), earliest first.
//!
//! Ties in time are broken by the item's own order, so runs are deterministic: page
//! heaps use the page index, and [`Engine`] wraps events with an insertion counter to
//! get SimPy's rule (equal times in insertion order).

/// A min-heap of items keyed by time; `T`'s order breaks ties. Four children per
/// node: half the levels of a binary heap, and a node's children share a cache line or
/// two, which is what a revisit schedule of thousands of pages pays for.
#[derive(Clone, Debug, Default)]
pub struct EventQueue<T> {
    heap: Vec<(f64, T)>,
}

const ARITY: usize = 4;

/// Times are never NaN (every simulator validates its inputs), so plain comparisons
/// order them.
#[inline(always)]
fn earlier<T: Ord>(a: &(f64, T), b: &(f64, T)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl<T: Ord + Copy> EventQueue<T> {
    pub fn new() -> Self {
        EventQueue { heap: Vec::new() }
    }

    pub fn with_capacity(n: usize) -> Self {
        EventQueue { heap: Vec::with_capacity(n) }
    }

    /// Builds a heap from unordered entries in O(n).
    pub fn from_entries(entries: Vec<(f64, T)>) -> Self {
        let mut q = EventQueue { heap: entries };
        let n = q.heap.len();
        if n > 1 {
            for k in (0..=(n - 2) / ARITY).rev() {
                q.sift_down(k);
            }
        }
        q
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The earliest entry.
    #[inline]
    pub fn peek(&self) -> Option<(f64, T)> {
        self.heap.first().copied()
    }

    pub fn push(&mut self, time: f64, item: T) {
        self.heap.push((time, item));
        self.sift_up(self.heap.len() - 1, (time, item));
    }

    pub fn pop(&mut self) -> Option<(f64, T)> {
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            return Some(last);
        }
        let top = std::mem::replace(&mut self.heap[0], last);
        self.sift_down(0);
        Some(top)
    }

    /// Replaces the earliest entry by (time, item): a pop and a push in one pass.
    /// Bottom-up (Floyd/Wegener): the hole at the top follows the earliest child down to
    /// a leaf without comparing with the new entry, which then rises from there — fewer
    /// comparisons when, as in a revisit schedule, the new time is usually among the
    /// latest. Keys are totally ordered, so the pops come out as with any discipline.
    #[inline]
    pub fn replace_top(&mut self, time: f64, item: T) -> (f64, T) {
        let top = self.heap[0];
        let heap = self.heap.as_mut_slice();
        let n = heap.len();
        let mut k = 0;
        loop {
            let first = ARITY * k + 1;
            if first >= n {
                break;
            }
            let child = Self::earliest_child(heap, first, n);
            heap[k] = heap[child];
            k = child;
        }
        self.sift_up(k, (time, item));
        top
    }

    /// The earliest of the children first, first + 1, … (those below n).
    #[inline(always)]
    fn earliest_child(heap: &[(f64, T)], first: usize, n: usize) -> usize {
        let mut best = first;
        for c in first + 1..(first + ARITY).min(n) {
            if earlier(&heap[c], &heap[best]) {
                best = c;
            }
        }
        best
    }

    /// Puts `entry` in the hole at `k` and moves it up to its place.
    #[inline]
    fn sift_up(&mut self, mut k: usize, entry: (f64, T)) {
        let heap = self.heap.as_mut_slice();
        while k > 0 {
            let parent = (k - 1) / ARITY;
            if !earlier(&entry, &heap[parent]) {
                break;
            }
            heap[k] = heap[parent];
            k = parent;
        }
        heap[k] = entry;
    }

    #[inline]
    fn sift_down(&mut self, mut k: usize) {
        let heap = self.heap.as_mut_slice();
        let n = heap.len();
        let item = heap[k];
        loop {
            let first = ARITY * k + 1;
            if first >= n {
                break;
            }
            let child = Self::earliest_child(heap, first, n);
            if !earlier(&heap[child], &item) {
                break;
            }
            heap[k] = heap[child];
            k = child;
        }
        heap[k] = item;
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
    use crate::rng::Stream;

    #[test]
    fn pops_in_time_order_with_ties_by_item() {
        let mut s = Stream::new(5, 0);
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
        let mut s = Stream::new(6, 0);
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
