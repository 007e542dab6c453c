//! Fuzzing bytes: any byte string is a value the generator produces, a value's bytes read back
//! as the value, and mutated bytes stay valid; over a thousand random generators and the
//! catalogue's generators with invariants.

use reflective::ShrinkBudget;
use reflective::bytes::{EncodeError, MAX_BYTES_SIZE};
use reflective::prelude::*;
use reflective::rand_core::Rng;
use reflective_tests::catalogue::bst::{bst, is_bst};
use reflective_tests::catalogue::specs::{Spec, build, conforms};
use reflective_tests::catalogue::stlc::{type_of, well_typed};

/// Byte strings of every length up to 64 (`int` favours the edge bytes 0, 1 and 255).
fn byte_strings() -> Gen<Vec<u8>, Vec<u8>> {
    vec(int::<u8>(), 0..=64).boxed()
}

#[test]
fn any_bytes_give_a_value_every_random_generator_produces_the_same_each_time() {
    let specs = Spec::arbitrary_reflective();
    let strings = byte_strings();
    let mut rng = DefaultRng::seed_from_u64(11);
    for _ in 0..1000 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        for _ in 0..5 {
            let bytes = strings.generate_value(&mut rng, 100);
            let generated = g.decode(&bytes).unwrap();
            assert!(conforms(&spec, &generated.value), "{spec:?}: {bytes:?}");
            assert_eq!(g.replay(&generated.tree).as_ref(), Some(&generated.value));
            assert_eq!(g.decode(&bytes).unwrap(), generated, "{spec:?}: {bytes:?}");
        }
    }
}

/// A derived recursive type: at size 0 its recursive variants weigh nothing.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Expr {
    Add(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Num(u8),
}

#[test]
fn any_bytes_give_a_derived_value_at_the_size_they_name() {
    let g = Expr::arbitrary_reflective();
    let strings = byte_strings();
    let mut rng = DefaultRng::seed_from_u64(13);
    for _ in 0..2000 {
        let bytes = strings.generate_value(&mut rng, 100);
        let generated = g.decode(&bytes).unwrap();
        assert_eq!(g.replay(&generated.tree).as_ref(), Some(&generated.value));
        let at_size = g.reflector().size(generated.tree.size());
        assert_eq!(
            at_size.can_generate(&generated.value),
            Ok(true),
            "{bytes:?}"
        );
        let back = g.encode(&generated.value).unwrap();
        assert_eq!(g.decode(&back).unwrap().value, generated.value);
    }
}

#[test]
fn a_values_bytes_read_back_as_the_value_for_every_random_generator() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(12);
    for _ in 0..1000 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        let size = rng.next_u64() as usize % 60;
        let value = g.generate_value(&mut rng, size);
        let bytes = g
            .encode(&value)
            .unwrap_or_else(|error| panic!("{spec:?}: {value:?}: {error}"));
        assert!(
            usize::from(bytes[0]) <= size.max(1) * 2,
            "{spec:?}: {bytes:?}"
        );
        assert_eq!(
            g.decode(&bytes).unwrap().value,
            value,
            "{spec:?}: {bytes:?}"
        );
    }
}

#[test]
fn mutated_bytes_keep_the_invariants_of_search_trees_and_well_typed_terms() {
    let trees = bst(0, 40);
    let mut bytes = trees
        .encode(&trees.generate_value(&mut DefaultRng::seed_from_u64(1), 30))
        .unwrap();
    let mut distinct = std::collections::HashSet::new();
    for seed in 0..300 {
        bytes = trees.mutator().mutate_bytes(&bytes, seed).unwrap();
        let tree = trees.decode(&bytes).unwrap().value;
        assert!(is_bst(&tree, 0, 40), "{tree:?}");
        distinct.insert(tree);
    }
    assert!(
        distinct.len() > 100,
        "only {} distinct trees",
        distinct.len()
    );

    let terms = well_typed();
    let mut rng = DefaultRng::seed_from_u64(2);
    for seed in 0..300 {
        // Random bytes, then a mutant of them: both well typed.
        let random: Vec<u8> = (0..rng.next_u64() % 48)
            .map(|_| rng.next_u64() as u8)
            .collect();
        let term = terms.decode(&random).unwrap().value;
        assert!(type_of(&[], &term).is_some(), "{term:?}");
        let mutated = terms.mutator().mutate_bytes(&random, seed).unwrap();
        let term = terms.decode(&mutated).unwrap().value;
        assert!(type_of(&[], &term).is_some(), "{term:?}");
    }
}

/// A chain of custom mutations from the empty input (a fuzzer's first) reaches longer lists:
/// the edits keep a value's size, and the size byte was never changed, so every mutant of the
/// empty input (size 0) was the empty list.
#[test]
fn mutated_bytes_outgrow_the_size_of_the_input() {
    let lists = vec(range(0u8..=9), 0..=50);
    let mut bytes = Vec::new();
    let mut longest = 0;
    for seed in 0..200 {
        bytes = lists.mutator().mutate_bytes(&bytes, seed).unwrap();
        let list = lists.decode(&bytes).unwrap().value;
        assert!(lists.can_generate(&list), "{list:?}");
        longest = longest.max(list.len());
    }
    assert!(longest >= 10, "the longest list was {longest} long");
}

/// Bytes whose size the generator fails at (the empty input, where a fuzzer starts, for a
/// filter that nothing small passes) are read at sizes drawn afresh, not refused.
#[test]
fn bytes_whose_size_the_generator_fails_at_mutate_at_another() {
    let large = sized(|n| range(0..=n as u64)).filter(|&x| x >= 10);
    // Decoding reads the empty input at the sizes above 0, up to the first with a value.
    let decoded = large.decode(&[]).unwrap();
    assert_eq!((decoded.value, decoded.tree.size()), (10, 10));
    let mutated = (0..200)
        .filter(|&seed| large.mutator().mutate_bytes(&[], seed).is_ok())
        .count();
    assert!(
        mutated >= 190,
        "{mutated} of 200 seeds mutated the empty input"
    );
}

#[test]
fn a_crash_found_from_its_bytes_shrinks_to_the_minimum() {
    let g = vec(int::<i32>(), ..);
    // A fuzzer's input: a list with an element above 1000 fails.
    let fails = |xs: &Vec<i32>| xs.iter().any(|&x| x > 1000);
    let crash = (0u64..)
        .map(|seed| {
            let mut rng = DefaultRng::seed_from_u64(seed);
            (0..40).map(|_| rng.next_u64() as u8).collect::<Vec<u8>>()
        })
        .find(|bytes| fails(&g.decode(bytes).unwrap().value))
        .unwrap();
    let generated = g.decode(&crash).unwrap();
    let shrunk = g.shrink_generated(generated, fails, ShrinkBudget::default());
    assert_eq!(shrunk.value, [1001]);
}

#[test]
fn values_bytes_cannot_hold_are_errors_not_panics() {
    let up_to_size = sized(|size| range(0..=size as u64));
    assert_eq!(
        up_to_size.encode(&(MAX_BYTES_SIZE as u64 + 1)),
        Err(EncodeError::CannotProduce {
            part: None,
            path: Vec::new()
        })
    );
    // A part reached by a focus is named, with its path.
    let pairs = zip(
        range(0u8..=9)
            .focus(|p: &(u8, Vec<u8>)| Some(&p.0))
            .named("digit"),
        vec(range(0u8..=9), ..)
            .focus(|p: &(u8, Vec<u8>)| Some(&p.1))
            .named("digits"),
    );
    let error = pairs.encode(&(3, vec![1, 2, 30])).unwrap_err();
    assert_eq!(
        error.to_string(),
        "cannot write the value as bytes: the generator does not produce it at any size up to \
         255; the first part that fails is a `u8` at `digits[2]` (check the value with \
         `can_generate`)"
    );
    let small = range(1u8..=6);
    let error = small.encode(&7).unwrap_err();
    assert!(error.to_string().contains("does not produce it"), "{error}");
    // A generator that produces nothing is an error from any bytes.
    let nothing = range(0u8..=9).filter(|_| false);
    assert!(nothing.decode(b"\x05\x01").is_err());
}

/// A natural number whose first branch recurses, with no size to stop it.
#[derive(Clone, Debug, PartialEq)]
enum Nat {
    S(Box<Nat>),
    Z,
}

fn nat() -> Gen<Nat, Nat> {
    pick((
        (
            1,
            "s",
            lazy(nat)
                .focus(|n: &Nat| match n {
                    Nat::S(m) => Some(&**m),
                    Nat::Z => None,
                })
                .map(|m| Nat::S(Box::new(m)))
                .boxed(),
        ),
        (1, "z", exact(Nat::Z).boxed()),
    ))
    .boxed()
}

#[test]
fn short_inputs_give_simple_values_and_a_never_ending_simplest_choice_still_ends() {
    // Past the end of the bytes, the simplest choices: an empty list, zeros.
    let lists = vec(int::<i32>(), ..);
    assert_eq!(lists.decode(b"").unwrap().value, Vec::<i32>::new());
    assert_eq!(lists.decode(b"\x09\x02").unwrap().value, [0, 0]);
    // The simplest branch of `nat` is `S` for ever: after 4 096 choices past the end, the
    // rest are drawn at random, and the value ends.
    let n = nat().decode(b"").unwrap().value;
    let mut depth = 0;
    let mut at = &n;
    while let Nat::S(m) = at {
        depth += 1;
        at = m;
    }
    assert!(depth >= 4096, "{depth}");
}

#[test]
fn filters_and_sets_decode_short_inputs_and_values_of_any_size_encode() {
    // Past the end of the bytes, a filter that rejects the simplest value, and a set that
    // already holds it, draw at random instead of repeating it.
    let filtered = range(0u32..=1000).filter(|x| *x > 500);
    let odd = range(0u32..=1000).filter(|x| x % 2 == 1);
    let sets = btree_set(range(0u8..=10), 5..=5);
    for bytes in [&b""[..], b"\x09", b"\x09\x00\x00", b"\x00\x02\x00"] {
        assert!(filtered.decode(bytes).unwrap().value > 500, "{bytes:?}");
        assert_eq!(odd.decode(bytes).unwrap().value % 2, 1, "{bytes:?}");
        assert_eq!(sets.decode(bytes).unwrap().value.len(), 5, "{bytes:?}");
    }
    // A filter that keeps no value at the bytes' size (every list is empty at size 0) reads
    // the same choices at the sizes above it; a value it gives encodes at its own size.
    let non_empty = vec(int::<u8>(), ..).filter(|v| !v.is_empty());
    for bytes in [&b""[..], b"\x00", b"\x00\x05", b"\x00\xff\x07"] {
        let decoded = non_empty.decode(bytes).unwrap();
        assert!(!decoded.value.is_empty(), "{bytes:?}");
        assert!(decoded.tree.size() > 0, "{bytes:?}");
        assert_eq!(non_empty.decode(bytes).unwrap(), decoded, "{bytes:?}");
        let encoded = non_empty.encode(&decoded.value).unwrap();
        assert_eq!(non_empty.decode(&encoded).unwrap().value, decoded.value);
    }
    let nothing = range(0u8..=9).filter(|&n| n > 9);
    assert!(nothing.decode(b"\x03").unwrap_err().filter_rejected());
    // A value only one size produces, between two powers of two, has bytes naming that size.
    let exactly_size = sized(|size| vec(bool(), size..=size));
    for len in [3, 5, 100, 200, 255] {
        let bytes = exactly_size.encode(&vec![true; len]).unwrap();
        assert_eq!(usize::from(bytes[0]), len);
        assert_eq!(exactly_size.decode(&bytes).unwrap().value, vec![true; len]);
    }
    assert_eq!(
        sized(|size| range(0..=size as u64)).encode(&3).unwrap(),
        [3, 3]
    );
}
