//! Lists with constraints between their parts, and a struct.

use reflective::prelude::*;

/// A length in `0..=max_len`, then a vector of exactly that length (`bind`); backward, the
/// length is read off the vector with `comap`.
pub fn dependent_vec<T>(
    max_len: usize,
    elem: impl Generator<Input = T, Output = T> + 'static,
) -> Gen<Vec<T>, Vec<T>>
where
    T: Clone + Send + Sync + 'static,
{
    let elem = elem.boxed();
    range(0usize..=max_len)
        .comap(|v: &Vec<T>| Some(v.len()))
        .bind(move |len| vec(elem.clone(), len..=len))
        .boxed()
}

/// Pairs `(x, y)` with `x + y <= total`: `x` uniform in `0..=total`, then `y` uniform in
/// `0..=total - x`.
pub fn bounded_pair(total: u8) -> Gen<(u8, u8), (u8, u8)> {
    range(0u8..=total)
        .focus(|p: &(u8, u8)| Some(&p.0))
        .bind(move |x| {
            range(0u8..=total - x)
                .focus(|p: &(u8, u8)| Some(&p.1))
                .map(move |y| (x, y))
        })
        .boxed()
}

/// Sorted (non-decreasing) lists of bytes: each element is drawn at or above the one before
/// it, and the rest of the list is generated recursively on the slice after it.
pub fn sorted_list() -> Gen<Vec<u8>, Vec<u8>> {
    sorted_from(0)
        .focus(|v: &Vec<u8>| Some(v.as_slice()))
        .boxed()
}

/// Sorted lists whose elements are all at least `lo`, reflecting on a slice.
pub fn sorted_from(lo: u8) -> Gen<[u8], Vec<u8>> {
    let nil = pure(Vec::new()).focus(|s: &[u8]| s.is_empty().then_some(&()));
    let cons = range(lo..=u8::MAX).focus(|s: &[u8]| s.first()).bind(|x| {
        lazy(move || sorted_from(x))
            .focus(|s: &[u8]| s.get(1..))
            .map(move |mut rest| {
                rest.insert(0, x);
                rest
            })
    });
    pick(((1, "nil", nil), (4, "cons", cons))).boxed()
}

/// Whether `list` is sorted: the oracle [`sorted_list`] is checked against.
pub fn is_sorted(list: &[u8]) -> bool {
    list.windows(2).all(|pair| pair[0] <= pair[1])
}

/// A struct with a name and an age.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Person {
    /// 1 to 8 lowercase letters.
    pub name: String,
    /// `0..=120`.
    pub age: u8,
}

/// People: a tuple generator, with `comap` from the struct to the tuple and `map` back.
pub fn person() -> Gen<Person, Person> {
    tuple((string_of(char_range('a'..='z'), 1..=8), range(0u8..=120)))
        .comap(|p: &Person| Some((p.name.clone(), p.age)))
        .map(|(name, age)| Person { name, age })
        .boxed()
}

/// Lists of two or one equal digits, whose first branch's `focus` indexes past the end of a
/// list of one: reflecting `[3]` panics in it (a broken annotation, for the interpretations'
/// bad-input tests). Every list it generates panics reflection, whichever branch made it.
pub fn panicking_focus() -> Gen<Vec<u8>, Vec<u8>> {
    pick((
        (
            1,
            "two",
            range(0u8..=9)
                .map(|x| vec![x, x])
                .focus(|v: &Vec<u8>| Some(&v[1])),
        ),
        (
            1,
            "one",
            range(0u8..=9)
                .map(|x| vec![x])
                .focus(|v: &Vec<u8>| Some(&v[0])),
        ),
    ))
    .boxed()
}
