//! The entry points: [`check`] and its forms with a [`Config`], on all cores, or storing values.

use std::fmt::{self, Debug};

use crate::generator::Generator;
use crate::interpret::gradient::{Gradient, GradientStats};
use crate::node::Node;

use super::cases::{Progress, generator_panicked, run_cases, run_cases_from, run_cases_parallel};
use super::config::Config;
use super::config::Resolved;
use super::ordinal::Running;
use super::outcome::Outcome;
#[cfg(feature = "serde")]
use super::run::KeepValues;
use super::run::{Keep, KeepChoices, run};
use super::statistics::Statistics;
use crate::engine::caught;

/// Runs `property` on [`DEFAULT_CASES`](super::DEFAULT_CASES) values of `g` (or as the environment says, see
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
    let running = Running::start();
    let settings = config.resolved_for(running.ordinal());
    let keep = KeepChoices {
        settings: &settings,
        g,
    };
    run_in_order(&settings, g, &property, &keep);
}

/// Runs the cases one after the other, keeping a failure as `keep` does; panics with the
/// report if the run fails or gives up.
#[track_caller]
fn run_in_order<G, O>(
    settings: &Resolved,
    g: &G,
    property: &impl Fn(&G::Output) -> O,
    keep: &dyn Keep<G::Output>,
) where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let cases = |statistics: &mut Statistics| {
        run_cases(
            settings,
            g,
            property,
            statistics,
            &mut Progress::new(settings),
        )
    };
    if let Err(report) = run(settings, g, property, keep, cases) {
        panic!("{report}");
    }
}

/// [`check_with`] for a property with a precondition, on values Choice Gradient Sampling finds
/// ([`Generator::gradient`](crate::Generator::gradient)): each case is one descent of
/// `gradient`, seeded by the case's seed at the case's size, and its value is one the
/// precondition accepts (a case that finds none is discarded). The case's choices are the
/// generator's own, so a failure shrinks as any other, to a minimal value that still
/// satisfies the precondition (candidates it rejects are discarded), and replays from its
/// line. The report ends with what gradient
/// sampling spent: descents, choices, samples, and the fitness of each labelled branch.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::check::{Config, check_by_gradient};
/// let lists = vec(range(0u8..=9), 0..=8);
/// let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(10);
/// check_by_gradient(&Config::new().cases(50), &sorted, |xs: &Vec<u8>| {
///     xs.windows(2).all(|pair| pair[0] <= pair[1])
/// });
/// ```
#[track_caller]
pub fn check_by_gradient<G, P, O>(
    config: &Config,
    gradient: &Gradient<'_, G, P>,
    property: impl Fn(&G::Output) -> O,
) where
    G: Node + Generator,
    G::Output: Clone + Debug,
    P: Fn(&G::Output) -> bool,
    O: Outcome,
{
    let running = Running::start();
    let settings = config.resolved_for(running.ordinal());
    if let Some(replay) = settings.replay.filter(|replay| replay.mutation.is_some()) {
        panic!(
            "REFLECTIVE_REPLAY={replay} names a mutation case (the part after `/`), which a run \
             of gradient sampling does not make: replay the case without that part"
        );
    }
    let g = gradient.generator();
    // The shrinker's candidates must meet the precondition too. A candidate it panics on is
    // skipped, not taken for a failure of the property; the report says so.
    let precondition_panicked = std::cell::RefCell::new(None);
    let property = |value: &G::Output| {
        match gradient.check(value) {
            Ok(accepted) => super::outcome::assume(accepted),
            Err(panicked) => {
                precondition_panicked.borrow_mut().get_or_insert(panicked);
                super::outcome::assume(false);
            }
        }
        property(value)
    };
    let keep = KeepChoices {
        settings: &settings,
        g,
    };
    let spent = std::cell::RefCell::new(GradientStats::default());
    let case = |replay: super::config::Replay| {
        let (found, stats) = match caught(|| gradient.one(replay.seed, replay.size)) {
            Ok(Ok(found)) => found,
            Ok(Err(error)) => panic!("{error} (case REFLECTIVE_REPLAY={replay})"),
            Err(panic) => generator_panicked(&panic, replay),
        };
        spent.borrow_mut().absorb(&stats);
        found
    };
    let no_value = "gradient sampling found no value the precondition accepts";
    let cases = |statistics: &mut Statistics| {
        run_cases_from(&settings, g, &property, statistics, &case, no_value).map_err(|report| {
            let spent = spent.borrow();
            if spent.valid > 0 {
                return report;
            }
            // Not one sample met the precondition: say so first, since the give-up report's
            // advice is about generators that could be narrowed.
            format!(
                "gradient sampling found no value the precondition accepts in {} samples ({} \
                 descents): it may hold for no value this generator makes at these sizes. \
                 Check it on a value it should accept, or sample more per choice \
                 (`Gradient::samples`) or per descent (`Gradient::max_descent_samples`).\n\n\
                 {report}",
                spent.samples, spent.descents
            )
        })
    };
    if let Err(report) = run(&settings, g, &property, &keep, cases) {
        let skipped = match precondition_panicked.borrow().as_ref() {
            Some(panicked) => format!(
                "\n\nWhile shrinking, {panicked}: that candidate was skipped, as one the \
                 precondition rejects."
            ),
            None => String::new(),
        };
        panic!("{report}{skipped}\n\n{}", spent.borrow());
    }
    if settings.statistics {
        println!("{}", spent.borrow());
    }
}

/// [`check_with`], returning the report instead of panicking: for running a property outside a
/// test (a program, a script, a fuzzing harness), as proptest's `TestRunner::run`. Every way
/// the run can end badly (a failing case, a run that gave up, coverage not met, a generator that
/// panics, a setting in the environment that cannot be read) is an `Err` with its report;
/// nothing is printed but statistics asked for. Unlike `check_with`, it keeps no regressions
/// file unless the config turns it on (`Config::regressions(true)`), since a failure it reports
/// is often expected: every check in a test shares the test's file.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::check::{Config, try_check_with};
/// let config = Config::new().seed(3).regressions(false);
/// let failed = try_check_with(&config, &range(0u32..=1000), |&n: &u32| n < 500).unwrap_err();
/// assert!(failed.report().contains("minimal counterexample:\n    500"));
/// # // In a doctest, the replay line runs the package's doctests, not every test.
/// # assert!(failed.report().contains(" cargo test -p reflective --doc"), "{}", failed.report());
/// assert!(try_check_with(&config, &range(0u32..=1000), |&n: &u32| n <= 1000).is_ok());
/// ```
#[track_caller]
pub fn try_check_with<G, O>(
    config: &Config,
    g: &G,
    property: impl Fn(&G::Output) -> O,
) -> Result<(), CheckFailed>
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    // The closure below is not the caller the check should see: it is passed on.
    let config = (config.clone().regressions_unless_set(false))
        .called_from(std::panic::Location::caller().file());
    caught(|| check_with(&config, g, property)).map_err(|report| CheckFailed { report })
}

/// [`check_by_gradient`], returning the report instead of panicking, as [`try_check_with`]
/// does for [`check_with`]: a failing case, a run that gave up (a precondition no sample
/// meets), a panicking precondition or generator are each an `Err` with its report.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::check::{Config, try_check_by_gradient};
/// let lists = vec(range(0u8..=9), 0..=8);
/// let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(10);
/// let config = Config::new().cases(50).seed(1);
/// assert!(try_check_by_gradient(&config, &sorted, |xs: &Vec<u8>| xs.is_sorted()).is_ok());
/// let failed = try_check_by_gradient(&config, &sorted, |xs: &Vec<u8>| xs.len() < 3);
/// assert!(failed.unwrap_err().report().contains("minimal counterexample"));
/// ```
#[track_caller]
pub fn try_check_by_gradient<G, P, O>(
    config: &Config,
    gradient: &Gradient<'_, G, P>,
    property: impl Fn(&G::Output) -> O,
) -> Result<(), CheckFailed>
where
    G: Node + Generator,
    G::Output: Clone + Debug,
    P: Fn(&G::Output) -> bool,
    O: Outcome,
{
    // The closure below is not the caller the check should see: it is passed on.
    let config = (config.clone().regressions_unless_set(false))
        .called_from(std::panic::Location::caller().file());
    caught(|| check_by_gradient(&config, gradient, property))
        .map_err(|report| CheckFailed { report })
}

/// A run that [`try_check_with`] or [`try_check_by_gradient`] reports as failed: its report,
/// as `check_with` would panic with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckFailed {
    report: String,
}

impl CheckFailed {
    /// The report: the minimal counterexample, the seed and how to replay it, or why the run
    /// gave up.
    pub fn report(&self) -> &str {
        &self.report
    }
}

impl fmt::Display for CheckFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.report)
    }
}

impl std::error::Error for CheckFailed {}

/// [`check_with`](super::check_with) on all cores: the cases are spread over one thread per core, and the run
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
    let running = Running::start();
    let settings = config.resolved_for(running.ordinal());
    let keep = KeepChoices {
        settings: &settings,
        g,
    };
    let cases = |statistics: &mut Statistics| {
        let mut progress = Progress::new(&settings);
        if settings.replay.is_some() {
            return run_cases(&settings, g, &property, statistics, &mut progress);
        }
        match run_cases_parallel(&settings, g, &property, statistics, &mut progress)? {
            Some(failure) => Ok(Some(failure)),
            None => run_cases(&settings, g, &property, statistics, &mut progress),
        }
    };
    if let Err(report) = run(&settings, g, &property, &keep, cases) {
        panic!("{report}");
    }
}

/// [`check_with`](super::check_with), storing failures in the regressions file as values (JSON) rather than
/// choices: a stored value is reflected to find its choices, so it runs as the same value
/// after the generator changes, as long as the generator can still produce it. Before a
/// failure is stored, the value read back from its JSON is run once more: if it does not fail
/// (JSON writes NaN as `null`, and reads `Some(None)` back as `None`), or the value cannot be
/// written as JSON, its choices are stored instead.
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
    let running = Running::start();
    let settings = config.resolved_for(running.ordinal());
    let keep = KeepValues {
        settings: &settings,
        g,
    };
    run_in_order(&settings, g, &property, &keep);
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
