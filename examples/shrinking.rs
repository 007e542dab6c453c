//! The choice shrinker against the paper's Table 1 (`TARGETS.md`, section 1).
//!
//! ```text
//! cargo run --release --example shrinking            # 1000 trials per benchmark
//! cargo run --release --example shrinking -- --quick # 100
//! ```
//!
//! Each trial generates until a value meets the benchmark's precondition and fails its
//! property (case `i` at size `i % 101`), then shrinks that value twice: with the derived
//! type-directed shrinker (`Reflective::shrink_by_type`, QuickCheck's `genericShrink`, greedy,
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
use reflective_examples::type_directed::shrink_by_type;

/// The evaluation budget of both shrinkers.
const MAX_EVALUATIONS: usize = 10_000;

fn main() {
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
    let budget = ShrinkBudget::default().max_evaluations(MAX_EVALUATIONS);
    let (mut unshrunk, mut by_type, mut reflective) =
        (Column::default(), Column::default(), Column::default());
    let mut same_from_text = 0;
    for trial in 0..trials {
        let mut rng = DefaultRng::seed_from_u64(trial);
        let generated = bench
            .first_failure(&mut rng, 100_000)
            .unwrap_or_else(|| panic!("{}: no counterexample in trial {trial}", bench.name));
        unshrunk.add((bench.size)(&generated.value), &generated.value, 0);

        let typed = shrink_by_type(
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
