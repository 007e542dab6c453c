//! The generator that `#[reflective(regex = "...")]` gives a derived type's field or a
//! property's argument.

use crate::builtin::string_regex;
use crate::generator::Gen;

/// Strings matching `pattern`, for the attribute `regex = "pattern"`, whose syntax the macro
/// checked when it compiled.
///
/// # Panics
///
/// If [`string_regex`] cannot follow the pattern (an anchor where it cannot match, a word
/// boundary, a pattern that matches no string), with its reason.
#[track_caller]
pub fn regex_attribute(pattern: &str) -> Gen<String, String> {
    string_regex(pattern).unwrap_or_else(|error| panic!("`#[reflective(regex = ...)]`: {error}"))
}
