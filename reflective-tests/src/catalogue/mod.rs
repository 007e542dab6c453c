//! Composite generators shared by the tests.
//!
//! Each module holds one family: the value types, the generators, and the independent oracles
//! (validity predicates, enumerations, closed forms) the tests check the generators against.
//!
//! | module | generators | built with |
//! |---|---|---|
//! | [`bst`] | binary search trees ([`bst::bst`], [`bst::bst_family`]) and unordered trees ([`bst::sized_tree`]) | `pick`, `bind`, `zip`, `focus`; `family`, `Either`; `recursive`, `sized`, `scale` |
//! | [`stlc`] | well-typed terms of a simply typed lambda calculus | `comap` to a term's type, `bind`, `lazy` |
//! | [`nat`] | Peano naturals, including the paper's `gE` and `gI` | `recursive`, `lazy` |
//! | [`nested`] | collections of collections | the standard generators |
//! | [`tokens`] | a small token language | `frequency`, `one_of`, `labeled` |
//! | [`lists`] | dependent-length, sorted and bounded-sum lists, a struct, lists whose annotation panics | `bind` + `comap`, recursion on slices |
//! | [`specs`] | random generators: a described generator of the core combinators, built over dynamic values | `zip`, `vec`, `pick`, `bind`, `focus`, `comap`, `map`; a derived `Spec` |

pub mod bst;
pub mod lists;
pub mod nat;
pub mod nested;
pub mod specs;
pub mod stlc;
pub mod tokens;
