//! Size strategies and the division of size (issue 4): the laws under every strategy for
//! nests of sequences (exact allotments) and other collections (equal shares), probabilities
//! that sum to 1, no position bias (a value's probability does not change when its elements
//! are permuted), and each strategy's growth bound.

use std::collections::{BTreeMap, BTreeSet};

use reflective::prelude::*;
use reflective_tests::derived::Rose;
use reflective_tests::laws::{Laws, assert_frequencies_match, assert_sums_to_one, cases};

/// The laws of `T`'s generator under every strategy. A value has one way to be produced,
/// except under partitions (it can fill more than one level) and random (it can come from more
/// than one strategy); and under partitions the values of one size are not among those of a
/// larger one.
fn laws_of<T: Reflective + PartialEq + std::fmt::Debug>(name: &str, sizes: &[usize]) {
    laws_in_any_order::<T>(name, sizes, false);
}

/// [`laws_of`]; for sets and maps (`unordered`), whose elements reflect in another order than
/// they were drawn, and whose redraws of repeats are not among the reflected ways.
fn laws_in_any_order<T: Reflective + PartialEq + std::fmt::Debug>(
    name: &str,
    sizes: &[usize],
    unordered: bool,
) {
    for strategy in Strategy::ALL {
        let laws = Laws::new(
            format!("{name} under {strategy}"),
            T::arbitrary_reflective().size_strategy(strategy),
        )
        .sizes(sizes)
        .seeds(40);
        let laws = if unordered { laws.unordered() } else { laws };
        match strategy {
            Strategy::Partitions => laws.partitioned().check(),
            Strategy::Random => laws.check(),
            _ if unordered => laws.check(),
            _ => laws.unique().check(),
        }
    }
}

#[test]
fn nests_of_sequences_obey_the_laws_under_every_strategy() {
    laws_of::<Vec<Vec<u8>>>("Vec<Vec<u8>>", &[0, 1, 2, 5, 20]);
    laws_of::<Vec<String>>("Vec<String>", &[0, 1, 5, 20]);
    laws_of::<Vec<Vec<Vec<bool>>>>("Vec<Vec<Vec<bool>>>", &[0, 1, 3, 8]);
    laws_of::<Vec<(u8, Vec<bool>)>>("Vec<(u8, Vec<bool>)>", &[0, 1, 5, 20]);
    laws_of::<Vec<Option<Vec<u8>>>>("Vec<Option<Vec<u8>>>", &[0, 1, 5, 20]);
}

/// Nests whose innermost sequences hold other collections: only the levels of sequences are
/// split exactly, and the collections below them run at equal shares.
#[test]
fn nests_of_sequences_around_other_collections_obey_the_laws() {
    laws_of::<Vec<Vec<(u8, String)>>>("Vec<Vec<(u8, String)>>", &[0, 1, 5, 20]);
    laws_of::<Vec<Vec<Option<Vec<u8>>>>>("Vec<Vec<Option<Vec<u8>>>>", &[0, 1, 5, 20]);
    laws_of::<Vec<Vec<Rose>>>("Vec<Vec<Rose>>", &[0, 1, 5, 12]);
    laws_of::<Vec<(String, Vec<String>)>>("Vec<(String, Vec<String>)>", &[0, 1, 5, 20]);
}

/// A set that runs out of distinct elements ends short of its drawn length, under every
/// strategy (partitions does not ask a set to be full).
#[test]
fn sets_that_end_short_obey_the_laws() {
    laws_in_any_order::<BTreeSet<bool>>("BTreeSet<bool>", &[0, 1, 3, 6], true);
    laws_in_any_order::<Vec<BTreeSet<bool>>>("Vec<BTreeSet<bool>>", &[0, 1, 6, 20], true);
    laws_in_any_order::<BTreeMap<u8, Vec<u8>>>("BTreeMap<u8, Vec<u8>>", &[0, 1, 6, 20], true);
}

/// Every `Vec<Vec<bool>>` with at most `outer` elements of at most `inner` bits each.
fn nested_bits(outer: usize, inner: usize) -> Vec<Vec<Vec<bool>>> {
    let mut rows = vec![Vec::new()];
    for len in 1..=inner {
        for bits in 0..1u32 << len {
            rows.push((0..len).map(|i| bits >> i & 1 == 1).collect());
        }
    }
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..outer {
        last = last
            .iter()
            .flat_map(|prefix: &Vec<Vec<bool>>| {
                rows.iter().map(move |row| {
                    let mut longer = prefix.clone();
                    longer.push(row.clone());
                    longer
                })
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

#[test]
fn probabilities_of_a_nest_sum_to_one_under_every_strategy() {
    // At size 2 the outer vector has at most 2 elements, and no strategy lets the elements
    // hold more than 4 bits in all (quadratic: twice the size on the level below).
    let support = nested_bits(2, 4);
    for strategy in Strategy::ALL {
        let g = <Vec<Vec<bool>>>::arbitrary_reflective().size_strategy(strategy);
        let reachable: Vec<Vec<Vec<bool>>> = support
            .iter()
            .filter(|v| g.reflector().size(2).can_generate(v) == Ok(true))
            .cloned()
            .collect();
        assert_sums_to_one(
            &format!("Vec<Vec<bool>> under {strategy}"),
            &g,
            2,
            &reachable,
        );
    }
}

#[test]
fn frequencies_of_a_nest_match_its_probabilities() {
    let g = <Vec<Vec<bool>>>::arbitrary_reflective();
    let support: Vec<Vec<Vec<bool>>> = nested_bits(2, 2)
        .into_iter()
        .filter(|v| g.reflector().size(2).can_generate(v) == Ok(true))
        .collect();
    assert_frequencies_match("Vec<Vec<bool>>", &g, 2, &support, 20_000);
}

/// No position bias: the elements of a collection are exchangeable, so permuting them does
/// not change a value's probability.
#[test]
fn permuting_the_elements_keeps_the_probability() {
    fn check<T: Reflective + std::fmt::Debug>(name: &str) {
        for strategy in Strategy::ALL {
            let g = <Vec<T>>::arbitrary_reflective().size_strategy(strategy);
            for (seed, size) in cases(name, 40, &[3, 10, 30]) {
                let value = g.generate_value(&mut DefaultRng::seed_from_u64(seed), size);
                let reflector = g.reflector().size(size);
                let p = reflector.log_probability_of(&value).expect("within budget");
                let mut permuted = value.clone();
                permuted.reverse();
                permuted.rotate_left(value.len() / 3);
                let q = reflector
                    .log_probability_of(&permuted)
                    .expect("within budget");
                assert!(
                    (p - q).abs() < 1e-9,
                    "{name} under {strategy}, seed {seed}, size {size}: log-probability {p} \
                     of {value:?}, {q} of {permuted:?}"
                );
            }
        }
    }
    check::<Vec<u8>>("Vec<Vec<u8>>");
    check::<String>("Vec<String>");
    check::<Vec<Vec<bool>>>("Vec<Vec<Vec<bool>>>");
    check::<(bool, Vec<u8>)>("Vec<(bool, Vec<u8>)>");
}

/// The number of values on each level of a nest: the outermost vector's length first.
fn level_totals(value: &[Vec<Vec<Vec<u8>>>]) -> [usize; 4] {
    let middle: Vec<&Vec<Vec<u8>>> = value.iter().flatten().collect();
    let inner: Vec<&Vec<u8>> = middle.iter().copied().flatten().collect();
    [
        value.len(),
        middle.len(),
        inner.len(),
        inner.iter().map(|v| v.len()).sum(),
    ]
}

/// Whether some level of a nest generated at `size` under partitions is full: every
/// collection on the level above it holds exactly as many values there as the size it runs at
/// (the outermost vector runs at `size`, and each of a collection's `k` elements at its size
/// divided by `k`, rounded down).
fn has_full_level(value: &[Vec<Vec<Vec<u8>>>], size: usize) -> bool {
    fn part(size: usize, length: usize) -> usize {
        size / length.max(1)
    }
    fn holds<T>(collections: &[(usize, &Vec<Vec<T>>)]) -> bool {
        collections
            .iter()
            .all(|(size, c)| c.iter().map(Vec::len).sum::<usize>() == *size)
    }
    let level_1: Vec<(usize, &Vec<Vec<Vec<u8>>>)> =
        value.iter().map(|c| (part(size, value.len()), c)).collect();
    let level_2: Vec<(usize, &Vec<Vec<u8>>)> = level_1
        .iter()
        .flat_map(|(s, c)| c.iter().map(move |d| (part(*s, c.len()), d)))
        .collect();
    value.len() == size
        || value.iter().map(Vec::len).sum::<usize>() == size
        || holds(&level_1)
        || holds(&level_2)
}

#[test]
fn each_strategy_keeps_its_growth_bound() {
    let g = <Vec<Vec<Vec<Vec<u8>>>>>::arbitrary_reflective();
    for strategy in Strategy::ALL {
        let g = g.clone().size_strategy(strategy);
        for (seed, size) in cases(&format!("growth under {strategy}"), 100, &[0, 1, 4, 12]) {
            let value = g.generate_value(&mut DefaultRng::seed_from_u64(seed), size);
            let totals = level_totals(&value);
            let all: usize = totals.iter().sum();
            let within = match strategy {
                Strategy::Linear | Strategy::Partitions => totals.iter().all(|&t| t <= size),
                Strategy::Quadratic => totals.iter().zip(1..).all(|(&t, level)| t <= size * level),
                Strategy::Fixed => all <= size,
                Strategy::Exponential => totals
                    .iter()
                    .zip(1..)
                    .all(|(&t, level)| t <= size.pow(level)),
                // The loosest of the five: exponential's, or quadratic's at size 1.
                Strategy::Random => totals
                    .iter()
                    .zip(1..)
                    .all(|(&t, level)| t <= size.pow(level).max(size * level as usize)),
            };
            assert!(
                within,
                "under {strategy}, seed {seed}, size {size}: levels hold {totals:?}"
            );
            if strategy == Strategy::Partitions && size > 0 {
                assert!(
                    has_full_level(&value, size),
                    "under partitions, seed {seed}, size {size}: no full level in {value:?}"
                );
            }
        }
    }
}

#[test]
fn the_strategy_of_random_is_a_labelled_choice() {
    let g = <Vec<Vec<u8>>>::arbitrary_reflective().size_strategy(Strategy::Random);
    let labels = g
        .reflector()
        .size(3)
        .reflect(&vec![vec![1, 2, 3]])
        .expect("within budget");
    let first: Vec<String> = labels.iter().map(|way| way[0].to_string()).collect();
    // Exactly the strategies under which a 1-long vector holds 3 bytes at size 3: linear,
    // quadratic, exponential and partitions (the full level is the second); fixed leaves 2.
    assert_eq!(first, ["linear", "quadratic", "exponential", "partitions"]);
}

/// A collection given a size of its own by `resize` or `scale` inside another collection takes
/// its length from that size, under every strategy, not from a share of the budget around;
/// and the nest keeps its laws.
#[test]
fn resized_collections_inside_collections_follow_their_own_size() {
    for strategy in Strategy::ALL {
        for own in [0usize, 3, 7, 40] {
            let inner = || vec(range(0u8..=9), ..);
            let nests = [
                ("resize", vec(inner().resize(own), 1..=4).boxed()),
                ("scale", vec(inner().scale(move |_| own), 1..=4).boxed()),
            ];
            for (how, nest) in nests {
                let nest = nest.size_strategy(strategy);
                let name = format!("{how}({own}) under {strategy}");
                let longest = (0..300)
                    .flat_map(|seed| {
                        let mut rng = DefaultRng::seed_from_u64(seed);
                        // A large outer size, and one smaller than the inner's own.
                        let size = if seed % 2 == 0 { 1000 } else { 2 };
                        nest.generate_value(&mut rng, size)
                    })
                    .map(|inner| inner.len())
                    .max();
                assert_eq!(longest, Some(own), "{name}");
                let laws = Laws::new(name, nest).sizes(&[2, 10, 1000]).seeds(20);
                match strategy {
                    Strategy::Partitions => laws.partitioned().check(),
                    Strategy::Random => laws.check(),
                    _ => laws.unique().check(),
                }
            }
        }
    }
}

/// A collection with an explicit longest length reaches it from the default size on, as
/// proptest draws its lengths; below, its lengths grow with the size from the least one (at
/// size 0); a collection without a longest length, or with one above 2^20, or under a size
/// strategy that bounds the whole nest by the size (`Fixed`, `Partitions`), stays within the
/// size. Each value reflects
/// at the size it was generated at. Over ranges and sizes the library draws itself, for
/// vectors, strings and sets.
#[test]
fn an_explicit_longest_length_comes_up_from_the_default_size_on() {
    let ranges = tuple((range(0usize..=400), range(0usize..=800)));
    for seed in 0..16 {
        let (lo, span) = ranges.sample(seed);
        let hi = lo + span;
        let lists = vec(bool(), lo..=hi);
        let texts = string_of(char_range('a'..='z'), lo..=hi);
        let sets = btree_set(range(0u32..=u32::MAX), lo..=hi);
        let within_size = [
            vec(bool(), lo..).boxed(),
            vec(bool(), lo..usize::MAX).boxed(),
            vec(bool(), lo..=hi).size_strategy(Strategy::Fixed).boxed(),
            vec(bool(), lo..=hi)
                .size_strategy(Strategy::Partitions)
                .boxed(),
        ];
        for size in [0, 1, 10, 50, 100, 300] {
            let lengths: Vec<usize> = (0..40)
                .map(|case| {
                    let mut rng = DefaultRng::seed_from_u64(seed * 1000 + case);
                    let list = lists.generate_value(&mut rng, size);
                    let text = texts.generate_value(&mut rng, size);
                    let set = sets.generate_value(&mut rng, size);
                    let at = format!("{lo}..={hi} at {size}");
                    for (index, g) in within_size.iter().enumerate() {
                        let len = g.generate_value(&mut rng, size).len();
                        assert!(len <= size.max(lo), "{at}, kind {index}: {len} long");
                    }
                    let reflects = lists.reflector().size(size).can_generate(&list);
                    assert_eq!(reflects, Ok(true), "{at}: {} long", list.len());
                    let reflects = texts.reflector().size(size).can_generate(&text);
                    assert_eq!(reflects, Ok(true), "{at}: {text:?}");
                    let reflects = sets.reflector().size(size).can_generate(&set);
                    assert_eq!(reflects, Ok(true), "{at}: a set of {}", set.len());
                    for len in [list.len(), text.chars().count(), set.len()] {
                        assert!((lo..=hi).contains(&len), "{at}: {len} long");
                    }
                    list.len().max(text.chars().count()).max(set.len())
                })
                .collect();
            let longest = *lengths.iter().max().expect("cases");
            if size == 0 {
                assert_eq!(longest, lo, "{lo}..={hi} at size 0");
            }
            let allowed = size.max(lo + span * size / 100).min(hi);
            assert!(
                longest <= allowed,
                "{lo}..={hi} at {size}: {longest} > {allowed}"
            );
            if size >= 100 && span >= 20 {
                assert!(
                    longest >= lo + span * 8 / 10,
                    "{lo}..={hi} at {size}: the longest of 120 is {longest}"
                );
            }
        }
    }
}
