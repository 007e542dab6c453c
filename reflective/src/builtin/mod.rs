//! Generators for the standard types: booleans, characters, strings (also those matching a
//! regular expression), floats (also within a range), options, results, boxes, tuples, arrays,
//! collections, and orders and parts of a list of values. Each reflects everything it
//! generates.

mod arrangements;
mod chars;
mod collections;
mod float_range;
mod floats;
mod regex;
mod scalars;
mod tuples;
mod wrappers;

pub use arrangements::{shuffled, subsequence};
pub(crate) use chars::any_char_but;
pub use chars::{any_char, char_range};
pub use collections::{btree_map, btree_set, hash_map, hash_set, string, string_of, vec};
pub use float_range::float_in;
pub use floats::{Float, float};
pub use regex::{RegexError, string_regex};
pub use scalars::{bool, select};
pub use tuples::{Tuple, array, tuple};
pub use wrappers::{in_box, option, result};
