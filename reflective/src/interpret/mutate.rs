//! Mutation: a value's choices edited, then replayed with random repair, so that every mutant
//! is a value the generator produces (the paper's reflective mutators, "Holding a Mirror up
//! to Random Generation" §6.2).
//!
//! A value is reflected into its choice tree once; each mutant is one [`Edit`] of that tree:
//! a choice drawn again, a span generated afresh, a span replaced by a compatible span inside
//! it, two compatible spans swapped, an element of a collection inserted or deleted, an
//! integer nudged or given another integer's value. The edited choices are replayed by the
//! forward engine: a choice that no longer fits the generator (a pick with fewer branches, an
//! integer out of its new range, a choice missing at the end) is drawn at random, as
//! generation would draw it. Whatever the edit, the mutant is what the generator makes of some
//! choices: it keeps every invariant the generator keeps.
//!
//! Two departures from the paper's `MutGen`: a rerolled pick takes another branch with the
//! other branches' weights (the paper: uniformly among them), so that the generator's
//! distribution holds among what is left; and a choice with no recorded counterpart (the
//! fields of a branch a reroll newly took) is drawn at random at the run's size, where the
//! paper takes the first branch, which adds one node for a `Leaf` rerolled to a `Node` but
//! assumes every pick's first branch ends the recursion. Here the new part is a random
//! value of the generator's, as big as generation would make it there. So that it is of the
//! value's own scale, the run's size is one that fits the value (twice the smallest size at
//! which it reflects, found by halving; see [`Mutator::choices_of`]), not the default size:
//! a small value written by hand has small mutants, as the paper's small new parts keep it.

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, OnceLock};

use rand_core::{Rng, SeedableRng};

use crate::choice::{Choice, ChoiceTree, Collection, Label, Span, fingerprint, mix};
use crate::engine::parts::part_text;
use crate::engine::source::ChoiceSource;
use crate::engine::source::aligned::{AlignedSource, SpanLayout};
use crate::engine::source::draws::Draws;
use crate::engine::source::random::{below, weighted};
use crate::engine::source::replay::{Fallback, ReplaySource};
use crate::engine::{Budgets, ReflectError};
use crate::node::Node;

use super::generate::{DEFAULT_SIZE, DefaultRng, Generated, Recorded, record_caught};
use super::reflect::{
    TooManyWays, Unreflected, budget_setters, doubling_sizes, simplest_choices, unproduced_part,
};
use super::shrink::MAX_REFLECTION_SIZE;

/// One kind of edit a mutant is made by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edit {
    /// One choice drawn again at random, another value than before whenever the choice has
    /// another (a pick's other branches with their weights; an integer as the generator draws
    /// it, or uniformly among the other values if that keeps giving the old one).
    Reroll,
    /// One span (a sub-generator's choices) generated afresh, the choices after it kept.
    Regenerate,
    /// A span replaced by a compatible span inside it (a subtree for its tree).
    Descend,
    /// Two compatible spans that do not overlap swapped.
    Swap,
    /// An element of a collection copied to another place in it.
    Insert,
    /// An element of a collection deleted.
    Delete,
    /// An integer moved by 1 or a little more, or set to a boundary of its range (its least,
    /// its greatest, 0, -1).
    Nudge,
    /// An integer given another integer choice's value, one made for the same value (of the
    /// same range if there is one, else one that fits): two keys made equal, an index made to
    /// point where another does. Bugs in keyed structures (a map, a set, a search tree) mostly
    /// need such collisions, which independent draws from a wide range rarely make.
    Copy,
}

impl Edit {
    /// Every edit.
    pub const ALL: [Edit; 8] = [
        Edit::Reroll,
        Edit::Regenerate,
        Edit::Descend,
        Edit::Swap,
        Edit::Insert,
        Edit::Delete,
        Edit::Nudge,
        Edit::Copy,
    ];
}

impl Edit {
    /// How often the edit is drawn, relative to the others: the edits that change one place
    /// (a choice, a span) more often than those that move whole parts.
    fn weight(self) -> u64 {
        match self {
            Edit::Reroll | Edit::Nudge => 3,
            Edit::Regenerate | Edit::Copy => 2,
            Edit::Descend | Edit::Swap | Edit::Insert | Edit::Delete => 1,
        }
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Edit::Reroll => "reroll",
            Edit::Regenerate => "regenerate",
            Edit::Descend => "descend",
            Edit::Swap => "swap",
            Edit::Insert => "insert",
            Edit::Delete => "delete",
            Edit::Nudge => "nudge",
            Edit::Copy => "copy",
        })
    }
}

/// A mutant: the value, its choices, and the edit that made it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutant<T> {
    /// The value, one the generator produces.
    pub value: T,
    /// The choices that produce it.
    pub tree: ChoiceTree,
    /// The edit made to the original's choices.
    pub edit: Edit,
}

impl<T> Mutant<T> {
    /// The mutant with its choice tree trimmed to its length, as it is handed out: a caller
    /// may keep thousands (a corpus), each holding only what it needs.
    fn compact(self) -> Self {
        Mutant {
            tree: self.tree.compact(),
            ..self
        }
    }
}

/// A mutant as made, with the [`fingerprint`] of the choices its value is made of (see
/// [`made_of`]): two mutants whose trees differ only in draws made again are one.
struct Made<T> {
    mutant: Mutant<T>,
    print: u64,
}

/// The [`fingerprint`] of `tree`'s choices but those `redrawn` (a filter's rejected attempts,
/// a distinct collection's repeated elements): the choices its value is made of. Without it a
/// stream through a filter that keeps few values made a new mutant at every try, of the
/// original value, its rejected attempts drawn anew each time.
fn made_of(tree: &ChoiceTree, redrawn: &[std::ops::Range<usize>]) -> u64 {
    if redrawn.is_empty() {
        return fingerprint(tree.choices());
    }
    let mut dropped = vec![false; tree.len()];
    for range in redrawn {
        dropped[range.clone()].fill(true);
    }
    let kept: Vec<Choice> = tree
        .choices()
        .iter()
        .zip(dropped)
        .filter(|(_, dropped)| !dropped)
        .map(|(choice, _)| choice.clone())
        .collect();
    fingerprint(&kept)
}

/// Why a value could not be mutated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MutateError {
    /// The generator does not produce the value at the sizes tried, from
    /// [`DEFAULT_SIZE`](crate::DEFAULT_SIZE) doubling up to
    /// [`MAX_REFLECTION_SIZE`](crate::shrink::MAX_REFLECTION_SIZE): there are no choices to
    /// edit. `part` names the type of the first part (the innermost) that no way produces at
    /// that size, where one is reached by a focus or as a collection's element, as
    /// [`CompleteError::CannotProduce`](crate::complete::CompleteError::CannotProduce) does.
    CannotProduce {
        /// The type of the first part that fails, if a focus or a collection reached it.
        part: Option<&'static str>,
        /// Where that part is: the pick branches' labels, named focuses and collections'
        /// indices (`[2]`) that lead to it, outermost first (written `items[2].y`; see
        /// [`CompleteError::CannotProduce`](crate::complete::CompleteError::CannotProduce)).
        path: Vec<Label>,
    },
    /// Reflecting the value ran out of a budget (the last error), at several sizes in a row.
    Reflect(ReflectError),
    /// Reflecting the value panicked: an annotation (a `focus`, a `comap`) panics on it.
    Panicked {
        /// The panic's message.
        message: String,
    },
    /// No edit changed the value's choices in as many tries (a generator that makes no
    /// choice, or only choices with one possible value; edits, as [`Mutator::edits`] narrows
    /// them, that have nothing to work on in the value, such as an insert or a delete where it
    /// has no collection; or a generator that fails on every edited choice).
    NoMutant {
        /// The tries made.
        tries: usize,
    },
    /// No edit gave a mutant, and the generator panicked on some of the edited choices: a
    /// `bind` or `map` that panics on values it is given (an `unwrap` of a lookup, an
    /// assertion), whose message this is (the last one).
    GeneratorPanicked {
        /// The panic's message.
        message: String,
    },
}

impl fmt::Display for MutateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MutateError::CannotProduce {
                part: Some(part),
                path,
            } => write!(
                f,
                "cannot mutate the value: the generator does not produce it at the sizes \
                 tried ({DEFAULT_SIZE}, doubling, up to {MAX_REFLECTION_SIZE}); the first part \
                 that fails is {} (check the value with `can_generate`, or give a value the \
                 generator can produce)",
                part_text(part, path)
            ),
            MutateError::CannotProduce { part: None, .. } => write!(
                f,
                "cannot mutate the value: the generator does not produce it at the sizes \
                 tried ({DEFAULT_SIZE}, doubling, up to {MAX_REFLECTION_SIZE}; check it with \
                 `can_generate`, or give a value the generator can produce)"
            ),
            MutateError::Reflect(error) => write!(f, "cannot mutate the value: {error}"),
            MutateError::Panicked { message } => write!(
                f,
                "cannot mutate the value: reflecting it panicked (an annotation, a `focus` or a \
                 `comap`, panics on it): {message}"
            ),
            MutateError::NoMutant { tries } => write!(
                f,
                "cannot mutate the value: no edit of its choices changed them in {tries} tries \
                 (the generator makes no choice with another possible value; or the edits made \
                 (all, or those given to `Mutator::edits`) have nothing to work on in it: an \
                 insert or a delete needs a collection, a descend or a swap two compatible \
                 spans (`Mutator::compatible`), a nudge an integer with another possible \
                 value, a copy two integers with different values, one within the other's \
                 range; or the generator fails on every edited choice)"
            ),
            MutateError::GeneratorPanicked { message } => write!(
                f,
                "cannot mutate the value: the generator panicked on the edited choices (a \
                 `bind` or `map` that panics on values it is given): {message}"
            ),
        }
    }
}

impl std::error::Error for MutateError {}

/// How many edits [`Mutator::mutate`] tries before it gives up on finding another value.
const MUTATE_TRIES: usize = 64;

/// How many spans [`Edit::Descend`] and [`Edit::Swap`] draw at random before they give up or
/// (in an exhaustive [`Search`]) list every compatible pair.
const SPAN_TRIES: usize = 16;

/// How many integers [`Edit::Copy`] tries before it gives up on a value without two that fit.
const COPY_TRIES: usize = 8;

/// The most edits [`Mutator::mutate_stacked`] makes.
const MAX_STACKED_EDITS: usize = 4;

/// How many tries in a row that find no new mutant end [`Mutants`].
const MUTANTS_PATIENCE: usize = 256;

/// Whether two spans of a tree may stand in for each other (see [`Mutator::compatible`]).
type Compatible = Arc<dyn Fn(&ChoiceTree, &Span, &Span) -> bool + Send + Sync>;

/// A mutation of a generator's values, with the edits it makes.
///
/// ```
/// use reflective::prelude::*;
/// // Sorted lists: every mutant is sorted, whatever the edit.
/// let sorted = vec(range(0u32..=100), ..).map(|mut xs| { xs.sort(); xs });
/// let sorted = sorted.comap(|xs: &Vec<u32>| xs.is_sorted().then(|| xs.clone()));
/// let fixture = vec![3, 17, 17, 60];
/// let mutants: Vec<Vec<u32>> = sorted
///     .mutator()
///     .mutants(&fixture, 7)
///     .unwrap()
///     .take(20)
///     .map(|mutant| mutant.value)
///     .collect();
/// assert_eq!(mutants.len(), 20);
/// assert!(mutants.iter().all(|xs| xs.is_sorted()));
/// ```
pub struct Mutator<'g, G> {
    g: &'g G,
    edits: Vec<Edit>,
    /// Each edit's [`Edit::weight`], drawn from at every try.
    weights: Vec<u64>,
    compatible: Compatible,
    /// The budgets values are reflected with.
    budgets: Budgets,
}

impl<G> Clone for Mutator<'_, G> {
    fn clone(&self) -> Self {
        Mutator {
            g: self.g,
            edits: self.edits.clone(),
            weights: self.weights.clone(),
            compatible: Arc::clone(&self.compatible),
            budgets: self.budgets,
        }
    }
}

impl<G> fmt::Debug for Mutator<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mutator")
            .field("edits", &self.edits)
            .finish_non_exhaustive()
    }
}

impl<'g, G: Node> Mutator<'g, G> {
    /// A mutation of `g`'s values by every [`Edit`].
    pub(crate) fn new(g: &'g G) -> Self {
        Mutator {
            g,
            edits: Vec::new(),
            weights: Vec::new(),
            compatible: Arc::new(same_kind),
            budgets: Budgets::default(),
        }
        .edits(&Edit::ALL)
    }

    // The budgets the values to mutate are reflected with.
    budget_setters!(max_ways);

    /// Makes only these edits (all of them by default); none at all is the same as all.
    pub fn edits(mut self, edits: &[Edit]) -> Self {
        self.edits = if edits.is_empty() {
            Edit::ALL.to_vec()
        } else {
            edits.to_vec()
        };
        self.weights = self.edits.iter().map(|edit| edit.weight()).collect();
        self
    }

    /// Decides which spans [`Edit::Descend`] and [`Edit::Swap`] put in each other's place.
    /// By default two spans are compatible when they have the same label and open with the
    /// same kind of choice (a pick with as many branches, or an integer of the same range):
    /// most likely the same generator.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use reflective::mutate::Edit;
    /// let pairs = vec(range(0u8..=9), 2..=2);
    /// // Spans of as many choices may swap: the list's two elements trade places.
    /// let swapped = pairs
    ///     .mutator()
    ///     .edits(&[Edit::Swap])
    ///     .compatible(|_, a, b| a.range().len() == b.range().len())
    ///     .mutate(&vec![1, 2], 0)
    ///     .unwrap();
    /// assert_eq!(swapped.value, [2, 1]);
    /// ```
    pub fn compatible(
        mut self,
        compatible: impl Fn(&ChoiceTree, &Span, &Span) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.compatible = Arc::new(compatible);
        self
    }

    /// The simplest choices that produce `value`, at a size that fits it: found at
    /// [`DEFAULT_SIZE`](crate::DEFAULT_SIZE), or at the smallest of 128, 256, ... (up to
    /// [`MAX_REFLECTION_SIZE`](crate::shrink::MAX_REFLECTION_SIZE)) that produces it (a
    /// [`MutateError::Reflect`] once three sizes in a row run out of a budget); then, while
    /// half that size still produces it, halved, and kept at twice the smallest size found:
    /// mutants replay at that size, so that what an edit draws afresh is of the value's scale
    /// (a small value written by hand has small mutants).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // Lists whose length the size bounds: three elements fit at size 3.
    /// let lists = sized(|size| vec(range(0u8..=9), 0..=size));
    /// let tree = lists.mutator().choices_of(&vec![1, 2, 3]).unwrap();
    /// assert!(tree.size() < DEFAULT_SIZE);
    /// assert_eq!(lists.replay(&tree), Some(vec![1, 2, 3]));
    /// ```
    pub fn choices_of(&self, value: &G::Input) -> Result<ChoiceTree, MutateError> {
        let sizes = doubling_sizes(DEFAULT_SIZE, MAX_REFLECTION_SIZE);
        let tree = simplest_choices(self.g, value, sizes, self.budgets, TooManyWays::Error)
            .map_err(|error| match error {
                Unreflected::CannotProduce => {
                    let (part, path) =
                        unproduced_part(self.g, value, MAX_REFLECTION_SIZE, self.budgets)
                            .map_or((None, Vec::new()), |(part, path)| (Some(part), path));
                    MutateError::CannotProduce { part, path }
                }
                Unreflected::Budget(error) => MutateError::Reflect(error),
                Unreflected::Panicked(message) => MutateError::Panicked { message },
            })?;
        Ok(self.fitted(value, tree))
    }

    /// `tree`, the choices of `value`, at a size that fits `value`: reflected again at half
    /// its size as long as that still produces `value`, and kept at the last size but one,
    /// twice the smallest found (`tree` itself if half its size does not produce `value`). The
    /// halving stops where fewer choices could take another value.
    ///
    /// Mutants replay at their parent's size, so whatever an edit draws afresh (a span
    /// regenerated, the fields of a branch a reroll newly took, a subtree whose range a nudge
    /// changed) is as large as generation makes it at that size. A value written by hand is
    /// often much smaller than the values generation makes at the default size: at that size,
    /// its mutants' new parts were values of the default size's, and its mutants about four
    /// times as large as it. At the size that fits it, they are of its own scale, and a mutant
    /// stays near its parent (the paper's mutator draws new parts as small as it can, which
    /// assumes every pick's first branch ends the recursion; see the module). Twice the
    /// smallest size leaves every part of the value room to grow: a generator that halves its
    /// size at each level of a recursion can make each leaf a node, and an integer drawn
    /// within the size reach twice as far. A generated value fits the size it was made at,
    /// or one near it, and keeps its size.
    fn fitted(&self, value: &G::Input, tree: ChoiceTree) -> ChoiceTree {
        let (mut roomy, mut smallest): (Option<ChoiceTree>, Option<ChoiceTree>) = (None, None);
        let (mut size, mut can_vary) = (tree.size(), varying(&tree));
        while size > 0 {
            let Ok(smaller) =
                simplest_choices(self.g, value, [size / 2], self.budgets, TooManyWays::Error)
            else {
                break;
            };
            // A size where fewer choices can take another value leaves an edit less to change
            // (a generator that uses a fraction of its size, `range(0..=size / 2)`, fits 0 at
            // size 0, where it has no mutant at all): the halving stops before it.
            let smaller_can_vary = varying(&smaller);
            if smaller_can_vary < can_vary {
                break;
            }
            (size, can_vary) = (smaller.size(), smaller_can_vary);
            roomy = smallest.replace(smaller);
        }
        roomy.unwrap_or(tree)
    }

    /// The generator mutants come from.
    pub(crate) fn generator(&self) -> &'g G {
        self.g
    }

    /// One mutant of `value`, other than `value`'s own choices, drawn with `seed`.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = vec(range(10u8..=20), 1..=5);
    /// let mutant = g.mutator().mutate(&vec![10, 20, 15], 1).unwrap();
    /// assert_ne!(mutant.value, vec![10, 20, 15]);
    /// assert!(g.can_generate(&mutant.value));
    /// // A value the generator cannot produce is an error.
    /// assert!(g.mutator().mutate(&vec![99], 1).is_err());
    /// ```
    pub fn mutate(&self, value: &G::Input, seed: u64) -> Result<Mutant<G::Output>, MutateError> {
        let tree = self.choices_of(value)?;
        let mut rng = DefaultRng::seed_from_u64(seed);
        self.mutate_tree(&tree, &mut rng)
    }

    /// One mutant of the value `tree` replays to, other than `tree`'s own choices.
    pub fn mutate_tree(
        &self,
        tree: &ChoiceTree,
        rng: &mut dyn Rng,
    ) -> Result<Mutant<G::Output>, MutateError> {
        self.edited(tree, rng).map(Mutant::compact)
    }

    /// A mutant of `tree` made by one edit, then each further edit with probability 1/2, four
    /// at most (the runner's mutation cases): most mutants stay next to their parent, some
    /// make two changes that only help together (a key made equal to another, and a second
    /// key to the first). `None` if not even the first edit finds another value. Its tree is
    /// not compacted: the runner drops it after the case.
    pub(crate) fn mutate_stacked(
        &self,
        tree: &ChoiceTree,
        rng: &mut dyn Rng,
    ) -> Option<Mutant<G::Output>> {
        let mut mutant = self.edited(tree, rng).ok()?;
        for _ in 1..MAX_STACKED_EDITS {
            if rng.next_u64().is_multiple_of(2) {
                break;
            }
            match self.edited(&mutant.tree, rng) {
                Ok(further) => mutant = further,
                Err(_) => break,
            }
        }
        Some(mutant)
    }

    /// [`Mutator::mutate_tree`] without trimming the mutant's tree.
    fn edited(
        &self,
        tree: &ChoiceTree,
        rng: &mut dyn Rng,
    ) -> Result<Mutant<G::Output>, MutateError> {
        let original = fingerprint(tree.choices());
        let facts = Facts::default();
        let parent = Parent {
            tree,
            facts: &facts,
        };
        let (mut panicked, mut edited) = (None, Vec::new());
        for attempt in 0..MUTATE_TRIES {
            let search = Search::after(attempt, MUTATE_TRIES);
            let known = |known| known == original;
            match self.try_mutant(parent, rng, search, &known, None, &mut edited) {
                Ok(made) if made.print != original => return Ok(made.mutant),
                Err(Miss::Panicked(message)) => panicked = Some(message),
                Ok(_) | Err(Miss::Nothing) => {}
            }
        }
        Err(match panicked {
            Some(message) => MutateError::GeneratorPanicked { message },
            None => MutateError::NoMutant {
                tries: MUTATE_TRIES,
            },
        })
    }

    /// The distinct mutants of `value` (by the choices their values are made of, a filter's
    /// rejected attempts and a set's repeated elements left out; the original's left out),
    /// drawn with `seed`: one edit of the original each. The iterator ends when 256 tries in a
    /// row find no new one.
    pub fn mutants(&self, value: &G::Input, seed: u64) -> Result<Mutants<'g, G>, MutateError> {
        let tree = self.choices_of(value)?;
        let mut seen = HashSet::new();
        seen.insert(fingerprint(tree.choices()));
        Ok(Mutants {
            mutator: self.clone(),
            tree,
            facts: Facts::default(),
            rng: DefaultRng::seed_from_u64(seed),
            seen,
            settled: HashSet::new(),
            edited: Vec::new(),
        })
    }

    /// One edit of the parent's tree, replayed (an edit replayed in order edits a copy of the
    /// parent's choices in `edited`, whose room it keeps for the next); a [`Miss`] if the edit
    /// chosen has nothing to work on, if the replay fails or panics, or if it is skipped
    /// because it can only give a value made before:
    ///
    /// - an edit replayed in order (descend, swap, insert, delete) whose choices are `known`
    ///   by their [`fingerprint`] (the parent's, or a mutant's made before): choices a run
    ///   recorded, replayed in order, give the value it made;
    /// - any edit, in a stream, once its replay has drawn at random what a replay of the same
    ///   edit drew before it ended: a replay is a function of its edit and of the values it
    ///   draws, so it would give what it gave then (see [`Mutator::settling`]). For an edit
    ///   replayed aligned with the parent's spans (nudge, copy, reroll, regenerate), the
    ///   edited choices alone do not settle it: aligned, choices a run recorded may give
    ///   another value (an edited key changes the ranges of the keys after it, whose subtrees
    ///   are drawn again).
    fn try_mutant(
        &self,
        parent: Parent<'_>,
        rng: &mut dyn Rng,
        search: Search,
        known: &dyn Fn(u64) -> bool,
        settled: Option<&mut HashSet<u64>>,
        edited: &mut Vec<Choice>,
    ) -> Result<Made<G::Output>, Miss> {
        let tree = parent.tree;
        if tree.is_empty() {
            return Err(Miss::Nothing);
        }
        let edit = self.edits[weighted(rng, &self.weights)];
        let choices = tree.choices();
        match edit {
            Edit::Reroll => {
                let at = below(rng, choices.len() as u64) as usize;
                return self.replay_aligned(parent, Aligned::Reroll(at), rng, edit, settled);
            }
            Edit::Regenerate => {
                let &span = one_of(parent.non_empty_spans(), rng).ok_or(Miss::Nothing)?;
                let how = Aligned::Regenerate(span);
                return self.replay_aligned(parent, how, rng, edit, settled);
            }
            Edit::Descend => descend(tree, &*self.compatible, rng, search, edited),
            Edit::Swap => swap(tree, &*self.compatible, rng, search, edited),
            Edit::Insert => insert(tree, parent.collections(), rng, edited),
            Edit::Delete => delete(tree, parent.collections(), rng, edited),
            Edit::Nudge => {
                let (at, nudged) = nudge(parent.integers(), rng).ok_or(Miss::Nothing)?;
                let how = Aligned::Set(at, &nudged);
                return self.replay_aligned(parent, how, rng, edit, settled);
            }
            Edit::Copy => {
                let (at, copied) = copy(parent.integers(), rng).ok_or(Miss::Nothing)?;
                let how = Aligned::Set(at, &copied);
                return self.replay_aligned(parent, how, rng, edit, settled);
            }
        }
        .ok_or(Miss::Nothing)?;
        let print = fingerprint(edited);
        if known(print) {
            return Err(Miss::Nothing);
        }
        self.replay(tree.size(), (edited, print), rng, edit, settled)
    }

    /// `choices` (whose [`fingerprint`] is `print`) replayed in order at `size`, a choice that
    /// does not fit drawn at random; a [`Miss`] if the generator fails or panics on them, or if
    /// a stream's `settled` skips the replay (see [`Mutator::settling`]).
    fn replay(
        &self,
        size: usize,
        (choices, print): (&[Choice], u64),
        rng: &mut dyn Rng,
        edit: Edit,
        settled: Option<&mut HashSet<u64>>,
    ) -> Result<Made<G::Output>, Miss> {
        let key = || replay_key(3, print);
        self.settling(settled, key, |draws: Draws<'_>| {
            let mut source = ReplaySource::new(choices, Fallback::Random(rng));
            source.draws = draws;
            let mutant = self.run(&mut source, size, edit);
            (mutant, source.draws.completed())
        })
    }

    /// The parent's tree replayed span by span with its structure (so that what the edit does
    /// not touch stays as it was), as `how` edits it; a [`Miss`] if the generator fails or
    /// panics, or if a stream's `settled` skips the replay (see [`Mutator::settling`]).
    fn replay_aligned(
        &self,
        parent: Parent<'_>,
        how: Aligned<'_>,
        rng: &mut dyn Rng,
        edit: Edit,
        settled: Option<&mut HashSet<u64>>,
    ) -> Result<Made<G::Output>, Miss> {
        let choices = parent.tree.choices();
        self.settling(
            settled,
            || how.key(choices),
            |draws: Draws<'_>| {
                let source = AlignedSource::new(parent.layout(), choices, rng);
                let mut source = match how {
                    Aligned::Set(at, choice) => source.setting(at, choice),
                    Aligned::Reroll(at) => source.rerolling(at),
                    Aligned::Regenerate(span) => source.regenerating(span),
                };
                source.draws = draws;
                let mutant = self.run(&mut source, parent.tree.size(), edit);
                (mutant, source.draws.completed())
            },
        )
    }

    /// A replay (`replay`, given the [`Draws`] its source is to follow, returning its mutant
    /// and [`Draws::completed`]) of an edit whose key is `key()`. Without a stream's `settled`
    /// (the fingerprints of the replays it made), it runs to its end, its draws not followed
    /// (and the key not worked out: a single mutation, the runner's, has no use for it). With
    /// it, it is skipped before it starts if a replay of the same key drew nothing, and ended
    /// once it has drawn at random what a replay of the same key drew before it ended: a
    /// replay is a function of its key and of the values it draws, so it would give what that
    /// one gave, a value the stream made or a failure. It has then made those draws as the whole
    /// replay would, so the stream's random words go on as they would have. A replay that
    /// runs to its end adds its fingerprint.
    fn settling(
        &self,
        settled: Option<&mut HashSet<u64>>,
        key: impl FnOnce() -> u64,
        replay: impl FnOnce(Draws<'_>) -> (Result<Made<G::Output>, Miss>, Option<u64>),
    ) -> Result<Made<G::Output>, Miss> {
        let Some(settled) = settled else {
            return replay(Draws::unfollowed()).0;
        };
        let key = key();
        if settled.contains(&key) {
            return Err(Miss::Nothing);
        }
        let made_before = |print| settled.contains(&print);
        let (mutant, print) = replay(Draws::stopping(key, &made_before));
        settled.insert(print.ok_or(Miss::Nothing)?);
        mutant
    }

    /// The generator run on `source` at `size`, recording; a [`Miss`] if it fails or panics.
    fn run(
        &self,
        source: &mut dyn ChoiceSource,
        size: usize,
        edit: Edit,
    ) -> Result<Made<G::Output>, Miss> {
        match record_caught(self.g, source, size) {
            Ok(Ok(Recorded {
                generated: Generated { value, tree },
                redrawn,
            })) => Ok(Made {
                print: made_of(&tree, &redrawn),
                mutant: Mutant { value, tree, edit },
            }),
            Ok(Err(_halted)) => Err(Miss::Nothing),
            Err(message) => Err(Miss::Panicked(message)),
        }
    }
}

/// The distinct mutants of a value: see [`Mutator::mutants`].
pub struct Mutants<'g, G> {
    mutator: Mutator<'g, G>,
    tree: ChoiceTree,
    /// What the edits read of `tree`, worked out on first use.
    facts: Facts,
    rng: DefaultRng,
    seen: HashSet<u64>,
    /// The replays that ran to their end, each by the fingerprint of its edit and of the values
    /// it drew at random (just the edit's if it drew none; see [`Mutator::settling`]): one
    /// entry per replay, as `seen` has one per mutant.
    settled: HashSet<u64>,
    /// The choices the last edit replayed in order made, kept for the room the next one needs.
    edited: Vec<Choice>,
}

/// How an edit replayed aligned with the parent's spans changes the parent's replay: one
/// choice given another value in place (nudge, copy: where, and the choice), one choice drawn
/// again (reroll), or one span generated afresh (regenerate).
#[derive(Clone, Copy)]
enum Aligned<'c> {
    Set(usize, &'c Choice),
    Reroll(usize),
    Regenerate(usize),
}

impl Aligned<'_> {
    /// A fingerprint of the edit of the parent's `choices`: with the values drawn at random,
    /// what the replay is a function of (see [`replay_key`]). A choice set in place is keyed
    /// by where it is and the value it is given, as the choices it makes are (a choice set
    /// to the value it had makes the parent's choices, wherever it is: one key for all).
    fn key(self, choices: &[Choice]) -> u64 {
        match self {
            Aligned::Set(at, set) => {
                let value = set.value();
                let word = if choices[at].value() == value {
                    0
                } else {
                    let at = mix(0x243f_6a88_85a3_08d3, at as u64);
                    mix(mix(at, value as u64), (value >> 64) as u64)
                };
                replay_key(0, word)
            }
            Aligned::Reroll(at) => replay_key(1, at as u64),
            Aligned::Regenerate(span) => replay_key(2, span as u64),
        }
    }
}

/// The key of a replay (of a `kind`: 3 for choices replayed in order, else an [`Aligned`]'s)
/// from a word that tells it from the others of its kind. It starts from a constant with no
/// pattern (the digits of pi): [`mix`] of two equal words is 0, so small numbers mixed into a
/// small start would collide.
fn replay_key(kind: u64, word: u64) -> u64 {
    mix(mix(0x1319_8a2e_0370_7344, kind), word)
}

impl<G> fmt::Debug for Mutants<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mutants")
            .field("found", &(self.seen.len() - 1))
            .finish_non_exhaustive()
    }
}

impl<G: Node> Iterator for Mutants<'_, G> {
    type Item = Mutant<G::Output>;

    fn next(&mut self) -> Option<Mutant<G::Output>> {
        self.next_mutant(true)
    }
}

impl<G: Node> Mutants<'_, G> {
    /// The next distinct mutant, skipping the replays that can only give one made before if
    /// `skipping` (off only to check, in tests, that skipping changes nothing).
    fn next_mutant(&mut self, skipping: bool) -> Option<Mutant<G::Output>> {
        for attempt in 0..MUTANTS_PATIENCE {
            let search = Search::after(attempt, MUTANTS_PATIENCE);
            let parent = Parent {
                tree: &self.tree,
                facts: &self.facts,
            };
            let seen = &self.seen;
            let known = |print: u64| skipping && seen.contains(&print);
            let settled = skipping.then_some(&mut self.settled);
            let edited = &mut self.edited;
            if let Ok(made) =
                self.mutator
                    .try_mutant(parent, &mut self.rng, search, &known, settled, edited)
                && self.seen.insert(made.print)
            {
                return Some(made.mutant.compact());
            }
        }
        None
    }
}

/// Why an edit gave no mutant.
enum Miss {
    /// The edit had nothing to work on, the generator failed on its choices, or the replay
    /// was skipped (it could only give a value made before).
    Nothing,
    /// The generator panicked on the edited choices, with this message.
    Panicked(String),
}

/// A tree to edit (the parent of the mutants made of it), with what the edits read of it.
#[derive(Clone, Copy)]
struct Parent<'t> {
    tree: &'t ChoiceTree,
    facts: &'t Facts,
}

/// What the edits read of a tree, worked out the first time an edit needs it and kept for the
/// next: a stream of mutants edits the same tree thousands of times.
#[derive(Default)]
struct Facts {
    layout: OnceLock<SpanLayout>,
    non_empty_spans: OnceLock<Vec<usize>>,
    collections: OnceLock<Vec<Collection>>,
    integers: OnceLock<Vec<Integer>>,
}

impl<'t> Parent<'t> {
    /// How the tree's spans nest, for replaying an edit of it span by span.
    fn layout(self) -> &'t SpanLayout {
        self.facts.layout.get_or_init(|| SpanLayout::of(self.tree))
    }

    /// The indices of the spans that hold a choice.
    fn non_empty_spans(self) -> &'t [usize] {
        self.facts.non_empty_spans.get_or_init(|| {
            let spans = self.tree.spans();
            (0..spans.len())
                .filter(|&index| !spans[index].range().is_empty())
                .collect()
        })
    }

    /// The tree's collections.
    fn collections(self) -> &'t [Collection] {
        self.facts
            .collections
            .get_or_init(|| self.tree.collections())
    }

    /// The tree's integer choices that have more than one possible value.
    fn integers(self) -> &'t [Integer] {
        self.facts
            .integers
            .get_or_init(|| integers(self.tree.choices()))
    }
}

/// The default compatibility: the same label, and the same kind of opening choice.
fn same_kind(tree: &ChoiceTree, a: &Span, b: &Span) -> bool {
    let opening = |span: &Span| {
        tree.choices()
            .get(span.range().start)
            .map(|choice| match choice {
                Choice::Pick { arity, .. } => (0, i128::from(*arity), 0),
                Choice::Int { lo, hi, .. } => (1, *lo, *hi),
            })
    };
    a.label() == b.label() && opening(a) == opening(b)
}

/// A uniformly drawn element of `items`, if there is one.
fn one_of<'a, T>(items: &'a [T], rng: &mut dyn Rng) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[below(rng, items.len() as u64) as usize])
}

/// `choices` with `range` replaced by `with`, in `out`.
fn splice(
    out: &mut Vec<Choice>,
    choices: &[Choice],
    range: std::ops::Range<usize>,
    with: &[Choice],
) {
    out.clear();
    out.extend_from_slice(&choices[..range.start]);
    out.extend_from_slice(with);
    out.extend_from_slice(&choices[range.end..]);
}

/// A span replaced by a compatible, strictly smaller span inside it (the edited choices in
/// `out`): the outer span drawn first among those that have one, then the inner among its
/// own, so that small spans are edited as often as large ones. Drawn by
/// [`first_with_partner`]: in time linear in the number of spans where many have a compatible
/// span inside.
fn descend(
    tree: &ChoiceTree,
    compatible: &(dyn Fn(&ChoiceTree, &Span, &Span) -> bool + Send + Sync),
    rng: &mut dyn Rng,
    search: Search,
    out: &mut Vec<Choice>,
) -> Option<()> {
    let spans = tree.spans();
    let (outer, inner) = first_with_partner(spans, rng, search, |outer, inner| {
        let (o, i) = (spans[outer].range(), spans[inner].range());
        o.start <= i.start
            && i.end <= o.end
            && i.len() < o.len()
            && compatible(tree, &spans[outer], &spans[inner])
    })?;
    let choices = tree.choices();
    let inner = &choices[spans[inner].range()];
    splice(out, choices, spans[outer].range(), inner);
    Some(())
}

/// Two compatible spans that do not overlap, swapped (the edited choices in `out`): the first
/// drawn among the spans that have a partner after them, then the second among its partners
/// (drawn again as [`descend`] draws).
fn swap(
    tree: &ChoiceTree,
    compatible: &(dyn Fn(&ChoiceTree, &Span, &Span) -> bool + Send + Sync),
    rng: &mut dyn Rng,
    search: Search,
    out: &mut Vec<Choice>,
) -> Option<()> {
    let spans = tree.spans();
    let (first, second) = first_with_partner(spans, rng, search, |first, second| {
        let (a, b) = (spans[first].range(), spans[second].range());
        a.end <= b.start
            && !a.is_empty()
            && !b.is_empty()
            && compatible(tree, &spans[first], &spans[second])
    })?;
    let (a, b) = (spans[first].range(), spans[second].range());
    let choices = tree.choices();
    out.clear();
    out.extend_from_slice(&choices[..a.start]);
    out.extend_from_slice(&choices[b.clone()]);
    out.extend_from_slice(&choices[a.end..b.start]);
    out.extend_from_slice(&choices[a.clone()]);
    out.extend_from_slice(&choices[b.end..]);
    Some(())
}

/// How hard an edit looks for the spans it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    /// A few spans drawn at random: cheap, and it may miss where few spans qualify (the
    /// caller then draws another edit).
    Sample,
    /// Every pair of spans listed if the draws miss: an edit that can be made is made.
    Exhaustive,
}

impl Search {
    /// The search of try `attempt` of `tries`: sampling for the first half, so that a mix of
    /// edits goes on to another edit where one misses, exhaustive for the second, so that an
    /// edit that can be made is found when it is the only one.
    fn after(attempt: usize, tries: usize) -> Search {
        if attempt < tries / 2 {
            Search::Sample
        } else {
            Search::Exhaustive
        }
    }
}

/// A span drawn uniformly among those with a partner (`partners(span, other)`), and one of its
/// partners drawn uniformly. A span drawn at random without one is drawn again,
/// [`SPAN_TRIES`] times, each try one scan of the spans; then, if `search` is exhaustive,
/// every span's partners are listed (time quadratic in the spans) and one drawn.
fn first_with_partner(
    spans: &[Span],
    rng: &mut dyn Rng,
    search: Search,
    partners: impl Fn(usize, usize) -> bool,
) -> Option<(usize, usize)> {
    if spans.is_empty() {
        return None;
    }
    let partners_of = |first: usize| -> Vec<usize> {
        (0..spans.len())
            .filter(|&other| partners(first, other))
            .collect()
    };
    for _ in 0..SPAN_TRIES {
        let first = below(rng, spans.len() as u64) as usize;
        if let Some(&second) = one_of(&partners_of(first), rng) {
            return Some((first, second));
        }
    }
    if search == Search::Sample {
        return None;
    }
    let firsts: Vec<usize> = (0..spans.len())
        .filter(|&first| (0..spans.len()).any(|other| partners(first, other)))
        .collect();
    let &first = one_of(&firsts, rng)?;
    let &second = one_of(&partners_of(first), rng)?;
    Some((first, second))
}

/// A collection's length changed by `by` (+1 or -1).
fn with_count(choices: &mut [Choice], collection: &Collection, by: i128) {
    if let Choice::Int { value, .. } = &mut choices[collection.count] {
        *value += by;
    }
}

/// An element of one of `tree`'s `collections` copied to a place in it (the edited choices in
/// `out`).
fn insert(
    tree: &ChoiceTree,
    collections: &[Collection],
    rng: &mut dyn Rng,
    out: &mut Vec<Choice>,
) -> Option<()> {
    let collection = one_of(collections, rng)?;
    let element = one_of(&collection.elements, rng)?.clone();
    let place = below(rng, collection.elements.len() as u64 + 1) as usize;
    let at = collection.elements.get(place).map_or_else(
        || collection.elements.last().map_or(0, |last| last.end),
        |e| e.start,
    );
    // The count comes before the elements: the copy leaves its place as it was.
    let choices = tree.choices();
    splice(out, choices, at..at, &choices[element]);
    with_count(out, collection, 1);
    Some(())
}

/// An element of one of `tree`'s `collections` deleted (the edited choices in `out`).
fn delete(
    tree: &ChoiceTree,
    collections: &[Collection],
    rng: &mut dyn Rng,
    out: &mut Vec<Choice>,
) -> Option<()> {
    let collection = one_of(collections, rng)?;
    let element = one_of(&collection.elements, rng)?.clone();
    // The count comes before the elements: the deletion leaves its place as it was.
    splice(out, tree.choices(), element, &[]);
    with_count(out, collection, -1);
    Some(())
}

/// One of the `integers` of a tree moved by 1 or up to 16, or set to a boundary of its range:
/// where it is, and the choice it becomes.
fn nudge(integers: &[Integer], rng: &mut dyn Rng) -> Option<(usize, Choice)> {
    let &(at, value, lo, hi) = one_of(integers, rng)?;
    let step = 1 + below(rng, 16) as i128;
    let sign = if below(rng, 2) == 0 { 1 } else { -1 };
    let moved = match below(rng, 3) {
        0 => value.saturating_add(sign),
        1 => value.saturating_add(sign * step),
        _ => *one_of(&[lo, hi, 0, -1], rng)?,
    };
    let moved = moved.clamp(lo, hi);
    let moved = Choice::Int {
        value: moved,
        lo,
        hi,
    };
    Some((at, moved))
}

/// One of the `integers` of a tree set to the value of another integer choice that differs
/// from its own: one of the same range if there is one (most likely drawn by the same
/// generator: another key), else one that fits its range; where it is and the choice it
/// becomes, or `None` if a few integers drawn have no such other.
fn copy(integers: &[Integer], rng: &mut dyn Rng) -> Option<(usize, Choice)> {
    for _ in 0..COPY_TRIES {
        let &(at, value, lo, hi) = one_of(integers, rng)?;
        let sources = |same_range: bool| -> Vec<i128> {
            integers
                .iter()
                .filter(|&&(other, copied, other_lo, other_hi)| {
                    other != at
                        && copied != value
                        && (lo..=hi).contains(&copied)
                        && (!same_range || (other_lo, other_hi) == (lo, hi))
                })
                .map(|&(_, copied, ..)| copied)
                .collect()
        };
        let mut found = sources(true);
        if found.is_empty() {
            found = sources(false);
        }
        if let Some(&copied) = one_of(&found, rng) {
            let copied = Choice::Int {
                value: copied,
                lo,
                hi,
            };
            return Some((at, copied));
        }
    }
    None
}

/// An integer choice, for the edits that change one: where it is, its value, and its range.
type Integer = (usize, i128, i128, i128);

/// The integer choices with more than one possible value.
fn integers(choices: &[Choice]) -> Vec<Integer> {
    choices
        .iter()
        .enumerate()
        .filter_map(|(at, choice)| match *choice {
            Choice::Int { value, lo, hi } if lo < hi => Some((at, value, lo, hi)),
            _ => None,
        })
        .collect()
}

/// How many of `tree`'s choices an edit could give another value: picks of more than one
/// branch, integers of a range of more than one value.
fn varying(tree: &ChoiceTree) -> usize {
    tree.choices()
        .iter()
        .filter(|choice| match choice {
            Choice::Pick { arity, .. } => *arity > 1,
            Choice::Int { lo, hi, .. } => lo < hi,
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream of mutants may be shared between threads, as before it kept its parent's facts.
    #[test]
    fn a_stream_of_mutants_is_send_and_sync() {
        fn send_and_sync<T: Send + Sync>() {}
        send_and_sync::<Mutants<'static, crate::Gen<u8, u8>>>();
    }

    /// The first `count` mutants (values, choices and edits) a stream of `mutator` makes of
    /// `value`, and those the same stream makes with no skipping.
    fn with_and_without_skipping<T: Clone, G: Node<Input = T, Output = T>>(
        mutator: &Mutator<'_, G>,
        value: &T,
        seed: u64,
        count: usize,
    ) -> (Vec<Mutant<T>>, Vec<Mutant<T>>) {
        let made = |skipping: bool| -> Vec<Mutant<T>> {
            let mut stream = mutator.mutants(value, seed).unwrap();
            std::iter::from_fn(|| stream.next_mutant(skipping))
                .take(count)
                .collect()
        };
        (made(true), made(false))
    }

    /// A stream skips only replays that would give a value it made, drawing nothing: it makes
    /// the mutants the same loop makes with no skipping, on pairs whose second number's range
    /// starts at the first (so that a nudge or a copy of the first changes what the second's
    /// choice means, and may draw it again).
    #[test]
    fn skipping_leaves_a_stream_as_it_was() {
        use crate::combinator::range;
        use crate::generator::Generator;
        let g = range(0u32..=40)
            .focus(|p: &(u32, u32)| Some(&p.0))
            .bind(|a| {
                range(a..=40)
                    .focus(|p: &(u32, u32)| Some(&p.1))
                    .map(move |b| (a, b))
            })
            .boxed();
        let mutator = g.mutator();
        for seed in 0..30 {
            let value = (seed as u32 % 20, 30);
            let (stream, unskipped) = with_and_without_skipping(&mutator, &value, seed, 1000);
            assert_eq!(stream, unskipped, "seed {seed}");
        }
        // And it does skip, part way: a stream of rerolls (each draws, so none is skipped
        // before it starts) runs the generator's last step less often than with no skipping,
        // since a stopped replay does not get there.
        let runs = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = g.clone().map({
            let runs = Arc::clone(&runs);
            move |pair: (u32, u32)| {
                runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                pair
            }
        });
        let counted = counted.comap(|pair: &(u32, u32)| Some(*pair)).boxed();
        let mutator = counted.mutator().edits(&[Edit::Reroll]);
        let mut ran = [0; 2];
        for (skipping, ran) in [true, false].into_iter().zip(&mut ran) {
            runs.store(0, std::sync::atomic::Ordering::Relaxed);
            let mut stream = mutator.mutants(&(3, 30), 7).unwrap();
            let made = std::iter::from_fn(|| stream.next_mutant(skipping)).count();
            assert!(made > 30, "{made} mutants");
            *ran = runs.load(std::sync::atomic::Ordering::Relaxed);
        }
        assert!(
            ran[0] < ran[1],
            "runs with skipping {} against {}",
            ran[0],
            ran[1]
        );
    }

    /// Skipping follows every bit of the values drawn: rerolls of `i128`s, whose edge values
    /// `0` and `i128::MIN` (or `-1` and `i128::MAX`) share their low 64 bits, make the
    /// mutants they make with no skipping.
    #[test]
    fn skipping_follows_wide_draws_whole() {
        use crate::combinator::int;
        use crate::generator::Generator;
        let g = int::<i128>().boxed();
        let mutator = g.mutator().edits(&[Edit::Reroll]);
        for seed in 0..20 {
            let (stream, unskipped) = with_and_without_skipping(&mutator, &0, seed, 400);
            assert_eq!(stream, unskipped, "seed {seed}");
        }
    }

    /// A binary search tree: keys in ranges that the keys above them set.
    #[derive(Clone, Debug, PartialEq)]
    enum Tree {
        Leaf,
        Node(Box<Tree>, i64, Box<Tree>),
    }

    impl Tree {
        fn left(&self) -> Option<&Tree> {
            match self {
                Tree::Node(left, _, _) => Some(left),
                Tree::Leaf => None,
            }
        }

        fn right(&self) -> Option<&Tree> {
            match self {
                Tree::Node(_, _, right) => Some(right),
                Tree::Leaf => None,
            }
        }
    }

    /// Binary search trees with keys in `0..=50`.
    fn search_trees() -> crate::Gen<Tree, Tree> {
        use crate::combinator::{Family, exact, family, frequency, range, zip};
        use crate::generator::Generator;
        let trees = family(
            |trees: &Family<(i64, i64), Tree, Tree>, (lo, hi): (i64, i64)| {
                if lo > hi {
                    return exact(Tree::Leaf).boxed();
                }
                let trees = trees.clone();
                let node = range(lo..=hi)
                    .focus(|t: &Tree| match t {
                        Tree::Node(_, key, _) => Some(key),
                        Tree::Leaf => None,
                    })
                    .bind(move |key| {
                        zip(
                            trees.at((lo, key - 1)).focus(Tree::left),
                            trees.at((key + 1, hi)).focus(Tree::right),
                        )
                        .map(move |(l, r)| Tree::Node(Box::new(l), key, Box::new(r)))
                    });
                frequency(((1, exact(Tree::Leaf)), (3, node))).boxed()
            },
        );
        trees.at((0, 50)).boxed()
    }

    /// The same on search trees, whose nudged or copied keys change the ranges of the keys
    /// below them: choices a stream made may give another tree when replayed aligned with
    /// the parent's.
    #[test]
    fn skipping_leaves_a_stream_of_search_trees_as_it_was() {
        use crate::generator::Generator;
        let g = search_trees();
        for edits in [&[Edit::Nudge, Edit::Copy][..], &Edit::ALL[..]] {
            let mutator = g.mutator().edits(edits);
            for seed in 0..8 {
                let value = g.sample(seed);
                let (stream, unskipped) = with_and_without_skipping(&mutator, &value, seed, 500);
                assert_eq!(stream, unskipped, "seed {seed}, edits {edits:?}");
            }
        }
    }
}
