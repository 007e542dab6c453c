//! The pass that puts picks on simpler branches.

use crate::choice::{Choice, ChoiceTree, nearest_zero};
use crate::node::Node;

use crate::interpret::shrink::edit::{innermost_span_end, next_simplest, set_int, set_pick};
use crate::interpret::shrink::search::Search;

impl<G: Node> Search<'_, G> {
    /// Tries each pick on a simpler branch, the branch's choices replaced by the simplest ones
    /// it takes and the choices after it kept: a subtree becomes a leaf, a constructor a
    /// simpler one with the simplest fields.
    pub(super) fn simpler_branches(&mut self) {
        let mut at = 0;
        while at < self.choices().len() {
            if self.exhausted() {
                return;
            }
            if let Choice::Pick { index, .. } = self.choices()[at] {
                for lower in 0..index {
                    let Some((candidate, branch)) = self.with_simplest_branch(at, lower) else {
                        continue;
                    };
                    if self.try_choices(candidate.clone()) || self.bump_one(candidate, branch) {
                        break;
                    }
                }
            }
            at += 1;
        }
    }

    /// Tries `candidate` with one of the first integers in `branch` one step from its simplest
    /// value: a simpler branch whose simplest fields do not fail may fail with one field
    /// nudged (`a && b` for `a || b` needs two different operands).
    pub(super) fn bump_one(
        &mut self,
        candidate: Vec<Choice>,
        branch: std::ops::Range<usize>,
    ) -> bool {
        const MAX_BUMPS: usize = 8;
        let nudgeable: Vec<(usize, i128)> = branch
            .filter_map(|i| match candidate[i] {
                Choice::Int { value, lo, hi } if value == nearest_zero(lo, hi) => {
                    next_simplest(lo, hi).map(|next| (i, next))
                }
                _ => None,
            })
            .take(MAX_BUMPS)
            .collect();
        for (i, next) in nudgeable {
            let mut bumped = candidate.clone();
            set_int(&mut bumped[i], next);
            if self.try_choices(bumped) {
                return true;
            }
        }
        false
    }

    /// The best choices with the pick at `at` on branch `lower`, that branch's choices the
    /// simplest ones, and the choices after the old branch kept, with the new branch's place;
    /// `None` if the pick opens no span or the new choices do not replay.
    pub(super) fn with_simplest_branch(
        &self,
        at: usize,
        lower: u32,
    ) -> Option<(Vec<Choice>, std::ops::Range<usize>)> {
        let old_end = innermost_span_end(&self.best.tree, at)?;
        let mut prefix = self.choices()[..=at].to_vec();
        set_pick(&mut prefix[at], lower);
        let size = self.best.tree.size();
        let simplest = self.replay(&ChoiceTree::from_parts(size, prefix, [])?)?;
        let new_end = innermost_span_end(&simplest.tree, at)?;
        let mut candidate = simplest.tree.choices()[..new_end].to_vec();
        candidate.extend_from_slice(&self.choices()[old_end..]);
        Some((candidate, at..new_end))
    }
}
