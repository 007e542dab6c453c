//! `crate = "path"`: the derive and `#[property]` reach the runtime through the path they are
//! given. Here the runtime is reachable only as `my::rt`: `::reflective` names this test crate
//! itself, which holds none of the runtime, so an expansion that still named
//! `::reflective::...` would not compile.

extern crate self as reflective;

/// Only this crate has it: `::reflective::not_the_runtime` proves which crate `::reflective` is.
fn not_the_runtime() {}

/// The only way to the runtime in this crate.
mod my {
    pub extern crate reflective as rt;
}

use my::rt::prelude::*;

#[derive(Clone, Debug, PartialEq, my::rt::Reflective)]
#[reflective(crate = "my::rt")]
enum Shape {
    Dot,
    #[reflective(weight = 2, label = "line")]
    Line(u8),
    Pair {
        left: Box<Shape>,
        right: Vec<Shape>,
    },
    #[reflective(skip)]
    Never(u64),
}

#[derive(Clone, Debug, PartialEq, my::rt::Reflective)]
#[reflective(crate = "my::rt")]
struct Labelled<T> {
    #[reflective(generator = range(1u8..=6))]
    die: u8,
    #[reflective(with = small)]
    small: u8,
    inner: T,
}

/// A generator for `with`.
fn small() -> Gen<u8, u8> {
    range(0u8..=9).boxed()
}

#[test]
fn the_derive_reaches_the_runtime_through_crate() {
    ::reflective::not_the_runtime();
    let g = Shape::arbitrary_reflective();
    for seed in 0..50 {
        let shape = g.sample(seed);
        assert!(g.can_generate(&shape), "{shape:?}");
        assert!(!matches!(shape, Shape::Never(_)));
    }
    assert!(Shape::Line(3).shrink_candidates().contains(&Shape::Line(0)));
    assert_eq!(Shape::dimension(), 1);
    let g = Labelled::<bool>::arbitrary_reflective();
    let value = g.sample(3);
    assert!(
        (1..=6).contains(&value.die) && value.small <= 9,
        "{value:?}"
    );
}

#[my::rt::property(crate = "my::rt", cases = 50, seed = 3, strategy = "quadratic")]
fn a_property_reaches_the_runtime_through_crate(
    shape: Shape,
    #[reflective(with = small)] n: u8,
    #[reflective(generator = range(0u16..=5))] m: u16,
    labelled: Labelled<Option<bool>>,
) -> bool {
    !matches!(shape, Shape::Never(_)) && n <= 9 && m <= 5 && (1..=6).contains(&labelled.die)
}

#[my::rt::property(crate = "my::rt", parallel = true, statistics = false)]
fn a_parallel_property_reaches_the_runtime_through_crate(xs: Vec<u8>) -> Result<(), String> {
    if xs.len() <= 1000 {
        Ok(())
    } else {
        Err(format!("{} elements", xs.len()))
    }
}

#[my::rt::property(crate = "my::rt", regressions = false, case_time_limit_ms = 10_000)]
#[should_panic(expected = "minimal counterexample")]
fn a_failing_property_reports_through_crate(x: u8) {
    assert!(x < 200);
}
