//! Choice Gradient Sampling against rejection sampling, on the four benchmarks of "Parsing
//! Randomness" (Goldstein and Pierce, OOPSLA 2022): its Tables 2 and 3, and the generator this
//! library learns from CGS's history beside them.
//!
//! Run it with `cargo run --release --example cgs`; options: `--seconds S` (the time each
//! method gets per trial, 10 by default; the paper gave 60), `--trials T` (10), `--only NAME`
//! (BST, SORTED, AVL or STLC).
//!
//! For each benchmark and trial, six methods get the same time with the same naive generator
//! ([`reflective_examples::cgs`]): *rejection* generates and keeps the valid values;
//! *CGS* runs `Generator::gradient` with the paper's N, scoring choices as the paper does;
//! *CGS rewarding new* scores them by the valid values not found before
//! (`Gradient::rewarding_new`); *CGS + mutation* also spends 80% of its samples on mutants
//! of the valid values it found (`Gradient::mutating(80)`), in one search for the whole
//! time, since mutants grow from the values their search found; *CGS + mutation + splicing*
//! also draws half of its samples with fragments of the valid values found spliced in
//! (`Gradient::splicing(50)`: whole valid subtrees where the sample would draw choice by
//! choice); *learned* is the generator
//! `Gradient::learned` builds from that trial's *CGS rewarding new* history (which counts
//! the new valid values each choice led to), run as plain generation. Each
//! counts the unique valid values it found. Diversity is the mean Levenshtein distance between
//! the choice sequences of 3000 random pairs of unique valid values (first trial), as the
//! paper's Table 3 measures it. A table also gives how long the two methods that mutate took
//! to find as many unique valid values as the paper's CGS found in 60 s: where a method finds
//! all there is to find early (the 221 AVL trees of at most three nodes, all that descents
//! and single edits reach), unique values per second over the whole time undersell it.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;
use std::time::{Duration, Instant};

use reflective::gradient::History;
use reflective::prelude::*;
use reflective::rand_core::Rng;
use reflective_examples::cgs::{
    Naive, is_avl, is_bst, levenshtein, naive_list, naive_term, naive_tree, well_typed,
};

/// One benchmark's results over the trials.
struct Results {
    rejection: Vec<f64>,
    cgs: Vec<f64>,
    fresh: Vec<f64>,
    mutating: Vec<f64>,
    splicing: Vec<f64>,
    learned: Vec<f64>,
    /// When CGS + mutation, and CGS + mutation + splicing, had found as many unique valid
    /// values as the paper's CGS found in 60 s, in the trials where they did.
    to_paper: [Vec<Duration>; 2],
    /// Valid share of what each method drew: rejection, CGS's samples, learned, mutants (of
    /// CGS + mutation), samples of CGS + mutation + splicing.
    validity: [Vec<f64>; 5],
    diversity: [(f64, f64); 6],
}

/// The share of CGS + mutation's samples spent on mutants, in percent: measured at 30, 50,
/// 70, 80, 90 and 95 on BST, SORTED and STLC (10 s each), 70 to 95 found the most unique
/// valid values per second on all three.
const MUTATING: u8 = 80;

/// The share of CGS + mutation + splicing's samples that splice in fragments, in percent:
/// measured at 20 and 50 on the four benchmarks (10 s, one trial each, while the machine ran
/// a build), 50 found 8–15% more unique valid values on BST, SORTED and STLC, and both as
/// many AVL trees.
const SPLICING: u8 = 50;

fn main() {
    let mut seconds = 10.0;
    let mut trials = 10;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--seconds" => {
                seconds = value()
                    .parse()
                    .unwrap_or_else(|_| usage("--seconds: a number"))
            }
            "--trials" => {
                trials = value()
                    .parse()
                    .unwrap_or_else(|_| usage("--trials: a number"))
            }
            "--only" => only = Some(value().to_uppercase()),
            "--help" | "-h" => usage(""),
            other => usage(&format!("unknown option {other}")),
        }
    }
    let time = Duration::from_secs_f64(seconds);
    println!("# Choice Gradient Sampling: unique valid values in {seconds} s, {trials} trials\n");
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut rows = Vec::new();
    if wanted("BST") {
        rows.push((
            "BST",
            50,
            bench(&naive_tree(5, false), is_bst, 50, time, trials, 22349),
            (9729.0, 22349.0),
            (7.70, 8.89),
        ));
    }
    if wanted("SORTED") {
        rows.push((
            "SORTED",
            50,
            bench(
                &naive_list(20),
                |xs: &Vec<u8>| xs.is_sorted(),
                50,
                time,
                trials,
                58656,
            ),
            (6587.0, 58656.0),
            (4.80, 7.28),
        ));
    }
    if wanted("AVL") {
        rows.push((
            "AVL",
            500,
            bench(&naive_tree(5, true), is_avl, 500, time, trials, 220),
            (156.0, 220.0),
            (4.42, 4.35),
        ));
    }
    if wanted("STLC") {
        rows.push((
            "STLC",
            400,
            bench(&naive_term(5), well_typed, 400, time, trials, 297_703),
            (105_602.0, 297_703.0),
            (12.24, 13.62),
        ));
    }
    println!("## Table 2: unique valid values (mean (sd) over {trials} trials)\n");
    println!(
        "| benchmark | N | rejection | CGS | CGS / rejection | CGS rewarding new | / rejection | \
         CGS + mutation | / rejection | CGS + mutation + splicing | / rejection | learned | \
         learned / rejection | paper (60 s): rejection / CGS, ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (name, n, r, paper, _) in &rows {
        let (rej, cgs, learned) = (mean(&r.rejection), mean(&r.cgs), mean(&r.learned));
        let fresh = mean(&r.fresh);
        let (mutating, splicing) = (mean(&r.mutating), mean(&r.splicing));
        println!(
            "| {name} | {n} | {rej:.0} ({:.0}) | {cgs:.0} ({:.0}) | {:.2}x | {fresh:.0} ({:.0}) | {:.2}x | {mutating:.0} ({:.0}) | {:.2}x | {splicing:.0} ({:.0}) | {:.2}x | {learned:.0} ({:.0}) | {:.2}x | {:.0} / {:.0}, {:.2}x |",
            sd(&r.rejection),
            sd(&r.cgs),
            cgs / rej.max(1.0),
            sd(&r.fresh),
            fresh / rej.max(1.0),
            sd(&r.mutating),
            mutating / rej.max(1.0),
            sd(&r.splicing),
            splicing / rej.max(1.0),
            sd(&r.learned),
            learned / rej.max(1.0),
            paper.0,
            paper.1,
            paper.1 / paper.0
        );
    }
    println!("\n## Unique valid values per second, and the valid share of what each method drew\n");
    println!(
        "| benchmark | rejection /s | CGS /s | CGS rewarding new /s | CGS + mutation /s | \
         + splicing /s | learned /s | paper CGS /s | best / paper | rejection valid | \
         CGS samples valid | mutants valid | splicing samples valid | learned valid |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (name, _, r, paper, _) in &rows {
        let per_second = [
            &r.rejection,
            &r.cgs,
            &r.fresh,
            &r.mutating,
            &r.splicing,
            &r.learned,
        ]
        .map(|counts| mean(counts) / seconds);
        let best = per_second.iter().copied().fold(0.0, f64::max);
        let [rej, cgs, fresh, mutating, splicing, learned] = per_second;
        let paper_cgs = paper.1 / 60.0;
        println!(
            "| {name} | {rej:.0} | {cgs:.0} | {fresh:.0} | {mutating:.0} | {splicing:.0} | {learned:.0} | {paper_cgs:.0} | {:.1}x | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            best / paper_cgs,
            100.0 * mean(&r.validity[0]),
            100.0 * mean(&r.validity[1]),
            100.0 * mean(&r.validity[3]),
            100.0 * mean(&r.validity[4]),
            100.0 * mean(&r.validity[2]),
        );
    }
    // Per second over the whole time undersells a method that finds every value there is to
    // find early (AVL's reachable trees), so also: how soon it had the paper's 60 s count.
    println!(
        "\n## Time the methods that mutate took to find as many unique valid values as the paper's \
         CGS in 60 s\n"
    );
    println!(
        "| benchmark | method | paper's CGS in 60 s | trials that reached it | mean time | \
         60 s / mean time |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, _, r, paper, _) in &rows {
        let methods = ["CGS + mutation", "CGS + mutation + splicing"];
        for (method, reached) in methods.iter().zip(&r.to_paper) {
            let times: Vec<f64> = reached.iter().map(Duration::as_secs_f64).collect();
            let (time, ratio) = if times.is_empty() {
                ("-".to_string(), "-".to_string())
            } else {
                let time = mean(&times);
                (format!("{time:.3} s"), format!("{:.0}x", 60.0 / time))
            };
            println!(
                "| {name} | {method} | {:.0} | {}/{} | {time} | {ratio} |",
                paper.1,
                times.len(),
                r.mutating.len()
            );
        }
    }

    println!(
        "\n## Table 3: diversity, mean (sd) Levenshtein distance of choice sequences, 3000 pairs\n"
    );
    println!(
        "| benchmark | rejection | CGS | CGS rewarding new | CGS + mutation | + splicing | \
         learned | paper: rejection / CGS |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, _, r, _, paper) in &rows {
        let [rej, cgs, fresh, mutating, splicing, learned] = r.diversity;
        println!(
            "| {name} | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2} / {:.2} |",
            rej.0,
            rej.1,
            cgs.0,
            cgs.1,
            fresh.0,
            fresh.1,
            mutating.0,
            mutating.1,
            splicing.0,
            splicing.1,
            learned.0,
            learned.1,
            paper.0,
            paper.1
        );
    }
}

fn usage(problem: &str) -> ! {
    if !problem.is_empty() {
        eprintln!("{problem}");
    }
    eprintln!(
        "usage: cargo run --release --example cgs -- [--seconds S] [--trials T] [--only BST|SORTED|AVL|STLC]"
    );
    std::process::exit(if problem.is_empty() { 0 } else { 2 })
}

/// The six methods on one benchmark, `trials` times; `paper_count` is the unique valid
/// values the paper's CGS found in 60 s.
fn bench<T>(
    g: &Naive<T>,
    valid: impl Fn(&T) -> bool + Copy,
    n: usize,
    time: Duration,
    trials: usize,
    paper_count: usize,
) -> Results
where
    T: Clone + Debug + Eq + Hash + 'static,
{
    let mut results = Results {
        rejection: Vec::new(),
        cgs: Vec::new(),
        learned: Vec::new(),
        fresh: Vec::new(),
        mutating: Vec::new(),
        splicing: Vec::new(),
        to_paper: [Vec::new(), Vec::new()],
        validity: std::array::from_fn(|_| Vec::new()),
        diversity: [(0.0, 0.0); 6],
    };
    for trial in 0..trials as u64 {
        // Rejection.
        let mut rng = DefaultRng::seed_from_u64(trial);
        let (mut unique, mut drawn, mut kept) = (HashSet::new(), 0u64, 0u64);
        let start = Instant::now();
        while start.elapsed() < time {
            for _ in 0..64 {
                let value = g.generate_value(&mut rng, DEFAULT_SIZE);
                drawn += 1;
                if valid(&value) {
                    kept += 1;
                    unique.insert(value);
                }
            }
        }
        results.rejection.push(unique.len() as f64);
        results.validity[0].push(kept as f64 / drawn.max(1) as f64);
        let rejection_drawn = drawn;
        // CGS, as the paper scores choices, then rewarding new values.
        let gradient = g.gradient(valid).samples(n);
        let paper = timed_cgs(&gradient, trial, n, time, trial == 0, false, paper_count);
        results.cgs.push(paper.unique as f64);
        results.validity[1].push(paper.valid as f64 / paper.samples.max(1) as f64);
        let fresh = timed_cgs(
            &g.gradient(valid).samples(n).rewarding_new(),
            trial,
            n,
            time,
            trial == 0,
            false,
            paper_count,
        );
        results.fresh.push(fresh.unique as f64);
        // CGS + mutation, without and with splicing (0% splices nothing).
        let [mutating, splicing] = [0, SPLICING].map(|splicing| {
            let gradient = g.gradient(valid).samples(n).rewarding_new();
            let gradient = gradient.mutating(MUTATING).splicing(splicing);
            timed_cgs(&gradient, trial, n, time, trial == 0, true, paper_count)
        });
        results.mutating.push(mutating.unique as f64);
        results.splicing.push(splicing.unique as f64);
        results.to_paper[0].extend(mutating.reached);
        results.to_paper[1].extend(splicing.reached);
        results.validity[3].push(mutating.valid_mutants as f64 / mutating.mutants.max(1) as f64);
        results.validity[4].push(splicing.valid as f64 / splicing.samples.max(1) as f64);
        let (samples, found, cgs_values, fresh_values, history) = (
            paper.samples,
            paper.unique,
            paper.sequences,
            fresh.sequences,
            fresh.history,
        );
        // Learned from this trial's CGS.
        let learned = gradient.learned(history);
        let mut rng = DefaultRng::seed_from_u64(trial + 77);
        let (mut learned_unique, mut drawn, mut kept) = (HashSet::new(), 0u64, 0u64);
        let mut learned_values = Vec::new();
        let start = Instant::now();
        while start.elapsed() < time {
            for _ in 0..64 {
                let Ok(generated) = learned.try_generate(&mut rng, DEFAULT_SIZE) else {
                    continue;
                };
                drawn += 1;
                if valid(&generated.value) {
                    kept += 1;
                    if learned_unique.insert(generated.value)
                        && trial == 0
                        && learned_values.len() < 20_000
                    {
                        learned_values.push(tokens(&generated.tree));
                    }
                }
            }
        }
        results.learned.push(learned_unique.len() as f64);
        results.validity[2].push(kept as f64 / drawn.max(1) as f64);
        if trial == 0 {
            // Rejection's choice sequences, recorded apart from the timed run.
            let mut rng = DefaultRng::seed_from_u64(trial);
            let mut seen = HashSet::new();
            let mut rejection_values = Vec::new();
            for _ in 0..2_000_000 {
                let generated = g.generate(&mut rng, DEFAULT_SIZE);
                if valid(&generated.value) && seen.insert(generated.value.clone()) {
                    rejection_values.push(tokens(&generated.tree));
                    if rejection_values.len() >= 20_000 {
                        break;
                    }
                }
            }
            results.diversity = [
                diversity(&rejection_values),
                diversity(&cgs_values),
                diversity(&fresh_values),
                diversity(&mutating.sequences),
                diversity(&splicing.sequences),
                diversity(&learned_values),
            ];
        }
        eprintln!(
            "trial {trial}: rejection {} unique of {rejection_drawn} drawn, CGS {found} unique of \
             {samples} samples, CGS rewarding new {} unique of {} samples, CGS + mutation {} \
             unique of {} samples and {} mutants, CGS + mutation + splicing {} unique of {} \
             samples and {} mutants, learned {} unique of {drawn} drawn",
            unique.len(),
            fresh.unique,
            fresh.samples,
            mutating.unique,
            mutating.samples,
            mutating.mutants,
            splicing.unique,
            splicing.samples,
            splicing.mutants,
            learned_unique.len()
        );
    }
    results
}

/// What a timed run of gradient sampling found.
struct Timed {
    unique: usize,
    /// When the unique values reached the count asked for, if they did.
    reached: Option<Duration>,
    samples: u64,
    valid: u64,
    mutants: u64,
    valid_mutants: u64,
    /// The choice sequences of the unique values, if asked for.
    sequences: Vec<Vec<i128>>,
    history: History,
}

/// Gradient sampling for `time`, in runs of `1000 n` samples each (enough for whole
/// descents); or, if `long`, in one search that goes on for the whole time (so that mutants
/// grow from the values it found last), given `LONG_STEP` more samples at a time until the time
/// is up; noting when the unique values reach `target`.
fn timed_cgs<T, P>(
    gradient: &reflective::gradient::Gradient<'_, Naive<T>, P>,
    trial: u64,
    n: usize,
    time: Duration,
    sequences: bool,
    long: bool,
    target: usize,
) -> Timed
where
    T: Clone + Debug + Eq + Hash + 'static,
    P: Fn(&T) -> bool,
{
    let mut found = HashSet::new();
    let mut timed = Timed {
        unique: 0,
        reached: None,
        samples: 0,
        valid: 0,
        mutants: 0,
        valid_mutants: 0,
        sequences: Vec::new(),
        history: History::default(),
    };
    let start = Instant::now();
    let mut keep = |generated: Generated<T>, timed: &mut Timed| {
        if !found.insert(generated.value.clone()) {
            return;
        }
        if found.len() == target {
            timed.reached = Some(start.elapsed());
        }
        if sequences {
            timed.sequences.push(tokens(&generated.tree));
        }
    };
    if long {
        let mut search = gradient.values(trial * 1_000_000, 0);
        while start.elapsed() < time {
            search.raise_budget(LONG_STEP);
            for generated in search.by_ref() {
                keep(generated.expect("the predicates do not panic"), &mut timed);
            }
        }
        let stats = search.stats();
        (timed.samples, timed.valid) = (stats.samples, stats.valid);
        (timed.mutants, timed.valid_mutants) = (stats.mutants, stats.valid_mutants);
    } else {
        let mut round = 0u64;
        while start.elapsed() < time {
            let run = gradient
                .run(trial * 1_000_000 + round, 1_000 * n as u64)
                .expect("the predicates do not panic");
            round += 1;
            timed.samples += run.stats.samples;
            timed.valid += run.stats.valid;
            timed.history.absorb(run.history);
            for generated in run.values {
                keep(generated, &mut timed);
            }
        }
    }
    timed.unique = found.len();
    timed
}

/// How many more samples (and mutants) a long search spends between looks at the clock.
const LONG_STEP: u64 = 10_000;

/// A value's choice sequence, each choice as its number (a pick's branch, an integer).
fn tokens(tree: &ChoiceTree) -> Vec<i128> {
    tree.choices()
        .iter()
        .map(|choice| match choice {
            Choice::Pick { index, .. } => i128::from(*index),
            Choice::Int { value, .. } => 100 + *value,
        })
        .collect()
}

/// The mean and standard deviation of the Levenshtein distance over 3000 random pairs.
fn diversity(sequences: &[Vec<i128>]) -> (f64, f64) {
    if sequences.len() < 2 {
        return (0.0, 0.0);
    }
    let mut rng = DefaultRng::seed_from_u64(3000);
    let pick = |rng: &mut DefaultRng| (rng.next_u64() % sequences.len() as u64) as usize;
    let distances: Vec<f64> = (0..3000)
        .map(|_| {
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            levenshtein(&sequences[a], &sequences[b]) as f64
        })
        .collect();
    (mean(&distances), sd(&distances))
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len().max(1) as f64
}

fn sd(xs: &[f64]) -> f64 {
    let m = mean(xs);
    (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / xs.len().max(1) as f64).sqrt()
}
