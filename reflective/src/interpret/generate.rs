//! Generation and replay: the forward engine with a random or a replay source.

use std::fmt;

use rand_core::{Rng, SeedableRng};

use crate::choice::ChoiceTree;
use crate::engine::source::random::RandomSource;
use crate::engine::source::replay::{Fallback, ReplaySource};
use crate::engine::{ChoiceSource, Filtered, Forward, Halt, caught};
use crate::node::Node;

pub use crate::engine::DEFAULT_SIZE;

/// The random number generator [`Generator::sample`](crate::Generator::sample) seeds: xoshiro256++, fast and the same on
/// every platform.
pub type DefaultRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generated value and the choices that produced it.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated<T> {
    /// The value.
    pub value: T,
    /// The choices, which [`Generator::replay`](crate::Generator::replay) turns back into the value.
    pub tree: ChoiceTree,
}

/// Why a generator could not produce a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateError {
    message: String,
    /// Whether a filter rejected every value it drew: another seed or size may give one.
    rejected: bool,
}

impl GenerateError {
    /// Whether a filter rejected every value it drew (as many as
    /// [`MAX_FILTER_ATTEMPTS`](crate::combinator::MAX_FILTER_ATTEMPTS)), rather than the
    /// generator failing outright: at another size or seed it may produce a value (a list
    /// filtered to be non-empty makes none at size 0). The runner discards such a case.
    pub fn filter_rejected(&self) -> bool {
        self.rejected
    }
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

/// [`Generator::sample`](crate::Generator::sample).
#[track_caller]
pub(crate) fn sample<G: Node>(g: &G, seed: u64) -> G::Output {
    let mut rng = DefaultRng::seed_from_u64(seed);
    generate_value(g, &mut rng, DEFAULT_SIZE)
}

/// [`Generator::try_generate`](crate::Generator::try_generate).
pub(crate) fn try_generate<G: Node, R: Rng + ?Sized>(
    g: &G,
    rng: &mut R,
    size: usize,
) -> Result<Generated<G::Output>, GenerateError> {
    run_on(g, &mut RandomSource::new(rng), size)
}

/// [`Generator::try_generate`](crate::Generator::try_generate), recording the choices only if `record`: without them, the
/// value is the one the same seed gives with them, and the tree is empty.
/// What its filters kept and rejected comes with it.
pub(crate) fn try_generate_recording<G: Node, R: Rng + ?Sized>(
    g: &G,
    rng: &mut R,
    size: usize,
    record: bool,
) -> Result<(Generated<G::Output>, Filtered), GenerateError> {
    let mut source = RandomSource::new(rng);
    let mut run = Forward::new(&mut source, size, record);
    let value = g.forward(&mut run).map_err(halt_to_error)?;
    let filtered = run.filtered;
    Ok((
        Generated {
            value,
            tree: run.into_tree(),
        },
        filtered,
    ))
}

/// [`Generator::generate_value`](crate::Generator::generate_value).
#[track_caller]
pub(crate) fn generate_value<G: Node, R: Rng + ?Sized>(
    g: &G,
    rng: &mut R,
    size: usize,
) -> G::Output {
    let mut source = RandomSource::new(rng);
    g.forward(&mut Forward::new(&mut source, size, false))
        .unwrap_or_else(|halt| panic!("{}", halt_to_error(halt)))
}

/// [`Generator::replay`](crate::Generator::replay).
pub(crate) fn replay<G: Node>(g: &G, tree: &ChoiceTree) -> Option<G::Output> {
    let mut source = ReplaySource::new(tree.choices(), Fallback::Fail);
    let mut run = Forward::new(&mut source, tree.size(), false);
    let value = g.forward(&mut run).ok()?;
    source.fitted_exactly().then_some(value)
}

/// [`Generator::replay_repaired`](crate::Generator::replay_repaired).
pub(crate) fn replay_repaired<G: Node>(
    g: &G,
    tree: &ChoiceTree,
) -> Result<Generated<G::Output>, GenerateError> {
    let mut source = ReplaySource::new(tree.choices(), Fallback::Simplest);
    run_on(g, &mut source, tree.size())
}

/// `g` run on `source` at `size`, recording its choices.
pub(crate) fn run_on<G: Node>(
    g: &G,
    source: &mut dyn ChoiceSource,
    size: usize,
) -> Result<Generated<G::Output>, GenerateError> {
    let (value, tree) = run(g, source, size, true).map_err(halt_to_error)?;
    Ok(Generated { value, tree })
}

fn run<G: Node>(
    g: &G,
    source: &mut dyn ChoiceSource,
    size: usize,
    record: bool,
) -> Result<(G::Output, ChoiceTree), Halt> {
    run_noting_redraws(g, source, size, record)
        .map(|Recorded { generated, .. }| (generated.value, generated.tree))
}

/// [`run`], with where among the recorded choices the draws made again are.
fn run_noting_redraws<G: Node>(
    g: &G,
    source: &mut dyn ChoiceSource,
    size: usize,
    record: bool,
) -> Result<Recorded<G::Output>, Halt> {
    let mut run = Forward::new(source, size, record);
    let value = g.forward(&mut run)?;
    let (tree, redrawn) = run.into_tree_and_redrawn();
    Ok(Recorded {
        generated: Generated { value, tree },
        redrawn,
    })
}

/// A recorded run: its value and choices, and where among the choices the draws made again
/// are (a filter's rejected attempts, a distinct collection's repeated elements), which the
/// value is not made of.
pub(crate) struct Recorded<T> {
    pub(crate) generated: Generated<T>,
    pub(crate) redrawn: Vec<std::ops::Range<usize>>,
}

/// `g` run on `source` at `size`, recording: the run's value or its halt, or the message of
/// the generator's panic (a `map` that asserts on what edited choices gave it; the panic kept
/// off stderr), for the interpretations that run a generator on choices of their own making
/// (mutation, the shrinker's exhaustive pass).
pub(crate) fn record_caught<G: Node>(
    g: &G,
    source: &mut dyn ChoiceSource,
    size: usize,
) -> Result<Result<Recorded<G::Output>, Halt>, String> {
    caught(|| run_noting_redraws(g, source, size, true))
}

/// The error of a run that stopped for `halt`.
fn halt_to_error(halt: Halt) -> GenerateError {
    GenerateError {
        rejected: matches!(halt, Halt::Rejected { .. }),
        message: halt.reason(),
    }
}
