//! Stack growth for the engines' recursion, and for the derived shrinker's and the free
//! generators'.
//!
//! Both engines recurse once per nested choice, so a deeply nested value (a long linked list,
//! a degenerate tree) would overflow a thread's stack. Before each nested step they check the
//! stack left and, when it runs low, continue on a new segment allocated on the heap.

/// Stack that must remain before a nested step runs on the current segment: room for
/// [`CHECK_EVERY`] levels of up to 128 KiB each (a derived type that holds a 4 KiB array at
/// every level takes about 20 KiB a level in a debug build).
const RED_ZONE: usize = 1024 * 1024;
/// The size of each new segment.
const SEGMENT: usize = 4 * 1024 * 1024;

/// How many nesting levels run between two checks of the stack left; the red zone holds
/// this many levels' frames.
const CHECK_EVERY: usize = 8;

/// Runs the step at nesting level `depth`, on a fresh stack segment if the current one is
/// nearly used up (checked every [`CHECK_EVERY`] levels, which is enough and cheaper).
#[inline]
pub(crate) fn every_few_levels<R>(depth: usize, step: impl FnOnce() -> R) -> R {
    if depth.is_multiple_of(CHECK_EVERY) {
        grow_if_low(step)
    } else {
        step()
    }
}

/// The check itself, out of line: the levels that do not check keep their stack frames small.
/// Also for recursions outside the engines that go as deep as a value (the derived shrinker,
/// the free generators' interpretations and drop).
#[inline(never)]
pub(crate) fn grow_if_low<R>(step: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, step)
}
