//! Fragments: parts of values given, kept for a [splicing](super::prefix) source to put
//! where a pick would draw their choices one by one.
//!
//! A fragment is the choices of a span that opens with a pick and holds more than that pick
//! (a subtree, a subterm, a variant with its fields). It is kept by the branch it opens with:
//! the pick's number of branches, the branch taken and that branch's label. Two fragments
//! are the same when they open with the same branch and replay alike (the same branches and
//! integers, by [`fingerprint`]); each is kept once.
//!
//! The store is bounded by the choices it holds, [`MAX_CHOICES`] (64 bytes each: 4 MB, and
//! a little more for the fragments' own records): a fragment that does not fit takes the
//! place of random ones that open with the same branch, if together with the room left they
//! hold as many choices, and is dropped otherwise (the others are kept). A fragment of more
//! than a sixteenth of the store is not kept.

use std::collections::{HashMap, HashSet};

use rand_core::Rng;

use super::PickSite;
use super::random::below;
use crate::choice::{Choice, ChoiceTree, Label, fingerprint};

/// The most choices the fragments hold together.
const MAX_CHOICES: usize = 1 << 16;

/// The branch a fragment opens with: the pick's arity, the branch's index and its label.
type Branch = (u32, u32, Option<Label>);

/// One fragment and its fingerprint.
#[derive(Debug)]
struct Fragment {
    fingerprint: u64,
    choices: Box<[Choice]>,
}

/// The fragments that open with one branch, and their choices together.
#[derive(Debug, Default)]
struct Bucket {
    fragments: Vec<Fragment>,
    choices: usize,
}

/// The fragments of values given: see the [module](self).
#[derive(Debug, Default)]
pub(crate) struct Fragments {
    by_branch: HashMap<Branch, Bucket>,
    /// The branch and fingerprint of every fragment kept.
    kept: HashSet<(Branch, u64)>,
    /// The choices of the fragments kept, together.
    choices: usize,
}

impl Fragments {
    /// Whether it keeps no fragment.
    pub(crate) fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// Keeps the fragments of `tree` it does not have; `rng` draws the ones a full store
    /// gives up for them.
    pub(crate) fn add(&mut self, tree: &ChoiceTree, rng: &mut (impl Rng + ?Sized)) {
        let choices = tree.choices();
        for span in tree.spans() {
            let range = span.range();
            let Some(&Choice::Pick {
                index,
                arity,
                label,
            }) = choices.get(range.start)
            else {
                continue;
            };
            if range.len() < 2 || range.len() > MAX_CHOICES / 16 {
                continue;
            }
            let branch = (arity, index, label);
            let fingerprint = fingerprint(&choices[range.clone()]);
            if self.kept.contains(&(branch, fingerprint)) {
                continue;
            }
            let bucket = self.by_branch.entry(branch).or_default();
            let room = MAX_CHOICES - self.choices;
            if room + bucket.choices < range.len() {
                continue;
            }
            while self.choices + range.len() > MAX_CHOICES {
                let at = below(rng, bucket.fragments.len() as u64) as usize;
                let evicted = bucket.fragments.swap_remove(at);
                bucket.choices -= evicted.choices.len();
                self.choices -= evicted.choices.len();
                self.kept.remove(&(branch, evicted.fingerprint));
            }
            self.choices += range.len();
            bucket.choices += range.len();
            self.kept.insert((branch, fingerprint));
            bucket.fragments.push(Fragment {
                fingerprint,
                choices: choices[range].into(),
            });
        }
    }

    /// A fragment drawn uniformly among those that open with a branch `site` can take: one
    /// of non-zero weight, with its label.
    pub(crate) fn draw(
        &self,
        site: &PickSite<'_>,
        rng: &mut (impl Rng + ?Sized),
    ) -> Option<&[Choice]> {
        let arity = site.branches.arity();
        let bucket = |index: usize| {
            let label = site.branches.label(index).copied();
            (site.branches.weight(index) > 0)
                .then(|| self.by_branch.get(&(arity as u32, index as u32, label)))
                .flatten()
                .map(|bucket| &bucket.fragments)
        };
        let total: usize = (0..arity).filter_map(bucket).map(Vec::len).sum();
        if total == 0 {
            return None;
        }
        let mut at = below(rng, total as u64) as usize;
        for fragments in (0..arity).filter_map(bucket) {
            if let Some(fragment) = fragments.get(at) {
                return Some(&fragment.choices);
            }
            at -= fragments.len();
        }
        None
    }

    /// A fragment drawn uniformly among those that open with `choice`, if it is a pick.
    pub(crate) fn opening_with(
        &self,
        choice: &Choice,
        rng: &mut (impl Rng + ?Sized),
    ) -> Option<&[Choice]> {
        let &Choice::Pick {
            index,
            arity,
            label,
        } = choice
        else {
            return None;
        };
        let fragments = &self.by_branch.get(&(arity, index, label))?.fragments;
        if fragments.is_empty() {
            return None;
        }
        let at = below(rng, fragments.len() as u64) as usize;
        fragments.get(at).map(|fragment| &fragment.choices[..])
    }
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;

    use super::*;
    use crate::prelude::DefaultRng;

    /// A value of one span: a pick of `arity` branches taking branch 0, labelled `label`,
    /// then `ints` integers from `first` on.
    fn fragment(label: &'static str, arity: u32, first: i128, ints: usize) -> ChoiceTree {
        let label = Some(Label::from(label));
        let mut choices = vec![Choice::Pick {
            index: 0,
            arity,
            label,
        }];
        choices.extend((0..ints as i128).map(|i| Choice::Int {
            value: first + i,
            lo: 0,
            hi: 1 << 40,
        }));
        let len = choices.len();
        ChoiceTree::from_parts(0, choices, [(0..len, label)]).expect("one span")
    }

    /// How many fragments open with branch 0 of a pick of `arity` labelled `label`.
    fn count(fragments: &Fragments, label: &'static str, arity: u32) -> usize {
        let branch = (arity, 0, Some(Label::from(label)));
        fragments
            .by_branch
            .get(&branch)
            .map_or(0, |b| b.fragments.len())
    }

    #[test]
    fn the_same_choices_under_another_label_are_another_fragment() {
        let mut rng = DefaultRng::seed_from_u64(1);
        let mut fragments = Fragments::default();
        fragments.add(&fragment("node", 2, 5, 3), &mut rng);
        fragments.add(&fragment("node", 2, 5, 3), &mut rng);
        fragments.add(&fragment("branch", 2, 5, 3), &mut rng);
        assert_eq!(count(&fragments, "node", 2), 1, "a fragment is kept once");
        assert_eq!(count(&fragments, "branch", 2), 1);
        let pick = |label| Choice::Pick {
            index: 0,
            arity: 2,
            label: Some(Label::from(label)),
        };
        assert!(fragments.opening_with(&pick("branch"), &mut rng).is_some());
        assert!(fragments.opening_with(&pick("leaf"), &mut rng).is_none());
    }

    #[test]
    fn a_full_store_makes_room_in_the_new_fragments_branch_or_keeps_what_it_has() {
        let mut rng = DefaultRng::seed_from_u64(2);
        let mut fragments = Fragments::default();
        fragments.add(&fragment("small", 2, 0, 3), &mut rng);
        // Fill the store with fragments of 99 integers (100 choices each).
        let mut first = 0;
        while fragments.choices + 100 <= MAX_CHOICES {
            fragments.add(&fragment("large", 3, first, 99), &mut rng);
            first += 1_000;
        }
        let large = count(&fragments, "large", 3);
        // A larger fragment of the small branch: its branch (4 choices) and the room left hold
        // too little, so it is dropped and the small branch keeps its fragment.
        let too_long = MAX_CHOICES - fragments.choices + 4 + 1;
        fragments.add(&fragment("small", 2, 7, too_long - 1), &mut rng);
        assert_eq!(count(&fragments, "small", 2), 1);
        assert_eq!(count(&fragments, "large", 3), large);
        // A new large one takes a large one's place.
        fragments.add(&fragment("large", 3, 1, 99), &mut rng);
        assert_eq!(count(&fragments, "large", 3), large);
        assert!(fragments.choices <= MAX_CHOICES);
        let held: usize = (fragments.by_branch.values())
            .flat_map(|bucket| &bucket.fragments)
            .map(|fragment| fragment.choices.len())
            .sum();
        assert_eq!(held, fragments.choices);
        assert_eq!(fragments.kept.len(), large + 1);
    }
}
