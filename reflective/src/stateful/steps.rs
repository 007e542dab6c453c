//! The node behind command sequences: each command drawn in the state the ones before it
//! reach, run forward as a loop and reflected through its description.
//!
//! The description ([`described_steps`]) is a recursion of combinators: a `pick` between
//! stopping and one more step, the step a `bind` from the command to the rest. It is what
//! reflects a sequence, and what every interpretation other than running forward reads. Run
//! forward, it builds a boxed `pick`, its branches and a `bind` continuation at every step,
//! and prepends each command to the rest (quadratic in the length). So [`Steps`] runs forward
//! as a loop that asks the source the same choices in the same order, with the same spans
//! and nesting levels, and pushes each command: as a derived type's generator runs its own
//! forward code and its description backward.

use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use super::{MAX_COMMANDS, StateMachine};
use crate::choice::{Label, OpenSpan};
use crate::combinator::pick::Weights;
use crate::combinator::{pick, pure};
use crate::engine::{Backward, Branches, Forward, Halt, Reflected, panic_message};
use crate::generator::Generator;
use crate::node::{Gen, Node, Sealed};

/// The labels of the pick before each command: stop, or go on with one more step.
const STOP_OR_STEP: [Label; 2] = [Label::new("stop"), Label::new("step")];

/// The commands of `machine` after `state`, at most `left` of them (and at most
/// [`MAX_COMMANDS`]), going on before each with weight `go_on` against stopping with weight 1.
pub(super) fn steps<M: StateMachine>(
    machine: Arc<M>,
    state: M::State,
    left: usize,
    go_on: u32,
) -> Gen<[M::Command], Vec<M::Command>> {
    Steps {
        machine,
        state,
        left: left.min(MAX_COMMANDS),
        go_on,
    }
    .boxed()
}

/// [`steps`] as combinators: what reflects, and the choices [`Steps`] makes forward.
fn described_steps<M: StateMachine>(
    machine: Arc<M>,
    state: M::State,
    left: usize,
    go_on: u32,
) -> Gen<[M::Command], Vec<M::Command>> {
    let stop = pure(Vec::new()).focus(|rest: &[M::Command]| rest.is_empty().then_some(&()));
    if left == 0 || go_on == 0 || machine.finished(&state) {
        return stop.boxed();
    }
    let step = machine
        .commands(&state)
        .focus(|rest: &[M::Command]| rest.first())
        .bind(move |command: M::Command| {
            let next = machine.next_state(&state, &command);
            // Built when a command is drawn, so the recursion goes as deep as the sequence.
            described_steps(Arc::clone(&machine), next, left - 1, go_on)
                .focus(|rest: &[M::Command]| rest.get(1..))
                .map(move |mut rest| {
                    rest.insert(0, command.clone());
                    rest
                })
        });
    let [stop_label, step_label] = STOP_OR_STEP;
    pick(((1, stop_label, stop), (go_on, step_label, step))).boxed()
}

/// The generator [`steps`] returns.
struct Steps<M: StateMachine> {
    machine: Arc<M>,
    state: M::State,
    left: usize,
    go_on: u32,
}

/// The two branches of the pick before each command, with the description's weights.
struct StopOrStep {
    go_on: u32,
}

impl Branches for StopOrStep {
    fn arity(&self) -> usize {
        2
    }

    fn weight(&self, index: usize) -> u32 {
        if index == 0 { 1 } else { self.go_on }
    }

    fn label(&self, index: usize) -> Option<&Label> {
        STOP_OR_STEP.get(index)
    }
}

impl<M: StateMachine> Steps<M> {
    /// The description's choices, one step a round: pushes each command to `sequence`, and to
    /// `spans` the span each step opens, once it has entered the step's nesting level (as the
    /// description's `bind` enters one): the caller closes the spans, innermost first, as the
    /// description closes them when its recursion returns, and leaves as many levels.
    fn forward_steps(
        &self,
        run: &mut Forward<'_>,
        sequence: &mut Vec<M::Command>,
        spans: &mut Vec<Option<OpenSpan>>,
    ) -> Result<(), Halt> {
        let branches = StopOrStep { go_on: self.go_on };
        let weights = Weights::of(&branches);
        let mut state = self.state.clone();
        while sequence.len() < self.left && self.go_on > 0 && !self.machine.finished(&state) {
            // Built before the pick, as the description builds its step branch: the model is
            // asked for the same generators, and one that panics does so in both.
            let commands = in_model(&state, sequence, "commands", || {
                self.machine.commands(&state)
            });
            let index = run.pick(&weights.site(&branches))?;
            let span = run.open_span_at_last(branches.label(index as usize));
            if index == 0 {
                run.close_span(span);
                break;
            }
            // A span left open if the level is not entered, as the description leaves it.
            run.enter_level()?;
            spans.push(span);
            let command = in_model(&state, sequence, "commands", || commands.forward(run))?;
            state = in_model(&state, sequence, "next_state", || {
                self.machine.next_state(&state, &command)
            });
            sequence.push(command);
        }
        Ok(())
    }
}

/// Runs `f`, a call of the model's method `method` (or of the generator it gave) in `state`
/// after the commands `before`; a panic in it goes on with them in its message, since
/// the runner reports it without the sequence it was building. The panic goes on unwinding
/// (not panicking again), so that the location of the first panic is the one the runner
/// reports.
fn in_model<C: Debug, S: Debug, R>(
    state: &S,
    before: &[C],
    method: &str,
    f: impl FnOnce() -> R,
) -> R {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        panic::resume_unwind(Box::new(format!(
            "{} (the model's `{method}` in the state {state:?}, after the commands {before:?})",
            panic_message(&*payload)
        )))
    })
}

impl<M: StateMachine> Sealed for Steps<M> {}

impl<M: StateMachine> Node for Steps<M> {
    type Input = [M::Command];
    type Output = Vec<M::Command>;

    fn forward(&self, run: &mut Forward<'_>) -> Result<Vec<M::Command>, Halt> {
        let (mut sequence, mut spans) = (Vec::new(), Vec::new());
        let stepped = self.forward_steps(run, &mut sequence, &mut spans);
        run.leave_levels(spans.len());
        stepped?;
        for span in spans.into_iter().rev() {
            run.close_span(span);
        }
        Ok(sequence)
    }

    fn backward(
        &self,
        sequence: &[M::Command],
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<Vec<M::Command>> {
        described_steps(
            Arc::clone(&self.machine),
            self.state.clone(),
            self.left,
            self.go_on,
        )
        .backward(sequence, run, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DefaultRng;
    use crate::combinator::{range, sized};
    use rand_core::SeedableRng;

    /// A counter that may add 1 to 3, or reset once above 4, and stops at 7.
    struct Counter;

    impl StateMachine for Counter {
        type State = u32;
        type Command = u32;

        fn initial_state(&self) -> u32 {
            0
        }

        fn commands(&self, total: &u32) -> Gen<u32, u32> {
            let reset = u32::from(*total > 4);
            pick((
                (3, "add", range(1u32..=3).boxed()),
                (
                    reset,
                    "reset",
                    pure(0u32).focus(|c: &u32| (*c == 0).then_some(&())).boxed(),
                ),
            ))
            .boxed()
        }

        fn next_state(&self, total: &u32, add: &u32) -> u32 {
            if *add == 0 { 0 } else { total + add }
        }

        fn finished(&self, total: &u32) -> bool {
            *total == 7
        }
    }

    /// The totals [`Counter`] goes through on `commands`, the initial one first.
    fn totals(commands: &[u32]) -> Vec<u32> {
        commands.iter().fold(vec![0], |mut totals, &command| {
            totals.push(Counter.next_state(totals.last().unwrap(), &command));
            totals
        })
    }

    /// [`steps`] or [`described_steps`] for [`Counter`].
    type MakeSteps = fn(Arc<Counter>, u32, usize, u32) -> Gen<[u32], Vec<u32>>;

    /// `make`'s sequences of at most `left` commands, going on with the size's weight.
    fn by(make: MakeSteps, left: usize) -> Gen<[u32], Vec<u32>> {
        sized(move |size| make(Arc::new(Counter), 0, left, u32::try_from(size).unwrap_or(0)))
            .boxed()
    }

    #[test]
    fn the_loop_makes_the_description_s_choices_and_values() {
        let (looped, described) = (by(steps, 12), by(described_steps, 12));
        for seed in 0..300 {
            for size in [0, 1, 3, 10, 40] {
                let rng = || DefaultRng::seed_from_u64(seed);
                let fast = looped.try_generate(&mut rng(), size).expect("generates");
                let slow = described.try_generate(&mut rng(), size).expect("generates");
                assert_eq!(fast, slow, "seed {seed}, size {size}");
                assert_eq!(described.replay(&fast.tree), Some(fast.value.clone()));
                assert_eq!(looped.replay(&slow.tree), Some(slow.value));
            }
        }
    }

    /// Both end a sequence where it reaches a finished state (a total of 7), and reflect no
    /// sequence that goes on from one.
    #[test]
    fn a_sequence_ends_at_a_finished_state() {
        let (looped, described) = (by(steps, 12), by(described_steps, 12));
        let mut ended = 0;
        for seed in 0..300 {
            let sequence = looped.generate_value(&mut DefaultRng::seed_from_u64(seed), 40);
            let totals = totals(&sequence);
            assert!(!totals[..totals.len() - 1].contains(&7), "{sequence:?}");
            ended += usize::from(totals.last() == Some(&7));
        }
        assert!(ended > 10, "{ended} of 300 sequences reached 7");
        for g in [&looped, &described] {
            assert!(g.can_generate(&[3, 3, 1]));
            assert!(!g.can_generate(&[3, 3, 1, 2]));
        }
    }

    /// Also two sequences one after the other, so that levels the first left entered would
    /// stop the second earlier.
    #[test]
    fn the_loop_stops_at_the_nesting_limit_where_the_description_does() {
        use crate::combinator::zip;
        use crate::engine::source::random::RandomSource;
        let twice = |make: MakeSteps| {
            zip(
                by(make, 40).focus(|pair: &(Vec<u32>, Vec<u32>)| Some(pair.0.as_slice())),
                by(make, 40).focus(|pair: &(Vec<u32>, Vec<u32>)| Some(pair.1.as_slice())),
            )
            .map(|(first, second)| [first, second].concat())
            .boxed()
        };
        let (looped, described) = (twice(steps), twice(described_steps));
        let mut stopped = 0;
        for seed in 0..200 {
            let run = |g: &Gen<(Vec<u32>, Vec<u32>), Vec<u32>>| {
                let mut rng = DefaultRng::seed_from_u64(seed);
                let mut source = RandomSource::new(&mut rng);
                let mut run = Forward::new(&mut source, 30, true).with_max_depth(12);
                let value = g.forward(&mut run);
                (value, run.into_tree())
            };
            let (fast, slow) = (run(&looped), run(&described));
            assert_eq!(fast, slow, "seed {seed}");
            stopped += usize::from(fast.0.is_err());
        }
        assert!(stopped > 0, "no sequence reached the nesting limit");
    }
}
