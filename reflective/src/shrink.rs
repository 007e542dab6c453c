//! The choice shrinker: simpler choice sequences that still fail, found by named passes looped
//! to a fixpoint, as Hypothesis's internal reduction does (the paper, section 6).
//!
//! A candidate is an edited choice sequence. It is replayed with repair (a choice that no
//! longer fits takes the simplest value, one left over is dropped), and kept if the choices
//! replay actually made are shortlex-smaller than the best so far and the value still fails.
//! Because generators reflect, the start can be any value the generator can produce: its
//! choices come from reflection.
//!
//! The passes, in order: replace the whole sequence by one of its spans; replace a span by a
//! span nested in it that opens with a pick of the same arity (a subtree); delete a span (with
//! the count before it, such as a collection's length, lowered by one); delete blocks of
//! consecutive choices; set a span's choices to their simplest; minimise each choice alone
//! (the lowest pick index, an integer by binary search toward its simplest value); move value
//! between two nearby integers, the first toward its simplest; and swap
//! two adjacent spans of one label when the second is simpler.

use std::time::{Duration, Instant};

use crate::choice::{Choice, ChoiceTree, nearest_zero};
use crate::generator::Generator;
use crate::interpret::Generated;

/// The most property evaluations a shrink makes unless told otherwise.
pub const DEFAULT_MAX_EVALUATIONS: usize = 10_000;

/// The longest a shrink runs unless told otherwise.
pub const DEFAULT_MAX_TIME: Duration = Duration::from_secs(10);

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
    max_evaluations: usize,
    max_time: Duration,
) -> Shrunk<G::Output> {
    type Pass<'s, G> = fn(&mut Search<'s, G>);
    let passes: [(&'static str, Pass<'_, G>); 8] = [
        ("replace by a span", Search::replace_by_spans),
        ("replace by a nested span", Search::replace_by_descendants),
        ("delete spans", Search::delete_spans),
        ("delete blocks", Search::delete_blocks),
        ("zero spans", Search::zero_spans),
        ("minimise choices", Search::minimise_choices),
        ("redistribute", Search::redistribute),
        ("swap siblings", Search::swap_siblings),
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
                })
                .collect(),
            ..ShrinkStats::default()
        },
        pass: 0,
        max_evaluations,
        deadline: Instant::now() + max_time,
        started: Instant::now(),
    };
    loop {
        let before = search.stats.steps;
        for (index, (_, pass)) in passes.iter().enumerate() {
            search.pass = index;
            pass(&mut search);
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
    max_evaluations: usize,
    deadline: Instant,
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

    /// Tries `choices`: keeps them if they replay to a shortlex-smaller sequence whose value
    /// still fails.
    fn try_choices(&mut self, choices: Vec<Choice>) -> bool {
        if self.stats.stopped != Stopped::Fixpoint {
            return false;
        }
        if self.stats.evaluations >= self.max_evaluations {
            self.stats.stopped = Stopped::Evaluations;
            return false;
        }
        if Instant::now() >= self.deadline {
            self.stats.stopped = Stopped::Time;
            return false;
        }
        let size = self.best.tree.size();
        let Some(tree) = ChoiceTree::from_parts(size, choices, []) else {
            return false;
        };
        if tree.shortlex_cmp(&self.best.tree).is_ge() {
            return false;
        }
        let Ok(candidate) = self.g.replay_repaired(&tree) else {
            return false;
        };
        if candidate.tree.shortlex_cmp(&self.best.tree).is_ge() {
            return false;
        }
        self.stats.evaluations += 1;
        self.stats.passes[self.pass].evaluations += 1;
        if (self.still_fails)(&candidate.value) {
            self.best = candidate;
            self.stats.steps += 1;
            self.stats.passes[self.pass].steps += 1;
            true
        } else {
            false
        }
    }

    /// The paper's first pass: the whole sequence replaced by one of its spans.
    fn replace_by_spans(&mut self) {
        // After a success the spans are those of the new best: start over on them.
        'again: loop {
            for range in self.span_ranges() {
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
        loop {
            let spans = self.spans_in_order();
            let Some(outer) = spans.get(at).cloned() else {
                return;
            };
            let arity =
                |range: &std::ops::Range<usize>, choices: &[Choice]| match choices[range.start] {
                    Choice::Pick { arity, .. } => Some(arity),
                    Choice::Int { .. } => None,
                };
            let outer_arity = arity(&outer, self.choices());
            let mut replaced = false;
            for inner in &spans {
                let nested = inner.start >= outer.start
                    && inner.end <= outer.end
                    && inner.len() < outer.len();
                if !nested || outer_arity.is_none() || arity(inner, self.choices()) != outer_arity {
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
            if !replaced {
                at += 1;
            }
        }
    }

    /// Deletes each span; where that alone does not fit, also lowers the count before it by
    /// one (a collection's length before an element).
    fn delete_spans(&mut self) {
        let mut ranges = self.span_ranges();
        while let Some(range) = ranges.pop() {
            if range.end > self.choices().len() {
                continue;
            }
            let mut without = self.choices().to_vec();
            without.drain(range.clone());
            if self.try_choices(without.clone()) {
                ranges = self.span_ranges();
                continue;
            }
            if let Some(count) = self.count_before(range.start)
                && let Some(lower) = lowered(&without[count])
            {
                without[count] = lower;
                if self.try_choices(without) {
                    ranges = self.span_ranges();
                }
            }
        }
    }

    /// The choice just before the run of adjacent spans that ends at `start`: where a
    /// collection records its length before its elements.
    fn count_before(&self, start: usize) -> Option<usize> {
        let spans = self.best.tree.spans();
        let mut at = start;
        while let Some(sibling) = spans
            .iter()
            .map(|span| span.range())
            .find(|range| range.end == at && range.start < at)
        {
            at = sibling.start;
        }
        at.checked_sub(1)
    }

    /// Moves value between two nearby integers: the first toward its simplest value, the
    /// second away by as much (all of it, then half, ...), so that a sum they make stays and
    /// the first can go.
    fn redistribute(&mut self) {
        const WINDOW: usize = 16;
        let mut i = 0;
        while i < self.choices().len() {
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
                    let moved = b.checked_add(amount).filter(|v| (blo..=bhi).contains(v));
                    if let Some(moved) = moved {
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

    /// Swaps two adjacent spans of the same label and length when the second's choices are
    /// simpler than the first's (the paper's "swap to lexically smaller").
    fn swap_siblings(&mut self) {
        let mut pairs = Vec::new();
        for a in self.best.tree.spans() {
            for b in self.best.tree.spans() {
                let (ra, rb) = (a.range(), b.range());
                if ra.end == rb.start
                    && ra.len() == rb.len()
                    && !ra.is_empty()
                    && a.label() == b.label()
                {
                    pairs.push((ra, rb));
                }
            }
        }
        for (ra, rb) in pairs {
            if rb.end > self.choices().len() {
                continue;
            }
            let simplicity = |range: &std::ops::Range<usize>, choices: &[Choice]| {
                choices[range.clone()]
                    .iter()
                    .map(Choice::simplicity)
                    .collect::<Vec<_>>()
            };
            if simplicity(&rb, self.choices()) >= simplicity(&ra, self.choices()) {
                continue;
            }
            let mut swapped = self.choices().to_vec();
            let second: Vec<Choice> = swapped[rb.clone()].to_vec();
            let first: Vec<Choice> = swapped[ra.clone()].to_vec();
            swapped.splice(rb, first);
            swapped.splice(ra, second);
            self.try_choices(swapped);
        }
    }

    /// Deletes blocks of 8, 4, 2 and 1 consecutive choices, at every position.
    fn delete_blocks(&mut self) {
        for width in [8, 4, 2, 1] {
            let mut start = 0;
            while start + width <= self.choices().len() {
                let mut without = self.choices().to_vec();
                without.drain(start..start + width);
                if !self.try_choices(without) {
                    start += 1;
                }
            }
        }
    }

    /// Sets every choice of a span to its simplest.
    fn zero_spans(&mut self) {
        for range in self.span_ranges() {
            if range.end > self.choices().len() {
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
        if value == origin || self.try_with(at, |choice| set_int(choice, origin)) {
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
            if self.try_with(at, |choice| set_int(choice, tried)) {
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

/// An integer choice one step nearer its simplest value, if it is not there.
fn lowered(choice: &Choice) -> Option<Choice> {
    let Choice::Int { value, lo, hi } = choice else {
        return None;
    };
    let origin = nearest_zero(*lo, *hi);
    let nearer = match value.cmp(&origin) {
        std::cmp::Ordering::Equal => return None,
        std::cmp::Ordering::Greater => value - 1,
        std::cmp::Ordering::Less => value + 1,
    };
    Some(Choice::Int {
        value: nearer,
        lo: *lo,
        hi: *hi,
    })
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
        let few = shrink(&g, generated.clone(), &fails, 5, Duration::from_secs(60));
        assert_eq!(few.stats.stopped, Stopped::Evaluations);
        assert_eq!(few.stats.evaluations, 5);
        assert!(fails(&few.value));
        let no_time = shrink(&g, generated.clone(), &fails, 10_000, Duration::ZERO);
        assert_eq!(no_time.stats.stopped, Stopped::Time);
        assert_eq!(no_time.value, generated.value);
        let whole = shrink(&g, generated, &fails, 10_000, Duration::from_secs(60));
        assert_eq!(whole.stats.stopped, Stopped::Fixpoint);
        assert_eq!(whole.value, [501]);
        assert_eq!(whole.stats.passes.len(), 8);
    }
}
