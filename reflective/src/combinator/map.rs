//! Transforming the produced value: [`Generator::map`](crate::Generator::map).

use crate::engine::{Backward, Forward, Halt, Reflected, Solution};
use crate::node::{Node, Sealed};

opaque_debug!(impl[G, F] Map<G, F>);

/// The generator [`Generator::map`](crate::Generator::map) returns.
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

impl<G, F, A> Node for Map<G, F>
where
    G: Node,
    F: Fn(G::Output) -> A + Send + Sync,
{
    type Input = G::Input;
    type Output = A;

    fn ignores_share(&self) -> bool {
        self.inner.ignores_share()
    }

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        self.inner.forward(run).map(&self.f)
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<A> {
        let ways = self.inner.backward(b, run, limit)?;
        Ok(map_values(ways, &self.f))
    }
}

/// The same ways, producing `f` of their values.
///
/// Out of line: a deeply nested value recurses through [`Map::backward`] once per level, and
/// its stack frame then holds nothing of this step.
#[inline(never)]
fn map_values<A, X>(ways: Vec<Solution<A>>, f: impl Fn(A) -> X) -> Vec<Solution<X>> {
    ways.into_iter().map(|way| way.map(&f)).collect()
}
