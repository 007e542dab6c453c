//! Booleans.

use crate::combinator::{exact, labeled};
use crate::generator::{Gen, Generator};

/// `false` or `true`, equally likely, labelled `"false"` and `"true"`.
///
/// ```
/// use reflective::prelude::*;
/// assert_eq!(bool().reflect(&true), vec![vec![Label::from("true")]]);
/// ```
pub fn bool() -> Gen<bool, bool> {
    labeled([("false", exact(false)), ("true", exact(true))]).boxed()
}
