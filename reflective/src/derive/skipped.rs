//! The generator of a field of a skipped variant (`#[reflective(skip)]`), whose type need not
//! have a generator of its own: the variant is never picked, and reflects nothing.

use std::marker::PhantomData;

use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// A generator of `T` that produces nothing: forward it fails, backward it reflects no value.
/// The derive gives it to the fields of a skipped variant, which has weight 0, so that their
/// types need not implement `Reflective`; every value of the variant is then one the derived
/// generator cannot produce, as the variant's weight says.
pub fn skipped<T>() -> Skipped<T> {
    Skipped(PhantomData)
}

/// The generator [`skipped`] returns.
pub struct Skipped<T>(PhantomData<fn() -> T>);

opaque_debug!(impl[T] Skipped<T>);

impl<T> Clone for Skipped<T> {
    fn clone(&self) -> Self {
        Skipped(PhantomData)
    }
}

impl<T> Sealed for Skipped<T> {}

impl<T> Node for Skipped<T> {
    type Input = T;
    type Output = T;

    fn ignores_share(&self) -> bool {
        true
    }

    fn forward(&self, _: &mut Forward<'_>) -> Result<T, Halt> {
        Err(Halt::Failed(
            "a field of a skipped variant (`#[reflective(skip)]`) is never generated".into(),
        ))
    }

    fn backward(&self, _: &T, run: &mut Backward, _: usize) -> Reflected<T> {
        run.step()?;
        Ok(Vec::new())
    }
}
