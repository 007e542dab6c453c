//! The paper's binary search tree generator, up close.
//!
//! Run it with `cargo run --release --example bst`: it samples a thousand trees and checks
//! every one, shows that breaking the invariant makes reflection reject a tree, and lists the
//! probabilities of the smallest trees.

use reflective::Generator;
use reflective_examples::bst::{Tree, all_bsts, bst, expected_size};

const LO: i64 = 0;
const HI: i64 = 100;
const SAMPLES: u64 = 1000;

fn main() {
    let g = bst(LO, HI);

    println!("== {SAMPLES} trees from bst({LO}, {HI}), seeds 0..{SAMPLES} ==");
    let trees: Vec<Tree> = (0..SAMPLES).map(|seed| g.sample(seed)).collect();
    size_histogram(&trees);
    let mean = trees.iter().map(Tree::size).sum::<usize>() as f64 / trees.len() as f64;
    println!(
        "mean size {mean:.1} (exact expectation {:.1}), deepest {}",
        expected_size(LO, HI),
        trees.iter().map(Tree::depth).max().unwrap_or(0)
    );
    let in_range = |t: &Tree| t.keys().iter().all(|k| (LO..=HI).contains(k));
    let valid = trees.iter().filter(|t| t.is_bst() && in_range(t)).count();
    let reflected = trees.iter().filter(|t| g.can_generate(t)).count();
    println!(
        "valid BSTs with keys in range (checked directly): {valid}/{} = {:.1}%",
        trees.len(),
        100.0 * valid as f64 / trees.len() as f64
    );
    println!(
        "accepted by reflection (can_generate):           {reflected}/{} = {:.1}%",
        trees.len(),
        100.0 * reflected as f64 / trees.len() as f64
    );
    assert_eq!(valid, trees.len(), "the generator produced an invalid tree");
    assert_eq!(
        reflected,
        trees.len(),
        "reflection rejected a generated tree"
    );

    println!();
    println!("== Breaking the invariant ==");
    let tree = trees
        .iter()
        .find(|t| matches!(t, Tree::Node(l, _, _) if matches!(**l, Tree::Node(..))))
        .expect("some tree has a left child")
        .clone();
    let Tree::Node(_, root, _) = tree else {
        unreachable!("found a node")
    };
    println!(
        "a generated tree of size {} with root {root}: is_bst = {}, can_generate = {}",
        tree.size(),
        tree.is_bst(),
        g.can_generate(&tree)
    );
    let mut broken = tree.clone();
    if let Tree::Node(left, _, _) = &mut broken
        && let Tree::Node(_, key, _) = &mut **left
    {
        println!("set the left child's key {key} to {} (root + 1)", root + 1);
        *key = root + 1;
    }
    println!(
        "  now: is_bst = {}, can_generate = {}, probability_of = {}, ways to produce it = {}",
        broken.is_bst(),
        g.can_generate(&broken),
        g.probability_of(&broken),
        g.choices(&broken).len()
    );
    let mut outside = tree.clone();
    let largest = outside.keys().into_iter().max().expect("a node");
    set_key(&mut outside, largest, HI + 1);
    println!(
        "set the largest key {largest} to {} (outside {LO}..={HI}): is_bst = {}, can_generate = {}",
        HI + 1,
        outside.is_bst(),
        g.can_generate(&outside)
    );
    println!("  (still a search tree, but not one bst({LO}, {HI}) can produce)");

    println!();
    println!("== The smallest trees of bst(1, 3): exact probabilities ==");
    let small = bst(1, 3);
    let mut all = all_bsts(1, 3);
    all.sort_by_key(Tree::size);
    let mut total = 0.0;
    for t in all.iter().take_while(|t| t.size() <= 1) {
        let p = small.probability_of(t);
        total += p;
        println!("  {:<12} p = {p:.4}", t.to_string());
    }
    let rest: f64 = all
        .iter()
        .skip_while(|t| t.size() <= 1)
        .map(|t| small.probability_of(t))
        .sum();
    println!(
        "  the other {} trees together: p = {rest:.4}; all {} trees sum to {:.6}",
        all.iter().filter(|t| t.size() > 1).count(),
        all.len(),
        total + rest
    );
}

/// Prints how many trees have each size, in buckets.
fn size_histogram(trees: &[Tree]) {
    let buckets: [(usize, usize); 7] = [
        (0, 0),
        (1, 5),
        (6, 15),
        (16, 30),
        (31, 50),
        (51, 80),
        (81, usize::MAX),
    ];
    println!("size      trees");
    for (lo, hi) in buckets {
        let count = trees
            .iter()
            .filter(|t| (lo..=hi).contains(&t.size()))
            .count();
        let label = match (lo, hi) {
            (lo, hi) if lo == hi => format!("{lo}"),
            (lo, usize::MAX) => format!("{lo}+"),
            (lo, hi) => format!("{lo}-{hi}"),
        };
        let bar = "#".repeat(count.div_ceil(10));
        println!("{label:<9} {count:>5} {bar}");
    }
}

/// Replaces the key `from` by `to`, wherever it is.
fn set_key(tree: &mut Tree, from: i64, to: i64) {
    let mut pending = vec![tree];
    while let Some(t) = pending.pop() {
        if let Tree::Node(left, key, right) = t {
            if *key == from {
                *key = to;
            }
            pending.push(left);
            pending.push(right);
        }
    }
}
