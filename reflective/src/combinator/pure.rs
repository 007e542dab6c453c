//! Constant generators: [`pure`] and [`exact`].

use std::marker::PhantomData;

use crate::engine::{Backward, Forward, Halt, Reflected, Solution, Trace};
use crate::node::{Node, Sealed};

/// A generator that always produces `value` and makes no choice.
///
/// Backward it accepts anything: use [`exact`] at the leaves of an aligned generator, or
/// reflection will claim it can produce values it cannot.
///
/// ```
/// use reflective::prelude::*;
/// let seven = pure::<u8, u8>(7);
/// assert_eq!(seven.sample(1), 7);
/// ```
pub fn pure<B: ?Sized, A>(value: A) -> Pure<B, A>
where
    A: Clone + Send + Sync,
{
    Pure {
        value,
        _input: PhantomData,
    }
}

/// A generator that always produces `value`, and backward accepts only a value equal to it.
///
/// ```
/// use reflective::prelude::*;
/// let leaf = exact("leaf");
/// assert!(leaf.can_generate(&"leaf"));
/// assert!(!leaf.can_generate(&"node"));
/// ```
pub fn exact<A>(value: A) -> Exact<A>
where
    A: Clone + PartialEq + Send + Sync,
{
    Exact { value }
}

opaque_debug!(impl[B: ?Sized, A] Pure<B, A>);

/// The generator [`pure`] returns.
pub struct Pure<B: ?Sized, A> {
    value: A,
    _input: PhantomData<fn(&B)>,
}

impl<B: ?Sized, A: Clone> Clone for Pure<B, A> {
    fn clone(&self) -> Self {
        Pure {
            value: self.value.clone(),
            _input: PhantomData,
        }
    }
}

impl<B: ?Sized, A> Sealed for Pure<B, A> {}

impl<B: ?Sized, A: Clone + Send + Sync> Node for Pure<B, A> {
    type Input = B;
    type Output = A;

    fn ignores_share(&self) -> bool {
        true
    }

    /// The same value every time, and nothing else done.
    fn is_constant(&self) -> bool {
        true
    }

    fn forward(&self, _: &mut Forward<'_>) -> Result<A, Halt> {
        Ok(self.value.clone())
    }

    fn backward(&self, _: &B, run: &mut Backward, _: usize) -> Reflected<A> {
        run.step()?;
        Ok(vec![Solution {
            value: run.value(|| self.value.clone()),
            trace: Trace::empty(),
            log_probability: 0.0,
            used: 0,
        }])
    }
}

opaque_debug!(impl[A] Exact<A>);

/// The generator [`exact`] returns.
#[derive(Clone)]
pub struct Exact<A> {
    value: A,
}

impl<A> Sealed for Exact<A> {}

impl<A: Clone + PartialEq + Send + Sync> Node for Exact<A> {
    type Input = A;
    type Output = A;

    fn ignores_share(&self) -> bool {
        true
    }

    /// The same value every time, and nothing else done.
    fn is_constant(&self) -> bool {
        true
    }

    fn forward(&self, _: &mut Forward<'_>) -> Result<A, Halt> {
        Ok(self.value.clone())
    }

    fn backward(&self, b: &A, run: &mut Backward, _: usize) -> Reflected<A> {
        run.step()?;
        if *b != self.value {
            return Ok(Vec::new());
        }
        Ok(vec![Solution {
            value: run.value(|| self.value.clone()),
            trace: Trace::empty(),
            log_probability: 0.0,
            used: 0,
        }])
    }
}
