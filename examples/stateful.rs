//! Stateful testing against `proptest-state-machine`, in the same run: a bounded queue with an
//! off-by-one and a key-value store whose bug needs put, delete, put and get of one key in
//! that order.
//!
//! ```text
//! cargo run --release --example stateful
//! ```
//!
//! Each library gets the same model (the commands allowed in each state, the same weights)
//! and the same system, `SEEDS` runs of up to `CASES` sequences of at most 40 commands, as its
//! runner makes them (reflective: [`reflective::stateful::commands`] through `check`, its size
//! schedule from small to 100; proptest-state-machine: `sequential_strategy(1..=40)` through
//! proptest's `TestRunner`, shrinking with its default budget). Per library: runs that found
//! the bug, the median of sequences run to the first failure, the shrunk sequence's length
//! (how many runs ended at the shortest failing length), and the median time of a run to the
//! shrunk sequence. Every sequence either library ran is checked against the preconditions
//! (none may break one: the count is printed). Then a racy counter in parallel mode
//! ([`reflective::stateful::parallel_commands`]), which proptest-state-machine does not have:
//! runs that found the race, and how many shrank to one increment in each branch.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use proptest::prelude::{BoxedStrategy, Just, Strategy as _, prop_oneof};
use proptest::test_runner::{
    Config as PtConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};
use proptest_state_machine::ReferenceStateMachine;
use reflective::check::{Config, try_check_with};
use reflective::prelude::*;
use reflective::stateful::{
    Parallel, StateMachine, commands, parallel_commands, run, run_parallel,
};

/// Runs per library and workload.
const SEEDS: u64 = 50;
/// The most sequences a run makes.
const CASES: u32 = 2000;
/// The longest sequence.
const MAX_LEN: usize = 40;

/// A workload: a model in both libraries' terms, and the system's check.
trait Workload:
    StateMachine + ReferenceStateMachine<Transition = <Self as StateMachine>::Command>
where
    <Self as StateMachine>::Command: PartialEq,
{
    const NAME: &'static str;
    /// The shortest failing sequence's length.
    const SHORTEST: usize;
    fn machine() -> Self;
    /// Whether the system agrees with the model on `sequence`, and whether `sequence` meets
    /// the preconditions.
    fn check(sequence: &[<Self as StateMachine>::Command]) -> (bool, bool);
}

/// What one run found.
struct Found {
    cases: Option<usize>,
    /// The property's runs, finding and shrinking.
    evaluations: usize,
    shrunk_len: usize,
    time: Duration,
}

fn main() {
    println!("# Stateful testing: reflective::stateful against proptest-state-machine\n");
    println!(
        "{SEEDS} runs per library, at most {CASES} sequences of at most {MAX_LEN} commands each.\n"
    );
    println!(
        "| workload | library | runs that found the bug | sequences to the bug (median) | shrunk to the shortest length | shrunk length (median) | property runs (median) | time to the shrunk sequence (median) | time ÷ proptest-state-machine's |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let broken = Cell::new(0usize);
    compare::<Queue>(&broken);
    compare::<Store>(&broken);
    println!(
        "\nSequences that broke a precondition, over every sequence either library ran: {}.",
        broken.get()
    );
    racy_counter();
}

/// Runs of the parallel workload.
const PARALLEL_RUNS: u64 = 20;

/// A counter whose increment loads, then stores one more: two increments at once can lose
/// one. proptest-state-machine runs sequences only ("currently, only the `sequential` is
/// supported"), so this row has no peer.
fn racy_counter() {
    println!(
        "\n## A racy counter, in parallel (`parallel_commands(model, 3, 3)`, \
         `run_parallel` 100 times a case)\n"
    );
    let g = parallel_commands(Counter, 3, 3);
    let (mut found, mut minimal) = (0, 0);
    let mut times = Vec::new();
    for seed in 0..PARALLEL_RUNS {
        let last = RefCell::new(None);
        let start = Instant::now();
        let config = Config::new().cases(500).seed(seed).regressions(false);
        let outcome = try_check_with(&config, &g, |case: &Parallel<CounterOp>| {
            *last.borrow_mut() = Some(case.clone());
            counter_linearizes(case)
        });
        times.push(start.elapsed());
        if outcome.is_err() {
            found += 1;
            let one_each = [vec![CounterOp::Increment], vec![CounterOp::Increment]];
            let shrunk = last.borrow().clone().expect("a case ran");
            minimal += usize::from(shrunk.prefix.is_empty() && shrunk.branches == one_each);
        }
    }
    times.sort_unstable();
    println!("| runs that found the race | shrunk to one increment per branch | time (median) |");
    println!("|---|---|---|");
    println!(
        "| {found}/{PARALLEL_RUNS} | {minimal}/{found} | {:.2?} |",
        times[times.len() / 2]
    );
}

/// The counter's model: its value.
struct Counter;

#[derive(Clone, Debug, PartialEq)]
enum CounterOp {
    Increment,
    Read,
}

impl StateMachine for Counter {
    type State = u64;
    type Command = CounterOp;

    fn initial_state(&self) -> u64 {
        0
    }

    fn commands(&self, _: &u64) -> Gen<CounterOp, CounterOp> {
        pick((
            (1, "increment", exact(CounterOp::Increment)),
            (1, "read", exact(CounterOp::Read)),
        ))
        .boxed()
    }

    fn next_state(&self, count: &u64, op: &CounterOp) -> u64 {
        match op {
            CounterOp::Increment => count + 1,
            CounterOp::Read => *count,
        }
    }
}

/// Whether the racy counter's answers to `case` linearize, in 100 runs.
fn counter_linearizes(case: &Parallel<CounterOp>) -> Result<(), String> {
    run_parallel(
        &Counter,
        case,
        100,
        || AtomicU64::new(0),
        |counter, op| match op {
            CounterOp::Increment => {
                let seen = counter.load(AtomicOrdering::SeqCst);
                std::thread::yield_now();
                counter.store(seen + 1, AtomicOrdering::SeqCst);
                seen + 1
            }
            CounterOp::Read => counter.load(AtomicOrdering::SeqCst),
        },
        |count, op| Counter.next_state(count, op),
    )
}

/// Runs both libraries on `W` and prints their rows.
fn compare<W: Workload>(broken: &Cell<usize>)
where
    <W as StateMachine>::Command: PartialEq,
{
    let reflective_runs: Vec<Found> = (0..SEEDS)
        .map(|seed| reflective_run::<W>(seed, broken))
        .collect();
    let proptest_runs: Vec<Found> = (0..SEEDS)
        .map(|seed| proptest_run::<W>(seed, broken))
        .collect();
    let peer_time = median_time(&proptest_runs);
    row::<W>("reflective", &reflective_runs, peer_time);
    row::<W>("proptest-state-machine", &proptest_runs, peer_time);
}

/// The median time of `runs`, in seconds.
fn median_time(runs: &[Found]) -> f64 {
    median(runs.iter().map(|r| r.time.as_secs_f64()).collect())
}

/// The median of `xs` (the upper one of an even count).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
}

/// A row of the table for `runs` of one library, its time also divided by the peer's
/// (`peer_time`).
fn row<W: Workload>(library: &str, runs: &[Found], peer_time: f64)
where
    <W as StateMachine>::Command: PartialEq,
{
    let found: Vec<&Found> = runs.iter().filter(|r| r.cases.is_some()).collect();
    let cases = median(
        runs.iter()
            .map(|r| r.cases.unwrap_or(CASES as usize) as f64)
            .collect(),
    );
    let shortest = found.iter().filter(|r| r.shrunk_len == W::SHORTEST).count();
    let length = median(found.iter().map(|r| r.shrunk_len as f64).collect());
    let time = median_time(runs);
    let evaluations = median(runs.iter().map(|r| r.evaluations as f64).collect());
    println!(
        "| {} | {library} | {}/{SEEDS} | {cases} | {shortest}/{} (shortest: {}) | {length} | {evaluations} | {:.2?} | {:.1}x |",
        W::NAME,
        found.len(),
        found.len(),
        W::SHORTEST,
        Duration::from_secs_f64(time),
        time / peer_time,
    );
}

/// One run through this library's runner: the sequences the property saw, the last one
/// being the shrunk failure (the runner runs the property on it once more).
fn reflective_run<W: Workload>(seed: u64, broken: &Cell<usize>) -> Found
where
    <W as StateMachine>::Command: PartialEq,
{
    let g = commands(W::machine(), MAX_LEN);
    let calls = Cell::new(0usize);
    let first_failure = Cell::new(None);
    let last = RefCell::new(Vec::new());
    let start = Instant::now();
    let config = Config::new().cases(CASES).seed(seed).regressions(false);
    let outcome = try_check_with(
        &config,
        &g,
        |sequence: &Vec<<W as StateMachine>::Command>| {
            calls.set(calls.get() + 1);
            let (agrees, preconditions) = W::check(sequence);
            broken.set(broken.get() + usize::from(!preconditions));
            if !agrees && first_failure.get().is_none() {
                first_failure.set(Some(calls.get()));
            }
            *last.borrow_mut() = sequence.clone();
            agrees
        },
    );
    Found {
        cases: outcome.is_err().then(|| first_failure.get()).flatten(),
        evaluations: calls.get(),
        shrunk_len: last.borrow().len(),
        time: start.elapsed(),
    }
}

/// One run through proptest's runner with proptest-state-machine's strategy.
fn proptest_run<W: Workload>(seed: u64, broken: &Cell<usize>) -> Found
where
    <W as StateMachine>::Command: PartialEq,
{
    let strategy = W::sequential_strategy(1..=MAX_LEN);
    let settings = PtConfig {
        cases: CASES,
        failure_persistence: None,
        ..PtConfig::default()
    };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner =
        TestRunner::new_with_rng(settings, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    let calls = Cell::new(0usize);
    let first_failure = Cell::new(None);
    let start = Instant::now();
    let outcome = runner.run(&strategy, |(_, transitions, seen)| {
        calls.set(calls.get() + 1);
        if let Some(seen) = seen {
            // As `test_sequential` does: every transition counts as seen.
            seen.fetch_add(transitions.len(), std::sync::atomic::Ordering::SeqCst);
        }
        let (agrees, preconditions) = W::check(&transitions);
        broken.set(broken.get() + usize::from(!preconditions));
        if agrees {
            return Ok(());
        }
        if first_failure.get().is_none() {
            first_failure.set(Some(calls.get()));
        }
        Err(TestCaseError::fail("the system disagrees with the model"))
    });
    let time = start.elapsed();
    match outcome {
        Err(TestError::Fail(_, (_, transitions, _))) => Found {
            cases: first_failure.get(),
            evaluations: calls.get(),
            shrunk_len: transitions.len(),
            time,
        },
        _ => Found {
            cases: None,
            evaluations: calls.get(),
            shrunk_len: 0,
            time,
        },
    }
}

/// The queue's capacity.
const CAPACITY: usize = 3;

/// A bounded queue: push while not full, pop while not empty. The system is a ring buffer
/// whose read position wraps one slot early.
struct Queue;

#[derive(Clone, Debug, PartialEq)]
enum QueueOp {
    Push(u8),
    Pop,
}

impl StateMachine for Queue {
    type State = VecDeque<u8>;
    type Command = QueueOp;

    fn initial_state(&self) -> VecDeque<u8> {
        VecDeque::new()
    }

    fn commands(&self, queue: &VecDeque<u8>) -> Gen<QueueOp, QueueOp> {
        let push = range(0u8..=9)
            .focus(|op: &QueueOp| match op {
                QueueOp::Push(x) => Some(x),
                QueueOp::Pop => None,
            })
            .map(QueueOp::Push)
            .boxed();
        let can_push = u32::from(queue.len() < CAPACITY);
        let can_pop = u32::from(!queue.is_empty());
        pick((
            (can_push, "push", push),
            (can_pop, "pop", exact(QueueOp::Pop).boxed()),
        ))
        .boxed()
    }

    fn next_state(&self, queue: &VecDeque<u8>, op: &QueueOp) -> VecDeque<u8> {
        <Queue as ReferenceStateMachine>::apply(queue.clone(), op)
    }
}

impl ReferenceStateMachine for Queue {
    type State = VecDeque<u8>;
    type Transition = QueueOp;

    fn init_state() -> BoxedStrategy<VecDeque<u8>> {
        Just(VecDeque::new()).boxed()
    }

    fn transitions(queue: &VecDeque<u8>) -> BoxedStrategy<QueueOp> {
        let push = (0u8..=9).prop_map(QueueOp::Push);
        match (queue.is_empty(), queue.len() == CAPACITY) {
            (true, _) => push.boxed(),
            (_, true) => Just(QueueOp::Pop).boxed(),
            _ => prop_oneof![push, Just(QueueOp::Pop)].boxed(),
        }
    }

    fn preconditions(queue: &VecDeque<u8>, op: &QueueOp) -> bool {
        match op {
            QueueOp::Push(_) => queue.len() < CAPACITY,
            QueueOp::Pop => !queue.is_empty(),
        }
    }

    fn apply(mut queue: VecDeque<u8>, op: &QueueOp) -> VecDeque<u8> {
        match op {
            QueueOp::Push(x) => queue.push_back(*x),
            QueueOp::Pop => {
                queue.pop_front();
            }
        }
        queue
    }
}

impl Workload for Queue {
    const NAME: &'static str = "queue (off-by-one)";
    const SHORTEST: usize = 8;

    fn machine() -> Self {
        Queue
    }

    fn check(sequence: &[QueueOp]) -> (bool, bool) {
        let (mut slots, mut read, mut write) = ([0u8; CAPACITY + 1], 0, 0);
        let (mut agrees, mut preconditions) = (true, true);
        run(&Queue, sequence, (), |(), before, op, _| {
            preconditions &= <Queue as ReferenceStateMachine>::preconditions(before, op);
            match op {
                QueueOp::Push(x) => {
                    slots[write] = *x;
                    write = (write + 1) % (CAPACITY + 1);
                }
                QueueOp::Pop => {
                    agrees &= Some(&slots[read]) == before.front();
                    // The bug: `% (CAPACITY + 1)`.
                    read = (read + 1) % CAPACITY;
                }
            }
        });
        (agrees, preconditions)
    }
}

/// A key-value store over keys and values `0..=3`: put, delete a key it holds, get. The
/// system deletes by leaving a tombstone that a later put of the key does not clear.
struct Store;

#[derive(Clone, Debug, PartialEq)]
enum StoreOp {
    Put(u8, u8),
    Delete(u8),
    Get(u8),
}

impl StateMachine for Store {
    type State = BTreeMap<u8, u8>;
    type Command = StoreOp;

    fn initial_state(&self) -> BTreeMap<u8, u8> {
        BTreeMap::new()
    }

    fn commands(&self, map: &BTreeMap<u8, u8>) -> Gen<StoreOp, StoreOp> {
        let key = |op: &StoreOp| match op {
            StoreOp::Put(k, _) | StoreOp::Delete(k) | StoreOp::Get(k) => *k,
        };
        let put = zip(
            range(0u8..=3)
                .comap(move |op: &StoreOp| matches!(op, StoreOp::Put(..)).then(|| key(op))),
            range(0u8..=3).comap(|op: &StoreOp| match op {
                StoreOp::Put(_, v) => Some(*v),
                _ => None,
            }),
        )
        .map(|(k, v)| StoreOp::Put(k, v))
        .boxed();
        let keys: Vec<u8> = map.keys().copied().collect();
        let held = keys.clone();
        let delete = range(0..=keys.len().max(1) - 1)
            .comap(move |op: &StoreOp| match op {
                StoreOp::Delete(k) => held.iter().position(|h| h == k),
                _ => None,
            })
            .map(move |i| StoreOp::Delete(keys.get(i).copied().unwrap_or(0)))
            .boxed();
        let get = range(0u8..=3)
            .comap(move |op: &StoreOp| matches!(op, StoreOp::Get(_)).then(|| key(op)))
            .map(StoreOp::Get)
            .boxed();
        let can_delete = if map.is_empty() { 0 } else { 1 };
        pick((
            (2, "put", put),
            (can_delete, "delete", delete),
            (1, "get", get),
        ))
        .boxed()
    }

    fn next_state(&self, map: &BTreeMap<u8, u8>, op: &StoreOp) -> BTreeMap<u8, u8> {
        <Store as ReferenceStateMachine>::apply(map.clone(), op)
    }
}

impl ReferenceStateMachine for Store {
    type State = BTreeMap<u8, u8>;
    type Transition = StoreOp;

    fn init_state() -> BoxedStrategy<BTreeMap<u8, u8>> {
        Just(BTreeMap::new()).boxed()
    }

    fn transitions(map: &BTreeMap<u8, u8>) -> BoxedStrategy<StoreOp> {
        let put = (0u8..=3, 0u8..=3).prop_map(|(k, v)| StoreOp::Put(k, v));
        let get = (0u8..=3).prop_map(StoreOp::Get);
        let keys: Vec<u8> = map.keys().copied().collect();
        if keys.is_empty() {
            return prop_oneof![2 => put, 1 => get].boxed();
        }
        let delete = proptest::sample::select(keys).prop_map(StoreOp::Delete);
        prop_oneof![2 => put, 1 => delete, 1 => get].boxed()
    }

    fn preconditions(map: &BTreeMap<u8, u8>, op: &StoreOp) -> bool {
        match op {
            StoreOp::Delete(k) => map.contains_key(k),
            _ => true,
        }
    }

    fn apply(mut map: BTreeMap<u8, u8>, op: &StoreOp) -> BTreeMap<u8, u8> {
        match op {
            StoreOp::Put(k, v) => {
                map.insert(*k, *v);
            }
            StoreOp::Delete(k) => {
                map.remove(k);
            }
            StoreOp::Get(_) => {}
        }
        map
    }
}

impl Workload for Store {
    const NAME: &'static str = "store (put, delete, put, get)";
    const SHORTEST: usize = 4;

    fn machine() -> Self {
        Store
    }

    fn check(sequence: &[StoreOp]) -> (bool, bool) {
        let (mut values, mut tombstones) = (BTreeMap::new(), BTreeMap::new());
        let (mut agrees, mut preconditions) = (true, true);
        run(&Store, sequence, (), |(), before, op, _| {
            preconditions &= <Store as ReferenceStateMachine>::preconditions(before, op);
            match op {
                StoreOp::Put(k, v) => {
                    values.insert(*k, *v);
                }
                StoreOp::Delete(k) => {
                    tombstones.insert(*k, true);
                }
                StoreOp::Get(k) => {
                    let got = match tombstones.get(k) {
                        Some(true) => None,
                        _ => values.get(k),
                    };
                    agrees &= got == before.get(k);
                }
            }
        });
        (agrees, preconditions)
    }
}
