//! The seeded random source and the uniform draws it is built on.
//!
//! The draws are written here rather than taken from `rand` so that a seed gives the same
//! value on every platform and with every `rand` version: only the generator's raw 64-bit
//! output is used.

use super::shape::{below_64, between_with};
use super::{ChoiceSource, Halt, IntSite, PickSite};
use rand_core::Rng;

/// Draws every choice at random, with the weights and shapes the generator states.
pub(crate) struct RandomSource<'r, R: Rng + ?Sized> {
    rng: &'r mut R,
}

impl<'r, R: Rng + ?Sized> RandomSource<'r, R> {
    pub(crate) fn new(rng: &'r mut R) -> Self {
        RandomSource { rng }
    }
}

impl<R: Rng + ?Sized> ChoiceSource for RandomSource<'_, R> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        let roll = below(self.rng, site.total);
        Ok(match site.equal_weight {
            0 => branch_of(site, roll),
            // The branch `branch_of` finds, without asking each branch its weight.
            1 => roll as u32,
            weight => (roll / u64::from(weight)) as u32,
        })
    }

    /// The picks `pick` makes, the test of the weights made once for all of them.
    fn picks(&mut self, site: &PickSite<'_>, out: &mut [u32]) -> Result<(), Halt> {
        let rng = &mut *self.rng;
        match site.equal_weight {
            0 => out
                .iter_mut()
                .for_each(|slot| *slot = branch_of(site, below(rng, site.total))),
            1 => out
                .iter_mut()
                .for_each(|slot| *slot = below(rng, site.total) as u32),
            weight => out
                .iter_mut()
                .for_each(|slot| *slot = (below(rng, site.total) / u64::from(weight)) as u32),
        }
        Ok(())
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        let rng = &mut *self.rng;
        Ok(site
            .shape
            .sample(site.lo, site.hi, site.size, &mut || rng.next_u64()))
    }

    fn ints(&mut self, site: &IntSite, out: &mut [i128]) -> Result<(), Halt> {
        let rng = &mut *self.rng;
        for slot in out {
            *slot = site
                .shape
                .sample(site.lo, site.hi, site.size, &mut || rng.next_u64());
        }
        Ok(())
    }

    fn narrow_ints(&mut self, site: &IntSite, out: &mut [u32]) -> Result<(), Halt> {
        let rng = &mut *self.rng;
        site.shape
            .sample_many(site.lo, site.hi, site.size, out, rng);
        Ok(())
    }

    fn entropy(&mut self) -> Option<u64> {
        Some(self.rng.next_u64())
    }
}

impl<R: Rng + ?Sized> RandomSource<'_, R> {
    /// A branch of `site` other than `avoid`, drawn with the other branches' weights; `avoid`
    /// itself only if no other branch has a weight.
    pub(crate) fn pick_other_than(&mut self, site: &PickSite<'_>, avoid: u32) -> u32 {
        // The branches' weights with `avoid`'s taken as 0, drawn as `weighted` draws, without
        // collecting them: a reroll of a pick makes one such draw.
        let weight = |index: usize| {
            if index as u32 == avoid {
                0
            } else {
                u64::from(site.branches.weight(index))
            }
        };
        let arity = site.branches.arity();
        let total: u64 = (0..arity).map(weight).sum();
        if total == 0 {
            return avoid;
        }
        let roll = below(self.rng, total);
        falls_in(arity, weight, roll) as u32
    }

    /// A value of `site` other than `avoid`: drawn as [`ChoiceSource::int`] draws, again while
    /// it is `avoid` (up to `tries` more times), then uniform among the other values of the
    /// range; `avoid` itself only if it is the range's one value.
    pub(crate) fn int_other_than(&mut self, site: &IntSite, avoid: i128, tries: usize) -> i128 {
        for _ in 0..=tries {
            let drawn = self.int(site).unwrap_or(avoid);
            if drawn != avoid {
                return drawn;
            }
        }
        if !(site.lo..=site.hi).contains(&avoid) || site.lo == site.hi {
            return avoid.clamp(site.lo, site.hi);
        }
        let rng = &mut *self.rng;
        let other = between_with(site.lo, site.hi - 1, &mut |n| below(rng, n));
        if other >= avoid { other + 1 } else { other }
    }
}

/// The branch of `site` that `roll` (below the total weight) falls in, the weights laid end to
/// end. Inline: out of line, a pick of unequal weights (a `char`'s, a float's) paid a call,
/// which made vectors of them 3% to 7% slower, and equal weights gained nothing measurable.
#[inline]
fn branch_of(site: &PickSite<'_>, roll: u64) -> u32 {
    falls_in(
        site.branches.arity(),
        |index| u64::from(site.branches.weight(index)),
        roll,
    ) as u32
}

/// An index into `weights` drawn with those weights (their sum above 0).
pub(crate) fn weighted<R: Rng + ?Sized>(rng: &mut R, weights: &[u64]) -> usize {
    let roll = below(rng, weights.iter().sum());
    falls_in(weights.len(), |index| weights[index], roll)
}

/// The index among `count` weights (`weight` of each) that `roll`, below their sum, falls in,
/// the weights laid end to end.
#[inline]
fn falls_in(count: usize, weight: impl Fn(usize) -> u64, mut roll: u64) -> usize {
    for index in 0..count {
        let weight = weight(index);
        if roll < weight {
            return index;
        }
        roll -= weight;
    }
    unreachable!("the roll is below the total weight")
}

/// A uniform integer in `0..n`, `n > 0`.
#[inline]
pub(crate) fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    below_64(n, &mut || rng.next_u64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::source::shape::between_with;
    use rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn between_stays_in_range_at_the_extremes() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut below_fn = |n: u64| below(&mut rng, n);
        for (lo, hi) in [
            (i128::MIN, i128::MAX),
            (-3, 3),
            (0, 0),
            (i128::MIN, i128::MIN + 1),
            (i128::from(i64::MIN), i128::from(i64::MAX)),
            (0, i128::from(u64::MAX)),
        ] {
            for _ in 0..200 {
                let value = between_with(lo, hi, &mut below_fn);
                assert!((lo..=hi).contains(&value), "{value} outside {lo}..={hi}");
            }
        }
    }

    /// `arity` branches of weight `weight` each.
    struct Equal {
        arity: usize,
        weight: u32,
    }

    impl crate::engine::source::Branches for Equal {
        fn arity(&self) -> usize {
            self.arity
        }
        fn weight(&self, _index: usize) -> u32 {
            self.weight
        }
        fn label(&self, _index: usize) -> Option<&crate::choice::Label> {
            None
        }
    }

    #[test]
    fn equal_weights_pick_the_branch_the_weighted_loop_picks() {
        for (arity, weight) in [(1, 1), (2, 1), (2, 3), (3, 1), (7, 5), (64, 2)] {
            let branches = Equal { arity, weight };
            let site = |equal_weight| PickSite {
                branches: &branches,
                total: arity as u64 * u64::from(weight),
                equal_weight,
            };
            let (mut fast, mut slow) = (
                Xoshiro256PlusPlus::seed_from_u64(arity as u64),
                Xoshiro256PlusPlus::seed_from_u64(arity as u64),
            );
            let mut seen = vec![false; arity];
            for _ in 0..2_000 {
                let by_division = RandomSource::new(&mut fast).pick(&site(weight));
                let by_loop = RandomSource::new(&mut slow).pick(&site(0));
                assert_eq!(by_division, by_loop, "{arity} branches of weight {weight}");
                seen[by_loop.expect("a random pick") as usize] = true;
            }
            assert!(
                seen.iter().all(|&taken| taken),
                "{arity} branches: {seen:?}"
            );
        }
    }

    #[test]
    fn below_is_close_to_uniform() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut rng, 6) as usize] += 1;
        }
        for count in counts {
            assert!((9_500..10_500).contains(&count), "{counts:?}");
        }
    }
}
