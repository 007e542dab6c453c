//! The choice shrinker against the paper's Table 1 (`TARGETS.md`, section 1).
//!
//! ```text
//! cargo run --release --example shrinking            # 1000 trials per benchmark
//! cargo run --release --example shrinking -- --quick # 100
//! ```
//!
//! Each trial generates until a value meets the benchmark's precondition and fails its
//! property (case `i` at size `i % 101`), then shrinks that value twice: with the derived
//! type-directed shrinker (`Reflective::shrink_candidates`, QuickCheck's `genericShrink`, greedy,
//! candidates filtered by the precondition) and with the choice shrinker, from the choices the
//! generator recorded. It reports the mean SIZE, the mean ± 2σ, the number of distinct final
//! values and the mean number of property evaluations, beside Hypothesis's figure from the
//! paper. Then it prints the value, reads it back (as a value from a bug report, never
//! generated), reflects it and shrinks it again, and counts the trials where both shrinks reach
//! the same minimum. `--show` lists the most common minima under each row.

use std::collections::HashMap;
use std::fmt::Debug;
use std::time::Instant;

use reflective::prelude::*;
use reflective::shrink::ShrinkBudget;
use reflective_examples::debug_text::{FromDebug, parse_debug};
use reflective_examples::smartcheck::{self, Benchmark};
use reflective_examples::type_directed::shrink_candidates;

/// The evaluation budget of the type-directed shrinker: the choice shrinker's default.
const MAX_EVALUATIONS: usize = reflective::shrink::DEFAULT_MAX_EVALUATIONS;

/// Set in the child process that runs the tables (see [`main`]).
const CHILD: &str = "REFLECTIVE_SHRINKING_EXAMPLE_CHILD";

/// Runs the tables in a child process whose standard error is read line by line: proptest
/// prints "Aborting shrinking after ..." to it every time its shrink budget runs out (at any
/// verbosity), hundreds of times in a run; those lines are counted, not shown.
fn main() {
    if std::env::var_os(CHILD).is_some() {
        return tables();
    }
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(std::env::current_exe().expect("this example's path"))
        .args(std::env::args_os().skip(1))
        .env(CHILD, "1")
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example runs itself");
    let stderr = child.stderr.take().expect("a piped standard error");
    let mut aborted = 0;
    for line in BufReader::new(stderr).lines().map_while(Result::ok) {
        if line.starts_with("proptest: Aborting shrinking") {
            aborted += 1;
        } else {
            eprintln!("{line}");
        }
    }
    let status = child.wait().expect("the child ends");
    if aborted > 0 {
        println!(
            "\n(proptest reported {aborted} times that it stopped shrinking at its budget; those \
             lines are hidden)"
        );
    }
    std::process::exit(status.code().unwrap_or(1));
}

fn tables() {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let trials = if quick { 100 } else { 1000 };
    println!("Table 1: mean SIZE of the shrunk counterexamples, {trials} trials per benchmark");
    println!("(mean, [mean - 2σ, mean + 2σ], distinct final values, mean property evaluations)");
    println!();
    println!(
        "| benchmark | unshrunk | type-directed | reflective | Hypothesis (paper) | at or below \
         | same minimum from text |"
    );
    println!("|---|---|---|---|---|---|---|");
    let started = Instant::now();
    let rows = [
        table_row(&smartcheck::binheap(), trials),
        table_row(&smartcheck::bound5(), trials),
        table_row(&smartcheck::calculator(), trials),
        table_row(&smartcheck::parser(), trials),
        table_row(&smartcheck::reverse(), trials),
    ];
    let met = rows.iter().filter(|&&met| met).count();
    println!();
    println!(
        "reflective at or below Hypothesis, with the same minimum from text in every trial, \
         on {met} of 5 benchmarks ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
    println!(
        "same minimum from text: the failing value printed with {{:?}}, read back, reflected \
         and shrunk, against the shrink from its recorded choices"
    );
    println!();
    dependent_generation();
    println!();
    long_lists();
    println!();
    long_nests();
}

/// What one shrinker reached over the trials.
#[derive(Default)]
struct Column {
    sizes: Vec<usize>,
    distinct: HashMap<String, usize>,
    evaluations: usize,
}

impl Column {
    fn add(&mut self, size: usize, value: &impl Debug, evaluations: usize) {
        self.sizes.push(size);
        *self.distinct.entry(format!("{value:?}")).or_default() += 1;
        self.evaluations += evaluations;
    }

    fn mean(&self) -> f64 {
        self.sizes.iter().sum::<usize>() as f64 / self.sizes.len() as f64
    }

    /// `mean [low, high]`, the range mean ± 2σ cut at 0 as the paper prints it.
    fn spread(&self) -> String {
        let mean = self.mean();
        let variance = self
            .sizes
            .iter()
            .map(|&size| (size as f64 - mean).powi(2))
            .sum::<f64>()
            / self.sizes.len() as f64;
        let two_sigma = 2.0 * variance.sqrt();
        format!(
            "{mean:.2} [{:.2}, {:.2}]",
            (mean - two_sigma).max(0.0),
            mean + two_sigma
        )
    }

    fn summary(&self) -> String {
        format!(
            "{}, {} distinct, {:.0} evals",
            self.spread(),
            self.distinct.len(),
            self.evaluations as f64 / self.sizes.len() as f64
        )
    }
}

/// Runs `trials` trials of `bench`, prints its row, and says whether the reflective mean is at
/// or below Hypothesis's.
fn table_row<T>(bench: &Benchmark<T>, trials: u64) -> bool
where
    T: Reflective + Debug + Eq + FromDebug,
{
    let budget = ShrinkBudget::default();
    let (mut unshrunk, mut by_type, mut reflective) =
        (Column::default(), Column::default(), Column::default());
    let mut same_from_text = 0;
    for trial in 0..trials {
        let mut rng = DefaultRng::seed_from_u64(trial);
        let generated = bench
            .first_failure(&mut rng, 100_000)
            .unwrap_or_else(|| panic!("{}: no counterexample in trial {trial}", bench.name));
        unshrunk.add((bench.size)(&generated.value), &generated.value, 0);

        let typed = shrink_candidates(
            generated.value.clone(),
            bench.valid,
            |v| !(bench.holds)(v),
            MAX_EVALUATIONS,
        );
        assert!(
            bench.fails(&typed.value),
            "{}: {:?}",
            bench.name,
            typed.value
        );
        by_type.add((bench.size)(&typed.value), &typed.value, typed.evaluations);

        // The counterexample as a bug report would carry it: printed, then read back.
        let text = format!("{:?}", generated.value);
        let external: T = parse_debug(&text).unwrap_or_else(|error| panic!("{text}: {error}"));

        let shrunk = bench
            .generator
            .shrink_generated(generated, |v| bench.fails(v), budget);
        assert!(
            bench.fails(&shrunk.value),
            "{}: {:?}",
            bench.name,
            shrunk.value
        );
        reflective.add(
            (bench.size)(&shrunk.value),
            &shrunk.value,
            shrunk.stats.evaluations,
        );

        // Never generated: its choices come from reflection.
        let from_text = bench
            .generator
            .shrink_within(&external, |v| bench.fails(v), budget)
            .unwrap_or_else(|| panic!("{}: {text} does not reflect", bench.name));
        if from_text.value == shrunk.value {
            same_from_text += 1;
        }
    }
    if std::env::args().any(|arg| arg == "--show") {
        let mut finals: Vec<_> = reflective.distinct.iter().collect();
        finals.sort_by_key(|&(value, count)| (std::cmp::Reverse(*count), value.clone()));
        for (value, count) in finals.iter().take(12) {
            println!("    {count:>4} x {value}");
        }
    }
    let met = reflective.mean() <= bench.hypothesis + 1e-9;
    println!(
        "| {} | {} | {} | {} | {:.2} | {} | {same_from_text}/{trials} |",
        bench.name,
        unshrunk.spread(),
        by_type.summary(),
        reflective.summary(),
        bench.hypothesis,
        if met { "yes" } else { "no" }
    );
    met && same_from_text == trials
}

// ---------------------------------------------------------------------------------------------
// Dependent generation (`TARGETS.md`, section 2)

/// The seeds of the dependent-generation table.
const MATRIX_SEEDS: u64 = 200;

/// The largest element that passes: the property fails on any element above it.
const THRESHOLD: u32 = 500;

/// A matrix in row-major order: valid when it holds `rows * cols` elements.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<u32>,
}

impl Matrix {
    fn valid(&self) -> bool {
        self.data.len() == self.rows * self.cols
    }

    /// Whether the elements are minimal: all 0 but one, just above the threshold.
    fn minimal_elements(&self) -> bool {
        let nonzero: Vec<u32> = self.data.iter().copied().filter(|&x| x != 0).collect();
        nonzero == [THRESHOLD + 1]
    }

    /// Whether the shape is minimal: 1 x 1.
    fn minimal_shape(&self) -> bool {
        (self.rows, self.cols) == (1, 1)
    }
}

/// The property: no element above the threshold.
fn matrix_holds(data: &[u32]) -> bool {
    data.iter().all(|&x| x <= THRESHOLD)
}

/// `(rows, cols)` in `1..=10`, then `rows * cols` elements in `0..1000`: each part drawn after
/// the ones it depends on, with a lens to reflect it.
fn matrices() -> Gen<Matrix, Matrix> {
    range(1usize..=10)
        .focus(|m: &Matrix| Some(&m.rows))
        .bind(|rows| {
            range(1usize..=10)
                .focus(|m: &Matrix| Some(&m.cols))
                .bind(move |cols| {
                    let len = rows * cols;
                    vec(range(0u32..=999), len..=len)
                        .focus(|m: &Matrix| Some(&m.data))
                        .map(move |data| Matrix { rows, cols, data })
                })
        })
        .boxed()
}

/// What one library reached over the seeds.
#[derive(Default)]
struct MatrixColumn {
    minimal: usize,
    valid: usize,
    both: usize,
    time: std::time::Duration,
}

impl MatrixColumn {
    fn add(&mut self, m: &Matrix, time: std::time::Duration) {
        let minimal = m.minimal_shape() && m.minimal_elements();
        self.minimal += usize::from(minimal);
        self.valid += usize::from(m.valid());
        self.both += usize::from(minimal && m.valid());
        self.time += time;
    }

    fn row(&self, name: &str) -> String {
        let percent = |n: usize| 100.0 * n as f64 / MATRIX_SEEDS as f64;
        format!(
            "| {name} | {:.1}% | {:.1}% | {:.1}% | {:.2} ms |",
            percent(self.minimal),
            percent(self.valid),
            percent(self.both),
            self.time.as_secs_f64() * 1000.0 / MATRIX_SEEDS as f64
        )
    }
}

/// Shrinks `(rows, cols)` then `rows * cols` elements, failing on any element over the
/// threshold, with reflective and with proptest's two flat maps (with proptest's default shrink
/// budget of 1024 steps, and with 10 000 steps, reflective's evaluation budget),
/// and prints the share of seeds that reach the minimum (1 x 1, the elements all 0 but one
/// at 501), that end valid, and both.
fn dependent_generation() {
    use proptest::strategy::Strategy as _;
    use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng};

    println!(
        "Dependent generation: (rows, cols) in 1..=10, then rows*cols elements in 0..1000; \
         fails on an element over {THRESHOLD}; {MATRIX_SEEDS} seeds"
    );
    println!();
    println!(
        "| shrinker | minimal (1 x 1, one element {}) | valid (rows*cols elements) | both \
         | mean time to find and shrink |",
        THRESHOLD + 1
    );
    println!("|---|---|---|---|---|");
    let g = matrices();
    let mut reflective = MatrixColumn::default();
    for seed in 0..MATRIX_SEEDS {
        let started = Instant::now();
        let mut rng = DefaultRng::seed_from_u64(seed);
        let generated = std::iter::repeat_with(|| g.generate(&mut rng, DEFAULT_SIZE))
            .find(|generated| !matrix_holds(&generated.value.data))
            .expect("a failing matrix");
        let shrunk = g.shrink_generated(
            generated,
            |m| !matrix_holds(&m.data),
            ShrinkBudget::default(),
        );
        reflective.add(&shrunk.value, started.elapsed());
    }
    println!(
        "{}",
        reflective.row("reflective `bind`, 10 000 evaluations at most")
    );

    // proptest's default shrink budget (`max_shrink_iters`, 4 x its 256 cases), or `iters`.
    let runner = |seed: u64, iters: Option<u32>| {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        let defaults = Config::default();
        let config = Config {
            failure_persistence: None,
            max_shrink_iters: iters.unwrap_or(defaults.max_shrink_iters),
            ..defaults
        };
        proptest::test_runner::TestRunner::new_with_rng(
            config,
            TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
        )
    };
    let fail = |data: &[u32]| {
        if matrix_holds(data) {
            Ok(())
        } else {
            Err(TestCaseError::fail("an element over the threshold"))
        }
    };
    let dims = || (1usize..=10, 1usize..=10);
    let elements = |(rows, cols): (usize, usize)| {
        proptest::collection::vec(0u32..1000, rows * cols).prop_map(move |data| Matrix {
            rows,
            cols,
            data,
        })
    };

    // Both budgets: proptest's default, and as many shrink steps as reflective's evaluations.
    let same_budget = u32::try_from(ShrinkBudget::default().evaluations).ok();
    for (iters, budget) in [
        (None, "default budget"),
        (same_budget, "max_shrink_iters 10 000"),
    ] {
        let mut flat_map = MatrixColumn::default();
        for seed in 0..MATRIX_SEEDS {
            let started = Instant::now();
            let strategy = dims().prop_flat_map(elements);
            match runner(seed, iters).run(&strategy, |m| fail(&m.data)) {
                Err(TestError::Fail(_, m)) => flat_map.add(&m, started.elapsed()),
                other => panic!("prop_flat_map, seed {seed}: no failure: {other:?}"),
            }
        }
        println!(
            "{}",
            flat_map.row(&format!("proptest `prop_flat_map`, {budget}"))
        );

        let mut independent = MatrixColumn::default();
        for seed in 0..MATRIX_SEEDS {
            let started = Instant::now();
            let strategy = dims().prop_ind_flat_map2(|(rows, cols)| {
                proptest::collection::vec(0u32..1000, rows * cols)
            });
            match runner(seed, iters).run(&strategy, |(_, data)| fail(&data)) {
                Err(TestError::Fail(_, ((rows, cols), data))) => {
                    independent.add(&Matrix { rows, cols, data }, started.elapsed());
                }
                other => panic!("prop_ind_flat_map2, seed {seed}: no failure: {other:?}"),
            }
        }
        println!(
            "{}",
            independent.row(&format!("proptest `prop_ind_flat_map2`, {budget}"))
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A long failing list

/// The length of the long lists.
const LONG: usize = 10_000;

/// Shrinks a list of 10 000 random elements in `0..=1000`, taken as a value from outside (so
/// the time includes reflection), under several properties; prints the median time of 5 runs,
/// the evaluations and the result.
fn long_lists() {
    use rand::RngExt;

    type Property = fn(&Vec<u32>) -> bool;
    let properties: [(&str, Property); 5] = [
        ("an element over 900", |xs| xs.iter().any(|&x| x > 900)),
        ("the sum over 1000", |xs| xs.iter().sum::<u32>() > 1000),
        ("not sorted", |xs| !xs.is_sorted()),
        ("ten elements over 500", |xs| {
            xs.iter().filter(|&&x| x > 500).count() >= 10
        }),
        ("5000 elements or more", |xs| xs.len() >= 5000),
    ];
    println!("A failing list of {LONG} elements in 0..=1000, reflected and shrunk (median of 5)");
    println!();
    println!("| fails when | time | evaluations | stopped | shrunk to |");
    println!("|---|---|---|---|---|");
    let g = vec(range(0u32..=1000), ..);
    let mut rng = DefaultRng::seed_from_u64(1);
    let list: Vec<u32> = (0..LONG).map(|_| rng.random_range(0..=1000)).collect();
    let mut slowest = std::time::Duration::ZERO;
    for (name, fails) in properties {
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..5 {
            let started = Instant::now();
            let shrunk = g.shrink_with_stats(&list, fails).expect("the list fails");
            times.push(started.elapsed());
            last = Some(shrunk);
        }
        let shrunk = last.expect("five runs");
        let time = reflective_examples::measure::median(&times);
        slowest = slowest.max(time);
        let shown = format!("{:?}", shrunk.value);
        let shown = if shown.len() > 40 {
            format!(
                "{} elements, the first {:?}",
                shrunk.value.len(),
                &shrunk.value[..3]
            )
        } else {
            shown
        };
        println!(
            "| {name} | {:.1} ms | {} | {:?} | {shown} |",
            time.as_secs_f64() * 1000.0,
            shrunk.stats.evaluations,
            shrunk.stats.stopped
        );
    }
    println!();
    println!(
        "slowest: {:.1} ms (goal: under 1 s)",
        slowest.as_secs_f64() * 1000.0
    );
}

/// Shrinks a `Vec<Vec<u8>>` of 10 000 inner lists (random lengths in `0..=4`, random bytes)
/// that fails when an inner list holds a 7, beside the flat list of the same bytes that fails
/// when it holds a 7, both taken as values from outside; prints the median time of 5 runs.
fn long_nests() {
    use rand::RngExt;

    println!(
        "A failing nest of {LONG} inner lists and the flat list of its bytes, reflected and \
         shrunk (median of 5)"
    );
    println!();
    println!("| value | bytes | time | evaluations | stopped | shrunk to |");
    println!("|---|---|---|---|---|---|");
    let mut rng = DefaultRng::seed_from_u64(2);
    let nest: Vec<Vec<u8>> = (0..LONG)
        .map(|_| {
            let length = rng.random_range(0..=4);
            (0..length).map(|_| rng.random_range(0..=255)).collect()
        })
        .collect();
    let flat: Vec<u8> = nest.iter().flatten().copied().collect();
    let nest_time = shrink_timed(
        "nest",
        &<Vec<Vec<u8>>>::arbitrary_reflective(),
        &nest,
        flat.len(),
        |v: &Vec<Vec<u8>>| v.iter().any(|inner| inner.contains(&7)),
    );
    let flat_time = shrink_timed(
        "flat",
        &<Vec<u8>>::arbitrary_reflective(),
        &flat,
        flat.len(),
        |v: &Vec<u8>| v.contains(&7),
    );
    println!();
    println!(
        "nest over flat: {:.2}x; nest {:.1} ms (goal: under 1 s)",
        nest_time.as_secs_f64() / flat_time.as_secs_f64(),
        nest_time.as_secs_f64() * 1000.0
    );
    println!();
}

/// Shrinks `value` with `g` five times, prints a row of [`long_nests`]' table and returns the
/// median time.
fn shrink_timed<T: Clone + Debug + 'static>(
    name: &str,
    g: &Gen<T, T>,
    value: &T,
    bytes: usize,
    fails: fn(&T) -> bool,
) -> std::time::Duration {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..5 {
        let started = Instant::now();
        let shrunk = g.shrink_with_stats(value, fails).expect("the value fails");
        times.push(started.elapsed());
        last = Some(shrunk);
    }
    let shrunk = last.expect("five runs");
    let time = reflective_examples::measure::median(&times);
    println!(
        "| {name} | {bytes} | {:.1} ms | {} | {:?} | {:?} |",
        time.as_secs_f64() * 1000.0,
        shrunk.stats.evaluations,
        shrunk.stats.stopped,
        shrunk.value
    );
    time
}
