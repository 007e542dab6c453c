//! Size strategies: how a value's size is shared among its parts, after the Agata thesis
//! (chapter 2.2). Chosen per generator with [`Generator::size_strategy`](crate::Generator::size_strategy), without touching the
//! generator.
//!
//! A collection at size `n` draws its length `k` up to `n` (or, at the top of a nest, up to the
//! longest length it names explicitly from the default size on: see [`vec`](crate::vec); not under
//! `Fixed` and `Partitions`, which keep every length within `n`), and its elements run at an equal
//! share of `n` (under the default, `n / k`). The collections inside its elements (its elements
//! themselves when they are sequences, as in a `Vec<Vec<u8>>` or a `Vec<String>`, or the first
//! collection inside a tuple, an option or a derived type) share a budget of `n` among them: each
//! draws its length as its share of what its siblings before it left, every split of the budget
//! among them (and an unused rest) equally likely, the Agata thesis' division of size across the
//! values of one level. So the elements of a long collection are small and those of a short one
//! large, no element's size depends on its position, and each level of a nest holds at most `n`
//! elements in all.
//!
//! Counting the outermost collection as level 0, its elements' collections as level 1, and so
//! on, the strategies are:
//!
//! | strategy | total of level `t` | share of each of `k` elements | in all, `d` levels |
//! |---|---|---|---|
//! | [`Linear`](Strategy::Linear) (default) | up to `n` | `n / k` | up to `n·d`: a box |
//! | [`Quadratic`](Strategy::Quadratic) | up to `n·(t+1)` | `n·(t+2) / ((t+1)·k)` | up to `n·d²/2`: a pyramid |
//! | [`Exponential`](Strategy::Exponential) | up to `n^(t+1)` | `n` (QuickCheck's and proptest's size) | up to `n^d`: a funnel |
//! | [`Fixed`](Strategy::Fixed) | up to what the levels above left of `n` | `(n - k) / k` | up to `n` |
//! | [`Partitions`](Strategy::Partitions) | as linear, one level full | `n / k` | up to `n·d` |
//! | [`Random`](Strategy::Random) | one of the five above, drawn per value | | |
//!
//! Under [`Fixed`](Strategy::Fixed) the collections inside take no share: each element gets an
//! equal part of what its collection's length leaves, so that the whole nest holds at most `n`
//! values.
//!
//! Under [`Partitions`](Strategy::Partitions) one level, drawn per value, is full: the
//! outermost collection is exactly `n` long, or the collections of a lower level use all of the
//! budget their parents give them (with the levels above it not empty when their budget has
//! room for one element each). With one level, the
//! values of each size are disjoint from those of every other size (the thesis, section 2.2.3).
//! Sets and maps, which can fall short of distinct elements, are never full, and arrays, whose
//! length is fixed, take no share.
//!
//! Sizes are choices like any other: a value determines them (the lengths of its collections
//! are the shares), so reflection finds the choices that produce it under the strategy that
//! generated it, they replay, and a shrinker can shrink them: every collection's span opens
//! with its length, as a flat one's does.
//!
//! ```
//! use reflective::prelude::*;
//! let nested = <Vec<Vec<Vec<u8>>>>::arbitrary_reflective();
//! let bytes = |v: &Vec<Vec<Vec<u8>>>| v.iter().flatten().flatten().count();
//! for seed in 0..20 {
//!     // At most 50 bytes in all: the innermost lists share the size.
//!     let linear = nested.generate(&mut DefaultRng::seed_from_u64(seed), 50).value;
//!     assert!(bytes(&linear) <= 50);
//!     // QuickCheck's size: each list up to 50 long, whatever its depth.
//!     let quickcheck = nested.clone().size_strategy(Strategy::Exponential);
//!     let wide = quickcheck.generate(&mut DefaultRng::seed_from_u64(seed), 50).value;
//!     assert!(quickcheck.can_generate(&wide));
//! }
//! ```

use crate::choice::Label;
use crate::combinator::pick::{BranchSet, Pick};
use crate::engine::{Backward, Branches, Forward, Halt, Reflected, Sizing};
use crate::node::{Node, Sealed};

pub use crate::engine::Strategy;

/// `inner`, whose outermost collection holds `levels` levels of collections (a type's
/// dimension, as `Reflective::dimension` computes it), for [`Strategy::Partitions`] to draw the
/// full level from.
pub(crate) fn in_levels<G: Node>(inner: G, levels: usize) -> InLevels<G> {
    InLevels {
        inner,
        levels: levels.max(1),
    }
}

opaque_debug!(impl[G] InLevels<G>);

/// The generator [`in_levels`] returns.
pub(crate) struct InLevels<G> {
    inner: G,
    levels: usize,
}

impl<G> Sealed for InLevels<G> {}

impl<G: Node> Node for InLevels<G> {
    type Input = G::Input;
    type Output = G::Output;

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        let outer = run.sizing;
        run.sizing = outer.holding(self.levels);
        let result = self.inner.forward(run);
        run.sizing = outer;
        result
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        let outer = run.sizing;
        run.sizing = outer.holding(self.levels);
        let result = self.inner.backward(b, run, limit);
        run.sizing = outer;
        result
    }
}

opaque_debug!(impl[G] SizeStrategy<G>);

/// The generator [`Generator::size_strategy`](crate::Generator::size_strategy) returns.
#[derive(Clone)]
pub struct SizeStrategy<G> {
    scope: Scope<G>,
}

/// A strategy fixed in advance, or drawn per value.
#[derive(Clone)]
enum Scope<G> {
    Given(Strategy, G),
    Random(Pick<Strategies<G>>),
}

impl<G: Node> SizeStrategy<G> {
    pub(crate) fn new(inner: G, strategy: Strategy) -> Self {
        let scope = match strategy {
            Strategy::Random => Scope::Random(Pick::new(Strategies { inner })),
            strategy => Scope::Given(strategy, inner),
        };
        SizeStrategy { scope }
    }
}

impl<G> Sealed for SizeStrategy<G> {}

impl<G: Node> Node for SizeStrategy<G> {
    type Input = G::Input;
    type Output = G::Output;

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        match &self.scope {
            Scope::Given(strategy, inner) => forward_under(*strategy, inner, run),
            Scope::Random(pick) => pick.forward(run),
        }
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        match &self.scope {
            Scope::Given(strategy, inner) => backward_under(*strategy, inner, b, run, limit),
            Scope::Random(pick) => pick.backward(b, run, limit),
        }
    }
}

/// Runs `inner` forward under `strategy`.
fn forward_under<G: Node>(
    strategy: Strategy,
    inner: &G,
    run: &mut Forward<'_>,
) -> Result<G::Output, Halt> {
    let outer = std::mem::replace(&mut run.sizing, Sizing::under(strategy));
    let result = inner.forward(run);
    run.sizing = outer;
    result
}

/// Runs `inner` backward under `strategy`.
fn backward_under<G: Node>(
    strategy: Strategy,
    inner: &G,
    b: &G::Input,
    run: &mut Backward,
    limit: usize,
) -> Reflected<G::Output> {
    let outer = std::mem::replace(&mut run.sizing, Sizing::under(strategy));
    let result = inner.backward(b, run, limit);
    run.sizing = outer;
    result
}

/// The labels of the choice [`Strategy::Random`] makes.
static STRATEGY_LABELS: [Option<Label>; 5] = [
    Some(Label::new("linear")),
    Some(Label::new("quadratic")),
    Some(Label::new("exponential")),
    Some(Label::new("fixed")),
    Some(Label::new("partitions")),
];

/// One branch per concrete strategy, each running the same generator.
#[derive(Clone)]
struct Strategies<G> {
    inner: G,
}

impl<G> Branches for Strategies<G> {
    fn arity(&self) -> usize {
        Strategy::CONCRETE.len()
    }

    fn weight(&self, _: usize) -> u32 {
        1
    }

    fn label(&self, index: usize) -> Option<&Label> {
        STRATEGY_LABELS[index].as_ref()
    }
}

impl<G> Sealed for Strategies<G> {}

impl<G: Node> BranchSet for Strategies<G> {
    type Input = G::Input;
    type Output = G::Output;

    fn forward_branch(&self, index: usize, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        forward_under(Strategy::CONCRETE[index], &self.inner, run)
    }

    fn backward_branch(
        &self,
        index: usize,
        b: &G::Input,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<G::Output> {
        backward_under(Strategy::CONCRETE[index], &self.inner, b, run, limit)
    }
}
