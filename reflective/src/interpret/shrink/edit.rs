//! Small edits of single choices that several passes make.

use crate::choice::{Choice, ChoiceTree, nearest_zero};

use crate::choice::Collection;

/// `choice` with its simplest value: the first pick index, the integer nearest zero.
pub(super) fn simplest(choice: &Choice) -> Choice {
    let mut simplest = choice.clone();
    match &mut simplest {
        Choice::Pick { index, .. } => *index = 0,
        Choice::Int { value, lo, hi } => *value = nearest_zero(*lo, *hi),
    }
    simplest
}

/// `choices` with the span `range` at its simplest: each choice at its simplest, and each of
/// the `collections` inside the span with its simplest length and only that many elements,
/// the choices of the others dropped, so that the choices after the span are read where they
/// were (zeroing a list of lists empties its lists, instead of reading their elements' zeros
/// as more lists).
pub(super) fn zeroed(
    choices: &[Choice],
    range: std::ops::Range<usize>,
    collections: &[Collection],
) -> Vec<Choice> {
    fn push_zeroed(
        choices: &[Choice],
        range: std::ops::Range<usize>,
        by_count: &std::collections::HashMap<usize, &Collection>,
        out: &mut Vec<Choice>,
    ) {
        let mut at = range.start;
        while at < range.end {
            let zero = simplest(&choices[at]);
            match by_count.get(&at) {
                Some(collection) => {
                    let kept = match zero {
                        Choice::Int { value, .. } => usize::try_from(value).unwrap_or(0),
                        Choice::Pick { .. } => 0,
                    };
                    out.push(zero);
                    let elements = &collection.elements;
                    for element in elements.iter().take(kept) {
                        push_zeroed(choices, element.clone(), by_count, out);
                    }
                    at = elements.last().map_or(at + 1, |last| last.end);
                }
                None => {
                    out.push(zero);
                    at += 1;
                }
            }
        }
    }
    let by_count = collections
        .iter()
        .filter(|collection| range.contains(&collection.count))
        .map(|collection| (collection.count, collection))
        .collect();
    let mut out = choices[..range.start].to_vec();
    push_zeroed(choices, range.clone(), &by_count, &mut out);
    out.extend_from_slice(&choices[range.end..]);
    out
}

/// An integer choice `by` steps nearer its simplest value, if it is that far from it.
pub(super) fn lowered(choice: &Choice, by: i128) -> Option<Choice> {
    let Choice::Int { value, lo, hi } = *choice else {
        return None;
    };
    let origin = nearest_zero(lo, hi);
    let nearer = if value > origin {
        value.checked_sub(by).filter(|&v| v >= origin)?
    } else {
        value.checked_add(by).filter(|&v| v <= origin)?
    };
    (nearer != value).then_some(Choice::Int {
        value: nearer,
        lo,
        hi,
    })
}

/// The value one step simpler than the simplest in `lo..=hi` (1 after 0, or -1 where 1 is out
/// of range), if the range has two values.
pub(super) fn next_simplest(lo: i128, hi: i128) -> Option<i128> {
    let origin = nearest_zero(lo, hi);
    [origin.checked_add(1), origin.checked_sub(1)]
        .into_iter()
        .flatten()
        .find(|next| (lo..=hi).contains(next))
}

/// `choice`, an integer, one step from its simplest value.
pub(super) fn next_simplest_of(choice: &Choice) -> Option<Choice> {
    let Choice::Int { lo, hi, .. } = *choice else {
        return None;
    };
    Some(Choice::Int {
        value: next_simplest(lo, hi)?,
        lo,
        hi,
    })
}

/// The arity of the pick a span opens with; `None` for a span that opens with an integer.
pub(super) fn opening_arity(choices: &[Choice], span: &std::ops::Range<usize>) -> Option<u32> {
    match choices.get(span.start)? {
        Choice::Pick { arity, .. } => Some(*arity),
        Choice::Int { .. } => None,
    }
}

/// Where the innermost span that starts at choice `at` ends: for a pick, its branch.
pub(super) fn innermost_span_end(tree: &ChoiceTree, at: usize) -> Option<usize> {
    tree.spans()
        .iter()
        .map(|span| span.range())
        .filter(|range| range.start == at && !range.is_empty())
        .map(|range| range.end)
        .min()
}

/// `value + amount` inside `lo..=hi`, wrapping around the range as a fixed-width integer wraps;
/// `None` if the arithmetic overflows.
pub(super) fn add_within(value: i128, amount: i128, lo: i128, hi: i128) -> Option<i128> {
    let moved = value.checked_add(amount)?;
    if (lo..=hi).contains(&moved) {
        return Some(moved);
    }
    let width = hi.checked_sub(lo)?.checked_add(1)?;
    Some(lo + moved.checked_sub(lo)?.rem_euclid(width))
}

pub(super) fn set_pick(choice: &mut Choice, to: u32) {
    if let Choice::Pick { index, .. } = choice {
        *index = to;
    }
}

pub(super) fn set_int(choice: &mut Choice, to: i128) {
    if let Choice::Int { value, .. } = choice {
        *value = to;
    }
}
