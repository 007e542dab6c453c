//! The cases of a run: each from its own seed at its size, in order or spread over the cores,
//! and the shrink of the first that fails.

use std::any::Any;
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};

use rand_core::SeedableRng;

use crate::generator::Generator;
use crate::interpret::shrink::{ShrinkStats, Shrunk};
use crate::interpret::{DefaultRng, Generated, try_generate_recording};

use super::config::{Replay, Resolved};
use super::outcome::{Outcome, outcome, quietly};
use super::report::{Failure, Origin};
use super::statistics::{Coverage, Statistics};

/// The seed of case `index` of a run seeded with `seed` (SplitMix64's mix of the two).
pub(super) fn case_seed(seed: u64, index: u32) -> u64 {
    let mut z = seed.wrapping_add(u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The run's cases spread over the cores: each thread takes every n-th case, and stops past
/// the first failure any thread has found. The statistics of the cases up to the first failure
/// (all, without one) are merged in the run's order; the first failure is shrunk.
pub(super) fn run_cases_parallel<G, O>(
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

/// The case at `index` of the run: sizes grow from 0 to the largest over the run's cases, and
/// start again for cases past them (those `check_coverage` adds).
pub(super) fn case_at(settings: &Resolved, index: u32) -> Replay {
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
pub(super) const MAX_COVERAGE_FACTOR: u32 = 100;

/// Runs the run's cases from `start` (or only the one to replay), recording their statistics,
/// and shrinks the first failure. With `check_coverage`, runs more cases until the coverage
/// requirements are met or missed with confidence.
pub(super) fn run_cases<G, O>(
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

/// The value of case `replay`, with its choices if `record`.
///
/// # Panics
///
/// If the generator cannot produce a value, with the generator's reason and the case.
pub(super) fn generate<G: Generator>(
    settings: &Resolved,
    g: &G,
    replay: Replay,
    record: bool,
) -> Generated<G::Output> {
    let mut rng = DefaultRng::seed_from_u64(replay.seed);
    let generated = match settings.strategy {
        Some(strategy) => {
            try_generate_recording(&g.size_strategy(strategy), &mut rng, replay.size, record)
        }
        None => try_generate_recording(g, &mut rng, replay.size, record),
    };
    generated.unwrap_or_else(|error| {
        panic!("{error} (case REFLECTIVE_REPLAY={replay}: the property did not run)")
    })
}

/// Shrinks `start` under the run's strategy and budget, with the property's panics kept quiet.
pub(super) fn shrink_quietly<G, O>(
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
        Some(strategy) => g
            .size_strategy(strategy)
            .shrink_generated(start, fails, settings.shrink),
        None => g.shrink_generated(start, fails, settings.shrink),
    })
}
