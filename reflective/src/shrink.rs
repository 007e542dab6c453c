//! The choice shrinker: simpler choice sequences that still fail, found by named passes looped
//! to a fixpoint, as Hypothesis's internal reduction does (the paper, section 6).
//!
//! A candidate is an edited choice sequence. It is replayed with repair (a choice that no
//! longer fits takes the simplest value, one left over is dropped), and kept if the choices
//! replay actually made are shortlex-smaller than the best so far and the value still fails.
//! Because generators reflect, the start can be any value the generator can produce: its
//! choices come from reflection.
//!
//! The passes, in order, each with one job:
//!
//! 1. *zero elements*: set runs of a collection's elements to their simplest choices;
//! 2. *delete elements*: delete runs of a collection's elements, its length lowered by as many
//!    (both grow their runs by doubling and back off by halving, so a list of 10 000
//!    elements loses most of them in a few evaluations);
//! 3. *replace by a span*: the whole sequence replaced by one of its spans (the paper's first);
//! 4. *replace by a nested span*: a span replaced by a span inside it that opens with a pick
//!    of the same arity (a subtree for its tree);
//! 5. *delete spans*: delete a span that is not a collection's element;
//! 6. *delete blocks*: delete 8, 4, 2 or 1 consecutive choices;
//! 7. *zero spans*: set a span's choices to their simplest (the paper's second);
//! 8. *simpler branches*: put a pick on a simpler branch with the simplest choices for it, then
//!    also with one of its integers one step from its simplest;
//! 9. *minimise choices*: the lowest pick index, an integer by binary search toward its
//!    simplest value (trying its mirror first when the simplest lies between);
//! 10. *lower duplicates*: integers holding the same value lowered together;
//! 11. *redistribute*: move value between two nearby integers, so that a sum they make stays
//!     and the first can go;
//! 12. *swap siblings*: swap two adjacent spans of one kind when the other order is simpler
//!     (the paper's third);
//! 13. *hoist into empty*: move a pick's span out of an element of a collection into an
//!     earlier empty collection, deleting the element (an expression out of a statement into
//!     the arguments before it).
//!
//! Integers also get a second try when lowering one makes the choices after it too many (a
//! smaller count): the same lowering with as many choices dropped at the start of the spans
//! after it instead of at the end, so that what fails survives (a matrix of fewer rows).
//!
//! The shrinker remembers the choices that did not fail, and does not evaluate them again.
//! It stops at a fixpoint of every pass or when its [`ShrinkBudget`] runs out, and reports why
//! in its [`ShrinkStats`], with the evaluations, steps and time of each pass.

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use crate::choice::{Choice, ChoiceTree, nearest_zero};
use crate::generator::Generator;
use crate::interpret::Generated;

/// The most property evaluations a shrink makes unless told otherwise.
pub const DEFAULT_MAX_EVALUATIONS: usize = 10_000;

/// The longest a shrink runs unless told otherwise.
pub const DEFAULT_MAX_TIME: Duration = Duration::from_secs(10);

/// The largest size at which [`Generator::shrink`] looks for the choices of a value it did not
/// generate.
pub const MAX_REFLECTION_SIZE: usize = 1 << 24;

/// The simplest choices that produce `value`, at the smallest of the sizes 0, 1, 2, 4, 8, ...
/// (up to [`MAX_REFLECTION_SIZE`]) at which the generator produces it. The smallest size gives
/// the shrinker the narrowest ranges, and makes the start canonical: a value shrinks the same
/// way whatever size it was generated at. `None` if the generator produces it at none of them
/// (reflection that runs out of its budget at one size goes on to the next).
pub(crate) fn choices_of<G: Generator>(g: &G, value: &G::Input) -> Option<ChoiceTree> {
    let mut size = 0;
    loop {
        // A budget that runs out at one size need not at another.
        if let Ok(trees) = g.reflector().size(size).choices(value)
            && let Some(simplest) = trees.into_iter().next()
        {
            return Some(simplest);
        }
        if size >= MAX_REFLECTION_SIZE {
            return None;
        }
        size = (size * 2).max(1);
    }
}

/// How far a shrink may go: at most `max_evaluations` evaluations of the property, for at most
/// `max_time`. When either runs out, the shrink returns the simplest failing value found so far
/// and says which stopped it ([`Stopped`]).
///
/// ```
/// use std::time::Duration;
/// use reflective::shrink::ShrinkBudget;
/// let budget = ShrinkBudget::default().max_evaluations(500).max_time(Duration::from_secs(1));
/// assert_eq!(budget.evaluations, 500);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShrinkBudget {
    /// The most evaluations of the property.
    pub evaluations: usize,
    /// The longest the shrink runs.
    pub time: Duration,
}

impl Default for ShrinkBudget {
    /// [`DEFAULT_MAX_EVALUATIONS`] and [`DEFAULT_MAX_TIME`].
    fn default() -> Self {
        ShrinkBudget {
            evaluations: DEFAULT_MAX_EVALUATIONS,
            time: DEFAULT_MAX_TIME,
        }
    }
}

impl ShrinkBudget {
    /// This budget with at most `evaluations` evaluations of the property.
    pub fn max_evaluations(self, evaluations: usize) -> Self {
        ShrinkBudget {
            evaluations,
            ..self
        }
    }

    /// This budget with at most `time` to run.
    pub fn max_time(self, time: Duration) -> Self {
        ShrinkBudget { time, ..self }
    }
}

/// Why a shrink stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stopped {
    /// No pass found anything simpler: the result is a fixpoint of every pass.
    #[default]
    Fixpoint,
    /// The evaluation budget ran out.
    Evaluations,
    /// The time budget ran out.
    Time,
}

/// What one pass did over a whole shrink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassStats {
    /// The pass's name.
    pub name: &'static str,
    /// How many candidates it had the property evaluated on.
    pub evaluations: usize,
    /// How many of them still failed and became the best so far.
    pub steps: usize,
    /// How long it ran.
    pub time: Duration,
}

/// What a shrink did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShrinkStats {
    /// How many candidates the property was evaluated on.
    pub evaluations: usize,
    /// How many of them still failed and became the best so far.
    pub steps: usize,
    /// How long the shrink took.
    pub time: Duration,
    /// Why it stopped.
    pub stopped: Stopped,
    /// What each pass did, in the order they run.
    pub passes: Vec<PassStats>,
}

/// The result of a shrink: the simplest failing value found, its choices, and the statistics.
#[derive(Clone, Debug)]
pub struct Shrunk<T> {
    /// The value.
    pub value: T,
    /// Its choices.
    pub tree: ChoiceTree,
    /// What the shrink did.
    pub stats: ShrinkStats,
}

/// Shrinks `start`, a failing value of `g` with its choices, within the budgets.
pub(crate) fn shrink<G: Generator>(
    g: &G,
    start: Generated<G::Output>,
    still_fails: &dyn Fn(&G::Output) -> bool,
    budget: ShrinkBudget,
) -> Shrunk<G::Output> {
    type Pass<'s, G> = fn(&mut Search<'s, G>);
    let passes: [(&'static str, Pass<'_, G>); 13] = [
        ("zero elements", Search::zero_elements),
        ("delete elements", Search::delete_elements),
        ("replace by a span", Search::replace_by_spans),
        ("replace by a nested span", Search::replace_by_descendants),
        ("delete spans", Search::delete_spans),
        ("delete blocks", Search::delete_blocks),
        ("zero spans", Search::zero_spans),
        ("simpler branches", Search::simpler_branches),
        ("minimise choices", Search::minimise_choices),
        ("lower duplicates", Search::lower_duplicates),
        ("redistribute", Search::redistribute),
        ("swap siblings", Search::swap_siblings),
        ("hoist into empty", Search::hoist_into_empty),
    ];
    let mut search = Search {
        g,
        still_fails,
        best: start,
        stats: ShrinkStats {
            passes: passes
                .iter()
                .map(|&(name, _)| PassStats {
                    name,
                    evaluations: 0,
                    steps: 0,
                    time: Duration::ZERO,
                })
                .collect(),
            ..ShrinkStats::default()
        },
        pass: 0,
        passed: HashMap::new(),
        max_evaluations: budget.evaluations,
        // A budget too long to add to the clock has no deadline.
        deadline: Instant::now().checked_add(budget.time),
        started: Instant::now(),
    };
    loop {
        let before = search.stats.steps;
        for (index, (_, pass)) in passes.iter().enumerate() {
            search.pass = index;
            let started = Instant::now();
            pass(&mut search);
            search.stats.passes[index].time += started.elapsed();
        }
        if search.stats.stopped != Stopped::Fixpoint || search.stats.steps == before {
            break;
        }
    }
    search.stats.time = search.started.elapsed();
    Shrunk {
        value: search.best.value,
        tree: search.best.tree,
        stats: search.stats,
    }
}

/// The state of one shrink.
struct Search<'g, G: Generator> {
    g: &'g G,
    still_fails: &'g dyn Fn(&G::Output) -> bool,
    best: Generated<G::Output>,
    stats: ShrinkStats,
    /// The pass running, an index into `stats.passes`.
    pass: usize,
    /// The fingerprints of the choices tried that did not fail, with how many choices they
    /// replayed to, so that a candidate two passes (or two elements) lead to is evaluated once.
    passed: HashMap<u64, usize>,
    max_evaluations: usize,
    deadline: Option<Instant>,
    started: Instant,
}

impl<G: Generator> Search<'_, G> {
    /// The best choices so far.
    fn choices(&self) -> &[Choice] {
        self.best.tree.choices()
    }

    /// The non-empty spans of the best choices, as ranges, in the order they were opened.
    fn spans_in_order(&self) -> Vec<std::ops::Range<usize>> {
        self.best
            .tree
            .spans()
            .iter()
            .map(|span| span.range())
            .filter(|range| !range.is_empty())
            .collect()
    }

    /// The spans of the best choices, as ranges, longest first.
    fn span_ranges(&self) -> Vec<std::ops::Range<usize>> {
        let mut ranges = self.spans_in_order();
        ranges.sort_by_key(|range| std::cmp::Reverse(range.len()));
        ranges.dedup();
        ranges
    }

    /// `tree` replayed with repair; `None` where generation fails or the generator panics (a
    /// `map` that asserts on what it is given): a candidate the shrinker cannot use.
    fn replay(&self, tree: &ChoiceTree) -> Option<Generated<G::Output>> {
        let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.g.replay_repaired(tree)
        }));
        replayed.ok()?.ok()
    }

    /// Whether the shrink must stop: a budget ran out. The passes ask before each step, also
    /// those that work a while without evaluating, so that the time budget holds.
    fn exhausted(&mut self) -> bool {
        if self.stats.stopped == Stopped::Fixpoint
            && self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.stats.stopped = Stopped::Time;
        }
        self.stats.stopped != Stopped::Fixpoint
    }

    /// Tries `choices`: keeps them if they replay to a shortlex-smaller sequence whose value
    /// still fails.
    fn try_choices(&mut self, choices: Vec<Choice>) -> bool {
        matches!(self.attempt(choices), Attempt::Kept)
    }

    /// [`try_choices`](Self::try_choices), saying how many choices the candidate replayed to
    /// when it was not kept (a pass that lowers a count learns how many it no longer reads).
    fn attempt(&mut self, choices: Vec<Choice>) -> Attempt {
        let unknown = Attempt::Rejected { replayed: None };
        if self.stats.evaluations >= self.max_evaluations {
            self.stats.stopped = Stopped::Evaluations;
        }
        if self.exhausted() {
            return unknown;
        }
        let edited = fingerprint(&choices);
        if let Some(&replayed) = self.passed.get(&edited) {
            return Attempt::Rejected {
                replayed: Some(replayed),
            };
        }
        let size = self.best.tree.size();
        let Some(tree) = ChoiceTree::from_parts(size, choices, []) else {
            return unknown;
        };
        if tree.shortlex_cmp(&self.best.tree).is_ge() {
            return unknown;
        }
        let Some(candidate) = self.replay(&tree) else {
            return unknown;
        };
        let length = candidate.tree.len();
        let rejected = Attempt::Rejected {
            replayed: Some(length),
        };
        if candidate.tree.shortlex_cmp(&self.best.tree).is_ge() {
            return rejected;
        }
        let replayed = fingerprint(candidate.tree.choices());
        if self.passed.contains_key(&replayed) {
            self.passed.insert(edited, length);
            return rejected;
        }
        self.stats.evaluations += 1;
        self.stats.passes[self.pass].evaluations += 1;
        if (self.still_fails)(&candidate.value) {
            self.best = candidate;
            self.stats.steps += 1;
            self.stats.passes[self.pass].steps += 1;
            Attempt::Kept
        } else {
            self.passed.extend([(edited, length), (replayed, length)]);
            rejected
        }
    }

    /// The paper's first pass: the whole sequence replaced by one of its spans.
    fn replace_by_spans(&mut self) {
        // After a success the spans are those of the new best: start over on them.
        'again: loop {
            for range in self.span_ranges() {
                if self.exhausted() {
                    return;
                }
                if range.end <= self.choices().len() {
                    let inner = self.choices()[range].to_vec();
                    if self.try_choices(inner) {
                        continue 'again;
                    }
                }
            }
            return;
        }
    }

    /// Replaces each span by a span inside it that opens with a pick of the same arity: most
    /// often a value of the same type nested in it (a subtree for a tree).
    fn replace_by_descendants(&mut self) {
        let mut at = 0;
        let mut spans = self.spans_in_order();
        loop {
            if self.exhausted() {
                return;
            }
            let Some(outer) = spans.get(at).cloned() else {
                return;
            };
            let Some(outer_arity) = opening_arity(self.choices(), &outer) else {
                at += 1;
                continue;
            };
            let mut replaced = false;
            // Spans are in the order they were opened: those nested in `outer` follow it.
            for inner in spans[at + 1..]
                .iter()
                .take_while(|inner| inner.start < outer.end)
            {
                let nested = inner.end <= outer.end && inner.len() < outer.len();
                if !nested || opening_arity(self.choices(), inner) != Some(outer_arity) {
                    continue;
                }
                let mut candidate = self.choices()[..outer.start].to_vec();
                candidate.extend_from_slice(&self.choices()[inner.clone()]);
                candidate.extend_from_slice(&self.choices()[outer.end..]);
                if self.try_choices(candidate) {
                    replaced = true;
                    break;
                }
            }
            if replaced {
                spans = self.spans_in_order();
            } else {
                at += 1;
            }
        }
    }

    /// Deletes each span that is not an element of a collection (those go in
    /// [`delete_elements`](Self::delete_elements), with the length lowered).
    fn delete_spans(&mut self) {
        let mut ranges = self.span_ranges();
        let mut elements = self.element_starts();
        while let Some(range) = ranges.pop() {
            if self.exhausted() {
                return;
            }
            if range.end > self.choices().len() || elements.contains(&range.start) {
                continue;
            }
            let mut without = self.choices().to_vec();
            without.drain(range);
            if self.try_choices(without) {
                ranges = self.span_ranges();
                elements = self.element_starts();
            }
        }
    }

    /// The collections among the best choices: spans that open with an integer (the length)
    /// and end with a run of that many adjacent spans (the elements).
    fn collections(&self) -> Vec<Collection> {
        let spans = self.best.tree.spans();
        let choices = self.choices();
        // Spans are stored in the order they were opened: a parent before its children.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); spans.len()];
        let mut open: Vec<usize> = Vec::new();
        for (index, span) in spans.iter().enumerate() {
            let range = span.range();
            while open
                .last()
                .is_some_and(|&top| spans[top].range().end <= range.start && !range.is_empty())
            {
                open.pop();
            }
            if let Some(&parent) = open.last() {
                children[parent].push(index);
            }
            open.push(index);
        }
        let mut collections = Vec::new();
        for (index, span) in spans.iter().enumerate() {
            let range = span.range();
            let elements: Vec<std::ops::Range<usize>> = children[index]
                .iter()
                .map(|&child| spans[child].range())
                .collect();
            let (Some(first), Some(last)) = (elements.first(), elements.last()) else {
                continue;
            };
            let adjacent = elements.windows(2).all(|pair| pair[0].end == pair[1].start);
            // The length counts the elements: a struct that opens with an integer and ends
            // with a collection is not one.
            let opens_with_length = first.start > range.start
                && matches!(choices.get(range.start), Some(&Choice::Int { value, .. })
                    if usize::try_from(value).is_ok_and(|length| length == elements.len()));
            if adjacent && opens_with_length && last.end == range.end {
                collections.push(Collection {
                    count: range.start,
                    elements,
                });
            }
        }
        collections
    }

    /// Where the elements of the collections start.
    fn element_starts(&self) -> HashSet<usize> {
        self.collections()
            .into_iter()
            .flat_map(|collection| collection.elements.into_iter().map(|element| element.start))
            .collect()
    }

    /// Moves a pick's span out of an element of a collection into an earlier empty collection,
    /// as its only element, and deletes the element it came from: an expression from a
    /// statement into the arguments before, a subtree from one list into another.
    fn hoist_into_empty(&mut self) {
        const MAX_SPANS: usize = 8;
        let mut at = 0;
        // Found again after each move, which changes the choices.
        'moved: loop {
            let choices = self.choices();
            let spans = self.spans_in_order();
            // An empty collection reads as a span of one integer at its simplest, its length.
            let empties: Vec<std::ops::Range<usize>> = spans
                .iter()
                .filter(|range| range.start >= at && range.len() == 1)
                .filter(|range| {
                    matches!(choices[range.start], Choice::Int { value, lo, hi }
                        if value == nearest_zero(lo, hi) && next_simplest(lo, hi).is_some())
                })
                .cloned()
                .collect();
            // Spans are in the order they were opened, so by where they start.
            let picks: Vec<std::ops::Range<usize>> = spans
                .into_iter()
                .filter(|range| matches!(choices[range.start], Choice::Pick { .. }))
                .collect();
            let mut collections = None;
            for empty in empties {
                if self.exhausted() {
                    return;
                }
                at = empty.start + 1;
                let first = picks.partition_point(|range| range.start < empty.end);
                let nearby = &picks[first..(first + MAX_SPANS).min(picks.len())];
                if nearby.is_empty() {
                    continue;
                }
                let collections = collections.get_or_insert_with(|| self.collections());
                for moved in nearby {
                    let Some(candidate) = hoisted(self.choices(), collections, &empty, moved)
                    else {
                        continue;
                    };
                    if self.try_choices(candidate) {
                        continue 'moved;
                    }
                }
            }
            return;
        }
    }

    /// Deletes runs of elements from each collection, the length lowered by as many: from
    /// each element, one, then twice as many as the last run that went, while they go, then
    /// halves. A long collection loses most of its elements in a few evaluations.
    fn delete_elements(&mut self) {
        self.over_runs(true, |choices, collection, run| {
            let k = run.len() as i128;
            let lower = lowered(&choices[collection.count], k)?;
            let span = collection.elements[run.start].start..collection.elements[run.end - 1].end;
            let mut without = choices[..span.start].to_vec();
            without.extend_from_slice(&choices[span.end..]);
            without[collection.count] = lower;
            Some(without)
        });
    }

    /// Sets runs of elements of each collection to their simplest choices, in runs grown as
    /// [`delete_elements`](Self::delete_elements) grows them.
    fn zero_elements(&mut self) {
        self.over_runs(false, |choices, collection, run| {
            let span = collection.elements[run.start].start..collection.elements[run.end - 1].end;
            if choices[span.clone()]
                .iter()
                .all(|choice| choice.simplicity() == 0)
            {
                return None;
            }
            let mut zeroed = choices.to_vec();
            for choice in &mut zeroed[span] {
                *choice = simplest(choice);
            }
            Some(zeroed)
        });
    }

    /// Applies `edit` to runs of elements of each collection, from each element on: a run of
    /// one, then runs twice as long while the edit is kept, then half as long down to one.
    /// `edit` gives the edited choices, or `None` where it does not apply. With `skip_repeats`,
    /// an element equal to the one before, where nothing was kept, is passed over: the edit
    /// would give the same choices again (as deleting either of two equal elements does).
    fn over_runs(
        &mut self,
        skip_repeats: bool,
        edit: impl Fn(&[Choice], &Collection, std::ops::Range<usize>) -> Option<Vec<Choice>>,
    ) {
        let mut which = 0;
        let (mut element, mut length, mut growing) = (0, 1, true);
        // Found again only after a kept edit, which changes the choices.
        let mut collection = self.collections().into_iter().nth(which);
        while let Some(current) = &collection {
            if self.exhausted() {
                return;
            }
            if element >= current.elements.len() {
                which += 1;
                (element, length, growing) = (0, 1, true);
                collection = self.collections().into_iter().nth(which);
                continue;
            }
            let run = element..(element + length).min(current.elements.len());
            let kept = edit(self.choices(), current, run).is_some_and(|e| self.try_choices(e));
            if kept {
                collection = self.collections().into_iter().nth(which);
            }
            if kept && growing {
                length = length.saturating_mul(2);
            } else {
                growing = false;
                length /= 2;
            }
            if length == 0 {
                (element, length, growing) = (element + 1, 1, true);
                while skip_repeats
                    && !kept
                    && let Some(current) = &collection
                {
                    let elements = &current.elements;
                    let choices = self.choices();
                    let repeats = element < elements.len()
                        && choices[elements[element].clone()]
                            == choices[elements[element - 1].clone()];
                    if !repeats {
                        break;
                    }
                    element += 1;
                }
            }
        }
    }

    /// Moves value between two nearby integers: the first toward its simplest value, the
    /// second away by as much (all of it, then half, ...), so that a sum they make stays and
    /// the first can go. The second wraps around its range, as a fixed-width integer does.
    fn redistribute(&mut self) {
        const WINDOW: usize = 16;
        let mut i = 0;
        while i < self.choices().len() {
            if self.exhausted() {
                return;
            }
            for j in i + 1..(i + 1 + WINDOW).min(self.choices().len()) {
                // A success can shorten the choices.
                if j >= self.choices().len() {
                    break;
                }
                let (
                    Choice::Int {
                        value: a,
                        lo: alo,
                        hi: ahi,
                    },
                    Choice::Int {
                        value: b,
                        lo: blo,
                        hi: bhi,
                    },
                ) = (self.choices()[i].clone(), self.choices()[j].clone())
                else {
                    continue;
                };
                let origin = nearest_zero(alo, ahi);
                let mut amount = a.saturating_sub(origin);
                while amount != 0 {
                    if let Some(moved) = add_within(b, amount, blo, bhi) {
                        let mut edited = self.choices().to_vec();
                        set_int(&mut edited[i], a - amount);
                        set_int(&mut edited[j], moved);
                        if self.try_choices(edited) {
                            break;
                        }
                    }
                    amount /= 2;
                }
            }
            i += 1;
        }
    }

    /// Swaps two adjacent spans of one kind (two elements, two lists, two subtrees) when
    /// the choices read simpler in the other order (the paper's "swap to lexically smaller").
    fn swap_siblings(&mut self) {
        let mut at = 0;
        let mut pairs = self.adjacent_pairs();
        loop {
            if self.exhausted() {
                return;
            }
            let Some((first, second)) = pairs.get(at).cloned() else {
                return;
            };
            if second.end > self.choices().len() {
                return;
            }
            at += 1;
            let choices = self.choices();
            let (a, b) = (&choices[first.clone()], &choices[second.clone()]);
            let simplicity = |c: &Choice| c.simplicity();
            let swapped_is_simpler = b
                .iter()
                .chain(a)
                .map(simplicity)
                .lt(a.iter().chain(b).map(simplicity));
            if !swapped_is_simpler {
                continue;
            }
            let mut swapped = choices[..first.start].to_vec();
            swapped.extend_from_slice(b);
            swapped.extend_from_slice(a);
            swapped.extend_from_slice(&choices[second.end..]);
            if self.try_choices(swapped) {
                // The pairs are those of the new best: look at the same place again.
                pairs = self.adjacent_pairs();
                at = at.saturating_sub(2);
            }
        }
    }

    /// The pairs of non-empty spans of one kind (the same label, or opening with picks of the
    /// same arity) where the second starts as the first ends, in the order of the first's
    /// start.
    fn adjacent_pairs(&self) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
        let spans = self.best.tree.spans();
        let mut by_start: Vec<&crate::choice::Span> = spans
            .iter()
            .filter(|span| !span.range().is_empty())
            .collect();
        by_start.sort_by_key(|span| (span.range().start, span.range().end));
        let mut pairs = Vec::new();
        let choices = self.choices();
        let same_arity_picks = |a: &crate::choice::Span, b: &crate::choice::Span| {
            let arity = opening_arity(choices, &a.range());
            arity.is_some() && arity == opening_arity(choices, &b.range())
        };
        for first in &by_start {
            let end = first.range().end;
            let from = by_start.partition_point(|span| span.range().start < end);
            for second in by_start[from..]
                .iter()
                .take_while(|span| span.range().start == end)
            {
                if second.label() == first.label() || same_arity_picks(first, second) {
                    pairs.push((first.range(), second.range()));
                }
            }
        }
        pairs.sort_by_key(|(first, _)| first.start);
        pairs.dedup();
        pairs
    }

    /// Tries each pick on a simpler branch, the branch's choices replaced by the simplest ones
    /// it takes and the choices after it kept: a subtree becomes a leaf, a constructor a
    /// simpler one with the simplest fields.
    fn simpler_branches(&mut self) {
        let mut at = 0;
        while at < self.choices().len() {
            if self.exhausted() {
                return;
            }
            if let Choice::Pick { index, .. } = self.choices()[at] {
                for lower in 0..index {
                    let Some((candidate, branch)) = self.with_simplest_branch(at, lower) else {
                        continue;
                    };
                    if self.try_choices(candidate.clone()) || self.bump_one(candidate, branch) {
                        break;
                    }
                }
            }
            at += 1;
        }
    }

    /// Tries `candidate` with one of the first integers in `branch` one step from its simplest
    /// value: a simpler branch whose simplest fields do not fail may fail with one field
    /// nudged (`a && b` for `a || b` needs two different operands).
    fn bump_one(&mut self, candidate: Vec<Choice>, branch: std::ops::Range<usize>) -> bool {
        const MAX_BUMPS: usize = 8;
        let nudgeable: Vec<(usize, i128)> = branch
            .filter_map(|i| match candidate[i] {
                Choice::Int { value, lo, hi } if value == nearest_zero(lo, hi) => {
                    next_simplest(lo, hi).map(|next| (i, next))
                }
                _ => None,
            })
            .take(MAX_BUMPS)
            .collect();
        for (i, next) in nudgeable {
            let mut bumped = candidate.clone();
            set_int(&mut bumped[i], next);
            if self.try_choices(bumped) {
                return true;
            }
        }
        false
    }

    /// The best choices with the pick at `at` on branch `lower`, that branch's choices the
    /// simplest ones, and the choices after the old branch kept, with the new branch's place;
    /// `None` if the pick opens no span or the new choices do not replay.
    fn with_simplest_branch(
        &self,
        at: usize,
        lower: u32,
    ) -> Option<(Vec<Choice>, std::ops::Range<usize>)> {
        let old_end = innermost_span_end(&self.best.tree, at)?;
        let mut prefix = self.choices()[..=at].to_vec();
        set_pick(&mut prefix[at], lower);
        let size = self.best.tree.size();
        let simplest = self.replay(&ChoiceTree::from_parts(size, prefix, [])?)?;
        let new_end = innermost_span_end(&simplest.tree, at)?;
        let mut candidate = simplest.tree.choices()[..new_end].to_vec();
        candidate.extend_from_slice(&self.choices()[old_end..]);
        Some((candidate, at..new_end))
    }

    /// Lowers integers that hold the same value together, as one: toward 0 by binary search
    /// (repair clamps a value outside an integer's range into it). Values that must stay equal
    /// (a key and its copy) move only this way.
    fn lower_duplicates(&mut self) {
        let mut values: Vec<i128> = self
            .choices()
            .iter()
            .filter_map(|choice| match *choice {
                Choice::Int { value, lo, hi } if value != nearest_zero(lo, hi) => Some(value),
                _ => None,
            })
            .collect();
        values.sort_unstable();
        let duplicated: Vec<i128> = values
            .chunk_by(|a, b| a == b)
            .filter(|run| run.len() > 1)
            .map(|run| run[0])
            .collect();
        for value in duplicated {
            if self.exhausted() {
                return;
            }
            let places: Vec<usize> = (0..self.choices().len())
                .filter(
                    |&i| matches!(self.choices()[i], Choice::Int { value: v, .. } if v == value),
                )
                .collect();
            if places.len() < 2 {
                continue;
            }
            if self.set_all(&places, 0) != Tried::Rejected {
                continue;
            }
            // Fails at distance `far` from 0, not known to fail at `near`.
            let (mut near, mut far) = (0u128, value.unsigned_abs());
            while far - near > 1 && self.stats.stopped == Stopped::Fixpoint {
                let mid = near + (far - near) / 2;
                let tried = if value > 0 {
                    0i128.wrapping_add_unsigned(mid)
                } else {
                    0i128.wrapping_sub_unsigned(mid)
                };
                match self.set_all(&places, tried) {
                    Tried::Kept => far = mid,
                    Tried::Rejected => near = mid,
                    Tried::Reshaped => break,
                }
            }
        }
    }

    /// Tries the best choices with the integers at `places` set to `to`.
    fn set_all(&mut self, places: &[usize], to: i128) -> Tried {
        let mut edited = self.choices().to_vec();
        for &i in places {
            set_int(&mut edited[i], to);
        }
        if !self.try_choices(edited) {
            return Tried::Rejected;
        }
        let kept = places.iter().all(
            |&i| matches!(self.choices().get(i), Some(Choice::Int { value, .. }) if *value == to),
        );
        if kept { Tried::Kept } else { Tried::Reshaped }
    }

    /// Deletes blocks of 8, 4, 2 and 1 consecutive choices, at every position.
    fn delete_blocks(&mut self) {
        for width in [8, 4, 2, 1] {
            let mut start = 0;
            while start + width <= self.choices().len() {
                if self.exhausted() {
                    return;
                }
                let mut without = self.choices().to_vec();
                without.drain(start..start + width);
                if !self.try_choices(without) {
                    start += 1;
                    // Deleting the next block gives the same choices while the choice that
                    // comes into the block equals the one that leaves it.
                    let choices = self.choices();
                    while start + width <= choices.len()
                        && choices[start - 1] == choices[start - 1 + width]
                    {
                        start += 1;
                    }
                }
            }
        }
    }

    /// Sets every choice of a span to its simplest.
    fn zero_spans(&mut self) {
        for range in self.span_ranges() {
            if self.exhausted() {
                return;
            }
            if range.end > self.choices().len() {
                continue;
            }
            if self.choices()[range.clone()]
                .iter()
                .all(|choice| choice.simplicity() == 0)
            {
                continue;
            }
            let mut zeroed = self.choices().to_vec();
            for choice in &mut zeroed[range] {
                *choice = simplest(choice);
            }
            self.try_choices(zeroed);
        }
    }

    /// Minimises each choice alone: the lowest pick index that still fails, an integer by
    /// binary search between its simplest value and its current one.
    fn minimise_choices(&mut self) {
        let mut at = 0;
        while at < self.choices().len() {
            if self.exhausted() {
                return;
            }
            match self.choices()[at].clone() {
                Choice::Pick { index, .. } => {
                    for lower in 0..index {
                        if self.try_with(at, |choice| set_pick(choice, lower)) {
                            break;
                        }
                    }
                }
                Choice::Int { value, lo, hi } => self.minimise_int(at, value, lo, hi),
            }
            at += 1;
        }
    }

    /// Binary search for the integer at `at` nearest its simplest value that still fails.
    fn minimise_int(&mut self, at: usize, value: i128, lo: i128, hi: i128) {
        let origin = nearest_zero(lo, hi);
        if value == origin || self.try_int(at, origin) {
            return;
        }
        // Below an origin inside the range, the value as far above is simpler.
        let mirrored = origin
            .checked_add(origin.abs_diff(value).try_into().unwrap_or(i128::MAX))
            .filter(|&mirror| value < origin && mirror <= hi);
        if let Some(mirror) = mirrored
            && self.try_int(at, mirror)
        {
            // Go on from the mirror, if it is still there.
            if let Some(&Choice::Int { value, lo, hi }) = self.choices().get(at)
                && value == mirror
            {
                self.minimise_int(at, value, lo, hi);
            }
            return;
        }
        let toward = |distance: u128| {
            if value > origin {
                origin.wrapping_add_unsigned(distance)
            } else {
                origin.wrapping_sub_unsigned(distance)
            }
        };
        // Fails at distance `far`, not known to fail at `near`.
        let (mut near, mut far) = (0u128, value.abs_diff(origin));
        while far - near > 1 && self.stats.stopped == Stopped::Fixpoint {
            let mid = near + (far - near) / 2;
            let tried = toward(mid);
            if self.try_int(at, tried) {
                // A success can change which choice sits at `at`: go on only if it is the
                // integer just tried.
                if !matches!(self.choices().get(at), Some(Choice::Int { value, .. }) if *value == tried)
                {
                    return;
                }
                far = mid;
            } else {
                near = mid;
            }
        }
    }

    /// Tries the best choices with the integer at `at` set to `to`. Where that replays to fewer
    /// choices (a smaller count: fewer elements read) and does not fail, also tries dropping
    /// as many choices at the start of each of the next few spans instead of at the end, so
    /// that the elements kept are the last ones (a matrix of fewer rows keeps the element that
    /// failed).
    fn try_int(&mut self, at: usize, to: i128) -> bool {
        const MAX_PLACES: usize = 4;
        if at >= self.choices().len() {
            return false;
        }
        let mut edited = self.choices().to_vec();
        set_int(&mut edited[at], to);
        let replayed = match self.attempt(edited.clone()) {
            Attempt::Kept => return true,
            Attempt::Rejected {
                replayed: Some(replayed),
            } => replayed,
            Attempt::Rejected { replayed: None } => return false,
        };
        let dropped = edited.len().saturating_sub(replayed);
        if dropped == 0 {
            return false;
        }
        let mut places: Vec<usize> = self
            .best
            .tree
            .spans()
            .iter()
            .map(|span| span.range().start)
            .filter(|&start| start > at && start + dropped <= edited.len())
            .collect();
        places.sort_unstable();
        places.dedup();
        for place in places.into_iter().take(MAX_PLACES) {
            let mut without = edited.clone();
            without.drain(place..place + dropped);
            if self.try_choices(without) {
                return true;
            }
        }
        false
    }

    /// Tries the best choices with the one at `at` changed by `edit`.
    fn try_with(&mut self, at: usize, edit: impl FnOnce(&mut Choice)) -> bool {
        if at >= self.choices().len() {
            return false;
        }
        let mut edited = self.choices().to_vec();
        edit(&mut edited[at]);
        self.try_choices(edited)
    }
}

/// `choice` with its simplest value: the first pick index, the integer nearest zero.
fn simplest(choice: &Choice) -> Choice {
    let mut simplest = choice.clone();
    match &mut simplest {
        Choice::Pick { index, .. } => *index = 0,
        Choice::Int { value, lo, hi } => *value = nearest_zero(*lo, *hi),
    }
    simplest
}

/// A hash of the values of `choices`: what replay reads of them (bounds, arities and labels
/// are not read).
fn fingerprint(choices: &[Choice]) -> u64 {
    let mut hasher = DefaultHasher::new();
    choices.len().hash(&mut hasher);
    for choice in choices {
        match *choice {
            Choice::Pick { index, .. } => (0u8, u128::from(index)).hash(&mut hasher),
            Choice::Int { value, .. } => (1u8, value).hash(&mut hasher),
        }
    }
    hasher.finish()
}

/// An integer choice `by` steps nearer its simplest value, if it is that far from it.
fn lowered(choice: &Choice, by: i128) -> Option<Choice> {
    let Choice::Int { value, lo, hi } = *choice else {
        return None;
    };
    let origin = nearest_zero(lo, hi);
    let nearer = if value > origin {
        value.checked_sub(by).filter(|&v| v >= origin)?
    } else {
        value.checked_add(by).filter(|&v| v <= origin)?
    };
    (nearer != value).then_some(Choice::Int {
        value: nearer,
        lo,
        hi,
    })
}

/// A collection among the choices: where its length is, and where each element is.
struct Collection {
    /// The index of the length.
    count: usize,
    /// The elements' choices, adjacent, in order.
    elements: Vec<std::ops::Range<usize>>,
}

/// The value one step simpler than the simplest in `lo..=hi` (1 after 0, or -1 where 1 is out
/// of range), if the range has two values.
fn next_simplest(lo: i128, hi: i128) -> Option<i128> {
    let origin = nearest_zero(lo, hi);
    [origin.checked_add(1), origin.checked_sub(1)]
        .into_iter()
        .flatten()
        .find(|next| (lo..=hi).contains(next))
}

/// `choices` with the span `moved` as the only element of the empty collection `empty`, and
/// the innermost element of `collections` that held it deleted, its length lowered; `None`
/// if no element after `empty` holds it.
fn hoisted(
    choices: &[Choice],
    collections: &[Collection],
    empty: &std::ops::Range<usize>,
    moved: &std::ops::Range<usize>,
) -> Option<Vec<Choice>> {
    let (count, element) = collections
        .iter()
        .flat_map(|collection| {
            collection
                .elements
                .iter()
                .map(|element| (collection.count, element))
        })
        .filter(|(_, element)| element.start <= moved.start && moved.end <= element.end)
        .min_by_key(|(_, element)| element.len())?;
    if count < empty.end {
        return None;
    }
    let lower = lowered(&choices[count], 1)?;
    let mut candidate = choices[..empty.start].to_vec();
    candidate.push(next_simplest_of(&choices[empty.start])?);
    candidate.extend_from_slice(&choices[moved.clone()]);
    candidate.extend_from_slice(&choices[empty.end..element.start]);
    candidate.extend_from_slice(&choices[element.end..]);
    // The length sat before the element: its place moved by what went in.
    candidate[count + moved.len()] = lower;
    Some(candidate)
}

/// `choice`, an integer, one step from its simplest value.
fn next_simplest_of(choice: &Choice) -> Option<Choice> {
    let Choice::Int { lo, hi, .. } = *choice else {
        return None;
    };
    Some(Choice::Int {
        value: next_simplest(lo, hi)?,
        lo,
        hi,
    })
}

/// The arity of the pick a span opens with; `None` for a span that opens with an integer.
fn opening_arity(choices: &[Choice], span: &std::ops::Range<usize>) -> Option<u32> {
    match choices.get(span.start)? {
        Choice::Pick { arity, .. } => Some(*arity),
        Choice::Int { .. } => None,
    }
}

/// What became of a candidate in [`Search::attempt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Attempt {
    /// It became the best.
    Kept,
    /// It did not; how many choices it replayed to, if it was replayed (or remembered).
    Rejected { replayed: Option<usize> },
}

/// What became of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tried {
    /// It became the best, with the choices edited where they were.
    Kept,
    /// It did not become the best.
    Rejected,
    /// It became the best, but repair moved the choices: places found before no longer hold.
    Reshaped,
}

/// Where the innermost span that starts at choice `at` ends: for a pick, its branch.
fn innermost_span_end(tree: &ChoiceTree, at: usize) -> Option<usize> {
    tree.spans()
        .iter()
        .map(|span| span.range())
        .filter(|range| range.start == at && !range.is_empty())
        .map(|range| range.end)
        .min()
}

/// `value + amount` inside `lo..=hi`, wrapping around the range as a fixed-width integer wraps;
/// `None` if the arithmetic overflows.
fn add_within(value: i128, amount: i128, lo: i128, hi: i128) -> Option<i128> {
    let moved = value.checked_add(amount)?;
    if (lo..=hi).contains(&moved) {
        return Some(moved);
    }
    let width = hi.checked_sub(lo)?.checked_add(1)?;
    Some(lo + moved.checked_sub(lo)?.rem_euclid(width))
}

fn set_pick(choice: &mut Choice, to: u32) {
    if let Choice::Pick { index, .. } = choice {
        *index = to;
    }
}

fn set_int(choice: &mut Choice, to: i128) {
    if let Choice::Int { value, .. } = choice {
        *value = to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;

    type Lists = Gen<Vec<u32>, Vec<u32>>;

    /// The generator of lists, and a failing list with its choices.
    fn start() -> (Lists, Generated<Vec<u32>>) {
        let g = vec(range(0u32..=1000), ..).boxed();
        let tree = g.reflector().choices(&vec![900; 30]).unwrap().remove(0);
        let generated = g.replay_repaired(&tree).unwrap();
        (g, generated)
    }

    /// The property, failing on lists that sum past 500.
    #[allow(
        clippy::ptr_arg,
        reason = "the shrinker passes the generator's output, a Vec"
    )]
    fn fails(xs: &Vec<u32>) -> bool {
        xs.iter().sum::<u32>() > 500
    }

    #[test]
    fn budgets_stop_the_shrink_and_say_so() {
        let (g, generated) = start();
        let few = shrink(
            &g,
            generated.clone(),
            &fails,
            ShrinkBudget::default().max_evaluations(5),
        );
        assert_eq!(few.stats.stopped, Stopped::Evaluations);
        assert_eq!(few.stats.evaluations, 5);
        assert!(fails(&few.value));
        let no_time = shrink(
            &g,
            generated.clone(),
            &fails,
            ShrinkBudget::default().max_time(Duration::ZERO),
        );
        assert_eq!(no_time.stats.stopped, Stopped::Time);
        assert_eq!(no_time.value, generated.value);
        let whole = shrink(&g, generated, &fails, ShrinkBudget::default());
        assert_eq!(whole.stats.stopped, Stopped::Fixpoint);
        assert_eq!(whole.value, [501]);
        assert_eq!(whole.stats.passes.len(), 13);
    }
}
