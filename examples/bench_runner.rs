//! The property runner's overhead per case against proptest's, in one run.
//!
//! ```text
//! cargo run --release --example bench_runner
//! cargo run --release --example bench_runner -- --quick   # a tiny run
//! ```
//!
//! Both run a trivial property (it holds for every value) on 10 000 cases of the same kinds of
//! value: a `u32`, and a `Vec<u8>` of a length uniform in `0..=100` (reflective's at size 100
//! in every case, to match proptest's lengths; the table prints both mean lengths).
//!
//! What is timed is the whole run: generating each case, calling the property under
//! `catch_unwind`, and the bookkeeping. Each runner works as it does for its users: proptest
//! builds every case's value tree, which it would shrink; reflective generates the value alone
//! and records a case's choices only when it fails, generating it again from the case's seed.
//! reflective: `check::check_with` with a fixed seed; proptest: `TestRunner::run` with its
//! default `Config` but the number of cases (and no failure persistence, which only matters
//! when a case fails). The figures are medians of 7 interleaved runs, per case.

use std::time::{Duration, Instant};

use proptest::strategy::Strategy as _;
use proptest::test_runner::{Config as PtConfig, TestRunner};
use reflective::check::{Config, check_with};
use reflective::prelude::*;
use reflective_examples::measure::median;

fn main() {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let (cases, runs) = if quick { (1_000, 3) } else { (10_000, 7) };
    println!(
        "Runner overhead per case: a property that always holds, {cases} cases, median of {runs} runs"
    );
    println!();
    println!("| value | reflective | proptest | proptest / reflective |");
    println!("|---|---|---|---|");
    let mut ratios = Vec::new();

    let numbers = range(0u32..=u32::MAX);
    let pt_numbers = proptest::num::u32::ANY;
    ratios.push(row(
        "u32",
        runs,
        || reflective_run(&numbers, cases, |&x: &u32| x.count_ones() <= 32),
        || proptest_run(&pt_numbers, cases, |x: u32| x.count_ones() <= 32),
        cases,
    ));

    // At size 100 in every case, so that lengths are uniform in 0..=100 as proptest's are
    // (the runner's growing sizes would make them shorter on average).
    let lists = vec(range(0u8..=255), ..=100).resize(100);
    let pt_lists = proptest::collection::vec(proptest::num::u8::ANY, 0..=100);
    ratios.push(row(
        "Vec<u8>, 0..=100 elements",
        runs,
        || reflective_run(&lists, cases, |xs: &Vec<u8>| xs.len() <= 100),
        || proptest_run(&pt_lists, cases, |xs: Vec<u8>| xs.len() <= 100),
        cases,
    ));

    let mean_length =
        |lengths: &[usize]| lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
    let ours: Vec<usize> = {
        let mut rng = DefaultRng::seed_from_u64(1);
        (0..cases)
            .map(|_| lists.generate_value(&mut rng, 0).len())
            .collect()
    };
    let theirs: Vec<usize> = {
        let mut runner = TestRunner::deterministic();
        (0..cases)
            .map(|_| {
                use proptest::strategy::ValueTree;
                pt_lists
                    .new_tree(&mut runner)
                    .expect("a tree")
                    .current()
                    .len()
            })
            .collect()
    };
    println!(
        "(mean Vec<u8> length: reflective {:.1}, proptest {:.1})",
        mean_length(&ours),
        mean_length(&theirs)
    );
    println!();
    let lower = ratios.iter().all(|&ratio| ratio > 1.0);
    println!(
        "reflective's overhead per case is {} proptest's on every row (goal: lower)",
        if lower {
            "lower than"
        } else {
            "not lower than"
        }
    );
}

/// Times `reflective` and `proptest` alternately `runs` times, prints the row, and returns
/// proptest's median over reflective's.
fn row(
    name: &str,
    runs: usize,
    mut reflective: impl FnMut(),
    mut proptest: impl FnMut(),
    cases: u32,
) -> f64 {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        ours.push(time(&mut reflective));
        theirs.push(time(&mut proptest));
    }
    let per_case = |times: &[Duration]| median(times).as_secs_f64() * 1e9 / f64::from(cases);
    let (ours, theirs) = (per_case(&ours), per_case(&theirs));
    let ratio = theirs / ours;
    println!("| {name} | {ours:.0} ns | {theirs:.0} ns | {ratio:.2}x |");
    ratio
}

fn time(f: &mut impl FnMut()) -> Duration {
    let started = Instant::now();
    f();
    started.elapsed()
}

/// A whole reflective run of `cases` cases.
fn reflective_run<G>(g: &G, cases: u32, property: impl Fn(&G::Output) -> bool)
where
    G: Generator,
    G::Output: Clone + std::fmt::Debug,
{
    check_with(&Config::new().cases(cases).seed(1), g, property);
}

/// A whole proptest run of `cases` cases.
fn proptest_run<S: proptest::strategy::Strategy>(
    strategy: &S,
    cases: u32,
    property: impl Fn(S::Value) -> bool,
) {
    let config = PtConfig {
        cases,
        failure_persistence: None,
        ..PtConfig::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    runner
        .run(strategy, |value| {
            assert!(property(value));
            Ok(())
        })
        .expect("the property holds");
}
