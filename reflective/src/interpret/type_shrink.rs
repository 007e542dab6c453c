//! Type-directed shrinks of the standard types, as QuickCheck's `shrink` gives them.
//!
//! Each function returns candidates strictly simpler than its input, most aggressive first:
//! numbers toward 0, sequences shorter first and then with one element shrunk.

use crate::combinator::Integer;

/// 0, then values approaching `x` from 0 by halving the distance (`x - x/2`, `x - x/4`, ...,
/// `x - 1`), with `-x` first for a negative `x` whose negation exists. A `u128` above
/// `i128::MAX` shrinks as if it were `i128::MAX`.
pub(crate) fn integer<T: Integer>(x: T) -> Vec<T> {
    let wide = x.to_i128().unwrap_or(i128::MAX);
    let mut candidates: Vec<i128> = Vec::new();
    if wide < 0 && wide != i128::MIN {
        candidates.push(-wide);
    }
    candidates.push(0);
    let mut distance = wide / 2;
    while distance != 0 {
        candidates.push(wide - distance);
        distance /= 2;
    }
    let mut shrinks: Vec<T> = Vec::new();
    for candidate in candidates {
        if let Some(value) = T::from_i128(candidate)
            && value != x
            && !shrinks.contains(&value)
        {
            shrinks.push(value);
        }
    }
    shrinks
}

/// `'a'`, the simplest character, unless `c` is it.
pub(crate) fn character(c: char) -> Vec<char> {
    if c == 'a' { Vec::new() } else { vec!['a'] }
}

/// 0, the integer part, half the value: each only if different (NaN and infinities go to 0).
pub(crate) fn float(x: f64) -> Vec<f64> {
    if !x.is_finite() {
        return vec![0.0];
    }
    let mut shrinks: Vec<f64> = Vec::new();
    for candidate in [0.0, x.trunc(), x / 2.0] {
        if candidate.abs() < x.abs() && !shrinks.contains(&candidate) {
            shrinks.push(candidate);
        }
    }
    shrinks
}

/// Shorter sequences first (without halves, quarters, ..., single elements), then the same
/// sequence with one element shrunk.
pub(crate) fn sequence<T: Clone>(items: &[T], shrink: impl Fn(&T) -> Vec<T>) -> Vec<Vec<T>> {
    let mut shrinks = Vec::new();
    let mut chunk = items.len();
    while chunk > 0 {
        let mut start = 0;
        while start < items.len() {
            let end = (start + chunk).min(items.len());
            shrinks.push([&items[..start], &items[end..]].concat());
            start += chunk;
        }
        chunk /= 2;
    }
    shrinks.extend(each(items, shrink));
    shrinks
}

/// The maps with entries removed or one entry shrunk, as [`sequence`] gives them.
pub(crate) fn entries<'m, K, V, M>(map: &'m M, shrink: impl Fn(&(K, V)) -> Vec<(K, V)>) -> Vec<M>
where
    K: Clone + 'm,
    V: Clone + 'm,
    &'m M: IntoIterator<Item = (&'m K, &'m V)>,
    M: FromIterator<(K, V)>,
{
    let entries: Vec<(K, V)> = map
        .into_iter()
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    sequence(&entries, shrink)
        .into_iter()
        .map(M::from_iter)
        .collect()
}

/// The elements with one of them replaced by one of its shrinks, for every element. The
/// element replaced is not copied: in a value nested as deep as it is long (a rose tree's only
/// child, at every level), each copy would be of everything below.
pub(crate) fn each<T: Clone>(items: &[T], shrink: impl Fn(&T) -> Vec<T>) -> Vec<Vec<T>> {
    let mut shrinks = Vec::new();
    for (index, item) in items.iter().enumerate() {
        for smaller in shrink(item) {
            let mut shrunk = Vec::with_capacity(items.len());
            shrunk.extend_from_slice(&items[..index]);
            shrunk.push(smaller);
            shrunk.extend_from_slice(&items[index + 1..]);
            shrinks.push(shrunk);
        }
    }
    shrinks
}
