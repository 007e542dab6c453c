//! Stateful testing: command sequences from a model find a queue's off-by-one and a store's
//! bug that needs four commands in order, shrink to the shortest sequence, and every sequence
//! generated or shrunk meets every precondition.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};

use reflective::ShrinkBudget;
use reflective::check::{Config, try_check_with};
use reflective::prelude::*;
use reflective::stateful::{
    MAX_COMMANDS, Parallel, StateMachine, commands, parallel_commands, run, run_parallel,
};

/// A bounded queue's model: the values in it, at most [`CAPACITY`].
struct QueueModel;

const CAPACITY: usize = 3;

#[derive(Clone, Debug, PartialEq)]
enum QueueCommand {
    Push(u8),
    Pop,
}

impl StateMachine for QueueModel {
    type State = VecDeque<u8>;
    type Command = QueueCommand;

    fn initial_state(&self) -> VecDeque<u8> {
        VecDeque::new()
    }

    fn commands(&self, queue: &VecDeque<u8>) -> Gen<QueueCommand, QueueCommand> {
        let push = range(0u8..=9)
            .focus(|c: &QueueCommand| match c {
                QueueCommand::Push(x) => Some(x),
                QueueCommand::Pop => None,
            })
            .map(QueueCommand::Push)
            .boxed();
        let pop = exact(QueueCommand::Pop).boxed();
        // The same pick in every state, a command its preconditions rule out weighing 0:
        // a shrunk sequence's choices keep their meaning in the states they now reach.
        let can_push = u32::from(queue.len() < CAPACITY);
        let can_pop = u32::from(!queue.is_empty());
        pick(((can_push, "push", push), (can_pop, "pop", pop))).boxed()
    }

    fn next_state(&self, queue: &VecDeque<u8>, command: &QueueCommand) -> VecDeque<u8> {
        let mut next = queue.clone();
        match command {
            QueueCommand::Push(x) => next.push_back(*x),
            QueueCommand::Pop => {
                next.pop_front();
            }
        }
        next
    }
}

/// Whether `sequence` meets the queue's preconditions: no pop when empty, no push when full.
fn queue_preconditions_hold(sequence: &[QueueCommand]) -> bool {
    let mut len = 0;
    sequence.iter().all(|command| match command {
        QueueCommand::Push(_) if len < CAPACITY => {
            len += 1;
            true
        }
        QueueCommand::Pop if len > 0 => {
            len -= 1;
            true
        }
        _ => false,
    })
}

/// A ring buffer with an off-by-one: the read position wraps one slot early, so a pop after
/// the write position has wrapped reads a stale slot.
struct Ring {
    slots: [u8; CAPACITY + 1],
    read: usize,
    write: usize,
}

impl Ring {
    fn new() -> Self {
        Ring {
            slots: [0; CAPACITY + 1],
            read: 0,
            write: 0,
        }
    }

    fn push(&mut self, x: u8) {
        self.slots[self.write] = x;
        self.write = (self.write + 1) % (CAPACITY + 1);
    }

    fn pop(&mut self) -> u8 {
        let x = self.slots[self.read];
        // The bug: `% (CAPACITY + 1)`.
        self.read = (self.read + 1) % CAPACITY;
        x
    }
}

/// Whether the ring pops what the model pops, for `sequence`.
fn ring_agrees(sequence: &[QueueCommand]) -> bool {
    let mut agrees = true;
    run(
        &QueueModel,
        sequence,
        Ring::new(),
        |ring, before, command, _| match command {
            QueueCommand::Push(x) => ring.push(*x),
            QueueCommand::Pop => agrees &= Some(&ring.pop()) == before.front(),
        },
    );
    agrees
}

#[test]
fn sequences_meet_the_preconditions_and_the_queue_bug_shrinks_to_the_shortest_sequence() {
    let g = commands(QueueModel, 40);
    let mut rng = DefaultRng::seed_from_u64(1);
    let (mut found, mut shortest) = (0, 0);
    for _ in 0..400 {
        let generated = g.generate(&mut rng, 60);
        assert!(
            queue_preconditions_hold(&generated.value),
            "{:?}",
            generated.value
        );
        if ring_agrees(&generated.value) {
            continue;
        }
        found += 1;
        let shrunk = g.shrink_generated(
            generated,
            |s: &Vec<QueueCommand>| {
                assert!(queue_preconditions_hold(s), "shrunk to {s:?}");
                !ring_agrees(s)
            },
            ShrinkBudget::default(),
        );
        // The shortest failing sequences hold 4 pushes and 4 pops, in any order the
        // preconditions allow: the third pop wraps early, the fourth reads a stale slot (0,
        // where the fourth push wrote 1).
        let minimal = [
            QueueCommand::Push(0),
            QueueCommand::Push(0),
            QueueCommand::Push(0),
            QueueCommand::Pop,
            QueueCommand::Pop,
            QueueCommand::Pop,
            QueueCommand::Push(1),
            QueueCommand::Pop,
        ];
        assert!(!ring_agrees(&minimal));
        assert!(shrunk.value.len() >= minimal.len(), "{:?}", shrunk.value);
        shortest += usize::from(shrunk.value.len() == minimal.len());
    }
    assert!(
        found >= 50,
        "the bug fired in only {found} of 400 sequences"
    );
    // The minimum in at least 95% of the failures.
    assert!(
        shortest * 100 >= found * 95,
        "{shortest} of {found} shrank to the minimum length"
    );
}

/// A key-value store's model: its map.
struct StoreModel;

#[derive(Clone, Debug, PartialEq)]
enum StoreCommand {
    Put(u8, u8),
    Delete(u8),
    Get(u8),
}

impl StateMachine for StoreModel {
    type State = BTreeMap<u8, u8>;
    type Command = StoreCommand;

    fn initial_state(&self) -> BTreeMap<u8, u8> {
        BTreeMap::new()
    }

    fn commands(&self, map: &BTreeMap<u8, u8>) -> Gen<StoreCommand, StoreCommand> {
        let put = zip(
            range(0u8..=3).focus(|c: &StoreCommand| match c {
                StoreCommand::Put(k, _) => Some(k),
                _ => None,
            }),
            range(0u8..=3).focus(|c: &StoreCommand| match c {
                StoreCommand::Put(_, v) => Some(v),
                _ => None,
            }),
        )
        .map(|(k, v)| StoreCommand::Put(k, v))
        .boxed();
        let get = range(0u8..=3)
            .focus(|c: &StoreCommand| match c {
                StoreCommand::Get(k) => Some(k),
                _ => None,
            })
            .map(StoreCommand::Get)
            .boxed();
        // Delete only a key the store holds.
        let keys: Vec<u8> = map.keys().copied().collect();
        if keys.is_empty() {
            return pick(((2, "put", put), (1, "get", get))).boxed();
        }
        let delete = range(0..=keys.len() - 1)
            .comap(move |c: &StoreCommand| match c {
                StoreCommand::Delete(k) => keys.iter().position(|key| key == k),
                _ => None,
            })
            .map({
                let keys: Vec<u8> = map.keys().copied().collect();
                move |i| StoreCommand::Delete(keys[i])
            })
            .boxed();
        pick(((2, "put", put), (1, "delete", delete), (1, "get", get))).boxed()
    }

    fn next_state(&self, map: &BTreeMap<u8, u8>, command: &StoreCommand) -> BTreeMap<u8, u8> {
        let mut next = map.clone();
        match command {
            StoreCommand::Put(k, v) => {
                next.insert(*k, *v);
            }
            StoreCommand::Delete(k) => {
                next.remove(k);
            }
            StoreCommand::Get(_) => {}
        }
        next
    }
}

/// A store that deletes by leaving a tombstone, and forgets to clear it when the key is put
/// again: a get after put, delete, put finds nothing.
#[derive(Default)]
struct Tombstones {
    values: HashMap<u8, u8>,
    deleted: HashMap<u8, bool>,
}

impl Tombstones {
    fn put(&mut self, k: u8, v: u8) {
        self.values.insert(k, v);
    }

    fn delete(&mut self, k: u8) {
        self.deleted.insert(k, true);
    }

    fn get(&self, k: u8) -> Option<u8> {
        match self.deleted.get(&k) {
            Some(true) => None,
            _ => self.values.get(&k).copied(),
        }
    }
}

/// Whether the store gets what the model holds, for `sequence`; and whether every delete
/// was of a key the model held.
fn store_agrees(sequence: &[StoreCommand]) -> (bool, bool) {
    let (mut agrees, mut preconditions) = (true, true);
    run(
        &StoreModel,
        sequence,
        Tombstones::default(),
        |store, before, command, _| match command {
            StoreCommand::Put(k, v) => store.put(*k, *v),
            StoreCommand::Delete(k) => {
                preconditions &= before.contains_key(k);
                store.delete(*k);
            }
            StoreCommand::Get(k) => agrees &= store.get(*k) == before.get(k).copied(),
        },
    );
    (agrees, preconditions)
}

#[test]
fn the_store_bug_needs_four_commands_in_order_and_the_runner_shrinks_to_them() {
    let g = commands(StoreModel, 40);
    let mut rng = DefaultRng::seed_from_u64(2);
    for _ in 0..300 {
        let (_, preconditions) = store_agrees(&g.generate_value(&mut rng, 60));
        assert!(preconditions);
    }
    let config = Config::new().cases(1000).seed(5);
    let report = try_check_with(&config, &g, |sequence: &Vec<StoreCommand>| {
        let (agrees, preconditions) = store_agrees(sequence);
        assert!(preconditions, "{sequence:?}");
        agrees
    })
    .unwrap_err()
    .to_string();
    let compact = reflective_tests::compact(&report);
    assert!(
        compact.contains("minimalcounterexample:[Put(0,0),Delete(0),Put(0,0),Get(0)]"),
        "{report}"
    );
}

#[test]
fn a_sequence_written_by_hand_reflects_only_if_it_meets_the_preconditions() {
    let g = commands(StoreModel, 10);
    let by_hand = vec![
        StoreCommand::Put(2, 1),
        StoreCommand::Get(2),
        StoreCommand::Delete(2),
        StoreCommand::Get(2),
    ];
    assert!(g.can_generate(&by_hand));
    assert!(!g.can_generate(&vec![StoreCommand::Delete(2)]));
    // Its mutants meet the preconditions too.
    for mutant in g.mutator().mutants(&by_hand, 3).unwrap().take(200) {
        assert!(store_agrees(&mutant.value).1, "{:?}", mutant.value);
    }
}

/// Runs `sequence` on a queue that checks each pop against the model's front, as a
/// regression test written by hand would; the panic's message if a step fails.
fn hand_written_queue_run(sequence: &[QueueCommand]) -> Option<String> {
    let caught = reflective::check::quietly(|| {
        std::panic::catch_unwind(|| {
            run(
                &QueueModel,
                sequence,
                VecDeque::new(),
                |sut, before, command, _| match command {
                    QueueCommand::Push(x) => sut.push_back(*x),
                    QueueCommand::Pop => {
                        let popped = sut.pop_front();
                        assert!(popped.is_some(), "popped nothing");
                        assert_eq!(popped.as_ref(), before.front());
                    }
                },
            );
        })
    });
    caught.err().map(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(ToString::to_string))
            .unwrap_or_default()
    })
}

#[test]
fn a_failing_run_of_a_sequence_that_breaks_a_precondition_says_which_command_breaks_it() {
    use QueueCommand::{Pop, Push};
    // The third command pops an empty queue: the sequence, not the queue, is wrong.
    let message = hand_written_queue_run(&[Push(1), Pop, Pop]).expect("the run fails");
    assert_eq!(
        message,
        "popped nothing (command 3, Pop, is not one the model's `commands` makes in the state \
         [], after the commands [Push(1), Pop]: the sequence breaks a precondition)"
    );
    // A push on a full queue, before the step that fails.
    let message =
        hand_written_queue_run(&[Push(1), Push(2), Push(3), Push(4), Pop, Pop, Pop, Pop, Pop])
            .expect("the run fails");
    assert!(
        message.starts_with("popped nothing (command 4, Push(4), is not one"),
        "{message}"
    );
    // A sequence that meets the preconditions fails with the step's message alone.
    let message = hand_written_queue_run(&[Push(1), Pop]);
    assert_eq!(message, None);
    // Under the runner, the failure keeps the step's location and gets the note.
    let config = Config::new().cases(1).regressions(false);
    let report = try_check_with(&config, &exact(()), |_: &()| {
        run(
            &QueueModel,
            &[QueueCommand::Pop],
            VecDeque::<u8>::new(),
            |sut, _, _, _| {
                assert!(sut.pop_front().is_some(), "popped nothing");
            },
        );
    })
    .unwrap_err()
    .to_string();
    assert!(
        report.contains("popped nothing (command 1, Pop, is not one the model's `commands` makes"),
        "{report}"
    );
    assert!(
        report.contains("reflective-tests/tests/stateful.rs:"),
        "{report}"
    );
}

/// A log of writes: each command writes a list of bytes, as long as the size allows; its
/// model counts the writes, and panics on a write after the third (a model's own bug).
struct WritesModel;

impl StateMachine for WritesModel {
    type State = usize;
    type Command = Vec<u8>;

    fn initial_state(&self) -> usize {
        0
    }

    fn commands(&self, writes: &usize) -> Gen<Vec<u8>, Vec<u8>> {
        assert!(*writes < 3, "the model takes three writes");
        vec(range(0u8..=1), ..).boxed()
    }

    fn next_state(&self, writes: &usize, _: &Vec<u8>) -> usize {
        writes + 1
    }
}

#[test]
fn the_precondition_note_is_only_for_commands_the_model_does_not_make() {
    // Generated at sizes above the default, the commands meet every precondition: no note.
    let config = Config::new()
        .max_size(300)
        .cases(400)
        .seed(1)
        .regressions(false);
    let report = try_check_with(
        &config,
        &commands(WritesModel, 3),
        |writes: &Vec<Vec<u8>>| {
            run(&WritesModel, writes, (), |_, _, write, _| {
                assert!(write.len() <= 120, "a write of {}", write.len());
            });
        },
    )
    .unwrap_err()
    .to_string();
    assert!(report.contains("a write of 121"), "{report}");
    assert!(!report.contains("breaks a precondition"), "{report}");
    // A model that panics where the sequence takes it is named as such.
    let caught = reflective::check::quietly(|| {
        std::panic::catch_unwind(|| {
            run(
                &WritesModel,
                &[vec![], vec![], vec![], vec![]],
                (),
                |_, _, _, after| {
                    assert!(*after < 4, "four writes");
                },
            );
        })
    })
    .unwrap_err();
    let message = caught
        .downcast_ref::<String>()
        .expect("a message with the note");
    assert!(
        message.starts_with(
            "four writes (command 4, [], could not be checked: the model's `commands` \
             panicked in the state 3: the model takes three writes, after the commands"
        ),
        "{message}"
    );
}

#[test]
fn a_failing_parallel_case_that_breaks_a_precondition_says_which_command_breaks_it() {
    use QueueCommand::{Pop, Push};
    use std::sync::Mutex;
    // A queue that refuses a push when full (answering 255), where the model has no answer.
    let execute = |queue: &Mutex<VecDeque<u8>>, command: &QueueCommand| {
        let mut queue = queue.lock().unwrap();
        match command {
            Push(_) if queue.len() == CAPACITY => Some(255),
            Push(x) => {
                queue.push_back(*x);
                None
            }
            Pop => queue.pop_front(),
        }
    };
    let expected = |state: &VecDeque<u8>, command: &QueueCommand| match command {
        Push(_) => None,
        Pop => state.front().copied(),
    };
    let over_full = Parallel {
        prefix: vec![Push(1), Push(2), Push(3), Push(4)],
        branches: [vec![Pop], vec![]],
    };
    let error = run_parallel(
        &QueueModel,
        &over_full,
        1,
        Mutex::default,
        execute,
        expected,
    )
    .unwrap_err();
    assert!(
        error.ends_with(
            "(in the prefix, command 4, Push(4), is not one the model's `commands` makes in the \
             state [1, 2, 3], after the commands [Push(1), Push(2), Push(3)]: the sequence \
             breaks a precondition)"
        ),
        "{error}"
    );
    let full_push = Parallel {
        prefix: vec![Push(1), Push(2), Push(3)],
        branches: [vec![], vec![Push(4), Pop]],
    };
    let error = run_parallel(
        &QueueModel,
        &full_push,
        1,
        Mutex::default,
        execute,
        expected,
    )
    .unwrap_err();
    assert!(
        error.contains(
            "(in the second branch, run after the prefix, command 1, Push(4), is not one"
        ),
        "{error}"
    );
    // A case that meets the preconditions and passes.
    let fine = Parallel {
        prefix: vec![Push(1)],
        branches: [vec![Pop], vec![Push(2)]],
    };
    run_parallel(&QueueModel, &fine, 20, Mutex::default, execute, expected).unwrap();
}

/// A counter's model: its value.
struct CounterModel;

#[derive(Clone, Debug, PartialEq)]
enum CounterCommand {
    Increment,
    Read,
}

impl StateMachine for CounterModel {
    type State = u64;
    type Command = CounterCommand;

    fn initial_state(&self) -> u64 {
        0
    }

    fn commands(&self, _: &u64) -> Gen<CounterCommand, CounterCommand> {
        pick((
            (1, "increment", exact(CounterCommand::Increment)),
            (1, "read", exact(CounterCommand::Read)),
        ))
        .boxed()
    }

    fn next_state(&self, count: &u64, command: &CounterCommand) -> u64 {
        match command {
            CounterCommand::Increment => count + 1,
            CounterCommand::Read => *count,
        }
    }
}

/// What the model answers: the count after an increment, the count for a read.
fn counter_answer(count: &u64, command: &CounterCommand) -> u64 {
    CounterModel.next_state(count, command)
}

/// Runs `case` on a counter whose increment is `increment`, 100 times: a single run of two
/// racing increments loses one about 98 times in 100 on an idle machine, but only about 25
/// on a loaded one, and the shrinker needs every candidate that can fail to fail.
fn counter_linearizes(
    case: &Parallel<CounterCommand>,
    increment: fn(&AtomicU64) -> u64,
) -> Result<(), String> {
    run_parallel(
        &CounterModel,
        case,
        100,
        || AtomicU64::new(0),
        move |counter, command| match command {
            CounterCommand::Increment => increment(counter),
            CounterCommand::Read => counter.load(Ordering::SeqCst),
        },
        counter_answer,
    )
}

/// A racy increment: a load, then a store of one more, with room for the other thread
/// between them.
fn racy_increment(counter: &AtomicU64) -> u64 {
    let seen = counter.load(Ordering::SeqCst);
    std::thread::yield_now();
    counter.store(seen + 1, Ordering::SeqCst);
    seen + 1
}

fn atomic_increment(counter: &AtomicU64) -> u64 {
    counter.fetch_add(1, Ordering::SeqCst) + 1
}

#[test]
fn a_racy_counter_fails_in_parallel_and_shrinks_to_one_increment_per_branch() {
    let g = parallel_commands(CounterModel, 3, 3);
    let config = Config::new().cases(200).seed(9);
    let report = try_check_with(&config, &g, |case: &Parallel<CounterCommand>| {
        counter_linearizes(case, racy_increment)
    })
    .unwrap_err()
    .to_string();
    let compact = reflective_tests::compact(&report);
    assert!(
        compact.contains("prefix:[],branches:[[Increment],[Increment]]"),
        "{report}"
    );
    // The atomic counter linearizes.
    let held = try_check_with(&Config::new().cases(100).seed(9), &g, |case| {
        counter_linearizes(case, atomic_increment)
    });
    assert!(held.is_ok(), "{held:?}");
}

/// A model with a bug: its `commands` panics in state 3, after three increments.
struct BrokenModel;

impl StateMachine for BrokenModel {
    type State = u8;
    type Command = u8;

    fn initial_state(&self) -> u8 {
        0
    }

    fn commands(&self, count: &u8) -> Gen<u8, u8> {
        assert!(*count < 3, "model bug");
        exact(1u8).boxed()
    }

    fn next_state(&self, count: &u8, add: &u8) -> u8 {
        count + add
    }
}

/// A model that panics while a sequence is generated is reported with where it panicked, the
/// state and the commands that led there.
#[test]
fn a_model_that_panics_is_reported_with_its_state_and_the_commands_before() {
    let g = commands(BrokenModel, 10);
    let config = Config::new().cases(100).seed(1).regressions(false);
    let report = try_check_with(&config, &g, |_: &Vec<u8>| true)
        .unwrap_err()
        .to_string();
    assert!(
        report.contains("the generator panicked at reflective-tests/tests/stateful.rs:"),
        "{report}"
    );
    assert!(
        report.contains(
            "model bug (the model's `commands` in the state 3, after the commands [1, 1, 1])"
        ),
        "{report}"
    );
}

/// Two locks' model: nothing to remember. `AB` takes lock a then lock b, `BA` the other way
/// round (a deadlock when they run at once), `Noop` neither, and `Hang` blocks forever.
struct LocksModel;

#[derive(Clone, Debug, PartialEq)]
enum LockCommand {
    Ab,
    Ba,
    Noop,
    Hang,
}

impl StateMachine for LocksModel {
    type State = ();
    type Command = LockCommand;

    fn initial_state(&self) {}

    fn commands(&self, _: &()) -> Gen<LockCommand, LockCommand> {
        pick((
            (1, "ab", exact(LockCommand::Ab)),
            (1, "ba", exact(LockCommand::Ba)),
            (2, "noop", exact(LockCommand::Noop)),
            (0, "hang", exact(LockCommand::Hang)),
        ))
        .boxed()
    }

    fn next_state(&self, _: &(), _: &LockCommand) {}
}

/// Runs `command` on the two locks: each command answers nothing (`()`); `Ab` and `Ba` hold
/// their first lock a while before they take the second, so that run at once they deadlock.
fn lock(locks: &(std::sync::Mutex<()>, std::sync::Mutex<()>), command: &LockCommand) {
    let hold = |first: &std::sync::Mutex<()>, second: &std::sync::Mutex<()>| {
        let _first = first.lock().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let _second = second.lock().unwrap();
    };
    match command {
        LockCommand::Ab => hold(&locks.0, &locks.1),
        LockCommand::Ba => hold(&locks.1, &locks.0),
        LockCommand::Noop => {}
        LockCommand::Hang => loop {
            std::thread::park();
        },
    }
}

/// A system that deadlocks fails with a message that says where each branch was stuck, and
/// the case shrinks to the two commands that deadlock; a command that blocks forever in the
/// prefix is named too. Neither hangs the test.
#[test]
fn a_deadlock_fails_within_the_timeout_and_shrinks() {
    use reflective::stateful::Runs;
    use std::time::Duration;
    let runs = Runs::new(3).timeout(Duration::from_millis(300));
    let new_locks = || (std::sync::Mutex::new(()), std::sync::Mutex::new(()));
    let g = parallel_commands(LocksModel, 2, 3);
    let config = Config::new().cases(100).seed(4).regressions(false);
    let report = try_check_with(&config, &g, |case: &Parallel<LockCommand>| {
        run_parallel(&LocksModel, case, runs, new_locks, lock, |_, _| ())
    })
    .unwrap_err()
    .to_string();
    let compact = reflective_tests::compact(&report);
    assert!(
        compact.contains("prefix:[],branches:[[Ab],[Ba]]")
            || compact.contains("prefix:[],branches:[[Ba],[Ab]]"),
        "{report}"
    );
    assert!(report.contains("did not finish within 300ms"), "{report}");
    assert!(
        report.contains("the first branch was running its command 1 (A")
            || report.contains("the first branch was running its command 1 (B"),
        "{report}"
    );

    let hangs = Parallel {
        prefix: vec![LockCommand::Noop, LockCommand::Hang],
        branches: [vec![LockCommand::Noop], vec![]],
    };
    let started = std::time::Instant::now();
    let stuck = run_parallel(&LocksModel, &hangs, runs, new_locks, lock, |_, _| ());
    assert_eq!(
        stuck,
        Err(
            "run 1 of 3 did not finish within 300ms: the prefix was running its command 2 \
             (Hang) (a deadlock, or a command that waits forever? A slow command needs a longer \
             `Runs::timeout`) (in the prefix, command 2, Hang, is not one the model's `commands` \
             makes in the state (), after the commands [Noop]: the sequence breaks a \
             precondition)"
                .to_string()
        )
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    // Without a deadlock the locks linearize.
    let apart = Parallel {
        prefix: vec![LockCommand::Ab],
        branches: [
            vec![LockCommand::Ab, LockCommand::Noop],
            vec![LockCommand::Noop],
        ],
    };
    assert_eq!(
        run_parallel(&LocksModel, &apart, runs, new_locks, lock, |_, _| ()),
        Ok(())
    );
}

#[test]
fn every_interleaving_of_the_branches_meets_the_preconditions() {
    // The queue's branches: every interleaving keeps it within its capacity.
    let g = parallel_commands(QueueModel, 4, 3);
    let mut rng = DefaultRng::seed_from_u64(3);
    let mut two_branches = 0;
    for _ in 0..300 {
        let case = g.generate_value(&mut rng, 20);
        two_branches += usize::from(case.branches.iter().all(|b| !b.is_empty()));
        let [a, b] = &case.branches;
        for interleaving in interleavings(a, b) {
            let mut sequence = case.prefix.clone();
            sequence.extend(interleaving);
            assert!(queue_preconditions_hold(&sequence), "{case:?}");
        }
        assert!(g.can_generate(&case));
    }
    assert!(
        two_branches > 100,
        "only {two_branches} cases with two branches"
    );
}

/// A connection's model: how many bytes it sent, and whether it is closed; once closed, no
/// command may run.
struct ConnectionModel;

#[derive(Clone, Debug, PartialEq)]
enum ConnectionCommand {
    Send(u8),
    Close,
}

impl StateMachine for ConnectionModel {
    type State = (u32, bool);
    type Command = ConnectionCommand;

    fn initial_state(&self) -> (u32, bool) {
        (0, false)
    }

    fn commands(&self, &(_, closed): &(u32, bool)) -> Gen<ConnectionCommand, ConnectionCommand> {
        assert!(!closed, "commands asked for in a finished state");
        let send = range(0u8..=9)
            .focus(|c: &ConnectionCommand| match c {
                ConnectionCommand::Send(byte) => Some(byte),
                ConnectionCommand::Close => None,
            })
            .map(ConnectionCommand::Send);
        pick((
            (3, "send", send.boxed()),
            (1, "close", exact(ConnectionCommand::Close).boxed()),
        ))
        .boxed()
    }

    fn next_state(
        &self,
        &(sent, closed): &(u32, bool),
        command: &ConnectionCommand,
    ) -> (u32, bool) {
        match command {
            ConnectionCommand::Send(_) => (sent + 1, closed),
            ConnectionCommand::Close => (sent, true),
        }
    }

    fn finished(&self, &(_, closed): &(u32, bool)) -> bool {
        closed
    }
}

/// Whether nothing runs after a `Close` in `sequence`.
fn nothing_after_close(sequence: &[ConnectionCommand]) -> bool {
    sequence
        .iter()
        .position(|c| *c == ConnectionCommand::Close)
        .is_none_or(|at| at + 1 == sequence.len())
}

/// A finished state ends a sequence: generated, shrunk and parallel sequences run nothing
/// after a close, and a sequence written by hand that does does not reflect.
#[test]
fn a_finished_state_ends_every_sequence() {
    let g = commands(ConnectionModel, 30);
    let mut rng = DefaultRng::seed_from_u64(5);
    let mut closed = 0;
    for size in 0..300 {
        let sequence = g.generate_value(&mut rng, size % 40);
        assert!(nothing_after_close(&sequence), "{sequence:?}");
        closed += usize::from(sequence.last() == Some(&ConnectionCommand::Close));
    }
    assert!(closed > 50, "only {closed} of 300 sequences closed");
    use ConnectionCommand::{Close, Send};
    assert!(g.can_generate(&vec![Send(1), Send(2), Close]));
    assert!(!g.can_generate(&vec![Send(1), Close, Send(2)]));
    // A failure that needs two sends and a close shrinks to them, never past the close.
    let fails = |sequence: &Vec<ConnectionCommand>| {
        assert!(nothing_after_close(sequence), "{sequence:?}");
        sequence.ends_with(&[Close]) && sequence.len() > 2
    };
    let start = vec![Send(7), Send(3), Send(9), Send(1), Close];
    assert_eq!(g.shrink(start, fails), [Send(0), Send(0), Close]);
    // A closed prefix leaves both branches empty; no interleaving runs after a close.
    let parallel = parallel_commands(ConnectionModel, 4, 3);
    let mut closed_prefixes = 0;
    for size in 0..300 {
        let case = parallel.generate_value(&mut rng, size % 40);
        if case.prefix.last() == Some(&Close) {
            closed_prefixes += 1;
            assert!(case.branches.iter().all(Vec::is_empty), "{case:?}");
        }
        let [a, b] = &case.branches;
        for interleaving in interleavings(a, b) {
            let mut sequence = case.prefix.clone();
            sequence.extend(interleaving);
            assert!(nothing_after_close(&sequence), "{case:?}");
        }
    }
    assert!(
        closed_prefixes > 10,
        "only {closed_prefixes} closed prefixes"
    );
}

/// Sequences are at most `MAX_COMMANDS` long whatever `max_len` asks: bytes that step on for
/// ever decode to that many commands (they ran past the generator's nesting limit, with an
/// error about recursive types), and a longer sequence does not reflect.
#[test]
fn sequences_stop_at_the_most_commands_whatever_the_length_asked() {
    let g = commands(QueueModel, usize::MAX);
    // The size byte, then a step (an odd byte) before each command: push 1 or pop.
    let data = vec![1u8; 3 * (MAX_COMMANDS + 10)];
    let decoded = g.decode(&data).expect("decodes");
    assert_eq!(decoded.value.len(), MAX_COMMANDS);
    let pairs = |n: usize| -> Vec<QueueCommand> {
        (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    QueueCommand::Push(1)
                } else {
                    QueueCommand::Pop
                }
            })
            .collect()
    };
    let reflector = g.reflector().size(MAX_COMMANDS);
    assert_eq!(reflector.can_generate(&pairs(MAX_COMMANDS)), Ok(true));
    assert_eq!(reflector.can_generate(&pairs(MAX_COMMANDS + 2)), Ok(false));
}

/// Every interleaving of `a` and `b`.
fn interleavings<T: Clone>(a: &[T], b: &[T]) -> Vec<Vec<T>> {
    match (a.split_first(), b.split_first()) {
        (None, _) => vec![b.to_vec()],
        (_, None) => vec![a.to_vec()],
        (Some((x, a_rest)), Some((y, b_rest))) => {
            let mut all = Vec::new();
            for mut rest in interleavings(a_rest, b) {
                rest.insert(0, x.clone());
                all.push(rest);
            }
            for mut rest in interleavings(a, b_rest) {
                rest.insert(0, y.clone());
                all.push(rest);
            }
            all
        }
    }
}
