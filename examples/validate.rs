//! Validation: a generator checked against what its author meant (`Generator::validate`),
//! on the examples' own generators and on three with a planted bug.
//!
//! Run it with `cargo run --release --example validate`. It prints the report of each: the
//! examples' generators (the paper's search trees, well-typed lambda terms, the derived
//! generator of their syntax) have no problem and no overlap; each planted bug is found, with
//! the smallest counterexample the shrinker finds.

use std::time::Instant;

use reflective::prelude::*;
use reflective::validate::ValidationReport;
use reflective_examples::bst::{Tree, bst, node};
use reflective_examples::stlc::{Expr, type_of, well_typed};

/// The paper's search trees with a planted bug: the right subtree's keys start at `shift(x)`
/// (`x + 1` when correct) and the keys drawn stop at `top(hi)` (`hi` when correct).
fn planted(lo: i64, hi: i64, top: fn(i64) -> i64, shift: fn(i64) -> i64) -> Gen<Tree, Tree> {
    if lo > hi {
        return exact(Tree::Leaf).boxed();
    }
    pick((
        (1, "leaf", exact(Tree::Leaf)),
        (
            5,
            "node",
            range(lo..=top(hi).max(lo)).focus(key).bind(move |x| {
                zip(
                    planted(lo, x - 1, top, shift).focus(left),
                    planted(shift(x), hi, top, shift).focus(right),
                )
                .map(move |(l, r)| node(l, x, r))
            }),
        ),
    ))
    .boxed()
}

fn key(t: &Tree) -> Option<&i64> {
    match t {
        Tree::Node(_, k, _) => Some(k),
        Tree::Leaf => None,
    }
}

fn left(t: &Tree) -> Option<&Tree> {
    match t {
        Tree::Node(l, _, _) => Some(l),
        Tree::Leaf => None,
    }
}

fn right(t: &Tree) -> Option<&Tree> {
    match t {
        Tree::Node(_, _, r) => Some(r),
        Tree::Leaf => None,
    }
}

/// Binary trees with any keys in `lo..=hi`, ordered or not: the obvious reference.
fn any_tree(lo: i64, hi: i64) -> Gen<Tree, Tree> {
    recursive(move |tree: Gen<Tree, Tree>| {
        sized(move |size| {
            let child = tree.clone().scale(|size| size / 2);
            let node_gen = zip(
                zip(child.clone().focus(left), range(lo..=hi).focus(key)),
                child.focus(right),
            )
            .map(|((l, x), r)| node(l, x, r));
            pick((
                (1, "leaf", exact(Tree::Leaf)),
                (u32::try_from(size).unwrap_or(u32::MAX), "node", node_gen),
            ))
        })
    })
}

fn main() {
    println!("# Validating generators\n");
    let cases = 1000;
    show(
        "the paper's search trees, `bst(0, 10)`, sound for `is_bst` and complete against any tree",
        || {
            bst(0, 10)
                .validate()
                .sound(Tree::is_bst)
                .complete(&any_tree(0, 10), Tree::is_bst)
                .max_size(10)
                .cases(cases)
                .run()
        },
    );
    show(
        "well-typed lambda terms, `well_typed()`, sound for `type_of`",
        || {
            well_typed()
                .validate()
                .sound(|e| type_of(&[], e).is_some())
                .max_size(30)
                .cases(cases)
                .run()
        },
    );
    show(
        "the derived generator of lambda syntax, `Expr::arbitrary_reflective()`",
        || {
            Expr::arbitrary_reflective()
                .validate()
                .max_ways(1)
                .cases(cases)
                .run()
        },
    );
    show(
        "planted: the right subtree may repeat its parent's key (`x` for `x + 1`)",
        || {
            planted(0, 10, |hi| hi, |x| x)
                .validate()
                .sound(Tree::is_bst)
                .cases(cases)
                .run()
        },
    );
    show(
        "planted: the keys drawn stop one short of the range's top (`hi - 1` for `hi`)",
        || {
            planted(0, 10, |hi| hi - 1, |x| x + 1)
                .validate()
                .sound(Tree::is_bst)
                .complete(&any_tree(0, 10), Tree::is_bst)
                .max_size(10)
                .cases(cases)
                .run()
        },
    );
    show(
        "planted: a `map` that doubles the keys with no annotation undoing it",
        || {
            bst(0, 10)
                .map(|t| double(&t))
                .validate()
                .sound(Tree::is_bst)
                .cases(cases)
                .run()
        },
    );
}

/// `tree` with every key doubled.
fn double(tree: &Tree) -> Tree {
    match tree {
        Tree::Leaf => Tree::Leaf,
        Tree::Node(l, k, r) => node(double(l), 2 * k, double(r)),
    }
}

fn show(what: &str, validate: impl FnOnce() -> ValidationReport) {
    let started = Instant::now();
    let report = validate();
    println!("## {what}\n");
    println!("```text\n{report}\n```\n");
    println!("({:.0} ms)\n", started.elapsed().as_secs_f64() * 1e3);
}
