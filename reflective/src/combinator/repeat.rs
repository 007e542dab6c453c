//! Sequences of independent elements: the node behind every collection.
//!
//! Forward, before each element after the required minimum the node picks "more" or "stop"
//! (weights `upper - i` and 1, so the length is uniform between the minimum and
//! `clamp(size, min, max)`), then opens a span holding that pick and the element's choices.
//! Deleting an element's span therefore deletes the element, which is what a shrinker wants.
//! A random source draws the length at once instead, and the same picks are recorded.
//!
//! Backward, each element is reflected on its own and the ways are combined, so the stack
//! does not grow with the length: a list of a million elements reflects in a loop.

use std::collections::{BTreeSet, HashSet};
use std::hash::Hash;
use std::marker::PhantomData;
use std::ops::RangeBounds;

use crate::backward::{Backward, Reflected, Solution, Trace};
use crate::choice::{Choice, Label};
use crate::forward::Forward;
use crate::generator::{Generator, sealed::Sealed};
use crate::source::{Branches, Halt, PickSite};

/// The labels of the pick before each optional element.
static STOP_OR_MORE: [Option<Label>; 2] = [Some(Label::new("stop")), Some(Label::new("more"))];

/// The pick before an optional element: "stop" (weight 1) or "more".
struct StopOrMore {
    more_weight: u32,
}

impl Branches for StopOrMore {
    fn arity(&self) -> usize {
        2
    }

    fn weight(&self, index: usize) -> u32 {
        if index == 0 { 1 } else { self.more_weight }
    }

    fn label(&self, index: usize) -> Option<&Label> {
        STOP_OR_MORE[index].as_ref()
    }
}

/// How many times a collection of distinct elements draws an element before giving up on it.
/// The draws stay at the collection's size, so every element kept is one reflection accepts.
const DUPLICATE_RETRIES: usize = 1_000;

/// Which elements may not appear twice in a collection.
pub trait Distinct<T>: Send + Sync + 'static {
    /// Whether every element may repeat, so that nothing needs checking.
    const ALLOWS_REPEATS: bool = false;
    /// The keys seen so far.
    type Seen: Default;
    /// Records `item`'s key; false if it was already seen.
    fn insert(seen: &mut Self::Seen, item: &T) -> bool;
}

/// Every element may repeat (vectors, strings).
pub(crate) struct Duplicates;

impl<T> Distinct<T> for Duplicates {
    const ALLOWS_REPEATS: bool = true;
    type Seen = ();
    fn insert(_: &mut (), _: &T) -> bool {
        true
    }
}

/// No two elements equal by `Ord` (ordered sets).
pub(crate) struct DistinctOrd;

impl<T: Ord + Clone + 'static> Distinct<T> for DistinctOrd {
    type Seen = BTreeSet<T>;
    fn insert(seen: &mut BTreeSet<T>, item: &T) -> bool {
        seen.insert(item.clone())
    }
}

/// No two elements equal by `Hash` and `Eq` (hash sets).
pub(crate) struct DistinctHash;

impl<T: Hash + Eq + Clone + 'static> Distinct<T> for DistinctHash {
    type Seen = HashSet<T>;
    fn insert(seen: &mut HashSet<T>, item: &T) -> bool {
        seen.insert(item.clone())
    }
}

/// No two entries with keys equal by `Ord` (ordered maps).
pub(crate) struct DistinctOrdKey;

impl<K: Ord + Clone + 'static, V> Distinct<(K, V)> for DistinctOrdKey {
    type Seen = BTreeSet<K>;
    fn insert(seen: &mut BTreeSet<K>, item: &(K, V)) -> bool {
        seen.insert(item.0.clone())
    }
}

/// No two entries with keys equal by `Hash` and `Eq` (hash maps).
pub(crate) struct DistinctHashKey;

impl<K: Hash + Eq + Clone + 'static, V> Distinct<(K, V)> for DistinctHashKey {
    type Seen = HashSet<K>;
    fn insert(seen: &mut HashSet<K>, item: &(K, V)) -> bool {
        seen.insert(item.0.clone())
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
    G: Generator<Input = T, Output = T>,
    T: Clone + Send + Sync,
    D: Distinct<T>,
{
    let Some((min, max)) = crate::combinator::integer::inclusive_bounds(len) else {
        panic!(
            "collection length range is empty: {:?}..{:?}",
            len.start_bound(),
            len.end_bound()
        )
    };
    Repeat {
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
    min: usize,
    max: usize,
    distinct: PhantomData<fn() -> D>,
}

impl<G, D> Sealed for Repeat<G, D> {}

impl<G, D> Repeat<G, D> {
    /// The longest length allowed at `size`.
    fn upper(&self, size: usize) -> usize {
        size.clamp(self.min, self.max)
    }

    /// The weight of "more" when `left` more elements are still allowed ("stop" weighs 1).
    fn more_weight(left: usize) -> u32 {
        u32::try_from(left).unwrap_or(u32::MAX)
    }
}

impl<G, T, D> Generator for Repeat<G, D>
where
    G: Generator<Input = T, Output = T>,
    T: Clone + Send + Sync,
    D: Distinct<T>,
{
    type Input = [T];
    type Output = Vec<T>;

    fn forward(&self, run: &mut Forward<'_>) -> Result<Vec<T>, Halt> {
        let upper = self.upper(run.size);
        let length = run.draw_length(self.min, upper)?;
        if let Some(length) = length
            && D::ALLOWS_REPEATS
            && !run.records()
        {
            // Nothing to record and nothing to check: the elements, drawn in one go.
            let mut items = Vec::with_capacity(length);
            self.elem.forward_many(run, length, &mut items)?;
            return Ok(items);
        }
        let mut items = Vec::with_capacity(length.unwrap_or(0));
        let mut seen = D::Seen::default();
        loop {
            let len = items.len();
            let span = if len < self.min {
                run.open_span(None)
            } else if len >= upper {
                break;
            } else {
                let branches = StopOrMore {
                    more_weight: Self::more_weight(upper - len),
                };
                let site = PickSite {
                    branches: &branches,
                    total: 1 + u64::from(branches.more_weight),
                };
                let more = match length {
                    Some(length) => {
                        let more = u32::from(len < length);
                        run.record_pick(&site, more);
                        more
                    }
                    None => run.pick(&site)?,
                };
                if more == 0 {
                    break;
                }
                run.open_span_at_last(None)
            };
            let mut fresh = None;
            for _ in 0..DUPLICATE_RETRIES {
                let item = self.elem.forward(run)?;
                if D::insert(&mut seen, &item) {
                    fresh = Some(item);
                    break;
                }
            }
            run.close_span(span);
            match fresh {
                Some(item) => items.push(item),
                None if len >= self.min => break,
                None => {
                    return Err(Halt::Failed(format!(
                        "could not draw {} distinct elements: after {len}, {DUPLICATE_RETRIES} \
                         draws at size {} gave only elements already drawn; the element \
                         generator may have fewer distinct values than the minimum length at \
                         this size",
                        self.min, run.size
                    )));
                }
            }
        }
        Ok(items)
    }

    fn backward(&self, items: &[T], run: &mut Backward, limit: usize) -> Reflected<Vec<T>> {
        run.step()?;
        let upper = self.upper(run.size);
        if items.len() < self.min || items.len() > upper {
            return Ok(Vec::new());
        }
        let more = Choice::Pick {
            index: 1,
            arity: 2,
            label: STOP_OR_MORE[1].clone(),
        };
        let mut seen = D::Seen::default();
        let mut ways: Vec<Vec<Solution<T>>> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            if !D::insert(&mut seen, item) {
                return Ok(Vec::new());
            }
            let (lead, log_share) = if index < self.min {
                (None, 0.0)
            } else {
                let weight = f64::from(Self::more_weight(upper - index));
                (Some(more.clone()), (weight / (weight + 1.0)).ln())
            };
            let item_ways = self.elem.backward(item, run, limit)?;
            if item_ways.is_empty() {
                return Ok(Vec::new());
            }
            ways.push(
                item_ways
                    .into_iter()
                    .map(|way| Solution {
                        value: way.value,
                        trace: Trace::span(None, lead.clone(), way.trace),
                        log_probability: log_share + way.log_probability,
                    })
                    .collect(),
            );
        }
        let stop = (items.len() < upper).then(|| {
            let weight = f64::from(Self::more_weight(upper - items.len()));
            let choice = Choice::Pick {
                index: 0,
                arity: 2,
                label: STOP_OR_MORE[0].clone(),
            };
            (Trace::choice(choice), -(weight + 1.0).ln())
        });
        let finish = |mut traces: Vec<Trace>, mut log_probability: f64| {
            if let Some((trace, log_share)) = &stop {
                traces.push(trace.clone());
                log_probability += log_share;
            }
            (Trace::many(traces), log_probability)
        };

        if ways.iter().all(|item_ways| item_ways.len() == 1) {
            // One way for every element: move the values, clone nothing.
            let mut values = run.value(|| Vec::with_capacity(ways.len()));
            let mut traces = Vec::with_capacity(ways.len() + 1);
            let mut log_probability = 0.0;
            for way in ways.into_iter().flatten() {
                if let (Some(values), Some(value)) = (&mut values, way.value) {
                    values.push(value);
                }
                traces.push(way.trace);
                log_probability += way.log_probability;
            }
            let (trace, log_probability) = finish(traces, log_probability);
            return Ok(vec![Solution {
                value: values,
                trace,
                log_probability,
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
