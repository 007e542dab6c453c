//! The bytes source: reads choices from a byte string, as a fuzzer hands one over, and the
//! encoding that writes choices as such bytes.
//!
//! Each choice takes the fewest whole bytes that can hold its range, little-endian: a pick of
//! `n` branches the bytes of `n - 1` (none for a single branch), an integer in `lo..=hi` the
//! bytes of `hi - lo`. The number read is taken modulo the number of values (a pick that lands
//! on a branch of zero weight takes the next branch that has one), so every byte string
//! decodes to choices the generator accepts. Once the bytes run out, the remaining choices take
//! their simplest value (the first branch with a weight, the integer nearest 0), so a short
//! input gives a small value when the first branches are the small ones, as the shrinker's
//! repairs do. The rest are drawn by a seeded
//! random source, as generation draws them, once the engine draws again past the end (a
//! filter that rejects the simplest value, a set that already holds it: simplest values
//! would repeat for ever) or after [`SIMPLEST_AFTER_END`] simplest choices (a generator
//! whose simplest choices never end, a recursion on its first branch, ends as generation
//! does). The same bytes always give the same value. [`write_choices`] writes a
//! choice as the number that reads back as it.

use rand_core::Rng;

use super::random::RandomSource;
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::{Choice, nearest_zero};

/// How many choices past the end of the bytes take their simplest value before the rest are
/// drawn at random.
pub(crate) const SIMPLEST_AFTER_END: usize = 4096;

/// Feeds the forward engine choices read from `bytes`, then, once they run out, their
/// simplest values, then values drawn by a random source.
pub(crate) struct BytesSource<'b, R: Rng + ?Sized> {
    bytes: &'b [u8],
    position: usize,
    /// How many more choices past the end take their simplest value.
    simplest_left: usize,
    fallback: RandomSource<'b, R>,
}

impl<'b, R: Rng + ?Sized> BytesSource<'b, R> {
    /// Reads `bytes`, then draws with `rng`.
    pub(crate) fn new(bytes: &'b [u8], rng: &'b mut R) -> Self {
        BytesSource {
            bytes,
            position: 0,
            simplest_left: SIMPLEST_AFTER_END,
            fallback: RandomSource::new(rng),
        }
    }

    /// The next `width` bytes as a little-endian number, or `None` (for good: later choices
    /// read no more bytes either) if fewer are left.
    fn read(&mut self, width: usize) -> Option<u128> {
        let Some(bytes) = self.bytes.get(self.position..self.position + width) else {
            self.position = self.bytes.len();
            return None;
        };
        self.position += width;
        Some(
            bytes
                .iter()
                .rev()
                .fold(0, |number, &byte| (number << 8) | u128::from(byte)),
        )
    }

    /// Whether the bytes are all read.
    fn at_end(&self) -> bool {
        self.position == self.bytes.len()
    }

    /// Whether a choice past the end takes its simplest value (counting it), rather than a
    /// random one.
    fn simplest(&mut self) -> bool {
        let simplest = self.simplest_left > 0;
        self.simplest_left = self.simplest_left.saturating_sub(1);
        simplest
    }
}

impl<R: Rng + ?Sized> ChoiceSource for BytesSource<'_, R> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        let arity = site.branches.arity() as u128;
        let first = match self.read(width(arity - 1)) {
            Some(number) => (number % arity) as u32,
            None if self.simplest() => 0,
            None => return self.fallback.pick(site),
        };
        // The branch read, or the next one with a weight (the total weight is never 0).
        Ok((0..arity as u32)
            .map(|step| (first + step) % arity as u32)
            .find(|&index| site.takes(index))
            .unwrap_or(first))
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        let span = site.hi.abs_diff(site.lo);
        let Some(number) = self.read(width(span)) else {
            if self.simplest() {
                return Ok(nearest_zero(site.lo, site.hi));
            }
            return self.fallback.int(site);
        };
        let offset = match span.checked_add(1) {
            Some(values) => number % values,
            None => number,
        };
        Ok(site.lo.wrapping_add(offset as i128))
    }

    fn redrawing(&mut self) {
        // Past the end, the simplest values would give the rejected draw again.
        if self.at_end() {
            self.simplest_left = 0;
        }
    }
}

/// How many bytes hold every number up to `largest`.
fn width(largest: u128) -> usize {
    (128 - largest.leading_zeros() as usize).div_ceil(8)
}

/// Appends `choices` to `out` as the bytes a [`BytesSource`] reads back as them.
pub(crate) fn write_choices(choices: &[Choice], out: &mut Vec<u8>) {
    for choice in choices {
        let (number, largest) = match *choice {
            Choice::Pick { index, arity, .. } => (u128::from(index), u128::from(arity - 1)),
            Choice::Int { value, lo, hi } => (value.abs_diff(lo), hi.abs_diff(lo)),
        };
        out.extend_from_slice(&number.to_le_bytes()[..width(largest)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_takes_the_bytes_its_range_needs() {
        let widths = [
            0,
            1,
            255,
            256,
            65_535,
            65_536,
            u128::from(u64::MAX),
            u128::MAX,
        ]
        .map(width);
        assert_eq!(widths, [0, 1, 1, 2, 2, 3, 8, 16]);
    }

    #[test]
    fn choices_encode_to_the_fewest_bytes_little_endian() {
        let choices = [
            Choice::Pick {
                index: 2,
                arity: 3,
                label: None,
            },
            Choice::Pick {
                index: 0,
                arity: 1,
                label: None,
            },
            Choice::Int {
                value: -3,
                lo: -10,
                hi: 1000,
            },
            Choice::Int {
                value: i128::MAX,
                lo: i128::MIN,
                hi: i128::MAX,
            },
        ];
        let mut out = Vec::new();
        write_choices(&choices, &mut out);
        let mut expected = vec![2, 7, 0];
        expected.extend_from_slice(&u128::MAX.to_le_bytes());
        assert_eq!(out, expected);
    }
}
