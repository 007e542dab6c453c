//! The generator gradient sampling's history tunes: [`Learned`], from [`Gradient::learned`].
//!
//! Each choice is drawn by how well each value did in its context (the two choices before it
//! and the kind of choice) along the descents, where the history has seen that context, and as
//! the generator draws it elsewhere. It is a generator like any other: generating, it draws
//! from a source of its own seeded by a random word of the run, and records what it drew as
//! the generator's own choices; every other run (replay, reflection, shrinking, mutation)
//! reads the generator's choices, so its values replay, reflect and shrink as the generator's.

use std::collections::HashMap;
use std::fmt::{self, Debug};
use std::sync::Arc;

use rand_core::{Rng, SeedableRng};

use crate::engine::source::random::{RandomSource, weighted};
use crate::engine::source::{ChoiceSource, IntSite, PickSite};
use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::interpret::generate::DefaultRng;
use crate::node::{Node, Sealed};

use super::{Context, History, context_of};

/// Per context, the values seen, and their weights with one more at the end for a fresh draw.
type Weights = HashMap<Context, (Vec<i128>, Vec<u64>)>;

/// A generator tuned by gradient sampling's history: see
/// [`Gradient::learned`](super::Gradient::learned).
///
/// ```
/// use reflective::prelude::*;
/// let lists = vec(range(0u8..=9), 0..=6);
/// let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(20);
/// let learned = sorted.learned(sorted.run(3, 20_000).unwrap().history);
/// // A generator like any other: its values are the lists' values, more of them sorted.
/// let xs = learned.sample(1);
/// assert!(lists.can_generate(&xs));
/// let valid = (0..1_000).filter(|&seed| learned.sample(seed).is_sorted()).count();
/// let plain = (0..1_000).filter(|&seed| lists.sample(seed).is_sorted()).count();
/// assert!(valid > 2 * plain, "{valid} against {plain}");
/// ```
#[derive(Clone)]
pub struct Learned<G> {
    g: G,
    weights: Arc<Weights>,
}

impl<G> Learned<G> {
    /// The generator `g` with the weights `history` gives its choices.
    pub(super) fn new(g: G, history: History) -> Self {
        let weights = history
            .table
            .into_iter()
            .map(|(context, seen)| {
                let mut options: Vec<(i128, u64)> = seen
                    .into_iter()
                    .map(|(value, (valid, samples))| (value, 1 + 1000 * valid / samples.max(1)))
                    .collect();
                options.sort_unstable();
                let (values, mut weights): (Vec<i128>, Vec<u64>) = options.into_iter().unzip();
                weights.push(1);
                (context, (values, weights))
            })
            .collect();
        Learned {
            g,
            weights: Arc::new(weights),
        }
    }
}

impl<G> Debug for Learned<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Learned")
            .field("contexts", &self.weights.len())
            .finish_non_exhaustive()
    }
}

impl<G> Sealed for Learned<G> {}

impl<G: Node> Node for Learned<G> {
    type Input = G::Input;
    type Output = G::Output;

    fn ignores_share(&self) -> bool {
        self.g.ignores_share()
    }

    /// The generator's choices: drawn by the history when the run draws at random (from a
    /// source seeded by a random word of the run), else read from the run's source.
    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        let Some(seed) = run.entropy() else {
            return self.g.forward(run);
        };
        let mut rng = DefaultRng::seed_from_u64(seed);
        let mut source = LearnedSource::new(&self.weights, &mut rng);
        run.on_source(&mut source, |run| self.g.forward(run))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        self.g.backward(b, run, limit)
    }
}

/// Draws each choice by the history's weights where it has seen the context.
struct LearnedSource<'h, 'r, R: ?Sized> {
    weights: &'h Weights,
    rng: &'r mut R,
    before: Vec<i128>,
}

impl<'h, 'r, R: Rng + ?Sized> LearnedSource<'h, 'r, R> {
    fn new(weights: &'h Weights, rng: &'r mut R) -> Self {
        LearnedSource {
            weights,
            rng,
            before: Vec::new(),
        }
    }

    /// A value by the history in `context`: each value seen weighted by its share of valid
    /// samples (plus a little, so that none is ruled out), and a fresh draw with the weight of
    /// one value; `None` for a fresh draw.
    fn by_history(&mut self, context: &Context, allowed: impl Fn(i128) -> bool) -> Option<i128> {
        let (values, weights) = self.weights.get(context)?;
        // The index past the values is a fresh draw; a value the site no longer allows (another
        // range) is one too.
        let value = *values.get(weighted(self.rng, weights))?;
        allowed(value).then_some(value)
    }
}

impl<R: Rng + ?Sized> ChoiceSource for LearnedSource<'_, '_, R> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        let arity = site.branches.arity();
        let context = context_of(&self.before, (0, arity as i128, 0));
        let branches = site.branches;
        let index = match self.by_history(&context, |value| {
            usize::try_from(value).is_ok_and(|i| i < arity && branches.weight(i) > 0)
        }) {
            Some(value) => value as u32,
            None => RandomSource::new(&mut *self.rng).pick(site)?,
        };
        self.before.push(i128::from(index));
        Ok(index)
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        let context = context_of(&self.before, (1, site.lo, site.hi));
        let (lo, hi) = (site.lo, site.hi);
        let value = match self.by_history(&context, |value| (lo..=hi).contains(&value)) {
            Some(value) => value,
            None => RandomSource::new(&mut *self.rng).int(site)?,
        };
        self.before.push(value);
        Ok(value)
    }
}
