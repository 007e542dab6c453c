//! How far a shrink may go: evaluations and time.

use std::time::Duration;

/// The most property evaluations a shrink makes unless told otherwise.
pub const DEFAULT_MAX_EVALUATIONS: usize = 10_000;

/// The longest a shrink runs unless told otherwise.
pub const DEFAULT_MAX_TIME: Duration = Duration::from_secs(10);

/// How far a shrink may go: at most `max_evaluations` evaluations of the property on
/// candidates, for at most `max_time`. When either runs out, the shrink returns the simplest
/// failing value found so far and says which stopped it ([`Stopped`](super::Stopped)). The
/// checks that the value to shrink fails come on top and are not candidates: one, and for a
/// reflected value ([`Generator::shrink`](crate::Generator::shrink)) one more on the value its
/// choices replay to.
///
/// ```
/// use std::time::Duration;
/// use reflective::shrink::ShrinkBudget;
/// let budget = ShrinkBudget::default().max_evaluations(500).max_time(Duration::from_secs(1));
/// assert_eq!(budget.evaluations, 500);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShrinkBudget {
    /// The most evaluations of the property on candidates.
    pub evaluations: usize,
    /// The longest the shrink runs.
    pub time: Duration,
}

impl Default for ShrinkBudget {
    /// [`DEFAULT_MAX_EVALUATIONS`] and [`DEFAULT_MAX_TIME`].
    fn default() -> Self {
        ShrinkBudget {
            evaluations: DEFAULT_MAX_EVALUATIONS,
            time: DEFAULT_MAX_TIME,
        }
    }
}

impl ShrinkBudget {
    /// This budget with at most `evaluations` evaluations of the property on candidates.
    pub fn max_evaluations(self, evaluations: usize) -> Self {
        ShrinkBudget {
            evaluations,
            ..self
        }
    }

    /// This budget with at most `time` to run.
    pub fn max_time(self, time: Duration) -> Self {
        ShrinkBudget { time, ..self }
    }
}
