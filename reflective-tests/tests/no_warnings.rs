//! The code the macros write never warns in a user's crate: this crate denies every warning,
//! and holds derived types of every shape and properties of every form.

#![deny(warnings)]

use std::collections::BTreeSet;

use reflective::prelude::*;

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Unit;

#[derive(Clone, Debug, PartialEq, Reflective)]
struct NoFields {}

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Pair(u8, bool);

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Wrapper<T> {
    inner: T,
    items: Vec<T>,
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Expr {
    Lit(i64),
    #[reflective(weight = 3, label = "add")]
    Add(Box<Expr>, Box<Expr>),
    Neg {
        inner: Box<Expr>,
    },
    #[reflective(skip)]
    Hole(String),
    Nothing,
}

/// Mutually recursive with [`Forest`].
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Tree {
    Leaf,
    Node(Forest),
}

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Forest {
    trees: Vec<Tree>,
}

fn small() -> Gen<u8, u8> {
    range(0u8..=3).boxed()
}

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Custom {
    #[reflective(generator = range(0u8..=9))]
    digit: u8,
    #[reflective(generator = "range(1u8..=6)")]
    die: u8,
    #[reflective(with = small)]
    small: u8,
}

#[derive(Clone, Debug, PartialEq, Reflective)]
#[reflective(bound = "K: Reflective + Ord", dimension = 1)]
struct Keys<K> {
    keys: BTreeSet<K>,
}

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Array<const N: usize>([u8; N]);

/// Never used: the type is dead code (allowed here), but what the derive writes for it must not
/// add warnings of its own.
#[allow(dead_code)]
#[derive(Clone, Debug, Reflective)]
struct Unused {
    x: u8,
    rest: Vec<Unused>,
}

/// Generates a value of `T` and reflects it.
fn round_trip<T: Reflective + PartialEq + std::fmt::Debug>(seed: u64) {
    let g = T::arbitrary_reflective();
    let value = g.sample(seed);
    assert!(g.can_generate(&value), "{value:?}");
    let _ = value.shrink_candidates();
}

#[test]
fn derived_types_of_every_shape_compile_without_warnings() {
    for seed in 0..5 {
        round_trip::<Unit>(seed);
        round_trip::<NoFields>(seed);
        round_trip::<Pair>(seed);
        round_trip::<Wrapper<u16>>(seed);
        round_trip::<Expr>(seed);
        round_trip::<Tree>(seed);
        round_trip::<Forest>(seed);
        round_trip::<Custom>(seed);
        round_trip::<Keys<u8>>(seed);
        round_trip::<Array<3>>(seed);
    }
    assert_eq!(Keys::<u8>::dimension(), 1);
}

/// A body of one expression, which the test once wrapped in a block of its own (a warning).
#[reflective::property]
#[rustfmt::skip]
fn one_line(x: u8) -> bool { x.count_ones() <= 8 }

#[reflective::property(cases = 50)]
fn multi_line(xs: Vec<u8>) {
    let mut sorted = xs.clone();
    sorted.sort_unstable();
    assert_eq!(sorted.len(), xs.len());
}

#[reflective::property]
fn returns_a_result(e: Expr) -> Result<(), String> {
    fn depth(e: &Expr) -> usize {
        match e {
            Expr::Add(a, b) => 1 + depth(a).max(depth(b)),
            Expr::Neg { inner } => 1 + depth(inner),
            Expr::Lit(_) | Expr::Hole(_) | Expr::Nothing => 0,
        }
    }
    let depth = depth(&e);
    if depth > 100 {
        return Err(format!("{depth} levels"));
    }
    let halved = u8::try_from(depth / 2).map_err(|error| error.to_string())?;
    assert!(halved <= 50);
    Ok(())
}

#[reflective::property(
    seed = 5,
    max_size = 20,
    strategy = "random",
    statistics = false,
    check_coverage = false,
    case_time_limit_ms = 60_000,
    regressions = false
)]
fn many_arguments(
    a: u8,
    #[reflective(generator = range(0u16..=9))] b: u16,
    #[reflective(with = small)] c: u8,
    (d, e): (bool, char),
    mut f: Vec<u8>,
    w: Wrapper<u8>,
    custom: Custom,
    _unit: Unit,
) -> bool {
    f.push(a);
    b <= 9
        && c <= 3
        && u8::from(d) <= 1
        && e.len_utf8() <= 4
        && !f.is_empty()
        && w.items.len() < 1000
        && custom.digit <= 9
}

#[reflective::property]
fn uses_assume(a: u8, b: u8) {
    reflective::assume!(b != 0);
    reflective::assume(a >= b);
    assert!(a / b >= 1);
}

#[reflective::property(regressions = "off", statistics = 1)]
#[rustfmt::skip]
fn one_line_with_assume(n: u16) -> bool { reflective::assume!(n > 3); n > 2 }

#[reflective::property(parallel = true)]
fn in_parallel(x: u32, tree: Tree) -> bool {
    x.wrapping_add(1) != x && format!("{tree:?}").len() >= 4
}

/// Documented, and failing as it expects.
#[reflective::property]
#[should_panic(expected = "minimal counterexample")]
fn expected_to_fail(x: u8) {
    assert!(x < 100, "{x} is too big");
}

#[reflective::property]
fn with_inner_attributes(x: u8) {
    #![allow(unused_variables)]
    let unused = x;
}
