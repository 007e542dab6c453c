//! The red-black tree workload's strategies from proptest and quickcheck.

use proptest::prelude::*;
use proptest::strategy::Union;
use proptest_derive::Arbitrary;
use quickcheck::Gen;
use reflective_examples::etna::harness::Strategy as Way;
use reflective_examples::etna::rbt::{
    Color, KEYS, Key, RbtInput, Tree, Val, max_black_height, min_keys, node,
};

use super::runners::{coin, proptest_strategy, quickcheck_strategy, uniform};

/// [`Color`], for proptest-derive.
#[derive(Clone, Copy, Debug, Arbitrary)]
enum PtColor {
    R,
    B,
}

/// [`Key`], for proptest-derive: uniform in [`KEYS`].
#[derive(Clone, Copy, Debug, Arbitrary)]
struct PtKey(#[proptest(strategy = "KEYS")] i64);

/// [`Val`], for proptest-derive.
#[derive(Clone, Copy, Debug, Arbitrary)]
struct PtVal(bool);

/// [`RbtInput`], for proptest-derive; the tree from [`pt_tree`] (proptest-derive cannot derive
/// a recursive type).
#[derive(Clone, Debug, Arbitrary)]
struct PtInput {
    #[proptest(strategy = "pt_tree()")]
    t: Tree,
    k: PtKey,
    k2: PtKey,
    v: PtVal,
    v2: PtVal,
}

impl From<PtColor> for Color {
    fn from(c: PtColor) -> Self {
        match c {
            PtColor::R => Color::R,
            PtColor::B => Color::B,
        }
    }
}

impl From<PtInput> for RbtInput {
    fn from(i: PtInput) -> Self {
        RbtInput {
            t: i.t,
            k: Key(i.k.0),
            k2: Key(i.k2.0),
            v: Val(i.v.0),
            v2: Val(i.v2.0),
        }
    }
}

/// The parameters every recursive proptest strategy of the example gets:
/// `prop_recursive(8, 8, 2, ..)`: at most 8 levels, 2 children per node, and 8 nodes aimed at,
/// which gives trees of 2.4 nodes on average (8.4 when aiming at 64, and then no tree is
/// valid).
pub const RECURSION: (u32, u32, u32) = (8, 8, 2);

/// Trees as proptest builds recursive types: `prop_recursive` from the empty tree, a node of
/// `any` colour, key and value over two subtrees.
fn pt_tree() -> impl Strategy<Value = Tree> {
    let (depth, size, branch) = RECURSION;
    Just(Tree::E).prop_recursive(depth, size, branch, |inner| {
        (
            any::<PtColor>(),
            inner.clone(),
            any::<PtKey>(),
            any::<PtVal>(),
            inner,
        )
            .prop_map(|(c, l, k, v, r)| node(c.into(), l, Key(k.0), Val(v.0), r))
    })
}

/// Valid trees as [`valid_rbt`](reflective_examples::etna::rbt::valid_rbt) builds them: a size
/// uniform in `0..=100` (proptest has no size; the reflective runner's sizes spread over the
/// same range), a black height uniform up to `max_black_height(size)`, then the tree.
fn pt_valid_tree() -> impl Strategy<Value = Tree> {
    (0..=100usize)
        .prop_flat_map(|size| 0..=max_black_height(size))
        .prop_flat_map(|bh| pt_subtree(*KEYS.start(), *KEYS.end(), bh, false))
}

/// Valid subtrees with keys in `lo..=hi`, black height `bh` and a red root allowed or not: each
/// colour that can still be filled, equally likely.
fn pt_subtree(lo: i64, hi: i64, bh: u32, red_ok: bool) -> BoxedStrategy<Tree> {
    let keys = hi - lo + 1;
    let mut options = Vec::new();
    if bh == 0 {
        options.push(Just(Tree::E).boxed());
    }
    if bh > 0 && keys >= min_keys(bh) {
        options.push(pt_node(Color::B, lo, hi, bh - 1, true));
    }
    if red_ok && keys > 2 * min_keys(bh) {
        options.push(pt_node(Color::R, lo, hi, bh, false));
    }
    Union::new(options).boxed()
}

/// A node of colour `c` whose subtrees have black height `bh`: a key leaving each side enough
/// keys, a value, then the subtrees (built when the key is known).
fn pt_node(c: Color, lo: i64, hi: i64, bh: u32, red_ok: bool) -> BoxedStrategy<Tree> {
    let margin = min_keys(bh);
    ((lo + margin)..=(hi - margin), any::<bool>())
        .prop_flat_map(move |(x, v)| {
            (
                pt_subtree(lo, x - 1, bh, red_ok),
                pt_subtree(x + 1, hi, bh, red_ok),
            )
                .prop_map(move |(l, r)| node(c, l, Key(x), Val(v), r))
        })
        .boxed()
}

/// Inputs with a valid tree from [`pt_valid_tree`] and keys uniform in [`KEYS`].
fn pt_bespoke() -> impl Strategy<Value = RbtInput> {
    (pt_valid_tree(), KEYS, KEYS, any::<bool>(), any::<bool>()).prop_map(|(t, k, k2, v, v2)| {
        RbtInput {
            t,
            k: Key(k),
            k2: Key(k2),
            v: Val(v),
            v2: Val(v2),
        }
    })
}

/// [`RbtInput`] behind a wrapper, for a hand-written quickcheck `Arbitrary`.
#[derive(Clone, Debug)]
struct QcInput(RbtInput);

impl quickcheck::Arbitrary for QcInput {
    /// As ETNA's `Quick` strategy: `genericArbitraryRec (1 % 1 % ())` with the empty tree as
    /// base case for the tree, `Key <$> arbitrary` (here uniform in [`KEYS`]) and
    /// `Val <$> arbitrary`.
    fn arbitrary(g: &mut Gen) -> Self {
        let size = g.size();
        QcInput(RbtInput {
            t: qc_tree(g, size),
            k: Key(uniform(g, *KEYS.start(), *KEYS.end())),
            k2: Key(uniform(g, *KEYS.start(), *KEYS.end())),
            v: Val(coin(g)),
            v2: Val(coin(g)),
        })
    }
}

/// generic-random's `genericArbitraryRec (1 % 1 % ()) `withBaseCase` return E`: the empty tree
/// at size 0; otherwise the empty tree or a node, equally likely, the node's five fields
/// sharing the size (each at `size / 5`).
fn qc_tree(g: &mut Gen, size: usize) -> Tree {
    if size == 0 || coin(g) {
        return Tree::E;
    }
    let part = size / 5;
    let c = if coin(g) { Color::R } else { Color::B };
    let l = qc_tree(g, part);
    let k = Key(uniform(g, *KEYS.start(), *KEYS.end()));
    let v = Val(coin(g));
    node(c, l, k, v, qc_tree(g, part))
}

/// proptest's two strategies and quickcheck's, in the order of the tables.
pub fn strategies() -> Vec<Way<RbtInput>> {
    let (depth, size, branch) = RECURSION;
    vec![
        proptest_strategy(
            "proptest derived",
            &format!(
                "`any::<PtInput>()`: `#[derive(Arbitrary)]` on copies of `Color`, `Key` \
                 (`#[proptest(strategy = \"KEYS\")]`), `Val` and the input; the tree (recursive, \
                 which proptest-derive cannot derive) by `prop_recursive({depth}, {size}, \
                 {branch}, ..)` over `any` fields"
            ),
            any::<PtInput>().prop_map(RbtInput::from),
        ),
        proptest_strategy(
            "proptest bespoke",
            "valid trees, the bespoke reflective generator's algorithm as a proptest strategy \
             (`prop_flat_map`), at a size uniform in 0..=100",
            pt_bespoke(),
        ),
        quickcheck_strategy(
            "quickcheck",
            "hand-written `Arbitrary` after ETNA's `Quick` (generic-random: empty tree at size \
             0, else empty or node 1:1, each field at size / 5), `Gen` size 100",
            |QcInput(input)| input,
        ),
    ]
}
