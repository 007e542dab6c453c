//! The public shrinking challenge (`jlink/shrinking-challenge`), measured: for each challenge,
//! over many seeds, how often the shrinker reaches the challenge's canonical minimum.
//!
//! ```text
//! cargo run --release --example challenges                # 1000 seeds per challenge
//! cargo run --release --example challenges -- --quick     # 100
//! cargo run --release --example challenges -- --seeds 50  # any number
//! cargo run --release --example challenges -- --show      # the distinct results under each row
//! cargo run --release --example challenges -- --misses 5  # up to 5 non-canonical shrinks a row
//! ```
//!
//! For each seed, cases are generated until one fails (case `i` at size `i % 101`, at most
//! [`MAX_CASES`]; a seed that finds none counts as not reaching the minimum). The failing value
//! is shrunk from the choices that generated it (`shrink_generated`), and again as a value
//! given from outside (`shrink_with_stats`, which reflects it first). The table gives, per
//! challenge: the seeds that found a failure and the mean number of cases it took, the mean
//! size before and after shrinking, the number of distinct results, the seeds that reached the
//! canonical minimum, the most common result, the mean number of property evaluations of the
//! shrink, the seeds whose two shrinks ended at the same value, and the wall time of the row
//! (seeds run on every core). After the table: which rows meet the goal (canonical in at least
//! 99% of the seeds, at most 2 distinct results, exactly 1 for the challenges that ask for a
//! normal form), then a few non-canonical shrinks of each row that misses, with the values they
//! started from.

use std::collections::HashMap;
use std::fmt::Debug;
use std::time::{Duration, Instant};

use reflective::prelude::*;
use reflective::shrink::ShrinkBudget;
use reflective_examples::challenges::{self, Challenge, NORMALISING};

/// The most cases a seed generates to find a failing value.
const MAX_CASES: usize = 100_000;

/// The share of seeds that must reach the canonical minimum.
const CANONICAL_GOAL: f64 = 0.99;

/// What the command line asks for.
#[derive(Clone, Copy, Debug)]
struct Options {
    /// Seeds per challenge.
    seeds: u64,
    /// Whether to list the distinct results under each row.
    show: bool,
    /// How many non-canonical shrinks to print for each row.
    misses: usize,
}

impl Options {
    fn from_args() -> Options {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let value_of = |flag: &str| {
            args.iter().position(|arg| arg == flag).map(|at| {
                args.get(at + 1)
                    .and_then(|value| value.parse().ok())
                    .unwrap_or_else(|| panic!("{flag} takes a number"))
            })
        };
        let quick = args.iter().any(|arg| arg == "--quick");
        Options {
            seeds: value_of("--seeds").unwrap_or(if quick { 100 } else { 1000 }),
            show: args.iter().any(|arg| arg == "--show"),
            misses: value_of("--misses").map_or(3, |n: u64| n as usize),
        }
    }
}

fn main() {
    let options = Options::from_args();
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "The shrinking challenge: {} seeds per challenge, at most {MAX_CASES} cases each to find \
         a failure, the default shrink budget, {threads} threads",
        options.seeds
    );
    println!();
    println!(
        "| challenge | found in | mean size before | mean size after | distinct results \
         | canonical reached | most common result | mean evaluations | same both ways | time |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let started = Instant::now();
    let rows = [
        row(&challenges::binheap(), options),
        row(&challenges::bound5(), options),
        row(&challenges::calculator(), options),
        row(&challenges::coupling(), options),
        row(&challenges::deletion(), options),
        row(&challenges::difference_must_not_be_zero(), options),
        row(&challenges::difference_must_not_be_small(), options),
        row(&challenges::difference_must_not_be_one(), options),
        row(&challenges::distinct(), options),
        row(&challenges::large_union_list(), options),
        row(&challenges::lengthlist(), options),
        row(&challenges::nestedlists(), options),
        row(&challenges::reverse(), options),
    ];
    let total = started.elapsed();
    let (met, missed): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(|row| row.met);
    let names = |rows: &[&Row]| {
        rows.iter()
            .map(|row| row.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!();
    println!(
        "meet the goal (canonical in >= {:.0}% of seeds, <= 2 distinct results, exactly 1 for {}): \
         {} of {}: {}",
        CANONICAL_GOAL * 100.0,
        NORMALISING.join(", "),
        met.len(),
        rows.len(),
        names(&met)
    );
    println!("miss: {}", names(&missed));
    println!("total time: {:.1} s", total.as_secs_f64());
    if options.misses > 0 && !missed.is_empty() {
        println!();
        println!("Non-canonical shrinks (up to {} per row):", options.misses);
        for row in &missed {
            println!();
            println!("{}:", row.name);
            if row.misses.is_empty() {
                println!("    every shrink canonical; the row misses on distinct results");
            }
            for miss in &row.misses {
                println!("    {miss}");
            }
        }
    }
}

/// What one seed gave.
#[derive(Clone, Debug)]
struct Seed {
    /// The cases generated until one failed.
    cases: usize,
    /// The size of the failing value.
    before: usize,
    /// The size of the shrunk value.
    after: usize,
    /// The shrunk value, printed.
    shrunk: String,
    /// Whether it is canonical.
    canonical: bool,
    /// The evaluations of the shrink from the generated choices.
    evaluations: usize,
    /// Whether the shrink from outside ended at the same value.
    same: bool,
    /// The failing value, printed.
    original: String,
    /// The shrink from outside, printed.
    outside: String,
}

/// What a row printed, for the summary.
struct Row {
    name: &'static str,
    met: bool,
    misses: Vec<String>,
}

/// Runs one seed: `None` if no case fails.
fn one_seed<T>(c: &Challenge<T>, seed: u64) -> Option<Seed>
where
    T: Clone + PartialEq + Debug + 'static,
{
    let mut rng = DefaultRng::seed_from_u64(seed);
    let (cases, generated) = c.first_failure(&mut rng, MAX_CASES)?;
    let original = generated.value.clone();
    let shrunk = c
        .generator
        .shrink_generated(generated, c.fails, ShrinkBudget::default());
    assert!((c.fails)(&shrunk.value), "{}: {:?}", c.name, shrunk.value);
    let outside = c
        .generator
        .shrink_with_stats(&original, c.fails)
        .unwrap_or_else(|| panic!("{}: {original:?} does not reflect", c.name));
    assert!((c.fails)(&outside.value), "{}: {:?}", c.name, outside.value);
    Some(Seed {
        cases,
        before: (c.size)(&original),
        after: (c.size)(&shrunk.value),
        shrunk: format!("{:?}", shrunk.value),
        canonical: c.is_canonical(&shrunk.value),
        evaluations: shrunk.stats.evaluations,
        same: outside.value == shrunk.value,
        original: format!("{original:?}"),
        outside: format!("{:?}", outside.value),
    })
}

/// Every seed of `c`, on every core; in seed order.
fn all_seeds<T>(c: &Challenge<T>, seeds: u64) -> Vec<Option<Seed>>
where
    T: Clone + PartialEq + Debug + Send + Sync + 'static,
{
    let threads = std::thread::available_parallelism().map_or(1, usize::from) as u64;
    let mut results: Vec<(u64, Option<Seed>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                scope.spawn(move || {
                    (thread..seeds)
                        .step_by(threads as usize)
                        .map(|seed| (seed, one_seed(c, seed)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().expect("a seed panicked"))
            .collect()
    });
    results.sort_by_key(|&(seed, _)| seed);
    results.into_iter().map(|(_, seed)| seed).collect()
}

/// Runs every seed of `c`, prints its row (and with `--show` its distinct results), and says
/// whether it meets the goal.
fn row<T>(c: &Challenge<T>, options: Options) -> Row
where
    T: Clone + PartialEq + Debug + Send + Sync + 'static,
{
    let started = Instant::now();
    let results = all_seeds(c, options.seeds);
    let time = started.elapsed();
    let found: Vec<&Seed> = results.iter().flatten().collect();
    let n = options.seeds as f64;
    let mean = |f: &dyn Fn(&Seed) -> usize| {
        found.iter().map(|seed| f(seed) as f64).sum::<f64>() / found.len().max(1) as f64
    };
    let mut distinct: HashMap<&str, usize> = HashMap::new();
    for seed in &found {
        *distinct.entry(&seed.shrunk).or_default() += 1;
    }
    let mut by_count: Vec<(&str, usize)> = distinct.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let canonical = found.iter().filter(|seed| seed.canonical).count();
    let same = found.iter().filter(|seed| seed.same).count();
    let most_common = by_count.first().map_or("-".to_string(), |(value, count)| {
        format!("`{value}` ({count})")
    });
    if options.show {
        for (value, count) in &by_count {
            println!("    {count:>5} x {value}");
        }
    }
    println!(
        "| {} | {}/{} seeds, {:.1} cases | {:.2} | {:.2} | {} | {canonical}/{} ({:.1}%) | {} \
         | {:.0} | {same}/{} | {} |",
        c.name,
        found.len(),
        options.seeds,
        mean(&|seed| seed.cases),
        mean(&|seed| seed.before),
        mean(&|seed| seed.after),
        by_count.len(),
        options.seeds,
        100.0 * canonical as f64 / n,
        most_common,
        mean(&|seed| seed.evaluations),
        options.seeds,
        seconds(time),
    );
    let allowed = if NORMALISING.contains(&c.name) { 1 } else { 2 };
    let met = canonical as f64 >= CANONICAL_GOAL * n && by_count.len() <= allowed;
    let misses = results
        .iter()
        .enumerate()
        .filter_map(|(seed, result)| match result {
            None => Some(format!(
                "seed {seed}: no failing value in {MAX_CASES} cases"
            )),
            Some(s) if !s.canonical => Some(format!(
                "seed {seed}: {} -> {} (from outside: {})",
                s.original, s.shrunk, s.outside
            )),
            Some(_) => None,
        })
        .take(options.misses)
        .collect();
    Row {
        name: c.name,
        met,
        misses,
    }
}

/// `1.23 s`.
fn seconds(time: Duration) -> String {
    format!("{:.2} s", time.as_secs_f64())
}
