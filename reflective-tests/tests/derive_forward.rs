//! The derive writes each type's forward run as code, which must make exactly the choices of
//! the combinator description it reflects with (see the runtime's `derive::direct`).
//!
//! Here the descriptions are written out with the combinators the derive uses, and both
//! generate side by side from the same seeds, at sizes from 0 to 100, under every size
//! strategy: the values and the choice trees must be the same. The types cover what the
//! forward code does differently from a plain call of a field's generator: a generic
//! recursive enum whose fields box the type itself (run without the recursive reference), the
//! same through a type alias, a recursive struct whose recursion goes through a collection,
//! the variant attributes (weights, labels, a skipped variant), and a user type named `Box`
//! (which is not the standard box). A recursive type with a const parameter reflects every
//! value at the size it was generated at, and generates as its twin with the parameter
//! written out. A struct with a `PhantomData` and an `Arc` field generates as its twin with
//! neither. The other derive tests (`derive_laws`) check, over every derived type there, that
//! each generated tree is one the description reflects.

use reflective::__private::{at_size_zero, fuelled, grown, outermost, pick, pure, recursion};
use reflective::Reflective;
use reflective::prelude::*;
use reflective_tests::derived::{Rose, Tree, Weather};

/// `T`'s derived generator and `described`, generating from the same seeds at the same sizes
/// under each strategy, give the same values with the same choices.
fn same_as_described<T>(described: Gen<T, T>)
where
    T: Reflective + PartialEq + std::fmt::Debug,
{
    let derived = T::arbitrary_reflective();
    for strategy in Strategy::ALL {
        let derived = (&derived).size_strategy(strategy);
        let described = (&described).size_strategy(strategy);
        for size in [0, 1, 2, 3, 5, 10, 30, 100] {
            for seed in 0..60 {
                let rng = || DefaultRng::seed_from_u64(seed);
                let expected = described.generate(&mut rng(), size);
                assert_eq!(
                    derived.generate(&mut rng(), size),
                    expected,
                    "{strategy:?}, size {size}, seed {seed}"
                );
                assert_eq!(derived.generate_value(&mut rng(), size), expected.value);
            }
        }
    }
}

/// The pick of a recursive enum's `Leaf` and `Node` (which holds the type itself), both of
/// weight 1, as the derive describes it: at size 0 the leaf; at the root of a value outside
/// every other recursive value, the node's weight times the size; inside one, 1:1.
fn leaf_or_node<T>(leaf: Gen<T, T>, node: Gen<T, T>) -> Gen<T, T>
where
    T: Clone + std::fmt::Debug + Send + Sync + 'static,
{
    let at_zero = pick([(1, "Leaf", leaf.clone()), (0, "Node", node.clone())]);
    let at_root = {
        let (leaf, node) = (leaf.clone(), node.clone());
        sized(move |size| {
            pick([
                (1, "Leaf", leaf.clone()),
                (grown(1, true, size), "Node", node.clone()),
            ])
        })
    };
    outermost(
        at_size_zero(at_zero.clone(), at_root),
        at_size_zero(at_zero, pick([(1, "Leaf", leaf), (1, "Node", node)])),
    )
    .boxed()
}

#[test]
fn a_generic_tree_that_boxes_itself_makes_its_descriptions_choices() {
    let described = recursive(|itself: Gen<Tree<u8>, Tree<u8>>| {
        let child = in_box(itself);
        let leaf = pure::<(), Tree<u8>>(Tree::Leaf)
            .focus(|t: &Tree<u8>| matches!(t, Tree::Leaf).then_some(&()))
            .boxed();
        let node = recursion(
            pure::<Tree<u8>, ()>(())
                .zip(fuelled(child.clone()).focus(|t: &Tree<u8>| match t {
                    Tree::Node(left, _, _) => Some(left),
                    Tree::Leaf => None,
                }))
                .zip(
                    fuelled(u8::arbitrary_reflective()).focus(|t: &Tree<u8>| match t {
                        Tree::Node(_, value, _) => Some(value),
                        Tree::Leaf => None,
                    }),
                )
                .zip(fuelled(child).focus(|t: &Tree<u8>| match t {
                    Tree::Node(_, _, right) => Some(right),
                    Tree::Leaf => None,
                }))
                .map(|((((), left), value), right)| Tree::Node(left, value, right)),
        )
        .boxed();
        leaf_or_node(leaf, node)
    });
    same_as_described(described);
}

#[test]
fn a_struct_that_recurses_through_a_vector_makes_its_descriptions_choices() {
    // The children are the derived `Rose`s in both: the code under test is the outer value's.
    let described = recursion(
        pure::<Rose, ()>(())
            .zip(fuelled(u8::arbitrary_reflective()).focus(|r: &Rose| Some(&r.label)))
            .zip(fuelled(Vec::<Rose>::arbitrary_reflective()).focus(|r: &Rose| Some(&r.children)))
            .map(|(((), label), children)| Rose { label, children }),
    )
    .boxed();
    same_as_described(described);
}

#[test]
fn weighted_labelled_and_skipped_variants_make_their_descriptions_choices() {
    let sunny = pure::<(), Weather>(Weather::Sunny)
        .focus(|w: &Weather| matches!(w, Weather::Sunny).then_some(&()))
        .boxed();
    let rain = pure::<Weather, ()>(())
        .zip(u16::arbitrary_reflective().focus(|w: &Weather| match w {
            Weather::Rain { mm } => Some(mm),
            _ => None,
        }))
        .map(|((), mm)| Weather::Rain { mm })
        .boxed();
    let apocalypse = pure::<(), Weather>(Weather::Apocalypse)
        .focus(|w: &Weather| matches!(w, Weather::Apocalypse).then_some(&()))
        .boxed();
    let wind = pure::<Weather, ()>(())
        .zip(u8::arbitrary_reflective().focus(|w: &Weather| match w {
            Weather::Wind(speed) => Some(speed),
            _ => None,
        }))
        .map(|((), speed)| Weather::Wind(speed))
        .boxed();
    let variants = [
        (5, "Sunny", sunny),
        (1, "wet", rain),
        (0, "Apocalypse", apocalypse),
        (2, "breeze", wind),
    ];
    let described = at_size_zero(pick(variants.clone()), pick(variants)).boxed();
    same_as_described(described);
}

/// A tree whose boxed field is spelled through an alias.
type Child = Box<Aliased>;

/// See [`Child`].
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Aliased {
    Leaf,
    Node(Child, u8),
}

#[test]
fn a_field_that_boxes_the_type_through_an_alias_makes_its_descriptions_choices() {
    let described = recursive(|itself: Gen<Aliased, Aliased>| {
        let leaf = pure::<(), Aliased>(Aliased::Leaf)
            .focus(|t: &Aliased| matches!(t, Aliased::Leaf).then_some(&()))
            .boxed();
        let node = recursion(
            pure::<Aliased, ()>(())
                .zip(fuelled(in_box(itself)).focus(|t: &Aliased| match t {
                    Aliased::Node(child, _) => Some(child),
                    Aliased::Leaf => None,
                }))
                .zip(
                    fuelled(u8::arbitrary_reflective()).focus(|t: &Aliased| match t {
                        Aliased::Node(_, value) => Some(value),
                        Aliased::Leaf => None,
                    }),
                )
                .map(|(((), child), value)| Aliased::Node(child, value)),
        )
        .boxed();
        at_size_zero(
            pick([(1, "Leaf", leaf.clone()), (0, "Node", node.clone())]),
            pick([(1, "Leaf", leaf), (1, "Node", node)]),
        )
    });
    same_as_described(described);
}

/// A user type named `Box`, and a type that holds it: its field is not the standard box.
mod own_box {
    use reflective::Reflective;

    /// Not `std::boxed::Box`.
    #[derive(Clone, Debug, PartialEq, Reflective)]
    pub struct Box<T>(pub Vec<T>);

    /// Recursion through the user's `Box`.
    #[derive(Clone, Debug, PartialEq, Reflective)]
    pub enum Nest {
        Leaf,
        Node(Box<Nest>),
    }
}

#[test]
fn a_user_type_named_box_is_not_taken_for_the_standard_box() {
    use own_box::{Box, Nest};
    // The inner values are the derived `Nest`s in both: the code under test is the outer's.
    let leaf = pure::<(), Nest>(Nest::Leaf)
        .focus(|n: &Nest| matches!(n, Nest::Leaf).then_some(&()))
        .boxed();
    let node = recursion(
        pure::<Nest, ()>(())
            .zip(
                fuelled(Box::<Nest>::arbitrary_reflective()).focus(|n: &Nest| match n {
                    Nest::Node(inner) => Some(inner),
                    Nest::Leaf => None,
                }),
            )
            .map(|((), inner)| Nest::Node(inner)),
    )
    .boxed();
    same_as_described(leaf_or_node(leaf, node));
}

/// A recursive type with a const parameter.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Sized2<const N: usize> {
    Leaf([u8; N]),
    Node(Box<Sized2<N>>, Box<Sized2<N>>),
}

#[test]
fn a_recursive_type_with_a_const_parameter_reflects_what_it_generates() {
    let g = Sized2::<2>::arbitrary_reflective();
    for size in 0..=12 {
        for seed in 0..40 {
            let generated = g.generate(&mut DefaultRng::seed_from_u64(seed), size);
            let trees = g
                .reflector()
                .size(size)
                .choices(&generated.value)
                .expect("reflects within the budget");
            assert!(
                trees.contains(&generated.tree),
                "size {size}, seed {seed}: {:?} does not reflect as generated",
                generated.value
            );
        }
    }
}

/// [`Sized2`] with its length written out.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Plain {
    Leaf([u8; 2]),
    Node(Box<Plain>, Box<Plain>),
}

impl From<&Sized2<2>> for Plain {
    fn from(tree: &Sized2<2>) -> Plain {
        match tree {
            Sized2::Leaf(bytes) => Plain::Leaf(*bytes),
            Sized2::Node(left, right) => {
                Plain::Node(Box::new((&**left).into()), Box::new((&**right).into()))
            }
        }
    }
}

/// `A`'s derived generator makes the choices `B`'s (its twin, written another way) makes from
/// the same seeds at the same sizes, and values that are the twin's once converted.
fn generates_as_twin<A, B>()
where
    A: Reflective + std::fmt::Debug,
    B: Reflective + PartialEq + std::fmt::Debug + for<'a> From<&'a A>,
{
    let (a, b) = (A::arbitrary_reflective(), B::arbitrary_reflective());
    for size in [0, 1, 2, 5, 10, 30, 100] {
        for seed in 0..60 {
            let rng = || DefaultRng::seed_from_u64(seed);
            let (a, b) = (a.generate(&mut rng(), size), b.generate(&mut rng(), size));
            assert_eq!(B::from(&a.value), b.value, "size {size}, seed {seed}");
            assert_eq!(a.tree, b.tree, "size {size}, seed {seed}");
        }
    }
}

#[test]
fn a_const_parameter_generates_as_the_value_written_out() {
    // A const parameter is not a type that may lead back to this one: the array is a plain
    // field, and the box holds the type once.
    generates_as_twin::<Sized2<2>, Plain>();
}

/// Fields of `PhantomData` (whatever it names) and of `Arc` of a plain type hold no value of a
/// type that may lead back to the one derived: they do not make it a recursive node, which
/// would take a unit of the size from its other fields.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct Marked {
    marker: std::marker::PhantomData<Sized2<1>>,
    shared: std::sync::Arc<u8>,
    items: Vec<u8>,
}

/// [`Marked`] without the marker and the `Arc`.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct Unmarked {
    shared: u8,
    items: Vec<u8>,
}

#[test]
fn markers_and_arcs_generate_as_their_contents() {
    let (marked, unmarked) = (
        Marked::arbitrary_reflective(),
        Unmarked::arbitrary_reflective(),
    );
    for size in [0, 1, 2, 5, 100] {
        for seed in 0..60 {
            let rng = || DefaultRng::seed_from_u64(seed);
            let (a, b) = (
                marked.generate(&mut rng(), size),
                unmarked.generate(&mut rng(), size),
            );
            assert_eq!(
                (*a.value.shared, &a.value.items),
                (b.value.shared, &b.value.items)
            );
            assert_eq!(
                a.tree.choices(),
                b.tree.choices(),
                "size {size}, seed {seed}"
            );
        }
    }
}

/// A tree whose fields name it through module paths (`self::`, `crate::`): the segments before
/// the last name modules, not types that may lead back to it, so it splits its size as its
/// twin that names it bare.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Pathed {
    Leaf(u8),
    Node(Box<self::Pathed>, u8, Box<crate::Pathed>),
}

/// [`Pathed`], naming itself bare.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Bare {
    Leaf(u8),
    Node(Box<Bare>, u8, Box<Bare>),
}

/// An array's length.
const LENGTH: usize = 2;

/// A struct with an array whose length is a constant's name: not a type, so not a field that
/// may lead back to a user type (which would make the struct a recursive node, taking a unit
/// of the size from its vector).
#[derive(Clone, Debug, PartialEq, Reflective)]
struct NamedLength {
    bytes: [u8; LENGTH],
    items: Vec<u8>,
}

/// [`NamedLength`] with the length written out.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct WrittenLength {
    bytes: [u8; 2],
    items: Vec<u8>,
}

impl From<&Pathed> for Bare {
    fn from(tree: &Pathed) -> Self {
        match tree {
            Pathed::Leaf(x) => Bare::Leaf(*x),
            Pathed::Node(left, x, right) => {
                Bare::Node(Box::new((&**left).into()), *x, Box::new((&**right).into()))
            }
        }
    }
}

impl From<&NamedLength> for WrittenLength {
    fn from(value: &NamedLength) -> Self {
        WrittenLength {
            bytes: value.bytes,
            items: value.items.clone(),
        }
    }
}

#[test]
fn module_paths_and_named_lengths_generate_as_their_bare_twins() {
    generates_as_twin::<Pathed, Bare>();
    generates_as_twin::<NamedLength, WrittenLength>();
}
