//! Exhaustive enumeration (`Generator::enumerate`, the Agata thesis' `agataSC`): every value
//! it lists reflects, each once for a generator with one way per value, and for a finite
//! generator the list is exactly the values with a probability above 0.

use std::collections::BTreeSet;
use std::fmt::Debug;

use reflective::prelude::*;
use reflective_tests::derived::{Keyword, List, Nat, Shape, Tree};
use reflective_tests::laws::assert_sums_to_one;

/// The values `g` lists at `depth`, checked: each reflects at that size with a probability
/// above 0, and none is listed twice.
fn listed<T: Debug + PartialEq + Clone + 'static>(
    name: &str,
    g: &impl Generator<Input = T, Output = T>,
    depth: usize,
) -> Vec<T> {
    let values: Vec<T> = g.enumerate(depth).collect();
    let reflector = g.reflector().size(depth);
    for (i, value) in values.iter().enumerate() {
        assert!(
            !values[..i].contains(value),
            "{name} at depth {depth}: {value:?} listed twice"
        );
        let p = reflector.probability_of(value).expect("within budget");
        assert!(
            p > 0.0,
            "{name} at depth {depth}: {value:?} has probability {p}"
        );
    }
    values
}

#[test]
fn derived_types_list_each_value_once() {
    for depth in 0..4 {
        listed("Shape", &Shape::arbitrary_reflective(), depth);
        listed("Keyword", &Keyword::arbitrary_reflective(), depth);
        listed("List", &List::arbitrary_reflective(), depth);
        listed("Nat", &Nat::arbitrary_reflective(), depth);
        listed("Tree<u8>", &Tree::<u8>::arbitrary_reflective(), depth);
        listed(
            "Vec<Vec<bool>>",
            &<Vec<Vec<bool>>>::arbitrary_reflective(),
            depth,
        );
        listed(
            "Vec<String>",
            &<Vec<String>>::arbitrary_reflective(),
            depth.min(2),
        );
    }
}

/// A finite generator's list is its support: the probabilities of the listed values sum to 1
/// (and every generated value is among them), under every size strategy.
#[test]
fn a_finite_generator_lists_its_support() {
    for strategy in Strategy::ALL {
        let g = <Vec<Vec<bool>>>::arbitrary_reflective().size_strategy(strategy);
        let name = format!("Vec<Vec<bool>> under {strategy}");
        let support: Vec<Vec<Vec<bool>>> =
            if matches!(strategy, Strategy::Random | Strategy::Partitions) {
                // A value can have several ways here: list each once.
                let unique: BTreeSet<Vec<Vec<bool>>> = g.enumerate(2).collect();
                unique.into_iter().collect()
            } else {
                listed(&name, &g, 2)
            };
        assert_sums_to_one(&name, &g, 2, &support);
    }
    let keywords = listed("Keyword", &Keyword::arbitrary_reflective(), 0);
    assert_sums_to_one("Keyword", &Keyword::arbitrary_reflective(), 0, &keywords);
}

#[test]
fn integers_list_their_simplest_values() {
    assert_eq!(
        int::<i32>().enumerate(4).collect::<Vec<_>>(),
        [0, 1, -1, 2, -2]
    );
    assert_eq!(range(5u8..=100).enumerate(2).collect::<Vec<_>>(), [5, 6, 7]);
    assert_eq!(
        range(-3i8..=1).enumerate(9).collect::<Vec<_>>(),
        [0, 1, -1, -2, -3]
    );
    // Collections: every length up to the depth, every element among its simplest values.
    let lists: Vec<Vec<u8>> = vec(range(0u8..=9), ..).enumerate(1).collect();
    assert_eq!(lists, [vec![], vec![0], vec![1]]);
    // The widest integers, without overflow.
    assert_eq!(int::<i128>().enumerate(2).collect::<Vec<_>>(), [0, 1, -1]);
    // A full `u128` is one folded choice: its least values, in order.
    assert_eq!(int::<u128>().enumerate(2).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(
        range(7..=u128::MAX).enumerate(2).collect::<Vec<_>>(),
        [7, 8, 9]
    );
}

/// A set is listed once per order of its elements, and a sequence with a repeat is skipped:
/// the walk is finite.
#[test]
fn sets_list_each_order_once() {
    let sets: Vec<BTreeSet<bool>> = BTreeSet::<bool>::arbitrary_reflective()
        .enumerate(3)
        .collect();
    let empty = BTreeSet::new();
    let both = BTreeSet::from([false, true]);
    assert_eq!(sets.iter().filter(|s| **s == empty).count(), 1);
    assert_eq!(sets.iter().filter(|s| s.len() == 1).count(), 2);
    assert_eq!(sets.iter().filter(|s| **s == both).count(), 2);
    assert_eq!(sets.len(), 5);
}

#[test]
fn a_filter_lists_the_values_it_keeps_once_each_and_ends() {
    use reflective_tests::catalogue::specs::{Spec, V, build};
    // A predicate decided by the value, true about one time in three.
    let keep = |v: &V| format!("{v:?}").len() % 3 == 0;
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(3);
    let (mut compared, mut kept) = (0, 0);
    for _ in 0..200 {
        let spec = specs.generate_value(&mut rng, 8);
        let g = build(&spec);
        let depth = 2;
        // Generators with many values at this depth are left out, to keep the test short.
        let plain: Vec<V> = g.enumerate(depth).take(2_001).collect();
        if plain.len() > 2_000 {
            continue;
        }
        let expected: Vec<V> = plain.into_iter().filter(keep).collect();
        // One more than expected, so that a walk that lists values again, or does not end,
        // fails here rather than running on.
        let kept_only = g.clone().filter(keep);
        let listed = kept_only.enumerate(depth);
        let filtered: Vec<V> = listed.take(expected.len() + 1).collect();
        assert_eq!(filtered, expected, "{spec:?}");
        compared += 1;
        kept += expected.len();
    }
    assert!(
        compared > 100 && kept > 200,
        "{compared} generators, {kept} values"
    );
}

/// Floats list each bit pattern once and end (the "any other pattern" part drew again through
/// a recursive `bind` when it met a special or small number, and the walk followed that chain
/// without end), also inside a derived type.
#[test]
fn floats_list_each_pattern_once_and_end() {
    fn each_once<T: Debug>(name: &str, values: Vec<T>, bits: impl Fn(&T) -> String) -> usize {
        let mut seen = BTreeSet::new();
        for value in &values {
            assert!(seen.insert(bits(value)), "{name}: {value:?} listed twice");
        }
        assert!(values.len() < 100_000, "{name}: the walk does not end");
        values.len()
    }
    for depth in 0..3 {
        let singles = float::<f32>().enumerate(depth).take(100_000).collect();
        let singles = each_once("f32", singles, |x| format!("{:x}", x.to_bits()));
        let doubles = float::<f64>().enumerate(depth).take(100_000).collect();
        let doubles = each_once("f64", doubles, |x| format!("{:x}", x.to_bits()));
        assert!(
            singles > 8 && doubles > 8,
            "{singles} and {doubles} at {depth}"
        );
        for x in float::<f64>().enumerate(depth) {
            let ways = float::<f64>().reflector().size(depth).choices(&x);
            assert_eq!(ways.map(|ways| ways.len()), Ok(1), "{x:?} at size {depth}");
        }
    }
    let floats = reflective_tests::derived::Floats::arbitrary_reflective()
        .enumerate(1)
        .take(100_000)
        .collect();
    each_once("Floats", floats, |x| format!("{x:?}"));
}

/// A recursive generator that ignores the size (the docs' `Nat` through `lazy` and through
/// `recursive`, and one recursing through `bind`) has no finite enumeration: it is listed in
/// order down to the nesting limit, each value once, and the listing ends. The derived `Nat`,
/// bounded by the size, lists exactly its values up to the depth.
#[test]
fn a_recursion_that_ignores_the_size_ends() {
    fn lazy_nat() -> Gen<Nat, Nat> {
        frequency((
            (2, exact(Nat::Zero)),
            (1, lazy(lazy_nat).focus_box(Nat::succ_0).map(succ)),
        ))
        .boxed()
    }
    fn bound_nat() -> Gen<Nat, Nat> {
        bool()
            .comap(|n: &Nat| Some(matches!(n, Nat::Succ(_))))
            .bind(|more| {
                if more {
                    bound_nat().map(succ).boxed()
                } else {
                    exact(Nat::Zero).boxed()
                }
            })
            .boxed()
    }
    fn succ(n: Nat) -> Nat {
        Nat::Succ(Box::new(n))
    }
    fn count(n: &Nat) -> usize {
        match n {
            Nat::Zero => 0,
            Nat::Succ(m) => 1 + count(m),
        }
    }
    let recursive_nat = recursive(|nat: Gen<Nat, Nat>| {
        frequency((
            (2, exact(Nat::Zero)),
            (1, nat.focus_box(Nat::succ_0).map(succ)),
        ))
    });
    for depth in 0..3 {
        let limit = 64 * (depth + 1);
        for (name, values) in [
            ("lazy", listed("lazy", &lazy_nat(), depth)),
            ("recursive", listed("recursive", &recursive_nat, depth)),
            ("bind", bound_nat().enumerate(depth).collect()),
        ] {
            let counts: Vec<usize> = values.iter().map(count).collect();
            assert!(
                counts.len() > limit / 4 && counts.len() <= limit + 1,
                "{name} at depth {depth}: {} values",
                counts.len()
            );
            assert!(
                counts.iter().enumerate().all(|(i, &c)| c == i),
                "{name} at depth {depth}: not 0, 1, 2, ... in order"
            );
        }
        let derived: Vec<usize> = Nat::arbitrary_reflective()
            .enumerate(depth)
            .map(|n| count(&n))
            .collect();
        assert_eq!(derived, (0..=depth).collect::<Vec<_>>(), "derived");
    }
}
