//! `Option`, `Result` and `Box`.

use crate::combinator::size::at_size_zero;
use crate::combinator::{pick, pure};
use crate::generator::{Gen, Generator};

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
pub fn option<T>(
    inner: impl Generator<Input = T, Output = T> + 'static,
) -> Gen<Option<T>, Option<T>>
where
    T: Clone + Send + Sync + 'static,
{
    let none = pure(None).focus(|o: &Option<T>| o.is_none().then_some(&()));
    let some = inner.focus(Option::as_ref).map(Some);
    let (none, some) = (none.boxed(), some.boxed());
    let small = pick([(1, "None", none.clone()), (0, "Some", some.clone())]);
    let full = pick([(1, "None", none), (3, "Some", some)]);
    at_size_zero(small, full).boxed()
}

/// `Ok` of a value from `ok` or `Err` of a value from `err`, equally likely, labelled `"Ok"`
/// and `"Err"`.
pub fn result<T, E>(
    ok: impl Generator<Input = T, Output = T> + 'static,
    err: impl Generator<Input = E, Output = E> + 'static,
) -> Gen<Result<T, E>, Result<T, E>>
where
    T: Clone + Send + Sync + 'static,
    E: Clone + Send + Sync + 'static,
{
    pick((
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
    ))
    .boxed()
}

/// A value from `inner`, in a `Box`.
pub fn in_box<T>(inner: impl Generator<Input = T, Output = T> + 'static) -> Gen<Box<T>, Box<T>>
where
    T: Send + Sync + 'static,
{
    #[allow(clippy::borrowed_box, reason = "the focus reflects on a `Box<T>`")]
    inner.focus(|b: &Box<T>| Some(&**b)).map(Box::new).boxed()
}
