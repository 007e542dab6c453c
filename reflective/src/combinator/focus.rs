//! Looking at part of the reflected value: [`Gen::focus`], [`Gen::comap`], [`Gen::no_ann`].

use std::convert::Infallible;

use crate::backward::{Backward, Reflected};
use crate::forward::Forward;
use crate::generator::{Gen, Node};
use crate::source::Halt;

impl<B: ?Sized + 'static, A: 'static> Gen<B, A> {
    /// Reflects on the part of a `C` that `part` borrows; `None` prunes the branch.
    ///
    /// This is the paper's `focus` (`lmap` then `prune`) for parts that can be borrowed, such
    /// as a field or a variant's payload. Forward it does nothing.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// #[derive(Clone, Debug, PartialEq)]
    /// enum Shape { Circle(u8), Square(u8) }
    /// let circle = range(1u8..=9)
    ///     .focus(|s: &Shape| match s { Shape::Circle(r) => Some(r), _ => None })
    ///     .map(Shape::Circle);
    /// assert!(circle.can_generate(&Shape::Circle(3)));
    /// assert!(!circle.can_generate(&Shape::Square(3)));
    /// ```
    pub fn focus<C: ?Sized + 'static>(
        self,
        part: impl for<'c> Fn(&'c C) -> Option<&'c B> + Send + Sync + 'static,
    ) -> Gen<C, A> {
        Gen::from_node(Focus { inner: self, part })
    }

    /// [`focus`](Gen::focus) through a lens onto a boxed part: reflects on the `B` inside the
    /// `Box<B>` that `part` borrows. Derived lenses return fields as they are declared, so a
    /// recursive field `Box<Tree>` is reached this way.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// #[derive(Clone, Debug, PartialEq, Reflective)]
    /// enum Nat { Z, S(Box<Nat>) }
    /// fn nat() -> Gen<Nat, Nat> {
    ///     frequency([
    ///         (2, exact(Nat::Z)),
    ///         (1, lazy(nat).focus_box(Nat::s_0).map(|n| Nat::S(Box::new(n)))),
    ///     ])
    /// }
    /// assert!(nat().can_generate(&Nat::S(Box::new(Nat::Z))));
    /// ```
    pub fn focus_box<C: ?Sized + 'static>(
        self,
        part: impl for<'c> Fn(&'c C) -> Option<&'c Box<B>> + Send + Sync + 'static,
    ) -> Gen<C, A>
    where
        B: Sized,
    {
        self.focus(move |c: &C| part(c).map(|boxed| &**boxed))
    }

    /// Reflects on a value computed from a `C`; `None` prunes the branch.
    ///
    /// Use it where the part cannot be borrowed, such as the type of a term or the length of a
    /// vector. Forward it does nothing.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // Strings of x's of even length: half the length, then that many pairs.
    /// let even_length = range(0usize..=5)
    ///     .comap(|chars: &Vec<char>| Some(chars.len() / 2))
    ///     .bind(|half| vec(exact('x'), 2 * half..=2 * half))
    ///     .comap(|s: &String| Some(s.chars().collect::<Vec<char>>()))
    ///     .map(String::from_iter);
    /// assert!(even_length.can_generate(&"xxxx".to_string()));
    /// assert!(!even_length.can_generate(&"xxx".to_string()));
    /// ```
    pub fn comap<C, P>(self, part: impl Fn(&C) -> Option<P> + Send + Sync + 'static) -> Gen<C, A>
    where
        C: ?Sized + 'static,
        P: std::borrow::Borrow<B> + 'static,
    {
        Gen::from_node(Comap {
            inner: self,
            part,
            _part: std::marker::PhantomData::<fn() -> P>,
        })
    }

    /// Forgets how to reflect: the result runs forward only (the paper's `noAnn`).
    ///
    /// Use it while upgrading a plain generator, for the parts not annotated yet. Nothing can
    /// be reflected on an `Infallible`, so a generator built on it reflects nothing.
    pub fn no_ann(self) -> Gen<Infallible, A> {
        self.focus(|never: &Infallible| match *never {})
    }
}

struct Focus<B: ?Sized, A, F> {
    inner: Gen<B, A>,
    part: F,
}

impl<C, B, A, F> Node<C, A> for Focus<B, A, F>
where
    C: ?Sized,
    B: ?Sized,
    F: for<'c> Fn(&'c C) -> Option<&'c B> + Send + Sync,
{
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        self.inner.node.forward(run)
    }

    fn backward(&self, c: &C, run: &mut Backward, limit: usize) -> Reflected<A> {
        run.step()?;
        match (self.part)(c) {
            Some(b) => self.inner.node.backward(b, run, limit),
            None => Ok(Vec::new()),
        }
    }
}

struct Comap<B: ?Sized, A, F, P> {
    inner: Gen<B, A>,
    part: F,
    _part: std::marker::PhantomData<fn() -> P>,
}

impl<C, B, A, F, P> Node<C, A> for Comap<B, A, F, P>
where
    C: ?Sized,
    B: ?Sized,
    P: std::borrow::Borrow<B>,
    F: Fn(&C) -> Option<P> + Send + Sync,
{
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        self.inner.node.forward(run)
    }

    fn backward(&self, c: &C, run: &mut Backward, limit: usize) -> Reflected<A> {
        run.step()?;
        match (self.part)(c) {
            Some(b) => self.inner.node.backward(b.borrow(), run, limit),
            None => Ok(Vec::new()),
        }
    }
}
