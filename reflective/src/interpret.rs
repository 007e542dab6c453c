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
use crate::generator::Generator;
use crate::source::exhaustive::Exhaustive;
use crate::source::random::RandomSource;
use crate::source::replay::{Fallback, ReplaySource};
use crate::source::{ChoiceSource, Halt};

/// The size [`Generator::sample`] generates at and reflection assumes, unless told otherwise.
pub const DEFAULT_SIZE: usize = 100;

/// The random number generator [`Generator::sample`] seeds: xoshiro256++, fast and the same on
/// every platform.
pub type DefaultRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generated value and the choices that produced it.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated<T> {
    /// The value.
    pub value: T,
    /// The choices, which [`Generator::replay`] turns back into the value.
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

/// [`Generator::sample`].
#[track_caller]
pub(crate) fn sample<G: Generator>(g: &G, seed: u64) -> G::Output {
    let mut rng = DefaultRng::seed_from_u64(seed);
    generate_value(g, &mut rng, DEFAULT_SIZE)
}

/// [`Generator::try_generate`].
pub(crate) fn try_generate<G: Generator, R: Rng + ?Sized>(
    g: &G,
    rng: &mut R,
    size: usize,
) -> Result<Generated<G::Output>, GenerateError> {
    let mut source = RandomSource::new(rng);
    let (value, tree) = run(g, &mut source, size, true).map_err(halt_to_error)?;
    Ok(Generated { value, tree })
}

/// [`Generator::try_generate`], recording the choices only if `record`: without them, the
/// value is the one the same seed gives with them, and the tree is empty.
pub(crate) fn try_generate_recording<G: Generator, R: Rng + ?Sized>(
    g: &G,
    rng: &mut R,
    size: usize,
    record: bool,
) -> Result<Generated<G::Output>, GenerateError> {
    let mut source = RandomSource::new(rng);
    let (value, tree) = run(g, &mut source, size, record).map_err(halt_to_error)?;
    Ok(Generated { value, tree })
}

/// [`Generator::generate_value`].
#[track_caller]
pub(crate) fn generate_value<G: Generator, R: Rng + ?Sized>(
    g: &G,
    rng: &mut R,
    size: usize,
) -> G::Output {
    let mut source = RandomSource::new(rng);
    g.forward(&mut Forward::new(&mut source, size, false))
        .unwrap_or_else(|halt| panic!("{}", halt_to_error(halt)))
}

/// [`Generator::replay`].
pub(crate) fn replay<G: Generator>(g: &G, tree: &ChoiceTree) -> Option<G::Output> {
    let mut source = ReplaySource::new(tree.choices(), Fallback::Fail);
    let mut run = Forward::new(&mut source, tree.size(), false);
    let value = g.forward(&mut run).ok()?;
    source.fitted_exactly().then_some(value)
}

/// [`Generator::replay_repaired`].
pub(crate) fn replay_repaired<G: Generator>(
    g: &G,
    tree: &ChoiceTree,
) -> Result<Generated<G::Output>, GenerateError> {
    let mut source = ReplaySource::new(tree.choices(), Fallback::Simplest);
    let (value, tree) = run(g, &mut source, tree.size(), true).map_err(halt_to_error)?;
    Ok(Generated { value, tree })
}

/// The iterator [`Generator::enumerate`] returns.
#[derive(Debug)]
pub struct Enumerate<'g, G> {
    g: &'g G,
    size: usize,
    walk: Exhaustive,
}

impl<'g, G: Generator> Enumerate<'g, G> {
    pub(crate) fn new(g: &'g G, depth: usize) -> Self {
        Enumerate {
            g,
            size: depth,
            walk: Exhaustive::new(depth.saturating_add(1)),
        }
    }
}

impl<G: Generator> Iterator for Enumerate<'_, G> {
    type Item = G::Output;

    fn next(&mut self) -> Option<G::Output> {
        while self.walk.has_next() {
            let value = self
                .g
                .forward(&mut Forward::new(&mut self.walk, self.size, false));
            self.walk.advance();
            // A sequence the generator gives up on (a set short of distinct elements) has no
            // value: the walk goes on.
            if let Ok(value) = value {
                return Some(value);
            }
        }
        None
    }
}

fn run<G: Generator>(
    g: &G,
    source: &mut dyn ChoiceSource,
    size: usize,
    record: bool,
) -> Result<(G::Output, ChoiceTree), Halt> {
    let mut run = Forward::new(source, size, record);
    let value = g.forward(&mut run)?;
    Ok((value, run.into_tree()))
}

fn halt_to_error(halt: Halt) -> GenerateError {
    GenerateError {
        message: match halt {
            Halt::Misfit => "the recorded choices do not fit the generator".to_string(),
            Halt::Failed(message) => message,
        },
    }
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
pub struct Reflector<'g, G> {
    g: &'g G,
    size: usize,
    budgets: Budgets,
}

impl<'g, G: Generator> Reflector<'g, G> {
    /// A reflection of `g` at [`DEFAULT_SIZE`] with the default budgets.
    pub(crate) fn new(g: &'g G) -> Self {
        Reflector {
            g,
            size: DEFAULT_SIZE,
            budgets: Budgets {
                max_steps: DEFAULT_MAX_STEPS,
                max_ways: DEFAULT_MAX_WAYS,
                max_depth: DEFAULT_MAX_DEPTH,
            },
        }
    }

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

    /// Gives up when generators built as reflection runs (a `bind`'s continuation, a recursive
    /// reference, a family member, a `sized` generator) nest deeper than `depth` (default
    /// 100 000). A recursive generator nests about once or twice per level of its values.
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.budgets.max_depth = depth;
        self
    }

    /// The ways to produce `value`, at most `limit` of them, with the values they produce if
    /// `values` is set.
    fn solutions(
        &self,
        value: &G::Input,
        limit: usize,
        values: bool,
    ) -> Result<Vec<Solution<G::Output>>, ReflectError> {
        let mut run = Backward::new(self.size, values, self.budgets);
        self.g.backward(value, &mut run, limit)
    }

    /// See [`Generator::choices`].
    pub fn choices(&self, value: &G::Input) -> Result<Vec<ChoiceTree>, ReflectError> {
        let mut trees: Vec<ChoiceTree> = self
            .solutions(value, usize::MAX, false)?
            .iter()
            .map(|solution| solution.trace.to_tree(self.size))
            .collect();
        trees.sort_by(ChoiceTree::shortlex_cmp);
        Ok(trees)
    }

    /// See [`Generator::reflect`].
    pub fn reflect(&self, value: &G::Input) -> Result<Vec<Vec<Label>>, ReflectError> {
        Ok(self
            .choices(value)?
            .iter()
            .map(ChoiceTree::labels)
            .collect())
    }

    /// See [`Generator::can_generate`].
    pub fn can_generate(&self, value: &G::Input) -> Result<bool, ReflectError> {
        Ok(!self.solutions(value, 1, false)?.is_empty())
    }

    /// See [`Generator::probability_of`]; the probability at this reflection's size.
    pub fn probability_of(&self, value: &G::Input) -> Result<f64, ReflectError> {
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
    pub fn log_probability_of(&self, value: &G::Input) -> Result<f64, ReflectError> {
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
    pub fn reproductions(&self, value: &G::Input) -> Result<Vec<G::Output>, ReflectError> {
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
