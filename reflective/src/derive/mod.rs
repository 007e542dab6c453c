//! Derive support (the layer above the generator trait): the [`Reflective`] trait with the
//! standard types' impls, type [`dimension`]s, and what `#[derive(Reflective)]`'s code calls.
//!
//! | file | what |
//! |---|---|
//! | `reflective.rs` | the [`Reflective`] trait and its impls for the standard types |
//! | `more_std.rs` | its impls for durations, non-zero integers, ranges, orderings, `Cow`, wrappers |
//! | `sequences.rs` | its impls for deques, lists, heaps, boxed and shared slices and strs, OS strings |
//! | `system.rs` | its impls for network addresses, paths and system times |
//! | `dimension.rs` | the Agata thesis' dimension of a type |
//! | `cache.rs` | each type's generator, built once per thread; recursion through placeholders |
//! | `direct.rs` | derived generators run forward by the derive's code, backward by combinators |
//! | `parts.rs` | the parts of a value of its own type, for the derived shrinker |
//! | `skipped.rs` | the generator of a skipped variant's fields, which produces nothing |
//! | `regex_attribute.rs` | the generator of a field or an argument given by `regex = "..."` |

mod cache;
pub mod dimension;
mod direct;
mod more_std;
mod parts;
mod reflective;
mod regex_attribute;
mod sequences;
mod skipped;
mod system;

pub use cache::cached;
pub use direct::{Variants, direct, forward_part, forward_variant, grown};
pub use parts::{same_typed_parts, take_part, with_stack_room};
pub use reflective::{Reflective, any};
pub use regex_attribute::regex_attribute;
pub use skipped::skipped;
