//! Mutation cases: a share of a run's cases mutate earlier cases that were interesting, as
//! HypoFuzz does, instead of generating afresh.
//!
//! A case is *interesting* when the property ran on it (did not discard it) and it is the
//! first such case, or its choices reached a label no earlier case reached, or reached one a
//! number of times in a range no earlier case did (1, 2, 3, 4–7, 8–15, 16–31, 32–127, 128 or
//! more: AFL's buckets of hit counts, with labels for branches); it joins the run's pool.
//! Counted in buckets, a large value is not new just for being large, so the pool holds a few
//! cases, mostly small ones, each the first to reach somewhere. Each case after the first
//! block is a mutant with the probability the run's [`Mutation`] gives: one to four edits
//! ([`mutate`](crate::mutate)) of a pool case's choices, so it stays a value the generator
//! produces, near one that reached somewhere new. Where a property discards most cases (a
//! precondition few values meet), the pool holds the few it ran on, and their mutants meet the
//! precondition far more often than fresh cases do; the default mutates only there
//! ([`Mutation::WhenDiscarding`]).
//!
//! Everything stays reproducible from one line: a mutant's [`Replay`] names its parent case
//! (`seed:size`) and the seed of its edits (`0x5eed:12/0x3d1`), and which case is a mutant of
//! which is decided from the case's seed and the pool as it stood at the end of the previous
//! block of [`BLOCK`] cases: a parallel run, whose rounds stop at the blocks' ends, makes the
//! same mutants as the sequential run.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::choice::{Choice, ChoiceTree};
use crate::engine::Filtered;

use super::config::{Mutation, Replay};
use super::schedule;
use super::statistics::Statistics;

/// How many cases a block holds: the pool a case mutates from is the one at the end of the
/// block before its own.
pub(super) const BLOCK: u32 = 50;

/// How many of the first cases that held a run that does not mutate yet keeps, to offer the
/// pool if it starts to (each is generated again then).
const WAITING: usize = BLOCK as usize;

/// The most cases the pool keeps: past it, the cases that joined last take the place of those
/// that joined first, so that a long run keeps mutating what it reached lately.
const MAX_POOL: usize = 256;

/// The interesting cases of a run so far, and whether the run mutates them yet.
#[derive(Debug)]
pub(super) struct Pool {
    /// Which cases are mutants.
    mutation: Mutation,
    /// Whether the cases record their choices for the pool and may be mutants: from the start
    /// with a fixed percentage above 0; with [`Mutation::WhenDiscarding`], from the end of the
    /// first block at which the property had discarded half of the cases (and for good, so
    /// that the mutants, which meet the precondition more often, do not turn it off).
    on: bool,
    /// The cases mutants start from: those of the blocks before the current one.
    parents: Vec<Parent>,
    /// The interesting cases of the current block, joining the parents at its end.
    joining: Vec<Parent>,
    /// The run's first [`WAITING`] cases that held without recording their choices, while a
    /// run that mutates when its property discards does not yet: if it starts, they are
    /// offered then, so that the pool starts from the run's first cases (the smallest, at
    /// the schedule's first sizes), as it does with a fixed percentage.
    waiting: Vec<Replay>,
    /// A hash of each (label, bucket of its count) some case offered reached.
    seen: HashSet<u64>,
}

/// A case in the pool, with what its run recorded: its choices, and what its filters kept and
/// rejected. A mutant edits the choices kept here instead of generating its parent again from
/// the parent's seed, which gives the same choices (and filter counts) at the cost of a run.
#[derive(Debug)]
pub(super) struct Parent {
    /// The line that replays the case.
    pub(super) replay: Replay,
    /// Its choices.
    pub(super) tree: ChoiceTree,
    /// What its filters kept and rejected.
    pub(super) filtered: Filtered,
}

/// A case to run, as the pool decides it: its line, and for a mutant, the pool case it mutates.
#[derive(Clone, Copy, Debug)]
pub(super) struct Drawn<'p> {
    /// The line that replays the case.
    pub(super) replay: Replay,
    /// For a mutant, its parent (named by `replay` too).
    pub(super) parent: Option<&'p Parent>,
}

impl Pool {
    /// An empty pool for a run whose mutants `mutation` decides.
    pub(super) fn new(mutation: Mutation) -> Self {
        Pool {
            mutation,
            on: matches!(mutation, Mutation::Percent(percent) if percent > 0),
            parents: Vec::new(),
            joining: Vec::new(),
            waiting: Vec::new(),
            seen: HashSet::new(),
        }
    }

    /// Whether the cases record their choices, for [`Pool::offer`].
    pub(super) fn records(&self) -> bool {
        self.on
    }

    /// The percentage of cases that are mutants now.
    fn percent(&self) -> u8 {
        match self.mutation {
            _ if !self.on => 0,
            Mutation::Percent(percent) => percent,
            Mutation::WhenDiscarding => Mutation::WHEN_DISCARDING_PERCENT,
        }
    }

    /// The case first drawn as `fresh`: a mutant of a pool case if the case's seed says so
    /// (with the probability [`Pool::percent`] gives), else `fresh` itself.
    pub(super) fn case(&self, fresh: Replay) -> Drawn<'_> {
        let percent = self.percent();
        let fresh = Drawn {
            replay: fresh,
            parent: None,
        };
        if percent == 0 || self.parents.is_empty() {
            return fresh;
        }
        let roll = mix(fresh.replay.seed, 1);
        if roll % 100 >= u64::from(percent) {
            return fresh;
        }
        let parent =
            &self.parents[(mix(fresh.replay.seed, 2) % self.parents.len() as u64) as usize];
        Drawn {
            replay: Replay {
                mutation: Some(mix(fresh.replay.seed, 3)),
                ..parent.replay
            },
            parent: Some(parent),
        }
    }

    /// Takes in case `replay`, which held: offered if its choices were `recorded` (with what
    /// its filters did), else kept (if it is among the run's first [`WAITING`]) in case the
    /// run starts to mutate.
    pub(super) fn held(&mut self, replay: Replay, recorded: Option<(ChoiceTree, Filtered)>) {
        match recorded {
            Some((tree, filtered)) => self.offer(Parent {
                replay,
                tree,
                filtered,
            }),
            None if self.mutation == Mutation::WhenDiscarding
                && !self.on
                && self.waiting.len() < WAITING =>
            {
                self.waiting.push(replay);
            }
            None => {}
        }
    }

    /// Takes in `case`, which the property ran on: it joins the pool at the end of the block
    /// if it is the first case offered, or reached a label, or a bucket of a label's count,
    /// that no case offered before reached (mutants do not join: a replay names one parent).
    /// A generator without labels has one case in its pool, the first.
    fn offer(&mut self, case: Parent) {
        if case.replay.mutation.is_some() {
            return;
        }
        let mut labels: Vec<&str> = case
            .tree
            .choices()
            .iter()
            .filter_map(Choice::label)
            .map(|label| label.as_str())
            .collect();
        labels.sort_unstable();
        let mut new = self.parents.is_empty() && self.joining.is_empty();
        for run in labels.chunk_by(|a, b| a == b) {
            let mut hasher = DefaultHasher::new();
            (run[0], bucket(run.len())).hash(&mut hasher);
            new |= self.seen.insert(hasher.finish());
        }
        if new {
            self.joining.push(case);
        }
    }

    /// Ends the block if case `index` was its last. A run that mutates when its property
    /// discards starts to if `statistics` (the run's so far) show half of the cases
    /// discarded, and offers the waiting cases, with their choices (and what their filters
    /// did) from `recorded`. Then the cases that joined become parents.
    pub(super) fn after(
        &mut self,
        index: u32,
        statistics: &Statistics,
        recorded: impl Fn(Replay) -> (ChoiceTree, Filtered),
    ) {
        if !(index + 1).is_multiple_of(BLOCK) {
            return;
        }
        if self.mutation == Mutation::WhenDiscarding && !self.on {
            let discarded = statistics.discarded();
            self.on = discarded > 0 && discarded >= statistics.counted();
            if self.on {
                for replay in std::mem::take(&mut self.waiting) {
                    let (tree, filtered) = recorded(replay);
                    self.offer(Parent {
                        replay,
                        tree,
                        filtered,
                    });
                }
            }
        }
        self.parents.append(&mut self.joining);
        let excess = self.parents.len().saturating_sub(MAX_POOL);
        self.parents.drain(..excess);
    }
}

/// AFL's bucket of a hit count: 1, 2, 3, 4–7, 8–15, 16–31, 32–127, 128 or more.
fn bucket(count: usize) -> u8 {
    match count {
        0..=3 => count as u8,
        4..=7 => 4,
        8..=15 => 5,
        16..=31 => 6,
        32..=127 => 7,
        _ => 8,
    }
}

/// The last index of the block `index` is in.
pub(super) fn block_end(index: u32) -> u32 {
    index - index % BLOCK + BLOCK - 1
}

/// A 64-bit mix of `seed` and `salt` (SplitMix64's finaliser).
fn mix(seed: u64, salt: u64) -> u64 {
    schedule::mix(seed ^ salt.wrapping_mul(schedule::GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::outcome::Verdict;
    use crate::choice::Label;

    /// A case's choices: a labelled pick for each label.
    fn tree(labels: &[&'static str]) -> ChoiceTree {
        let choices = labels
            .iter()
            .map(|&label| Choice::Pick {
                index: 0,
                arity: 2,
                label: Some(Label::from(label)),
            })
            .collect();
        ChoiceTree::from_parts(0, choices, []).unwrap()
    }

    /// What joined the pool, by the seeds of the cases, once their block ended.
    fn joined(pool: &mut Pool, statistics: &Statistics) -> Vec<u64> {
        pool.after(BLOCK - 1, statistics, |_| unreachable!("nothing waits"));
        pool.parents
            .iter()
            .map(|parent| parent.replay.seed)
            .collect()
    }

    #[test]
    fn a_case_joins_for_a_new_label_or_a_new_bucket_of_a_count() {
        let mut pool = Pool::new(Mutation::Percent(50));
        let offers: [(u64, &[&str]); 7] = [
            (1, &[]),                   // the first case joins, labels or not
            (2, &["a"]),                // a new label
            (3, &["a"]),                // nothing new
            (4, &["a", "a"]),           // a's count in a new bucket (2)
            (5, &["a"; 5]),             // bucket 4–7
            (6, &["a"; 7]),             // the same bucket
            (7, &["a", "a", "a", "b"]), // bucket 3, and b
        ];
        for (seed, labels) in offers {
            pool.held(
                Replay::new(seed, 0),
                Some((tree(labels), Filtered::default())),
            );
        }
        assert_eq!(joined(&mut pool, &Statistics::default()), [1, 2, 4, 5, 7]);
    }

    #[test]
    fn buckets_are_afls() {
        let buckets: Vec<u8> = [1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 127, 128, 10_000]
            .map(bucket)
            .into();
        assert_eq!(buckets, [1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]);
    }

    /// By default the pool records nothing and makes no mutant until half of the cases are
    /// discarded; then the run's first cases that held join it, regenerated.
    #[test]
    fn the_default_starts_once_half_the_cases_are_discarded() {
        let mut pool = Pool::new(Mutation::WhenDiscarding);
        assert!(!pool.records());
        pool.held(Replay::new(1, 0), None);
        let mut statistics = Statistics::default();
        statistics.case(|| Verdict::Held);
        pool.after(BLOCK - 1, &statistics, |_| unreachable!("too few discards"));
        assert!(!pool.records() && pool.parents.is_empty());
        assert_eq!(pool.case(Replay::new(9, 0)).replay, Replay::new(9, 0));
        pool.held(Replay::new(2, 0), None);
        statistics.case(|| Verdict::Discarded("no".into()));
        pool.after(2 * BLOCK - 1, &statistics, |replay| {
            (
                tree(&[["x", "y"][replay.seed as usize - 1]]),
                Filtered::default(),
            )
        });
        assert!(pool.records());
        let parents: Vec<Replay> = pool.parents.iter().map(|parent| parent.replay).collect();
        assert_eq!(parents, [Replay::new(1, 0), Replay::new(2, 0)]);
        let mutants = (0..1000)
            .filter(|&seed| {
                let drawn = pool.case(Replay::new(seed, 3));
                let parent = drawn.parent.map(|parent| parent.replay);
                assert_eq!(
                    parent,
                    drawn.replay.mutation.map(|_| Replay {
                        mutation: None,
                        ..drawn.replay
                    })
                );
                parent.is_some()
            })
            .count();
        assert!(
            (200..300).contains(&mutants),
            "{mutants} mutants in 1000 cases"
        );
    }
}
