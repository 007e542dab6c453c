//! The generator laws, checked as properties over every built-in generator and the composite
//! generators of the catalogue: soundness, pure projection, replay determinism, same seed same
//! value, faithful reflection (see `reflective_tests::laws`), probabilities that sum to 1 over
//! a finite support, and agreement of probabilities with sampled frequencies.

use std::collections::{BTreeMap, BTreeSet};

use reflective::prelude::*;
use reflective_tests::catalogue::bst::{
    Tree, all_bsts, all_sized_trees, bst, bst_family, bst_memoized, is_bst, sized_tree,
};
use reflective_tests::catalogue::lists::{
    bounded_pair, dependent_vec, is_sorted, person, sorted_list,
};
use reflective_tests::catalogue::nat::{
    Nat, exponential_probability, fib, nat_exponential, nat_lazy, nat_recursive,
};
use reflective_tests::catalogue::nested::{flag_map, optional_pairs, vec_of_vecs};
use reflective_tests::catalogue::specs::{Spec, build};
use reflective_tests::catalogue::stlc::{
    self, Term, Type, any_term, in_scope, type_of, well_typed,
};
use reflective_tests::catalogue::tokens::{Token, token, tokens};
use reflective_tests::derived::Twelve;
use reflective_tests::laws::{
    Laws, assert_frequencies_match, assert_rejects, assert_sums_to_one, cases, name_seed,
};

// ---------------------------------------------------------------------------------------------
// The laws over every built-in generator.

/// `int`, `int_in` and `range` of one integer type, over ranges at both ends of the type.
macro_rules! integer_laws {
    ($($test:ident: $t:ty),* $(,)?) => {$(
        #[test]
        fn $test() {
            const MIN: $t = <$t>::MIN;
            const MAX: $t = <$t>::MAX;
            let t = stringify!($t);
            Laws::new(format!("int::<{t}>()"), int::<$t>()).unique().check();
            Laws::new(format!("int_in({t}::MIN..={t}::MAX)"), int_in(MIN..=MAX)).unique().check();
            Laws::new(format!("int_in({t}::MAX - 10..={t}::MAX)"), int_in(MAX - 10..=MAX))
                .unique()
                .check();
            Laws::new(format!("range::<{t}>(..)"), range::<$t>(..)).unique().check();
            Laws::new(format!("range({t}::MIN..{t}::MIN + 3)"), range(MIN..MIN + 3))
                .unique()
                .check();
            Laws::new(format!("range({t}::MAX - 2..)"), range(MAX - 2..)).unique().check();
            Laws::new(format!("range(..={t}::MIN + 100)"), range(..=MIN + 100)).unique().check();
        }
    )*};
}

integer_laws!(
    laws_i8: i8,
    laws_i16: i16,
    laws_i32: i32,
    laws_i64: i64,
    laws_i128: i128,
    laws_isize: isize,
    laws_u8: u8,
    laws_u16: u16,
    laws_u32: u32,
    laws_u64: u64,
    laws_u128: u128,
    laws_usize: usize,
);

/// `select` of distinct values obeys every law, each value made one way; of values listed
/// more than once, each reflects as its first place, and every value comes up.
#[test]
fn laws_of_select() {
    Laws::new("select(methods)", select(["GET", "POST", "PUT", "DELETE"]))
        .unique()
        .check();
    Laws::new("select(one)", select(vec![7u8])).unique().check();
    let repeated = select([1u8, 2, 1]);
    assert_eq!(repeated.choices(&1).len(), 1);
    assert!(!repeated.can_generate(&3));
    let drawn: std::collections::BTreeSet<u8> =
        (0..200).map(|seed| repeated.sample(seed)).collect();
    assert_eq!(drawn, [1, 2].into());
}

/// An empty `select` builds (a branch that weighs 0 when there is nothing to choose from),
/// reflects nothing, and panics when it generates, naming where it was built.
#[test]
fn an_empty_select_panics_only_when_it_generates() {
    let nothing = select(Vec::<u8>::new());
    let line = line!() - 1;
    assert!(!nothing.can_generate(&0));
    let keys = pick(((1, "absent", exact(9u8)), (0, "present", nothing.clone())));
    assert!((0..50).all(|seed| keys.sample(seed) == 9));
    assert!(keys.can_generate(&9) && !keys.can_generate(&0));
    let panicked = reflective::check::quietly(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| nothing.sample(1)))
    });
    let message = *panicked.unwrap_err().downcast::<String>().unwrap();
    assert_eq!(
        message,
        format!(
            "select: no values to choose from (called at reflective-tests/tests/laws.rs:{}:19)",
            line
        )
    );
}

/// A pick of twelve branches of twelve different types, as a tuple: every law, each value
/// one way, every branch taken.
#[test]
fn laws_of_a_pick_of_twelve_branches_of_different_types() {
    let decade = |tens: u32| range(tens * 10..=tens * 10 + 9);
    let twelve = one_of((
        exact(0u32),
        range(1u32..=9),
        decade(1),
        decade(2).map(|x| x).comap(|x: &u32| Some(*x)),
        decade(3).resize(5),
        decade(4).boxed(),
        frequency(((1, decade(5)), (1, exact(100u32)))),
        decade(6).comap(|x: &u32| Some(*x)),
        decade(7),
        decade(8),
        decade(9),
        range(101u32..=199),
    ))
    .boxed();
    Laws::new("one_of(twelve)", twelve.clone()).unique().check();
    let drawn: BTreeSet<u32> = (0..2000).map(|seed| twelve.sample(seed) / 10).collect();
    assert_eq!(drawn.len(), 20, "{drawn:?}");
}

/// `shuffled` and `subsequence` obey the laws; a shuffle's first element and a subsequence's
/// set come evenly; repeated values reflect as their first places; and what is not a shuffle
/// or a subsequence of the values does not reflect.
#[test]
fn laws_of_shuffles_and_subsequences() {
    let six: Vec<u8> = (1..=6).collect();
    // The keys drawn are any numbers, and reflection finds the ranks: another tree, one way.
    Laws::new("shuffled(1..=6)", shuffled(six.clone()))
        .unordered()
        .check();
    Laws::new("shuffled([])", shuffled(Vec::<u8>::new()))
        .unordered()
        .check();
    // Long lists: a loop, not a nest of generators; and every element, every time.
    let long: Vec<u32> = (0..5000).collect();
    let long_deck = shuffled(long.clone());
    let order = long_deck.sample(1);
    assert_ne!(order, long);
    assert_eq!(long_deck.choices(&order).len(), 1);
    let everything = subsequence(long.clone(), 5000..);
    let mut rng = DefaultRng::seed_from_u64(1);
    for _ in 0..5 {
        assert_eq!(everything.try_generate(&mut rng, 30).unwrap().value, long);
    }
    Laws::new("subsequence(1..=6, ..)", subsequence(six.clone(), ..))
        .unordered()
        .check();
    Laws::new("subsequence(1..=6, 2..=4)", subsequence(six.clone(), 2..=4))
        .unordered()
        .check();

    let deck = shuffled(six.clone());
    let mut firsts = [0u32; 6];
    for seed in 0..6000 {
        firsts[usize::from(deck.sample(seed)[0] - 1)] += 1;
    }
    assert!(
        firsts.iter().all(|&n| (850..1150).contains(&n)),
        "{firsts:?}"
    );
    assert!(!deck.can_generate(&vec![1, 2, 3, 4, 5]));
    assert!(!deck.can_generate(&vec![1, 1, 3, 4, 5, 6]));

    let pairs = subsequence(vec!['a', 'b', 'c', 'd', 'e'], 2..=2);
    let seen: BTreeSet<Vec<char>> = (0..2000).map(|seed| pairs.sample(seed)).collect();
    assert_eq!(seen.len(), 10, "every pair of five comes up");
    assert!(seen.iter().all(|pair| pair[0] < pair[1]));
    assert!(!pairs.can_generate(&vec!['c', 'a']));
    assert!(!pairs.can_generate(&vec!['a', 'b', 'c']));

    let repeated = shuffled(vec![1, 1, 2]);
    assert_eq!(repeated.choices(&vec![1, 2, 1]).len(), 1);
    let some = subsequence(vec![1, 1, 2], ..);
    assert_eq!(some.choices(&vec![1, 2]).len(), 1);
    assert_eq!(some.shrink(vec![1, 1, 2], |s| s.contains(&2)), [2]);
}

/// A shuffle's or a subsequence's probability counts every key vector that gives it, and a
/// select's every place of its value (the reflection finds one): over the distinct values
/// enumerated, the probabilities add up to 1, and each order of distinct values has 1 in n!,
/// with repeats the orders of the equal ones.
#[test]
fn probabilities_of_shuffles_and_subsequences_count_every_way() {
    // The distinct values: enumeration lists each once per key vector it reaches.
    fn total<G: Generator<Input = Vec<u8>, Output = Vec<u8>>>(g: &G) -> f64 {
        let values: BTreeSet<Vec<u8>> = g.enumerate(8).collect();
        values.iter().map(|value| g.probability_of(value)).sum()
    }
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let generators = [
        ("shuffled(1..=3)", shuffled(vec![1u8, 2, 3])),
        ("shuffled([1, 1, 2])", shuffled(vec![1u8, 1, 2])),
        ("shuffled([7, 7, 7])", shuffled(vec![7u8, 7, 7])),
        ("shuffled([])", shuffled(Vec::<u8>::new())),
        (
            "subsequence(1..=4, ..)",
            subsequence(vec![1u8, 2, 3, 4], ..),
        ),
        (
            "subsequence(1..=4, 2..=2)",
            subsequence(vec![1u8, 2, 3, 4], 2..=2),
        ),
        (
            "subsequence([1, 1, 2, 1], 1..=3)",
            subsequence(vec![1u8, 1, 2, 1], 1..=3),
        ),
    ];
    for (name, g) in &generators {
        assert!(close(total(g), 1.0), "{name}: {}", total(g));
    }
    assert!(close(
        shuffled(vec![1u8, 2, 3]).probability_of(&vec![3, 2, 1]),
        1.0 / 6.0
    ));
    assert!(close(
        shuffled(vec![1u8, 1, 2]).probability_of(&vec![1, 2, 1]),
        1.0 / 3.0
    ));
    let pairs = subsequence(vec![1u8, 2, 3, 4], 2..=2);
    assert!(close(pairs.probability_of(&vec![2, 4]), 1.0 / 6.0));
    // Two of the three sets of two indices of [1, 1, 2] hold [1, 2].
    let repeats = subsequence(vec![1u8, 1, 2], 2..=2);
    assert!(close(repeats.probability_of(&vec![1, 2]), 2.0 / 3.0));
    assert_eq!(repeats.probability_of(&vec![2, 1]), 0.0);
    // A value listed twice in a select: both places count.
    let methods = select(vec![1u8, 2, 2, 3]);
    assert!(close(methods.probability_of(&2), 0.5));
    assert!(close(methods.probability_of(&3), 0.25));
    assert_eq!(methods.probability_of(&4), 0.0);
}

/// A value a shuffle or subsequence makes every time has probability 1, not a rounding above
/// it: the keys' 2^-64 each and the ways counted cancel in logarithms of thousands.
#[test]
fn a_certain_arrangement_has_probability_at_most_1() {
    for n in [100, 1000, 3000] {
        let same = vec![7u8; n];
        let log_p = shuffled(same.clone())
            .reflector()
            .log_probability_of(&same)
            .unwrap();
        assert!(
            log_p <= 0.0 && log_p > -1e-6,
            "shuffled, {n} equal: {log_p}"
        );
        let all = subsequence(same.clone(), n..=n);
        let log_p = all.reflector().log_probability_of(&same).unwrap();
        assert!(
            log_p <= 0.0 && log_p > -1e-6,
            "subsequence, {n} equal: {log_p}"
        );
    }
}

#[test]
#[should_panic(expected = "subsequence: the length range 3.. holds no count from 0 to 2")]
fn a_subsequence_longer_than_its_values_is_refused() {
    let _ = subsequence(vec![1, 2], 3..);
}

#[test]
fn laws_of_small_and_signed_ranges() {
    Laws::new("range(0u8..=9)", range(0u8..=9)).unique().check();
    Laws::new("range(-5i32..=5)", range(-5i32..=5))
        .unique()
        .check();
    Laws::new("int_in(-5i32..=5)", int_in(-5i32..=5))
        .unique()
        .check();
    Laws::new("int_in(-1000i64..=-900)", int_in(-1000i64..=-900))
        .unique()
        .check();
    Laws::new("range(7u16..=7)", range(7u16..=7))
        .unique()
        .check();
    Laws::new(
        "int_in(i128::MIN..=i128::MAX)",
        int_in(i128::MIN..=i128::MAX),
    )
    .unique()
    .check();
    Laws::new("range(i128::MIN..=i128::MAX)", range(i128::MIN..=i128::MAX))
        .unique()
        .check();
    Laws::new("range(i128::MIN..=0)", range(i128::MIN..=0))
        .unique()
        .check();
}

#[test]
fn laws_of_u128_ranges_wider_than_i128() {
    let half = 1u128 << 127;
    Laws::new("range(0..=u128::MAX)", range(0..=u128::MAX))
        .unique()
        .check();
    Laws::new("int_in(0..=u128::MAX)", int_in(0..=u128::MAX))
        .unique()
        .check();
    Laws::new("range(1..=u128::MAX - 1)", range(1..=u128::MAX - 1))
        .unique()
        .check();
    Laws::new("int_in(5..=u128::MAX)", int_in(5..=u128::MAX))
        .unique()
        .check();
    Laws::new("range(2^126..=u128::MAX)", range(half / 2..=u128::MAX))
        .unique()
        .check();
    Laws::new("range(2^127 - 3..=2^127 + 3)", range(half - 3..=half + 3))
        .unique()
        .check();
    Laws::new("range(2^127..=u128::MAX)", range(half..=u128::MAX))
        .unique()
        .check();
}

#[test]
fn laws_of_bool_and_chars() {
    Laws::new("bool()", bool()).unique().check();
    Laws::new("char_range('a'..='z')", char_range('a'..='z'))
        .unique()
        .check();
    Laws::new(
        "char_range('\\0'..=char::MAX)",
        char_range('\0'..=char::MAX),
    )
    .unique()
    .check();
    Laws::new(
        "char_range around the surrogates",
        char_range('\u{D7F0}'..='\u{E00F}'),
    )
    .unique()
    .check();
    Laws::new("char_range('x'..='x')", char_range('x'..='x'))
        .unique()
        .check();
    // ASCII characters come from both branches of `any_char`: overlap 2.
    Laws::new("any_char()", any_char()).check();
}

#[test]
fn laws_of_strings() {
    // `string()` has overlap 2^k for k ASCII characters, so it is checked on short strings.
    Laws::new("string()", string()).sizes(&[0, 1, 5, 8]).check();
    Laws::new("string_of(a..=z, ..)", string_of(char_range('a'..='z'), ..))
        .unique()
        .check();
    Laws::new(
        "string_of(0..=9, 2..=4)",
        string_of(char_range('0'..='9'), 2..=4),
    )
    .unique()
    .check();
    Laws::new("string_of(any_char, 1..=3)", string_of(any_char(), 1..=3)).check();
}

#[test]
fn laws_of_vectors() {
    Laws::new("vec(bool, ..)", vec(bool(), ..)).unique().check();
    Laws::new("vec(range(0..=9), 0..=3)", vec(range(0u8..=9), 0..=3))
        .unique()
        .check();
    Laws::new("vec(int::<i16>, 1..=5)", vec(int::<i16>(), 1..=5))
        .unique()
        .check();
    Laws::new("vec(bool, 5..=10)", vec(bool(), 5..=10))
        .unique()
        .check();
    Laws::new("vec(range(0..=3), 3..=3)", vec(range(0u8..=3), 3..=3))
        .unique()
        .check();
    Laws::new("vec(bool, ..4)", vec(bool(), ..4))
        .unique()
        .check();
    Laws::new("vec(int_in(-50..=50), 2..)", vec(int_in(-50i32..=50), 2..))
        .unique()
        .check();
    Laws::new("vec(bool, 0..=0)", vec(bool(), 0..=0))
        .unique()
        .check();
}

/// Vectors of integers draw their elements in one loop when nothing is recorded: the laws
/// (among them, `generate_value` agreeing with `generate`) for ranges at every width's edges.
#[test]
fn laws_of_vectors_of_integers_of_every_width() {
    Laws::new("vec(int::<i8>)", vec(int::<i8>(), ..)).check();
    Laws::new("vec(int::<u8>)", vec(int::<u8>(), ..)).check();
    Laws::new("vec(int::<i32>)", vec(int::<i32>(), ..)).check();
    Laws::new("vec(int::<u32>)", vec(int::<u32>(), ..)).check();
    Laws::new("vec(int::<i64>)", vec(int::<i64>(), ..)).check();
    Laws::new("vec(int_in(-3..=-1))", vec(int_in(-3i16..=-1), ..)).check();
    Laws::new(
        "vec(range(u128::MAX - 300..=u128::MAX))",
        vec(range(u128::MAX - 300..=u128::MAX), ..),
    )
    .check();
    Laws::new(
        "vec(int_in(i128::MIN..=i128::MIN + 1000))",
        vec(int_in(i128::MIN..=i128::MIN + 1000), ..),
    )
    .check();
}

/// A collection whose elements draw no collection (integers, picks of them, tuples of them)
/// draws its elements without sharing its budget among them, in one go for integers, even under
/// a strategy that shares it: the same values, and the same choice trees, as when each element
/// is offered its share (an element behind `lazy`, which may take one, is), under every size
/// strategy, flat and nested.
#[test]
fn elements_that_take_no_share_are_drawn_as_the_ones_offered_one() {
    // The premise: `lazy` cannot tell without building its generator, so it is offered a share.
    {
        use reflective::Node;
        assert!(!lazy(int::<u8>).ignores_share() && int::<u8>().ignores_share());
    }
    fn same<T: PartialEq + std::fmt::Debug + 'static>(
        name: &str,
        in_one_go: Gen<T, T>,
        one_by_one: Gen<T, T>,
    ) {
        for strategy in Strategy::ALL {
            let (batched, single) = (
                (&in_one_go).size_strategy(strategy),
                (&one_by_one).size_strategy(strategy),
            );
            for (seed, size) in cases(name, 20, &[0, 1, 7, 30, 100]) {
                let rng = || DefaultRng::seed_from_u64(seed);
                let value = batched.generate_value(&mut rng(), size);
                assert_eq!(
                    value,
                    single.generate_value(&mut rng(), size),
                    "{name}, {strategy:?}, seed {seed}, size {size}"
                );
                let (recorded, alone) = (
                    batched.generate(&mut rng(), size),
                    single.generate(&mut rng(), size),
                );
                assert_eq!(recorded.value, value, "{name}, {strategy:?}, seed {seed}");
                assert_eq!(
                    recorded.tree, alone.tree,
                    "{name}, {strategy:?}, seed {seed}, size {size}"
                );
            }
        }
    }
    same(
        "vec(int::<u8>)",
        vec(int::<u8>(), ..).boxed(),
        vec(lazy(int::<u8>), ..).boxed(),
    );
    same(
        "vec(vec(range(0..=9)))",
        vec(vec(range(0u16..=9), ..), ..).boxed(),
        vec(vec(lazy(|| range(0u16..=9)), ..), ..).boxed(),
    );
    same(
        "(vec(i64), vec(vec(i8)))",
        tuple((vec(int::<i64>(), 1..), vec(vec(int::<i8>(), ..), ..))).boxed(),
        tuple((
            vec(lazy(int::<i64>), 1..),
            vec(vec(lazy(int::<i8>), ..), ..),
        ))
        .boxed(),
    );
    same(
        "vec(bool)",
        vec(bool(), ..).boxed(),
        vec(lazy(bool), ..).boxed(),
    );
    same(
        "vec(vec((u8, option(bool))))",
        vec(vec(tuple((int::<u8>(), option(bool()))), ..), ..).boxed(),
        vec(vec(lazy(|| tuple((int::<u8>(), option(bool())))), ..), ..).boxed(),
    );
    // Derived generators, held by the derive's cache.
    same(
        "vec(any::<(u8, Option<bool>)>)",
        vec(any::<(u8, Option<bool>)>(), ..).boxed(),
        vec(lazy(any::<(u8, Option<bool>)>), ..).boxed(),
    );
    same(
        "vec(any::<(bool, Vec<u8>)>)",
        vec(any::<(bool, Vec<u8>)>(), ..).boxed(),
        vec(lazy(any::<(bool, Vec<u8>)>), ..).boxed(),
    );
    // Elements that draw a collection take their share, behind a pick and a tuple too.
    same(
        "vec((bool, option(vec(u8))))",
        vec(tuple((bool(), option(vec(int::<u8>(), ..)))), ..).boxed(),
        vec(lazy(|| tuple((bool(), option(vec(int::<u8>(), ..))))), ..).boxed(),
    );
}

/// A fixed-length collection under a strategy that shares no budget, inside one that shares
/// its budget: its elements are offered no share, recorded or not, and the laws hold under
/// every strategy. (Before, when nothing was recorded, the outer collection's share leaked
/// into them, and `generate_value` differed from `generate` in most cases.)
#[test]
fn an_inner_collection_that_shares_nothing_obeys_the_laws() {
    for strategy in Strategy::ALL {
        let inner = vec(vec(int::<u8>(), ..), 2..=2).size_strategy(Strategy::Exponential);
        let laws = Laws::new(
            format!("vec(inner sharing nothing) under {strategy}"),
            vec(inner, ..).size_strategy(strategy),
        )
        .sizes(&[1, 5, 30, 100])
        .seeds(30);
        match strategy {
            Strategy::Partitions => laws.partitioned().check(),
            _ => laws.check(),
        }
    }
}

/// Over random generators of the core's combinators (collections of pairs, counted lists made
/// by `bind`, picks), under every size strategy: `generate_value` gives the value `generate`
/// gives, whichever way each collection draws its elements.
#[test]
fn random_generators_give_the_same_value_recorded_or_not() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(name_seed("recorded or not"));
    for _ in 0..1000 {
        let spec = specs.generate_value(&mut rng, 12);
        for strategy in Strategy::ALL {
            let g = build(&spec).size_strategy(strategy);
            for seed in 0..30 {
                for size in [0, 5, 20] {
                    let rng = || DefaultRng::seed_from_u64(seed);
                    assert_eq!(
                        g.generate_value(&mut rng(), size),
                        g.generate(&mut rng(), size).value,
                        "{spec:?}, {strategy:?}, seed {seed}, size {size}"
                    );
                }
            }
        }
    }
}

#[test]
fn laws_of_options_results_and_boxes() {
    Laws::new("option(range(0..=3))", option(range(0u8..=3)))
        .unique()
        .check();
    Laws::new("option(int::<i64>)", option(int::<i64>()))
        .unique()
        .check();
    Laws::new("option(vec(bool, 0..=2))", option(vec(bool(), 0..=2)))
        .unique()
        .check();
    Laws::new("option(option(bool))", option(option(bool())))
        .unique()
        .check();
    Laws::new("result(bool, range(0..=2))", result(bool(), range(0u8..=2)))
        .unique()
        .check();
    Laws::new(
        "result(int::<i32>, string_of(a..=c, ..))",
        result(int::<i32>(), string_of(char_range('a'..='c'), ..)),
    )
    .unique()
    .check();
    Laws::new("in_box(range(0..=9))", in_box(range(0u8..=9)))
        .unique()
        .check();
    Laws::new("in_box(in_box(int::<u64>))", in_box(in_box(int::<u64>())))
        .unique()
        .check();
}

#[test]
fn laws_of_tuples_of_every_arity() {
    let small = || range(0u8..=9);
    Laws::new("tuple 1", tuple((bool(),))).unique().check();
    Laws::new("tuple 2", tuple((bool(), small())))
        .unique()
        .check();
    Laws::new("tuple 3", tuple((bool(), small(), char_range('a'..='c'))))
        .unique()
        .check();
    Laws::new(
        "tuple 4",
        tuple((int::<i8>(), small(), bool(), option(bool()))),
    )
    .unique()
    .check();
    Laws::new(
        "tuple 5",
        tuple((bool(), small(), int::<u16>(), vec(bool(), 0..=2), bool())),
    )
    .unique()
    .check();
    Laws::new(
        "tuple 6",
        tuple((bool(), small(), small(), bool(), int::<i32>(), small())),
    )
    .unique()
    .check();
    Laws::new(
        "tuple 7",
        tuple((
            bool(),
            small(),
            small(),
            bool(),
            int::<i64>(),
            small(),
            string_of(char_range('a'..='b'), 0..=2),
        )),
    )
    .unique()
    .check();
    Laws::new(
        "tuple 8",
        tuple((
            bool(),
            small(),
            int::<u128>(),
            bool(),
            int::<i128>(),
            small(),
            char_range('a'..='z'),
            result(bool(), small()),
        )),
    )
    .unique()
    .check();
    Laws::new(
        "tuple 9",
        tuple((
            bool(),
            small(),
            int::<u8>(),
            bool(),
            small(),
            option(small()),
            small(),
            bool(),
            int::<i16>(),
        )),
    )
    .unique()
    .check();
    Laws::new(
        "tuple 10",
        tuple((
            small(),
            bool(),
            small(),
            small(),
            char_range('a'..='c'),
            bool(),
            small(),
            int::<u32>(),
            small(),
            vec(bool(), 0..=2),
        )),
    )
    .unique()
    .check();
    Laws::new(
        "tuple 11",
        tuple((
            bool(),
            bool(),
            small(),
            int::<i64>(),
            small(),
            bool(),
            small(),
            small(),
            option(bool()),
            small(),
            bool(),
        )),
    )
    .unique()
    .check();
    Laws::new(
        "tuple 12",
        tuple((
            small(),
            bool(),
            char_range('a'..='z'),
            int::<i16>(),
            int::<u32>(),
            string_of(char_range('a'..='b'), 0..=2),
            vec(small(), 0..=3),
            option(small()),
            int::<i64>(),
            int::<u16>(),
            bool(),
            small(),
        )),
    )
    .unique()
    .check();
}

/// The twelve-tuple of mixed types, the longest tuple std and proptest implement their traits
/// for, by its `Reflective` impl: every sampled value can be generated, and replaying each of
/// its choice trees gives it back.
#[test]
fn any_twelve_tuple_reflects_and_replays_its_samples() {
    let g = any::<Twelve>();
    for seed in 0..200 {
        let value = g.sample(seed);
        assert!(g.can_generate(&value), "seed {seed}: {value:?}");
        let choices = g.choices(&value);
        assert!(!choices.is_empty(), "seed {seed}: no choices for {value:?}");
        for tree in &choices {
            assert_eq!(g.replay(tree).as_ref(), Some(&value), "seed {seed}: {tree}");
        }
    }
}

#[test]
fn laws_of_arrays() {
    Laws::new("array::<u8, 0>", array::<u8, 0>(int()))
        .unique()
        .check();
    Laws::new("array::<bool, 1>", array::<bool, 1>(bool()))
        .unique()
        .check();
    Laws::new("array::<i16, 5>", array::<i16, 5>(int()))
        .unique()
        .check();
    Laws::new("array::<char, 3>", array::<char, 3>(char_range('a'..='z')))
        .unique()
        .check();
}

#[test]
fn laws_of_sets_and_maps() {
    // Reflection visits a set's elements in its iteration order, generation in the order it
    // drew them (retrying duplicates): the recorded tree need not be among the reflected ones.
    Laws::new("btree_set(range(0..=9), ..)", btree_set(range(0u8..=9), ..))
        .unordered()
        .check();
    // At size 0 too, where a biased integer is almost always 0 (see
    // `sets_of_biased_integers_generate_at_size_0`).
    Laws::new(
        "btree_set(int::<i32>, 2..=5)",
        btree_set(int::<i32>(), 2..=5),
    )
    .sizes(&[0, 1, 5, 30, 100])
    .unordered()
    .check();
    Laws::new(
        "hash_set(range(0..=1000), 0..=8)",
        hash_set(range(0u16..=1000), 0..=8),
    )
    .unordered()
    .check();
    Laws::new(
        "btree_map(range(0..=9), bool, ..)",
        btree_map(range(0u8..=9), bool(), ..),
    )
    .unordered()
    .check();
    Laws::new(
        "hash_map(a..=z, int::<u8>, 1..=4)",
        hash_map(char_range('a'..='z'), int::<u8>(), 1..=4),
    )
    .unordered()
    .check();
}

// ---------------------------------------------------------------------------------------------
// The laws over the composite generators of the catalogue.

#[test]
fn laws_of_binary_search_trees() {
    Laws::new("bst(1, 10)", bst(1, 10)).unique().check();
    // Not sized: a tree over a wide range has hundreds of nodes, and its probability underflows.
    Laws::new("bst(-40, 40)", bst(-40, 40)).unique().check();
    Laws::new("bst_family(1, 10)", bst_family(1, 10))
        .unique()
        .check();
    Laws::new("bst_memoized(1, 10)", bst_memoized(1, 10))
        .unique()
        .check();
}

/// A memoized family makes what the family with the same definition makes: the same values
/// from the same seeds at every size, the same choices and probabilities backward, whatever
/// the range and however often its members were built before.
#[test]
fn a_memoized_family_makes_the_same_choices_as_the_family() {
    for (lo, hi) in [(1, 4), (-3, 3), (0, 0), (5, 4), (-20, 20)] {
        let (family, memoized) = (bst_family(lo, hi), bst_memoized(lo, hi));
        for round in 0..2 {
            for seed in 0..100 {
                let size = (seed as usize * 7) % 101;
                let mut a = DefaultRng::seed_from_u64(seed);
                let mut b = DefaultRng::seed_from_u64(seed);
                let (x, y) = (
                    family.generate(&mut a, size),
                    memoized.generate(&mut b, size),
                );
                assert_eq!(x.value, y.value, "{lo}..={hi}, seed {seed}, round {round}");
                assert_eq!(
                    x.tree.choices(),
                    y.tree.choices(),
                    "{lo}..={hi}, seed {seed}"
                );
                assert_eq!(memoized.choices(&x.value), family.choices(&x.value));
            }
        }
    }
    // One family for every tree, so that later trees meet members kept for earlier ones.
    let (family, memoized) = (bst_family(1, 4), bst_memoized(1, 4));
    for tree in all_bsts(1, 4) {
        assert_eq!(
            memoized.probability_of(&tree),
            family.probability_of(&tree),
            "{tree:?}"
        );
    }
    assert!(!bst_memoized(1, 4).can_generate(&Tree::node(Tree::Leaf, 5, Tree::Leaf)));
}

#[test]
fn a_family_makes_the_same_choices_as_the_recursive_function() {
    let (function, family) = (bst(1, 4), bst_family(1, 4));
    for tree in all_bsts(1, 4) {
        assert_eq!(family.choices(&tree), function.choices(&tree), "{tree:?}");
        assert_eq!(
            family.probability_of(&tree),
            function.probability_of(&tree),
            "{tree:?}"
        );
    }
    for seed in 0..200 {
        assert_eq!(family.sample(seed), function.sample(seed), "seed {seed}");
    }
    assert!(!family.can_generate(&Tree::node(Tree::Leaf, 5, Tree::Leaf)));
}

#[test]
fn laws_of_well_typed_terms() {
    Laws::new("stlc::well_typed()", well_typed())
        .unique()
        .check();
}

#[test]
fn laws_of_nested_collections() {
    Laws::new("Vec<Vec<u8>>", vec_of_vecs()).unique().check();
    Laws::new("Option<Vec<(bool, char)>>", optional_pairs())
        .unique()
        .check();
    Laws::new("BTreeMap<u8, Vec<bool>>", flag_map())
        .unordered()
        .check();
}

#[test]
fn laws_of_recursive_naturals() {
    Laws::new("nat via recursive", nat_recursive())
        .unique()
        .check();
    Laws::new("nat via lazy", nat_lazy()).unique().check();
    // gE: many ways per value, each of which must reproduce it.
    Laws::new("gE (exponential overlap)", nat_exponential()).check();
}

/// Lists made by recursive generators built while the run goes: level `level` ends the list
/// with copies of `level`, after what a freshly built generator of the next level made.
fn levels(level: u8) -> Gen<Vec<u8>, Vec<u8>> {
    recursive(move |more: Gen<Vec<u8>, Vec<u8>>| {
        let next = if level < 6 {
            lazy(move || levels(level + 1)).boxed()
        } else {
            exact(Vec::new()).boxed()
        };
        pick((
            (
                1,
                "next",
                next.comap(move |v: &Vec<u8>| (v.last() != Some(&level)).then(|| v.clone())),
            ),
            (
                1,
                "more",
                more.comap(move |v: &Vec<u8>| {
                    (v.last() == Some(&level)).then(|| v[..v.len() - 1].to_vec())
                })
                .map(move |mut v| {
                    v.push(level);
                    v
                }),
            ),
        ))
    })
}

#[test]
fn recursive_generators_built_during_a_run_each_run_their_own_definition() {
    // The two lists' generators are built, run and dropped one after the other in each run, so
    // the second may be built where the first was: each must still run its own definition.
    let g = zip(
        lazy(|| levels(1)).focus(|pair: &(Vec<u8>, Vec<u8>)| Some(&pair.0)),
        lazy(|| levels(4)).focus(|pair: &(Vec<u8>, Vec<u8>)| Some(&pair.1)),
    );
    let descending =
        |v: &[u8], from: u8| v.is_sorted_by(|a, b| a >= b) && v.iter().all(|&x| x >= from);
    let mut rng = DefaultRng::seed_from_u64(5);
    for _ in 0..2_000 {
        let generated = g.generate(&mut rng, DEFAULT_SIZE);
        let (first, second) = &generated.value;
        assert!(
            descending(first, 1) && descending(second, 4),
            "{first:?} {second:?}"
        );
        assert_eq!(g.replay(&generated.tree), Some(generated.value.clone()));
        assert!(g.can_generate(&generated.value), "{:?}", generated.value);
    }
    Laws::new("levels(0)", levels(0)).check();
}

#[test]
fn laws_of_sized_trees() {
    Laws::new("sized_tree(0, 9)", sized_tree(0, 9))
        .unique()
        .check();
}

#[test]
fn laws_of_tokens() {
    Laws::new("token()", token()).unique().check();
    Laws::new("tokens()", tokens()).unique().check();
}

#[test]
fn laws_of_dependent_sorted_and_bounded_lists() {
    Laws::new(
        "dependent_vec(5, range(0..=9))",
        dependent_vec(5, range(0u8..=9)),
    )
    .unique()
    .check();
    Laws::new("bounded_pair(10)", bounded_pair(10))
        .unique()
        .check();
    Laws::new("sorted_list()", sorted_list()).unique().check();
    Laws::new("person()", person()).unique().check();
}

// ---------------------------------------------------------------------------------------------
// External soundness and completeness: the generators against independent oracles.

/// Draws `count` values from `g` at `size`, seeded by `name`.
fn draw<T: 'static>(name: &str, g: &Gen<T, T>, size: usize, count: usize) -> Vec<T> {
    let mut rng = DefaultRng::seed_from_u64(name_seed(name));
    (0..count)
        .map(|_| g.generate_value(&mut rng, size))
        .collect()
}

#[test]
fn binary_search_trees_are_exactly_the_valid_trees() {
    let g = bst(1, 10);
    for tree in draw("bst", &g, 100, 300) {
        assert!(
            is_bst(&tree, 1, 10),
            "bst(1, 10) generated an invalid {tree:?}"
        );
    }
    // Arbitrary trees with keys in 0..=11: valid ones reflect, the others do not.
    let (mut valid, mut invalid) = (0, 0);
    for tree in draw("any tree", &sized_tree(0, 11), 6, 600) {
        let expected = is_bst(&tree, 1, 10);
        assert_eq!(
            g.can_generate(&tree),
            expected,
            "bst(1, 10).can_generate disagrees with is_bst on {tree:?}"
        );
        if expected { valid += 1 } else { invalid += 1 }
    }
    assert!(
        valid >= 50 && invalid >= 50,
        "{valid} valid, {invalid} invalid trees"
    );
}

#[test]
fn well_typed_terms_are_exactly_the_terms_in_scope() {
    let g = well_typed();
    for size in [0, 1, 5, 30, 100] {
        for term in draw("well typed", &g, size, 100) {
            assert!(type_of(&[], &term).is_some(), "ill-typed {term:?}");
            assert!(
                in_scope(&term, size),
                "out of scope at size {size}: {term:?}"
            );
        }
    }
    let (mut valid, mut invalid) = (0, 0);
    for term in draw("any term", &any_term(3), 100, 1500) {
        let expected = in_scope(&term, DEFAULT_SIZE);
        assert_eq!(
            g.can_generate(&term),
            expected,
            "well_typed().can_generate disagrees with in_scope on {term:?}"
        );
        if expected { valid += 1 } else { invalid += 1 }
    }
    assert!(
        valid >= 50 && invalid >= 50,
        "{valid} valid, {invalid} invalid terms"
    );
    // A hand-written term: (\x: Int. x + 1) 41, and the same applied to a function.
    let inc = Term::lam(Type::Int, Term::plus(Term::Var(0), Term::Lit(1)));
    assert!(g.can_generate(&Term::app(inc.clone(), Term::Lit(41))));
    assert!(!g.can_generate(&Term::app(inc.clone(), inc)));
    assert!(!g.can_generate(&Term::Var(0)), "a free variable");
    let deep = Type::fun(
        Type::fun(Type::fun(Type::Int, Type::Int), Type::Int),
        Type::Int,
    );
    assert!(deep.depth() > stlc::TYPE_DEPTH);
    assert!(
        !g.can_generate(&Term::lam(deep, Term::Lit(0))),
        "type too deep"
    );
}

#[test]
fn sorted_lists_are_exactly_the_sorted_lists() {
    let g = sorted_list();
    for list in draw("sorted", &g, 100, 300) {
        assert!(is_sorted(&list), "unsorted {list:?}");
    }
    let (mut sorted, mut unsorted) = (0, 0);
    let lists = draw("short lists", &vec(range(0u8..=5), 0..=4), 100, 600);
    for list in lists {
        let expected = is_sorted(&list);
        assert_eq!(g.can_generate(&list), expected, "on {list:?}");
        if expected { sorted += 1 } else { unsorted += 1 }
    }
    assert!(
        sorted >= 50 && unsorted >= 50,
        "{sorted} sorted, {unsorted} unsorted"
    );
}

#[test]
fn bounded_pairs_are_exactly_the_pairs_in_bounds() {
    let g = bounded_pair(10);
    for x in 0..=20u8 {
        for y in 0..=20u8 {
            assert_eq!(g.can_generate(&(x, y)), x + y <= 10, "on ({x}, {y})");
        }
    }
}

#[test]
fn exponential_overlap_has_fibonacci_many_ways_and_the_right_probability() {
    let g = nat_exponential();
    for n in 0..=15 {
        let nat = Nat::new(n);
        let ways = g.choices(&nat);
        assert_eq!(ways.len() as u64, fib(n + 1), "ways to produce {n}");
        let distinct: BTreeSet<String> = ways.iter().map(ToString::to_string).collect();
        assert_eq!(
            distinct.len(),
            ways.len(),
            "the ways to produce {n} are distinct"
        );
        for tree in &ways {
            assert_eq!(g.replay(tree), Some(Nat::new(n)));
        }
    }
    for n in 0..=20 {
        let p = g.probability_of(&Nat::new(n));
        let expected = exponential_probability(n);
        assert!(
            (p - expected).abs() <= 1e-12 * expected,
            "P({n}) = {p}, not {expected}"
        );
    }
    // The paper's counts: 5 ways for 4, 89 for 10.
    assert_eq!(g.choices(&Nat::new(4)).len(), 5);
    assert_eq!(g.reflect(&Nat::new(10)).len(), 89);
}

#[test]
fn recursive_and_lazy_naturals_agree_with_the_closed_form() {
    let (tied, built) = (nat_recursive(), nat_lazy());
    let mut total = 0.0;
    for n in 0..=40 {
        let nat = Nat::new(n);
        let p = tied.probability_of(&nat);
        let expected = 2.0 / 3.0 * (1.0f64 / 3.0).powi(n as i32);
        assert!(
            (p - expected).abs() <= 1e-12 * expected,
            "P({n}) = {p}, not {expected}"
        );
        assert_eq!(
            built.probability_of(&nat),
            p,
            "lazy and recursive differ at {n}"
        );
        assert_eq!(
            built.choices(&nat),
            tied.choices(&nat),
            "choices differ at {n}"
        );
        let labels: Vec<String> = tied.reflect(&nat)[0]
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut expected_labels = vec!["S".to_string(); n as usize];
        expected_labels.push("Z".to_string());
        assert_eq!(labels, expected_labels);
        total += p;
    }
    assert!((total - 1.0).abs() < 1e-9, "sum over 0..=40 is {total}");
}

#[test]
fn choice_trees_of_the_crate_docs_example() {
    let g = bst(1, 10);
    let typed = Tree::node(Tree::Leaf, 5, Tree::node(Tree::Leaf, 7, Tree::Leaf));
    let labels: Vec<String> = g.reflect(&typed)[0]
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(labels, ["node", "leaf", "node", "leaf", "leaf"]);
    let tree = g.choices(&typed).remove(0);
    assert_eq!(tree.to_string(), "(node 5 (leaf) (node 7 (leaf) (leaf)))");
    assert_eq!(g.replay(&tree), Some(typed));
}

// ---------------------------------------------------------------------------------------------
// Probabilities over a finite support sum to 1.

/// Every vector of booleans of length at most `max`.
fn bool_vectors(max: usize) -> Vec<Vec<bool>> {
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..max {
        last = last
            .iter()
            .flat_map(|v: &Vec<bool>| {
                [false, true].map(|b| {
                    let mut longer = v.clone();
                    longer.push(b);
                    longer
                })
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

#[test]
fn probabilities_of_biased_integers_sum_to_one() {
    let bytes: Vec<u8> = (0..=u8::MAX).collect();
    let signed: Vec<i8> = (i8::MIN..=i8::MAX).collect();
    for size in [0, 1, 5, 30, 100, 1000] {
        assert_sums_to_one("int::<u8>()", &int::<u8>(), size, &bytes);
        assert_sums_to_one("int::<i8>()", &int::<i8>(), size, &signed);
        assert_sums_to_one(
            "int_in(-3i8..=7)",
            &int_in(-3i8..=7),
            size,
            &(-3..=7).collect::<Vec<i8>>(),
        );
        assert_sums_to_one(
            "int_in(200u8..=255)",
            &int_in(200u8..=255),
            size,
            &bytes[200..],
        );
    }
}

#[test]
fn probabilities_of_uniform_choices_sum_to_one() {
    for size in [0, 1, 100] {
        assert_sums_to_one(
            "range(0..=9)",
            &range(0u8..=9),
            size,
            &(0..=9).collect::<Vec<u8>>(),
        );
        assert_sums_to_one(
            "range(-128i8..=127)",
            &range(i8::MIN..=i8::MAX),
            size,
            &(i8::MIN..=i8::MAX).collect::<Vec<_>>(),
        );
        assert_sums_to_one("bool()", &bool(), size, &[false, true]);
        assert_sums_to_one(
            "char_range('a'..='e')",
            &char_range('a'..='e'),
            size,
            &['a', 'b', 'c', 'd', 'e'],
        );
    }
    for &value in &[0u8, 3, 9] {
        assert!((range(0u8..=9).probability_of(&value) - 0.1).abs() < 1e-12);
    }
}

#[test]
fn probabilities_of_wrappers_and_tuples_sum_to_one() {
    let small: Vec<Option<u8>> = std::iter::once(None).chain((0..=3).map(Some)).collect();
    assert_sums_to_one("option(range(0..=3))", &option(range(0u8..=3)), 100, &small);
    let results: Vec<Result<bool, u8>> = [Ok(false), Ok(true), Err(0), Err(1), Err(2)]
        .into_iter()
        .collect();
    assert_sums_to_one(
        "result(bool, range(0..=2))",
        &result(bool(), range(0u8..=2)),
        100,
        &results,
    );
    let pairs: Vec<(bool, u8)> = [false, true]
        .into_iter()
        .flat_map(|b| (0..=2).map(move |n| (b, n)))
        .collect();
    assert_sums_to_one(
        "tuple((bool, range(0..=2)))",
        &tuple((bool(), range(0u8..=2))),
        100,
        &pairs,
    );
    let arrays = [[false, false], [false, true], [true, false], [true, true]];
    assert_sums_to_one("array::<bool, 2>", &array::<bool, 2>(bool()), 100, &arrays);
    assert_sums_to_one(
        "in_box(bool)",
        &in_box(bool()),
        100,
        &[Box::new(false), Box::new(true)],
    );
}

#[test]
fn probabilities_of_collections_sum_to_one() {
    // At size 3 every length 0..=3 is possible: 15 vectors.
    let up_to_3 = bool_vectors(3);
    assert_eq!(up_to_3.len(), 15);
    assert_sums_to_one("vec(bool, 0..=3)", &vec(bool(), 0..=3), 3, &up_to_3);
    assert_sums_to_one("vec(bool, 0..=3)", &vec(bool(), 0..=3), 100, &up_to_3);
    // At size 2 the length is at most 2.
    assert_sums_to_one("vec(bool, ..)", &vec(bool(), ..), 2, &bool_vectors(2));
    assert_sums_to_one("vec(bool, ..)", &vec(bool(), ..), 0, &bool_vectors(0));
    let strings: Vec<String> = ["", "a", "b", "aa", "ab", "ba", "bb"]
        .map(String::from)
        .into();
    assert_sums_to_one(
        "string_of(a..=b, 0..=2)",
        &string_of(char_range('a'..='b'), 0..=2),
        2,
        &strings,
    );
    assert_sums_to_one(
        "dependent_vec(3, bool)",
        &dependent_vec(3, bool()),
        100,
        &up_to_3,
    );
    assert_sums_to_one(
        "dependent_vec(3, bool) at size 0",
        &dependent_vec(3, bool()),
        0,
        &up_to_3,
    );
}

#[test]
fn probabilities_of_composite_generators_sum_to_one() {
    for hi in 1..=4 {
        assert_sums_to_one(&format!("bst(1, {hi})"), &bst(1, hi), 100, &all_bsts(1, hi));
    }
    assert_eq!(all_bsts(1, 4).len(), 51);
    for size in [0, 1, 2, 3] {
        let trees = all_sized_trees(0, 2, size);
        assert_sums_to_one(
            &format!("sized_tree(0, 2) at {size}"),
            &sized_tree(0, 2),
            size,
            &trees,
        );
    }
    let pairs: Vec<(u8, u8)> = (0..=10u8)
        .flat_map(|x| (0..=10 - x).map(move |y| (x, y)))
        .collect();
    assert_eq!(pairs.len(), 66);
    assert_sums_to_one("bounded_pair(10)", &bounded_pair(10), 100, &pairs);
}

// ---------------------------------------------------------------------------------------------
// Probabilities agree with sampled frequencies.

const SAMPLES: usize = 20_000;

#[test]
fn frequencies_of_integers_match_their_probabilities() {
    let bytes: Vec<u8> = (0..=u8::MAX).collect();
    assert_frequencies_match("int::<u8>()", &int::<u8>(), 5, &bytes, SAMPLES);
    assert_frequencies_match("int::<u8>() at 100", &int::<u8>(), 100, &bytes, SAMPLES);
    let small: Vec<i8> = (-4..=9).collect();
    assert_frequencies_match("int_in(-4i8..=9)", &int_in(-4i8..=9), 3, &small, SAMPLES);
}

#[test]
fn frequencies_of_collections_and_trees_match_their_probabilities() {
    assert_frequencies_match(
        "vec(bool, 0..=3)",
        &vec(bool(), 0..=3),
        3,
        &bool_vectors(3),
        SAMPLES,
    );
    let small: Vec<Option<u8>> = std::iter::once(None).chain((0..=3).map(Some)).collect();
    assert_frequencies_match(
        "option(range(0..=3))",
        &option(range(0u8..=3)),
        100,
        &small,
        SAMPLES,
    );
    assert_frequencies_match("bst(1, 3)", &bst(1, 3), 100, &all_bsts(1, 3), SAMPLES);
    assert_frequencies_match(
        "sized_tree(0, 2)",
        &sized_tree(0, 2),
        2,
        &all_sized_trees(0, 2, 2),
        SAMPLES,
    );
}

#[test]
fn frequencies_of_overlapping_generators_match_their_probabilities() {
    // Several ways per value, which the probability sums. The support is infinite and the
    // ways grow exponentially: compare the counts of 0..=12 only.
    let g = nat_exponential();
    let mut counts = [0usize; 13];
    let mut rng = DefaultRng::seed_from_u64(name_seed("gE"));
    for _ in 0..SAMPLES {
        if let Some(count) = counts.get_mut(g.generate_value(&mut rng, 100).value() as usize) {
            *count += 1;
        }
    }
    for (n, &count) in counts.iter().enumerate() {
        let p = g.probability_of(&Nat::new(n as u64));
        let expected = p * SAMPLES as f64;
        let tolerance = 5.0 * (expected * (1.0 - p)).sqrt() + 5.0;
        assert!(
            (count as f64 - expected).abs() <= tolerance,
            "gE: {n} came up {count} times, expected {expected:.1} ± {tolerance:.1}"
        );
    }
    let tokens_support: Vec<Token> = reflective_tests::catalogue::tokens::OPERATORS
        .map(Token::Op)
        .into_iter()
        .chain([Token::Space])
        .collect();
    // Only part of the support of `token()` is enumerable: check the operators and the space,
    // and that their total matches.
    let g = token();
    let mut counts: BTreeMap<Token, usize> = BTreeMap::new();
    let mut rng = DefaultRng::seed_from_u64(name_seed("tokens"));
    for _ in 0..SAMPLES {
        *counts.entry(g.generate_value(&mut rng, 100)).or_default() += 1;
    }
    for t in &tokens_support {
        let p = g.probability_of(t);
        let expected = p * SAMPLES as f64;
        let observed = counts.get(t).copied().unwrap_or(0) as f64;
        let tolerance = 5.0 * (expected * (1.0 - p)).sqrt() + 5.0;
        assert!(
            (observed - expected).abs() <= tolerance,
            "{t:?}: {observed} vs {expected}"
        );
    }
    assert!((g.probability_of(&Token::Op('+')) - 0.3 / 4.0).abs() < 1e-12);
    assert!((g.probability_of(&Token::Space) - 0.1).abs() < 1e-12);
}

// ---------------------------------------------------------------------------------------------
// The library drives its own tests: the cases themselves are generated.

#[test]
fn generated_test_cases_are_distinct_and_cover_every_size() {
    let sizes = [0, 1, 5, 30, 100];
    let drawn = cases("any", 200, &sizes);
    assert_eq!(drawn.len(), 200 * 6);
    let seeds: BTreeSet<u64> = drawn.iter().map(|&(seed, _)| seed).collect();
    assert_eq!(seeds.len(), 200, "seeds are distinct");
    for size in sizes {
        assert!(
            drawn.iter().filter(|&&(_, s)| s == size).count() >= 200,
            "size {size}"
        );
    }
    let other_sizes: BTreeSet<usize> = drawn
        .iter()
        .map(|&(_, s)| s)
        .filter(|s| !sizes.contains(s))
        .collect();
    assert!(other_sizes.len() >= 50, "drawn sizes: {other_sizes:?}");
    assert!(drawn.iter().all(|&(_, s)| s <= 100));
    assert_eq!(drawn, cases("any", 200, &sizes), "reproducible");
    assert_ne!(drawn, cases("other", 200, &sizes), "seeded by name");
}

// ---------------------------------------------------------------------------------------------
// Known bugs: failing tests, ignored until the library is fixed.

/// Every subset of `0..=max`.
fn subsets(max: u8) -> Vec<BTreeSet<u8>> {
    (0..1u32 << (max + 1))
        .map(|mask| (0..=max).filter(|i| mask & (1 << i) != 0).collect())
        .collect()
}

#[test]
#[ignore = "known limitation, documented on btree_set: probability_of a set counts only the sorted drawing order"]
fn probabilities_of_sets_sum_to_one() {
    let all = subsets(2);
    assert_eq!(all.len(), 8);
    assert_sums_to_one(
        "btree_set(range(0..=2), ..)",
        &btree_set(range(0u8..=2), ..),
        3,
        &all,
    );
}

#[test]
#[ignore = "known limitation, documented on btree_set: probability_of a set counts only the sorted drawing order"]
fn frequencies_of_sets_match_their_probabilities() {
    let g = btree_set(range(0u8..=2), ..);
    assert_frequencies_match("btree_set(range(0..=2), ..)", &g, 3, &subsets(2), SAMPLES);
}

#[test]
fn wide_u128_ranges_are_uniform() {
    // 2^126..=u128::MAX: the lower half 2^126..2^126 + 2^127 has twice as many values as the
    // upper half, but each half has probability 1/2.
    let lo = 1u128 << 126;
    let g = range(lo..=u128::MAX);
    assert_eq!(g.probability_of(&lo), g.probability_of(&u128::MAX));
    // A third of the range lies at or above 2^127 + 2^126, so uniform sampling puts a third of
    // the values there (the split puts half).
    let upper = 1u128 << 127 | lo;
    let mut rng = DefaultRng::seed_from_u64(name_seed("wide u128"));
    let hits = (0..SAMPLES)
        .filter(|_| g.generate_value(&mut rng, 100) >= upper)
        .count() as f64;
    let expected = SAMPLES as f64 / 3.0;
    let tolerance = 5.0 * (SAMPLES as f64 * (1.0 / 3.0) * (2.0 / 3.0)).sqrt();
    assert!(
        (hits - expected).abs() <= tolerance,
        "{hits} of {SAMPLES} in the upper third, expected {expected:.0} ± {tolerance:.0}"
    );
}

#[test]
fn sets_of_biased_integers_generate_at_size_0() {
    // At size 0, int::<i32>() draws 0 with probability 62/70, so ten redraws after a first 0
    // all gave 0 again about 30% of the time, though the type has 2^32 values. A set of at
    // least 10 `u8`s at size 0 failed for one seed in ten while redraws stayed at size 0.
    fn failing_seeds<T: Clone + 'static>(g: &Gen<T, T>) -> Vec<u64> {
        (0..200)
            .filter(|&seed| {
                g.try_generate(&mut DefaultRng::seed_from_u64(seed), 0)
                    .is_err()
            })
            .collect()
    }
    let failures = [
        failing_seeds(&btree_set(int::<i32>(), 2..=5)),
        failing_seeds(&btree_set(int::<u8>(), 10..=40)),
    ];
    assert!(
        failures.iter().all(Vec::is_empty),
        "seeds that fail, for `i32`s and for `u8`s: {failures:?}"
    );
}

/// A random source that counts the words it gives.
struct CountedWords {
    rng: DefaultRng,
    words: u64,
}

impl reflective::rand_core::TryRng for CountedWords {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.words += 1;
        self.rng.try_next_u32()
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.words += 1;
        self.rng.try_next_u64()
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.words += 1;
        self.rng.try_fill_bytes(dst)
    }
}

/// Sets and maps of integers whose elements run at a small share of the size draw a new
/// element in a few tries: a redraw of a repeat draws from a wider distribution. Before, the
/// share's few small values were soon taken, and each new element took dozens to hundreds of
/// draws (a `BTreeSet<u8>` of about 50 elements at size 100: 118 words per element; a
/// `BTreeMap<u8, Vec<Option<bool>>>`: 610). Over cases drawn by the library itself (the
/// collection, a size up to 200, a seed), the mean words per element of each collection stay
/// below a small bound; sets of integers take at most two words per draw, maps also draw the
/// value.
#[test]
fn sets_and_maps_of_integers_draw_a_few_words_per_element() {
    type Draw = fn(&mut CountedWords, usize) -> usize;
    let collections: [(&str, Draw, f64); 5] = [
        (
            "BTreeSet<u8>",
            |rng, size| {
                BTreeSet::<u8>::arbitrary_reflective()
                    .generate_value(rng, size)
                    .len()
            },
            6.0,
        ),
        (
            "BTreeSet<i64>",
            |rng, size| {
                BTreeSet::<i64>::arbitrary_reflective()
                    .generate_value(rng, size)
                    .len()
            },
            10.0,
        ),
        (
            "HashSet<i16>",
            |rng, size| {
                std::collections::HashSet::<i16>::arbitrary_reflective()
                    .generate_value(rng, size)
                    .len()
            },
            10.0,
        ),
        (
            "BTreeMap<u8, bool>",
            |rng, size| {
                BTreeMap::<u8, bool>::arbitrary_reflective()
                    .generate_value(rng, size)
                    .len()
            },
            10.0,
        ),
        (
            "BTreeMap<u16, Vec<Option<bool>>>",
            |rng, size| {
                BTreeMap::<u16, Vec<Option<bool>>>::arbitrary_reflective()
                    .generate_value(rng, size)
                    .len()
            },
            30.0,
        ),
    ];
    let cases = vec(
        tuple((
            range(0..=collections.len() - 1),
            range(0usize..=200),
            int::<u64>(),
        )),
        400..=400,
    )
    .sample(29);
    let mut totals = [(0u64, 0usize); 5];
    for (which, size, seed) in cases {
        let mut rng = CountedWords {
            rng: DefaultRng::seed_from_u64(seed),
            words: 0,
        };
        let elements = (collections[which].1)(&mut rng, size);
        totals[which].0 += rng.words;
        totals[which].1 += elements;
    }
    for ((name, _, bound), (words, elements)) in collections.iter().zip(totals) {
        assert!(elements > 1_000, "{name}: only {elements} elements drawn");
        let per_element = words as f64 / elements as f64;
        assert!(
            per_element <= *bound,
            "{name}: {per_element:.1} words per element, more than {bound}"
        );
    }
}

/// The redraws of a set widen their own integers only: the first draw of each element is the
/// one a vector would make; an integer drawn after a set that redrew keeps its distribution;
/// the vectors inside a map's values keep their share of the size.
#[test]
fn a_redraw_widens_only_its_own_integers() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    // Elements made distinct by a counter, so that a set never redraws: it draws what a vector
    // draws, element by element, though its elements run at a share of 1.
    let counter = Arc::new(AtomicU64::new(0));
    let numbered = int::<u16>()
        .comap(|&(_, value): &(u64, u16)| Some(value))
        .map(move |value| (counter.fetch_add(1, Ordering::Relaxed), value))
        .boxed();
    let set = btree_set(numbered.clone(), 40..=40);
    let list = vec(numbered, 40..=40);
    for seed in 0..50 {
        let values = |numbered: Vec<(u64, u16)>| -> Vec<u16> {
            let mut values: Vec<_> = numbered.into_iter().map(|(_, value)| value).collect();
            values.sort_unstable();
            values
        };
        let from_set = set.generate_value(&mut DefaultRng::seed_from_u64(seed), 40);
        let from_list = list.generate_value(&mut DefaultRng::seed_from_u64(seed), 40);
        assert_eq!(
            values(from_set.into_iter().collect()),
            values(from_list),
            "seed {seed}"
        );
    }
    // An integer after a set of ten `u8`s at size 10, which redraws (its elements run at size
    // 1): at size 10, 4.5% of `int::<u8>()` is spread over the whole range, so about 4.3% of
    // the values are in 11..=254; a widening left behind by the set would spread far more.
    let after = tuple((btree_set(int::<u8>(), 10..=10), int::<u8>()));
    let wide = (0..2_000)
        .filter(|&seed| {
            let (_, next) = after.generate_value(&mut DefaultRng::seed_from_u64(seed), 10);
            (11..=254).contains(&next)
        })
        .count();
    assert!(
        wide < 200,
        "{wide} of 2000 integers after a set in 11..=254"
    );
    // The vectors in a map's values share the map's size, redraws or not.
    let map = btree_map(int::<u8>(), vec(bool(), ..), ..);
    for seed in 0..500 {
        let value = map.generate_value(&mut DefaultRng::seed_from_u64(seed), 30);
        let parts: usize = value.values().map(Vec::len).sum();
        assert!(
            parts <= 30,
            "seed {seed}: {parts} bits in the values at size 30"
        );
    }
    // Every element runs at its share of the size, redrawn or not (40 elements at size 40:
    // 1), though its `u16` repeats often there.
    let sized_elements = sized(|size| {
        int::<u16>()
            .comap(|&(_, value): &(usize, u16)| Some(value))
            .map(move |value| (size, value))
    });
    let set = btree_set(sized_elements, 40..=40);
    for seed in 0..50 {
        let value = set.generate_value(&mut DefaultRng::seed_from_u64(seed), 40);
        let sizes: BTreeSet<usize> = value.iter().map(|&(size, _)| size).collect();
        assert_eq!(
            sizes,
            BTreeSet::from([1]),
            "seed {seed}: elements ran at these sizes"
        );
    }
}

/// The mean number of times `elements` runs per element of the sets `set_of(elements)`
/// generates at `size` from the seeds 0 to 199, with how many values failed to generate.
fn element_runs_per_element<T, S>(
    elements: Gen<T, T>,
    set_of: impl Fn(Gen<T, T>) -> Gen<S, S>,
    len: impl Fn(&S) -> usize,
    size: usize,
) -> (f64, usize)
where
    T: Clone + Send + Sync + 'static,
    S: Clone + 'static,
{
    let runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = {
        let runs = runs.clone();
        elements.map(move |x| {
            runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            x
        })
    };
    let g = set_of(counted.boxed());
    let (mut made, mut failed) = (0, 0);
    for seed in 0..200 {
        match g.try_generate(&mut DefaultRng::seed_from_u64(seed), size) {
            Ok(generated) => made += len(&generated.value),
            Err(_) => failed += 1,
        }
    }
    let runs = runs.load(std::sync::atomic::Ordering::Relaxed);
    (runs as f64 / made.max(1) as f64, failed)
}

/// A set stops redrawing an element whose draws give a few values already drawn, once it has
/// its minimum length: a string at a share of 0 is always empty, a `bool` is one of two, and
/// a thousand redraws gave nothing else (a `BTreeSet<String>` at size 100 spent them on most
/// values). Below its minimum length the set redraws as long as before, so that a rare value
/// is still found.
#[test]
fn sets_give_up_early_on_elements_with_a_few_values_only_past_their_minimum() {
    let (strings, failed) =
        element_runs_per_element(string(), |s| btree_set(s, ..), BTreeSet::len, 100);
    assert_eq!(failed, 0);
    assert!(strings < 6.0, "{strings:.1} string runs per element");
    let (bits, failed) = element_runs_per_element(bool(), |b| btree_set(b, ..), BTreeSet::len, 100);
    assert_eq!(failed, 0);
    assert!(bits < 60.0, "{bits:.1} bool runs per element");
    let (keys, failed) = element_runs_per_element(
        string(),
        |k| btree_map(k, int::<u8>(), ..),
        BTreeMap::len,
        100,
    );
    assert_eq!(failed, 0);
    assert!(keys < 6.0, "{keys:.1} key runs per entry");
    // Both values are needed, and one is drawn one time in a hundred: more draws than the
    // early give-up allows, which must not apply below the minimum.
    let rare = frequency([(99, exact(0u8)), (1, exact(1u8))]).boxed();
    let (_, failed) = element_runs_per_element(rare, |r| btree_set(r, 2..=2), BTreeSet::len, 10);
    assert_eq!(failed, 0, "sets of a rare value that failed");
}

/// Every split of `n` into `k` piles, in order.
fn all_splits(k: usize, n: usize) -> Vec<Vec<usize>> {
    match k {
        0 => vec![Vec::new()],
        1 => vec![vec![n]],
        _ => (0..=n)
            .flat_map(|first| {
                all_splits(k - 1, n - first).into_iter().map(move |rest| {
                    let mut split = vec![first];
                    split.extend(rest);
                    split
                })
            })
            .collect(),
    }
}

#[test]
fn laws_of_piles() {
    for (k, n) in [
        (0, 0),
        (0, 5),
        (1, 0),
        (1, 7),
        (2, 3),
        (3, 10),
        (5, 0),
        (4, 30),
        (30, 4),
    ] {
        Laws::new(&format!("piles({k}, {n})"), piles(k, n)).check();
    }
}

#[test]
fn every_split_into_piles_is_equally_likely() {
    for (k, n) in [(1, 4), (2, 6), (3, 5), (4, 3), (5, 0)] {
        let name = format!("piles({k}, {n})");
        let splits = all_splits(k, n);
        assert_sums_to_one(&name, &piles(k, n), DEFAULT_SIZE, &splits);
        let each = piles(k, n).probability_of(&splits[0]);
        assert!(
            splits
                .iter()
                .all(|split| (piles(k, n).probability_of(split) - each).abs() < 1e-12),
            "{name}: the splits differ in probability"
        );
        assert_frequencies_match(&name, &piles(k, n), DEFAULT_SIZE, &splits, 20_000);
    }
}

#[test]
fn piles_reject_splits_of_the_wrong_length_or_sum() {
    let wrong: [Vec<usize>; 6] = [
        vec![],
        vec![10],
        vec![5, 5],
        vec![3, 3, 3],
        vec![4, 4, 4],
        vec![0, 0, 0, 10],
    ];
    assert_eq!(
        assert_rejects("piles(3, 10)", &piles(3, 10), DEFAULT_SIZE, wrong),
        6
    );
    // With no piles, any size is left unsplit; nothing else reflects.
    assert!(piles(0, 10).can_generate(&Vec::new()));
    assert!(!piles(0, 10).can_generate(&vec![10]));
}

#[test]
fn a_pile_is_as_large_wherever_it_is() {
    // No position bias: the mean of each of 6 piles of 60 is 10.
    let mut rng = DefaultRng::seed_from_u64(17);
    let draws = 20_000;
    let mut totals = [0usize; 6];
    for _ in 0..draws {
        let split = piles(6, 60).generate_value(&mut rng, DEFAULT_SIZE);
        for (total, share) in totals.iter_mut().zip(split) {
            *total += share;
        }
    }
    for (position, total) in totals.iter().enumerate() {
        let mean = *total as f64 / draws as f64;
        assert!((mean - 10.0).abs() < 0.2, "pile {position}: mean {mean}");
    }
}
