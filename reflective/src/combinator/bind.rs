//! Sequencing: [`Generator::bind`], the monadic bind, where what comes next depends on a value.

use crate::backward::{Backward, Reflected, Solution};
use crate::forward::Forward;
use crate::generator::{Generator, sealed::Sealed};
use crate::source::Halt;

opaque_debug!(impl[G, F] Bind<G, F>);

/// The generator [`Generator::bind`] returns.
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

impl<G, F, H> Generator for Bind<G, F>
where
    G: Generator,
    F: Fn(G::Output) -> H + Send + Sync,
    H: Generator<Input = G::Input>,
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
            // Any way of producing the first part may be the one the rest can follow, so all
            // of them are needed.
            let firsts = run.with_values(|run| self.first.backward(b, run, usize::MAX))?;
            for first in firsts {
                if found.len() >= limit {
                    break;
                }
                let Some(x) = first.value else {
                    unreachable!("the left side of a bind runs with values built")
                };
                let rest = (self.next)(x).backward(b, run, limit - found.len())?;
                found.extend(rest.into_iter().map(|solution| Solution {
                    value: solution.value,
                    trace: first.trace.clone().then(solution.trace),
                    log_probability: first.log_probability + solution.log_probability,
                }));
            }
            run.found(found.len())?;
            Ok(found)
        })
    }
}
