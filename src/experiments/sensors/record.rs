//! What a run measures (spec §3), kept in integers so that results do not depend on how
//! the run is sliced: freshness sampled every Δt, downloads, bytes, waits, changes.

use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Count, minimum, mean and maximum of a non-negative integer quantity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub count: u64,
    pub min: u64,
    pub mean: f64,
    pub max: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    count: u64,
    min: u64,
    max: u64,
    sum: u64,
}

impl Tally {
    pub fn add(&mut self, v: u64) {
        if self.count == 0 || v < self.min {
            self.min = v;
        }
        self.max = self.max.max(v);
        self.sum += v;
        self.count += 1;
    }

    /// Adds another tally's values.
    pub fn absorb(&mut self, other: &Tally) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 || other.min < self.min {
            self.min = other.min;
        }
        self.max = self.max.max(other.max);
        self.sum += other.sum;
        self.count += other.count;
    }

    pub fn spread(&self) -> Spread {
        Spread { count: self.count, min: self.min, max: self.max, mean: if self.count == 0 { 0.0 } else { self.sum as f64 / self.count as f64 } }
    }
}

/// Per concept: samples of the number of fresh pages, and the download statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    every: u64,
    /// Difference array over sample indices: fresh pages at sample k.
    step: Vec<i64>,
    pub downloads: u64,
    pub useful: u64,
    pub bytes: u64,
    pub waits: Tally,
    pub changes_between: Tally,
    pub ties: u64,
    pub events: u64,
}

impl Record {
    /// Samples at 0, Δt, 2Δt, … up to `horizon`.
    pub fn new(horizon: u64, every: u64) -> Self {
        Record {
            every,
            step: vec![0; (horizon / every + 2) as usize],
            downloads: 0,
            useful: 0,
            bytes: 0,
            waits: Tally::default(),
            changes_between: Tally::default(),
            ties: 0,
            events: 0,
        }
    }

    /// A page was fresh over the units [a, b): it counts at the samples inside.
    pub fn fresh(&mut self, a: u64, b: u64) {
        let last = self.step.len() as u64 - 1;
        let (k0, k1) = (a.div_ceil(self.every).min(last), b.div_ceil(self.every).min(last));
        if k1 > k0 {
            self.step[k0 as usize] += 1;
            self.step[k1 as usize] -= 1;
        }
    }

    /// Adds what another part of the same run measured (integers: the order of parts
    /// does not matter).
    pub fn absorb(&mut self, other: &Record) {
        for (a, b) in self.step.iter_mut().zip(&other.step) {
            *a += b;
        }
        self.downloads += other.downloads;
        self.useful += other.useful;
        self.bytes += other.bytes;
        self.waits.absorb(&other.waits);
        self.changes_between.absorb(&other.changes_between);
        self.ties += other.ties;
        self.events += other.events;
    }

    /// Fresh pages at each sample.
    pub fn counts(&self) -> Vec<i64> {
        let mut running = 0;
        self.step[..self.step.len() - 1]
            .iter()
            .map(|d| {
                running += d;
                running
            })
            .collect()
    }
}

/// What the repository holds of one page.
#[derive(Clone, Copy, Debug)]
pub struct Replica {
    /// The page version held.
    held: u32,
    fresh_since: u64,
    /// The change that made the copy stale (start of the open stale episode).
    stale_since: u64,
    last_download_version: u32,
}

/// Where a wait ends: the robot's download completes, a sensor's download starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WaitEnds {
    Completion,
    Start,
}

impl Replica {
    /// Every page starts fresh (spec §3).
    pub fn new() -> Self {
        Replica { held: 0, fresh_since: 0, stale_since: 0, last_download_version: 0 }
    }

    pub fn is_fresh(&self, version: u32) -> bool {
        self.held == version
    }

    /// The page changed at `unit` to `version`.
    pub fn changed(&mut self, unit: u64, version: u32, record: &mut Record) {
        if self.held + 1 == version {
            record.fresh(self.fresh_since, unit);
            self.stale_since = unit;
        }
    }

    /// A download that started at `start` completed at `end`, capturing `version` and
    /// `bytes`.
    pub fn downloaded(&mut self, start: u64, end: u64, version: u32, bytes: u64, ends: WaitEnds, record: &mut Record) {
        record.downloads += 1;
        record.bytes += bytes;
        if self.held != version {
            record.useful += 1;
            let until = if ends == WaitEnds::Completion { end } else { start.max(self.stale_since) };
            record.waits.add(until - self.stale_since);
            self.held = version;
            self.fresh_since = end;
        }
        record.changes_between.add((version - self.last_download_version) as u64);
        self.last_download_version = version;
    }

    /// Adds the open fresh interval up to `until` (at the horizon, or for a snapshot).
    pub fn close(&self, version: u32, until: u64, record: &mut Record) {
        if self.held == version {
            record.fresh(self.fresh_since, until);
        }
    }
}

impl Default for Replica {
    fn default() -> Self {
        Replica::new()
    }
}

/// The largest number of intervals [a, b) that overlap at some time, swept as the run
/// goes: each slice hands over the intervals that start in it (all before the slice's
/// end, and after every earlier slice's), so the maximum so far is always known and no
/// list of every download is kept or sorted again for a partial result.
#[derive(Clone, Debug, Default)]
pub struct Overlap {
    /// Ends of the intervals begun but not yet swept past, soonest first.
    ends: BinaryHeap<Reverse<u64>>,
    most: u64,
}

impl Overlap {
    /// Sweeps the intervals that start before `until` (and after every earlier call's
    /// `until`), ending any earlier one that ends by then; at equal times, ends before
    /// starts: [a, b) and [b, c) do not overlap.
    pub fn sweep(&mut self, mut intervals: Vec<(u64, u64)>, until: u64) {
        intervals.retain(|(a, b)| b > a);
        intervals.sort_unstable();
        self.sweep_sorted(&intervals, until);
    }

    /// [`Overlap::sweep`] of intervals already non-empty and in order.
    pub fn sweep_sorted(&mut self, intervals: &[(u64, u64)], until: u64) {
        for &(a, b) in intervals {
            self.start(a, b);
        }
        while self.ends.peek().is_some_and(|&Reverse(end)| end <= until) {
            self.ends.pop();
        }
    }

    /// One more interval [a, b), starting no earlier than every interval before it.
    fn start(&mut self, a: u64, b: u64) {
        while self.ends.peek().is_some_and(|&Reverse(end)| end <= a) {
            self.ends.pop();
        }
        self.ends.push(Reverse(b));
        self.most = self.most.max(self.ends.len() as u64);
    }

    /// The most intervals at once among those of `logs` that start by unit `until`.
    pub fn of_logs(logs: &[&[u8]], until: u64) -> u64 {
        let mut streams: Vec<_> = logs.iter().map(|bytes| IntervalLog::read(bytes).peekable()).collect();
        let mut overlap = Overlap::default();
        // each log is in order: take the earliest head of any, as one sorted list would
        loop {
            let next = streams.iter_mut().enumerate().filter_map(|(k, s)| s.peek().map(|&i| (i, k))).min();
            let Some(((a, b), k)) = next else { break };
            if a > until {
                break;
            }
            overlap.start(a, b);
            streams[k].next();
        }
        overlap.most
    }

    pub fn most(&self) -> u64 {
        self.most
    }
}

/// Intervals [a, b) with b > a, in order of (a, b), written compactly for a join: each
/// as two LEB128 numbers, a's step from the previous a and b − a (two bytes for most of
/// the sensors' downloads, against sixteen).
#[derive(Clone, Debug, Default)]
pub struct IntervalLog {
    bytes: Vec<u8>,
    last: u64,
}

impl IntervalLog {
    /// Appends `sorted` (in order, each starting no earlier than the log's last).
    pub fn extend(&mut self, sorted: &[(u64, u64)]) {
        for &(a, b) in sorted {
            debug_assert!(a >= self.last && b > a);
            leb128(&mut self.bytes, a - self.last);
            leb128(&mut self.bytes, b - a);
            self.last = a;
        }
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Bytes that `n` intervals starting within `horizon` units and lasting at most
    /// `longest` take at most: a step d takes at most 8/7 + log2(d + 1)/7 bytes, and
    /// the steps add up to at most the horizon (Jensen: at most log2(horizon/n + 1) on
    /// average); a length, those of `longest`.
    pub fn bound(n: f64, horizon: f64, longest: u64) -> f64 {
        if n <= 0.0 {
            return 0.0;
        }
        let mut length = Vec::new();
        leb128(&mut length, longest);
        n * (8.0 / 7.0 + (horizon / n + 1.0).log2() / 7.0 + length.len() as f64)
    }

    /// The intervals written in `bytes`.
    pub fn read(bytes: &[u8]) -> impl Iterator<Item = (u64, u64)> + '_ {
        let mut at = 0;
        let mut last = 0;
        std::iter::from_fn(move || {
            if at >= bytes.len() {
                return None;
            }
            last += unleb128(bytes, &mut at);
            let length = unleb128(bytes, &mut at);
            Some((last, last + length))
        })
    }
}

fn leb128(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A LEB128 number at `*at` (a truncated one ends with the bytes).
fn unleb128(bytes: &[u8], at: &mut usize) -> u64 {
    let (mut v, mut shift) = (0u64, 0);
    while let Some(&byte) = bytes.get(*at) {
        *at += 1;
        v |= ((byte & 0x7f) as u64).checked_shl(shift).unwrap_or(0);
        shift += 7;
        if byte < 0x80 {
            break;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn samples_count_fresh_pages() {
        let mut r = Record::new(100, 10);
        r.fresh(0, 25); // samples 0, 10, 20
        r.fresh(20, 21); // sample 20
        r.fresh(31, 40); // none
        r.fresh(95, 1000); // sample 100 (the horizon)
        assert_eq!(r.counts(), vec![1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 1]);
    }

    #[test]
    fn a_copy_tracks_freshness_waits_and_usefulness() {
        let mut r = Record::new(1000, 1);
        let mut c = Replica::new();
        c.changed(100, 1, &mut r); // stale from 100
        c.changed(150, 2, &mut r); // still stale since 100
        c.downloaded(300, 320, 2, 5000, WaitEnds::Completion, &mut r);
        assert_eq!(r.waits.spread(), Spread { count: 1, min: 220, mean: 220.0, max: 220 });
        assert_eq!(r.changes_between.spread().max, 2);
        c.downloaded(400, 410, 2, 5000, WaitEnds::Completion, &mut r); // nothing new
        assert_eq!((r.downloads, r.useful, r.bytes), (2, 1, 10_000));
        c.close(2, 1000, &mut r);
        let counts = r.counts();
        assert_eq!(counts[99], 1);
        assert_eq!(counts[100], 0);
        assert_eq!(counts[319], 0);
        assert_eq!(counts[320], 1);
        let mut s = Replica::new();
        s.changed(100, 1, &mut r);
        s.downloaded(130, 150, 1, 0, WaitEnds::Start, &mut r);
        assert_eq!(r.waits.spread().min, 30, "sensors: until the download starts");
    }

    fn swept(slices: &[(Vec<(u64, u64)>, u64)]) -> u64 {
        let mut overlap = Overlap::default();
        for (intervals, until) in slices {
            overlap.sweep(intervals.clone(), *until);
        }
        overlap.most()
    }

    #[test]
    fn overlap_of_intervals_by_hand() {
        assert_eq!(swept(&[(vec![(0, 10), (5, 15), (10, 20), (12, 13)], 13)]), 3);
        assert_eq!(swept(&[(vec![(0, 5)], 5), (vec![(5, 10)], 10)]), 1, "[0, 5) and [5, 10) do not overlap");
        assert_eq!(swept(&[(vec![(0, 10), (3, 3)], 5), (vec![(6, 7), (8, 30)], 9), (vec![(20, 21)], 25)]), 2);
        assert_eq!(swept(&[]), 0);
    }

    /// Random downloads cut into slices by their start, against one sort of every edge.
    #[test]
    fn overlap_swept_by_slices_is_that_of_all_intervals() {
        let mut s = crate::core::rng::Stream::of(4, crate::core::rng::Purpose::Test, 0);
        for case in 0..50 {
            let intervals: Vec<(u64, u64)> = (0..200)
                .map(|_| {
                    let a = s.below(1000);
                    (a, a + s.below(40))
                })
                .collect();
            // at equal times, ends (-1) sort before starts (+1)
            let mut edges: Vec<(u64, i32)> = intervals.iter().filter(|(a, b)| b > a).flat_map(|&(a, b)| [(a, 1), (b, -1)]).collect();
            edges.sort_unstable();
            let (mut now, mut want) = (0i64, 0i64);
            for (_, d) in edges {
                now += d as i64;
                want = want.max(now);
            }
            let want = want as u64;
            let slice = 1 + case * 20;
            let slices: Vec<(Vec<(u64, u64)>, u64)> =
                (0..1000u64.div_ceil(slice)).map(|k| (intervals.iter().copied().filter(|&(a, _)| a / slice == k).collect(), (k + 1) * slice)).collect();
            assert_eq!(swept(&slices), want, "slices of {slice}");
        }
    }

    #[test]
    fn parts_absorbed_in_any_order_give_the_whole() {
        let mut whole = Record::new(100, 10);
        let mut parts = [Record::new(100, 10), Record::new(100, 10)];
        for (k, (a, b, wait)) in [(0, 25, 7), (20, 21, 3), (95, 1000, 11), (31, 40, 1)].into_iter().enumerate() {
            for r in [&mut whole, &mut parts[k % 2]] {
                r.fresh(a, b);
                r.waits.add(wait);
                r.downloads += 1;
            }
        }
        let (mut ab, mut ba) = (parts[0].clone(), parts[1].clone());
        ab.absorb(&parts[1]);
        ba.absorb(&parts[0]);
        for r in [&ab, &ba] {
            assert_eq!(r.counts(), whole.counts());
            assert_eq!(r.waits.spread(), whole.waits.spread());
            assert_eq!(r.downloads, whole.downloads);
        }
    }

    /// Logs of random downloads, written slice by slice, read back and joined: the same
    /// intervals, and the most at once of all of them together (up to a unit).
    #[test]
    fn interval_logs_round_trip_and_join_to_the_overlap_of_all() {
        let mut s = crate::core::rng::Stream::of(5, crate::core::rng::Purpose::Test, 0);
        for case in 0..30 {
            let mut all = Vec::new();
            let logs: Vec<IntervalLog> = (0..1 + case % 4)
                .map(|_| {
                    let mut intervals: Vec<(u64, u64)> = (0..100)
                        .map(|_| {
                            let a = s.below(1 << (10 + case % 40));
                            (a, a + 1 + s.below(1 << (case % 20)))
                        })
                        .collect();
                    intervals.sort_unstable();
                    let mut log = IntervalLog::default();
                    for slice in intervals.chunks(7) {
                        log.extend(slice);
                    }
                    assert_eq!(IntervalLog::read(log.bytes()).collect::<Vec<_>>(), intervals);
                    all.extend(intervals);
                    log
                })
                .collect();
            let bytes: Vec<&[u8]> = logs.iter().map(|l| l.bytes()).collect();
            let until = all[all.len() / 2].0;
            let by_hand = swept(&[(all.iter().copied().filter(|&(a, _)| a <= until).collect(), u64::MAX)]);
            assert_eq!(Overlap::of_logs(&bytes, until), by_hand, "case {case}");
            assert_eq!(Overlap::of_logs(&bytes, u64::MAX), swept(&[(all.clone(), u64::MAX)]), "case {case}");
            let written: usize = bytes.iter().map(|b| b.len()).sum();
            let longest = all.iter().map(|(a, b)| b - a).max().unwrap();
            let horizon = all.iter().map(|(a, _)| a).max().unwrap() + 1;
            assert!(written as f64 <= IntervalLog::bound(all.len() as f64, (horizon * logs.len() as u64) as f64, longest), "case {case}: {written} bytes");
        }
        assert_eq!(Overlap::of_logs(&[], 10), 0);
    }
}
