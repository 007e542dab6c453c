//! [`Reflective`] for more of the standard library's types, common in the fields of users'
//! structs: durations, non-zero integers, ranges and bounds, orderings, `Cow`, and the
//! `Wrapping`, `Saturating` and `Reverse` wrappers. Each is one of the generators of `reflective.rs` seen
//! through a map and its way back, so it reflects, shrinks and mutates as that one does.

use std::any::Any;
use std::borrow::Cow;
use std::cmp::{Ordering, Reverse};
use std::num::{NonZero, Saturating, Wrapping};
use std::ops::{Bound, Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};
use std::time::Duration;

use super::cache::cached;
use super::dimension::{Dimensions, Reach, Shape};
use super::reflective::{Reflective, product_dimension, visit_part};
use crate::builtin::tuple;
use crate::combinator::{exact, int, int_in, labeled};
use crate::generator::{Gen, Generator};
use crate::interpret::type_shrink;

/// The nanoseconds of a second, the bound of a [`Duration`]'s part below the second.
const NANOS_PER_SEC: u32 = 1_000_000_000;

/// Whole seconds as `u64` integers do (mostly small, now and then an edge value), and
/// nanoseconds below the second the same way.
///
/// ```
/// use reflective::prelude::*;
/// use std::time::Duration;
/// let durations = Duration::arbitrary_reflective();
/// assert!(durations.can_generate(&Duration::new(u64::MAX, 999_999_999)));
/// assert!(Duration::from_millis(1500).shrink_candidates().contains(&Duration::ZERO));
/// ```
impl Reflective for Duration {
    product_dimension!(u64, u32);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            tuple((int::<u64>(), int_in(0..NANOS_PER_SEC)))
                .map(|(secs, nanos)| Duration::new(secs, nanos))
                .comap(|duration: &Duration| Some((duration.as_secs(), duration.subsec_nanos())))
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        let (secs, nanos) = (self.as_secs(), self.subsec_nanos());
        let mut shrinks = vec![Duration::ZERO];
        shrinks.extend(
            type_shrink::integer(secs)
                .into_iter()
                .map(|secs| Duration::new(secs, nanos)),
        );
        shrinks.extend(
            type_shrink::integer(nanos)
                .into_iter()
                .map(|nanos| Duration::new(secs, nanos)),
        );
        shrinks.retain(|shrunk| shrunk < self);
        shrinks.dedup();
        shrinks
    }
}

/// The impls for the non-zero integers of unsigned types.
macro_rules! non_zero_unsigned {
    ($($t:ty),*) => {$(
        /// Non-zero integers: `n + 1` for each `n` an integer of the type below its greatest,
        /// so mostly small ones (1, 2, ...), now and then an edge value; shrunk as `n` is.
        impl Reflective for NonZero<$t> {
            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| {
                    int_in(0..<$t>::MAX)
                        .map(|below| NonZero::<$t>::MIN.saturating_add(below))
                        .comap(|n: &NonZero<$t>| Some(n.get() - 1))
                })
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                type_shrink::integer(self.get() - 1)
                    .into_iter()
                    .map(|below| NonZero::<$t>::MIN.saturating_add(below))
                    .collect()
            }
        }
    )*};
}

/// The impls for the non-zero integers of signed types.
macro_rules! non_zero_signed {
    ($($t:ty),*) => {$(
        /// Non-zero integers: an integer of the type below its greatest, moved up by one from
        /// 0 on, so that 0 stands for 1 and -1 stays -1: mostly small ones on both sides;
        /// shrunk as that integer is.
        impl Reflective for NonZero<$t> {
            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| {
                    int_in(<$t>::MIN..<$t>::MAX)
                        .map(|x| {
                            let n = NonZero::new(if x >= 0 { x + 1 } else { x });
                            n.unwrap_or(NonZero::<$t>::MIN)
                        })
                        .comap(|n: &NonZero<$t>| {
                            let n = n.get();
                            Some(if n > 0 { n - 1 } else { n })
                        })
                })
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                let n = self.get();
                // Simpler: nearer 0, and positive before negative; the integer's candidates
                // moved back, but for its negation, which the move may make larger.
                let simpler = |m: $t| (m.unsigned_abs(), m < 0) < (n.unsigned_abs(), n < 0);
                type_shrink::integer(if n > 0 { n - 1 } else { n })
                    .into_iter()
                    .filter_map(|x| NonZero::new(if x >= 0 { x + 1 } else { x }))
                    .filter(|m| simpler(m.get()))
                    .collect()
            }
        }
    )*};
}

non_zero_unsigned!(u8, u16, u32, u64, u128, usize);
non_zero_signed!(i8, i16, i32, i64, i128, isize);

/// The impls for the wrappers around one value.
macro_rules! wrapper {
    ($($wrapper:ident),*) => {$(
        /// A wrapper around a `T`, generated, shrunk and visited as the `T` inside.
        impl<T: Reflective> Reflective for $wrapper<T> {
            product_dimension!(T);

            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| {
                    T::arbitrary_reflective()
                        .focus(|wrapped: &$wrapper<T>| Some(&wrapped.0))
                        .map($wrapper)
                })
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                self.0.shrink_candidates().into_iter().map($wrapper).collect()
            }

            fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
                visit_part(&self.0, visit);
            }
        }
    )*};
}

wrapper!(Wrapping, Saturating, Reverse);

/// The impls for the ranges with a start and an end.
macro_rules! bounded_range {
    ($($range:ident where [$($bound:tt)*], $make:expr, $ends:expr;)*) => {$(
        /// A start and an end drawn each on its own, as a pair of `T`s is: empty and reversed
        /// ranges come up too, as they can wherever a range is made from two values. Shrunk
        /// as the pair is.
        impl<T: Reflective $($bound)*> Reflective for $range<T> {
            product_dimension!(T, T);

            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| {
                    tuple((T::arbitrary_reflective(), T::arbitrary_reflective()))
                        .map(|(start, end)| $make(start, end))
                        .comap(|range: &$range<T>| {
                            let (start, end) = $ends(range)?;
                            Some((start.clone(), end.clone()))
                        })
                        .boxed()
                })
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                let Some((start, end)) = $ends(self) else {
                    return Vec::new();
                };
                (start.clone(), end.clone())
                    .shrink_candidates()
                    .into_iter()
                    .map(|(start, end)| $make(start, end))
                    .collect()
            }

            fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
                if let Some((start, end)) = $ends(self) {
                    visit_part(start, visit);
                    visit_part(end, visit);
                }
            }
        }
    )*};
}

/// `start..end`, for [`bounded_range`].
fn half_open<T>(start: T, end: T) -> Range<T> {
    start..end
}

/// The start and end of a `Range`, for [`bounded_range`].
fn half_open_ends<T>(range: &Range<T>) -> Option<(&T, &T)> {
    Some((&range.start, &range.end))
}

/// The start and end of a `RangeInclusive`, for [`bounded_range`]; none for one iterated to its
/// end, which is not `RangeInclusive::new` of them (it is empty though its start is at most
/// its end): no generator makes it.
fn inclusive_ends<T: PartialOrd>(range: &RangeInclusive<T>) -> Option<(&T, &T)> {
    let exhausted = range.is_empty() && range.start() <= range.end();
    (!exhausted).then(|| (range.start(), range.end()))
}

bounded_range! {
    Range where [], half_open, half_open_ends;
    RangeInclusive where [+ PartialOrd], RangeInclusive::new, inclusive_ends;
}

/// The impls for the ranges with one end.
macro_rules! one_end_range {
    ($($range:ident { $end:ident }),*) => {$(
        /// Its one end, drawn, shrunk and visited as a `T` is.
        impl<T: Reflective> Reflective for $range<T> {
            product_dimension!(T);

            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| {
                    T::arbitrary_reflective()
                        .focus(|range: &$range<T>| Some(&range.$end))
                        .map(|$end| $range { $end })
                })
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                self.$end.shrink_candidates().into_iter().map(|$end| $range { $end }).collect()
            }

            fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
                visit_part(&self.$end, visit);
            }
        }
    )*};
}

one_end_range!(
    RangeFrom { start },
    RangeTo { end },
    RangeToInclusive { end }
);

/// `..`, the one value.
impl Reflective for RangeFull {
    fn arbitrary_reflective() -> Gen<Self, Self> {
        exact(..).boxed()
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        Vec::new()
    }
}

/// `Unbounded`, `Included(t)` or `Excluded(t)`, as an `Option<Result<T, T>>` is drawn (`None`,
/// `Some(Ok(t))`, `Some(Err(t))`), and shrunk towards `Unbounded`, then the bound's value.
///
/// ```
/// use reflective::prelude::*;
/// use std::ops::Bound;
/// let bounds = Bound::<u8>::arbitrary_reflective();
/// assert!(bounds.can_generate(&Bound::Excluded(7)));
/// assert_eq!(Bound::Included(3u8).shrink_candidates()[0], Bound::Unbounded);
/// ```
impl<T: Reflective> Reflective for Bound<T> {
    product_dimension!(T);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            Option::<Result<T, T>>::arbitrary_reflective()
                .map(from_option)
                .comap(|bound: &Bound<T>| Some(as_option(bound)))
                .boxed()
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        as_option(self)
            .shrink_candidates()
            .into_iter()
            .map(from_option)
            .collect()
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        if let Bound::Included(value) | Bound::Excluded(value) = self {
            visit_part(value, visit);
        }
    }
}

/// The bound an `Option<Result<T, T>>` stands for (see [`as_option`]).
fn from_option<T>(bound: Option<Result<T, T>>) -> Bound<T> {
    match bound {
        None => Bound::Unbounded,
        Some(Ok(value)) => Bound::Included(value),
        Some(Err(value)) => Bound::Excluded(value),
    }
}

/// `bound` as the `Option<Result<T, T>>` its generator draws.
fn as_option<T: Clone>(bound: &Bound<T>) -> Option<Result<T, T>> {
    match bound {
        Bound::Unbounded => None,
        Bound::Included(value) => Some(Ok(value.clone())),
        Bound::Excluded(value) => Some(Err(value.clone())),
    }
}

/// `Less`, `Equal` or `Greater`, equally likely, labelled by their names; shrunk towards
/// `Equal`, then `Less`.
///
/// ```
/// use reflective::prelude::*;
/// use std::cmp::Ordering;
/// assert_eq!(Ordering::Greater.shrink_candidates(), vec![Ordering::Equal, Ordering::Less]);
/// ```
impl Reflective for Ordering {
    fn arbitrary_reflective() -> Gen<Self, Self> {
        labeled([
            ("Equal", exact(Ordering::Equal)),
            ("Less", exact(Ordering::Less)),
            ("Greater", exact(Ordering::Greater)),
        ])
        .boxed()
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        match self {
            Ordering::Equal => Vec::new(),
            Ordering::Less => vec![Ordering::Equal],
            Ordering::Greater => vec![Ordering::Equal, Ordering::Less],
        }
    }
}

/// An owned value of `B`, as `B::Owned` generates it: a `Cow<'static, str>` is a `String`'s
/// characters. Any `Cow` reflects, borrowed or owned, as its owned value.
///
/// ```
/// use reflective::prelude::*;
/// use std::borrow::Cow;
/// let names = Cow::<'static, str>::arbitrary_reflective();
/// assert!(names.can_generate(&Cow::Borrowed("borrowed")));
/// ```
impl<B> Reflective for Cow<'static, B>
where
    B: ToOwned + ?Sized + Send + Sync + 'static,
    B::Owned: Reflective,
{
    product_dimension!(B::Owned);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            B::Owned::arbitrary_reflective()
                .map(Cow::Owned)
                .comap(|cow: &Cow<'static, B>| Some(cow.clone().into_owned()))
                .boxed()
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        self.clone()
            .into_owned()
            .shrink_candidates()
            .into_iter()
            .map(Cow::Owned)
            .collect()
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        match self {
            Cow::Owned(owned) => visit_part(owned, visit),
            // The parts of a borrowed value, seen in an owned copy of it.
            Cow::Borrowed(borrowed) => visit_part(&(*borrowed).to_owned(), visit),
        }
    }
}
