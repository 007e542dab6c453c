//! The splicing source: replays a prefix, then draws at random as [`prefix`](super::prefix)
//! does, but at a pick it may take a *fragment* of a value given before instead: the choices
//! of a span of that value that opened with the same branch of a pick with as many branches
//! (and the same label). The fragment's choices are read until it ends, or until one does not
//! fit the generator (the rest of the fragment is then dropped and the choice drawn at random);
//! then drawing goes on at random.
//!
//! A sample of a derivative drawn this way puts whole parts of valid values (a subtree of a
//! search tree, a closed subterm) where random generation would draw them choice by choice.
//! Where validity needs many choices to agree (the stored heights of an AVL tree), a part
//! that is valid already makes the rest's choices the only ones left to get right.

use std::collections::{HashMap, HashSet};

use rand_core::Rng;

use super::random::{RandomSource, below};
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::{Choice, ChoiceTree, Label, fingerprint};

/// The most fragments a [`Fragments`] keeps (a few megabytes of choices); past it, a new one
/// takes a random one's place among those that open with the same branch (and is dropped if
/// there are none).
const MAX_FRAGMENTS: usize = 8_192;

/// One fragment: its choices, the label of the branch it opens with, and its fingerprint.
#[derive(Debug)]
struct Fragment {
    label: Option<Label>,
    fingerprint: u64,
    choices: Box<[Choice]>,
}

/// The fragments that open with one branch of a pick.
type Bucket = Vec<Fragment>;

/// The fragments of values given (see the module's docs): the distinct choices of every span
/// of more than one choice that opens with a pick, by the branch it opens with.
#[derive(Debug, Default)]
pub(crate) struct Fragments {
    /// By the opening pick's arity, then its branch: the fragments, each with the label of
    /// the branch it opens with.
    by_branch: HashMap<u32, Vec<Bucket>>,
    /// The fingerprints of the fragments it keeps.
    kept_fingerprints: HashSet<u64>,
    /// How many fragments it keeps.
    kept: usize,
}

impl Fragments {
    /// Whether it keeps no fragment.
    pub(crate) fn is_empty(&self) -> bool {
        self.kept == 0
    }

    /// Keeps the fragments of `tree` it does not have; `rng` draws which ones a full store
    /// gives up.
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
            let fingerprint = fingerprint(&choices[range.clone()]);
            if range.len() < 2 || self.kept_fingerprints.contains(&fingerprint) {
                continue;
            }
            let buckets = self.by_branch.entry(arity).or_default();
            if buckets.len() <= index as usize {
                buckets.resize_with(index as usize + 1, Vec::new);
            }
            let bucket = &mut buckets[index as usize];
            let fragment = Fragment {
                label,
                fingerprint,
                choices: choices[range].into(),
            };
            if self.kept < MAX_FRAGMENTS {
                bucket.push(fragment);
                self.kept += 1;
            } else if !bucket.is_empty() {
                let at = below(rng, bucket.len() as u64) as usize;
                self.kept_fingerprints.remove(&bucket[at].fingerprint);
                bucket[at] = fragment;
            } else {
                continue;
            }
            self.kept_fingerprints.insert(fingerprint);
        }
    }

    /// A fragment drawn uniformly among those that open with a branch `site` can take: the
    /// same arity, a branch of non-zero weight, the same label.
    fn draw(&self, site: &PickSite<'_>, rng: &mut (impl Rng + ?Sized)) -> Option<&[Choice]> {
        let buckets = self.by_branch.get(&(site.branches.arity() as u32))?;
        let takes = |index: usize| site.branches.weight(index) > 0;
        let total: usize = (buckets.iter().enumerate())
            .filter(|&(index, _)| takes(index))
            .map(|(_, bucket)| bucket.len())
            .sum();
        if total == 0 {
            return None;
        }
        let mut at = below(rng, total as u64) as usize;
        for (index, bucket) in buckets
            .iter()
            .enumerate()
            .filter(|&(index, _)| takes(index))
        {
            if at < bucket.len() {
                let fragment = &bucket[at];
                return (site.branches.label(index) == fragment.label.as_ref())
                    .then_some(&fragment.choices[..]);
            }
            at -= bucket.len();
        }
        None
    }

    /// A fragment drawn uniformly among those that open with `choice`, a pick.
    fn continuing(&self, choice: &Choice, rng: &mut (impl Rng + ?Sized)) -> Option<&[Choice]> {
        let &Choice::Pick {
            index,
            arity,
            label,
        } = choice
        else {
            return None;
        };
        let bucket = self.by_branch.get(&arity)?.get(index as usize)?;
        if bucket.is_empty() {
            return None;
        }
        let fragment = &bucket[below(rng, bucket.len() as u64) as usize];
        (fragment.label == label).then_some(&fragment.choices[..])
    }
}

/// Replays `prefix`, then draws at random, splicing in [`Fragments`] (see the module's docs):
/// each pick drawn outside a fragment takes one with probability 1/2 where one fits, and the
/// first choice past the prefix goes on with one that opens with the prefix's last pick
/// with probability 1/2.
pub(crate) struct SplicingSource<'c, 'r, R: Rng + ?Sized> {
    prefix: &'c [Choice],
    position: usize,
    fragments: &'c Fragments,
    /// The rest of the fragment being read.
    fragment: &'c [Choice],
    rng: &'r mut R,
}

impl<'c, 'r, R: Rng + ?Sized> SplicingSource<'c, 'r, R> {
    pub(crate) fn new(prefix: &'c [Choice], fragments: &'c Fragments, rng: &'r mut R) -> Self {
        SplicingSource {
            prefix,
            position: 0,
            fragments,
            fragment: &[],
            rng,
        }
    }

    /// Whether the run asked for a choice past the prefix.
    pub(crate) fn drew(&self) -> bool {
        self.position > self.prefix.len()
    }

    /// The prefix's next choice, or `None` once it is all read; on reading past it the
    /// first time, maybe a fragment that goes on from its last pick.
    fn recorded(&mut self) -> Option<&'c Choice> {
        if let Some(choice) = self.prefix.get(self.position) {
            self.position += 1;
            return Some(choice);
        }
        if self.position == self.prefix.len() {
            self.position += 1;
            if let Some(last) = self.prefix.last()
                && self.rng.next_u64().is_multiple_of(2)
                && let Some(fragment) = self.fragments.continuing(last, self.rng)
            {
                self.fragment = &fragment[1..];
            }
        }
        None
    }

    /// The fragment's next choice, if one is being read.
    fn next_of_fragment(&mut self) -> Option<&'c Choice> {
        let (first, rest) = self.fragment.split_first()?;
        self.fragment = rest;
        Some(first)
    }
}

impl<R: Rng + ?Sized> ChoiceSource for SplicingSource<'_, '_, R> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        match self.recorded() {
            Some(Choice::Pick { index, .. })
                if (*index as usize) < site.branches.arity()
                    && site.branches.weight(*index as usize) > 0 =>
            {
                return Ok(*index);
            }
            Some(_) => return Err(Halt::Misfit),
            None => {}
        }
        match self.next_of_fragment() {
            Some(Choice::Pick { index, .. })
                if (*index as usize) < site.branches.arity()
                    && site.branches.weight(*index as usize) > 0 =>
            {
                return Ok(*index);
            }
            Some(_) => self.fragment = &[],
            None => {
                if self.rng.next_u64().is_multiple_of(2)
                    && let Some(fragment) = self.fragments.draw(site, self.rng)
                    && let Some(Choice::Pick { index, .. }) = fragment.first()
                {
                    self.fragment = &fragment[1..];
                    return Ok(*index);
                }
            }
        }
        RandomSource::new(self.rng).pick(site)
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        match self.recorded() {
            Some(Choice::Int { value, .. }) if (site.lo..=site.hi).contains(value) => {
                return Ok(*value);
            }
            Some(_) => return Err(Halt::Misfit),
            None => {}
        }
        match self.next_of_fragment() {
            Some(Choice::Int { value, .. }) if (site.lo..=site.hi).contains(value) => Ok(*value),
            Some(_) => {
                self.fragment = &[];
                RandomSource::new(self.rng).int(site)
            }
            None => RandomSource::new(self.rng).int(site),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;
    use std::convert::Infallible;

    use super::*;
    use crate::engine::Forward;
    use crate::node::Node;
    use crate::prelude::*;

    type Trees = Gen<Infallible, String>;

    /// Unordered trees of digits, `depth` levels deep at most, as nested vectors of the keys
    /// in order with the subtrees' shapes: a node is `[left.., key, right..]` in brackets.
    fn trees(depth: usize, leaf: &'static str, node: &'static str) -> Trees {
        let empty = exact(String::new()).no_ann().boxed();
        if depth == 0 {
            return empty;
        }
        let inner = zip(
            range(0u8..=9).no_ann().boxed(),
            zip(trees(depth - 1, leaf, node), trees(depth - 1, leaf, node)),
        )
        .map(|(key, (l, r))| format!("({l}{key}{r})"));
        pick(((1, leaf, empty), (1, node, inner.boxed()))).boxed()
    }

    /// The value and the choices of `g` run on `source`.
    fn run(g: &Trees, source: &mut dyn ChoiceSource) -> (String, ChoiceTree) {
        let mut forward = Forward::new(source, 30, true);
        let value = g.forward(&mut forward).expect("the trees always generate");
        (value, forward.into_tree())
    }

    #[test]
    fn samples_keep_the_prefix_and_take_whole_fragments_of_the_same_branch() {
        let g = trees(5, "leaf", "node");
        let mut rng = DefaultRng::seed_from_u64(3);
        // A donor of this shape: its subtrees of two nodes or more are fragments, among them
        // its left subtree, `((k)k(k))` with its own keys.
        let shape = "(((7)7(7))7((7)7))";
        let mut fragments = Fragments::default();
        let (donor, donor_tree) = loop {
            let (value, tree) = run(&g, &mut RandomSource::new(&mut rng));
            if value.replace(|c: char| c.is_ascii_digit(), "7") == shape {
                break (value, tree);
            }
        };
        let left = &donor[1..10];
        fragments.add(&donor_tree, &mut rng);
        assert!(!fragments.is_empty());
        let prefix = &donor_tree.choices()[..1];
        let (mut spliced, mut random) = (0, 0);
        for _ in 0..400 {
            let mut source = SplicingSource::new(prefix, &fragments, &mut rng);
            let (value, tree) = run(&g, &mut source);
            assert!(source.drew());
            assert_eq!(&tree.choices()[..1], prefix, "the prefix is replayed");
            spliced += usize::from(value.contains(left));
            let (value, _) = run(&g, &mut RandomSource::new(&mut rng));
            random += usize::from(value.contains(left));
        }
        assert!(
            spliced > 100 && random < 20,
            "{spliced} spliced, {random} random"
        );
        // Another label on the same branch: no fragment fits, so every sample is random.
        let other = trees(5, "leaf", "branch");
        let mut matched = 0;
        for _ in 0..400 {
            let mut source = SplicingSource::new(&[], &fragments, &mut rng);
            let (value, _) = run(&other, &mut source);
            matched += usize::from(value.contains(left));
        }
        assert!(
            matched < 20,
            "{matched} fragments taken under another label"
        );
    }
}
