//! Mutation cases: a share of a run's cases mutate earlier cases that were interesting, as
//! HypoFuzz does, instead of generating afresh.
//!
//! A case is *interesting* when the property ran on it (did not discard it) and its choices
//! hold labels, counted, that no earlier case held (a new combination of branches: a variant,
//! a constructor, a labelled pick, or the same ones more or fewer times); it joins the run's
//! pool. With [`Config::mutation_percent`](super::Config::mutation_percent) set, each case
//! after the first block is a mutant with that probability: one to four edits
//! ([`mutate`](crate::mutate)) of a pool case's choices, so it stays a value the generator
//! produces, near one that reached somewhere new. Where a property discards most cases (a
//! precondition few values meet), the pool holds the few it ran on, and their mutants meet
//! the precondition far more often than fresh cases do.
//!
//! Everything stays reproducible from one line: a mutant's [`Replay`] names its parent case
//! (`seed:size`) and the seed of its edits (`0x5eed:12/0x3d1`), and which case is a mutant of
//! which is decided from the case's seed and the pool as it stood at the end of the previous
//! block of [`BLOCK`] cases: a parallel run, whose rounds stop at the blocks' ends, makes the
//! same mutants as the sequential run.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::choice::ChoiceTree;

use super::config::Replay;

/// How many cases a block holds: the pool a case mutates from is the one at the end of the
/// block before its own.
pub(super) const BLOCK: u32 = 50;

/// The most cases the pool keeps: past it, the cases that joined last take the place of those
/// that joined first, so that a long run keeps mutating what it reached lately.
const MAX_POOL: usize = 256;

/// The interesting cases of a run so far.
#[derive(Debug, Default)]
pub(super) struct Pool {
    /// The cases mutants start from: those of the blocks before the current one.
    parents: Vec<Replay>,
    /// The interesting cases of the current block, joining the parents at its end.
    joining: Vec<Replay>,
    /// A hash of the labels (sorted, repeats kept) of every case offered.
    seen: HashSet<u64>,
}

impl Pool {
    /// The case at `index`, first drawn as `fresh`: a mutant of a pool case if the case's seed
    /// says so (with probability `percent` in 100), else `fresh` itself.
    pub(super) fn case(&self, fresh: Replay, percent: u8) -> Replay {
        if percent == 0 || self.parents.is_empty() {
            return fresh;
        }
        let roll = mix(fresh.seed, 1);
        if roll % 100 >= u64::from(percent) {
            return fresh;
        }
        let parent = self.parents[(mix(fresh.seed, 2) % self.parents.len() as u64) as usize];
        Replay {
            mutation: Some(mix(fresh.seed, 3)),
            ..parent
        }
    }

    /// Takes in case `index`, `replay`, whose choices are `tree` and which the property ran
    /// on: it joins the pool at the end of the block if its labels are new (mutants do not
    /// join: a replay names one parent).
    pub(super) fn offer(&mut self, replay: Replay, tree: &ChoiceTree) {
        if replay.mutation.is_some() {
            return;
        }
        let labels = tree.labels();
        let mut labels: Vec<&str> = labels.iter().map(|label| label.as_str()).collect();
        labels.sort_unstable();
        let mut hasher = DefaultHasher::new();
        labels.hash(&mut hasher);
        if self.seen.insert(hasher.finish()) {
            self.joining.push(replay);
        }
    }

    /// Ends the block if case `index` was its last: the cases that joined become parents.
    pub(super) fn after(&mut self, index: u32) {
        if (index + 1).is_multiple_of(BLOCK) {
            self.parents.append(&mut self.joining);
            let excess = self.parents.len().saturating_sub(MAX_POOL);
            self.parents.drain(..excess);
        }
    }
}

/// The last index of the block `index` is in.
pub(super) fn block_end(index: u32) -> u32 {
    index - index % BLOCK + BLOCK - 1
}

/// A 64-bit mix of `seed` and `salt` (SplitMix64's finaliser).
fn mix(seed: u64, salt: u64) -> u64 {
    let mut z = seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
