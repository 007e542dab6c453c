//! Fuzzing with the generator a property already has: a fuzzer's bytes read as values of a
//! reflective generator ([`Generator::decode`]), against the `arbitrary` crate, on the
//! planted deletion bug of the `mutate` example.
//!
//! ```text
//! cargo run --release --example fuzz
//! ```
//!
//! The target takes a byte string, reads a case from it (a binary search tree and a key to
//! delete), and checks that the buggy deletion of `reflective_examples::mutation::planted`
//! deletes correctly; a case that is not a search tree with keys in `0..=100` is rejected, as
//! a fuzz target returns early on input it cannot use. Each strategy runs the same fuzzing
//! loop: `RUNS` runs of at most `EXECUTIONS` executions, each input a mutant of an input of
//! the corpus (which starts with the empty input, or the fixture's bytes), and an input joins
//! the corpus when its case reaches a deletion path no earlier case reached (the number of
//! nodes in AFL's buckets, whether the key is in the tree, how many children its node has,
//! and the depth it is at): the stand-in, the same for every strategy, for the edge coverage
//! a coverage-guided fuzzer (libFuzzer, AFL) would measure in the target. The strategies:
//!
//! - `arbitrary`: the case read with `arbitrary::Unstructured` as users write an `Arbitrary`
//!   impl for the tree (a `bool` for node or leaf, `int_in_range(0..=100)` for keys, at most
//!   8 levels), the input mutated by libFuzzer's byte mutations (flip a bit, set a byte,
//!   set an edge byte, insert a byte, erase a byte, copy a run of bytes), one and then each
//!   further one with probability 1/2, four at most;
//! - `reflective bytes`: the case read with [`Generator::decode`] from the generator of
//!   valid cases the `mutate` example tests with (`planted::cases()`, the paper's search
//!   tree generator and a key), the same byte mutations;
//! - `reflective mutator`: the same reading, mutated by [`Mutator::mutate_bytes`] (a custom
//!   mutator, as `fuzz_mutator!` installs one in cargo-fuzz): the input's choices edited, so
//!   every input is a search tree;
//! - the two reflective strategies again, the corpus seeded with the bytes of the `mutate`
//!   example's fixture ([`Generator::encode`]), a tree one subtree away from the bug
//!   (`arbitrary` has no way back from a value to bytes).
//!
//! Then a crash found from bytes is shrunk to the minimal case, from its raw bytes.
//!
//! [`Generator::decode`]: reflective::Generator::decode
//! [`Generator::encode`]: reflective::Generator::encode
//! [`Mutator::mutate_bytes`]: reflective::mutate::Mutator::mutate_bytes

use std::collections::HashSet;
use std::time::{Duration, Instant};

use arbitrary::Unstructured;
use reflective::prelude::*;
use reflective::rand_core::Rng;
use reflective::{ShrinkBudget, mutate::Mutator};
use reflective_examples::bst::{Tree, node};
use reflective_examples::mutation::planted::{self, Case};

/// Runs of each strategy.
const RUNS: usize = 20;
/// The most executions a run makes.
const EXECUTIONS: usize = 200_000;
/// The longest input the byte mutations make.
const MAX_LEN: usize = 512;

/// The mutator of the cases' generator.
type CaseMutator<'g> = Mutator<'g, Gen<Case, Case>>;

/// How a strategy reads an input and mutates it.
struct Strategy {
    name: &'static str,
    read: fn(&[u8]) -> Option<Case>,
    mutate: fn(&CaseMutator<'_>, &[u8], &mut DefaultRng) -> Vec<u8>,
    seeded: bool,
}

/// What one run saw.
struct Run {
    /// Executions up to and including the first failure, if any, and the time they took.
    found: Option<(usize, Duration)>,
    /// The nodes of the valid cases' trees, summed.
    nodes: usize,
    executions: usize,
    valid: usize,
    elapsed: Duration,
    crash: Option<Vec<u8>>,
}

fn main() {
    let g = planted::cases();
    let strategies = [
        Strategy {
            name: "arbitrary",
            read: read_arbitrary,
            mutate: mutate_bytewise,
            seeded: false,
        },
        Strategy {
            name: "reflective bytes",
            read: read_reflective,
            mutate: mutate_bytewise,
            seeded: false,
        },
        Strategy {
            name: "reflective mutator",
            read: read_reflective,
            mutate: mutate_reflective,
            seeded: false,
        },
        Strategy {
            name: "reflective bytes, fixture",
            read: read_reflective,
            mutate: mutate_bytewise,
            seeded: true,
        },
        Strategy {
            name: "reflective mutator, fixture",
            read: read_reflective,
            mutate: mutate_reflective,
            seeded: true,
        },
    ];
    println!(
        "# Fuzzing the planted deletion bug: `arbitrary` against a reflective generator's bytes\n"
    );
    println!(
        "{RUNS} runs per strategy, at most {EXECUTIONS} executions each; the medians count a run \
         that found nothing as the whole budget.\n"
    );
    println!(
        "| strategy | runs that found the bug | executions to the bug (median) | time to the bug (median) | valid inputs | nodes per valid tree (mean) | executions/s |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut crash = None;
    let mut arbitrary_median = None;
    for strategy in &strategies {
        let runs: Vec<Run> = (0..RUNS as u64)
            .map(|run| fuzz(&g, strategy, run))
            .collect();
        let mut to_bug: Vec<usize> = runs
            .iter()
            .map(|r| r.found.map_or(EXECUTIONS, |(n, _)| n))
            .collect();
        to_bug.sort_unstable();
        let median = to_bug[to_bug.len() / 2];
        let mut times: Vec<Duration> = runs
            .iter()
            .map(|r| r.found.map_or(r.elapsed, |(_, t)| t))
            .collect();
        times.sort_unstable();
        let time = times[times.len() / 2];
        let nodes: usize = runs.iter().map(|r| r.nodes).sum();
        let executions: usize = runs.iter().map(|r| r.executions).sum();
        let valid: usize = runs.iter().map(|r| r.valid).sum();
        let elapsed: Duration = runs.iter().map(|r| r.elapsed).sum();
        // A corpus seeded one subtree from the bug is no comparison with one from nothing.
        let versus = match arbitrary_median.filter(|_| !strategy.seeded) {
            None => String::new(),
            // A median at the budget is a run that found nothing: the ratio is a bound.
            Some(base) => format!(
                " ({}{:.1}x fewer than arbitrary)",
                if base == EXECUTIONS { "at least " } else { "" },
                base as f64 / median as f64
            ),
        };
        println!(
            "| {} | {}/{RUNS} | {median}{versus} | {time:.2?} | {:.1}% | {:.1} | {:.0} |",
            strategy.name,
            runs.iter().filter(|r| r.found.is_some()).count(),
            100.0 * valid as f64 / executions as f64,
            nodes as f64 / valid.max(1) as f64,
            executions as f64 / elapsed.as_secs_f64(),
        );
        arbitrary_median.get_or_insert(median);
        if strategy.name == "reflective mutator" {
            crash = runs.into_iter().find_map(|r| r.crash);
        }
    }
    if let Some(bytes) = crash {
        shrink_crash(&g, &bytes);
    }
}

/// One run of `strategy`: the fuzzing loop of the module doc, seeded with `run`.
fn fuzz(g: &Gen<Case, Case>, strategy: &Strategy, run: u64) -> Run {
    let mutator = g.mutator();
    let mut rng = DefaultRng::seed_from_u64(run);
    let mut corpus = vec![if strategy.seeded {
        g.encode(&planted::fixture())
            .expect("the fixture is a case")
    } else {
        Vec::new()
    }];
    let mut reached = HashSet::new();
    let (mut valid, mut nodes, mut found, mut crash) = (0, 0, None, None);
    let start = Instant::now();
    let mut executions = 0;
    while executions < EXECUTIONS && found.is_none() {
        let parent = &corpus[(rng.next_u64() % corpus.len() as u64) as usize];
        let input = (strategy.mutate)(&mutator, parent, &mut rng);
        executions += 1;
        let Some(case) = (strategy.read)(&input) else {
            continue;
        };
        valid += 1;
        nodes += case.0.size();
        if !planted::deletes_correctly(&case, planted::delete_buggy) {
            found = Some((executions, start.elapsed()));
            crash = Some(input);
        } else if reached.insert(path(&case)) {
            corpus.push(input);
        }
    }
    Run {
        found,
        executions,
        valid,
        nodes,
        elapsed: start.elapsed(),
        crash,
    }
}

/// The deletion path a case takes: the tree's number of nodes (in AFL's buckets), and, if the
/// key is in it, its node's number of children and depth.
fn path((tree, key): &Case) -> (u8, Option<(u8, usize)>) {
    let nodes = match tree.size() {
        n @ 0..=3 => n as u8,
        4..=7 => 4,
        8..=15 => 5,
        16..=31 => 6,
        _ => 7,
    };
    let mut at = tree;
    let mut depth = 0;
    while let Tree::Node(left, k, right) = at {
        if k == key {
            let children = u8::from(**left != Tree::Leaf) + u8::from(**right != Tree::Leaf);
            return (nodes, Some((children, depth)));
        }
        at = if key < k { left } else { right };
        depth += 1;
    }
    (nodes, None)
}

/// The case `bytes` give `arbitrary`, if it is a search tree with keys in `0..=100`.
fn read_arbitrary(bytes: &[u8]) -> Option<Case> {
    fn tree(u: &mut Unstructured<'_>, depth: usize) -> arbitrary::Result<Tree> {
        if depth == 0 || !u.arbitrary::<bool>()? {
            return Ok(Tree::Leaf);
        }
        let left = tree(u, depth - 1)?;
        let key = u.int_in_range(0..=100)?;
        let right = tree(u, depth - 1)?;
        Ok(node(left, key, right))
    }
    let mut u = Unstructured::new(bytes);
    valid((tree(&mut u, 8).ok()?, u.int_in_range(0..=100).ok()?))
}

/// The case `bytes` give the reflective generator, if it is valid (checked as `arbitrary`'s
/// are, not taken on trust).
fn read_reflective(bytes: &[u8]) -> Option<Case> {
    valid(planted::cases().decode(bytes).ok()?.value)
}

/// `case` if its tree is a search tree with keys in `0..=100`: the target's precondition.
fn valid(case: Case) -> Option<Case> {
    (case.0.is_bst() && case.0.keys().iter().all(|k| (0..=100).contains(k))).then_some(case)
}

/// `bytes` changed by one of libFuzzer's byte mutations, then each further one with
/// probability 1/2, four at most (as the reflective mutator stacks its edits).
fn mutate_bytewise(_: &CaseMutator<'_>, bytes: &[u8], rng: &mut DefaultRng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..4 {
        mutate_once(&mut out, rng);
        if rng.next_u64().is_multiple_of(2) {
            break;
        }
    }
    out
}

/// One of libFuzzer's byte mutations of `out`.
fn mutate_once(out: &mut Vec<u8>, rng: &mut DefaultRng) {
    let mut below = |n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
    match below(6) {
        0 if !out.is_empty() => {
            let at = below(out.len());
            out[at] ^= 1 << below(8);
        }
        1 if !out.is_empty() => {
            let at = below(out.len());
            out[at] = below(256) as u8;
        }
        2 if !out.is_empty() => {
            let at = below(out.len());
            out[at] = [0, 1, 0x7f, 0x80, 0xff][below(5)];
        }
        4 if !out.is_empty() => {
            out.remove(below(out.len()));
        }
        5 if !out.is_empty() => {
            let from = below(out.len());
            let len = 1 + below((out.len() - from).min(8));
            let chunk = out[from..from + len].to_vec();
            let to = below(out.len() + 1);
            out.splice(to..to, chunk);
        }
        _ => {
            let at = below(out.len() + 1);
            out.insert(at, below(256) as u8);
        }
    }
    out.truncate(MAX_LEN);
}

/// A mutant of `bytes` by the generator's mutator.
fn mutate_reflective(mutator: &CaseMutator<'_>, bytes: &[u8], rng: &mut DefaultRng) -> Vec<u8> {
    mutator
        .mutate_bytes(bytes, rng.next_u64())
        .expect("the generator produces a case from any bytes")
}

/// Shrinks the case a crash's `bytes` give, from the choices they were read as.
fn shrink_crash(g: &Gen<Case, Case>, bytes: &[u8]) {
    let fails = |case: &Case| !planted::deletes_correctly(case, planted::delete_buggy);
    let generated = g.decode(bytes).expect("a case");
    let (tree, key) = &generated.value;
    println!(
        "\nA crash of the reflective mutator: {} bytes, a tree of {} nodes, deleting {key}.",
        bytes.len(),
        tree.size()
    );
    let shrunk = g.shrink_generated(generated, fails, ShrinkBudget::default());
    let (tree, key) = &shrunk.value;
    println!(
        "Shrunk from its bytes in {} evaluations to a tree of {} nodes, deleting {key}: {tree:?}",
        shrunk.stats.evaluations,
        tree.size()
    );
    println!("Its bytes: {:?}", g.encode(&shrunk.value).expect("a case"));
}
