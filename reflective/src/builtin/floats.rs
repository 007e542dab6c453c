//! Floating-point numbers.

use super::tuples::tuple;
use crate::combinator::{exact, one_of, pick, range};
use crate::generator::{Gen, Generator};

/// A float type: `f32` or `f64`.
pub trait Float:
    sealed::Sealed + Copy + PartialOrd + std::fmt::Debug + Send + Sync + 'static
{
}

impl Float for f32 {}
impl Float for f64 {}

mod sealed {
    /// What [`float`](super::float) needs of a float type: its bits, and its special values.
    pub trait Sealed: Sized + 'static {
        /// The bits of the value, widened to `u64`.
        fn bits(self) -> u64;
        /// The value with these bits (the low bits, for `f32`).
        fn from_bits(bits: u64) -> Self;
        /// The largest bit pattern.
        const MAX_BITS: u64;
        /// `whole + sixteenths / 16`.
        fn from_parts(whole: i64, sixteenths: u8) -> Self;
        /// The value as `whole + sixteenths / 16`, if it is one (exactly).
        fn to_parts(self) -> Option<(i64, u8)>;
        /// Values worth trying in every test that no small number is: -0.0, the infinities,
        /// NaN, the extremes.
        const SPECIALS: &'static [Self];
    }
}

macro_rules! float {
    ($t:ty, $bits:ty) => {
        impl sealed::Sealed for $t {
            const MAX_BITS: u64 = <$bits>::MAX as u64;

            fn bits(self) -> u64 {
                u64::from(self.to_bits())
            }

            fn from_bits(bits: u64) -> Self {
                <$t>::from_bits(bits as $bits)
            }

            #[allow(clippy::cast_precision_loss)]
            fn from_parts(whole: i64, sixteenths: u8) -> Self {
                whole as $t + <$t>::from(sixteenths) / 16.0
            }

            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            fn to_parts(self) -> Option<(i64, u8)> {
                if !self.is_finite() || self.abs() > 1e15 {
                    return None;
                }
                let whole = self.floor() as i64;
                let sixteenths = ((self - whole as $t) * 16.0) as u8;
                (Self::from_parts(whole, sixteenths).to_bits() == self.to_bits())
                    .then_some((whole, sixteenths))
            }

            const SPECIALS: &'static [Self] = &[
                -0.0,
                <$t>::INFINITY,
                <$t>::NEG_INFINITY,
                <$t>::NAN,
                <$t>::MIN_POSITIVE,
                <$t>::EPSILON,
                <$t>::MAX,
                <$t>::MIN,
            ];
        }
    };
}

float!(f32, u32);
float!(f64, u64);

/// Any float: a special value (-0.0, ±∞, NaN, the extremes, the smallest positive) one time in
/// ten, labelled `"special"`; a number `k + j/16` with `|k| <= size` (0, ±1, 2.5, ...) six times
/// in ten, labelled `"small"`; any other bit pattern otherwise, labelled `"any"`. The three
/// parts do not overlap, so every float is produced in exactly one way. Values are compared by
/// their bits, so NaN and -0.0 reflect like any other value.
///
/// ```
/// use reflective::prelude::*;
/// let g = float::<f64>();
/// assert!(g.can_generate(&f64::NAN));
/// assert_eq!(g.choices(&2.5).len(), 1);
/// assert!(g.can_generate(&-0.0));
/// assert!(g.can_generate(&1e300));
/// ```
pub fn float<T: Float>() -> Gen<T, T> {
    let specials = one_of(
        T::SPECIALS
            .iter()
            .map(|&value| {
                exact(value.bits())
                    .comap(|x: &T| Some(x.bits()))
                    .map(T::from_bits as fn(u64) -> T)
            })
            .collect::<Vec<_>>(),
    );
    let small = crate::combinator::sized(|size| {
        let reach = i64::try_from(size).unwrap_or(i64::MAX);
        tuple((range(-reach..=reach), range(0u8..=15)))
            .comap(|x: &T| x.to_parts())
            .map(|(whole, sixteenths)| T::from_parts(whole, sixteenths))
    });
    let any = crate::combinator::sized(any_other);
    pick((
        (1, "special", specials),
        (6, "small", small),
        (3, "any", any),
    ))
    .boxed()
}

/// Any bit pattern that is neither special nor small at `size`; a draw that is one is drawn
/// again (about 3 000 of 2^64 patterns at size 100).
fn any_other<T: Float>(size: usize) -> Gen<T, T> {
    range(0..=T::MAX_BITS)
        .comap(move |x: &T| (!is_special_or_small(*x, size)).then(|| x.bits()))
        .bind(move |bits| {
            let x = T::from_bits(bits);
            if is_special_or_small(x, size) {
                crate::combinator::lazy(move || any_other::<T>(size)).boxed()
            } else {
                crate::combinator::pure(x).boxed()
            }
        })
        .boxed()
}

/// Whether `x` comes from the special or the small part of [`float`] at `size`.
fn is_special_or_small<T: Float>(x: T, size: usize) -> bool {
    T::SPECIALS.iter().any(|special| special.bits() == x.bits())
        || x.to_parts()
            .is_some_and(|(whole, _)| whole.unsigned_abs() <= size as u64)
}
