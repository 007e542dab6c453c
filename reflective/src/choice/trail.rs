//! The trail a run records its choices and spans into, turned into a [`ChoiceTree`] at the end.

use super::label::Label;
use super::leaf::Choice;
use super::packed::{Packed, PackedRun};
use super::span::Span;
use super::tree::ChoiceTree;

/// The choices and spans of the run in progress; both engines record into one.
///
/// Choices are pushed one by one, except runs of narrow integers drawn in bulk (a collection's
/// elements), which are kept [packed](Packed) until something reads the tree.
#[derive(Default)]
pub(crate) struct Trail {
    choices: Vec<Choice>,
    spans: Vec<Span>,
    packed: Packed,
}

/// A span still open in a [`Trail`].
#[derive(Clone, Copy)]
pub(crate) struct OpenSpan(usize);

impl Trail {
    const OPEN: usize = usize::MAX;

    /// An empty trail, recording into the vectors of a dropped tree if this thread kept some
    /// (see the module `recycle`).
    pub(crate) fn recycled() -> Trail {
        match super::recycle::take() {
            Some((choices, spans, packed)) => Trail {
                choices,
                spans,
                packed,
            },
            None => Trail {
                choices: Vec::with_capacity(64),
                spans: Vec::with_capacity(32),
                packed: Packed::default(),
            },
        }
    }

    /// How many choices the trail holds, packed ones included.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.choices.len() + self.packed.distances.len()
    }

    pub(crate) fn push(&mut self, choice: Choice) {
        self.choices.push(choice);
    }

    /// Records integers drawn from `lo..=hi`, given as their distances from `lo`, each in a
    /// span of its own, as a collection's elements are: what pushing each between an
    /// [`open`](Self::open) and a [`close`](Self::close) records, kept packed.
    pub(crate) fn push_spanned_ints(&mut self, lo: i128, hi: i128, distances: &[u32]) {
        let (choice_at, span_at) = (self.choices.len(), self.spans.len());
        let start = self.packed.distances.len();
        self.packed.distances.extend_from_slice(distances);
        match self.packed.runs.last_mut() {
            // The next chunk of the same draw: one run.
            Some(last)
                if (last.choice_at, last.span_at, last.lo, last.hi)
                    == (choice_at, span_at, lo, hi) =>
            {
                last.len += distances.len();
            }
            _ => self.packed.runs.push(PackedRun {
                choice_at,
                span_at,
                lo,
                hi,
                start,
                len: distances.len(),
            }),
        }
    }

    /// Opens a span whose first choice is the next one recorded.
    pub(crate) fn open(&mut self, label: Option<Label>) -> OpenSpan {
        self.open_at(self.len(), label)
    }

    /// Opens a span that starts at an already recorded choice.
    pub(crate) fn open_at(&mut self, start: usize, label: Option<Label>) -> OpenSpan {
        self.spans.push(Span::new(start, Self::OPEN, label));
        OpenSpan(self.spans.len() - 1)
    }

    pub(crate) fn close(&mut self, span: OpenSpan) {
        let end = self.len();
        self.spans[span.0].close_at(end);
    }

    pub(crate) fn into_tree(self, size: usize) -> ChoiceTree {
        ChoiceTree::recorded(size, self.choices, self.spans, self.packed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(value: i128) -> Choice {
        Choice::Int {
            value,
            lo: 0,
            hi: 9,
        }
    }

    /// The same record made choice by choice and packed gives the same tree.
    #[test]
    fn packed_integers_unpack_to_what_pushing_them_records() {
        let record = |packed: bool| {
            let mut trail = Trail::default();
            let outer = trail.open(None);
            trail.push(int(3));
            for chunk in [[1u32, 2].as_slice(), &[7]] {
                if packed {
                    trail.push_spanned_ints(0, 9, chunk);
                } else {
                    for &distance in chunk {
                        let span = trail.open(None);
                        trail.push(int(i128::from(distance)));
                        trail.close(span);
                    }
                }
            }
            trail.close(outer);
            let after = trail.open(Some(Label::new("after")));
            trail.push(int(5));
            trail.close(after);
            trail.into_tree(4)
        };
        let (packed, pushed) = (record(true), record(false));
        assert_eq!(packed.to_string(), "(3 (1) (2) (7)) (5)");
        assert_eq!(packed, pushed);
        assert_eq!(packed.spans(), pushed.spans());
    }
}
