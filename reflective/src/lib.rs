//! Property-based testing with **reflective generators**: generators that also run backward.
//!
//! A [`Generator`] is one description with many interpretations. Run *forward*, it turns a
//! stream of random choices into a value, and records those choices as a [`ChoiceTree`]. Run
//! *backward* on a value, it finds the choices that would produce that value, even for a value
//! it never generated: one from a bug report, a fixture, a crash. From those two engines come
//! validity checking ([`Generator::can_generate`]), the probability of a value
//! ([`Generator::probability_of`]), the labels of its choices ([`Generator::reflect`]), exact
//! replay ([`Generator::replay`]), the shrinking built on them ([`Generator::shrink`]), and
//! mutation that keeps the generator's invariants ([`Generator::mutator`]), completion of a
//! value with holes ([`Generator::completer`]), and the validation of a generator itself
//! ([`Generator::validate`]), and valid generation by derivatives, Choice Gradient Sampling
//! ([`Generator::gradient`], [`Generator::valid_by_gradient`], and on free generators
//! [`free`]), and fuzzing with the same generators: any byte string read as a value, a value
//! written as bytes, bytes mutated within the invariants ([`Generator::decode`],
//! [`Generator::encode`], [`bytes`]), and stateful testing: command sequences from a model,
//! every one meeting its preconditions, shrunk by the same shrinker ([`stateful`]); tuning by
//! example is planned on the same engines.
//!
//! The library implements reflective generators as "Reflecting on Random Generation" and
//! "Holding a Mirror up to Random Generation" (Frohlich, Goldstein, Pierce and Wang) describe
//! them, which the docs call "the paper", and the size control of the Agata thesis (Jonas
//! Almström Duregård, "AGATA: Random generation of test data", Chalmers, 2009), "the thesis".
//!
//! # The model
//!
//! Read a generator as "a program that reflects on its [`Input`](Node::Input) while
//! producing its [`Output`](Node::Output)". Most generators users hold are *aligned*:
//! input and output are the same type. The same type is not enough for reflection to be right:
//! each [`map`](Generator::map) that changes the value must be undone by a
//! [`focus`](Generator::focus) or [`comap`](Generator::comap) before it, or reflection answers
//! wrongly (`range(0u8..=9).map(|x| x * 2)` claims it can produce 7 and not 14);
//! [`Reflector::reproductions`] shows such a missing annotation. Generators are built from a
//! few primitives (see [`combinator`]):
//!
//! - choices: [`pick`] between weighted, labelled branches, and integers ([`int`], [`range`]);
//! - sequencing: [`Generator::bind`] (what comes next depends on a value) and [`zip`] (it does
//!   not);
//! - annotations: [`Generator::focus`] says which part of the value a sub-generator produces,
//!   and prunes the branch when there is no such part; [`exact`] checks a constant;
//! - size: [`sized`] and [`Generator::resize`].
//!
//! Each combinator returns a type of its own, which holds its parts by value, so a generator
//! built inside a `bind` at every run costs no allocation. [`Generator::boxed`] erases the type
//! to a [`Gen<B, A>`](Gen): a recursive function returning a generator returns a `Gen`, and so
//! does every derived generator. Branches of different types go in a tuple:
//! `pick(((1, "leaf", leaf), (5, "node", node)))`, up to twelve; more, or a number known only at
//! run time, go in a `Vec` of [`Gen`]s. (See [`Node`] for why a generator is a type of its own
//! rather than one heap-allocated `Gen`.)
//!
//! Forward, annotations do nothing. Backward, the value flows through them: a pick tries each
//! branch, a focus looks at part of the value, an integer checks its range. Whatever survives
//! is a way to produce the value, with the choices it took.
//!
//! # A tour
//!
//! The paper's binary search trees: each node's key lies between the keys allowed by its
//! ancestors, so the generator only produces valid trees.
//!
//! ```
//! use reflective::prelude::*;
//!
//! #[derive(Clone, Debug, PartialEq)]
//! enum Tree { Leaf, Node(Box<Tree>, i64, Box<Tree>) }
//!
//! fn bst(lo: i64, hi: i64) -> Gen<Tree, Tree> {
//!     if lo > hi {
//!         return exact(Tree::Leaf).boxed();
//!     }
//!     pick((
//!         (1, "leaf", exact(Tree::Leaf)),
//!         (5, "node", range(lo..=hi)
//!             .focus(|t: &Tree| match t { Tree::Node(_, x, _) => Some(x), _ => None })
//!             .bind(move |x| zip(
//!                 bst(lo, x - 1).focus(|t: &Tree| match t { Tree::Node(l, _, _) => Some(&**l), _ => None }),
//!                 bst(x + 1, hi).focus(|t: &Tree| match t { Tree::Node(_, _, r) => Some(&**r), _ => None }),
//!             )
//!             .map(move |(l, r)| Tree::Node(Box::new(l), x, Box::new(r))))),
//!     ))
//!     .boxed()
//! }
//!
//! let g = bst(1, 10);
//! let tree = g.sample(2024);                      // forward: a random valid tree
//! assert!(g.can_generate(&tree));                 // backward: every generated tree reflects
//!
//! // A tree typed in by hand: valid, and its choices and probability are known.
//! let leaf = || Box::new(Tree::Leaf);
//! let typed = Tree::Node(leaf(), 5, Box::new(Tree::Node(leaf(), 7, leaf())));
//! assert!(g.can_generate(&typed));
//! assert_eq!(g.reflect(&typed)[0].iter().map(|l| l.to_string()).collect::<Vec<_>>(),
//!            ["node", "leaf", "node", "leaf", "leaf"]);
//! assert!(g.probability_of(&typed) > 0.0);
//!
//! // Not a search tree: 3 is right of 5. Reflection finds no way to produce it.
//! let invalid = Tree::Node(leaf(), 5, Box::new(Tree::Node(leaf(), 3, leaf())));
//! assert!(!g.can_generate(&invalid));
//! assert_eq!(g.probability_of(&invalid), 0.0);
//!
//! // Its choices replay to the same tree.
//! let tree_of_choices = g.choices(&typed).remove(0);
//! assert_eq!(g.replay(&tree_of_choices), Some(typed));
//! ```
//!
//! # Deriving generators
//!
//! Most generators need not be written by hand: `#[derive(Reflective)]` writes one for a
//! struct or an enum, recursive ones included, and [`Reflective::arbitrary_reflective`]
//! returns it. The derive also writes optics (`Type::lens_field`, `Type::as_variant`,
//! `Type::variant_field`, ...) for hand-written generators to `focus` with, and a type-directed
//! shrinker, [`Reflective::shrink_candidates`]. The attributes are listed on the derive.
//!
//! ```
//! use reflective::prelude::*;
//!
//! #[derive(Clone, Debug, PartialEq, Reflective)]
//! enum Expr {
//!     Lit(i64),
//!     #[reflective(weight = 2)]
//!     Add(Box<Expr>, Box<Expr>),
//! }
//!
//! let g = Expr::arbitrary_reflective();
//! let expr = g.sample(1);
//! assert!(g.can_generate(&expr));
//! // The derived optics reach into a variant, for hand-written generators.
//! let sum = Expr::Add(Box::new(Expr::Lit(1)), Box::new(Expr::Lit(2)));
//! assert_eq!(Expr::add_0(&sum), Some(&Box::new(Expr::Lit(1))));
//! ```
//!
//! # Laws
//!
//! For every generator and seed the test suite checks: a generated value reflects
//! (soundness); every way of producing a value reproduces it, when the annotations are right
//! (pure projection); replaying a value's choices gives the value back; the same seed gives
//! the same value; probabilities over a finite range sum to 1.
//!
//! # Budgets
//!
//! A generator can produce a value in exponentially many ways, or infinitely many (a branch
//! that makes a choice and changes nothing). Reflection then stops at its budget and returns
//! a [`ReflectError`] ([`Generator::reflector`]); it never hangs. Deeply nested values do not
//! overflow the stack: both engines grow it on the heap when it runs low.
//!
//! # For contributors: the map of the crate
//!
//! The crate is layered: each layer imports only the layers below it, and the folders show the
//! layers, from the bottom up.
//!
//! | layer | where | what |
//! |---|---|---|
//! | 1. choices | `choice/` | [`Label`], [`Choice`], [`Span`], [`ChoiceTree`], the trail runs record into, buffer recycling |
//! | 2. engines | `engine/` | choice sources (random, replay, exhaustive), the forward and backward engines, their budgets, and the size state they carry as plain data ([`Strategy`]) |
//! | 3. the generator's core | `node.rs`, [`combinator`] | [`Node`], the sealed trait the engines drive, and [`Gen`]; the combinators, size strategies among them ([`strategy`]), and collections with the Agata allotment maths beside them |
//! | 3b. free generators | [`free`] | the paper "Parsing Randomness"'s free generators as data, their interpretations, derivatives and CGS (beside the core: it imports only the engines' uniform draw) |
//! | 4. interpretations | `interpret/` | generate, replay, enumerate, reflect, probability, [`shrink`], [`mutate`], [`complete`], [`validate`], [`gradient`], [`bytes`], type-directed shrinks: each a module over the engines |
//! | 5. the generator | [`generator`] | [`Generator`]: every builder and interpretation as one method, implemented for every [`Node`] |
//! | 6. built-in generators | `builtin/` | generators for the standard types, written with [`Generator`] as users write theirs |
//! | 7. derive support | `derive/` | [`Reflective`] and its impls for the standard types, type [`dimension`]s, the per-thread cache the derive's code uses |
//! | 8. the runner | [`check`](mod@check) | configuration, cases, outcomes, reports, [`regressions`] files, [`statistics`] |
//! | 8b. stateful testing | [`stateful`] | command sequences from a model, as a generator (beside the runner: it imports only the combinators and [`Generator`]) |
//!
//! `lib.rs` and the hidden `__private` module (what the macros' code reaches) only re-export.
//! A new interpretation is a module in `interpret/` and one method on [`Generator`], never a
//! change to [`Node`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// `Debug` for a generator type that holds functions: its name, without its parts.
macro_rules! opaque_debug {
    (impl[$($param:tt)*] $name:ident<$($arg:tt),*>) => {
        impl<$($param)*> std::fmt::Debug for $name<$($arg),*> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name)).finish_non_exhaustive()
            }
        }
    };
}

mod builtin;
pub mod check;
mod choice;
pub mod combinator;
mod derive;
mod engine;
pub mod free;
pub mod generator;
mod interpret;
mod node;
pub mod stateful;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

#[doc = include_str!("../docs/from-proptest.md")]
pub mod from_proptest {}

#[doc = include_str!("../docs/from-quickcheck.md")]
pub mod from_quickcheck {}

#[doc(inline)]
pub use builtin::*;
#[doc(inline)]
pub use check::{assume, check, check_with, regressions, statistics};
pub use choice::{Choice, ChoiceTree, Label, Span};
#[doc(inline)]
pub use combinator::strategy;
#[doc(inline)]
pub use combinator::*;
pub use derive::dimension;
pub use derive::{Reflective, any};
pub use engine::{ReflectError, Strategy};
#[doc(inline)]
pub use generator::Generator;
pub use interpret::bytes;
pub use interpret::complete;
pub use interpret::gradient;
pub use interpret::mutate;
pub use interpret::shrink;
pub use interpret::validate;
pub use interpret::{DEFAULT_SIZE, DefaultRng, Enumerate, GenerateError, Generated, Reflector};
pub use node::{Gen, Node};
pub use rand_core;
pub use reflective_macros::Reflective;
pub use reflective_macros::property;
pub use shrink::{ShrinkBudget, ShrinkStats, Shrunk};

/// The generators, the [`Generator`] trait and [`assume`](fn@assume): `use reflective::prelude::*;`.
/// The runner is reached by path: `reflective::check`, `reflective::check::Config`.
pub mod prelude {
    pub use crate::builtin::*;
    // The combinators' own types (`Map`, `Pick`, `Either`, ...) are left out: their names are
    // common in users' code, and they are rarely written.
    pub use crate::combinator::{
        Family, IntRange, Integer, exact, family, frequency, int, int_in, labeled, lazy,
        memoized_family, one_of, pick, piles, pure, range, recursive, sized, zip,
    };
    pub use crate::{
        Choice, ChoiceTree, DEFAULT_SIZE, DefaultRng, Gen, GenerateError, Generated, Generator,
        Label, ReflectError, Reflective, Reflector, Strategy, any, assume,
    };
    pub use rand_core::SeedableRng;
}

/// The README's examples, compiled and run as doctests so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeExamples;
