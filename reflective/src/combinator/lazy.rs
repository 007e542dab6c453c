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
    let knot = Arc::new(OnceLock::new());
    let itself = Gen::from_node(Itself {
        knot: Arc::clone(&knot),
    });
    let defined = define(itself);
    // The definition reaches itself through a weak pointer, so dropping it frees it. A handle
    // kept past this function (stored by `define`) then produces nothing and reflects nothing.
    let _ = knot.set(Arc::downgrade(&defined.node));
    defined
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
                "a handle of a `recursive` generator ran after its definition was dropped"
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
