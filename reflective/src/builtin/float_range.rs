//! Floats within a range.

use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};

use super::floats::{Float, sign_bit};
use crate::combinator::{frequency, pick, range};
use crate::generator::{Gen, Generator};

/// How many binades below the widest part of a range are drawn as one segment (as many
/// halvings of the weight): narrower parts together hold less than 2^-24 of the range.
const WEIGHT_BITS: i32 = 24;

/// A float in `bounds` (`0.0..1.0`, `-1e3..=1e3`, `..=0.5`; an unbounded end is the type's
/// least or greatest finite value), as proptest's float ranges draw them: evenly over the
/// numbers between the bounds, not over their bit patterns, so `0.0..1.0` gives numbers above
/// 0.5 half the time. About one time in twenty each, it is the least value in the range, the
/// greatest, or the value of least magnitude (0 when the range holds it). The size does not
/// change the distribution.
///
/// Every float in the range is produced in exactly one way, and any of them reflects, also one
/// that was never generated. A bound of zero is the zero of its sign: `0.0..1.0` starts at
/// `0.0` and does not hold `-0.0`; `-1.0..=0.0` holds both.
/// Shrinking goes towards the value of least magnitude in the range: to a binade of smaller
/// magnitude (a power of two apart) when its least value fails too, and within a binade
/// towards its least value. So `x > 0.5` shrinks 0.97 to the float just above 0.5, and
/// `x > 3.0` shrinks 6.9 to 4.0, the least value of its binade; a bound that fails stays.
///
/// # Panics
///
/// If a bound is NaN or infinite, or the range holds no float.
///
/// ```
/// use reflective::prelude::*;
///
/// let unit = float_in(0.0..1.0);
/// let above_half = (0..1000).filter(|&seed| unit.sample(seed) >= 0.5).count();
/// assert!((400..600).contains(&above_half));
/// assert!(unit.can_generate(&0.25) && unit.can_generate(&1e-300));
/// assert!(!unit.can_generate(&1.0));
/// assert_eq!(unit.shrink(0.97, |x| *x > 0.5), 0.5000000000000001);
/// assert_eq!(unit.shrink(0.97, |x| *x >= 0.5), 0.5);
/// ```
#[track_caller]
pub fn float_in<T: Float>(bounds: impl RangeBounds<T> + Debug) -> Gen<T, T> {
    let (low, high) = extremes(&bounds);
    // The value of least magnitude, where shrinking goes: drawn as often as a bound.
    let anchor = if low <= 0 && high >= 0 {
        0
    } else if high < 0 {
        high
    } else {
        low
    };
    let ends: Vec<i128> = if low == high {
        vec![low]
    } else {
        vec![low, high]
    }
    .into_iter()
    .filter(|&bound| bound != anchor)
    .collect();
    let special = |key: i128| key == anchor || ends.contains(&key);
    let (positive, negative) = magnitudes_of(low, high, special);
    let mut within = segments::<T>(positive, negative);
    let total: u64 = within.iter().map(|&(weight, _)| u64::from(weight)).sum();
    let anchor_weight = u32::try_from(total / 18).unwrap_or(u32::MAX).max(1);
    within.insert(0, (anchor_weight, Segment::of::<T>(anchor)));
    let within = drawn(within);
    if ends.is_empty() {
        return within;
    }
    let weight = ends.len() as u32;
    let ends = drawn(ends.iter().map(|&end| (1, Segment::of::<T>(end))).collect());
    pick(((18, "within", within), (weight, "bound", ends))).boxed()
}

/// A value of one of `segments`, chosen by their weights, then one of the segment's values, all
/// equally likely: two choices, whatever the segment (a bound is a segment of one value, so
/// that it costs as many choices as any other number: the shrinker, which takes fewer choices
/// as simpler, then prefers the value of least magnitude to a bound).
fn drawn<T: Float>(segments: Vec<(u32, Segment)>) -> Gen<T, T> {
    frequency(
        segments
            .into_iter()
            .map(|(weight, segment)| {
                let part = range(0..=segment.count() - 1)
                    .comap(move |x: &T| segment.index_of::<T>(x.bits()))
                    .map(move |index| T::from_bits(segment.nth::<T>(index)))
                    .boxed();
                (weight, part)
            })
            .collect::<Vec<_>>(),
    )
    .boxed()
}

/// A pattern's place in the order of the values: negative patterns below the positive ones,
/// `-0.0` just below `0.0`.
fn key<T: Float>(bits: u64) -> i128 {
    let magnitude = i128::from(bits & !sign_bit::<T>());
    if bits & sign_bit::<T>() == 0 {
        magnitude
    } else {
        -magnitude - 1
    }
}

/// The pattern at `key` (see [`key`]).
fn from_key<T: Float>(key: i128) -> u64 {
    if key >= 0 {
        key as u64
    } else {
        (-(key + 1)) as u64 | sign_bit::<T>()
    }
}

/// The keys of the least and the greatest value in `bounds`. An included zero is the zero of
/// its sign (`0.0..1.0` starts at `0.0`); an excluded zero excludes both, as `contains` does.
#[track_caller]
fn extremes<T: Float>(bounds: &(impl RangeBounds<T> + Debug)) -> (i128, i128) {
    for bound in [bounds.start_bound(), bounds.end_bound()] {
        if let Bound::Included(x) | Bound::Excluded(x) = bound {
            assert!(
                x.to_f64().is_finite(),
                "float_in: the bounds must be finite numbers: {bounds:?}"
            );
        }
    }
    let is_zero = |x: &T| x.bits() & !sign_bit::<T>() == 0;
    let (positive_zero, negative_zero) = (key::<T>(0), key::<T>(sign_bit::<T>()));
    let low = match bounds.start_bound() {
        Bound::Unbounded => key::<T>((infinity::<T>() - 1) | sign_bit::<T>()),
        Bound::Excluded(x) if is_zero(x) => positive_zero + 1,
        Bound::Included(x) => key::<T>(x.bits()),
        Bound::Excluded(x) => key::<T>(x.bits()) + 1,
    };
    let high = match bounds.end_bound() {
        Bound::Unbounded => key::<T>(infinity::<T>() - 1),
        Bound::Excluded(x) if is_zero(x) => negative_zero - 1,
        Bound::Included(x) => key::<T>(x.bits()),
        Bound::Excluded(x) => key::<T>(x.bits()) - 1,
    };
    assert!(
        low <= high,
        "float_in: the range holds no float: {bounds:?}"
    );
    (low, high)
}

/// The pattern of positive infinity, the first magnitude past the finite ones.
fn infinity<T: Float>() -> u64 {
    ((1 << exponent_bits::<T>()) - 1) << (T::PRECISION - 1)
}

/// How many bits `T`'s exponent has.
fn exponent_bits<T: Float>() -> u32 {
    T::MAX_BITS.count_ones() - T::PRECISION
}

/// Magnitudes (patterns without the sign) `first` to `first + count - 1`, `count` at least 1.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Magnitudes {
    first: u64,
    count: u64,
}

impl Magnitudes {
    fn last(self) -> u64 {
        self.first + self.count - 1
    }
}

/// The magnitudes of the positive and of the negative values with keys `low` to `high`, the
/// `special` keys left out (each is the least or the greatest magnitude of its side).
fn magnitudes_of(
    low: i128,
    high: i128,
    special: impl Fn(i128) -> bool,
) -> (Option<Magnitudes>, Option<Magnitudes>) {
    let trimmed = |mut first: i128, mut last: i128, key_of: &dyn Fn(i128) -> i128| {
        while first <= last && special(key_of(first)) {
            first += 1;
        }
        while last >= first && special(key_of(last)) {
            last -= 1;
        }
        (first <= last).then(|| Magnitudes {
            first: first as u64,
            count: (last - first + 1) as u64,
        })
    };
    let positive = (high >= 0)
        .then(|| trimmed(low.max(0), high, &|magnitude| magnitude))
        .flatten();
    let negative = (low < 0)
        .then(|| trimmed(-high.min(-1) - 1, -low - 1, &|magnitude| -magnitude - 1))
        .flatten();
    (positive, negative)
}

/// Part of a range: positive and negative magnitudes, numbered alternately from the least
/// (`+m0, -n0, +m1, -n1, ...`, then the rest of the longer side), so the first is the value of
/// least magnitude and shrinking a number moves towards it.
#[derive(Clone, Copy, Debug)]
struct Segment {
    positive: Option<Magnitudes>,
    negative: Option<Magnitudes>,
}

impl Segment {
    /// The segment of the one value with key `key`.
    fn of<T: Float>(key: i128) -> Segment {
        let magnitudes = Magnitudes {
            first: from_key::<T>(key) & !sign_bit::<T>(),
            count: 1,
        };
        Segment::one_sided(magnitudes, key < 0)
    }

    /// The segment of `magnitudes` of negative values, or of positive ones.
    fn one_sided(magnitudes: Magnitudes, negative: bool) -> Segment {
        let (side, none) = (Some(magnitudes), None);
        if negative {
            Segment {
                positive: none,
                negative: side,
            }
        } else {
            Segment {
                positive: side,
                negative: none,
            }
        }
    }

    fn sides(&self) -> (u64, u64) {
        let count = |side: Option<Magnitudes>| side.map_or(0, |side| side.count);
        (count(self.positive), count(self.negative))
    }

    fn count(&self) -> u64 {
        let (positive, negative) = self.sides();
        positive + negative
    }

    /// The pattern at `index` (below the count).
    fn nth<T: Float>(&self, index: u64) -> u64 {
        let (positive, negative) = self.sides();
        let paired = positive.min(negative);
        let (on_positive, at) = if index < 2 * paired {
            (index.is_multiple_of(2), index / 2)
        } else {
            (positive > negative, paired + (index - 2 * paired))
        };
        if on_positive {
            self.positive.map_or(0, |side| side.first) + at
        } else {
            (self.negative.map_or(0, |side| side.first) + at) | sign_bit::<T>()
        }
    }

    /// The index of the pattern `bits`, if it is in the segment.
    fn index_of<T: Float>(&self, bits: u64) -> Option<u64> {
        let magnitude = bits & !sign_bit::<T>();
        let negative = bits & sign_bit::<T>() != 0;
        let side = if negative {
            self.negative
        } else {
            self.positive
        }?;
        let at = magnitude
            .checked_sub(side.first)
            .filter(|&at| at < side.count)?;
        let (positive, negative_count) = self.sides();
        let paired = positive.min(negative_count);
        Some(if at < paired {
            2 * at + u64::from(negative)
        } else {
            2 * paired + (at - paired)
        })
    }
}

/// The values of `positive` and `negative` magnitudes, in segments with their weights: a
/// binade each where the range is wide (weighted by its width, so that numbers come evenly
/// over the range; weight at least 1), and one first segment for the values of least
/// magnitude, whose binades, from the least on, are too narrow to weigh (each less than 2^-24
/// of the widest), with weight 1. In order of magnitude, so shrinking moves towards the least.
fn segments<T: Float>(
    positive: Option<Magnitudes>,
    negative: Option<Magnitudes>,
) -> Vec<(u32, Segment)> {
    let positive = binades::<T>(positive);
    let negative = binades::<T>(negative);
    let widest = positive
        .iter()
        .chain(&negative)
        .map(|&(_, width)| width)
        .fold(f64::NEG_INFINITY, f64::max);
    let narrow = |binades: &[(Magnitudes, f64)]| {
        binades
            .iter()
            .take_while(|(_, width)| *width < widest - f64::from(WEIGHT_BITS))
            .count()
    };
    let (narrow_positive, narrow_negative) = (narrow(&positive), narrow(&negative));
    let merged = |binades: &[(Magnitudes, f64)]| {
        let (first, last) = (binades.first()?.0, binades.last()?.0);
        Some(Magnitudes {
            first: first.first,
            count: last.last() - first.first + 1,
        })
    };
    let mut segments = Vec::new();
    let least_magnitudes = Segment {
        positive: merged(&positive[..narrow_positive]),
        negative: merged(&negative[..narrow_negative]),
    };
    if least_magnitudes.count() > 0 {
        segments.push((1, least_magnitudes));
    }
    let mut wide: Vec<(Magnitudes, f64, bool)> = positive[narrow_positive..]
        .iter()
        .map(|&(magnitudes, width)| (magnitudes, width, false))
        .chain(
            negative[narrow_negative..]
                .iter()
                .map(|&(magnitudes, width)| (magnitudes, width, true)),
        )
        .collect();
    wide.sort_by_key(|&(magnitudes, _, negative)| (magnitudes.first, negative));
    segments.extend(wide.into_iter().map(|(magnitudes, width, negative)| {
        let weight = (width - widest + f64::from(WEIGHT_BITS))
            .exp2()
            .round()
            .max(1.0) as u32;
        (weight, Segment::one_sided(magnitudes, negative))
    }));
    segments
}

/// The `magnitudes` (if any) split by binade (exponent), least first, each with the base-2
/// logarithm of its width: how many numbers it spans, times their spacing.
fn binades<T: Float>(magnitudes: Option<Magnitudes>) -> Vec<(Magnitudes, f64)> {
    let Some(magnitudes) = magnitudes else {
        return Vec::new();
    };
    let (first, last) = (magnitudes.first, magnitudes.last());
    let significand = T::PRECISION - 1;
    let bias = (1i64 << (exponent_bits::<T>() - 1)) - 1;
    (first >> significand..=last >> significand)
        .map(|exponent| {
            let start = first.max(exponent << significand);
            let end = last.min(((exponent + 1) << significand) - 1);
            let magnitudes = Magnitudes {
                first: start,
                count: end - start + 1,
            };
            // Subnormals (exponent 0) are spaced as the least normal binade.
            let spacing = exponent.max(1) as i64 - bias - i64::from(significand);
            (
                magnitudes,
                (magnitudes.count as f64).log2() + spacing as f64,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_index_round_trips<T: Float>(segment: Segment) {
        for index in (0..segment.count()).step_by(1 + segment.count() as usize / 500) {
            let bits = segment.nth::<T>(index);
            assert_eq!(
                segment.index_of::<T>(bits),
                Some(index),
                "{segment:?} at {index}"
            );
        }
    }

    #[test]
    fn segments_number_their_values_from_the_least_magnitude() {
        let both = Segment {
            positive: Some(Magnitudes { first: 0, count: 5 }),
            negative: Some(Magnitudes { first: 0, count: 2 }),
        };
        let order: Vec<f64> = (0..7).map(|i| f64::from_bits(both.nth::<f64>(i))).collect();
        assert_eq!(order[..3], [0.0, -0.0, 5e-324]);
        assert_eq!(both.index_of::<f64>(4), Some(6));
        every_index_round_trips::<f64>(both);
        every_index_round_trips::<f32>(Segment {
            positive: None,
            negative: Some(Magnitudes {
                first: 7,
                count: 3000,
            }),
        });
    }

    #[test]
    fn segments_cover_the_range_once() {
        for (least, greatest) in [
            (-1.0f64, 1.0),
            (0.25, 3.0),
            (-1e300, -1e-300),
            (-0.0, 0.0f64),
        ] {
            let (low, high) = (key::<f64>(least.to_bits()), key::<f64>(greatest.to_bits()));
            let (positive, negative) = magnitudes_of(low, high, |_| false);
            let segments = segments::<f64>(positive, negative);
            let count: u64 = segments.iter().map(|(_, s)| s.count()).sum();
            let expected = key::<f64>(greatest.to_bits()) - key::<f64>(least.to_bits()) + 1;
            assert_eq!(i128::from(count), expected, "{least}..={greatest}");
        }
    }
}
