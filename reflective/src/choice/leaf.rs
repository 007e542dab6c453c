//! [`Choice`]: one typed choice, a leaf of a choice tree, and how simple it is.

use std::cmp::Ordering;
use std::fmt;

use super::label::Label;

/// One choice a generator made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A branch of a pick: `index` among `arity` branches, with the branch's label if it has one.
    Pick {
        /// The branch taken, counting from 0.
        index: u32,
        /// How many branches the pick offered.
        arity: u32,
        /// The label of the branch taken.
        label: Option<Label>,
    },
    /// An integer drawn from the inclusive range `lo..=hi`.
    Int {
        /// The integer drawn.
        value: i128,
        /// The least integer the draw allowed.
        lo: i128,
        /// The greatest integer the draw allowed.
        hi: i128,
    },
}

/// The integer in `lo..=hi` nearest zero: the simplest value of an integer choice.
#[inline]
pub(crate) fn nearest_zero(lo: i128, hi: i128) -> i128 {
    0i128.clamp(lo, hi)
}

impl Choice {
    /// How simple the choice is: 0 is simplest.
    ///
    /// A pick ranks by its index. An integer ranks by its distance from the in-range value
    /// nearest zero, positive before negative at the same distance (0, 1, -1, 2, -2, ...);
    /// in a range on one side of zero, by its distance alone.
    ///
    /// ```
    /// use reflective::Choice;
    /// let int = |value| Choice::Int { value, lo: -10, hi: 10 };
    /// assert!(int(0).simplicity() < int(1).simplicity());
    /// assert!(int(1).simplicity() < int(-1).simplicity());
    /// assert!(int(-1).simplicity() < int(2).simplicity());
    /// let above = Choice::Int { value: 7, lo: 5, hi: 10 };
    /// assert_eq!(above.simplicity(), 2);
    /// ```
    pub fn simplicity(&self) -> u128 {
        match self {
            Choice::Pick { index, .. } => u128::from(*index),
            Choice::Int { value, lo, hi } => {
                let origin = nearest_zero(*lo, *hi);
                let distance = value.abs_diff(origin);
                if origin == *lo || origin == *hi {
                    return distance;
                }
                match value.cmp(&origin) {
                    Ordering::Equal => 0,
                    Ordering::Greater => distance.saturating_mul(2).saturating_sub(1),
                    Ordering::Less => distance.saturating_mul(2),
                }
            }
        }
    }

    /// What replay reads of the choice: a pick's index, an integer's value.
    #[inline]
    pub(crate) fn value(&self) -> i128 {
        match *self {
            Choice::Pick { index, .. } => i128::from(index),
            Choice::Int { value, .. } => value,
        }
    }

    /// The label of a pick's branch; integers have none.
    pub fn label(&self) -> Option<&Label> {
        match self {
            Choice::Pick { label, .. } => label.as_ref(),
            Choice::Int { .. } => None,
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Pick {
                label: Some(label), ..
            } => write!(f, "{label}"),
            Choice::Pick { index, .. } => write!(f, "#{index}"),
            Choice::Int { value, .. } => write!(f, "{value}"),
        }
    }
}

/// A fast keyless hash's step: the state after `word`, both halves of a 128-bit product
/// folded (as foldhash does), so that a change to one word reaches every bit before the next
/// word comes. For hashes only ever compared within one process: [`fingerprint`], and the
/// parameters of a memoized family.
#[inline]
pub(crate) fn mix(state: u64, word: u64) -> u64 {
    const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;
    let product = u128::from(state ^ word) * u128::from(MULTIPLIER);
    (product as u64) ^ ((product >> 64) as u64)
}

/// A hash of the values of `choices`: what replay reads of them (bounds, arities and labels
/// are not read).
///
/// Only ever compared for equality, within one process (the shrinker's and the mutator's
/// memories of the choices tried), so it is a fast keyless hash rather than SipHash: each
/// 64-bit word is folded into the state by a 128-bit multiply whose halves are combined (as
/// foldhash does), so that a change to one word reaches every bit before the next word comes,
/// and no change to one word can be undone by a fixed change to the next. It runs for every
/// candidate.
pub(crate) fn fingerprint(choices: &[Choice]) -> u64 {
    let mut state = mix(0x243f_6a88_85a3_08d3, choices.len() as u64);
    for choice in choices {
        state = match *choice {
            Choice::Pick { index, .. } => mix(mix(state, 0), u64::from(index)),
            Choice::Int { value, .. } => {
                mix(mix(mix(state, 1), value as u64), (value >> 64) as u64)
            }
        };
    }
    state
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use rand_core::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Short sequences of small picks and integers, near neighbours of one another: the
    /// candidates a shrinker or a mutator compares.
    fn sequences() -> Vec<Vec<Choice>> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        (0..50_000)
            .map(|_| {
                let length = (rng.next_u64() % 6) as usize;
                (0..length)
                    .map(|_| match rng.next_u64() % 3 {
                        0 => Choice::Pick {
                            index: (rng.next_u64() % 3) as u32,
                            arity: 3,
                            label: None,
                        },
                        1 => Choice::Int {
                            value: i128::from(rng.next_u64() % 5) - 2,
                            lo: -2,
                            hi: 2,
                        },
                        _ => Choice::Int {
                            value: (i128::from(rng.next_u64() as i64) << 64)
                                | i128::from(rng.next_u64()),
                            lo: i128::MIN,
                            hi: i128::MAX,
                        },
                    })
                    .collect()
            })
            .collect()
    }

    /// What replay reads of a choice: its kind and value.
    fn read(choices: &[Choice]) -> Vec<(bool, i128)> {
        choices
            .iter()
            .map(|choice| (matches!(choice, Choice::Int { .. }), choice.value()))
            .collect()
    }

    #[test]
    fn fingerprints_tell_apart_what_replay_reads_and_ignore_the_rest() {
        let mut by_fingerprint: HashMap<u64, Vec<(bool, i128)>> = HashMap::new();
        for choices in sequences() {
            let read = read(&choices);
            let known = by_fingerprint
                .entry(fingerprint(&choices))
                .or_insert_with(|| read.clone());
            assert_eq!(*known, read, "two sequences with one fingerprint");
        }
        assert!(by_fingerprint.len() > 10_000, "{}", by_fingerprint.len());
        let pick = |index, arity| Choice::Pick {
            index,
            arity,
            label: None,
        };
        assert_eq!(fingerprint(&[pick(1, 2)]), fingerprint(&[pick(1, 5)]));
        // Bit 63 of an integer's low word and bit 4 of its high word: a multiply without its
        // high half carried the first into the second, and they cancelled.
        let int = |value| Choice::Int {
            value,
            lo: i128::MIN,
            hi: i128::MAX,
        };
        for value in [0, 1, -1, 1 << 40, i128::MAX] {
            for flipped in [(1 << 63) | (1 << 68), 1 << 63, (1 << 63) | (1 << 127)] {
                assert_ne!(
                    fingerprint(&[int(value)]),
                    fingerprint(&[int(value ^ flipped)]),
                    "{value} and {}",
                    value ^ flipped
                );
            }
        }
        assert_ne!(
            fingerprint(&[pick(1, 2)]),
            fingerprint(&[Choice::Int {
                value: 1,
                lo: 0,
                hi: 3
            }])
        );
    }
}
