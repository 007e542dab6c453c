//! How a random source spreads an integer choice over its range.
//!
//! The shape only matters to random generation and to `probability_of`: a recorded integer is
//! just its value, so replay, reflection and shrinking never look at the shape.

/// The distribution of an integer choice over `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntShape {
    /// Every value equally likely (QuickCheck's `choose`).
    Uniform,
    /// Mostly small values and edge values, more of the whole range as the size grows: an edge
    /// value (`lo`, `hi`, 0, 1, -1) with weight [`EDGE_WEIGHT`], a value within `size` of the
    /// in-range value nearest zero with weight [`SMALL_WEIGHT`], any value with a weight that
    /// grows from [`WIDE_FLOOR`] at size 0 to [`WIDE_WEIGHT`] at size 100. Every value in range
    /// has a probability above 0 at every size.
    Biased,
}

const EDGE_WEIGHT: u64 = 1_000;
const SMALL_WEIGHT: u64 = 6_000;
const WIDE_WEIGHT: u64 = 3_000;
const WIDE_FLOOR: u64 = 30;

/// The weight of "any value in range" at `size`.
#[inline]
fn wide_weight(size: usize) -> u64 {
    WIDE_FLOOR + (WIDE_WEIGHT - WIDE_FLOOR) * size.min(100) as u64 / 100
}

/// The values within `size` of the in-range value nearest zero.
#[inline]
fn small_range(lo: i128, hi: i128, size: usize) -> (i128, i128) {
    let origin = crate::choice::nearest_zero(lo, hi);
    let reach = i128::try_from(size).unwrap_or(i128::MAX);
    (
        origin.saturating_sub(reach).max(lo),
        origin.saturating_add(reach).min(hi),
    )
}

/// The edge values in range (`lo`, `hi`, 0, 1, -1, without repeats): the first `.1` of `.0`.
#[inline]
fn edges(lo: i128, hi: i128) -> ([i128; 5], usize) {
    let mut edges = [0; 5];
    let mut count = 0;
    for value in [lo, hi, 0, 1, -1] {
        if (lo..=hi).contains(&value) && !edges[..count].contains(&value) {
            edges[count] = value;
            count += 1;
        }
    }
    (edges, count)
}

/// One part of a mixture: a weight and the values it spreads that weight over uniformly.
enum Part {
    /// The first `.1` values of the array.
    Values([i128; 5], usize),
    Range(i128, i128),
}

impl Part {
    fn count(&self) -> u128 {
        match self {
            Part::Values(_, count) => *count as u128,
            Part::Range(lo, hi) => hi.abs_diff(*lo).saturating_add(1),
        }
    }

    fn contains(&self, value: i128) -> bool {
        match self {
            Part::Values(values, count) => values[..*count].contains(&value),
            Part::Range(lo, hi) => (*lo..=*hi).contains(&value),
        }
    }
}

impl IntShape {
    /// The weighted parts of the distribution over `lo..=hi` at `size` (three parts; a
    /// uniform shape uses only the last).
    fn parts(self, lo: i128, hi: i128, size: usize) -> [(u64, Part); 3] {
        match self {
            IntShape::Uniform => [
                (0, Part::Values([0; 5], 0)),
                (0, Part::Range(lo, lo)),
                (1, Part::Range(lo, hi)),
            ],
            IntShape::Biased => {
                let (edges, count) = edges(lo, hi);
                let (small_lo, small_hi) = small_range(lo, hi, size);
                [
                    (EDGE_WEIGHT, Part::Values(edges, count)),
                    (SMALL_WEIGHT, Part::Range(small_lo, small_hi)),
                    (wide_weight(size), Part::Range(lo, hi)),
                ]
            }
        }
    }

    /// Draws a value in `lo..=hi`, given a source of uniform draws: `below(n)` must return a
    /// uniform integer in `0..n` (n > 0). The same distribution as [`IntShape::parts`]
    /// describes, drawn without building the parts: this runs for every integer generated.
    pub(crate) fn sample(
        self,
        lo: i128,
        hi: i128,
        size: usize,
        below: &mut impl FnMut(u64) -> u64,
    ) -> i128 {
        if self == IntShape::Uniform {
            return between_with(lo, hi, below);
        }
        let wide_weight = wide_weight(size);
        let roll = below(EDGE_WEIGHT + SMALL_WEIGHT + wide_weight);
        if roll < SMALL_WEIGHT {
            let (small_lo, small_hi) = small_range(lo, hi, size);
            between_with(small_lo, small_hi, below)
        } else if roll < SMALL_WEIGHT + wide_weight {
            between_with(lo, hi, below)
        } else {
            let (edges, count) = edges(lo, hi);
            edges[below(count as u64) as usize]
        }
    }

    /// The probability that [`IntShape::sample`] draws `value` from `lo..=hi` at `size`.
    pub(crate) fn probability(self, value: i128, lo: i128, hi: i128, size: usize) -> f64 {
        if !(lo..=hi).contains(&value) {
            return 0.0;
        }
        let parts = self.parts(lo, hi, size);
        let total: u64 = parts.iter().map(|(weight, _)| weight).sum();
        parts
            .iter()
            .filter(|(weight, part)| *weight > 0 && part.contains(value))
            .map(|(weight, part)| *weight as f64 / total as f64 / part.count() as f64)
            .fold(0.0, |total, share| total + share)
    }
}

/// A uniform integer in `lo..=hi`, built from uniform draws below a bound.
#[inline]
pub(crate) fn between_with(lo: i128, hi: i128, below: &mut impl FnMut(u64) -> u64) -> i128 {
    let span = hi.wrapping_sub(lo) as u128;
    if span < u128::from(u64::MAX) {
        // `lo + offset <= hi`, so the addition cannot overflow.
        return lo + i128::from(below(span as u64 + 1));
    }
    lo.wrapping_add(wide_offset(span, below) as i128)
}

/// A uniform offset in `0..=span` for a span too wide for one 64-bit draw: rejection sampling
/// on the bits the span needs, drawn 32 bits at a time.
#[cold]
fn wide_offset(span: u128, below: &mut impl FnMut(u64) -> u64) -> u128 {
    let bits = 128 - span.leading_zeros();
    let mask = if bits == 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    loop {
        let mut word = || (u128::from(below(1 << 32)) << 32) | u128::from(below(1 << 32));
        let high = word();
        let candidate = ((high << 64) | word()) & mask;
        if candidate <= span {
            return candidate;
        }
    }
}
