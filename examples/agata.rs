//! The Agata thesis' experiments (chapters 2 and 3), with proptest and quickcheck beside
//! reflective in the same run:
//!
//! 1. growth: leaves of `Vec<u8>`, `Vec<Vec<u8>>`, ... up to dimension 6 at one size, under
//!    every size strategy, and with the peers' default collection generators;
//! 2. position: the mean length of element `i` of a `Vec<Vec<u8>>`, for several lengths;
//! 3. the 6-dimension abstract syntax tree of section 3.1.1: a 100-case run, its time and peak
//!    memory, each library in a process of its own with a memory and time limit;
//! 4. the broken quick-sort of section 3.2.1: how many of 100 runs of 100 cases find the bug;
//! 5. the pre-processing bug of section 3.2.2: the same;
//! 6. derived recursive types (a binary tree, a rose tree) and the abstract syntax tree at sizes
//!    10, 100 and 1000: depth and node counts under every strategy.
//!
//! A run of 100 cases is the way QuickCheck and Agata run a property: case `i` at size `i`.
//! reflective has no property runner yet, so the example runs the cases itself; proptest's and
//! quickcheck's cases are drawn the way their runners draw them (proptest: `new_tree` with a
//! default `TestRunner`; quickcheck: `Arbitrary::arbitrary` with `Gen::new(100)`, its
//! default size), without their shrinking, which does not change whether a run fails.
//!
//! ```text
//! cargo run --release --example agata            # everything, about three minutes
//! cargo run --release --example agata -- --quick # fewer samples in sections 1, 2 and 6
//! cargo run --release --example agata -- --only 6 # one section
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use proptest::arbitrary::any;
use proptest::collection::vec as pt_vec;
use proptest::strategy::{BoxedStrategy, Strategy as PtStrategy, ValueTree};
use proptest::test_runner::TestRunner;
use quickcheck::{Arbitrary as QcArbitrary, Gen as QcGen};
use reflective::prelude::*;
use reflective_examples::agata::{
    Count, File, Nat, Rose, Shape, Tree, file_values, fill_class_names, inspect, qsort_agrees,
};

/// The size of the growth and position tables.
const GROWTH_SIZE: usize = 10;
/// The size quickcheck's `Gen` gets for the growth table: its lengths are uniform in
/// `0..size`, reflective's in `0..=size`.
const QC_GROWTH_SIZE: usize = GROWTH_SIZE + 1;
/// The size quickcheck runs its properties at by default.
const QC_DEFAULT_SIZE: usize = 100;
/// The memory a child process may map, in KiB (2 GiB).
const CHILD_MEMORY_KIB: u64 = 2 * 1024 * 1024;
/// The time a child process may take.
const CHILD_TIME: Duration = Duration::from_secs(30);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("child") {
        child(args.get(2).map_or("", String::as_str));
        return;
    }
    let quick = args.iter().any(|arg| arg == "--quick");
    let only: Option<usize> = args.iter().position(|arg| arg == "--only").map(|at| {
        match args.get(at + 1).and_then(|n| n.parse().ok()) {
            Some(section @ 1..=6) => section,
            _ => {
                eprintln!("--only takes a section number, 1 to 6");
                std::process::exit(2);
            }
        }
    });
    let sections: [fn(bool); 6] = [
        growth,
        position,
        |_| abstract_syntax_trees(),
        |_| quick_sort(),
        |_| pre_processing(),
        derived_trees,
    ];
    for (number, section) in (1..).zip(sections) {
        if only.is_none_or(|only| only == number) {
            section(quick);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Growth.

/// The leaves and values (see [`Count`]) of each of `samples` values of dimension `d` (1 to 6):
/// a column's draws, as a function of `d` and `samples`.
type Draws = Box<dyn Fn(usize, usize) -> Vec<(usize, usize)>>;

/// One column of the growth table: a name, and how it draws a value of each dimension.
struct Column {
    name: String,
    counts: Draws,
}

/// Leaves of `samples` values of the nested vector type of dimension `$d`, drawn by `$draw`
/// (a closure generic over nothing: it names the type through `$t`).
macro_rules! by_dimension {
    ($d:expr, $samples:expr, |$t:ident| $draw:expr) => {
        match $d {
            1 => {
                type $t = Vec<u8>;
                $draw
            }
            2 => {
                type $t = Vec<Vec<u8>>;
                $draw
            }
            3 => {
                type $t = Vec<Vec<Vec<u8>>>;
                $draw
            }
            4 => {
                type $t = Vec<Vec<Vec<Vec<u8>>>>;
                $draw
            }
            5 => {
                type $t = Vec<Vec<Vec<Vec<Vec<u8>>>>>;
                $draw
            }
            6 => {
                type $t = Vec<Vec<Vec<Vec<Vec<Vec<u8>>>>>>;
                $draw
            }
            d => unreachable!("dimension {d}"),
        }
    };
}

/// reflective under `strategy`, at [`GROWTH_SIZE`].
fn reflective_column(strategy: Strategy) -> Column {
    Column {
        name: strategy.to_string(),
        counts: Box::new(move |d, samples| {
            let mut rng = DefaultRng::seed_from_u64(d as u64);
            by_dimension!(d, samples, |T| {
                let g = T::arbitrary_reflective().size_strategy(strategy);
                (0..samples)
                    .map(|_| counted(&g.generate_value(&mut rng, GROWTH_SIZE)))
                    .collect()
            })
        }),
    }
}

/// quickcheck's `Vec::arbitrary`, at a `Gen` of size [`QC_GROWTH_SIZE`].
fn quickcheck_column() -> Column {
    Column {
        name: "quickcheck".into(),
        counts: Box::new(|d, samples| {
            let mut g = QcGen::from_size_and_seed(QC_GROWTH_SIZE, d as u64);
            by_dimension!(d, samples, |T| {
                (0..samples)
                    .map(|_| counted(&T::arbitrary(&mut g)))
                    .collect()
            })
        }),
    }
}

/// proptest's collections with `vec(_, 0..=GROWTH_SIZE)` at every level, the closest proptest
/// has to a size.
fn proptest_sized_column() -> Column {
    Column {
        name: format!("proptest 0..={GROWTH_SIZE}"),
        counts: Box::new(|d, samples| {
            let mut runner = TestRunner::deterministic();
            by_dimension!(d, samples, |T| {
                let strategy = T::lengths_up_to(GROWTH_SIZE);
                (0..samples)
                    .map(|_| {
                        let tree = strategy.new_tree(&mut runner).expect("no rejection");
                        counted(&tree.current())
                    })
                    .collect()
            })
        }),
    }
}

/// A proptest strategy for nested vectors with lengths in `0..=n` at every level.
trait LengthsUpTo: Sized + std::fmt::Debug {
    fn lengths_up_to(n: usize) -> BoxedStrategy<Self>;
}

impl LengthsUpTo for u8 {
    fn lengths_up_to(_: usize) -> BoxedStrategy<Self> {
        any::<u8>().boxed()
    }
}

impl<T: LengthsUpTo + 'static> LengthsUpTo for Vec<T> {
    fn lengths_up_to(n: usize) -> BoxedStrategy<Self> {
        pt_vec(T::lengths_up_to(n), 0..=n).boxed()
    }
}

/// proptest's default collections, `any::<Vec<_>>()`: lengths `0..100` at every level.
/// Dimensions above 3 are not drawn: a value has about `50^d` leaves.
fn proptest_default_column() -> Column {
    Column {
        name: "proptest any".into(),
        counts: Box::new(|d, samples| {
            let mut runner = TestRunner::deterministic();
            let samples = samples.min(100);
            match d {
                1 => draw_proptest::<Vec<u8>>(&mut runner, samples),
                2 => draw_proptest::<Vec<Vec<u8>>>(&mut runner, samples),
                3 => draw_proptest::<Vec<Vec<Vec<u8>>>>(&mut runner, samples),
                _ => Vec::new(),
            }
        }),
    }
}

/// The leaves and values of `samples` values of `any::<T>()`.
fn draw_proptest<T: proptest::arbitrary::Arbitrary + Count>(
    runner: &mut TestRunner,
    samples: usize,
) -> Vec<(usize, usize)> {
    let strategy = any::<T>();
    (0..samples)
        .map(|_| counted(&strategy.new_tree(runner).expect("no rejection").current()))
        .collect()
}

/// A value's leaves and values.
fn counted(value: &impl Count) -> (usize, usize) {
    (value.leaves(), value.values())
}

/// Mean and maximum of `counts`, as `mean/max`; a dash when there are none.
fn mean_and_max(counts: &[usize]) -> String {
    if counts.is_empty() {
        return "-".into();
    }
    let mean = counts.iter().sum::<usize>() as f64 / counts.len() as f64;
    let max = counts.iter().max().copied().unwrap_or(0);
    format!("{mean:.1}/{max}")
}

fn growth(quick: bool) {
    let samples = if quick { 100 } else { 1_000 };
    println!("## 1. Growth: Vec<u8> (d = 1) ... Vec^6<u8> (d = 6) at size {GROWTH_SIZE}");
    println!();
    let mut columns: Vec<Column> = Strategy::ALL.into_iter().map(reflective_column).collect();
    columns.push(quickcheck_column());
    columns.push(proptest_sized_column());
    columns.push(proptest_default_column());
    let counts: Vec<Vec<Vec<(usize, usize)>>> = columns
        .iter()
        .map(|column| (1..=6).map(|d| (column.counts)(d, samples)).collect())
        .collect();
    let header: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
    for (what, pick) in [
        (
            "leaves (bytes)",
            (|c: &(usize, usize)| c.0) as fn(&(usize, usize)) -> usize,
        ),
        ("values (bytes and vectors, the outermost included)", |c| {
            c.1
        }),
    ] {
        println!(
            "Mean/maximum number of {what} in {samples} values (proptest `any`: 100 values, \
             d <= 3: about 50^d bytes):"
        );
        println!();
        println!("| d | {} |", header.join(" | "));
        println!("|---|{}", "---|".repeat(columns.len()));
        for d in 1..=6 {
            let cells: Vec<String> = counts
                .iter()
                .map(|by_d| mean_and_max(&by_d[d - 1].iter().map(pick).collect::<Vec<_>>()))
                .collect();
            println!("| {d} | {} |", cells.join(" | "));
        }
        println!();
        let growths: Vec<String> = columns
            .iter()
            .zip(&counts)
            .filter(|(_, by_d)| by_d.iter().all(|c| !c.is_empty()))
            .map(|(column, by_d)| {
                let mean = |c: &[(usize, usize)]| {
                    c.iter().map(pick).sum::<usize>() as f64 / c.len() as f64
                };
                format!("{} {:.2}", column.name, mean(&by_d[5]) / mean(&by_d[0]))
            })
            .collect();
        println!("Mean at d = 6 over mean at d = 1: {}.", growths.join(", "));
        println!();
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Position.

fn position(quick: bool) {
    let size = 100;
    let wanted = if quick { 300 } else { 3_000 };
    println!("## 2. Position: mean length of element i of a Vec<Vec<u8>> at size {size}");
    println!();
    println!("Over {wanted} vectors of each length (linear strategy, the default):");
    println!();
    let g = <Vec<Vec<u8>>>::arbitrary_reflective();
    let lengths = [2usize, 5, 10, 20];
    let mut rng = DefaultRng::seed_from_u64(11);
    let longest = *lengths.iter().max().expect("lengths");
    println!(
        "| length | {} | max/min |",
        (0..longest)
            .map(|i| format!("i={i}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}---|", "---|".repeat(longest));
    let mut worst = 1.0f64;
    for &length in &lengths {
        let mut sums = vec![0usize; length];
        let mut found = 0;
        while found < wanted {
            let value = g.generate_value(&mut rng, size);
            if value.len() != length {
                continue;
            }
            for (sum, inner) in sums.iter_mut().zip(&value) {
                *sum += inner.len();
            }
            found += 1;
        }
        let means: Vec<f64> = sums.iter().map(|&s| s as f64 / wanted as f64).collect();
        let max = means.iter().copied().fold(f64::MIN, f64::max);
        let min = means.iter().copied().fold(f64::MAX, f64::min);
        worst = worst.max(max / min);
        let mut cells: Vec<String> = means.iter().map(|m| format!("{m:.2}")).collect();
        cells.resize(longest, String::new());
        println!("| {length} | {} | {:.2} |", cells.join(" | "), max / min);
    }
    println!();
    println!(
        "The elements' lengths are shares of one budget of {size}, every split among them \
         (and an unused rest) equally likely: a long vector has short elements. Largest \
         max/min over the rows: {worst:.2} ({}).",
        if worst <= 1.25 {
            "flat within sampling noise"
        } else {
            "NOT flat"
        }
    );
    println!();
}

// ---------------------------------------------------------------------------------------------
// 3. Abstract syntax trees: each library in a child process, which prints a line per case.

/// What a child process did.
struct Outcome {
    /// Cases (or runs) it reported.
    lines: Vec<String>,
    /// How it ended: "finished", "killed after 30 s", or its exit status and last error line.
    ending: String,
}

/// Runs this example as `child <kind>` under the memory and time limits.
fn run_child(kind: &str) -> Outcome {
    let exe = std::env::current_exe().expect("the example's path");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {CHILD_MEMORY_KIB}; exec \"$0\" child {kind}"
        ))
        .arg(&exe)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("a shell to run the child in");
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let (lines_tx, lines_rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    let errors = std::thread::spawn(move || {
        let lines: Vec<String> = BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .collect();
        let telling = ["memory allocation", "overflowed", "panicked"];
        lines
            .iter()
            .find(|line| telling.iter().any(|word| line.contains(word)))
            .or(lines.iter().find(|line| !line.trim().is_empty()))
            .cloned()
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            break Some(status);
        }
        if start.elapsed() > CHILD_TIME {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let last_error = errors.join().ok().flatten();
    let lines: Vec<String> = lines_rx.try_iter().collect();
    let ending = match status {
        None => format!("stopped at the {} s limit", CHILD_TIME.as_secs()),
        Some(status) if status.success() => "finished".into(),
        Some(status) => format!(
            "{status}{}",
            last_error.map_or(String::new(), |e| format!(": {e}"))
        ),
    };
    Outcome { lines, ending }
}

/// The libraries the children run: reflective under each strategy, proptest, quickcheck.
fn libraries() -> Vec<(String, String)> {
    let mut libraries: Vec<(String, String)> = Strategy::ALL
        .into_iter()
        .map(|strategy| (format!("reflective ({strategy})"), strategy.to_string()))
        .collect();
    libraries.push(("proptest `any::<File>()`".into(), "proptest".into()));
    libraries.push((
        format!("quickcheck `File::arbitrary`, size {QC_DEFAULT_SIZE}"),
        "quickcheck".into(),
    ));
    libraries
}

/// Files from `library` (a strategy's name, "proptest" or "quickcheck"), as a function of the
/// case's size; its randomness seeded with `seed`.
fn files(library: &str, seed: u64) -> Box<dyn FnMut(usize) -> File> {
    match library {
        "proptest" => {
            let strategy = any::<File>();
            let mut runner = TestRunner::new_with_rng(
                Default::default(),
                proptest::test_runner::TestRng::from_seed(
                    proptest::test_runner::RngAlgorithm::ChaCha,
                    &[seed as u8; 32],
                ),
            );
            Box::new(move |_| {
                strategy
                    .new_tree(&mut runner)
                    .expect("no rejection")
                    .current()
            })
        }
        "quickcheck" => {
            let mut g = QcGen::from_size_and_seed(QC_DEFAULT_SIZE, seed);
            Box::new(move |_| File::arbitrary(&mut g))
        }
        strategy => {
            let strategy = Strategy::ALL
                .into_iter()
                .find(|s| s.name() == strategy)
                .expect("a strategy's name");
            let g = File::arbitrary_reflective().size_strategy(strategy);
            let mut rng = DefaultRng::seed_from_u64(seed);
            Box::new(move |size| g.generate_value(&mut rng, size))
        }
    }
}

/// The child's side: `ast <library>` runs the dummy property, `fname <library>` the
/// pre-processing runs, printing a line per case or run.
fn child(kind: &str) {
    let mut out = std::io::stdout();
    match kind.split_once(':') {
        Some(("ast", library)) => ast_run(&mut out, files(library, 1)),
        Some(("fname", library)) => {
            for run in 0..100 {
                let mut draw = files(library, run);
                let failed_at = (0..100).find(|&size| fill_class_names(&draw(size)).is_none());
                report_run(&mut out, run as usize, failed_at);
            }
        }
        _ => eprintln!("unknown child {kind:?}"),
    }
}

/// 100 cases of the dummy property, case `i` at size `i`; a line per case, then the time and
/// the peak resident memory.
fn ast_run(out: &mut impl Write, mut draw: impl FnMut(usize) -> File) {
    let start = Instant::now();
    let mut parts = 0usize;
    for size in 0..100 {
        let file = draw(size);
        let (chars, trues) = inspect(&file);
        parts += chars + trues;
        writeln!(out, "case {size}").expect("stdout");
        out.flush().expect("stdout");
    }
    let elapsed = start.elapsed();
    writeln!(
        out,
        "done {} ms, peak {} MiB, {parts} characters and trues",
        elapsed.as_millis(),
        peak_resident_mib().map_or("?".into(), |m| format!("{m:.1}"))
    )
    .expect("stdout");
}

/// The process's peak resident memory, from `/proc/self/status` (Linux).
fn peak_resident_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn abstract_syntax_trees() {
    println!("## 3. The abstract syntax tree of section 3.1.1 (dimension 6)");
    println!();
    println!(
        "One 100-case run of the thesis' dummy property (case i at size i for reflective), each \
         library in its own process limited to {} GiB and {} s.",
        CHILD_MEMORY_KIB / 1024 / 1024,
        CHILD_TIME.as_secs()
    );
    println!();
    println!("dimension of File: {}", <File as Reflective>::dimension());
    println!();
    println!("| library | cases done | how it ended | time and peak memory |");
    println!("|---|---|---|---|");
    for (name, library) in libraries() {
        let outcome = run_child(&format!("ast:{library}"));
        let cases = outcome
            .lines
            .iter()
            .filter(|line| line.starts_with("case "))
            .count();
        let done = outcome
            .lines
            .iter()
            .find_map(|line| line.strip_prefix("done "))
            .unwrap_or("-");
        println!("| {name} | {cases} | {} | {done} |", outcome.ending);
    }
    println!();
}

// ---------------------------------------------------------------------------------------------
// 4 and 5. Falsification rates.

/// Runs `runs` runs of 100 cases, case `i` at size `i`, stopping a run at its first failure;
/// prints a line per run.
fn falsifying_runs(out: &mut impl Write, runs: usize, mut fails: impl FnMut(usize) -> bool) {
    for run in 0..runs {
        report_run(out, run, (0..100).find(|&size| fails(size)));
    }
}

/// The line of one run: where it failed, if it did.
fn report_run(out: &mut impl Write, run: usize, failed_at: Option<usize>) {
    writeln!(
        out,
        "run {run}: {}",
        failed_at.map_or("passed".to_string(), |case| format!(
            "failed at case {case}"
        ))
    )
    .expect("stdout");
    out.flush().expect("stdout");
}

/// The rate line of one library: falsified runs, and the mean case of the first failure.
fn rate_line(name: &str, lines: &[String], runs: usize, ending: &str) {
    let reported: Vec<&String> = lines.iter().filter(|l| l.starts_with("run ")).collect();
    let failures: Vec<usize> = reported
        .iter()
        .filter_map(|line| line.rsplit_once("failed at case ")?.1.parse().ok())
        .collect();
    let mean_case = if failures.is_empty() {
        "-".to_string()
    } else {
        format!(
            "{:.1}",
            failures.iter().sum::<usize>() as f64 / failures.len() as f64
        )
    };
    println!(
        "| {name} | {}/{} | {mean_case} | {ending} |",
        failures.len(),
        if reported.len() == runs {
            runs.to_string()
        } else {
            format!(
                "{} (of {runs} runs, the others not reached)",
                reported.len()
            )
        }
    );
}

fn quick_sort() {
    let runs = 100;
    println!("## 4. The optimised quick-sort of section 3.2.1 on [Nat], Nat = Vec<bool>");
    println!();
    println!("Runs of 100 cases that find the bug (thesis: Agata 100/100, QuickCheck 0/100):");
    println!();
    println!("| library | runs falsified | mean first failing case | |");
    println!("|---|---|---|---|");
    let mut lines = Vec::new();
    let g = <Vec<Nat>>::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(3);
    falsifying_runs(&mut lines, runs, |size| {
        !qsort_agrees(&g.generate_value(&mut rng, size))
    });
    rate_line("reflective (linear)", &text_lines(&lines), runs, "");
    for strategy in Strategy::ALL.into_iter().skip(1) {
        let g = <Vec<Nat>>::arbitrary_reflective().size_strategy(strategy);
        let mut lines = Vec::new();
        falsifying_runs(&mut lines, runs, |size| {
            !qsort_agrees(&g.generate_value(&mut rng, size))
        });
        rate_line(
            &format!("reflective ({strategy})"),
            &text_lines(&lines),
            runs,
            "",
        );
    }
    let strategy = any::<Vec<Nat>>();
    let mut runner = TestRunner::deterministic();
    let mut lines = Vec::new();
    falsifying_runs(&mut lines, runs, |_| {
        !qsort_agrees(
            &strategy
                .new_tree(&mut runner)
                .expect("no rejection")
                .current(),
        )
    });
    rate_line(
        "proptest `any::<Vec<Vec<bool>>>()`",
        &text_lines(&lines),
        runs,
        "",
    );
    let mut lines = Vec::new();
    let mut run = 0;
    falsifying_runs(&mut lines, runs, |size| {
        // A `Gen` per case, seeded by the run and the case.
        run += usize::from(size == 0);
        let mut g = QcGen::from_size_and_seed(QC_DEFAULT_SIZE, (run * 1_000 + size) as u64);
        !qsort_agrees(&Vec::<Nat>::arbitrary(&mut g))
    });
    rate_line("quickcheck, size 100", &text_lines(&lines), runs, "");
    println!();
}

/// The lines written to `buffer`.
fn text_lines(buffer: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(buffer)
        .lines()
        .map(str::to_string)
        .collect()
}

fn pre_processing() {
    let runs = 100;
    println!("## 5. The pre-processing bug of section 3.2.2 on File");
    println!();
    println!("Runs of 100 cases that find the bug (thesis: Agata 100/100, QuickCheck 13/100):");
    println!();
    println!("| library | runs falsified | mean first failing case | how it ended |");
    println!("|---|---|---|---|");
    for (name, library) in libraries() {
        let start = Instant::now();
        let outcome = run_child(&format!("fname:{library}"));
        let ending = format!("{}, {} ms", outcome.ending, start.elapsed().as_millis());
        rate_line(&name, &outcome.lines, runs, &ending);
    }
    println!();
}

// ---------------------------------------------------------------------------------------------
// 6. Derived recursive types.

/// The sizes of section 6.
const TREE_SIZES: [usize; 3] = [10, 100, 1000];

/// `samples` values of `T` at `size` under `strategy`, as (depth, nodes).
fn shapes<T: Reflective + Shape>(
    strategy: Strategy,
    size: usize,
    samples: usize,
) -> Vec<(usize, usize)> {
    let g = T::arbitrary_reflective().size_strategy(strategy);
    let mut rng = DefaultRng::seed_from_u64(size as u64);
    (0..samples)
        .map(|_| {
            let value = g.generate_value(&mut rng, size);
            (value.depth(), value.nodes())
        })
        .collect()
}

/// The table of section 6 for `T`, and the linear strategy's largest depth and node count
/// over the size at each size.
fn tree_table<T: Reflective + Shape>(name: &str, samples: usize) {
    println!("{name}: mean/max depth, then mean/max nodes, of {samples} values:");
    println!();
    let header: Vec<String> = Strategy::ALL.iter().map(ToString::to_string).collect();
    println!("| size | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(header.len()));
    let mut linear = Vec::new();
    for size in TREE_SIZES {
        let cells: Vec<String> = Strategy::ALL
            .iter()
            .map(|&strategy| {
                let drawn = shapes::<T>(strategy, size, samples);
                let depths: Vec<usize> = drawn.iter().map(|s| s.0).collect();
                let nodes: Vec<usize> = drawn.iter().map(|s| s.1).collect();
                if strategy == Strategy::Linear {
                    let max = |v: &[usize]| v.iter().max().copied().unwrap_or(0);
                    linear.push((size, max(&depths), max(&nodes)));
                }
                format!("{}; {}", mean_and_max(&depths), mean_and_max(&nodes))
            })
            .collect();
        println!("| {size} | {} |", cells.join(" | "));
    }
    println!();
    let ratios: Vec<String> = linear
        .iter()
        .map(|(size, depth, nodes)| {
            format!(
                "n = {size}: max depth {depth} ({:.2} n), max nodes {nodes} ({:.2} n)",
                *depth as f64 / *size as f64,
                *nodes as f64 / *size as f64
            )
        })
        .collect();
    println!("Linear: {}.", ratios.join("; "));
    println!();
}

/// A `Tree` of `depth` nodes in a chain, each the right child of the one above.
fn chain(depth: usize) -> Tree {
    (0..depth).fold(Tree::Leaf, |below, _| {
        Tree::Node(Box::new(Tree::Leaf), 0, Box::new(below))
    })
}

/// "possible" or "impossible", for a `can_generate` answer.
fn possible(answer: Result<bool, reflective::ReflectError>) -> &'static str {
    match answer {
        Ok(true) => "possible",
        Ok(false) => "impossible",
        Err(_) => "beyond the reflection budget",
    }
}

fn derived_trees(quick: bool) {
    let samples = if quick { 100 } else { 1_000 };
    println!("## 6. Derived recursive types at sizes 10, 100 and 1000");
    println!();
    println!(
        "A derived type's node uses one unit of the size, and its fields run one after another \
         on what is left, so a tree at size n holds at most about n nodes, however deep."
    );
    println!();
    tree_table::<Tree>(
        "`enum Tree { Leaf, Node(Box<Tree>, u8, Box<Tree>) }`",
        samples,
    );
    let reach: Vec<String> = TREE_SIZES
        .iter()
        .map(|&n| {
            let tree = Tree::arbitrary_reflective();
            let at_n = tree.reflector().size(n);
            format!(
                "size {n}: {} nodes deep {}, {} deep {}",
                n,
                possible(at_n.can_generate(&chain(n))),
                n + 1,
                possible(at_n.can_generate(&chain(n + 1)))
            )
        })
        .collect();
    println!(
        "The deepest Tree each size can produce (a chain): {}.",
        reach.join("; ")
    );
    println!();
    tree_table::<Rose>("`struct Rose { label: u8, children: Vec<Rose> }`", samples);
    let strategies = [
        Strategy::Linear,
        Strategy::Quadratic,
        Strategy::Fixed,
        Strategy::Partitions,
    ];
    let samples = samples / 5;
    println!(
        "The abstract syntax tree of section 3 (`File`): mean/max values (characters, list \
         elements, tuples, results and Booleans) of {samples} files (exponential and random: \
         section 3):"
    );
    println!();
    let header: Vec<String> = strategies.iter().map(ToString::to_string).collect();
    println!("| size | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(header.len()));
    for size in TREE_SIZES {
        let cells: Vec<String> = strategies
            .iter()
            .map(|&strategy| {
                let g = File::arbitrary_reflective().size_strategy(strategy);
                let mut rng = DefaultRng::seed_from_u64(size as u64);
                let values: Vec<usize> = (0..samples)
                    .map(|_| file_values(&g.generate_value(&mut rng, size)))
                    .collect();
                mean_and_max(&values)
            })
            .collect();
        println!("| {size} | {} |", cells.join(" | "));
    }
    println!();
}
