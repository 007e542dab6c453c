//! Booleans, and one of a list of values.

use std::sync::Arc;

use crate::combinator::{exact, labeled, range};
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

/// One of `values`, each equally likely, shrinking towards the first: proptest's
/// `sample::select`, QuickCheck's `elements`, the `quickcheck` crate's `Gen::choose`. A value
/// listed twice reflects as its first place, so its [`probability_of`] counts that one only.
///
/// [`probability_of`]: crate::Generator::probability_of
///
/// # Panics
///
/// If `values` is empty.
///
/// ```
/// use reflective::prelude::*;
/// let method = select(["GET", "POST", "PUT"]);
/// assert!(method.can_generate(&"POST"));
/// assert!(!method.can_generate(&"PATCH"));
/// assert_eq!(method.shrink("PUT", |_| true), "GET");
/// ```
#[track_caller]
pub fn select<T>(values: impl Into<Vec<T>>) -> Gen<T, T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let values: Arc<[T]> = values.into().into();
    assert!(!values.is_empty(), "select: no values to choose from");
    let chosen = Arc::clone(&values);
    range(0..=values.len() - 1)
        .map(move |index| chosen[index].clone())
        .comap(move |value: &T| values.iter().position(|listed| listed == value))
        .boxed()
}
