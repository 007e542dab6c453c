//! Shared support for the integration tests of `reflective`.
//!
//! - [`catalogue`]: composite generators the laws are checked on (the paper's binary search
//!   trees, a simply typed lambda calculus fragment, nested collections, recursive naturals,
//!   sized trees, dependent and sorted lists, ...), each with the plain functions (validity
//!   predicates, enumerations) the tests compare them against.
//! - [`laws`]: the generator laws as reusable checks, so that checking a new generator is one
//!   line: `Laws::new("name", gen).unique().check()`.
//! - [`report_section`]: a section of the runner's failure report, for the tests that read it.
//!
//! The tests themselves live in `tests/`: `laws.rs` (the laws over every built-in generator and
//! the catalogue) and `bad_input.rs` (values a generator cannot produce, budgets, construction
//! errors, deep values).

pub mod catalogue;
pub mod derived;
pub mod laws;

/// The text of a failure report's section, from its heading (`"minimal counterexample:\n"`)
/// to the blank line after it.
///
/// # Panics
///
/// If the report has no such section.
pub fn report_section<'r>(report: &'r str, heading: &str) -> &'r str {
    let start = report
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?} in:\n{report}"));
    let rest = &report[start + heading.len()..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}
