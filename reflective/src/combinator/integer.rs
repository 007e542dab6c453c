//! Integers of every width: [`int`], [`int_in`], [`range`].
//!
//! An integer choice is recorded as an `i128`. A `u128` range wider than `i128` can hold is
//! split in two halves, each recorded as an offset from its start.

use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};

use crate::choice::Choice;
use crate::engine::source::shape::{IntShape, is_narrow};
use crate::engine::{Backward, Forward, Halt, IntSite, Reflected, Solution, Trace};
use crate::node::{Gen, Node, Sealed, forward_each};

use super::pick::frequency;
use super::pure::exact;

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
        /// `(hi - lo) / 2`, for `lo <= hi`, saturated to `i128::MAX`.
        fn half_span(lo: Self, hi: Self) -> i128;
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
            fn half_span(lo: Self, hi: Self) -> i128 {
                i128::try_from((hi as i128).abs_diff(lo as i128) / 2).unwrap_or(i128::MAX)
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

    fn half_span(lo: Self, hi: Self) -> i128 {
        i128::try_from((hi - lo) / 2).unwrap_or(i128::MAX)
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
    inclusive_bounds(bounds).unwrap_or_else(|| {
        panic!(
            "integer range is empty: {:?}..{:?}",
            bounds.start_bound(),
            bounds.end_bound()
        )
    })
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
            // Only a u128 range wider than i128 gets here. Split it at its midpoint: the halves
            // differ in size by at most one value, so equal weights keep it uniform, and each
            // half fits an i128 offset.
            let mid = T::from_offset(lo, T::half_span(lo, hi));
            let upper_start = mid.succ().expect("mid < hi");
            let halves = match shape {
                // (A collection's share is never an integer generator's shape.)
                IntShape::Uniform | IntShape::Share { .. } => frequency([
                    (1, between(lo, mid, shape).into_gen()),
                    (1, between(upper_start, hi, shape).into_gen()),
                ])
                .into_gen(),
                // Small values and edges live in the lower half, whose offsets start at `lo`;
                // the rest of the upper half is uniform, and its edge `hi` a branch of its own.
                IntShape::Biased => frequency((
                    (8, between(lo, mid, shape)),
                    (
                        1,
                        between(upper_start, hi.pred().expect("hi > mid"), IntShape::Uniform),
                    ),
                    (1, exact(hi)),
                ))
                .into_gen(),
            };
            Int(IntRepr::Split(halves))
        }
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
    /// A `u128` range too wide for one offset, as a pick between parts.
    Split(Gen<T, T>),
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

    /// The integer choice at `size`, for a range drawn as one offset.
    #[inline]
    fn site(&self, size: usize) -> IntSite {
        let &IntRepr::Offset { lo, hi, shape, .. } = &self.0 else {
            unreachable!("only a range drawn as one offset asks for its site")
        };
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
            IntRepr::Split(halves) => halves.forward(run),
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

    fn backward(&self, b: &T, run: &mut Backward, limit: usize) -> Reflected<T> {
        match &self.0 {
            &IntRepr::Offset {
                base,
                lo,
                hi,
                shape,
            } => {
                run.step()?;
                match b.offset_from(base) {
                    Some(value) if (lo..=hi).contains(&value) => Ok(vec![Solution {
                        value: run.value(|| *b),
                        trace: Trace::choice(Choice::Int { value, lo, hi }),
                        log_probability: shape.probability(value, lo, hi, run.size).ln(),
                        used: 0,
                    }]),
                    _ => Ok(Vec::new()),
                }
            }
            IntRepr::Split(halves) => halves.backward(b, run, limit),
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
