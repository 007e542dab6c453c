//! The state of one shrink and the one way every pass tries a candidate: replay it with
//! repair, keep it if it is simpler and still fails.

use std::collections::HashSet;
use std::time::Instant;

use crate::choice::{Choice, ChoiceTree, Collection};
use crate::engine::caught;
use crate::interpret::generate::{Generated, replay_repaired};
use crate::node::Node;

use super::cache::Passed;
use super::stats::{ShrinkStats, Stopped};
use crate::choice::fingerprint;

/// The state of one shrink.
pub(super) struct Search<'g, G: Node> {
    pub(super) g: &'g G,
    pub(super) still_fails: &'g dyn Fn(&G::Output) -> bool,
    pub(super) best: Generated<G::Output>,
    pub(super) stats: ShrinkStats,
    /// The pass running, an index into `stats.passes`.
    pub(super) pass: usize,
    /// The fingerprints of the choices tried that did not fail, with how many choices they
    /// replayed to, so that a candidate two passes (or two elements) lead to is evaluated once.
    pub(super) passed: Passed,
    pub(super) max_evaluations: usize,
    pub(super) deadline: Option<Instant>,
    pub(super) started: Instant,
}

impl<G: Node> Search<'_, G> {
    /// The best choices so far.
    pub(super) fn choices(&self) -> &[Choice] {
        self.best.tree.choices()
    }

    /// The non-empty spans of the best choices, as ranges, in the order they were opened.
    pub(super) fn spans_in_order(&self) -> Vec<std::ops::Range<usize>> {
        self.best
            .tree
            .spans()
            .iter()
            .map(|span| span.range())
            .filter(|range| !range.is_empty())
            .collect()
    }

    /// The spans of the best choices, as ranges, longest first.
    pub(super) fn span_ranges(&self) -> Vec<std::ops::Range<usize>> {
        let mut ranges = self.spans_in_order();
        ranges.sort_by_key(|range| std::cmp::Reverse(range.len()));
        ranges.dedup();
        ranges
    }

    /// `tree` replayed with repair; `None` where generation fails or the generator panics (a
    /// `map` that asserts on what it is given; the panic kept off stderr): a candidate the
    /// shrinker cannot use.
    pub(super) fn replay(&self, tree: &ChoiceTree) -> Option<Generated<G::Output>> {
        caught(|| replay_repaired(self.g, tree)).ok()?.ok()
    }

    /// Moves the best to the smallest of the sizes 0, 1, 2, 4, ... below its own at which its
    /// choices replay, all of them and only them, to a value that still fails: the size a
    /// value given from outside starts at (reflected at the smallest size that produces it),
    /// so that a generated value and the same value from outside shrink alike.
    pub(super) fn start_at_smallest_size(&mut self) {
        let mut size = 0;
        while size < self.best.tree.size() && !self.exhausted() {
            let choices = self.choices().to_vec();
            if let Some(tree) = ChoiceTree::from_parts(size, choices, [])
                && let Some(replayed) = self.replay(&tree)
                && replayed.tree.choices() == self.choices()
            {
                self.stats.evaluations += 1;
                if (self.still_fails)(&replayed.value) {
                    self.best = replayed;
                    return;
                }
            }
            size = (size * 2).max(1);
        }
    }

    /// Whether the shrink must stop: a budget ran out. The passes ask before each step, also
    /// those that work a while without evaluating, so that the time budget holds.
    pub(super) fn exhausted(&mut self) -> bool {
        if self.stats.stopped == Stopped::Fixpoint
            && self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.stats.stopped = Stopped::Time;
        }
        self.stats.stopped != Stopped::Fixpoint
    }

    /// Tries `choices`: keeps them if they replay to a shortlex-smaller sequence whose value
    /// still fails.
    pub(super) fn try_choices(&mut self, choices: Vec<Choice>) -> bool {
        matches!(self.attempt(choices), Attempt::Kept)
    }

    /// [`try_choices`](Self::try_choices), saying how many choices the candidate replayed to
    /// when it was not kept (a pass that lowers a count learns how many it no longer reads).
    pub(super) fn attempt(&mut self, choices: Vec<Choice>) -> Attempt {
        let unknown = Attempt::Rejected { replayed: None };
        if self.stats.evaluations >= self.max_evaluations {
            self.stats.stopped = Stopped::Evaluations;
        }
        if self.exhausted() {
            return unknown;
        }
        let edited = fingerprint(&choices);
        if let Some(replayed) = self.passed.replayed(edited) {
            return Attempt::Rejected {
                replayed: Some(replayed),
            };
        }
        let size = self.best.tree.size();
        let Some(tree) = ChoiceTree::from_parts(size, choices, []) else {
            return unknown;
        };
        if tree.shortlex_cmp(&self.best.tree).is_ge() {
            return unknown;
        }
        let Some(candidate) = self.replay(&tree) else {
            return unknown;
        };
        let length = candidate.tree.len();
        let rejected = Attempt::Rejected {
            replayed: Some(length),
        };
        if candidate.tree.shortlex_cmp(&self.best.tree).is_ge() {
            return rejected;
        }
        let replayed = fingerprint(candidate.tree.choices());
        if self.passed.replayed(replayed).is_some() {
            self.passed.remember(edited, length);
            return rejected;
        }
        self.stats.evaluations += 1;
        self.stats.passes[self.pass].evaluations += 1;
        if (self.still_fails)(&candidate.value) {
            self.best = candidate;
            self.stats.steps += 1;
            self.stats.passes[self.pass].steps += 1;
            Attempt::Kept
        } else {
            self.passed.remember(edited, length);
            self.passed.remember(replayed, length);
            rejected
        }
    }

    /// Tries the best choices with the one at `at` changed by `edit`.
    pub(super) fn try_with(&mut self, at: usize, edit: impl FnOnce(&mut Choice)) -> bool {
        if at >= self.choices().len() {
            return false;
        }
        let mut edited = self.choices().to_vec();
        edit(&mut edited[at]);
        self.try_choices(edited)
    }

    /// The collections among the best choices.
    pub(super) fn collections(&self) -> Vec<Collection> {
        self.best.tree.collections()
    }

    /// Where the elements of the collections start.
    pub(super) fn element_starts(&self) -> HashSet<usize> {
        self.collections()
            .into_iter()
            .flat_map(|collection| collection.elements.into_iter().map(|element| element.start))
            .collect()
    }
}

/// What became of a candidate in [`Search::attempt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Attempt {
    /// It became the best.
    Kept,
    /// It did not; how many choices it replayed to, if it was replayed (or remembered).
    Rejected { replayed: Option<usize> },
}

/// What became of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tried {
    /// It became the best, with the choices edited where they were.
    Kept,
    /// It did not become the best.
    Rejected,
    /// It became the best, but repair moved the choices: places found before no longer hold.
    Reshaped,
}
