//! Vectors, strings, sets and maps.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::Hash;
use std::ops::RangeBounds;

use super::chars::any_char;
use super::tuples::tuple;
use crate::combinator::repeat::{
    DistinctHash, DistinctHashKey, DistinctOrd, DistinctOrdKey, Duplicates, repeat,
};
use crate::generator::{Gen, Generator};

/// A vector of elements from `elem`, its length in `len`, growing with the size.
///
/// The length is drawn first, uniform between the least allowed and the longest the size
/// allows: the size itself, within `len`; and, when `len` has an upper end, at least as far
/// into `len` as the size is into the default size (100), so that from size 100 on any length
/// in `len` comes up, as proptest draws it (`vec(g, 500..=1000)` is 500 to 1000 long at size
/// 100, 500 to 750 at size 50; `vec(g, ..=10)` up to the size or 10, `vec(g, ..)` up to the
/// size, as a range whose top is above 2^20, `0..usize::MAX`, is too). Inside another
/// collection's element, the length follows the element's share of the size instead, and
/// under the [size strategies](crate::strategy) `Fixed` and `Partitions`, which bound a whole
/// nest by the size, every length stays within the size. The same holds for every collection
/// ([`string_of`], the sets and maps).
///
/// Each element then runs at an equal share of the size, `size / length` under the default
/// [size strategy](crate::strategy): the elements of a long vector are small, and no
/// element's size depends on its position.
///
/// # Panics
///
/// If `len` is empty.
///
/// ```
/// use reflective::prelude::*;
/// let bits = vec(bool(), 1..=3);
/// assert!(bits.can_generate(&vec![true, false]));
/// assert!(!bits.can_generate(&vec![]));
///
/// let long = vec(bool(), 500..=1000);
/// assert!(long.can_generate(&vec![true; 1000]));
/// assert!((500..=1000).contains(&long.sample(7).len()));
/// ```
#[track_caller]
pub fn vec<T>(
    elem: impl Generator<Input = T, Output = T> + 'static,
    len: impl RangeBounds<usize>,
) -> Gen<Vec<T>, Vec<T>>
where
    T: Clone + Send + Sync + 'static,
{
    repeat::<_, T, Duplicates>(elem, &len)
        .focus(|v: &Vec<T>| Some(v.as_slice()))
        .boxed()
}

/// A string of any `char`s (see [`any_char`](crate::any_char)), of at most the size in length.
pub fn string() -> Gen<String, String> {
    string_of(any_char(), ..)
}

/// A string of characters from `chars`, its length in `len` (counted in `char`s).
///
/// ```
/// use reflective::prelude::*;
/// let word = string_of(char_range('a'..='z'), 1..=8);
/// assert!(word.can_generate(&"reflect".to_string()));
/// assert!(!word.can_generate(&"Reflect".to_string()));
/// ```
#[track_caller]
pub fn string_of(
    chars: impl Generator<Input = char, Output = char> + 'static,
    len: impl RangeBounds<usize>,
) -> Gen<String, String> {
    repeat::<_, char, Duplicates>(chars, &len)
        .comap(|s: &String| Some(s.chars().collect::<Vec<char>>()))
        .map(|chars| chars.into_iter().collect())
        .boxed()
}

/// An ordered set of elements from `elem`, its size in `len`.
///
/// A drawn element equal to one already in the set is drawn again (up to a thousand draws); a
/// set that cannot reach its minimum size that way fails to generate, with a message. Each
/// redraw draws its integers as at a larger size (at least the number of elements already
/// drawn, doubled at each redraw), so a set of integers finds a new element in a draw or two
/// even when its elements run at a small share of the size; the elements' structure (the
/// lengths inside them) keeps their share. A set that has its minimum size gives up on an
/// element whose first 64 draws all gave elements already in it, at most 8 different ones
/// (an empty string, `true` and `false`), and ends there: an element value drawn with
/// probability `p` is then missed with probability `(1 - p)^64` (about half at `p` = 1%).
///
/// # Probability
///
/// Reflection finds one way to produce a set: its elements drawn in order, without redraws.
/// Generation also draws them in other orders and with redraws, so
/// [`probability_of`](crate::Generator::probability_of) underestimates the probability of a set
/// with more than one element (the sum over all sets is below 1). Validity, choices, replay
/// and shrinking are exact. The same holds for [`hash_set`], [`btree_map`] and [`hash_map`].
#[track_caller]
pub fn btree_set<T>(
    elem: impl Generator<Input = T, Output = T> + 'static,
    len: impl RangeBounds<usize>,
) -> Gen<BTreeSet<T>, BTreeSet<T>>
where
    T: Ord + Clone + Send + Sync + 'static,
{
    repeat::<_, T, DistinctOrd>(elem, &len)
        .comap(|set: &BTreeSet<T>| Some(set.iter().cloned().collect::<Vec<T>>()))
        .map(BTreeSet::from_iter)
        .boxed()
}

/// A hash set of elements from `elem`, its size in `len`; see [`btree_set`].
///
/// Reflection visits the elements in the set's iteration order, which differs from run to
/// run, so the choice tree of a hash set is not the same in every run.
#[track_caller]
pub fn hash_set<T>(
    elem: impl Generator<Input = T, Output = T> + 'static,
    len: impl RangeBounds<usize>,
) -> Gen<HashSet<T>, HashSet<T>>
where
    T: Hash + Eq + Clone + Send + Sync + 'static,
{
    repeat::<_, T, DistinctHash>(elem, &len)
        .comap(|set: &HashSet<T>| Some(set.iter().cloned().collect::<Vec<T>>()))
        .map(HashSet::from_iter)
        .boxed()
}

/// An ordered map with keys from `keys` and values from `values`, its size in `len`; a key
/// already in the map is drawn again, as in [`btree_set`].
///
/// ```
/// use reflective::prelude::*;
/// use std::collections::BTreeMap;
/// let ages = btree_map(range(0u8..=9), range(0u8..=120), ..);
/// assert!(ages.can_generate(&BTreeMap::from([(1, 30), (2, 4)])));
/// ```
#[track_caller]
pub fn btree_map<K, V>(
    keys: impl Generator<Input = K, Output = K> + 'static,
    values: impl Generator<Input = V, Output = V> + 'static,
    len: impl RangeBounds<usize>,
) -> Gen<BTreeMap<K, V>, BTreeMap<K, V>>
where
    K: Ord + Clone + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
{
    repeat::<_, (K, V), DistinctOrdKey>(tuple((keys, values)), &len)
        .comap(|map: &BTreeMap<K, V>| {
            Some(
                map.iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect::<Vec<_>>(),
            )
        })
        .map(BTreeMap::from_iter)
        .boxed()
}

/// A hash map with keys from `keys` and values from `values`; see [`btree_map`] and
/// [`hash_set`].
#[track_caller]
pub fn hash_map<K, V>(
    keys: impl Generator<Input = K, Output = K> + 'static,
    values: impl Generator<Input = V, Output = V> + 'static,
    len: impl RangeBounds<usize>,
) -> Gen<HashMap<K, V>, HashMap<K, V>>
where
    K: Hash + Eq + Clone + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
{
    repeat::<_, (K, V), DistinctHashKey>(tuple((keys, values)), &len)
        .comap(|map: &HashMap<K, V>| {
            Some(
                map.iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect::<Vec<_>>(),
            )
        })
        .map(HashMap::from_iter)
        .boxed()
}
