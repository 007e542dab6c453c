//! Passes that replace, delete or zero whole spans (the paper's first two passes).

use crate::choice::Choice;
use crate::node::Node;

use crate::interpret::shrink::edit::{opening_arity, zeroed};
use crate::interpret::shrink::search::Search;

/// Successes of one run of [`replace_by_spans`](Search::replace_by_spans) after which it
/// gallops.
const GALLOP_AFTER: usize = 8;

impl<G: Node> Search<'_, G> {
    /// The paper's first pass: the whole sequence replaced by one of its spans, longest first.
    ///
    /// A value that gives up a span after a span, many times over, is most often nested as deep
    /// as it is long (a list of boxes), where the longest span is the value without its first
    /// level, and each step takes one level off. After [`GALLOP_AFTER`] successes the
    /// pass first tries the span twice as far down the order as the last it tried this way
    /// (the 2nd longest, the 4th, the 8th, ...), and the usual order where that fails: a value
    /// `n` levels deep shrinks in about `log² n` steps instead of `n`.
    pub(super) fn replace_by_spans(&mut self) {
        let mut successes = 0;
        let mut stride = 1;
        // After a success the spans are those of the new best: start over on them.
        'again: loop {
            let ranges = self.span_ranges();
            if successes >= GALLOP_AFTER {
                stride *= 2;
                if let Some(range) = ranges.get(stride - 1)
                    && self.try_span(range.clone())
                {
                    successes += 1;
                    continue 'again;
                }
                stride = 1;
            }
            for range in ranges {
                if self.exhausted() {
                    return;
                }
                if self.try_span(range) {
                    successes += 1;
                    continue 'again;
                }
            }
            return;
        }
    }

    /// Tries the whole sequence replaced by the choices in `range` (if the best still has
    /// them): whether that was kept.
    fn try_span(&mut self, range: std::ops::Range<usize>) -> bool {
        if self.exhausted() || range.end > self.choices().len() {
            return false;
        }
        let inner = self.choices()[range].to_vec();
        self.try_choices(inner)
    }

    /// Replaces each span by a span inside it that opens with a pick of the same arity: most
    /// often a value of the same type nested in it (a subtree for a tree). Where the span
    /// alone passes, it also tries it with its integers negated, all at once and (in a small
    /// span) one at a time: two edits as one attempt, which crosses the ridge between
    /// `Neg(Lit(-100))` and `Lit(100)` that neither edit crosses alone.
    ///
    /// Only the spans [`LEVELS`] levels in or less are tried, the nearest first (see
    /// [`descendants`]): a span that none of those can replace seldom has a deeper one that
    /// can (a command that a sequence needs stays needed however many of the commands after
    /// it go with it), and a chain `n` links long (a sequence of commands, a list of boxes)
    /// would otherwise try up to `n` replacements at every link.
    pub(super) fn replace_by_descendants(&mut self) {
        let mut at = 0;
        let mut spans = self.spans_in_order();
        loop {
            if self.exhausted() {
                return;
            }
            let Some(outer) = spans.get(at).cloned() else {
                return;
            };
            let Some(outer_arity) = opening_arity(self.choices(), &outer) else {
                at += 1;
                continue;
            };
            let mut replaced = false;
            for inner in descendants(self.choices(), &spans, at, outer_arity) {
                let mut candidate = self.choices()[..outer.start].to_vec();
                candidate.extend_from_slice(&self.choices()[inner.clone()]);
                candidate.extend_from_slice(&self.choices()[outer.end..]);
                let hoisted = outer.start..outer.start + inner.len();
                let negated = negations(&candidate, hoisted);
                if std::iter::once(candidate)
                    .chain(negated)
                    .any(|candidate| !self.exhausted() && self.try_choices(candidate))
                {
                    replaced = true;
                    break;
                }
            }
            if replaced {
                spans = self.spans_in_order();
            } else {
                at += 1;
            }
        }
    }

    /// Deletes each span that is not an element of a collection (those go in
    /// [`delete_elements`](Self::delete_elements), with the length lowered).
    pub(super) fn delete_spans(&mut self) {
        let mut ranges = self.span_ranges();
        let mut elements = self.element_starts();
        while let Some(range) = ranges.pop() {
            if self.exhausted() {
                return;
            }
            if range.end > self.choices().len() || elements.contains(&range.start) {
                continue;
            }
            let mut without = self.choices().to_vec();
            without.drain(range);
            if self.try_choices(without) {
                ranges = self.span_ranges();
                elements = self.element_starts();
            }
        }
    }

    /// Sets every choice of a span to its simplest.
    pub(super) fn zero_spans(&mut self) {
        let mut collections = self.collections();
        for range in self.span_ranges() {
            if self.exhausted() {
                return;
            }
            if range.end > self.choices().len() {
                continue;
            }
            if self.choices()[range.clone()]
                .iter()
                .all(|choice| choice.simplicity() == 0)
            {
                continue;
            }
            if self.try_choices(zeroed(self.choices(), range, &collections)) {
                collections = self.collections();
            }
        }
    }
}

/// How many levels in [`replace_by_descendants`](Search::replace_by_descendants) looks for a
/// span to replace a span by: its children, grandchildren and great-grandchildren. Two
/// levels shrank one more of the `stateful` example's 50 stores short of the shortest
/// sequence; three shrink as many as every level did.
const LEVELS: usize = 3;

/// The spans nested in `spans[at]` that open with a pick of `arity`, at most [`LEVELS`]
/// levels in, as ranges of `choices`: those at level 1 (a tree's children, the next link of a
/// chain), then those at level 2, and so on, each level in the order they were opened. A
/// span's level is one more than the number of such spans around it inside `spans[at]`; a
/// span over the same choices as the one around it (an element's span and its pick's) is
/// that span again, not a level. `spans` are in the order they were opened, which is the
/// order of their starts: those nested in a span follow it, and a nested span ends no later
/// than the spans around it. What lies inside a span at the last level is skipped unread.
fn descendants(
    choices: &[Choice],
    spans: &[std::ops::Range<usize>],
    at: usize,
    arity: u32,
) -> Vec<std::ops::Range<usize>> {
    let outer = &spans[at];
    let mut levels: [Vec<std::ops::Range<usize>>; LEVELS] = Default::default();
    // The spans of the arity around the one looked at, innermost last.
    let mut around: Vec<std::ops::Range<usize>> = Vec::new();
    let mut next = at + 1;
    while let Some(inner) = spans.get(next).filter(|inner| inner.start < outer.end) {
        next += 1;
        let nested = inner.end <= outer.end && inner.len() < outer.len();
        if !nested || opening_arity(choices, inner) != Some(arity) {
            continue;
        }
        while around.last().is_some_and(|span| inner.end > span.end) {
            around.pop();
        }
        if around.last() == Some(inner) {
            continue;
        }
        levels[around.len()].push(inner.clone());
        if around.len() + 1 == LEVELS {
            next += spans[next..].partition_point(|span| span.start < inner.end);
        } else {
            around.push(inner.clone());
        }
    }
    levels.concat()
}

/// The most integers of a hoisted span negated one at a time; a span with more gets only the
/// attempt with all of them negated.
const MAX_SINGLE_NEGATIONS: usize = 4;

/// `choices` with the integers in `range` negated: all of them, then (if there are at most
/// [`MAX_SINGLE_NEGATIONS`], and more than one) each alone. Integers whose negation is out of
/// their range, or that are 0, stay as they are; no candidate if none changes.
fn negations(choices: &[Choice], range: std::ops::Range<usize>) -> Vec<Vec<Choice>> {
    let negatable: Vec<usize> = range
        .filter(|&i| {
            matches!(choices[i], Choice::Int { value, lo, hi }
                if value != 0 && (lo..=hi).contains(&-value))
        })
        .collect();
    let negate = |candidate: &mut Vec<Choice>, i: usize| {
        if let Choice::Int { value, .. } = &mut candidate[i] {
            *value = -*value;
        }
    };
    if negatable.is_empty() {
        return Vec::new();
    }
    let mut all = choices.to_vec();
    for &i in &negatable {
        negate(&mut all, i);
    }
    let mut candidates = vec![all];
    if (2..=MAX_SINGLE_NEGATIONS).contains(&negatable.len()) {
        for &i in &negatable {
            let mut one = choices.to_vec();
            negate(&mut one, i);
            candidates.push(one);
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` choices, each a pick of two branches.
    fn picks(n: usize) -> Vec<Choice> {
        vec![
            Choice::Pick {
                index: 1,
                arity: 2,
                label: None,
            };
            n
        ]
    }

    /// Nearest first, level by level; a span over the same choices as the one around it is
    /// not a level of its own; nothing past the third level.
    #[test]
    fn descendants_come_level_by_level_to_the_third() {
        // A tree: two children, the first with a child of its own.
        let tree = [0..7, 1..4, 2..4, 4..7];
        assert_eq!(descendants(&picks(7), &tree, 0, 2), [1..4, 4..7, 2..4]);
        // A chain whose first link's span is recorded twice (an element's and its pick's).
        let chain = [0..6, 1..6, 1..6, 2..6, 3..6, 4..6];
        assert_eq!(descendants(&picks(6), &chain, 0, 2), [1..6, 2..6, 3..6]);
        // Spans that open with an integer or a pick of another arity are not candidates.
        let mut mixed = picks(5);
        mixed[1] = Choice::Int {
            value: 0,
            lo: 0,
            hi: 9,
        };
        mixed[2] = Choice::Pick {
            index: 0,
            arity: 3,
            label: None,
        };
        let spans = [0..5, 1..5, 2..5, 3..5, 4..5];
        assert_eq!(descendants(&mixed, &spans, 0, 2), [3..5, 4..5]);
    }
}
