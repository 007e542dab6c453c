//! Shared support for the integration tests of `reflective`.
//!
//! - [`catalogue`]: composite generators the laws are checked on (the paper's binary search
//!   trees, a simply typed lambda calculus fragment, nested collections, recursive naturals,
//!   sized trees, dependent and sorted lists, ...), each with the plain functions (validity
//!   predicates, enumerations) the tests compare them against.
//! - [`laws`]: the generator laws as reusable checks, so that checking a new generator is one
//!   line: `Laws::new("name", gen).unique().check()`.
//! - [`report_section`]: a section of the runner's failure report, for the tests that read it.
//! - [`within_times_of`]: a time bound relative to a reference run, for the tests that bound
//!   how often slow work repeats.
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

/// `text` without whitespace and without the commas before a closing bracket or
/// parenthesis: a value reads the same whether a report printed it on one line (`{:?}`) or
/// spread (`{:#?}`): `[Put(0, 0), Get(0)]` and its spread form are both `[Put(0,0),Get(0)]`.
pub fn compact(text: &str) -> String {
    let joined: String = text.split_whitespace().collect();
    joined
        .replace(",]", "]")
        .replace(",)", ")")
        .replace(",}", "}")
}

/// `work`'s result, asserting that it took less than `times` times as long as `reference`
/// (each run once): a bound on how often slow work is repeated (a reflection that runs out of
/// its budget, say) that a busy machine slows down alike on both sides, as it would not an
/// absolute time.
///
/// # Panics
///
/// If `work` took `times` times as long as `reference` or longer.
pub fn within_times_of<R>(times: u32, reference: impl FnOnce(), work: impl FnOnce() -> R) -> R {
    let start = std::time::Instant::now();
    let result = work();
    let took = start.elapsed();
    let start = std::time::Instant::now();
    reference();
    let once = start.elapsed();
    assert!(
        took < once * times,
        "took {took:?}, {times} times the reference's {once:?} or more"
    );
    result
}
