//! Independent pairs: [`zip`].

use crate::engine::{Backward, Forward, Halt, Reflected, Solution};
use crate::node::{Node, Sealed};

/// Runs `first` then `second` on the same reflected value, and pairs their results.
///
/// It is `first.bind(move |a| second.map(move |b| (a, b)))` for generators that do not depend
/// on each other, without the cost of building the second generator anew each time.
///
/// ```
/// use reflective::prelude::*;
/// let point = zip(
///     range(0i32..=9).focus(|p: &(i32, i32)| Some(&p.0)),
///     range(0i32..=9).focus(|p: &(i32, i32)| Some(&p.1)),
/// );
/// assert!(point.can_generate(&(3, 4)));
/// ```
pub fn zip<G1, G2>(first: G1, second: G2) -> Zip<G1, G2>
where
    G1: Node,
    G2: Node<Input = G1::Input>,
    G1::Output: Clone,
    G2::Output: Clone,
{
    Zip { first, second }
}

opaque_debug!(impl[G1, G2] Zip<G1, G2>);

/// The generator [`zip`] returns.
#[derive(Clone)]
pub struct Zip<G1, G2> {
    first: G1,
    second: G2,
}

impl<G1, G2> Zip<G1, G2> {
    pub(crate) fn new(first: G1, second: G2) -> Self {
        Zip { first, second }
    }
}

impl<G1, G2> Sealed for Zip<G1, G2> {}

impl<G1, G2> Node for Zip<G1, G2>
where
    G1: Node,
    G2: Node<Input = G1::Input>,
    G1::Output: Clone,
    G2::Output: Clone,
{
    type Input = G1::Input;
    type Output = (G1::Output, G2::Output);

    fn ignores_share(&self) -> bool {
        self.first.ignores_share() && self.second.ignores_share()
    }

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<Self::Output, Halt> {
        let first = self.first.forward(run)?;
        let second = self.second.forward(run)?;
        Ok((first, second))
    }

    fn backward(&self, b: &G1::Input, run: &mut Backward, limit: usize) -> Reflected<Self::Output> {
        run.step()?;
        let firsts = self.first.backward(b, run, limit)?;
        if firsts.is_empty() {
            return Ok(Vec::new());
        }
        let seconds = self.second.backward(b, run, limit)?;
        pair(firsts, seconds, run, limit)
    }
}

/// Every way of producing the first part paired with every way of producing the second, up
/// to `limit`.
///
/// Out of line, as the other steps after a recursive call: a deeply nested value recurses
/// through [`Zip::backward`] once per level, and its stack frame then holds only the two
/// vectors, not this function's locals.
#[inline(never)]
fn pair<A: Clone, B: Clone>(
    firsts: Vec<Solution<A>>,
    mut seconds: Vec<Solution<B>>,
    run: &mut Backward,
    limit: usize,
) -> Reflected<(A, B)> {
    if let ([_], [_]) = (firsts.as_slice(), seconds.as_slice()) {
        // The common case, one way each: move the values, clone nothing.
        let (first, second) = (firsts.into_iter().next(), seconds.pop());
        let (Some(first), Some(second)) = (first, second) else {
            unreachable!("both have one solution")
        };
        return Ok(vec![Solution {
            value: first.value.zip(second.value),
            trace: first.trace.then(second.trace),
            log_probability: first.log_probability + second.log_probability,
            used: first.used + second.used,
        }]);
    }
    combine(&firsts, &seconds, run, limit)
}

/// The uncommon case of [`pair`]: several ways for either part.
#[cold]
#[inline(never)]
fn combine<A: Clone, B: Clone>(
    firsts: &[Solution<A>],
    seconds: &[Solution<B>],
    run: &mut Backward,
    limit: usize,
) -> Reflected<(A, B)> {
    run.found(firsts.len().saturating_mul(seconds.len()).min(limit))?;
    let mut found = Vec::new();
    'all: for first in firsts {
        for second in seconds {
            if found.len() >= limit {
                break 'all;
            }
            run.step()?;
            found.push(Solution {
                value: first.value.clone().zip(second.value.clone()),
                trace: first.trace.clone().then(second.trace.clone()),
                log_probability: first.log_probability + second.log_probability,
                used: first.used + second.used,
            });
        }
    }
    Ok(found)
}
