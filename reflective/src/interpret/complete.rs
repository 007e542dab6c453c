//! Completion: a value with holes, its holes filled at random with parts the generator could
//! produce there, every given part kept (the paper's reflective completers, "Reflecting on
//! Random Generation" §7.2).
//!
//! # Holes
//!
//! Rust has no `undefined` to leave in a value, so a hole is a part of the value marked by
//! reference: write any value of the right type there (a `Leaf`, a `0`, `String::new()`) and
//! name it in [`Holes::at`]. The backward engine reaches the parts of a value through the
//! generator's annotations ([`focus`](crate::Generator::focus), and the derive's field and
//! variant optics, which are focuses), by reference; a focus that reaches a part at a hole's
//! address, of the hole's type, generates that part at random (with the bounds and sizes the
//! generator has reached there, so a search tree's subtree keeps its key range) instead of
//! reflecting it. This is the paper's trick (its completer catches the exception an
//! annotation raises on `undefined` and generates from there), in safe Rust. Everything
//! outside the holes is reflected as usual, so a given part the generator cannot produce is
//! an error, not silently replaced.
//!
//! Holes are reached through `focus` only: a [`comap`](crate::Generator::comap) computes a
//! new value, whose parts are not the given ones, and a hole behind it is reported as not
//! reached ([`CompleteError::HoleNotReached`]). The other representations considered, a
//! derived "partial" shadow of every type or constraints on a prefix of the choices, would
//! need either code per type or a user who knows the choice sequence; holes by reference
//! work for derived and hand-written generators alike, with no extra code.

use std::fmt;

use rand_core::{Rng, SeedableRng};

use crate::choice::Label;
use crate::engine::holes::{Holes as HoleSet, address};
use crate::engine::parts::part_text;
use crate::engine::{Backward, Budgets, ReflectError, caught};
use crate::node::Node;

use super::generate::{DEFAULT_SIZE, DefaultRng, Generated, replay, try_generate};
use super::reflect::budget_setters;

/// How many times [`Completer::complete`] draws the holes again when a given part finds too
/// little of the size left.
const COMPLETE_ATTEMPTS: usize = 32;

/// The holes of a value to complete: parts of it, by reference.
///
/// ```
/// use reflective::complete::Holes;
/// let pair = (1u8, String::new());
/// let holes = Holes::new().at(&pair.1);
/// assert_eq!(holes.len(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Holes<'v> {
    places: Vec<(usize, &'static str)>,
    _value: std::marker::PhantomData<&'v ()>,
}

impl<'v> Holes<'v> {
    /// No holes yet.
    pub fn new() -> Self {
        Holes::default()
    }

    /// `part`, a part of the value to complete, is a hole. For a boxed part, either the box
    /// (`&node.left`) or what it holds (`&*node.left`) may be given, as the generator's focus
    /// reaches it. A part given twice is one hole; the whole value as the hole makes the
    /// completion a generated value.
    pub fn at<B: ?Sized>(mut self, part: &'v B) -> Self {
        let place = (address(part), std::any::type_name::<B>());
        // A part given twice is one hole.
        if !self.places.contains(&place) {
            self.places.push(place);
        }
        self
    }

    /// How many holes there are.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }
}

/// Why a value could not be completed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompleteError {
    /// The generator cannot produce the given parts (around the parts drawn in the holes, in
    /// each of the draws [`Completer::complete`] makes): `part` names the type of the first
    /// part (the innermost) that no way produces, where a focus reached one.
    CannotProduce {
        /// The type of the first part that fails, if a focus reached it.
        part: Option<&'static str>,
        /// Where that part is: the names of the pick branches (a derived enum's variants)
        /// and named focuses (a derived type's fields, see
        /// [`Focus::named`](crate::combinator::Focus::named)) that lead to it, and the index
        /// of each collection's element on the way as a label of its own, `[2]`, outermost
        /// first. The error writes it `items[2].y`.
        path: Vec<Label>,
        /// The size the completer reflected at: a larger one may produce the parts.
        size: usize,
    },
    /// The part of hole `index` (counting from 0 in the order given) could not be generated
    /// where it is, and no way produced the value without it: generating it failed, for
    /// `message` (at a huge [`Completer::size`], a collection too long for memory).
    HoleNotGenerated {
        /// The hole, in the order given to [`Holes::at`].
        index: usize,
        /// Why generating it failed: the generator's error.
        message: String,
        /// The size the completer reflected and generated at.
        size: usize,
    },
    /// No focus reached hole `index` (counting from 0 in the order given): it is not a part
    /// of the value, or the generator reaches it through a `comap`, or an earlier part failed.
    HoleNotReached {
        /// The hole, in the order given to [`Holes::at`].
        index: usize,
    },
    /// Reflecting the given parts ran out of a budget.
    Reflect(ReflectError),
    /// Reflecting the given parts panicked: an annotation (a `focus`, a `comap`) panics on
    /// them.
    Panicked {
        /// The panic's message.
        message: String,
    },
    /// The whole value was the hole, and generating it failed or panicked.
    Generating {
        /// Why: the generator's error, or its panic's message.
        message: String,
    },
}

impl fmt::Display for CompleteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompleteError::CannotProduce {
                part: Some(part),
                path,
                size,
            } => {
                write!(
                    f,
                    "cannot complete the value: the generator cannot produce its given parts at \
                     size {size}; the first that fails is {}",
                    part_text(part, path)
                )?;
                write!(
                    f,
                    " (a larger size, `Completer::size`, may produce them; or what the holes \
                     were filled with leaves a given part out, as a `bind` on a hole's part \
                     can: the holes are drawn up to {COMPLETE_ATTEMPTS} times, not fitted to \
                     the given parts, so give that part too)"
                )
            }
            CompleteError::CannotProduce {
                part: None, size, ..
            } => write!(
                f,
                "cannot complete the value: no part of it fails alone, so either the generator \
                 cannot produce its given parts together at size {size} (a larger size, \
                 `Completer::size`, may), or a check of the whole value (a `filter`) rejects \
                 every completion of it"
            ),
            CompleteError::HoleNotGenerated {
                index,
                message,
                size,
            } => write!(
                f,
                "cannot complete the value: generating the part of hole {index} (from 0) failed \
                 at size {size}: {message}"
            ),
            CompleteError::HoleNotReached { index } => write!(
                f,
                "cannot complete the value: hole {index} (from 0) was not reached; give a part \
                 of the value that the generator reaches with `focus` (not through a `comap`)"
            ),
            CompleteError::Reflect(error) => write!(f, "cannot complete the value: {error}"),
            CompleteError::Panicked { message } => write!(
                f,
                "cannot complete the value: reflecting its given parts panicked (an \
                 annotation, a `focus` or a `comap`, panics on them): {message}"
            ),
            CompleteError::Generating { message } => write!(
                f,
                "cannot complete the value: it is the hole, and generating it failed: {message}"
            ),
        }
    }
}

impl std::error::Error for CompleteError {}

/// A completion of a generator's values, at a chosen size.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::complete::Holes;
/// // Sorted pairs: the second is never below the first.
/// let pairs = range(0u8..=50)
///     .focus(|p: &(u8, u8)| Some(&p.0))
///     .bind(|a| range(a..=100).focus(|p: &(u8, u8)| Some(&p.1)).map(move |b| (a, b)));
/// let partial = (40, 0);
/// let holes = Holes::new().at(&partial.1);
/// for seed in 0..20 {
///     let (a, b) = pairs.completer().complete(&partial, &holes, seed).unwrap().value;
///     assert_eq!(a, 40);
///     assert!((40..=100).contains(&b));
/// }
/// ```
#[derive(Debug)]
pub struct Completer<'g, G> {
    g: &'g G,
    size: usize,
    budgets: Budgets,
}

impl<'g, G: Node> Completer<'g, G> {
    pub(crate) fn new(g: &'g G) -> Self {
        Completer {
            g,
            size: DEFAULT_SIZE,
            budgets: Budgets::default(),
        }
    }

    /// Reflects and generates at `size` instead of [`DEFAULT_SIZE`](crate::DEFAULT_SIZE).
    pub fn size(mut self, size: usize) -> Self {
        self.size = size;
        self
    }

    // The budgets the given parts are reflected with.
    budget_setters!(max_ways);

    /// `partial` with its `holes` filled at random (drawn with `seed`), every other part as
    /// given: a value the generator produces, with its choices.
    ///
    /// A part generated in a hole uses some of the size, and a given part after it may then
    /// find too little (a subtree after a large generated one), or a part it decides may leave
    /// a given part after it out (a `bind` on the hole's part whose range the given part is
    /// outside): such a draw is made again, up to 32 times, before the error is returned. The
    /// holes are drawn as the generator draws them, not fitted to the given parts: where few
    /// draws of a hole fit, give that part too.
    pub fn complete(
        &self,
        partial: &G::Input,
        holes: &Holes<'_>,
        seed: u64,
    ) -> Result<Generated<G::Output>, CompleteError> {
        let mut rng = DefaultRng::seed_from_u64(seed);
        let mut attempt =
            || self.attempt(partial, holes, DefaultRng::seed_from_u64(rng.next_u64()));
        let mut result = attempt();
        for _ in 1..COMPLETE_ATTEMPTS {
            match result {
                Err(
                    CompleteError::CannotProduce { .. } | CompleteError::HoleNotGenerated { .. },
                ) if !holes.is_empty() => {
                    result = attempt();
                }
                _ => break,
            }
        }
        result
    }

    /// One completion, the holes filled with `rng`.
    fn attempt(
        &self,
        partial: &G::Input,
        holes: &Holes<'_>,
        mut rng: DefaultRng,
    ) -> Result<Generated<G::Output>, CompleteError> {
        // The whole value as the hole: nothing is given, so the completion is a generated value.
        let whole = (address(partial), std::any::type_name::<G::Input>());
        if holes.places.contains(&whole) {
            return match caught(|| try_generate(self.g, &mut rng, self.size)) {
                Ok(generated) => generated.map_err(|error| CompleteError::Generating {
                    message: error.to_string(),
                }),
                Err(panic) => Err(CompleteError::Generating {
                    message: format!("the generator panicked: {panic}"),
                }),
            };
        }
        let mut run = Backward::new(self.size, false, self.budgets).naming_parts();
        run.holes = Some(Box::new(HoleSet::new(holes.places.clone(), rng)));
        let found = caught(|| self.g.backward(partial, &mut run, 1))
            .map_err(|message| CompleteError::Panicked { message })?
            .map_err(CompleteError::Reflect)?;
        let filled = run.holes.take().expect("the holes stay in the run");
        let first_failure = run.first_failure();
        let cannot_produce = |failure: Option<(&'static str, Vec<Label>)>| {
            let (part, path) =
                failure.map_or((None, Vec::new()), |(part, path)| (Some(part), path));
            CompleteError::CannotProduce {
                part,
                path,
                size: self.size,
            }
        };
        let Some(way) = found.into_iter().next() else {
            // A hole whose part could not be generated is the cause named: the part noted as
            // failing is then mostly the hole's own (its focus found no way), which says
            // nothing of why.
            return Err(match filled.not_generated {
                Some((index, message)) => CompleteError::HoleNotGenerated {
                    index,
                    message,
                    size: self.size,
                },
                None => cannot_produce(first_failure),
            });
        };
        if let Some(index) = filled.reached.iter().position(|reached| !reached) {
            return Err(CompleteError::HoleNotReached { index });
        }
        // The parts generated in the holes were drawn where the backward run was among sizes
        // and shares, so the choices replay exactly; a generator that reads them otherwise
        // (a size it does not restore) gets another draw.
        let tree = way.trace.to_tree(self.size);
        let value = caught(|| replay(self.g, &tree))
            .map_err(|message| CompleteError::Panicked { message })?
            .ok_or(cannot_produce(None))?;
        Ok(Generated { value, tree })
    }

    /// `count` completions of `partial`, seeded `seed`, `seed + 1`, ...; the first error
    /// stops them.
    pub fn completions(
        &self,
        partial: &G::Input,
        holes: &Holes<'_>,
        seed: u64,
        count: usize,
    ) -> Result<Vec<G::Output>, CompleteError> {
        (0..count as u64)
            .map(|offset| {
                self.complete(partial, holes, seed.wrapping_add(offset))
                    .map(|completed| completed.value)
            })
            .collect()
    }
}
