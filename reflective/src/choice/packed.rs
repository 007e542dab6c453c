//! [`Packed`]: integers a run recorded in bulk, kept compact until a tree is read.

use super::leaf::Choice;
use super::span::Span;

/// Runs of narrow integers a trail recorded in bulk, each integer in a span of its own, kept
/// as their distances from the range's start: four bytes an integer instead of a [`Choice`]
/// and a [`Span`]. Generating a value with its tree costs little more than generating the
/// value; the choices are unpacked the first time something reads them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Packed {
    pub(crate) runs: Vec<PackedRun>,
    pub(crate) distances: Vec<u32>,
}

/// One run of [`Packed`] integers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackedRun {
    /// How many of the trail's own choices come before the run.
    pub(crate) choice_at: usize,
    /// How many of the trail's own spans were opened before the run's.
    pub(crate) span_at: usize,
    pub(crate) lo: i128,
    pub(crate) hi: i128,
    /// Where its distances start.
    pub(crate) start: usize,
    pub(crate) len: usize,
}

impl Packed {
    /// Whether nothing is packed.
    pub(crate) fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Empties the runs, keeping their room.
    pub(crate) fn clear(&mut self) {
        self.runs.clear();
        self.distances.clear();
    }

    /// The room it holds, in integers.
    pub(crate) fn capacity(&self) -> usize {
        self.distances.capacity()
    }

    /// The choices and spans of a trail whose own are `choices` and `spans`, the packed runs
    /// unpacked where they were recorded.
    pub(crate) fn unpack(&self, choices: &[Choice], spans: &[Span]) -> (Vec<Choice>, Vec<Span>) {
        let total = choices.len() + self.distances.len();
        let mut all_choices = Vec::with_capacity(total);
        let mut all_spans = Vec::with_capacity(spans.len() + self.distances.len());
        let (mut choice, mut span) = (0, 0);
        for run in &self.runs {
            all_choices.extend_from_slice(&choices[choice..run.choice_at]);
            all_spans.extend_from_slice(&spans[span..run.span_at]);
            (choice, span) = (run.choice_at, run.span_at);
            for &distance in &self.distances[run.start..run.start + run.len] {
                let at = all_choices.len();
                all_choices.push(Choice::Int {
                    value: run.lo + i128::from(distance),
                    lo: run.lo,
                    hi: run.hi,
                });
                all_spans.push(Span::new(at, at + 1, None));
            }
        }
        all_choices.extend_from_slice(&choices[choice..]);
        all_spans.extend_from_slice(&spans[span..]);
        (all_choices, all_spans)
    }
}
