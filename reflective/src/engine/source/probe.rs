//! The probing source: replays a prefix of choices, then stops at the next choice and says
//! what it was (the derivative of a generator by a prefix is "replay the prefix, then
//! generate": this source finds which choices the derivative can make first).

use super::shape::IntShape;
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::{Choice, Label};

/// The choice a generator asks for right after a prefix.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NextChoice {
    /// A pick among branches of these weights (zero-weight branches cannot be taken).
    Pick {
        /// Each branch's weight.
        weights: Vec<u32>,
        /// Each branch's label.
        labels: Vec<Option<Label>>,
    },
    /// An integer in `lo..=hi`, drawn with `shape` at `size`.
    Int {
        /// The least value.
        lo: i128,
        /// The greatest value.
        hi: i128,
        /// How random generation draws it.
        shape: IntShape,
        /// The size it is drawn at.
        size: usize,
    },
}

/// Replays `prefix`, then stops at the next choice, recording it in `next`.
pub(crate) struct ProbeSource<'c> {
    prefix: &'c [Choice],
    position: usize,
    /// The choice asked for after the prefix, once the run reached it.
    pub(crate) next: Option<NextChoice>,
}

impl<'c> ProbeSource<'c> {
    pub(crate) fn new(prefix: &'c [Choice]) -> Self {
        ProbeSource {
            prefix,
            position: 0,
            next: None,
        }
    }

    /// The prefix's next choice, or `None` once it is all read.
    fn recorded(&mut self) -> Option<&'c Choice> {
        let choice = self.prefix.get(self.position)?;
        self.position += 1;
        Some(choice)
    }
}

impl ChoiceSource for ProbeSource<'_> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        let branches = site.branches;
        match self.recorded() {
            Some(Choice::Pick { index, .. }) if site.takes(*index) => Ok(*index),
            Some(_) => Err(Halt::Misfit),
            None => {
                let weights = (0..branches.arity()).map(|i| branches.weight(i)).collect();
                let labels = (0..branches.arity())
                    .map(|i| branches.label(i).cloned())
                    .collect();
                self.next = Some(NextChoice::Pick { weights, labels });
                Err(Halt::Misfit)
            }
        }
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        match self.recorded() {
            Some(Choice::Int { value, .. }) if site.holds(*value) => Ok(*value),
            Some(_) => Err(Halt::Misfit),
            None => {
                self.next = Some(NextChoice::Int {
                    lo: site.lo,
                    hi: site.hi,
                    shape: site.shape,
                    size: site.size,
                });
                Err(Halt::Misfit)
            }
        }
    }
}
