//! Dividing a size among values: [`piles`], the Agata thesis' `piles k n` (section 2.1.1).

use crate::choice::{Choice, Label};
use crate::engine::{
    Backward, Branches, Forward, Halt, LARGEST_SIZE, PickSite, Reflected, Solution, Trace,
};
use crate::node::{Node, Sealed};

/// The labels of the two choices at each step: one more unit for the current pile, or on to
/// the next pile.
static UNIT_OR_NEXT: [Option<Label>; 2] = [Some(Label::new("unit")), Some(Label::new("next"))];

/// `n` split into `k` shares that sum to `n`, every split equally likely: a share's size does
/// not depend on its position. With no shares (`k` = 0) there is nothing to split into, and the
/// result is empty.
///
/// The split is drawn as stars and bars: `n` units and `k - 1` separators in a random order,
/// one choice per step ("unit" or "next"), so every split is produced in exactly one way and
/// reflects. Its probability is `1 / C(n + k - 1, k - 1)`.
///
/// ```
/// use reflective::prelude::*;
/// let shares = piles(3, 10);
/// let split = shares.sample(7);
/// assert_eq!(split.len(), 3);
/// assert_eq!(split.iter().sum::<usize>(), 10);
/// assert!(shares.can_generate(&vec![0, 10, 0]));
/// assert!(!shares.can_generate(&vec![5, 4]));
/// // C(12, 2) = 66 splits, all equally likely.
/// assert!((shares.probability_of(&vec![2, 3, 5]) - 1.0 / 66.0).abs() < 1e-12);
/// ```
///
/// A split takes one choice per unit and per separator, so its time and memory grow with
/// `n + k`.
///
/// # Panics
///
/// If `n + k` is above [`MAX_PILE_STEPS`].
#[track_caller]
pub fn piles(k: usize, n: usize) -> Piles {
    assert!(
        n.checked_add(k)
            .is_some_and(|total| total <= MAX_PILE_STEPS),
        "piles: {n} units in {k} piles are too many to split (at most {MAX_PILE_STEPS} units \
         and piles in all: a split takes one choice for each)"
    );
    Piles { k, n }
}

/// The most units and piles [`piles`] splits, in all (2^20, the largest size a run may use):
/// one choice for each.
pub const MAX_PILE_STEPS: usize = LARGEST_SIZE;

/// The generator [`piles`] returns.
#[derive(Clone, Copy, Debug)]
pub struct Piles {
    k: usize,
    n: usize,
}

/// The step before each unit or separator: a unit with weight the units left, the next pile
/// with weight the separators left.
struct UnitOrNext {
    units: u32,
    separators: u32,
}

impl Branches for UnitOrNext {
    fn arity(&self) -> usize {
        2
    }

    fn weight(&self, index: usize) -> u32 {
        if index == 0 {
            self.units
        } else {
            self.separators
        }
    }

    fn label(&self, index: usize) -> Option<&Label> {
        UNIT_OR_NEXT[index].as_ref()
    }
}

impl Sealed for Piles {}

impl Node for Piles {
    type Input = Vec<usize>;
    type Output = Vec<usize>;

    fn forward(&self, run: &mut Forward<'_>) -> Result<Vec<usize>, Halt> {
        let mut shares = vec![0; self.k];
        let Some(last) = self.k.checked_sub(1) else {
            return Ok(shares);
        };
        let (mut units, mut separators, mut pile) = (self.n, last, 0);
        while units > 0 && separators > 0 {
            let branches = UnitOrNext {
                units: units as u32,
                separators: separators as u32,
            };
            let site = PickSite {
                branches: &branches,
                total: (units + separators) as u64,
                equal_weight: 0,
            };
            if run.pick(&site)? == 0 {
                shares[pile] += 1;
                units -= 1;
            } else {
                pile += 1;
                separators -= 1;
            }
        }
        // Only units are left, all for the last pile; or only separators, and the piles left
        // stay empty.
        if separators == 0 {
            shares[last] += units;
        }
        Ok(shares)
    }

    fn backward(&self, shares: &Vec<usize>, run: &mut Backward, _: usize) -> Reflected<Vec<usize>> {
        run.step()?;
        let sum = shares
            .iter()
            .try_fold(0usize, |sum, &share| sum.checked_add(share));
        // With no piles, any size is left unsplit.
        if shares.len() != self.k || (self.k > 0 && sum != Some(self.n)) {
            return Ok(Vec::new());
        }
        let mut steps = Vec::new();
        let mut log_probability = 0.0;
        let (mut units, mut separators) = (self.n, self.k.saturating_sub(1));
        let mut take = |index: u32, units: usize, separators: usize| {
            let weight = if index == 0 { units } else { separators };
            log_probability += (weight as f64 / (units + separators) as f64).ln();
            steps.push(Trace::choice(Choice::Pick {
                index,
                arity: 2,
                label: UNIT_OR_NEXT[index as usize],
            }));
        };
        for &share in shares.iter() {
            for _ in 0..share {
                if separators == 0 {
                    break;
                }
                take(0, units, separators);
                units -= 1;
            }
            if units == 0 || separators == 0 {
                break;
            }
            take(1, units, separators);
            separators -= 1;
        }
        Ok(vec![Solution {
            value: run.value(|| shares.clone()),
            trace: Trace::many(steps),
            log_probability,
            used: 0,
        }])
    }
}
