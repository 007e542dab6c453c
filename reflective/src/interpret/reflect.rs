//! Reflection: the backward engine run on a value, with a chosen size and budgets.

use crate::choice::{ChoiceTree, Label};
use crate::engine::{Backward, Budgets, ReflectError, Solution, caught};
use crate::node::Node;

use super::generate::DEFAULT_SIZE;

/// A reflection of a generator with a chosen size and budgets.
///
/// ```
/// use reflective::prelude::*;
/// let small = vec(bool(), ..);
/// // At size 2 no vector longer than 2 can be produced.
/// assert!(!small.reflector().size(2).can_generate(&vec![true; 3]).unwrap());
/// ```
#[derive(Debug)]
pub struct Reflector<'g, G> {
    g: &'g G,
    size: usize,
    budgets: Budgets,
}

/// The setters of reflection's budgets, on a type with a `budgets: Budgets` field: the
/// [`Reflector`], and the interpretations that reflect the values they are given (mutation,
/// completion, validation), whose budget errors name these setters. The setter of the ways
/// is named by the caller (validation has a `max_ways` of its own).
macro_rules! budget_setters {
    ($ways:ident) => {
        /// Reflection gives up after `steps` steps (default 20 million): bounds the time it
        /// takes.
        pub fn max_steps(mut self, steps: u64) -> Self {
            self.budgets.max_steps = steps;
            self
        }

        /// Reflection gives up after finding `ways` ways beyond the first to produce parts of
        /// the value (default 1 000 000): bounds the memory an overlapping generator takes. A
        /// generator whose branches exclude each other never spends it.
        pub fn $ways(mut self, ways: u64) -> Self {
            self.budgets.max_ways = ways;
            self
        }

        /// Reflection gives up when generators built as it runs (a `bind`'s continuation, a
        /// recursive reference, a family member, a `sized` generator) nest deeper than `depth`
        /// (default 100 000). A recursive generator nests about once or twice per level of its
        /// values.
        pub fn max_depth(mut self, depth: usize) -> Self {
            self.budgets.max_depth = depth;
            self
        }
    };
}
pub(crate) use budget_setters;

impl<'g, G: Node> Reflector<'g, G> {
    /// A reflection of `g` at [`DEFAULT_SIZE`] with the default budgets.
    pub(crate) fn new(g: &'g G) -> Self {
        Reflector {
            g,
            size: DEFAULT_SIZE,
            budgets: Budgets::default(),
        }
    }

    /// Reflects with `budgets`, all three at once (a caller that holds them).
    pub(crate) fn budgets(mut self, budgets: Budgets) -> Self {
        self.budgets = budgets;
        self
    }

    /// Reflects at `size` instead of [`DEFAULT_SIZE`].
    pub fn size(mut self, size: usize) -> Self {
        self.size = size;
        self
    }

    budget_setters!(max_ways);

    /// The ways to produce `value`, at most `limit` of them, with the values they produce if
    /// `values` is set.
    pub(crate) fn solutions(
        &self,
        value: &G::Input,
        limit: usize,
        values: bool,
    ) -> Result<Vec<Solution<G::Output>>, ReflectError> {
        let mut run = Backward::new(self.size, values, self.budgets);
        self.g.backward(value, &mut run, limit)
    }

    /// Every way of producing `value`, each with its probability, for `probability_of` (see
    /// `Backward::weighs`).
    pub(crate) fn weighed_solutions(
        &self,
        value: &G::Input,
    ) -> Result<Vec<Solution<G::Output>>, ReflectError> {
        let mut run = Backward::new(self.size, false, self.budgets);
        run.weighs = true;
        self.g.backward(value, &mut run, usize::MAX)
    }

    /// See [`Generator::choices`](crate::Generator::choices).
    pub fn choices(&self, value: &G::Input) -> Result<Vec<ChoiceTree>, ReflectError> {
        let mut trees = self.trees(value, usize::MAX)?;
        trees.sort_by(ChoiceTree::shortlex_cmp);
        Ok(trees)
    }

    /// The choice trees of the first `limit` ways of producing `value`, in the order found.
    pub(crate) fn trees(
        &self,
        value: &G::Input,
        limit: usize,
    ) -> Result<Vec<ChoiceTree>, ReflectError> {
        Ok(self
            .solutions(value, limit, false)?
            .iter()
            .map(|solution| solution.trace.to_tree(self.size))
            .collect())
    }

    /// See [`Generator::reflect`](crate::Generator::reflect).
    pub fn reflect(&self, value: &G::Input) -> Result<Vec<Vec<Label>>, ReflectError> {
        Ok(self
            .choices(value)?
            .iter()
            .map(ChoiceTree::labels)
            .collect())
    }

    /// See [`Generator::can_generate`](crate::Generator::can_generate).
    pub fn can_generate(&self, value: &G::Input) -> Result<bool, ReflectError> {
        Ok(!self.solutions(value, 1, false)?.is_empty())
    }

    /// The values the generator produces along each way of producing `value`, in the order
    /// found. For an aligned generator with sound annotations each equals `value`: a
    /// generator that yields anything else is missing a `focus` or an `exact`.
    pub fn reproductions(&self, value: &G::Input) -> Result<Vec<G::Output>, ReflectError> {
        Ok(self
            .solutions(value, usize::MAX, true)?
            .into_iter()
            .filter_map(|solution| solution.value)
            .collect())
    }
}

/// Why [`simplest_choices`] found no choices.
#[derive(Debug)]
pub(crate) enum Unreflected {
    /// The generator produces the value at none of the sizes.
    CannotProduce,
    /// Reflection ran out of a budget (the last error), at [`BUDGET_PATIENCE`] sizes in a row
    /// or at the last size.
    Budget(ReflectError),
    /// An annotation (a `focus`, a `comap`) panicked on the value, with this message.
    Panicked(String),
}

/// After how many sizes in a row at which reflection runs out of a budget
/// [`simplest_choices`] gives up: a budget that runs out at one size need not at the next,
/// but sizes that double give reflection ever more ways to look at.
const BUDGET_PATIENCE: usize = 3;

/// How many ways [`simplest_choices`] lists, where listing every way runs out of a budget and
/// the first ways will do ([`TooManyWays::SimplestOfFirst`]), to take the simplest of.
const FIRST_WAYS: usize = 1000;

/// What [`simplest_choices`] does where listing every way of producing the value runs out of
/// a budget (an exponentially overlapping generator: `one_of` of two ranges that share
/// values, in a list of 20, has 2^20 ways).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TooManyWays {
    /// Goes on to the next size, and is an error after [`BUDGET_PATIENCE`] sizes in a row:
    /// where the error is the caller's answer (mutation, encoding say why they cannot).
    Error,
    /// Takes the simplest of the first [`FIRST_WAYS`] ways found: any way is a start for the
    /// shrinker, whose answer to a value it cannot start from is no shrink at all.
    SimplestOfFirst,
}

/// The simplest choices that produce `value` at the first of `sizes` (ascending) at which
/// the generator produces it, each size reflected with `budgets`: the simplest of every way,
/// or, where listing them all runs out of a budget, as `too_many` says. `Err` if it
/// produces it at none, if reflection runs out of a budget at [`BUDGET_PATIENCE`] sizes in a
/// row, or if an annotation panics on it (the panic kept off stderr).
pub(crate) fn simplest_choices<G: Node>(
    g: &G,
    value: &G::Input,
    sizes: impl IntoIterator<Item = usize>,
    budgets: Budgets,
    too_many: TooManyWays,
) -> Result<ChoiceTree, Unreflected> {
    let (mut last_error, mut in_a_row) = (None, 0);
    for size in sizes {
        let reflector = Reflector {
            budgets,
            ..Reflector::new(g).size(size)
        };
        match caught(|| reflector.choices(value)) {
            Ok(Ok(trees)) => {
                if let Some(simplest) = trees.into_iter().next() {
                    return Ok(simplest);
                }
                in_a_row = 0;
            }
            Ok(Err(error)) => {
                if too_many == TooManyWays::SimplestOfFirst
                    && let Ok(Ok(Some(simplest))) = caught(|| simplest_of_first(&reflector, value))
                {
                    return Ok(simplest);
                }
                last_error = Some(error);
                in_a_row += 1;
                if in_a_row == BUDGET_PATIENCE {
                    break;
                }
            }
            Err(panic) => return Err(Unreflected::Panicked(panic)),
        }
    }
    Err(last_error.map_or(Unreflected::CannotProduce, Unreflected::Budget))
}

/// The simplest of the first [`FIRST_WAYS`] ways `reflector` finds of producing `value`.
fn simplest_of_first<G: Node>(
    reflector: &Reflector<'_, G>,
    value: &G::Input,
) -> Result<Option<ChoiceTree>, ReflectError> {
    Ok(reflector
        .trees(value, FIRST_WAYS)?
        .into_iter()
        .min_by(ChoiceTree::shortlex_cmp))
}

/// The first part of `value` (the innermost) that no way of `g` produces at `size`, with the
/// path to it (see `engine::parts`): what the errors of mutation and encoding name, as
/// completion's does from its own run. `None` if a way produces `value`, if the part that
/// fails is reached by no focus nor as a collection's element (a bare `range` given a value
/// out of it), or if reflection runs out of a budget or an annotation panics (the caller's
/// own reflection has said so already). One more reflection, made only on the way to an
/// error.
pub(crate) fn unproduced_part<G: Node>(
    g: &G,
    value: &G::Input,
    size: usize,
    budgets: Budgets,
) -> Option<(&'static str, Vec<Label>)> {
    let mut run = Backward::new(size, false, budgets).naming_parts();
    match caught(|| g.backward(value, &mut run, 1)) {
        Ok(Ok(found)) if found.is_empty() => run.first_failure(),
        _ => None,
    }
}

/// `first`, then the powers of two above it, up to `last` (which is included).
pub(crate) fn doubling_sizes(first: usize, last: usize) -> impl Iterator<Item = usize> {
    std::iter::successors(Some(first), move |&size| {
        (size < last).then(|| (size + 1).next_power_of_two().min(last))
    })
}
