//! Running a property: cases at growing sizes, the shrink of a failure, and a report that says
//! how to replay it.
//!
//! [`check`] runs a property on values of a generator, case `i` of `n` (from 0) at size
//! `i * max_size / (n - 1)`, each case from a seed of its own derived from the run's seed. Cases
//! are generated without recording their choices; a failing case is generated again from its
//! seed, with them, to shrink.
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
//! [`Config`] sets the number of cases, the seed, the largest size, the size strategy, the
//! shrink's budget, or a single case to replay, in code or by environment variables
//! (`REFLECTIVE_CASES`, `REFLECTIVE_SEED`, `REFLECTIVE_MAX_SIZE`, `REFLECTIVE_STRATEGY`,
//! `REFLECTIVE_SHRINK_EVALUATIONS`, `REFLECTIVE_SHRINK_SECONDS`, `REFLECTIVE_REPLAY`,
//! `REFLECTIVE_REGRESSIONS`, `REFLECTIVE_STATISTICS`, `REFLECTIVE_CHECK_COVERAGE`,
//! `REFLECTIVE_CASE_TIME_LIMIT_MS`); what code sets wins. On CI (the `CI` variable set) the
//! defaults are stricter: ten times the cases, coverage checked statistically. A property can record [statistics](crate::statistics) of its cases and require
//! coverage.
//!
//! A test's failures are stored in its [regressions file](crate::regressions) and replayed
//! before its random cases on every later run.

use std::any::Any;
use std::cell::Cell;
use std::fmt::{self, Debug};
use std::hash::{BuildHasher, Hasher};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Once;
use std::time::{Duration, Instant};

use rand_core::SeedableRng;

use crate::backward::{Backward, Reflected};
use crate::choice::ChoiceTree;
use crate::forward::Forward;
use crate::generator::{Generator, sealed::Sealed};
use crate::interpret::{DEFAULT_SIZE, DefaultRng, Generated, try_generate_recording};
use crate::regressions::{self, Stored};
use crate::shrink::{ShrinkBudget, ShrinkStats, Shrunk};
use crate::source::Halt;
use crate::statistics::{Coverage, Statistics};
use crate::strategy::Strategy;

/// The number of cases a property runs unless told otherwise.
pub const DEFAULT_CASES: u32 = 100;

/// What a property returns: `()` (it fails by panicking), `bool` (`false` fails) or
/// `Result<(), E>` (`Err` fails).
#[diagnostic::on_unimplemented(
    message = "a property returns `()`, `bool` or `Result<(), E: Debug>`, not `{Self}`",
    label = "not what a property returns"
)]
pub trait Outcome {
    /// Why the property failed, or `None` if it held.
    fn failure(self) -> Option<String>;
}

impl Outcome for () {
    fn failure(self) -> Option<String> {
        None
    }
}

impl Outcome for bool {
    fn failure(self) -> Option<String> {
        (!self).then(|| "the property returned false".to_string())
    }
}

impl<E: Debug> Outcome for Result<(), E> {
    fn failure(self) -> Option<String> {
        self.err()
            .map(|error| format!("the property returned Err({error:?})"))
    }
}

/// How [`check_with`] runs a property. Each setting left unset in code comes from its
/// environment variable, else from its default.
///
/// ```
/// use reflective::check::Config;
/// let config = Config::new().cases(500).seed(7);
/// assert_eq!(config.resolved().cases, 500);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    cases: Option<u32>,
    seed: Option<u64>,
    max_size: Option<usize>,
    strategy: Option<Strategy>,
    shrink_evaluations: Option<usize>,
    shrink_time: Option<Duration>,
    replay: Option<Replay>,
    regressions: Option<bool>,
    statistics: Option<bool>,
    check_coverage: Option<bool>,
    case_time_limit: Option<Duration>,
}

/// One case to run alone: the seed of its randomness and its size, as a failure report prints
/// them (`REFLECTIVE_REPLAY=<seed>:<size>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The case's seed.
    pub seed: u64,
    /// The case's size.
    pub size: usize,
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}:{}", self.seed, self.size)
    }
}

impl std::str::FromStr for Replay {
    type Err = String;

    /// Reads `<seed>:<size>`, the seed in decimal or `0x` hexadecimal.
    fn from_str(text: &str) -> Result<Self, String> {
        let (seed, size) = text
            .split_once(':')
            .ok_or_else(|| format!("expected `<seed>:<size>`, found `{text}`"))?;
        Ok(Replay {
            seed: parse_seed(seed)?,
            size: size
                .trim()
                .parse()
                .map_err(|_| format!("expected a size after `:`, found `{size}`"))?,
        })
    }
}

/// The settings of a run, every one decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// How many cases.
    pub cases: u32,
    /// The run's seed.
    pub seed: u64,
    /// The size of the last case.
    pub max_size: usize,
    /// The size strategy, if one is set (else the generator's own).
    pub strategy: Option<Strategy>,
    /// The shrink's budget.
    pub shrink: ShrinkBudget,
    /// The single case to run instead of the run, if one is set.
    pub replay: Option<Replay>,
    /// Whether failures are stored in, and replayed first from, the regressions file.
    pub regressions: bool,
    /// Whether a run that passes prints its statistics.
    pub statistics: bool,
    /// Whether coverage is checked statistically, running more cases until it is decided.
    pub check_coverage: bool,
    /// The longest a case may take; one that takes longer fails.
    pub case_time_limit: Option<Duration>,
    /// Whether the run is on CI (the `CI` variable is set), whose profile is stricter: 10
    /// times the cases and coverage checked statistically, unless set otherwise.
    pub ci: bool,
}

impl Config {
    /// Nothing set in code: every setting from the environment or its default.
    pub fn new() -> Self {
        Config::default()
    }

    /// Runs `cases` cases (default [`DEFAULT_CASES`], ten times as many on CI;
    /// `REFLECTIVE_CASES`).
    pub fn cases(self, cases: u32) -> Self {
        Config {
            cases: Some(cases),
            ..self
        }
    }

    /// Seeds the run with `seed` (default: a fresh seed per run; `REFLECTIVE_SEED`).
    pub fn seed(self, seed: u64) -> Self {
        Config {
            seed: Some(seed),
            ..self
        }
    }

    /// Grows the size up to `max_size` (default [`DEFAULT_SIZE`]; `REFLECTIVE_MAX_SIZE`).
    pub fn max_size(self, max_size: usize) -> Self {
        Config {
            max_size: Some(max_size),
            ..self
        }
    }

    /// Generates under `strategy` (default: the generator's own; `REFLECTIVE_STRATEGY`, a
    /// strategy's [name](Strategy::name)).
    pub fn strategy(self, strategy: Strategy) -> Self {
        Config {
            strategy: Some(strategy),
            ..self
        }
    }

    /// Shrinks within `budget` (default [`ShrinkBudget::default`];
    /// `REFLECTIVE_SHRINK_EVALUATIONS`, `REFLECTIVE_SHRINK_SECONDS`).
    pub fn shrink_budget(self, budget: ShrinkBudget) -> Self {
        Config {
            shrink_evaluations: Some(budget.evaluations),
            shrink_time: Some(budget.time),
            ..self
        }
    }

    /// Runs only the case `replay`, as a failure report prints it (`REFLECTIVE_REPLAY`).
    pub fn replay(self, replay: Replay) -> Self {
        Config {
            replay: Some(replay),
            ..self
        }
    }

    /// Stores failures in the test's regressions file and replays its cases first, or not
    /// (default: yes; `REFLECTIVE_REGRESSIONS=off` turns it off). See the
    /// [regressions file](crate::regressions).
    pub fn regressions(self, on: bool) -> Self {
        Config {
            regressions: Some(on),
            ..self
        }
    }

    /// Prints the [statistics](crate::statistics) of a run that passes (default: no;
    /// `REFLECTIVE_STATISTICS=on`). A failure report has them anyway.
    pub fn statistics(self, on: bool) -> Self {
        Config {
            statistics: Some(on),
            ..self
        }
    }

    /// Checks [`cover`](crate::statistics::cover) requirements statistically, as QuickCheck's
    /// `checkCoverage` does: runs more cases (up to 100 times as many) until a confidence
    /// interval lies above 0.9 times each requirement, or below it (default: on CI only; otherwise
    /// the share seen in the run's cases decides; `REFLECTIVE_CHECK_COVERAGE=on`).
    pub fn check_coverage(self, on: bool) -> Self {
        Config {
            check_coverage: Some(on),
            ..self
        }
    }

    /// Fails a case that takes longer than `limit` (default: no limit;
    /// `REFLECTIVE_CASE_TIME_LIMIT_MS`), as Hypothesis's deadline does: measured when the
    /// property returns, so it reports slow cases, not ones that never return.
    pub fn case_time_limit(self, limit: Duration) -> Self {
        Config {
            case_time_limit: Some(limit),
            ..self
        }
    }

    /// Every setting decided: from code, else from the environment, else the default.
    ///
    /// # Panics
    ///
    /// If an environment variable is set to something it cannot read, with a message that
    /// names it.
    pub fn resolved(&self) -> Resolved {
        self.resolved_from(|name| std::env::var(name).ok())
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// [`resolved`](Self::resolved), reading the environment through `env`: an error names
    /// the variable that cannot be read.
    ///
    /// ```
    /// use reflective::check::Config;
    /// let env = |name: &str| (name == "REFLECTIVE_CASES").then(|| "20".to_string());
    /// assert_eq!(Config::new().resolved_from(env).unwrap().cases, 20);
    /// assert_eq!(Config::new().cases(5).resolved_from(env).unwrap().cases, 5);
    /// ```
    pub fn resolved_from(&self, env: impl Fn(&str) -> Option<String>) -> Result<Resolved, String> {
        fn read<T>(
            env: &impl Fn(&str) -> Option<String>,
            name: &str,
            parse: impl Fn(&str) -> Result<T, String>,
        ) -> Result<Option<T>, String> {
            env(name)
                .map(|text| parse(text.trim()).map_err(|error| format!("{name}: {error}")))
                .transpose()
        }
        let number = |what: &'static str| {
            move |text: &str| {
                text.parse::<u64>()
                    .map_err(|_| format!("expected {what}, found `{text}`"))
            }
        };
        let ci = env("CI").is_some_and(|value| !matches!(value.trim(), "" | "0" | "false"));
        let cases = match self.cases {
            Some(cases) => cases,
            None => read(&env, "REFLECTIVE_CASES", |text| {
                text.parse::<u32>().map_err(|_| {
                    format!(
                        "expected a number of cases up to {}, found `{text}`",
                        u32::MAX
                    )
                })
            })?
            .unwrap_or(if ci {
                10 * DEFAULT_CASES
            } else {
                DEFAULT_CASES
            }),
        };
        let seed = match self.seed {
            Some(seed) => seed,
            None => read(&env, "REFLECTIVE_SEED", parse_seed)?.unwrap_or_else(fresh_seed),
        };
        let max_size = match self.max_size {
            Some(size) => size,
            None => read(&env, "REFLECTIVE_MAX_SIZE", size)?.unwrap_or(DEFAULT_SIZE),
        };
        let strategy = match self.strategy {
            Some(strategy) => Some(strategy),
            None => read(&env, "REFLECTIVE_STRATEGY", parse_strategy)?,
        };
        let evaluations = match self.shrink_evaluations {
            Some(evaluations) => evaluations,
            None => read(
                &env,
                "REFLECTIVE_SHRINK_EVALUATIONS",
                number("a number of evaluations"),
            )?
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .unwrap_or(ShrinkBudget::default().evaluations),
        };
        let time = match self.shrink_time {
            Some(time) => time,
            None => read(
                &env,
                "REFLECTIVE_SHRINK_SECONDS",
                number("a number of seconds"),
            )?
            .map(Duration::from_secs)
            .unwrap_or(ShrinkBudget::default().time),
        };
        let replay = match self.replay {
            Some(replay) => Some(replay),
            None => read(&env, "REFLECTIVE_REPLAY", |text| {
                let replay: Replay = text.parse()?;
                size(&replay.size.to_string())?;
                Ok(replay)
            })?,
        };
        let switch = |text: &str| match text {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(format!("expected `on` or `off`, found `{text}`")),
        };
        let regressions = match self.regressions {
            Some(on) => on,
            None => read(&env, "REFLECTIVE_REGRESSIONS", switch)?.unwrap_or(true),
        };
        let statistics = match self.statistics {
            Some(on) => on,
            None => read(&env, "REFLECTIVE_STATISTICS", switch)?.unwrap_or(false),
        };
        let check_coverage = match self.check_coverage {
            Some(on) => on,
            None => read(&env, "REFLECTIVE_CHECK_COVERAGE", switch)?.unwrap_or(ci),
        };
        let case_time_limit = match self.case_time_limit {
            Some(limit) => Some(limit),
            None => read(
                &env,
                "REFLECTIVE_CASE_TIME_LIMIT_MS",
                number("a number of milliseconds"),
            )?
            .map(Duration::from_millis),
        };
        Ok(Resolved {
            regressions,
            statistics,
            check_coverage,
            case_time_limit,
            ci,
            cases,
            seed,
            max_size,
            strategy,
            shrink: ShrinkBudget { evaluations, time },
            replay,
        })
    }
}

/// The largest size the environment may ask for: a larger one would ask generators for more
/// memory than a test has (a list as long as the size).
pub const MAX_ENV_SIZE: usize = 1 << 20;

/// A size up to [`MAX_ENV_SIZE`].
fn size(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&size| size <= MAX_ENV_SIZE)
        .ok_or_else(|| format!("expected a size up to {MAX_ENV_SIZE}, found `{text}`"))
}

/// A seed in decimal or `0x` hexadecimal.
fn parse_seed(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("expected a seed (decimal or 0x hexadecimal), found `{text}`"))
}

/// A strategy by its name.
fn parse_strategy(text: &str) -> Result<Strategy, String> {
    Strategy::ALL
        .into_iter()
        .find(|strategy| strategy.name() == text)
        .ok_or_else(|| {
            let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
            format!("expected one of {}, found `{text}`", names.join(", "))
        })
}

/// A seed that differs from run to run: the standard library's per-process hash keys.
fn fresh_seed() -> u64 {
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

/// The seed of case `index` of a run seeded with `seed` (SplitMix64's mix of the two).
fn case_seed(seed: u64, index: u32) -> u64 {
    let mut z = seed.wrapping_add(u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Runs `property` on [`DEFAULT_CASES`] values of `g` (or as the environment says, see
/// [`Config`]), and panics with a report of the minimal counterexample if it fails.
///
/// The property may return `()` (and fail by panicking), `bool` or `Result<(), E: Debug>`.
///
/// ```
/// use reflective::prelude::*;
/// reflective::check(&vec(range(0u32..=1000), ..), |xs: &Vec<u32>| {
///     let mut sorted = xs.clone();
///     sorted.sort();
///     sorted.len() == xs.len()
/// });
/// ```
#[track_caller]
pub fn check<G, O>(g: &G, property: impl Fn(&G::Output) -> O)
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    check_with(&Config::new(), g, property);
}

/// [`check`] with `config`.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::check::{Config, check_with};
/// check_with(&Config::new().cases(20).seed(1), &range(0u8..=9), |&x: &u8| x < 10);
/// ```
#[track_caller]
pub fn check_with<G, O>(config: &Config, g: &G, property: impl Fn(&G::Output) -> O)
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let settings = config.resolved();
    let keep = KeepChoices {
        settings: &settings,
        g,
    };
    let cases = |statistics: &mut Statistics| run_cases(&settings, g, &property, statistics, 0);
    if let Some(failure) = run(&settings, g, &property, &keep, cases) {
        panic!("{failure}");
    }
}

/// [`check_with`] on all cores: the cases are spread over one thread per core, and the run
/// reports exactly what the sequential run reports for the same seed (the first failing case in
/// the run's order, shrunk the same way, with the same statistics). The property must be
/// `Sync`, the values `Send`.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::check::{Config, check_parallel_with};
/// check_parallel_with(&Config::new().cases(1000), &<Vec<u32>>::arbitrary_reflective(), |xs| {
///     xs.iter().rev().rev().eq(xs.iter())
/// });
/// ```
#[track_caller]
pub fn check_parallel_with<G, O>(config: &Config, g: &G, property: impl Fn(&G::Output) -> O + Sync)
where
    G: Generator,
    G::Output: Clone + Debug + Send,
    O: Outcome,
{
    let settings = config.resolved();
    let keep = KeepChoices {
        settings: &settings,
        g,
    };
    let cases = |statistics: &mut Statistics| {
        if settings.replay.is_some() {
            return run_cases(&settings, g, &property, statistics, 0);
        }
        run_cases_parallel(&settings, g, &property, statistics)
            .or_else(|| run_cases(&settings, g, &property, statistics, settings.cases))
    };
    if let Some(failure) = run(&settings, g, &property, &keep, cases) {
        panic!("{failure}");
    }
}

/// The run's cases spread over the cores: each thread takes every n-th case, and stops past
/// the first failure any thread has found. The statistics of the cases up to the first failure
/// (all, without one) are merged in the run's order; the first failure is shrunk.
fn run_cases_parallel<G, O>(
    settings: &Resolved,
    g: &G,
    property: &(impl Fn(&G::Output) -> O + Sync),
    statistics: &mut Statistics,
) -> Option<Failure<G::Output>>
where
    G: Generator,
    G::Output: Clone + Debug + Send,
    O: Outcome,
{
    use std::sync::atomic::{AtomicU32, Ordering};
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let first_failure = AtomicU32::new(u32::MAX);
    /// What a case did.
    enum Event {
        Held,
        Failed(String),
        Panicked(Box<dyn Any + Send>),
    }
    type Done = Vec<(u32, Statistics, Event)>;
    let mut done: Done = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                let first_failure = &first_failure;
                scope.spawn(move || {
                    let mut done: Done = Vec::new();
                    let indices = (worker as u32..settings.cases).step_by(threads);
                    for index in indices {
                        if index > first_failure.load(Ordering::Relaxed) {
                            break;
                        }
                        // A generator that panics is an event of its own: the sequential run
                        // panics there, if no case before it fails.
                        let generated = quietly(|| {
                            panic::catch_unwind(AssertUnwindSafe(|| {
                                generate(settings, g, case_at(settings, index), false).value
                            }))
                        });
                        let mut case = Statistics::default();
                        let event = match generated {
                            Ok(value) => match case.case(|| outcome(settings, property, &value)) {
                                Some(reason) => Event::Failed(reason),
                                None => Event::Held,
                            },
                            Err(payload) => Event::Panicked(payload),
                        };
                        if !matches!(event, Event::Held) {
                            first_failure.fetch_min(index, Ordering::Relaxed);
                        }
                        done.push((index, case, event));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    done.sort_by_key(|&(index, ..)| index);
    let first = first_failure.into_inner();
    let mut failing = None;
    for (index, case, event) in done {
        if index > first {
            break;
        }
        statistics.merge(case);
        match event {
            Event::Held => {}
            Event::Failed(reason) => failing = Some((index, reason)),
            Event::Panicked(payload) => panic::resume_unwind(payload),
        }
    }
    let (index, reason) = failing?;
    let replay = case_at(settings, index);
    let generated = generate(settings, g, replay, true);
    let origin = Origin::Case(index + 1, replay);
    Some(shrink_failure(
        settings, g, property, origin, generated, reason,
    ))
}

/// [`check_with`], storing failures in the regressions file as values (JSON) rather than
/// choices: a stored value is reflected to find its choices, so it runs as the same value
/// after the generator changes, as long as the generator can still produce it.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::check::{Config, check_values_with};
/// check_values_with(&Config::new().cases(20), &<Vec<u8>>::arbitrary_reflective(), |xs| {
///     xs.len() <= 100
/// });
/// ```
#[cfg(feature = "serde")]
#[track_caller]
pub fn check_values_with<G, T, O>(config: &Config, g: &G, property: impl Fn(&T) -> O)
where
    G: Generator<Input = T, Output = T>,
    T: Clone + Debug + serde::Serialize + serde::de::DeserializeOwned,
    O: Outcome,
{
    let settings = config.resolved();
    let keep = KeepValues {
        settings: &settings,
        g,
    };
    let cases = |statistics: &mut Statistics| run_cases(&settings, g, &property, statistics, 0);
    if let Some(failure) = run(&settings, g, &property, &keep, cases) {
        panic!("{failure}");
    }
}

/// [`check_values_with`] with the default [`Config`].
#[cfg(feature = "serde")]
#[track_caller]
pub fn check_values<G, T, O>(g: &G, property: impl Fn(&T) -> O)
where
    G: Generator<Input = T, Output = T>,
    T: Clone + Debug + serde::Serialize + serde::de::DeserializeOwned,
    O: Outcome,
{
    check_values_with(&Config::new(), g, property);
}

/// Without the `serde` feature, `check_values_with` only says that it needs it.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[track_caller]
pub fn check_values_with<G, T, O>(_: &Config, _: &G, _: impl Fn(&T) -> O)
where
    G: Generator<Input = T, Output = T>,
    T: SerdeFeature,
{
    unreachable!("`SerdeFeature` has no implementations")
}

/// What `check_values_with` asks of values without the `serde` feature: nothing has it.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "storing values (`regressions = \"values\"`, `check_values_with`) needs \
               `reflective`'s `serde` feature",
    label = "enable `features = [\"serde\"]` on `reflective`"
)]
pub trait SerdeFeature {}

/// Keeps the values, as JSON: read back by reflection.
#[cfg(feature = "serde")]
struct KeepValues<'g, G> {
    settings: &'g Resolved,
    g: &'g G,
}

#[cfg(feature = "serde")]
impl<G, T> Keep<T> for KeepValues<'_, G>
where
    G: Generator<Input = T, Output = T>,
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    fn stored(&self, shrunk: &Shrunk<T>) -> Result<Stored, String> {
        serde_json::to_string(&shrunk.value)
            .map(Stored::Value)
            .map_err(|error| format!("cannot write the value as JSON: {error}"))
    }

    fn replay(&self, stored: &Stored) -> Result<Option<Generated<T>>, String> {
        let json = match stored {
            Stored::Choices(tree) => return replay_choices(self.settings, self.g, tree).map(Some),
            Stored::Value(json) => json,
        };
        let value: T = serde_json::from_str(json)
            .map_err(|error| format!("cannot read the stored value: {error}"))?;
        let tree = match self.settings.strategy {
            Some(strategy) => {
                crate::shrink::choices_of(&ByRef(self.g).size_strategy(strategy), &value)
            }
            None => crate::shrink::choices_of(self.g, &value),
        }
        .ok_or(
            "the generator no longer produces the stored value; if that is meant, delete the line",
        )?;
        replay_choices(self.settings, self.g, &tree).map(Some)
    }
}

/// The name of the test running on this thread, as the test harness names its threads; `None`
/// on the main thread (a program, a doctest).
fn test_name() -> Option<String> {
    std::thread::current()
        .name()
        .filter(|name| *name != "main")
        .map(str::to_string)
}

/// Where a failing case came from.
enum Origin {
    /// Case number `n` (from 1) of the run, replayed by `replay`.
    Case(u32, Replay),
    /// The case `REFLECTIVE_REPLAY` (or [`Config::replay`]) named.
    Replayed(Replay),
    /// A case stored in the regressions file, at this line.
    Stored(PathBuf, usize),
}

/// A failed run: what the report says.
struct Failure<T> {
    settings: Resolved,
    origin: Origin,
    original: T,
    original_reason: String,
    shrunk: Shrunk<T>,
    reason: String,
    /// Whether the case passed when run again on the same value: the property does not
    /// depend on the value alone (time, randomness, state).
    flaky: bool,
    /// Where the minimal case was stored, or why it could not be; `None` without a file.
    saved: Option<Result<PathBuf, String>>,
    /// What the cases before the failure recorded.
    statistics: Statistics,
}

/// Runs the stored cases, then the run's (or only the one to replay), and shrinks the first
/// failure, which it stores.
///
/// # Panics
///
/// If the regressions file cannot be read, with the file, the line and how to mend it.
fn run<G, O>(
    settings: &Resolved,
    g: &G,
    property: &impl Fn(&G::Output) -> O,
    keep: &dyn Keep<G::Output>,
    cases: impl FnOnce(&mut Statistics) -> Option<Failure<G::Output>>,
) -> Option<Failure<G::Output>>
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let test = test_name();
    let file = test
        .as_deref()
        .filter(|_| settings.regressions)
        .and_then(regressions::file_of);
    let mut failure = None;
    if let (Some(path), None) = (&file, settings.replay) {
        let stored = regressions::load(path)
            .unwrap_or_else(|error| panic!("reflective: the regressions file: {error}"));
        for (line, case) in stored {
            let replayed = keep.replay(&case).unwrap_or_else(|error| {
                panic!(
                    "reflective: the regressions file: {}",
                    regressions::at_line(path, line, &error)
                )
            });
            let Some(generated) = replayed else {
                continue;
            };
            if let Some(reason) = outcome(settings, property, &generated.value) {
                let origin = Origin::Stored(path.clone(), line);
                failure = Some(shrink_failure(
                    settings, g, property, origin, generated, reason,
                ));
                break;
            }
        }
    }
    let mut statistics = Statistics::judged(settings.check_coverage);
    if failure.is_none() {
        failure = cases(&mut statistics);
    }
    let Some(mut failure) = failure else {
        // One replayed case says nothing about coverage.
        let coverage = match settings.replay {
            Some(_) => Coverage::Met,
            None => statistics.coverage(settings.check_coverage),
        };
        if coverage != Coverage::Met {
            panic!(
                "{}",
                coverage_report(settings, &statistics, coverage == Coverage::Unsure)
            );
        }
        if settings.statistics && !statistics.is_empty() {
            println!("{statistics}");
        }
        return None;
    };
    failure.statistics = statistics;
    if let (Some(path), Some(test), false) = (&file, &test, failure.flaky) {
        let saved = keep
            .stored(&failure.shrunk)
            .and_then(|case| regressions::save(path, test, &case));
        failure.saved = Some(saved.map(|()| path.clone()));
    }
    Some(failure)
}

/// How a run keeps its failures in the regressions file: their choices, or (with the `serde`
/// feature) their values.
trait Keep<T> {
    /// What to store of `shrunk`.
    fn stored(&self, shrunk: &Shrunk<T>) -> Result<Stored, String>;

    /// The case a stored line gives now; `None` for a kind of line this keeper does not read
    /// (a value, for one that keeps choices), which stays in the file for the one that does.
    fn replay(&self, stored: &Stored) -> Result<Option<Generated<T>>, String>;
}

/// Keeps the choices: for any generator.
struct KeepChoices<'g, G> {
    settings: &'g Resolved,
    g: &'g G,
}

impl<G: Generator> Keep<G::Output> for KeepChoices<'_, G> {
    fn stored(&self, shrunk: &Shrunk<G::Output>) -> Result<Stored, String> {
        Ok(Stored::Choices(shrunk.tree.clone()))
    }

    fn replay(&self, stored: &Stored) -> Result<Option<Generated<G::Output>>, String> {
        match stored {
            Stored::Choices(tree) => replay_choices(self.settings, self.g, tree).map(Some),
            Stored::Value(_) => Ok(None),
        }
    }
}

/// The case at `index` of the run: sizes grow from 0 to the largest over the run's cases, and
/// start again for cases past them (those `check_coverage` adds).
fn case_at(settings: &Resolved, index: u32) -> Replay {
    let cases = settings.cases.max(1);
    let size = if cases == 1 {
        settings.max_size
    } else {
        (u128::from(index % cases) * settings.max_size as u128 / u128::from(cases - 1)) as usize
    };
    Replay {
        seed: case_seed(settings.seed, index),
        size,
    }
}

/// The most cases `check_coverage` runs, as a multiple of the run's cases, before it gives up
/// on deciding.
const MAX_COVERAGE_FACTOR: u32 = 100;

/// Runs the run's cases from `start` (or only the one to replay), recording their statistics,
/// and shrinks the first failure. With `check_coverage`, runs more cases until the coverage
/// requirements are met or missed with confidence.
fn run_cases<G, O>(
    settings: &Resolved,
    g: &G,
    property: &impl Fn(&G::Output) -> O,
    statistics: &mut Statistics,
    start: u32,
) -> Option<Failure<G::Output>>
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let limit = if settings.check_coverage {
        settings.cases.saturating_mul(MAX_COVERAGE_FACTOR)
    } else {
        settings.cases
    };
    let mut index = start;
    loop {
        let more = index < settings.cases
            || (index < limit && statistics.coverage(true) == Coverage::Unsure);
        let (origin, replay) = match settings.replay {
            Some(replay) if index == 0 => (Origin::Replayed(replay), replay),
            None if more => {
                let replay = case_at(settings, index);
                (Origin::Case(index + 1, replay), replay)
            }
            _ => return None,
        };
        index += 1;
        // Without the choices, which only a failure needs: the same seed gives them below.
        let value = generate(settings, g, replay, false).value;
        let Some(reason) = statistics.case(|| outcome(settings, property, &value)) else {
            continue;
        };
        let mut generated = generate(settings, g, replay, true);
        generated.value = value;
        return Some(shrink_failure(
            settings, g, property, origin, generated, reason,
        ));
    }
}

/// The failure of `generated`, shrunk.
fn shrink_failure<G, O>(
    settings: &Resolved,
    g: &G,
    property: &impl Fn(&G::Output) -> O,
    origin: Origin,
    generated: Generated<G::Output>,
    reason: String,
) -> Failure<G::Output>
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let original = generated.value.clone();
    // A failure that does not fail again is not the value's: report it as it is, unshrunk.
    let flaky = outcome(settings, property, &original).is_none();
    let shrunk = if flaky {
        Shrunk {
            value: generated.value,
            tree: generated.tree,
            stats: ShrinkStats::default(),
        }
    } else {
        shrink_quietly(settings, g, generated, property)
    };
    let final_reason = outcome(settings, property, &shrunk.value)
        .unwrap_or_else(|| "it passed when run again".to_string());
    Failure {
        settings: settings.clone(),
        origin,
        original,
        original_reason: reason,
        shrunk,
        reason: final_reason,
        flaky,
        saved: None,
        statistics: Statistics::default(),
    }
}

/// The value a stored case's choices give now, repaired where the generator changed.
fn replay_choices<G: Generator>(
    settings: &Resolved,
    g: &G,
    tree: &ChoiceTree,
) -> Result<Generated<G::Output>, String> {
    let replayed = match settings.strategy {
        Some(strategy) => ByRef(g).size_strategy(strategy).replay_repaired(tree),
        None => g.replay_repaired(tree),
    };
    replayed.map_err(|error| error.to_string())
}

/// The value of case `replay`, with its choices if `record`.
///
/// # Panics
///
/// If the generator cannot produce a value, with the generator's reason and the case.
fn generate<G: Generator>(
    settings: &Resolved,
    g: &G,
    replay: Replay,
    record: bool,
) -> Generated<G::Output> {
    let mut rng = DefaultRng::seed_from_u64(replay.seed);
    let generated = match settings.strategy {
        Some(strategy) => try_generate_recording(
            &ByRef(g).size_strategy(strategy),
            &mut rng,
            replay.size,
            record,
        ),
        None => try_generate_recording(g, &mut rng, replay.size, record),
    };
    generated.unwrap_or_else(|error| {
        panic!("{error} (case REFLECTIVE_REPLAY={replay}: the property did not run)")
    })
}

/// Shrinks `start` under the run's strategy and budget, with the property's panics kept quiet.
fn shrink_quietly<G, O>(
    settings: &Resolved,
    g: &G,
    start: Generated<G::Output>,
    property: &impl Fn(&G::Output) -> O,
) -> Shrunk<G::Output>
where
    G: Generator,
    O: Outcome,
{
    let fails = |value: &G::Output| outcome(settings, property, value).is_some();
    // The generator's own panics on a candidate (a `map` that asserts) are kept quiet too: the
    // shrinker drops such candidates.
    quietly(|| match settings.strategy {
        Some(strategy) => {
            ByRef(g)
                .size_strategy(strategy)
                .shrink_generated(start, fails, settings.shrink)
        }
        None => g.shrink_generated(start, fails, settings.shrink),
    })
}

/// `g` borrowed, as a generator: a strategy can wrap a generator its caller keeps.
struct ByRef<'g, G>(&'g G);

impl<G> Sealed for ByRef<'_, G> {}

impl<G: Generator> Generator for ByRef<'_, G> {
    type Input = G::Input;
    type Output = G::Output;

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        self.0.forward(run)
    }

    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G::Output>,
    ) -> Result<(), Halt> {
        self.0.forward_many(run, count, out)
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        self.0.backward(b, run, limit)
    }
}

/// Why `property` fails on `value` (it returned a failure, panicked, or took longer than the
/// run's time limit per case), or `None` if it holds. A panic's message is kept, not printed.
fn outcome<T, O: Outcome>(
    settings: &Resolved,
    property: &impl Fn(&T) -> O,
    value: &T,
) -> Option<String> {
    // The clock is read only when a limit asks for it: it costs as much as a small case.
    let started = settings.case_time_limit.map(|_| Instant::now());
    let result = quietly(|| panic::catch_unwind(AssertUnwindSafe(|| property(value))));
    let took = started.map(|started| started.elapsed());
    let failure = match result {
        Ok(result) => result.failure(),
        Err(payload) => Some(format!(
            "the property panicked: {}",
            panic_message(&*payload)
        )),
    };
    failure.or_else(|| {
        let (limit, took) = (settings.case_time_limit?, took?);
        (took > limit).then(|| {
            format!(
                "the case took {:.1} ms, over the limit of {:.1} ms per case",
                took.as_secs_f64() * 1000.0,
                limit.as_secs_f64() * 1000.0
            )
        })
    })
}

/// A panic's message, as `panic!` formatted it.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

thread_local! {
    /// Whether panics on this thread are being caught by the runner, which reports them.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with this thread's panics not printed: the runner catches them and reports the
/// one that matters. The panic hook that does this is installed once, and passes every other
/// panic (other threads, other times) to the hook that was there before.
fn quietly<R>(f: impl FnOnce() -> R) -> R {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    /// Puts the flag back as it was, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            QUIET.with(|quiet| quiet.set(self.0));
        }
    }
    let _restore = Restore(QUIET.with(|quiet| quiet.replace(true)));
    f()
}

impl<T: Debug> fmt::Display for Failure<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stats = &self.shrunk.stats;
        if self.flaky {
            writeln!(
                f,
                "property is flaky: a case failed, then passed when run again on the same \
                 value, so it depends on more than the value (time, randomness, state)"
            )?;
        }
        match &self.origin {
            Origin::Case(case, replay) => writeln!(
                f,
                "property failed at case {case} of {} (seed {:#x}, size {}{})",
                self.settings.cases,
                self.settings.seed,
                replay.size,
                if self.settings.ci { ", CI profile" } else { "" }
            )?,
            Origin::Replayed(_) => writeln!(f, "property failed on the replayed case")?,
            Origin::Stored(path, line) => writeln!(
                f,
                "property failed on a stored regression ({}, line {line})",
                path.display()
            )?,
        }
        writeln!(f)?;
        writeln!(f, "minimal counterexample:")?;
        writeln!(f, "{}", indent(&format!("{:#?}", self.shrunk.value)))?;
        writeln!(f, "{}", indent(&self.reason))?;
        writeln!(f)?;
        writeln!(f, "original counterexample:")?;
        writeln!(f, "{}", indent(&format!("{:#?}", self.original)))?;
        writeln!(f, "{}", indent(&self.original_reason))?;
        writeln!(f)?;
        writeln!(
            f,
            "shrunk in {} evaluations, {} steps, {:.1} ms (stopped: {})",
            stats.evaluations,
            stats.steps,
            stats.time.as_secs_f64() * 1000.0,
            match stats.stopped {
                crate::shrink::Stopped::Fixpoint => "nothing simpler fails",
                crate::shrink::Stopped::Evaluations => "the evaluation budget ran out",
                crate::shrink::Stopped::Time => "the time budget ran out",
            }
        )?;
        match &self.saved {
            Some(Ok(path)) => writeln!(
                f,
                "saved to {}: replayed first on every run (commit it)",
                path.display()
            )?,
            Some(Err(error)) => writeln!(f, "not saved: {error}")?,
            None => {}
        }
        let test = test_name()
            .map(|name| format!(" {name} -- --exact"))
            .unwrap_or_default();
        // What decides a case besides its seed and size: the strategy, as set.
        let strategy = self
            .settings
            .strategy
            .map(|strategy| format!("REFLECTIVE_STRATEGY={} ", strategy.name()))
            .unwrap_or_default();
        if let Origin::Case(_, replay) | Origin::Replayed(replay) = &self.origin {
            writeln!(f)?;
            writeln!(f, "replay this case:")?;
            write!(
                f,
                "    {strategy}REFLECTIVE_REPLAY={replay} cargo test{test}"
            )?;
        }
        if let Origin::Case(..) = self.origin {
            write!(
                f,
                "\nrun every case again:\n    {strategy}REFLECTIVE_SEED={:#x} \
                 REFLECTIVE_CASES={} REFLECTIVE_MAX_SIZE={} cargo test{test}",
                self.settings.seed, self.settings.cases, self.settings.max_size
            )?;
        }
        if !self.statistics.is_empty() {
            write!(f, "\n\n{}", self.statistics)?;
        }
        Ok(())
    }
}

/// The report of a run whose cases all held but whose coverage requirements were not met
/// (or, if `undecided`, could not be decided).
fn coverage_report(settings: &Resolved, statistics: &Statistics, undecided: bool) -> String {
    let verdict = if undecided {
        "coverage could not be decided with confidence"
    } else {
        "coverage requirements not met"
    };
    format!(
        "property held, but {verdict} (seed {:#x}):\n\n{statistics}\nrun more cases \
         (REFLECTIVE_CASES), make the generator meet the requirement, or lower it",
        settings.seed
    )
}

/// `text` with every line indented by four spaces.
fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("    {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}
