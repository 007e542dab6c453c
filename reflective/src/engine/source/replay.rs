//! The replay source: reads a recorded sequence of choices back into the generator.

use rand_core::Rng;

use super::draws::Draws;
use super::random::RandomSource;
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::Choice;

/// What replay does when the recorded choices run out or one does not fit the generator.
pub(crate) enum Fallback<'r> {
    /// Stop: the run fails with [`Halt::Misfit`].
    Fail,
    /// Repair: a pick index past the branches (or on a zero-weight branch) takes the simplest
    /// branch, an integer out of range is clamped into it, a choice of the wrong kind or a
    /// missing choice takes the simplest value.
    Simplest,
    /// Repair at random: a choice that does not fit, or a missing one, is drawn as random
    /// generation draws it (what mutation and completion replay with).
    Random(&'r mut dyn Rng),
}

/// Feeds recorded choices to the forward engine, in order.
pub(crate) struct ReplaySource<'c> {
    choices: &'c [Choice],
    position: usize,
    fallback: Fallback<'c>,
    /// How many choices did not fit and were repaired.
    repaired: usize,
    /// The values drawn at random in repairs, followed if a caller sets them to
    /// [`Draws::stopping`] before the replay.
    pub(crate) draws: Draws<'c>,
}

impl<'c> ReplaySource<'c> {
    pub(crate) fn new(choices: &'c [Choice], fallback: Fallback<'c>) -> Self {
        ReplaySource {
            choices,
            position: 0,
            fallback,
            repaired: 0,
            draws: Draws::unfollowed(),
        }
    }

    /// Whether every recorded choice was read and fitted as recorded.
    pub(crate) fn fitted_exactly(&self) -> bool {
        self.position == self.choices.len() && self.repaired == 0
    }

    fn next(&mut self) -> Option<&'c Choice> {
        let choice = self.choices.get(self.position);
        self.position += usize::from(choice.is_some());
        choice
    }

    /// The repair of a choice that does not fit: `simplest`, or a random draw by `draw`.
    fn repair<T: Copy + Into<i128>>(
        &mut self,
        simplest: T,
        draw: impl FnOnce(&mut RandomSource<'_, dyn Rng + '_>) -> Result<T, Halt>,
    ) -> Result<T, Halt> {
        match &mut self.fallback {
            Fallback::Fail => Err(Halt::Misfit),
            Fallback::Simplest => {
                self.repaired += 1;
                Ok(simplest)
            }
            Fallback::Random(rng) => {
                self.repaired += 1;
                let drawn = draw(&mut RandomSource::new(&mut **rng))?;
                self.draws.drew(drawn.into())?;
                Ok(drawn)
            }
        }
    }
}

impl ChoiceSource for ReplaySource<'_> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        let branches = site.branches;
        let simplest = (0..branches.arity())
            .position(|index| branches.weight(index) > 0)
            .unwrap_or(0) as u32;
        match self.next() {
            Some(Choice::Pick { index, .. }) if site.takes(*index) => Ok(*index),
            _ => self.repair(simplest, |random| random.pick(site)),
        }
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        match self.next() {
            Some(Choice::Int { value, .. }) if site.holds(*value) => Ok(*value),
            Some(Choice::Int { value, .. }) => {
                let clamped = (*value).clamp(site.lo, site.hi);
                self.repair(clamped, |random| random.int(site))
            }
            _ => self.repair(crate::choice::nearest_zero(site.lo, site.hi), |random| {
                random.int(site)
            }),
        }
    }
}
