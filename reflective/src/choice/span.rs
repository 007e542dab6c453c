//! [`Span`]: the bracket around the choices of one sub-generator.

use super::label::Label;

/// A bracket around the choices one sub-generator made: the choices `start..end`.
///
/// Spans nest properly and are kept in the order they were opened (an outer span before the
/// spans inside it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    start: usize,
    end: usize,
    label: Option<Label>,
}

impl Span {
    /// The span of the choices `start..end`.
    pub(crate) fn new(start: usize, end: usize, label: Option<Label>) -> Span {
        Span { start, end, label }
    }

    /// Where the span starts.
    pub(crate) fn start(&self) -> usize {
        self.start
    }

    /// Where the span ends (one past its last choice).
    pub(crate) fn end(&self) -> usize {
        self.end
    }

    /// Closes the span at `end`.
    pub(crate) fn close_at(&mut self, end: usize) {
        self.end = end;
    }

    /// The indices of the choices inside the span.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// The label of the span: the label of the branch it records, if any.
    pub fn label(&self) -> Option<&Label> {
        self.label.as_ref()
    }
}
