//! The values a gradient search makes its mutants from ([`Gradient::mutating`]).
//!
//! Most mutants come from one of the values found last: a value found late has had few
//! mutants made from it, so its neighbours are mostly values not found yet, where mutants
//! drawn uniformly from every value found mostly come from neighbourhoods already searched,
//! and find their values again (measured: with one parent in twenty drawn from all, twice the
//! new values per mutant on the sorted lists and the well-typed terms of the `cgs` example,
//! 1.7 times on search trees).
//!
//! The rest come from any value found, which a long search would have to keep, every one
//! with its choices (about 3 KB a lambda term of the `cgs` example: 1.9 GB after 1 200 000
//! samples and mutants).
//! Instead, the parents keep the values found last and, of the ones found before, an evenly
//! spaced selection of at most [`OLDER_PARENTS`]: a new one kept, at every fixed number of
//! values, that number doubling (and every other one kept dropped) when the selection is
//! full. Until that first happens, the parents are every value found, so a draw is exactly
//! the one made from all of them.
//!
//! [`Gradient::mutating`]: super::Gradient::mutating

use std::collections::VecDeque;

use crate::choice::ChoiceTree;
use crate::engine::source::random::below;
use crate::interpret::generate::DefaultRng;

/// How many of the values found last most mutants are made from.
const RECENT_PARENTS: usize = 128;

/// How many mutants in a hundred are made from the values found last.
const RECENT_PARENTS_PERCENT: u64 = 95;

/// How many of the values found before the last ones the parents keep, at most.
const OLDER_PARENTS: usize = 8_192;

/// The choices of the valid values a search makes its mutants from: see the module's docs.
#[derive(Debug)]
pub(super) struct Parents {
    /// The values found last, the newest at the back.
    recent: VecDeque<ChoiceTree>,
    /// An evenly spaced selection of the values found before them, in the order found.
    older: Vec<ChoiceTree>,
    /// How many values left `recent`.
    retired: u64,
    /// One in how many of the values that left `recent` `older` keeps.
    stride: u64,
}

impl Default for Parents {
    fn default() -> Self {
        Parents {
            recent: VecDeque::new(),
            older: Vec::new(),
            retired: 0,
            stride: 1,
        }
    }
}

impl Parents {
    /// Whether no value was found yet.
    pub(super) fn is_empty(&self) -> bool {
        self.recent.is_empty()
    }

    /// Takes the choices of the value found next.
    pub(super) fn add(&mut self, tree: ChoiceTree) {
        self.recent.push_back(tree);
        if self.recent.len() <= RECENT_PARENTS {
            return;
        }
        let retired = self.recent.pop_front().expect("more than the limit");
        if self.retired.is_multiple_of(self.stride) {
            self.older.push(retired);
        }
        self.retired += 1;
        if self.older.len() >= OLDER_PARENTS {
            let mut keep = false;
            self.older.retain(|_| {
                keep = !keep;
                keep
            });
            self.stride *= 2;
        }
    }

    /// The choices the next mutant is made from (there must be a value): most often one of
    /// the values found last, else any value kept.
    pub(super) fn draw(&self, rng: &mut DefaultRng) -> &ChoiceTree {
        let recent = self.recent.len() as u64;
        if below(rng, 100) < RECENT_PARENTS_PERCENT {
            return &self.recent[(recent - 1 - below(rng, recent)) as usize];
        }
        let older = self.older.len() as u64;
        let index = below(rng, older + recent);
        if index < older {
            &self.older[index as usize]
        } else {
            &self.recent[(index - older) as usize]
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;

    use super::*;
    use crate::choice::Choice;

    /// A tree of one integer choice, `n`.
    fn tree(n: u64) -> ChoiceTree {
        let choice = Choice::Int {
            value: i128::from(n),
            lo: 0,
            hi: i128::from(u64::MAX),
        };
        ChoiceTree::from_parts(0, vec![choice], []).expect("no span")
    }

    fn number(tree: &ChoiceTree) -> u64 {
        match tree.choices()[0] {
            Choice::Int { value, .. } => value as u64,
            Choice::Pick { .. } => unreachable!("the trees hold integers"),
        }
    }

    #[test]
    fn the_parents_are_every_value_found_until_the_older_ones_fill_their_selection() {
        let mut parents = Parents::default();
        let found = (RECENT_PARENTS + OLDER_PARENTS - 1) as u64;
        for n in 0..found {
            parents.add(tree(n));
        }
        let kept: Vec<u64> = parents
            .older
            .iter()
            .chain(&parents.recent)
            .map(number)
            .collect();
        assert_eq!(kept, (0..found).collect::<Vec<_>>());
    }

    #[test]
    fn a_long_search_keeps_a_bounded_evenly_spaced_selection_and_the_last_found() {
        let mut parents = Parents::default();
        let found = 100_000u64;
        for n in 0..found {
            parents.add(tree(n));
        }
        assert!(parents.older.len() < OLDER_PARENTS);
        let recent: Vec<u64> = parents.recent.iter().map(number).collect();
        let last = found - RECENT_PARENTS as u64;
        assert_eq!(recent, (last..found).collect::<Vec<_>>());
        let older: Vec<u64> = parents.older.iter().map(number).collect();
        let stride = parents.stride;
        assert!(stride > 1);
        assert_eq!(
            older,
            (0..last).step_by(stride as usize).collect::<Vec<_>>(),
            "every {stride}th value retired"
        );
        // Draws: nineteen in twenty among the last found, and now and then an older one.
        let mut rng = DefaultRng::seed_from_u64(5);
        let draws = 20_000;
        let recent_draws = (0..draws)
            .filter(|_| number(parents.draw(&mut rng)) >= last)
            .count();
        assert!(
            (18_700..19_300).contains(&recent_draws),
            "{recent_draws} of {draws} from the last found"
        );
    }
}
