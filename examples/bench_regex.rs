//! Strings from regular expressions: `string_regex` against proptest's, in one run.
//!
//! For each pattern, both generate the same number of strings as a property run does, ready to
//! shrink: reflective with `generate` (the string and its choices), at size 32, where an unbounded
//! repetition (`*`, `+`) repeats up to 32 times, as proptest's do; proptest building its value tree
//! with its default settings and the XorShift generator. Runs alternate between the two, medians of
//! five: nanoseconds per string and per character, and reflective's time per character over
//! proptest's (for `\PC*` the characters differ: reflective draws printable ASCII three times in
//! four, proptest evenly over the class). Then what proptest cannot do: reflective reflects each of
//! its strings (at the size it was generated at) and, for a string from outside, shrinks it.
//!
//! `cargo run --release --example bench_regex`

use std::hint::black_box;
use std::time::Instant;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use reflective::prelude::*;

/// Patterns users write, each with a name.
const PATTERNS: [(&str, &str); 6] = [
    ("identifier", "[a-zA-Z_][a-zA-Z0-9_]*"),
    ("email", r"[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z]{2,6}"),
    (
        "uuid",
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    ),
    (
        "iso date",
        "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])",
    ),
    (
        "ipv4",
        r"((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])",
    ),
    ("printable", r"\PC*"),
];

/// The size reflective generates at: unbounded repetitions up to 32 times, as proptest's.
const SIZE: usize = 32;
/// Strings per pattern, per run and side.
const COUNT: usize = 20_000;
/// Runs per side, alternated; the medians are reported.
const RUNS: usize = 5;
/// Strings reflected per pattern.
const REFLECTED: usize = 2_000;

/// Time per string (ns) and mean characters per string of `COUNT` strings from `next`.
fn timed(mut next: impl FnMut() -> String) -> (f64, f64) {
    let mut chars = 0;
    let start = Instant::now();
    for _ in 0..COUNT {
        let text = black_box(next());
        chars += text.chars().count();
    }
    let nanos = start.elapsed().as_nanos() as f64;
    (nanos / COUNT as f64, chars as f64 / COUNT as f64)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    println!(
        "string_regex: reflective `generate` (size {SIZE}) against proptest's value trees \
         (default config, XorShift), {COUNT} strings per run, medians of {RUNS} alternated runs"
    );
    println!(
        "  {:<11} {:>11} {:>7} {:>11} {:>7} {:>10} {:>11} {:>9}",
        "pattern",
        "refl ns/str",
        "chars",
        "prop ns/str",
        "chars",
        "refl/prop",
        "reflect ns",
        "reflected"
    );
    let mut ratios = Vec::new();
    for (name, pattern) in PATTERNS {
        let ours = string_regex(pattern).expect("the pattern parses");
        let theirs = proptest::string::string_regex(pattern).expect("the pattern parses");
        let (mut our_runs, mut their_runs) = (Vec::new(), Vec::new());
        for run in 0..RUNS as u64 {
            let mut rng = DefaultRng::seed_from_u64(run);
            our_runs.push(timed(|| ours.generate(&mut rng, SIZE).value));
            let seed: Vec<u8> = (0..16).map(|i| (run as u8).wrapping_add(i)).collect();
            let rng = TestRng::from_seed(RngAlgorithm::XorShift, &seed);
            let mut runner = TestRunner::new_with_rng(Config::default(), rng);
            their_runs.push(timed(|| {
                theirs.new_tree(&mut runner).expect("a value").current()
            }));
        }
        let per_string = |runs: &[(f64, f64)]| median(runs.iter().map(|r| r.0).collect());
        let chars = |runs: &[(f64, f64)]| median(runs.iter().map(|r| r.1).collect());
        let per_char = |runs: &[(f64, f64)]| {
            median(runs.iter().map(|(ns, chars)| ns / chars.max(1.0)).collect())
        };
        let ratio = per_char(&our_runs) / per_char(&their_runs);
        ratios.push(ratio);

        let mut rng = DefaultRng::seed_from_u64(99);
        let strings: Vec<String> = (0..REFLECTED)
            .map(|_| ours.generate_value(&mut rng, SIZE))
            .collect();
        let reflector = ours.reflector().size(SIZE);
        let start = Instant::now();
        let reflected = strings
            .iter()
            .filter(|text| reflector.can_generate(text) == Ok(true))
            .count();
        let reflect_ns = start.elapsed().as_nanos() as f64 / REFLECTED as f64;
        println!(
            "  {name:<11} {:>11.0} {:>7.1} {:>11.0} {:>7.1} {:>9.2}x {:>11.0} {:>4}/{REFLECTED}",
            per_string(&our_runs),
            chars(&our_runs),
            per_string(&their_runs),
            chars(&their_runs),
            ratio,
            reflect_ns,
            reflected
        );
    }
    println!(
        "reflective's time per character / proptest's, median over the patterns: {:.2}x",
        median(ratios)
    );

    let email = string_regex(PATTERNS[1].1).expect("the pattern parses");
    let reported = "john.smith+newsletter@mail-example.info".to_string();
    let shrunk = email.shrink(reported.clone(), |text| text.contains('+'));
    println!("a reported email failing for its '+': {reported} shrinks to {shrunk}");
}
