//! The front end: the input as the macro understands it, with every error found.

pub(crate) mod ast;
pub(crate) mod attr;
pub(crate) mod check;
pub(crate) mod lenient;
pub(crate) mod types;
