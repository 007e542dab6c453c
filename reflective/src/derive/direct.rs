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
//! with the same weights and labels as the description's `at_size_zero` of two `pick`s (for a
//! recursive type, inside an `outermost` whose outer side picks with the [`grown`] weights),
//! through the same function as `Pick`, and `recursion` and `fuelled` run the same functions
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
use crate::combinator::recursion::forward_outermost;
use crate::engine::{Backward, Branches, Forward, Halt, Reflected};
use crate::node::{Node, Sealed, forward_each};

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

    /// With the description, when it draws them in one loop (it makes the same choices as
    /// the code); else one run of the code each.
    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G::Output>,
    ) -> Result<(), Halt> {
        if self.described.batches() {
            self.described.forward_many(run, count, out)
        } else {
            forward_each(self, run, count, out)
        }
    }

    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G::Output>,
    ) -> Result<bool, Halt> {
        if self.described.batches() {
            self.described.forward_many_spanned(run, count, out)
        } else {
            Ok(false)
        }
    }

    /// Whether the description draws many values in one loop (a fieldless enum's pick of
    /// constant variants): a collection's elements are then drawn with it.
    fn batches(&self) -> bool {
        self.described.batches()
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
/// picked); for a recursive type, also which variants hold the type itself, whose weights grow
/// with the size at the outermost pick (see [`grown`]).
#[derive(Debug)]
pub struct Variants {
    labels: Vec<Label>,
    full: Weighted,
    small: Weighted,
    /// For a recursive type, which variants hold the type itself.
    grows: Option<Vec<bool>>,
}

/// The weight a derived enum's variant has at the outermost pick of a value at size `size`
/// (above 0): `weight` times the size if the variant holds the type itself (`grows`), else
/// `weight` (saturating at `u32::MAX`, which flattens the ratios of weights near 2^32 / size).
/// So a value of a recursive type at size `n` is a leaf at its root with probability (leaf
/// weights) / (leaf weights + n · node weights): once in `n + 1` when they are equal, as a
/// collection is empty; the nodes inside it keep the declared weights.
#[inline]
pub fn grown(weight: u32, grows: bool, size: usize) -> u32 {
    if grows {
        weight.saturating_mul(u32::try_from(size).unwrap_or(u32::MAX))
    } else {
        weight
    }
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
            grows: None,
        }
    }

    /// The variants of a recursive type, whose variants that hold the type itself are marked
    /// in `grows`: at the pick of a value's root, outside every other recursive value (as the
    /// description's `outermost`), their weights grow with the size ([`grown`]).
    ///
    /// # Panics
    ///
    /// If `grows` has another length than the labels.
    pub fn growing(self, grows: &[bool]) -> Variants {
        assert_eq!(
            grows.len(),
            self.labels.len(),
            "a variant's label and whether it grows come together"
        );
        Variants {
            grows: Some(grows.to_vec()),
            ..self
        }
    }
}

/// Variants' labels with their weights at the outermost pick at `size` ([`grown`]).
struct Grown<'a> {
    labels: &'a [Label],
    weights: &'a [u32],
    grows: &'a [bool],
    size: usize,
}

impl Branches for Grown<'_> {
    fn arity(&self) -> usize {
        self.weights.len()
    }

    fn weight(&self, index: usize) -> u32 {
        grown(self.weights[index], self.grows[index], self.size)
    }

    fn label(&self, index: usize) -> Option<&Label> {
        self.labels.get(index)
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

/// Picks one of `variants` (with the weights at size 0 when the size is 0, and for a recursive
/// type the [`grown`] ones at the outermost pick of a value) and builds it with `build`, given
/// the variant's index: what a derived enum's description does forward (`at_size_zero` of two
/// picks; for a recursive type, in an `outermost` whose outer side picks by `sized` weights).
#[inline]
pub fn forward_variant<A>(
    run: &mut Forward<'_>,
    variants: &Variants,
    build: impl FnOnce(usize, &mut Forward<'_>) -> Result<A, Halt>,
) -> Result<A, Halt> {
    match &variants.grows {
        // The root of a recursive value, outside every other: once a value.
        Some(grows) if !run.in_recursive_value => forward_root(run, variants, grows, build),
        // Every other pick (a node below a root is inside a recursive value already, where
        // `forward_outermost` would change nothing): the one place the code of the variants
        // is inlined, so that a node runs in one stack frame.
        _ => forward_declared(run, variants, build),
    }
}

/// [`forward_variant`] at the root of a recursive value: the run is marked as inside one, and
/// the pick has the [`grown`] weights (the declared ones at size 0). Out of line: it runs
/// once a value.
#[inline(never)]
fn forward_root<A>(
    run: &mut Forward<'_>,
    variants: &Variants,
    grows: &[bool],
    build: impl FnOnce(usize, &mut Forward<'_>) -> Result<A, Halt>,
) -> Result<A, Halt> {
    forward_outermost(run, |outer, run| {
        debug_assert!(outer, "a root is outside every recursive value");
        if run.size == 0 {
            return forward_declared(run, variants, build);
        }
        let branches = Grown {
            labels: &variants.labels,
            weights: &variants.full.weights,
            grows,
            size: run.size,
        };
        // One level deeper, as the description's `sized` goes, so that a value generated at
        // the depth limit reflects within it.
        run.nested(|run| forward_picked(run, &Weights::of(&branches).site(&branches), build))
    })
}

/// [`forward_variant`] with the declared weights (those at size 0 when the size is 0).
#[inline(always)]
fn forward_declared<A>(
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
