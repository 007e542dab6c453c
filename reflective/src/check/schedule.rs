//! The seed and the size of each case of a run.
//!
//! Case `i` (from 0) gets its seed from `i` and the run's seed, and its size from `i`, the
//! run's number of cases and its largest size, as the run's [`SizeSchedule`] says: nothing
//! else, so a case replays from its printed `seed:size` line alone and a parallel run's cases
//! are those of the sequential run.

use std::fmt;

/// SplitMix64's increment: the run's cases step through the mixed seed by it.
pub(super) const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The seed of case `index` of a run seeded with `seed`: SplitMix64's output `index` from a
/// state that starts at `seed` mixed. Mixing the run's seed first keeps runs apart whose seeds
/// differ by a multiple of the increment (seeds `s` and `s + GAMMA` would otherwise give the
/// same cases, one place apart).
pub(super) fn case_seed(seed: u64, index: u32) -> u64 {
    mix(mix(seed).wrapping_add(u64::from(index).wrapping_mul(GAMMA)))
}

/// SplitMix64's finaliser: a bijection of 64-bit values that scatters nearby ones.
pub(super) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// How a run's case sizes go.
///
/// ```
/// use reflective::check::SizeSchedule;
/// // QuickCheck's cycle: 0, 1, ..., the largest, then 0 again, whatever the number of cases.
/// let sizes: Vec<usize> = (0..6).map(|i| SizeSchedule::Cycle.size(i, 1000, 3)).collect();
/// assert_eq!(sizes, [0, 1, 2, 3, 0, 1]);
/// // The ramp spreads 0 to the largest over the run's cases.
/// assert_eq!(SizeSchedule::Ramp.size(500, 1001, 100), 50);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SizeSchedule {
    /// Case `i` at size `i mod (max_size + 1)`: 0, 1, ..., `max_size`, 0, 1, ... as QuickCheck
    /// grows its size (the default). The smallest sizes come first and `max_size` is reached
    /// after `max_size` cases, however many cases the run has.
    #[default]
    Cycle,
    /// Case `i` of `n` at size `i * max_size / (n - 1)`: the sizes grow over the run's cases,
    /// so a run of 10 000 cases spends its first 100 at size 0 (the runner's schedule before
    /// the cycle).
    Ramp,
}

impl SizeSchedule {
    /// Every schedule, the default first.
    pub const ALL: [SizeSchedule; 2] = [SizeSchedule::Cycle, SizeSchedule::Ramp];

    /// The schedule's name, as `REFLECTIVE_SIZE_SCHEDULE` reads it.
    pub fn name(self) -> &'static str {
        match self {
            SizeSchedule::Cycle => "cycle",
            SizeSchedule::Ramp => "ramp",
        }
    }

    /// How many cases of a run of `cases` take this schedule through every size from 0 to
    /// `max_size` (all of them, for the ramp).
    pub(super) fn cases_to_every_size(self, cases: u32, max_size: usize) -> u32 {
        match self {
            SizeSchedule::Cycle => u32::try_from(max_size)
                .unwrap_or(u32::MAX)
                .saturating_add(1)
                .min(cases.max(1)),
            SizeSchedule::Ramp => cases.max(1),
        }
    }

    /// The size of case `index` of a run of `cases` cases up to `max_size`. Past `cases`
    /// (cases that replace discarded ones) the schedule goes on as it started: the ramp starts
    /// again from 0.
    pub fn size(self, index: u32, cases: u32, max_size: usize) -> usize {
        let period = max_size as u128 + 1;
        match self {
            SizeSchedule::Cycle => (u128::from(index) % period) as usize,
            SizeSchedule::Ramp => {
                let cases = cases.max(1);
                if cases == 1 {
                    max_size
                } else {
                    (u128::from(index % cases) * max_size as u128 / u128::from(cases - 1)) as usize
                }
            }
        }
    }
}

impl fmt::Display for SizeSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SizeSchedule {
    type Err = String;

    /// A schedule by its name, in any case; an error lists the names.
    ///
    /// ```
    /// use reflective::check::SizeSchedule;
    /// assert_eq!("ramp".parse(), Ok(SizeSchedule::Ramp));
    /// assert_eq!("Cycle".parse(), Ok(SizeSchedule::Cycle));
    /// let error = "linear".parse::<SizeSchedule>().unwrap_err();
    /// assert_eq!(error, "expected one of cycle, ramp, found `linear`");
    /// ```
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        SizeSchedule::ALL
            .into_iter()
            .find(|schedule| schedule.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| {
                let names: Vec<&str> = SizeSchedule::ALL.iter().map(|s| s.name()).collect();
                format!("expected one of {}, found `{text}`", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Runs whose seeds differ by a multiple of the increment, or by one, share no case seed
    /// (before the seed was mixed first, seed `s + GAMMA` gave seed `s`'s cases one place on).
    #[test]
    fn runs_with_nearby_seeds_share_no_case() {
        for base in [0, 1, 42, u64::MAX, 0x1234_5678_9abc_def0] {
            let cases =
                |seed: u64| -> HashSet<u64> { (0..2_000).map(|i| case_seed(seed, i)).collect() };
            let first = cases(base);
            assert_eq!(first.len(), 2_000, "a run's cases have distinct seeds");
            for other in [
                base.wrapping_add(1),
                base.wrapping_add(GAMMA),
                base.wrapping_add(GAMMA.wrapping_mul(7)),
                base.wrapping_sub(GAMMA),
            ] {
                let shared = first.intersection(&cases(other)).count();
                assert_eq!(shared, 0, "seeds {base} and {other} share {shared} cases");
            }
        }
    }
}
