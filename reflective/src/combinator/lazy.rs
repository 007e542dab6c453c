//! Recursion: [`lazy`], [`recursive`] and [`family`].

use std::sync::{Arc, OnceLock, Weak};

use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Gen, Node, Sealed};

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
///     frequency((
///         (2, exact(Nat::Z)),
///         (1, lazy(nat)
///             .focus(|n: &Nat| match n { Nat::S(m) => Some(&**m), Nat::Z => None })
///             .map(|m| Nat::S(Box::new(m)))),
///     ))
///     .boxed()
/// }
/// assert!(nat().can_generate(&Nat::S(Box::new(Nat::Z))));
/// ```
pub fn lazy<F, G>(build: F) -> Lazy<F>
where
    F: Fn() -> G + Send + Sync,
    G: Node,
{
    Lazy { build }
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
///     frequency((
///         (2, exact(Nat::Z)),
///         (1, nat
///             .focus(|n: &Nat| match n { Nat::S(m) => Some(&**m), Nat::Z => None })
///             .map(|m| Nat::S(Box::new(m)))),
///     ))
/// });
/// assert!(nat.can_generate(&Nat::S(Box::new(Nat::S(Box::new(Nat::Z))))));
/// ```
pub fn recursive<B, A, G>(define: impl FnOnce(Gen<B, A>) -> G) -> Gen<B, A>
where
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A> + 'static,
{
    let (itself, knot) = knot();
    let defined = define(itself).into_gen();
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
    let placeholder = Itself {
        knot: Arc::clone(&knot),
    }
    .into_gen();
    (placeholder, Knot(knot))
}

/// Ties a placeholder from [`knot`] to its generator.
pub(crate) struct Knot<B: ?Sized, A>(Arc<OnceLock<Weak<dyn Node<Input = B, Output = A>>>>);

impl<B: ?Sized, A> Knot<B, A> {
    pub(crate) fn tie(&self, to: &Gen<B, A>) {
        let _ = self.0.set(Arc::downgrade(&to.node));
    }
}

opaque_debug!(impl[F] Lazy<F>);

/// The generator [`lazy`] returns.
#[derive(Clone)]
pub struct Lazy<F> {
    build: F,
}

impl<F> Sealed for Lazy<F> {}

impl<F, G> Node for Lazy<F>
where
    F: Fn() -> G + Send + Sync,
    G: Node,
{
    type Input = G::Input;
    type Output = G::Output;

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        run.nested(|run| (self.build)().forward(run))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        run.nested(|run| (self.build)().backward(b, run, limit))
    }
}

/// The recursive reference inside a [`recursive`] definition.
struct Itself<B: ?Sized, A> {
    knot: Arc<OnceLock<Weak<dyn Node<Input = B, Output = A>>>>,
}

impl<B: ?Sized, A> Itself<B, A> {
    /// The definition, unless it was dropped (a handle kept past `recursive`'s return).
    fn definition(&self) -> Option<Arc<dyn Node<Input = B, Output = A>>> {
        self.knot.get().and_then(Weak::upgrade)
    }
}

impl<B: ?Sized, A> Sealed for Itself<B, A> {}

impl<B: ?Sized, A> Node for Itself<B, A> {
    type Input = B;
    type Output = A;

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

/// A family of recursive generators indexed by a parameter: `define` receives the family and
/// a parameter, and returns the generator at that parameter, reaching other members through
/// [`Family::at`].
///
/// This is a recursive function returning a generator, such as the paper's `bst lo hi`,
/// written so that recursion costs no allocation: `family.at(p)` is a small handle that runs
/// `define(family, p)` when it runs, building that generator on the stack. A function that
/// returns a [`Gen`] would allocate one at every call instead.
///
/// ```
/// use reflective::combinator::Either;
/// use reflective::prelude::*;
/// // Lists of decreasing numbers below `n`: each element bounds the next.
/// let below = family(|below: &Family<u8, Vec<u8>, Vec<u8>>, n: u8| {
///     if n == 0 {
///         return Either::Left(exact(Vec::new()));
///     }
///     Either::Right(frequency((
///         (1, exact(Vec::new())),
///         (
///             3,
///             range(0..n).focus(|v: &Vec<u8>| v.first()).bind({
///                 let below = below.clone();
///                 move |x| {
///                     below
///                         .at(x)
///                         .comap(|v: &Vec<u8>| v.get(1..).map(<[u8]>::to_vec))
///                         .map(move |rest| [vec![x], rest].concat())
///                 }
///             }),
///         ),
///     )))
/// });
/// let g = below.at(10);
/// assert!(g.can_generate(&vec![7, 3, 2]));
/// assert!(!g.can_generate(&vec![3, 7]));
/// ```
pub fn family<P, B, A, G, F>(define: F) -> Family<P, B, A>
where
    P: Clone + Send + Sync + 'static,
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A>,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync + 'static,
{
    Family {
        define: Arc::new(Definition(define)),
    }
}

/// A family of generators indexed by a parameter `P`, each reflecting on a `B` and producing
/// an `A`: see [`family`]. Cloning it is cheap (a shared pointer).
pub struct Family<P, B: ?Sized, A> {
    define: Arc<dyn Define<P, B, A>>,
}

opaque_debug!(impl[P, B: ?Sized, A] Family<P, B, A>);

impl<P, B: ?Sized, A> Clone for Family<P, B, A> {
    fn clone(&self) -> Self {
        Family {
            define: Arc::clone(&self.define),
        }
    }
}

impl<P: Clone, B: ?Sized, A> Family<P, B, A> {
    /// The member of the family at `param`.
    pub fn at(&self, param: P) -> At<P, B, A> {
        At {
            family: self.clone(),
            param,
        }
    }
}

/// A family's definition, with the type of its generators erased.
trait Define<P, B: ?Sized, A>: Send + Sync {
    fn forward(&self, family: &Family<P, B, A>, param: P, run: &mut Forward<'_>)
    -> Result<A, Halt>;

    fn backward(
        &self,
        family: &Family<P, B, A>,
        param: P,
        b: &B,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<A>;
}

struct Definition<F>(F);

impl<P, B, A, G, F> Define<P, B, A> for Definition<F>
where
    B: ?Sized,
    G: Node<Input = B, Output = A>,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync,
{
    fn forward(
        &self,
        family: &Family<P, B, A>,
        param: P,
        run: &mut Forward<'_>,
    ) -> Result<A, Halt> {
        (self.0)(family, param).forward(run)
    }

    fn backward(
        &self,
        family: &Family<P, B, A>,
        param: P,
        b: &B,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<A> {
        (self.0)(family, param).backward(b, run, limit)
    }
}

/// The generator [`Family::at`] returns: one member of a family.
pub struct At<P, B: ?Sized, A> {
    family: Family<P, B, A>,
    param: P,
}

opaque_debug!(impl[P, B: ?Sized, A] At<P, B, A>);

impl<P: Clone, B: ?Sized, A> Clone for At<P, B, A> {
    fn clone(&self) -> Self {
        self.family.at(self.param.clone())
    }
}

impl<P, B: ?Sized, A> Sealed for At<P, B, A> {}

impl<P, B, A> Node for At<P, B, A>
where
    P: Clone + Send + Sync,
    B: ?Sized,
{
    type Input = B;
    type Output = A;

    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        run.nested(|run| {
            self.family
                .define
                .forward(&self.family, self.param.clone(), run)
        })
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        run.nested(|run| {
            self.family
                .define
                .backward(&self.family, self.param.clone(), b, run, limit)
        })
    }
}
