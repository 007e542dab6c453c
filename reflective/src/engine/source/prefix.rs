//! The prefix source: replays a prefix of choices, then draws at random. Run forward, a
//! generator on this source is the generator's derivative by the prefix ("Parsing
//! Randomness"), sampled.
//!
//! [Splicing](PrefixSource::splicing), past the prefix a pick may take a
//! [fragment](super::fragments) of a value given before instead of drawing: the choices of a
//! span of that value that opened with the same branch of a pick with as many branches and
//! the same label (with unlabelled picks, any pick of as many branches). The fragment's
//! choices are read until it ends, or until one does not fit the generator (the rest of the
//! fragment is then dropped and the choice drawn at random); later picks may take fragments
//! again. A sample drawn this way puts whole parts of valid values (a subtree of a search
//! tree, a closed subterm) where random generation would draw them choice by choice: where
//! validity needs many choices to agree (the stored heights of an AVL tree), a part that is
//! valid already makes the rest's choices the only ones left to get right.

use rand_core::Rng;

use super::fragments::Fragments;
use super::random::{RandomSource, below};
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::Choice;

/// Replays `prefix` (which must fit the generator: a choice that does not is a misfit), then
/// draws every later choice as random generation does, or splicing fragments in (see the
/// [module](self)).
pub(crate) struct PrefixSource<'c, 'r, R: Rng + ?Sized> {
    prefix: &'c [Choice],
    /// The choices read: the prefix's, then one more once a choice past it was asked for.
    position: usize,
    rng: &'r mut R,
    splicing: Option<Splicing<'c>>,
}

/// What a prefix source that splices keeps: see [`PrefixSource::splicing`].
struct Splicing<'c> {
    fragments: &'c Fragments,
    percent: u8,
    /// Whether this sample splices (decided at the first choice past the prefix).
    on: bool,
    /// Whether it took a fragment.
    took: bool,
    /// The rest of the fragment being read.
    fragment: &'c [Choice],
}

impl<'c, 'r, R: Rng + ?Sized> PrefixSource<'c, 'r, R> {
    pub(crate) fn new(prefix: &'c [Choice], rng: &'r mut R) -> Self {
        PrefixSource {
            prefix,
            position: 0,
            rng,
            splicing: None,
        }
    }

    /// The source splicing in `fragments`: with probability `percent` in 100 (drawn at the
    /// first choice past the prefix, so that a sample that draws none reads no randomness),
    /// if the prefix's last choice is a pick, the first choice past it goes on with a
    /// fragment that opens with that pick with probability 1/2 (if one is kept), and each
    /// pick drawn outside a fragment takes a fragment that fits with probability 1/2 (if one
    /// is kept).
    pub(crate) fn splicing(self, fragments: &'c Fragments, percent: u8) -> Self {
        PrefixSource {
            splicing: Some(Splicing {
                fragments,
                percent,
                on: false,
                took: false,
                fragment: &[],
            }),
            ..self
        }
    }

    /// Whether the run asked for a choice past the prefix, and so read the random source:
    /// if not, every run of the generator on this prefix is this one.
    pub(crate) fn drew(&self) -> bool {
        self.position > self.prefix.len()
    }

    /// Whether the run took a fragment.
    pub(crate) fn spliced(&self) -> bool {
        self.splicing.as_ref().is_some_and(|splicing| splicing.took)
    }

    /// The prefix's next choice, or `None` once it is all read (see
    /// [`PrefixSource::pass_prefix`]).
    fn recorded(&mut self) -> Option<&'c Choice> {
        if let Some(choice) = self.prefix.get(self.position) {
            self.position += 1;
            return Some(choice);
        }
        self.pass_prefix();
        None
    }

    /// Notes that a choice past the prefix is asked for; the first time, when splicing,
    /// draws whether the sample splices, and maybe a fragment that goes on from the prefix's
    /// last choice.
    fn pass_prefix(&mut self) {
        if self.position == self.prefix.len() {
            self.position += 1;
            if let Some(splicing) = &mut self.splicing {
                splicing.on = !splicing.fragments.is_empty()
                    && below(self.rng, 100) < u64::from(splicing.percent);
                if splicing.on
                    && let Some(last) = self.prefix.last()
                    && self.rng.next_u64().is_multiple_of(2)
                    && let Some(fragment) = splicing.fragments.opening_with(last, self.rng)
                {
                    splicing.fragment = &fragment[1..];
                    splicing.took = true;
                }
            }
        }
    }

    /// The next choice of the fragment being read, if one is.
    fn next_of_fragment(&mut self) -> Option<&'c Choice> {
        let splicing = self.splicing.as_mut()?;
        let (first, rest) = splicing.fragment.split_first()?;
        splicing.fragment = rest;
        Some(first)
    }

    /// Drops the rest of the fragment being read (a choice of it did not fit).
    fn drop_fragment(&mut self) {
        if let Some(splicing) = &mut self.splicing {
            splicing.fragment = &[];
        }
    }

    /// Whether the next choices are drawn at random, as many as asked for together: past the
    /// prefix (which is then noted), and no fragment being read.
    fn only_random(&mut self) -> bool {
        if self.position < self.prefix.len() {
            return false;
        }
        self.pass_prefix();
        (self.splicing.as_ref()).is_none_or(|splicing| splicing.fragment.is_empty())
    }
}

impl<R: Rng + ?Sized> ChoiceSource for PrefixSource<'_, '_, R> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        match self.recorded() {
            Some(Choice::Pick { index, .. }) if site.takes(*index) => return Ok(*index),
            Some(_) => return Err(Halt::Misfit),
            None => {}
        }
        match self.next_of_fragment() {
            Some(Choice::Pick { index, .. }) if site.takes(*index) => return Ok(*index),
            Some(_) => self.drop_fragment(),
            None => {
                if let Some(splicing) = &mut self.splicing
                    && splicing.on
                    && self.rng.next_u64().is_multiple_of(2)
                    && let Some(fragment) = splicing.fragments.draw(site, self.rng)
                    && let Some(Choice::Pick { index, .. }) = fragment.first()
                {
                    splicing.fragment = &fragment[1..];
                    splicing.took = true;
                    return Ok(*index);
                }
            }
        }
        RandomSource::new(self.rng).pick(site)
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        match self.recorded() {
            Some(Choice::Int { value, .. }) if site.holds(*value) => return Ok(*value),
            Some(_) => return Err(Halt::Misfit),
            None => {}
        }
        match self.next_of_fragment() {
            Some(Choice::Int { value, .. }) if site.holds(*value) => return Ok(*value),
            Some(_) => self.drop_fragment(),
            None => {}
        }
        RandomSource::new(self.rng).int(site)
    }

    fn narrow_ints(&mut self, site: &IntSite, out: &mut [u32]) -> Result<(), Halt> {
        if self.only_random() {
            return RandomSource::new(self.rng).narrow_ints(site, out);
        }
        for slot in out {
            *slot = self.int(site)?.wrapping_sub(site.lo) as u32;
        }
        Ok(())
    }

    fn ints(&mut self, site: &IntSite, out: &mut [i128]) -> Result<(), Halt> {
        if self.only_random() {
            return RandomSource::new(self.rng).ints(site, out);
        }
        for slot in out {
            *slot = self.int(site)?;
        }
        Ok(())
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
            let mut source = PrefixSource::new(prefix, &mut rng).splicing(&fragments, 100);
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
            let mut source = PrefixSource::new(&[], &mut rng).splicing(&fragments, 100);
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
                let mut source = PrefixSource::new(prefix, &mut rng).splicing(&fragments, 100);
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
            let mut source = PrefixSource::new(&[], &mut rng).splicing(&fragments, 100);
            assert_eq!(run(&leaves_only, &mut source).0, "");
            let mut source = PrefixSource::new(&[], &mut rng).splicing(&fragments, 0);
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
        let mut source = PrefixSource::new(prefix, &mut rng).splicing(&fragments, 100);
        assert_eq!(run(&g, &mut source).0, "");
        assert!(!source.drew());
        assert_eq!(rng, before);
    }
}
