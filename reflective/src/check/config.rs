//! Configuration: [`Config`] from code, then the environment, then the defaults, resolved to
//! the settings of one run.

use std::fmt::{self, Debug};
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use crate::engine::{LARGEST_SIZE, Strategy};
use crate::interpret::DEFAULT_SIZE;
use crate::interpret::shrink::ShrinkBudget;

use super::schedule::SizeSchedule;

/// The number of cases a property runs unless told otherwise.
pub const DEFAULT_CASES: u32 = 100;

/// How many discarded cases a run accepts per case it runs, unless told otherwise: as
/// QuickCheck's `maxDiscardRatio`, 10 (a run of 100 cases gives up after 1000 discards), and
/// the most values a filter may reject per value it keeps.
pub const DEFAULT_MAX_DISCARD_RATIO: u32 = 10;

/// How [`check_with`](super::check_with) runs a property. Each setting left unset in code comes from its
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
    size_schedule: Option<SizeSchedule>,
    strategy: Option<Strategy>,
    shrink_evaluations: Option<usize>,
    shrink_time: Option<Duration>,
    replay: Option<Replay>,
    regressions: Option<bool>,
    statistics: Option<bool>,
    check_coverage: Option<bool>,
    case_time_limit: Option<Duration>,
    max_discard_ratio: Option<u32>,
    mutation: Option<Mutation>,
    /// The source file the check was called from, where a function between the user's call
    /// and the check's start cannot pass the caller on (see [`Resolved::called_from`]).
    called_from: Option<&'static str>,
}

/// Which of a run's cases are mutants of earlier cases (see [mutation
/// cases](super#mutation-cases)).
///
/// ```
/// use reflective::check::{Config, Mutation};
/// let settings = Config::new().resolved_from(|_| None).unwrap();
/// assert_eq!(settings.mutation, Mutation::WhenDiscarding);
/// let settings = Config::new().mutation_percent(30).resolved_from(|_| None).unwrap();
/// assert_eq!(settings.mutation, Mutation::Percent(30));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mutation {
    /// This percentage of the cases after the first block (0: none, every case generated
    /// afresh).
    Percent(u8),
    /// The default: none until, at the end of a block, the property has discarded at least
    /// half of the cases so far (a precondition that few values meet); from then on the
    /// run's cases record their choices, and [`Mutation::WHEN_DISCARDING_PERCENT`] of the
    /// cases of each later block are mutants.
    #[default]
    WhenDiscarding,
}

impl Mutation {
    /// The share of mutants, in percent, of a run that mutates because its property discards.
    pub const WHEN_DISCARDING_PERCENT: u8 = 25;
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mutation::Percent(percent) => write!(f, "{percent}"),
            Mutation::WhenDiscarding => f.write_str("auto"),
        }
    }
}

impl std::str::FromStr for Mutation {
    type Err = String;

    /// A percentage from 0 to 100, or `auto` in any case ([`Mutation::WhenDiscarding`]), as
    /// `REFLECTIVE_MUTATION_PERCENT` reads it.
    ///
    /// ```
    /// use reflective::check::Mutation;
    /// assert_eq!("AUTO".parse(), Ok(Mutation::WhenDiscarding));
    /// assert_eq!(" 40 ".parse(), Ok(Mutation::Percent(40)));
    /// assert!("101".parse::<Mutation>().unwrap_err().contains("from 0 to 100"));
    /// ```
    fn from_str(text: &str) -> Result<Mutation, String> {
        if text.trim().eq_ignore_ascii_case("auto") {
            return Ok(Mutation::WhenDiscarding);
        }
        text.trim()
            .parse::<u8>()
            .ok()
            .filter(|&percent| percent <= 100)
            .map(Mutation::Percent)
            .ok_or_else(|| format!("expected a percentage from 0 to 100 or `auto`, found `{text}`"))
    }
}

/// One case to run alone: the seed of its randomness and its size, and for a mutant (see
/// [`Config::mutation_percent`]) the seed of the edits made to that case, as a failure report
/// prints them (`REFLECTIVE_REPLAY=<seed>:<size>` or `<seed>:<size>/<edit seed>`).
///
/// ```
/// use reflective::check::Replay;
/// let replay: Replay = "0x2a:7".parse().unwrap();
/// assert_eq!(replay, Replay::new(42, 7));
/// let mutant: Replay = "0x2a:7/0x5".parse().unwrap();
/// assert_eq!(mutant, Replay { mutation: Some(5), ..Replay::new(42, 7) });
/// assert_eq!(mutant.to_string(), "0x2a:7/0x5");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The case's seed.
    pub seed: u64,
    /// The case's size.
    pub size: usize,
    /// For a mutant, the seed of the edits made to the case `seed:size`.
    pub mutation: Option<u64>,
}

impl Replay {
    /// The case generated from `seed` at `size`.
    pub fn new(seed: u64, size: usize) -> Self {
        Replay {
            seed,
            size,
            mutation: None,
        }
    }
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}:{}", self.seed, self.size)?;
        if let Some(mutation) = self.mutation {
            write!(f, "/{mutation:#x}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Replay {
    type Err = String;

    /// Reads `<seed>:<size>`, or `<seed>:<size>/<edit seed>` for a mutant, the seeds in
    /// decimal or `0x` hexadecimal.
    fn from_str(text: &str) -> Result<Self, String> {
        let (case, mutation) = match text.split_once('/') {
            Some((case, mutation)) => {
                let seed = parse_seed(mutation)
                    .map_err(|error| format!("after `/`, the edits' seed: {error}"))?;
                (case, Some(seed))
            }
            None => (text, None),
        };
        let (seed, size) = case
            .split_once(':')
            .ok_or_else(|| format!("expected `<seed>:<size>`, found `{text}`"))?;
        Ok(Replay {
            seed: parse_seed(seed)?,
            size: self::size(size.trim())
                .map_err(|error| format!("after `:`, the case's size: {error}"))?,
            mutation,
        })
    }
}

/// The settings of a run, every one decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// How many cases: values the property held on (or failed), not those it discarded.
    pub cases: u32,
    /// The run's seed.
    pub seed: u64,
    /// The largest size a case runs at.
    pub max_size: usize,
    /// How the cases' sizes go up to `max_size`.
    pub size_schedule: SizeSchedule,
    /// The size strategy, if one is set (else the generator's own).
    pub strategy: Option<Strategy>,
    /// The shrink's budget.
    pub shrink: ShrinkBudget,
    /// The single case to run instead of the run, if one is set.
    pub replay: Option<Replay>,
    /// Which check of its test this run is, from 1, where `check` and its kin started it
    /// (`None` for a check inside another's property, and from [`Config::resolved`]): a test
    /// may run several checks, and a replay line names the one that failed where it is not
    /// the first, since `REFLECTIVE_REPLAY` replays its case in the check that
    /// `REFLECTIVE_REPLAY_CHECK` names (every check of the test without it).
    pub check: Option<u32>,
    /// Whether failures are stored in, and replayed first from, the regressions file.
    pub regressions: bool,
    /// Whether a run that passes prints its statistics.
    pub statistics: bool,
    /// Whether coverage is checked statistically, running more cases until it is decided.
    pub check_coverage: bool,
    /// The longest a case may take; one that takes longer fails.
    pub case_time_limit: Option<Duration>,
    /// How many discarded cases the run accepts per case, and filtered values per value kept,
    /// before it gives up.
    pub max_discard_ratio: u32,
    /// Whether the run is on CI (the `CI` variable is set), whose profile is stricter: 10
    /// times the cases and coverage checked statistically, unless set otherwise.
    pub ci: bool,
    /// Which cases are mutants of interesting earlier cases.
    pub mutation: Mutation,
    /// The source file `check` or its kin was called from (as `file!()` writes it), where
    /// they started the run: a test binary does not say whether it holds a library's unit
    /// tests or a binary's, and a binary's own source file does (see the module
    /// `regressions`).
    pub called_from: Option<&'static str>,
}

impl Config {
    /// Nothing set in code: every setting from the environment or its default.
    pub fn new() -> Self {
        Config::default()
    }

    /// Runs `cases` cases (default [`DEFAULT_CASES`](super::DEFAULT_CASES), ten times as many on CI;
    /// `REFLECTIVE_CASES`). With 0, only the cases stored in the [regressions
    /// file](crate::regressions) run: a run that checks that they pass now, and passes
    /// whatever the property is if there are none.
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

    /// Runs cases at sizes up to `max_size` (default [`DEFAULT_SIZE`]; `REFLECTIVE_MAX_SIZE`).
    ///
    /// # Panics
    ///
    /// If `max_size` is above [`MAX_ENV_SIZE`], the largest size a printed replay line may
    /// carry: every case must replay from its line.
    #[track_caller]
    pub fn max_size(self, max_size: usize) -> Self {
        assert!(
            max_size <= MAX_ENV_SIZE,
            "max_size: at most {MAX_ENV_SIZE}, the largest size a case's replay line \
             (`REFLECTIVE_REPLAY`) or `REFLECTIVE_MAX_SIZE` may carry; got {max_size}"
        );
        Config {
            max_size: Some(max_size),
            ..self
        }
    }

    /// Gives the cases their sizes as `schedule` says (default [`SizeSchedule::Cycle`],
    /// QuickCheck's: 0, 1, ..., `max_size`, 0, ...; `REFLECTIVE_SIZE_SCHEDULE`, a schedule's
    /// [name](SizeSchedule::name)).
    pub fn size_schedule(self, schedule: SizeSchedule) -> Self {
        Config {
            size_schedule: Some(schedule),
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

    /// Shrinks with at most `evaluations` evaluations of the property on candidates (default
    /// [`DEFAULT_MAX_EVALUATIONS`](crate::shrink::DEFAULT_MAX_EVALUATIONS);
    /// `REFLECTIVE_SHRINK_EVALUATIONS`); the time budget as set elsewhere.
    ///
    /// ```
    /// # use reflective::check::Config;
    /// let quick = Config::new().shrink_evaluations(200);
    /// ```
    pub fn shrink_evaluations(self, evaluations: usize) -> Self {
        Config {
            shrink_evaluations: Some(evaluations),
            ..self
        }
    }

    /// Shrinks for at most `time` (default
    /// [`DEFAULT_MAX_TIME`](crate::shrink::DEFAULT_MAX_TIME); `REFLECTIVE_SHRINK_SECONDS`);
    /// the evaluation budget as set elsewhere.
    pub fn shrink_time(self, time: Duration) -> Self {
        Config {
            shrink_time: Some(time),
            ..self
        }
    }

    /// Runs only the case `replay`, as a failure report prints it (`REFLECTIVE_REPLAY`).
    ///
    /// # Panics
    ///
    /// If its size is above [`MAX_ENV_SIZE`], as [`max_size`](Self::max_size): no case runs
    /// at such a size, and the line could not be given back as `REFLECTIVE_REPLAY`.
    #[track_caller]
    pub fn replay(self, replay: Replay) -> Self {
        assert!(
            replay.size <= MAX_ENV_SIZE,
            "replay: a size of at most {MAX_ENV_SIZE}, the largest a case runs at; got {}",
            replay.size
        );
        Config {
            replay: Some(replay),
            ..self
        }
    }

    /// Stores failures in the test's regressions file and replays its cases first, or not
    /// (default: yes; `REFLECTIVE_REGRESSIONS=off`, `false` or `0` turns it off). See the
    /// [regressions file](crate::regressions).
    pub fn regressions(self, on: bool) -> Self {
        Config {
            regressions: Some(on),
            ..self
        }
    }

    /// The same config with the regressions file on or off as `on` says, unless code set it.
    pub(super) fn regressions_unless_set(self, on: bool) -> Self {
        Config {
            regressions: self.regressions.or(Some(on)),
            ..self
        }
    }

    /// The same config, called from `file` (see [`Resolved::called_from`]).
    pub(super) fn called_from(self, file: &'static str) -> Self {
        Config {
            called_from: Some(file),
            ..self
        }
    }

    /// Prints the [statistics](crate::statistics) of a run that passes (default: no;
    /// `REFLECTIVE_STATISTICS=on`) to the test's output (`cargo test -- --nocapture` shows
    /// it). A failure report has them anyway.
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
    /// property returns. A case the property discards (with `assume` or by returning `None`)
    /// is discarded, however long it took. A limit of 0 is no limit, as proptest's `timeout`
    /// of 0 is. A case that never returns cannot fail: it is reported on stderr once it is
    /// past the limit (past 10 s without one, or with 0), with the line that runs it alone
    /// (see the [module](super)).
    pub fn case_time_limit(self, limit: Duration) -> Self {
        Config {
            case_time_limit: Some(limit),
            ..self
        }
    }

    /// Gives up, failing, when the property discards more than `ratio` times the cases (with
    /// [`assume`](fn@crate::assume)), or the generator's filters reject more than `ratio` values
    /// per value they keep (default [`DEFAULT_MAX_DISCARD_RATIO`], 10;
    /// `REFLECTIVE_MAX_DISCARD_RATIO`).
    pub fn max_discard_ratio(self, ratio: u32) -> Self {
        Config {
            max_discard_ratio: Some(ratio),
            ..self
        }
    }

    /// Spends `percent` of the cases (at most 100) on mutants of earlier cases that held and
    /// whose choices reached labels, or label counts, no earlier case had
    /// (`REFLECTIVE_MUTATION_PERCENT`; 0 for none). A mutant is one to four edits of that
    /// case's choices, so it is a value the generator produces, near one that reached
    /// somewhere new; its replay line names the case and the edits' seed (see [mutation
    /// cases](super#mutation-cases)). By default ([`Mutation::WhenDiscarding`]) a run mutates
    /// only once its property has discarded half of its cases, where mutants of the few
    /// cases that meet the precondition pay; where fresh cases are as good, mutants cost
    /// time for nothing (each one regenerates its parent), and the cases record their
    /// choices to find their labels, which makes each case slower.
    ///
    /// # Panics
    ///
    /// If `percent` is above 100.
    #[track_caller]
    pub fn mutation_percent(self, percent: u8) -> Self {
        self.mutation(Mutation::Percent(percent))
    }

    /// Decides which cases are mutants as `mutation` says (default
    /// [`Mutation::WhenDiscarding`]; `REFLECTIVE_MUTATION_PERCENT`, a percentage or `auto`):
    /// code that sets it wins over the environment, as every setting does.
    ///
    /// # Panics
    ///
    /// If it is a [`Mutation::Percent`] above 100.
    #[track_caller]
    pub fn mutation(self, mutation: Mutation) -> Self {
        if let Mutation::Percent(percent) = mutation {
            assert!(
                percent <= 100,
                "mutation: a percentage from 0 to 100, got {percent}"
            );
        }
        Config {
            mutation: Some(mutation),
            ..self
        }
    }

    /// Every setting decided: from code, else from the environment, else the default.
    ///
    /// # Panics
    ///
    /// If an environment variable is set to something it cannot read, with a message that
    /// names it.
    /// The panic points at the caller (through `check` and its kin, at the test's line).
    #[track_caller]
    pub fn resolved(&self) -> Resolved {
        match self.resolved_from(|name| std::env::var_os(name).map(readable)) {
            Ok(resolved) => resolved,
            Err(error) => unreadable(&error),
        }
    }

    /// [`resolved`](Self::resolved) for the check numbered `check` of its test (`None`
    /// inside another check's property; see the module `ordinal`): a replay from the environment
    /// is the check's if `REFLECTIVE_REPLAY_CHECK` names it (or names none), and never that of
    /// a check inside another's property; one set in code always is.
    #[track_caller]
    pub(super) fn resolved_for(&self, check: Option<u32>) -> Resolved {
        let env = |name: &str| std::env::var_os(name).map(readable);
        match self.resolved_for_from(check, env) {
            Ok(resolved) => Resolved {
                // The test's line: `check` and its kin track their caller down to here, or
                // set it where they cannot.
                called_from: self
                    .called_from
                    .or(Some(std::panic::Location::caller().file())),
                ..resolved
            },
            Err(error) => unreadable(&error),
        }
    }

    /// [`resolved_for`](Self::resolved_for) the check numbered `check`, reading the
    /// environment through `env`.
    fn resolved_for_from(
        &self,
        check: Option<u32>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Resolved, String> {
        let mut resolved = self.resolved_from(&env)?;
        resolved.check = check;
        if self.replay.is_none() && resolved.replay.is_some() {
            let wanted = env("REFLECTIVE_REPLAY_CHECK")
                .map(|text| replay_check(text.trim()))
                .transpose()
                .map_err(|error| format!("REFLECTIVE_REPLAY_CHECK: {error}"))?;
            let ours = match (check, wanted) {
                (None, _) => false,
                (Some(check), Some(wanted)) => check == wanted,
                (Some(_), None) => true,
            };
            if !ours {
                resolved.replay = None;
            }
        }
        Ok(resolved)
    }

    /// [`resolved`](Self::resolved), reading the environment through `env`: an error names
    /// the variable that cannot be read. A setting made in code wins over the environment's,
    /// but every variable is read all the same, so that a bad value is an error whether or
    /// not the code sets that setting (a test whose attribute sets `cases` and a run with
    /// `REFLECTIVE_CASES=abc` is one).
    ///
    /// ```
    /// use reflective::check::Config;
    /// let env = |name: &str| (name == "REFLECTIVE_CASES").then(|| "20".to_string());
    /// assert_eq!(Config::new().resolved_from(env).unwrap().cases, 20);
    /// assert_eq!(Config::new().cases(5).resolved_from(env).unwrap().cases, 5);
    /// let bad = |name: &str| (name == "REFLECTIVE_CASES").then(|| "abc".to_string());
    /// assert!(Config::new().cases(5).resolved_from(bad).unwrap_err().contains("REFLECTIVE_CASES"));
    /// ```
    pub fn resolved_from(&self, env: impl Fn(&str) -> Option<String>) -> Result<Resolved, String> {
        // Every variable, read as if the code set nothing.
        Config::new().resolve_from(&env)?;
        self.resolve_from(&env)
    }

    /// [`resolved_from`](Self::resolved_from), reading only the variables of the settings the
    /// code leaves unset.
    fn resolve_from(&self, env: impl Fn(&str) -> Option<String>) -> Result<Resolved, String> {
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
        // CI systems set `CI` to `true` or to their name: anything but empty or a switch's
        // "off" word turns it on.
        let ci = env("CI")
            .is_some_and(|value| !value.trim().is_empty() && parse_switch(&value).unwrap_or(true));
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
        let size_schedule = match self.size_schedule {
            Some(schedule) => schedule,
            None => read(&env, "REFLECTIVE_SIZE_SCHEDULE", str::parse)?.unwrap_or_default(),
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
            None => read(&env, "REFLECTIVE_REPLAY", str::parse)?,
        };
        let switch = parse_switch;
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
        }
        .filter(|limit| !limit.is_zero());
        let max_discard_ratio = match self.max_discard_ratio {
            Some(ratio) => ratio,
            None => read(&env, "REFLECTIVE_MAX_DISCARD_RATIO", |text| {
                text.parse::<u32>()
                    .map_err(|_| format!("expected a whole number, found `{text}`"))
            })?
            .unwrap_or(DEFAULT_MAX_DISCARD_RATIO),
        };
        let mutation = match self.mutation {
            Some(mutation) => mutation,
            None => read(&env, "REFLECTIVE_MUTATION_PERCENT", str::parse)?.unwrap_or_default(),
        };
        Ok(Resolved {
            mutation,
            max_discard_ratio,
            regressions,
            statistics,
            check_coverage,
            case_time_limit,
            ci,
            cases,
            seed,
            max_size,
            size_schedule,
            strategy,
            shrink: ShrinkBudget { evaluations, time },
            replay,
            check: None,
            called_from: None,
        })
    }
}

/// An environment variable's value as text: one that is not UTF-8 with its bad bytes
/// replaced, so that it is refused with the variable's name rather than ignored.
fn readable(value: std::ffi::OsString) -> String {
    value.to_string_lossy().into_owned()
}

/// Panics with the message of a setting in the environment that cannot be read.
#[track_caller]
fn unreadable(error: &str) -> ! {
    panic!(
        "reflective: a setting in the environment cannot be read: {error}; set it to one of the \
         values named, or unset it"
    )
}

/// Which check of its test replays a case (`REFLECTIVE_REPLAY_CHECK`): a number from 1.
fn replay_check(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&check| check >= 1)
        .ok_or_else(|| {
            format!("expected which check of the test replays the case, from 1, found `{text}`")
        })
}

/// The largest size a run may use (2^20), set in code ([`Config::max_size`]) or by the
/// environment: a larger one would ask generators for more memory than a test has (a list as
/// long as the size), and every case the runner prints must replay from its line.
pub const MAX_ENV_SIZE: usize = LARGEST_SIZE;

/// A size up to [`MAX_ENV_SIZE`].
pub(super) fn size(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&size| size <= MAX_ENV_SIZE)
        .ok_or_else(|| format!("expected a size up to {MAX_ENV_SIZE}, found `{text}`"))
}

/// The words a switch reads, on and off alike in the environment and the test attribute.
pub const SWITCH_WORDS: [(&str, bool); 6] = [
    ("true", true),
    ("false", false),
    ("on", true),
    ("off", false),
    ("1", true),
    ("0", false),
];

/// A switch: `true`/`false`, `on`/`off` or `1`/`0`, in any case.
///
/// ```
/// use reflective::check::parse_switch;
/// assert_eq!(parse_switch("off"), Ok(false));
/// assert_eq!(parse_switch("TRUE"), Ok(true));
/// assert!(parse_switch("maybe").unwrap_err().contains("`true`, `false`"));
/// ```
pub fn parse_switch(text: &str) -> Result<bool, String> {
    let word = text.trim().to_ascii_lowercase();
    SWITCH_WORDS
        .iter()
        .find(|(name, _)| *name == word)
        .map(|&(_, on)| on)
        .ok_or_else(|| {
            format!(
                "expected `true`, `false`, `on`, `off`, `1` or `0`, found `{}`",
                text.trim()
            )
        })
}

/// A seed in decimal or `0x` (or `0X`) hexadecimal.
pub(super) fn parse_seed(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("expected a seed (decimal or 0x hexadecimal), found `{text}`"))
}

/// A strategy by its name, in any case.
pub(super) fn parse_strategy(text: &str) -> Result<Strategy, String> {
    let text = text.trim();
    Strategy::ALL
        .into_iter()
        .find(|strategy| strategy.name().eq_ignore_ascii_case(text))
        .ok_or_else(|| {
            let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
            format!("expected one of {}, found `{text}`", names.join(", "))
        })
}

/// A seed that differs from run to run: the standard library's per-process hash keys.
pub(super) fn fresh_seed() -> u64 {
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

/// The name of the test running on this thread, as the test harness names its threads; `None`
/// on the main thread (a program, a doctest).
pub(super) fn test_name() -> Option<String> {
    std::thread::current()
        .name()
        .filter(|name| *name != "main")
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names read from the environment are read in any case, with spaces around them, as
    /// switches are; a name that is none of them is an error that lists them.
    #[test]
    fn names_in_the_environment_are_read_in_any_case() {
        assert_eq!(parse_strategy(" Fixed "), Ok(Strategy::Fixed));
        assert_eq!(parse_strategy("QUADRATIC"), Ok(Strategy::Quadratic));
        assert!(
            parse_strategy("cubic")
                .unwrap_err()
                .contains("linear, quadratic")
        );
        assert_eq!("Ramp".parse(), Ok(SizeSchedule::Ramp));
        assert_eq!("Auto".parse(), Ok(Mutation::WhenDiscarding));
    }

    /// A replay from the environment is the check's that `REFLECTIVE_REPLAY_CHECK` names (or
    /// every check's without it), never a check's inside another; one set in code is always
    /// the check's; a number that cannot be read is an error that names the variable.
    #[test]
    fn a_replay_from_the_environment_is_the_named_checks() {
        let env = |check: Option<&'static str>| {
            move |name: &str| match name {
                "REFLECTIVE_REPLAY" => Some("0x2a:7".to_string()),
                "REFLECTIVE_REPLAY_CHECK" => check.map(str::to_string),
                _ => None,
            }
        };
        let replays = |config: &Config, check: Option<u32>, named: Option<&'static str>| {
            config
                .resolved_for_from(check, env(named))
                .map(|resolved| resolved.replay.is_some())
        };
        let config = Config::new();
        assert_eq!(replays(&config, Some(1), None), Ok(true));
        assert_eq!(replays(&config, Some(3), None), Ok(true));
        assert_eq!(replays(&config, None, None), Ok(false));
        assert_eq!(replays(&config, Some(2), Some("2")), Ok(true));
        assert_eq!(replays(&config, Some(1), Some("2")), Ok(false));
        assert_eq!(replays(&config, None, Some("2")), Ok(false));
        let in_code = Config::new().replay(Replay::new(5, 1));
        assert_eq!(replays(&in_code, Some(1), Some("2")), Ok(true));
        assert_eq!(replays(&in_code, None, None), Ok(true));
        let error = replays(&config, Some(1), Some("0")).unwrap_err();
        assert!(
            error.starts_with("REFLECTIVE_REPLAY_CHECK: expected which check"),
            "{error}"
        );
    }

    /// A replay line that cannot be read names the part that is wrong; one whose size no case
    /// runs at is refused, in code as in the environment.
    #[test]
    fn a_replay_line_says_which_part_it_cannot_read() {
        assert_eq!(
            "0x1:5/".parse::<Replay>(),
            Err(
                "after `/`, the edits' seed: expected a seed (decimal or 0x hexadecimal), \
                 found ``"
                    .to_string()
            )
        );
        assert_eq!(
            "0x1:2000000".parse::<Replay>(),
            Err(format!(
                "after `:`, the case's size: expected a size up to {MAX_ENV_SIZE}, found \
                 `2000000`"
            ))
        );
        assert_eq!(
            "0x1:5/0x2".parse::<Replay>(),
            Ok(Replay {
                mutation: Some(2),
                ..Replay::new(1, 5)
            })
        );
        let _ = Config::new().replay(Replay::new(1, MAX_ENV_SIZE));
        let refused = crate::check::quietly(|| {
            std::panic::catch_unwind(|| Config::new().replay(Replay::new(1, MAX_ENV_SIZE + 1)))
        });
        assert!(refused.is_err());
    }

    /// A value that is not UTF-8 is refused with the variable's name, as any bad value is.
    #[cfg(unix)]
    #[test]
    fn a_value_that_is_not_utf8_is_refused_not_ignored() {
        use std::os::unix::ffi::OsStringExt;
        let bad = readable(std::ffi::OsString::from_vec(vec![b'o', b'f', 0xff]));
        let error = Config::new()
            .resolved_from(|name| (name == "REFLECTIVE_REGRESSIONS").then(|| bad.clone()))
            .unwrap_err();
        assert!(error.starts_with("REFLECTIVE_REGRESSIONS: "), "{error}");
    }

    /// A seed is decimal or hexadecimal with either case of `0x`; anything else is refused.
    #[test]
    fn seeds_read_decimal_and_both_cases_of_hexadecimal() {
        for (text, seed) in [("42", 42), ("0x2a", 42), ("0X2A", 42), (" 0x2A ", 42)] {
            assert_eq!(parse_seed(text), Ok(seed), "{text}");
        }
        for bad in ["x2a", "0x", "-1", "0x1g", "2a"] {
            assert!(parse_seed(bad).is_err(), "{bad}");
        }
    }

    /// `CI` is off when empty or a switch's "off" word, in any case; on otherwise.
    #[test]
    fn ci_reads_off_words_as_off() {
        let cases = |ci: &str| {
            let ci = ci.to_string();
            Config::new()
                .resolved_from(|name| (name == "CI").then(|| ci.clone()))
                .unwrap()
                .cases
        };
        for off in ["", "0", "false", "FALSE", "off", "Off"] {
            assert_eq!(cases(off), DEFAULT_CASES, "CI={off}");
        }
        for on in ["true", "1", "github-actions"] {
            assert_eq!(cases(on), 10 * DEFAULT_CASES, "CI={on}");
        }
    }
}
