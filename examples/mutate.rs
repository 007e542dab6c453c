//! Mutation that keeps a generator's invariants ([`Generator::mutator`]) against mutating by
//! hand and filtering, on three workloads: binary search trees (the paper's generator), AVL
//! trees, and well-typed terms of the simply typed lambda calculus.
//!
//! ```text
//! cargo run --release --example mutate
//! ```
//!
//! For each workload the seeds are values the generator gave (the first seeds that have at
//! least `MIN_SEED_NODES` nodes) or fixtures written by hand, measured apart. The tables:
//!
//! 1. reflective mutation: `MUTANTS` mutants from the seeds, taken in turn from each seed's
//!    `mutants` iterator (reflecting the seeds is part of the time): how many are valid by the
//!    workload's own predicate (all must be: the example asserts it, and that the generator
//!    can produce every 20th of them), how many distinct valid values (the seeds themselves
//!    not counted), and how many of each per second;
//! 2. naive mutation and filter, the comparison: `MUTANTS` structural edits of the same seeds
//!    made without the generator (for trees: set a key to a random key, replace a subtree by a
//!    leaf or a random small tree, swap two subtrees, put a random key at a leaf; for terms:
//!    replace a subterm by a random literal, variable or small term, swap two subterms), each
//!    checked by the predicate; and the ratio of distinct valid values per second, reflective
//!    over naive; then the same two strategies given the same time, `TIME_BUDGET` each,
//!    instead of the same number of values: single edits of a few seeds have a limited
//!    neighbourhood, so how many distinct valid values a strategy finds per second depends on
//!    how long it runs, and a fuzzing loop runs for seconds, not for the milliseconds that
//!    10 000 naive edits take;
//! 3. generate and filter, a second comparison: `MUTANTS` values from a generator that ignores
//!    the invariant (random trees with keys in `0..=100`, random untyped terms), the valid
//!    ones kept;
//! 4. how far the mutants are from their seeds: the number of nodes that differ (the
//!    symmetric difference of the two values' sets of (path, label) nodes; see
//!    `reflective_examples::mutation`), its median, and the share of mutants that keep the
//!    seed's root (key or constructor);
//! 5. each edit kind's mutants: how many, how many valid and distinct, their median distance;
//!    the same for the naive edits;
//! 6. a bug planted in a binary search tree's deletion, which fires only on a particular
//!    shape: `HUNT_RUNS` runs of `HUNT_BUDGET` cases each, mutating a fixture near the bug or
//!    generating cases from the same generator, and how often each finds it.
//!
//! Timings are medians of `REPETITIONS` runs, every comparison made in the same run. The
//! workloads, mutators and measures are in `reflective_examples::mutation`.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Display;
use std::hash::Hash;
use std::time::{Duration, Instant};

use reflective::prelude::*;
use reflective_examples::measure::thousands;
use reflective_examples::mutation::{
    Budget, ReflectiveMutant, Workload, avl_workload, bst_workload, distance, distinct,
    generate_and_filter, median, naive_mutants, planted, reflective_mutants, same_root,
    stlc_workload, timed,
};

/// Mutants per workload and kind of seed, for each strategy.
const MUTANTS: usize = 10_000;
/// The time each strategy is given in the same-time comparison.
const TIME_BUDGET: Duration = Duration::from_secs(1);
/// Repetitions of each timed run; the tables show the median.
const REPETITIONS: usize = 5;
/// How many generated seeds each workload has.
const GENERATED_SEEDS: usize = 8;
/// The fewest nodes a generated seed has.
const MIN_SEED_NODES: usize = 5;
/// Every how many reflective mutants one is checked with `can_generate`.
const CAN_GENERATE_EVERY: usize = 20;
/// Runs of the planted bug's hunt, for each strategy.
const HUNT_RUNS: usize = 20;
/// Cases per run of the hunt.
const HUNT_BUDGET: usize = 1_000;

/// What a strategy produced in one timed run.
#[derive(Clone, Debug, Default)]
struct Counts {
    /// Values produced (mutants, edits or generated values).
    produced: usize,
    /// Valid ones among them.
    valid: usize,
    /// Distinct valid values, the seeds not counted.
    distinct: usize,
    /// The median time of a run.
    time: Duration,
}

impl Counts {
    fn valid_share(&self) -> String {
        percent(self.valid, self.produced)
    }

    fn per_second(&self, n: usize) -> f64 {
        n as f64 / self.time.as_secs_f64()
    }

    fn distinct_per_second(&self) -> f64 {
        self.per_second(self.distinct)
    }
}

/// One edit kind's mutants.
#[derive(Clone, Debug, Default)]
struct EditRow {
    count: usize,
    valid: usize,
    distinct: usize,
    distances: Vec<usize>,
}

/// The measurements of one workload with one kind of seed.
#[derive(Clone, Debug)]
struct Row {
    workload: &'static str,
    origin: &'static str,
    seeds: usize,
    seed_nodes: f64,
    reflective: Counts,
    checked: usize,
    naive: Counts,
    /// Reflective mutation given [`TIME_BUDGET`] (median distinct count of the runs).
    reflective_in_time: Counts,
    /// Naive mutation given [`TIME_BUDGET`].
    naive_in_time: Counts,
    reflective_distances: Vec<usize>,
    reflective_roots: usize,
    naive_distances: Vec<usize>,
    naive_roots: usize,
}

/// Everything measured.
#[derive(Default)]
struct Report {
    rows: Vec<Row>,
    /// Generate and filter, per workload.
    filtered: Vec<(&'static str, Counts)>,
    /// Per (workload, edit): the reflective edits' rows.
    edits: BTreeMap<(&'static str, String), EditRow>,
    /// Per (workload, edit): the naive edits' rows.
    naive_edits: BTreeMap<(&'static str, &'static str), EditRow>,
}

fn main() {
    println!(
        "# Mutation: {MUTANTS} mutants per workload and kind of seed, medians of {REPETITIONS} runs\n"
    );
    let mut report = Report::default();
    measure(&bst_workload(), &mut report);
    measure(&avl_workload(), &mut report);
    measure(&stlc_workload(), &mut report);
    print_report(&report);
    hunt();
}

/// Measures every strategy on `workload`, with generated seeds and with its fixtures.
fn measure<T: Clone + Eq + Hash + Display>(workload: &Workload<T>, report: &mut Report) {
    let generated = workload.generated_seeds(GENERATED_SEEDS, MIN_SEED_NODES);
    for (origin, seeds) in [
        ("generated", generated),
        ("hand-written", workload.fixtures.clone()),
    ] {
        let row = measure_seeds(workload, origin, &seeds, report);
        report.rows.push(row);
    }
    let (valid, time) = timed(REPETITIONS, || generate_and_filter(workload, MUTANTS, 1));
    report.filtered.push((
        workload.name,
        Counts {
            produced: MUTANTS,
            valid: valid.len(),
            distinct: distinct(&valid, &[]),
            time,
        },
    ));
}

/// Measures reflective and naive mutation of `seeds`.
fn measure_seeds<T: Clone + Eq + Hash + Display>(
    workload: &Workload<T>,
    origin: &'static str,
    seeds: &[T],
    report: &mut Report,
) -> Row {
    let g = &workload.generator;
    let (mutants, time) = timed(REPETITIONS, || {
        reflective_mutants(g, seeds, Budget::Values(MUTANTS), 1)
    });
    let reflective = reflective_counts(workload, seeds, &mutants, time);
    let mut checked = 0;
    for mutant in mutants.iter().step_by(CAN_GENERATE_EVERY) {
        assert!(
            g.can_generate(&mutant.value),
            "{}: the generator cannot produce its mutant {}",
            workload.name,
            mutant.value
        );
        checked += 1;
    }
    let mut by_edit: BTreeMap<String, (EditRow, HashSet<&T>)> = BTreeMap::new();
    let mut reflective_distances = Vec::new();
    let mut reflective_roots = 0;
    for mutant in &mutants {
        let d = distance(workload, &seeds[mutant.seed], &mutant.value);
        reflective_distances.push(d);
        reflective_roots += usize::from(same_root(workload, &seeds[mutant.seed], &mutant.value));
        let (row, values) = by_edit.entry(mutant.edit.to_string()).or_default();
        row.count += 1;
        row.valid += usize::from((workload.valid)(&mutant.value));
        row.distances.push(d);
        if !seeds.contains(&mutant.value) {
            values.insert(&mutant.value);
        }
    }
    for (edit, (mut row, values)) in by_edit {
        row.distinct = values.len();
        merge(report.edits.entry((workload.name, edit)).or_default(), row);
    }

    let (naive, time) = timed(REPETITIONS, || {
        naive_mutants(workload, seeds, Budget::Values(MUTANTS), 1)
    });
    let naive_valid: Vec<_> = naive.iter().filter(|m| m.valid).collect();
    let naive_counts = Counts {
        produced: naive.len(),
        valid: naive_valid.len(),
        distinct: distinct(naive_valid.iter().map(|m| &m.value), seeds),
        time,
    };
    let mut naive_distances = Vec::new();
    let mut naive_roots = 0;
    for m in &naive_valid {
        naive_distances.push(distance(workload, &seeds[m.seed], &m.value));
        naive_roots += usize::from(same_root(workload, &seeds[m.seed], &m.value));
    }
    let mut by_naive_edit: BTreeMap<&'static str, (EditRow, HashSet<&T>)> = BTreeMap::new();
    for m in &naive {
        let (row, values) = by_naive_edit.entry(m.edit).or_default();
        row.count += 1;
        if m.valid {
            row.valid += 1;
            row.distances
                .push(distance(workload, &seeds[m.seed], &m.value));
            if !seeds.contains(&m.value) {
                values.insert(&m.value);
            }
        }
    }
    for (edit, (mut row, values)) in by_naive_edit {
        row.distinct = values.len();
        merge(
            report.naive_edits.entry((workload.name, edit)).or_default(),
            row,
        );
    }

    let (reflective_in_time, naive_in_time) = in_time(workload, seeds);
    Row {
        workload: workload.name,
        origin,
        seeds: seeds.len(),
        seed_nodes: seeds.iter().map(|s| workload.size(s)).sum::<usize>() as f64
            / seeds.len() as f64,
        reflective,
        checked,
        naive: naive_counts,
        reflective_in_time,
        naive_in_time,
        reflective_distances,
        reflective_roots,
        naive_distances,
        naive_roots,
    }
}

/// Reflective and naive mutation of `seeds` given [`TIME_BUDGET`] each, `REPETITIONS` times:
/// the runs with the median count of distinct valid values.
fn in_time<T: Clone + Eq + Hash + Display>(
    workload: &Workload<T>,
    seeds: &[T],
) -> (Counts, Counts) {
    let mut reflective = Vec::new();
    let mut naive = Vec::new();
    for repetition in 0..REPETITIONS as u64 {
        let start = Instant::now();
        let mutants = reflective_mutants(
            &workload.generator,
            seeds,
            Budget::Time(TIME_BUDGET),
            repetition,
        );
        reflective.push(reflective_counts(
            workload,
            seeds,
            &mutants,
            start.elapsed(),
        ));
        let start = Instant::now();
        let edits = naive_mutants(workload, seeds, Budget::Time(TIME_BUDGET), repetition);
        let time = start.elapsed();
        let valid: Vec<&T> = edits.iter().filter(|m| m.valid).map(|m| &m.value).collect();
        naive.push(Counts {
            produced: edits.len(),
            valid: valid.len(),
            distinct: distinct(valid, seeds),
            time,
        });
    }
    (median_run(reflective), median_run(naive))
}

/// What reflective mutation made of `seeds` in `time`, after checking that every mutant is
/// valid.
fn reflective_counts<T: Eq + Hash + Display>(
    workload: &Workload<T>,
    seeds: &[T],
    mutants: &[ReflectiveMutant<T>],
    time: Duration,
) -> Counts {
    let valid = mutants
        .iter()
        .filter(|mutant| (workload.valid)(&mutant.value))
        .count();
    assert_eq!(
        valid,
        mutants.len(),
        "{}: an invalid reflective mutant",
        workload.name
    );
    Counts {
        produced: mutants.len(),
        valid,
        distinct: distinct(mutants.iter().map(|m| &m.value), seeds),
        time,
    }
}

/// The run with the median rate of distinct valid values.
fn median_run(mut runs: Vec<Counts>) -> Counts {
    runs.sort_by(|a, b| a.distinct_per_second().total_cmp(&b.distinct_per_second()));
    runs.swap_remove(runs.len() / 2)
}

/// Adds `row` (one kind of seed's) into `into` (the workload's). Distinct values are summed:
/// the two kinds of seed are far apart.
fn merge(into: &mut EditRow, row: EditRow) {
    into.count += row.count;
    into.valid += row.valid;
    into.distinct += row.distinct;
    into.distances.extend(row.distances);
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "-".to_string();
    }
    format!("{:.1}%", 100.0 * part as f64 / whole as f64)
}

fn ratio(a: f64, b: f64) -> String {
    if b == 0.0 {
        return "∞".to_string();
    }
    format!("{:.2}×", a / b)
}

fn print_report(report: &Report) {
    println!("## Seeds\n");
    println!("| workload | seeds | count | mean nodes |");
    println!("|---|---|--:|--:|");
    for row in &report.rows {
        println!(
            "| {} | {} | {} | {:.1} |",
            row.workload, row.origin, row.seeds, row.seed_nodes
        );
    }

    println!("\n## 1. Reflective mutation (`Generator::mutator().mutants`)\n");
    println!(
        "| workload | seeds | mutants | valid | `can_generate` (every {CAN_GENERATE_EVERY}th) | distinct valid | mutants/s | distinct valid/s |"
    );
    println!("|---|---|--:|--:|--:|--:|--:|--:|");
    for row in &report.rows {
        let r = &row.reflective;
        println!(
            "| {} | {} | {} | {} | {}/{} | {} | {} | {} |",
            row.workload,
            row.origin,
            r.produced,
            r.valid_share(),
            row.checked,
            row.checked,
            r.distinct,
            thousands(r.per_second(r.produced)),
            thousands(r.distinct_per_second()),
        );
    }

    println!("\n## 2. Naive mutation + filter (the comparison)\n");
    println!(
        "| workload | seeds | edits | valid | distinct valid | edits/s | distinct valid/s | reflective ÷ naive (distinct valid/s) |"
    );
    println!("|---|---|--:|--:|--:|--:|--:|--:|");
    for row in &report.rows {
        let n = &row.naive;
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            row.workload,
            row.origin,
            n.produced,
            n.valid_share(),
            n.distinct,
            thousands(n.per_second(n.produced)),
            thousands(n.distinct_per_second()),
            ratio(
                row.reflective.distinct_per_second(),
                n.distinct_per_second()
            ),
        );
    }

    println!(
        "\n## 2b. The same time: each strategy mutates the same seeds for {} s (median of {REPETITIONS} runs)\n",
        TIME_BUDGET.as_secs_f64()
    );
    println!(
        "| workload | seeds | reflective mutants | distinct valid | naive edits | valid | distinct valid | reflective ÷ naive (distinct valid/s) |"
    );
    println!("|---|---|--:|--:|--:|--:|--:|--:|");
    for row in &report.rows {
        let (r, n) = (&row.reflective_in_time, &row.naive_in_time);
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            row.workload,
            row.origin,
            thousands(r.produced as f64),
            thousands(r.distinct as f64),
            thousands(n.produced as f64),
            n.valid_share(),
            thousands(n.distinct as f64),
            ratio(r.distinct_per_second(), n.distinct_per_second()),
        );
    }

    println!("\n## 3. Generate and filter (unconstrained generator, valid values kept)\n");
    println!(
        "| workload | generated | valid | distinct valid | distinct valid/s | reflective (generated seeds) ÷ this | reflective (hand-written) ÷ this |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|");
    for (workload, f) in &report.filtered {
        let reflective = |origin: &str| {
            report
                .rows
                .iter()
                .find(|row| row.workload == *workload && row.origin == origin)
                .map_or(0.0, |row| row.reflective.distinct_per_second())
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            workload,
            f.produced,
            f.valid_share(),
            f.distinct,
            thousands(f.distinct_per_second()),
            ratio(reflective("generated"), f.distinct_per_second()),
            ratio(reflective("hand-written"), f.distinct_per_second()),
        );
    }

    println!("\n## 4. Distance from the seed (nodes that differ)\n");
    println!(
        "| workload | seeds | reflective: median | reflective: root kept | naive (valid ones): median | naive: root kept |"
    );
    println!("|---|---|--:|--:|--:|--:|");
    for row in &report.rows {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            row.workload,
            row.origin,
            median(&row.reflective_distances),
            percent(row.reflective_roots, row.reflective_distances.len()),
            median(&row.naive_distances),
            percent(row.naive_roots, row.naive_distances.len()),
        );
    }

    println!("\n## 5. Per edit kind (both kinds of seed)\n");
    println!("Reflective edits (`Mutant::edit`):\n");
    println!("| workload | edit | mutants | share | valid | distinct valid | median distance |");
    println!("|---|---|--:|--:|--:|--:|--:|");
    for ((workload, edit), row) in &report.edits {
        let total: usize = report
            .edits
            .iter()
            .filter(|((w, _), _)| w == workload)
            .map(|(_, r)| r.count)
            .sum();
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            workload,
            edit,
            row.count,
            percent(row.count, total),
            percent(row.valid, row.count),
            row.distinct,
            median(&row.distances),
        );
    }
    println!("\nNaive edits:\n");
    println!("| workload | edit | edits | valid | distinct valid | median distance (valid) |");
    println!("|---|---|--:|--:|--:|--:|");
    for ((workload, edit), row) in &report.naive_edits {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            workload,
            edit,
            row.count,
            percent(row.valid, row.count),
            row.distinct,
            median(&row.distances),
        );
    }
}

/// The planted deletion bug: mutating a fixture near it against generating cases.
fn hunt() {
    let (tree, key) = planted::fixture();
    println!(
        "\n## 6. A planted bug: deletion from a binary search tree\n\n\
         `delete_buggy` loses the predecessor's left subtree when the deleted key is the \
         root's, the root has two children, its left child has a right child, and the \
         predecessor has a left child: a shape generated cases rarely have, chosen to show \
         such a bug (with the bug anywhere in the tree, generation found it about as fast). \
         Cases are (tree, key) pairs from `bst(0, 100)` and `range(0..=100)`; the fixture is \
         deleting {key} from {tree}, which passes. {HUNT_RUNS} runs of {HUNT_BUDGET} cases per \
         strategy.\n"
    );
    let (mutation, mutation_time) =
        timed(1, || planted::hunt_by_mutation(HUNT_RUNS, HUNT_BUDGET, 1));
    let (generation, generation_time) =
        timed(1, || planted::hunt_by_generation(HUNT_RUNS, HUNT_BUDGET, 1));
    println!(
        "| strategy | runs that find the bug | failing cases | median cases to the first failure | time |"
    );
    println!("|---|--:|--:|--:|--:|");
    for (name, hunt, time) in [
        ("mutating the fixture", &mutation, mutation_time),
        ("generating cases", &generation, generation_time),
    ] {
        println!(
            "| {} | {}/{} | {} ({:.2}%) | {} | {:.0} ms |",
            name,
            hunt.runs_failing,
            hunt.runs,
            hunt.failing_cases,
            100.0 * hunt.case_rate(),
            if hunt.first_failures.is_empty() {
                "-".to_string()
            } else {
                median(&hunt.first_failures).to_string()
            },
            time.as_secs_f64() * 1e3,
        );
    }
    println!(
        "\nmutating ÷ generating: {:.1}x the share of failing cases; median cases to the first \
         failure, generating ÷ mutating: {}",
        mutation.case_rate() / generation.case_rate().max(f64::MIN_POSITIVE),
        match (
            generation.first_failures.is_empty(),
            mutation.first_failures.is_empty()
        ) {
            (false, false) => format!(
                "{:.1}x",
                median(&generation.first_failures) as f64 / median(&mutation.first_failures) as f64
            ),
            _ => "-".to_string(),
        }
    );
    println!("\nRuns that find the bug within their first cases:\n");
    println!("| cases | mutating the fixture | generating cases |");
    println!("|--:|--:|--:|");
    for cases in [10, 30, 100, 300, HUNT_BUDGET] {
        println!(
            "| {cases} | {}/{HUNT_RUNS} | {}/{HUNT_RUNS} |",
            mutation.runs_failing_within(cases),
            generation.runs_failing_within(cases),
        );
    }
}
