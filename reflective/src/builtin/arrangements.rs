//! Orders and parts of a given list: [`shuffled`] and [`subsequence`] (proptest's
//! `prop_shuffle` and `sample::subsequence`).
//!
//! Both draw a random key for each element of the list and arrange the elements by their keys
//! (equal keys in the list's order): the elements in that order are a shuffle, and the first
//! few of them, put back in the list's order, a subsequence. The keys are drawn as one
//! collection of fixed length, so a long list costs a loop, not a nest of generators. All keys
//! 0 give the list as it is: shrinking goes back towards the list as given and its first
//! elements. Backward, each element of a value is matched to the first equal element of the
//! list not matched yet (after the last matched, for a subsequence), and the keys are the
//! ranks that arrange the list so: one key vector among the many that give the same value,
//! so a reflection counts for all of them in `probability_of`.

use std::fmt::Debug;
use std::ops::RangeBounds;
use std::sync::{Arc, OnceLock};

use super::collections::vec;
use super::tuples::tuple;
use crate::combinator::{counting_ways, inclusive_bounds, range};
use crate::engine::source::share::ln_factorial;
use crate::generator::{Gen, Generator};
use crate::interpret::log_sum_exp;

/// The elements of `values` in an order drawn evenly among all orders, shrinking towards the
/// order given. With a value listed more than once, a shuffle reflects as the order that takes
/// the first of the equal ones each time.
///
/// ```
/// use reflective::prelude::*;
/// let deck = shuffled(vec![1, 2, 3, 4, 5]);
/// let mut hand = deck.sample(7);
/// assert!(deck.can_generate(&hand));
/// hand.sort();
/// assert_eq!(hand, [1, 2, 3, 4, 5]);
/// assert_eq!(deck.shrink(vec![5, 4, 3, 2, 1], |order| order[0] == 5), [5, 1, 2, 3, 4]);
/// assert!(!deck.can_generate(&vec![1, 2, 3]));
/// ```
pub fn shuffled<T>(values: impl Into<Vec<T>>) -> Gen<Vec<T>, Vec<T>>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let values: Arc<[T]> = values.into().into();
    let (reading, taking, counting) = (Arc::clone(&values), Arc::clone(&values), values);
    let arranged_keys = keys(reading.len())
        .comap(move |order: &Vec<T>| {
            let indices = matched(&reading, order, false)?;
            (indices.len() == reading.len()).then(|| ranks(reading.len(), &indices))
        })
        .map(move |keys| {
            arranged(&keys)
                .into_iter()
                .map(|index| taking[index].clone())
                .collect()
        });
    // Every shuffle holds the same values: the orders of the list's indices that give one,
    // the same for all, are worked out once, when first asked.
    let orders_of_one: OnceLock<f64> = OnceLock::new();
    counting_ways(arranged_keys, move |_: &Vec<T>| {
        let n = counting.len();
        let log_orders = *orders_of_one.get_or_init(|| log_orders_of_equals(&counting));
        log_ways(n, ln_factorial(n as u64) - log_orders)
    })
    .boxed()
}

/// Some of the elements of `values`, in their order, as many as `len` allows (within the
/// number of values): the count drawn evenly in `len`, then which elements, every choice of
/// that many equally likely. Shrinking goes towards fewer elements and the first ones.
///
/// # Panics
///
/// If `len` holds no count from 0 to the number of values.
///
/// ```
/// use reflective::prelude::*;
/// let letters = subsequence(vec!['a', 'b', 'c', 'd', 'e'], 2..=3);
/// let picked = letters.sample(3);
/// assert!((2..=3).contains(&picked.len()));
/// assert!(letters.can_generate(&vec!['b', 'e']));
/// assert!(!letters.can_generate(&vec!['e', 'b']));
/// assert_eq!(letters.shrink(vec!['b', 'd'], |s| s.contains(&'d')), ['a', 'd']);
/// ```
#[track_caller]
pub fn subsequence<T>(
    values: impl Into<Vec<T>>,
    len: impl RangeBounds<usize> + Debug,
) -> Gen<Vec<T>, Vec<T>>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let values: Arc<[T]> = values.into().into();
    let n = values.len();
    let counts = inclusive_bounds(&len).filter(|&(least, _)| least <= n);
    let Some((least, most)) = counts else {
        panic!(
            "subsequence: the length range {len:?} holds no count from 0 to {n}, the number of values"
        )
    };
    let (reading, taking, counting) = (Arc::clone(&values), Arc::clone(&values), values);
    let chosen_keys = tuple((range(least..=most.min(n)), keys(n)))
        .comap(move |part: &Vec<T>| {
            let mut order = matched(&reading, part, true)?;
            let mut chosen = vec![false; reading.len()];
            order.iter().for_each(|&index| chosen[index] = true);
            order.extend((0..reading.len()).filter(|&index| !chosen[index]));
            Some((part.len(), ranks(reading.len(), &order)))
        })
        .map(move |(count, keys)| {
            let mut indices = arranged(&keys);
            indices.truncate(count);
            indices.sort_unstable();
            indices
                .into_iter()
                .map(|index| taking[index].clone())
                .collect()
        });
    // With distinct values, each subsequence is one set of indices: worked out once, when
    // first asked, so that only lists with repeats count the ways of each.
    let distinct: OnceLock<bool> = OnceLock::new();
    counting_ways(chosen_keys, move |part: &Vec<T>| {
        let (n, k) = (counting.len(), part.len());
        let log_subsets =
            ln_factorial(n as u64) - ln_factorial(k as u64) - ln_factorial((n - k) as u64);
        let distinct = *distinct.get_or_init(|| log_orders_of_equals(&counting) == 0.0);
        let log_sets = if distinct {
            0.0
        } else {
            log_embeddings(&counting, part)
        };
        log_ways(n, log_subsets - log_sets)
    })
    .boxed()
}

/// The natural logarithm of how many key vectors of `n` keys give one value whose share of
/// the orders (or subsets) of the list's indices is 1 in `exp(log_outcomes)`: each key is one
/// of 2^64, and the keys arrange the indices in every order equally often (ties, about one
/// vector in 2^64 / n², left out).
fn log_ways(n: usize, log_outcomes: f64) -> f64 {
    n as f64 * 64.0 * std::f64::consts::LN_2 - log_outcomes
}

/// The natural logarithm of how many orders of `values`' indices give the same shuffle: the
/// orders of each value's repeats among themselves, the product of their counts' factorials
/// (each element's place among the equal ones up to it, multiplied).
fn log_orders_of_equals<T: PartialEq>(values: &[T]) -> f64 {
    (0..values.len())
        .map(|index| {
            let place = values[..=index]
                .iter()
                .filter(|&value| *value == values[index])
                .count();
            (place as f64).ln()
        })
        .sum()
}

/// The natural logarithm of how many ways `part` is a subsequence of `values` (sets of
/// indices of `values`, in order, holding `part`'s elements): 0 (one way) when `values` are
/// distinct and `part` is one of them in order.
fn log_embeddings<T: PartialEq>(values: &[T], part: &[T]) -> f64 {
    // ways[j]: the ways the first j elements of `part` lie among the values seen so far, kept
    // as logarithms (counts overflow for long lists of repeats).
    let mut ways = vec![f64::NEG_INFINITY; part.len() + 1];
    ways[0] = 0.0;
    for value in values {
        for j in (0..part.len()).rev() {
            if part[j] == *value {
                ways[j + 1] = log_sum_exp(&[ways[j + 1], ways[j]]);
            }
        }
    }
    ways[part.len()]
}

/// A key for each of `n` elements, any `u64`: ties, which favour the list's order, are rare.
fn keys(n: usize) -> Gen<Vec<u64>, Vec<u64>> {
    vec(range(0..=u64::MAX), n..=n)
}

/// The indices of the elements arranged by their `keys`, equal keys in index order.
fn arranged(keys: &[u64]) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..keys.len()).collect();
    indices.sort_by_key(|&index| keys[index]);
    indices
}

/// The keys that arrange `n` elements in `order` (a permutation of the indices): each
/// index's place in it.
fn ranks(n: usize, order: &[usize]) -> Vec<u64> {
    let mut keys = vec![0; n];
    for (rank, &index) in order.iter().enumerate() {
        keys[index] = rank as u64;
    }
    keys
}

/// The indices in `values` of `part`'s elements, each the first equal element not matched
/// yet (and, if `in_order`, after the one before); `None` if one is not there.
fn matched<T: PartialEq>(values: &[T], part: &[T], in_order: bool) -> Option<Vec<usize>> {
    let mut taken = vec![false; values.len()];
    let mut after = 0;
    let mut indices = Vec::with_capacity(part.len());
    for element in part {
        let index =
            (after..values.len()).find(|&index| !taken[index] && values[index] == *element)?;
        taken[index] = true;
        indices.push(index);
        if in_order {
            after = index + 1;
        }
    }
    Some(indices)
}
