//! Parallel stateful testing: a sequential prefix, then two branches of commands run at once
//! on two threads, and a check that what the system answered is what the model answers for
//! some interleaving of the branches (linearizability), as Erlang QuickCheck's parallel state
//! machines do.
//!
//! [`parallel_commands`] generates the prefix as [`commands`](super::commands) does, then two
//! branches from the state it reaches, kept only if every interleaving of the branches meets
//! the preconditions (each command one [`StateMachine::commands`] produces in the state the
//! interleaving reaches, which reflection decides). [`run_parallel`] runs the prefix, then the
//! branches on two threads started together, and searches the interleavings for one whose
//! answers the model gives. A race shows only in some schedules, so a property runs a case
//! several times ([`run_parallel`]'s `repetitions`); a failure that passes when run again is
//! reported as flaky by the runner, and the shrinker keeps only candidates that fail.

use std::fmt::Debug;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use super::{StateMachine, meet_preconditions, steps};
use crate::combinator::{sized, zip};
use crate::generator::Generator;
use crate::node::Gen;

/// A parallel test case: the commands run first, in order, then two branches run at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Parallel<C> {
    /// The commands run before the branches, on one thread.
    pub prefix: Vec<C>,
    /// The two branches, each run in order on a thread of its own.
    pub branches: [Vec<C>; 2],
}

/// The generator of parallel cases of `machine`: a prefix of at most `prefix_len` commands,
/// then two branches of at most `branch_len` each (both about as long as the size allows;
/// `prefix_len` and `branch_len` each at most [`MAX_COMMANDS`](super::MAX_COMMANDS)), such
/// that every interleaving of the branches meets the preconditions: each command one
/// [`StateMachine::commands`] produces in the state the interleaving reaches, which
/// reflection decides, and none in a [finished](StateMachine::finished) state; other cases
/// are filtered out. Keep `branch_len` small (up to 4 or
/// 5): the interleavings grow as the binomial coefficient of the branches' lengths. Run the
/// cases with [`run_parallel`].
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use reflective::prelude::*;
/// use reflective::stateful::{StateMachine, parallel_commands, run_parallel};
///
/// struct Counter;
/// impl StateMachine for Counter {
///     type State = u64;
///     type Command = bool; // true: increment; false: read
///     fn initial_state(&self) -> u64 { 0 }
///     fn commands(&self, _: &u64) -> Gen<bool, bool> { bool().boxed() }
///     fn next_state(&self, count: &u64, increment: &bool) -> u64 { count + u64::from(*increment) }
/// }
///
/// // An atomic counter: every run has an interleaving the model agrees with.
/// reflective::check(&parallel_commands(Counter, 2, 3), |case| {
///     run_parallel(
///         &Counter,
///         case,
///         10,
///         || AtomicU64::new(0),
///         |n, &increment| if increment { n.fetch_add(1, Ordering::SeqCst) + 1 } else { n.load(Ordering::SeqCst) },
///         |count, increment| Counter.next_state(count, increment),
///     )
/// });
/// ```
pub fn parallel_commands<M: StateMachine>(
    machine: M,
    prefix_len: usize,
    branch_len: usize,
) -> Gen<Parallel<M::Command>, Parallel<M::Command>>
where
    M::Command: PartialEq,
{
    let machine = Arc::new(machine);
    let checker = Arc::clone(&machine);
    sized(move |size| {
        let go_on = u32::try_from(size.min(prefix_len)).unwrap_or(u32::MAX);
        let branch_go_on = u32::try_from(size.min(branch_len)).unwrap_or(u32::MAX);
        let machine = Arc::clone(&machine);
        steps(
            Arc::clone(&machine),
            machine.initial_state(),
            prefix_len,
            go_on,
        )
        .focus(|case: &Parallel<M::Command>| Some(case.prefix.as_slice()))
        .bind(move |prefix: Vec<M::Command>| {
            let state = prefix
                .iter()
                .fold(machine.initial_state(), |state, command| {
                    machine.next_state(&state, command)
                });
            let branch = |index: usize| {
                steps(
                    Arc::clone(&machine),
                    state.clone(),
                    branch_len,
                    branch_go_on,
                )
                .focus(move |case: &Parallel<M::Command>| Some(case.branches[index].as_slice()))
            };
            zip(branch(0), branch(1)).map(move |(first, second)| Parallel {
                prefix: prefix.clone(),
                branches: [first, second],
            })
        })
    })
    .filter(move |case| every_interleaving_allowed(&*checker, case))
    .boxed()
}

/// Whether every interleaving of `case`'s branches, after its prefix, runs only commands
/// `machine` allows in the states the interleaving reaches, and none in a finished state.
fn every_interleaving_allowed<M: StateMachine>(machine: &M, case: &Parallel<M::Command>) -> bool
where
    M::Command: PartialEq,
{
    fn allowed<M: StateMachine>(machine: &M, state: &M::State, rest: [&[M::Command]; 2]) -> bool
    where
        M::Command: PartialEq,
    {
        (0..2).all(|side| match rest[side].split_first() {
            None => true,
            Some((command, after)) => {
                !machine.finished(state) && machine.commands(state).can_generate(command) && {
                    let mut next_rest = rest;
                    next_rest[side] = after;
                    allowed(machine, &machine.next_state(state, command), next_rest)
                }
            }
        })
    }
    let state = case
        .prefix
        .iter()
        .fold(machine.initial_state(), |state, command| {
            machine.next_state(&state, command)
        });
    allowed(machine, &state, [&case.branches[0], &case.branches[1]])
}

/// How [`run_parallel`] runs a case: how many times, and how long a run may take before it
/// counts as stuck (a deadlock, a command that waits forever).
///
/// A number converts to that many runs with the default timeout, so `run_parallel(.., 100,
/// ..)` runs a case 100 times.
///
/// ```
/// use std::time::Duration;
/// use reflective::stateful::Runs;
/// let runs = Runs::new(50).timeout(Duration::from_millis(200));
/// assert_eq!(runs.count(), 50);
/// assert_eq!(Runs::from(100).timeout_after(), Runs::DEFAULT_TIMEOUT);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runs {
    count: usize,
    timeout: Duration,
}

impl Runs {
    /// How long a run may take by default: long enough for a few commands on a loaded
    /// machine, short enough that shrinking a deadlock (one timeout per candidate that
    /// deadlocks) ends.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

    /// `count` runs (at least one: 0 counts as 1), each with the default timeout.
    pub fn new(count: usize) -> Self {
        Runs {
            count: count.max(1),
            timeout: Self::DEFAULT_TIMEOUT,
        }
    }

    /// A run that has not finished `timeout` after it started counts as stuck: the prefix
    /// and the branches together (at least 1 ms).
    pub fn timeout(self, timeout: Duration) -> Self {
        Runs {
            timeout: timeout.max(Duration::from_millis(1)),
            ..self
        }
    }

    /// How many runs.
    pub fn count(&self) -> usize {
        self.count
    }

    /// How long a run may take.
    pub fn timeout_after(&self) -> Duration {
        self.timeout
    }
}

impl From<usize> for Runs {
    fn from(count: usize) -> Self {
        Runs::new(count)
    }
}

/// Runs `case` as `runs` says (a number of runs, or a [`Runs`] with a timeout), each on a new
/// system from `new_sut`: the prefix in order, then the two branches on two threads that
/// start together; and checks each run for linearizability (a race shows only in some
/// schedules, so run a case many times: a failure that passes when run again is reported as
/// flaky, and the shrinker keeps only candidates that fail): `execute` runs a command on the
/// system and returns its answer; `expected` is the answer the model gives for a command in
/// a state. The prefix's answers must be the model's; the branches' answers must be the
/// model's for some interleaving of the branches. `Err` with the first run that has no
/// such interleaving: the answers each branch got.
///
/// The commands run on threads of their own, the prefix's too, so a system that deadlocks
/// (or a command that blocks forever) gives `Err` once the run's timeout has passed, saying
/// which command each thread was stuck in, and the case shrinks like any other failure; the
/// stuck threads are left blocked (they hold the system of their run), so the system, the
/// commands and the answers must be `Send` and `'static`.
pub fn run_parallel<M, S, R>(
    machine: &M,
    case: &Parallel<M::Command>,
    runs: impl Into<Runs>,
    new_sut: impl Fn() -> S,
    execute: impl Fn(&S, &M::Command) -> R + Send + Sync + 'static,
    expected: impl Fn(&M::State, &M::Command) -> R,
) -> Result<(), String>
where
    M: StateMachine,
    S: Send + Sync + 'static,
    R: PartialEq + Debug + Send + 'static,
{
    let runs = runs.into();
    let workers = Workers::start(case, execute);
    // `Err` with the first run that fails.
    let every_run = || -> Result<(), String> {
        for run in 0..runs.count {
            let answers = workers.run(new_sut(), runs.timeout).map_err(|stuck| {
                format!(
                    "run {} of {} did not finish within {:?}: {stuck} (a deadlock, or a command \
                     that waits forever? A slow command needs a longer `Runs::timeout`)",
                    run + 1,
                    runs.count,
                    runs.timeout
                )
            })?;
            let mut state = machine.initial_state();
            for (command, answer) in case.prefix.iter().zip(&answers.prefix) {
                let model = expected(&state, command);
                if *answer != model {
                    return Err(format!(
                        "in the prefix, {command:?} answered {answer:?} where the model answers \
                         {model:?}"
                    ));
                }
                state = machine.next_state(&state, command);
            }
            let branches = [&case.branches[0][..], &case.branches[1][..]];
            let [first, second] = &answers.branches;
            if !linearizable(machine, &state, branches, [first, second], &expected) {
                return Err(format!(
                    "no interleaving of the branches gives their answers (run {} of {}): the \
                     first branch answered {first:?}, the second {second:?}",
                    run + 1,
                    runs.count,
                ));
            }
        }
        Ok(())
    };
    every_run().map_err(|error| with_precondition_note(machine, case, error))
}

/// `error` with a note if `case` breaks a precondition (a case written by hand): its prefix
/// run from the initial state, or a branch run right after the prefix. Generated and shrunk
/// cases meet them all, so only a failure checks.
fn with_precondition_note<M: StateMachine>(
    machine: &M,
    case: &Parallel<M::Command>,
    error: String,
) -> String {
    let broken = match meet_preconditions(machine, machine.initial_state(), &case.prefix) {
        Err(broken) => Some(format!("in the prefix, {broken}")),
        Ok(state) => case
            .branches
            .iter()
            .zip(["first", "second"])
            .find_map(|(branch, name)| {
                let broken = meet_preconditions(machine, state.clone(), branch).err()?;
                Some(format!(
                    "in the {name} branch, run after the prefix, {broken}"
                ))
            }),
    };
    match broken {
        Some(broken) => format!("{error} ({broken})"),
        None => error,
    }
}

/// What a run's commands answered.
struct Answers<R> {
    prefix: Vec<R>,
    branches: [Vec<R>; 2],
}

/// What a thread answered in a run: the prefix's answers (the first thread's; none from
/// the second), then its branch's.
type Answered<R> = (Vec<R>, Vec<R>);

/// The two threads that run a case's commands, run after run: the first runs the prefix,
/// then both start their branches together.
struct Workers<C, S, R> {
    case: Arc<Parallel<C>>,
    /// Each thread's queue of runs: the system, and how the run's branches start.
    runs: [mpsc::Sender<(Arc<S>, Arc<Start>)>; 2],
    /// Each thread's answers to a run (`None` if the run was given up), or its panic.
    answers: [mpsc::Receiver<std::thread::Result<Option<Answered<R>>>>; 2],
    /// How many commands each thread has finished in the current run (the first thread
    /// counting the prefix's first), so that a stuck thread says where it is.
    done: Arc<[AtomicUsize; 2]>,
}

impl<C, S, R> Workers<C, S, R>
where
    C: Clone + Debug + Send + Sync + 'static,
    S: Send + Sync + 'static,
    R: Send + 'static,
{
    /// Starts the threads for `case`, running commands with `execute`. They stop when the
    /// workers are dropped, once the run they are in (if any) ends.
    fn start(case: &Parallel<C>, execute: impl Fn(&S, &C) -> R + Send + Sync + 'static) -> Self {
        let (case, execute) = (Arc::new(case.clone()), Arc::new(execute));
        let done = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let channels = [0, 1].map(|side| {
            let (runs, queued) = mpsc::channel::<(Arc<S>, Arc<Start>)>();
            let (answer, answers) = mpsc::channel();
            let (case, execute, done) =
                (Arc::clone(&case), Arc::clone(&execute), Arc::clone(&done));
            std::thread::spawn(move || {
                for (sut, start) in queued {
                    let run = |commands: &[C]| -> Vec<R> {
                        commands
                            .iter()
                            .map(|command| {
                                let answer = execute(&sut, command);
                                done[side].fetch_add(1, Ordering::SeqCst);
                                answer
                            })
                            .collect()
                    };
                    let answered = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        let prefix = if side == 0 {
                            run(&case.prefix)
                        } else {
                            Vec::new()
                        };
                        // Given up (the prefix panicked, or the run timed out): no branch.
                        start
                            .together()
                            .then(|| (prefix, run(&case.branches[side])))
                    }));
                    if answered.is_err() {
                        // A command panicked: the other thread need not wait for this one.
                        start.abandoned.store(true, Ordering::SeqCst);
                    }
                    // A run that timed out left no one to answer: stop.
                    if answer.send(answered).is_err() {
                        return;
                    }
                }
            });
            (runs, answers)
        });
        let [(first_runs, first_answers), (second_runs, second_answers)] = channels;
        Workers {
            case,
            runs: [first_runs, second_runs],
            answers: [first_answers, second_answers],
            done,
        }
    }

    /// Runs the case once on `sut`. `Err` saying where the commands were if they have not
    /// all finished within `timeout` (the threads are then left to finish, or not, on their
    /// own). A command's panic is resumed here.
    fn run(&self, sut: S, timeout: Duration) -> Result<Answers<R>, String> {
        let deadline = Instant::now() + timeout;
        let (sut, start) = (Arc::new(sut), Arc::new(Start::default()));
        for side in 0..2 {
            self.done[side].store(0, Ordering::SeqCst);
            // A thread that is gone panicked in a run before, which was resumed then.
            let _ = self.runs[side].send((Arc::clone(&sut), Arc::clone(&start)));
        }
        let [first, second] = [0, 1].map(|side| {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.answers[side].recv_timeout(left) {
                Ok(answered) => answered.unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(_) => None,
            }
        });
        let (Some((prefix, first)), Some((_, second))) = (first, second) else {
            // A thread still waiting for the other to start the branches stops waiting.
            start.abandoned.store(true, Ordering::SeqCst);
            return Err(self.stuck());
        };
        Ok(Answers {
            prefix,
            branches: [first, second],
        })
    }

    /// Where the threads of a run that timed out were.
    fn stuck(&self) -> String {
        let case = &self.case;
        let [first, second] = [0, 1].map(|side| self.done[side].load(Ordering::SeqCst));
        let Some(first) = first.checked_sub(case.prefix.len()) else {
            return stuck("the prefix", &case.prefix, first);
        };
        format!(
            "{}, {}",
            stuck("the first branch", &case.branches[0], first),
            stuck("the second branch", &case.branches[1], second)
        )
    }
}

/// How a run's two threads start their branches together.
#[derive(Debug, Default)]
struct Start {
    /// How many threads are ready for the branches.
    ready: AtomicUsize,
    /// Whether the run was given up (a command panicked, or the run timed out): a thread
    /// waiting for the other stops waiting.
    abandoned: AtomicBool,
}

impl Start {
    /// Waits until both threads are ready (counting this one), so that the branches start
    /// together; `false` if the run is given up first. Spins (a blocking barrier wakes its
    /// threads tens of microseconds apart, longer than most commands take), then yields the
    /// core to the other thread if it is not running yet (a machine with more threads than
    /// cores, a long prefix), then, past [`YIELDING`], sleeps between looks, so that a thread
    /// whose partner never comes does not hold a core.
    fn together(&self) -> bool {
        self.ready.fetch_add(1, Ordering::SeqCst);
        let began = Instant::now();
        let mut spins = 0u32;
        while self.ready.load(Ordering::SeqCst) < 2 {
            if self.abandoned.load(Ordering::SeqCst) {
                return false;
            }
            spins = spins.saturating_add(1);
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else if began.elapsed() < YIELDING {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(100));
            }
        }
        true
    }
}

/// How long a thread waiting for the other yields the core before it sleeps between looks.
const YIELDING: Duration = Duration::from_millis(10);

/// Where `what` (running `commands`, `done` of them finished) stands.
fn stuck<C: Debug>(what: &str, commands: &[C], done: usize) -> String {
    match commands.get(done) {
        Some(command) => format!("{what} was running its command {} ({command:?})", done + 1),
        None => format!("{what} had finished"),
    }
}

/// Whether some interleaving of `branches` from `state` gives the answers `answered`.
fn linearizable<M: StateMachine, R: PartialEq>(
    machine: &M,
    state: &M::State,
    branches: [&[M::Command]; 2],
    answered: [&[R]; 2],
    expected: &impl Fn(&M::State, &M::Command) -> R,
) -> bool {
    if branches.iter().all(|branch| branch.is_empty()) {
        return true;
    }
    (0..2).any(|side| {
        let Some((command, rest)) = branches[side].split_first() else {
            return false;
        };
        expected(state, command) == answered[side][0] && {
            let (mut next_branches, mut next_answered) = (branches, answered);
            next_branches[side] = rest;
            next_answered[side] = &answered[side][1..];
            let next = machine.next_state(state, command);
            linearizable(machine, &next, next_branches, next_answered, expected)
        }
    })
}
