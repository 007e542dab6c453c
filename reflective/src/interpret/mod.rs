//! The interpretations of a generator, one module each, over the two engines (the layer above
//! the generator's core and the combinators).
//!
//! Each is a small function over the engines, taking any [`Node`](crate::Node); the
//! [`Generator`](crate::Generator) trait, one layer up, calls each in one line.
//!
//! | module | interpretation | engines |
//! |---|---|---|
//! | `generate` | generate, sample, replay, repaired replay | forward + random or replay source |
//! | `enumerate` | every value in size order | forward + exhaustive source |
//! | `reflect` | choices, label sequences, `can_generate`, reproductions | backward |
//! | `probability` | the probability of a value | backward, weights summed over paths |
//! | [`shrink`] | the simplest failing value, from any value | backward once, then forward replays |
//! | [`complete`] | a value's holes filled at random, its given parts kept | backward, generating forward at the holes |
//! | [`gradient`] | valid values by Choice Gradient Sampling, and a generator learned from it | forward + probe and replay-then-random sources |
//! | [`mutate`] | values one edit of a value's choices away, each one the generator produces | backward once, then forward replays with random repair |
//! | [`validate`] | checks that a generator is sound, complete and correctly annotated, with shrunk counterexamples | forward, then backward on each value |
//! | [`bytes`] | values from a fuzzer's bytes, bytes from values, mutation of bytes | forward + bytes source; backward once |
//! | `type_shrink` | type-directed shrinks of the standard types (the baseline) | none |

pub mod bytes;
pub mod complete;
mod enumerate;
mod generate;
pub mod gradient;
pub mod mutate;
mod probability;
mod reflect;
pub mod shrink;
pub(crate) mod type_shrink;
pub mod validate;

pub use enumerate::Enumerate;
pub use generate::{DEFAULT_SIZE, DefaultRng, GenerateError, Generated};
pub(crate) use generate::{
    generate_value, replay, replay_repaired, sample, try_generate, try_generate_recording,
};
pub(crate) use probability::log_sum_exp;
pub use reflect::Reflector;
