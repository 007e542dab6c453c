//! [`Collection`]: where a collection's length and elements lie among a tree's choices, as
//! the shrinker and the mutator edit them.

use super::grouped::Grouped;
use super::leaf::Choice;
use super::tree::ChoiceTree;

/// A collection among the choices: where its length is, and where each element is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Collection {
    /// The index of the length.
    pub(crate) count: usize,
    /// The elements' choices, adjacent, in order.
    pub(crate) elements: Vec<std::ops::Range<usize>>,
}

impl ChoiceTree {
    /// The non-empty collections among the choices: spans that open with an integer (the
    /// length) and end with a run of that many adjacent spans (the elements).
    pub(crate) fn collections(&self) -> Vec<Collection> {
        let spans = self.spans();
        let choices = self.choices();
        // Spans are stored in the order they were opened: a parent before its children.
        let top = spans.len();
        let mut parents = Vec::with_capacity(top);
        let mut open: Vec<usize> = Vec::new();
        for (index, span) in spans.iter().enumerate() {
            let range = span.range();
            while open
                .last()
                .is_some_and(|&outer| spans[outer].range().end <= range.start && !range.is_empty())
            {
                open.pop();
            }
            parents.push(open.last().copied().unwrap_or(top));
            open.push(index);
        }
        let children = Grouped::by_parent(&parents, top + 1);
        let mut collections = Vec::new();
        for (index, span) in spans.iter().enumerate() {
            let range = span.range();
            let elements = children.of(index);
            let (Some(&first), Some(&last)) = (elements.first(), elements.last()) else {
                continue;
            };
            let adjacent = elements
                .windows(2)
                .all(|pair| spans[pair[0]].range().end == spans[pair[1]].range().start);
            // The length counts the elements: a struct that opens with an integer and ends
            // with a collection is not one.
            let opens_with_length = spans[first].range().start > range.start
                && matches!(choices.get(range.start), Some(&Choice::Int { value, .. })
                    if usize::try_from(value).is_ok_and(|length| length == elements.len()));
            if adjacent && opens_with_length && spans[last].range().end == range.end {
                collections.push(Collection {
                    count: range.start,
                    elements: elements.iter().map(|&child| spans[child].range()).collect(),
                });
            }
        }
        collections
    }
}
