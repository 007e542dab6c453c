//! The named passes, each with one job, in the order a shrink runs them (looped to a fixpoint).
//! A pass is a method of the shrink's [`Search`]: it proposes edited choices and keeps those
//! that replay to something simpler that still fails.
//!
//! | pass | file | its one job |
//! |---|---|---|
//! | zero elements | `elements.rs` | set runs of a collection's elements to their simplest choices |
//! | delete elements | `elements.rs` | delete runs of a collection's elements, lowering its length |
//! | merge collections | `nests.rs` | merge two sibling collections into one |
//! | move elements | `nests.rs` | move an element from a collection to the next sibling |
//! | replace by a span | `spans.rs` | replace the whole sequence by one of its spans |
//! | replace by a nested span | `spans.rs` | replace a span by a span at most three levels inside it of the same kind |
//! | delete spans | `spans.rs` | delete a span that is not a collection's element |
//! | delete blocks | `blocks.rs` | delete 8, 4, 2 or 1 consecutive choices |
//! | zero spans | `spans.rs` | set a span's choices to their simplest |
//! | simpler branches | `branches.rs` | put a pick on a simpler branch |
//! | minimise choices | `integers.rs` | lower one choice as far as it still fails |
//! | lower duplicates | `integers.rs` | lower equal integers together |
//! | shift integers | `integers.rs` | shift the signed integers together, the least to 0 |
//! | redistribute | `integers.rs` | move value from one integer to a nearby one |
//! | swap siblings | `reorder.rs` | swap two adjacent spans of one kind into the simpler order |
//! | hoist into empty | `reorder.rs` | move a span out of an element into an earlier empty collection |
//! | delete together | `nests.rs` | at a fixpoint of the others, delete the last element of two collections as long as each other |
//! | try small values | `exhaust.rs` | at a fixpoint of the others, walk every sequence no longer than a short best |

mod blocks;
mod branches;
mod elements;
mod exhaust;
mod integers;
mod nests;
mod reorder;
mod spans;

use crate::node::Node;

use super::search::Search;

/// A pass over the best choices so far.
pub(super) type Pass<'s, G> = fn(&mut Search<'s, G>);

/// The last passes of [`in_order`] that run only when a round of the others changed nothing
/// (they cost more than the others and find what those cannot).
pub(super) const AT_FIXPOINT: usize = 2;

/// The passes in the order they run, with their names (as the shrink's statistics give them);
/// the last [`AT_FIXPOINT`] run only at a fixpoint of the others.
pub(super) fn in_order<'s, G: Node>() -> [(&'static str, Pass<'s, G>); 18] {
    [
        ("zero elements", Search::zero_elements),
        ("delete elements", Search::delete_elements),
        ("merge collections", Search::merge_collections),
        ("move elements", Search::move_elements),
        ("replace by a span", Search::replace_by_spans),
        ("replace by a nested span", Search::replace_by_descendants),
        ("delete spans", Search::delete_spans),
        ("delete blocks", Search::delete_blocks),
        ("zero spans", Search::zero_spans),
        ("simpler branches", Search::simpler_branches),
        ("minimise choices", Search::minimise_choices),
        ("lower duplicates", Search::lower_duplicates),
        ("shift integers", Search::shift_integers),
        ("redistribute", Search::redistribute),
        ("swap siblings", Search::swap_siblings),
        ("hoist into empty", Search::hoist_into_empty),
        ("delete together", Search::delete_together),
        ("try small values", Search::try_small_values),
    ]
}
