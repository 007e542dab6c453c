//! Choice sources: where the forward engine gets its choices.
//!
//! The forward engine asks a source at every pick and every integer draw. A source is small:
//! [`random`] draws with a seeded generator, [`replay`] reads a recorded choice tree back,
//! [`aligned`] reads an edited one back span by span (both can follow their draws at random,
//! [`draws`], to end a replay that would repeat one made before),
//! [`exhaustive`] walks every choice sequence in turn, [`probe`] replays a prefix and reports the
//! choice after it, [`prefix`] replays a prefix and draws the rest at random (a derivative),
//! or splicing in parts of values given ([`fragments`]), [`bytes`] reads a fuzzer's bytes as
//! choices.

pub(crate) mod aligned;
pub(crate) mod bytes;
pub(crate) mod draws;
pub(crate) mod exhaustive;
pub(crate) mod fragments;
pub(crate) mod prefix;
pub(crate) mod probe;
pub(crate) mod random;
pub(crate) mod replay;
pub(crate) mod shape;
pub(crate) mod share;

use crate::choice::Label;
use shape::IntShape;

/// The branches of a pick, as a source sees them.
pub trait Branches {
    /// How many branches there are.
    fn arity(&self) -> usize;
    /// The weight of branch `index`; zero-weight branches are never taken at random.
    fn weight(&self, index: usize) -> u32;
    /// The label of branch `index`.
    fn label(&self, index: usize) -> Option<&Label>;
}

/// A pick the engine asks a source to make.
pub(crate) struct PickSite<'a> {
    pub(crate) branches: &'a dyn Branches,
    /// The sum of the weights, never 0.
    pub(crate) total: u64,
    /// The weight every branch has, if all have the same one (above 0); 0 if they differ.
    /// A random source then finds the branch a roll falls in by one division.
    pub(crate) equal_weight: u32,
}

impl PickSite<'_> {
    /// Whether a recorded branch `index` can be taken here: one of its branches, of non-zero
    /// weight.
    #[inline]
    pub(crate) fn takes(&self, index: u32) -> bool {
        (index as usize) < self.branches.arity() && self.branches.weight(index as usize) > 0
    }
}

/// An integer draw the engine asks a source to make.
pub(crate) struct IntSite {
    pub(crate) lo: i128,
    pub(crate) hi: i128,
    pub(crate) shape: IntShape,
    pub(crate) size: usize,
    /// Whether the integer counts parts of the value (a collection's length, a level's
    /// total), bounded by the size: an enumeration lists every value of such a count.
    pub(crate) counts: bool,
}

impl IntSite {
    /// Whether a recorded integer `value` can be drawn here: within the range.
    #[inline]
    pub(crate) fn holds(&self, value: i128) -> bool {
        (self.lo..=self.hi).contains(&value)
    }

    /// A collection's length in `lo..=hi` as its `share` of a budget, at `size` (see the
    /// module `share`).
    pub(crate) fn share(lo: usize, hi: usize, size: usize, share: super::sizing::Share) -> IntSite {
        IntSite {
            lo: lo as i128,
            hi: hi as i128,
            shape: IntShape::Share {
                budget: share.budget,
                parts: share.parts,
            },
            size,
            counts: true,
        }
    }

    /// A count in `lo..=hi`, uniform, at `size`.
    pub(crate) fn count(lo: usize, hi: usize, size: usize) -> IntSite {
        IntSite {
            lo: lo as i128,
            hi: hi as i128,
            shape: IntShape::Uniform,
            size,
            counts: true,
        }
    }
}

/// Why a forward run stopped before producing a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A strict replay ran out of choices or met one that does not fit the generator.
    Misfit,
    /// The generator could not produce a value; the message says why.
    Failed(String),
    /// A filter rejected `attempts` values in a row: at this size the generator may make none
    /// it keeps (a list filtered to be non-empty, at size 0), so a runner draws another case
    /// rather than stopping.
    Rejected {
        /// How many values the filter drew.
        attempts: usize,
    },
}

impl Halt {
    /// Why the run stopped, as an error says it.
    pub(crate) fn reason(self) -> String {
        match self {
            Halt::Misfit => "the recorded choices do not fit the generator".to_string(),
            Halt::Failed(reason) => reason,
            Halt::Rejected { attempts } => format!(
                "a filter rejected {attempts} values in a row: it keeps too few of the values \
                 its generator produces (at this size, or at any); generate the values it keeps \
                 directly (with `bind`, `focus` or narrower ranges) instead of filtering"
            ),
        }
    }
}

/// A supplier of choices for the forward engine.
pub(crate) trait ChoiceSource {
    /// The index of the branch to take; it must have a non-zero weight.
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt>;

    /// An integer in `site.lo..=site.hi`.
    fn int(&mut self, site: &IntSite) -> Result<i128, Halt>;

    /// Whether a collection of distinct elements draws an element again when it is a repeat
    /// (at random); a source that walks every sequence once says no, and the sequence fails.
    fn redraws(&self) -> bool {
        true
    }

    /// The engine draws again what it just drew (a filter's rejected attempt, a distinct
    /// collection's repeated element): a source that would give the same choices again
    /// changes how it draws.
    fn redrawing(&mut self) {}

    /// Whether the source wants [`span_opened`](Self::span_opened) and
    /// [`span_closed`](Self::span_closed) (asked once per run; only recording runs tell).
    fn follows_spans(&self) -> bool {
        false
    }

    /// A span opened at the next choice, or (`at_last`) at the choice just made: a source that
    /// follows a recorded tree's structure aligns with it (recording runs only).
    fn span_opened(&mut self, _at_last: bool) {}

    /// The span opened last closed (recording runs only).
    fn span_closed(&mut self) {}

    /// A random word that is not a choice (nothing records or replays it), from the source of
    /// plain random generation; `None` from every other source (replays, edits, enumeration,
    /// the sources of searches, which draw by weights of their own). A generator that steers
    /// its own choices (`valid_by_gradient`, a learned generator) seeds its own source with it
    /// when generating, and reads its choices from the run's source otherwise.
    fn entropy(&mut self) -> Option<u64> {
        None
    }

    /// Fills `out` with branch indices of `site`, as many calls of [`ChoiceSource::pick`]
    /// would, in order: one dynamic call for a run of picks rather than one each.
    fn picks(&mut self, site: &PickSite<'_>, out: &mut [u32]) -> Result<(), Halt> {
        for slot in out {
            *slot = self.pick(site)?;
        }
        Ok(())
    }

    /// Fills `out` with integers in `site.lo..=site.hi`, as many calls of [`ChoiceSource::int`]
    /// would, in order, each given as its distance from `site.lo`. The range holds at most 2^32
    /// values. A random source draws them in one loop.
    fn narrow_ints(&mut self, site: &IntSite, out: &mut [u32]) -> Result<(), Halt> {
        for slot in out {
            *slot = self.int(site)?.wrapping_sub(site.lo) as u32;
        }
        Ok(())
    }

    /// Fills `out` with integers in `site.lo..=site.hi`, as many calls of
    /// [`ChoiceSource::int`] would, in order: for ranges of any width. A random source draws
    /// them in one loop.
    fn ints(&mut self, site: &IntSite, out: &mut [i128]) -> Result<(), Halt> {
        for slot in out {
            *slot = self.int(site)?;
        }
        Ok(())
    }
}
