//! The backward engine: finds every way a generator can produce a value.
//!
//! Each node reflects on its part of the value and returns its [`Solution`]s: the value it
//! would produce, the choices that produce it (a [`Trace`]) and their probability under random
//! generation. A pick returns the solutions of all its branches, a sequence the combinations of
//! its parts. Two budgets keep this from running away: a step budget for generators that
//! produce a value in exponentially many ways, and a nesting budget for generators that can
//! make a no-op choice forever.
//!
//! Solutions are computed on demand up to a *limit* (a caller that needs one way to produce a
//! value, such as `can_generate`, asks for one and branches after the first success are not
//! explored). The recursion follows the nesting of the value, not its size, and grows the stack
//! on the heap when it runs low, so a deeply nested value does not overflow it. Traces share
//! their parts, so reflecting a well-annotated generator costs time linear in the size of the
//! value.

use super::budget::{Budgets, ReflectError};
use super::forward::Placement;
use super::holes::Holes;
use super::parts::Parts;
use super::sizing::{Share, Sizing};
use super::trace::Trace;
use crate::choice::Label;

opaque_debug!(impl[A] Solution<A>);

/// One way a sub-generator produces its part of the value.
pub struct Solution<A> {
    /// The value the sub-generator produces along this way, if the run builds values (see
    /// [`Backward::with_values`]).
    pub(crate) value: Option<A>,
    pub(crate) trace: Trace,
    /// The natural logarithm of the probability that random generation makes these choices
    /// (kept as a logarithm so that large values do not underflow to 0).
    pub(crate) log_probability: f64,
    /// How much of the size this way uses: the recursive nodes of derived types and the
    /// collections' elements it holds (see the combinator `recursion`).
    pub(crate) used: usize,
}

impl<A> Solution<A> {
    /// The same way, producing `f(value)`.
    pub(crate) fn map<X>(self, f: impl FnOnce(A) -> X) -> Solution<X> {
        Solution {
            value: self.value.map(f),
            trace: self.trace,
            log_probability: self.log_probability,
            used: self.used,
        }
    }
}

/// The solutions of a node, or the budget that ran out.
pub type Reflected<A> = Result<Vec<Solution<A>>, ReflectError>;

/// The state of one backward run: size, budgets, and whether values are built.
#[derive(Debug)]
pub struct Backward {
    pub(crate) size: usize,
    /// The size strategy, and where the run is among nested collections.
    pub(crate) sizing: Sizing,
    /// The share of a budget the next collection takes, set by the collection around it.
    pub(crate) share: Option<Share>,
    /// The length the last collection that took a share took, for the collection around it.
    pub(crate) taken: Option<usize>,
    /// The size the fields of the recursive node being reflected have left (see the
    /// combinator `recursion`).
    pub(crate) fuel: Option<usize>,
    /// Whether the run is inside the value of an
    /// [`Outermost`](crate::combinator::recursion::Outermost) generator (a derived recursive
    /// type's).
    pub(crate) in_recursive_value: bool,
    /// Whether solutions carry the values they produce. Most interpretations need only the
    /// choices, so values are built only where something reads them: the left side of a bind,
    /// and the interpretations that return values.
    pub(crate) values: bool,
    /// Whether the caller reads the solutions' probabilities (`probability_of`): a generator
    /// whose reflection stands for ways it does not find (`combinator::counting_ways`) counts
    /// them only then, since counting can cost more than reflecting.
    pub(crate) weighs: bool,
    steps: u64,
    max_steps: u64,
    ways: u64,
    max_ways: u64,
    depth: usize,
    max_depth: usize,
    /// Picks open around the current node: not nesting levels, but stack frames.
    picks: usize,
    /// The parts to generate instead of reflect, when the run completes a value.
    pub(crate) holes: Option<Box<Holes>>,
    /// The path to where the run is and the first part no way produced, when the run names
    /// parts for an error (see [`Backward::naming_parts`]).
    pub(crate) parts: Option<Box<Parts>>,
}

/// Where a backward run is among shares and sizes (see [`Backward::place`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    share: Option<Share>,
    taken: Option<usize>,
    fuel: Option<usize>,
}

impl Backward {
    pub(crate) fn new(size: usize, values: bool, budgets: Budgets) -> Self {
        Backward {
            size,
            sizing: Sizing::default(),
            share: None,
            taken: None,
            fuel: None,
            in_recursive_value: false,
            values,
            weighs: false,
            steps: 0,
            max_steps: budgets.max_steps,
            ways: 0,
            max_ways: budgets.max_ways,
            depth: 0,
            max_depth: budgets.max_depth,
            picks: 0,
            holes: None,
            parts: None,
        }
    }

    /// The same run, naming the parts it reflects: the first part no way produces is noted
    /// with its path (see [`Parts`]), for an error that names it. Only such a run keeps the
    /// names: the nodes enter them out of line, behind [`Backward::names_parts`].
    pub(crate) fn naming_parts(mut self) -> Self {
        self.parts = Some(Box::default());
        self
    }

    /// The type of the first part (innermost first) that no way produced, with its path, if
    /// the run named parts and one failed.
    pub(crate) fn first_failure(&mut self) -> Option<(&'static str, Vec<Label>)> {
        self.parts.as_mut()?.first_failure.take()
    }

    /// Where this run is among sizes and shares, for a forward run to make choices that fit
    /// here (a hole's).
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

    /// Whether `part` is a hole to generate (marking it reached); never without holes.
    #[inline]
    pub(crate) fn is_hole<B: ?Sized>(&mut self, part: &B) -> bool {
        self.holes
            .as_mut()
            .is_some_and(|holes| holes.contains(part))
    }

    /// Notes that no way produces `part`, a `B`, for an error that names it: the first such
    /// part is the innermost that fails. Nothing unless the run names parts.
    #[inline]
    pub(crate) fn note_unproduced<B: ?Sized>(&mut self) {
        if let Some(parts) = self.parts.as_mut() {
            parts.note(std::any::type_name::<B>());
        }
    }

    /// Whether the run names parts (a completion's, or one for an error that names the part
    /// that fails, see [`Backward::naming_parts`]): only then are the parts' names and paths
    /// kept.
    #[inline]
    pub(crate) fn names_parts(&self) -> bool {
        self.parts.is_some()
    }

    /// Enters the part named `name` (a pick's branch, a named focus); nothing unless the run
    /// names parts.
    #[inline]
    pub(crate) fn enter_part(&mut self, name: Label) {
        if let Some(parts) = self.parts.as_mut() {
            parts.enter(name);
        }
    }

    /// Enters the element at `index` of a collection; nothing unless the run names parts.
    #[inline]
    pub(crate) fn enter_element(&mut self, index: usize) {
        if let Some(parts) = self.parts.as_mut() {
            parts.enter_index(index);
        }
    }

    /// Whether a part that fails has been noted (see [`Backward::forget_failure`]).
    #[inline]
    pub(crate) fn noted_failure(&self) -> bool {
        self.parts
            .as_ref()
            .is_some_and(|parts| parts.first_failure.is_some())
    }

    /// Forgets the part that fails noted since a pick began, when `noted_before` says none
    /// was before it: another of its branches produced the value, so that part did not fail
    /// the value.
    #[inline]
    pub(crate) fn forget_failure(&mut self, noted_before: bool) {
        if let (false, Some(parts)) = (noted_before, self.parts.as_mut()) {
            parts.first_failure = None;
        }
    }

    /// Leaves the part [`Backward::enter_part`] or [`Backward::enter_element`] entered last.
    #[inline]
    pub(crate) fn leave_part(&mut self) {
        if let Some(parts) = self.parts.as_mut() {
            parts.leave();
        }
    }

    /// Where the run is among shares and sizes: what a node that tries alternatives (a pick's
    /// branches) restores before each.
    pub(crate) fn place(&self) -> Place {
        Place {
            share: self.share,
            taken: self.taken,
            fuel: self.fuel,
        }
    }

    /// Goes back to `place`.
    pub(crate) fn go_to(&mut self, place: Place) {
        (self.share, self.taken, self.fuel) = (place.share, place.taken, place.fuel);
    }

    /// Counts the ways a node found beyond the first.
    pub(crate) fn found(&mut self, ways: usize) -> Result<(), ReflectError> {
        self.ways = self.ways.saturating_add(ways.saturating_sub(1) as u64);
        if self.ways > self.max_ways {
            return Err(ReflectError::WayBudget {
                ways: self.max_ways,
            });
        }
        Ok(())
    }

    /// Counts one unit of work.
    pub(crate) fn step(&mut self) -> Result<(), ReflectError> {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(ReflectError::StepBudget {
                steps: self.max_steps,
            });
        }
        Ok(())
    }

    /// `value()` if this run builds values.
    pub(crate) fn value<A>(&self, value: impl FnOnce() -> A) -> Option<A> {
        self.values.then(value)
    }

    /// Runs `inner` with values built.
    pub(crate) fn with_values<R>(&mut self, inner: impl FnOnce(&mut Self) -> R) -> R {
        let outer = std::mem::replace(&mut self.values, true);
        let result = inner(self);
        self.values = outer;
        result
    }

    /// Runs `inner`, a pick's branches, one pick deeper. Picks do not count against the
    /// nesting budget, but a chain of them holds stack frames, so the stack is checked as for
    /// nesting.
    pub(crate) fn in_pick<A>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Reflected<A>,
    ) -> Reflected<A> {
        self.picks += 1;
        let result = super::stack::every_few_levels(self.picks, || inner(self));
        self.picks -= 1;
        result
    }

    /// Runs `inner` at `size`, apart from the budget of any collection around: a collection
    /// inside takes its length from `size`, not from a share of that budget (what
    /// [`resize`](crate::Generator::resize) and [`scale`](crate::Generator::scale) ask for).
    pub(crate) fn at_own_size<A>(
        &mut self,
        size: usize,
        inner: impl FnOnce(&mut Self) -> Reflected<A>,
    ) -> Reflected<A> {
        let outer = std::mem::replace(&mut self.size, size);
        let offered = self.share.take();
        let result = inner(self);
        (self.size, self.share) = (outer, offered);
        result
    }

    /// Runs `inner` one nesting level deeper.
    pub(crate) fn nested<A>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Reflected<A>,
    ) -> Reflected<A> {
        self.step()?;
        if self.depth >= self.max_depth {
            return Err(ReflectError::DepthBudget {
                depth: self.max_depth,
            });
        }
        self.depth += 1;
        let result = super::stack::every_few_levels(self.depth, || inner(self));
        self.depth -= 1;
        result
    }
}
