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
        /// NaN, the extremes, the least positive subnormal.
        const SPECIALS: &'static [Self];
        /// The value as an `f64` (exactly).
        fn to_f64(self) -> f64;
        /// The largest magnitude [`to_parts`](Sealed::to_parts) takes, as an `f64`.
        const PARTS_LIMIT: f64;
        /// The bits of the significand, the leading one included: integers up to 2 to this
        /// power are all exact.
        const PRECISION: u32;
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
                if !self.is_finite() || self.abs() > Self::PARTS_LIMIT as $t {
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
                // The least positive subnormal: the bit patterns drawn otherwise are
                // subnormal about once in two thousand.
                <$t>::from_bits(1),
                <$t>::EPSILON,
                <$t>::MAX,
                <$t>::MIN,
            ];

            fn to_f64(self) -> f64 {
                f64::from(self)
            }

            #[allow(clippy::cast_possible_truncation, clippy::cast_lossless)]
            const PARTS_LIMIT: f64 = 1e15 as $t as f64;

            const PRECISION: u32 = <$t>::MANTISSA_DIGITS;
        }
    };
}

float!(f32, u32);
float!(f64, u64);

/// Any float: a number `k + j/16` with `|k| <= size` (0, ±1, 2.5, ...) six times in ten,
/// labelled `"small"`; otherwise (labelled `"not small"`) any other bit pattern three times in
/// ten, labelled `"any"`, or a special value (-0.0, ±∞, NaN, the extremes, the smallest
/// positive normal and subnormal) one time in ten, labelled `"special"`. The parts do not overlap, so every float is
/// produced in exactly one way. Values are compared by their bits, so NaN and -0.0 reflect
/// like any other value. A finite counterexample shrinks to a finite float, never to a
/// special value.
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
    // Every part three choices long, the specials last: the shrinker takes a shorter
    // sequence, then a lower branch, as simpler, so a finite counterexample stays finite (a
    // special value was two choices, on a lower branch than any other pattern's two and
    // shorter than a small number's three: 740.5725 shrank to ∞).
    let not_small = pick(((3, "any", any), (1, "special", specials)));
    pick(((6, "small", small), (4, "not small", not_small))).boxed()
}

/// Any bit pattern that is neither special nor small at `size`, each as likely: the `i`-th of
/// them in the order of their bits, for `i` drawn below their number. One draw, and every
/// value has one choice, so enumeration, reflection and shrinking see a plain range (a
/// shrunk index is a lower pattern: a tinier positive number). Built at each draw, unboxed.
fn any_other<T: Float>(size: usize) -> impl Generator<Input = T, Output = T> {
    let others = Others::<T>::at(size);
    range(0..=others.last_index())
        .comap(move |x: &T| others.index(x.bits()))
        .map(move |index| T::from_bits(others.nth(index)))
}

/// The bit patterns of a float type that are neither special nor small at some size: all
/// patterns but a known set, counted below any pattern without listing them.
///
/// The small numbers at size `s` are `m / 16` for the integers `m` from `-16 s` to
/// `16 s + 15` whose value is exact in the type and at most [`PARTS_LIMIT`] in magnitude:
/// the numbers `k + j/16` with `|k| <= s` that [`to_parts`] reads back. Their bits grow with
/// `m` above 0 and with `-m` below (the sign bit set), so the small patterns below any pattern
/// are a count of exact integers below a bound, on each side.
///
/// [`PARTS_LIMIT`]: sealed::Sealed::PARTS_LIMIT
/// [`to_parts`]: sealed::Sealed::to_parts
#[derive(Clone, Copy, Debug)]
struct Others<T> {
    /// The greatest `m` of a small positive number (`m / 16`), plus one.
    positive_end: u64,
    /// The greatest `m` of a small negative number (`-m / 16`), plus one.
    negative_end: u64,
    /// The size whose small numbers these are.
    size: usize,
    float: std::marker::PhantomData<fn() -> T>,
}

impl<T: Float> Others<T> {
    /// The patterns that are neither special nor small at `size`.
    fn at(size: usize) -> Self {
        let limit = (16.0 * T::PARTS_LIMIT) as u64;
        let sixteenths = u64::try_from(size).unwrap_or(u64::MAX).saturating_mul(16);
        Others {
            positive_end: sixteenths.saturating_add(15).min(limit) + 1,
            negative_end: sixteenths.min(limit) + 1,
            size,
            float: std::marker::PhantomData,
        }
    }

    /// How many special or small patterns there are below `bits`.
    fn excluded_below(&self, bits: u64) -> u64 {
        let specials = T::SPECIALS
            .iter()
            .filter(|special| special.bits() < bits)
            .count() as u64;
        let sign = sign_bit::<T>();
        let small = if bits < sign {
            // The positive small numbers, 0 the first of them (its pattern is 0).
            Self::sixteenths_below(bits, self.positive_end, 0)
        } else {
            exact_below(self.positive_end, T::PRECISION)
                + Self::sixteenths_below(bits - sign, self.negative_end, 1)
        };
        specials + small
    }

    /// How many special or small patterns there are up to `bits`, itself included.
    fn excluded_up_to(&self, bits: u64) -> u64 {
        self.excluded_below(bits) + u64::from(self.excluded(bits))
    }

    /// How many exact integers `m` from `first` up to `end` (excluded) have a pattern of
    /// `m / 16` below the positive pattern `bits`.
    fn sixteenths_below(bits: u64, end: u64, first: u64) -> u64 {
        let value = T::from_bits(bits).to_f64();
        let bound = if !value.is_finite() {
            end
        } else {
            // `m / 16 < value` for the integers below `16 value` rounded up; `16 value` is exact.
            let scaled = (16.0 * value).ceil();
            if scaled >= end as f64 {
                end
            } else {
                scaled as u64
            }
        };
        exact_below(bound.max(first), T::PRECISION) - exact_below(first, T::PRECISION)
    }

    /// How many patterns are neither special nor small, less one: the last index.
    fn last_index(&self) -> u64 {
        T::MAX_BITS - self.excluded_up_to(T::MAX_BITS)
    }

    /// Whether the pattern `bits` is special or small.
    fn excluded(&self, bits: u64) -> bool {
        is_special_or_small(T::from_bits(bits), self.size)
    }

    /// The index of the pattern `bits` among the others, or `None` if it is special or small.
    fn index(&self, bits: u64) -> Option<u64> {
        (!self.excluded(bits)).then(|| bits - self.excluded_below(bits))
    }

    /// The pattern at `index` among the others (`index <= last_index`).
    fn nth(&self, index: u64) -> u64 {
        // The patterns up to `bits` hold `bits + 1 - excluded_up_to(bits)` others. Starting at
        // `index`, adding the excluded patterns up to the guess reaches the answer in a step
        // or two where they are sparse (always but for `f32` at sizes near 2^19 and above,
        // whose small numbers are runs of consecutive patterns): a binary search ends it.
        let others_up_to = |bits: u64| bits + 1 - self.excluded_up_to(bits);
        let mut guess = index;
        for _ in 0..4 {
            let next = index + self.excluded_up_to(guess);
            if next == guess {
                return guess;
            }
            guess = next;
        }
        let (mut lo, mut hi) = (guess, T::MAX_BITS);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if others_up_to(mid) > index {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }
}

/// The sign bit of `T`'s patterns.
pub(super) fn sign_bit<T: Float>() -> u64 {
    (T::MAX_BITS >> 1) + 1
}

/// How many integers from 0 up to `end` (excluded) are exact in a float of `precision`
/// significand bits: all below 2^precision; in each binade above, those divisible by the
/// binade's spacing.
fn exact_below(end: u64, precision: u32) -> u64 {
    let mut count = end.min(1 << precision);
    let mut binade = precision;
    while binade < 64 && end > 1 << binade {
        let start = 1u64 << binade;
        let stop = if binade == 63 {
            end
        } else {
            end.min(start << 1)
        };
        let spacing = 1u64 << (binade + 1 - precision);
        count += (stop - start).div_ceil(spacing);
        binade += 1;
    }
    count
}

/// Whether `x` comes from the special or the small part of [`float`] at `size`.
fn is_special_or_small<T: Float>(x: T, size: usize) -> bool {
    T::SPECIALS.iter().any(|special| special.bits() == x.bits())
        || x.to_parts()
            .is_some_and(|(whole, _)| whole.unsigned_abs() <= size as u64)
}

#[cfg(test)]
mod tests {
    use super::sealed::Sealed;
    use super::*;
    use rand_core::{Rng, SeedableRng};

    /// The special and small patterns at `size`, sorted, listed from the numbers `k + j/16`
    /// that [`is_special_or_small`] (through `to_parts`) accepts.
    fn listed<T: Float>(size: usize) -> Vec<u64> {
        let reach = size as i64;
        let mut listed: Vec<u64> = (-reach..=reach)
            .flat_map(|whole| (0..16).map(move |j| T::from_parts(whole, j)))
            .filter(|&x| is_special_or_small(x, size))
            .map(Sealed::bits)
            .chain(T::SPECIALS.iter().map(|x| x.bits()))
            .collect();
        listed.sort_unstable();
        listed.dedup();
        listed
    }

    /// Patterns worth probing: each listed one and its neighbours, the sign's, the ends',
    /// and random ones.
    fn probes<T: Float>(listed: &[u64]) -> Vec<u64> {
        let sign = sign_bit::<T>();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let ends = [0, 1, sign - 1, sign, sign + 1, T::MAX_BITS - 1, T::MAX_BITS];
        let random = (0..500).map(|_| rng.next_u64() & T::MAX_BITS);
        listed
            .iter()
            .flat_map(|&bits| [bits.saturating_sub(1), bits, bits.saturating_add(1)])
            .filter(|&bits| bits <= T::MAX_BITS)
            .chain(ends)
            .chain(random)
            .collect()
    }

    fn counts_agree_with_the_list<T: Float>(size: usize) {
        let listed = listed::<T>(size);
        let others = Others::<T>::at(size);
        for bits in probes::<T>(&listed) {
            let below = listed.partition_point(|&x| x < bits) as u64;
            assert_eq!(
                others.excluded_below(bits),
                below,
                "{} patterns below {bits:#x} at size {size}",
                std::any::type_name::<T>()
            );
        }
        assert_eq!(
            others.last_index(),
            T::MAX_BITS - listed.len() as u64,
            "size {size}"
        );
    }

    #[test]
    fn the_excluded_patterns_are_counted_as_listed() {
        for size in [0, 1, 2, 3, 17, 100, 1000] {
            counts_agree_with_the_list::<f32>(size);
            counts_agree_with_the_list::<f64>(size);
        }
    }

    fn index_and_nth_are_inverse<T: Float>(size: usize, probes: &[u64]) {
        let others = Others::<T>::at(size);
        for &bits in probes {
            let Some(index) = others.index(bits) else {
                assert!(is_special_or_small(T::from_bits(bits), size));
                continue;
            };
            assert!(index <= others.last_index());
            assert_eq!(others.nth(index), bits, "index {index} at size {size}");
            if index > 0 {
                let before = others.nth(index - 1);
                assert!(before < bits && others.index(before) == Some(index - 1));
            }
        }
        assert_eq!(
            others.nth(0),
            2,
            "the second subnormal comes first, the first is special"
        );
        let last = others.nth(others.last_index());
        assert_eq!(others.index(last), Some(others.last_index()));
    }

    #[test]
    fn index_and_nth_are_inverse_and_keep_the_order() {
        for size in [0, 1, 5, 100] {
            index_and_nth_are_inverse::<f32>(size, &probes::<f32>(&listed::<f32>(size)));
            index_and_nth_are_inverse::<f64>(size, &probes::<f64>(&listed::<f64>(size)));
        }
    }

    /// Subnormals, which a drawn bit pattern is about once in two thousand, come up as a
    /// special value.
    #[test]
    fn subnormals_come_up() {
        let g = float::<f64>();
        let subnormal = (0..20_000)
            .map(|seed| g.sample(seed))
            .filter(|x| x.is_subnormal())
            .count();
        assert!(subnormal >= 100, "{subnormal} subnormals in 20 000");
        assert_eq!(g.choices(&f64::from_bits(1)).len(), 1);
    }

    /// At the largest sizes, `f32`'s small numbers near the size are runs of consecutive
    /// patterns, and some `k + j/16` are not exact: the counts follow.
    #[test]
    fn large_f32_sizes_count_runs_and_inexact_numbers() {
        let size = 1 << 20;
        let others = Others::<f32>::at(size);
        let near = |x: f32| {
            let bits = u64::from(x.to_bits());
            (bits - 40..bits + 40).chain((bits - 40..bits + 40).map(|b| b | sign_bit::<f32>()))
        };
        let probes: Vec<u64> = near(524_288.0)
            .chain(near(1_048_576.0))
            .chain(near(1_048_577.0))
            .collect();
        for &bits in &probes {
            let excluded = others.excluded(bits);
            let next = others.excluded_below(bits + 1) - others.excluded_below(bits);
            assert_eq!(
                next,
                u64::from(excluded),
                "{bits:#x}: {}",
                f32::from_bits(bits as u32)
            );
        }
        index_and_nth_are_inverse::<f32>(size, &probes);
    }
}
