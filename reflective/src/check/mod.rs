//! Running a property: cases at growing sizes, the shrink of a failure, and a report that says
//! how to replay it.
//!
//! [`check`] runs a property on values of a generator, case `i` (from 0) at size
//! `i mod (max_size + 1)` (QuickCheck's cycle: 0, 1, ..., `max_size`, 0, ...: the smallest
//! sizes first, where the simplest failures cost least, and every size within the first
//! `max_size + 1` cases however many cases run), each case from a seed of its own derived from
//! the run's seed, until `n` cases have run; cases the property discards
//! ([`assume`](fn@crate::assume)) do not count, and a report numbers cases from 1, discarded
//! ones included. [`SizeSchedule::Ramp`] spreads the sizes over the run's cases instead. Cases are generated
//! without recording their choices; a failing case is generated again from its seed, with
//! them, to shrink.
//!
//! When a case fails (the property returns `false` or an `Err`, or panics), the value is
//! shrunk by the [choice shrinker](crate::shrink) and `check` panics with the report: the minimal
//! counterexample, the original one, why it failed, the seed, a line that replays exactly this
//! case and the shrink's statistics. Panics inside the property are caught and their messages
//! kept for the report, not printed while the cases and the shrink run.
//!
//! ```should_panic
//! use reflective::prelude::*;
//! reflective::check(&vec(range(0u32..=1000), ..), |xs: &Vec<u32>| xs.iter().all(|&x| x < 500));
//! ```
//!
//! [`Config`] sets the number of cases, the seed, the largest size, the size schedule, the size
//! strategy, the shrink's budget, a single case to replay, the regressions file, statistics, coverage, the
//! time limit per case, the discard ratio and the share of mutation cases, in code or by environment variables
//! (`REFLECTIVE_CASES`, `REFLECTIVE_SEED`, `REFLECTIVE_MAX_SIZE`,
//! `REFLECTIVE_SIZE_SCHEDULE`, `REFLECTIVE_STRATEGY`,
//! `REFLECTIVE_SHRINK_EVALUATIONS`, `REFLECTIVE_SHRINK_SECONDS`, `REFLECTIVE_REPLAY` (with
//! `REFLECTIVE_REPLAY_CHECK`: which check of the test replays the case, from 1; every check
//! without it; a replay line names the check where it is not the first),
//! `REFLECTIVE_REGRESSIONS`, `REFLECTIVE_STATISTICS`, `REFLECTIVE_CHECK_COVERAGE`,
//! `REFLECTIVE_CASE_TIME_LIMIT_MS`, `REFLECTIVE_MAX_DISCARD_RATIO`,
//! `REFLECTIVE_MUTATION_PERCENT`); what code sets wins. On CI
//! (the `CI` variable set, to anything but empty or a switch's off word) the defaults are stricter: ten times the cases, coverage checked
//! statistically. A property can record [statistics] of its cases and require coverage; the
//! table of a run that passes is printed to the test's output, which `cargo test` shows with
//! `-- --nocapture`.
//!
//! A case still running past its time limit (the run's `case_time_limit`, else 10 s) is
//! reported on stderr while it runs, with the line that runs it alone, since a case that
//! never ends (a loop that never exits, a deadlock) never reaches a failure report:
//!
//! ```text
//! reflective: my_property: case REFLECTIVE_REPLAY=0x70335fc3daf3d8a7:3 has run for 10.0s, past the limit of 10.0s, and has not ended (a loop that never exits? a deadlock?); to run it alone:
//!     REFLECTIVE_REPLAY=0x70335fc3daf3d8a7:3 cargo test -p my-crate --test props my_property -- --exact
//! ```
//!
//! A test's failures are stored in its [regressions file](crate::regressions) and replayed
//! before its random cases on every later run. Every check a test makes shares that file: a
//! check that is expected to fail should not store its failure (`Config::regressions(false)`).
//!
//! # Mutation cases
//!
//! A share of the cases may mutate earlier cases instead of generating afresh, as HypoFuzz
//! does. The first case the property ran on (did not discard) joins the run's pool, and so
//! does each later one whose choices reached a label no earlier case reached (a variant, a
//! labelled branch), or reached one a number of times in a range no earlier case did (AFL's
//! buckets: 1, 2, 3, 4–7, 8–15, 16–31, 32–127, 128 or more). A mutant is one edit
//! ([`mutate`](crate::mutate)) of a pool case's choices, and each further edit with
//! probability 1/2 (four at most), so it is a value the generator produces, near one that
//! reached somewhere new. Where a precondition discards most cases, this is the way to test
//! more of the few inputs it accepts: their mutants meet it far more often than fresh cases,
//! and an edit that copies one integer into another makes keys collide (the ETNA example's
//! red-black trees show both: `cargo run --release --example etna -- --workload rbt`).
//!
//! So by default ([`Mutation::WhenDiscarding`]) a run makes no mutant, and records no
//! choices, until, at the end of a block, the property has discarded at least half of the
//! run's cases so far; from then on a quarter of its cases are mutants, and the run's first
//! cases that held (up to 50) start the pool. A run whose discards stay under half at every
//! block's end runs exactly as with mutation off. [`Config::mutation_percent`] (or
//! `mutation_percent = 25` on the property attribute, or `REFLECTIVE_MUTATION_PERCENT`, which
//! also reads `auto`) sets a fixed share instead, 0 for none; [`Config::mutation`] sets either.
//! Gradient runs (`check_by_gradient`) make no mutants. Cases are taken in blocks of 50: the
//! first block is all generated, and a case mutates from the pool as it stood at the end of
//! the block before (which is also where the default decides to start), so a parallel run
//! makes the same mutants as a sequential one. A mutant's replay line names the case it
//! mutates and the edits' seed (`REFLECTIVE_REPLAY=0x5eed:12/0x3d1`); the statistics count
//! the mutants.

mod arguments;
mod cases;
mod config;
mod entry;
mod mutation;
mod ordinal;
mod outcome;
pub mod regressions;
mod report;
mod run;
mod schedule;
pub mod statistics;
mod watchdog;

pub use arguments::{Arguments, arguments, forward_argument, one_argument};
pub use config::{
    Config, DEFAULT_CASES, DEFAULT_MAX_DISCARD_RATIO, MAX_ENV_SIZE, Mutation, Replay, Resolved,
    SWITCH_WORDS, parse_switch,
};
#[cfg(not(feature = "serde"))]
pub use entry::SerdeFeature;
#[cfg(feature = "serde")]
pub use entry::check_values;
pub use entry::{
    CheckFailed, check, check_by_gradient, check_parallel_with, check_values_with, check_with,
    try_check_by_gradient, try_check_with,
};
pub use outcome::{Outcome, assume, assume_that, quietly};
pub use schedule::SizeSchedule;
