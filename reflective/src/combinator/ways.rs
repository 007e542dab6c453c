//! [`counting_ways`]: a generator whose reflection finds one way of making a value that
//! stands for many, for `probability_of`.

use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// `g`, whose reflection of a value finds one of `ways(value)` equally likely ways that
/// generation has of making it (given as a natural logarithm): each way found counts for all
/// of them in the value's probability. Everything else is `g`'s, and a reflection whose
/// caller does not read probabilities (`can_generate`, `choices`, shrinking) does not count
/// the ways.
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
        if run.weighs && !solutions.is_empty() {
            let log_ways = (self.log_ways)(b);
            for solution in &mut solutions {
                // A probability, at most 1: the way found and the ways counted are logarithms
                // of very different sizes (2^-64 a key, for a shuffle), whose sum rounds a
                // value made every time to a little above 0.
                solution.log_probability = (solution.log_probability + log_ways).min(0.0);
            }
        }
        Ok(solutions)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::combinator::range;
    use crate::generator::Generator;

    /// The ways are counted for `probability_of` alone, and count in it: a value drawn one
    /// way in ten, standing for two, has one in five.
    #[test]
    fn the_ways_are_counted_only_for_probabilities() {
        let counted = AtomicUsize::new(0);
        let g = counting_ways(range(0u8..=9), |_: &u8| {
            counted.fetch_add(1, Ordering::Relaxed);
            2f64.ln()
        });
        assert!(g.can_generate(&3));
        assert_eq!(g.choices(&3).len(), 1);
        assert_eq!(counted.load(Ordering::Relaxed), 0);
        assert!((g.probability_of(&3) - 0.2).abs() < 1e-12);
        assert_eq!(g.probability_of(&10), 0.0);
        assert_eq!(counted.load(Ordering::Relaxed), 1);
    }
}
