//! Choices, labels and choice trees: what the two engines record (the bottom layer).
//!
//! A run of a generator makes a sequence of [`Choice`]s: which branch of a pick it took, which
//! integer it drew. The [`ChoiceTree`] of a value holds that sequence together with its
//! [`Span`]s, the nested brackets that say which choices belong to which sub-generator (one
//! span per branch taken and per collection element). The sequence is flat, as in Hypothesis,
//! so recording it is one push per choice; the spans turn it into a tree. A collection of
//! narrow integers (bytes, small numbers) is recorded in one go, packed as four bytes an
//! element, and unpacked into choices and spans only when something reads the tree.
//!
//! Choices are ordered by *simplicity*: a pick by its branch index, an integer by how far it
//! is from the in-range value nearest zero. Trees compare shortlex: fewer choices first, then
//! the simpler choice at the first difference.
//!
//! | file | what |
//! |---|---|
//! | `label.rs` | [`Label`], the semantic name of a choice |
//! | `leaf.rs` | [`Choice`], one typed choice, and its simplicity |
//! | `span.rs` | [`Span`], the bracket around one sub-generator's choices |
//! | `tree.rs` | [`ChoiceTree`], the choices and spans of one run |
//! | `collection.rs` | where a tree's collections lie: each one's length and elements |
//! | `grouped.rs` | indices grouped by parent in one buffer: a tree's spans under the span that holds them |
//! | `packed.rs` | integers recorded in bulk, unpacked when a tree is read |
//! | `trail.rs` | the trail a run records into, turned into a tree at the end |
//! | `recycle.rs` | the vectors of dropped trees, kept for the next run on the thread |

mod collection;
mod grouped;
mod label;
mod leaf;
mod packed;
mod recycle;
mod span;
mod trail;
mod tree;

pub(crate) use collection::Collection;
pub(crate) use grouped::Grouped;
pub use label::Label;
pub use leaf::Choice;
pub(crate) use leaf::{fingerprint, mix, nearest_zero};
pub use span::Span;
pub(crate) use trail::{OpenSpan, Trail};
pub use tree::ChoiceTree;
