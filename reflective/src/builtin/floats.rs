//! Floating-point numbers.

use crate::combinator::{exact, one_of, pick, range};
use crate::generator::Gen;

/// A float type: `f32` or `f64`.
pub trait Float:
    sealed::Sealed + Copy + PartialOrd + std::fmt::Debug + Send + Sync + 'static
{
}

impl Float for f32 {}
impl Float for f64 {}

mod sealed {
    /// What [`float`](super::float) needs of a float type: its bits, and its special values.
    pub trait Sealed: Sized {
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
        /// Values worth trying in every test: zeros, ±1, infinities, NaN, the extremes.
        fn specials() -> Vec<Self>;
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

            fn specials() -> Vec<Self> {
                vec![
                    0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    <$t>::INFINITY,
                    <$t>::NEG_INFINITY,
                    <$t>::NAN,
                    <$t>::MIN_POSITIVE,
                    <$t>::EPSILON,
                    <$t>::MAX,
                    <$t>::MIN,
                ]
            }
        }
    };
}

float!(f32, u32);
float!(f64, u64);

/// Any float: a special value (±0, ±1, ±∞, NaN, the extremes) one time in ten, labelled
/// `"special"`; a number `k + j/16` with `|k| <= size` six times in ten, labelled `"small"`; any
/// bit pattern otherwise, labelled `"any"`. Values are compared by their bits, so NaN and
/// `-0.0` reflect like any other value.
///
/// ```
/// use reflective::prelude::*;
/// let g = float::<f64>();
/// assert!(g.can_generate(&f64::NAN));
/// assert!(g.can_generate(&2.5));
/// assert!(g.can_generate(&-0.0));
/// ```
pub fn float<T: Float>() -> Gen<T, T> {
    let specials = one_of(T::specials().into_iter().map(|value| {
        exact(value.bits())
            .comap(|x: &T| Some(x.bits()))
            .map(T::from_bits)
    }));
    let small = crate::combinator::sized(|size| {
        let reach = i64::try_from(size).unwrap_or(i64::MAX);
        crate::builtin::tuple((range(-reach..=reach), range(0u8..=15)))
            .comap(|x: &T| x.to_parts())
            .map(|(whole, sixteenths)| T::from_parts(whole, sixteenths))
    });
    let any = range(0..=T::MAX_BITS)
        .comap(|x: &T| Some(x.bits()))
        .map(T::from_bits);
    pick([
        (1, "special", specials),
        (6, "small", small),
        (3, "any", any),
    ])
}
