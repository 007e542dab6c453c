//! Size control: [`sized`], [`Generator::resize`](crate::Generator::resize), [`Generator::scale`](crate::Generator::scale), [`at_size_zero`].
//!
//! Every run has a size, a hint of how big values should be (QuickCheck's size). Generation
//! takes it from the caller; reflection uses [`DEFAULT_SIZE`](crate::DEFAULT_SIZE) unless told
//! otherwise with [`Reflector::size`](crate::Reflector::size). A generator whose range grows
//! with the size therefore reflects everything it generates at that size or below; a value
//! generated at a larger size needs a reflection at that size.

use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// A generator built from the current size.
///
/// ```
/// use reflective::prelude::*;
/// let up_to_size = sized(|size| range(0..=size as u64));
/// let mut rng = DefaultRng::seed_from_u64(3);
/// assert!(up_to_size.generate(&mut rng, 5).value <= 5);
/// ```
pub fn sized<F, G>(build: F) -> SizedBy<F>
where
    F: Fn(usize) -> G + Send + Sync,
    G: Node,
{
    SizedBy { build }
}

/// `at_zero` at size 0, `otherwise` at every other size: the way recursive generators stop.
pub fn at_size_zero<G1, G2>(at_zero: G1, otherwise: G2) -> AtSizeZero<G1, G2>
where
    G1: Node,
    G2: Node<Input = G1::Input, Output = G1::Output>,
{
    AtSizeZero { at_zero, otherwise }
}

opaque_debug!(impl[F] SizedBy<F>);

/// The generator [`sized`] returns.
#[derive(Clone)]
pub struct SizedBy<F> {
    build: F,
}

impl<F> Sealed for SizedBy<F> {}

impl<F, G> Node for SizedBy<F>
where
    F: Fn(usize) -> G + Send + Sync,
    G: Node,
{
    type Input = G::Input;
    type Output = G::Output;

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        run.nested(|run| (self.build)(run.size).forward(run))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        run.nested(|run| (self.build)(run.size).backward(b, run, limit))
    }
}

opaque_debug!(impl[G1, G2] AtSizeZero<G1, G2>);

/// The generator [`at_size_zero`] returns.
#[derive(Clone)]
pub struct AtSizeZero<G1, G2> {
    at_zero: G1,
    otherwise: G2,
}

impl<G1, G2> Sealed for AtSizeZero<G1, G2> {}

impl<G1, G2> Node for AtSizeZero<G1, G2>
where
    G1: Node,
    G2: Node<Input = G1::Input, Output = G1::Output>,
{
    type Input = G1::Input;
    type Output = G1::Output;

    fn ignores_share(&self) -> bool {
        self.at_zero.ignores_share() && self.otherwise.ignores_share()
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<G1::Output, Halt> {
        if run.size == 0 {
            self.at_zero.forward(run)
        } else {
            self.otherwise.forward(run)
        }
    }

    /// The one of the two the size chooses: it is the same for every value.
    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G1::Output>,
    ) -> Result<(), Halt> {
        if run.size == 0 {
            self.at_zero.forward_many(run, count, out)
        } else {
            self.otherwise.forward_many(run, count, out)
        }
    }

    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G1::Output>,
    ) -> Result<bool, Halt> {
        if run.size == 0 {
            self.at_zero.forward_many_spanned(run, count, out)
        } else {
            self.otherwise.forward_many_spanned(run, count, out)
        }
    }

    fn batches(&self) -> bool {
        self.at_zero.batches() && self.otherwise.batches()
    }

    fn backward(&self, b: &G1::Input, run: &mut Backward, limit: usize) -> Reflected<G1::Output> {
        if run.size == 0 {
            self.at_zero.backward(b, run, limit)
        } else {
            self.otherwise.backward(b, run, limit)
        }
    }
}

opaque_debug!(impl[G, F] Scale<G, F>);

/// The generator [`Generator::scale`](crate::Generator::scale) returns.
#[derive(Clone)]
pub struct Scale<G, F> {
    inner: G,
    f: F,
}

impl<G, F> Scale<G, F> {
    pub(crate) fn new(inner: G, f: F) -> Self {
        Scale { inner, f }
    }
}

impl<G, F> Sealed for Scale<G, F> {}

impl<G, F> Node for Scale<G, F>
where
    G: Node,
    F: Fn(usize) -> usize + Send + Sync,
{
    type Input = G::Input;
    type Output = G::Output;

    /// Runs apart from any budget around (see `at_own_size`).
    fn ignores_share(&self) -> bool {
        true
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        run.at_own_size((self.f)(run.size), |run| self.inner.forward(run))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        run.at_own_size((self.f)(run.size), |run| self.inner.backward(b, run, limit))
    }
}

opaque_debug!(impl[G] Resize<G>);

/// The generator [`Generator::resize`](crate::Generator::resize) returns.
#[derive(Clone)]
pub struct Resize<G> {
    inner: G,
    size: usize,
}

impl<G> Resize<G> {
    pub(crate) fn new(inner: G, size: usize) -> Self {
        Resize { inner, size }
    }
}

impl<G> Sealed for Resize<G> {}

impl<G: Node> Node for Resize<G> {
    type Input = G::Input;
    type Output = G::Output;

    /// Runs apart from any budget around (see `at_own_size`).
    fn ignores_share(&self) -> bool {
        true
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        run.at_own_size(self.size, |run| self.inner.forward(run))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        run.at_own_size(self.size, |run| self.inner.backward(b, run, limit))
    }
}
