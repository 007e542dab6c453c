//! Passes over nests of collections (a `Vec<Vec<T>>`, a `Vec<String>`): merge two sibling
//! collections into one, and move an element from a collection to the next. Every collection's
//! span opens with its length, so an inner collection is deleted like any other element (by
//! `delete_elements` on the collection around it); these passes change how the elements are
//! grouped.

use crate::choice::Choice;
use crate::node::Node;

use crate::choice::Collection;
use crate::interpret::shrink::edit::{lowered, set_int};
use crate::interpret::shrink::search::Search;

/// Two adjacent elements of a collection that are collections themselves (or open with one):
/// the lengths' places and the elements after each length.
struct Siblings {
    /// The place of the length of the collection around them.
    outer: usize,
    /// The first's length's place, its length, and where its elements end.
    first: (usize, usize, usize),
    /// The second's length's place, its length, and where its elements end.
    second: (usize, usize, usize),
}

impl<G: Node> Search<'_, G> {
    /// Deletes the last element of two collections as long as each other together, while that
    /// still fails: what fails while two collections stay as long as each other (a list and
    /// a string of its length, in a struct) shrinks with both, where deleting from one alone
    /// passes. Collections one inside the other are left alone.
    pub(super) fn delete_together(&mut self) {
        let mut collections = self.collections();
        let mut first = 0;
        while first < collections.len() {
            let mut second = first + 1;
            while second < collections.len() {
                if self.exhausted() {
                    return;
                }
                let kept = together(self.choices(), &collections[first], &collections[second])
                    .is_some_and(|candidate| self.try_choices(candidate));
                if kept {
                    // The same pair again, one element shorter each.
                    collections = self.collections();
                } else {
                    second += 1;
                }
            }
            first += 1;
        }
    }

    /// Merges two adjacent sibling collections into one, the first with the second's elements
    /// after its own: `[[0], [1]]` becomes `[[0, 1]]`.
    pub(super) fn merge_collections(&mut self) {
        self.each_siblings(|_, pair, choices| {
            let (first, length, first_end) = pair.first;
            let (second, second_length, second_end) = pair.second;
            let outer = lowered(&choices[pair.outer], 1)?;
            let merged = with_length(&choices[first], length + second_length)?;
            let mut candidate = choices[..first_end].to_vec();
            candidate[pair.outer] = outer;
            candidate[first] = merged;
            candidate.extend_from_slice(&choices[second + 1..second_end]);
            candidate.extend_from_slice(&choices[second_end..]);
            Some(candidate)
        });
    }

    /// Moves the last element of a collection to the front of the next sibling collection, so
    /// that the earlier one holds less (and may become empty and go).
    pub(super) fn move_elements(&mut self) {
        self.each_siblings(|search, pair, choices| {
            let (first, length, first_end) = pair.first;
            let (second, second_length, _) = pair.second;
            let last = search.element_ranges(first)?.last().cloned()?;
            let shorter = with_length(&choices[first], length.checked_sub(1)?)?;
            let longer = with_length(&choices[second], second_length + 1)?;
            let mut candidate = choices[..last.start].to_vec();
            candidate[first] = shorter;
            candidate.extend_from_slice(&choices[first_end..second]);
            candidate.push(longer);
            candidate.extend_from_slice(&choices[last]);
            candidate.extend_from_slice(&choices[second + 1..]);
            Some(candidate)
        });
    }

    /// Tries `candidate` of each pair of siblings in turn (the pair at the same place again
    /// after a candidate that took, since the pairs after it moved), until the pairs or the
    /// budget run out. `candidate` gives the choices to try for a pair, or `None` to pass.
    fn each_siblings(
        &mut self,
        candidate: impl Fn(&Self, &Siblings, &[Choice]) -> Option<Vec<Choice>>,
    ) {
        let mut at = 0;
        while let Some(pair) = self.siblings().into_iter().nth(at) {
            if self.exhausted() {
                return;
            }
            let tried = candidate(self, &pair, self.choices());
            if !tried.is_some_and(|choices| self.try_choices(choices)) {
                at += 1;
            }
        }
    }

    /// Every pair of adjacent elements of a collection that open with collections of their
    /// own, in order.
    fn siblings(&self) -> Vec<Siblings> {
        let collections = self.collections();
        let opening = |start: usize| collections.iter().find(|inner| inner.count == start);
        let mut pairs = Vec::new();
        for outer in &collections {
            for pair in outer.elements.windows(2) {
                let (Some(first), Some(second)) = (opening(pair[0].start), opening(pair[1].start))
                else {
                    continue;
                };
                let (first, second) = (ends(first, self.choices()), ends(second, self.choices()));
                // Elements that are the collections and nothing more (not a tuple that opens
                // with one).
                if first.2 == pair[0].end && second.2 == pair[1].end {
                    pairs.push(Siblings {
                        outer: outer.count,
                        first,
                        second,
                    });
                }
            }
        }
        pairs
    }

    /// The element ranges of the collection whose length is at `count`.
    fn element_ranges(&self, count: usize) -> Option<Vec<std::ops::Range<usize>>> {
        self.collections()
            .into_iter()
            .find(|collection| collection.count == count)
            .map(|collection| collection.elements)
    }
}

/// A collection's length's place, its length, and where its elements end.
fn ends(collection: &Collection, choices: &[Choice]) -> (usize, usize, usize) {
    let end = collection
        .elements
        .last()
        .map_or(collection.count + 1, |last| last.end);
    let length = match choices[collection.count] {
        Choice::Int { value, .. } => usize::try_from(value).unwrap_or(0),
        Choice::Pick { .. } => 0,
    };
    (collection.count, length, end)
}

/// The length choice `choice` set to `length`, if it is a length.
fn with_length(choice: &Choice, length: usize) -> Option<Choice> {
    let mut edited = choice.clone();
    matches!(edited, Choice::Int { .. }).then(|| {
        set_int(&mut edited, length as i128);
        edited
    })
}

/// `choices` without the last element of `first` and of `second`, each length lowered by one,
/// where both have the same number of elements (one at least) and `second` lies wholly after
/// `first`.
fn together(choices: &[Choice], first: &Collection, second: &Collection) -> Option<Vec<Choice>> {
    let (Some(first_last), Some(second_last)) = (first.elements.last(), second.elements.last())
    else {
        return None;
    };
    if first.elements.len() != second.elements.len() || first_last.end > second.count {
        return None;
    }
    let mut candidate = choices.to_vec();
    candidate[first.count] = lowered(&choices[first.count], 1)?;
    candidate[second.count] = lowered(&choices[second.count], 1)?;
    candidate.drain(second_last.clone());
    candidate.drain(first_last.clone());
    Some(candidate)
}
