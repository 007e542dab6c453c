//! Stateful testing: sequences of commands generated from a model of the system under test,
//! each command drawn from the commands the model allows in the state the ones before it
//! reach, then run against the system and the model side by side.
//!
//! A [`StateMachine`] is the model: its initial state, the commands that may run in a state
//! (a generator: every command it produces meets the command's preconditions), the state a
//! command leads to, and which states are finished (nothing may run there: a sequence ends).
//! [`commands`] makes the generator of command sequences: a reflective generator like any
//! other, so its sequences replay from one line, shrink by the choice
//! shrinker (a command deleted, the commands after it drawn again from the state they now
//! follow, a command made simpler), mutate, and reflect from a sequence written by hand.
//! Because every sequence is one the generator makes, every generated, shrunk or mutated
//! sequence meets every precondition: there is nothing to filter and nothing to check
//! again. [`run`] steps the system and the model through a sequence, handing each step to the
//! property.
//!
//! ```
//! use reflective::prelude::*;
//! use reflective::stateful::{StateMachine, commands, run};
//!
//! /// A stack's model: the values on it; `Pop` only when it holds one.
//! struct Stack;
//! #[derive(Clone, Debug, PartialEq)]
//! enum Command { Push(u8), Pop }
//!
//! impl StateMachine for Stack {
//!     type State = Vec<u8>;
//!     type Command = Command;
//!     fn initial_state(&self) -> Vec<u8> { Vec::new() }
//!     fn commands(&self, state: &Vec<u8>) -> Gen<Command, Command> {
//!         let push = range(0u8..=9)
//!             .focus(|c: &Command| match c { Command::Push(x) => Some(x), _ => None })
//!             .map(Command::Push);
//!         let pop = exact(Command::Pop);
//!         // `Pop` only on a stack that holds a value: weight 0 otherwise.
//!         let can_pop = u32::from(!state.is_empty());
//!         pick(((2, "push", push.boxed()), (can_pop, "pop", pop.boxed()))).boxed()
//!     }
//!     fn next_state(&self, state: &Vec<u8>, command: &Command) -> Vec<u8> {
//!         let mut next = state.clone();
//!         match command {
//!             Command::Push(x) => next.push(*x),
//!             Command::Pop => { next.pop(); }
//!         }
//!         next
//!     }
//! }
//!
//! reflective::check(&commands(Stack, 30), |sequence: &Vec<Command>| {
//!     run(&Stack, sequence, Vec::new(), |sut: &mut Vec<u8>, before, command, _after| {
//!         match command {
//!             Command::Push(x) => sut.push(*x),
//!             Command::Pop => assert_eq!(sut.pop().as_ref(), before.last()),
//!         }
//!     });
//! });
//! ```

mod parallel;
mod steps;

use std::any::Any;
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

pub use parallel::{Parallel, Runs, parallel_commands, run_parallel};
use steps::steps;

use crate::combinator::sized;
use crate::engine::{DEFAULT_SIZE, LARGEST_SIZE, ReflectError, caught_aside, is_quiet, panic_text};
use crate::generator::Generator;
use crate::node::Gen;

/// A model of a system under test: its states and the commands that move between them.
pub trait StateMachine: Send + Sync + 'static {
    /// The model's state.
    type State: Clone + Debug + Send + Sync + 'static;
    /// A command the system can run.
    type Command: Clone + Debug + Send + Sync + 'static;

    /// The state before any command.
    fn initial_state(&self) -> Self::State;

    /// The commands that may run in `state`: every command this generator produces must meet
    /// the command's preconditions there. It reflects commands as any generator does (each
    /// `map` undone by a `focus`), so that sequences reflect and shrink.
    ///
    /// Shrinking deletes commands and replays the choices of the ones after them in the
    /// states they now reach, so it works best when the choices mean the same in every
    /// state: the same `pick` of every command each time, a command the preconditions rule
    /// out weighing 0 (a stack's pop: `pick(((1, "push", push), (u32::from(!empty), "pop",
    /// pop)))`), rather than a generator of another shape where fewer commands are allowed.
    /// Likewise a command's argument drawn from the state (`select(keys)`, the keys a store
    /// holds) means another value once a deleted command changes the state: where the
    /// system allows any value (a `Get` of a key that may be absent), draw from a fixed
    /// domain (`range(0u8..=9)`), so that the other commands stay as they were.
    /// At least one command must be allowed in every state the model reaches that is not
    /// [`finished`](StateMachine::finished): a `pick` whose branches all weigh 0 panics.
    fn commands(&self, state: &Self::State) -> Gen<Self::Command, Self::Command>;

    /// The state `command` leads to from `state`.
    fn next_state(&self, state: &Self::State, command: &Self::Command) -> Self::State;

    /// Whether no command may run in `state` (a closed connection, a protocol run to its
    /// end): a sequence ends when it reaches such a state, without asking
    /// [`commands`](StateMachine::commands) there, and a sequence with a command after it
    /// does not reflect. No state is finished unless this says so.
    ///
    /// ```
    /// # use reflective::prelude::*;
    /// # use reflective::stateful::{StateMachine, commands};
    /// /// A connection that sends bytes until it is closed (`None`).
    /// struct Connection;
    /// impl StateMachine for Connection {
    ///     type State = bool; // closed
    ///     type Command = Option<u8>;
    ///     fn initial_state(&self) -> bool { false }
    ///     fn commands(&self, _: &bool) -> Gen<Option<u8>, Option<u8>> {
    ///         option(range(0u8..=9)).boxed()
    ///     }
    ///     fn next_state(&self, closed: &bool, command: &Option<u8>) -> bool {
    ///         *closed || command.is_none()
    ///     }
    ///     fn finished(&self, closed: &bool) -> bool { *closed }
    /// }
    /// let g = commands(Connection, 20);
    /// for sequence in (0..50).map(|seed| g.sample(seed)) {
    ///     assert!(sequence.iter().rev().skip(1).all(Option::is_some), "{sequence:?}");
    /// }
    /// assert!(g.can_generate(&vec![Some(1), None]));
    /// assert!(!g.can_generate(&vec![None, Some(1)]));
    /// ```
    fn finished(&self, state: &Self::State) -> bool {
        let _ = state;
        false
    }
}

/// The most commands a sequence holds, whatever length is asked for: each command is a
/// nesting level of the generator (as each level of a recursion is), and generation and
/// reflection stop at 100 000 levels. A longer sequence written by hand does not reflect.
pub const MAX_COMMANDS: usize = 50_000;

/// The generator of command sequences of `machine`, at most `max_len` long (and at most
/// [`MAX_COMMANDS`]), ending at the first [finished](StateMachine::finished) state: each
/// command drawn from [`StateMachine::commands`] in the state the commands before it reach. Before
/// each command the sequence goes on with weight `w` and stops with weight 1, `w` the size
/// (up to `max_len`): sequences are empty at size 0, about as long as the size below
/// `max_len`, and cut at `max_len` (about 0.6 × `max_len` long on average at sizes of
/// `max_len` and above).
///
/// ```
/// # use reflective::prelude::*;
/// # use reflective::stateful::{StateMachine, commands};
/// struct Counter;
/// impl StateMachine for Counter {
///     type State = u32;
///     type Command = u32;
///     fn initial_state(&self) -> u32 { 0 }
///     // Each command adds at least what the total is so far: 1 at first.
///     fn commands(&self, total: &u32) -> Gen<u32, u32> {
///         range((*total).max(1)..=*total + 5).boxed()
///     }
///     fn next_state(&self, total: &u32, add: &u32) -> u32 { total + add }
/// }
/// let g = commands(Counter, 10);
/// let sequence = g.sample(4);
/// assert!(sequence.len() <= 10);
/// assert!(g.can_generate(&vec![1, 1, 2, 4]));
/// assert!(!g.can_generate(&vec![1, 0]));
/// ```
pub fn commands<M: StateMachine>(
    machine: M,
    max_len: usize,
) -> Gen<Vec<M::Command>, Vec<M::Command>> {
    let machine = Arc::new(machine);
    sized(move |size| {
        let go_on = u32::try_from(size.min(max_len)).unwrap_or(u32::MAX);
        steps(
            Arc::clone(&machine),
            machine.initial_state(),
            max_len,
            go_on,
        )
    })
    .focus(|sequence: &Vec<M::Command>| Some(sequence.as_slice()))
    .boxed()
}

/// Runs `sequence` on the system `sut` and on `machine`'s model side by side: for each
/// command, `step` gets the system, the model's state before the command, the command and
/// the state after it; it runs the command on the system and checks the system against the
/// model (panicking, or with `assert!`, where they disagree). Returns the system and the
/// model's last state.
///
/// Generated, shrunk and mutated sequences meet every precondition, so `run` does not check
/// them as it goes. When a step panics, it checks the commands run so far: if one of them is
/// not a command [`StateMachine::commands`] produces in the state it ran in (a sequence
/// written by hand that breaks a precondition), the panic's message says which, since the
/// failure may be the sequence's rather than the system's.
///
/// ```should_panic
/// # use reflective::prelude::*;
/// # use reflective::stateful::{StateMachine, run};
/// # struct Stack;
/// # impl StateMachine for Stack {
/// #     type State = Vec<u8>;
/// #     type Command = Option<u8>;
/// #     fn initial_state(&self) -> Vec<u8> { Vec::new() }
/// #     fn commands(&self, state: &Vec<u8>) -> Gen<Option<u8>, Option<u8>> {
/// #         let push = range(0u8..=9).focus(|c: &Option<u8>| c.as_ref()).map(Some);
/// #         let can_pop = u32::from(!state.is_empty());
/// #         pick(((1, "push", push.boxed()), (can_pop, "pop", exact(None).boxed()))).boxed()
/// #     }
/// #     fn next_state(&self, state: &Vec<u8>, command: &Option<u8>) -> Vec<u8> {
/// #         let mut next = state.clone();
/// #         match command { Some(x) => next.push(*x), None => { next.pop(); } }
/// #         next
/// #     }
/// # }
/// // `None` pops; a pop of an empty stack breaks its precondition. The panic's message
/// // ends: (command 1, None, is not one the model's `commands` makes in the state [], after
/// // the commands []: the sequence breaks a precondition)
/// run(&Stack, &[None], Vec::<u8>::new(), |sut, _, command, _| match command {
///     Some(x) => sut.push(*x),
///     None => assert!(sut.pop().is_some(), "popped an empty stack"),
/// });
/// ```
pub fn run<M: StateMachine, S>(
    machine: &M,
    sequence: &[M::Command],
    mut sut: S,
    mut step: impl FnMut(&mut S, &M::State, &M::Command, &M::State),
) -> (S, M::State) {
    let mut state = machine.initial_state();
    for (index, command) in sequence.iter().enumerate() {
        // The model's step too: a command that breaks a precondition often makes the model
        // panic first (a pop of an empty model stack).
        let stepped = panic::catch_unwind(AssertUnwindSafe(|| {
            let next = machine.next_state(&state, command);
            step(&mut sut, &state, command, &next);
            next
        }));
        match stepped {
            Ok(next) => state = next,
            Err(payload) => unwind_with_note(machine, sequence, index, payload),
        }
    }
    (sut, state)
}

/// Goes on unwinding the panic `payload` of the step of command `index` of `sequence`, with a
/// note if that command or one before it breaks a precondition (see [`run`]).
fn unwind_with_note<M: StateMachine>(
    machine: &M,
    sequence: &[M::Command],
    index: usize,
    payload: Box<dyn Any + Send>,
) -> ! {
    // The commands before it with their states; its own step is what panicked.
    let checked = meet_preconditions(machine, machine.initial_state(), &sequence[..index])
        .and_then(|state| allowed(machine, &state, sequence, index));
    let Err(broken) = checked else {
        panic::resume_unwind(payload)
    };
    let Some(text) = panic_text(&*payload) else {
        // A payload of another type (`panic_any`) goes on as it is, for whoever catches it:
        // the note can only be printed.
        eprintln!("note (reflective::stateful::run): {broken}");
        panic::resume_unwind(payload)
    };
    if !is_quiet() {
        // The panic's message is on stderr already, where a plain test shows it.
        eprintln!("note (reflective::stateful::run): {broken}");
    }
    panic::resume_unwind(Box::new(format!("{text} ({broken})")))
}

/// The state `sequence` leads `machine`'s model to from `state`, or, if one of its commands
/// is not one [`StateMachine::commands`] produces in the state it runs in (at any size), or
/// follows a [finished](StateMachine::finished) state, which one and where, in words; the
/// same if the model panics on the way (its `commands` or its `next_state`).
fn meet_preconditions<M: StateMachine>(
    machine: &M,
    mut state: M::State,
    sequence: &[M::Command],
) -> Result<M::State, String> {
    for (index, command) in sequence.iter().enumerate() {
        allowed(machine, &state, sequence, index)?;
        state = caught_aside(|| machine.next_state(&state, command)).map_err(|message| {
            at_command(
                sequence,
                index,
                &format!("made the model's `next_state` panic in the state {state:?}: {message}"),
            )
        })?;
    }
    Ok(state)
}

/// Whether command `index` of `sequence` may run in `state` (see [`meet_preconditions`]):
/// `Err` with the note if not.
fn allowed<M: StateMachine>(
    machine: &M,
    state: &M::State,
    sequence: &[M::Command],
    index: usize,
) -> Result<(), String> {
    let broken = |made: &str| {
        let what = format!("{made} {state:?}");
        Err(format!(
            "{}: the sequence breaks a precondition",
            at_command(sequence, index, &what)
        ))
    };
    if machine.finished(state) {
        return broken("follows the finished state");
    }
    match caught_aside(|| makes(machine, state, &sequence[index])) {
        Ok(Ok(true)) => Ok(()),
        Ok(Ok(false)) => broken("is not one the model's `commands` makes in the state"),
        Ok(Err(error)) => Err(at_command(
            sequence,
            index,
            &format!("could not be checked in the state {state:?}: {error}"),
        )),
        Err(message) => Err(at_command(
            sequence,
            index,
            &format!(
                "could not be checked: the model's `commands` panicked in the state {state:?}: \
                 {message}"
            ),
        )),
    }
}

/// `what` said of command `index` of `sequence`, with the commands before it.
fn at_command<C: Debug>(sequence: &[C], index: usize, what: &str) -> String {
    format!(
        "command {}, {:?}, {what}, after the commands {:?}",
        index + 1,
        sequence[index],
        &sequence[..index]
    )
}

/// Whether `command` is one `machine`'s `commands` makes in `state`: at the default size, or
/// at the largest (a run's cases may be larger than the default size's); `Err` if reflection
/// runs out of its budget.
fn makes<M: StateMachine>(
    machine: &M,
    state: &M::State,
    command: &M::Command,
) -> Result<bool, ReflectError> {
    let commands = machine.commands(state);
    for size in [DEFAULT_SIZE, LARGEST_SIZE] {
        if commands.reflector().size(size).can_generate(command)? {
            return Ok(true);
        }
    }
    Ok(false)
}
