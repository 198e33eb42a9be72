//! The run-time budget: how much memory a run may hold and how long one
//! layout may run.
//!
//! Typst has no step or memory budget of its own: a layout with
//! `range(1000000000)` asks for tens of gigabytes at once, and a loop of
//! 25 million steps runs for minutes. pnpkit therefore runs every command on
//! a worker thread while the calling thread watches it ([`watch`]):
//!
//! - **Memory.** The binary's allocator is [`Budgeted`], which counts the
//!   bytes the process holds. An allocation that would take the count over
//!   the limit is never made: the thread asking for it stops there (it sleeps
//!   until the process ends), every other worker thread stops at its next
//!   allocation, and the watching thread reports what was being laid out.
//! - **Time.** Each layout registers itself while typst runs it
//!   ([`enter`]); one that runs past the time limit is reported, with the
//!   template line it keeps executing when typst's timing finds one.
//!
//! Either way the command's result is abandoned and `main` exits with the
//! report (E019): writers stage their files and swap them in at the end, so
//! nothing half-written is left, and what a killed run staged is removed by
//! the next run.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::num::NonZeroU64;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes the process may hold at once (0: no limit).
    pub memory: u64,
    /// How long one layout (one typst document) may run.
    pub layout: Duration,
}

/// The default memory limit: 4 GiB (a full build of the five shipped kits
/// holds about 0.5 GB at its peak).
pub const DEFAULT_MEMORY_MIB: u64 = 4096;
/// The default time one layout may take (the slowest shipped document takes
/// a few seconds in a debug build).
pub const DEFAULT_LAYOUT_SECONDS: u64 = 120;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: DEFAULT_MEMORY_MIB << 20,
            layout: Duration::from_secs(DEFAULT_LAYOUT_SECONDS),
        }
    }
}

// --- memory -------------------------------------------------------------

/// Bytes the process holds (allocated through [`Budgeted`] and not freed).
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The memory limit in bytes; 0 until [`watch`] sets one.
static LIMIT: AtomicUsize = AtomicUsize::new(0);
/// Set once an allocation was refused: every worker thread stops.
static TRIPPED: AtomicBool = AtomicBool::new(false);
/// The size of the allocation that was refused.
static REFUSED: AtomicUsize = AtomicUsize::new(0);
/// The layout the refused allocation was made for (0: none).
static REFUSED_IN: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The watching thread: never stopped, so that it can report.
    static WATCHER: Cell<bool> = const { Cell::new(false) };
    /// The layout this thread is running (0: none).
    static LAYOUT: Cell<u64> = const { Cell::new(0) };
}

/// A global allocator that counts what the process holds and refuses to go
/// over the limit (see the module documentation).
pub struct Budgeted<A>(pub A);

fn watcher() -> bool {
    WATCHER.try_with(Cell::get).unwrap_or(false)
}

/// Stops this thread for good: it sleeps until the process ends. Sleeping
/// allocates nothing.
fn stop() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// Counts `size` more bytes, or stops the thread when they would take the
/// process over its limit.
fn take(size: usize) {
    if TRIPPED.load(Relaxed) && !watcher() {
        stop();
    }
    let now = LIVE.fetch_add(size, Relaxed) + size;
    let limit = LIMIT.load(Relaxed);
    if limit != 0 && now > limit && !watcher() {
        LIVE.fetch_sub(size, Relaxed);
        if !TRIPPED.swap(true, Relaxed) {
            REFUSED.store(size, Relaxed);
            REFUSED_IN.store(LAYOUT.try_with(Cell::get).unwrap_or(0), Relaxed);
        }
        stop();
    }
}

fn give(size: usize) {
    LIVE.fetch_sub(size, Relaxed);
}

// SAFETY: every method forwards to the wrapped allocator with the same
// arguments; the counting around it never touches the memory.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Budgeted<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        take(layout.size());
        // SAFETY: forwarded as received.
        let p = unsafe { self.0.alloc(layout) };
        if p.is_null() {
            give(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        take(layout.size());
        // SAFETY: forwarded as received.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if p.is_null() {
            give(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as received.
        unsafe { self.0.dealloc(ptr, layout) };
        give(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old {
            take(new_size - old);
        }
        // SAFETY: forwarded as received.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        match (p.is_null(), new_size > old) {
            (true, true) => give(new_size - old),
            (false, false) => give(old - new_size),
            _ => {}
        }
        p
    }
}

// --- layouts ------------------------------------------------------------

/// Finds a typst span (its raw number) in the sources of a layout: the file,
/// its text and the byte range.
pub type Locate = dyn Fn(NonZeroU64) -> Option<Place> + Send + Sync;

/// Where in a template a span is.
#[derive(Clone, Debug)]
pub struct Place {
    /// The file, as the project sees it (`templates/mygame/kit.typ`).
    pub path: PathBuf,
    pub text: Arc<str>,
    pub range: Range<usize>,
    /// A built-in file of pnpkit rather than one of the project.
    pub built_in: bool,
}

struct Running {
    id: u64,
    started: Instant,
    what: String,
    locate: Arc<Locate>,
}

static RUNNING: Mutex<Vec<Running>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(1);

/// A layout being run; it leaves the register when dropped.
pub struct Entered {
    id: u64,
    before: u64,
}

/// Registers a layout while typst runs it on this thread: `what` names it
/// for the report (`unmatched/en/unmatched-cards-a4.pdf`), `locate` finds a
/// span in its sources.
pub fn enter(what: String, locate: Arc<Locate>) -> Entered {
    let id = NEXT.fetch_add(1, Relaxed);
    if let Ok(mut running) = RUNNING.lock() {
        running.push(Running {
            id,
            started: Instant::now(),
            what,
            locate,
        });
    }
    let before = LAYOUT.try_with(|l| l.replace(id)).unwrap_or(0);
    Entered { id, before }
}

impl Drop for Entered {
    fn drop(&mut self) {
        let _ = LAYOUT.try_with(|l| l.set(self.before));
        if let Ok(mut running) = RUNNING.lock() {
            running.retain(|r| r.id != self.id);
        }
    }
}

// --- watching -----------------------------------------------------------

/// Why a run was stopped.
#[derive(Clone, Debug)]
pub enum Over {
    /// An allocation of `asked` bytes would have taken the process over
    /// `limit` bytes.
    Memory { limit: u64, asked: u64 },
    /// A layout ran longer than `limit`.
    Time { limit: Duration },
}

/// A run stopped by its budget: why, the layout it was running (when one
/// was) and the template line it was executing (when found).
#[derive(Clone, Debug)]
pub struct Exceeded {
    pub over: Over,
    pub what: Option<String>,
    pub place: Option<Place>,
}

/// Runs `work` on a worker thread under `limits` while this thread watches.
/// Returns its result, or what stopped it. A panic of the work is resumed
/// here.
pub fn watch<T: Send + 'static>(limits: Limits, work: impl FnOnce() -> T + Send + 'static) -> Result<T, Exceeded> {
    let _ = WATCHER.try_with(|w| w.set(true));
    LIMIT.store(usize::try_from(limits.memory).unwrap_or(usize::MAX), Relaxed);
    let (tx, rx) = mpsc::channel();
    // Typst recurses deeply: the worker gets the stack a main thread has, and more.
    let worker = std::thread::Builder::new()
        .name("pnpkit".into())
        .stack_size(64 << 20)
        .spawn(move || {
            let _ = tx.send(work());
        });
    let Ok(worker) = worker else { no_worker() };
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(value) => {
                let _ = worker.join();
                return Ok(value);
            }
            Err(RecvTimeoutError::Disconnected) => match worker.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => no_worker(),
            },
            Err(RecvTimeoutError::Timeout) => {}
        }
        if TRIPPED.load(Relaxed) {
            let id = REFUSED_IN.load(Relaxed);
            return Err(Exceeded {
                over: Over::Memory {
                    limit: limits.memory,
                    asked: REFUSED.load(Relaxed) as u64,
                },
                what: describe(id),
                place: None,
            });
        }
        if let Some((id, locate)) = overdue(limits.layout) {
            let place = executing(&locate);
            // Everything else stops at its next allocation.
            TRIPPED.store(true, Relaxed);
            return Err(Exceeded {
                over: Over::Time { limit: limits.layout },
                what: describe(id),
                place,
            });
        }
    }
}

/// A thread that cannot be started, or a worker that ended without a result
/// and without a panic: neither happens on a machine that runs pnpkit at all.
fn no_worker() -> ! {
    panic!("pnpkit could not run its worker thread")
}

/// The layout that has run longest past `limit`, if any.
fn overdue(limit: Duration) -> Option<(u64, Arc<Locate>)> {
    let running = RUNNING.try_lock().ok()?;
    running
        .iter()
        .filter(|r| r.started.elapsed() > limit)
        .min_by_key(|r| r.started)
        .map(|r| (r.id, r.locate.clone()))
}

/// What the layout `id` is, if it is still registered.
fn describe(id: u64) -> Option<String> {
    if id == 0 {
        return None;
    }
    // A stopped thread may hold the register: try for a while, then go without.
    for _ in 0..20 {
        if let Ok(running) = RUNNING.try_lock() {
            return running.iter().find(|r| r.id == id).map(|r| r.what.clone());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// The template line a running layout keeps executing: typst's timing is
/// switched on for a moment, and the span seen most often in a template of
/// the project (else a built-in one) is the answer. A layout inside one long
/// call (a `range` of millions) is given up to two seconds to reach a line.
fn executing(locate: &Arc<Locate>) -> Option<Place> {
    typst_timing::clear();
    typst_timing::enable();
    let mut seen: Vec<NonZeroU64> = Vec::new();
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(100));
        let Some(more) = drain() else { break };
        seen.extend(more);
        if seen.iter().any(|s| locate(*s).is_some()) {
            break;
        }
    }
    typst_timing::disable();
    let mut counts: std::collections::BTreeMap<NonZeroU64, usize> = std::collections::BTreeMap::new();
    for span in seen {
        *counts.entry(span).or_default() += 1;
    }
    let mut places: Vec<(Place, usize)> = counts
        .into_iter()
        .filter_map(|(span, n)| locate(span).map(|p| (p, n)))
        .collect();
    // The project's own templates first, then the most executed, then the
    // earliest in the file (the outermost of nested calls on one line).
    places.sort_by(|(a, n), (b, m)| {
        a.built_in
            .cmp(&b.built_in)
            .then(m.cmp(n))
            .then(a.path.cmp(&b.path))
            .then(a.range.start.cmp(&b.range.start))
    });
    places.into_iter().next().map(|(p, _)| p)
}

/// The spans of the events typst's timing recorded since the last drain.
/// The export reads typst's event list under its lock: done on a thread of
/// its own, and given up if a stopped thread holds that lock.
fn drain() -> Option<Vec<NonZeroU64>> {
    let (tx, rx) = mpsc::channel();
    let export = std::thread::spawn(move || {
        let mut seen: Vec<NonZeroU64> = Vec::new();
        let _ = typst_timing::export_json(std::io::sink(), |span| {
            seen.push(span);
            (String::new(), 0)
        });
        let _ = tx.send(seen);
    });
    let seen = rx.recv_timeout(Duration::from_secs(10)).ok()?;
    let _ = export.join();
    Some(seen)
}
