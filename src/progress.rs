//! Progress of a long operation, reported by the library and shown by `main`
//! (a bar on a terminal).

/// Progress of a long command, shown by `main` (a bar on a terminal).
pub trait Progress: Sync {
    fn start(&self, _total: usize, _what: &str) {}
    fn advance(&self) {}
    fn finish(&self) {}
    /// A line a long-running command (`watch`) reports as it goes; `main` prints it.
    fn message(&self, _line: &str) {}
}

/// No progress display (tests, pipes).
pub struct Quiet;

impl Progress for Quiet {}
