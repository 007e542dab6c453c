//! Choices, labels and choice trees: what the two engines record.
//!
//! A run of a generator makes a sequence of [`Choice`]s: which branch of a pick it took, which
//! integer it drew. The [`ChoiceTree`] of a value holds that sequence together with its
//! [`Span`]s, the nested brackets that say which choices belong to which sub-generator (one
//! span per branch taken and per collection element). The sequence is flat, as in Hypothesis,
//! so recording it is one push per choice; the spans turn it into a tree.
//!
//! Choices are ordered by *simplicity*: a pick by its branch index, an integer by how far it
//! is from the in-range value nearest zero. Trees compare shortlex: fewer choices first, then
//! the simpler choice at the first difference.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// The semantic name of a choice: `"leaf"`, `"node"`, a digit.
///
/// Labels drive tuning, choice frequencies and coverage. A label built from a `&'static str`
/// costs nothing to copy; one built from a `String` is shared.
///
/// ```
/// use reflective::Label;
/// let label = Label::from("node");
/// assert_eq!(label, "node");
/// assert_eq!(label.to_string(), "node");
/// ```
#[derive(Clone)]
pub struct Label(LabelText);

#[derive(Clone)]
enum LabelText {
    Static(&'static str),
    Shared(Arc<str>),
}

impl Label {
    /// A label from a string literal, usable in `const` and `static` items.
    pub const fn new(text: &'static str) -> Label {
        Label(LabelText::Static(text))
    }

    /// The label's text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            LabelText::Static(text) => text,
            LabelText::Shared(text) => text,
        }
    }
}

impl From<&'static str> for Label {
    fn from(text: &'static str) -> Label {
        Label::new(text)
    }
}

impl From<String> for Label {
    fn from(text: String) -> Label {
        Label(LabelText::Shared(text.into()))
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Label {
    fn eq(&self, other: &Label) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Label {}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Label {
    fn partial_cmp(&self, other: &Label) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Label {
    fn cmp(&self, other: &Label) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Label {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

/// One choice a generator made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A branch of a pick: `index` among `arity` branches, with the branch's label if it has one.
    Pick {
        /// The branch taken, counting from 0.
        index: u32,
        /// How many branches the pick offered.
        arity: u32,
        /// The label of the branch taken.
        label: Option<Label>,
    },
    /// An integer drawn from the inclusive range `lo..=hi`.
    Int {
        /// The integer drawn.
        value: i128,
        /// The least integer the draw allowed.
        lo: i128,
        /// The greatest integer the draw allowed.
        hi: i128,
    },
}

/// The integer in `lo..=hi` nearest zero: the simplest value of an integer choice.
#[inline]
pub(crate) fn nearest_zero(lo: i128, hi: i128) -> i128 {
    0i128.clamp(lo, hi)
}

impl Choice {
    /// How simple the choice is: 0 is simplest.
    ///
    /// A pick ranks by its index. An integer ranks by its distance from the in-range value
    /// nearest zero, positive before negative at the same distance (0, 1, -1, 2, -2, ...);
    /// in a range on one side of zero, by its distance alone.
    ///
    /// ```
    /// use reflective::Choice;
    /// let int = |value| Choice::Int { value, lo: -10, hi: 10 };
    /// assert!(int(0).simplicity() < int(1).simplicity());
    /// assert!(int(1).simplicity() < int(-1).simplicity());
    /// assert!(int(-1).simplicity() < int(2).simplicity());
    /// let above = Choice::Int { value: 7, lo: 5, hi: 10 };
    /// assert_eq!(above.simplicity(), 2);
    /// ```
    pub fn simplicity(&self) -> u128 {
        match self {
            Choice::Pick { index, .. } => u128::from(*index),
            Choice::Int { value, lo, hi } => {
                let origin = nearest_zero(*lo, *hi);
                let distance = value.abs_diff(origin);
                if origin == *lo || origin == *hi {
                    return distance;
                }
                match value.cmp(&origin) {
                    Ordering::Equal => 0,
                    Ordering::Greater => distance.saturating_mul(2).saturating_sub(1),
                    Ordering::Less => distance.saturating_mul(2),
                }
            }
        }
    }

    /// The label of a pick's branch; integers have none.
    pub fn label(&self) -> Option<&Label> {
        match self {
            Choice::Pick { label, .. } => label.as_ref(),
            Choice::Int { .. } => None,
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Pick {
                label: Some(label), ..
            } => write!(f, "{label}"),
            Choice::Pick { index, .. } => write!(f, "#{index}"),
            Choice::Int { value, .. } => write!(f, "{value}"),
        }
    }
}

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
    /// The indices of the choices inside the span.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// The label of the span: the label of the branch it records, if any.
    pub fn label(&self) -> Option<&Label> {
        self.label.as_ref()
    }
}

/// Every choice one run of a generator made, with the spans that nest them.
///
/// A choice tree is what generation records, what reflection recovers from a value, and what
/// replay turns back into the value. It also records the size the generator ran at, since a
/// sized generator can take other choices at another size.
///
/// ```
/// use reflective::prelude::*;
/// let g = vec(range(0u8..=9), 0..=3);
/// let tree = g.choices(&vec![4, 2]).remove(0);
/// assert_eq!(g.replay(&tree), Some(vec![4, 2]));
/// // The list in a span: its length, then each element in a span.
/// assert_eq!(tree.to_string(), "(2 (4) (2))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceTree {
    size: usize,
    choices: Vec<Choice>,
    spans: Vec<Span>,
}

impl ChoiceTree {
    /// A tree from its parts: the size it ran at, its choices, and spans given as
    /// `(range, label)` in the order they were opened.
    ///
    /// Returns `None` if a span reaches past the choices or two spans overlap without nesting.
    pub fn from_parts(
        size: usize,
        choices: Vec<Choice>,
        spans: impl IntoIterator<Item = (std::ops::Range<usize>, Option<Label>)>,
    ) -> Option<ChoiceTree> {
        let spans: Vec<Span> = spans
            .into_iter()
            .map(|(range, label)| Span {
                start: range.start,
                end: range.end,
                label,
            })
            .collect();
        let mut open: Vec<&Span> = Vec::new();
        for span in &spans {
            if span.start > span.end || span.end > choices.len() {
                return None;
            }
            while open.last().is_some_and(|outer| outer.end <= span.start) {
                open.pop();
            }
            if let Some(outer) = open.last()
                && (span.start < outer.start || span.end > outer.end)
            {
                return None;
            }
            open.push(span);
        }
        Some(ChoiceTree {
            size,
            choices,
            spans,
        })
    }

    /// The size the generator ran at.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The choices, in the order they were made.
    pub fn choices(&self) -> &[Choice] {
        &self.choices
    }

    /// The spans, in the order they were opened.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// The number of choices.
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    /// Whether the run made no choice at all.
    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    /// The labels of the labelled choices, in order (the paper's `reflect` result).
    pub fn labels(&self) -> Vec<Label> {
        self.choices
            .iter()
            .filter_map(Choice::label)
            .cloned()
            .collect()
    }

    /// Compares two trees shortlex: fewer choices first, then the simpler choice at the first
    /// place they differ. Spans and size do not take part.
    pub fn shortlex_cmp(&self, other: &ChoiceTree) -> Ordering {
        self.len().cmp(&other.len()).then_with(|| {
            self.choices
                .iter()
                .map(Choice::simplicity)
                .cmp(other.choices.iter().map(Choice::simplicity))
        })
    }
}

impl Drop for ChoiceTree {
    /// Hands the vectors back for the next run on this thread to record into.
    fn drop(&mut self) {
        crate::recycle::give_back(
            std::mem::take(&mut self.choices),
            std::mem::take(&mut self.spans),
        );
    }
}

impl fmt::Display for ChoiceTree {
    /// Brackets for spans, labels for labelled picks, `#i` for unlabelled ones, numbers for
    /// integers: `(node 5 (leaf) (leaf))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut open: Vec<usize> = Vec::new();
        let mut next_span = 0;
        let mut first = true;
        let separate = |f: &mut fmt::Formatter<'_>, first: &mut bool| {
            if !std::mem::take(first) {
                f.write_str(" ")?;
            }
            Ok(())
        };
        for index in 0..=self.choices.len() {
            while open.last().is_some_and(|&end| end <= index) {
                open.pop();
                f.write_str(")")?;
                first = false;
            }
            while let Some(span) = self.spans.get(next_span).filter(|s| s.start == index) {
                separate(f, &mut first)?;
                f.write_str("(")?;
                first = true;
                next_span += 1;
                if span.end == index {
                    f.write_str(")")?;
                    first = false;
                } else {
                    open.push(span.end);
                }
            }
            if let Some(choice) = self.choices.get(index) {
                separate(f, &mut first)?;
                write!(f, "{choice}")?;
            }
        }
        Ok(())
    }
}

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
    /// (see [`crate::recycle`]).
    pub(crate) fn recycled() -> Trail {
        match crate::recycle::take() {
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
        self.spans.push(Span {
            start,
            end: Self::OPEN,
            label,
        });
        OpenSpan(self.spans.len() - 1)
    }

    pub(crate) fn close(&mut self, span: OpenSpan) {
        self.spans[span.0].end = self.choices.len();
    }

    pub(crate) fn into_tree(self, size: usize) -> ChoiceTree {
        ChoiceTree {
            size,
            choices: self.choices,
            spans: self.spans,
        }
    }
}
