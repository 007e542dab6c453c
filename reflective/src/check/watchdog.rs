//! A watch on the cases being run: a case that is still running past its time limit (the
//! run's [`case_time_limit`](super::Config::case_time_limit), else [`DEFAULT_LIMIT`]) is
//! reported on stderr while it runs, with the line that replays it. A case that never ends
//! (a loop that never exits, a deadlock) never reaches the failure report, and `cargo test`
//! says only that the test has been running a long time: this says which case.
//!
//! Each thread that runs cases has a [`Slot`]: the case it is running (or the failure it is
//! shrinking) and a count of the evaluations it has started and finished, odd while one
//! runs. One thread for the whole process looks at every slot ten times a second; a count
//! that stays odd past the limit is reported once (and the evaluations of one shrink, once in
//! all). A case costs the thread a few atomic stores, and no clock reads.

use std::io::Write;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once, Weak};
use std::time::{Duration, Instant};

use super::config::{Replay, Resolved, test_name};
use super::report::{cargo_test_arguments_for, case_settings, replay_check};
use crate::engine::Strategy;

/// How long a case may run before it is reported, when the run sets no time limit.
pub(super) const DEFAULT_LIMIT: Duration = Duration::from_secs(10);

/// How often the watching thread looks at the slots.
const TICK: Duration = Duration::from_millis(100);

/// What a thread is evaluating.
#[derive(Clone, Copy, Debug)]
pub(super) enum Doing<'a> {
    /// The case `replay`: its value generated and the property run on it.
    Case(Replay),
    /// Something else, in a report's words (`the shrink of the failure of case
    /// REFLECTIVE_REPLAY=...: an evaluation of the property`).
    Described(&'a str),
}

/// What one thread is running, written by the thread and read by the watching thread.
#[derive(Debug)]
struct Slot {
    /// The evaluations started and finished: odd while one runs.
    evaluations: AtomicU64,
    /// The case running: its seed, size and edits' seed.
    seed: AtomicU64,
    size: AtomicU64,
    mutation: AtomicU64,
    /// [`MUTANT`] if the case is a mutant, [`DESCRIBED`] if what runs is described,
    /// [`LIMIT_SET`] if the run sets its limit.
    flags: AtomicU8,
    /// The run's size strategy, which decides the case with its seed and size: 0 for the
    /// generator's own, else one more than its place in [`Strategy::ALL`].
    strategy: AtomicU8,
    /// Which check of its test the run is (0 for none), which a replay line names.
    check: AtomicU32,
    /// The run's limit, in milliseconds.
    limit_ms: AtomicU64,
    /// What runs, where it is not a case of the run: the report's words for it, and how many
    /// times they have been set (an evaluation under the same words is reported once).
    described: Mutex<String>,
    descriptions: AtomicU64,
    /// The test the thread runs (its name), for the replay line.
    test: Option<String>,
}

const MUTANT: u8 = 1;
const DESCRIBED: u8 = 2;
const LIMIT_SET: u8 = 4;

thread_local! {
    /// This thread's slot, registered with the watching thread when first used.
    static SLOT: Arc<Slot> = register();
}

/// Runs `f`, an evaluation that `doing` describes (a case of `settings`'s run, or a shrink's
/// candidate), watched: past the run's limit, the watching thread reports it.
pub(super) fn watched<R>(settings: &Resolved, doing: Doing<'_>, f: impl FnOnce() -> R) -> R {
    let watch = Watch::this_thread();
    let _watching = watch.start(settings, doing);
    f()
}

/// This thread's slot, held by a run for its cases so that starting one costs a few stores
/// (not a lookup of the thread's slot).
pub(super) struct Watch(Arc<Slot>);

impl Watch {
    /// The slot of the thread this is called on.
    pub(super) fn this_thread() -> Self {
        Watch(SLOT.with(Arc::clone))
    }

    /// Watches the evaluation that `doing` describes, run on this thread, until the guard it
    /// returns is dropped (also by unwinding). One started inside another (a property that
    /// runs a check of its own) is watched in its place, and the outer one again after it.
    #[inline]
    pub(super) fn start(&self, settings: &Resolved, doing: Doing<'_>) -> Watching<'_> {
        let slot = &*self.0;
        let nested = slot.evaluations.load(Ordering::Relaxed) % 2 == 1;
        let outer = nested.then(|| {
            Box::new(Saved {
                context: slot.context(),
                described: slot.described().clone(),
            })
        });
        let limit_ms = millis(settings.case_time_limit.unwrap_or(DEFAULT_LIMIT));
        match doing {
            Doing::Case(replay) => slot.set(Context {
                seed: replay.seed,
                size: replay.size as u64,
                mutation: replay.mutation.unwrap_or(0),
                flags: if replay.mutation.is_some() { MUTANT } else { 0 }
                    | if settings.case_time_limit.is_some() {
                        LIMIT_SET
                    } else {
                        0
                    },
                strategy: settings.strategy.map_or(0, |strategy| {
                    Strategy::ALL
                        .iter()
                        .position(|&s| s == strategy)
                        .map_or(0, |place| place as u8 + 1)
                }),
                check: settings.check.unwrap_or(0),
                limit_ms,
            }),
            Doing::Described(what) => {
                slot.set(Context {
                    flags: DESCRIBED,
                    limit_ms,
                    ..Context::default()
                });
                slot.describe(what);
            }
        }
        // Odd while one runs: an inner one keeps it odd, but changes it, so that the
        // watching thread times it from its start.
        slot.count(if nested { 2 } else { 1 });
        Watching { slot, outer }
    }
}

/// What a slot says runs, but for its description: a case's line and flags, and the limit.
#[derive(Clone, Copy, Debug, Default)]
struct Context {
    seed: u64,
    size: u64,
    mutation: u64,
    flags: u8,
    strategy: u8,
    check: u32,
    limit_ms: u64,
}

/// An evaluation being watched: dropping it marks it finished, or puts back the one it ran
/// inside.
pub(super) struct Watching<'s> {
    slot: &'s Slot,
    /// What the slot said before, for an evaluation inside another (boxed: rare, and the
    /// guard of every case carries the field).
    outer: Option<Box<Saved>>,
}

/// What a slot said, kept while an inner evaluation runs.
#[derive(Debug)]
struct Saved {
    context: Context,
    described: String,
}

impl Drop for Watching<'_> {
    #[inline]
    fn drop(&mut self) {
        match self.outer.take() {
            None => self.slot.count(1),
            Some(outer) => {
                self.slot.set(outer.context);
                self.slot.describe(&outer.described);
                self.slot.count(2);
            }
        }
    }
}

impl Slot {
    /// Counts `by` evaluations started or finished. Only the slot's thread writes the count,
    /// so a load and a store do (no read-modify-write); the stores before it happen before
    /// the watching thread sees the count change.
    #[inline]
    fn count(&self, by: u64) {
        let count = self.evaluations.load(Ordering::Relaxed);
        self.evaluations.store(count + by, Ordering::Release);
    }

    /// Says that `context` runs.
    #[inline]
    fn set(&self, context: Context) {
        self.seed.store(context.seed, Ordering::Relaxed);
        self.size.store(context.size, Ordering::Relaxed);
        self.mutation.store(context.mutation, Ordering::Relaxed);
        self.flags.store(context.flags, Ordering::Relaxed);
        self.strategy.store(context.strategy, Ordering::Relaxed);
        self.check.store(context.check, Ordering::Relaxed);
        self.limit_ms.store(context.limit_ms, Ordering::Relaxed);
    }

    /// What the slot says runs, but for its description.
    fn context(&self) -> Context {
        Context {
            seed: self.seed.load(Ordering::Relaxed),
            size: self.size.load(Ordering::Relaxed),
            mutation: self.mutation.load(Ordering::Relaxed),
            flags: self.flags.load(Ordering::Relaxed),
            strategy: self.strategy.load(Ordering::Relaxed),
            check: self.check.load(Ordering::Relaxed),
            limit_ms: self.limit_ms.load(Ordering::Relaxed),
        }
    }

    /// Describes what runs as `what`; a new description counts as one more (an evaluation
    /// under the same one is reported once).
    fn describe(&self, what: &str) {
        let mut described = self.described();
        if *described != what {
            what.clone_into(&mut described);
            self.descriptions.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The description, locked.
    fn described(&self) -> std::sync::MutexGuard<'_, String> {
        self.described
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A slot watched from now on, for this thread.
fn register() -> Arc<Slot> {
    let slot = Arc::new(Slot {
        evaluations: AtomicU64::new(0),
        seed: AtomicU64::new(0),
        size: AtomicU64::new(0),
        mutation: AtomicU64::new(0),
        flags: AtomicU8::new(0),
        strategy: AtomicU8::new(0),
        check: AtomicU32::new(0),
        limit_ms: AtomicU64::new(millis(DEFAULT_LIMIT)),
        described: Mutex::new(String::new()),
        descriptions: AtomicU64::new(0),
        test: test_name(),
    });
    static START: Once = Once::new();
    START.call_once(|| {
        // Without a watching thread (none can be spawned), cases run unwatched.
        let _ = std::thread::Builder::new()
            .name("reflective-watchdog".to_string())
            .spawn(watch);
    });
    watched_slots().push(Watched {
        slot: Arc::downgrade(&slot),
        seen: 0,
        since: Instant::now(),
        reported: false,
        described_reported: None,
    });
    slot
}

/// A slot as the watching thread follows it.
struct Watched {
    slot: Weak<Slot>,
    /// The count of evaluations it saw last, and since when.
    seen: u64,
    since: Instant,
    /// Whether the evaluation it is in has been reported.
    reported: bool,
    /// The description under which an evaluation was reported last: a shrink whose
    /// candidates each run past the limit (slow, not stuck) is reported once.
    described_reported: Option<u64>,
}

/// Every slot of a thread still running.
fn watched_slots() -> std::sync::MutexGuard<'static, Vec<Watched>> {
    static WATCHED: Mutex<Vec<Watched>> = Mutex::new(Vec::new());
    WATCHED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The watching thread: reports each evaluation that has run past its limit, once.
fn watch() {
    loop {
        std::thread::sleep(TICK);
        let now = Instant::now();
        // Written once the slots are let go: a thread that starts meanwhile registers its slot
        // without waiting on stderr.
        let mut reports = Vec::new();
        watched_slots().retain_mut(|watched| {
            let Some(slot) = watched.slot.upgrade() else {
                return false;
            };
            let count = slot.evaluations.load(Ordering::Acquire);
            if count != watched.seen {
                (watched.seen, watched.since, watched.reported) = (count, now, false);
            } else if count % 2 == 1 && !watched.reported {
                let running = now - watched.since;
                let limit = Duration::from_millis(slot.limit_ms.load(Ordering::Relaxed));
                if running >= limit {
                    watched.reported = true;
                    let described = slot.flags.load(Ordering::Relaxed) & DESCRIBED != 0;
                    let description = slot.descriptions.load(Ordering::Relaxed);
                    if !described || watched.described_reported != Some(description) {
                        if described {
                            watched.described_reported = Some(description);
                        }
                        reports.push(still_running(&slot, running, limit));
                    }
                }
            }
            true
        });
        for report in reports {
            let _ = std::io::stderr().lock().write_all(report.as_bytes());
        }
    }
}

/// What to print of an evaluation in `slot` that has run for `running`, past `limit`.
fn still_running(slot: &Slot, running: Duration, limit: Duration) -> String {
    let test = slot
        .test
        .as_deref()
        .map(|test| format!(" {test}:"))
        .unwrap_or_default();
    let flags = slot.flags.load(Ordering::Relaxed);
    let took =
        format!("has run for {running:.1?}, past the limit of {limit:.1?}, and has not ended");
    if flags & DESCRIBED != 0 {
        let what = slot.described().clone();
        return format!("reflective:{test} {what} {took} (a loop that never exits? a deadlock?)\n");
    }
    let replay = Replay {
        seed: slot.seed.load(Ordering::Relaxed),
        size: slot.size.load(Ordering::Relaxed) as usize,
        mutation: (flags & MUTANT != 0).then(|| slot.mutation.load(Ordering::Relaxed)),
    };
    // What decides the case besides its seed and size, as the failure report's line says
    // it: the strategy, and the limit past which it fails, where the run sets them.
    let strategy = usize::from(slot.strategy.load(Ordering::Relaxed))
        .checked_sub(1)
        .and_then(|place| Strategy::ALL.get(place).copied());
    let limit = (flags & LIMIT_SET != 0).then_some(limit);
    let case_settings = case_settings(strategy, limit);
    let check = slot.check.load(Ordering::Relaxed);
    if check == 0 {
        // A check inside another's property never takes the environment's replay.
        return format!(
            "reflective:{test} case REFLECTIVE_REPLAY={replay} of a check inside another \
             check's property {took} (a loop that never exits? a deadlock?); replay the outer \
             check's case to run it again\n"
        );
    }
    let check = replay_check(Some(check));
    format!(
        "reflective:{test} case REFLECTIVE_REPLAY={replay} {took} (a loop that never exits? a \
         deadlock?); to run it alone:\n    {case_settings}{check}REFLECTIVE_REPLAY={replay} \
         cargo test{}\n",
        cargo_test_arguments_for(slot.test.as_deref())
    )
}

/// `duration` in whole milliseconds, at most `u64::MAX` (without 128-bit arithmetic: this runs
/// at every case).
fn millis(duration: Duration) -> u64 {
    duration
        .as_secs()
        .saturating_mul(1000)
        .saturating_add(u64::from(duration.subsec_millis()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Config;

    /// What `watch`'s slot says runs: the count and the case's seed, or the description.
    fn says(watch: &Watch) -> (u64, u64, u8, String) {
        let slot = &*watch.0;
        (
            slot.evaluations.load(Ordering::Relaxed),
            slot.seed.load(Ordering::Relaxed),
            slot.flags.load(Ordering::Relaxed),
            slot.described().clone(),
        )
    }

    /// An evaluation inside another (a property that runs a check of its own) is watched in
    /// its place, timed from its own start, and the outer one is watched again after it.
    #[test]
    fn an_evaluation_inside_another_is_watched_in_its_place() {
        let settings = Config::new().resolved_from(|_| None).unwrap();
        let watch = Watch::this_thread();
        let (before, ..) = says(&watch);
        assert_eq!(before % 2, 0);
        let outer = watch.start(&settings, Doing::Case(Replay::new(7, 3)));
        assert_eq!(says(&watch).0, before + 1);
        let limit = || watch.0.limit_ms.load(Ordering::Relaxed);
        assert_eq!(limit(), 10_000);
        {
            // The inner check's own limit, for the inner evaluation only.
            let inner_settings = Config::new()
                .case_time_limit(Duration::from_millis(50))
                .resolved_from(|_| None)
                .unwrap();
            let _inner = watch.start(&inner_settings, Doing::Described("the inner shrink"));
            let (count, _, flags, described) = says(&watch);
            assert_eq!((count, flags, limit()), (before + 3, DESCRIBED, 50));
            assert_eq!(described, "the inner shrink");
        }
        let (count, seed, flags, _) = says(&watch);
        assert_eq!((count, seed, flags, limit()), (before + 5, 7, 0, 10_000));
        drop(outer);
        assert_eq!(says(&watch).0, before + 6);
        // A panic inside finishes it too.
        let caught = crate::check::quietly(|| {
            std::panic::catch_unwind(|| {
                let _watching = watch.start(&settings, Doing::Case(Replay::new(8, 1)));
                panic!("inside");
            })
        });
        assert!(caught.is_err());
        assert_eq!(says(&watch).0, before + 8);
    }

    /// The line that runs a case still running alone sets what decides the case besides its
    /// seed and size, as the failure report's line does: the strategy and the time limit,
    /// where the run sets them (else the case it runs is another, or does not fail), and the
    /// check of its test that runs it, where it is not the first.
    #[test]
    fn the_line_of_a_case_still_running_keeps_its_strategy_and_limit() {
        let watch = Watch::this_thread();
        let mut set = Config::new()
            .strategy(Strategy::Fixed)
            .case_time_limit(Duration::from_millis(100))
            .resolved_from(|_| None)
            .unwrap();
        set.check = Some(2);
        let line = {
            let _watching = watch.start(&set, Doing::Case(Replay::new(7, 3)));
            still_running(
                &watch.0,
                Duration::from_millis(150),
                Duration::from_millis(100),
            )
        };
        assert!(
            line.contains(
                "\n    REFLECTIVE_STRATEGY=fixed REFLECTIVE_CASE_TIME_LIMIT_MS=100 \
                 REFLECTIVE_REPLAY_CHECK=2 REFLECTIVE_REPLAY=0x7:3 cargo test"
            ),
            "{line}"
        );
        let mut unset = Config::new().resolved_from(|_| None).unwrap();
        unset.check = Some(1);
        let line = {
            let _watching = watch.start(&unset, Doing::Case(Replay::new(7, 3)));
            still_running(&watch.0, Duration::from_secs(11), DEFAULT_LIMIT)
        };
        assert!(
            line.contains("\n    REFLECTIVE_REPLAY=0x7:3 cargo test"),
            "{line}"
        );
        // A case of a check inside another's property: its line would not replay it.
        unset.check = None;
        let line = {
            let _watching = watch.start(&unset, Doing::Case(Replay::new(7, 3)));
            still_running(&watch.0, Duration::from_secs(11), DEFAULT_LIMIT)
        };
        assert!(
            line.contains("of a check inside another check's property has run for")
                && !line.contains("cargo test"),
            "{line}"
        );
    }
}
