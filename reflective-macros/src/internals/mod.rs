//! The front end: the input as the macros understand it, with every error found: the derive's
//! in `ast` (read by darling), `check` and `lenient`; the test attribute's in `property`; the
//! parsers of attribute values both share in `attr`.

pub(crate) mod ast;
pub(crate) mod attr;
pub(crate) mod check;
pub(crate) mod lenient;
pub(crate) mod property;
pub(crate) mod types;
