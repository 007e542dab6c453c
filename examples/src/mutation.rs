//! The workloads and measurements of the `mutate` example: the library's mutation
//! ([`Generator::mutator`]) against mutating values by hand and keeping the valid ones, and
//! against generating unconstrained values and keeping the valid ones.
//!
//! A [`Workload`] is a generator of valid values with the predicate that says what valid
//! means, checked directly ([`Workload::valid`]): binary search trees ([`bst_workload`], the
//! paper's generator), AVL trees ([`avl_workload`]) and well-typed terms of the simply typed
//! lambda calculus ([`stlc_workload`]). Each comes with hand-written fixtures, a naive
//! mutator that edits a value's structure without the generator ([`Workload::naive`]), and an
//! unconstrained generator written directly over `rand` ([`Workload::unconstrained`]).
//!
//! Distances ([`distance`]) count the nodes that differ between two values: each value is the
//! set of its nodes, a node being its path from the root (which child at each step) and its
//! label (a tree's key; a term's constructor with its literal, index or annotation), and the
//! distance is the size of the symmetric difference of the two sets. A key changed in place
//! counts 2 (one node gone, one new); a subtree of `n` nodes replaced by a leaf counts `n`;
//! a subtree moved one level counts all its nodes twice.
//!
//! [`planted`] holds the deletion bug the example hunts for with both strategies.

use std::collections::HashSet;
use std::hash::Hash;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use rand::RngExt;
use reflective::mutate::Edit;
use reflective::prelude::*;

use crate::avl::{self, Avl};
use crate::bst::{self, Tree};
use crate::stlc::{self, Expr, Type, type_of};

/// The keys of the tree workloads' trees.
pub const KEYS: RangeInclusive<i64> = 0..=100;

/// The greatest height of the AVL workload's trees.
pub const AVL_MAX_HEIGHT: usize = 6;

/// A node of a value, for [`distance`]: its path from the root (the child taken at each step)
/// and its label.
pub type LabelledNode = (Vec<u8>, String);

/// A generator of valid values, what valid means, and the means of the comparisons.
pub struct Workload<T> {
    /// The workload's name in the tables.
    pub name: &'static str,
    /// The reflective generator of valid values: the one mutated.
    pub generator: Gen<T, T>,
    /// Whether a value is valid, checked directly, without any generator.
    pub valid: fn(&T) -> bool,
    /// A naive mutant of a value: one structural edit made without the generator (one that
    /// changes the value, where the mutator finds one), and the edit's name. It may be
    /// invalid.
    pub naive: fn(&T, &mut DefaultRng) -> (T, &'static str),
    /// A value from a simple generator that ignores the invariant (written over `rand`).
    pub unconstrained: fn(&mut DefaultRng) -> T,
    /// The value's nodes, for [`distance`] (their number is the value's size).
    pub nodes: fn(&T) -> Vec<LabelledNode>,
    /// Valid values written by hand.
    pub fixtures: Vec<T>,
}

impl<T> std::fmt::Debug for Workload<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workload")
            .field("name", &self.name)
            .field("fixtures", &self.fixtures.len())
            .finish_non_exhaustive()
    }
}

impl<T: Clone> Workload<T> {
    /// The first `count` values the generator gives for the seeds 0, 1, ... that have at
    /// least `min_nodes` nodes.
    pub fn generated_seeds(&self, count: usize, min_nodes: usize) -> Vec<T> {
        (0..)
            .map(|seed| self.generator.sample(seed))
            .filter(|value| (self.nodes)(value).len() >= min_nodes)
            .take(count)
            .collect()
    }

    /// The number of nodes of `value`.
    pub fn size(&self, value: &T) -> usize {
        (self.nodes)(value).len()
    }
}

// ----- Measurements -----

/// `run` repeated `repetitions` times (at least once): the last result and the median time.
pub fn timed<R>(repetitions: usize, mut run: impl FnMut() -> R) -> (R, Duration) {
    let mut times = Vec::new();
    let mut result = None;
    for _ in 0..repetitions.max(1) {
        let start = Instant::now();
        let value = run();
        times.push(start.elapsed());
        result = Some(value);
    }
    (
        result.expect("at least one repetition"),
        crate::measure::median(&times),
    )
}

/// How much a strategy makes: a number of values, or as many as it makes in a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many values.
    Values(usize),
    /// As many values as it makes in this time (checked every [`Budget::CLOCK_EVERY`] values).
    Time(Duration),
}

impl Budget {
    /// Every how many values a time budget reads the clock.
    pub const CLOCK_EVERY: usize = 64;

    /// Whether `made` values, made since `start`, spend the budget.
    fn spent(self, made: usize, start: Instant) -> bool {
        match self {
            Budget::Values(total) => made >= total,
            Budget::Time(limit) => {
                made.is_multiple_of(Self::CLOCK_EVERY) && start.elapsed() >= limit
            }
        }
    }
}

/// Mutants of `seeds` by the library's mutator until `budget` is spent, taken in turn from
/// each seed's [`mutants`](reflective::mutate::Mutator::mutants) iterator (seeded with `seed`
/// and the seed's index), with the index of the seed each came from. Fewer if every iterator
/// ends first. Reflecting each seed is part of the work. Each mutant is kept as its value and
/// edit, as the naive side keeps its values: its choice tree, which no measurement reads, is
/// dropped as the stream hands it out.
///
/// # Panics
///
/// If the generator cannot reflect a seed.
pub fn reflective_mutants<T>(
    generator: &Gen<T, T>,
    seeds: &[T],
    budget: Budget,
    seed: u64,
) -> Vec<ReflectiveMutant<T>> {
    let start = Instant::now();
    let mutator = generator.mutator();
    let mut streams: Vec<_> = seeds
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let stream = mutator
                .mutants(value, seed.wrapping_add(index as u64))
                .unwrap_or_else(|error| panic!("seed {index}: {error}"));
            Some(stream)
        })
        .collect();
    let mut out = Vec::new();
    'made: while streams.iter().any(Option::is_some) {
        for (index, slot) in streams.iter_mut().enumerate() {
            if budget.spent(out.len(), start) {
                break 'made;
            }
            match slot.as_mut().and_then(Iterator::next) {
                Some(mutant) => out.push(ReflectiveMutant {
                    seed: index,
                    value: mutant.value,
                    edit: mutant.edit,
                }),
                None => *slot = None,
            }
        }
    }
    out
}

/// A reflective mutant as the measurements keep it: the index of its seed, the value, and the
/// edit that made it.
#[derive(Clone, Debug)]
pub struct ReflectiveMutant<T> {
    /// The index of the seed it came from.
    pub seed: usize,
    /// The mutant.
    pub value: T,
    /// The edit that made it.
    pub edit: Edit,
}

/// A naive mutant: the value, the index of its seed, the edit that made it, and whether it
/// is valid.
#[derive(Clone, Debug)]
pub struct NaiveMutant<T> {
    /// The index of the seed it came from.
    pub seed: usize,
    /// The mutant.
    pub value: T,
    /// The naive edit that made it.
    pub edit: &'static str,
    /// Whether [`Workload::valid`] holds for it.
    pub valid: bool,
}

/// Naive mutants of `seeds` until `budget` is spent, one edit each, taken from each seed in
/// turn, with the workload's validity check made on each (the filter is part of the work).
pub fn naive_mutants<T>(
    workload: &Workload<T>,
    seeds: &[T],
    budget: Budget,
    seed: u64,
) -> Vec<NaiveMutant<T>> {
    let start = Instant::now();
    let mut rng = DefaultRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while !budget.spent(out.len(), start) {
        let index = out.len() % seeds.len();
        let (value, edit) = (workload.naive)(&seeds[index], &mut rng);
        let valid = (workload.valid)(&value);
        out.push(NaiveMutant {
            seed: index,
            value,
            edit,
            valid,
        });
    }
    out
}

/// The valid values among `attempts` unconstrained ones.
pub fn generate_and_filter<T>(workload: &Workload<T>, attempts: usize, seed: u64) -> Vec<T> {
    let mut rng = DefaultRng::seed_from_u64(seed);
    (0..attempts)
        .map(|_| (workload.unconstrained)(&mut rng))
        .filter(|value| (workload.valid)(value))
        .collect()
}

/// How many distinct values there are among `values`, none of `excluded` counted.
pub fn distinct<'v, T: Eq + Hash + 'v>(
    values: impl IntoIterator<Item = &'v T>,
    excluded: &[T],
) -> usize {
    let excluded: HashSet<&T> = excluded.iter().collect();
    values
        .into_iter()
        .filter(|value| !excluded.contains(value))
        .collect::<HashSet<&T>>()
        .len()
}

/// The number of nodes that differ between `a` and `b`: the size of the symmetric difference
/// of their sets of (path, label) nodes (see the module's docs).
pub fn distance<T>(workload: &Workload<T>, a: &T, b: &T) -> usize {
    let a: HashSet<LabelledNode> = (workload.nodes)(a).into_iter().collect();
    let b: HashSet<LabelledNode> = (workload.nodes)(b).into_iter().collect();
    a.symmetric_difference(&b).count()
}

/// Whether `a` and `b` have the same root node (the same key, or the same constructor with
/// the same payload); two leaves do.
pub fn same_root<T>(workload: &Workload<T>, a: &T, b: &T) -> bool {
    let root = |value: &T| {
        (workload.nodes)(value)
            .into_iter()
            .find(|(path, _)| path.is_empty())
    };
    root(a) == root(b)
}

/// The median of `values` (the upper middle one for an even count); 0 for none.
pub fn median(values: &[usize]) -> usize {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied().unwrap_or(0)
}

// ----- Binary trees -----

/// What the naive tree mutator needs of a tree type: [`Tree`] and [`Avl`] have the same shape.
trait Binary: Clone + Sized {
    fn leaf() -> Self;
    fn node(left: Self, key: i64, right: Self) -> Self;
    fn parts(&self) -> Option<(&Self, i64, &Self)>;
    fn parts_mut(&mut self) -> Option<(&mut Self, &mut i64, &mut Self)>;
}

impl Binary for Tree {
    fn leaf() -> Self {
        Tree::Leaf
    }
    fn node(left: Self, key: i64, right: Self) -> Self {
        bst::node(left, key, right)
    }
    fn parts(&self) -> Option<(&Self, i64, &Self)> {
        match self {
            Tree::Leaf => None,
            Tree::Node(left, key, right) => Some((left, *key, right)),
        }
    }
    fn parts_mut(&mut self) -> Option<(&mut Self, &mut i64, &mut Self)> {
        match self {
            Tree::Leaf => None,
            Tree::Node(left, key, right) => Some((left, key, right)),
        }
    }
}

impl Binary for Avl {
    fn leaf() -> Self {
        Avl::Leaf
    }
    fn node(left: Self, key: i64, right: Self) -> Self {
        avl::node(left, key, right)
    }
    fn parts(&self) -> Option<(&Self, i64, &Self)> {
        match self {
            Avl::Leaf => None,
            Avl::Node(left, key, right) => Some((left, *key, right)),
        }
    }
    fn parts_mut(&mut self) -> Option<(&mut Self, &mut i64, &mut Self)> {
        match self {
            Avl::Leaf => None,
            Avl::Node(left, key, right) => Some((left, key, right)),
        }
    }
}

/// The positions of a tree, in preorder: every subtree, leaves included, as its path (0 for
/// left, 1 for right), with whether it is a node.
fn tree_positions<B: Binary>(tree: &B) -> Vec<(Vec<u8>, bool)> {
    let mut out = Vec::new();
    let mut pending = vec![(tree, Vec::new())];
    while let Some((at, path)) = pending.pop() {
        match at.parts() {
            None => out.push((path, false)),
            Some((left, _, right)) => {
                let mut to_right = path.clone();
                to_right.push(1);
                pending.push((right, to_right));
                let mut to_left = path.clone();
                to_left.push(0);
                pending.push((left, to_left));
                out.push((path, true));
            }
        }
    }
    out
}

/// The subtree at `path`.
fn subtree_mut<'t, B: Binary>(tree: &'t mut B, path: &[u8]) -> &'t mut B {
    let mut at = tree;
    for &step in path {
        let (left, _, right) = at.parts_mut().expect("a path through nodes");
        at = if step == 0 { left } else { right };
    }
    at
}

/// Whether neither path leads into the other's subtree.
fn disjoint(a: &[u8], b: &[u8]) -> bool {
    !a.starts_with(b) && !b.starts_with(a)
}

/// A key from [`KEYS`].
fn random_key(rng: &mut DefaultRng) -> i64 {
    rng.random_range(KEYS)
}

/// A tree that ignores every invariant: a leaf with probability 1/6 (as [`bst::bst`]) or at
/// depth 0, else a node with a key from [`KEYS`] and two such subtrees of depth `depth - 1`.
fn random_binary<B: Binary>(rng: &mut DefaultRng, depth: usize) -> B {
    if depth == 0 || rng.random_range(0..6u32) == 0 {
        return B::leaf();
    }
    let key = random_key(rng);
    let left = random_binary(rng, depth - 1);
    let right = random_binary(rng, depth - 1);
    B::node(left, key, right)
}

/// The depth the unconstrained tree generator starts at.
const UNCONSTRAINED_TREE_DEPTH: usize = 7;

/// The depth of the random subtrees the naive mutator puts in.
const SMALL_DEPTH: usize = 2;

/// How many edits a naive mutator draws, at most, to find one that changes the value.
const NAIVE_TRIES: usize = 16;

/// One naive edit of a tree that changes it (the last one drawn if none of
/// [`NAIVE_TRIES`] does): see [`naive_tree_edit`].
fn naive_tree<B: Binary + PartialEq>(tree: &B, rng: &mut DefaultRng) -> (B, &'static str) {
    let mut edited = naive_tree_edit(tree, rng);
    for _ in 1..NAIVE_TRIES {
        if edited.0 != *tree {
            break;
        }
        edited = naive_tree_edit(tree, rng);
    }
    edited
}

/// One naive edit of a tree, drawn uniformly among five: a key set to a random key; a node's
/// subtree replaced by a leaf; any subtree replaced by a random small tree; two disjoint
/// subtrees swapped; a leaf replaced by a node with a random key. An edit with nothing to
/// work on (a leaf has no key) replaces the whole tree by a random small one.
fn naive_tree_edit<B: Binary>(tree: &B, rng: &mut DefaultRng) -> (B, &'static str) {
    let mut out = tree.clone();
    let positions = tree_positions(tree);
    let nodes: Vec<&Vec<u8>> = positions
        .iter()
        .filter(|(_, node)| *node)
        .map(|(path, _)| path)
        .collect();
    let leaves: Vec<&Vec<u8>> = positions
        .iter()
        .filter(|(_, node)| !*node)
        .map(|(path, _)| path)
        .collect();
    let any = |rng: &mut DefaultRng| &positions[rng.random_range(0..positions.len())].0;
    match rng.random_range(0..5u32) {
        0 if !nodes.is_empty() => {
            let path = nodes[rng.random_range(0..nodes.len())];
            let (_, key, _) = subtree_mut(&mut out, path).parts_mut().expect("a node");
            *key = random_key(rng);
            (out, "set a key")
        }
        1 if !nodes.is_empty() => {
            let path = nodes[rng.random_range(0..nodes.len())];
            *subtree_mut(&mut out, path) = B::leaf();
            (out, "subtree to leaf")
        }
        3 => {
            for _ in 0..8 {
                let (a, b) = (any(rng), any(rng));
                if disjoint(a, b) {
                    let first = subtree_mut(&mut out, a).clone();
                    let second = std::mem::replace(subtree_mut(&mut out, b), first);
                    *subtree_mut(&mut out, a) = second;
                    return (out, "swap subtrees");
                }
            }
            (random_binary(rng, SMALL_DEPTH), "random small tree")
        }
        4 => {
            let path = leaves[rng.random_range(0..leaves.len())];
            let key = random_key(rng);
            *subtree_mut(&mut out, path) = B::node(B::leaf(), key, B::leaf());
            (out, "insert leaf")
        }
        _ => {
            let path = any(rng).clone();
            *subtree_mut(&mut out, &path) = random_binary(rng, SMALL_DEPTH);
            (out, "random small tree")
        }
    }
}

/// A tree's nodes, for [`distance`]: each node's path and key.
fn tree_nodes<B: Binary>(tree: &B) -> Vec<LabelledNode> {
    let mut out = Vec::new();
    let mut pending = vec![(tree, Vec::new())];
    while let Some((at, path)) = pending.pop() {
        if let Some((left, key, right)) = at.parts() {
            let mut to_left = path.clone();
            to_left.push(0);
            let mut to_right = path.clone();
            to_right.push(1);
            pending.push((left, to_left));
            pending.push((right, to_right));
            out.push((path, key.to_string()));
        }
    }
    out
}

/// Whether all keys of a tree lie in [`KEYS`].
fn keys_in_range(keys: &[i64]) -> bool {
    keys.iter().all(|key| KEYS.contains(key))
}

/// A binary search tree with keys in [`KEYS`]: what `bst::bst(0, 100)` generates.
pub fn valid_bst(tree: &Tree) -> bool {
    tree.is_bst() && keys_in_range(&tree.keys())
}

/// An AVL tree with keys in [`KEYS`] (of any height).
pub fn valid_avl(tree: &Avl) -> bool {
    tree.is_avl() && keys_in_range(&tree.keys())
}

/// Binary search trees: the paper's generator, `bst::bst(0, 100)`.
pub fn bst_workload() -> Workload<Tree> {
    use bst::node;
    let leaf = || Tree::Leaf;
    let single = |key| node(Tree::Leaf, key, Tree::Leaf);
    Workload {
        name: "BST",
        generator: bst::bst(*KEYS.start(), *KEYS.end()),
        valid: valid_bst,
        naive: naive_tree::<Tree>,
        unconstrained: |rng| random_binary(rng, UNCONSTRAINED_TREE_DEPTH),
        nodes: tree_nodes::<Tree>,
        fixtures: vec![
            bst::balanced(1, 15),
            bst::right_spine(40, 47),
            node(
                node(single(3), 10, node(single(12), 17, leaf())),
                50,
                node(node(leaf(), 60, single(65)), 75, single(99)),
            ),
            node(
                node(node(single(0), 1, leaf()), 5, single(7)),
                20,
                node(single(21), 90, node(leaf(), 95, single(100))),
            ),
        ],
    }
}

/// AVL trees: `avl::avl(0, 100, AVL_MAX_HEIGHT)`.
pub fn avl_workload() -> Workload<Avl> {
    use avl::node;
    let leaf = || Avl::Leaf;
    let single = |key| node(Avl::Leaf, key, Avl::Leaf);
    Workload {
        name: "AVL",
        generator: avl::avl(*KEYS.start(), *KEYS.end(), AVL_MAX_HEIGHT),
        valid: valid_avl,
        naive: naive_tree::<Avl>,
        unconstrained: |rng| random_binary(rng, UNCONSTRAINED_TREE_DEPTH),
        nodes: tree_nodes::<Avl>,
        fixtures: vec![
            Avl::from_keys(1..=15),
            Avl::from_keys([50, 20, 80, 10, 30, 70, 90, 25, 35, 5, 95, 60]),
            node(
                node(single(3), 10, node(single(12), 17, leaf())),
                50,
                node(node(leaf(), 60, single(65)), 75, single(99)),
            ),
            node(
                node(node(single(0), 1, leaf()), 5, single(7)),
                20,
                node(single(21), 90, node(leaf(), 95, single(100))),
            ),
        ],
    }
}

// ----- Terms -----

/// The children of a term, in order.
fn children(term: &Expr) -> Vec<&Expr> {
    match term {
        Expr::Lit(_) | Expr::Var(_) => Vec::new(),
        Expr::Lam(_, body) => vec![body],
        Expr::Plus(a, b) | Expr::App(a, b) => vec![a, b],
    }
}

/// The `step`-th child of a term.
fn child_mut(term: &mut Expr, step: u8) -> &mut Expr {
    match (term, step) {
        (Expr::Lam(_, body), 0) | (Expr::Plus(body, _) | Expr::App(body, _), 0) => body,
        (Expr::Plus(_, b) | Expr::App(_, b), 1) => b,
        _ => panic!("no child {step}"),
    }
}

/// The subterm at `path`.
fn subterm_mut<'t>(term: &'t mut Expr, path: &[u8]) -> &'t mut Expr {
    path.iter().fold(term, |at, &step| child_mut(at, step))
}

/// A term's subterms, itself included, each with its path (the child taken at each step).
fn subterms(term: &Expr) -> Vec<(&Expr, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pending = vec![(term, Vec::new())];
    while let Some((at, path)) = pending.pop() {
        for (step, child) in children(at).into_iter().enumerate() {
            let mut to_child = path.clone();
            to_child.push(step as u8);
            pending.push((child, to_child));
        }
        out.push((at, path));
    }
    out
}

/// A term's nodes, for [`distance`]: each subterm's path and its constructor with its
/// literal, de Bruijn index or annotation.
fn term_nodes(term: &Expr) -> Vec<LabelledNode> {
    let label = |at: &Expr| match at {
        Expr::Lit(n) => format!("Lit {n}"),
        Expr::Var(i) => format!("Var {i}"),
        Expr::Lam(ty, _) => format!("Lam {ty}"),
        Expr::Plus(..) => "Plus".to_string(),
        Expr::App(..) => "App".to_string(),
    };
    subterms(term)
        .into_iter()
        .map(|(at, path)| (path, label(at)))
        .collect()
}

/// A type of at most `depth` arrows deep: `Int` half the time.
fn random_type(rng: &mut DefaultRng, depth: usize) -> Type {
    if depth == 0 || rng.random_range(0..2u32) == 0 {
        return Type::Int;
    }
    Type::fun(random_type(rng, depth - 1), random_type(rng, depth - 1))
}

/// A term that ignores types: at depth 0 a literal or a variable (index 0 to 2), otherwise
/// any of the five constructors, each as likely, with subterms of depth `depth - 1`.
fn random_term(rng: &mut DefaultRng, depth: usize) -> Expr {
    let constructors = if depth == 0 { 2 } else { 5 };
    match rng.random_range(0..constructors) {
        0 => Expr::Lit(rng.random()),
        1 => Expr::Var(rng.random_range(0..3)),
        2 => Expr::plus(random_term(rng, depth - 1), random_term(rng, depth - 1)),
        3 => Expr::lam(random_type(rng, 2), random_term(rng, depth - 1)),
        _ => Expr::app(random_term(rng, depth - 1), random_term(rng, depth - 1)),
    }
}

/// The depth the unconstrained term generator starts at.
const UNCONSTRAINED_TERM_DEPTH: usize = 4;

/// One naive edit of a term that changes it (the last one drawn if none of [`NAIVE_TRIES`]
/// does): see [`naive_term_edit`].
fn naive_term(term: &Expr, rng: &mut DefaultRng) -> (Expr, &'static str) {
    let mut edited = naive_term_edit(term, rng);
    for _ in 1..NAIVE_TRIES {
        if edited.0 != *term {
            break;
        }
        edited = naive_term_edit(term, rng);
    }
    edited
}

/// One naive edit of a term, drawn uniformly among four: a subterm replaced by a random
/// literal, by a random variable (index 0 to 2), or by a random small term; two disjoint
/// subterms swapped.
fn naive_term_edit(term: &Expr, rng: &mut DefaultRng) -> (Expr, &'static str) {
    let paths: Vec<Vec<u8>> = subterms(term).into_iter().map(|(_, path)| path).collect();
    let any = |rng: &mut DefaultRng| paths[rng.random_range(0..paths.len())].clone();
    let mut out = term.clone();
    match rng.random_range(0..4u32) {
        0 => {
            *subterm_mut(&mut out, &any(rng)) = Expr::Lit(rng.random());
            (out, "literal")
        }
        1 => {
            *subterm_mut(&mut out, &any(rng)) = Expr::Var(rng.random_range(0..3));
            (out, "variable")
        }
        2 => {
            *subterm_mut(&mut out, &any(rng)) = random_term(rng, SMALL_DEPTH);
            (out, "random small term")
        }
        _ => {
            for _ in 0..8 {
                let (a, b) = (any(rng), any(rng));
                if disjoint(&a, &b) {
                    let first = subterm_mut(&mut out, &a).clone();
                    let second = std::mem::replace(subterm_mut(&mut out, &b), first);
                    *subterm_mut(&mut out, &a) = second;
                    return (out, "swap subterms");
                }
            }
            *subterm_mut(&mut out, &any(rng)) = random_term(rng, SMALL_DEPTH);
            (out, "random small term")
        }
    }
}

/// A closed, well-typed term.
pub fn valid_term(term: &Expr) -> bool {
    type_of(&[], term).is_some()
}

/// Well-typed closed terms: `stlc::well_typed()`.
pub fn stlc_workload() -> Workload<Expr> {
    let (lit, var) = (Expr::Lit, Expr::Var);
    let int = || Type::Int;
    let int_to_int = || Type::fun(Type::Int, Type::Int);
    Workload {
        name: "STLC",
        generator: stlc::well_typed(),
        valid: valid_term,
        naive: naive_term,
        unconstrained: |rng| random_term(rng, UNCONSTRAINED_TERM_DEPTH),
        nodes: term_nodes,
        fixtures: vec![
            // (λx:Int. x + 1) (40 + 1)
            Expr::app(
                Expr::lam(int(), Expr::plus(var(0), lit(1))),
                Expr::plus(lit(40), lit(1)),
            ),
            // λf:Int->Int. λx:Int. f (f x)
            Expr::lam(
                int_to_int(),
                Expr::lam(int(), Expr::app(var(1), Expr::app(var(1), var(0)))),
            ),
            // (λf:Int->Int. f 3) (λx:Int. x + x)
            Expr::app(
                Expr::lam(int_to_int(), Expr::app(var(0), lit(3))),
                Expr::lam(int(), Expr::plus(var(0), var(0))),
            ),
            // λx:Int. λy:Int. (x + y) + 7
            Expr::lam(
                int(),
                Expr::lam(int(), Expr::plus(Expr::plus(var(1), var(0)), lit(7))),
            ),
        ],
    }
}

// ----- The planted bug -----

pub mod planted {
    //! A deletion from binary search trees with a planted bug, and the hunt for it by
    //! mutating a fixture and by plain generation.
    //!
    //! [`delete`] removes a key as textbooks do: a node with two children takes the greatest
    //! key of its left subtree (its in-order predecessor), removed from there by
    //! [`remove_max`]. [`delete_buggy`] deletes the root apart, as trees whose root has no
    //! parent to relink often do, and that path takes the predecessor with
    //! [`remove_max_buggy`], which "saves a recursive call" by looking one level ahead: when
    //! the right child is the maximum, it unlinks it, and forgets the maximum's own left
    //! subtree. So [`delete_buggy`] goes wrong only when the deleted key is the root's, the
    //! root has two children, its left child has a right child, and the predecessor (the
    //! rightmost node below) has a left child: those keys vanish from the tree. A generated
    //! case (a tree of about 29 nodes and a key from `0..=100`) has that shape about once in
    //! 400; most mutants of a fixture that deletes its root keep the root and the key. The bug
    //! is planted there to show such a bug: a first version, which lost the subtree whatever
    //! key was deleted, fired in 1 generated case in 60, and generation found it within 100
    //! cases about as often as mutation did (18 of 20 runs against 19).

    use reflective::prelude::*;

    use crate::bst::{Tree, bst, node};

    /// A test case: a tree and the key to delete from it.
    pub type Case = (Tree, i64);

    /// Removes the greatest key of a node: the key and the tree without it.
    ///
    /// # Panics
    ///
    /// On a leaf.
    pub fn remove_max(tree: &Tree) -> (i64, Tree) {
        match tree {
            Tree::Leaf => panic!("remove_max of a leaf"),
            Tree::Node(left, key, right) => match &**right {
                Tree::Leaf => (*key, (**left).clone()),
                _ => {
                    let (max, rest) = remove_max(right);
                    (max, node((**left).clone(), *key, rest))
                }
            },
        }
    }

    /// [`remove_max`] with the planted bug: when the right child is the maximum (it has no
    /// right child), it is unlinked directly, and its left subtree is lost.
    ///
    /// # Panics
    ///
    /// On a leaf.
    pub fn remove_max_buggy(tree: &Tree) -> (i64, Tree) {
        match tree {
            Tree::Leaf => panic!("remove_max of a leaf"),
            Tree::Node(left, key, right) => match &**right {
                Tree::Leaf => (*key, (**left).clone()),
                // The bug: should be `node(left, key, right's left)`.
                Tree::Node(_, max, next) if **next == Tree::Leaf => {
                    (*max, node((**left).clone(), *key, Tree::Leaf))
                }
                _ => {
                    let (max, rest) = remove_max_buggy(right);
                    (max, node((**left).clone(), *key, rest))
                }
            },
        }
    }

    /// `tree` without `key`, removed by `remove_max` for a node with two children.
    fn delete_with(tree: &Tree, key: i64, remove_max: fn(&Tree) -> (i64, Tree)) -> Tree {
        match tree {
            Tree::Leaf => Tree::Leaf,
            Tree::Node(left, x, right) if key < *x => {
                node(delete_with(left, key, remove_max), *x, (**right).clone())
            }
            Tree::Node(left, x, right) if key > *x => {
                node((**left).clone(), *x, delete_with(right, key, remove_max))
            }
            Tree::Node(left, _, right) => match (&**left, &**right) {
                (Tree::Leaf, _) => (**right).clone(),
                (_, Tree::Leaf) => (**left).clone(),
                _ => {
                    let (max, rest) = remove_max(left);
                    node(rest, max, (**right).clone())
                }
            },
        }
    }

    /// `tree` without `key` (the tree itself if `key` is not in it).
    pub fn delete(tree: &Tree, key: i64) -> Tree {
        delete_with(tree, key, remove_max)
    }

    /// [`delete`] with the planted bug: the root's key is deleted by a path of its own, which
    /// takes the predecessor with [`remove_max_buggy`].
    pub fn delete_buggy(tree: &Tree, key: i64) -> Tree {
        match tree {
            Tree::Node(_, root, _) if *root == key => delete_with(tree, key, remove_max_buggy),
            _ => delete(tree, key),
        }
    }

    /// The property: deleting `key` with `delete` leaves a search tree with exactly the
    /// other keys.
    pub fn deletes_correctly((tree, key): &Case, delete: fn(&Tree, i64) -> Tree) -> bool {
        let after = delete(tree, *key);
        let mut expected = tree.keys();
        expected.retain(|k| k != key);
        after.is_bst() && after.keys() == expected
    }

    /// The test cases' generator: a tree from `bst(0, 100)` and a key from `0..=100`, each
    /// reached backward with `focus`.
    pub fn cases() -> Gen<Case, Case> {
        zip(
            bst(0, 100).focus(|case: &Case| Some(&case.0)),
            range(0..=100i64).focus(|case: &Case| Some(&case.1)),
        )
        .boxed()
    }

    /// The fixture: deleting 50, the root, from this tree works (50's predecessor, 40, has no
    /// left child), but the tree is one subtree away from the bug: a left child under 40 (a
    /// key in `31..=39`) triggers it.
    pub fn fixture() -> Case {
        let single = |key| node(Tree::Leaf, key, Tree::Leaf);
        let tree = node(
            node(single(12), 30, node(Tree::Leaf, 40, Tree::Leaf)),
            50,
            node(single(60), 75, single(90)),
        );
        (tree, 50)
    }

    /// How one strategy did on the planted bug over a number of runs.
    #[derive(Clone, Debug, Default)]
    pub struct Hunt {
        /// The runs made.
        pub runs: usize,
        /// The cases each run made.
        pub budget: usize,
        /// The runs with at least one failing case.
        pub runs_failing: usize,
        /// The failing cases, over all runs.
        pub failing_cases: usize,
        /// For each run that failed, the number of cases up to and including its first
        /// failure.
        pub first_failures: Vec<usize>,
    }

    impl Hunt {
        /// The failures of one run's `cases` (in order).
        fn record(&mut self, failures: impl IntoIterator<Item = bool>) {
            self.runs += 1;
            let mut first = None;
            let mut count = 0;
            for (i, failed) in failures.into_iter().enumerate() {
                if failed {
                    count += 1;
                    first.get_or_insert(i + 1);
                }
            }
            self.failing_cases += count;
            if let Some(first) = first {
                self.runs_failing += 1;
                self.first_failures.push(first);
            }
        }

        /// How many runs failed within their first `cases` cases.
        pub fn runs_failing_within(&self, cases: usize) -> usize {
            self.first_failures
                .iter()
                .filter(|&&first| first <= cases)
                .count()
        }

        /// The share of all cases that failed.
        pub fn case_rate(&self) -> f64 {
            self.failing_cases as f64 / (self.runs * self.budget).max(1) as f64
        }
    }

    /// `runs` runs of `budget` cases each that mutate [`fixture`] with the library's mutator
    /// (run `i` takes the first `budget` distinct mutants drawn with seed `seed + i`; fewer if
    /// it runs out), checking [`delete_buggy`].
    pub fn hunt_by_mutation(runs: usize, budget: usize, seed: u64) -> Hunt {
        let g = cases();
        let fixture = fixture();
        let mut hunt = Hunt {
            budget,
            ..Hunt::default()
        };
        for run in 0..runs {
            let mutants = g
                .mutator()
                .mutants(&fixture, seed.wrapping_add(run as u64))
                .expect("the fixture is a case the generator produces");
            hunt.record(
                mutants
                    .take(budget)
                    .map(|mutant| !deletes_correctly(&mutant.value, delete_buggy)),
            );
        }
        hunt
    }

    /// `runs` runs of `budget` cases each from [`cases`] at the default size (run `i` seeded
    /// with `seed + i`), checking [`delete_buggy`].
    pub fn hunt_by_generation(runs: usize, budget: usize, seed: u64) -> Hunt {
        let g = cases();
        let mut hunt = Hunt {
            budget,
            ..Hunt::default()
        };
        for run in 0..runs {
            let mut rng = DefaultRng::seed_from_u64(seed.wrapping_add(run as u64));
            hunt.record((0..budget).map(|_| {
                let case = g.generate_value(&mut rng, DEFAULT_SIZE);
                !deletes_correctly(&case, delete_buggy)
            }));
        }
        hunt
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::bst::all_bsts;

        #[test]
        fn the_correct_deletion_is_correct_and_the_buggy_one_is_not() {
            let trees = all_bsts(1, 5);
            let mut wrong = 0;
            for tree in &trees {
                for key in 0..=6 {
                    assert!(
                        deletes_correctly(&(tree.clone(), key), delete),
                        "{tree} {key}"
                    );
                    wrong += usize::from(!deletes_correctly(&(tree.clone(), key), delete_buggy));
                }
            }
            assert!(wrong > 0);
            let (tree, key) = fixture();
            assert!(deletes_correctly(&(tree.clone(), key), delete_buggy));
            assert!(cases().can_generate(&(tree, key)));
            // One left child under 40 and the deletion loses it.
            let single = |key| node(Tree::Leaf, key, Tree::Leaf);
            let near = node(
                node(single(12), 30, node(single(35), 40, Tree::Leaf)),
                50,
                node(single(60), 75, single(90)),
            );
            assert!(!deletes_correctly(&(near.clone(), 50), delete_buggy));
            // The same shape below the root: deleted by the textbook code.
            let below = node(near, 95, Tree::Leaf);
            assert!(deletes_correctly(&(below, 50), delete_buggy));
        }

        #[test]
        fn both_hunts_count_their_cases() {
            let mutation = hunt_by_mutation(2, 50, 1);
            let generation = hunt_by_generation(2, 50, 1);
            for hunt in [&mutation, &generation] {
                assert_eq!((hunt.runs, hunt.budget), (2, 50));
                assert!(hunt.failing_cases <= 100);
                assert_eq!(hunt.first_failures.len(), hunt.runs_failing);
            }
            assert!(mutation.failing_cases > 0, "{mutation:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The measurement in small: 200 mutants per workload, every one valid and generated.
    fn small_measurement<T: Clone + Eq + Hash + std::fmt::Display>(workload: &Workload<T>) {
        for fixture in &workload.fixtures {
            assert!((workload.valid)(fixture), "{fixture}");
            assert!(workload.generator.can_generate(fixture), "{fixture}");
        }
        let mut seeds = workload.generated_seeds(2, 5);
        seeds.extend(workload.fixtures.iter().cloned());
        let mutants = reflective_mutants(&workload.generator, &seeds, Budget::Values(200), 9);
        assert_eq!(mutants.len(), 200, "{}", workload.name);
        for mutant in &mutants {
            assert!((workload.valid)(&mutant.value), "{}", mutant.value);
            assert!(
                workload.generator.can_generate(&mutant.value),
                "{}",
                mutant.value
            );
            assert!(distance(workload, &seeds[mutant.seed], &mutant.value) < usize::MAX);
        }
        let values = mutants.iter().map(|mutant| &mutant.value);
        assert!(distinct(values, &seeds) > 100, "{}", workload.name);
        let naive = naive_mutants(workload, &seeds, Budget::Values(200), 9);
        assert_eq!(naive.len(), 200);
        assert!(naive.iter().any(|m| m.valid) && naive.iter().any(|m| !m.valid));
        let filtered = generate_and_filter(workload, 200, 9);
        assert!(filtered.iter().all(|value| (workload.valid)(value)));
    }

    #[test]
    fn the_measurement_in_small() {
        small_measurement(&bst_workload());
        small_measurement(&avl_workload());
        small_measurement(&stlc_workload());
    }

    #[test]
    fn distances() {
        let w = bst_workload();
        let single = |key| bst::node(Tree::Leaf, key, Tree::Leaf);
        let a = bst::node(single(1), 2, single(3));
        let b = bst::node(single(1), 2, Tree::Leaf);
        let c = bst::node(single(1), 5, single(3));
        assert_eq!(distance(&w, &a, &a), 0);
        assert_eq!(distance(&w, &a, &b), 1);
        assert_eq!(distance(&w, &a, &c), 2);
        assert!(same_root(&w, &a, &b) && !same_root(&w, &a, &c));
        let t = stlc_workload();
        let x = Expr::plus(Expr::Lit(1), Expr::Lit(2));
        let y = Expr::plus(Expr::Lit(2), Expr::Lit(1));
        assert_eq!(distance(&t, &x, &y), 4);
        assert!(same_root(&t, &x, &y));
        assert_eq!(median(&[3, 1, 2]), 2);
        assert_eq!(median(&[]), 0);
    }

    #[test]
    fn naive_mutants_change_the_structure() {
        let w = avl_workload();
        let mut rng = DefaultRng::seed_from_u64(3);
        let fixture = &w.fixtures[0];
        let mut edits = HashSet::new();
        for _ in 0..300 {
            let (value, edit) = (w.naive)(fixture, &mut rng);
            edits.insert(edit);
            let _ = value.size();
        }
        assert_eq!(edits.len(), 5, "{edits:?}");
    }
}
