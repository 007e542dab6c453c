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
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{StateMachine, steps};
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

/// Runs `case` `repetitions` times, each on a new system from `new_sut`: the prefix in order,
/// then the two branches on two threads that start together; and checks each run for
/// linearizability (a race shows only in some schedules, so run a case many times: a
/// failure that passes when run again is reported as flaky, and the shrinker keeps only
/// candidates that fail): `execute` runs a command on the
/// system and returns its answer; `expected` is the answer the model gives for a command in
/// a state. The prefix's answers must be the model's; the branches' answers must be the
/// model's for some interleaving of the branches. `Err` with the first run that has no
/// such interleaving: the answers each branch got.
pub fn run_parallel<M, S, R>(
    machine: &M,
    case: &Parallel<M::Command>,
    repetitions: usize,
    new_sut: impl Fn() -> S,
    execute: impl Fn(&S, &M::Command) -> R + Sync,
    expected: impl Fn(&M::State, &M::Command) -> R,
) -> Result<(), String>
where
    M: StateMachine,
    S: Sync,
    R: PartialEq + Debug + Send,
{
    for repetition in 0..repetitions.max(1) {
        let sut = new_sut();
        let mut state = machine.initial_state();
        for command in &case.prefix {
            let answer = execute(&sut, command);
            let model = expected(&state, command);
            if answer != model {
                return Err(format!(
                    "in the prefix, {command:?} answered {answer:?} where the model answers \
                     {model:?}"
                ));
            }
            state = machine.next_state(&state, command);
        }
        // Both threads spin until both have arrived, so that the branches start together
        // (a blocking barrier wakes its threads tens of microseconds apart, longer than most
        // commands take).
        let arrived = AtomicUsize::new(0);
        let answers: Vec<Vec<R>> = std::thread::scope(|scope| {
            let threads: Vec<_> = case
                .branches
                .iter()
                .map(|branch| {
                    let (sut, execute, arrived) = (&sut, &execute, &arrived);
                    scope.spawn(move || {
                        arrived.fetch_add(1, Ordering::SeqCst);
                        // Spinning, then yielding the core to the other thread if it is
                        // not running yet (a machine with more threads than cores).
                        let mut spins = 0u32;
                        while arrived.load(Ordering::SeqCst) < 2 {
                            spins += 1;
                            if spins < 1 << 12 {
                                std::hint::spin_loop();
                            } else {
                                std::thread::yield_now();
                            }
                        }
                        branch.iter().map(|command| execute(sut, command)).collect()
                    })
                })
                .collect();
            threads
                .into_iter()
                .map(|thread| {
                    thread
                        .join()
                        .unwrap_or_else(|p| std::panic::resume_unwind(p))
                })
                .collect()
        });
        let branches = [&case.branches[0][..], &case.branches[1][..]];
        let answered = [&answers[0][..], &answers[1][..]];
        if !linearizable(machine, &state, branches, answered, &expected) {
            return Err(format!(
                "no interleaving of the branches gives their answers (run {} of {}): the \
                 first branch answered {:?}, the second {:?}",
                repetition + 1,
                repetitions.max(1),
                answers[0],
                answers[1]
            ));
        }
    }
    Ok(())
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
