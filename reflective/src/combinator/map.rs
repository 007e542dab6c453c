//! Transforming the produced value: [`Generator::map`].

use crate::backward::{Backward, Reflected};
use crate::forward::Forward;
use crate::generator::{Generator, sealed::Sealed};
use crate::source::Halt;

opaque_debug!(impl[G, F] Map<G, F>);

/// The generator [`Generator::map`] returns.
#[derive(Clone)]
pub struct Map<G, F> {
    inner: G,
    f: F,
}

impl<G, F> Map<G, F> {
    pub(crate) fn new(inner: G, f: F) -> Self {
        Map { inner, f }
    }
}

impl<G, F> Sealed for Map<G, F> {}

impl<G, F, A> Generator for Map<G, F>
where
    G: Generator,
    F: Fn(G::Output) -> A + Send + Sync,
{
    type Input = G::Input;
    type Output = A;

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        self.inner.forward(run).map(&self.f)
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<A> {
        Ok(self
            .inner
            .backward(b, run, limit)?
            .into_iter()
            .map(|solution| solution.map(&self.f))
            .collect())
    }
}
