//! The forward engine: runs a generator on a choice source and records the choices it makes.

use super::budget::DEFAULT_MAX_DEPTH;
use super::sizing::{Share, Sizing};
use super::source::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::{Choice, ChoiceTree, Label, OpenSpan, Trail};

/// How deeply a forward run may nest before it stops with an error: the backward engine's
/// default nesting budget, so that every generated value reflects within it.
const MAX_DEPTH: usize = DEFAULT_MAX_DEPTH;

opaque_debug!(impl['s] Forward<'s>);

/// The state of one forward run: the source asked at each choice, the size, the record.
pub struct Forward<'s> {
    source: &'s mut dyn ChoiceSource,
    pub(crate) size: usize,
    /// The size strategy, and where the run is among nested collections.
    pub(crate) sizing: Sizing,
    /// The share of a budget the next collection takes, set by the collection around it.
    pub(crate) share: Option<Share>,
    /// The length the last collection that took a share took, for the collection around it.
    pub(crate) taken: Option<usize>,
    /// The size the fields of the recursive node being generated have left (see the
    /// combinator `recursion`).
    pub(crate) fuel: Option<usize>,
    /// Whether the run is inside the value of an
    /// [`Outermost`](crate::combinator::recursion::Outermost) generator (a derived recursive
    /// type's).
    pub(crate) in_recursive_value: bool,
    /// How much of the size the run has used so far: recursive nodes and collections'
    /// elements, counted so that a field's use is the difference.
    pub(crate) consumed: usize,
    /// The least size integers are drawn at while a collection of distinct elements draws an
    /// element again (0 outside such a redraw): see [`Forward::int_size`].
    pub(crate) widened: usize,
    trail: Trail,
    record: bool,
    depth: usize,
    /// The nesting past which the run fails: [`MAX_DEPTH`] unless set lower.
    max_depth: usize,
    /// Picks open around the current choice: not nesting levels, but stack frames.
    picks: usize,
    /// What the filters of this run kept and rejected.
    pub(crate) filtered: Filtered,
    /// The recorded choices of the draws made again (a filter's rejected attempts, a distinct
    /// collection's repeated elements), by position: the rest is what the value is made of.
    redrawn: Vec<std::ops::Range<usize>>,
    /// Whether the source follows the spans (see [`ChoiceSource::follows_spans`]).
    notify_spans: bool,
}

/// Why a run that nests more than `max_depth` levels fails (see [`Forward::enter_level`]): out
/// of line, so that the check every level makes stays small enough to inline.
#[cold]
#[inline(never)]
fn too_deep(max_depth: usize) -> Halt {
    Halt::Failed(format!(
        "generation nested more than {max_depth} levels deep; a recursive generator must make \
         its recursive branches less likely as the size shrinks (and values that always hold \
         another, as two types that box each other, never end: put one of the parts behind an \
         `Option` or a collection)"
    ))
}

/// Where a run is among sizes and shares: what a run started inside another (a search of its
/// own, a hole to fill) takes from it, so that the choices it makes fit there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement {
    pub(crate) size: usize,
    pub(crate) sizing: Sizing,
    pub(crate) share: Option<Share>,
    pub(crate) taken: Option<usize>,
    pub(crate) fuel: Option<usize>,
    pub(crate) in_recursive_value: bool,
}

impl Placement {
    /// A run of its own at `size`: the default sizing, outside every collection and value.
    pub(crate) fn at(size: usize) -> Placement {
        Placement {
            size,
            sizing: Sizing::default(),
            share: None,
            taken: None,
            fuel: None,
            in_recursive_value: false,
        }
    }
}

/// How many values the filters of a run kept and rejected, and what the searches of
/// generators that steer their own choices (`valid_by_gradient`) spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filtered {
    /// Values a filter kept.
    pub accepted: u64,
    /// Values a filter rejected, each drawn again.
    pub rejected: u64,
    /// Descents of gradient sampling made.
    pub descents: u64,
    /// Values those descents sampled.
    pub samples: u64,
}

impl<'s> Forward<'s> {
    /// A run that asks `source` at `size`, recording the choice tree when `record` is set.
    pub(crate) fn new(source: &'s mut dyn ChoiceSource, size: usize, record: bool) -> Self {
        let notify_spans = record && source.follows_spans();
        Forward {
            notify_spans,
            source,
            size,
            sizing: Sizing::default(),
            share: None,
            taken: None,
            fuel: None,
            in_recursive_value: false,
            consumed: 0,
            widened: 0,
            trail: if record {
                Trail::recycled()
            } else {
                Trail::default()
            },
            record,
            depth: 0,
            max_depth: MAX_DEPTH,
            picks: 0,
            filtered: Filtered::default(),
            redrawn: Vec::new(),
        }
    }

    /// The run, failing past `max_depth` levels of nesting (at most [`MAX_DEPTH`]).
    pub(crate) fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth.min(MAX_DEPTH);
        self
    }

    /// Runs `inner` at `size`, apart from the budget of any collection around: a collection
    /// inside takes its length from `size`, not from a share of that budget (what
    /// [`resize`](crate::Generator::resize) and [`scale`](crate::Generator::scale) ask for).
    pub(crate) fn at_own_size<A>(
        &mut self,
        size: usize,
        inner: impl FnOnce(&mut Self) -> Result<A, Halt>,
    ) -> Result<A, Halt> {
        let outer = std::mem::replace(&mut self.size, size);
        let offered = self.share.take();
        let result = inner(self);
        (self.size, self.share) = (outer, offered);
        result
    }

    /// Runs `inner` one level deeper (a generator built as it runs: a bind's continuation, a
    /// recursive reference, a family member, a sized generator; the levels the backward engine
    /// counts too), growing the stack if needed; a generator that nests past
    /// [`MAX_DEPTH`] levels (or the run's lower limit) fails instead of exhausting memory.
    pub(crate) fn nested<A>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Result<A, Halt>,
    ) -> Result<A, Halt> {
        self.enter_level()?;
        let result = super::stack::every_few_levels(self.depth, || inner(self));
        self.depth -= 1;
        result
    }

    /// Goes one nesting level deeper, as [`nested`](Self::nested) does, for a loop that
    /// stands for a recursion (each round one level deeper, as the recursion would go): the
    /// caller goes back up with [`leave_levels`](Self::leave_levels), also when it fails. The
    /// loop's rounds share one stack frame, so the stack is not checked.
    #[inline]
    pub(crate) fn enter_level(&mut self) -> Result<(), Halt> {
        if self.depth >= self.max_depth {
            return Err(too_deep(self.max_depth));
        }
        self.depth += 1;
        Ok(())
    }

    /// Goes back up `levels` levels entered with [`enter_level`](Self::enter_level).
    pub(crate) fn leave_levels(&mut self, levels: usize) {
        self.depth -= levels;
    }

    /// Runs `inner`, a pick's branch, one pick deeper. Picks do not count against the nesting
    /// budget, but a chain of them holds stack frames, so the stack is checked as for nesting.
    pub(crate) fn in_pick<A>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Result<A, Halt>,
    ) -> Result<A, Halt> {
        self.picks += 1;
        let result = super::stack::every_few_levels(self.picks, || inner(self));
        self.picks -= 1;
        result
    }

    /// A run that asks `source`, placed at `placement` (see [`Forward::placement`]).
    pub(crate) fn placed(
        source: &'s mut dyn ChoiceSource,
        placement: Placement,
        record: bool,
    ) -> Self {
        let mut run = Forward::new(source, placement.size, record);
        let Placement {
            sizing,
            share,
            taken,
            fuel,
            in_recursive_value,
            ..
        } = placement;
        (run.sizing, run.share, run.taken, run.fuel) = (sizing, share, taken, fuel);
        run.in_recursive_value = in_recursive_value;
        run
    }

    /// Where this run is among sizes and shares, for a run of another source to make choices
    /// that fit here.
    pub(crate) fn placement(&self) -> Placement {
        Placement {
            size: self.size,
            sizing: self.sizing,
            share: self.share,
            taken: self.taken,
            fuel: self.fuel,
            in_recursive_value: self.in_recursive_value,
        }
    }

    /// A random word that is no choice, if the source draws at random (see
    /// [`ChoiceSource::entropy`]).
    pub(crate) fn entropy(&mut self) -> Option<u64> {
        self.source.entropy()
    }

    /// Runs `inner` on the choices of `source` instead of this run's, with everything else of
    /// this run (size, sizing, nesting, the record): what `inner` records goes into this run's
    /// record, as if this run's source had made its choices.
    pub(crate) fn on_source<A>(
        &mut self,
        source: &mut dyn ChoiceSource,
        inner: impl FnOnce(&mut Forward<'_>) -> A,
    ) -> A {
        let notify_spans = self.record && source.follows_spans();
        let mut on = Forward {
            source,
            size: self.size,
            sizing: self.sizing,
            share: self.share.take(),
            taken: self.taken.take(),
            fuel: self.fuel,
            in_recursive_value: self.in_recursive_value,
            consumed: self.consumed,
            widened: self.widened,
            trail: std::mem::take(&mut self.trail),
            record: self.record,
            depth: self.depth,
            max_depth: self.max_depth,
            picks: self.picks,
            filtered: self.filtered,
            redrawn: std::mem::take(&mut self.redrawn),
            notify_spans,
        };
        let result = inner(&mut on);
        self.size = on.size;
        self.sizing = on.sizing;
        self.share = on.share;
        self.taken = on.taken;
        self.fuel = on.fuel;
        self.in_recursive_value = on.in_recursive_value;
        self.consumed = on.consumed;
        self.trail = on.trail;
        self.filtered = on.filtered;
        self.redrawn = on.redrawn;
        result
    }

    /// Asks the source which branch to take, and records it.
    #[inline]
    pub(crate) fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        let index = self.source.pick(site)?;
        self.record_pick(site, index);
        Ok(index)
    }

    /// Fills `out` with branches of `site` the source picks, as many calls of
    /// [`Forward::pick`] would, in order; recorded as it records them (without spans).
    pub(crate) fn picks(&mut self, site: &PickSite<'_>, out: &mut [u32]) -> Result<(), Halt> {
        self.source.picks(site, out)?;
        if self.record {
            for &index in out.iter() {
                self.push_pick(site, index);
            }
        }
        Ok(())
    }

    /// [`Forward::picks`], each pick recorded as a collection's element that is a pick of a
    /// branch without choices is: in a span of its own, holding the span of its branch that
    /// opens with the pick, labelled as the branch. For a run that [`packs`](Forward::packs).
    pub(crate) fn picks_spanned(
        &mut self,
        site: &PickSite<'_>,
        out: &mut [u32],
    ) -> Result<(), Halt> {
        debug_assert!(self.packs());
        self.source.picks(site, out)?;
        for &index in out.iter() {
            let element = self.trail.open(None);
            self.push_pick(site, index);
            let branch = self.trail.open_at(
                self.trail.len() - 1,
                site.branches.label(index as usize).cloned(),
            );
            self.trail.close(branch);
            self.trail.close(element);
        }
        Ok(())
    }

    /// Records that branch `index` of `site` was taken, decided without asking the source.
    #[inline]
    pub(crate) fn record_pick(&mut self, site: &PickSite<'_>, index: u32) {
        if self.record {
            self.push_pick(site, index);
        }
    }

    /// Appends branch `index` of `site` to the record (of a run that records): out of line, so
    /// that a run that does not record keeps its picks small.
    #[inline(never)]
    fn push_pick(&mut self, site: &PickSite<'_>, index: u32) {
        self.trail.push(Choice::Pick {
            index,
            arity: site.branches.arity() as u32,
            label: site.branches.label(index as usize).cloned(),
        });
    }

    /// Whether a collection of distinct elements draws a repeated element again (see
    /// [`ChoiceSource::redraws`]).
    pub(crate) fn redraws(&self) -> bool {
        self.source.redraws()
    }

    /// The size an integer's distribution is drawn at: the run's size, or more while a
    /// collection of distinct elements draws an element again (see `widened_size` in the
    /// combinator `repeat`). Only the distribution changes, never the range, and a recorded
    /// integer is just its value, so replay and reflection are the same at any size.
    #[inline]
    pub(crate) fn int_size(&self) -> usize {
        self.size.max(self.widened)
    }

    /// Asks the source for an integer, and records it.
    #[inline]
    pub(crate) fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        let value = self.source.int(site)?;
        if self.record {
            self.push_one_int(site, value);
        }
        Ok(value)
    }

    /// [`push_int`](Self::push_int) out of line, for [`Forward::int`]: a run that does not
    /// record keeps its integers small.
    #[inline(never)]
    fn push_one_int(&mut self, site: &IntSite, value: i128) {
        self.push_int(site, value);
    }

    /// Appends the integer `value` drawn at `site` to the record (of a run that records).
    #[inline]
    fn push_int(&mut self, site: &IntSite, value: i128) {
        self.trail.push(Choice::Int {
            value,
            lo: site.lo,
            hi: site.hi,
        });
    }

    /// Fills `out` with integers drawn at `site`, a range of at most 2^32 values, each given as
    /// its distance from `site.lo`; recorded as [`Forward::int`] records them.
    pub(crate) fn narrow_ints(&mut self, site: &IntSite, out: &mut [u32]) -> Result<(), Halt> {
        self.source.narrow_ints(site, out)?;
        if self.record {
            for &distance in out.iter() {
                self.push_int(site, site.lo + i128::from(distance));
            }
        }
        Ok(())
    }

    /// Fills `out` with integers drawn at `site`, a range of any width; recorded as
    /// [`Forward::int`] records them.
    pub(crate) fn ints(&mut self, site: &IntSite, out: &mut [i128]) -> Result<(), Halt> {
        self.source.ints(site, out)?;
        if self.record {
            for &value in out.iter() {
                self.push_int(site, value);
            }
        }
        Ok(())
    }

    /// Whether [`Forward::narrow_ints_spanned`] may be used: the run records, and its source
    /// does not follow the spans one by one.
    #[inline]
    pub(crate) fn packs(&self) -> bool {
        self.record && !self.notify_spans
    }

    /// [`Forward::narrow_ints`], each integer recorded in a span of its own, as the elements
    /// of a collection are; for a run that [`packs`](Forward::packs).
    pub(crate) fn narrow_ints_spanned(
        &mut self,
        site: &IntSite,
        out: &mut [u32],
    ) -> Result<(), Halt> {
        debug_assert!(self.packs());
        self.source.narrow_ints(site, out)?;
        self.trail.push_spanned_ints(site.lo, site.hi, out);
        Ok(())
    }

    /// Whether this run records its choices.
    #[inline]
    pub(crate) fn records(&self) -> bool {
        self.record
    }

    /// Opens a span at the next choice.
    #[inline]
    pub(crate) fn open_span(&mut self, label: Option<Label>) -> Option<OpenSpan> {
        self.record.then(|| {
            if self.notify_spans {
                self.source.span_opened(false);
            }
            self.trail.open(label)
        })
    }

    /// Opens a span that starts with the choice just made.
    #[inline]
    pub(crate) fn open_span_at_last(&mut self, label: Option<&Label>) -> Option<OpenSpan> {
        self.record.then(|| {
            if self.notify_spans {
                self.source.span_opened(true);
            }
            self.trail.open_at(self.trail.len() - 1, label.cloned())
        })
    }

    #[inline]
    pub(crate) fn close_span(&mut self, span: Option<OpenSpan>) {
        if let Some(span) = span {
            self.trail.close(span);
            if self.notify_spans {
                self.source.span_closed();
            }
        }
    }

    /// How many choices the run has recorded.
    pub(crate) fn recorded(&self) -> usize {
        self.trail.len()
    }

    /// Notes that the choices recorded from `start` on are a draw made again (a filter's
    /// rejected attempt, a distinct collection's repeated element): see
    /// [`into_tree_and_redrawn`](Self::into_tree_and_redrawn).
    pub(crate) fn redrew_from(&mut self, start: usize) {
        self.source.redrawing();
        if self.record {
            self.redrawn.push(start..self.trail.len());
        }
    }

    /// The recorded choice tree, and where in it the draws made again are.
    pub(crate) fn into_tree_and_redrawn(self) -> (ChoiceTree, Vec<std::ops::Range<usize>>) {
        let redrawn = self.redrawn;
        (self.trail.into_tree(self.size), redrawn)
    }

    /// The recorded choice tree (empty when the run did not record).
    pub(crate) fn into_tree(self) -> ChoiceTree {
        self.into_tree_and_redrawn().0
    }
}
