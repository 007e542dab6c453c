//! Shared support for the integration tests of `reflective`.
//!
//! - [`catalogue`]: composite generators the laws are checked on (the paper's binary search
//!   trees, a simply typed lambda calculus fragment, nested collections, recursive naturals,
//!   sized trees, dependent and sorted lists, ...), each with the plain functions (validity
//!   predicates, enumerations) the tests compare them against.
//! - [`laws`]: the generator laws as reusable checks, so that checking a new generator is one
//!   line: `Laws::new("name", gen).unique().check()`.
//!
//! The tests themselves live in `tests/`: `laws.rs` (the laws over every built-in generator and
//! the catalogue) and `bad_input.rs` (values a generator cannot produce, budgets, construction
//! errors, deep values).

pub mod catalogue;
pub mod derived;
pub mod laws;
