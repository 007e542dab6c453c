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

/// A hash of the values of `choices`: what replay reads of them (bounds, arities and labels
/// are not read).
///
/// Only ever compared for equality, within one process (the shrinker's and the mutator's
/// memories of the choices tried), so it is a fast multiplicative mix of each word, finished
/// with SplitMix64's avalanche, rather than a keyed hash: it runs for every candidate.
pub(crate) fn fingerprint(choices: &[Choice]) -> u64 {
    /// One word mixed into the hash (the multiplier is FxHash's).
    fn mix(hash: u64, word: u64) -> u64 {
        (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    }
    let mut hash = mix(0, choices.len() as u64);
    for choice in choices {
        hash = match *choice {
            Choice::Pick { index, .. } => mix(mix(hash, 0), u64::from(index)),
            Choice::Int { value, .. } => mix(mix(mix(hash, 1), value as u64), (value >> 64) as u64),
        };
    }
    // SplitMix64's finaliser: every input bit reaches every output bit.
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^ (hash >> 31)
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
                            value: i128::from(rng.next_u64() as i64) << 64,
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
            .map(|choice| match *choice {
                Choice::Pick { index, .. } => (false, i128::from(index)),
                Choice::Int { value, .. } => (true, value),
            })
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
