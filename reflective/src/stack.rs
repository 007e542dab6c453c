//! Stack growth for the engines' recursion.
//!
//! Both engines recurse once per nested choice, so a deeply nested value (a long linked list,
//! a degenerate tree) would overflow a thread's stack. Before each nested step they check the
//! stack left and, when it runs low, continue on a new segment allocated on the heap.

/// Stack that must remain before a nested step runs on the current segment.
const RED_ZONE: usize = 128 * 1024;
/// The size of each new segment.
const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `step`, on a fresh stack segment if the current one is nearly used up.
pub(crate) fn guarded<R>(step: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, step)
}
