//! The measurement: trials of a property under a strategy, each counting the tests to its first
//! failure and the time they took.
//!
//! A [`Judge`] sits inside the property every strategy runs: it evaluates the workload's
//! property on the case, catching panics and timing it, counts the cases that were not
//! discarded, and records the count and the time at the first failure. Everything after it
//! (the runners' shrinking) is not measured: the judge reports every later case as failing
//! without evaluating it, and the runners are given no shrink budget to speak of. A case that
//! panics, or takes longer than the time limit, counts as a failure, for every strategy alike.

use std::cell::Cell;
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use reflective::Generator;
use reflective::check::{Config, SizeSchedule, quietly, try_check_with};
use reflective::shrink::ShrinkBudget;

/// How a trial runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrialConfig {
    /// The most cases a trial runs (discarded ones not counted).
    pub budget: u32,
    /// The trial's seed.
    pub seed: u64,
    /// A case that takes longer than this counts as a failure.
    pub case_time_limit: Duration,
    /// How many discarded cases a trial accepts per case it counts, before it gives up (as
    /// QuickCheck's `maxDiscardRatio`, 10, which every strategy gets).
    pub max_discard_ratio: u32,
    /// How this library's runner sizes the cases (up to 100).
    pub sizes: SizeSchedule,
}

impl TrialConfig {
    /// `budget` cases from `seed`, a time limit of 1 s per case, a discard ratio of 10.
    pub fn new(budget: u32, seed: u64) -> Self {
        TrialConfig {
            budget,
            seed,
            case_time_limit: Duration::from_secs(1),
            max_discard_ratio: 10,
            sizes: SizeSchedule::default(),
        }
    }

    /// The most cases a trial evaluates, discarded ones included.
    pub fn max_evaluations(&self) -> u64 {
        u64::from(self.budget) * (u64::from(self.max_discard_ratio) + 1)
    }
}

/// What one trial found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trial {
    /// Whether a case failed.
    pub found: bool,
    /// The cases counted (not discarded) up to and including the first failure; all of them if
    /// none failed.
    pub tests: u64,
    /// The cases discarded up to the first failure (or the end).
    pub discards: u64,
    /// The time from the trial's start to its first failure (or to its end).
    pub time: Duration,
}

/// What the judge made of one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The property held.
    Held,
    /// The precondition failed: the case does not count.
    Discarded,
    /// The property failed, panicked or took too long (or an earlier case failed).
    Failed,
}

/// Counts a trial's cases and records its first failure.
#[derive(Debug)]
pub struct Judge {
    started: Instant,
    limit: Duration,
    tests: Cell<u64>,
    discards: Cell<u64>,
    failure: Cell<Option<(u64, Duration)>>,
}

impl Judge {
    /// A judge for a trial starting now, failing cases that take longer than `limit`.
    pub fn start(limit: Duration) -> Self {
        Judge {
            started: Instant::now(),
            limit,
            tests: Cell::new(0),
            discards: Cell::new(0),
            failure: Cell::new(None),
        }
    }

    /// Evaluates `property` on `input`: held, discarded (`None`), or failed (`false`, a panic,
    /// or over the time limit). After the first failure every case fails without being
    /// evaluated, so that the runner's shrinking costs little and changes nothing.
    pub fn judge<I: ?Sized>(&self, property: &dyn Fn(&I) -> Option<bool>, input: &I) -> Verdict {
        if self.found() {
            return Verdict::Failed;
        }
        let began = Instant::now();
        let result = quietly(|| panic::catch_unwind(AssertUnwindSafe(|| property(input))));
        let in_time = began.elapsed() <= self.limit;
        match result {
            Ok(None) if in_time => {
                self.discards.set(self.discards.get() + 1);
                Verdict::Discarded
            }
            Ok(Some(true)) if in_time => {
                self.tests.set(self.tests.get() + 1);
                Verdict::Held
            }
            _ => {
                let tests = self.tests.get() + 1;
                self.tests.set(tests);
                self.failure.set(Some((tests, self.started.elapsed())));
                Verdict::Failed
            }
        }
    }

    /// Whether a case has failed.
    pub fn found(&self) -> bool {
        self.failure.get().is_some()
    }

    /// The cases counted so far (not discarded).
    pub fn tests(&self) -> u64 {
        self.tests.get()
    }

    /// The cases evaluated so far, discarded ones included.
    pub fn evaluations(&self) -> u64 {
        self.tests.get() + self.discards.get()
    }

    /// The trial's result: at the first failure, or now if none.
    pub fn finish(&self) -> Trial {
        match self.failure.get() {
            Some((tests, time)) => Trial {
                found: true,
                tests,
                discards: self.discards.get(),
                time,
            },
            None => Trial {
                found: false,
                tests: self.tests.get(),
                discards: self.discards.get(),
                time: self.started.elapsed(),
            },
        }
    }
}

/// One trial with this library's runner: `check::try_check_with` with `config.budget` cases,
/// the trial's seed, no regressions file, the discard ratio, a shrink budget of one
/// evaluation, sizes as the trial's schedule says, and `mutation_percent` of the cases
/// mutation cases (`Config::mutation_percent`; 0 for none), or with `None` the runner's
/// default (mutation once the property discards half of the cases: `Mutation::WhenDiscarding`).
/// A discarded case returns `None` (see
/// `reflective::check::Outcome`), as proptest's runner is told by a returned rejection.
pub fn reflective_trial<G>(
    g: &G,
    property: &dyn Fn(&G::Output) -> Option<bool>,
    config: &TrialConfig,
    mutation_percent: Option<u8>,
) -> Trial
where
    G: Generator + Clone,
    G::Output: Clone + Debug,
{
    let judge = Judge::start(config.case_time_limit);
    let mut runner = Config::new()
        .cases(config.budget)
        .seed(config.seed)
        .regressions(false)
        .max_discard_ratio(config.max_discard_ratio)
        .size_schedule(config.sizes)
        .shrink_budget(ShrinkBudget::default().max_evaluations(1));
    if let Some(percent) = mutation_percent {
        runner = runner.mutation_percent(percent);
    }
    let property = |input: &G::Output| match judge.judge(property, input) {
        Verdict::Held => Some(true),
        Verdict::Discarded => None,
        Verdict::Failed => Some(false),
    };
    // The run fails exactly when the judge has seen a failure, or gives up on discards; the
    // judge has what the trial needs either way.
    let _ = try_check_with(&runner, g, property);
    judge.finish()
}

/// A property of a workload under one mutant: the inputs it reads are all of `I`.
pub type Property<I> = Box<dyn Fn(&I) -> Option<bool>>;

/// A mutant and a property of a workload, ready to run.
pub struct Pair<I> {
    /// The mutant's name.
    pub mutant: &'static str,
    /// The property's name.
    pub property: &'static str,
    /// The property under the mutant.
    pub check: Property<I>,
}

impl<I> Debug for Pair<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pair({}, {})", self.mutant, self.property)
    }
}

/// Runs one trial of a property with a strategy's generator and runner.
pub type Runner<I> = Box<dyn Fn(&dyn Fn(&I) -> Option<bool>, &TrialConfig) -> Trial>;

/// A way of testing: a generator of inputs and the runner that drives it.
pub struct Strategy<I> {
    /// A short name for the tables.
    pub name: &'static str,
    /// What it generates, for the output.
    pub what: String,
    /// Runs a trial.
    pub run: Runner<I>,
}

impl<I> Debug for Strategy<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Strategy({})", self.name)
    }
}

/// A strategy that runs `g` through this library's runner ([`reflective_trial`]) with its
/// default settings.
pub fn reflective_strategy<G>(name: &'static str, what: &str, g: G) -> Strategy<G::Output>
where
    G: Generator + Clone + 'static,
    G::Output: Clone + Debug,
{
    reflective_strategy_with(name, what, g, None)
}

/// A strategy that runs `g` through this library's runner with `mutation_percent` of the cases
/// (after the first block) mutants of earlier cases that held, or the runner's default with
/// `None` ([`reflective_trial`]).
pub fn reflective_strategy_with<G>(
    name: &'static str,
    what: &str,
    g: G,
    mutation_percent: Option<u8>,
) -> Strategy<G::Output>
where
    G: Generator + Clone + 'static,
    G::Output: Clone + Debug,
{
    Strategy {
        name,
        what: what.to_string(),
        run: Box::new(move |property, config| {
            reflective_trial(&g, property, config, mutation_percent)
        }),
    }
}

/// The seed of trial `trial` of a run seeded with `seed`.
pub fn trial_seed(seed: u64, trial: u32) -> u64 {
    seed.wrapping_add(u64::from(trial).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// `trials` trials of `pair` with `strategy`, each as `config` says but seeded with
/// [`trial_seed`]`(config.seed, i)`.
pub fn run_trials<I>(
    pair: &Pair<I>,
    strategy: &Strategy<I>,
    trials: u32,
    config: &TrialConfig,
) -> Vec<Trial> {
    (0..trials)
        .map(|trial| {
            let config = TrialConfig {
                seed: trial_seed(config.seed, trial),
                ..*config
            };
            (strategy.run)(&*pair.check, &config)
        })
        .collect()
}

/// Runs `f` on a thread with a stack of `mib` MiB, for workloads whose recursion on large terms
/// would overflow the main thread's.
///
/// # Panics
///
/// If the thread cannot be spawned, or `f` panics.
pub fn with_stack<R: Send + 'static>(mib: usize, f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(mib << 20)
        .spawn(f)
        .expect("spawn the harness thread")
        .join()
        .unwrap_or_else(|payload| panic::resume_unwind(payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judge_counts_until_the_first_failure_and_stops_evaluating() {
        let judge = Judge::start(Duration::from_secs(1));
        let property = |n: &i32| (*n >= 0).then_some(*n < 3);
        let verdicts: Vec<Verdict> = [0, -1, 1, 2, 3, 4, -5]
            .iter()
            .map(|n| judge.judge(&property, n))
            .collect();
        use Verdict::*;
        assert_eq!(
            verdicts,
            [Held, Discarded, Held, Held, Failed, Failed, Failed]
        );
        let trial = judge.finish();
        assert!(trial.found);
        assert_eq!((trial.tests, trial.discards), (4, 1));
        assert_eq!(judge.evaluations(), 5);
    }

    #[test]
    fn a_panic_or_a_slow_case_is_a_failure() {
        let judge = Judge::start(Duration::from_secs(1));
        let panics = |_: &()| -> Option<bool> { panic!("boom") };
        assert_eq!(judge.judge(&panics, &()), Verdict::Failed);
        assert_eq!(judge.finish().tests, 1);

        let judge = Judge::start(Duration::from_millis(1));
        let slow = |_: &()| {
            std::thread::sleep(Duration::from_millis(20));
            None
        };
        assert_eq!(judge.judge(&slow, &()), Verdict::Failed);
        assert!(judge.finish().found);
    }

    #[test]
    fn a_reflective_trial_counts_cases_not_discards() {
        let g = reflective::range(0u32..=99);
        let config = TrialConfig::new(200, 5);
        let even = |n: &u32| n.is_multiple_of(2).then_some(true);
        let trial = reflective_trial(&g, &even, &config, None);
        assert!(!trial.found);
        assert_eq!(trial.tests, 200);
        assert!(trial.discards > 100, "{trial:?}");
        let small = |n: &u32| Some(*n < 90);
        let trial = reflective_trial(&g, &small, &config, None);
        assert!(trial.found && trial.tests <= 200, "{trial:?}");
    }

    #[test]
    fn a_trial_sizes_its_cases_as_its_schedule_says() {
        let g = reflective::sized(reflective::exact).boxed();
        let sizes = std::cell::RefCell::new(Vec::new());
        let record = |size: &usize| {
            sizes.borrow_mut().push(*size);
            Some(true)
        };
        for schedule in SizeSchedule::ALL {
            sizes.borrow_mut().clear();
            let config = TrialConfig {
                sizes: schedule,
                ..TrialConfig::new(300, 1)
            };
            reflective_trial(&g, &record, &config, None);
            let expected: Vec<usize> = (0..300).map(|i| schedule.size(i, 300, 100)).collect();
            assert_eq!(*sizes.borrow(), expected, "{schedule}");
        }
    }
}
