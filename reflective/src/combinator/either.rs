//! A generator chosen by the code that builds it: [`Either`].

use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// One of two generators of the same input and output, chosen when the generator is built
/// (an `if` in a [`bind`](crate::Generator::bind) continuation or a [`family`](crate::family)):
/// it records no choice, unlike [`pick`](crate::pick), and needs no allocation, unlike
/// [`boxed`](crate::Generator::boxed) branches.
///
/// ```
/// use reflective::combinator::{Either, Exact, Int};
/// use reflective::prelude::*;
/// fn up_to(n: u8) -> Either<Exact<u8>, Int<u8>> {
///     if n == 0 { Either::Left(exact(0)) } else { Either::Right(range(0..=n)) }
/// }
/// assert!(up_to(0).can_generate(&0));
/// assert!(up_to(5).can_generate(&5));
/// ```
#[derive(Clone, Debug)]
pub enum Either<L, R> {
    /// The first generator.
    Left(L),
    /// The second generator.
    Right(R),
}

impl<L, R> Sealed for Either<L, R> {}

impl<L, R> Node for Either<L, R>
where
    L: Node,
    R: Node<Input = L::Input, Output = L::Output>,
{
    type Input = L::Input;
    type Output = L::Output;

    fn ignores_share(&self) -> bool {
        match self {
            Either::Left(l) => l.ignores_share(),
            Either::Right(r) => r.ignores_share(),
        }
    }

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<L::Output, Halt> {
        match self {
            Either::Left(g) => g.forward(run),
            Either::Right(g) => g.forward(run),
        }
    }

    fn backward(&self, b: &L::Input, run: &mut Backward, limit: usize) -> Reflected<L::Output> {
        match self {
            Either::Left(g) => g.backward(b, run, limit),
            Either::Right(g) => g.backward(b, run, limit),
        }
    }
}
