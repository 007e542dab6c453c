//! The threads `run_parallel` starts end with it, when a command of the prefix panics or the
//! run times out, but for the one stuck in a command that never returns. (A test binary of
//! its own: it counts the process's threads.)

use std::time::Duration;

use reflective::prelude::*;
use reflective::stateful::{Parallel, Runs, StateMachine, run_parallel};

/// A model of commands that do nothing, panic or never return.
struct Model;

#[derive(Clone, Debug, PartialEq)]
enum Command {
    Noop,
    Boom,
    Hang,
}

impl StateMachine for Model {
    type State = ();
    type Command = Command;

    fn initial_state(&self) {}

    fn commands(&self, _: &()) -> Gen<Command, Command> {
        exact(Command::Noop).boxed()
    }

    fn next_state(&self, _: &(), _: &Command) {}
}

fn execute(_: &(), command: &Command) {
    match command {
        Command::Noop => {}
        Command::Boom => panic!("boom"),
        Command::Hang => loop {
            std::thread::park();
        },
    }
}

/// The process's threads, from `/proc/self/status`.
#[cfg(target_os = "linux")]
fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("Threads:"))
        .unwrap();
    line["Threads:".len()..].trim().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn the_threads_end_when_the_prefix_panics_or_the_run_times_out() {
    let case = |prefix| Parallel {
        prefix: vec![Command::Noop, prefix],
        branches: [vec![Command::Noop], vec![Command::Noop]],
    };
    let runs = Runs::new(2).timeout(Duration::from_millis(50));
    let before = threads();
    for _ in 0..4 {
        let panicked = reflective::check::quietly(|| {
            std::panic::catch_unwind(|| {
                run_parallel(&Model, &case(Command::Boom), 2, || (), execute, |_, _| ())
            })
        });
        assert!(panicked.is_err(), "{panicked:?}");
    }
    for _ in 0..3 {
        let stuck = run_parallel(
            &Model,
            &case(Command::Hang),
            runs,
            || (),
            execute,
            |_, _| (),
        );
        assert!(
            stuck
                .unwrap_err()
                .contains("the prefix was running its command 2 (Hang)")
        );
    }
    // Each worker that is not stuck sees its run given up, and ends.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        threads(),
        before + 3,
        "one thread stuck in each hanging prefix"
    );
}
