//! Fragments: parts of values given, kept for the [splicing source](super::splice) to put
//! where a pick would draw their choices one by one.
//!
//! A fragment is the choices of a span that opens with a pick and holds more than that pick
//! (a subtree, a subterm, a variant with its fields). It is kept by the branch it opens with:
//! the pick's number of branches, the branch taken and that branch's label. Two fragments
//! are the same when they open with the same branch and replay alike (the same branches and
//! integers, by [`fingerprint`]); each is kept once.
//!
//! The store is bounded by the choices it holds, [`MAX_CHOICES`] (64 bytes each: 4 MB): a
//! fragment that does not fit takes the place of random ones that open with the same branch
//! (and is dropped if they are not enough). A fragment of more than a sixteenth of the store
//! is not kept.

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

/// The fragments of values given: see the [module](self).
#[derive(Debug, Default)]
pub(crate) struct Fragments {
    by_branch: HashMap<Branch, Vec<Fragment>>,
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
            while self.choices + range.len() > MAX_CHOICES && !bucket.is_empty() {
                let evicted = bucket.swap_remove(below(rng, bucket.len() as u64) as usize);
                self.choices -= evicted.choices.len();
                self.kept.remove(&(branch, evicted.fingerprint));
            }
            if self.choices + range.len() > MAX_CHOICES {
                continue;
            }
            self.choices += range.len();
            self.kept.insert((branch, fingerprint));
            bucket.push(Fragment {
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
        let fragments = self.by_branch.get(&(arity, index, label))?;
        if fragments.is_empty() {
            return None;
        }
        let at = below(rng, fragments.len() as u64) as usize;
        fragments.get(at).map(|fragment| &fragment.choices[..])
    }
}
