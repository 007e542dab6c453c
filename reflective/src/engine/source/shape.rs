//! How a random source spreads an integer choice over its range.
//!
//! The shape only matters to random generation and to `probability_of`: a recorded integer is
//! just its value, so replay, reflection and shrinking never look at the shape.

use rand_core::Rng;

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
    /// A collection's length as its share of `budget` units that `parts` more collections (and
    /// the unused rest) share with it: see the module `share`.
    Share {
        /// The units shared.
        budget: usize,
        /// How many piles share them after this one.
        parts: usize,
    },
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
    let mut edges = [lo, hi, 0, 0, 0];
    let mut count = if lo == hi { 1 } else { 2 };
    // 0, 1 and -1 differ from each other; strictly inside the range, they differ from its ends.
    for value in [0, 1, -1] {
        if lo < value && value < hi {
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
            IntShape::Uniform | IntShape::Share { .. } => [
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

    /// Draws a value in `lo..=hi` at `size` from uniform 64-bit words `next()`: the
    /// distribution [`IntShape::parts`] describes, drawn without building the parts, since
    /// this runs for every integer generated.
    ///
    /// A range of at most 2^32 values takes one word: its high half picks the part and its low
    /// half the value in it, each half exactly uniform by Lemire's method (with a fresh word in
    /// the rare case it rejects). A wider range takes a word per step.
    #[inline]
    pub(crate) fn sample(
        self,
        lo: i128,
        hi: i128,
        size: usize,
        next: &mut impl FnMut() -> u64,
    ) -> i128 {
        if let IntShape::Share { budget, parts } = self {
            return super::share::sample(lo, hi, budget, parts, &mut |n| below_64(n, next));
        }
        if !is_narrow(lo, hi) {
            return self.sample_wide(lo, hi, size, next);
        }
        let word = next();
        self.sample_narrow(lo, hi, size, word, next)
    }

    /// Fills `out` with values drawn one after another, as [`IntShape::sample`] draws them,
    /// each given as its distance from `lo`. The range must be narrow (see [`is_narrow`]), so
    /// that the distances fit.
    pub(crate) fn sample_many(
        self,
        lo: i128,
        hi: i128,
        size: usize,
        out: &mut [u32],
        rng: &mut (impl Rng + ?Sized),
    ) {
        debug_assert!(is_narrow(lo, hi));
        let batch = Batch::new(self, lo, hi, size);
        let mut next = 0;
        while next < out.len() {
            // The loop calls nothing, so the generator's state can stay in registers; a word
            // the batch cannot use ends it, and is drawn from one by one. Its one counter is
            // the index (an iterator over the slots would be a second).
            let start = next;
            next = out.len();
            #[allow(clippy::needless_range_loop)]
            for index in start..out.len() {
                let word = rng.next_u64();
                let Some(distance) = batch.draw_from(word) else {
                    out[index] = batch.one_by_one(word, rng);
                    next = index + 1;
                    break;
                };
                out[index] = distance;
            }
        }
    }

    /// [`IntShape::sample`] for a range of at most 2^32 values, whose first word is `word`.
    #[inline]
    fn sample_narrow(
        self,
        lo: i128,
        hi: i128,
        size: usize,
        word: u64,
        next: &mut impl FnMut() -> u64,
    ) -> i128 {
        let (high, low) = ((word >> 32) as u32, word as u32);
        if self == IntShape::Uniform {
            return lo + i128::from(below_32(low, span_count(lo, hi), next));
        }
        let wide_weight = wide_weight(size);
        let roll = below_32(high, EDGE_WEIGHT + SMALL_WEIGHT + wide_weight, next);
        if roll >= SMALL_WEIGHT + wide_weight {
            let (edges, count) = edges(lo, hi);
            return edges[below_32(low, count as u64, next) as usize];
        }
        // A small value or any value: both parts worked out and one selected, where a branch
        // would be mispredicted about one draw in three.
        let (small_lo, small_hi) = small_range(lo, hi, size);
        let small = roll < SMALL_WEIGHT;
        let first = std::hint::select_unpredictable(small, small_lo, lo);
        let last = std::hint::select_unpredictable(small, small_hi, hi);
        first + i128::from(below_32(low, span_count(first, last), next))
    }

    /// [`IntShape::sample`] for a range of more than 2^32 values.
    #[inline]
    fn sample_wide(self, lo: i128, hi: i128, size: usize, next: &mut impl FnMut() -> u64) -> i128 {
        let below = &mut |n| below_64(n, next);
        if self == IntShape::Uniform {
            return between_with(lo, hi, below);
        }
        let wide_weight = wide_weight(size);
        let roll = below(EDGE_WEIGHT + SMALL_WEIGHT + wide_weight);
        if roll < SMALL_WEIGHT {
            let (small_lo, small_hi) = small_range(lo, hi, size);
            between_with(small_lo, small_hi, below)
        } else if roll < SMALL_WEIGHT + wide_weight {
            if hi.wrapping_sub(lo) as u128 == u128::from(u64::MAX) {
                // Any value of an `i64` or a `u64`, the most common wide range.
                return lo.wrapping_add(i128::from(offset_of_64_bits(below)));
            }
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
        if let IntShape::Share { budget, parts } = self {
            return super::share::probability(value, lo, hi, budget, parts);
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

/// Whether `lo..=hi` holds at most 2^32 values: each draw then takes one random word, and the
/// distance of each value from `lo` fits a `u32`.
#[inline]
pub(crate) fn is_narrow(lo: i128, hi: i128) -> bool {
    hi.wrapping_sub(lo) as u128 <= u128::from(u32::MAX)
}

/// A distribution over at most 2^32 values prepared for many draws: each part's first value
/// and count worked out once, so that a draw takes its part by indexing instead of by a
/// branch the processor would mispredict.
///
/// It draws exactly what [`IntShape::sample`] draws from the same words. A half word whose
/// product with the count has a low half below the count, which Lemire's method may reject
/// (about one draw in 2^32 / count), is handed to the one-by-one draw.
///
/// The tables have a fourth row that no draw reads: a part is the sum of two comparisons,
/// which the compiler knows only to be below 4, so that indexing needs no bounds check.
struct Batch {
    shape: IntShape,
    lo: i128,
    hi: i128,
    size: usize,
    /// The total weight of the parts (0 for a uniform shape), below 2^32.
    total: u64,
    /// Where the rolls of small values and of any value end, shifted up 32 bits: a roll is
    /// the high half of a product, so comparing the product with these compares the roll.
    small_end: u64,
    wide_end: u64,
    /// The parts, in the order of the roll: small values, any value, edges.
    counts: [u64; 4],
    /// Per part, the low halves of a product below which Lemire's method may reject: the
    /// count, or 0 for a part of 2^32 values, which never rejects.
    suspects: [u32; 4],
    /// What to add to an offset in a part to make the value's distance from `lo`, by the part
    /// and the offset masked to 3 bits (at `part * 8 + offset % 8`): the part's first value
    /// for small and any values, and for edges the step from the offset to the edge. One
    /// lookup instead of a choice between an edge and a value, which the compiler would make
    /// a branch that one draw in ten mispredicts.
    adds: [u32; 32],
}

impl Batch {
    fn new(shape: IntShape, lo: i128, hi: i128, size: usize) -> Batch {
        // Everything as distances from `lo`, which fit a `u64` (a `u32` but for the count
        // of 2^32 values).
        let span = hi.wrapping_sub(lo) as u64;
        let origin = crate::choice::nearest_zero(lo, hi).wrapping_sub(lo) as u64;
        let reach = u64::try_from(size).unwrap_or(u64::MAX);
        let small_first = origin.saturating_sub(reach);
        let small_last = origin.saturating_add(reach).min(span);
        let (edges, edge_count) = edges(lo, hi);
        let wide_weight = wide_weight(size);
        let counts = [small_last - small_first + 1, span + 1, edge_count as u64, 1];
        let mut adds = [0u32; 32];
        adds[..8].fill(small_first as u32);
        for (index, edge) in edges.into_iter().enumerate() {
            adds[16 + index] = (edge.wrapping_sub(lo) as u32).wrapping_sub(index as u32);
        }
        Batch {
            shape,
            lo,
            hi,
            size,
            total: match shape {
                IntShape::Biased => EDGE_WEIGHT + SMALL_WEIGHT + wide_weight,
                // Shares are drawn one at a time, never in batches.
                IntShape::Uniform | IntShape::Share { .. } => 0,
            },
            small_end: SMALL_WEIGHT << 32,
            wide_end: (SMALL_WEIGHT + wide_weight) << 32,
            counts,
            suspects: counts.map(|count| if count == 1 << 32 { 0 } else { count as u32 }),
            adds,
        }
    }

    /// The value the word `word` draws, given as its distance from `lo`; `None` if Lemire's
    /// method might reject one of its halves.
    #[inline]
    fn draw_from(&self, word: u64) -> Option<u32> {
        let (high, low) = (word >> 32, word & u64::from(u32::MAX));
        let part = if self.total == 0 {
            1
        } else {
            let product = high * self.total;
            // The low half compared as a `u32`, which needs no copy to clear the high half.
            if (product as u32) < self.total as u32 {
                return None;
            }
            u32::from(product >= self.small_end) + u32::from(product >= self.wide_end)
        };
        let product = low * self.counts[part as usize];
        if (product as u32) < self.suspects[part as usize] {
            return None;
        }
        let offset = (product >> 32) as u32;
        Some(offset.wrapping_add(self.adds[(part * 8 + (offset & 7)) as usize]))
    }

    /// The value drawn one by one from the first word `word`, as [`IntShape::sample`] draws it.
    #[cold]
    fn one_by_one(&self, word: u64, rng: &mut (impl Rng + ?Sized)) -> u32 {
        let value = self
            .shape
            .sample_narrow(self.lo, self.hi, self.size, word, &mut || rng.next_u64());
        value.wrapping_sub(self.lo) as u32
    }
}

/// The number of values in `lo..=hi` (at most 2^32 here).
#[inline]
fn span_count(lo: i128, hi: i128) -> u64 {
    hi.wrapping_sub(lo) as u64 + 1
}

/// A uniform integer in `0..n` (`0 < n <= 2^32`) from the uniform 32-bit `word`, by Lemire's
/// multiply-and-reject method; a rejected word is replaced by the low half of a fresh `next()`.
#[inline]
fn below_32(mut word: u32, n: u64, next: &mut impl FnMut() -> u64) -> u64 {
    debug_assert!(n > 0 && n <= 1 << 32);
    if n == 1 << 32 {
        return u64::from(word);
    }
    let mut product = u64::from(word) * n;
    if (product as u32 as u64) < n {
        let threshold = (1u64 << 32).wrapping_sub(n) % n;
        while (product as u32 as u64) < threshold {
            word = next() as u32;
            product = u64::from(word) * n;
        }
    }
    product >> 32
}

/// A uniform integer in `0..n` (`n > 0`) from uniform 64-bit words, by Lemire's
/// multiply-and-reject method.
#[inline]
pub(crate) fn below_64(n: u64, next: &mut impl FnMut() -> u64) -> u64 {
    debug_assert!(n > 0);
    let mut product = u128::from(next()) * u128::from(n);
    let mut low = product as u64;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            product = u128::from(next()) * u128::from(n);
            low = product as u64;
        }
    }
    (product >> 64) as u64
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

/// A uniform offset in a span of 2^64 values, drawn as [`wide_offset`] draws it, inline and
/// without its loop: two candidates of two 32-bit halves each, the first masked away entirely
/// (the span needs 64 bits), the second always in the span.
#[inline(always)]
fn offset_of_64_bits(below: &mut impl FnMut(u64) -> u64) -> u64 {
    below(1 << 32);
    below(1 << 32);
    let high = below(1 << 32);
    let low = below(1 << 32);
    (high << 32) | low
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

#[cfg(test)]
mod tests {
    use super::*;

    use std::convert::Infallible;

    /// Words from SplitMix64, with every third word's low or high half zeroed: a zero half is
    /// one that Lemire's method rejects, so both ways of drawing meet rejections often.
    struct Words {
        state: u64,
        index: u64,
    }

    fn words(seed: u64) -> Words {
        Words {
            state: seed,
            index: 0,
        }
    }

    impl rand_core::TryRng for Words {
        type Error = Infallible;

        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            self.index += 1;
            Ok(match self.index % 6 {
                0 => z & !u64::from(u32::MAX),
                3 => z & u64::from(u32::MAX),
                _ => z ^ (z >> 31),
            })
        }

        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            Ok(self.try_next_u64()? as u32)
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
            dst.iter_mut()
                .for_each(|byte| *byte = self.next_u64() as u8);
            Ok(())
        }
    }

    #[test]
    fn edges_are_the_ends_then_zero_and_one_and_minus_one_in_range_without_repeats() {
        let points = [
            i128::MIN,
            i128::MIN + 1,
            -3,
            -2,
            -1,
            0,
            1,
            2,
            3,
            i128::MAX - 1,
            i128::MAX,
        ];
        for lo in points {
            for hi in points.into_iter().filter(|&hi| hi >= lo) {
                let mut expected = Vec::new();
                for value in [lo, hi, 0, 1, -1] {
                    if (lo..=hi).contains(&value) && !expected.contains(&value) {
                        expected.push(value);
                    }
                }
                let (edges, count) = edges(lo, hi);
                assert_eq!(edges[..count], expected[..], "{lo}..={hi}");
            }
        }
    }

    #[test]
    fn many_draws_are_the_draws_one_by_one() {
        let ranges = [
            (0, 255),
            (-128, 127),
            (0, 0),
            (-5, -1),
            (3, 9),
            (0, i128::from(u32::MAX)),
            (i128::from(i32::MIN), i128::from(i32::MAX)),
            (i128::from(u64::MAX) - 10, i128::from(u64::MAX)),
            (0, i128::from(u64::MAX)),
        ];
        for (lo, hi) in ranges {
            for shape in [IntShape::Uniform, IntShape::Biased] {
                for size in [0, 1, 7, 100, 10_000] {
                    let seed =
                        (lo as u64) ^ (size as u64) << 8 ^ u64::from(shape == IntShape::Biased);
                    let mut one_by_one = words(seed);
                    let expected: Vec<i128> = (0..500)
                        .map(|_| shape.sample(lo, hi, size, &mut || one_by_one.next_u64()))
                        .collect();
                    let mut many = vec![0; 500];
                    if is_narrow(lo, hi) {
                        shape.sample_many(lo, hi, size, &mut many, &mut words(seed));
                        let many: Vec<i128> = many.iter().map(|&d| lo + i128::from(d)).collect();
                        assert_eq!(many, expected, "{shape:?} {lo}..={hi} at size {size}");
                    }
                    assert!(expected.iter().all(|v| (lo..=hi).contains(v)));
                }
            }
        }
    }

    #[test]
    fn a_64_bit_span_takes_the_words_and_value_of_the_general_draw() {
        for seed in 0..200 {
            let (mut general, mut inline) = (words(seed), words(seed));
            let span = u128::from(u64::MAX);
            let expected = wide_offset(span, &mut |n| below_64(n, &mut || general.next_u64()));
            let drawn = offset_of_64_bits(&mut |n| below_64(n, &mut || inline.next_u64()));
            assert_eq!(u128::from(drawn), expected, "seed {seed}");
            assert_eq!(
                general.next_u64(),
                inline.next_u64(),
                "seed {seed}: words taken"
            );
        }
    }
}
