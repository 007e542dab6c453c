//! Choice between branches: [`pick`] and its simpler forms [`labeled`], [`frequency`],
//! [`one_of`].

use crate::backward::{Backward, Reflected, Solution, Trace};
use crate::choice::{Choice, Label};
use crate::forward::Forward;
use crate::generator::{Gen, Node};
use crate::source::{Branches, Halt, PickSite};

/// A choice between weighted, labelled branches: the primitive the other choices are built on.
///
/// Forward it takes branch `i` with probability `weight_i / total`; backward it tries every
/// branch with a non-zero weight and records the index and label of each that produces the
/// value. A branch of weight 0 is never taken and never reflects.
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
/// ```
#[track_caller]
pub fn pick<B, A, L>(branches: impl IntoIterator<Item = (u32, L, Gen<B, A>)>) -> Gen<B, A>
where
    B: ?Sized + 'static,
    A: 'static,
    L: Into<Label>,
{
    Pick::build(
        branches
            .into_iter()
            .map(|(weight, label, g)| (weight, Some(label.into()), g)),
    )
}

/// A choice between labelled branches of equal weight.
///
/// ```
/// use reflective::prelude::*;
/// let answer = labeled([("yes", exact(true)), ("no", exact(false))]);
/// assert_eq!(answer.reflect(&false), vec![vec![Label::from("no")]]);
/// ```
#[track_caller]
pub fn labeled<B, A, L>(branches: impl IntoIterator<Item = (L, Gen<B, A>)>) -> Gen<B, A>
where
    B: ?Sized + 'static,
    A: 'static,
    L: Into<Label>,
{
    Pick::build(
        branches
            .into_iter()
            .map(|(label, g)| (1, Some(label.into()), g)),
    )
}

/// A choice between weighted, unlabelled branches (QuickCheck's `frequency`).
///
/// ```
/// use reflective::prelude::*;
/// let mostly_small = frequency([(9, range(0u32..=9)), (1, range(10u32..=1000))]);
/// assert!((mostly_small.probability_of(&5) - 0.09).abs() < 1e-12);
/// ```
#[track_caller]
pub fn frequency<B, A>(branches: impl IntoIterator<Item = (u32, Gen<B, A>)>) -> Gen<B, A>
where
    B: ?Sized + 'static,
    A: 'static,
{
    Pick::build(branches.into_iter().map(|(weight, g)| (weight, None, g)))
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
pub fn one_of<B, A>(branches: impl IntoIterator<Item = Gen<B, A>>) -> Gen<B, A>
where
    B: ?Sized + 'static,
    A: 'static,
{
    Pick::build(branches.into_iter().map(|g| (1, None, g)))
}

struct Pick<B: ?Sized, A> {
    branches: Vec<Branch<B, A>>,
    total: u64,
}

struct Branch<B: ?Sized, A> {
    weight: u32,
    label: Option<Label>,
    g: Gen<B, A>,
}

impl<B: ?Sized, A> Branches for Vec<Branch<B, A>> {
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

impl<B: ?Sized + 'static, A: 'static> Pick<B, A> {
    #[track_caller]
    fn build(branches: impl Iterator<Item = (u32, Option<Label>, Gen<B, A>)>) -> Gen<B, A> {
        let branches: Vec<Branch<B, A>> = branches
            .map(|(weight, label, g)| Branch { weight, label, g })
            .collect();
        let total = branches.iter().map(|b| u64::from(b.weight)).sum();
        let pick = Pick { branches, total };
        assert!(
            !pick.branches.is_empty(),
            "pick: there must be at least one branch"
        );
        assert!(
            u32::try_from(pick.branches.len()).is_ok(),
            "pick: at most u32::MAX branches, got {}",
            pick.branches.len()
        );
        assert!(
            pick.total > 0,
            "pick: at least one branch must have a weight above 0"
        );
        Gen::from_node(pick)
    }
}

impl<B: ?Sized, A> Node<B, A> for Pick<B, A> {
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        let site = PickSite {
            branches: &self.branches,
            total: self.total,
        };
        let index = run.pick(&site)? as usize;
        let branch = &self.branches[index];
        let span = run.open_span_at_last(branch.label.as_ref());
        let value = run.nested(|run| branch.g.node.forward(run))?;
        run.close_span(span);
        Ok(value)
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        run.nested(|run| {
            let mut found = Vec::new();
            for (index, branch) in self.branches.iter().enumerate() {
                if branch.weight == 0 {
                    continue;
                }
                if found.len() >= limit {
                    break;
                }
                let ways = branch.g.node.backward(b, run, limit - found.len())?;
                let log_share = (f64::from(branch.weight) / self.total as f64).ln();
                let label = &branch.label;
                found.extend(ways.into_iter().map(|solution| Solution {
                    value: solution.value,
                    trace: Trace::span(
                        label.clone(),
                        Some(Choice::Pick {
                            index: index as u32,
                            arity: self.branches.len() as u32,
                            label: label.clone(),
                        }),
                        solution.trace,
                    ),
                    log_probability: log_share + solution.log_probability,
                }));
            }
            run.found(found.len())?;
            Ok(found)
        })
    }
}
