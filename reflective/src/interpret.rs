//! The interpretations of a generator: generate, replay, reflect, probability.
//!
//! Each is a small function over the two engines. Generation and replay run forward with a
//! random or a replay source; reflection, validity and probability run backward.

use std::fmt;

use rand_core::{Rng, SeedableRng};

use crate::backward::{
    Backward, Budgets, DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, DEFAULT_MAX_WAYS, ReflectError,
    Solution,
};
use crate::choice::{ChoiceTree, Label};
use crate::forward::Forward;
use crate::generator::Gen;
use crate::source::random::RandomSource;
use crate::source::replay::{Fallback, ReplaySource};
use crate::source::{ChoiceSource, Halt};

/// The size [`Gen::sample`] generates at and reflection assumes, unless told otherwise.
pub const DEFAULT_SIZE: usize = 100;

/// The random number generator [`Gen::sample`] seeds: xoshiro256++, fast and the same on
/// every platform.
pub type DefaultRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generated value and the choices that produced it.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated<T> {
    /// The value.
    pub value: T,
    /// The choices, which [`Gen::replay`] turns back into the value.
    pub tree: ChoiceTree,
}

/// Why a generator could not produce a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateError {
    message: String,
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the generator could not produce a value: {}",
            self.message
        )
    }
}

impl std::error::Error for GenerateError {}

/// Forward interpretations.
impl<B: ?Sized + 'static, A: 'static> Gen<B, A> {
    /// The value for `seed` at [`DEFAULT_SIZE`]: the same on every run and platform.
    ///
    /// # Panics
    ///
    /// If the generator cannot produce a value (see [`Gen::try_generate`]).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = vec(int::<i32>(), ..);
    /// assert_eq!(g.sample(7), g.sample(7));
    /// ```
    #[track_caller]
    pub fn sample(&self, seed: u64) -> A {
        let mut rng = DefaultRng::seed_from_u64(seed);
        self.generate_value(&mut rng, DEFAULT_SIZE)
    }

    /// A random value at `size`, with the choice tree that produced it.
    ///
    /// # Panics
    ///
    /// If the generator cannot produce a value (see [`Gen::try_generate`]).
    #[track_caller]
    pub fn generate<R: Rng + ?Sized>(&self, rng: &mut R, size: usize) -> Generated<A> {
        self.try_generate(rng, size)
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// A random value at `size` with its choice tree, or why none could be produced (a set
    /// that cannot find enough distinct elements, say).
    pub fn try_generate<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        size: usize,
    ) -> Result<Generated<A>, GenerateError> {
        let mut source = RandomSource::new(rng);
        let (value, tree) = self.run(&mut source, size, true).map_err(halt_to_error)?;
        Ok(Generated { value, tree })
    }

    /// A random value at `size`, without recording its choices: the fastest way to generate.
    ///
    /// # Panics
    ///
    /// If the generator cannot produce a value (see [`Gen::try_generate`]).
    #[track_caller]
    pub fn generate_value<R: Rng + ?Sized>(&self, rng: &mut R, size: usize) -> A {
        let mut source = RandomSource::new(rng);
        self.run(&mut source, size, false)
            .map(|(value, _)| value)
            .unwrap_or_else(|halt| panic!("{}", halt_to_error(halt)))
    }

    /// The value `tree`'s choices produce, if they fit this generator exactly: every choice
    /// read and none missing, each of the kind the generator asks for (a pick or an integer),
    /// each pick index on a branch with a weight, each integer in the range asked for. The
    /// arity, labels and integer bounds recorded in the tree are not compared, so a tree
    /// edited by a shrinker replays as long as its choices fit. The tree's size is used.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = tuple((bool(), range(0u8..=9)));
    /// let generated = g.generate(&mut DefaultRng::seed_from_u64(5), 10);
    /// assert_eq!(g.replay(&generated.tree), Some(generated.value));
    /// ```
    pub fn replay(&self, tree: &ChoiceTree) -> Option<A> {
        let mut source = ReplaySource::new(tree.choices(), Fallback::Fail);
        let mut run = Forward::new(&mut source, tree.size(), false);
        let value = self.node.forward(&mut run).ok()?;
        source.fitted_exactly().then_some(value)
    }

    /// Replays `tree`'s choices, repairing those that do not fit, and returns the value with
    /// the choices actually made. The fallback: a missing choice takes the simplest value (the
    /// first branch with a weight, the in-range integer nearest zero), an integer out of range
    /// is clamped into it, a pick index past the branches or of the wrong kind takes the
    /// simplest branch. Choices left over are ignored.
    ///
    /// This is how edited choice trees (a shrinker's, a mutator's) become values again. It
    /// fails only where generation itself can fail (a set that cannot find enough distinct
    /// elements among the repaired choices).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let pair = tuple((range(1u8..=9), range(1u8..=9)));
    /// let tree = pair.choices(&(3, 4)).remove(0);
    /// // Drop the last choice: the second number falls back to its simplest value.
    /// let shorter = ChoiceTree::from_parts(tree.size(), tree.choices()[..1].to_vec(), []).unwrap();
    /// assert_eq!(pair.replay(&shorter), None);
    /// assert_eq!(pair.replay_repaired(&shorter).unwrap().value, (3, 1));
    /// ```
    pub fn replay_repaired(&self, tree: &ChoiceTree) -> Result<Generated<A>, GenerateError> {
        let mut source = ReplaySource::new(tree.choices(), Fallback::Simplest);
        let (value, tree) = self
            .run(&mut source, tree.size(), true)
            .map_err(halt_to_error)?;
        Ok(Generated { value, tree })
    }

    fn run(
        &self,
        source: &mut dyn ChoiceSource,
        size: usize,
        record: bool,
    ) -> Result<(A, ChoiceTree), Halt> {
        let mut run = Forward::new(source, size, record);
        let value = self.node.forward(&mut run)?;
        Ok((value, run.into_tree()))
    }
}

fn halt_to_error(halt: Halt) -> GenerateError {
    GenerateError {
        message: match halt {
            Halt::Misfit => "the recorded choices do not fit the generator".to_string(),
            Halt::Failed(message) => message,
        },
    }
}

/// Backward interpretations with the default size and budgets. Each panics with the
/// [`ReflectError`] when the budget runs out; [`Gen::reflector`] returns it instead.
impl<B: ?Sized + 'static, A: 'static> Gen<B, A> {
    /// A reflection with its own size and budgets, whose methods return errors.
    pub fn reflector(&self) -> Reflector<'_, B, A> {
        Reflector {
            g: self,
            size: DEFAULT_SIZE,
            budgets: Budgets {
                max_steps: DEFAULT_MAX_STEPS,
                max_ways: DEFAULT_MAX_WAYS,
                max_depth: DEFAULT_MAX_DEPTH,
            },
        }
    }

    /// The label sequences of every way the generator can produce `value` (the paper's
    /// `reflect`), simplest first; empty if it cannot.
    ///
    /// # Panics
    ///
    /// If reflection runs out of budget (see [`Reflector::reflect`]).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = vec(labeled([("a", exact('a')), ("b", exact('b'))]), ..);
    /// let labels = g.reflect(&vec!['b', 'a']);
    /// let text: Vec<String> = labels[0].iter().map(Label::to_string).collect();
    /// assert_eq!(text, ["more", "b", "more", "a", "stop"]);
    /// ```
    #[track_caller]
    pub fn reflect(&self, value: &B) -> Vec<Vec<Label>> {
        or_panic(self.reflector().reflect(value))
    }

    /// The choice tree of every way the generator can produce `value`, simplest (shortlex)
    /// first; empty if it cannot.
    ///
    /// # Panics
    ///
    /// If reflection runs out of budget (see [`Reflector::choices`]).
    #[track_caller]
    pub fn choices(&self, value: &B) -> Vec<ChoiceTree> {
        or_panic(self.reflector().choices(value))
    }

    /// Whether the generator can produce `value`: a validity check from the generator alone.
    ///
    /// # Panics
    ///
    /// If reflection runs out of budget before finding a way (see
    /// [`Reflector::can_generate`]).
    #[track_caller]
    pub fn can_generate(&self, value: &B) -> bool {
        or_panic(self.reflector().can_generate(value))
    }

    /// The probability that the generator produces `value` at [`DEFAULT_SIZE`], summed over
    /// every way it can; 0 if it cannot.
    ///
    /// Very unlikely values (a tree of a thousand nodes) round to 0: use
    /// [`Reflector::log_probability_of`] to tell them from impossible ones. Sets and maps count
    /// one drawing order only (see [`btree_set`](crate::btree_set)).
    ///
    /// # Panics
    ///
    /// If reflection runs out of budget (see [`Reflector::probability_of`]).
    #[track_caller]
    pub fn probability_of(&self, value: &B) -> f64 {
        or_panic(self.reflector().probability_of(value))
    }
}

#[track_caller]
fn or_panic<T>(result: Result<T, ReflectError>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}

/// A reflection of a generator with a chosen size and budgets.
///
/// ```
/// use reflective::prelude::*;
/// let small = vec(bool(), ..);
/// // At size 2 no vector longer than 2 can be produced.
/// assert!(!small.reflector().size(2).can_generate(&vec![true; 3]).unwrap());
/// ```
#[derive(Debug)]
pub struct Reflector<'g, B: ?Sized, A> {
    g: &'g Gen<B, A>,
    size: usize,
    budgets: Budgets,
}

impl<B: ?Sized + 'static, A: 'static> Reflector<'_, B, A> {
    /// Reflects at `size` instead of [`DEFAULT_SIZE`].
    pub fn size(mut self, size: usize) -> Self {
        self.size = size;
        self
    }

    /// Gives up after `steps` steps (default 20 million): bounds the time reflection takes.
    pub fn max_steps(mut self, steps: u64) -> Self {
        self.budgets.max_steps = steps;
        self
    }

    /// Gives up after finding `ways` ways beyond the first to produce parts of the value
    /// (default 1 000 000): bounds the memory an overlapping generator takes. A generator whose
    /// branches exclude each other never spends it.
    pub fn max_ways(mut self, ways: u64) -> Self {
        self.budgets.max_ways = ways;
        self
    }

    /// Gives up when choices nest deeper than `depth` (default 100 000).
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.budgets.max_depth = depth;
        self
    }

    /// The ways to produce `value`, at most `limit` of them, with the values they produce if
    /// `values` is set.
    fn solutions(
        &self,
        value: &B,
        limit: usize,
        values: bool,
    ) -> Result<Vec<Solution<A>>, ReflectError> {
        let mut run = Backward::new(self.size, values, self.budgets);
        self.g.node.backward(value, &mut run, limit)
    }

    /// See [`Gen::choices`].
    pub fn choices(&self, value: &B) -> Result<Vec<ChoiceTree>, ReflectError> {
        let mut trees: Vec<ChoiceTree> = self
            .solutions(value, usize::MAX, false)?
            .iter()
            .map(|solution| solution.trace.to_tree(self.size))
            .collect();
        trees.sort_by(ChoiceTree::shortlex_cmp);
        Ok(trees)
    }

    /// See [`Gen::reflect`].
    pub fn reflect(&self, value: &B) -> Result<Vec<Vec<Label>>, ReflectError> {
        Ok(self
            .choices(value)?
            .iter()
            .map(ChoiceTree::labels)
            .collect())
    }

    /// See [`Gen::can_generate`].
    pub fn can_generate(&self, value: &B) -> Result<bool, ReflectError> {
        Ok(!self.solutions(value, 1, false)?.is_empty())
    }

    /// See [`Gen::probability_of`]; the probability at this reflection's size.
    pub fn probability_of(&self, value: &B) -> Result<f64, ReflectError> {
        Ok(self.log_probability_of(value)?.exp())
    }

    /// The natural logarithm of [`Reflector::probability_of`]: `-inf` for a value the generator
    /// cannot produce, and a finite number for every value it can, however unlikely (where
    /// the probability itself would round to 0).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let bits = vec(bool(), ..);
    /// let long = vec![true; 2000];
    /// let log_p = bits.reflector().size(2000).log_probability_of(&long).unwrap();
    /// assert!(log_p.is_finite() && log_p < -1000.0);
    /// assert_eq!(bits.reflector().log_probability_of(&long).unwrap(), f64::NEG_INFINITY);
    /// ```
    pub fn log_probability_of(&self, value: &B) -> Result<f64, ReflectError> {
        let logs: Vec<f64> = self
            .solutions(value, usize::MAX, false)?
            .iter()
            .map(|solution| solution.log_probability)
            .collect();
        Ok(log_sum_exp(&logs))
    }

    /// The values the generator produces along each way of producing `value`, in the order
    /// found. For an aligned generator with sound annotations each equals `value`: a
    /// generator that yields anything else is missing a `focus` or an `exact`.
    pub fn reproductions(&self, value: &B) -> Result<Vec<A>, ReflectError> {
        Ok(self
            .solutions(value, usize::MAX, true)?
            .into_iter()
            .filter_map(|solution| solution.value)
            .collect())
    }
}

/// `ln(sum(exp(x)))` over `logs`, without overflow or underflow: `-inf` for no terms.
fn log_sum_exp(logs: &[f64]) -> f64 {
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    top + logs.iter().map(|log| (log - top).exp()).sum::<f64>().ln()
}
