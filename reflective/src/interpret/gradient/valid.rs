//! A generator of valid values by Choice Gradient Sampling: [`ValidByGradient`].
//!
//! Generating, each value is one descent of gradient sampling, seeded by a random word of the
//! run (no choice of it: the same seed and size give the same value), whose choices the
//! generator then replays in the run, so that the value is recorded with the generator's own
//! choices. Every other run (replay, shrinking, mutation, enumeration, a search of its own)
//! reads the generator's choices from its source and keeps the values the predicate accepts,
//! as [`Generator::filter`](crate::Generator::filter) does; backward, it reflects as the filter
//! does. So a value from it replays, shrinks and mutates to values the predicate accepts.

use std::fmt::Debug;

use crate::combinator::Filter;
use crate::engine::source::replay::{Fallback, ReplaySource};
use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

use super::{DEFAULT_MAX_SAMPLES, Gradient};

opaque_debug!(impl[G, P] ValidByGradient<G, P>);

/// The generator [`Generator::valid_by_gradient`](crate::Generator::valid_by_gradient)
/// returns. Generating, each value is one descent of gradient sampling, seeded by a random
/// word of the run, whose choices the generator replays in the run; replaying, shrinking or
/// mutating, it reads the generator's choices and keeps what the predicate accepts, as a
/// [`filter`](crate::Generator::filter).
///
/// ```
/// use reflective::prelude::*;
/// // Three digits that sum to 20 (one triple in 28), with at most 2 000 samples a value.
/// let triples = tuple((range(0u8..=9), range(0u8..=9), range(0u8..=9)));
/// let twenty = triples
///     .valid_by_gradient(|&(a, b, c)| a + b + c == 20, 5)
///     .max_samples(2_000);
/// let (a, b, c) = twenty.sample(3);
/// assert_eq!(a + b + c, 20);
/// ```
#[derive(Clone)]
pub struct ValidByGradient<G, P> {
    filter: Filter<G, P>,
    samples: usize,
    int_candidates: usize,
    max_samples: u64,
}

impl<G, P> ValidByGradient<G, P> {
    pub(crate) fn new(inner: G, valid: P, samples: usize) -> Self {
        ValidByGradient {
            filter: Filter::new(inner, valid),
            samples: samples.max(1),
            int_candidates: 16,
            max_samples: DEFAULT_MAX_SAMPLES,
        }
    }

    /// Fails to generate a value once the descents for it have spent `samples` samples
    /// without finding one the predicate accepts ([`DEFAULT_MAX_SAMPLES`] by default). A
    /// value with many choices takes a descent many samples (each of its choices scores its
    /// candidates by sampling), so the budget also bounds the time one value takes.
    pub fn max_samples(mut self, samples: u64) -> Self {
        self.max_samples = samples;
        self
    }

    /// Scores every value of an integer choice over at most `count` values, and `count` values
    /// drawn as the generator draws them from a wider range (16 by default), as
    /// [`Gradient::int_candidates`].
    pub fn int_candidates(mut self, count: usize) -> Self {
        self.int_candidates = count.max(1);
        self
    }
}

impl<G, P> Sealed for ValidByGradient<G, P> {}

impl<G, P> Node for ValidByGradient<G, P>
where
    G: Node,
    G::Output: Clone + Debug,
    P: Fn(&G::Output) -> bool + Send + Sync,
{
    type Input = G::Input;
    type Output = G::Output;

    fn ignores_share(&self) -> bool {
        self.filter.ignores_share()
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        if run.entropy().is_none() {
            return self.filter.forward(run);
        }
        let gradient = Gradient::new(self.filter.inner(), self.filter.keep())
            .samples(self.samples)
            .int_candidates(self.int_candidates);
        let (mut descents, mut samples) = (0, 0);
        while samples < self.max_samples {
            let seed = run.entropy().expect("a random source stays random");
            let (found, stats) = gradient
                .one_within(seed, run.size, self.max_samples - samples)
                .unwrap_or_else(|panicked| panic!("{panicked}"));
            // A descent of a generator that makes no choice samples nothing, and is one try.
            samples += stats.samples.max(1);
            descents += 1;
            let Some(found) = found else {
                run.filtered.rejected += 1;
                continue;
            };
            // The descent's choices again, in this run, recorded as the filter records an
            // attempt: the value is what this run's sizing makes of them (a choice that does
            // not fit it takes its simplest value), and if the predicate rejects that, it is
            // a rejected attempt, which replays as one.
            let mut source = ReplaySource::new(found.tree.choices(), Fallback::Simplest);
            let span = run.open_span(None);
            let value = run.on_source(&mut source, |run| self.filter.inner().forward(run));
            run.close_span(span);
            let value = value?;
            if gradient.accepts(&value) {
                run.filtered.accepted += 1;
                return Ok(value);
            }
            run.filtered.rejected += 1;
        }
        Err(Halt::Failed(format!(
            "gradient sampling found no value the predicate accepts in {descents} descents \
             ({samples} samples); raise `ValidByGradient::max_samples`, or sample more per \
             choice (`valid_by_gradient`'s `samples`), or check that the predicate holds for \
             some value of the generator"
        )))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        self.filter.backward(b, run, limit)
    }
}
