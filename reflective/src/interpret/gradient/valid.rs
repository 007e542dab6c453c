//! A generator of valid values by Choice Gradient Sampling: [`ValidByGradient`].
//!
//! Generating, a value takes a source of its own, seeded by a random word of the run (no
//! choice of it: the same seed and size give the same value). It first draws one value as the
//! generator would, and keeps it if the predicate accepts it; otherwise it runs descents of
//! gradient sampling, placed where the run is among sizes and shares, until one finds a valid
//! value, whose choices the generator then replays in the run. Every attempt is recorded as
//! [`Generator::filter`](crate::Generator::filter) records its attempts, so that every other
//! run (replay, shrinking, mutation, enumeration, another search) reads the generator's
//! choices and keeps the values the predicate accepts, as the filter does; backward, it
//! reflects as the filter does. So a value from it replays, shrinks and mutates to values the
//! predicate accepts.

use std::fmt::Debug;

use rand_core::{Rng, SeedableRng};

use crate::combinator::{MAX_FILTER_ATTEMPTS, backward_filtered, filter_attempt, forward_filtered};
use crate::engine::source::random::RandomSource;
use crate::engine::source::replay::{Fallback, ReplaySource};
use crate::engine::{Backward, ChoiceSource, Forward, Halt, Reflected};
use crate::free::checked;
use crate::interpret::generate::DefaultRng;
use crate::node::{Node, Sealed};

use super::{DEFAULT_MAX_SAMPLES, Gradient};

opaque_debug!(impl[G, P] ValidByGradient<G, P>);

/// The generator [`Generator::valid_by_gradient`](crate::Generator::valid_by_gradient)
/// returns. Generating, a value is one draw of the generator if the predicate accepts it,
/// else the first valid value of descents of gradient sampling, replayed in the run;
/// replaying, shrinking or mutating, it reads the generator's choices and keeps what the
/// predicate accepts, as a [`filter`](crate::Generator::filter).
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
///
/// Nested inside gradient sampling (in another `valid_by_gradient`, or under
/// [`gradient`](crate::Generator::gradient)), whose sources give no random word, it is a
/// filter.
#[derive(Clone)]
pub struct ValidByGradient<G, P> {
    inner: G,
    valid: P,
    samples: usize,
    int_candidates: usize,
    max_samples: u64,
}

impl<G, P> ValidByGradient<G, P> {
    pub(crate) fn new(inner: G, valid: P, samples: usize) -> Self {
        ValidByGradient {
            inner,
            valid,
            samples: samples.max(1),
            int_candidates: 16,
            max_samples: DEFAULT_MAX_SAMPLES,
        }
    }

    /// Scores every value of an integer choice over at most `count` values, and `count` values
    /// drawn as the generator draws them from a wider range (16 by default), as
    /// [`Gradient::int_candidates`].
    pub fn int_candidates(mut self, count: usize) -> Self {
        self.int_candidates = count.max(1);
        self
    }

    /// Fails to generate a value once the descents for it have sampled `samples` values
    /// without finding one the predicate accepts ([`DEFAULT_MAX_SAMPLES`] by default). A
    /// value with many choices takes a descent many samples (each of its choices scores its
    /// candidates by sampling); the time a sample takes is the generator's.
    pub fn max_samples(mut self, samples: u64) -> Self {
        self.max_samples = samples;
        self
    }
}

impl<G, P> Sealed for ValidByGradient<G, P> {}

impl<G, P> ValidByGradient<G, P>
where
    G: Node,
    G::Output: Debug,
    P: Fn(&G::Output) -> bool,
{
    /// Whether the predicate accepts `value`; a panic of the predicate panics with the value.
    fn accepts(&self, value: &G::Output) -> bool {
        checked(&self.valid, value).unwrap_or_else(|panicked| panic!("{panicked}"))
    }

    /// The generator run on `source` in `run`, as a filter's attempt; the value, if the
    /// predicate accepts it.
    fn attempt(
        &self,
        source: &mut dyn ChoiceSource,
        run: &mut Forward<'_>,
    ) -> Result<Option<G::Output>, Halt> {
        let draw = |run: &mut Forward<'_>| run.on_source(source, |run| self.inner.forward(run));
        filter_attempt(run, draw, |value| self.accepts(value))
    }
}

impl<G, P> Node for ValidByGradient<G, P>
where
    G: Node,
    G::Output: Clone + Debug,
    P: Fn(&G::Output) -> bool + Send + Sync,
{
    type Input = G::Input;
    type Output = G::Output;

    fn ignores_share(&self) -> bool {
        self.inner.ignores_share()
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        let Some(seed) = run.entropy() else {
            return forward_filtered(&self.inner, |value| self.accepts(value), run);
        };
        let mut rng = DefaultRng::seed_from_u64(seed);
        // One plain draw first: where the predicate holds often, that is the value, and a
        // generator that fails fails here, with its own message.
        if let Some(value) = self.attempt(&mut RandomSource::new(&mut rng), run)? {
            return Ok(value);
        }
        let gradient = Gradient::new(&self.inner, &self.valid)
            .samples(self.samples)
            .int_candidates(self.int_candidates);
        // Where the run is after the plain draw: where a descent's value is replayed, as a
        // filter's later attempts are (the plain draw may have taken a collection's share).
        let placement = run.placement();
        // What the budget counts (a descent that samples nothing counts one), and what was
        // sampled.
        let (mut descents, mut spent, mut samples, mut rejected) = (0, 0, 0, 1);
        while spent < self.max_samples {
            let (found, stats) = gradient
                .one_within(rng.next_u64(), placement, self.max_samples - spent)
                .unwrap_or_else(|panicked| panic!("{panicked}"));
            spent += stats.samples.max(1);
            samples += stats.samples;
            descents += 1;
            run.filtered.descents += 1;
            run.filtered.samples += stats.samples;
            let Some(found) = found else {
                continue;
            };
            // The descent's choices again, in this run, as an attempt: they were made where
            // the run is, so they make the same value, unless the generator's value depends on
            // more than its choices (a choice that does not fit takes its simplest value).
            let mut source = ReplaySource::new(found.tree.choices(), Fallback::Simplest);
            if let Some(value) = self.attempt(&mut source, run)? {
                return Ok(value);
            }
            // Replayed as a filter, the attempts recorded must end within its limit.
            rejected += 1;
            if rejected + 1 >= MAX_FILTER_ATTEMPTS {
                return Err(Halt::Failed(format!(
                    "the predicate rejected {rejected} values in a row that gradient sampling \
                     found valid, replayed in the run: the generator's values depend on more \
                     than its choices, or the predicate on more than the value"
                )));
            }
        }
        Err(Halt::Failed(format!(
            "gradient sampling found no value the predicate accepts in {descents} descents \
             ({samples} samples) after a plain draw it rejected, at size {}; raise \
             `ValidByGradient::max_samples`, or sample more per choice (`valid_by_gradient`'s \
             `samples`), or check that the predicate holds for some value of the generator at \
             that size",
            placement.size
        )))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        backward_filtered(&self.inner, |value| self.accepts(value), b, run, limit)
    }
}
