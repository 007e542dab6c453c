//! Reuse of the vectors choice trees record into.
//!
//! Recording a run fills two vectors, its choices and its spans (and its packed integers). A property test generates,
//! checks and drops values by the thousand, and allocating those vectors afresh for every run
//! costs more than the recording itself: with the system allocator, each large allocation also
//! tidies up the small blocks the last value freed. So a dropped [`ChoiceTree`] hands its
//! vectors back here, emptied, and the next run on the same thread records into them.
//!
//! [`ChoiceTree`]: super::ChoiceTree

use std::cell::RefCell;

use super::leaf::Choice;
use super::packed::Packed;
use super::span::Span;

/// The vectors one run records into.
type Vectors = (Vec<Choice>, Vec<Span>, Packed);

/// The most pairs of vectors kept per thread.
const KEEP: usize = 4;
/// Vectors with room for more choices or spans than this are freed, not kept, so that one
/// large value does not pin its memory: at most `KEEP` pairs of this size stay allocated per
/// thread.
const MAX_KEPT_CHOICES: usize = 4_096;

thread_local! {
    static SPARE: RefCell<Vec<Vectors>> = const { RefCell::new(Vec::new()) };
}

/// Empty vectors for a run to record into: kept ones if this thread has some.
pub(crate) fn take() -> Option<Vectors> {
    SPARE
        .try_with(|spare| spare.try_borrow_mut().ok()?.pop())
        .ok()
        .flatten()
}

/// Keeps the vectors of a dropped tree for a later run, or frees them.
pub(crate) fn give_back(mut choices: Vec<Choice>, mut spans: Vec<Span>, mut packed: Packed) {
    if choices.capacity() == 0
        || choices.capacity() > MAX_KEPT_CHOICES
        || spans.capacity() > MAX_KEPT_CHOICES
        || packed.capacity() > MAX_KEPT_CHOICES
    {
        return;
    }
    choices.clear();
    spans.clear();
    packed.clear();
    // A thread being torn down, or a pool in use, frees the vectors instead.
    let _ = SPARE.try_with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut()
            && spare.len() < KEEP
        {
            spare.push((choices, spans, packed));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(index: u32) -> Choice {
        Choice::Pick {
            index,
            arity: 2,
            label: None,
        }
    }

    #[test]
    fn vectors_come_back_empty_with_their_room() {
        while take().is_some() {}
        let mut choices = Vec::with_capacity(100);
        choices.extend([pick(0), pick(1)]);
        give_back(choices, Vec::with_capacity(10), Packed::default());
        let (choices, spans, _) = take().expect("kept");
        assert!(choices.is_empty() && spans.is_empty());
        assert_eq!(choices.capacity(), 100);
        assert!(take().is_none());
    }

    #[test]
    fn large_and_surplus_vectors_are_freed() {
        while take().is_some() {}
        give_back(
            Vec::with_capacity(MAX_KEPT_CHOICES + 1),
            Vec::new(),
            Packed::default(),
        );
        assert!(take().is_none());
        give_back(
            vec![pick(0)],
            Vec::with_capacity(MAX_KEPT_CHOICES + 1),
            Packed::default(),
        );
        assert!(take().is_none());
        for _ in 0..KEEP + 2 {
            give_back(vec![pick(0)], Vec::new(), Packed::default());
        }
        let mut kept = 0;
        while take().is_some() {
            kept += 1;
        }
        assert_eq!(kept, KEEP);
    }
}
