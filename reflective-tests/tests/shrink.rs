//! The choice shrinker (issue 5, first passes): a shrunk value still fails, its choices are no
//! larger than the start's, shrinking it again changes nothing, and shrinking a value given
//! from outside reaches the same result as shrinking it from its generated choices.

use reflective::prelude::*;
use reflective_tests::derived::{Expr, Json, Tree};

/// Checks the shrinker's laws on `g` for values failing `fails`, over `seeds` seeds.
fn laws<T: Clone + std::fmt::Debug + PartialEq + 'static>(
    name: &str,
    g: &Gen<T, T>,
    fails: impl Fn(&T) -> bool + Copy,
    seeds: u64,
) -> usize {
    let mut shrunk_count = 0;
    for seed in 0..seeds {
        let mut rng = DefaultRng::seed_from_u64(seed);
        let Some(start) = (0..500)
            .map(|i| g.generate_value(&mut rng, i % 60))
            .find(|v| fails(v))
        else {
            continue;
        };
        let shrunk = g
            .shrink_with_stats(&start, fails)
            .unwrap_or_else(|| panic!("{name}, seed {seed}: {start:?} does not shrink"));
        assert!(
            fails(&shrunk.value),
            "{name}, seed {seed}: {:?} passes",
            shrunk.value
        );
        let start_tree = g.reflector().choices(&start).unwrap().remove(0);
        assert!(
            shrunk.tree.shortlex_cmp(&start_tree).is_le(),
            "{name}, seed {seed}: {} is not simpler than {start_tree}",
            shrunk.tree
        );
        assert_eq!(g.replay(&shrunk.tree).as_ref(), Some(&shrunk.value));
        let again = g.shrink(shrunk.value.clone(), fails);
        assert_eq!(again, shrunk.value, "{name}, seed {seed}: not a fixpoint");
        assert_eq!(
            shrunk.stats.stopped,
            reflective::shrink::Stopped::Fixpoint,
            "{name}, seed {seed}"
        );
        let by_pass: usize = shrunk
            .stats
            .passes
            .iter()
            .map(|pass| pass.evaluations)
            .sum();
        assert_eq!(by_pass, shrunk.stats.evaluations, "{name}, seed {seed}");
        shrunk_count += 1;
    }
    shrunk_count
}

#[test]
fn shrunk_values_fail_are_simpler_and_are_fixpoints() {
    let lists = <Vec<u32>>::arbitrary_reflective();
    assert!(
        laws(
            "Vec<u32> sum",
            &lists,
            |xs: &Vec<u32>| xs.iter().map(|&x| u64::from(x)).sum::<u64>() > 1000,
            30
        ) > 20
    );
    let trees = Tree::<u8>::arbitrary_reflective();
    let has_big = |t: &Tree<u8>| format!("{t:?}").matches("Node").count() >= 3;
    assert!(laws("Tree<u8>", &trees, has_big, 30) > 5);
    let exprs = Expr::arbitrary_reflective();
    assert!(laws("Expr", &exprs, |e: &Expr| format!("{e:?}").len() > 40, 20) > 5);
    let json = Json::arbitrary_reflective();
    laws(
        "Json",
        &json,
        |j: &Json| format!("{j:?}").contains("Array"),
        20,
    );
}

#[test]
fn lists_shrink_to_the_minimal_counterexample() {
    let lists = vec(range(0u32..=1000), ..);
    let fails = |xs: &Vec<u32>| xs.len() >= 2 && xs.iter().any(|&x| x > 100);
    for seed in 0..20 {
        let mut rng = DefaultRng::seed_from_u64(seed);
        let start = (0..1000)
            .map(|_| lists.generate_value(&mut rng, 50))
            .find(|v| fails(v))
            .expect("a failing list");
        assert_eq!(lists.shrink(start, fails), [0, 101], "seed {seed}");
    }
    // A value from outside, never generated.
    assert_eq!(lists.shrink(vec![999; 40], fails), [0, 101]);
    // Not failing, or not producible: unchanged.
    assert_eq!(lists.shrink(vec![1, 2], fails), [1, 2]);
    let short = vec(range(0u32..=1000), ..=3);
    assert_eq!(short.shrink(vec![999; 5], fails), [999; 5]);
}
