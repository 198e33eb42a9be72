//! A counting allocator for bounded tests: work is measured by what a
//! thread allocates (bytes and calls), which is deterministic, instead of by
//! wall-clock time, which is not. Include with
//! `#[path = "common/alloc.rs"] mod alloc;` and declare
//! `#[global_allocator] static A: alloc::Counting = alloc::Counting;`.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Counting;

thread_local! {
    static BYTES: Cell<u64> = const { Cell::new(0) };
    static CALLS: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn count(size: usize) {
    count_all(size);
    let _ = BYTES.try_with(|b| b.set(b.get() + size as u64));
    let _ = CALLS.try_with(|c| c.set(c.get() + 1));
    let _ = LIVE.try_with(|l| {
        let now = l.get() + size as i64;
        l.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

fn uncount(size: usize) {
    let _ = LIVE.try_with(|l| l.set(l.get() - size as i64));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        uncount(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        uncount(layout.size());
        count(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// What one piece of work cost on this thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Work {
    /// Bytes requested, summed over every allocation (traffic, not peak).
    pub bytes: u64,
    /// Allocation calls.
    pub calls: u64,
    /// Most bytes held at once above the starting point.
    pub peak: u64,
}

/// Runs `f` and returns its result with what it allocated on this thread.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Work) {
    let b0 = BYTES.with(Cell::get);
    let c0 = CALLS.with(Cell::get);
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    let work = Work {
        bytes: BYTES.with(Cell::get) - b0,
        calls: CALLS.with(Cell::get) - c0,
        peak: (PEAK.with(Cell::get) - base).max(0) as u64,
    };
    (out, work)
}

use std::sync::atomic::{AtomicU64, Ordering};

static ALL_BYTES: AtomicU64 = AtomicU64::new(0);
static ALL_CALLS: AtomicU64 = AtomicU64::new(0);

/// Counts on every thread too (for work that runs on rayon's threads).
pub fn count_all(size: usize) {
    ALL_BYTES.fetch_add(size as u64, Ordering::Relaxed);
    ALL_CALLS.fetch_add(1, Ordering::Relaxed);
}

/// Like [`measure`], counting the allocations of every thread: only
/// meaningful while nothing else runs (hold a lock across tests).
pub fn measure_all<T>(f: impl FnOnce() -> T) -> (T, Work) {
    let b0 = ALL_BYTES.load(Ordering::Relaxed);
    let c0 = ALL_CALLS.load(Ordering::Relaxed);
    let out = f();
    let work = Work {
        bytes: ALL_BYTES.load(Ordering::Relaxed) - b0,
        calls: ALL_CALLS.load(Ordering::Relaxed) - c0,
        peak: 0,
    };
    (out, work)
}
