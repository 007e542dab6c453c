//! The backward engine's budgets, and the error it returns when one runs out.
//!
//! The forward engine shares the nesting budget, so that every generated value reflects
//! within it.

use std::fmt;

/// Why reflection gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReflectError {
    /// Reflection took more steps than its budget allows: the generator can produce the value
    /// in too many ways (exponential overlap, as the paper's `gE`).
    StepBudget {
        /// The budget that ran out.
        steps: u64,
    },
    /// Parts of the value can be produced in more ways than the budget allows: the ways are
    /// kept in memory, so this bounds the memory an overlapping generator can take.
    WayBudget {
        /// The budget that ran out: the number of ways found beyond the first at each choice.
        ways: u64,
    },
    /// Choices nested deeper than the budget allows: the generator can make choices that
    /// change nothing, forever (infinite overlap, as the paper's `gI`), or the value is very
    /// deeply nested.
    DepthBudget {
        /// The budget that ran out.
        depth: usize,
    },
}

impl fmt::Display for ReflectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReflectError::StepBudget { steps } => write!(
                f,
                "reflection gave up after {steps} steps: the generator produces this value in \
                 too many ways (exponential overlap). Make its branches exclusive with `focus` or \
                 `exact`, or raise the budget with `Reflector::max_steps` (a `Mutator`, a \
                 `Completer` and a `Validation` have it too)"
            ),
            ReflectError::WayBudget { ways } => write!(
                f,
                "reflection gave up after {ways} alternative ways of producing parts of this \
                 value: the generator overlaps too much (exponential overlap). Make its branches \
                 exclusive with `focus` or `exact`, or raise the budget with \
                 `Reflector::max_ways` (a `Mutator` and a `Completer` have it too, a \
                 `Validation` as `max_reflection_ways`)"
            ),
            ReflectError::DepthBudget { depth } => write!(
                f,
                "reflection gave up at {depth} nested choices: the generator can keep making \
                 choices that do not change the value (infinite overlap), or the value nests \
                 deeper than that. Guard every recursive branch with a `focus` that consumes part \
                 of the value, or raise the budget with `Reflector::max_depth` (a `Mutator`, a \
                 `Completer` and a `Validation` have it too)"
            ),
        }
    }
}

impl std::error::Error for ReflectError {}

/// The default step budget of a reflection.
pub(crate) const DEFAULT_MAX_STEPS: u64 = 20_000_000;
/// The default budget of ways found beyond the first.
pub(crate) const DEFAULT_MAX_WAYS: u64 = 1_000_000;
/// The default nesting budget of a reflection.
pub(crate) const DEFAULT_MAX_DEPTH: usize = 100_000;

/// The budgets of a backward run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budgets {
    pub(crate) max_steps: u64,
    pub(crate) max_ways: u64,
    pub(crate) max_depth: usize,
}

impl Default for Budgets {
    /// [`DEFAULT_MAX_STEPS`], [`DEFAULT_MAX_WAYS`], [`DEFAULT_MAX_DEPTH`].
    fn default() -> Self {
        Budgets {
            max_steps: DEFAULT_MAX_STEPS,
            max_ways: DEFAULT_MAX_WAYS,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}
