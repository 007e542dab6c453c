//! Mutation: every mutant is a value the generator produces, over the catalogue's generators
//! with invariants (search trees, well-typed terms, sorted and dependent lists) and over a
//! thousand random generators; mutants of hand-written values; the edits one at a time; bad
//! input as errors.

use std::collections::{BTreeSet, HashSet};

use reflective::ReflectError;
use reflective::mutate::{Edit, MutateError};
use reflective::prelude::*;
use reflective_tests::catalogue::bst::{Tree, bst, is_bst};
use reflective_tests::catalogue::lists::{is_sorted, sorted_list};
use reflective_tests::catalogue::nat::{Nat, nat_exponential};
use reflective_tests::catalogue::specs::{Spec, V, build, conforms};
use reflective_tests::catalogue::stlc::{Term, Type, type_of, well_typed};

/// Checks that the first `count` mutants of `value` are produced by `g` (reflection at the
/// mutant's size, and replay of its choices) and satisfy `valid`; returns how many distinct
/// values they were.
fn assert_mutants_valid<T: Clone + std::fmt::Debug + PartialEq + Eq + std::hash::Hash>(
    g: &impl Generator<Input = T, Output = T>,
    value: &T,
    seed: u64,
    count: usize,
    valid: impl Fn(&T) -> bool,
) -> usize {
    let mut values = HashSet::new();
    let mutator = g.mutator();
    for mutant in mutator.mutants(value, seed).unwrap().take(count) {
        assert!(
            valid(&mutant.value),
            "invalid mutant {:?} ({})",
            mutant.value,
            mutant.edit
        );
        assert_eq!(g.replay(&mutant.tree).as_ref(), Some(&mutant.value));
        let reflects = g
            .reflector()
            .size(mutant.tree.size())
            .can_generate(&mutant.value)
            .unwrap();
        assert!(
            reflects,
            "{:?} does not reflect ({})",
            mutant.value, mutant.edit
        );
        values.insert(mutant.value);
    }
    values.len()
}

#[test]
fn mutants_of_search_trees_are_search_trees() {
    let g = bst(0, 20);
    let mut rng = DefaultRng::seed_from_u64(1);
    for _ in 0..20 {
        let tree = g.generate_value(&mut rng, 100);
        assert_mutants_valid(&g, &tree, 3, 50, |t| is_bst(t, 0, 20));
    }
    // A tree typed in by hand.
    let leaf = Tree::Leaf;
    let fixture = Tree::node(
        Tree::node(leaf.clone(), 2, Tree::node(leaf.clone(), 4, leaf.clone())),
        10,
        Tree::node(leaf.clone(), 15, leaf),
    );
    let distinct = assert_mutants_valid(&g, &fixture, 4, 300, |t| is_bst(t, 0, 20));
    assert!(distinct >= 200, "only {distinct} distinct mutants");
}

#[test]
fn mutants_of_well_typed_terms_are_well_typed() {
    let g = well_typed();
    let typed = |t: &Term| type_of(&[], t).is_some();
    let mut rng = DefaultRng::seed_from_u64(2);
    for _ in 0..20 {
        let term = g.generate_value(&mut rng, 30);
        assert_mutants_valid(&g, &term, 5, 30, typed);
    }
    let fixture = Term::App(
        Box::new(Term::Lam(
            Type::Int,
            Box::new(Term::plus(Term::Var(0), Term::Lit(1))),
        )),
        Box::new(Term::Lit(41)),
    );
    assert!(typed(&fixture));
    assert_mutants_valid(&g, &fixture, 6, 100, typed);
}

#[test]
fn mutants_of_sorted_lists_are_sorted() {
    let g = sorted_list();
    assert_mutants_valid(&g, &vec![1, 1, 5, 200], 7, 200, |xs| is_sorted(xs));
}

#[test]
fn every_mutant_of_a_random_generator_is_one_it_generates() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(8);
    let mut mutants = 0;
    for round in 0..1000 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        let value = g.generate_value(&mut rng, 20);
        let Ok(found) = g.mutator().mutants(&value, round) else {
            panic!("{spec:?} does not reflect its own {value:?}");
        };
        for mutant in found.take(5) {
            mutants += 1;
            assert!(
                conforms(&spec, &mutant.value),
                "{spec:?}: {:?} from {value:?} ({})",
                mutant.value,
                mutant.edit
            );
            let reflects = g
                .reflector()
                .size(mutant.tree.size())
                .can_generate(&mutant.value);
            assert_eq!(reflects, Ok(true), "{spec:?}: {:?}", mutant.value);
            assert_eq!(g.replay(&mutant.tree), Some(mutant.value));
        }
    }
    assert!(mutants > 2000, "only {mutants} mutants");
}

#[test]
fn each_edit_alone_makes_valid_mutants() {
    let g = bst(0, 30);
    let mut rng = DefaultRng::seed_from_u64(9);
    let trees: Vec<Tree> = (0..30).map(|_| g.generate_value(&mut rng, 100)).collect();
    // Trees have no collections to insert into or delete from: lists below.
    let tree_edits = Edit::ALL
        .into_iter()
        .filter(|e| ![Edit::Insert, Edit::Delete].contains(e));
    for edit in tree_edits {
        let mutator = g.mutator().edits(&[edit]);
        let mut made = 0;
        for (seed, tree) in trees.iter().enumerate() {
            if let Ok(mutant) = mutator.mutate(tree, seed as u64) {
                assert_eq!(mutant.edit, edit);
                assert!(is_bst(&mutant.value, 0, 30), "{edit}: {:?}", mutant.value);
                assert_ne!(&mutant.value, tree);
                made += 1;
            }
        }
        assert!(made >= 10, "{edit} made {made} mutants of 30 trees");
    }
    // Collections: inserting lengthens a list by one, deleting shortens it by one.
    let lists = vec(range(0u8..=9), ..);
    let inserted = lists
        .mutator()
        .edits(&[Edit::Insert])
        .mutate(&vec![1, 2, 3], 0)
        .unwrap();
    assert_eq!(inserted.value.len(), 4);
    let deleted = lists
        .mutator()
        .edits(&[Edit::Delete])
        .mutate(&vec![1, 2, 3], 0)
        .unwrap();
    assert_eq!(deleted.value.len(), 2);
    assert!(deleted.value.iter().all(|x| [1, 2, 3].contains(x)));
    // A tree's search order survives inserting into and deleting from lists of trees.
    let forests = vec(bst(0, 30), ..);
    for edit in [Edit::Insert, Edit::Delete] {
        let mutant = forests
            .mutator()
            .edits(&[edit])
            .mutate(&trees[..5].to_vec(), 1)
            .unwrap();
        let expected = if edit == Edit::Insert { 6 } else { 4 };
        assert_eq!(mutant.value.len(), expected, "{edit}");
        assert!(mutant.value.iter().all(|t| is_bst(t, 0, 30)));
    }
}

/// A copy makes one integer equal to another made for the same value: over many lists, the
/// mutant differs from the original in one element, now equal to another element; an integer
/// of the same range is copied first.
#[test]
fn a_copy_makes_two_integers_equal() {
    // Of a fixed length, so that the length is not an integer to copy into.
    let lists = vec(range(0u16..=500), 6..=6);
    let mutator = lists.mutator().edits(&[Edit::Copy]);
    let mut rng = DefaultRng::seed_from_u64(4);
    let mut copies = 0;
    for seed in 0..300 {
        let original = lists.generate_value(&mut rng, 100);
        let Ok(mutant) = mutator.mutate(&original, seed) else {
            // Only a list whose elements are all equal has nothing to copy.
            assert!(original.iter().all(|&x| x == original[0]), "{original:?}");
            continue;
        };
        assert_eq!(mutant.edit, Edit::Copy);
        assert_eq!(mutant.value.len(), original.len());
        let changed: Vec<usize> = (0..original.len())
            .filter(|&i| mutant.value[i] != original[i])
            .collect();
        assert_eq!(changed.len(), 1, "{original:?} -> {:?}", mutant.value);
        let at = changed[0];
        assert!(
            original
                .iter()
                .enumerate()
                .any(|(i, &x)| i != at && x == mutant.value[at]),
            "{original:?} -> {:?}",
            mutant.value
        );
        copies += 1;
    }
    assert!(copies > 250, "only {copies} copies");
    // An integer of the same range is copied rather than one of another range that fits: two
    // digits copy each other, never the larger number, which fits their range too; that one,
    // without another of its range, takes either digit.
    let digits = tuple((range(0u8..=9), range(0u8..=9), range(0u8..=200)));
    let mutator = digits.mutator().edits(&[Edit::Copy]);
    let mut into_the_number = 0;
    for seed in 0..100 {
        let mutant = mutator.mutate(&(3, 7, 5), seed).unwrap().value;
        assert!(
            [(7, 7, 5), (3, 3, 5), (3, 7, 3), (3, 7, 7)].contains(&mutant),
            "{mutant:?}"
        );
        into_the_number += usize::from(mutant.2 != 5);
    }
    assert!((10..=90).contains(&into_the_number), "{into_the_number}");
    // A value that does not fit an integer's range is not copied into it: the digits of a pair
    // stay in their own ranges.
    let pair = tuple((range(0u8..=9), range(50u8..=59)));
    assert!(
        pair.mutator()
            .edits(&[Edit::Copy])
            .mutate(&(3, 55), 0)
            .is_err()
    );
}

/// An edit that can be made is made, however few of a value's spans it applies to: a search
/// tree beside a thousand numbers descends into its subtree every time.
#[test]
fn a_rare_descend_is_found_among_many_spans() {
    let g = tuple((vec(range(0u8..=255), 1000..=1000), bst(0, 30)));
    let tree = Tree::node(Tree::node(Tree::Leaf, 1, Tree::Leaf), 5, Tree::Leaf);
    let value = (vec![7u8; 1000], tree);
    let mutator = g.mutator().edits(&[Edit::Descend]);
    for seed in 0..30 {
        let mutant = mutator.mutate(&value, seed).unwrap();
        assert_eq!(mutant.value.0, value.0, "seed {seed}");
        assert_ne!(mutant.value.1, value.1, "seed {seed}");
    }
}

/// A stream of one kind of edit whose candidates replay as they are (a nudge of an integer, a
/// deletion from a list) makes every value one such edit away, each once, and then ends: a
/// stream skips candidates whose choices it made before, and must skip no other.
#[test]
fn a_stream_makes_every_value_one_edit_away_and_ends() {
    let pairs = zip(
        range(0u8..=3).focus(|p: &(u8, u8)| Some(&p.0)),
        range(0u8..=3).focus(|p: &(u8, u8)| Some(&p.1)),
    );
    let nudged: Vec<(u8, u8)> = pairs
        .mutator()
        .edits(&[Edit::Nudge])
        .mutants(&(1, 2), 3)
        .unwrap()
        .map(|m| m.value)
        .collect();
    let expected = [(0, 2), (2, 2), (3, 2), (1, 0), (1, 1), (1, 3)];
    assert_eq!(nudged.len(), expected.len(), "{nudged:?}");
    assert_eq!(
        nudged.iter().copied().collect::<HashSet<_>>(),
        HashSet::from(expected)
    );
    let lists = vec(range(0u8..=9), ..);
    let shorter: HashSet<Vec<u8>> = lists
        .mutator()
        .edits(&[Edit::Delete])
        .mutants(&vec![1, 2, 3], 3)
        .unwrap()
        .map(|m| m.value)
        .collect();
    assert_eq!(shorter, HashSet::from([vec![2, 3], vec![1, 3], vec![1, 2]]));
}

/// A stream of mutants of a generator that filters, or draws distinct elements, ends: mutants
/// are distinct by the choices their values are made of, a filter's rejected attempts and a
/// set's repeated elements left out (a filter keeping only the original value gave a "new"
/// mutant of it at every try, its rejected attempts drawn anew, without end). Every mutant is
/// a value the generator produces, and a filter that keeps more still gives its other values.
#[test]
fn a_stream_through_a_filter_or_a_set_ends() {
    let only_three = range(0u8..=9).filter(|x| *x == 3);
    // `take` so that a stream without end fails here rather than hangs.
    let endless = 1000;
    assert_eq!(
        only_three
            .mutator()
            .mutants(&3, 1)
            .unwrap()
            .take(endless)
            .count(),
        0
    );
    let odd = range(0u8..=9).filter(|x| x % 2 == 1);
    let values: HashSet<u8> = odd
        .mutator()
        .mutants(&3, 1)
        .unwrap()
        .take(endless)
        .map(|m| m.value)
        .collect();
    assert!(values.iter().all(|x| x % 2 == 1), "{values:?}");
    assert!(values.len() >= 3, "{values:?}");
    let sets = btree_set(bool(), ..);
    for seed in 0..10 {
        let mutants: Vec<BTreeSet<bool>> = sets
            .mutator()
            .mutants(&BTreeSet::from([false, true]), seed)
            .unwrap()
            .take(endless)
            .map(|m| m.value)
            .collect();
        // A drawn length past the two values ends short, at the same set: one mutant per
        // length drawn, and then the stream ends.
        assert!(
            mutants.len() < endless,
            "seed {seed}: {} mutants",
            mutants.len()
        );
        assert!(mutants.iter().all(|m| sets.can_generate(m)));
    }
}

#[test]
fn mutation_is_deterministic_for_a_seed() {
    let g = bst(0, 50);
    let tree = g.sample(11);
    let twenty = || -> Vec<Tree> {
        g.mutator()
            .mutants(&tree, 5)
            .unwrap()
            .take(20)
            .map(|m| m.value)
            .collect()
    };
    let (first, again) = (twenty(), twenty());
    assert_eq!(first, again);
    assert_eq!(g.mutator().mutate(&tree, 5), g.mutator().mutate(&tree, 5));
}

#[test]
fn bad_input_is_an_error() {
    let g = bst(0, 20);
    let invalid = Tree::node(Tree::Leaf, 5, Tree::node(Tree::Leaf, 3, Tree::Leaf));
    let error = g.mutator().mutate(&invalid, 0).unwrap_err();
    assert!(
        matches!(error, MutateError::CannotProduce { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("does not produce it"), "{error}");
    // Exponential overlap: reflection runs out of its budget, and says so.
    let error = nat_exponential()
        .mutator()
        .mutate(&Nat::new(60), 0)
        .unwrap_err();
    assert!(
        matches!(error, MutateError::Reflect(ReflectError::WayBudget { .. })),
        "{error:?}"
    );
    // A generator without choices has no mutant.
    let error = exact(7u8).mutator().mutate(&7, 0).unwrap_err();
    assert!(matches!(error, MutateError::NoMutant { .. }), "{error:?}");
}

/// Edits narrowed to ones that have nothing to work on in the value (an insert where there is
/// no collection) are named as a cause: the error said only that the generator makes no choice
/// with another possible value, which a generator of integers does.
#[test]
fn edits_with_nothing_to_work_on_are_named_in_the_error() {
    let g = range(0u8..=9);
    let error = g
        .mutator()
        .edits(&[Edit::Insert])
        .mutate(&3, 0)
        .unwrap_err();
    assert!(matches!(error, MutateError::NoMutant { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("`Mutator::edits`"), "{message}");
    assert!(
        message.contains("an insert or a delete needs a collection"),
        "{message}"
    );
}

#[test]
fn mutants_of_a_random_spec_value_stay_in_its_dependent_shape() {
    // A count then exactly that many elements: no edit breaks the count.
    let spec = Spec::Counted(Box::new(Spec::Int { lo: 0, width: 9 }), 6);
    let g = build(&spec);
    let value = V::Pair(
        Box::new(V::Int(3)),
        Box::new(V::List(vec![V::Int(1), V::Int(2), V::Int(3)])),
    );
    let distinct = assert_mutants_valid(&g, &value, 1, 200, |v| conforms(&spec, v));
    assert!(distinct >= 100, "only {distinct}");
}

/// A generator that panics on every edited choice (a `bind` continuation that panics on the
/// values an edit gives it) gets an error with the panic's message, not `NoMutant` (which a
/// generator without choices to edit gets: see above).
#[test]
fn a_generator_that_panics_on_every_edit_reports_the_panic() {
    let g = range(0usize..=3).comap(|v: &Vec<bool>| Some(v.len())).bind(
        |n| -> Gen<Vec<bool>, Vec<bool>> {
            assert!(n == 0, "this bind panics on {n}");
            vec(bool(), 0..=0)
        },
    );
    for seed in 0..20 {
        let error = g.mutator().mutate(&Vec::new(), seed).unwrap_err();
        let MutateError::GeneratorPanicked { message } = &error else {
            panic!("not the panic: {error:?}");
        };
        assert!(message.starts_with("this bind panics on "), "{message}");
        assert!(
            error.to_string().starts_with(
                "cannot mutate the value: the generator panicked on the edited choices"
            ),
            "{error}"
        );
    }
}

#[test]
fn a_reroll_takes_another_branch_however_unlikely_it_is() {
    // The value's branch weighs 100 000 times the other's: drawing again until another comes
    // up (16 tries) kept the old branch, and mutation failed with "no edit changed them".
    let g = frequency([(100_000, exact(0u8)), (1, exact(1u8))]);
    let mutant = g.mutator().edits(&[Edit::Reroll]).mutate(&0, 1).unwrap();
    assert_eq!(mutant.value, 1);
    // An integer rerolled changes too, even when its distribution favours the old one (a guard:
    // 17 draws as the generator draws already changed this one nearly always).
    let nearly_zero = range(0u64..=u64::MAX).resize(0);
    for seed in 0..50 {
        let mutant = nearly_zero
            .mutator()
            .edits(&[Edit::Reroll])
            .mutate(&0, seed)
            .unwrap();
        assert_ne!(mutant.value, 0);
    }
}

/// A small value written by hand is mutated at a size that fits it, not at the default size:
/// what an edit draws afresh is of the value's own scale, so its mutants stay near its size
/// (at the default size, a regenerated subterm was a term of size 50 or 25), and they are as
/// many and as valid as before.
#[test]
fn mutants_of_a_small_value_stay_small() {
    fn nodes(term: &Term) -> usize {
        match term {
            Term::Lit(_) | Term::Var(_) => 1,
            Term::Lam(_, body) => 1 + nodes(body),
            Term::Plus(a, b) | Term::App(a, b) => 1 + nodes(a) + nodes(b),
        }
    }
    let g = well_typed();
    let fixture = Term::app(
        Term::lam(Type::Int, Term::plus(Term::Var(0), Term::Lit(1))),
        Term::Lit(41),
    );
    let mutator = g.mutator();
    let tree = mutator.choices_of(&fixture).unwrap();
    assert!(tree.size() < DEFAULT_SIZE, "reflected at {}", tree.size());
    assert_eq!(g.replay(&tree), Some(fixture.clone()));
    // Half the size it is mutated at still produces it: the size has room to grow.
    assert!(
        g.reflector()
            .size(tree.size() / 2)
            .can_generate(&fixture)
            .unwrap()
    );
    let mutants: Vec<Term> = mutator
        .mutants(&fixture, 9)
        .unwrap()
        .take(500)
        .map(|mutant| mutant.value)
        .collect();
    assert_eq!(mutants.len(), 500);
    assert!(mutants.iter().all(|t| type_of(&[], t).is_some()));
    let mean = mutants.iter().map(nodes).sum::<usize>() as f64 / mutants.len() as f64;
    assert!(
        mean <= 3.0 * nodes(&fixture) as f64,
        "mean mutant size {mean}"
    );
    assert_mutants_valid(&g, &fixture, 9, 200, |t| type_of(&[], t).is_some());
}

/// A generator that uses a fraction of its size can fit a value at a size where every choice
/// has one possible value: the value is then mutated at the size it was found at, and has
/// mutants.
#[test]
fn a_value_fitted_small_still_has_mutants() {
    let g = sized(|size| range(0u32..=(size / 2) as u32));
    assert!(g.mutator().mutate(&0, 1).is_ok());
    assert!(g.mutator().mutants(&0, 1).unwrap().next().is_some());
    let lists = sized(|size| vec(range(0u8..=9), 0..=size / 4));
    assert!(
        lists
            .mutator()
            .mutants(&vec![], 1)
            .unwrap()
            .next()
            .is_some()
    );
}

/// Two fields with their own ranges.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
struct Item {
    #[reflective(generator = "reflective::range(1u8..=6)")]
    x: u8,
    #[reflective(generator = "reflective::range(0u8..=3)")]
    y: u8,
}

/// A struct with a collection of structs, for the path through an element.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
struct Basket {
    items: Vec<Item>,
    count: u8,
}

/// A value the generator cannot produce is an error naming the first part that fails and
/// its path, as completion's is: the user reads which field of which element to fix.
#[test]
fn a_value_that_cannot_be_produced_names_the_part_that_fails() {
    let g = Basket::arbitrary_reflective();
    let item = |y| Item { x: 1, y };
    let given = Basket {
        items: vec![item(0), item(1), item(9)],
        count: 0,
    };
    let error = g.mutator().mutate(&given, 0).unwrap_err();
    assert_eq!(
        error,
        MutateError::CannotProduce {
            part: Some("u8"),
            path: vec!["items".into(), "[2]".into(), "y".into()],
        }
    );
    assert_eq!(
        error.to_string(),
        "cannot mutate the value: the generator does not produce it at the sizes tried (100, \
         doubling, up to 16777216); the first part that fails is a `u8` at `items[2].y` \
         (check the value with `can_generate`, or give a value the generator can produce)"
    );
    assert_eq!(g.mutator().choices_of(&given), Err(error));
    // A bare range names no part: the message says what it can.
    let error = range(0u8..=5).mutator().mutate(&9, 0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "cannot mutate the value: the generator does not produce it at the sizes tried (100, \
         doubling, up to 16777216; check it with `can_generate`, or give a value the generator \
         can produce)"
    );
    // Elements of nested collections, no focus inside: the element is the part.
    let lists = vec(vec(range(0u8..=5), ..), ..);
    let error = lists
        .mutator()
        .mutate(&vec![vec![], vec![1, 2, 7]], 0)
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the first part that fails is a `u8` at `[1][2]`"),
        "{error}"
    );
}

/// Over random baskets: one with an impossible part planted in a random element is an error
/// naming that element's index, the same as completion's and encoding's errors; the basket
/// as generated mutates as before.
#[test]
fn mutation_completion_and_encoding_name_the_same_failing_part() {
    use reflective::bytes::EncodeError;
    use reflective::complete::{CompleteError, Holes};
    use reflective::rand_core::Rng;
    let g = Basket::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(9);
    let mut planted = 0;
    for _ in 0..200 {
        let mut given = g.generate_value(&mut rng, 40);
        assert!(g.mutator().mutate(&given, 1).is_ok(), "{given:?}");
        if given.items.is_empty() {
            continue;
        }
        let index = rng.next_u64() as usize % given.items.len();
        if rng.next_u64() % 2 == 0 {
            given.items[index].y = 4 + (rng.next_u64() % 100) as u8;
        } else {
            given.items[index].x = 7 + (rng.next_u64() % 100) as u8;
        }
        let field = if given.items[index].y > 3 { "y" } else { "x" };
        let expected = vec![
            Label::from("items"),
            Label::from(format!("[{index}]")),
            Label::from(field),
        ];
        let MutateError::CannotProduce { part, path } = g.mutator().mutate(&given, 1).unwrap_err()
        else {
            panic!("not CannotProduce");
        };
        assert_eq!((part, &path), (Some("u8"), &expected));
        let Err(EncodeError::CannotProduce { part, path }) = g.encode(&given) else {
            panic!("not CannotProduce");
        };
        assert_eq!((part, &path), (Some("u8"), &expected));
        let completed = g
            .completer()
            .complete(&given, &Holes::new().at(&given.count), 1);
        let Err(CompleteError::CannotProduce { part, path, .. }) = completed else {
            panic!("not CannotProduce");
        };
        assert_eq!((part, &path), (Some("u8"), &expected));
        planted += 1;
    }
    assert!(planted > 100, "only {planted} baskets had an item");
}
