//! What a shrink did: evaluations, steps and time, per pass, and why it stopped.

use std::time::Duration;

/// Why a shrink stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stopped {
    /// No pass found anything simpler: the result is a fixpoint of every pass.
    #[default]
    Fixpoint,
    /// The evaluation budget ran out.
    Evaluations,
    /// The time budget ran out.
    Time,
}

/// What one pass did over a whole shrink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassStats {
    /// The pass's name.
    pub name: &'static str,
    /// How many candidates it had the property evaluated on.
    pub evaluations: usize,
    /// How many of them still failed and became the best so far.
    pub steps: usize,
    /// How long it ran.
    pub time: Duration,
}

/// What a shrink did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShrinkStats {
    /// How many candidates the property was evaluated on.
    pub evaluations: usize,
    /// How many of them still failed and became the best so far.
    pub steps: usize,
    /// How long the shrink took.
    pub time: Duration,
    /// Why it stopped.
    pub stopped: Stopped,
    /// What each pass did, in the order they run.
    pub passes: Vec<PassStats>,
}
