//! ETNA's red-black tree and simply typed lambda calculus workloads (Shi et al., ICFP 2023):
//! how many tests, and how much time, each strategy needs to find each planted bug.
//!
//! ```text
//! cargo run --release --example etna -- --workload rbt
//! cargo run --release --example etna -- --workload stlc --budget 100
//! cargo run --release --example etna -- --workload rbt --pairs swap_cd,insert_3:insert_post --trials 3
//! ```
//!
//! Options: `--workload rbt|stlc` (required); `--trials N` (10); `--budget N` (10 000 cases per
//! trial); `--pairs LIST` (comma-separated `mutant` or `mutant:property`, in snake case or as
//! the Haskell spells them, `prop_` optional); `--all-pairs` (RBT: every mutant with every
//! property, not only the 58 pairs of ETNA's task list); `--strategies LIST` (names, `-` for
//! spaces); `--seed N` (0; trial `i` of every pair and strategy is seeded from it and `i`);
//! `--sizes cycle|ramp` (the size schedule of this library's runner, `SizeSchedule`:
//! QuickCheck's cycle, its default, or the ramp from 0 to 100 over a trial's cases).
//!
//! Strategies: this library's derived generator (`#[derive(Reflective)]`) under the runner's
//! defaults (which make a quarter of the cases mutants of earlier cases that held, once the
//! property has discarded half of the cases: `check::Mutation::WhenDiscarding`), the same with
//! mutation off ("reflective fresh", `Config::mutation_percent(0)`), and a bespoke one
//! producing only valid inputs, all run by `check::try_check_with`; proptest's type-based
//! strategy (`proptest-derive` where it can derive, `prop_recursive` for recursive types) and a
//! bespoke one, run by its `TestRunner`; quickcheck's hand-written `Arbitrary`, as ETNA's
//! `Quick` strategy. The workloads, the judge that counts and times the cases, and the tables
//! are in `reflective_examples::etna`.
//!
//! A trial counts the cases that were not discarded, up to and including the first that fails,
//! and the time from its start to that failure; shrinking is not measured. A case that panics
//! or takes over 1 s counts as a failure. Every strategy may discard 10 cases per counted case
//! before its runner gives up.

#[path = "etna/rbt.rs"]
mod rbt_peers;
#[path = "etna/runners.rs"]
mod runners;
#[path = "etna/stlc.rs"]
mod stlc_peers;

use std::cell::RefCell;
use std::time::Instant;

use reflective::check::SizeSchedule;
use reflective_examples::etna::harness::{
    Pair, Strategy, TrialConfig, reflective_strategy, reflective_strategy_with, run_trials,
    with_stack,
};
use reflective_examples::etna::report::{Results, Row, pair_table, summary_table};
use reflective_examples::etna::{rbt, stlc};

/// The command line.
#[derive(Clone, Debug)]
struct Options {
    workload: String,
    trials: u32,
    budget: u32,
    pairs: Option<Vec<String>>,
    all_pairs: bool,
    strategies: Option<Vec<String>>,
    seed: u64,
    sizes: SizeSchedule,
}

impl Options {
    /// The settings of trial 0 (the others differ in their seeds).
    fn trial(&self) -> TrialConfig {
        TrialConfig {
            sizes: self.sizes,
            ..TrialConfig::new(self.budget, self.seed)
        }
    }
}

/// Reads the command line, or explains it and exits.
fn options() -> Options {
    let mut options = Options {
        workload: String::new(),
        trials: 10,
        budget: 10_000,
        pairs: None,
        all_pairs: false,
        strategies: None,
        seed: 0,
        sizes: SizeSchedule::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs a value")))
        };
        let list = |text: String| text.split(',').map(str::to_string).collect();
        match arg.as_str() {
            "--workload" => options.workload = value(),
            "--trials" => options.trials = number(&arg, &value()),
            "--budget" => options.budget = number(&arg, &value()),
            "--seed" => options.seed = number(&arg, &value()),
            "--pairs" => options.pairs = Some(list(value())),
            "--strategies" => options.strategies = Some(list(value())),
            "--all-pairs" => options.all_pairs = true,
            "--sizes" => {
                options.sizes = value()
                    .parse()
                    .unwrap_or_else(|error| usage(&format!("--sizes: {error}")))
            }
            "--help" | "-h" => usage(""),
            _ => usage(&format!("unknown option {arg}")),
        }
    }
    if options.trials == 0 || options.budget == 0 {
        usage("--trials and --budget must be at least 1");
    }
    options
}

/// `text` as a number, or the usage.
fn number<T: std::str::FromStr>(option: &str, text: &str) -> T {
    text.replace('_', "")
        .parse()
        .unwrap_or_else(|_| usage(&format!("{option} takes a number, not {text:?}")))
}

/// Prints `problem` (if any) and how to run the example, and exits.
fn usage(problem: &str) -> ! {
    if !problem.is_empty() {
        eprintln!("etna: {problem}");
    }
    eprintln!(
        "usage: cargo run --release --example etna -- --workload rbt|stlc [--trials N] \
         [--budget N] [--pairs MUTANT[:PROPERTY],...] [--all-pairs] [--strategies NAME,...] \
         [--seed N] [--sizes cycle|ramp]"
    );
    std::process::exit(if problem.is_empty() { 0 } else { 2 })
}

/// A workload as the example runs it.
struct Workload<I> {
    /// The title of the output.
    title: &'static str,
    /// Which pairs run, and why those.
    pairs_note: &'static str,
    /// The mutant/property pairs.
    pairs: Vec<Pair<I>>,
    /// The property of each property name under the correct implementation.
    correct: Vec<Pair<I>>,
    /// The strategies, this library's derived generator first.
    strategies: Vec<Strategy<I>>,
    /// What [`Workload::nodes`] counts.
    unit: &'static str,
    /// The size of an input.
    nodes: fn(&I) -> usize,
    /// The precondition the properties share.
    precondition: (&'static str, fn(&I) -> bool),
}

fn main() {
    let options = options();
    with_stack(512, move || match options.workload.as_str() {
        "rbt" => run(rbt_workload(options.all_pairs), &options),
        "stlc" => run(stlc_workload(), &options),
        "" => usage("--workload is required"),
        other => usage(&format!("unknown workload {other:?} (rbt or stlc)")),
    });
}

/// What the derived strategies' runner does besides generating (its default).
const RUNNER_DEFAULT: &str = "; the runner's default mutation: once the property has discarded \
                              half of the cases, a quarter of the cases are mutants of earlier \
                              cases that held and reached new labels or label counts \
                              (`Mutation::WhenDiscarding`)";

/// What the strategy that never mutates generates.
const FRESH_WHAT: &str = "the derived generator with mutation off (`Config::mutation_percent(0)`): \
                          every case generated afresh";

/// The red-black tree workload.
fn rbt_workload(all: bool) -> Workload<rbt::RbtInput> {
    let mut strategies = vec![
        reflective_strategy(
            "reflective derived",
            &format!(
                "`any::<RbtInput>()`: `#[derive(Reflective)]` on `RbtInput`, `Tree`, `Color`, \
                 `Key` (`#[reflective(generator = range(KEYS))]`) and `Val`{RUNNER_DEFAULT}"
            ),
            rbt::derived_input(),
        ),
        reflective_strategy_with(
            "reflective fresh",
            FRESH_WHAT,
            rbt::derived_input(),
            Some(0),
        ),
        reflective_strategy(
            "reflective bespoke",
            "valid trees (`valid_rbt`: a black height up to 2/3 log2(size + 1), then colours \
             and keys that keep the tree valid; reflects exactly the valid trees), keys and \
             values derived",
            rbt::bespoke_input(),
        ),
    ];
    strategies.extend(rbt_peers::strategies());
    Workload {
        title: "red-black trees (`workloads/Haskell/RBT`): 15 mutants, 10 properties, keys \
                uniform in -20..=20 for every strategy",
        pairs_note: if all {
            "every mutant with every property"
        } else {
            "the pairs of ETNA's task list (`tool/benchtool/Tasks.py`)"
        },
        pairs: rbt::pairs(all),
        correct: rbt::RbtProperty::ALL
            .map(|p| rbt::pair(rbt::RbtMutant::None, p))
            .into(),
        strategies,
        unit: "tree nodes",
        nodes: |input| rbt::size_rbt(&input.t),
        precondition: ("`isRBT t`", |input| rbt::is_rbt(&input.t)),
    }
}

/// The simply typed lambda calculus workload.
fn stlc_workload() -> Workload<stlc::Expr> {
    let mut strategies = vec![
        reflective_strategy(
            "reflective derived",
            &format!(
                "`any::<Expr>()`: `#[derive(Reflective)]` on `Expr` (variables `i64`) and \
                 `Typ`{RUNNER_DEFAULT}"
            ),
            stlc::derived_input(),
        ),
        reflective_strategy_with(
            "reflective fresh",
            FRESH_WHAT,
            stlc::derived_input(),
            Some(0),
        ),
        reflective_strategy(
            "reflective bespoke",
            "well-typed terms: ETNA's `Correct` generator made reflective (a type, then a term \
             of that type; argument types recovered by type inference)",
            stlc::bespoke_input(),
        ),
    ];
    strategies.extend(stlc_peers::strategies());
    Workload {
        title: "the simply typed lambda calculus (`workloads/Haskell/STLC`): 10 mutants, 2 \
                properties",
        pairs_note: "every mutant with both properties (ETNA's task list has none for STLC)",
        pairs: stlc::pairs(),
        correct: stlc::StlcProperty::ALL
            .map(|p| stlc::pair(stlc::StlcMutant::None, p))
            .into(),
        strategies,
        unit: "term nodes",
        nodes: stlc::size_stlc,
        precondition: ("well typed", |e| stlc::get_typ(&[], e).is_some()),
    }
}

/// Runs `workload` as `options` say and prints the tables.
fn run<I>(mut workload: Workload<I>, options: &Options) {
    let started = Instant::now();
    select(&mut workload, options);
    let Options {
        trials,
        budget,
        seed,
        ..
    } = *options;
    let config = options.trial();
    println!("# ETNA: {}\n", workload.title);
    println!(
        "Ported from <https://github.com/jwshii/etna> at `f22b56be223b88a277f2823fb4c69867ccc53199`. \
         {} pairs: {}. {trials} trials per pair and strategy, each of at most {budget} cases, \
         seeded from {seed}. {}\n",
        workload.pairs.len(),
        workload.pairs_note,
        match options.sizes {
            SizeSchedule::Ramp =>
                "This library's runner grows the size from 0 to 100 over a trial's cases \
                 (`--sizes ramp`).",
            SizeSchedule::Cycle =>
                "This library's runner gives case `i` the size `i % 101`, as QuickCheck \
                 does (`--sizes cycle`, its default).",
        }
    );
    describe(&workload, &config);
    check_correct(&workload, &config);
    let mut rows = Vec::new();
    for (i, pair) in workload.pairs.iter().enumerate() {
        eprintln!(
            "[{:>3}/{}] {} × {}",
            i + 1,
            workload.pairs.len(),
            pair.mutant,
            pair.property
        );
        let trials = workload
            .strategies
            .iter()
            .map(|s| run_trials(pair, s, trials, &config))
            .collect();
        rows.push(Row {
            mutant: pair.mutant,
            property: pair.property,
            trials,
        });
    }
    let results = Results {
        budget,
        strategies: workload.strategies.iter().map(|s| s.name).collect(),
        rows,
    };
    println!("## Per pair\n");
    println!(
        "Each cell: mean tests to failure · mean time to failure, over the trials that found the \
         bug · trials that found it. Tests are the cases not discarded, up to and including the \
         first failure; time runs from the trial's start to that failure (shrinking excluded).\n"
    );
    println!("{}", pair_table(&results));
    println!("## Summary\n");
    println!(
        "Geometric means over the pairs of the mean per pair, a trial that found nothing counted \
         as the whole budget ({budget} tests) and its whole time. The last two columns divide \
         each strategy's by {}'s: above 1, it needed more.\n",
        results.strategies[0]
    );
    println!("{}", summary_table(&results, 0));
    println!(
        "The whole run took {:.1} s.",
        started.elapsed().as_secs_f64()
    );
}

/// Keeps the pairs and strategies `options` names, if it names any.
fn select<I>(workload: &mut Workload<I>, options: &Options) {
    if let Some(wanted) = &options.pairs {
        let chosen = |pair: &Pair<I>| {
            wanted.iter().any(|w| {
                let (m, p) = w.split_once(':').unwrap_or((w, ""));
                same(m, pair.mutant) && (p.is_empty() || same(p, pair.property))
            })
        };
        workload.pairs.retain(chosen);
        if workload.pairs.is_empty() {
            usage("--pairs selects no pair of this workload");
        }
    }
    if let Some(wanted) = &options.strategies {
        let chosen = |s: &Strategy<I>| wanted.iter().any(|w| same(w, s.name));
        workload.strategies.retain(chosen);
        if workload.strategies.is_empty() {
            usage("--strategies selects no strategy");
        }
    }
}

/// Whether two names are the same in snake case, without a `prop_` prefix: `miscolor_balLeft`
/// is `miscolor_bal_left`, `InsertValid` is `prop_insert_valid`, `proptest-derived` is
/// `proptest derived`.
fn same(a: &str, b: &str) -> bool {
    fn key(name: &str) -> String {
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(if c == '-' || c == ' ' {
                '_'
            } else {
                c.to_ascii_lowercase()
            });
        }
        out.strip_prefix("prop_").unwrap_or(&out).to_string()
    }
    key(a) == key(b)
}

/// The table of strategies: what each generates, measured on 1000 of its cases.
fn describe<I>(workload: &Workload<I>, config: &TrialConfig) {
    let (precondition, valid) = workload.precondition;
    println!("## Strategies\n");
    println!(
        "Measured on the cases each runner draws for a property that discards the inputs \
         failing the precondition and holds on the others, as in the trials, until 1000 are \
         not discarded (or the runner gives up): so a runner that mutates once most cases \
         are discarded does so here too (this library's sizes: 0 to 100 as the schedule \
         gives them); proptest's bespoke strategies draw a size \
         uniformly in 0..=100; quickcheck's `Gen` has size 100.\n"
    );
    println!(
        "| strategy | what it generates | mean {} | largest | inputs meeting {precondition} |",
        workload.unit
    );
    println!("|---|---|---|---|---|");
    for strategy in &workload.strategies {
        let seen = RefCell::new((0usize, 0usize, 0usize, 0usize));
        let record = |input: &I| {
            let nodes = (workload.nodes)(input);
            let mut seen = seen.borrow_mut();
            seen.0 += 1;
            seen.1 += nodes;
            seen.2 = seen.2.max(nodes);
            seen.3 += usize::from(valid(input));
            valid(input).then_some(true)
        };
        let sample = TrialConfig {
            budget: 1000,
            seed: config.seed ^ 0x5eed,
            ..*config
        };
        (strategy.run)(&record, &sample);
        let (count, nodes, largest, met) = seen.into_inner();
        let count = count.max(1) as f64;
        println!(
            "| {} | {} | {:.1} | {largest} | {:.0}% |",
            strategy.name,
            strategy.what,
            nodes as f64 / count,
            met as f64 * 100.0 / count
        );
    }
    println!();
}

/// Runs every property under the correct implementation, one trial per strategy, and says
/// whether any case failed (it should not: a failure there is a bug of the port or the harness).
fn check_correct<I>(workload: &Workload<I>, config: &TrialConfig) {
    let mut failures = Vec::new();
    for pair in &workload.correct {
        for strategy in &workload.strategies {
            let config = TrialConfig {
                seed: config.seed ^ 0xc0de,
                ..*config
            };
            let trial = &run_trials(pair, strategy, 1, &config)[0];
            if trial.found {
                failures.push(format!("{} with {}", pair.property, strategy.name));
            }
        }
    }
    if failures.is_empty() {
        println!(
            "The correct implementation passes every property with every strategy ({} cases \
             each).\n",
            config.budget
        );
    } else {
        println!(
            "**The correct implementation fails**: {}. The results below are not to be \
             trusted.\n",
            failures.join(", ")
        );
    }
}
