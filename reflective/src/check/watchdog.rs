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
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once, Weak};
use std::time::{Duration, Instant};

use super::config::{Replay, Resolved, test_name};
use super::report::cargo_test_arguments_for;

/// How long a case may run before it is reported, when the run sets no time limit.
pub(super) const DEFAULT_LIMIT: Duration = Duration::from_secs(10);

/// How often the watching thread looks at the slots.
const TICK: Duration = Duration::from_millis(100);

/// What a thread is evaluating.
#[derive(Clone, Copy, Debug)]
pub(super) enum Doing {
    /// The case `replay`: its value generated and the property run on it.
    Case(Replay),
    /// What [`describe`] said last on this thread (a shrink's candidate, a stored case).
    Described,
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
    /// [`MUTANT`] if the case is a mutant, [`DESCRIBED`] if what runs is described.
    flags: AtomicU8,
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

thread_local! {
    /// This thread's slot, registered with the watching thread when first used.
    static SLOT: Arc<Slot> = register();
}

/// Runs `f`, an evaluation that `doing` describes (a case of `settings`'s run, or a shrink's
/// candidate), watched: past the run's limit, the watching thread reports it.
pub(super) fn watched<R>(settings: &Resolved, doing: Doing, f: impl FnOnce() -> R) -> R {
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
    /// returns is dropped (also by unwinding).
    pub(super) fn start(&self, settings: &Resolved, doing: Doing) -> Watching<'_> {
        let slot = &*self.0;
        let limit = settings.case_time_limit.unwrap_or(DEFAULT_LIMIT);
        slot.limit_ms.store(millis(limit), Ordering::Relaxed);
        match doing {
            Doing::Case(replay) => {
                slot.seed.store(replay.seed, Ordering::Relaxed);
                slot.size.store(replay.size as u64, Ordering::Relaxed);
                slot.mutation
                    .store(replay.mutation.unwrap_or(0), Ordering::Relaxed);
                let flags = if replay.mutation.is_some() { MUTANT } else { 0 };
                slot.flags.store(flags, Ordering::Relaxed);
            }
            Doing::Described => slot.flags.store(DESCRIBED, Ordering::Relaxed),
        }
        slot.step();
        Watching(slot)
    }
}

/// An evaluation being watched: dropping it marks it finished.
pub(super) struct Watching<'s>(&'s Slot);

impl Drop for Watching<'_> {
    fn drop(&mut self) {
        self.0.step();
    }
}

impl Slot {
    /// Counts an evaluation started or finished. Only the slot's thread writes the count, so a
    /// load and a store do (no read-modify-write); the stores before it happen before the
    /// watching thread sees the count change.
    fn step(&self) {
        let count = self.evaluations.load(Ordering::Relaxed);
        self.evaluations.store(count + 1, Ordering::Release);
    }
}

/// Describes what this thread evaluates as [`Doing::Described`] from now on, in the words of
/// a report (`a candidate of the shrink of the failure of case REFLECTIVE_REPLAY=...`).
pub(super) fn describe(what: String) {
    SLOT.with(|slot| {
        *slot
            .described
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = what;
        slot.descriptions.fetch_add(1, Ordering::Relaxed);
    });
}

/// A slot watched from now on, for this thread.
fn register() -> Arc<Slot> {
    let slot = Arc::new(Slot {
        evaluations: AtomicU64::new(0),
        seed: AtomicU64::new(0),
        size: AtomicU64::new(0),
        mutation: AtomicU64::new(0),
        flags: AtomicU8::new(0),
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
                        let report = still_running(&slot, running, limit);
                        let _ = std::io::stderr().lock().write_all(report.as_bytes());
                    }
                }
            }
            true
        });
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
        let what = slot
            .described
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        return format!("reflective:{test} {what} {took} (a loop that never exits? a deadlock?)\n");
    }
    let replay = Replay {
        seed: slot.seed.load(Ordering::Relaxed),
        size: slot.size.load(Ordering::Relaxed) as usize,
        mutation: (flags & MUTANT != 0).then(|| slot.mutation.load(Ordering::Relaxed)),
    };
    format!(
        "reflective:{test} case REFLECTIVE_REPLAY={replay} {took} (a loop that never exits? a \
         deadlock?); to run it alone:\n    REFLECTIVE_REPLAY={replay} cargo test{}\n",
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
