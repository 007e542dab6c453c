//! The dimension of every kind of type: the Agata thesis' examples (section 2.1.3), the
//! standard types, the derived test types, and the `dimension = N` override.

use std::collections::{BTreeMap, HashSet};

use reflective::Reflective;
use reflective_tests::derived::{
    Block, Cell, Chain, Deep, Expr, Json, List, Matrix, Nat, Rose, Stmt, Tree,
};

// The thesis' examples.

/// An enumeration: no fields.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum B {
    X,
    Y,
}

/// Non-recursive, its highest field `B`.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct A {
    b: B,
}

/// Recursive, with a field of dimension 1.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum ListList {
    Nil,
    Cons(Vec<()>, Box<ListList>),
}

/// Mutually recursive with [`Forest`]; its non-recursive field is a `Nat` (dimension 1).
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Branch {
    Node(Nat, Box<Forest>),
}

/// Mutually recursive with [`Branch`].
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Forest {
    Nil,
    Cons(Box<Branch>, Box<Forest>),
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum NatOrList {
    N(Nat),
    L(ListList),
}

#[derive(Clone, Debug, PartialEq, Reflective)]
struct NatAndList(Nat, ListList);

/// A dimension given by hand.
#[derive(Clone, Debug, PartialEq, Reflective)]
#[reflective(dimension = 4)]
struct Given(Vec<u8>);

/// A field with its own generator is not visited.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct Custom {
    id: u8,
    #[reflective(with = names)]
    names: Vec<String>,
}

fn names() -> reflective::Gen<Vec<String>, Vec<String>> {
    reflective::vec(reflective::string(), ..)
}

/// Skipped variants do not count: they are never generated.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Skipping {
    Small(u8),
    #[reflective(skip)]
    Large(Vec<Vec<u8>>),
}

#[test]
fn the_thesis_examples() {
    assert_eq!(B::dimension(), 0);
    assert_eq!(A::dimension(), 0);
    assert_eq!(Nat::dimension(), 1);
    assert_eq!(List::dimension(), 1);
    assert_eq!(Tree::<()>::dimension(), 1);
    assert_eq!(ListList::dimension(), 2);
    assert_eq!(Branch::dimension(), 2);
    assert_eq!(Forest::dimension(), 2);
    assert_eq!(NatOrList::dimension(), 2);
    assert_eq!(NatAndList::dimension(), 2);
}

#[test]
fn standard_types() {
    assert_eq!(u8::dimension(), 0);
    assert_eq!(<()>::dimension(), 0);
    assert_eq!(<(i64, bool, char, f64)>::dimension(), 0);
    assert_eq!(<Option<Box<u8>>>::dimension(), 0);
    assert_eq!(<[u16; 4]>::dimension(), 0);
    assert_eq!(String::dimension(), 1);
    assert_eq!(<Vec<bool>>::dimension(), 1);
    assert_eq!(<(u8, String)>::dimension(), 1);
    assert_eq!(<Result<u8, String>>::dimension(), 1);
    assert_eq!(<HashSet<u8>>::dimension(), 1);
    assert_eq!(<BTreeMap<u8, String>>::dimension(), 2);
    assert_eq!(<Vec<String>>::dimension(), 2);
    assert_eq!(<[Vec<u8>; 3]>::dimension(), 1);
}

#[test]
fn nested_vectors_have_one_dimension_per_level() {
    assert_eq!(<Vec<u8>>::dimension(), 1);
    assert_eq!(<Vec<Vec<u8>>>::dimension(), 2);
    assert_eq!(<Vec<Vec<Vec<u8>>>>::dimension(), 3);
    assert_eq!(<Vec<Vec<Vec<Vec<u8>>>>>::dimension(), 4);
    assert_eq!(<Vec<Vec<Vec<Vec<Vec<u8>>>>>>::dimension(), 5);
    assert_eq!(<Vec<Vec<Vec<Vec<Vec<Vec<u8>>>>>>>::dimension(), 6);
    assert_eq!(<Vec<Vec<Vec<Vec<Vec<Vec<String>>>>>>>::dimension(), 7);
}

#[test]
fn derived_recursive_types() {
    // Recursive through a box, an option, a pair or a result.
    assert_eq!(Chain::dimension(), 1);
    assert_eq!(Cell::dimension(), 1);
    // Recursive through a vector: the vector is part of the recursion (the thesis' `D = MkD
    // [D]`), and a vector of it is one dimension up.
    assert_eq!(Rose::dimension(), 1);
    assert_eq!(<Vec<Rose>>::dimension(), 2);
    // A string field (dimension 1) inside the recursion.
    assert_eq!(Json::dimension(), 2);
    assert_eq!(Tree::<String>::dimension(), 2);
    assert_eq!(Deep::dimension(), 3);
    assert_eq!(Matrix::dimension(), 2);
}

#[test]
fn a_mutually_recursive_group_has_one_dimension_from_every_member() {
    assert_eq!(Expr::dimension(), 1);
    assert_eq!(Stmt::dimension(), 1);
    assert_eq!(Block::dimension(), 1);
    assert_eq!(<Option<Block>>::dimension(), 1);
    assert_eq!(<Vec<Stmt>>::dimension(), 2);
    assert_eq!(<(Expr, Vec<Block>)>::dimension(), 2);
}

#[test]
fn a_given_dimension_replaces_the_computed_one() {
    assert_eq!(Given::dimension(), 4);
    assert_eq!(<Vec<Given>>::dimension(), 5);
    assert_eq!(Custom::dimension(), 0);
    assert_eq!(Skipping::dimension(), 0);
}

/// Recursive through a vector of vectors of itself.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct Rose2 {
    children: Vec<Vec<Rose2>>,
}

#[test]
fn a_collection_is_one_above_its_elements_inside_a_recursion_too() {
    assert_eq!(Rose2::dimension(), 1);
    assert_eq!(<Vec<Rose2>>::dimension(), 2);
    assert_eq!(<Vec<Vec<Rose2>>>::dimension(), 3);
    assert_eq!(<Vec<Vec<Vec<Rose2>>>>::dimension(), 4);
}

/// Twenty-four levels of structs, each holding two of the level below: 2^24 paths.
macro_rules! doubling {
    ($first:ident $(, $level:ident $below:ident)*) => {
        #[derive(Clone, Debug, PartialEq, Reflective)]
        struct $first(String);
        $(
            #[derive(Clone, Debug, PartialEq, Reflective)]
            struct $level {
                left: $below,
                right: $below,
            }
        )*
    };
}

doubling!(
    D0, D1 D0, D2 D1, D3 D2, D4 D3, D5 D4, D6 D5, D7 D6, D8 D7, D9 D8, D10 D9, D11 D10, D12 D11,
    D13 D12, D14 D13, D15 D14, D16 D15, D17 D16, D18 D17, D19 D18, D20 D19, D21 D20, D22 D21,
    D23 D22, D24 D23
);

/// Twelve types, each holding an optional box of every one of them.
macro_rules! all_to_all {
    ($($group:ident)*) => {
        all_to_all!(@each [$($group)*] $($group)*);
    };
    (@each $all:tt $($group:ident)*) => {
        $(all_to_all!(@one $group $all);)*
    };
    (@one $group:ident [$($all:ident)*]) => {
        #[derive(Clone, Debug, PartialEq, Reflective)]
        #[allow(non_snake_case)]
        struct $group {
            value: u8,
            $($all: Option<Box<$all>>,)*
        }
    };
}

all_to_all!(M0 M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11);

#[test]
fn every_type_is_visited_once() {
    // Without remembering finished types these take minutes (2^24 paths; 11! orders).
    let started = std::time::Instant::now();
    assert_eq!(D24::dimension(), 1);
    assert_eq!(M0::dimension(), 1);
    assert_eq!(M7::dimension(), 1);
    assert_eq!(<Vec<M11>>::dimension(), 2);
    assert!(
        started.elapsed().as_secs_f64() < 1.0,
        "took {:?}",
        started.elapsed()
    );
}
