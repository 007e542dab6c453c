//! The core benchmark: generation throughput against a hand-written generator, and reflection
//! time per element as values grow.
//!
//! ```sh
//! cargo run --release --example bench_core             # the full run (under a minute)
//! cargo run --release --example bench_core -- --quick  # a tiny run (or BENCH_QUICK=1)
//! ```
//!
//! (a) Generation: the paper's reflective BST generator, run with `generate_value` (no choice
//! tree) and `generate` (recording the choice tree), against `bst_by_hand`, the same
//! distribution written directly over `rand`. All three draw from the same seeded xoshiro256++
//! and every tree is dropped inside the timed loop, as a test would. The mean tree sizes come
//! from an untimed pass over the first run's seed, so they describe trees that were timed.
//!
//! (b) Reflection: balanced BSTs, degenerate BSTs (a right spine as deep as it has keys) and
//! lists, with 10, 1 000 and 100 000 elements, built directly (never generated), reflected with
//! `can_generate` and `choices` at a reflection size of 100 000. The time per element should
//! not grow with the number of elements, and the 100 000-deep BST must not overflow the stack.
//! A 300 000-deep BST shows whether the time per element still grows past 100 000.
//!
//! (c) Collections of scalars: the derived generator of `Vec<T>` for a few element types, at
//! the default size and size strategy, against quickcheck's `Vec::<T>::arbitrary` at the same
//! mean length (0 to 100 elements), in nanoseconds per element. Informational: no goal.
//!
//! Every figure is the median of several runs. The runs are interleaved (run 1 of everything,
//! then run 2, ...) so that a noisy neighbour slows all the measurements alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

use quickcheck::{Arbitrary as QcArbitrary, Gen as QcGen};
use reflective::Reflector;
use reflective::prelude::*;
use reflective_examples::bst::{
    Tree, balanced, bst, bst_by_hand, drop_deep, expected_size, right_spine,
};
use reflective_examples::measure::{median, thousands};

/// The numbers of elements reflection is measured at.
const ELEMENTS: [usize; 3] = [10, 1_000, 100_000];
/// The depth of the deepest degenerate BST, measured beyond the goal's sizes: from 1 000 to
/// 100 000 keys the reflection's stack outgrows the processor's caches and then the thread's
/// own stack, so the time per element steps up once; past that step it should stay put.
const DEEPEST: usize = 300_000;
/// The reflection size: at least the longest list, so every list can be produced.
const REFLECT_SIZE: usize = 100_000;
/// The nesting budget for BSTs: a degenerate tree nests two levels per key (the family member
/// and the bind after its key), more than the default budget of 100 000 allows for 100 000
/// keys.
const REFLECT_MAX_DEPTH: usize = 1_000_000;
/// The key range `0..=REFLECT_HI` of the BST generator reflected with: it holds every tree.
const REFLECT_HI: i64 = 999_999;
/// The first seed of part (a); run `r` uses `SEED + r`.
const SEED: u64 = 1_000;
/// The goal for both parts: a ratio of at most this passes.
const GOAL: f64 = 3.0;

/// How much work one run does.
struct Plan {
    reps: usize,
    /// Key ranges `0..=hi` and the number of trees each generator makes per run.
    generation: Vec<(i64, usize)>,
    /// Elements reflected per measurement and run: small values are reflected many times.
    reflect_work: usize,
}

impl Plan {
    fn full() -> Plan {
        Plan {
            reps: 7,
            generation: vec![(100, 20_000), (1_000, 4_000)],
            reflect_work: 150_000,
        }
    }

    fn quick() -> Plan {
        Plan {
            reps: 3,
            generation: vec![(100, 1_000), (1_000, 200)],
            reflect_work: 20_000,
        }
    }
}

fn main() {
    let quick = std::env::args().any(|arg| arg == "--quick")
        || std::env::var("BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
    let plan = if quick { Plan::quick() } else { Plan::full() };
    let started = Instant::now();
    println!(
        "reflective core benchmark{}: medians of {} interleaved runs, {} CPU(s) available",
        if quick { " (--quick)" } else { "" },
        plan.reps,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    if cfg!(debug_assertions) {
        println!("WARNING: debug build; run with --release for meaningful figures");
    }

    let slowdowns = generation(&plan);
    let flatness = reflection(&plan);
    scalars(&plan);

    println!();
    println!("Verdicts");
    for (hi, method, slowdown) in slowdowns {
        println!(
            "  (a) {method:<14} on bst(0, {hi:<4}): {slowdown:>5.2}x the hand-written time \
             (goal: within {GOAL}x): {}",
            verdict(slowdown)
        );
    }
    for (what, op, largest, ratio) in flatness {
        println!(
            "  (b) {what:<13} {op:<12}: per-element time at {:>7} / at 1 000 = {ratio:>5.2} \
             (goal: flat within {GOAL}x): {}",
            thousands(largest as f64),
            verdict(ratio)
        );
    }
    println!("total time {:.1} s", started.elapsed().as_secs_f64());
}

fn verdict(ratio: f64) -> &'static str {
    if ratio <= GOAL { "PASS" } else { "FAIL" }
}

/// One of the generators compared in part (a).
#[derive(Clone, Copy)]
enum Method {
    ByHand,
    GenerateValue,
    Generate,
}

impl Method {
    const ALL: [Method; 3] = [Method::ByHand, Method::GenerateValue, Method::Generate];

    fn name(self) -> &'static str {
        match self {
            Method::ByHand => "hand-written (rand)",
            Method::GenerateValue => "reflective generate_value",
            Method::Generate => "reflective generate",
        }
    }

    /// Makes `count` trees with keys in `0..=hi`, dropping each; returns the time taken.
    fn time(self, g: &Gen<Tree, Tree>, hi: i64, count: usize, seed: u64) -> Duration {
        let mut rng = DefaultRng::seed_from_u64(seed);
        let start = Instant::now();
        match self {
            Method::ByHand => {
                for _ in 0..count {
                    drop(black_box(bst_by_hand(&mut rng, 0, hi)));
                }
            }
            Method::GenerateValue => {
                for _ in 0..count {
                    drop(black_box(g.generate_value(&mut rng, DEFAULT_SIZE)));
                }
            }
            Method::Generate => {
                for _ in 0..count {
                    drop(black_box(g.generate(&mut rng, DEFAULT_SIZE)));
                }
            }
        }
        start.elapsed()
    }

    /// The `count` trees [`Method::time`] makes from `seed`.
    fn trees(self, g: &Gen<Tree, Tree>, hi: i64, count: usize, seed: u64) -> Vec<Tree> {
        let mut rng = DefaultRng::seed_from_u64(seed);
        (0..count)
            .map(|_| match self {
                Method::ByHand => bst_by_hand(&mut rng, 0, hi),
                Method::GenerateValue => g.generate_value(&mut rng, DEFAULT_SIZE),
                Method::Generate => g.generate(&mut rng, DEFAULT_SIZE).value,
            })
            .collect()
    }
}

/// Part (a). Returns, per key range and reflective method, its time over the hand-written time.
fn generation(plan: &Plan) -> Vec<(i64, &'static str, f64)> {
    println!();
    println!("(a) Generation throughput: BSTs with keys in 0..=hi (higher trees/s is better)");
    println!(
        "{:<9} {:<26} {:>9} {:>11} {:>9} {:>8} {:>9} {:>10}",
        "range",
        "generator",
        "trees/run",
        "trees/s",
        "ns/tree",
        "ns/node",
        "mean size",
        "time/hand"
    );
    let mut slowdowns = Vec::new();
    for &(hi, count) in &plan.generation {
        let g = bst(0, hi);
        let mut times: [Vec<Duration>; 3] = Default::default();
        for rep in 0..plan.reps {
            for (index, method) in Method::ALL.into_iter().enumerate() {
                times[index].push(method.time(&g, hi, count, SEED + rep as u64));
            }
        }
        let trees = Method::ALL.map(|method| method.trees(&g, hi, count, SEED));
        let per_tree = times.map(|runs| median(&runs).as_secs_f64() / count as f64);
        for (index, method) in Method::ALL.into_iter().enumerate() {
            let nodes: usize = trees[index].iter().map(Tree::size).sum();
            let mean_size = nodes as f64 / count as f64;
            let slowdown = per_tree[index] / per_tree[0];
            println!(
                "{:<9} {:<26} {:>9} {:>11} {:>9.0} {:>8.1} {:>9.2} {:>9.2}x",
                format!("0..={hi}"),
                method.name(),
                count,
                thousands(1.0 / per_tree[index]),
                per_tree[index] * 1e9,
                per_tree[index] * 1e9 / mean_size,
                mean_size,
                slowdown,
            );
            match method {
                Method::ByHand => {}
                Method::GenerateValue => slowdowns.push((hi, "generate_value", slowdown)),
                Method::Generate => slowdowns.push((hi, "generate", slowdown)),
            }
        }
        // The generators share the distribution, not the way they draw from the generator of
        // random numbers (the reflective one takes a key from half a word), so their trees
        // differ seed by seed; their mean sizes agree with the exact one.
        println!(
            "{:<9} exact expected mean size {:.2}",
            "",
            expected_size(0, hi),
        );
    }
    slowdowns
}

/// A kind of value reflected on in part (b).
struct Case {
    what: &'static str,
    /// The name in the verdicts.
    short: &'static str,
    /// The numbers of elements: the last is compared with the second, 1 000.
    sizes: Vec<usize>,
    build: fn(usize) -> Subject,
}

/// A value built for part (b).
enum Subject {
    Tree(Tree),
    List(Vec<i64>),
}

/// The generators part (b) reflects with.
struct Reflectors {
    tree: Gen<Tree, Tree>,
    list: Gen<Vec<i64>, Vec<i64>>,
}

impl Reflectors {
    fn tree(&self) -> Reflector<'_, Gen<Tree, Tree>> {
        self.tree
            .reflector()
            .size(REFLECT_SIZE)
            .max_depth(REFLECT_MAX_DEPTH)
    }

    fn list(&self) -> Reflector<'_, Gen<Vec<i64>, Vec<i64>>> {
        self.list.reflector().size(REFLECT_SIZE)
    }

    fn can_generate(&self, subject: &Subject) -> bool {
        match subject {
            Subject::Tree(tree) => self.tree().can_generate(tree),
            Subject::List(list) => self.list().can_generate(list),
        }
        .expect("within the budgets")
    }

    fn choices(&self, subject: &Subject) -> Vec<ChoiceTree> {
        match subject {
            Subject::Tree(tree) => self.tree().choices(tree),
            Subject::List(list) => self.list().choices(list),
        }
        .expect("within the budgets")
    }
}

/// One value of part (b), how often a measurement reflects on it, and its timings.
struct Measured {
    case: usize,
    elements: usize,
    subject: Subject,
    iterations: usize,
    can_generate: Vec<Duration>,
    choices: Vec<Duration>,
}

/// Part (b). Returns, per kind of value and operation, the per-element time at the largest
/// size divided by the one at 1 000.
fn reflection(plan: &Plan) -> Vec<(&'static str, &'static str, usize, f64)> {
    println!();
    println!(
        "(b) Reflection time per element (lower is better; flat down a column is linear time)"
    );
    println!(
        "    reflector().size({REFLECT_SIZE}); BSTs: bst(0, {REFLECT_HI}) with \
         .max_depth({REFLECT_MAX_DEPTH}); lists: vec(int::<i64>(), ..)"
    );
    let cases = [
        Case {
            what: "BST, balanced",
            short: "BST, balanced",
            sizes: ELEMENTS.to_vec(),
            build: |n| Subject::Tree(balanced(0, n as i64 - 1)),
        },
        Case {
            what: "BST, degenerate (depth n)",
            short: "BST, deep",
            // One size past the goal's: whether the time per element still grows there.
            sizes: [&ELEMENTS[..], &[DEEPEST]].concat(),
            build: |n| Subject::Tree(right_spine(0, n as i64 - 1)),
        },
        Case {
            what: "list, vec(int::<i64>())",
            short: "list",
            sizes: ELEMENTS.to_vec(),
            build: |n| {
                let values = (0..n as i64).map(|i| (i * 7_919) % 2_001 - 1_000);
                Subject::List(values.collect())
            },
        },
    ];
    let reflectors = Reflectors {
        tree: bst(0, REFLECT_HI),
        list: vec(int::<i64>(), ..),
    };

    let mut measured: Vec<Measured> = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        for &elements in &case.sizes {
            measured.push(Measured {
                case: index,
                elements,
                subject: (case.build)(elements),
                iterations: (plan.reflect_work / elements).max(1),
                can_generate: Vec::new(),
                choices: Vec::new(),
            });
        }
    }
    // Every value is accepted, in exactly one way (untimed).
    let choice_counts: Vec<usize> = measured
        .iter()
        .map(|m| {
            assert!(reflectors.can_generate(&m.subject));
            let trees = reflectors.choices(&m.subject);
            assert_eq!(trees.len(), 1, "one way to produce each value");
            trees[0].len()
        })
        .collect();
    for _ in 0..plan.reps {
        for m in &mut measured {
            let start = Instant::now();
            for _ in 0..m.iterations {
                assert!(reflectors.can_generate(black_box(&m.subject)));
            }
            m.can_generate.push(start.elapsed() / m.iterations as u32);
            let start = Instant::now();
            for _ in 0..m.iterations {
                drop(black_box(reflectors.choices(black_box(&m.subject))));
            }
            m.choices.push(start.elapsed() / m.iterations as u32);
        }
    }

    println!(
        "{:<26} {:>8} {:>8} {:>19} {:>15} {:>9}",
        "value", "elements", "reflects", "can_generate ns/el", "choices ns/el", "#choices"
    );
    let mut per_element: Vec<Vec<(f64, f64)>> = vec![Vec::new(); cases.len()];
    for (m, choice_count) in measured.into_iter().zip(choice_counts) {
        let can = median(&m.can_generate).as_secs_f64() * 1e9 / m.elements as f64;
        let choices = median(&m.choices).as_secs_f64() * 1e9 / m.elements as f64;
        per_element[m.case].push((can, choices));
        println!(
            "{:<26} {:>8} {:>8} {:>19.1} {:>15.1} {:>9}",
            cases[m.case].what,
            thousands(m.elements as f64),
            plan.reps * m.iterations,
            can,
            choices,
            thousands(choice_count as f64)
        );
        if let Subject::Tree(tree) = m.subject {
            drop_deep(tree);
        }
    }

    let mut flatness = Vec::new();
    for (case, times) in cases.iter().zip(per_element) {
        let (at_1k, at_largest) = (times[1], times[2]);
        let largest = case.sizes[2];
        flatness.push((case.short, "can_generate", largest, at_largest.0 / at_1k.0));
        flatness.push((case.short, "choices", largest, at_largest.1 / at_1k.1));
        if let Some(&beyond) = times.get(3) {
            println!(
                "{}: per-element time at {} / at {}: can_generate {:.2}, choices {:.2} \
                 (1.00 is linear time)",
                case.short,
                thousands(case.sizes[3] as f64),
                thousands(largest as f64),
                beyond.0 / at_largest.0,
                beyond.1 / at_largest.1
            );
        }
    }
    flatness
}

/// One element type of part (c): its name, and one run of each generator, which makes
/// `count` vectors from `seed` and returns the time taken and the elements made.
struct Scalar {
    name: &'static str,
    reflective: fn(usize, u64) -> (Duration, usize),
    quickcheck: fn(usize, u64) -> (Duration, usize),
}

impl Scalar {
    fn of<T: Reflective + QcArbitrary + 'static>(name: &'static str) -> Scalar {
        Scalar {
            name,
            reflective: |count, seed| {
                let g = Vec::<T>::arbitrary_reflective();
                let mut rng = DefaultRng::seed_from_u64(seed);
                let mut elements = 0;
                let start = Instant::now();
                for _ in 0..count {
                    let items = black_box(g.generate_value(&mut rng, DEFAULT_SIZE));
                    elements += items.len();
                }
                (start.elapsed(), elements)
            },
            quickcheck: |count, seed| {
                // Size 101: lengths uniform in 0..=100, as the derived generator's at size 100.
                let mut qc = QcGen::from_size_and_seed(101, seed);
                let mut elements = 0;
                let start = Instant::now();
                for _ in 0..count {
                    let items = black_box(Vec::<T>::arbitrary(&mut qc));
                    elements += items.len();
                }
                (start.elapsed(), elements)
            },
        }
    }
}

/// Part (c): nanoseconds per element of `Vec<T>`, derived against quickcheck.
fn scalars(plan: &Plan) {
    let types = [
        Scalar::of::<u8>("u8"),
        Scalar::of::<u64>("u64"),
        Scalar::of::<bool>("bool"),
        Scalar::of::<char>("char"),
        Scalar::of::<f64>("f64"),
        Scalar::of::<(u8, u16)>("(u8, u16)"),
        Scalar::of::<Option<u8>>("Option<u8>"),
    ];
    let count = plan.generation[0].1;
    let mut times: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); types.len()];
    for rep in 0..plan.reps {
        let seed = SEED + rep as u64;
        for (scalar, (ours, theirs)) in types.iter().zip(&mut times) {
            for (run, into) in [(scalar.reflective, &mut *ours), (scalar.quickcheck, theirs)] {
                let (time, elements) = run(count, seed);
                into.push(time.as_secs_f64() * 1e9 / elements.max(1) as f64);
            }
        }
    }
    println!();
    println!(
        "(c) Vec<T>, derived generate_value at size {DEFAULT_SIZE} (default strategy) vs \
         quickcheck Vec::<T>::arbitrary (size 101), {count} vectors per run"
    );
    println!("  element         reflective ns/elem   quickcheck ns/elem   reflective / quickcheck");
    for (scalar, (ours, theirs)) in types.iter().zip(&times) {
        let (ours, theirs) = (median_of(ours), median_of(theirs));
        println!(
            "  {:<14} {ours:>19.1} {theirs:>20.1} {:>25.2}",
            scalar.name,
            ours / theirs
        );
    }
}

/// The median of `values`.
fn median_of(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}
