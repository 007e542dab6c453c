//! [`counting_ways`]: a generator whose reflection finds one way of making a value that
//! stands for many, for `probability_of`.

use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// `g`, whose reflection of a value finds one of `ways(value)` equally likely ways that
/// generation has of making it (given as a natural logarithm): each way found counts for all
/// of them in the value's probability. Everything else is `g`'s.
///
/// For a generator that draws more than a value needs and reflects canonically: a shuffle
/// drawn as random keys reflects as the keys' ranks, one of the key vectors that give the
/// order.
pub(crate) fn counting_ways<G, F>(g: G, log_ways: F) -> CountingWays<G, F>
where
    G: Node,
    F: Fn(&G::Input) -> f64 + Send + Sync,
{
    CountingWays { g, log_ways }
}

opaque_debug!(impl[G, F] CountingWays<G, F>);

/// The generator [`counting_ways`] returns.
#[derive(Clone)]
pub(crate) struct CountingWays<G, F> {
    g: G,
    log_ways: F,
}

impl<G, F> Sealed for CountingWays<G, F> {}

impl<G, F> Node for CountingWays<G, F>
where
    G: Node,
    F: Fn(&G::Input) -> f64 + Send + Sync,
{
    type Input = G::Input;
    type Output = G::Output;

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        self.g.forward(run)
    }

    fn ignores_share(&self) -> bool {
        self.g.ignores_share()
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        let mut solutions = self.g.backward(b, run, limit)?;
        if !solutions.is_empty() {
            let log_ways = (self.log_ways)(b);
            for solution in &mut solutions {
                solution.log_probability += log_ways;
            }
        }
        Ok(solutions)
    }
}
