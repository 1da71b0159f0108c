//! The heap's live bytes, counted by an allocator that wraps the system's: the page's
//! worker installs it (`src/wasm`) so that what its kept results take is counted
//! against the next run's memory ([`super::limits::hold`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes it holds.
pub struct Counted;

static LIVE: AtomicUsize = AtomicUsize::new(0);

/// Bytes allocated and not yet freed, through [`Counted`] (0 where it is not installed).
pub fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

// SAFETY: each call is passed to the system allocator unchanged; only the counter is added.
// Each method is kept out of line: inlined at every allocation site (the release build's
// LTO does so), the wrapper grew the page's module by 547 KB; out of line, by nothing.
unsafe impl GlobalAlloc for Counted {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    #[inline(never)]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    #[inline(never)]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, size) };
        if !q.is_null() {
            LIVE.fetch_add(size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        q
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Where the counting allocator is installed (the wasm build), the live bytes follow
    /// an allocation and its release; elsewhere they stay 0.
    #[test]
    fn live_bytes_follow_allocations() {
        let before = super::live();
        let big = vec![1u8; 8 << 20];
        let during = super::live();
        drop(big);
        let after = super::live();
        if cfg!(target_arch = "wasm32") {
            assert!(during >= before + (8 << 20), "{before} → {during}");
            assert!(after + (8 << 20) <= during, "{during} → {after}");
        } else {
            assert_eq!((before, during, after), (0, 0, 0));
        }
    }
}
