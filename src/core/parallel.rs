//! Work spread over threads (issue 16). A run splits into shards fixed by its
//! configuration alone; threads only decide who computes which shard, and results are
//! combined in shard order, so the same configuration gives the same bits with 1, 2 or
//! 16 threads — and in the browser, where one worker runs every shard in turn.

use std::cell::Cell;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Mutex;

thread_local! {
    /// Threads the runs advanced from this thread may use: 0 (the default) means every
    /// core the system reports.
    static THREADS: Cell<usize> = const { Cell::new(0) };
}

/// Sets the threads the runs advanced from this thread may use (0: every core). The
/// CLI's `--threads`.
pub fn set_threads(n: usize) {
    THREADS.with(|t| t.set(n));
}

/// Threads a run may use now: 1 in WebAssembly (the page runs shards in its workers).
pub fn threads() -> usize {
    if cfg!(target_arch = "wasm32") {
        return 1;
    }
    match THREADS.with(Cell::get) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Calls `work` on every item, on up to `threads()` threads; each item is handed to one
/// thread, in order, as threads become free.
pub fn for_each<T: Send>(items: &mut [T], work: impl Fn(&mut T) + Sync) {
    let threads = threads().min(items.len());
    if threads <= 1 || cfg!(target_arch = "wasm32") {
        items.iter_mut().for_each(work);
    } else {
        #[cfg(not(target_arch = "wasm32"))]
        spread(items, work, threads);
    }
}

/// `for_each` on `threads` threads, the calling one among them (not in WebAssembly,
/// which has none here).
#[cfg(not(target_arch = "wasm32"))]
fn spread<T: Send>(items: &mut [T], work: impl Fn(&mut T) + Sync, threads: usize) {
    let queue = Mutex::new(items.iter_mut());
    let take = || {
        loop {
            let Some(item) = queue.lock().expect("no thread panicked holding the queue").next() else { break };
            work(item);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(take);
        }
        take();
    });
}

/// Cuts `0..weights.len()` into at most `parts` contiguous ranges of about equal total
/// weight, each non-empty; the cut depends on `weights` and `parts` only.
pub fn balanced_ranges(weights: &[f64], parts: usize) -> Vec<std::ops::Range<usize>> {
    let n = weights.len();
    let parts = parts.clamp(1, n.max(1));
    let total: f64 = weights.iter().sum();
    let mut ranges = Vec::with_capacity(parts);
    let (mut start, mut sum) = (0, 0.0);
    for (k, &weight) in weights.iter().enumerate() {
        sum += weight;
        let left = n - k - 1;
        let wanted = ranges.len() + 1;
        // close the range once it reaches its share, keeping an item for each range left
        if wanted < parts && (sum >= total * wanted as f64 / parts as f64 || left == parts - wanted) {
            ranges.push(start..k + 1);
            start = k + 1;
        }
    }
    if start < n || ranges.is_empty() {
        ranges.push(start..n);
    }
    ranges
}

/// Deals `items` to at most `parts` parts, the heaviest first to the least loaded part
/// (ties: the lower index), each part's items in increasing order, empty parts left out;
/// the deal depends on the items, their weights and `parts` only.
pub fn deal(items: &[u64], weight: impl Fn(u64) -> f64, parts: usize) -> Vec<Vec<u64>> {
    let parts = parts.clamp(1, items.len().max(1));
    let mut order = items.to_vec();
    order.sort_by(|a, b| weight(*b).total_cmp(&weight(*a)).then(a.cmp(b)));
    let mut load: Vec<(f64, Vec<u64>)> = vec![(0.0, Vec::new()); parts];
    for item in order {
        let least = (0..parts).min_by(|&i, &j| load[i].0.total_cmp(&load[j].0).then(i.cmp(&j))).expect("a part");
        load[least].0 += weight(item);
        load[least].1.push(item);
    }
    load.into_iter()
        .filter(|(_, dealt)| !dealt.is_empty())
        .map(|(_, mut dealt)| {
            dealt.sort_unstable();
            dealt
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn ranges_cover_everything_in_order_and_balance() {
        for (sizes, parts) in
            [(vec![1.0; 10], 3), (vec![100.0, 1.0, 1.0, 1.0, 1.0, 1.0], 4), (vec![5.0], 16), (vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], 8), (vec![0.0, 0.0, 9.0, 0.0], 2)]
        {
            let ranges = balanced_ranges(&sizes, parts);
            assert!(ranges.len() <= parts && !ranges.is_empty());
            assert_eq!(ranges[0].start, 0);
            assert_eq!(ranges.last().unwrap().end, sizes.len());
            assert!(ranges.windows(2).all(|w| w[0].end == w[1].start), "{ranges:?}");
            assert!(ranges.iter().all(|r| !r.is_empty()), "{ranges:?}");
        }
        let ranges = balanced_ranges(&[1.0; 100], 4);
        assert!(ranges.iter().all(|r| r.len() == 25), "{ranges:?}");
        assert!(balanced_ranges(&[], 4).len() == 1);
    }

    #[test]
    fn every_item_is_worked_once_whatever_the_threads() {
        for threads in [1, 2, 4, 16] {
            set_threads(threads);
            let mut items: Vec<(usize, u32)> = (0..37).map(|k| (k, 0)).collect();
            for_each(&mut items, |(k, n)| *n += *k as u32 + 1);
            assert!(items.iter().all(|(k, n)| *n == *k as u32 + 1));
        }
        set_threads(0);
    }

    #[test]
    fn dealing_balances_the_weights_and_keeps_every_item_once() {
        // 9, 5, 4, 3, 1 onto two parts: 9 | 5; 4 to the lighter (9 | 9); 3 to the first
        // on the tie (12 | 9); 1 to the lighter (12 | 10)
        let weights = [5.0, 9.0, 1.0, 4.0, 3.0];
        let dealt = deal(&[0, 1, 2, 3, 4], |k| weights[k as usize], 2);
        assert_eq!(dealt, vec![vec![1, 4], vec![0, 2, 3]]);
        assert_eq!(deal(&[7, 8], |_| 1.0, 5), vec![vec![7], vec![8]], "no more parts than items");
        assert_eq!(deal(&[3, 1, 2], |_| 1.0, 1), vec![vec![1, 2, 3]]);
        assert!(deal(&[], |_| 1.0, 3).is_empty());
    }
}
