//! The cases of a run: each from its own seed at its size, in order or spread over the cores,
//! and the shrink of the first that fails.
//!
//! A run goes on until its cases have held (discarded cases do not count), a case fails, or
//! the property discards, or the generator's filters reject, too many values: then the run
//! gives up with a health report.

use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};

use rand_core::SeedableRng;

use crate::choice::ChoiceTree;
use crate::engine::{Filtered, caught, panic_message, take_panic_location};
use crate::generator::Generator;
use crate::interpret::shrink::{ShrinkStats, Shrunk};
use crate::interpret::{DefaultRng, GenerateError, Generated, try_generate_recording};

use super::config::{Replay, Resolved};
use super::mutation::{Drawn, Parent, Pool, block_end};
use super::ordinal::Running;
use super::outcome::{Outcome, Verdict, quietly, verdict};
use super::report::{Failure, Origin, discarded_replay_report, gave_up_report};
use super::schedule::case_seed;
use super::statistics::{Coverage, Statistics};
use super::watchdog::{Doing, Watch, watched};

/// The case at `index` of the run: its seed, and its size as the run's schedule says.
pub(super) fn case_at(settings: &Resolved, index: u32) -> Replay {
    Replay::new(
        case_seed(settings.seed, index),
        settings
            .size_schedule
            .size(index, settings.cases, settings.max_size),
    )
}

/// The most cases `check_coverage` runs, as a multiple of the run's cases, before it gives up
/// on deciding.
pub(super) const MAX_COVERAGE_FACTOR: u32 = 100;

/// Where a run's cases have got: the index of the next case, and the pool of interesting cases
/// mutants start from.
#[derive(Debug)]
pub(super) struct Progress {
    next: u32,
    pool: Pool,
}

impl Progress {
    /// A run about to start its first case, mutating as `settings` say.
    pub(super) fn new(settings: &Resolved) -> Self {
        Progress {
            next: 0,
            pool: Pool::new(settings.mutation),
        }
    }
}

/// What the run does before its next case.
enum Next {
    /// Runs it.
    Run,
    /// Stops: enough cases held (and coverage is decided).
    Done,
    /// Gives up: too many values were discarded or filtered out.
    GiveUp,
}

/// What the run does next, after the cases `statistics` recorded.
fn next(settings: &Resolved, statistics: &Statistics) -> Next {
    let ratio = settings.max_discard_ratio;
    let Filtered {
        accepted, rejected, ..
    } = statistics.filters();
    let evidence = u64::from(settings.cases).saturating_mul(u64::from(ratio));
    if u64::from(statistics.discarded()) > evidence
        || (rejected > evidence && rejected > accepted.saturating_mul(u64::from(ratio)))
        || keeps_nothing(settings, statistics)
    {
        return Next::GiveUp;
    }
    let counted = statistics.counted();
    let limit = if settings.check_coverage {
        settings.cases.saturating_mul(MAX_COVERAGE_FACTOR)
    } else {
        settings.cases
    };
    if counted < settings.cases
        || (counted < limit && statistics.coverage(true) == Coverage::Unsure)
    {
        Next::Run
    } else {
        Next::Done
    }
}

/// Whether the generator's filters have kept no value in any case of the run, over as many
/// cases as take the size schedule through every size: at no size does it make one, and each
/// such case costs a filter's every attempt, so the run gives up now rather than after the
/// discards' budget.
fn keeps_nothing(settings: &Resolved, statistics: &Statistics) -> bool {
    let every_size = settings
        .size_schedule
        .cases_to_every_size(settings.cases, settings.max_size);
    statistics.made_no_value() && statistics.filtered_out() >= every_size
}

/// Runs the run's cases from `progress` (or only the one to replay), recording their
/// statistics, and shrinks the first failure. With `check_coverage`, runs more cases until the
/// coverage requirements are met or missed with confidence.
///
/// `Err` with the health report if the run gives up (see the [module](self)).
pub(super) fn run_cases<G, O>(
    settings: &Resolved,
    g: &G,
    property: &impl Fn(&G::Output) -> O,
    statistics: &mut Statistics,
    progress: &mut Progress,
) -> Result<Option<Failure<G::Output>>, String>
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let watch = Watch::this_thread();
    if let Some(replay) = settings.replay {
        let case = Case {
            replay,
            origin: Origin::Replayed(replay),
            record: false,
            parent: None,
        };
        return Ok(
            match run_case(settings, g, property, statistics, case, &watch) {
                Ended::Failed(failure) => Some(*failure),
                Ended::Held(_) => None,
                Ended::Discarded => return Err(discarded_replay_report(replay, statistics)),
            },
        );
    }
    loop {
        match next(settings, statistics) {
            Next::Run => {}
            Next::Done => return Ok(None),
            Next::GiveUp => return Err(gave_up_report(settings, statistics)),
        }
        let index = progress.next;
        progress.next += 1;
        let drawn = progress.pool.case(case_at(settings, index));
        let replay = drawn.replay;
        let case = Case {
            replay,
            origin: Origin::Case(index + 1, replay),
            record: progress.pool.records(),
            parent: drawn.parent,
        };
        match run_case(settings, g, property, statistics, case, &watch) {
            Ended::Failed(failure) => return Ok(Some(*failure)),
            Ended::Held(choices) => progress.pool.held(replay, choices),
            Ended::Discarded => {}
        }
        progress
            .pool
            .after(index, statistics, recorded(settings, g));
    }
}

/// The run's cases with values from `case` instead of random generation (gradient sampling):
/// each from the case's seed and size, as [`run_cases`] runs them; a case `case` finds no value
/// for is discarded, with `no_value` as the reason. The failure is shrunk by `g`, with the
/// choices `case` gave.
///
/// `Err` with the health report if the run gives up.
pub(super) fn run_cases_from<G, O>(
    settings: &Resolved,
    g: &G,
    property: &impl Fn(&G::Output) -> O,
    statistics: &mut Statistics,
    case: &dyn Fn(Replay) -> Option<Generated<G::Output>>,
    no_value: &str,
) -> Result<Option<Failure<G::Output>>, String>
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let run_one = |replay: Replay, origin: Origin, statistics: &mut Statistics| {
        let doing = Doing::Case(replay);
        let Some(generated) = watched(settings, doing, || case(replay)) else {
            statistics.case(|| Verdict::Discarded(no_value.to_string()));
            return None;
        };
        let verdict = statistics.case(|| {
            watched(settings, doing, || {
                verdict(settings, property, &generated.value)
            })
        });
        let Verdict::Failed(reason) = verdict else {
            return None;
        };
        Some(shrink_failure(
            settings, g, property, origin, generated, reason,
        ))
    };
    if let Some(replay) = settings.replay {
        let failure = run_one(replay, Origin::Replayed(replay), statistics);
        // The run's statistics hold this one case: a discard among them is its.
        if failure.is_none() && statistics.discarded() > 0 {
            return Err(discarded_replay_report(replay, statistics));
        }
        return Ok(failure);
    }
    let mut index = 0;
    loop {
        match next(settings, statistics) {
            Next::Run => {}
            Next::Done => return Ok(None),
            Next::GiveUp => return Err(gave_up_report(settings, statistics)),
        }
        let replay = case_at(settings, index);
        if let Some(failure) = run_one(replay, Origin::Case(index + 1, replay), statistics) {
            return Ok(Some(failure));
        }
        index += 1;
    }
}

/// How a case ended.
enum Ended<T> {
    /// It failed: the failure, shrunk (boxed: it is large, and rare).
    Failed(Box<Failure<T>>),
    /// It held; its choices and what its filters did, if it recorded them.
    Held(Option<(ChoiceTree, Filtered)>),
    /// The property discarded it.
    Discarded,
}

/// The choices of case `replay` and what its filters did, for the pool: generated again from
/// its seed, recording.
fn recorded<G: Generator>(settings: &Resolved, g: &G) -> impl Fn(Replay) -> (ChoiceTree, Filtered) {
    move |replay| {
        let (generated, filtered) = generate(settings, g, replay, true, None);
        (generated.tree, filtered)
    }
}

/// A case to run in order.
struct Case<'p> {
    /// The line that replays it.
    replay: Replay,
    /// Where it comes from, for the report.
    origin: Origin,
    /// Whether the choices of the case, if it holds, come back for the pool.
    record: bool,
    /// For a mutant, the pool case it mutates.
    parent: Option<&'p Parent>,
}

/// Runs `case`, watched by `watch`, recording its statistics, and shrinks it if it fails.
fn run_case<G, O>(
    settings: &Resolved,
    g: &G,
    property: &impl Fn(&G::Output) -> O,
    statistics: &mut Statistics,
    case: Case<'_>,
    watch: &Watch,
) -> Ended<G::Output>
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let Case {
        replay,
        origin,
        record,
        parent,
    } = case;
    // Without the choices unless the pool needs them: the same seed gives them to a failure.
    let watching = watch.start(settings, Doing::Case(replay));
    if replay.mutation.is_some() {
        statistics.mutant();
    }
    let (generated, filtered) = match generate_case(settings, g, replay, record, parent) {
        Ok(generated) => generated,
        Err(rejected) => {
            statistics.count_filtered_out(rejected);
            return Ended::Discarded;
        }
    };
    statistics.filtered(filtered);
    let Generated { value, tree } = generated;
    let judged = statistics.case(|| verdict(settings, property, &value));
    drop(watching);
    let reason = match judged {
        Verdict::Failed(reason) => reason,
        Verdict::Held => return Ended::Held(record.then_some((tree, filtered))),
        Verdict::Discarded(_) => return Ended::Discarded,
    };
    let (mut generated, _) = generate(settings, g, replay, true, parent);
    generated.value = value;
    Ended::Failed(Box::new(shrink_failure(
        settings, g, property, origin, generated, reason,
    )))
}

/// The run's cases spread over the cores, in rounds: each round runs as many cases as the run
/// still needs (up to the end of its block once the run mutates, as the pool changes there;
/// a run that starts to mutate drops the round's cases after that point, to run them again
/// with the pool), each thread every n-th of them, stopping past the first failure any thread
/// has found. The cases' statistics are merged in the run's order, as the sequential run would
/// have recorded them (so it stops, gives up or fails exactly where that run does); the first
/// failure is shrunk. `None` when enough cases held; the sequential run goes on from
/// `progress` if coverage needs more.
///
/// `Err` with the health report if the run gives up.
///
/// # Panics
///
/// With the generator's panic, if it panics before any case fails.
pub(super) fn run_cases_parallel<G, O>(
    settings: &Resolved,
    g: &G,
    property: &(impl Fn(&G::Output) -> O + Sync),
    statistics: &mut Statistics,
    progress: &mut Progress,
) -> Result<Option<Failure<G::Output>>, String>
where
    G: Generator,
    G::Output: Clone + Debug + Send,
    O: Outcome,
{
    loop {
        match next(settings, statistics) {
            Next::Run => {}
            Next::Done => return Ok(None),
            Next::GiveUp => return Err(gave_up_report(settings, statistics)),
        }
        let needed = settings.cases.saturating_sub(statistics.counted()).max(1);
        let start = progress.next;
        let mut end = start.saturating_add(needed);
        let recording = progress.pool.records();
        if recording {
            // A round stops at the end of its block, where the pool changes.
            end = end.min(block_end(start).saturating_add(1));
        }
        let mut done = run_round(settings, g, property, start..end, &progress.pool);
        done.sort_by_key(|&(index, ..)| index);
        for (index, case, event) in done {
            // Each case runs only if the sequential run would run it.
            match next(settings, statistics) {
                Next::Run => {}
                Next::Done => return Ok(None),
                Next::GiveUp => return Err(gave_up_report(settings, statistics)),
            }
            progress.next = index + 1;
            statistics.merge(case);
            let drawn = progress.pool.case(case_at(settings, index));
            let replay = drawn.replay;
            match event {
                Event::Held(choices) => {
                    progress.pool.held(replay, choices);
                    progress
                        .pool
                        .after(index, statistics, recorded(settings, g));
                }
                Event::Discarded => progress
                    .pool
                    .after(index, statistics, recorded(settings, g)),
                Event::Failed(reason) => {
                    let (generated, _) = generate(settings, g, replay, true, drawn.parent);
                    let origin = Origin::Case(index + 1, replay);
                    return Ok(Some(shrink_failure(
                        settings, g, property, origin, generated, reason,
                    )));
                }
                // Raised again as a panic of its own (not resumed), so that the panic hook,
                // which was quiet on the worker, prints the message the sequential run prints.
                Event::Panicked(message) => panic!("{message}"),
            }
            if progress.pool.records() != recording {
                // The run starts to mutate here: the round's later cases ran without the
                // pool, and run again in the next round.
                break;
            }
        }
    }
}

/// What a case run in parallel did.
enum Event {
    /// It held; its choices and what its filters did, if the pool needs them.
    Held(Option<(ChoiceTree, Filtered)>),
    /// The property discarded it.
    Discarded,
    /// It failed, for this reason.
    Failed(String),
    /// The generator panicked, with this message (which says which case and how to replay it).
    Panicked(String),
}

/// The cases `indices` run over the cores, each with its statistics and what it did, up to
/// the first failure (in the run's order) any thread has found.
fn run_round<G, O>(
    settings: &Resolved,
    g: &G,
    property: &(impl Fn(&G::Output) -> O + Sync),
    indices: std::ops::Range<u32>,
    pool: &Pool,
) -> Vec<(u32, Statistics, Event)>
where
    G: Generator,
    G::Output: Clone + Debug + Send,
    O: Outcome,
{
    use std::sync::atomic::{AtomicU32, Ordering};
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let first_failure = AtomicU32::new(u32::MAX);
    // Named as the test's thread is, so that a case still running past its limit is
    // reported with the test's name (see the watchdog).
    let name = std::thread::current().name().map(str::to_string);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                let first_failure = &first_failure;
                let indices = indices.clone();
                let mut builder = std::thread::Builder::new();
                if let Some(name) = &name {
                    builder = builder.name(name.clone());
                }
                builder
                    .spawn_scoped(scope, move || {
                        // Inside the check: a check the property runs is not one of the test's.
                        let _inside = Running::inside();
                        let mut done = Vec::new();
                        let watch = Watch::this_thread();
                        for index in indices.skip(worker).step_by(threads) {
                            if index > first_failure.load(Ordering::Relaxed) {
                                break;
                            }
                            // A generator that panics is an event of its own: the sequential run
                            // panics there, if no case before it fails.
                            let Drawn { replay, parent } = pool.case(case_at(settings, index));
                            let record = pool.records();
                            let watching = watch.start(settings, Doing::Case(replay));
                            let generated = quietly(|| {
                                panic::catch_unwind(AssertUnwindSafe(|| {
                                    generate_case(settings, g, replay, record, parent)
                                }))
                            });
                            let mut case = Statistics::default();
                            if replay.mutation.is_some() {
                                case.mutant();
                            }
                            let event = match generated {
                                Ok(Err(rejected)) => {
                                    case.count_filtered_out(rejected);
                                    Event::Discarded
                                }
                                Ok(Ok((generated, filtered))) => {
                                    case.filtered(filtered);
                                    match case
                                        .case(|| verdict(settings, property, &generated.value))
                                    {
                                        Verdict::Failed(reason) => Event::Failed(reason),
                                        Verdict::Held => Event::Held(
                                            record.then_some((generated.tree, filtered)),
                                        ),
                                        Verdict::Discarded(_) => Event::Discarded,
                                    }
                                }
                                Err(payload) => Event::Panicked(panic_message(&*payload)),
                            };
                            drop(watching);
                            if matches!(event, Event::Failed(_) | Event::Panicked(_)) {
                                first_failure.fetch_min(index, Ordering::Relaxed);
                            }
                            done.push((index, case, event));
                        }
                        done
                    })
                    .expect("spawn a thread to run cases on")
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
    })
}

/// The failure of `generated`, shrunk.
pub(super) fn shrink_failure<G, O>(
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
    let shrinking = format!(
        "the shrink of the failure of {}: an evaluation of the property",
        origin.case()
    );
    let doing = Doing::Described(&shrinking);
    // A failure that does not fail again is not the value's: report it as it is, unshrunk.
    let flaky = !watched(settings, doing, || verdict(settings, property, &original)).failed();
    let shrunk = if flaky {
        Shrunk {
            value: generated.value,
            tree: generated.tree,
            stats: ShrinkStats::default(),
        }
    } else {
        shrink_quietly(settings, g, generated, property, &shrinking)
    };
    let final_reason = match watched(settings, doing, || {
        verdict(settings, property, &shrunk.value)
    }) {
        Verdict::Failed(reason) => reason,
        Verdict::Held | Verdict::Discarded(_) => "it passed when run again".to_string(),
    };
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

/// The value of case `replay`, with its choices if `record`, and what its filters kept and
/// rejected. A mutant's `parent`, if given, is the pool case its line names, whose choices
/// it edits instead of generating them again.
///
/// # Panics
///
/// If the generator cannot produce a value (a filter rejecting every value it draws
/// included: this is for a case known to have one), or panics, with the generator's reason
/// and the case, whose line replays it.
pub(super) fn generate<G: Generator>(
    settings: &Resolved,
    g: &G,
    replay: Replay,
    record: bool,
    parent: Option<&Parent>,
) -> (Generated<G::Output>, Filtered) {
    generate_case(settings, g, replay, record, parent).unwrap_or_else(|rejected| {
        panic!("{rejected} (case REFLECTIVE_REPLAY={replay}: the property did not run)")
    })
}

/// [`generate`], but `Err` with the reason where a filter rejected every value it drew: at
/// this case's size the generator may make no value the filter keeps (a list filtered to be
/// non-empty, at size 0), and the case is discarded, as QuickCheck's `suchThat` would draw
/// at a larger size; a filter that keeps too few values at any size makes the run give up,
/// as too many discards do.
///
/// # Panics
///
/// As [`generate`], where the generator fails otherwise.
fn generate_case<G: Generator>(
    settings: &Resolved,
    g: &G,
    replay: Replay,
    record: bool,
    parent: Option<&Parent>,
) -> Result<(Generated<G::Output>, Filtered), String> {
    let generated = caught(|| match settings.strategy {
        Some(strategy) => generate_with(&g.size_strategy(strategy), replay, record, parent),
        None => generate_with(g, replay, record, parent),
    });
    match generated {
        Ok(Ok(generated)) => Ok(generated),
        Ok(Err(error)) if error.filter_rejected() => Err(error.to_string()),
        Ok(Err(error)) => {
            panic!("{error} (case REFLECTIVE_REPLAY={replay}: the property did not run)")
        }
        Err(panic) => generator_panicked(&panic, replay),
    }
}

/// Panics with the report of a generator that panicked with `panic` on case `replay`: where
/// it panicked (which the runner's own panic would hide), why, and the case's line.
pub(super) fn generator_panicked(panic: &str, replay: Replay) -> ! {
    let at = take_panic_location()
        .map(|at| format!(" at {at}"))
        .unwrap_or_default();
    panic!(
        "the generator panicked{at}: {panic} (case REFLECTIVE_REPLAY={replay}: the property \
         did not run)"
    )
}

/// The value of case `replay` from `g`: generated from its seed at its size, then, for a
/// mutant, edited with the mutation's seed (the case itself if no edit changes it). A
/// mutant's `parent` from the pool gives the choices and filter counts that generating the
/// case its line names gives, without the run.
fn generate_with<G: Generator>(
    g: &G,
    replay: Replay,
    record: bool,
    parent: Option<&Parent>,
) -> Result<(Generated<G::Output>, Filtered), GenerateError> {
    let generate_case = || {
        let mut rng = DefaultRng::seed_from_u64(replay.seed);
        try_generate_recording(
            g,
            &mut rng,
            replay.size,
            record || replay.mutation.is_some(),
        )
    };
    let Some(mutation) = replay.mutation else {
        return generate_case();
    };
    let mutant_of = |tree: &ChoiceTree| {
        let mut rng = DefaultRng::seed_from_u64(mutation);
        g.mutator()
            .mutate_stacked(tree, &mut rng)
            .map(|mutant| Generated {
                value: mutant.value,
                tree: mutant.tree,
            })
    };
    if let Some(parent) = parent {
        debug_assert_eq!(
            parent.replay,
            Replay {
                mutation: None,
                ..replay
            },
            "a mutant's parent is the case its line names"
        );
        return match mutant_of(&parent.tree) {
            Some(mutant) => Ok((mutant, parent.filtered)),
            // No edit changes it: the case is its parent, whose value a run gives.
            None => generate_case(),
        };
    }
    let (parent, filtered) = generate_case()?;
    Ok((mutant_of(&parent.tree).unwrap_or(parent), filtered))
}

/// Shrinks `start` under the run's strategy and budget, with the property's panics kept quiet,
/// each evaluation watched as `shrinking` says. A candidate the property discards does not
/// fail.
pub(super) fn shrink_quietly<G, O>(
    settings: &Resolved,
    g: &G,
    start: Generated<G::Output>,
    property: &impl Fn(&G::Output) -> O,
    shrinking: &str,
) -> Shrunk<G::Output>
where
    G: Generator,
    O: Outcome,
{
    let fails = |value: &G::Output| {
        watched(settings, Doing::Described(shrinking), || {
            verdict(settings, property, value)
        })
        .failed()
    };
    // The generator's own panics on a candidate (a `map` that asserts) are kept quiet too: the
    // shrinker drops such candidates.
    quietly(|| match settings.strategy {
        Some(strategy) => g
            .size_strategy(strategy)
            .shrink_generated(start, fails, settings.shrink),
        None => g.shrink_generated(start, fails, settings.shrink),
    })
}
