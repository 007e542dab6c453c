//! The splicing source: replays a prefix, then draws at random as [`prefix`](super::prefix)
//! does, but at a pick it may take a [fragment](super::fragments) of a value given before
//! instead: the choices of a span of that value that opened with the same branch of a pick
//! with as many branches and the same label (with unlabelled picks, any pick of as many
//! branches). The fragment's choices are read until it ends, or until one does not fit the
//! generator (the rest of the fragment is then dropped and the choice drawn at random); later
//! picks may take fragments again.
//!
//! A sample of a derivative drawn this way puts whole parts of valid values (a subtree of a
//! search tree, a closed subterm) where random generation would draw them choice by choice.
//! Where validity needs many choices to agree (the stored heights of an AVL tree), a part
//! that is valid already makes the rest's choices the only ones left to get right.

use rand_core::Rng;

use super::fragments::Fragments;
use super::random::{RandomSource, below};
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::Choice;

/// Replays `prefix`, then draws at random; with probability `percent` in 100 (drawn at the
/// first choice past the prefix, so that a sample that draws none reads no randomness), it
/// splices in [`Fragments`]: if the prefix's last choice is a pick, the first choice past it
/// goes on with a fragment that opens with that pick with probability 1/2 (if one is kept),
/// and each pick drawn outside a fragment takes a fragment that fits with probability 1/2
/// (if one is kept).
pub(crate) struct SplicingSource<'c, 'r, R: Rng + ?Sized> {
    prefix: &'c [Choice],
    position: usize,
    fragments: &'c Fragments,
    percent: u8,
    /// Whether this sample splices (decided at the first choice past the prefix).
    splices: bool,
    /// Whether it took a fragment.
    spliced: bool,
    /// The rest of the fragment being read.
    fragment: &'c [Choice],
    rng: &'r mut R,
}

impl<'c, 'r, R: Rng + ?Sized> SplicingSource<'c, 'r, R> {
    pub(crate) fn new(
        prefix: &'c [Choice],
        fragments: &'c Fragments,
        percent: u8,
        rng: &'r mut R,
    ) -> Self {
        SplicingSource {
            prefix,
            position: 0,
            fragments,
            percent,
            splices: false,
            spliced: false,
            fragment: &[],
            rng,
        }
    }

    /// Whether the run asked for a choice past the prefix.
    pub(crate) fn drew(&self) -> bool {
        self.position > self.prefix.len()
    }

    /// Whether the run took a fragment.
    pub(crate) fn spliced(&self) -> bool {
        self.spliced
    }

    /// The prefix's next choice, or `None` once it is all read; on reading past it the
    /// first time, whether the sample splices, and maybe a fragment that goes on from the
    /// prefix's last choice.
    fn recorded(&mut self) -> Option<&'c Choice> {
        if let Some(choice) = self.prefix.get(self.position) {
            self.position += 1;
            return Some(choice);
        }
        if self.position == self.prefix.len() {
            self.position += 1;
            self.splices =
                !self.fragments.is_empty() && below(self.rng, 100) < u64::from(self.percent);
            if self.splices
                && let Some(last) = self.prefix.last()
                && self.rng.next_u64().is_multiple_of(2)
                && let Some(fragment) = self.fragments.opening_with(last, self.rng)
            {
                self.fragment = &fragment[1..];
                self.spliced = true;
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
        let fits = |index: u32| {
            (index as usize) < site.branches.arity() && site.branches.weight(index as usize) > 0
        };
        match self.recorded() {
            Some(Choice::Pick { index, .. }) if fits(*index) => return Ok(*index),
            Some(_) => return Err(Halt::Misfit),
            None => {}
        }
        match self.next_of_fragment() {
            Some(Choice::Pick { index, .. }) if fits(*index) => return Ok(*index),
            Some(_) => self.fragment = &[],
            None => {
                if self.splices
                    && self.rng.next_u64().is_multiple_of(2)
                    && let Some(fragment) = self.fragments.draw(site, self.rng)
                    && let Some(Choice::Pick { index, .. }) = fragment.first()
                {
                    self.fragment = &fragment[1..];
                    self.spliced = true;
                    return Ok(*index);
                }
            }
        }
        RandomSource::new(self.rng).pick(site)
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        let fits = |value: &i128| (site.lo..=site.hi).contains(value);
        match self.recorded() {
            Some(Choice::Int { value, .. }) if fits(value) => return Ok(*value),
            Some(_) => return Err(Halt::Misfit),
            None => {}
        }
        match self.next_of_fragment() {
            Some(Choice::Int { value, .. }) if fits(value) => Ok(*value),
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
    use std::collections::HashSet;
    use std::convert::Infallible;

    use rand_core::SeedableRng;

    use super::*;
    use crate::choice::ChoiceTree;
    use crate::engine::Forward;
    use crate::node::Node;
    use crate::prelude::*;

    type Trees = Gen<Infallible, String>;

    /// Unordered trees of digits, `depth` levels deep at most, written with brackets: a node
    /// is `(left key right)`, a leaf nothing; a node's branch weighs `node_weight`.
    fn trees(depth: usize, leaf: &'static str, node: &'static str, node_weight: u32) -> Trees {
        let empty = exact(String::new()).no_ann().boxed();
        if depth == 0 {
            return empty;
        }
        let sub = || trees(depth - 1, leaf, node, node_weight);
        let inner = zip(range(0u8..=9).no_ann().boxed(), zip(sub(), sub()))
            .map(|(key, (l, r))| format!("({l}{key}{r})"));
        pick(((1, leaf, empty), (node_weight, node, inner.boxed()))).boxed()
    }

    /// The value and the choices of `g` run on `source`.
    fn run(g: &Trees, source: &mut dyn ChoiceSource) -> (String, ChoiceTree) {
        let mut forward = Forward::new(source, 30, true);
        let value = g.forward(&mut forward).expect("the trees always generate");
        (value, forward.into_tree())
    }

    /// A tree of `g` of the shape `(((k)k(k))k((k)k))`, its choices, and the fragments of
    /// them; its left subtree `((k)k(k))` is one.
    fn donor(g: &Trees, rng: &mut DefaultRng) -> (String, ChoiceTree, Fragments) {
        let shape = "(((7)7(7))7((7)7))";
        loop {
            let (value, tree) = run(g, &mut RandomSource::new(rng));
            if value.replace(|c: char| c.is_ascii_digit(), "7") == shape {
                let mut fragments = Fragments::default();
                fragments.add(&tree, rng);
                return (value, tree, fragments);
            }
        }
    }

    /// Every subtree of `tree` (written as [`trees`] writes them) with a node.
    fn subtrees(tree: &str) -> HashSet<&str> {
        let mut open = Vec::new();
        let mut found = HashSet::new();
        for (at, c) in tree.char_indices() {
            match c {
                '(' => open.push(at),
                ')' => {
                    found.insert(&tree[open.pop().expect("balanced")..=at]);
                }
                _ => {}
            }
        }
        found
    }

    #[test]
    fn samples_keep_the_prefix_and_take_whole_fragments_of_the_same_branch() {
        let g = trees(5, "leaf", "node", 1);
        let mut rng = DefaultRng::seed_from_u64(3);
        let (donor, donor_tree, fragments) = donor(&g, &mut rng);
        let left = &donor[1..10];
        let prefix = &donor_tree.choices()[..1];
        let (mut spliced, mut said_spliced, mut random) = (0, 0, 0);
        for _ in 0..400 {
            let mut source = SplicingSource::new(prefix, &fragments, 100, &mut rng);
            let (value, tree) = run(&g, &mut source);
            assert!(source.drew());
            assert_eq!(&tree.choices()[..1], prefix, "the prefix is replayed");
            spliced += usize::from(value.contains(left));
            said_spliced += usize::from(source.spliced());
            assert!(source.spliced() || !value.contains(left), "{value}");
            let (value, _) = run(&g, &mut RandomSource::new(&mut rng));
            random += usize::from(value.contains(left));
        }
        assert!(
            spliced > 100 && random < 20,
            "{spliced} spliced, {random} random"
        );
        assert!(
            said_spliced >= spliced,
            "{said_spliced} said spliced, {spliced} seen"
        );
        // Another label on the same branch: no fragment fits, so every sample is random.
        let other = trees(5, "leaf", "branch", 1);
        for _ in 0..400 {
            let mut source = SplicingSource::new(&[], &fragments, 100, &mut rng);
            run(&other, &mut source);
            assert!(!source.spliced(), "a fragment taken under another label");
        }
    }

    #[test]
    fn the_first_choice_past_a_prefix_that_ends_with_a_pick_goes_on_with_a_fragment() {
        // The prefix is the donor's first pick (a node): half of the samples go on with a
        // fragment that opens with it, which makes the whole value one of the donor's
        // subtrees.
        let g = trees(5, "leaf", "node", 1);
        let mut rng = DefaultRng::seed_from_u64(4);
        let (donor, donor_tree, fragments) = donor(&g, &mut rng);
        let parts = subtrees(&donor);
        let prefix = &donor_tree.choices()[..1];
        let whole = (0..400)
            .filter(|_| {
                let mut source = SplicingSource::new(prefix, &fragments, 100, &mut rng);
                parts.contains(run(&g, &mut source).0.as_str())
            })
            .count();
        assert!(
            (150..300).contains(&whole),
            "{whole} of 400 a donor's subtree"
        );
    }

    #[test]
    fn no_fragment_is_taken_for_a_branch_of_weight_zero_or_in_a_sample_that_does_not_splice() {
        let g = trees(5, "leaf", "node", 1);
        let mut rng = DefaultRng::seed_from_u64(5);
        let (_, _, fragments) = donor(&g, &mut rng);
        let leaves_only = trees(5, "leaf", "node", 0);
        for _ in 0..200 {
            let mut source = SplicingSource::new(&[], &fragments, 100, &mut rng);
            assert_eq!(run(&leaves_only, &mut source).0, "");
            let mut source = SplicingSource::new(&[], &fragments, 0, &mut rng);
            run(&g, &mut source);
            assert!(!source.spliced());
        }
        // A sample that draws nothing past its prefix reads no randomness.
        let prefix = &[Choice::Pick {
            index: 0,
            arity: 2,
            label: Some(crate::choice::Label::from("leaf")),
        }];
        let before = rng.clone();
        let mut source = SplicingSource::new(prefix, &fragments, 100, &mut rng);
        assert_eq!(run(&g, &mut source).0, "");
        assert!(!source.drew());
        assert_eq!(rng, before);
    }
}
