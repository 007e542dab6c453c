//! Sequences of independent elements: the node behind every collection.
//!
//! Forward, the node draws its length first, uniform between the minimum and
//! `clamp(size, min, max)`, or further into an explicit range (see [`longest_at`]), as one
//! integer choice, then each element in a span of its own, at an equal share of the size that
//! the [size strategy](crate::strategy) sets: with the default, `size / length`. The elements
//! of a long collection are therefore small, and no element's size depends on its position. A
//! span holds the whole collection, length and elements.
//!
//! Backward, each element is reflected on its own and the ways are combined, so the stack
//! does not grow with the length: a list of a million elements reflects in a loop.

use std::collections::{BTreeSet, HashSet};
use std::hash::Hash;
use std::marker::PhantomData;
use std::ops::RangeBounds;

use crate::choice::{Choice, Label};
use crate::combinator::hole::generate_in_hole;
use crate::combinator::pick::{BranchSet, Pick};
use crate::combinator::{inclusive_bounds, written};
use crate::engine::{
    Backward, Branches, DEFAULT_SIZE, Forward, Halt, IntSite, LARGEST_SIZE, ReflectError,
    Reflected, Share, Sizing, Solution, Trace,
};
use crate::node::{Node, Sealed};

/// How many times a collection of distinct elements draws an element before giving up on it.
/// The draws stay at the elements' share of the size for the length drawn (only the integers'
/// distributions widen, see [`widened_size`]); a collection that gives up short reflects with
/// its elements at a share at least as large, which accepts them.
const DUPLICATE_RETRIES: usize = 1_000;

/// A collection that has its minimum length gives up on an element whose first
/// `FEW_REPEATS.0` draws all gave elements already drawn, at most `FEW_REPEATS.1` different
/// ones: the element generator has only those values, or others so rarely that 64 draws missed
/// them (a value of probability `p` is missed with probability `(1 - p)^64`: about half at 1%,
/// a seventh at 3%), and the [`DUPLICATE_RETRIES`] draws would most likely give them again.
/// A `BTreeSet<String>` at size 100, whose last elements' shares run out, drew an empty string
/// a thousand times for most values; a `BTreeSet<bool>` longer than 2 drew `true` and `false`
/// a thousand times. The collection ends short as it would have (a generator with no other
/// value gives the same collection), or a little shorter where a rare value was missed.
const FEW_REPEATS: (usize, usize) = (64, 8);

/// The most elements a collection generates: a longer one (from a huge size, or edited
/// choices) is an error rather than an allocation that cannot succeed.
const MAX_LENGTH: usize = u32::MAX as usize;

/// Which elements may not appear twice in a collection.
pub trait Distinct<T>: Send + Sync + 'static {
    /// Whether every element may repeat, so that nothing needs checking.
    const ALLOWS_REPEATS: bool = false;
    /// The keys seen so far.
    type Seen: Default;
    /// Records `item`'s key; false if it was already seen.
    fn insert(seen: &mut Self::Seen, item: &T) -> bool;
    /// Whether `a` and `b` have the same key.
    fn same(a: &T, b: &T) -> bool;
}

/// Every element may repeat (vectors, strings).
pub(crate) struct Duplicates;

impl<T> Distinct<T> for Duplicates {
    const ALLOWS_REPEATS: bool = true;
    type Seen = ();
    fn insert(_: &mut (), _: &T) -> bool {
        true
    }
    fn same(_: &T, _: &T) -> bool {
        false
    }
}

/// No two elements equal by `Ord` (ordered sets).
pub(crate) struct DistinctOrd;

impl<T: Ord + Clone + 'static> Distinct<T> for DistinctOrd {
    type Seen = BTreeSet<T>;
    fn insert(seen: &mut BTreeSet<T>, item: &T) -> bool {
        seen.insert(item.clone())
    }
    fn same(a: &T, b: &T) -> bool {
        a.cmp(b).is_eq()
    }
}

/// No two elements equal by `Hash` and `Eq` (hash sets).
pub(crate) struct DistinctHash;

impl<T: Hash + Eq + Clone + 'static> Distinct<T> for DistinctHash {
    type Seen = HashSet<T>;
    fn insert(seen: &mut HashSet<T>, item: &T) -> bool {
        seen.insert(item.clone())
    }
    fn same(a: &T, b: &T) -> bool {
        a == b
    }
}

/// No two entries with keys equal by `Ord` (ordered maps).
pub(crate) struct DistinctOrdKey;

impl<K: Ord + Clone + 'static, V> Distinct<(K, V)> for DistinctOrdKey {
    type Seen = BTreeSet<K>;
    fn insert(seen: &mut BTreeSet<K>, item: &(K, V)) -> bool {
        seen.insert(item.0.clone())
    }
    fn same(a: &(K, V), b: &(K, V)) -> bool {
        a.0.cmp(&b.0).is_eq()
    }
}

/// No two entries with keys equal by `Hash` and `Eq` (hash maps).
pub(crate) struct DistinctHashKey;

impl<K: Hash + Eq + Clone + 'static, V> Distinct<(K, V)> for DistinctHashKey {
    type Seen = HashSet<K>;
    fn insert(seen: &mut HashSet<K>, item: &(K, V)) -> bool {
        seen.insert(item.0.clone())
    }
    fn same(a: &(K, V), b: &(K, V)) -> bool {
        a.0 == b.0
    }
}

/// A sequence of elements drawn from `elem`, of a length in `len`, distinct as `D` says.
///
/// # Panics
///
/// If `len` is empty.
#[track_caller]
pub(crate) fn repeat<G, T, D>(elem: G, len: &impl RangeBounds<usize>) -> Repeat<G, D>
where
    G: Node<Input = T, Output = T>,
    T: Clone + Send + Sync,
    D: Distinct<T>,
{
    let Some((min, max)) = inclusive_bounds(len) else {
        panic!("collection length range is empty: {}", written(len))
    };
    Repeat {
        elements_ignore_share: elem.ignores_share(),
        elem,
        min,
        max,
        distinct: PhantomData,
    }
}

/// The generator behind every collection: a sequence of elements from `G`, distinct as `D`
/// says.
pub struct Repeat<G, D> {
    elem: G,
    /// What `elem.ignores_share()` says, asked once: its elements draw no collection, so they
    /// need no share of a budget the collection shares.
    elements_ignore_share: bool,
    min: usize,
    max: usize,
    distinct: PhantomData<fn() -> D>,
}

impl<G, D> Sealed for Repeat<G, D> {}

impl<G, D> Repeat<G, D> {
    /// The site of the collection's length at the run's size and place among nested
    /// collections: its share of the budget its siblings share with it, if the collection
    /// around gave it one; else a length up to the size. A collection of distinct elements can
    /// give up short, so it takes no part in a full level, and its lengths stay uniform when
    /// it takes no share.
    fn length_site<T>(&self, size: usize, sizing: &Sizing, share: Option<&Share>) -> IntSite
    where
        D: Distinct<T>,
    {
        match share {
            Some(share) => {
                let share = Share {
                    parts: share.parts + usize::from(!D::ALLOWS_REPEATS && share.parts == 0),
                    ..*share
                };
                let (lo, hi, share) = sizing.share_lengths(self.min, self.max, share);
                IntSite::share(lo, hi, size, share)
            }
            None => {
                let upper = if sizing.lengths_within_size() {
                    size.clamp(self.min, self.max)
                } else {
                    longest_at(size, self.min, self.max)
                };
                let (lo, hi) = if D::ALLOWS_REPEATS {
                    sizing.lengths(self.min, upper)
                } else {
                    (self.min, upper)
                };
                IntSite::count(lo, hi, size)
            }
        }
    }
}

/// The longest a collection of lengths `min..=max` may be at `size` when it takes no share of
/// a budget, under a size strategy that does not bound the whole nest by the size (all but
/// `Fixed` and `Partitions`, which keep to `clamp(size, min, max)`): the size, within those
/// lengths; and, if the lengths have an upper end, at least as far into them as `size` is into
/// [`DEFAULT_SIZE`], so that from the default size on any of them can come up (`500..=1000`
/// is 500 to 750 long at size 50, anything in the range at 100). A range whose top is at most
/// the default size and whose minimum is 0, such as `..=10`, follows the size alone, as one
/// without an upper end does, and so does one whose top is above the largest size a run may
/// use ([`LARGEST_SIZE`], 2^20): `0..usize::MAX` means "any length", not lengths in the
/// trillions.
fn longest_at(size: usize, min: usize, max: usize) -> usize {
    let by_size = size.clamp(min, max);
    if max > LARGEST_SIZE {
        return by_size;
    }
    let into_range = (max - min) as u128 * size as u128 / DEFAULT_SIZE as u128;
    let scaled = usize::try_from(into_range).map_or(max, |extra| min.saturating_add(extra));
    by_size.max(scaled.min(max))
}

impl<G, D> Repeat<G, D> {
    /// The share the collection around offers, taken unless the collection's length is fixed
    /// (an array), which cannot follow a share: that leaves it for the next collection.
    fn take_share(&self, offered: &mut Option<Share>) -> Option<Share> {
        if self.min == self.max {
            return None;
        }
        offered.take()
    }
}

/// What a collection gives the collections inside its elements to share, one element at a
/// time: the budget left, and how many elements are still to come.
struct Sharing {
    left: usize,
    /// Whether the level must be full: no unused rest.
    exact: bool,
    length: usize,
    /// Whether the budget started with a unit for each element.
    one_each: bool,
}

impl Sharing {
    /// What a collection of `length` elements at `size` gives its elements, if anything:
    /// nothing `in_recursion` (inside a node of a recursive derived type, whose elements run
    /// at equal parts of the size its node has left, see [`element_size`]).
    fn of(sizing: &Sizing, size: usize, length: usize, in_recursion: bool) -> Option<Sharing> {
        if in_recursion {
            return None;
        }
        let (left, exact) = sizing.children_budget(size, length)?;
        Some(Sharing {
            left,
            exact,
            length,
            one_each: left >= length,
        })
    }

    /// The share element `index` may take.
    fn share(&self, index: usize) -> Share {
        let after = self.length - 1 - index;
        Share {
            budget: self.left,
            parts: after + usize::from(!self.exact),
            siblings: after,
            one_each: self.one_each,
        }
    }

    /// Takes what an element's collection took (nothing if none took the share).
    fn took(&mut self, taken: Option<usize>) {
        self.left = self.left.saturating_sub(taken.unwrap_or(0));
    }
}

/// The size each of a collection's `length` elements runs at: as the strategy says, but never
/// more than an equal share of the size `in_recursion` (inside a node of a recursive derived
/// type, whose parts together use at most its size, see the combinator `recursion`).
fn element_size(sizing: &Sizing, size: usize, length: usize, in_recursion: bool) -> usize {
    let share = sizing.element_size(size, length);
    if in_recursion {
        share.min(size / length.max(1))
    } else {
        share
    }
}

/// The least size the integers of a collection's element `index` are drawn at on its draw
/// `redraw` (from 0), the earlier draws having given elements already drawn: none at the first
/// draw; then the element's size `size`, or `index` if more, doubled at each redraw.
///
/// Elements at a small share of the size draw from a few small values, which the collection's
/// first elements soon take: a `BTreeSet<u8>` of 50 elements at size 100 (each at size 2)
/// drew 118 times per element, a `BTreeMap<u8, Vec<Option<bool>>>` 610. With `index` values
/// taken, a distribution spread over about twice as many finds a new one in a draw or two.
fn widened_size(size: usize, index: usize, redraw: usize) -> usize {
    if redraw == 0 {
        return 0;
    }
    let doubling = 1usize << redraw.min(usize::BITS as usize - 1);
    size.max(index).max(1).saturating_mul(doubling)
}

/// What the collection inside an element took of its share: `taken`, unless the share is still
/// `unused` (no collection inside took it).
fn took_share(unused: Option<Share>, taken: Option<usize>) -> Option<usize> {
    taken.filter(|_| unused.is_none())
}

impl<G, T, D> Repeat<G, D>
where
    G: Node<Input = T, Output = T>,
    T: Clone + Send + Sync,
    D: Distinct<T>,
{
    /// Draws the length (a share of the budget around, see [`Share`]), then the elements at
    /// their share of the size.
    fn forward_here(&self, run: &mut Forward<'_>) -> Result<Vec<T>, Halt> {
        // The whole collection in a span, so that a shrinker can move or clear it as one.
        let span = run.open_span(None);
        let items = self.forward_spanned(run);
        run.close_span(span);
        items
    }

    /// [`forward_here`](Self::forward_here) inside the collection's span.
    fn forward_spanned(&self, run: &mut Forward<'_>) -> Result<Vec<T>, Halt> {
        let (size, sizing) = (run.size, run.sizing);
        let share = self.take_share(&mut run.share);
        let length = run.int(&self.length_site::<T>(size, &sizing, share.as_ref()))? as usize;
        if length > MAX_LENGTH {
            return Err(Halt::Failed(format!(
                "a collection of {length} elements: too many at once (at most {MAX_LENGTH}); {}",
                self.advice(length)
            )));
        }
        let in_recursion = run.fuel.is_some();
        let sharing = Sharing::of(&sizing, size, length, in_recursion);
        run.size = element_size(&sizing, size, length, in_recursion);
        run.sizing = sizing.inside();
        let items = self.forward_elements(run, length, sharing);
        run.size = size;
        run.sizing = sizing;
        let length = items.as_ref().map_or(0, Vec::len);
        run.consumed += length;
        if share.is_some() {
            run.taken = Some(length);
        }
        items
    }

    /// What to do about a collection of `length` elements too many to make: the size sets the
    /// length only above the least length the collection asks for.
    fn advice(&self, length: usize) -> String {
        if length <= self.min {
            format!("its least length is {}: ask for fewer", self.min)
        } else {
            "generate at a smaller size".to_string()
        }
    }

    /// Draws `length` elements, each in a span, the collections inside each sharing what
    /// `sharing` gives (fewer elements if a distinct one cannot be found past the minimum).
    fn forward_elements(
        &self,
        run: &mut Forward<'_>,
        length: usize,
        mut sharing: Option<Sharing>,
    ) -> Result<Vec<T>, Halt> {
        let mut items = Vec::new();
        items.try_reserve_exact(length).map_err(|_| {
            Halt::Failed(format!(
                "a collection of {length} elements does not fit in memory; {}",
                self.advice(length)
            ))
        })?;
        if D::ALLOWS_REPEATS && (sharing.is_none() || self.elements_ignore_share) {
            // Nothing to check and nothing to share: the elements, drawn in one go, if the
            // element generator can record them so. No element is offered a share, and none
            // takes one: as the loop below leaves both once it has drawn an element.
            if length > 0 {
                run.share = None;
                run.taken = None;
            }
            if !run.records() {
                self.elem.forward_many(run, length, &mut items)?;
                return Ok(items);
            }
            if self.elem.forward_many_spanned(run, length, &mut items)? {
                return Ok(items);
            }
        }
        let mut seen = D::Seen::default();
        // An enumeration takes each sequence of distinct elements once, without redraws.
        let draws = if run.redraws() { DUPLICATE_RETRIES } else { 1 };
        while items.len() < length {
            let span = run.open_span(None);
            let may_end = items.len() >= self.min;
            let drawn = self.draw_new(run, &mut seen, &mut sharing, items.len(), draws, may_end)?;
            run.close_span(span);
            match drawn {
                Some(item) => items.push(item),
                None if draws == 1 => {
                    return Err(Halt::Failed("an element already drawn".into()));
                }
                None if may_end => break,
                None => {
                    // Below the minimum length, every one of the draws was made.
                    return Err(Halt::Failed(format!(
                        "could not draw {} distinct elements: after {}, {DUPLICATE_RETRIES} \
                         draws at size {} gave only elements already drawn; the element \
                         generator may have fewer distinct values than the minimum length at \
                         this size",
                        self.min,
                        items.len(),
                        run.size
                    )));
                }
            }
        }
        Ok(items)
    }

    /// Draws element `index` of a collection of distinct elements until it is not one of those
    /// `seen`, at most `draws` times: the new element, or `None` if every draw gave a repeat
    /// (fewer than `draws` of them if the collection `may_end` and the repeats were a few
    /// values, see [`FEW_REPEATS`]). A redraw draws integers from a wider distribution (see
    /// [`widened_size`]), or from that of a redraw around this collection if wider.
    fn draw_new(
        &self,
        run: &mut Forward<'_>,
        seen: &mut D::Seen,
        sharing: &mut Option<Sharing>,
        index: usize,
        draws: usize,
        may_end: bool,
    ) -> Result<Option<T>, Halt> {
        let around = run.widened;
        let (few_draws, few_values) = FEW_REPEATS;
        // The different repeats so far, while there are few.
        let mut repeats: Option<Vec<T>> = may_end.then(Vec::new);
        for redraw in 0..draws {
            run.share = sharing.as_ref().map(|sharing| sharing.share(index));
            run.taken = None;
            run.widened = around.max(widened_size(run.size, index, redraw));
            let start = run.recorded();
            let item = self.elem.forward(run);
            run.widened = around;
            let taken = took_share(run.share.take(), run.taken.take());
            let item = item?;
            if D::insert(seen, &item) {
                if let Some(sharing) = sharing {
                    sharing.took(taken);
                }
                return Ok(Some(item));
            }
            run.redrew_from(start);
            if let Some(values) = &mut repeats {
                if !values.iter().any(|value| D::same(value, &item)) {
                    values.push(item);
                }
                if values.len() > few_values {
                    repeats = None;
                } else if redraw + 1 == few_draws {
                    return Ok(None);
                }
            }
        }
        Ok(None)
    }

    /// Reflects the length (a share of the budget around, see [`Share`]), then the elements at
    /// their share of the size.
    fn backward_here(&self, items: &[T], run: &mut Backward, limit: usize) -> Reflected<Vec<T>> {
        let (size, sizing) = (run.size, run.sizing);
        let share = self.take_share(&mut run.share);
        let site = self.length_site::<T>(size, &sizing, share.as_ref());
        let length = items.len() as i128;
        if length < site.lo || length > site.hi {
            return Ok(Vec::new());
        }
        let lead = Trace::choice(Choice::Int {
            value: length,
            lo: site.lo,
            hi: site.hi,
        });
        let log_share = site.shape.probability(length, site.lo, site.hi, size).ln();
        let in_recursion = run.fuel.is_some();
        let sharing = Sharing::of(&sizing, size, items.len(), in_recursion);
        run.size = element_size(&sizing, size, items.len(), in_recursion);
        run.sizing = sizing.inside();
        let reflected = self.backward_each(items, run, limit, sharing);
        run.size = size;
        run.sizing = sizing;
        let Some(ways) = reflected? else {
            return Ok(Vec::new());
        };
        if share.is_some() {
            run.taken = Some(items.len());
        }
        self.combine(ways, run, limit, lead, log_share)
    }

    /// Reflects each element on its own, the collections inside each sharing what `sharing`
    /// gives; `None` if one cannot be produced, or is a repeat where the collection forbids one.
    fn backward_each(
        &self,
        items: &[T],
        run: &mut Backward,
        limit: usize,
        mut sharing: Option<Sharing>,
    ) -> Result<Option<Vec<Vec<Solution<T>>>>, ReflectError> {
        let mut seen = D::Seen::default();
        let mut ways: Vec<Vec<Solution<T>>> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let hole = run.is_hole(item);
            if !hole && !D::insert(&mut seen, item) {
                return Ok(None);
            }
            run.share = sharing.as_ref().map(|sharing| sharing.share(index));
            run.taken = None;
            let item_ways = if hole {
                generate_in_hole(&self.elem, run)
            } else if run.names_parts() {
                self.backward_named_element(index, item, run, limit)
            } else {
                self.elem.backward(item, run, limit)
            };
            let taken = took_share(run.share.take(), run.taken.take());
            let item_ways = item_ways?;
            if item_ways.is_empty() {
                return Ok(None);
            }
            if let Some(sharing) = &mut sharing {
                sharing.took(taken);
            }
            ways.push(
                item_ways
                    .into_iter()
                    .map(|way| Solution {
                        value: way.value,
                        trace: Trace::span(None, None, way.trace),
                        log_probability: way.log_probability,
                        used: way.used,
                    })
                    .collect(),
            );
        }
        Ok(Some(ways))
    }

    /// Element `index`, `item`, backward, inside its index in the path of the part that fails
    /// (for an error that names it), noted as that part if no way produces it. Out of line, so
    /// that reflection that names no part keeps its frames as small as before.
    #[inline(never)]
    fn backward_named_element(
        &self,
        index: usize,
        item: &T,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<T> {
        run.enter_element(index);
        let found = self.elem.backward(item, run, limit);
        if found.as_ref().is_ok_and(Vec::is_empty) {
            run.note_unproduced::<T>();
        }
        run.leave_part();
        found
    }

    /// The ways to produce the collection: `lead` (its length and splits), then one way of
    /// each element, for every combination of the elements' ways up to `limit`.
    fn combine(
        &self,
        ways: Vec<Vec<Solution<T>>>,
        run: &mut Backward,
        limit: usize,
        lead: Trace,
        log_share: f64,
    ) -> Reflected<Vec<T>> {
        // The collection uses a unit of the size per element, and what its elements use.
        let length = ways.len();
        let finish = |traces: Vec<Trace>, log_probability: f64| {
            (
                Trace::span(None, None, lead.clone().then(Trace::many(traces))),
                log_share + log_probability,
            )
        };

        if ways.iter().all(|item_ways| item_ways.len() == 1) {
            // One way for every element: move the values, clone nothing.
            let mut values = run.value(|| Vec::with_capacity(ways.len()));
            let mut traces = Vec::with_capacity(ways.len());
            let mut log_probability = 0.0;
            let mut used = length;
            for way in ways.into_iter().flatten() {
                if let (Some(values), Some(value)) = (&mut values, way.value) {
                    values.push(value);
                }
                traces.push(way.trace);
                log_probability += way.log_probability;
                used += way.used;
            }
            let (trace, log_probability) = finish(traces, log_probability);
            return Ok(vec![Solution {
                value: values,
                trace,
                log_probability,
                used,
            }]);
        }

        // Several ways for some elements: every combination, in odometer order.
        let combinations = ways
            .iter()
            .try_fold(1usize, |product, item_ways| {
                product.checked_mul(item_ways.len())
            })
            .unwrap_or(usize::MAX);
        run.found(combinations.min(limit))?;
        let mut found = Vec::new();
        let mut at = vec![0usize; ways.len()];
        while found.len() < limit {
            run.step()?;
            let chosen = || ways.iter().zip(&at).map(|(item_ways, &i)| &item_ways[i]);
            let log_probability = chosen().map(|way| way.log_probability).sum();
            let (trace, log_probability) = finish(
                chosen().map(|way| way.trace.clone()).collect(),
                log_probability,
            );
            found.push(Solution {
                value: chosen()
                    .map(|way| way.value.clone())
                    .collect::<Option<Vec<T>>>(),
                trace,
                log_probability,
                used: length + chosen().map(|way| way.used).sum::<usize>(),
            });
            let mut position = ways.len();
            loop {
                if position == 0 {
                    return Ok(found);
                }
                position -= 1;
                at[position] += 1;
                if at[position] < ways[position].len() {
                    break;
                }
                at[position] = 0;
            }
        }
        Ok(found)
    }
}

impl<G, T, D> Node for Repeat<G, D>
where
    G: Node<Input = T, Output = T>,
    T: Clone + Send + Sync,
    D: Distinct<T>,
{
    type Input = [T];
    type Output = Vec<T>;

    fn forward(&self, run: &mut Forward<'_>) -> Result<Vec<T>, Halt> {
        match run.sizing.full_level_choices() {
            Some(levels) => Pick::new(FullLevel {
                repeat: self,
                levels,
            })
            .forward(run),
            None => self.forward_here(run),
        }
    }

    fn backward(&self, items: &[T], run: &mut Backward, limit: usize) -> Reflected<Vec<T>> {
        run.step()?;
        match run.sizing.full_level_choices() {
            Some(levels) => Pick::new(FullLevel {
                repeat: self,
                levels,
            })
            .backward(items, run, limit),
            None => self.backward_here(items, run, limit),
        }
    }
}

/// Under [`Strategy::Partitions`](crate::Strategy::Partitions), the choice of which of an
/// outermost collection's `levels` is full: branch `i` is the level `i` below it.
struct FullLevel<'r, G, D> {
    repeat: &'r Repeat<G, D>,
    levels: usize,
}

impl<G, D> Branches for FullLevel<'_, G, D> {
    fn arity(&self) -> usize {
        self.levels
    }

    fn weight(&self, _: usize) -> u32 {
        1
    }

    fn label(&self, _: usize) -> Option<&Label> {
        None
    }
}

impl<G, D> Sealed for FullLevel<'_, G, D> {}

impl<G, T, D> BranchSet for FullLevel<'_, G, D>
where
    G: Node<Input = T, Output = T>,
    T: Clone + Send + Sync,
    D: Distinct<T>,
{
    type Input = [T];
    type Output = Vec<T>;

    fn forward_branch(&self, index: usize, run: &mut Forward<'_>) -> Result<Vec<T>, Halt> {
        let outer = run.sizing;
        run.sizing = outer.full_at(index);
        let items = self.repeat.forward_here(run);
        run.sizing = outer;
        items
    }

    fn backward_branch(
        &self,
        index: usize,
        items: &[T],
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<Vec<T>> {
        let outer = run.sizing;
        run.sizing = outer.full_at(index);
        let ways = self.repeat.backward_here(items, run, limit);
        run.sizing = outer;
        ways
    }
}
