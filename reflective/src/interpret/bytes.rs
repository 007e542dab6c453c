//! Fuzzing: a generator's values from a fuzzer's bytes, a value's bytes from its choices, and
//! mutation of such bytes that keeps the generator's invariants.
//!
//! A fuzzer (cargo-fuzz, AFL) hands a target byte strings and mutates the ones that reach new
//! code. [`Generator::decode`] reads any byte string as a value of the generator: its first byte is the
//! size (so an empty string is a value at size 0), and each choice after it reads the fewest
//! bytes that hold its range, little-endian, modulo the number of values (a pick that lands on
//! a branch of zero weight takes the next branch that has one); when the bytes run out, the remaining
//! choices take their simplest values (the first branch with a weight, the integer nearest
//! 0), so a short input gives a small value when a generator's first branches are its small
//! ones (a derived enum whose first variant holds the type itself recurses on it until the
//! size runs out: put a leaf variant first); the rest are drawn at random from a fixed seed
//! once a filter or a distinct collection draws again (the simplest value would come back
//! for ever) or after 4 096 simplest choices (so that a generator whose simplest choices
//! never end, ends as generation does); where a filter keeps no value at the bytes' size (a
//! list filtered to be non-empty, at size 0), the same choices are read at the sizes above
//! it. So every byte
//! string gives a value the generator produces, the same one every time, and a fuzzer's crash
//! is a value the library can shrink (with [`Generator::shrink_generated`], from the choices
//! the bytes gave, or [`Generator::shrink`] from the value).
//!
//! [`Generator::encode`] goes the other way: a value reflected into its simplest choices at
//! the least size that produces it, written as the bytes `decode` reads back as the value, to
//! seed a fuzzer's corpus with fixtures or a bug report. [`Mutator::mutate_bytes`] is a
//! fuzzer's custom mutator: it reads the bytes as choices, edits them as
//! [`mutate`](super::mutate) does, and writes the mutant's bytes, so every input the target
//! sees is valid.
//!
//! Bytes are read uniformly over each choice's range, not with the generator's weights: a
//! fuzzer's bytes steer the value, not the generator's distribution. The size byte bounds what
//! bytes can hold: a value only sizes above [`MAX_BYTES_SIZE`] produce has no bytes.
//!
//! [`Generator::decode`]: crate::Generator::decode
//! [`Generator::encode`]: crate::Generator::encode
//! [`Generator::shrink_generated`]: crate::Generator::shrink_generated
//! [`Generator::shrink`]: crate::Generator::shrink

use std::fmt;

use rand_core::SeedableRng;

use crate::choice::{ChoiceTree, Label};
use crate::engine::parts::part_text;
use crate::engine::source::bytes::{BytesSource, write_choices};
use crate::engine::source::random::below;
use crate::engine::{Budgets, ReflectError};
use crate::node::Node;

use super::generate::{DefaultRng, GenerateError, Generated, run_on};
use super::mutate::Mutator;
use super::reflect::{TooManyWays, Unreflected, simplest_choices, unproduced_part};

/// The greatest size bytes can give: their first byte is the size.
pub const MAX_BYTES_SIZE: usize = u8::MAX as usize;

/// The seed of the random draws that follow the bytes once they run out.
const FALLBACK_SEED: u64 = 0;

/// [`Mutator::mutate_bytes`] gives the bytes a size drawn afresh one time in this many.
const RESIZE_ONE_IN: u64 = 4;

/// How many sizes drawn afresh [`Mutator::mutate_bytes`] tries on bytes whose own size the
/// generator fails at.
const RESIZE_TRIES: usize = 8;

/// The value `bytes` give (with its choices): see the [module](self). Where a filter rejects
/// every value at the bytes' size (a list filtered to be non-empty, at size 0), the same
/// choices are read at the sizes above it, up to [`MAX_BYTES_SIZE`], until one gives a value.
pub(crate) fn decode<G: Node>(g: &G, bytes: &[u8]) -> Result<Generated<G::Output>, GenerateError> {
    let (size, choices) = match bytes.split_first() {
        Some((&size, choices)) => (usize::from(size), choices),
        None => (0, bytes),
    };
    let at = |size| {
        let mut rng = DefaultRng::seed_from_u64(FALLBACK_SEED);
        run_on(g, &mut BytesSource::new(choices, &mut rng), size)
    };
    let first = at(size);
    if !rejected(&first) {
        return first;
    }
    (size + 1..=MAX_BYTES_SIZE)
        .map(at)
        .find(|decoded| !rejected(decoded))
        .unwrap_or(first)
}

/// Whether `decoded` failed because a filter rejected every value it drew.
fn rejected<T>(decoded: &Result<T, GenerateError>) -> bool {
    decoded.as_ref().is_err_and(GenerateError::filter_rejected)
}

/// The bytes of the choices `tree` holds, as [`decode`] reads them back.
///
/// # Panics
///
/// If the tree's size is above [`MAX_BYTES_SIZE`]: the callers reflect no further.
fn tree_bytes(tree: &ChoiceTree) -> Vec<u8> {
    let size = u8::try_from(tree.size()).expect("a size bytes can give");
    let mut out = vec![size];
    write_choices(tree.choices(), &mut out);
    out
}

/// Why a value has no bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// The generator does not produce the value at any size up to [`MAX_BYTES_SIZE`]. `part`
    /// names the type of the first part (the innermost) that no way produces at that size,
    /// where one is reached by a focus or as a collection's element, as
    /// [`CompleteError::CannotProduce`](crate::complete::CompleteError::CannotProduce) does.
    CannotProduce {
        /// The type of the first part that fails, if a focus or a collection reached it.
        part: Option<&'static str>,
        /// Where that part is: the pick branches' labels, named focuses and collections'
        /// indices (`[2]`) that lead to it, outermost first (written `items[2].y`).
        path: Vec<Label>,
    },
    /// Reflecting the value ran out of a budget (the last error), at several sizes in a row.
    Reflect(ReflectError),
    /// Reflecting the value panicked: an annotation (a `focus`, a `comap`) panics on it.
    Panicked {
        /// The panic's message.
        message: String,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::CannotProduce {
                part: Some(part),
                path,
            } => write!(
                f,
                "cannot write the value as bytes: the generator does not produce it at any size \
                 up to {MAX_BYTES_SIZE}; the first part that fails is {} (check the value with \
                 `can_generate`)",
                part_text(part, path)
            ),
            EncodeError::CannotProduce { part: None, .. } => write!(
                f,
                "cannot write the value as bytes: the generator does not produce it at any size \
                 up to {MAX_BYTES_SIZE} (check it with `can_generate`)"
            ),
            EncodeError::Reflect(error) => {
                write!(f, "cannot write the value as bytes: {error}")
            }
            EncodeError::Panicked { message } => write!(
                f,
                "cannot write the value as bytes: reflecting it panicked (an annotation, a \
                 `focus` or a `comap`, panics on it): {message}"
            ),
        }
    }
}

impl std::error::Error for EncodeError {}

/// The bytes [`decode`] reads back as `value`: its simplest choices at the least size that
/// produces it.
pub(crate) fn encode<G: Node>(g: &G, value: &G::Input) -> Result<Vec<u8>, EncodeError> {
    // Every size in turn, not doubling ones: the bytes name the least size that produces the
    // value, also one only a size between two powers of two produces.
    match simplest_choices(
        g,
        value,
        0..=MAX_BYTES_SIZE,
        Budgets::default(),
        TooManyWays::Error,
    ) {
        Ok(tree) => Ok(tree_bytes(&tree)),
        Err(Unreflected::CannotProduce) => {
            let (part, path) = unproduced_part(g, value, MAX_BYTES_SIZE, Budgets::default())
                .map_or((None, Vec::new()), |(part, path)| (Some(part), path));
            Err(EncodeError::CannotProduce { part, path })
        }
        Err(Unreflected::Budget(error)) => Err(EncodeError::Reflect(error)),
        Err(Unreflected::Panicked(message)) => Err(EncodeError::Panicked { message }),
    }
}

impl<G: Node> Mutator<'_, G> {
    /// A mutant of the value `bytes` give, as bytes: the value's choices edited with `seed`
    /// as [`Mutator::mutate_tree`] edits them, written as bytes. A fuzzer's custom mutator
    /// that keeps every input the target sees a value of the generator; the bytes of the
    /// value itself (its choices as read, written again) if no edit changes it. The edits keep
    /// the value's size, so one time in four the size byte is drawn afresh (uniformly in
    /// `0..=255`) and the bytes read at it before the edit: values outgrow the input's size
    /// (an empty input, at size 0, is not the empty list for ever). Bytes whose size the
    /// generator fails at (a filter that nothing small passes) are read at up to 8 sizes
    /// drawn afresh: `Err` only if the generator fails at all of them.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let sorted = vec(range(0u8..=9), 0..=5)
    ///     .map(|mut xs| { xs.sort(); xs })
    ///     .comap(|xs: &Vec<u8>| xs.is_sorted().then(|| xs.clone()));
    /// let mut bytes = sorted.encode(&vec![1, 4, 4, 8]).unwrap();
    /// for seed in 0..20 {
    ///     bytes = sorted.mutator().mutate_bytes(&bytes, seed).unwrap();
    ///     assert!(sorted.decode(&bytes).unwrap().value.is_sorted());
    /// }
    /// ```
    ///
    /// The mutant's bytes may be longer than the input (an inserted element, a regenerated
    /// subtree): libFuzzer's custom mutator (`libfuzzer_sys::fuzz_mutator!`) writes its output
    /// in place, at most `max_size` bytes. Cut what does not fit: any prefix of the bytes still
    /// reads as a value of the generator (the choices past the end take their simplest values),
    /// so the target sees a valid input either way.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = vec(range(0u8..=9), 0..=50);
    /// // The body of `fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| ..)`.
    /// let mutate = |data: &mut [u8], size: usize, max_size: usize, seed: u32| -> usize {
    ///     let Ok(mutant) = g.mutator().mutate_bytes(&data[..size], u64::from(seed)) else {
    ///         return size;
    ///     };
    ///     let len = mutant.len().min(max_size);
    ///     data[..len].copy_from_slice(&mutant[..len]);
    ///     len
    /// };
    /// let start = g.encode(&vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let (mut data, mut size) = ([0u8; 8], start.len());
    /// data.copy_from_slice(&start);
    /// for seed in 0..50 {
    ///     size = mutate(&mut data, size, 8, seed);
    ///     assert!(g.can_generate(&g.decode(&data[..size]).unwrap().value));
    /// }
    /// ```
    pub fn mutate_bytes(&self, bytes: &[u8], seed: u64) -> Result<Vec<u8>, GenerateError> {
        let mut rng = DefaultRng::seed_from_u64(seed);
        // The edits replay at the parent's size, so the size byte is the only way to a larger
        // (or smaller) value: without this, an empty input (size 0) stayed the empty list.
        let resize = below(&mut rng, RESIZE_ONE_IN) == 0;
        let generated = match decode(self.generator(), bytes) {
            Ok(generated) if !resize => generated,
            // A generator that fails at the input's size (a filter) tries sizes drawn afresh;
            // one that fails at the new size keeps the old one.
            first => {
                let tries = if first.is_ok() { 1 } else { RESIZE_TRIES };
                let resized = (0..tries).find_map(|_| {
                    let mut resized = bytes.to_vec();
                    let size = below(&mut rng, MAX_BYTES_SIZE as u64 + 1) as u8;
                    match resized.first_mut() {
                        Some(first) => *first = size,
                        None => resized.push(size),
                    }
                    decode(self.generator(), &resized).ok()
                });
                match resized {
                    Some(resized) => resized,
                    None => first?,
                }
            }
        };
        Ok(match self.mutate_tree(&generated.tree, &mut rng) {
            Ok(mutant) => tree_bytes(&mutant.tree),
            Err(_) => tree_bytes(&generated.tree),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;

    #[test]
    fn the_first_byte_is_the_size_and_each_choice_reads_its_bytes() {
        let g = vec(range(0u16..=999), 0..=3);
        // Size 9; a length in 0..=3 (one byte: 2); two integers of two bytes each.
        let bytes = [9, 2, 0x0a, 0x00, 0xe8, 0x03];
        let generated = decode(&g, &bytes).unwrap();
        assert_eq!(generated.value, vec![10, 1000 % 1000]);
        assert_eq!(generated.tree.size(), 9);
        // Written at the least size that gives a length of 2.
        assert_eq!(encode(&g, &vec![10, 0]).unwrap(), [2, 2, 0x0a, 0, 0, 0]);
    }

    #[test]
    fn a_value_bytes_cannot_reach_is_an_error() {
        let g = sized(|size| range(0..=size as u64));
        assert_eq!(encode(&g, &255).unwrap(), [255, 255]);
        let error = encode(&g, &256).unwrap_err();
        assert_eq!(
            error,
            EncodeError::CannotProduce {
                part: None,
                path: Vec::new()
            }
        );
        assert!(error.to_string().contains("up to 255"), "{error}");
    }
}
