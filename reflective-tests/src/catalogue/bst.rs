//! Binary trees: the paper's binary search trees, and unordered trees bounded by the size.

use reflective::prelude::*;

/// A binary tree with `i64` keys.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tree {
    /// The empty tree.
    Leaf,
    /// A node: left subtree, key, right subtree.
    Node(Box<Tree>, i64, Box<Tree>),
}

impl Tree {
    /// A node with the given children and key.
    pub fn node(left: Tree, key: i64, right: Tree) -> Tree {
        Tree::Node(Box::new(left), key, Box::new(right))
    }

    /// A node with two leaves.
    pub fn single(key: i64) -> Tree {
        Tree::node(Tree::Leaf, key, Tree::Leaf)
    }

    /// The keys in order (left subtree, key, right subtree).
    pub fn keys(&self) -> Vec<i64> {
        let mut keys = Vec::new();
        self.collect_keys(&mut keys);
        keys
    }

    fn collect_keys(&self, keys: &mut Vec<i64>) {
        if let Tree::Node(left, key, right) = self {
            left.collect_keys(keys);
            keys.push(*key);
            right.collect_keys(keys);
        }
    }

    /// The number of nodes on the longest path from the root to a leaf.
    pub fn depth(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(left, _, right) => 1 + left.depth().max(right.depth()),
        }
    }
}

/// The left subtree of a node.
pub fn left(tree: &Tree) -> Option<&Tree> {
    match tree {
        Tree::Node(left, _, _) => Some(left),
        Tree::Leaf => None,
    }
}

/// The key of a node.
pub fn key(tree: &Tree) -> Option<&i64> {
    match tree {
        Tree::Node(_, key, _) => Some(key),
        Tree::Leaf => None,
    }
}

/// The right subtree of a node.
pub fn right(tree: &Tree) -> Option<&Tree> {
    match tree {
        Tree::Node(_, _, right) => Some(right),
        Tree::Leaf => None,
    }
}

/// The paper's binary search trees with keys in `lo..=hi`, as in the crate docs: a node's key
/// is drawn first (`focus` on the key), and its subtrees depend on it (`bind`), drawn
/// independently of each other (`zip`, each with a `focus` on its side).
///
/// Every value has exactly one way to be produced (overlap 1), and the generator is complete:
/// it can produce every search tree with keys in range.
pub fn bst(lo: i64, hi: i64) -> Gen<Tree, Tree> {
    if lo > hi {
        return exact(Tree::Leaf).boxed();
    }
    pick((
        (1, "leaf", exact(Tree::Leaf)),
        (
            5,
            "node",
            range(lo..=hi).focus(key).bind(move |x| {
                zip(bst(lo, x - 1).focus(left), bst(x + 1, hi).focus(right))
                    .map(move |(l, r)| Tree::node(l, x, r))
            }),
        ),
    ))
    .boxed()
}

/// [`bst`] as a [`family`] indexed by the range: the same choices and distribution, with no
/// allocation per recursive call; the empty range's leaf and the pick are the two sides of an
/// [`Either`](reflective::combinator::Either).
pub fn bst_family(lo: i64, hi: i64) -> impl Generator<Input = Tree, Output = Tree> {
    family(bst_member).at((lo, hi))
}

/// [`bst_family`] as a [`memoized_family`]: each range's generator built once and kept.
pub fn bst_memoized(lo: i64, hi: i64) -> impl Generator<Input = Tree, Output = Tree> {
    memoized_family(bst_member).at((lo, hi))
}

/// The member of [`bst_family`] at the range `lo..=hi`.
fn bst_member(
    bst: &Family<(i64, i64), Tree, Tree>,
    (lo, hi): (i64, i64),
) -> impl Generator<Input = Tree, Output = Tree> + use<> {
    use reflective::combinator::Either;
    if lo > hi {
        return Either::Left(exact(Tree::Leaf));
    }
    let bst = bst.clone();
    Either::Right(pick((
        (1, "leaf", exact(Tree::Leaf)),
        (
            5,
            "node",
            range(lo..=hi).focus(key).bind(move |x| {
                zip(
                    bst.at((lo, x - 1)).focus(left),
                    bst.at((x + 1, hi)).focus(right),
                )
                .map(move |(l, r)| Tree::node(l, x, r))
            }),
        ),
    )))
}

/// Whether `tree` is a search tree whose keys all lie in `lo..=hi`: the oracle [`bst`] is
/// checked against.
pub fn is_bst(tree: &Tree, lo: i64, hi: i64) -> bool {
    fn within(tree: &Tree, lo: i128, hi: i128) -> bool {
        match tree {
            Tree::Leaf => true,
            Tree::Node(l, x, r) => {
                let x = i128::from(*x);
                (lo..=hi).contains(&x) && within(l, lo, x - 1) && within(r, x + 1, hi)
            }
        }
    }
    within(tree, i128::from(lo), i128::from(hi))
}

/// Every search tree with keys in `lo..=hi` (keep the range small: there are 51 for four keys).
pub fn all_bsts(lo: i64, hi: i64) -> Vec<Tree> {
    let mut trees = vec![Tree::Leaf];
    for x in lo..=hi {
        for l in all_bsts(lo, x - 1) {
            for r in all_bsts(x + 1, hi) {
                trees.push(Tree::node(l.clone(), x, r));
            }
        }
    }
    trees
}

/// Unordered binary trees with keys in `lo..=hi`, bounded by the size: at size `n` a node is
/// `n` times as likely as a leaf, and the children run at size `n / 2` (`recursive`, `sized`
/// and `scale`). At size 0 only the leaf has a weight.
pub fn sized_tree(lo: i64, hi: i64) -> Gen<Tree, Tree> {
    recursive(move |tree: Gen<Tree, Tree>| {
        sized(move |size| {
            let child = tree.clone().scale(|size| size / 2);
            let node = zip(
                zip(child.clone().focus(left), range(lo..=hi).focus(key)),
                child.focus(right),
            )
            .map(|((l, x), r)| Tree::node(l, x, r));
            pick((
                (1, "leaf", exact(Tree::Leaf)),
                (u32::try_from(size).unwrap_or(u32::MAX), "node", node),
            ))
        })
    })
}

/// Every tree [`sized_tree`] can produce at `size`: depth at most the number of halvings of
/// `size` before it reaches 0.
pub fn all_sized_trees(lo: i64, hi: i64, size: usize) -> Vec<Tree> {
    let mut trees = vec![Tree::Leaf];
    if size > 0 {
        let children = all_sized_trees(lo, hi, size / 2);
        for l in &children {
            for x in lo..=hi {
                for r in &children {
                    trees.push(Tree::node(l.clone(), x, r.clone()));
                }
            }
        }
    }
    trees
}
