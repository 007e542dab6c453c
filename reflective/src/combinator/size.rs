//! Size control: [`sized`], [`Gen::resize`], [`Gen::scale`].
//!
//! Every run has a size, a hint of how big values should be (QuickCheck's size). Generation
//! takes it from the caller; reflection uses [`DEFAULT_SIZE`](crate::DEFAULT_SIZE) unless told
//! otherwise with [`Reflector::size`](crate::Reflector::size). A generator whose range grows
//! with the size therefore reflects everything it generates at that size or below; a value
//! generated at a larger size needs a reflection at that size.

use crate::backward::{Backward, Reflected};
use crate::forward::Forward;
use crate::generator::{Gen, Node};
use crate::source::Halt;

/// A generator built from the current size.
///
/// ```
/// use reflective::prelude::*;
/// let up_to_size = sized(|size| range(0..=size as u64));
/// let mut rng = DefaultRng::seed_from_u64(3);
/// assert!(up_to_size.generate(&mut rng, 5).value <= 5);
/// ```
pub fn sized<B: ?Sized + 'static, A: 'static>(
    build: impl Fn(usize) -> Gen<B, A> + Send + Sync + 'static,
) -> Gen<B, A> {
    Gen::from_node(SizedBy { build })
}

impl<B: ?Sized + 'static, A: 'static> Gen<B, A> {
    /// Runs this generator at size `size`, whatever the size around it.
    pub fn resize(self, size: usize) -> Gen<B, A> {
        self.scale(move |_| size)
    }

    /// Runs this generator at `f(size)`, where `size` is the size around it.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // Recursive generators shrink the size at every level so that they stop.
    /// let halved = vec(bool(), ..).scale(|size| size / 2);
    /// let mut rng = DefaultRng::seed_from_u64(3);
    /// assert!(halved.generate(&mut rng, 10).value.len() <= 5);
    /// ```
    pub fn scale(self, f: impl Fn(usize) -> usize + Send + Sync + 'static) -> Gen<B, A> {
        Gen::from_node(Scale { inner: self, f })
    }
}

/// `at_zero` at size 0, `otherwise` at every other size: the way recursive generators stop.
pub fn at_size_zero<B: ?Sized + 'static, A: 'static>(
    at_zero: Gen<B, A>,
    otherwise: Gen<B, A>,
) -> Gen<B, A> {
    Gen::from_node(AtSizeZero { at_zero, otherwise })
}

struct AtSizeZero<B: ?Sized, A> {
    at_zero: Gen<B, A>,
    otherwise: Gen<B, A>,
}

impl<B: ?Sized, A> AtSizeZero<B, A> {
    fn at(&self, size: usize) -> &Gen<B, A> {
        if size == 0 {
            &self.at_zero
        } else {
            &self.otherwise
        }
    }
}

impl<B: ?Sized, A> Node<B, A> for AtSizeZero<B, A> {
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        self.at(run.size).node.forward(run)
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        self.at(run.size).node.backward(b, run, limit)
    }
}

struct SizedBy<F> {
    build: F,
}

impl<B: ?Sized, A, F: Fn(usize) -> Gen<B, A> + Send + Sync> Node<B, A> for SizedBy<F> {
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        (self.build)(run.size).node.forward(run)
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        run.step()?;
        (self.build)(run.size).node.backward(b, run, limit)
    }
}

struct Scale<B: ?Sized, A, F> {
    inner: Gen<B, A>,
    f: F,
}

impl<B: ?Sized, A, F: Fn(usize) -> usize + Send + Sync> Node<B, A> for Scale<B, A, F> {
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        let outer = run.size;
        run.size = (self.f)(outer);
        let result = self.inner.node.forward(run);
        run.size = outer;
        result
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        let outer = run.size;
        run.size = (self.f)(outer);
        let result = self.inner.node.backward(b, run, limit);
        run.size = outer;
        result
    }
}
