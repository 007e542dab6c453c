//! Sequencing: [`Gen::bind`], the monadic bind, where what comes next depends on a value.

use crate::backward::{Backward, Reflected, Solution};
use crate::forward::Forward;
use crate::generator::{Gen, Node};
use crate::source::Halt;

impl<B: ?Sized + 'static, X: 'static> Gen<B, X> {
    /// Runs this generator, then the generator `next` builds from its value.
    ///
    /// Backward, this generator reflects on the value first (usually through a
    /// [`focus`](Gen::focus) on the part it produces), and each value it could have produced
    /// is fed to `next`, which reflects on the same value. This is the paper's `>>=`.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // A length, then a vector of exactly that length.
    /// let dependent = range(0usize..=3)
    ///     .comap(|v: &Vec<bool>| Some(v.len()))
    ///     .bind(|len| vec(bool(), len..=len));
    /// assert!(dependent.can_generate(&vec![true, false]));
    /// ```
    pub fn bind<A: 'static>(
        self,
        next: impl Fn(X) -> Gen<B, A> + Send + Sync + 'static,
    ) -> Gen<B, A> {
        Gen::from_node(Bind { first: self, next })
    }

    /// Another name for [`Gen::bind`], as on `Option` and `Result`.
    pub fn and_then<A: 'static>(
        self,
        next: impl Fn(X) -> Gen<B, A> + Send + Sync + 'static,
    ) -> Gen<B, A> {
        self.bind(next)
    }
}

struct Bind<B: ?Sized, X, F> {
    first: Gen<B, X>,
    next: F,
}

impl<B, X, A, F> Node<B, A> for Bind<B, X, F>
where
    B: ?Sized,
    F: Fn(X) -> Gen<B, A> + Send + Sync,
{
    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        run.nested(|run| {
            let x = self.first.node.forward(run)?;
            (self.next)(x).node.forward(run)
        })
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        run.nested(|run| {
            let mut found = Vec::new();
            // Any way of producing the first part may be the one the rest can follow, so all
            // of them are needed.
            let firsts = run.with_values(|run| self.first.node.backward(b, run, usize::MAX))?;
            for first in firsts {
                if found.len() >= limit {
                    break;
                }
                let Some(x) = first.value else {
                    unreachable!("the left side of a bind runs with values built")
                };
                let rest = (self.next)(x).node.backward(b, run, limit - found.len())?;
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
