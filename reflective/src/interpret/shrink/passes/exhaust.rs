//! The pass that tries every small value: once the best is a few choices long, the choice
//! sequences no longer than it, walked depth first (SmallCheck's enumeration), each integer
//! taking its few simplest values. It reaches minima that no sequence of local edits reaches
//! (a heap of four values in another shape, a list with one element fewer and every other
//! renumbered).

use crate::engine::source::exhaustive::Exhaustive;
use crate::interpret::generate::{Generated, Recorded, record_caught};
use crate::node::Node;

use crate::interpret::shrink::search::Search;

/// The most choices a best may have for the walk to run: the sequences grow exponentially
/// with it.
const MAX_CHOICES: usize = 16;

/// How many of an integer's simplest values the walk tries (0, 1, -1 for a signed one).
const WIDTH: usize = 3;

/// The most sequences one walk generates.
const MAX_RUNS: usize = 1024;

/// The most candidates one walk evaluates, so that a slow property costs a bounded time.
const MAX_EVALUATIONS: usize = 256;

/// The candidates a walk may evaluate whatever the shrink made before it. Beyond this, a walk
/// evaluates at most as many candidates as the shrink did before it: on the shrinking
/// benchmarks and challenges every walk that finds a simpler failure finds it within its
/// first 33 evaluations, and a walk that finds nothing (a short failure with nothing simpler,
/// such as a stateful test's shortest failing sequence) must not be most of the shrink's cost
/// when every evaluation runs a system.
const MIN_EVALUATIONS: usize = 64;

impl<G: Node> Search<'_, G> {
    /// Walks the sequences of at most as many choices as the best, depth first and simplest
    /// first, and keeps the first simpler one that fails; it evaluates at most as many
    /// candidates as the shrink did before it, earlier walks included (between
    /// [`MIN_EVALUATIONS`] and [`MAX_EVALUATIONS`]).
    pub(super) fn try_small_values(&mut self) {
        let longest = self.choices().len();
        if longest > MAX_CHOICES {
            return;
        }
        let size = self.best.tree.size();
        let evaluations = self.stats.evaluations;
        let allowed = evaluations.clamp(MIN_EVALUATIONS, MAX_EVALUATIONS);
        let mut walk = Exhaustive::bounded(WIDTH, longest);
        for _ in 0..MAX_RUNS {
            if !walk.has_next()
                || self.exhausted()
                || self.stats.evaluations - evaluations >= allowed
            {
                return;
            }
            let walked = record_caught(self.g, &mut walk, size);
            walk.advance();
            let Ok(Ok(Recorded {
                generated: Generated { tree, .. },
                ..
            })) = walked
            else {
                continue;
            };
            if tree.shortlex_cmp(&self.best.tree).is_lt()
                && self.try_choices(tree.choices().to_vec())
            {
                return;
            }
        }
    }
}
