//! The reflective generator type, [`Gen`].

use std::fmt;
use std::sync::Arc;

use crate::backward::{Backward, Reflected};
use crate::forward::Forward;
use crate::source::Halt;

/// A reflective generator: reflects on a `B` while producing an `A`.
///
/// Run forward, a generator turns random choices into a value. Run backward on a `B`, it finds
/// the choices that produce it. Most generators are *aligned*, `Gen<T, T>`: they produce `T`s
/// and reflect on `T`s. The interpretations (sampling, reflection, probability, replay, ...)
/// are methods on aligned generators; the combinators build them from smaller generators that
/// are not aligned yet.
///
/// A `Gen` is an immutable description: cloning it is cheap (a shared pointer) and it is
/// `Send + Sync`, so it can be built once and shared by threads.
///
/// ```
/// use reflective::prelude::*;
///
/// // An aligned generator of pairs, built from generators that reflect on the pair's parts.
/// let pair: Gen<(u8, bool), (u8, bool)> = tuple((range(0u8..=9), bool()));
/// let value = pair.sample(42);
/// assert!(pair.can_generate(&value));
/// assert!(!pair.can_generate(&(10, true)));
/// ```
pub struct Gen<B: ?Sized, A> {
    pub(crate) node: Arc<dyn Node<B, A>>,
}

/// A primitive of the generator language: how it runs forward and backward.
pub(crate) trait Node<B: ?Sized, A>: Send + Sync {
    /// Produces a value, asking `run`'s source at every choice.
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt>;

    /// The ways to produce `b`, at most `limit` of them (`limit >= 1`).
    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A>;
}

impl<B: ?Sized + 'static, A: 'static> Gen<B, A> {
    pub(crate) fn from_node(node: impl Node<B, A> + 'static) -> Self {
        Gen {
            node: Arc::new(node),
        }
    }
}

impl<B: ?Sized, A> Clone for Gen<B, A> {
    fn clone(&self) -> Self {
        Gen {
            node: Arc::clone(&self.node),
        }
    }
}

impl<B: ?Sized, A> fmt::Debug for Gen<B, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Gen<{}, {}>",
            std::any::type_name::<B>(),
            std::any::type_name::<A>()
        )
    }
}
