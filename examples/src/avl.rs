//! AVL trees: binary search trees that are also height-balanced, with a reflective generator
//! that produces only valid ones.
//!
//! An [`Avl`] is valid ([`Avl::is_avl`]) when its keys, read in order, strictly increase and
//! at every node the heights of the two subtrees differ by at most one. [`avl`] generates
//! such trees by construction, top down: a height `h`, then a tree of exactly that height,
//! whose root's subtrees have the heights `(h-1, h-1)`, `(h-1, h-2)` or `(h-2, h-1)`, and
//! whose root key leaves enough keys on each side for subtrees of those heights. Every part
//! is reached backward with `focus` (or `comap` for the height, which is computed, not
//! borrowed), so the generator also recognises exactly the valid trees: `avl(..).can_generate`
//! is a validity check written by nobody.
//!
//! ```
//! use reflective::prelude::*;
//! use reflective_examples::avl::{Avl, avl, node};
//! let g = avl(0, 100, 6);
//! let tree = g.sample(3);
//! assert!(tree.is_avl() && g.can_generate(&tree));
//! // Search-ordered and balanced.
//! let valid = node(node(Avl::Leaf, 1, Avl::Leaf), 2, Avl::Leaf);
//! assert!(g.can_generate(&valid));
//! // Search-ordered, not balanced: the root's subtrees have heights 2 and 0.
//! let lopsided = node(node(node(Avl::Leaf, 1, Avl::Leaf), 2, Avl::Leaf), 3, Avl::Leaf);
//! assert!(lopsided.is_bst() && !lopsided.is_avl());
//! assert!(!g.can_generate(&lopsided));
//! ```

use std::fmt;

use reflective::combinator::Either;
use reflective::prelude::*;

/// A binary tree with `i64` keys, valid as an AVL tree when [`Avl::is_avl`] holds. Heights are
/// not stored: a leaf has height 0 and a node one more than its taller subtree.
///
/// `#[derive(Reflective)]` gives it the optics [`avl`] is written with: `Avl::node_0` (left),
/// `Avl::node_1` (key), `Avl::node_2` (right), and `Avl::from_node` to build a node.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub enum Avl {
    /// The empty tree.
    Leaf,
    /// A node: left subtree, key, right subtree.
    Node(Box<Avl>, i64, Box<Avl>),
}

/// The node with `left`, `key` and `right`.
pub fn node(left: Avl, key: i64, right: Avl) -> Avl {
    Avl::Node(Box::new(left), key, Box::new(right))
}

impl Avl {
    /// The height: 0 for a leaf, one more than the taller subtree for a node.
    pub fn height(&self) -> usize {
        match self {
            Avl::Leaf => 0,
            Avl::Node(left, _, right) => 1 + left.height().max(right.height()),
        }
    }

    /// The heights of a node's left and right subtrees; `None` for a leaf.
    pub fn child_heights(&self) -> Option<(usize, usize)> {
        match self {
            Avl::Leaf => None,
            Avl::Node(left, _, right) => Some((left.height(), right.height())),
        }
    }

    /// The number of nodes (keys).
    pub fn size(&self) -> usize {
        match self {
            Avl::Leaf => 0,
            Avl::Node(left, _, right) => 1 + left.size() + right.size(),
        }
    }

    /// The keys, in order (left subtree, key, right subtree).
    pub fn keys(&self) -> Vec<i64> {
        fn walk(tree: &Avl, out: &mut Vec<i64>) {
            if let Avl::Node(left, key, right) = tree {
                walk(left, out);
                out.push(*key);
                walk(right, out);
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// Whether the keys, read in order, strictly increase.
    pub fn is_bst(&self) -> bool {
        self.keys().windows(2).all(|pair| pair[0] < pair[1])
    }

    /// Whether at every node the heights of the two subtrees differ by at most one.
    pub fn is_balanced(&self) -> bool {
        /// The height if balanced.
        fn balanced_height(tree: &Avl) -> Option<usize> {
            match tree {
                Avl::Leaf => Some(0),
                Avl::Node(left, _, right) => {
                    let (l, r) = (balanced_height(left)?, balanced_height(right)?);
                    (l.abs_diff(r) <= 1).then_some(1 + l.max(r))
                }
            }
        }
        balanced_height(self).is_some()
    }

    /// Whether the tree is a valid AVL tree: search-ordered ([`Avl::is_bst`]) and
    /// height-balanced ([`Avl::is_balanced`]). Checked directly, without any generator.
    pub fn is_avl(&self) -> bool {
        self.is_bst() && self.is_balanced()
    }

    /// The tree with `key` inserted, rebalanced by rotations as AVL insertion does; the tree
    /// itself if `key` is already in it. Keeps [`Avl::is_avl`].
    pub fn insert(&self, key: i64) -> Avl {
        match self {
            Avl::Leaf => node(Avl::Leaf, key, Avl::Leaf),
            Avl::Node(left, x, right) => {
                if key < *x {
                    rebalance(left.insert(key), *x, (**right).clone())
                } else if key > *x {
                    rebalance((**left).clone(), *x, right.insert(key))
                } else {
                    self.clone()
                }
            }
        }
    }

    /// The AVL tree built by inserting `keys` in order into a leaf.
    pub fn from_keys(keys: impl IntoIterator<Item = i64>) -> Avl {
        keys.into_iter()
            .fold(Avl::Leaf, |tree, key| tree.insert(key))
    }
}

/// The node `(left key right)`, rotated once or twice if its subtrees' heights differ by two
/// (one insertion's worth of imbalance).
fn rebalance(left: Avl, key: i64, right: Avl) -> Avl {
    let (l, r) = (left.height(), right.height());
    if l > r + 1 {
        let Avl::Node(ll, lk, lr) = left else {
            unreachable!("a taller subtree is a node")
        };
        if ll.height() >= lr.height() {
            // Left-left: one rotation to the right.
            node(*ll, lk, node(*lr, key, right))
        } else {
            // Left-right: the left child's right child becomes the root.
            let Avl::Node(lrl, lrk, lrr) = *lr else {
                unreachable!("a taller subtree is a node")
            };
            node(node(*ll, lk, *lrl), lrk, node(*lrr, key, right))
        }
    } else if r > l + 1 {
        let Avl::Node(rl, rk, rr) = right else {
            unreachable!("a taller subtree is a node")
        };
        if rr.height() >= rl.height() {
            node(node(left, key, *rl), rk, *rr)
        } else {
            let Avl::Node(rll, rlk, rlr) = *rl else {
                unreachable!("a taller subtree is a node")
            };
            node(node(left, key, *rll), rlk, node(*rlr, rk, *rr))
        }
    } else {
        node(left, key, right)
    }
}

impl fmt::Display for Avl {
    /// `.` for a leaf, `(left key right)` for a node, as [`crate::bst::Tree`] prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Avl::Leaf => f.write_str("."),
            Avl::Node(left, key, right) => write!(f, "({left} {key} {right})"),
        }
    }
}

/// The fewest keys an AVL tree of height `h` holds: 0, 1, 2, 4, 7, 12, ... (`N(h) = 1 +
/// N(h-1) + N(h-2)`), saturating at `u64::MAX`.
pub fn min_keys(h: usize) -> u64 {
    let (mut below, mut at) = (0u64, 0u64);
    for _ in 0..h {
        (below, at) = (at, at.saturating_add(below).saturating_add(1));
    }
    at
}

/// The number of keys in `lo..=hi`.
fn key_count(lo: i64, hi: i64) -> u64 {
    if lo > hi {
        0
    } else {
        hi.abs_diff(lo).saturating_add(1)
    }
}

/// The greatest height of an AVL tree with keys in `lo..=hi`.
pub fn tallest(lo: i64, hi: i64) -> usize {
    let keys = key_count(lo, hi);
    (0..)
        .take_while(|&h| min_keys(h) <= keys)
        .last()
        .unwrap_or(0)
}

/// A reflective generator of AVL trees with keys in `lo..=hi` and height at most
/// `max_height` (and at most [`tallest`]`(lo, hi)`).
///
/// The height is uniform over `0..=` that bound (reflected from the tree by
/// [`Avl::height`]), then the tree is [`avl_of_height`]'s. Every tree it generates is valid,
/// and backward it recognises exactly the valid trees with keys in range and height within
/// the bound.
///
/// # Panics
///
/// If the range is not empty and touches `i64::MIN` or `i64::MAX` (a root key's neighbours
/// `x - 1` and `x + 1` must not overflow).
pub fn avl(lo: i64, hi: i64, max_height: usize) -> Gen<Avl, Avl> {
    assert_no_overflow(lo, hi);
    let top = max_height.min(tallest(lo, hi));
    let family = AVL.with(Family::clone);
    range(0..=top)
        .comap(|tree: &Avl| Some(tree.height()))
        .bind(move |h| family.at((h, lo, hi)))
        .boxed()
}

/// A reflective generator of AVL trees of height exactly `h` with keys in `lo..=hi`.
///
/// # Panics
///
/// If no AVL tree of height `h` fits in the range (`min_keys(h)` keys are needed), or as
/// [`avl`].
pub fn avl_of_height(h: usize, lo: i64, hi: i64) -> Gen<Avl, Avl> {
    assert_no_overflow(lo, hi);
    assert!(
        min_keys(h) <= key_count(lo, hi),
        "avl_of_height: no AVL tree of height {h} has its keys in {lo}..={hi}"
    );
    AVL.with(|family| family.at((h, lo, hi)).boxed())
}

#[track_caller]
fn assert_no_overflow(lo: i64, hi: i64) {
    assert!(
        lo > hi || (lo > i64::MIN && hi < i64::MAX),
        "avl: keys must stay strictly between i64::MIN and i64::MAX, got {lo}..={hi}"
    );
}

/// The parameters of a member of the family: the height, then the range of keys.
type Params = (usize, i64, i64);

thread_local! {
    /// The family of [`of_height`] generators, built once per thread.
    static AVL: Family<Params, Avl, Avl> = family(of_height);
}

/// The AVL trees of height `h` with keys in `lo..=hi`, which hold at least `min_keys(h)` keys.
///
/// Height 0 is a leaf. Otherwise a pick of the three shapes of the root, all labelled
/// `"node"` (so the mutator's default compatibility lets any two subtrees stand in for each
/// other): subtrees of heights `(h-1, h-1)`, `(h-1, h-2)` or `(h-2, h-1)`, each with weight 1
/// where it is possible. At height 1 only `(0, 0)` is; the even shape needs
/// `2 * min_keys(h-1) + 1` keys, which a narrow range may not hold. An impossible shape has
/// weight 0: never generated, never reflected, and replay repairs a choice of it.
fn of_height(
    avl: &Family<Params, Avl, Avl>,
    (h, lo, hi): Params,
) -> impl Generator<Input = Avl, Output = Avl> + use<> {
    if h == 0 {
        return Either::Left(exact(Avl::Leaf));
    }
    let even = u32::from(2 * min_keys(h - 1) < key_count(lo, hi));
    let uneven = u32::from(h >= 2);
    let shorter = h.saturating_sub(2);
    Either::Right(pick((
        (even, "node", split(avl, (h - 1, h - 1), lo, hi)),
        (uneven, "node", split(avl, (h - 1, shorter), lo, hi)),
        (uneven, "node", split(avl, (shorter, h - 1), lo, hi)),
    )))
}

/// A node whose subtrees have the heights `(hl, hr)`, keys in `lo..=hi`.
///
/// The root key `x` is uniform over the keys that leave `min_keys(hl)` keys below it and
/// `min_keys(hr)` above it, then the left subtree has keys in `lo..=x - 1` and the right in
/// `x + 1..=hi`. Backward, the outer `focus` prunes a node whose subtrees have other heights
/// before anything else is tried; `Avl::node_1` reaches the key, `Avl::node_0` and
/// `Avl::node_2` the subtrees. (When the shape is impossible its key range is empty; it is
/// then replaced by one key, unused: the shape has weight 0.)
fn split(
    avl: &Family<Params, Avl, Avl>,
    (hl, hr): (usize, usize),
    lo: i64,
    hi: i64,
) -> impl Generator<Input = Avl, Output = Avl> + use<> {
    let avl = avl.clone();
    let first = lo.saturating_add(i64::try_from(min_keys(hl)).unwrap_or(i64::MAX));
    let last = hi.saturating_sub(i64::try_from(min_keys(hr)).unwrap_or(i64::MAX));
    range(first..=last.max(first))
        .focus(Avl::node_1)
        .bind(move |x| {
            zip(
                avl.at((hl, lo, x - 1)).focus_box(Avl::node_0),
                avl.at((hr, x + 1, hi)).focus_box(Avl::node_2),
            )
            .map(move |(l, r)| Avl::from_node(Box::new(l), x, Box::new(r)))
        })
        .focus(move |tree: &Avl| (tree.child_heights() == Some((hl, hr))).then_some(tree))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf() -> Avl {
        Avl::Leaf
    }

    fn single(key: i64) -> Avl {
        node(leaf(), key, leaf())
    }

    /// Trees written by hand, with whether each is a valid AVL tree with keys in 0..=100.
    fn hand_built() -> Vec<(Avl, bool)> {
        vec![
            (leaf(), true),
            (single(0), true),
            (single(100), true),
            (node(single(10), 20, leaf()), true),
            (node(leaf(), 20, single(30)), true),
            (node(single(10), 20, single(30)), true),
            (
                node(node(single(1), 5, leaf()), 8, node(leaf(), 9, single(50))),
                true,
            ),
            (
                Avl::from_keys([50, 20, 80, 10, 30, 70, 90, 25, 35, 5]),
                true,
            ),
            (Avl::from_keys(0..=40), true),
            // Not search-ordered.
            (node(single(30), 20, leaf()), false),
            (node(single(10), 20, single(20)), false),
            // Not balanced.
            (node(node(single(1), 2, leaf()), 3, leaf()), false),
            (node(leaf(), 1, node(leaf(), 2, single(3))), false),
            // Valid, but a key out of range.
            (single(101), false),
            (node(single(-1), 20, leaf()), false),
        ]
    }

    #[test]
    fn min_keys_and_tallest() {
        let firsts: Vec<u64> = (0..8).map(min_keys).collect();
        assert_eq!(firsts, [0, 1, 2, 4, 7, 12, 20, 33]);
        assert_eq!(tallest(0, 100), 9);
        assert_eq!(tallest(1, 0), 0);
        assert_eq!(tallest(1, 4), 3);
        assert_eq!(min_keys(200), u64::MAX);
    }

    #[test]
    fn insertion_keeps_the_invariant() {
        let tree = Avl::from_keys((0..200).map(|i| (i * 37) % 101));
        assert!(tree.is_avl());
        assert_eq!(tree.keys(), (0..=100).collect::<Vec<_>>());
        let ascending = Avl::from_keys(0..63);
        assert!(ascending.is_avl());
        assert_eq!(ascending.height(), 6);
    }

    #[test]
    fn generated_trees_are_valid_and_reflect() {
        let g = avl(0, 100, 7);
        let mut rng = DefaultRng::seed_from_u64(1);
        let mut heights = [0usize; 8];
        for _ in 0..300 {
            let generated = g.generate(&mut rng, DEFAULT_SIZE);
            let tree = &generated.value;
            assert!(tree.is_avl(), "{tree}");
            assert!(tree.keys().iter().all(|k| (0..=100).contains(k)), "{tree}");
            assert!(g.can_generate(tree), "{tree}");
            assert_eq!(g.choices(tree), vec![generated.tree.clone()], "{tree}");
            assert_eq!(g.replay(&generated.tree).as_ref(), Some(tree));
            heights[tree.height()] += 1;
        }
        assert!(heights.iter().all(|&n| n > 0), "{heights:?}");
    }

    #[test]
    fn hand_built_trees_reflect_iff_valid() {
        let g = avl(0, 100, 7);
        for (tree, valid) in hand_built() {
            let in_range = tree.keys().iter().all(|k| (0..=100).contains(k));
            assert_eq!(tree.is_avl() && in_range, valid, "{tree}");
            assert_eq!(g.can_generate(&tree), valid, "{tree}");
        }
    }

    #[test]
    fn tight_ranges_and_heights() {
        // Height 3 needs 4 keys: in 1..=4 every tree of height 3 is one of the few valid ones.
        let g = avl_of_height(3, 1, 4);
        for seed in 0..50 {
            let tree = g.sample(seed);
            assert!(tree.is_avl() && tree.height() == 3, "{tree}");
            assert_eq!(tree.size(), 4, "{tree}");
        }
        // Every valid tree of height 2 over 1..=3: (1 2 3), (1 _ 2), (_ 1 2) and so on.
        let g = avl_of_height(2, 1, 3);
        let shapes = [
            node(single(1), 2, single(3)),
            node(single(1), 2, leaf()),
            node(single(1), 3, leaf()),
            node(single(2), 3, leaf()),
            node(leaf(), 1, single(2)),
            node(leaf(), 1, single(3)),
            node(leaf(), 2, single(3)),
        ];
        let total: f64 = shapes.iter().map(|t| g.probability_of(t)).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        assert!(!g.can_generate(&single(2)));
    }

    #[test]
    #[should_panic(expected = "no AVL tree of height 4")]
    fn too_tall_for_the_range() {
        let _ = avl_of_height(4, 1, 6);
    }
}
