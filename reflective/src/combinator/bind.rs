//! Sequencing: [`Generator::bind`](crate::Generator::bind), the monadic bind, where what comes next depends on a value.

use crate::engine::{Backward, Forward, Halt, Reflected, Solution};
use crate::node::{Node, Sealed};

opaque_debug!(impl[G, F] Bind<G, F>);

/// The generator [`Generator::bind`](crate::Generator::bind) returns.
#[derive(Clone)]
pub struct Bind<G, F> {
    first: G,
    next: F,
}

impl<G, F> Bind<G, F> {
    pub(crate) fn new(first: G, next: F) -> Self {
        Bind { first, next }
    }
}

impl<G, F> Sealed for Bind<G, F> {}

impl<G, F, H> Node for Bind<G, F>
where
    G: Node,
    F: Fn(G::Output) -> H + Send + Sync,
    H: Node<Input = G::Input>,
{
    type Input = G::Input;
    type Output = H::Output;

    fn forward(&self, run: &mut Forward<'_>) -> Result<H::Output, Halt> {
        run.nested(|run| {
            let x = self.first.forward(run)?;
            (self.next)(x).forward(run)
        })
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<H::Output> {
        run.nested(|run| {
            let mut found = Vec::new();
            for mut first in first_ways(&self.first, b, run)? {
                if found.len() >= limit {
                    break;
                }
                let Some(x) = first.value.take() else {
                    unreachable!("the left side of a bind runs with values built")
                };
                let rest = rest_ways(&self.next, x, b, run, limit - found.len())?;
                append_after(&first, rest, &mut found);
            }
            run.found(found.len())?;
            Ok(found)
        })
    }
}

/// Every way of producing the first part of a bind, with values built. Any of them may be the
/// one the rest can follow, so all of them are needed.
///
/// Out of line, as [`append_after`]: a deeply nested value recurses through
/// [`Bind::backward`] once per level, and its stack frame then holds only the loop's state.
#[inline(never)]
fn first_ways<G: Node>(first: &G, b: &G::Input, run: &mut Backward) -> Reflected<G::Output> {
    run.with_values(|run| first.backward(b, run, usize::MAX))
}

/// The ways the generator `next` builds from the first part's value `x` produces the rest.
///
/// Out of line, so that the generator it builds lives in this short frame.
#[inline(never)]
fn rest_ways<X, H: Node>(
    next: &impl Fn(X) -> H,
    x: X,
    b: &H::Input,
    run: &mut Backward,
    limit: usize,
) -> Reflected<H::Output> {
    next(x).backward(b, run, limit)
}

/// Appends the ways of producing the rest of a bind, each after the choices of its first part.
#[inline(never)]
fn append_after<X, A>(first: &Solution<X>, rest: Vec<Solution<A>>, found: &mut Vec<Solution<A>>) {
    found.extend(rest.into_iter().map(|solution| Solution {
        value: solution.value,
        trace: first.trace.clone().then(solution.trace),
        log_probability: first.log_probability + solution.log_probability,
        used: first.used + solution.used,
    }));
}
