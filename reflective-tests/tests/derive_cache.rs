//! The per-thread cache of derived generators: generators outlive the thread that built them,
//! and a build that panics leaves nothing broken behind.

use std::sync::atomic::{AtomicBool, Ordering};

use reflective::prelude::*;

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8),
}

/// Builds `Box<Tree>` and `Tree` inside its own build.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct Holder {
    tree: Box<Tree>,
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Even {
    Zero,
    Succ(Box<Odd>),
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Odd {
    Succ(Box<Even>),
}

fn deep_tree() -> Tree {
    let leaf = Box::new(Tree::Leaf);
    Tree::Node(Box::new(Tree::Node(leaf, 1)), 2)
}

fn odd_three() -> Odd {
    let one = Odd::Succ(Box::new(Even::Zero));
    let two = Even::Succ(Box::new(one));
    Odd::Succ(Box::new(two))
}

/// Checks that `g` still generates and reflects `value` on this thread.
fn works<T: Clone + std::fmt::Debug + PartialEq + 'static>(g: &Gen<T, T>, value: &T) {
    let mut rng = DefaultRng::seed_from_u64(3);
    for size in [0, 5, 50] {
        let generated = g.try_generate(&mut rng, size).expect("generation works");
        assert_eq!(
            g.reflector().size(size).can_generate(&generated.value),
            Ok(true)
        );
    }
    assert_eq!(g.reflector().can_generate(value), Ok(true));
}

#[test]
fn a_generator_built_inside_another_outlives_the_thread_that_built_it() {
    let g = std::thread::spawn(|| {
        let _holder = Holder::arbitrary_reflective();
        Tree::arbitrary_reflective()
    })
    .join()
    .expect("the building thread ends normally");
    works(&g, &deep_tree());
}

#[test]
fn mutually_recursive_generators_outlive_their_thread_in_either_order() {
    let odd = std::thread::spawn(|| {
        let _even = Even::arbitrary_reflective();
        Odd::arbitrary_reflective()
    })
    .join()
    .expect("the building thread ends normally");
    works(&odd, &odd_three());
    let even = std::thread::spawn(|| {
        let _odd = Odd::arbitrary_reflective();
        Even::arbitrary_reflective()
    })
    .join()
    .expect("the building thread ends normally");
    works(
        &even,
        &Even::Succ(Box::new(Odd::Succ(Box::new(Even::Zero)))),
    );
}

static PANIC_ONCE: AtomicBool = AtomicBool::new(true);

fn flaky_byte() -> Gen<u8, u8> {
    if PANIC_ONCE.swap(false, Ordering::SeqCst) {
        panic!("the first build fails");
    }
    range(0..=9).boxed()
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Flaky {
    Stop,
    Go(#[reflective(with = flaky_byte)] u8, Box<Flaky>),
}

#[test]
fn a_build_that_panics_leaves_no_broken_generator_behind() {
    let first = std::panic::catch_unwind(Flaky::arbitrary_reflective);
    assert!(first.is_err(), "the first build panics");
    let g = Flaky::arbitrary_reflective();
    works(
        &g,
        &Flaky::Go(3, Box::new(Flaky::Go(9, Box::new(Flaky::Stop)))),
    );
}
