//! Completion: a value's holes filled with parts the generator produces there, its given parts
//! kept; over the paper's search trees, derived structs and recursive enums, collections'
//! elements, and a thousand random generators; bad input as errors.

use std::collections::HashSet;

use reflective::complete::{CompleteError, Holes};
use reflective::prelude::*;
use reflective_tests::catalogue::bst::{Tree, bst, is_bst, key, left, right};
use reflective_tests::catalogue::specs::{Spec, V, build, conforms};
use reflective_tests::derived::{Point, Tree as DerivedTree};

#[test]
fn the_papers_partial_search_tree_completes_to_search_trees() {
    // Node (Node _ 1 _) 5 _
    let g = bst(0, 10);
    let partial = Tree::node(Tree::node(Tree::Leaf, 1, Tree::Leaf), 5, Tree::Leaf);
    let inner = left(&partial).unwrap();
    let holes = Holes::new()
        .at(left(inner).unwrap())
        .at(right(inner).unwrap())
        .at(right(&partial).unwrap());
    let completions = g
        .completer()
        .completions(&partial, &holes, 0, 1000)
        .unwrap();
    let mut distinct = HashSet::new();
    for tree in &completions {
        assert!(is_bst(tree, 0, 10), "{tree:?}");
        assert_eq!(key(tree), Some(&5));
        assert_eq!(left(tree).and_then(key), Some(&1));
        assert!(g.can_generate(tree));
        distinct.insert(tree.clone());
    }
    // Below 1 only 0 fits; between 1 and 5, the subsets of 2..=4 in every shape; above 5, 6..=10.
    assert!(
        distinct.len() > 100,
        "{} distinct completions",
        distinct.len()
    );
    assert!(completions.iter().any(|t| right(t) != Some(&Tree::Leaf)));
}

#[test]
fn any_field_of_a_derived_struct_can_be_a_hole() {
    let g = Point::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(1);
    for _ in 0..100 {
        let given = g.generate_value(&mut rng, 100);
        for field in 0..2 {
            let holes = if field == 0 {
                Holes::new().at(&given.x)
            } else {
                Holes::new().at(&given.y)
            };
            let filled = g.completer().completions(&given, &holes, 3, 10).unwrap();
            for point in &filled {
                if field == 0 {
                    assert_eq!(point.y, given.y);
                } else {
                    assert_eq!(point.x, given.x);
                }
            }
            let varied: HashSet<(i32, i32)> = filled.iter().map(|p| (p.x, p.y)).collect();
            assert!(varied.len() > 1, "field {field} of {given:?} never changed");
        }
    }
}

#[test]
fn a_derived_recursive_enum_completes_through_its_boxes() {
    let g = DerivedTree::<u8>::arbitrary_reflective();
    let leaf = || Box::new(DerivedTree::Leaf);
    let partial = DerivedTree::Node(leaf(), 42, Box::new(DerivedTree::Node(leaf(), 7, leaf())));
    let DerivedTree::Node(hole_box, _, right_box) = &partial else {
        unreachable!()
    };
    // The box itself, or what it holds.
    for holes in [Holes::new().at(hole_box), Holes::new().at(&**hole_box)] {
        let filled = g.completer().completions(&partial, &holes, 0, 200).unwrap();
        let mut lefts = HashSet::new();
        for tree in &filled {
            let DerivedTree::Node(l, 42, r) = tree else {
                panic!("the root changed: {tree:?}");
            };
            assert_eq!(r, right_box);
            lefts.insert(format!("{l:?}"));
        }
        assert!(lefts.len() > 10, "{} distinct left subtrees", lefts.len());
    }
}

#[test]
fn an_element_of_a_collection_can_be_a_hole() {
    let g = vec(range(100u16..=200), ..);
    let partial = vec![150, 0, 170];
    let holes = Holes::new().at(&partial[1]);
    let filled = g.completer().completions(&partial, &holes, 9, 100).unwrap();
    for list in &filled {
        assert_eq!((list.len(), list[0], list[2]), (3, 150, 170));
        assert!((100..=200).contains(&list[1]));
    }
    assert!(filled.iter().map(|l| l[1]).collect::<HashSet<_>>().len() > 20);
}

/// The paths from `value`'s root to the parts of it that `spec`'s generator reaches by focus
/// or as a collection's element: the places a hole can be.
fn hole_paths(spec: &Spec, value: &V, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    let mut child = |index: usize, spec: &Spec, value: &V, out: &mut Vec<Vec<usize>>| {
        path.push(index);
        out.push(path.clone());
        hole_paths(spec, value, path, out);
        path.pop();
    };
    match (spec, value) {
        // The member's value is the inner generator's, at the same place.
        (Spec::Memoized(inner), value) => hole_paths(inner, value, path, out),
        (Spec::Pair(a, b), V::Pair(x, y)) => {
            child(0, a, x, out);
            child(1, b, y, out);
        }
        (Spec::List(element, _), V::List(items)) => {
            for (index, item) in items.iter().enumerate() {
                child(index, element, item, out);
            }
        }
        (Spec::Pick(branches), V::Tag(tag, inner)) => {
            child(0, &branches[usize::from(*tag)], inner, out);
        }
        (Spec::Counted(element, _), V::Pair(_, items)) => {
            if let V::List(items) = &**items {
                path.push(1);
                for (index, item) in items.iter().enumerate() {
                    path.push(index);
                    out.push(path.clone());
                    hole_paths(element, item, path, out);
                    path.pop();
                }
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'v>(value: &'v V, path: &[usize]) -> &'v V {
    path.iter().fold(value, |value, &index| match value {
        V::Pair(a, b) => {
            if index == 0 {
                a
            } else {
                b
            }
        }
        V::List(items) => &items[index],
        V::Tag(_, inner) => inner,
        V::Int(_) => unreachable!("an integer has no parts"),
    })
}

fn replaced(value: &V, path: &[usize], with: &V) -> V {
    let Some((&first, rest)) = path.split_first() else {
        return with.clone();
    };
    match value {
        V::Pair(a, b) if first == 0 => V::Pair(Box::new(replaced(a, rest, with)), b.clone()),
        V::Pair(a, b) => V::Pair(a.clone(), Box::new(replaced(b, rest, with))),
        V::List(items) => {
            let mut items = items.clone();
            items[first] = replaced(&items[first], rest, with);
            V::List(items)
        }
        V::Tag(tag, inner) => V::Tag(*tag, Box::new(replaced(inner, rest, with))),
        V::Int(_) => unreachable!("an integer has no parts"),
    }
}

#[test]
fn completions_of_random_generators_keep_every_given_part() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(4);
    let mut completed = 0;
    for round in 0..1000u64 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        let value = g.generate_value(&mut rng, 20);
        let mut paths = Vec::new();
        hole_paths(&spec, &value, &mut Vec::new(), &mut paths);
        let Some(path) = paths.get(round as usize % paths.len().max(1)) else {
            continue;
        };
        let holes = Holes::new().at(at(&value, path));
        let filled = g
            .completer()
            .complete(&value, &holes, round)
            .unwrap_or_else(|error| panic!("{spec:?} {value:?} at {path:?}: {error}"))
            .value;
        assert!(conforms(&spec, &filled), "{spec:?}: {filled:?}");
        // Put the given part back into the hole: the rest is as given.
        assert_eq!(
            replaced(&filled, path, at(&value, path)),
            value,
            "{spec:?} at {path:?}"
        );
        completed += 1;
    }
    assert!(completed > 300, "only {completed} values had a hole");
}

#[test]
fn given_parts_the_generator_cannot_produce_are_an_error_naming_the_part() {
    let g = bst(0, 10);
    // 12 is out of the key range.
    let partial = Tree::node(Tree::Leaf, 12, Tree::Leaf);
    let holes = Holes::new().at(left(&partial).unwrap());
    let error = g.completer().complete(&partial, &holes, 0).unwrap_err();
    let CompleteError::CannotProduce { part, path, size } = &error else {
        panic!("{error}");
    };
    assert_eq!((*part, *size), (Some("i64"), reflective::DEFAULT_SIZE));
    assert_eq!(
        path.iter().map(|l| l.as_str()).collect::<Vec<_>>(),
        ["node"]
    );
    assert!(
        error
            .to_string()
            .contains("the first that fails is a `i64` at `node`"),
        "{error}"
    );
}

/// A hole whose part decides a given part's range (a `bind` on it) may leave the given part
/// out in every draw: the error names the holes' draws as a cause, where it said only that the
/// generator cannot produce the given parts (which it can, around another draw) and that a
/// larger size may.
#[test]
fn a_hole_that_leaves_a_given_part_out_is_named_as_a_cause() {
    let pairs = range(0u32..=1000)
        .focus(|p: &(u32, u32)| Some(&p.0))
        .bind(|a| {
            range(a..=1000)
                .focus(|p: &(u32, u32)| Some(&p.1))
                .map(move |b| (a, b))
        });
    assert!(pairs.can_generate(&(0, 0)));
    let partial = (0u32, 0u32);
    let error = pairs
        .completer()
        .complete(&partial, &Holes::new().at(&partial.0), 0)
        .unwrap_err();
    assert!(
        matches!(error, CompleteError::CannotProduce { .. }),
        "{error:?}"
    );
    let text = error.to_string();
    assert!(
        text.contains("what the holes were filled with leaves a given part out"),
        "{text}"
    );
    assert!(text.contains("drawn up to 32 times"), "{text}");
}

#[test]
fn a_derived_types_error_names_the_field_that_fails_and_its_variants() {
    use reflective_tests::derived::{Readings, Roll};
    // A die of 9: the field `face` (1 to 6) cannot be 9.
    let g = Readings::arbitrary_reflective();
    let mut given = g.generate_value(&mut DefaultRng::seed_from_u64(1), 50);
    given.face = 9;
    let error = g
        .completer()
        .complete(&given, &Holes::new().at(&given.even), 0)
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the first that fails is a `u8` at `face`"),
        "{error}"
    );
    // In an enum, the variant comes first: `Pair`'s field `first`.
    let g = Roll::arbitrary_reflective();
    let given = Roll::Pair {
        first: 9,
        second: 0,
    };
    let Roll::Pair { second, .. } = &given else {
        unreachable!()
    };
    let error = g
        .completer()
        .complete(&given, &Holes::new().at(second), 0)
        .unwrap_err();
    assert!(
        error.to_string().contains("a `u8` at `Pair.first`"),
        "{error}"
    );
}

#[test]
fn a_hole_outside_the_value_is_an_error() {
    let g = bst(0, 10);
    let partial = Tree::node(Tree::Leaf, 3, Tree::Leaf);
    let elsewhere = Tree::Leaf;
    let holes = Holes::new().at(left(&partial).unwrap()).at(&elsewhere);
    let error = g.completer().complete(&partial, &holes, 0).unwrap_err();
    assert_eq!(error, CompleteError::HoleNotReached { index: 1 });
    // Through a comap, which computes a new value, no hole is reached.
    let evens = range(0u8..=50)
        .map(|x| x * 2)
        .comap(|n: &u8| n.is_multiple_of(2).then(|| n / 2));
    let pair = zip(
        (&evens).focus(|p: &(u8, u8)| Some(&p.0)),
        (&evens).focus(|p: &(u8, u8)| Some(&p.1)),
    );
    let given = (4u8, 6u8);
    assert!(
        pair.completer()
            .complete(&given, &Holes::new().at(&given.1), 0)
            .is_ok()
    );
    let copied = tuple((range(0u8..=9), range(0u8..=9))).comap(|p: &(u8, u8)| Some(*p));
    assert_eq!(
        copied
            .completer()
            .complete(&given, &Holes::new().at(&given.1), 0),
        Err(CompleteError::HoleNotReached { index: 0 })
    );
}

/// A part given twice is one hole, and the whole value as the hole is a value generated (through
/// a `comap` too, which reaches no part), or an error saying why generating it failed.
#[test]
fn a_repeated_hole_is_one_and_the_whole_value_is_generated() {
    let g = vec(range(0u8..=9), ..);
    let given = vec![1u8, 2, 3];
    let twice = Holes::new().at(&given[1]).at(&given[1]);
    assert_eq!(twice.len(), 1);
    let filled = g.completer().completions(&given, &twice, 1, 20).unwrap();
    assert!(
        filled
            .iter()
            .all(|v| v.len() == 3 && v[0] == 1 && v[2] == 3)
    );
    let whole = g
        .completer()
        .completions(&given, &Holes::new().at(&given), 1, 50)
        .unwrap();
    assert!(whole.iter().all(|v| g.can_generate(v)));
    assert!(whole.iter().collect::<HashSet<_>>().len() > 10);
    let evens = range(0u8..=50)
        .map(|x| x * 2)
        .comap(|n: &u8| n.is_multiple_of(2).then(|| n / 2));
    let four = 4u8;
    let completed = evens
        .completer()
        .complete(&four, &Holes::new().at(&four), 0)
        .unwrap();
    assert!(completed.value % 2 == 0 && evens.replay(&completed.tree) == Some(completed.value));
    // Generating the whole value that fails, or panics, says so.
    fn generating_error<T>(g: &impl Generator<Input = T, Output = T>, whole: &T) -> String {
        match g.completer().complete(whole, &Holes::new().at(whole), 0) {
            Err(CompleteError::Generating { message }) => message,
            other => panic!("not a generation error: {:?}", other.map(|_| ())),
        }
    }
    let three = std::collections::BTreeSet::from([false, true]);
    let message = generating_error(&btree_set(bool(), 3..=3), &three);
    assert!(message.contains("could not draw 3 distinct"), "{message}");
    let panicking = range(0u8..=9)
        .map(|x| {
            assert!(x > 100, "boom {x}");
            x
        })
        .comap(|x: &u8| Some(*x));
    let message = generating_error(&panicking, &5u8);
    assert!(
        message.starts_with("the generator panicked: boom"),
        "{message}"
    );
}

/// A struct inside a struct, for the path of a nested field.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
struct Outer {
    a: u8,
    inner: Inner,
    hole: u8,
}

/// Two fields with their own ranges.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
struct Inner {
    #[reflective(generator = "reflective::range(1u8..=6)")]
    x: u8,
    #[reflective(generator = "reflective::range(0u8..=3)")]
    y: u8,
}

#[test]
fn the_path_names_the_failing_part_after_parts_that_were_produced() {
    // Fields produced before the one that fails leave no trace in its path.
    let g = Outer::arbitrary_reflective();
    let given = Outer {
        a: 0,
        inner: Inner { x: 1, y: 9 },
        hole: 0,
    };
    let error = g
        .completer()
        .complete(&given, &Holes::new().at(&given.hole), 0)
        .unwrap_err();
    assert!(error.to_string().contains("a `u8` at `inner.y`"), "{error}");
    // A pick's branch that fails before another produces the part names nothing: 7 comes
    // from "high", after "low" failed on it; 42 is what fails.
    let x = labeled([
        (
            "low",
            range(0u8..=3)
                .focus(|p: &(u8, u8, u8)| Some(&p.0))
                .named("x")
                .boxed(),
        ),
        (
            "high",
            range(4u8..=9)
                .focus(|p: &(u8, u8, u8)| Some(&p.0))
                .named("x")
                .boxed(),
        ),
    ]);
    let y = range(0u8..=9)
        .focus(|p: &(u8, u8, u8)| Some(&p.1))
        .named("y");
    let z = range(0u8..=9)
        .focus(|p: &(u8, u8, u8)| Some(&p.2))
        .named("z");
    let triples = x.zip(y).zip(z);
    let given = (7u8, 42u8, 0u8);
    let error = triples
        .completer()
        .complete(&given, &Holes::new().at(&given.2), 0)
        .unwrap_err();
    assert!(error.to_string().contains("a `u8` at `y`"), "{error}");
}

/// A `filter` that rejects every completion is named as a possible cause, not only a size
/// too small: no given part fails alone.
#[test]
fn a_filter_rejecting_every_completion_is_named() {
    let ordered = tuple((range(0u8..=9), range(0u8..=9))).filter(|(a, b)| a < b);
    let partial = (9u8, 0u8);
    let error = ordered
        .completer()
        .complete(&partial, &Holes::new().at(&partial.1), 0)
        .expect_err("nothing above 9");
    assert!(
        matches!(error, CompleteError::CannotProduce { part: None, .. }),
        "{error:?}"
    );
    let text = error.to_string();
    assert!(
        text.contains("a check of the whole value (a `filter`)"),
        "{text}"
    );
    // A completion the filter keeps is found.
    let partial = (3u8, 0u8);
    let done = ordered
        .completer()
        .complete(&partial, &Holes::new().at(&partial.1), 0)
        .expect("a key above 3");
    assert!(done.value.0 == 3 && done.value.1 > 3, "{:?}", done.value);
}

/// A struct with a collection of structs, for the path through an element.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
struct Basket {
    items: Vec<Inner>,
    hole: u8,
}

/// A path that goes into a collection names the element's index: `items[2].y`, with `[2]` a
/// label of its own in `path`.
#[test]
fn a_path_into_a_collection_names_the_elements_index() {
    let g = Basket::arbitrary_reflective();
    let inner = |y| Inner { x: 1, y };
    let given = Basket {
        items: vec![inner(0), inner(1), inner(9), inner(2)],
        hole: 0,
    };
    let error = g
        .completer()
        .complete(&given, &Holes::new().at(&given.hole), 0)
        .unwrap_err();
    let CompleteError::CannotProduce { part, path, .. } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(*part, Some("u8"));
    assert_eq!(path, &["items", "[2]", "y"]);
    assert!(
        error
            .to_string()
            .contains("the first that fails is a `u8` at `items[2].y`"),
        "{error}"
    );
    // An element with no focus inside is the part that fails itself; nested collections
    // write their indices one after the other.
    let lists = vec(vec(range(0u8..=5), ..), ..)
        .focus(|p: &(Vec<Vec<u8>>, u8)| Some(&p.0))
        .named("lists")
        .zip(range(0u8..=5).focus(|p: &(Vec<Vec<u8>>, u8)| Some(&p.1)));
    let given = (vec![vec![1], vec![2, 3, 9]], 0u8);
    let error = lists
        .completer()
        .complete(&given, &Holes::new().at(&given.1), 0)
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the first that fails is a `u8` at `lists[1][2]`"),
        "{error}"
    );
}

/// Over random baskets, an impossible part planted in a random element is named at that
/// element's index, and the basket without it completes.
#[test]
fn the_index_in_the_path_is_the_planted_elements() {
    use reflective::rand_core::Rng;
    let g = Basket::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(5);
    let mut planted = 0;
    for _ in 0..300 {
        let mut given = g.generate_value(&mut rng, 60);
        assert!(
            g.completer()
                .complete(&given, &Holes::new().at(&given.hole), 1)
                .is_ok()
        );
        if given.items.is_empty() {
            continue;
        }
        let index = rng.next_u64() as usize % given.items.len();
        given.items[index].y = 4 + (rng.next_u64() % 200) as u8;
        let error = g
            .completer()
            .complete(&given, &Holes::new().at(&given.hole), 1)
            .unwrap_err();
        let CompleteError::CannotProduce { part, path, .. } = &error else {
            panic!("{error:?}");
        };
        let element = format!("[{index}]");
        assert_eq!(*part, Some("u8"), "{error}");
        assert_eq!(path, &["items", element.as_str(), "y"], "{error}");
        planted += 1;
    }
    assert!(planted > 200, "only {planted} baskets had an item");
}

/// At a huge size, generating a hole's part fails (a collection too long to hold), and the
/// error says so, where it said only that no part fails alone (`part: None`).
#[test]
fn a_hole_that_cannot_be_generated_at_a_huge_size_says_why() {
    use reflective_tests::derived::Rose;
    let g = Rose::arbitrary_reflective();
    let leaf = |label| Rose {
        label,
        children: Vec::new(),
    };
    let given = Rose {
        label: 1,
        children: vec![leaf(2), leaf(3)],
    };
    let huge = usize::MAX / 2;
    for holes in [
        Holes::new().at(&given.children),
        Holes::new().at(&given.children[1]),
    ] {
        let error = g
            .completer()
            .size(huge)
            .complete(&given, &holes, 0)
            .unwrap_err();
        let CompleteError::HoleNotGenerated {
            index: 0,
            message,
            size,
        } = &error
        else {
            panic!("{error:?}");
        };
        assert_eq!(*size, huge);
        assert!(message.contains("generate at a smaller size"), "{message}");
        let text = error.to_string();
        assert!(
            text.starts_with(&format!(
                "cannot complete the value: generating the part of hole 0 (from 0) failed at \
                 size {huge}: a collection of "
            )),
            "{text}"
        );
    }
    // The given value itself reflects at that size, and mutates.
    assert_eq!(g.reflector().size(huge).can_generate(&given), Ok(true));
    assert!(g.mutator().mutate(&given, 0).is_ok());
    // At the default size the same holes complete.
    assert!(
        g.completer()
            .complete(&given, &Holes::new().at(&given.children[1]), 0)
            .is_ok()
    );
}
