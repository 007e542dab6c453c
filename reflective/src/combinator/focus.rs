//! Looking at part of the reflected value: [`Generator::focus`](crate::Generator::focus), [`Generator::focus_box`](crate::Generator::focus_box),
//! [`Generator::comap`](crate::Generator::comap), [`Generator::no_ann`](crate::Generator::no_ann).

use std::borrow::Borrow;
use std::convert::Infallible;
use std::marker::PhantomData;

use super::hole::generate_in_hole;
use crate::choice::Label;
use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// How a [`Focus`] reaches the part of a `C` it reflects on: a function borrowing the part, or
/// [`Unboxed`] for one borrowing a box of it.
pub trait Part<C: ?Sized, B: ?Sized>: Send + Sync {
    /// The part of `whole`, if it has one.
    fn part<'c>(&self, whole: &'c C) -> Option<&'c B>;
}

impl<C, B, F> Part<C, B> for F
where
    C: ?Sized,
    B: ?Sized,
    F: for<'c> Fn(&'c C) -> Option<&'c B> + Send + Sync,
{
    #[inline]
    fn part<'c>(&self, whole: &'c C) -> Option<&'c B> {
        self(whole)
    }
}

/// A function borrowing a `Box<B>`, as a [`Part`] reaching the `B` inside: what
/// [`Generator::focus_box`](crate::Generator::focus_box) focuses with.
#[derive(Clone, Debug)]
pub struct Unboxed<F>(F);

impl<F> Unboxed<F> {
    pub(crate) fn new(part: F) -> Self {
        Unboxed(part)
    }
}

impl<C, B, F> Part<C, B> for Unboxed<F>
where
    C: ?Sized,
    F: for<'c> Fn(&'c C) -> Option<&'c Box<B>> + Send + Sync,
{
    #[inline]
    fn part<'c>(&self, whole: &'c C) -> Option<&'c B> {
        (self.0)(whole).map(|boxed| &**boxed)
    }
}

opaque_debug!(impl[G, F, C: ?Sized] Focus<G, F, C>);

/// The generator [`Generator::focus`](crate::Generator::focus) and [`Generator::focus_box`](crate::Generator::focus_box) return: reflects on a `C`
/// through the [`Part`] `F`.
pub struct Focus<G, F, C: ?Sized> {
    inner: G,
    part: F,
    /// The part's name (a derived type's field), for a completion's error.
    name: Option<&'static str>,
    _whole: PhantomData<fn(&C)>,
}

impl<G, F, C: ?Sized> Focus<G, F, C> {
    pub(crate) fn new(inner: G, part: F) -> Self {
        Focus {
            inner,
            part,
            name: None,
            _whole: PhantomData,
        }
    }

    /// The same focus, its part named `name` where a completion's error names the part that
    /// fails (the derive names each field's focus after the field).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use reflective::complete::{CompleteError, Holes};
    /// let first = range(0u8..=9).focus(|p: &(u8, u8)| Some(&p.0)).named("first");
    /// let second = range(0u8..=9).focus(|p: &(u8, u8)| Some(&p.1)).named("second");
    /// let pairs = first.zip(second);
    /// let partial = (1, 42);
    /// let error = pairs.completer().complete(&partial, &Holes::new().at(&partial.0), 0);
    /// assert!(error.unwrap_err().to_string().contains("a `u8` at `second`"));
    /// ```
    pub fn named(self, name: &'static str) -> Self {
        Focus {
            name: Some(name),
            ..self
        }
    }
}

impl<G: Clone, F: Clone, C: ?Sized> Clone for Focus<G, F, C> {
    fn clone(&self) -> Self {
        Focus {
            inner: self.inner.clone(),
            part: self.part.clone(),
            name: self.name,
            _whole: PhantomData,
        }
    }
}

impl<G, F, C: ?Sized> Sealed for Focus<G, F, C> {}

impl<G, F, C> Node for Focus<G, F, C>
where
    G: Node,
    C: ?Sized,
    F: Part<C, G::Input>,
{
    type Input = C;
    type Output = G::Output;

    fn ignores_share(&self) -> bool {
        self.inner.ignores_share()
    }

    fn is_constant(&self) -> bool {
        self.inner.is_constant()
    }

    fn batches(&self) -> bool {
        self.inner.batches()
    }

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        self.inner.forward(run)
    }

    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G::Output>,
    ) -> Result<(), Halt> {
        self.inner.forward_many(run, count, out)
    }

    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<G::Output>,
    ) -> Result<bool, Halt> {
        self.inner.forward_many_spanned(run, count, out)
    }

    fn backward(&self, c: &C, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        run.step()?;
        match self.part.part(c) {
            Some(b) if run.is_hole(b) => generate_in_hole(&self.inner, run),
            Some(b) => match self.name {
                Some(name) if run.names_parts() => self.backward_named(name, b, run, limit),
                _ => {
                    let found = self.inner.backward(b, run, limit)?;
                    if found.is_empty() {
                        run.note_unproduced::<G::Input>();
                    }
                    Ok(found)
                }
            },
            None => Ok(Vec::new()),
        }
    }
}

impl<G: Node, F, C: ?Sized> Focus<G, F, C> {
    /// [`Node::backward`] on the part `b`, inside the part `name` of a completion's path.
    /// Out of line, so that reflection without holes keeps its frames as small as before.
    #[inline(never)]
    fn backward_named(
        &self,
        name: &'static str,
        b: &G::Input,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<G::Output> {
        run.enter_part(Label::new(name));
        let found = self.inner.backward(b, run, limit);
        if found.as_ref().is_ok_and(Vec::is_empty) {
            run.note_unproduced::<G::Input>();
        }
        run.leave_part();
        found
    }
}

opaque_debug!(impl[G, F, C: ?Sized, P] Comap<G, F, C, P>);

/// The generator [`Generator::comap`](crate::Generator::comap) returns: reflects on a `C` through `F`, which computes a
/// `P` that borrows as the inner generator's input.
pub struct Comap<G, F, C: ?Sized, P> {
    inner: G,
    part: F,
    _whole: PhantomData<fn(&C) -> P>,
}

impl<G, F, C: ?Sized, P> Comap<G, F, C, P> {
    pub(crate) fn new(inner: G, part: F) -> Self {
        Comap {
            inner,
            part,
            _whole: PhantomData,
        }
    }
}

impl<G: Clone, F: Clone, C: ?Sized, P> Clone for Comap<G, F, C, P> {
    fn clone(&self) -> Self {
        Comap::new(self.inner.clone(), self.part.clone())
    }
}

impl<G, F, C: ?Sized, P> Sealed for Comap<G, F, C, P> {}

impl<G, F, C, P> Node for Comap<G, F, C, P>
where
    G: Node,
    C: ?Sized,
    P: Borrow<G::Input>,
    F: Fn(&C) -> Option<P> + Send + Sync,
{
    type Input = C;
    type Output = G::Output;

    fn ignores_share(&self) -> bool {
        self.inner.ignores_share()
    }

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        self.inner.forward(run)
    }

    fn backward(&self, c: &C, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        run.step()?;
        match (self.part)(c) {
            Some(b) => self.inner.backward(b.borrow(), run, limit),
            None => Ok(Vec::new()),
        }
    }
}

opaque_debug!(impl[G] NoAnn<G>);

/// The generator [`Generator::no_ann`](crate::Generator::no_ann) returns: runs forward only, and reflects on
/// `Infallible`, which has no values.
#[derive(Clone)]
pub struct NoAnn<G> {
    inner: G,
}

impl<G> NoAnn<G> {
    pub(crate) fn new(inner: G) -> Self {
        NoAnn { inner }
    }
}

impl<G> Sealed for NoAnn<G> {}

impl<G: Node> Node for NoAnn<G> {
    type Input = Infallible;
    type Output = G::Output;

    fn ignores_share(&self) -> bool {
        self.inner.ignores_share()
    }

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        self.inner.forward(run)
    }

    fn backward(&self, never: &Infallible, _: &mut Backward, _: usize) -> Reflected<G::Output> {
        match *never {}
    }
}
