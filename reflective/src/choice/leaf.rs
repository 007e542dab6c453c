//! [`Choice`]: one typed choice, a leaf of a choice tree, and how simple it is.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};

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
pub(crate) fn fingerprint(choices: &[Choice]) -> u64 {
    let mut hasher = DefaultHasher::new();
    choices.len().hash(&mut hasher);
    for choice in choices {
        match *choice {
            Choice::Pick { index, .. } => (0u8, u128::from(index)).hash(&mut hasher),
            Choice::Int { value, .. } => (1u8, value).hash(&mut hasher),
        }
    }
    hasher.finish()
}
