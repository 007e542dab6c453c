//! Choice between branches: [`pick`] and its simpler forms [`labeled`], [`frequency`],
//! [`one_of`].
//!
//! Each takes its branches as an array or a `Vec` (branches of one type) or as a tuple of up to
//! eight (branches of different types, as a leaf and a node usually are).

use crate::choice::{Choice, Label};
use crate::engine::{Backward, Branches, Forward, Halt, PickSite, Reflected, Solution, Trace};
use crate::node::{Node, Sealed, forward_each};

/// A choice between weighted, labelled branches: the primitive the other choices are built on.
///
/// Forward it takes branch `i` with probability `weight_i / total`; backward it tries every
/// branch with a non-zero weight and records the index and label of each that produces the
/// value. A branch of weight 0 is never taken and never reflects. Branches of different types
/// go in a tuple of up to twelve; more, or a number known only at run time, go in a `Vec` of
/// generators erased with [`boxed`](crate::Generator::boxed).
///
/// # Panics
///
/// If there is no branch, more than `u32::MAX` of them, or every weight is 0.
///
/// ```
/// use reflective::prelude::*;
/// let digit = pick([(1, "zero", exact(0u8)), (3, "one", exact(1u8))]);
/// assert_eq!(digit.reflect(&1), vec![vec![Label::from("one")]]);
/// assert_eq!(digit.probability_of(&1), 0.75);
///
/// let small = pick(((1, "zero", exact(0u8)), (3, "some", range(1u8..=9))));
/// assert!(small.can_generate(&7));
/// ```
#[track_caller]
pub fn pick<I: IntoBranches<shape::WeightedLabeled>>(branches: I) -> Pick<I::Set> {
    Pick::new(branches.into_set())
}

/// A choice between labelled branches of equal weight.
///
/// ```
/// use reflective::prelude::*;
/// let answer = labeled([("yes", exact(true)), ("no", exact(false))]);
/// assert_eq!(answer.reflect(&false), vec![vec![Label::from("no")]]);
/// ```
#[track_caller]
pub fn labeled<I: IntoBranches<shape::Labeled>>(branches: I) -> Pick<I::Set> {
    Pick::new(branches.into_set())
}

/// A choice between weighted, unlabelled branches (QuickCheck's `frequency`).
///
/// ```
/// use reflective::prelude::*;
/// let mostly_small = frequency([(9, range(0u32..=9)), (1, range(10u32..=1000))]);
/// assert!((mostly_small.probability_of(&5) - 0.09).abs() < 1e-12);
/// ```
#[track_caller]
pub fn frequency<I: IntoBranches<shape::Weighted>>(branches: I) -> Pick<I::Set> {
    Pick::new(branches.into_set())
}

/// A choice between unlabelled branches of equal weight (QuickCheck's `oneof`).
///
/// ```
/// use reflective::prelude::*;
/// let small_prime = one_of([exact(2u8), exact(3), exact(5), exact(7)]);
/// assert!(small_prime.can_generate(&5));
/// assert!(!small_prime.can_generate(&4));
/// ```
#[track_caller]
pub fn one_of<I: IntoBranches<shape::Plain>>(branches: I) -> Pick<I::Set> {
    Pick::new(branches.into_set())
}

/// The shapes of the branches the choices take, which [`BranchItem`] turns into [`Branch`]es.
pub mod shape {
    /// `(weight, label, generator)`, as [`pick`](crate::pick) takes.
    #[derive(Debug)]
    pub struct WeightedLabeled;
    /// `(label, generator)`, as [`labeled`](crate::labeled) takes.
    #[derive(Debug)]
    pub struct Labeled;
    /// `(weight, generator)`, as [`frequency`](crate::frequency) takes.
    #[derive(Debug)]
    pub struct Weighted;
    /// A generator, as [`one_of`](crate::one_of) takes.
    #[derive(Debug)]
    pub struct Plain;
}

opaque_debug!(impl[G] Branch<G>);

/// One branch of a pick: its weight, its label and its generator.
#[derive(Clone)]
pub struct Branch<G> {
    weight: u32,
    label: Option<Label>,
    g: G,
}

/// A branch as one of the choices takes it, in the shape `S` (see [`shape`]).
pub trait BranchItem<S> {
    /// The branch's generator.
    type Gen: Node;
    /// The branch.
    fn into_branch(self) -> Branch<Self::Gen>;
}

impl<L: Into<Label>, G: Node> BranchItem<shape::WeightedLabeled> for (u32, L, G) {
    type Gen = G;
    fn into_branch(self) -> Branch<G> {
        Branch {
            weight: self.0,
            label: Some(self.1.into()),
            g: self.2,
        }
    }
}

impl<L: Into<Label>, G: Node> BranchItem<shape::Labeled> for (L, G) {
    type Gen = G;
    fn into_branch(self) -> Branch<G> {
        Branch {
            weight: 1,
            label: Some(self.0.into()),
            g: self.1,
        }
    }
}

impl<G: Node> BranchItem<shape::Weighted> for (u32, G) {
    type Gen = G;
    fn into_branch(self) -> Branch<G> {
        Branch {
            weight: self.0,
            label: None,
            g: self.1,
        }
    }
}

impl<G: Node> BranchItem<shape::Plain> for G {
    type Gen = G;
    fn into_branch(self) -> Branch<G> {
        Branch {
            weight: 1,
            label: None,
            g: self,
        }
    }
}

/// The branches of a choice, as its caller writes them in the shape `S`: an array or a `Vec`
/// of branches of one type, or a tuple of up to twelve branches of any types.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list of branches of one input and output type",
    note = "branches are a tuple of up to 12 generators (or `(weight, generator)`, \
            `(label, generator)`, `(weight, label, generator)`, as the function asks), or an \
            array or a `Vec` of them of one type: for more branches, or branches of different \
            types in a `Vec`, call `.boxed()` on each",
    note = "every branch must reflect on the same type and produce the same type"
)]
pub trait IntoBranches<S> {
    /// The branches, ready to pick from.
    type Set: BranchSet;
    /// Converts the branches.
    fn into_set(self) -> Self::Set;
}

/// The branches of a [`Pick`], of one input and one output type. Only the library implements it.
pub trait BranchSet: Branches + Send + Sync + Sealed {
    /// What every branch reflects on.
    type Input: ?Sized;
    /// What every branch produces.
    type Output;

    /// Runs branch `index` forward.
    #[doc(hidden)]
    fn forward_branch(&self, index: usize, run: &mut Forward<'_>) -> Result<Self::Output, Halt>;

    /// Whether branch `index` ignores a collection's share (see `Node::ignores_share`).
    #[doc(hidden)]
    fn branch_ignores_share(&self, index: usize) -> bool {
        let _ = index;
        false
    }

    /// Whether branch `index` is constant (see `Node::is_constant`).
    #[doc(hidden)]
    fn branch_is_constant(&self, index: usize) -> bool {
        let _ = index;
        false
    }

    /// Runs branch `index` backward.
    #[doc(hidden)]
    fn backward_branch(
        &self,
        index: usize,
        b: &Self::Input,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<Self::Output>;
}

impl<S, T: BranchItem<S>> IntoBranches<S> for Vec<T> {
    type Set = Vec<Branch<T::Gen>>;
    fn into_set(self) -> Self::Set {
        self.into_iter().map(BranchItem::into_branch).collect()
    }
}

impl<S, T: BranchItem<S>, const N: usize> IntoBranches<S> for [T; N] {
    type Set = [Branch<T::Gen>; N];
    fn into_set(self) -> Self::Set {
        self.map(BranchItem::into_branch)
    }
}

macro_rules! slice_set {
    ($($set:ty => [$($param:tt)*]),*) => {$(
        impl<G, $($param)*> Branches for $set {
            fn arity(&self) -> usize {
                self.len()
            }

            fn weight(&self, index: usize) -> u32 {
                self[index].weight
            }

            fn label(&self, index: usize) -> Option<&Label> {
                self[index].label.as_ref()
            }
        }

        impl<G, $($param)*> Sealed for $set {}

        impl<G: Node, $($param)*> BranchSet for $set {
            type Input = G::Input;
            type Output = G::Output;

            #[inline]
            fn forward_branch(
                &self,
                index: usize,
                run: &mut Forward<'_>,
            ) -> Result<G::Output, Halt> {
                self[index].g.forward(run)
            }

            fn branch_ignores_share(&self, index: usize) -> bool {
                self[index].g.ignores_share()
            }

            fn branch_is_constant(&self, index: usize) -> bool {
                self[index].g.is_constant()
            }

            fn backward_branch(
                &self,
                index: usize,
                b: &G::Input,
                run: &mut Backward,
                limit: usize,
            ) -> Reflected<G::Output> {
                self[index].g.backward(b, run, limit)
            }
        }
    )*};
}

slice_set!(Vec<Branch<G>> => [], [Branch<G>; N] => [const N: usize]);

macro_rules! tuple_set {
    ($arity:literal: $first:ident $($g:ident)*; $($index:tt)*) => {
        impl<S, $first: BranchItem<S>, $($g: BranchItem<S>),*> IntoBranches<S>
            for ($first, $($g,)*)
        where
            $($g::Gen: Node<
                Input = <$first::Gen as Node>::Input,
                Output = <$first::Gen as Node>::Output,
            >,)*
        {
            type Set = (Branch<$first::Gen>, $(Branch<$g::Gen>,)*);

            #[allow(non_snake_case)]
            fn into_set(self) -> Self::Set {
                let ($first, $($g,)*) = self;
                ($first.into_branch(), $($g.into_branch(),)*)
            }
        }

        impl<$first, $($g),*> Branches for (Branch<$first>, $(Branch<$g>,)*) {
            fn arity(&self) -> usize {
                $arity
            }

            fn weight(&self, index: usize) -> u32 {
                match index {
                    $($index => self.$index.weight,)*
                    _ => unreachable!("a pick index is below the arity"),
                }
            }

            fn label(&self, index: usize) -> Option<&Label> {
                match index {
                    $($index => self.$index.label.as_ref(),)*
                    _ => unreachable!("a pick index is below the arity"),
                }
            }
        }

        impl<$first, $($g),*> Sealed for (Branch<$first>, $(Branch<$g>,)*) {}

        impl<$first: Node, $($g),*> BranchSet for (Branch<$first>, $(Branch<$g>,)*)
        where
            $($g: Node<Input = $first::Input, Output = $first::Output>,)*
        {
            type Input = $first::Input;
            type Output = $first::Output;

            #[inline]
            fn forward_branch(
                &self,
                index: usize,
                run: &mut Forward<'_>,
            ) -> Result<Self::Output, Halt> {
                match index {
                    $($index => self.$index.g.forward(run),)*
                    _ => unreachable!("a pick index is below the arity"),
                }
            }

            fn branch_ignores_share(&self, index: usize) -> bool {
                match index {
                    $($index => self.$index.g.ignores_share(),)*
                    _ => unreachable!("a pick index is below the arity"),
                }
            }

            fn branch_is_constant(&self, index: usize) -> bool {
                match index {
                    $($index => self.$index.g.is_constant(),)*
                    _ => unreachable!("a pick index is below the arity"),
                }
            }

            fn backward_branch(
                &self,
                index: usize,
                b: &Self::Input,
                run: &mut Backward,
                limit: usize,
            ) -> Reflected<Self::Output> {
                match index {
                    $($index => self.$index.g.backward(b, run, limit),)*
                    _ => unreachable!("a pick index is below the arity"),
                }
            }
        }
    };
}

tuple_set!(1: G0; 0);
tuple_set!(2: G0 G1; 0 1);
tuple_set!(3: G0 G1 G2; 0 1 2);
tuple_set!(4: G0 G1 G2 G3; 0 1 2 3);
tuple_set!(5: G0 G1 G2 G3 G4; 0 1 2 3 4);
tuple_set!(6: G0 G1 G2 G3 G4 G5; 0 1 2 3 4 5);
tuple_set!(7: G0 G1 G2 G3 G4 G5 G6; 0 1 2 3 4 5 6);
tuple_set!(8: G0 G1 G2 G3 G4 G5 G6 G7; 0 1 2 3 4 5 6 7);
tuple_set!(9: G0 G1 G2 G3 G4 G5 G6 G7 G8; 0 1 2 3 4 5 6 7 8);
tuple_set!(10: G0 G1 G2 G3 G4 G5 G6 G7 G8 G9; 0 1 2 3 4 5 6 7 8 9);
tuple_set!(11: G0 G1 G2 G3 G4 G5 G6 G7 G8 G9 G10; 0 1 2 3 4 5 6 7 8 9 10);
tuple_set!(12: G0 G1 G2 G3 G4 G5 G6 G7 G8 G9 G10 G11; 0 1 2 3 4 5 6 7 8 9 10 11);

opaque_debug!(impl[S] Pick<S>);

/// The generator the choices return: a pick from the branches `S`.
#[derive(Clone)]
pub struct Pick<S> {
    branches: S,
    weights: Weights,
    /// Whether every branch is constant (see `Node::is_constant`): a collection's picks are
    /// then drawn in one loop.
    constant: bool,
}

/// What a random source needs to know of a pick's weights besides the branches: their sum and
/// whether they are all equal (see [`PickSite`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weights {
    total: u64,
    /// The weight every branch has, or 0 if they differ.
    equal_weight: u32,
}

impl Weights {
    /// The weights of `branches`.
    ///
    /// # Panics
    ///
    /// If there is no branch, more than `u32::MAX` of them, or every weight is 0.
    #[track_caller]
    pub(crate) fn of<B: Branches + ?Sized>(branches: &B) -> Weights {
        let arity = branches.arity();
        assert!(arity > 0, "pick: there must be at least one branch");
        assert!(
            u32::try_from(arity).is_ok(),
            "pick: at most u32::MAX branches, got {arity}"
        );
        let total = (0..arity).map(|i| u64::from(branches.weight(i))).sum();
        assert!(
            total > 0,
            "pick: at least one branch must have a weight above 0"
        );
        let first = branches.weight(0);
        let equal_weight = if (1..arity).all(|i| branches.weight(i) == first) {
            first
        } else {
            0
        };
        Weights {
            total,
            equal_weight,
        }
    }

    /// The pick of one of `branches`, which these are the weights of, to ask a source.
    pub(crate) fn site<'a>(&self, branches: &'a dyn Branches) -> PickSite<'a> {
        PickSite {
            branches,
            total: self.total,
            equal_weight: self.equal_weight,
        }
    }
}

/// Asks `run`'s source to pick one of `site`'s branches and runs it with `branch`, in a span
/// labelled as the branch that opens with the pick: what [`Pick`] does forward, for a pick
/// whose branches are code rather than generators (the derive's).
#[inline]
pub(crate) fn forward_picked<A>(
    run: &mut Forward<'_>,
    site: &PickSite<'_>,
    branch: impl FnOnce(usize, &mut Forward<'_>) -> Result<A, Halt>,
) -> Result<A, Halt> {
    let index = run.pick(site)? as usize;
    // The label only for a run that records: asking for it is a dynamic call.
    let span = if run.records() {
        run.open_span_at_last(site.branches.label(index))
    } else {
        None
    };
    let value = branch(index, run)?;
    run.close_span(span);
    Ok(value)
}

impl<S: BranchSet> Pick<S> {
    #[track_caller]
    pub(crate) fn new(branches: S) -> Self {
        let weights = Weights::of(&branches);
        let constant = (0..branches.arity()).all(|index| branches.branch_is_constant(index));
        Pick {
            branches,
            weights,
            constant,
        }
    }

    /// Appends `count` values to `out` of a pick whose branches are all constant, the branches
    /// drawn by `draw` in chunks of up to 64 on the stack: the same picks, in the same order,
    /// as `count` calls of `forward` make.
    fn forward_constant(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<S::Output>,
        draw: impl Fn(&mut Forward<'_>, &PickSite<'_>, &mut [u32]) -> Result<(), Halt>,
    ) -> Result<(), Halt> {
        debug_assert!(self.constant);
        let site = self.weights.site(&self.branches);
        out.reserve(count);
        let mut indices = [0u32; 64];
        let mut left = count;
        while left > 0 {
            let chunk = &mut indices[..left.min(64)];
            draw(run, &site, chunk)?;
            for &index in chunk.iter() {
                // A constant branch makes no choice: running it only gives its value.
                out.push(self.branches.forward_branch(index as usize, run)?);
            }
            left -= chunk.len();
        }
        Ok(())
    }
}

impl<S> Sealed for Pick<S> {}

impl<S: BranchSet> Node for Pick<S> {
    type Input = S::Input;
    type Output = S::Output;

    fn ignores_share(&self) -> bool {
        (0..self.branches.arity()).all(|index| self.branches.branch_ignores_share(index))
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<S::Output, Halt> {
        let site = self.weights.site(&self.branches);
        forward_picked(run, &site, |index, run| {
            run.in_pick(|run| self.branches.forward_branch(index, run))
        })
    }

    fn batches(&self) -> bool {
        self.constant
    }

    /// A pick of constant branches (`bool()`, `Ordering`'s) draws its picks in one loop;
    /// any other, and a run that records, one `forward` each.
    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<S::Output>,
    ) -> Result<(), Halt> {
        if !self.constant || run.records() {
            return forward_each(self, run, count, out);
        }
        self.forward_constant(run, count, out, |run, site, chunk| run.picks(site, chunk))
    }

    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<S::Output>,
    ) -> Result<bool, Halt> {
        if !self.constant || !run.packs() {
            return Ok(false);
        }
        self.forward_constant(run, count, out, |run, site, chunk| {
            run.picks_spanned(site, chunk)
        })?;
        Ok(true)
    }

    fn backward(&self, b: &S::Input, run: &mut Backward, limit: usize) -> Reflected<S::Output> {
        run.step()?;
        let arity = self.branches.arity();
        let mut found = Vec::new();
        // Each branch starts from the same place among sizes; the first that produces the
        // value says where the pick leaves it.
        let start = run.place();
        let mut end = None;
        let naming = run.names_parts();
        let noted_before = naming && run.noted_failure();
        for index in 0..arity {
            let weight = self.branches.weight(index);
            if weight == 0 {
                continue;
            }
            if found.len() >= limit {
                break;
            }
            run.go_to(start);
            let label = self.branches.label(index);
            let ways = match label {
                Some(&label) if naming => {
                    self.backward_named_branch(label, index, b, run, limit - found.len())?
                }
                _ => run.in_pick(|run| {
                    self.branches
                        .backward_branch(index, b, run, limit - found.len())
                })?,
            };
            if !ways.is_empty() && end.is_none() {
                end = Some(run.place());
            }
            let share = f64::from(weight) / self.weights.total as f64;
            append_in_branch(index, arity, label, share, ways, &mut found);
        }
        run.go_to(end.unwrap_or(start));
        if naming && !found.is_empty() {
            // A branch that failed before another produced the value names no part that fails.
            run.forget_failure(noted_before);
        }
        run.found(found.len())?;
        Ok(found)
    }
}

impl<S: BranchSet> Pick<S> {
    /// Branch `index` backward, inside the part `label` of a completion's path. Out of line,
    /// so that reflection without holes keeps its frames as small as before.
    #[inline(never)]
    fn backward_named_branch(
        &self,
        label: Label,
        index: usize,
        b: &S::Input,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<S::Output> {
        run.enter_part(label);
        let ways = run.in_pick(|run| self.branches.backward_branch(index, b, run, limit));
        run.leave_part();
        ways
    }
}

/// Appends the ways a branch produces the value, each in a span labelled `label` that opens
/// with the pick of branch `index` of `arity`, chosen with probability `share`.
///
/// Out of line: a deeply nested value recurses through [`Pick::backward`] once per level, and
/// its stack frame then holds only the loop's state.
#[inline(never)]
fn append_in_branch<A>(
    index: usize,
    arity: usize,
    label: Option<&Label>,
    share: f64,
    ways: Vec<Solution<A>>,
    found: &mut Vec<Solution<A>>,
) {
    let branch = Choice::Pick {
        index: index as u32,
        arity: arity as u32,
        label: label.cloned(),
    };
    let log_share = share.ln();
    found.extend(ways.into_iter().map(|solution| Solution {
        value: solution.value,
        trace: Trace::span(label.cloned(), Some(branch.clone()), solution.trace),
        log_probability: log_share + solution.log_probability,
        used: solution.used,
    }));
}

#[cfg(test)]
mod tests {
    use crate::node::Node;
    use crate::prelude::*;
    use rand_core::Rng;

    /// `vec(element)`, whose picks are drawn in one loop, against `vec(element.map(..))`,
    /// drawn one `forward` each: the same values, choice trees and random words.
    fn same_as_one_each<T>(element: Gen<T, T>)
    where
        T: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static,
    {
        assert!(element.batches());
        let batched = vec(element.clone(), ..);
        let one_each = vec(element.map(|value| value), ..);
        for seed in 0..200 {
            for size in [0, 1, 7, 100] {
                let mut a = DefaultRng::seed_from_u64(seed);
                let mut b = DefaultRng::seed_from_u64(seed);
                let (x, y) = (
                    batched.generate(&mut a, size),
                    one_each.generate(&mut b, size),
                );
                assert_eq!((&x.value, &x.tree), (&y.value, &y.tree));
                assert_eq!(a.next_u64(), b.next_u64(), "the same words");
                let (x, y) = (
                    batched.generate_value(&mut a, size),
                    one_each.generate_value(&mut b, size),
                );
                assert_eq!(x, y);
                assert_eq!(a.next_u64(), b.next_u64(), "the same words");
            }
        }
    }

    #[test]
    fn a_constant_picks_loop_gives_the_values_and_trees_of_one_pick_each() {
        same_as_one_each(
            pick([
                (1, "one", exact(1u8)),
                (0, "never", exact(9)),
                (3, "two", exact(2)),
                (5, "three", exact(3)),
            ])
            .boxed(),
        );
        same_as_one_each(one_of([exact('x'), exact('y'), exact('z')]).boxed());
        same_as_one_each(bool());
        same_as_one_each(std::cmp::Ordering::arbitrary_reflective());
    }
}
