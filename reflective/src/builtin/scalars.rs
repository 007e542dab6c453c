//! Booleans, and one of a list of values.

use std::sync::Arc;

use crate::combinator::{counting_ways, exact, labeled, range};
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
/// listed twice reflects as its first place, and its [`probability_of`] counts every place.
///
/// [`probability_of`]: crate::Generator::probability_of
///
/// # Panics
///
/// When it generates, if `values` is empty. It may be built empty: as the branch of a `pick`
/// that weighs 0 when there is nothing to choose from (a stateful model's command that reads
/// a key present, in an empty store), it never generates; it reflects no value.
///
/// ```
/// use reflective::prelude::*;
/// let method = select(["GET", "POST", "PUT"]);
/// assert!(method.can_generate(&"POST"));
/// assert!(!method.can_generate(&"PATCH"));
/// assert_eq!(method.shrink("PUT", |_| true), "GET");
///
/// // A key present, where there may be none: the branch weighs 0 then.
/// let keys: Vec<u8> = Vec::new();
/// let present = u32::from(!keys.is_empty());
/// let lookup = pick(((1, "absent", range(100u8..=200)), (present, "present", select(keys))));
/// assert!(lookup.sample(1) >= 100);
/// ```
#[track_caller]
pub fn select<T>(values: impl Into<Vec<T>>) -> Gen<T, T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let values: Arc<[T]> = values.into().into();
    if values.is_empty() {
        let called_at = std::panic::Location::caller();
        return exact(())
            .map(move |()| -> T {
                panic!("select: no values to choose from (called at {called_at})")
            })
            .comap(|_: &T| None::<()>)
            .boxed();
    }
    let (chosen, counting) = (Arc::clone(&values), Arc::clone(&values));
    let first_place = range(0..=values.len() - 1)
        .map(move |index| chosen[index].clone())
        .comap(move |value: &T| values.iter().position(|listed| listed == value));
    // The first place stands for every place the value is listed at, each as likely.
    counting_ways(first_place, move |value: &T| {
        let places = counting.iter().filter(|&listed| listed == value).count();
        (places as f64).ln()
    })
    .boxed()
}
