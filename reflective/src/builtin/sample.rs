//! Orders and parts of a given list: [`shuffled`] and [`subsequence`] (proptest's
//! `prop_shuffle` and `sample::subsequence`).
//!
//! A shuffle draws a Lehmer code: for the `j`-th element taken, its place among the elements
//! not taken yet, a number below `n - j`. The places are drawn independently, one choice each,
//! and all zeros takes the elements in their order: shrinking goes back towards the list as
//! given. A subsequence draws the set of the indices it takes. Backward, each element of a
//! value is matched to the first equal element of the list not taken yet (after the last
//! taken, for a subsequence).

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};
use std::sync::Arc;

use super::collections::btree_set;
use crate::combinator::{exact, pure, range, zip};
use crate::generator::{Gen, Generator};

/// The elements of `values` in an order drawn evenly among all orders, shrinking towards the
/// order given. With a value listed more than once, a shuffle reflects as the code that takes
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
    let (reading, taking) = (Arc::clone(&values), Arc::clone(&values));
    places(values.len(), values.len())
        .comap(move |order: &Vec<T>| code_of(&reading, order))
        .map(move |code| taken(&taking, &code))
        .boxed()
}

/// Some of the elements of `values`, in their order, as many as `len` allows (within the
/// number of values): the set of their indices, drawn as [`btree_set`](crate::btree_set) draws
/// one (its count growing with the size, every index equally likely). Shrinking goes towards
/// fewer elements and the first ones. A count near the number of values of a long list may
/// fail to generate, as such a set does (its last indices are found by drawing again).
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
/// assert_eq!(letters.shrink(vec!['b', 'd', 'e'], |s| s.contains(&'e')), ['a', 'e']);
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
    let least = match len.start_bound() {
        Bound::Included(&least) => least,
        Bound::Excluded(&least) => least.saturating_add(1),
        Bound::Unbounded => 0,
    };
    // One past the greatest count the range allows.
    let end = match len.end_bound() {
        Bound::Included(&most) => most.saturating_add(1),
        Bound::Excluded(&most) => most,
        Bound::Unbounded => usize::MAX,
    };
    assert!(
        least < end && least <= n,
        "subsequence: the length range {len:?} holds no count from 0 to {n}, the number of values"
    );
    if n == 0 {
        return exact(Vec::new()).boxed();
    }
    let (reading, taking) = (Arc::clone(&values), values);
    btree_set(range(0..=n - 1), least..=(end - 1).min(n))
        .comap(move |part: &Vec<T>| indices_of(&reading, part))
        .map(move |indices| indices.into_iter().map(|i| taking[i].clone()).collect())
        .boxed()
}

/// The indices of `part`'s elements in `values`, each the first equal element after the one
/// before; `None` if `part` is not a subsequence of `values`.
fn indices_of<T: PartialEq>(values: &[T], part: &[T]) -> Option<BTreeSet<usize>> {
    let mut after = 0;
    let mut indices = BTreeSet::new();
    for element in part {
        let index = after + values[after..].iter().position(|value| value == element)?;
        indices.insert(index);
        after = index + 1;
    }
    Some(indices)
}

/// Codes of `count` places among `n` elements: the `j`-th a number below `n - j`.
fn places(n: usize, count: usize) -> Gen<Vec<usize>, Vec<usize>> {
    let mut code: Gen<Vec<usize>, Vec<usize>> = pure(Vec::new()).boxed();
    for j in 0..count {
        let place = range(0..=n - 1 - j).focus(move |code: &Vec<usize>| code.get(j));
        code = zip(code, place)
            .map(|(mut code, place)| {
                code.push(place);
                code
            })
            .boxed();
    }
    code
}

/// The elements of `values` that `code` takes, in the order taken.
fn taken<T: Clone>(values: &[T], code: &[usize]) -> Vec<T> {
    let mut left: Vec<usize> = (0..values.len()).collect();
    code.iter()
        .map(|&place| values[left.remove(place)].clone())
        .collect()
}

/// The code that takes `order`'s elements from `values`, each the first equal element not
/// taken yet; `None` if one is not there or some are left.
fn code_of<T: PartialEq>(values: &[T], order: &[T]) -> Option<Vec<usize>> {
    if order.len() != values.len() {
        return None;
    }
    let mut left: Vec<usize> = (0..values.len()).collect();
    let mut code = Vec::with_capacity(order.len());
    for element in order {
        let place = left.iter().position(|&index| values[index] == *element)?;
        left.remove(place);
        code.push(place);
    }
    Some(code)
}
