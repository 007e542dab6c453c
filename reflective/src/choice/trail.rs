//! The trail a run records its choices and spans into, turned into a [`ChoiceTree`] at the end.

use super::label::Label;
use super::leaf::Choice;
use super::span::Span;
use super::tree::ChoiceTree;

/// The choices and spans of the run in progress; both engines record into one.
#[derive(Default)]
pub(crate) struct Trail {
    pub(crate) choices: Vec<Choice>,
    pub(crate) spans: Vec<Span>,
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
            Some((choices, spans)) => Trail { choices, spans },
            None => Trail {
                choices: Vec::with_capacity(64),
                spans: Vec::with_capacity(32),
            },
        }
    }

    pub(crate) fn push(&mut self, choice: Choice) {
        self.choices.push(choice);
    }

    /// Opens a span whose first choice is the next one recorded.
    pub(crate) fn open(&mut self, label: Option<Label>) -> OpenSpan {
        self.open_at(self.choices.len(), label)
    }

    /// Opens a span that starts at an already recorded choice.
    pub(crate) fn open_at(&mut self, start: usize, label: Option<Label>) -> OpenSpan {
        self.spans.push(Span::new(start, Self::OPEN, label));
        OpenSpan(self.spans.len() - 1)
    }

    pub(crate) fn close(&mut self, span: OpenSpan) {
        self.spans[span.0].close_at(self.choices.len());
    }

    pub(crate) fn into_tree(self, size: usize) -> ChoiceTree {
        ChoiceTree::recorded(size, self.choices, self.spans)
    }
}
