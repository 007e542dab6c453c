//! The bytes source: reads choices from a byte string, as a fuzzer hands one over, and the
//! encoding that writes choices as such bytes.
//!
//! Each choice takes the fewest whole bytes that can hold its range, little-endian: a pick of
//! `n` branches the bytes of `n - 1` (none for a single branch), an integer in `lo..=hi` the
//! bytes of `hi - lo`. The number read is taken modulo the number of values (a pick that lands
//! on a branch of zero weight takes the next branch that has one), so every byte string
//! decodes to choices the generator accepts. Once the bytes run out, the remaining choices are
//! drawn by a seeded random source, as generation draws them: the value is complete, and the
//! same bytes always give it. [`write_choices`] writes a choice as the number that reads back as it.

use rand_core::Rng;

use super::random::RandomSource;
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::Choice;

/// Feeds the forward engine choices read from `bytes`, then, once they run out, drawn by a
/// random source.
pub(crate) struct BytesSource<'b, R: Rng + ?Sized> {
    bytes: &'b [u8],
    position: usize,
    fallback: RandomSource<'b, R>,
}

impl<'b, R: Rng + ?Sized> BytesSource<'b, R> {
    /// Reads `bytes`, then draws with `rng`.
    pub(crate) fn new(bytes: &'b [u8], rng: &'b mut R) -> Self {
        BytesSource {
            bytes,
            position: 0,
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
}

impl<R: Rng + ?Sized> ChoiceSource for BytesSource<'_, R> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        let arity = site.branches.arity() as u128;
        let Some(number) = self.read(width(arity - 1)) else {
            return self.fallback.pick(site);
        };
        let first = (number % arity) as u32;
        // The branch read, or the next one with a weight (the total weight is never 0).
        Ok((0..arity as u32)
            .map(|step| (first + step) % arity as u32)
            .find(|&index| site.takes(index))
            .unwrap_or(first))
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        let span = site.hi.abs_diff(site.lo);
        let Some(number) = self.read(width(span)) else {
            return self.fallback.int(site);
        };
        let offset = match span.checked_add(1) {
            Some(values) => number % values,
            None => number,
        };
        Ok(site.lo.wrapping_add(offset as i128))
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
