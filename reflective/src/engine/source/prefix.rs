//! The prefix source: replays a prefix of choices, then draws at random. Run forward, a
//! generator on this source is the generator's derivative by the prefix ("Parsing
//! Randomness"), sampled.

use rand_core::Rng;

use super::random::RandomSource;
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::Choice;

/// Replays `prefix` (which must fit the generator: a choice that does not is a misfit), then
/// draws every later choice as random generation does.
pub(crate) struct PrefixSource<'c, 'r, R: Rng + ?Sized> {
    prefix: &'c [Choice],
    position: usize,
    random: RandomSource<'r, R>,
    /// Whether a choice past the prefix has asked the random source.
    drew: bool,
}

impl<'c, 'r, R: Rng + ?Sized> PrefixSource<'c, 'r, R> {
    pub(crate) fn new(prefix: &'c [Choice], rng: &'r mut R) -> Self {
        PrefixSource {
            prefix,
            position: 0,
            random: RandomSource::new(rng),
            drew: false,
        }
    }

    /// Whether the run asked for a choice past the prefix, and so read the random source:
    /// if not, every run of the generator on this prefix is this one.
    pub(crate) fn drew(&self) -> bool {
        self.drew
    }

    /// The random source, for a choice past the prefix.
    #[inline]
    fn random(&mut self) -> &mut RandomSource<'r, R> {
        self.drew = true;
        &mut self.random
    }

    /// The prefix's next choice, or `None` once it is all read.
    #[inline]
    fn recorded(&mut self) -> Option<&'c Choice> {
        let choice = self.prefix.get(self.position)?;
        self.position += 1;
        Some(choice)
    }
}

impl<R: Rng + ?Sized> ChoiceSource for PrefixSource<'_, '_, R> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        match self.recorded() {
            None => self.random().pick(site),
            Some(Choice::Pick { index, .. })
                if (*index as usize) < site.branches.arity()
                    && site.branches.weight(*index as usize) > 0 =>
            {
                Ok(*index)
            }
            Some(_) => Err(Halt::Misfit),
        }
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        match self.recorded() {
            None => self.random().int(site),
            Some(Choice::Int { value, .. }) if (site.lo..=site.hi).contains(value) => Ok(*value),
            Some(_) => Err(Halt::Misfit),
        }
    }

    fn narrow_ints(&mut self, site: &IntSite, out: &mut [u32]) -> Result<(), Halt> {
        if self.position >= self.prefix.len() {
            return self.random().narrow_ints(site, out);
        }
        for slot in out {
            *slot = self.int(site)?.wrapping_sub(site.lo) as u32;
        }
        Ok(())
    }

    fn ints(&mut self, site: &IntSite, out: &mut [i128]) -> Result<(), Halt> {
        if self.position >= self.prefix.len() {
            return self.random().ints(site, out);
        }
        for slot in out {
            *slot = self.int(site)?;
        }
        Ok(())
    }
}
