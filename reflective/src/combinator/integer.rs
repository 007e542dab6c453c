//! Integers of every width: [`int`], [`int_in`], [`range`].
//!
//! An integer choice is recorded as an `i128`. A `u128` range wider than `i128` can hold is
//! recorded as one choice folded onto the range (see [`unfold`]).

use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};

use crate::choice::Choice;
use crate::engine::source::shape::{IntShape, is_narrow};
use crate::engine::{Backward, Forward, Halt, IntSite, Reflected, Solution, Trace};
use crate::node::{Node, Sealed, forward_each};

/// A primitive integer type: `i8` to `i128`, `u8` to `u128`, `isize`, `usize`.
pub trait Integer: sealed::Sealed + Copy + Ord + Debug + Send + Sync + 'static {
    /// The least value of the type.
    const MIN: Self;
    /// The greatest value of the type.
    const MAX: Self;
}

/// Ranges accepted by [`range`] and [`int_in`]: any `RangeBounds` of an [`Integer`].
pub trait IntRange<T>: RangeBounds<T> {}

impl<T: Integer, R: RangeBounds<T>> IntRange<T> for R {}

pub(crate) mod sealed {
    /// Conversions between an integer and its recorded choice.
    pub trait Sealed: Sized {
        /// `self - base` as a choice, if it fits.
        fn offset_from(self, base: Self) -> Option<i128>;
        /// `base + offset`.
        fn from_offset(base: Self, offset: i128) -> Self;
        /// `self + distance`, which must fit the type.
        fn plus_distance(self, distance: u32) -> Self;
        /// `self - base`, for `base <= self`, as a `u128` (which holds any such distance).
        fn distance_from(self, base: Self) -> u128;
        /// `base + distance`, which must fit the type.
        fn plus_wide(base: Self, distance: u128) -> Self;
        /// The value as an `i128`, if it fits.
        fn to_i128(self) -> Option<i128>;
        /// The `i128` as this type, if it fits.
        fn from_i128(value: i128) -> Option<Self>;
        /// `self + 1` and `self - 1`, if they exist.
        fn succ(self) -> Option<Self>;
        fn pred(self) -> Option<Self>;
        /// Zero, the base of every range except wide `u128` ones.
        const ZERO: Self;
    }
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Integer for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
        }

        impl sealed::Sealed for $t {
            const ZERO: Self = 0;

            #[allow(clippy::cast_lossless, clippy::unnecessary_cast)]
            fn offset_from(self, base: Self) -> Option<i128> {
                i128::try_from(self).ok()?.checked_sub(i128::try_from(base).ok()?)
            }

            #[allow(clippy::cast_possible_truncation, clippy::unnecessary_cast)]
            fn from_offset(base: Self, offset: i128) -> Self {
                (base as i128 + offset) as $t
            }

            #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
            #[inline]
            fn plus_distance(self, distance: u32) -> Self {
                // Modular arithmetic: the true sum fits, so truncating `distance` first and
                // wrapping give it exactly.
                self.wrapping_add(distance as $t)
            }

            fn to_i128(self) -> Option<i128> {
                i128::try_from(self).ok()
            }

            fn from_i128(value: i128) -> Option<Self> {
                Self::try_from(value).ok()
            }

            #[allow(clippy::unnecessary_cast)]
            fn distance_from(self, base: Self) -> u128 {
                (self as i128).abs_diff(base as i128)
            }

            #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
            #[allow(clippy::unnecessary_cast)]
            fn plus_wide(base: Self, distance: u128) -> Self {
                (base as i128).wrapping_add(distance as i128) as $t
            }

            fn succ(self) -> Option<Self> {
                self.checked_add(1)
            }

            fn pred(self) -> Option<Self> {
                self.checked_sub(1)
            }
        }
    )*};
}

integer!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, usize);

impl Integer for u128 {
    const MIN: Self = u128::MIN;
    const MAX: Self = u128::MAX;
}

impl sealed::Sealed for u128 {
    const ZERO: Self = 0;

    fn offset_from(self, base: Self) -> Option<i128> {
        i128::try_from(self.checked_sub(base)?).ok()
    }

    fn from_offset(base: Self, offset: i128) -> Self {
        base + offset as u128
    }

    #[inline]
    fn plus_distance(self, distance: u32) -> Self {
        self + u128::from(distance)
    }

    fn distance_from(self, base: Self) -> u128 {
        self - base
    }

    fn plus_wide(base: Self, distance: u128) -> Self {
        base + distance
    }

    fn to_i128(self) -> Option<i128> {
        i128::try_from(self).ok()
    }

    fn from_i128(value: i128) -> Option<Self> {
        Self::try_from(value).ok()
    }

    fn succ(self) -> Option<Self> {
        self.checked_add(1)
    }

    fn pred(self) -> Option<Self> {
        self.checked_sub(1)
    }
}

/// Any value of an integer type, favouring small values and edge values (0, 1, -1, the
/// least and the greatest) and reaching further as the size grows.
///
/// ```
/// use reflective::prelude::*;
/// let byte = int::<i8>();
/// assert!(byte.can_generate(&-128));
/// let total: f64 = (i8::MIN..=i8::MAX).map(|b| byte.probability_of(&b)).sum();
/// assert!((total - 1.0).abs() < 1e-9);
/// ```
pub fn int<T: Integer>() -> Int<T> {
    between(T::MIN, T::MAX, IntShape::Biased)
}

/// An integer in `bounds`, favouring small and edge values like [`int`].
///
/// # Panics
///
/// If `bounds` is empty.
#[track_caller]
pub fn int_in<T: Integer>(bounds: impl IntRange<T>) -> Int<T> {
    let (lo, hi) = inclusive(&bounds);
    between(lo, hi, IntShape::Biased)
}

/// An integer in `bounds`, every value equally likely (QuickCheck's `choose`).
///
/// # Panics
///
/// If `bounds` is empty.
///
/// ```
/// use reflective::prelude::*;
/// let die = range(1u8..=6);
/// assert!((die.probability_of(&3) - 1.0 / 6.0).abs() < 1e-12);
/// assert_eq!(die.probability_of(&7), 0.0);
/// ```
#[track_caller]
pub fn range<T: Integer>(bounds: impl IntRange<T>) -> Int<T> {
    let (lo, hi) = inclusive(&bounds);
    between(lo, hi, IntShape::Uniform)
}

#[track_caller]
fn inclusive<T: Integer>(bounds: &impl RangeBounds<T>) -> (T, T) {
    match inclusive_bounds(bounds) {
        Some(bounds) => bounds,
        None => panic!("integer range is empty: {}", written(bounds)),
    }
}

/// `bounds` as a range is written: `5..5`, `9..=3`, `(excluded 2)..3`.
pub(crate) fn written<T: Debug>(bounds: &impl RangeBounds<T>) -> String {
    let start = match bounds.start_bound() {
        Bound::Included(start) => format!("{start:?}"),
        Bound::Excluded(start) => format!("(excluded {start:?})"),
        Bound::Unbounded => String::new(),
    };
    let end = match bounds.end_bound() {
        Bound::Included(end) => format!("={end:?}"),
        Bound::Excluded(end) => format!("{end:?}"),
        Bound::Unbounded => String::new(),
    };
    format!("{start}..{end}")
}

/// The least and the greatest integer in `bounds`, or `None` if it holds none.
pub(crate) fn inclusive_bounds<T: Integer>(bounds: &impl RangeBounds<T>) -> Option<(T, T)> {
    let lo = match bounds.start_bound() {
        Bound::Included(&lo) => Some(lo),
        Bound::Excluded(&lo) => lo.succ(),
        Bound::Unbounded => Some(T::MIN),
    }?;
    let hi = match bounds.end_bound() {
        Bound::Included(&hi) => Some(hi),
        Bound::Excluded(&hi) => hi.pred(),
        Bound::Unbounded => Some(T::MAX),
    }?;
    (lo <= hi).then_some((lo, hi))
}

fn between<T: Integer>(lo: T, hi: T, shape: IntShape) -> Int<T> {
    let base = if hi.offset_from(T::ZERO).is_some() {
        T::ZERO
    } else {
        lo
    };
    match hi.offset_from(base) {
        Some(top) => Int(IntRepr::Offset {
            base,
            lo: lo.offset_from(base).expect("lo <= hi, and hi fits"),
            hi: top,
            shape,
        }),
        None => {
            // Only a u128 range wider than i128 gets here: one choice folded onto it, its
            // negative side the longer when the number of values is even.
            let span = hi.distance_from(lo);
            let above = span / 2;
            #[allow(clippy::cast_possible_wrap)]
            Int(IntRepr::Folded {
                start: lo,
                lo: ((span - above) as i128).wrapping_neg(),
                hi: above as i128,
                shape,
            })
        }
    }
}

/// The distance from a folded range's start that the choice `c` in `lo..=hi` stands for
/// (`lo = -hi` or `lo = -hi - 1`, `hi > 0`): `c`'s rank in the shrinker's order of
/// simplicity, 0, 1, -1, 2, -2, ... So the simplest choices are the least values, and a
/// failing value shrinks to the least that fails as in any other range, where the choice is
/// the value's distance from zero.
#[allow(clippy::cast_sign_loss)]
fn unfold(c: i128, hi: i128) -> u128 {
    let (magnitude, above) = (c.unsigned_abs(), hi as u128);
    if c > 0 {
        2 * magnitude - 1
    } else if magnitude <= above {
        2 * magnitude
    } else {
        // `lo`, one beyond `-hi`: the last distance.
        above + magnitude
    }
}

/// The choice in `lo..=hi` that [`unfold`]s to `distance`.
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
fn fold(distance: u128, hi: i128) -> i128 {
    let above = hi as u128;
    if distance > 2 * above {
        ((distance - above) as i128).wrapping_neg()
    } else if distance % 2 == 1 {
        distance.div_ceil(2) as i128
    } else {
        ((distance / 2) as i128).wrapping_neg()
    }
}

opaque_debug!(impl[T] Int<T>);

/// The generator [`int`], [`int_in`] and [`range`] return.
#[derive(Clone)]
pub struct Int<T>(IntRepr<T>);

#[derive(Clone)]
enum IntRepr<T> {
    /// An integer choice in `lo..=hi`, recorded as an offset from `base`.
    Offset {
        base: T,
        lo: i128,
        hi: i128,
        shape: IntShape,
    },
    /// A `u128` range too wide for one offset: a choice in `lo..=hi` whose [`unfold`] is the
    /// value's distance from `start`.
    Folded {
        start: T,
        lo: i128,
        hi: i128,
        shape: IntShape,
    },
}

impl<T> Sealed for Int<T> {}

impl<T: Integer> Int<T> {
    /// Appends `count` integers of a narrow range (see [`is_narrow`]), drawn in chunks by
    /// `draw`.
    fn draw_narrow(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<T>,
        draw: impl Fn(&mut Forward<'_>, &IntSite, &mut [u32]) -> Result<(), Halt>,
    ) -> Result<(), Halt> {
        let &IntRepr::Offset { base, lo, .. } = &self.0 else {
            unreachable!("only a range drawn as one offset is narrow")
        };
        let site = self.site(run.int_size());
        let start = T::from_offset(base, lo);
        in_chunks::<u32, T>(
            count,
            out,
            |chunk| draw(run, &site, chunk),
            |distance| start.plus_distance(distance),
        )
    }

    /// The integer choice at `size`.
    #[inline]
    fn site(&self, size: usize) -> IntSite {
        let (&IntRepr::Offset { lo, hi, shape, .. } | &IntRepr::Folded { lo, hi, shape, .. }) =
            &self.0;
        IntSite {
            lo,
            hi,
            shape,
            size,
            counts: false,
        }
    }
}

impl<T: Integer> Node for Int<T> {
    type Input = T;
    type Output = T;

    #[inline]
    fn forward(&self, run: &mut Forward<'_>) -> Result<T, Halt> {
        match &self.0 {
            IntRepr::Offset { base, .. } => {
                let offset = run.int(&self.site(run.int_size()))?;
                Ok(T::from_offset(*base, offset))
            }
            IntRepr::Folded { start, hi, .. } => {
                let choice = run.int(&self.site(run.int_size()))?;
                Ok(T::plus_wide(*start, unfold(choice, *hi)))
            }
        }
    }

    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<T>,
    ) -> Result<(), Halt> {
        let &IntRepr::Offset { base, lo, hi, .. } = &self.0 else {
            return forward_each(self, run, count, out);
        };
        if !is_narrow(lo, hi) {
            // Wider ranges in one loop too, each value drawn as `forward` draws it.
            let site = self.site(run.int_size());
            return in_chunks::<i128, T>(
                count,
                out,
                |chunk| run.ints(&site, chunk),
                |offset| T::from_offset(base, offset),
            );
        }
        self.draw_narrow(run, count, out, |run: &mut Forward<'_>, site, chunk| {
            run.narrow_ints(site, chunk)
        })
    }

    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<T>,
    ) -> Result<bool, Halt> {
        let narrow = matches!(self.0, IntRepr::Offset { lo, hi, .. } if is_narrow(lo, hi));
        if !narrow || !run.packs() {
            return Ok(false);
        }
        self.draw_narrow(run, count, out, |run: &mut Forward<'_>, site, chunk| {
            run.narrow_ints_spanned(site, chunk)
        })?;
        Ok(true)
    }

    /// An integer draws no collection.
    fn ignores_share(&self) -> bool {
        true
    }

    fn backward(&self, b: &T, run: &mut Backward, _limit: usize) -> Reflected<T> {
        run.step()?;
        let (value, lo, hi, shape) = match self.0 {
            IntRepr::Offset {
                base,
                lo,
                hi,
                shape,
            } => (b.offset_from(base), lo, hi, shape),
            IntRepr::Folded {
                start,
                lo,
                hi,
                shape,
            } => {
                let span = lo.unsigned_abs() + hi.unsigned_abs();
                let distance = (*b >= start).then(|| b.distance_from(start));
                let value = distance.filter(|d| *d <= span).map(|d| fold(d, hi));
                (value, lo, hi, shape)
            }
        };
        match value {
            Some(value) if (lo..=hi).contains(&value) => Ok(vec![Solution {
                value: run.value(|| *b),
                trace: Trace::choice(Choice::Int { value, lo, hi }),
                log_probability: shape.probability(value, lo, hi, run.size).ln(),
                used: 0,
            }]),
            _ => Ok(Vec::new()),
        }
    }
}

/// Appends `count` values to `out`, drawn by `draw` in chunks of up to 64 raw values on the
/// stack, each turned into a value by `value`.
fn in_chunks<D: Copy + Default, T>(
    count: usize,
    out: &mut Vec<T>,
    mut draw: impl FnMut(&mut [D]) -> Result<(), Halt>,
    value: impl Fn(D) -> T,
) -> Result<(), Halt> {
    out.reserve(count);
    let mut raw = [D::default(); 64];
    let mut left = count;
    while left > 0 {
        let chunk = &mut raw[..left.min(64)];
        draw(chunk)?;
        out.extend(chunk.iter().map(|&d| value(d)));
        left -= chunk.len();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{fold, unfold};
    use crate::choice::Choice;

    /// The folded choice bounds of a range of `span + 1` values, as `between` makes them.
    #[allow(clippy::cast_possible_wrap)]
    fn bounds(span: u128) -> (i128, i128) {
        let above = span / 2;
        (((span - above) as i128).wrapping_neg(), above as i128)
    }

    #[test]
    fn fold_and_unfold_are_inverse_and_follow_simplicity() {
        let spans = [
            u128::MAX,
            u128::MAX - 1,
            1 << 127,
            (1 << 127) + 1,
            u128::MAX / 3 * 2,
        ];
        for span in spans {
            let (lo, hi) = bounds(span);
            // The ends, and the ranks around the middle where the sides change.
            let edges = [0, 1, 2, 3, span - 2, span - 1, span];
            let middle = (0..6).map(|k| (hi.unsigned_abs() * 2).wrapping_add(k).min(span));
            for distance in edges.into_iter().chain(middle) {
                let c = fold(distance, hi);
                assert!(
                    (lo..=hi).contains(&c),
                    "span {span}: {distance} folds to {c}"
                );
                assert_eq!(unfold(c, hi), distance, "span {span}, choice {c}");
            }
            // Every choice's distance is its simplicity rank, up to the last one.
            for c in [0, 1, -1, 2, -2, hi, -hi, lo] {
                let rank = Choice::Int { value: c, lo, hi }.simplicity();
                assert_eq!(unfold(c, hi), rank.min(span), "span {span}, choice {c}");
            }
            assert_eq!(unfold(lo, hi).max(unfold(hi, hi)), span);
        }
    }
}
