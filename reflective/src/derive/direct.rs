//! Derived generators run forward by code the derive writes for the type.
//!
//! `#[derive(Reflective)]` describes a type's generator with combinators (a `pick` of the
//! variants, each a `zip` of its fields focused by their optics and mapped to the
//! constructor). The description is what runs backward, and what every other interpretation
//! reads. Forward, its layers cost more than the choices they make: a dynamic call per
//! variant, nested closures, a result moved through every layer. So the derive also writes
//! the forward run as plain code, which asks the source the same choices in the same order,
//! with the same sizes and spans, and builds the value directly: a [`Direct`] generator runs
//! that code forward and the description backward.
//!
//! The code and the combinators share what they do at each step: [`forward_variant`] picks
//! with the same weights and labels as the description's `at_size_zero` of two `pick`s (and
//! through the same function as `Pick`), and `recursion` and `fuelled` run the same functions
//! forward as the code does (`forward_node`, `forward_field`). The fields' generators are
//! the description's, run as they are, but for one: a field that is a `Box` of the type
//! itself, found by its type ([`Direct::field`]), runs this code again rather than the
//! recursive reference its generator goes through (a weak pointer to upgrade at every level),
//! at the same nesting level. The one thing the code leaves out is the stack check a pick
//! makes before its branch: a derived pick's branch builds one constructor of the type, and
//! anything that nests further (a recursive field, a collection's elements) goes through a
//! nesting level, which checks.

use std::any::Any;

use crate::choice::Label;
use crate::combinator::pick::{Weights, forward_picked};
use crate::engine::{Backward, Branches, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// A derived generator: `described` reflects, `forward` generates with the same choices.
pub struct Direct<G: Node, P> {
    described: G,
    parts: P,
    forward: Forwarder<G, P>,
}

/// The derive's forward code of a type: given the generator (its parts: the variants'
/// weights and the fields' generators; and itself, for fields that box the type), a value of
/// the type.
type Forwarder<G, P> = fn(&Direct<G, P>, &mut Forward<'_>) -> Result<<G as Node>::Output, Halt>;

opaque_debug!(impl[G: Node, P] Direct<G, P>);

/// A derived generator that runs `forward` (over `parts`) forward and `described` backward;
/// the two must make the same choices (see the module's docs).
pub fn direct<G, P>(described: G, parts: P, forward: Forwarder<G, P>) -> Direct<G, P>
where
    G: Node,
    P: Send + Sync,
{
    Direct {
        described,
        parts,
        forward,
    }
}

impl<G: Node, P> Sealed for Direct<G, P> {}

impl<G: Node, P> Direct<G, P> {
    /// What the forward code runs: the variants' weights and the fields' generators.
    #[inline]
    pub fn parts(&self) -> &P {
        &self.parts
    }

    /// A field's value from its generator `part`, the type's own generator for the field's
    /// type. For a field that is a `Box` of the type itself (whatever the field's type is
    /// spelled as), this generator again, one level deeper, boxed: what `part` (a box around
    /// the recursive reference to this generator) does, without going through the reference.
    #[inline]
    pub fn field<F, Part>(&self, part: &Part, run: &mut Forward<'_>) -> Result<F, Halt>
    where
        F: 'static,
        G::Output: 'static,
        Part: Node<Output = F>,
    {
        let mut slot: Option<F> = None;
        if let Some(boxed) = (&mut slot as &mut dyn Any).downcast_mut::<Option<Box<G::Output>>>() {
            let value = run.nested(|run| (self.forward)(self, run))?;
            *boxed = Some(Box::new(value));
        }
        match slot {
            Some(value) => Ok(value),
            None => part.forward(run),
        }
    }
}

impl<G: Node, P: Send + Sync> Node for Direct<G, P> {
    type Input = G::Input;
    type Output = G::Output;

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        (self.forward)(self, run)
    }

    fn ignores_share(&self) -> bool {
        self.described.ignores_share()
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        self.described.backward(b, run, limit)
    }
}

/// The variants of a derived enum, as its forward code picks them: their labels, and their
/// weights at every size and at size 0 (where only the variants that recurse least may be
/// picked).
#[derive(Debug)]
pub struct Variants {
    labels: Vec<Label>,
    full: Weighted,
    small: Weighted,
}

/// One set of the variants' weights.
#[derive(Debug)]
struct Weighted {
    weights: Vec<u32>,
    summary: Weights,
}

impl Variants {
    /// The variants labelled `labels`, with weights `full`, and `small` at size 0.
    ///
    /// # Panics
    ///
    /// If the lengths differ, or every weight of `full` or of `small` is 0: the description's
    /// picks panic first, at the same place.
    pub fn new(labels: &[&'static str], full: &[u32], small: &[u32]) -> Variants {
        assert!(
            labels.len() == full.len() && labels.len() == small.len(),
            "a variant's label and weights come together"
        );
        let labels: Vec<Label> = labels.iter().map(|&label| Label::from(label)).collect();
        let weighted = |weights: &[u32]| {
            let summary = Weights::of(&Labelled {
                labels: &labels,
                weights,
            });
            Weighted {
                weights: weights.to_vec(),
                summary,
            }
        };
        let (full, small) = (weighted(full), weighted(small));
        Variants {
            labels,
            full,
            small,
        }
    }
}

/// Variants' labels with one set of their weights: the branches a source picks from.
struct Labelled<'a> {
    labels: &'a [Label],
    weights: &'a [u32],
}

impl Branches for Labelled<'_> {
    fn arity(&self) -> usize {
        self.weights.len()
    }

    fn weight(&self, index: usize) -> u32 {
        self.weights[index]
    }

    fn label(&self, index: usize) -> Option<&Label> {
        self.labels.get(index)
    }
}

/// Picks one of `variants` (with the weights at size 0 when the size is 0) and builds it with
/// `build`, given the variant's index: what a derived enum's description (`at_size_zero` of
/// two picks) does forward.
#[inline]
pub fn forward_variant<A>(
    run: &mut Forward<'_>,
    variants: &Variants,
    build: impl FnOnce(usize, &mut Forward<'_>) -> Result<A, Halt>,
) -> Result<A, Halt> {
    let weighted = if run.size == 0 {
        &variants.small
    } else {
        &variants.full
    };
    let branches = Labelled {
        labels: &variants.labels,
        weights: &weighted.weights,
    };
    forward_picked(run, &weighted.summary.site(&branches), build)
}

/// Runs the generator `g` forward: the value of a field with a generator of its own, in a
/// derive's forward code.
#[inline]
pub fn forward_part<G: Node>(g: &G, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
    g.forward(run)
}
