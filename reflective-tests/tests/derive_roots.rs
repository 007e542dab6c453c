//! The root of a derived recursive value: at size `n` above 0, the variants that hold the
//! type itself weigh `n` times their declared weight at the pick of the value's root (with
//! equal weights, a leaf there about once in `n + 1`, as a collection is empty), while the
//! nodes inside it, and the values of other recursive types inside it, keep the declared
//! weights.
//!
//! Each rule is checked both ways: backward, the probability reflection gives a value, and
//! forward, how often generation makes it, over many seeds at many sizes; and a hole that
//! completion fills inside a recursive value is filled as a node inside it.

use reflective::Reflective;
use reflective::complete::Holes;
use reflective::prelude::*;
use reflective_tests::derived::{List, Nat, Tree};

/// A recursive type whose node holds a value of another recursive type.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Outer {
    End,
    Wrap(Box<Outer>, Nat),
}

/// The README's example: two variants that hold the type, one of weight 2.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Arith {
    Lit(u8),
    #[reflective(weight = 2)]
    Add(Box<Arith>, Box<Arith>),
    Neg(Box<Arith>),
}

/// A variant that would hold the type, never generated: the type is not recursive.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Holder {
    Holds(Nat),
    #[reflective(skip)]
    Again(Box<Holder>),
}

const SIZES: [usize; 8] = [1, 2, 3, 5, 8, 13, 30, 100];
const DRAWS: u32 = 4_000;

/// The probability `g` gives `value` at `size`, by reflection.
fn reflected<T>(g: &Gen<T, T>, size: usize, value: &T) -> f64 {
    g.reflector()
        .size(size)
        .probability_of(value)
        .expect("reflects within the budget")
}

/// How often `g` generates a value `is` holds for at `size`, out of [`DRAWS`] seeds.
fn generated<T>(g: &Gen<T, T>, size: usize, is: impl Fn(&T) -> bool) -> f64 {
    let hits = (0..DRAWS)
        .filter(
            |&seed| is(&g.generate_value(&mut DefaultRng::seed_from_u64(u64::from(seed)), size)),
        )
        .count();
    hits as f64 / f64::from(DRAWS)
}

/// `frequency` is within five standard deviations of `probability` over [`DRAWS`] draws.
fn agrees(frequency: f64, probability: f64) -> bool {
    let sd = (probability * (1.0 - probability) / f64::from(DRAWS)).sqrt();
    (frequency - probability).abs() <= 5.0 * sd + 1e-9
}

/// Both ways agree with `expected`: the probability reflection gives, exactly, and the
/// frequency generation shows, within sampling noise.
fn both_ways(what: &str, probability: f64, frequency: f64, expected: f64) {
    assert!(
        (probability - expected).abs() < 1e-9,
        "{what}: reflected {probability}, expected {expected}"
    );
    assert!(
        agrees(frequency, expected),
        "{what}: generated {frequency}, expected {expected}"
    );
}

#[test]
fn a_recursive_value_is_a_leaf_at_its_root_about_once_in_size_plus_one() {
    let (nats, lists, trees) = (
        Nat::arbitrary_reflective(),
        List::arbitrary_reflective(),
        Tree::<u8>::arbitrary_reflective(),
    );
    for size in SIZES {
        let expected = 1.0 / (size as f64 + 1.0);
        for (name, probability, frequency) in [
            (
                "Nat",
                reflected(&nats, size, &Nat::Zero),
                generated(&nats, size, |n| *n == Nat::Zero),
            ),
            (
                "List",
                reflected(&lists, size, &List::Nil),
                generated(&lists, size, |l| *l == List::Nil),
            ),
            (
                "Tree",
                reflected(&trees, size, &Tree::Leaf),
                generated(&trees, size, |t| *t == Tree::Leaf),
            ),
        ] {
            both_ways(
                &format!("{name} at size {size}"),
                probability,
                frequency,
                expected,
            );
        }
    }
    // At size 0 only the leaf.
    assert_eq!(reflected(&nats, 0, &Nat::Zero), 1.0);
}

#[test]
fn the_nodes_inside_a_recursive_value_keep_their_declared_weights() {
    let nats = Nat::arbitrary_reflective();
    let one = Nat::Succ(Box::new(Nat::Zero));
    for size in SIZES.into_iter().filter(|&size| size >= 2) {
        // The root is a node n times in n + 1; inside it, at size n - 1 > 0, zero and one
        // more weigh 1:1 as declared.
        let expected = size as f64 / (size as f64 + 1.0) / 2.0;
        let probability = reflected(&nats, size, &one);
        let frequency = generated(&nats, size, |n| *n == one);
        both_ways(&format!("size {size}"), probability, frequency, expected);
    }
}

#[test]
fn a_recursive_value_inside_another_keeps_the_declared_weights() {
    let outers = Outer::arbitrary_reflective();
    let wrapped_zero = Outer::Wrap(Box::new(Outer::End), Nat::Zero);
    for size in SIZES.into_iter().filter(|&size| size >= 2) {
        // The root wraps n times in n + 1. Inside it, at size n - 1 > 0, the inner `Outer`
        // ends and the `Nat` is zero each half the time: the `Nat` is not a root.
        let expected = size as f64 / (size as f64 + 1.0) / 4.0;
        let probability = reflected(&outers, size, &wrapped_zero);
        let frequency = generated(&outers, size, |o| *o == wrapped_zero);
        both_ways(&format!("size {size}"), probability, frequency, expected);
    }
}

#[test]
fn the_declared_weights_are_multiplied_at_the_root() {
    let ariths = Arith::arbitrary_reflective();
    for size in SIZES {
        // `Lit` weighs 1, `Add` 2n and `Neg` n: a literal of 0 is one of 256 literals.
        let n = size as f64;
        let expected = 1.0 / (1.0 + 3.0 * n);
        let probability: f64 = (0..=255u8)
            .map(|k| reflected(&ariths, size, &Arith::Lit(k)))
            .sum();
        let frequency = generated(&ariths, size, |a| matches!(a, Arith::Lit(_)));
        both_ways(&format!("size {size}"), probability, frequency, expected);
    }
}

#[test]
fn recursive_values_side_by_side_in_a_tuple_are_each_a_root() {
    // A tuple is not a recursive value: each `Nat` in it is a root at the tuple's size, the
    // second as much as the first.
    let pairs = <(Nat, Nat)>::arbitrary_reflective();
    for size in [1, 10, 50] {
        let expected = (1.0 / (size as f64 + 1.0)).powi(2);
        let both_zero = (Nat::Zero, Nat::Zero);
        let probability = reflected(&pairs, size, &both_zero);
        let frequency = generated(&pairs, size, |pair| *pair == both_zero);
        both_ways(&format!("size {size}"), probability, frequency, expected);
    }
}

#[test]
fn a_variant_never_generated_does_not_make_its_type_recursive() {
    // `Holder` is not a recursive value, so the `Nat` it holds is a root, on the 29 units its
    // node leaves (a variant holding a user type is a node): zero once in 30, not half the time.
    let holders = Holder::arbitrary_reflective();
    let zero = Holder::Holds(Nat::Zero);
    let expected = 1.0 / 30.0;
    let probability = reflected(&holders, 30, &zero);
    let frequency = generated(&holders, 30, |h| *h == zero);
    both_ways("`Holds(Zero)`", probability, frequency, expected);
}

#[test]
fn a_hole_inside_a_recursive_value_is_completed_as_a_node_inside_it() {
    // The hole is the inner `Nat` of one more than it: a node inside the value, which keeps the
    // declared 1:1 (a root at that size would be zero once in 30).
    let nats = Nat::arbitrary_reflective();
    let partial = Nat::Succ(Box::new(Nat::Zero));
    let Nat::Succ(inner) = &partial else {
        unreachable!()
    };
    let completions = nats
        .completer()
        .size(30)
        .completions(&partial, &Holes::new().at(&**inner), 0, DRAWS as usize)
        .expect("a hole where any `Nat` fits");
    let zeros = completions
        .iter()
        .filter(|n| **n == Nat::Succ(Box::new(Nat::Zero)))
        .count();
    let frequency = zeros as f64 / completions.len() as f64;
    assert!(agrees(frequency, 0.5), "{frequency} of the holes were zero");
}

/// `k` successors of zero, built without recursion (dropping it recurses `k` deep: see
/// [`forget_deep`]).
fn successors(k: usize) -> Nat {
    (0..k).fold(Nat::Zero, |n, _| Nat::Succ(Box::new(n)))
}

/// Leaks a value too deep for the default drop to unwind on a test thread's stack.
fn forget_deep<T>(value: T) {
    std::mem::forget(value);
}

#[test]
fn the_deepest_value_generation_makes_reflects() {
    // The root's pick nests one level forward, as the description's `sized` does backward:
    // the deepest `Nat` whose choices replay forward reflects within the default budget.
    let nats = Nat::arbitrary_reflective();
    let replays = |k: usize| {
        let value = successors(k);
        let trees = nats
            .reflector()
            .size(k)
            .max_depth(1_000_000)
            .choices(&value)
            .expect("reflects with room to spare");
        let replayed = nats.replay(&trees[0]);
        let ok = replayed.is_some();
        forget_deep((value, trees, replayed));
        ok
    };
    // Replays at `low`, not at `high` (generation nests at most 100 000 levels).
    let (mut low, mut high) = (90_000, 110_000);
    assert!(replays(low) && !replays(high));
    while high - low > 1 {
        let middle = (low + high) / 2;
        if replays(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    let deepest = successors(low);
    let reflects = nats.reflector().size(low).can_generate(&deepest);
    forget_deep(deepest);
    assert_eq!(
        reflects,
        Ok(true),
        "{low} successors replay but do not reflect"
    );
}
