//! `Option`, `Result` and `Box`.

use crate::combinator::size::at_size_zero;
use crate::combinator::{pick, pure};
use crate::generator::Gen;

/// `None` one time in four (labelled `"None"`), otherwise `Some` of a value from `inner`
/// (labelled `"Some"`); at size 0 always `None`, as a vector is empty at size 0, so that a
/// recursive type reached through an `Option` stops growing.
///
/// ```
/// use reflective::prelude::*;
/// let maybe = option(range(0u8..=3));
/// assert!(maybe.can_generate(&None));
/// assert!(maybe.can_generate(&Some(2)));
/// assert!(!maybe.can_generate(&Some(4)));
/// ```
pub fn option<T>(inner: Gen<T, T>) -> Gen<Option<T>, Option<T>>
where
    T: Clone + Send + Sync + 'static,
{
    let none = pure(None).focus(|o: &Option<T>| o.is_none().then_some(&()));
    let some = inner.focus(Option::as_ref).map(Some);
    let small = pick([(1, "None", none.clone()), (0, "Some", some.clone())]);
    let full = pick([(1, "None", none), (3, "Some", some)]);
    at_size_zero(small, full)
}

/// `Ok` of a value from `ok` or `Err` of a value from `err`, equally likely, labelled `"Ok"`
/// and `"Err"`.
pub fn result<T, E>(ok: Gen<T, T>, err: Gen<E, E>) -> Gen<Result<T, E>, Result<T, E>>
where
    T: Clone + Send + Sync + 'static,
    E: Clone + Send + Sync + 'static,
{
    pick([
        (
            1,
            "Ok",
            ok.focus(|r: &Result<T, E>| r.as_ref().ok()).map(Ok),
        ),
        (
            1,
            "Err",
            err.focus(|r: &Result<T, E>| r.as_ref().err()).map(Err),
        ),
    ])
}

/// A boxed value from `inner`.
pub fn boxed<T>(inner: Gen<T, T>) -> Gen<Box<T>, Box<T>>
where
    T: Send + Sync + 'static,
{
    #[allow(clippy::borrowed_box, reason = "the focus reflects on a `Box<T>`")]
    inner.focus(|b: &Box<T>| Some(&**b)).map(Box::new)
}
