//! Constant generators: [`pure`] and [`exact`].

use crate::backward::{Backward, Reflected, Solution, Trace};
use crate::forward::Forward;
use crate::generator::{Gen, Node};
use crate::source::Halt;

/// A generator that always produces `value` and makes no choice.
///
/// Backward it accepts anything: use [`exact`] at the leaves of an aligned generator, or
/// reflection will claim it can produce values it cannot.
///
/// ```
/// use reflective::prelude::*;
/// let seven: Gen<u8, u8> = pure(7);
/// assert_eq!(seven.sample(1), 7);
/// ```
pub fn pure<B: ?Sized + 'static, A>(value: A) -> Gen<B, A>
where
    A: Clone + Send + Sync + 'static,
{
    Gen::from_node(Pure { value })
}

/// A generator that always produces `value`, and backward accepts only a value equal to it.
///
/// ```
/// use reflective::prelude::*;
/// let leaf = exact("leaf");
/// assert!(leaf.can_generate(&"leaf"));
/// assert!(!leaf.can_generate(&"node"));
/// ```
pub fn exact<A>(value: A) -> Gen<A, A>
where
    A: Clone + PartialEq + Send + Sync + 'static,
{
    Gen::from_node(Exact { value })
}

struct Pure<A> {
    value: A,
}

impl<B: ?Sized, A: Clone + Send + Sync> Node<B, A> for Pure<A> {
    fn forward(&self, _: &mut Forward<'_>) -> Result<A, Halt> {
        Ok(self.value.clone())
    }

    fn backward(&self, _: &B, run: &mut Backward, _: usize) -> Reflected<A> {
        run.step()?;
        Ok(vec![Solution {
            value: run.value(|| self.value.clone()),
            trace: Trace::empty(),
            log_probability: 0.0,
        }])
    }
}

struct Exact<A> {
    value: A,
}

impl<A: Clone + PartialEq + Send + Sync> Node<A, A> for Exact<A> {
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
        }])
    }
}
