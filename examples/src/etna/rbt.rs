//! ETNA's red-black tree workload: Okasaki's insertion, Kahrs' deletion, fifteen planted bugs
//! and ten properties.
//!
//! Ported from `workloads/Haskell/RBT/src/Impl.hs` and `workloads/Haskell/RBT/src/Spec.hs` of
//! <https://github.com/jwshii/etna> at commit `f22b56be223b88a277f2823fb4c69867ccc53199`. The
//! functions keep the Haskell's names (in snake case) and its clause order; each
//! `{-!! name -}` block of `Impl.hs` is a [`RbtMutant`], and the functions take the mutant and
//! branch where the Haskell has the marker. The pairs ETNA's tool runs for this workload
//! (`tool/benchtool/Tasks.py`) are [`RBT_TASKS`].
//!
//! Types: the Haskell's `Tree k v` is used only at `Tree Key Val`, so [`Tree`] is that tree.
//! [`Key`] wraps an `i64` (Haskell's `Int` is 64 bits; no arithmetic is done on keys), and
//! [`Val`] a `bool`, as `newtype Val = Val Bool`. `Either Error` is `Result<_, InvariantError>`.
//!
//! Every generator of keys in this workload draws them uniformly from [`KEYS`] (`-20..=20`, the
//! range of ETNA's bespoke Coq generator), so that all strategies see the same keys and equal
//! keys (which most bugs need) come up equally often.

use std::cmp::Ordering;
use std::fmt;
use std::ops::RangeInclusive;

use reflective::prelude::*;

use super::harness::Pair;

/// The keys every generator of this workload draws from, uniformly.
pub const KEYS: RangeInclusive<i64> = -20..=20;

/// A node's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Reflective)]
pub enum Color {
    /// Red.
    R,
    /// Black.
    B,
}

/// A key: Haskell's `newtype Key = Key Int`, uniform in [`KEYS`] when generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Reflective)]
pub struct Key(#[reflective(generator = range(KEYS))] pub i64);

/// A value: Haskell's `newtype Val = Val Bool` (`False < True`, as Haskell orders them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Reflective)]
pub struct Val(pub bool);

/// A red-black tree from keys to values (not necessarily a valid one: see [`is_rbt`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub enum Tree {
    /// The empty tree.
    E,
    /// A node: colour, left subtree, key, value, right subtree.
    T(Color, Box<Tree>, Key, Val, Box<Tree>),
}

/// The node `T c l k v r`.
pub fn node(c: Color, l: Tree, k: Key, v: Val, r: Tree) -> Tree {
    Tree::T(c, Box::new(l), k, v, Box::new(r))
}

impl fmt::Display for Tree {
    /// `E` for the empty tree, `(R l k=v r)` for a node: `(B E 3=true E)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tree::E => f.write_str("E"),
            Tree::T(c, l, k, v, r) => write!(f, "({c:?} {l} {}={} {r})", k.0, v.0),
        }
    }
}

/// Haskell's `data Error = IE`: an operation met a tree that breaks the invariant it relies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvariantError;

/// The correct implementation ([`RbtMutant::None`]) or one of the fifteen planted bugs of
/// `Impl.hs`, each named as its `{-!! name -}` marker (in snake case: `miscolor_balLeft` is
/// `miscolor_bal_left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RbtMutant {
    /// The correct implementation.
    None,
    /// `ins` makes a new node black.
    MiscolorInsert,
    /// `ins` replaces a whole subtree by the new node.
    Insert1,
    /// `ins` never goes right: a greater key replaces the node's value.
    Insert2,
    /// `ins` keeps the old value of an existing key.
    Insert3,
    /// `ins` does not balance after going left.
    NoBalanceInsert1,
    /// `ins` does not balance after going right, and blackens the right subtree.
    NoBalanceInsert2,
    /// `delete` does not blacken the root.
    MiscolorDelete,
    /// `del` drops the node on the way down (it returns the deleted subtree).
    Delete4,
    /// `del` goes the wrong way.
    Delete5,
    /// `balLeft` does not redden a subtree.
    MiscolorBalLeft,
    /// `balRight` does not redden a subtree.
    MiscolorBalRight,
    /// `join` of two red trees makes black children.
    MiscolorJoin1,
    /// `join` of two black trees makes red children.
    MiscolorJoin2,
    /// `balance`'s first case swaps the subtrees `c` and `d`.
    SwapCd,
    /// `balance`'s third case swaps the subtrees `b` and `c`.
    SwapBc,
}

impl RbtMutant {
    /// The fifteen bugs, in `Impl.hs`'s order.
    pub const BUGS: [RbtMutant; 15] = [
        RbtMutant::MiscolorInsert,
        RbtMutant::Insert1,
        RbtMutant::Insert2,
        RbtMutant::Insert3,
        RbtMutant::NoBalanceInsert1,
        RbtMutant::NoBalanceInsert2,
        RbtMutant::MiscolorDelete,
        RbtMutant::Delete4,
        RbtMutant::Delete5,
        RbtMutant::MiscolorBalLeft,
        RbtMutant::MiscolorBalRight,
        RbtMutant::MiscolorJoin1,
        RbtMutant::MiscolorJoin2,
        RbtMutant::SwapCd,
        RbtMutant::SwapBc,
    ];

    /// The marker's name in snake case (`"none"` for the correct implementation).
    pub fn name(self) -> &'static str {
        match self {
            RbtMutant::None => "none",
            RbtMutant::MiscolorInsert => "miscolor_insert",
            RbtMutant::Insert1 => "insert_1",
            RbtMutant::Insert2 => "insert_2",
            RbtMutant::Insert3 => "insert_3",
            RbtMutant::NoBalanceInsert1 => "no_balance_insert_1",
            RbtMutant::NoBalanceInsert2 => "no_balance_insert_2",
            RbtMutant::MiscolorDelete => "miscolor_delete",
            RbtMutant::Delete4 => "delete_4",
            RbtMutant::Delete5 => "delete_5",
            RbtMutant::MiscolorBalLeft => "miscolor_bal_left",
            RbtMutant::MiscolorBalRight => "miscolor_bal_right",
            RbtMutant::MiscolorJoin1 => "miscolor_join_1",
            RbtMutant::MiscolorJoin2 => "miscolor_join_2",
            RbtMutant::SwapCd => "swap_cd",
            RbtMutant::SwapBc => "swap_bc",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Impl.hs: insertion (Okasaki), deletion (Kahrs), and their helpers.

/// `insert x vx s`: `blacken (ins x vx s)`.
pub fn insert(m: RbtMutant, x: Key, vx: Val, s: &Tree) -> Result<Tree, InvariantError> {
    Ok(blacken(ins(m, x, vx, s)))
}

/// `insert`'s `ins`, with the markers `miscolor_insert`, `insert_1` to `insert_3` and
/// `no_balance_insert_1`, `no_balance_insert_2`.
///
/// `no_balance_insert_2` reads `T rb a y vy (insert x vx b)` in Haskell, which does not type
/// check there (`insert` returns an `Either`); the Coq version of the workload, whose `insert`
/// returns the tree, gives its meaning: the right subtree becomes `blacken (ins x vx b)`.
fn ins(m: RbtMutant, x: Key, vx: Val, s: &Tree) -> Tree {
    use RbtMutant as M;
    let Tree::T(rb, a, y, vy, b) = s else {
        let color = if m == M::MiscolorInsert {
            Color::B
        } else {
            Color::R
        };
        return node(color, Tree::E, x, vx, Tree::E);
    };
    let (rb, y, vy, a, b) = (*rb, *y, *vy, &**a, &**b);
    match (m, x.cmp(&y)) {
        (M::Insert1, _) => node(Color::R, Tree::E, x, vx, Tree::E),
        (M::Insert2, Ordering::Less) => balance(m, rb, ins(m, x, vx, a), y, vy, b.clone()),
        (M::Insert2, _) => node(rb, a.clone(), y, vx, b.clone()),
        (M::Insert3, Ordering::Equal) => node(rb, a.clone(), y, vy, b.clone()),
        (M::NoBalanceInsert1, Ordering::Less) => node(rb, ins(m, x, vx, a), y, vy, b.clone()),
        (M::NoBalanceInsert2, Ordering::Greater) => {
            node(rb, a.clone(), y, vy, blacken(ins(m, x, vx, b)))
        }
        (_, Ordering::Less) => balance(m, rb, ins(m, x, vx, a), y, vy, b.clone()),
        (_, Ordering::Greater) => balance(m, rb, a.clone(), y, vy, ins(m, x, vx, b)),
        (_, Ordering::Equal) => node(rb, a.clone(), y, vx, b.clone()),
    }
}

/// `delete x t`: `blacken <$> del t` (without the `blacken` under `miscolor_delete`).
pub fn delete(m: RbtMutant, x: Key, t: &Tree) -> Result<Tree, InvariantError> {
    let deleted = del(m, x, t)?;
    Ok(if m == RbtMutant::MiscolorDelete {
        deleted
    } else {
        blacken(deleted)
    })
}

/// `delete`'s `del`, with the markers `delete_4` and `delete_5`.
fn del(m: RbtMutant, x: Key, t: &Tree) -> Result<Tree, InvariantError> {
    use RbtMutant as M;
    let Tree::T(_, a, y, vy, b) = t else {
        return Ok(Tree::E);
    };
    let (y, vy, a, b) = (*y, *vy, &**a, &**b);
    match (m, x.cmp(&y)) {
        (M::Delete4, Ordering::Less) => del(m, x, a),
        (M::Delete4, Ordering::Greater) => del(m, x, b),
        (M::Delete5, Ordering::Greater) => del_left(m, x, a, y, vy, b),
        (M::Delete5, Ordering::Less) => del_right(m, x, a, y, vy, b),
        (_, Ordering::Less) => del_left(m, x, a, y, vy, b),
        (_, Ordering::Greater) => del_right(m, x, a, y, vy, b),
        (_, Ordering::Equal) => join(m, a, b),
    }
}

/// `delLeft a y vy b`: deletes `x` from `a`, rebalancing if `a` is a black node.
fn del_left(
    m: RbtMutant,
    x: Key,
    a: &Tree,
    y: Key,
    vy: Val,
    b: &Tree,
) -> Result<Tree, InvariantError> {
    let a2 = del(m, x, a)?;
    if parts(a, Color::B).is_some() {
        bal_left(m, a2, y, vy, b.clone())
    } else {
        Ok(node(Color::R, a2, y, vy, b.clone()))
    }
}

/// `delRight a y vy b`: deletes `x` from `b`, rebalancing if `b` is a black node.
fn del_right(
    m: RbtMutant,
    x: Key,
    a: &Tree,
    y: Key,
    vy: Val,
    b: &Tree,
) -> Result<Tree, InvariantError> {
    let b2 = del(m, x, b)?;
    if parts(b, Color::B).is_some() {
        bal_right(m, a.clone(), y, vy, b2)
    } else {
        Ok(node(Color::R, a.clone(), y, vy, b2))
    }
}

/// The parts `(l, k, v, r)` of `t` if it is a node of colour `c`.
fn parts(t: &Tree, c: Color) -> Option<(&Tree, Key, Val, &Tree)> {
    match t {
        Tree::T(color, l, k, v, r) if *color == c => Some((l, *k, *v, r)),
        _ => None,
    }
}

/// `balLeft`, with the marker `miscolor_balLeft`.
fn bal_left(m: RbtMutant, l: Tree, x: Key, vx: Val, r: Tree) -> Result<Tree, InvariantError> {
    use Color::{B, R};
    if let Some((a, k, v, b)) = parts(&l, R) {
        return Ok(node(R, node(B, a.clone(), k, v, b.clone()), x, vx, r));
    }
    if let Some((a, y, vy, b)) = parts(&r, B) {
        let red = node(R, a.clone(), y, vy, b.clone());
        return Ok(balance(m, B, l, x, vx, red));
    }
    if let Some((rl, z, vz, c)) = parts(&r, R)
        && let Some((a, y, vy, b)) = parts(rl, B)
    {
        let c = if m == RbtMutant::MiscolorBalLeft {
            c.clone()
        } else {
            redden(c)?
        };
        let left = node(B, l.clone(), x, vx, a.clone());
        return Ok(node(R, left, y, vy, balance(m, B, b.clone(), z, vz, c)));
    }
    Err(InvariantError)
}

/// `balRight`, with the marker `miscolor_balRight`.
fn bal_right(m: RbtMutant, l: Tree, y: Key, vy: Val, r: Tree) -> Result<Tree, InvariantError> {
    use Color::{B, R};
    if let Some((b, k, v, c)) = parts(&r, R) {
        return Ok(node(R, l, y, vy, node(B, b.clone(), k, v, c.clone())));
    }
    if let Some((a, x, vx, b)) = parts(&l, B) {
        let red = node(R, a.clone(), x, vx, b.clone());
        return Ok(balance(m, B, red, y, vy, r));
    }
    if let Some((a, x, vx, lr)) = parts(&l, R)
        && let Some((b, y2, vy2, c)) = parts(lr, B)
    {
        let a = if m == RbtMutant::MiscolorBalRight {
            a.clone()
        } else {
            redden(a)?
        };
        let right = node(B, c.clone(), y, vy, r.clone());
        return Ok(node(R, balance(m, B, a, x, vx, b.clone()), y2, vy2, right));
    }
    Err(InvariantError)
}

/// `join`, with the markers `miscolor_join_1` and `miscolor_join_2`: the tree of the keys of
/// `l` and then those of `r`.
fn join(m: RbtMutant, l: &Tree, r: &Tree) -> Result<Tree, InvariantError> {
    use Color::{B, R};
    match (l, r) {
        (Tree::E, a) | (a, Tree::E) => Ok(a.clone()),
        (Tree::T(R, a, x, vx, b), Tree::T(R, c, y, vy, d)) => {
            join_same(m, R, (a, *x, *vx, b), (c, *y, *vy, d))
        }
        (Tree::T(B, a, x, vx, b), Tree::T(B, c, y, vy, d)) => {
            join_same(m, B, (a, *x, *vx, b), (c, *y, *vy, d))
        }
        (a, Tree::T(R, b, x, vx, c)) => Ok(node(R, join(m, a, b)?, *x, *vx, (**c).clone())),
        (Tree::T(R, a, x, vx, b), c) => Ok(node(R, (**a).clone(), *x, *vx, join(m, b, c)?)),
    }
}

/// The parts of a node: left subtree, key, value, right subtree.
type Parts<'t> = (&'t Tree, Key, Val, &'t Tree);

/// `join`'s cases for two nodes of the colour `rb`, `T rb a x vx b` and `T rb c y vy d`: the
/// inner subtrees `b` and `c` joined, and if that gives a red node `T R b' z vz c'`, the node
/// `T R (T rb a x vx b') z vz (T rb c' y vy d)` (whose inner nodes `miscolor_join_1` makes
/// black for red trees, `miscolor_join_2` red for black ones); otherwise
/// `T R a x vx (T R bc y vy d)` for red trees, `balLeft a x vx (T B bc y vy d)` for black ones.
fn join_same(
    m: RbtMutant,
    rb: Color,
    (a, x, vx, b): Parts<'_>,
    (c, y, vy, d): Parts<'_>,
) -> Result<Tree, InvariantError> {
    use Color::{B, R};
    let (a, d) = (a.clone(), d.clone());
    match (join(m, b, c)?, rb) {
        (Tree::T(R, b2, z, vz, c2), _) => {
            let miscolored = matches!(
                (rb, m),
                (R, RbtMutant::MiscolorJoin1) | (B, RbtMutant::MiscolorJoin2)
            );
            let inner = match (rb, miscolored) {
                (R, false) | (B, true) => R,
                (B, false) | (R, true) => B,
            };
            let left = node(inner, a, x, vx, *b2);
            Ok(node(R, left, z, vz, node(inner, *c2, y, vy, d)))
        }
        (bc, R) => Ok(node(R, a, x, vx, node(R, bc, y, vy, d))),
        (bc, B) => bal_left(m, a, x, vx, node(B, bc, y, vy, d)),
    }
}

/// `blacken`: the tree with a black root.
pub fn blacken(t: Tree) -> Tree {
    match t {
        Tree::T(_, a, x, vx, b) => Tree::T(Color::B, a, x, vx, b),
        Tree::E => Tree::E,
    }
}

/// `redden`: a black node made red; anything else is an invariant error.
fn redden(t: &Tree) -> Result<Tree, InvariantError> {
    match parts(t, Color::B) {
        Some((a, x, vx, b)) => Ok(node(Color::R, a.clone(), x, vx, b.clone())),
        None => Err(InvariantError),
    }
}

/// `balance rb a x vx b`, with the markers `swap_cd` (first case) and `swap_bc` (third case):
/// Okasaki's four red-red rotations under a black node, tried in the Haskell's order.
fn balance(m: RbtMutant, rb: Color, l: Tree, k: Key, v: Val, r: Tree) -> Tree {
    if rb == Color::B {
        let rotation = red_red_left(m, &l, k, v, &r).or_else(|| red_red_right(m, &l, k, v, &r));
        if let Some(rotated) = rotation {
            return rotated;
        }
    }
    node(rb, l, k, v, r)
}

/// `balance`'s first two cases, a red left child with a red child:
/// `B (T R (T R a x vx b) y vy c) z vz d` (with `c` and `d` swapped under `swap_cd`) and
/// `B (T R a x vx (T R b y vy c)) z vz d`.
fn red_red_left(m: RbtMutant, l: &Tree, z: Key, vz: Val, d: &Tree) -> Option<Tree> {
    let (ll, y, vy, c) = parts(l, Color::R)?;
    if let Some((a, x, vx, b)) = parts(ll, Color::R) {
        let (c, d) = if m == RbtMutant::SwapCd {
            (d, c)
        } else {
            (c, d)
        };
        return Some(rotated([a, b, c, d], [(x, vx), (y, vy), (z, vz)]));
    }
    let (b, y2, vy2, c2) = parts(c, Color::R)?;
    Some(rotated([ll, b, c2, d], [(y, vy), (y2, vy2), (z, vz)]))
}

/// `balance`'s last two cases, a red right child with a red child:
/// `B a x vx (T R (T R b y vy c) z vz d)` (with `b` and `c` swapped under `swap_bc`) and
/// `B a x vx (T R b y vy (T R c z vz d))`.
fn red_red_right(m: RbtMutant, a: &Tree, x: Key, vx: Val, r: &Tree) -> Option<Tree> {
    let (rl, z, vz, d) = parts(r, Color::R)?;
    if let Some((b, y, vy, c)) = parts(rl, Color::R) {
        let (b, c) = if m == RbtMutant::SwapBc {
            (c, b)
        } else {
            (b, c)
        };
        return Some(rotated([a, b, c, d], [(x, vx), (y, vy), (z, vz)]));
    }
    let (c, z2, vz2, d2) = parts(d, Color::R)?;
    Some(rotated([a, rl, c, d2], [(x, vx), (z, vz), (z2, vz2)]))
}

/// `T R (T B a x vx b) y vy (T B c z vz d)`, the result of every rotation.
fn rotated([a, b, c, d]: [&Tree; 4], [(x, vx), (y, vy), (z, vz)]: [(Key, Val); 3]) -> Tree {
    node(
        Color::R,
        node(Color::B, a.clone(), x, vx, b.clone()),
        y,
        vy,
        node(Color::B, c.clone(), z, vz, d.clone()),
    )
}

// ---------------------------------------------------------------------------------------------
// Spec.hs: validity, lookup, and the ten properties.

/// `isRBT`: a binary search tree (no repeated keys) whose paths all have the same number of
/// black nodes, with no red node under a red node, and a black root.
pub fn is_rbt(t: &Tree) -> bool {
    is_bst(t) && consistent_black_height(t) && no_red_red(t) && black_root(t)
}

/// `isBST`: every key of a node's left subtree is smaller than its key, every key of its right
/// subtree greater.
pub fn is_bst(t: &Tree) -> bool {
    /// Whether `p` holds for every key of `t`.
    fn every(p: &dyn Fn(Key) -> bool, t: &Tree) -> bool {
        match t {
            Tree::E => true,
            Tree::T(_, a, x, _, b) => p(*x) && every(p, a) && every(p, b),
        }
    }
    match t {
        Tree::E => true,
        Tree::T(_, a, x, _, b) => {
            every(&|k| k < *x, a) && every(&|k| k > *x, b) && is_bst(a) && is_bst(b)
        }
    }
}

/// `noRedRed`: no red node has a red child.
pub fn no_red_red(t: &Tree) -> bool {
    let black_root = |t: &Tree| !matches!(t, Tree::T(Color::R, ..));
    match t {
        Tree::E => true,
        Tree::T(Color::B, a, _, _, b) => no_red_red(a) && no_red_red(b),
        Tree::T(Color::R, a, _, _, b) => {
            black_root(a) && black_root(b) && no_red_red(a) && no_red_red(b)
        }
    }
}

/// `consistentBlackHeight`: every path from the root to an empty tree has the same number of
/// black nodes.
pub fn consistent_black_height(t: &Tree) -> bool {
    /// Whether the subtree is consistent, and its black height (an empty tree's is 1).
    fn go(t: &Tree) -> (bool, u32) {
        match t {
            Tree::E => (true, 1),
            Tree::T(rb, a, _, _, b) => {
                let ((a_ok, a_height), (b_ok, b_height)) = (go(a), go(b));
                let black = u32::from(*rb == Color::B);
                (a_ok && b_ok && a_height == b_height, a_height + black)
            }
        }
    }
    go(t).0
}

/// `blackRoot`: the root is black (or the tree empty).
pub fn black_root(t: &Tree) -> bool {
    !matches!(t, Tree::T(Color::R, ..))
}

/// `toList`: the entries in order (left subtree, the node, right subtree).
pub fn to_list(t: &Tree) -> Vec<(Key, Val)> {
    /// Appends the entries of `t` to `out`.
    fn go(t: &Tree, out: &mut Vec<(Key, Val)>) {
        if let Tree::T(_, l, k, v, r) = t {
            go(l, out);
            out.push((*k, *v));
            go(r, out);
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    out
}

/// `find`: the value of `x` in the binary search tree `t`.
pub fn find(x: Key, t: &Tree) -> Option<Val> {
    match t {
        Tree::E => None,
        Tree::T(_, l, y, vy, r) => match x.cmp(y) {
            Ordering::Less => find(x, l),
            Ordering::Greater => find(x, r),
            Ordering::Equal => Some(*vy),
        },
    }
}

/// `sizeRBT`: the number of entries.
pub fn size_rbt(t: &Tree) -> usize {
    to_list(t).len()
}

/// The inputs of every property, as ETNA's later workloads take them: a tree, two keys and two
/// values. Each property reads the ones its Haskell tuple has (`(t, k, k', v, v')` for
/// `prop_InsertInsert`; `prop_DeleteInsert`'s `v'` is `v` here).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct RbtInput {
    /// The tree.
    pub t: Tree,
    /// The first key, `k`.
    pub k: Key,
    /// The second key, `k'`.
    pub k2: Key,
    /// The first value, `v`.
    pub v: Val,
    /// The second value, `v'`.
    pub v2: Val,
}

/// The ten properties of `Spec.hs`, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RbtProperty {
    /// `prop_InsertValid`.
    InsertValid,
    /// `prop_DeleteValid`.
    DeleteValid,
    /// `prop_InsertPost`.
    InsertPost,
    /// `prop_DeletePost`.
    DeletePost,
    /// `prop_InsertModel`.
    InsertModel,
    /// `prop_DeleteModel`.
    DeleteModel,
    /// `prop_InsertInsert`.
    InsertInsert,
    /// `prop_InsertDelete`.
    InsertDelete,
    /// `prop_DeleteInsert`.
    DeleteInsert,
    /// `prop_DeleteDelete`.
    DeleteDelete,
}

impl RbtProperty {
    /// The ten properties, in `Spec.hs`'s order.
    pub const ALL: [RbtProperty; 10] = [
        RbtProperty::InsertValid,
        RbtProperty::DeleteValid,
        RbtProperty::InsertPost,
        RbtProperty::DeletePost,
        RbtProperty::InsertModel,
        RbtProperty::DeleteModel,
        RbtProperty::InsertInsert,
        RbtProperty::InsertDelete,
        RbtProperty::DeleteInsert,
        RbtProperty::DeleteDelete,
    ];

    /// The property's name in snake case: `prop_insert_valid`.
    pub fn name(self) -> &'static str {
        match self {
            RbtProperty::InsertValid => "prop_insert_valid",
            RbtProperty::DeleteValid => "prop_delete_valid",
            RbtProperty::InsertPost => "prop_insert_post",
            RbtProperty::DeletePost => "prop_delete_post",
            RbtProperty::InsertModel => "prop_insert_model",
            RbtProperty::DeleteModel => "prop_delete_model",
            RbtProperty::InsertInsert => "prop_insert_insert",
            RbtProperty::InsertDelete => "prop_insert_delete",
            RbtProperty::DeleteInsert => "prop_delete_insert",
            RbtProperty::DeleteDelete => "prop_delete_delete",
        }
    }

    /// The property on `input` under the mutant `m`: `None` if its precondition (`isRBT t`)
    /// fails, so that the case is discarded.
    pub fn check(self, m: RbtMutant, input: &RbtInput) -> Option<bool> {
        let RbtInput { t, k, k2, v, v2 } = input;
        let (k, k2, v, v2) = (*k, *k2, *v, *v2);
        match self {
            RbtProperty::InsertValid => prop_insert_valid(m, t, k, v),
            RbtProperty::DeleteValid => prop_delete_valid(m, t, k),
            RbtProperty::InsertPost => prop_insert_post(m, t, k, k2, v),
            RbtProperty::DeletePost => prop_delete_post(m, t, k, k2),
            RbtProperty::InsertModel => prop_insert_model(m, t, k, v),
            RbtProperty::DeleteModel => prop_delete_model(m, t, k),
            RbtProperty::InsertInsert => prop_insert_insert(m, t, k, k2, v, v2),
            RbtProperty::InsertDelete => prop_insert_delete(m, t, k, k2, v),
            RbtProperty::DeleteInsert => prop_delete_insert(m, t, k, k2, v),
            RbtProperty::DeleteDelete => prop_delete_delete(m, t, k, k2),
        }
    }
}

/// The pairs ETNA's tool runs for this workload: `tool/benchtool/Tasks.py`'s `redblack`
/// entries and its `bst` entries for `insert_1` to `delete_5` (the RBT workload reuses them),
/// without the union properties RBT does not have.
pub const RBT_TASKS: &[(RbtMutant, &[RbtProperty])] = {
    use RbtMutant as M;
    use RbtProperty as P;
    &[
        (M::MiscolorInsert, &[P::InsertValid, P::DeleteInsert]),
        (
            M::Insert1,
            &[
                P::InsertPost,
                P::InsertModel,
                P::DeleteInsert,
                P::InsertInsert,
            ],
        ),
        (
            M::Insert2,
            &[
                P::InsertPost,
                P::InsertModel,
                P::InsertDelete,
                P::DeleteInsert,
                P::InsertInsert,
            ],
        ),
        (
            M::Insert3,
            &[
                P::InsertPost,
                P::InsertModel,
                P::InsertDelete,
                P::InsertInsert,
            ],
        ),
        (
            M::NoBalanceInsert1,
            &[P::InsertValid, P::DeleteInsert, P::InsertDelete],
        ),
        (
            M::NoBalanceInsert2,
            &[P::InsertValid, P::DeleteInsert, P::InsertDelete],
        ),
        (M::MiscolorDelete, &[P::DeleteValid]),
        (
            M::Delete4,
            &[
                P::DeleteModel,
                P::DeletePost,
                P::DeleteDelete,
                P::DeleteInsert,
                P::InsertDelete,
            ],
        ),
        (
            M::Delete5,
            &[
                P::DeleteModel,
                P::DeletePost,
                P::DeleteDelete,
                P::DeleteInsert,
            ],
        ),
        (M::MiscolorBalLeft, &[P::DeleteValid, P::DeleteDelete]),
        (M::MiscolorBalRight, &[P::DeleteValid, P::DeleteDelete]),
        (M::MiscolorJoin1, &[P::DeleteValid]),
        (M::MiscolorJoin2, &[P::DeleteValid, P::DeleteDelete]),
        (M::SwapCd, &RbtProperty::ALL),
        (M::SwapBc, &RbtProperty::ALL),
    ]
};

/// `-->`: the property's result if the precondition holds, else `None` (discard).
fn implies(precondition: bool, holds: impl FnOnce() -> bool) -> Option<bool> {
    precondition.then(holds)
}

/// `prop_InsertValid`: inserting into a valid tree gives a valid tree.
pub fn prop_insert_valid(m: RbtMutant, t: &Tree, k: Key, v: Val) -> Option<bool> {
    implies(is_rbt(t), || insert(m, k, v, t).is_ok_and(|t| is_rbt(&t)))
}

/// `prop_DeleteValid`: deleting from a valid tree gives a valid tree.
pub fn prop_delete_valid(m: RbtMutant, t: &Tree, k: Key) -> Option<bool> {
    implies(is_rbt(t), || delete(m, k, t).is_ok_and(|t| is_rbt(&t)))
}

/// `prop_InsertPost`: after inserting `k`, looking up `k'` finds `v` if `k == k'`, else what it
/// found before.
pub fn prop_insert_post(m: RbtMutant, t: &Tree, k: Key, k2: Key, v: Val) -> Option<bool> {
    implies(is_rbt(t), || {
        let expected = if k == k2 { Some(v) } else { find(k2, t) };
        insert(m, k, v, t).map(|t| find(k2, &t)) == Ok(expected)
    })
}

/// `prop_DeletePost`: after deleting `k`, looking up `k'` finds nothing if `k == k'`, else what
/// it found before.
pub fn prop_delete_post(m: RbtMutant, t: &Tree, k: Key, k2: Key) -> Option<bool> {
    implies(is_rbt(t), || {
        let expected = if k == k2 { None } else { find(k2, t) };
        delete(m, k, t).map(|t| find(k2, &t)) == Ok(expected)
    })
}

/// `prop_InsertModel`: inserting agrees with `Data.List.insert` into the entries without `k`.
pub fn prop_insert_model(m: RbtMutant, t: &Tree, k: Key, v: Val) -> Option<bool> {
    implies(is_rbt(t), || {
        let mut expected = delete_key(k, to_list(t));
        let at = expected
            .iter()
            .position(|entry| (k, v) <= *entry)
            .unwrap_or(expected.len());
        expected.insert(at, (k, v));
        insert(m, k, v, t).map(|t| to_list(&t)) == Ok(expected)
    })
}

/// `prop_DeleteModel`: deleting agrees with removing `k`'s entries from the list.
pub fn prop_delete_model(m: RbtMutant, t: &Tree, k: Key) -> Option<bool> {
    implies(is_rbt(t), || {
        delete(m, k, t).map(|t| to_list(&t)) == Ok(delete_key(k, to_list(t)))
    })
}

/// `deleteKey`: the entries whose key is not `k`.
fn delete_key(k: Key, entries: Vec<(Key, Val)>) -> Vec<(Key, Val)> {
    entries.into_iter().filter(|(key, _)| *key != k).collect()
}

/// `prop_InsertInsert`: two insertions commute, unless the keys are equal, when the second wins.
pub fn prop_insert_insert(
    m: RbtMutant,
    t: &Tree,
    k: Key,
    k2: Key,
    v: Val,
    v2: Val,
) -> Option<bool> {
    implies(is_rbt(t), || {
        let left = insert(m, k2, v2, t).and_then(|t| insert(m, k, v, &t));
        let right = if k == k2 {
            insert(m, k, v, t)
        } else {
            insert(m, k, v, t).and_then(|t| insert(m, k2, v2, &t))
        };
        same_entries(&left, &right)
    })
}

/// `prop_InsertDelete`: inserting `k` after deleting `k'` is deleting `k'` after inserting `k`,
/// unless the keys are equal, when it is inserting `k`.
pub fn prop_insert_delete(m: RbtMutant, t: &Tree, k: Key, k2: Key, v: Val) -> Option<bool> {
    implies(is_rbt(t), || {
        let left = delete(m, k2, t).and_then(|t| insert(m, k, v, &t));
        let right = if k == k2 {
            insert(m, k, v, t)
        } else {
            insert(m, k, v, t).and_then(|t| delete(m, k2, &t))
        };
        same_entries(&left, &right)
    })
}

/// `prop_DeleteInsert`: deleting `k` after inserting `k'` is inserting `k'` after deleting `k`,
/// unless the keys are equal, when it is deleting `k`. (The Haskell's `v'` is `v` here.)
pub fn prop_delete_insert(m: RbtMutant, t: &Tree, k: Key, k2: Key, v: Val) -> Option<bool> {
    implies(is_rbt(t), || {
        let left = insert(m, k2, v, t).and_then(|t| delete(m, k, &t));
        let right = if k == k2 {
            delete(m, k, t)
        } else {
            delete(m, k, t).and_then(|t| insert(m, k2, v, &t))
        };
        same_entries(&left, &right)
    })
}

/// `prop_DeleteDelete`: two deletions commute.
pub fn prop_delete_delete(m: RbtMutant, t: &Tree, k: Key, k2: Key) -> Option<bool> {
    implies(is_rbt(t), || {
        let left = delete(m, k2, t).and_then(|t| delete(m, k, &t));
        let right = delete(m, k, t).and_then(|t| delete(m, k2, &t));
        same_entries(&left, &right)
    })
}

/// `=~=`: both operations succeeded, with the same entries.
fn same_entries(left: &Result<Tree, InvariantError>, right: &Result<Tree, InvariantError>) -> bool {
    match (left, right) {
        (Ok(l), Ok(r)) => to_list(l) == to_list(r),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Reflective generators.

/// The derived generator of inputs: `#[derive(Reflective)]` on [`RbtInput`], [`Tree`],
/// [`Color`], [`Key`] and [`Val`], as a user writes it first. Trees are mostly not valid; the
/// properties discard those.
pub fn derived_input() -> Gen<RbtInput, RbtInput> {
    any::<RbtInput>()
}

/// The bespoke generator of inputs: a valid tree from [`valid_rbt`], keys and values from their
/// derived generators (keys uniform in [`KEYS`]). Every input meets the precondition.
pub fn bespoke_input() -> Gen<RbtInput, RbtInput> {
    zip(
        zip(
            zip(
                zip(
                    valid_rbt().focus(RbtInput::lens_t),
                    any::<Key>().focus(RbtInput::lens_k),
                ),
                any::<Key>().focus(RbtInput::lens_k2),
            ),
            any::<Val>().focus(RbtInput::lens_v),
        ),
        any::<Val>().focus(RbtInput::lens_v2),
    )
    .map(|((((t, k), k2), v), v2)| RbtInput { t, k, k2, v, v2 })
    .boxed()
}

/// Valid red-black trees with keys in [`KEYS`]: a black height `bh` uniform in
/// `0..=max_black_height(size)`, then a tree of that black height whose every node is chosen
/// among the colours that can still make a valid tree, with keys uniform among those that leave
/// each subtree enough keys. Every tree it generates satisfies [`is_rbt`]; backward, the black
/// height is read off the tree's leftmost path and reflection accepts exactly the valid trees of
/// that black height with keys in range.
pub fn valid_rbt() -> Gen<Tree, Tree> {
    let family = VALID.with(Family::clone);
    sized(move |size| {
        let family = family.clone();
        range(0..=max_black_height(size))
            .comap(|t: &Tree| black_height(t))
            .bind(move |bh| family.at((*KEYS.start(), *KEYS.end(), bh, false)))
    })
    .boxed()
}

/// The largest black height [`valid_rbt`] generates at `size`: two thirds of `log2(size + 1)`
/// (1 from size 3, 2 from size 7, 4 from size 63), at most what [`KEYS`] has keys for.
pub fn max_black_height(size: usize) -> u32 {
    let keys = KEYS.end() - KEYS.start() + 1;
    let by_size = (size + 1).ilog2() * 2 / 3;
    (0..=by_size)
        .rev()
        .find(|&bh| min_keys(bh) <= keys)
        .unwrap_or(0)
}

/// The number of black nodes on the tree's leftmost path (the empty tree's is 0): its black
/// height, if it is valid.
pub fn black_height(t: &Tree) -> Option<u32> {
    let mut height = 0;
    let mut at = t;
    while let Tree::T(c, l, ..) = at {
        height += u32::from(*c == Color::B);
        at = l;
    }
    Some(height)
}

/// The fewest keys a valid tree of black height `bh` holds, `2^bh - 1` (all black).
pub fn min_keys(bh: u32) -> i64 {
    (1i64 << bh) - 1
}

/// What a member of the family of valid subtrees is for: keys in `lo..=hi`, black height (not
/// counting the empty trees), and whether its root may be red.
type Shape = (i64, i64, u32, bool);

thread_local! {
    /// The family of [`valid_subtree`] generators, built once per thread.
    static VALID: Family<Shape, Tree, Tree> = family(valid_subtree);
}

/// Valid subtrees of `shape`: the empty tree at black height 0; a black node whose subtrees
/// have one less black height and may have red roots; a red node (where allowed) whose
/// subtrees have the same black height and black roots. Each choice is offered only if the
/// keys left can fill it, with weight 1 each.
fn valid_subtree(
    family: &Family<Shape, Tree, Tree>,
    (lo, hi, bh, red_ok): Shape,
) -> impl Generator<Input = Tree, Output = Tree> + use<> {
    let keys = hi - lo + 1;
    let black_fits = bh > 0 && keys >= min_keys(bh);
    let red_fits = red_ok && keys > 2 * min_keys(bh);
    let below = bh.saturating_sub(1);
    pick((
        (u32::from(bh == 0), "E", exact(Tree::E)),
        (
            u32::from(black_fits),
            "B",
            coloured(family, Color::B, (lo, hi, below, true), black_fits),
        ),
        (
            u32::from(red_fits),
            "R",
            coloured(family, Color::R, (lo, hi, bh, false), red_fits),
        ),
    ))
}

/// A node of colour `c` with keys in `lo..=hi` and subtrees of the `children`'s black height
/// and red roots allowed or not; when it does not `fit`, a placeholder never picked (weight 0).
fn coloured(
    family: &Family<Shape, Tree, Tree>,
    c: Color,
    (lo, hi, bh, red_ok): Shape,
    fits: bool,
) -> impl Generator<Input = Tree, Output = Tree> + use<> {
    let margin = min_keys(bh);
    let (first, last) = if fits {
        (lo + margin, hi - margin)
    } else {
        (0, 0)
    };
    let family = family.clone();
    zip(
        exact(c).focus(Tree::t_0),
        range(first..=last)
            .focus(Key::lens_0)
            .map(Key)
            .focus(Tree::t_2),
    )
    .bind(move |(c, x)| {
        zip(
            zip(
                family.at((lo, x.0 - 1, bh, red_ok)).focus_box(Tree::t_1),
                any::<Val>().focus(Tree::t_3),
            ),
            family.at((x.0 + 1, hi, bh, red_ok)).focus_box(Tree::t_4),
        )
        .map(move |((l, v), r)| node(c, l, x, v, r))
    })
}

// ---------------------------------------------------------------------------------------------
// Pairs for the harness.

/// The pairs to run: ETNA's ([`RBT_TASKS`], 58 of them), or with `all` every bug with every
/// property (150).
pub fn pairs(all: bool) -> Vec<Pair<RbtInput>> {
    let listed = |m: RbtMutant, p: RbtProperty| {
        RBT_TASKS
            .iter()
            .any(|(mutant, properties)| *mutant == m && properties.contains(&p))
    };
    let mut pairs = Vec::new();
    for m in RbtMutant::BUGS {
        for p in RbtProperty::ALL {
            if all || listed(m, p) {
                pairs.push(pair(m, p));
            }
        }
    }
    pairs
}

/// The property `p` under the mutant `m`, for the harness.
pub fn pair(m: RbtMutant, p: RbtProperty) -> Pair<RbtInput> {
    Pair {
        mutant: m.name(),
        property: p.name(),
        check: Box::new(move |input| p.check(m, input)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RbtMutant as M;
    use RbtProperty as P;

    /// A black node with key `k`, valued `k` is even.
    fn b(l: Tree, k: i64, r: Tree) -> Tree {
        node(Color::B, l, Key(k), Val(k % 2 == 0), r)
    }

    /// A red node with key `k`, valued `k` is even.
    fn r(l: Tree, k: i64, r: Tree) -> Tree {
        node(Color::R, l, Key(k), Val(k % 2 == 0), r)
    }

    /// The leaf.
    fn e() -> Tree {
        Tree::E
    }

    /// The tree of the correct insertions of `keys`, in order.
    fn built(keys: impl IntoIterator<Item = i64>) -> Tree {
        keys.into_iter().fold(Tree::E, |t, k| {
            insert(M::None, Key(k), Val(k % 2 == 0), &t).expect("insert succeeds")
        })
    }

    /// A tree whose root's deletion joins two red subtrees into a red one, which
    /// `miscolor_join_1` alone needs.
    fn join_witness() -> Tree {
        let left = b(b(e(), 1, e()), 2, r(b(e(), 3, e()), 4, b(e(), 5, e())));
        let right = b(
            r(b(r(e(), 7, e()), 8, e()), 9, b(e(), 10, e())),
            11,
            b(e(), 12, e()),
        );
        b(left, 6, right)
    }

    /// Valid trees, built by hand and by insertion.
    fn hand_built() -> Vec<Tree> {
        vec![
            e(),
            b(e(), 5, e()),
            b(r(e(), 2, e()), 5, e()),
            b(r(e(), 2, e()), 5, r(e(), 8, e())),
            built(1..=5),
            built(1..=10),
            built((6..=10).rev()),
            built([5, 3, 8, 1, 4]),
            built([5, 3, 8, 1, 4, 7, 9, 2, 6]),
            join_witness(),
        ]
    }

    /// Every input over the hand-built trees with keys in `0..=12`.
    fn inputs() -> Vec<RbtInput> {
        let mut inputs = Vec::new();
        for t in hand_built() {
            for k in 0..=12 {
                for k2 in [0, 5, 6, k] {
                    for v in [false, true] {
                        let (k, k2, v, v2) = (Key(k), Key(k2), Val(v), Val(!v));
                        inputs.push(RbtInput {
                            t: t.clone(),
                            k,
                            k2,
                            v,
                            v2,
                        });
                    }
                }
            }
        }
        inputs
    }

    #[test]
    fn the_hand_built_trees_are_valid_and_broken_ones_are_not() {
        for t in hand_built() {
            assert!(is_rbt(&t), "{t}");
        }
        assert_eq!(
            built(1..=5),
            b(b(e(), 1, e()), 2, r(b(e(), 3, e()), 4, b(e(), 5, e())))
        );
        let broken = [
            r(e(), 5, e()),                       // a red root
            b(r(r(e(), 1, e()), 2, e()), 5, e()), // a red node under a red node
            b(b(e(), 2, e()), 5, e()),            // black heights 2 and 1
            b(r(e(), 6, e()), 5, e()),            // not a search tree
            b(r(e(), 5, e()), 5, e()),            // a repeated key
        ];
        for t in broken {
            assert!(!is_rbt(&t), "{t}");
        }
    }

    #[test]
    fn every_property_holds_for_the_correct_implementation() {
        for input in inputs() {
            for p in P::ALL {
                assert_eq!(
                    p.check(M::None, &input),
                    Some(true),
                    "{} {input:?}",
                    p.name()
                );
            }
        }
    }

    #[test]
    fn invalid_trees_are_discarded() {
        let input = RbtInput {
            t: r(e(), 5, e()),
            k: Key(1),
            k2: Key(2),
            v: Val(true),
            v2: Val(false),
        };
        for m in [M::None, M::SwapCd] {
            for p in P::ALL {
                assert_eq!(p.check(m, &input), None, "{}", p.name());
            }
        }
    }

    #[test]
    fn each_mutant_fails_a_property_on_its_hand_built_witness() {
        let witnesses = [
            (
                M::MiscolorInsert,
                P::InsertValid,
                b(e(), 5, e()),
                0,
                0,
                false,
            ),
            (M::Insert1, P::InsertPost, b(e(), 5, e()), 0, 5, false),
            (M::Insert2, P::InsertPost, b(e(), 5, e()), 6, 5, true),
            (M::Insert3, P::InsertPost, b(e(), 5, e()), 5, 5, true),
            (
                M::NoBalanceInsert1,
                P::InsertValid,
                b(r(e(), 2, e()), 5, e()),
                0,
                0,
                false,
            ),
            (
                M::NoBalanceInsert2,
                P::InsertValid,
                b(e(), 5, e()),
                6,
                0,
                false,
            ),
            (
                M::MiscolorDelete,
                P::DeleteValid,
                b(e(), 5, e()),
                0,
                0,
                false,
            ),
            (M::Delete4, P::DeletePost, b(e(), 5, e()), 0, 5, false),
            (
                M::Delete5,
                P::DeletePost,
                b(r(e(), 2, e()), 5, e()),
                2,
                2,
                false,
            ),
            (
                M::MiscolorBalLeft,
                P::DeleteValid,
                built(1..=5),
                1,
                0,
                false,
            ),
            (
                M::MiscolorBalRight,
                P::DeleteValid,
                built((6..=10).rev()),
                10,
                0,
                false,
            ),
            (
                M::MiscolorJoin1,
                P::DeleteValid,
                join_witness(),
                6,
                0,
                false,
            ),
            (
                M::MiscolorJoin2,
                P::DeleteValid,
                built([5, 3, 8, 1, 4]),
                3,
                0,
                false,
            ),
            (
                M::SwapCd,
                P::InsertValid,
                b(r(e(), 2, e()), 5, r(e(), 8, e())),
                0,
                0,
                false,
            ),
            (M::SwapBc, P::InsertDelete, built(1..=7), 4, 4, false),
        ];
        assert!(witnesses.iter().map(|w| w.0).eq(M::BUGS));
        for (m, p, t, k, k2, v) in witnesses {
            let input = RbtInput {
                t,
                k: Key(k),
                k2: Key(k2),
                v: Val(v),
                v2: Val(!v),
            };
            assert_eq!(p.check(m, &input), Some(false), "{} {}", m.name(), p.name());
            assert_eq!(p.check(M::None, &input), Some(true), "{}", p.name());
            let listed = RBT_TASKS.iter().any(|(lm, ps)| *lm == m && ps.contains(&p));
            assert!(listed, "{} {} is one of ETNA's pairs", m.name(), p.name());
        }
    }

    #[test]
    fn etna_lists_58_pairs_of_the_150() {
        assert_eq!(pairs(false).len(), 58);
        assert_eq!(pairs(true).len(), 150);
        assert!(RBT_TASKS.iter().map(|(m, _)| *m).eq(M::BUGS));
    }

    #[test]
    fn bespoke_trees_are_valid_with_keys_in_range_and_reflect() {
        let g = valid_rbt();
        let mut rng = DefaultRng::seed_from_u64(11);
        let mut deepest = 0;
        for case in 0..2_000 {
            let generated = g.generate(&mut rng, case % 101);
            let t = &generated.value;
            assert!(is_rbt(t), "{t}");
            assert!(to_list(t).iter().all(|(k, _)| KEYS.contains(&k.0)), "{t}");
            assert!(g.can_generate(t), "{t}");
            assert_eq!(g.replay(&generated.tree).as_ref(), Some(t));
            deepest = deepest.max(black_height(t).unwrap_or(0));
        }
        assert_eq!(deepest, max_black_height(100));
        for t in hand_built() {
            assert!(g.can_generate(&t), "{t}");
        }
        assert!(!g.can_generate(&b(b(e(), 2, e()), 5, e())));
        assert!(!g.can_generate(&r(e(), 5, e())));
        assert!(!g.can_generate(&b(e(), 21, e())));
    }

    #[test]
    fn both_input_generators_reflect_their_inputs() {
        let mut rng = DefaultRng::seed_from_u64(12);
        for g in [derived_input(), bespoke_input()] {
            for case in 0..300 {
                let input = g.generate_value(&mut rng, case % 101);
                assert!(g.can_generate(&input), "{input:?}");
            }
        }
        for t in hand_built() {
            let input = RbtInput {
                t,
                k: Key(3),
                k2: Key(-20),
                v: Val(true),
                v2: Val(false),
            };
            assert!(derived_input().can_generate(&input), "{input:?}");
        }
    }
}
