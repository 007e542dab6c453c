//! Recursion: [`lazy`] and [`recursive`].

use std::sync::{Arc, OnceLock, Weak};

use crate::backward::{Backward, Reflected};
use crate::forward::Forward;
use crate::generator::{Gen, Node};
use crate::source::Halt;

/// A generator built each time it runs, for recursive definitions by functions.
///
/// A generator that contains itself cannot be built eagerly; wrap the recursive call. Each use
/// builds the generator anew; [`recursive`] builds it once.
///
/// ```
/// use reflective::prelude::*;
/// #[derive(Clone, Debug, PartialEq)]
/// enum Nat { Z, S(Box<Nat>) }
/// fn nat() -> Gen<Nat, Nat> {
///     frequency([
///         (2, exact(Nat::Z)),
///         (1, lazy(nat)
///             .focus(|n: &Nat| match n { Nat::S(m) => Some(&**m), Nat::Z => None })
///             .map(|m| Nat::S(Box::new(m)))),
///     ])
/// }
/// assert!(nat().can_generate(&Nat::S(Box::new(Nat::Z))));
/// ```
pub fn lazy<B: ?Sized + 'static, A: 'static>(
    build: impl Fn() -> Gen<B, A> + Send + Sync + 'static,
) -> Gen<B, A> {
    Gen::from_node(Lazy { build })
}

/// A recursive generator, defined in terms of itself: `define` receives the generator being
/// defined and returns its definition.
///
/// The generator is built once and refers to itself, so recursion costs nothing per level.
///
/// ```
/// use reflective::prelude::*;
/// #[derive(Clone, Debug, PartialEq)]
/// enum Nat { Z, S(Box<Nat>) }
/// let nat = recursive(|nat: Gen<Nat, Nat>| {
///     frequency([
///         (2, exact(Nat::Z)),
///         (1, nat
///             .focus(|n: &Nat| match n { Nat::S(m) => Some(&**m), Nat::Z => None })
///             .map(|m| Nat::S(Box::new(m)))),
///     ])
/// });
/// assert!(nat.can_generate(&Nat::S(Box::new(Nat::S(Box::new(Nat::Z))))));
/// ```
pub fn recursive<B: ?Sized + 'static, A: 'static>(
    define: impl FnOnce(Gen<B, A>) -> Gen<B, A>,
) -> Gen<B, A> {
    let (itself, knot) = knot();
    let defined = define(itself);
    knot.tie(&defined);
    defined
}

/// A generator that stands for one not built yet, and the knot that ties it to that one.
///
/// The placeholder reaches the generator it stands for through a weak pointer, so a generator
/// that contains its own placeholder is freed when dropped. A placeholder used while its
/// generator is gone (or before the knot is tied) produces nothing and reflects nothing.
pub(crate) fn knot<B: ?Sized + 'static, A: 'static>() -> (Gen<B, A>, Knot<B, A>) {
    let knot = Arc::new(OnceLock::new());
    let placeholder = Gen::from_node(Itself {
        knot: Arc::clone(&knot),
    });
    (placeholder, Knot(knot))
}

/// Ties a placeholder from [`knot`] to its generator.
pub(crate) struct Knot<B: ?Sized, A>(Arc<OnceLock<Weak<dyn Node<B, A>>>>);

impl<B: ?Sized, A> Knot<B, A> {
    pub(crate) fn tie(&self, to: &Gen<B, A>) {
        let _ = self.0.set(Arc::downgrade(&to.node));
    }
}

struct Lazy<F> {
    build: F,
}

impl<B: ?Sized, A, F: Fn() -> Gen<B, A> + Send + Sync> Node<B, A> for Lazy<F> {
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        run.nested(|run| (self.build)().node.forward(run))
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        run.nested(|run| (self.build)().node.backward(b, run, limit))
    }
}

/// The recursive reference inside a [`recursive`] definition.
struct Itself<B: ?Sized, A> {
    knot: Arc<OnceLock<Weak<dyn Node<B, A>>>>,
}

impl<B: ?Sized, A> Itself<B, A> {
    /// The definition, unless it was dropped (a handle kept past `recursive`'s return).
    fn definition(&self) -> Option<Arc<dyn Node<B, A>>> {
        self.knot.get().and_then(Weak::upgrade)
    }
}

impl<B: ?Sized, A> Node<B, A> for Itself<B, A> {
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        let definition = self.definition().ok_or_else(|| {
            Halt::Failed(
                "a recursive reference ran after the generator it refers to was dropped (a \
                 `recursive` handle kept past its definition, or a derived generator used after \
                 the thread that built it ended)"
                    .to_string(),
            )
        })?;
        run.nested(|run| definition.forward(run))
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        match self.definition() {
            Some(definition) => run.nested(|run| definition.backward(b, run, limit)),
            None => Ok(Vec::new()),
        }
    }
}
