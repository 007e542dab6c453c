//! Passes that move spans: swap adjacent siblings (the paper's third pass), hoist a span into
//! an earlier empty collection.

use crate::choice::{Choice, nearest_zero};
use crate::node::Node;

use crate::choice::Collection;
use crate::interpret::shrink::edit::{lowered, next_simplest, next_simplest_of, opening_arity};
use crate::interpret::shrink::search::Search;

impl<G: Node> Search<'_, G> {
    /// Swaps two adjacent spans of one kind (two elements, two lists, two subtrees) when
    /// the choices read simpler in the other order (the paper's "swap to lexically smaller").
    pub(super) fn swap_siblings(&mut self) {
        let mut at = 0;
        let mut pairs = self.adjacent_pairs();
        loop {
            if self.exhausted() {
                return;
            }
            let Some((first, second)) = pairs.get(at).cloned() else {
                return;
            };
            if second.end > self.choices().len() {
                return;
            }
            at += 1;
            let choices = self.choices();
            let (a, b) = (&choices[first.clone()], &choices[second.clone()]);
            let simplicity = |c: &Choice| c.simplicity();
            let swapped_is_simpler = b
                .iter()
                .chain(a)
                .map(simplicity)
                .lt(a.iter().chain(b).map(simplicity));
            if !swapped_is_simpler {
                continue;
            }
            let mut swapped = choices[..first.start].to_vec();
            swapped.extend_from_slice(b);
            swapped.extend_from_slice(a);
            swapped.extend_from_slice(&choices[second.end..]);
            if self.try_choices(swapped) {
                // The pairs are those of the new best: look at the same place again.
                pairs = self.adjacent_pairs();
                at = at.saturating_sub(2);
            }
        }
    }

    /// The pairs of non-empty spans of one kind (the same label, or opening with picks of the
    /// same arity) where the second starts as the first ends, in the order of the first's
    /// start.
    pub(super) fn adjacent_pairs(&self) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
        let spans = self.best.tree.spans();
        let mut by_start: Vec<&crate::choice::Span> = spans
            .iter()
            .filter(|span| !span.range().is_empty())
            .collect();
        by_start.sort_by_key(|span| (span.range().start, span.range().end));
        let mut pairs = Vec::new();
        let choices = self.choices();
        let same_arity_picks = |a: &crate::choice::Span, b: &crate::choice::Span| {
            let arity = opening_arity(choices, &a.range());
            arity.is_some() && arity == opening_arity(choices, &b.range())
        };
        for first in &by_start {
            let end = first.range().end;
            let from = by_start.partition_point(|span| span.range().start < end);
            for second in by_start[from..]
                .iter()
                .take_while(|span| span.range().start == end)
            {
                if second.label() == first.label() || same_arity_picks(first, second) {
                    pairs.push((first.range(), second.range()));
                }
            }
        }
        pairs.sort_by_key(|(first, _)| first.start);
        pairs.dedup();
        pairs
    }

    /// Moves a pick's span out of an element of a collection into an earlier empty collection,
    /// as its only element, and deletes the element it came from: an expression from a
    /// statement into the arguments before, a subtree from one list into another.
    pub(super) fn hoist_into_empty(&mut self) {
        const MAX_SPANS: usize = 8;
        let mut at = 0;
        // Found again after each move, which changes the choices.
        'moved: loop {
            let choices = self.choices();
            let spans = self.spans_in_order();
            // An empty collection reads as a span of one integer at its simplest, its length.
            let empties: Vec<std::ops::Range<usize>> = spans
                .iter()
                .filter(|range| range.start >= at && range.len() == 1)
                .filter(|range| {
                    matches!(choices[range.start], Choice::Int { value, lo, hi }
                        if value == nearest_zero(lo, hi) && next_simplest(lo, hi).is_some())
                })
                .cloned()
                .collect();
            // Spans are in the order they were opened, so by where they start.
            let picks: Vec<std::ops::Range<usize>> = spans
                .into_iter()
                .filter(|range| matches!(choices[range.start], Choice::Pick { .. }))
                .collect();
            let mut collections = None;
            for empty in empties {
                if self.exhausted() {
                    return;
                }
                at = empty.start + 1;
                let first = picks.partition_point(|range| range.start < empty.end);
                let nearby = &picks[first..(first + MAX_SPANS).min(picks.len())];
                if nearby.is_empty() {
                    continue;
                }
                let collections = collections.get_or_insert_with(|| self.collections());
                for moved in nearby {
                    let Some(candidate) = hoisted(self.choices(), collections, &empty, moved)
                    else {
                        continue;
                    };
                    if self.try_choices(candidate) {
                        continue 'moved;
                    }
                }
            }
            return;
        }
    }
}

/// `choices` with the span `moved` as the only element of the empty collection `empty`, and
/// the innermost element of `collections` that held it deleted, its length lowered; `None`
/// if no element after `empty` holds it.
fn hoisted(
    choices: &[Choice],
    collections: &[Collection],
    empty: &std::ops::Range<usize>,
    moved: &std::ops::Range<usize>,
) -> Option<Vec<Choice>> {
    let (count, element) = collections
        .iter()
        .flat_map(|collection| {
            collection
                .elements
                .iter()
                .map(|element| (collection.count, element))
        })
        .filter(|(_, element)| element.start <= moved.start && moved.end <= element.end)
        .min_by_key(|(_, element)| element.len())?;
    if count < empty.end {
        return None;
    }
    let lower = lowered(&choices[count], 1)?;
    let mut candidate = choices[..empty.start].to_vec();
    candidate.push(next_simplest_of(&choices[empty.start])?);
    candidate.extend_from_slice(&choices[moved.clone()]);
    candidate.extend_from_slice(&choices[empty.end..element.start]);
    candidate.extend_from_slice(&choices[element.end..]);
    // The length sat before the element: its place moved by what went in.
    candidate[count + moved.len()] = lower;
    Some(candidate)
}
