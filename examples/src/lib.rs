//! Generators shared by the examples and benchmarks.
//!
//! - [`bst`]: the paper's binary search trees, with the reflective generator of its figure 1,
//!   a hand-written `rand` generator with the same distribution, and helpers to build, check
//!   and measure trees.
//! - [`stlc`]: the simply typed lambda calculus of the paper's section 4.3: a generator of
//!   well-typed terms that, run backward, recovers the types it chose by type inference.
//!
//! - [`avl`]: AVL trees (search-ordered and height-balanced), with a reflective generator
//!   that produces only valid ones and, backward, recognises exactly them.
//! - [`mutation`]: the workloads, naive mutators, distances and measurements of the `mutate`
//!   example, which compares the library's mutation with mutating by hand and filtering.
//!
//! - [`agata`]: the types and properties of the Agata thesis' experiments, which the `agata`
//!   example runs.
//! - [`smartcheck`]: the SmartCheck shrinking benchmarks of the paper's Table 1, with their
//!   generators, preconditions, properties and size measures.
//! - [`type_directed`]: the type-directed shrinker Table 1 compares against: QuickCheck's
//!   greedy loop over the derived `shrink_candidates`.
//! - [`cgs`]: the four benchmarks of "Parsing Randomness" (BST, SORTED, AVL, STLC): naive
//!   generators and the validity predicates Choice Gradient Sampling steers them toward.
//! - [`challenges`]: the public shrinking challenge (`jlink/shrinking-challenge`), with each
//!   challenge's generator, property, size measure and canonical minimum.
//! - [`debug_text`]: reads the benchmarks' values back from their `{:?}` text, so that a
//!   printed counterexample can be shrunk as a value that was never generated.
//! - [`etna`]: two workloads of the ETNA benchmark (red-black trees, the simply typed lambda
//!   calculus) with their planted bugs and properties, and the harness the `etna` example
//!   measures testing strategies with.
//!
//! The first two are written with the optics `#[derive(Reflective)]` gives their types, reaching
//! boxed fields with `Generator::focus_box`.

#![warn(missing_docs)]

pub mod agata;
pub mod avl;
pub mod cgs;
pub mod challenges;
pub mod debug_text;
pub mod etna;
pub mod mutation;
pub mod smartcheck;
pub mod stlc;
pub mod type_directed;

pub mod measure {
    //! Helpers the benchmarks share: medians of timings and readable large numbers.

    use std::time::Duration;

    /// The median of `times` (the upper one of the two middle values for an even count).
    ///
    /// # Panics
    ///
    /// If `times` is empty.
    pub fn median(times: &[Duration]) -> Duration {
        let mut sorted = times.to_vec();
        sorted.sort();
        sorted[sorted.len() / 2]
    }

    /// `1234567.8` as `1 234 568`.
    ///
    /// ```
    /// assert_eq!(reflective_examples::measure::thousands(1_234_567.8), "1 234 568");
    /// ```
    pub fn thousands(x: f64) -> String {
        let digits = format!("{x:.0}");
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(' ');
            }
            out.push(c);
        }
        out
    }
}

pub mod bst {
    //! Binary search trees, the running example of *Reflecting on Random Generation*
    //! (section 1, figure 1).
    //!
    //! [`bst`] is the paper's reflective generator. [`bst_by_hand`] is the same generator
    //! written directly over `rand`, with the same distribution: the benchmark compares the two,
    //! and the tests check that their distributions agree.

    use std::fmt;

    use rand::{Rng, RngExt};
    use reflective::combinator::Either;
    use reflective::prelude::*;

    /// A binary tree with `i64` keys: the paper's `Tree`.
    ///
    /// Dropping a tree recurses once per level, like any `Box`ed tree; use [`drop_deep`] for a
    /// tree whose depth could exhaust the stack.
    ///
    /// `#[derive(Reflective)]` gives it a generator of its own (unused here: [`bst`] keeps
    /// the invariant, the derived one does not) and optics: the prisms `Tree::as_leaf` and
    /// `Tree::as_node` (with `Tree::from_leaf` and `Tree::from_node` to build), and the lenses
    /// through the prism on `Node` that [`bst`] is written with, `Tree::node_0` (left),
    /// `Tree::node_1` (key) and `Tree::node_2` (right).
    #[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
    pub enum Tree {
        /// The empty tree.
        Leaf,
        /// A node: left subtree, key, right subtree.
        Node(Box<Tree>, i64, Box<Tree>),
    }

    /// The node with `left`, `key` and `right`: `node(Tree::Leaf, 5, Tree::Leaf)`.
    pub fn node(left: Tree, key: i64, right: Tree) -> Tree {
        Tree::Node(Box::new(left), key, Box::new(right))
    }

    impl Tree {
        /// The number of nodes (keys); a leaf has none.
        pub fn size(&self) -> usize {
            let mut count = 0;
            let mut pending = vec![self];
            while let Some(tree) = pending.pop() {
                if let Tree::Node(left, _, right) = tree {
                    count += 1;
                    pending.push(left);
                    pending.push(right);
                }
            }
            count
        }

        /// The keys, in order (left subtree, key, right subtree).
        pub fn keys(&self) -> Vec<i64> {
            let mut keys = Vec::new();
            let mut pending: Vec<&Tree> = Vec::new();
            let mut at = self;
            loop {
                while let Tree::Node(left, _, _) = at {
                    pending.push(at);
                    at = left;
                }
                match pending.pop() {
                    Some(Tree::Node(_, key, right)) => {
                        keys.push(*key);
                        at = right;
                    }
                    _ => return keys,
                }
            }
        }

        /// Whether the tree is a binary search tree: its keys, read in order, strictly
        /// increase. Checked directly, without any generator.
        pub fn is_bst(&self) -> bool {
            self.keys().windows(2).all(|pair| pair[0] < pair[1])
        }

        /// The number of nodes on the longest path from the root to a leaf.
        pub fn depth(&self) -> usize {
            let mut deepest = 0;
            let mut pending = vec![(self, 0)];
            while let Some((tree, above)) = pending.pop() {
                match tree {
                    Tree::Leaf => deepest = deepest.max(above),
                    Tree::Node(left, _, right) => {
                        pending.push((left, above + 1));
                        pending.push((right, above + 1));
                    }
                }
            }
            deepest
        }
    }

    impl fmt::Display for Tree {
        /// `.` for a leaf, `(left key right)` for a node: `(. 5 (. 7 .))`.
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                Tree::Leaf => f.write_str("."),
                Tree::Node(left, key, right) => write!(f, "({left} {key} {right})"),
            }
        }
    }

    /// The paper's reflective generator of binary search trees with keys in `lo..=hi`.
    ///
    /// An empty range gives a leaf. Otherwise: a leaf with weight 1 (label `"leaf"`), or with
    /// weight 5 (label `"node"`) a key `x` uniform in `lo..=hi`, then independently a left
    /// subtree with keys in `lo..=x - 1` and a right subtree with keys in `x + 1..=hi`. Every
    /// tree it generates is a binary search tree, and backward it recognises exactly those.
    ///
    /// # Panics
    ///
    /// If the range is not empty and touches `i64::MIN` or `i64::MAX` (the subranges
    /// `lo..=x - 1` and `x + 1..=hi` must not overflow).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use reflective_examples::bst::{bst, node, Tree};
    /// let g = bst(1, 10);
    /// assert!(g.can_generate(&node(Tree::Leaf, 3, Tree::Leaf)));
    /// assert!(!g.can_generate(&node(Tree::Leaf, 11, Tree::Leaf)));
    /// ```
    pub fn bst(lo: i64, hi: i64) -> Gen<Tree, Tree> {
        assert_no_overflow(lo, hi);
        PAPER_BST.with(|bst| bst.at((lo, hi)).boxed())
    }

    thread_local! {
        /// The family of [`paper_bst`] generators, built once per thread.
        static PAPER_BST: Family<(i64, i64), Tree, Tree> = family(paper_bst);
    }

    /// Figure 1 of the paper, with the annotations of its reflective version, written with the
    /// optics `#[derive(Reflective)]` gives [`Tree`]: the member of the family `bst` at
    /// `(lo, hi)`.
    ///
    /// The paper's `bst lo hi` is a recursive function returning a generator; as a [`family`]
    /// its recursive calls `bst.at(..)` build their generators on the stack as they run,
    /// instead of allocating one per call. `Tree::node_1` focuses on a node's key (the paper's
    /// `_Node._2`: Haskell counts from 1), `Tree::node_0` and `Tree::node_2` on its subtrees.
    /// Those two lenses reach a `Box<Tree>`; `focus_box` looks inside the box. A leaf is
    /// `exact(Tree::Leaf)`, which accepts only a leaf, as the prism
    /// `pure(Tree::Leaf).focus(Tree::as_leaf)` does, in one node instead of two. The empty
    /// range's leaf and the pick are two generators of different types, chosen by an `if`:
    /// [`Either`] holds one or the other.
    fn paper_bst(
        bst: &Family<(i64, i64), Tree, Tree>,
        (lo, hi): (i64, i64),
    ) -> impl Generator<Input = Tree, Output = Tree> + use<> {
        if lo > hi {
            return Either::Left(exact(Tree::Leaf));
        }
        let bst = bst.clone();
        Either::Right(pick((
            (1, "leaf", exact(Tree::Leaf)),
            (
                5,
                "node",
                range(lo..=hi).focus(Tree::node_1).bind(move |x| {
                    zip(
                        bst.at((lo, x - 1)).focus_box(Tree::node_0),
                        bst.at((x + 1, hi)).focus_box(Tree::node_2),
                    )
                    .map(move |(l, r)| Tree::from_node(Box::new(l), x, Box::new(r)))
                }),
            ),
        )))
    }

    /// A binary search tree with keys in `lo..=hi`, generated directly with `rand`: the
    /// baseline the reflective [`bst`] is measured against.
    ///
    /// Its distribution is [`bst`]'s: a leaf when the range is empty; otherwise a leaf with
    /// probability 1/6, else a key uniform in `lo..=hi` and then the left and right subtrees.
    /// (`rand`'s single-sample `random_range` may be biased for at most one sample in 2^64,
    /// which no test can see.)
    ///
    /// # Panics
    ///
    /// As [`bst`].
    pub fn bst_by_hand<R: Rng + ?Sized>(rng: &mut R, lo: i64, hi: i64) -> Tree {
        assert_no_overflow(lo, hi);
        by_hand(rng, lo, hi)
    }

    fn by_hand<R: Rng + ?Sized>(rng: &mut R, lo: i64, hi: i64) -> Tree {
        if lo > hi || rng.random_range(0..6u64) == 0 {
            return Tree::Leaf;
        }
        let x = rng.random_range(lo..=hi);
        let l = by_hand(rng, lo, x - 1);
        let r = by_hand(rng, x + 1, hi);
        Tree::Node(Box::new(l), x, Box::new(r))
    }

    #[track_caller]
    fn assert_no_overflow(lo: i64, hi: i64) {
        assert!(
            lo > hi || (lo > i64::MIN && hi < i64::MAX),
            "bst: keys must stay strictly between i64::MIN and i64::MAX, got {lo}..={hi}"
        );
    }

    /// The mean number of nodes of a tree from `bst(lo, hi)` (or [`bst_by_hand`]), computed
    /// exactly from the generator's definition.
    ///
    /// With `n` keys available, `E(0) = 0` and `E(n) = 5/6 * (1 + 2/n * (E(0) + ... + E(n-1)))`.
    pub fn expected_size(lo: i64, hi: i64) -> f64 {
        let keys = if lo > hi { 0 } else { (hi - lo) as usize + 1 };
        let (mut mean, mut below) = (0.0, 0.0);
        for n in 1..=keys {
            below += mean;
            mean = 5.0 / 6.0 * (1.0 + 2.0 / n as f64 * below);
        }
        mean
    }

    /// The balanced binary search tree of the keys `lo..=hi` (a leaf if the range is empty).
    pub fn balanced(lo: i64, hi: i64) -> Tree {
        if lo > hi {
            return Tree::Leaf;
        }
        let mid = lo + (hi - lo) / 2;
        node(balanced(lo, mid - 1), mid, balanced(mid + 1, hi))
    }

    /// The degenerate binary search tree of the keys `lo..=hi`: each node's left subtree is a
    /// leaf, so the tree is as deep as it has keys. Built without recursion.
    pub fn right_spine(lo: i64, hi: i64) -> Tree {
        let mut tree = Tree::Leaf;
        if lo <= hi {
            for key in (lo..=hi).rev() {
                tree = node(Tree::Leaf, key, tree);
            }
        }
        tree
    }

    /// Drops a tree without recursing, so a very deep tree cannot overflow the stack.
    pub fn drop_deep(tree: Tree) {
        let mut pending = vec![tree];
        while let Some(tree) = pending.pop() {
            if let Tree::Node(left, _, right) = tree {
                pending.push(*left);
                pending.push(*right);
            }
        }
    }

    /// Every binary search tree whose keys come from `lo..=hi` (each key at most once), leaf
    /// included: the trees `bst(lo, hi)` can generate. There are many; keep the range tiny.
    pub fn all_bsts(lo: i64, hi: i64) -> Vec<Tree> {
        let mut trees = vec![Tree::Leaf];
        for x in lo..=hi {
            for l in all_bsts(lo, x - 1) {
                for r in all_bsts(x + 1, hi) {
                    trees.push(node(l.clone(), x, r));
                }
            }
        }
        trees
    }
}

#[cfg(test)]
mod tests {
    use super::bst::*;
    use reflective::prelude::*;

    /// Mean size of `count` trees from `sample`, each seeded from a fixed seed.
    fn mean_size(count: usize, mut sample: impl FnMut(&mut DefaultRng) -> Tree) -> f64 {
        let mut rng = DefaultRng::seed_from_u64(20_240_601);
        let total: usize = (0..count).map(|_| sample(&mut rng).size()).sum();
        total as f64 / count as f64
    }

    #[test]
    fn both_generators_have_the_expected_mean_size() {
        // bst(0, 100): mean 28.95 and standard deviation 22.3, so the standard error of a
        // mean of 20 000 trees is 0.16; the tolerance of 2.0 is over 12 of them. The seeds are
        // fixed, so the test is deterministic anyway.
        let expected = expected_size(0, 100);
        assert!((expected - 28.945).abs() < 0.01, "{expected}");
        let g = bst(0, 100);
        let reflective = mean_size(20_000, |rng| g.generate_value(rng, DEFAULT_SIZE));
        let by_hand = mean_size(20_000, |rng| bst_by_hand(rng, 0, 100));
        assert!(
            (reflective - expected).abs() < 2.0,
            "reflective {reflective}"
        );
        assert!((by_hand - expected).abs() < 2.0, "by hand {by_hand}");
    }

    #[test]
    fn every_reflective_tree_is_a_valid_bst_in_range() {
        let g = bst(0, 100);
        let mut rng = DefaultRng::seed_from_u64(7);
        for _ in 0..2_000 {
            let generated = g.generate(&mut rng, DEFAULT_SIZE);
            let tree = generated.value;
            assert!(tree.is_bst(), "{tree}");
            assert!(tree.keys().iter().all(|k| (0..=100).contains(k)), "{tree}");
            assert!(g.can_generate(&tree), "{tree}");
            assert_eq!(g.replay(&generated.tree).as_ref(), Some(&tree));
        }
    }

    #[test]
    fn the_hand_written_generator_matches_probability_of_on_every_small_tree() {
        // All 15 trees over keys 1..=3: the empirical frequencies of the
        // hand-written generator against the exact probabilities of the reflective one. With
        // 60 000 draws the standard error of each frequency is below 0.002.
        let g = bst(1, 3);
        let trees = all_bsts(1, 3);
        let total: f64 = trees.iter().map(|t| g.probability_of(t)).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        let draws = 60_000;
        let mut rng = DefaultRng::seed_from_u64(11);
        let mut counts = vec![0usize; trees.len()];
        for _ in 0..draws {
            let tree = bst_by_hand(&mut rng, 1, 3);
            let index = trees
                .iter()
                .position(|t| *t == tree)
                .expect("a bst over 1..=3");
            counts[index] += 1;
        }
        for (tree, count) in trees.iter().zip(counts) {
            let frequency = count as f64 / draws as f64;
            let probability = g.probability_of(tree);
            assert!(
                (frequency - probability).abs() < 0.01,
                "{tree}: frequency {frequency}, probability {probability}"
            );
        }
    }

    #[test]
    fn helpers() {
        let t = balanced(1, 7);
        assert_eq!(t.keys(), (1..=7).collect::<Vec<_>>());
        assert_eq!((t.size(), t.depth()), (7, 3));
        assert!(t.is_bst());
        let spine = right_spine(1, 5);
        assert_eq!((spine.size(), spine.depth()), (5, 5));
        assert!(!node(Tree::Leaf, 5, node(Tree::Leaf, 3, Tree::Leaf)).is_bst());
        assert_eq!(t.to_string(), "(((. 1 .) 2 (. 3 .)) 4 ((. 5 .) 6 (. 7 .)))");
        drop_deep(right_spine(0, 1_000_000));
    }
}
