//! The core of every generator: [`Node`], the sealed trait the engines drive, and [`Gen`], a
//! generator with its type erased.
//!
//! A `Node` runs forward (a choice source in, a value out) and backward (a value in, every way
//! of producing it out), and can be erased to a `Gen`; nothing more. Everything users call on a
//! generator (the builders `map`, `bind`, `focus`, ... and the interpretations `sample`,
//! `shrink`, `can_generate`, ...) is on [`Generator`](crate::Generator), which every `Node`
//! implements, as `rand::Rng` extends `rand::RngCore`. The engines and the combinators need
//! only this trait; the interpretations are built on it, and `Generator` on them.
//!
//! # Why a trait and an erased type
//!
//! A simpler design has one type, `Gen<B, A>`, a shared pointer to a tree of nodes. A
//! generator whose next part depends on a value (the paper's binary search trees, where the
//! subtrees' ranges depend on the key) builds that part anew inside every `bind`, at every
//! run; with one allocation per node that cost seven times what a hand-written generator does.
//! So, as in proptest, each combinator returns a type of its own (`Map`, `Bind`, ...) that
//! holds its parts by value: a `bind` continuation builds its generator on the stack, and only
//! what must be erased is (`boxed`, for recursion, for a generator stored by type, for
//! branches of different types). [`Gen<B, A>`] is that erased generator, and what derived
//! generators return.

use std::fmt;
use std::sync::Arc;

use crate::engine::{Backward, Forward, Halt, Reflected};

/// Only the library's own types are generators: the engines' interface is internal.
pub trait Sealed {}

/// The core of a reflective generator, which the engines drive: it reflects on an
/// [`Input`](Node::Input) while producing an [`Output`](Node::Output).
///
/// Every generator implements it, and through it [`Generator`](crate::Generator), which holds
/// everything users call. Bounds in signatures may name either: they hold for the same types.
/// Only the library's types implement it (it is sealed), so its methods can change without
/// breaking anyone.
pub trait Node: Send + Sync + Sealed {
    /// The type reflected on.
    type Input: ?Sized;
    /// The type produced.
    type Output;

    /// Produces a value, asking `run`'s source at every choice.
    #[doc(hidden)]
    fn forward(&self, run: &mut Forward<'_>) -> Result<Self::Output, Halt>;

    /// Appends `count` values to `out`, produced one after another as `count` calls of
    /// `forward` would. Integer generators draw them in one loop.
    #[doc(hidden)]
    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<Self::Output>,
    ) -> Result<(), Halt> {
        forward_each(self, run, count, out)
    }

    /// [`forward_many`](Node::forward_many) in a run that records, each value in a span of
    /// its own as a collection's elements are, when the generator can draw them in one go
    /// (a narrow integer: see [`Forward::packs`]); `Ok(false)`, having drawn nothing, when it
    /// cannot, and the caller draws them one by one.
    #[doc(hidden)]
    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<Self::Output>,
    ) -> Result<bool, Halt> {
        let _ = (run, count, out);
        Ok(false)
    }

    /// Whether `forward` always returns the same value and does nothing else: it asks the
    /// source nothing, records nothing and reads nothing of the run ([`exact`](crate::exact),
    /// [`pure`](crate::pure)). A pick whose branches all are draws many values in one loop.
    #[doc(hidden)]
    fn is_constant(&self) -> bool {
        false
    }

    /// Whether [`forward_many`](Node::forward_many) and
    /// [`forward_many_spanned`](Node::forward_many_spanned) draw in one loop rather than one
    /// `forward` each: a pick of constant branches, or a choice by size between such picks.
    /// A derived generator, which runs code of its own forward, then draws with its
    /// description's.
    #[doc(hidden)]
    fn batches(&self) -> bool {
        false
    }

    /// Whether this generator never reads the share of a budget that a collection around it
    /// offers (it draws no collection): a collection whose elements share its budget may then
    /// draw its elements with [`forward_many`](Node::forward_many) all the same.
    #[doc(hidden)]
    fn ignores_share(&self) -> bool {
        false
    }

    /// The ways to produce `input`, at most `limit` of them (`limit >= 1`).
    #[doc(hidden)]
    fn backward(
        &self,
        input: &Self::Input,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<Self::Output>;

    /// This generator as a [`Gen`]: what [`Generator::boxed`](crate::Generator::boxed) returns.
    /// A `Gen` returns itself.
    #[doc(hidden)]
    fn into_gen(self) -> Gen<Self::Input, Self::Output>
    where
        Self: Sized + 'static,
    {
        Gen {
            node: Arc::new(self),
        }
    }
}

/// A generator with its type erased: reflects on a `B` while producing an `A`.
///
/// Every generator becomes one with [`boxed`](crate::Generator::boxed). A `Gen` is an
/// immutable description: cloning it is cheap (a shared pointer) and it is `Send + Sync`, so it
/// can be built once and shared by threads. Derived generators
/// ([`Reflective::arbitrary_reflective`](crate::Reflective::arbitrary_reflective)) are `Gen`s.
///
/// ```
/// use reflective::prelude::*;
///
/// fn digit() -> Gen<u8, u8> {
///     range(0..=9).boxed()
/// }
/// assert!(digit().can_generate(&7));
/// ```
pub struct Gen<B: ?Sized, A> {
    pub(crate) node: Arc<dyn Node<Input = B, Output = A>>,
}

impl<B: ?Sized, A> Sealed for Gen<B, A> {}

impl<B: ?Sized, A> Node for Gen<B, A> {
    type Input = B;
    type Output = A;

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        self.node.forward(run)
    }

    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<A>,
    ) -> Result<(), Halt> {
        self.node.forward_many(run, count, out)
    }

    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<A>,
    ) -> Result<bool, Halt> {
        self.node.forward_many_spanned(run, count, out)
    }

    fn is_constant(&self) -> bool {
        self.node.is_constant()
    }

    fn batches(&self) -> bool {
        self.node.batches()
    }

    fn ignores_share(&self) -> bool {
        self.node.ignores_share()
    }

    #[inline]
    fn backward(&self, input: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        self.node.backward(input, run, limit)
    }

    /// Already erased: returns itself.
    fn into_gen(self) -> Gen<B, A> {
        self
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

impl<G: Node + ?Sized> Sealed for &G {}

/// A borrowed generator is a generator: `(&g).size_strategy(...)` wraps `g` without moving or
/// cloning it.
impl<G: Node + ?Sized> Node for &G {
    type Input = G::Input;
    type Output = G::Output;

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        (**self).forward(run)
    }

    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G::Output>,
    ) -> Result<(), Halt> {
        (**self).forward_many(run, count, out)
    }

    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G::Output>,
    ) -> Result<bool, Halt> {
        (**self).forward_many_spanned(run, count, out)
    }

    fn is_constant(&self) -> bool {
        (**self).is_constant()
    }

    fn batches(&self) -> bool {
        (**self).batches()
    }

    fn ignores_share(&self) -> bool {
        (**self).ignores_share()
    }

    #[inline]
    fn backward(&self, input: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        (**self).backward(input, run, limit)
    }
}

/// Appends `count` values of `g` to `out`, one call of `forward` each: what
/// [`Node::forward_many`] does unless a generator has a faster way.
pub(crate) fn forward_each<G: Node + ?Sized>(
    g: &G,
    run: &mut Forward<'_>,
    count: usize,
    out: &mut Vec<G::Output>,
) -> Result<(), Halt> {
    out.reserve(count);
    for _ in 0..count {
        out.push(g.forward(run)?);
    }
    Ok(())
}
