//! Transforming the produced value: [`Gen::map`].

use crate::backward::{Backward, Reflected};
use crate::forward::Forward;
use crate::generator::{Gen, Node};
use crate::source::Halt;

impl<B: ?Sized + 'static, X: 'static> Gen<B, X> {
    /// Produces `f(x)` for every `x` this generator produces.
    ///
    /// Backward the value reflected on is not changed: `map` is the covariant half of the
    /// profunctor. To keep a generator aligned, map with a constructor after focusing on the
    /// constructor's fields.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// #[derive(Clone, Debug, PartialEq)]
    /// struct Meters(u32);
    /// let meters = range(0u32..=100).focus(|m: &Meters| Some(&m.0)).map(Meters);
    /// assert!(meters.can_generate(&Meters(42)));
    /// ```
    pub fn map<A: 'static>(self, f: impl Fn(X) -> A + Send + Sync + 'static) -> Gen<B, A> {
        Gen::from_node(Map { inner: self, f })
    }
}

struct Map<B: ?Sized, X, F> {
    inner: Gen<B, X>,
    f: F,
}

impl<B, X, A, F> Node<B, A> for Map<B, X, F>
where
    B: ?Sized,
    F: Fn(X) -> A + Send + Sync,
{
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        self.inner.node.forward(run).map(&self.f)
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        Ok(self
            .inner
            .node
            .backward(b, run, limit)?
            .into_iter()
            .map(|solution| solution.map(&self.f))
            .collect())
    }
}
