//! [`ChoiceTree`]: every choice of one run, with the spans that nest them.

use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use super::label::Label;
use super::leaf::Choice;
use super::packed::Packed;
use super::span::Span;

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
#[derive(Clone)]
pub struct ChoiceTree {
    size: usize,
    /// The choices recorded one by one (all of them, unless some are packed).
    own_choices: Vec<Choice>,
    /// The spans recorded one by one.
    own_spans: Vec<Span>,
    /// Integers recorded in bulk, each in a span, and all the choices and spans once something
    /// read them; boxed, so that a tree without any (most) stays small to move and drop.
    packed: Option<Box<Lazy>>,
}

/// The packed part of a [`ChoiceTree`], and the tree unpacked on first read.
#[derive(Clone)]
struct Lazy {
    packed: Packed,
    unpacked: OnceLock<(Vec<Choice>, Vec<Span>)>,
}

impl ChoiceTree {
    /// The tree a run recorded: its spans nest, as a [`Trail`](super::Trail) keeps them.
    pub(crate) fn recorded(
        size: usize,
        own_choices: Vec<Choice>,
        own_spans: Vec<Span>,
        packed: Packed,
    ) -> ChoiceTree {
        let packed = (!packed.is_empty()).then(|| {
            Box::new(Lazy {
                packed,
                unpacked: OnceLock::new(),
            })
        });
        ChoiceTree {
            size,
            own_choices,
            own_spans,
            packed,
        }
    }

    /// The tree holding no more memory than its choices and spans need, for a tree that is
    /// kept: a run records into recycled vectors with room for large values, which a
    /// thousand kept trees would each hold on to. The choices, spans and packed integers are
    /// copied out, and the roomy vectors handed back for the next run to record into
    /// (shrinking them in place would leave the allocator a hole too small for the next
    /// run's vectors at every tree).
    pub(crate) fn compact(mut self) -> ChoiceTree {
        let mut roomy_packed = Packed::default();
        if let Some(lazy) = &mut self.packed {
            // A clone allocates exactly what the packed runs hold.
            let exact = lazy.packed.clone();
            roomy_packed = std::mem::replace(&mut lazy.packed, exact);
        }
        let choices = std::mem::take(&mut self.own_choices);
        let spans = std::mem::take(&mut self.own_spans);
        self.own_choices = choices.to_vec();
        self.own_spans = spans.to_vec();
        super::recycle::give_back(choices, spans, roomy_packed);
        self
    }

    /// The choices and the spans, unpacked the first time they are read.
    #[inline]
    fn parts(&self) -> (&[Choice], &[Span]) {
        let Some(lazy) = &self.packed else {
            return (&self.own_choices, &self.own_spans);
        };
        let (choices, spans) = lazy
            .unpacked
            .get_or_init(|| lazy.packed.unpack(&self.own_choices, &self.own_spans));
        (choices, spans)
    }

    /// A tree from its parts: the size it ran at, its choices, and spans given as
    /// `(range, label)` in the order they were opened.
    ///
    /// Returns `None` if a span reaches past the choices, two spans overlap without nesting, or
    /// an integer choice's bounds are reversed (`lo > hi`).
    pub fn from_parts(
        size: usize,
        choices: Vec<Choice>,
        spans: impl IntoIterator<Item = (std::ops::Range<usize>, Option<Label>)>,
    ) -> Option<ChoiceTree> {
        let spans: Vec<Span> = spans
            .into_iter()
            .map(|(range, label)| Span::new(range.start, range.end, label))
            .collect();
        if choices
            .iter()
            .any(|choice| matches!(choice, Choice::Int { lo, hi, .. } if lo > hi))
        {
            return None;
        }
        let mut open: Vec<&Span> = Vec::new();
        for span in &spans {
            if span.start() > span.end() || span.end() > choices.len() {
                return None;
            }
            while open.last().is_some_and(|outer| outer.end() <= span.start()) {
                open.pop();
            }
            if let Some(outer) = open.last()
                && (span.start() < outer.start() || span.end() > outer.end())
            {
                return None;
            }
            open.push(span);
        }
        Some(ChoiceTree::recorded(
            size,
            choices,
            spans,
            Packed::default(),
        ))
    }

    /// The size the generator ran at.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The choices, in the order they were made.
    pub fn choices(&self) -> &[Choice] {
        self.parts().0
    }

    /// The spans, in the order they were opened.
    pub fn spans(&self) -> &[Span] {
        self.parts().1
    }

    /// The number of choices.
    pub fn len(&self) -> usize {
        self.choices().len()
    }

    /// Whether the run made no choice at all.
    pub fn is_empty(&self) -> bool {
        self.choices().is_empty()
    }

    /// The labels of the labelled choices, in order (the paper's `reflect` result).
    pub fn labels(&self) -> Vec<Label> {
        self.choices()
            .iter()
            .filter_map(Choice::label)
            .cloned()
            .collect()
    }

    /// Compares two trees shortlex: fewer choices first, then the simpler choice at the first
    /// place they differ. Spans and size do not take part.
    pub fn shortlex_cmp(&self, other: &ChoiceTree) -> Ordering {
        self.len().cmp(&other.len()).then_with(|| {
            self.choices()
                .iter()
                .map(Choice::simplicity)
                .cmp(other.choices().iter().map(Choice::simplicity))
        })
    }
}

impl PartialEq for ChoiceTree {
    fn eq(&self, other: &ChoiceTree) -> bool {
        self.size == other.size && self.parts() == other.parts()
    }
}

impl Eq for ChoiceTree {}

impl fmt::Debug for ChoiceTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChoiceTree")
            .field("size", &self.size)
            .field("choices", &self.choices())
            .field("spans", &self.spans())
            .finish()
    }
}

impl Drop for ChoiceTree {
    /// Hands the vectors back for the next run on this thread to record into.
    fn drop(&mut self) {
        let (packed, unpacked) = match self.packed.take() {
            Some(lazy) => {
                let Lazy { packed, unpacked } = *lazy;
                (packed, unpacked.into_inner())
            }
            None => (Packed::default(), None),
        };
        super::recycle::give_back(
            std::mem::take(&mut self.own_choices),
            std::mem::take(&mut self.own_spans),
            packed,
        );
        if let Some((choices, spans)) = unpacked {
            super::recycle::give_back(choices, spans, Packed::default());
        }
    }
}

impl fmt::Display for ChoiceTree {
    /// Brackets for spans, labels for labelled picks, `#i` for unlabelled ones, numbers for
    /// integers: `(node 5 (leaf) (leaf))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (choices, spans) = self.parts();
        let mut open: Vec<usize> = Vec::new();
        let mut next_span = 0;
        let mut first = true;
        let separate = |f: &mut fmt::Formatter<'_>, first: &mut bool| {
            if !std::mem::take(first) {
                f.write_str(" ")?;
            }
            Ok(())
        };
        for index in 0..=choices.len() {
            while open.last().is_some_and(|&end| end <= index) {
                open.pop();
                f.write_str(")")?;
                first = false;
            }
            while let Some(span) = spans.get(next_span).filter(|s| s.start() == index) {
                separate(f, &mut first)?;
                f.write_str("(")?;
                first = true;
                next_span += 1;
                if span.end() == index {
                    f.write_str(")")?;
                    first = false;
                } else {
                    open.push(span.end());
                }
            }
            if let Some(choice) = choices.get(index) {
                separate(f, &mut first)?;
                write!(f, "{choice}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Trail;
    use super::*;

    /// A tree recorded into recycled vectors keeps their room until compacted; compacted, it
    /// is the same tree, holding no more than it needs, packed integers included.
    #[test]
    fn a_compacted_tree_is_the_same_tree_without_spare_room() {
        for packed in [false, true] {
            // Fresh vectors, not the small ones the last round's trees handed back.
            while super::super::recycle::take().is_some() {}
            let mut trail = Trail::recycled();
            let span = trail.open(None);
            for value in [3, 1, 4] {
                trail.push(Choice::Int {
                    value,
                    lo: 0,
                    hi: 9,
                });
            }
            if packed {
                trail.push_spanned_ints(0, 9, &[1, 5, 9]);
            }
            trail.close(span);
            let tree = trail.into_tree(7);
            assert!(
                tree.own_choices.capacity() > 3,
                "recorded with room to spare"
            );
            let expected = tree.clone();
            let compact = tree.compact();
            assert_eq!(compact, expected);
            assert_eq!(compact.to_string(), expected.to_string());
            assert_eq!(compact.choices().len(), if packed { 6 } else { 3 });
            assert_eq!(compact.own_choices.capacity(), compact.own_choices.len());
            assert_eq!(compact.own_spans.capacity(), compact.own_spans.len());
            if let Some(lazy) = &compact.packed {
                assert_eq!(lazy.packed.distances.capacity(), 3);
                assert_eq!(lazy.packed.runs.capacity(), 1);
            }
            assert_eq!(compact.packed.is_some(), packed);
        }
    }
}
