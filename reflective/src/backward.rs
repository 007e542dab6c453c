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

use std::fmt;
use std::rc::Rc;

use crate::choice::{Choice, ChoiceTree, Label, Trail};

/// Why reflection gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReflectError {
    /// Reflection took more steps than its budget allows: the generator can produce the value
    /// in too many ways (exponential overlap, as the paper's `gE`).
    StepBudget {
        /// The budget that ran out.
        steps: u64,
    },
    /// Parts of the value can be produced in more ways than the budget allows: the ways are
    /// kept in memory, so this bounds the memory an overlapping generator can take.
    WayBudget {
        /// The budget that ran out: the number of ways found beyond the first at each choice.
        ways: u64,
    },
    /// Choices nested deeper than the budget allows: the generator can make choices that
    /// change nothing, forever (infinite overlap, as the paper's `gI`), or the value is very
    /// deeply nested.
    DepthBudget {
        /// The budget that ran out.
        depth: usize,
    },
}

impl fmt::Display for ReflectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReflectError::StepBudget { steps } => write!(
                f,
                "reflection gave up after {steps} steps: the generator produces this value in \
                 too many ways (exponential overlap). Make its branches exclusive with `focus` or \
                 `exact`, or raise the budget with `Reflector::max_steps`"
            ),
            ReflectError::WayBudget { ways } => write!(
                f,
                "reflection gave up after {ways} alternative ways of producing parts of this \
                 value: the generator overlaps too much (exponential overlap). Make its branches \
                 exclusive with `focus` or `exact`, or raise the budget with \
                 `Reflector::max_ways`"
            ),
            ReflectError::DepthBudget { depth } => write!(
                f,
                "reflection gave up at {depth} nested choices: the generator can keep making \
                 choices that do not change the value (infinite overlap), or the value nests \
                 deeper than that. Guard every recursive branch with a `focus` that consumes part \
                 of the value, or raise the budget with `Reflector::max_depth`"
            ),
        }
    }
}

impl std::error::Error for ReflectError {}

/// The choices of one way to produce a value, as a shared tree: concatenation costs O(1).
#[derive(Clone, Default)]
pub struct Trace(Option<Rc<TraceNode>>);

enum TraceNode {
    Choice(Choice),
    Then(Trace, Trace),
    Many(Vec<Trace>),
    /// A span whose first choice is `lead` (a pick's branch) followed by `body`.
    Span {
        label: Option<Label>,
        lead: Option<Choice>,
        body: Trace,
    },
}

impl Trace {
    pub(crate) fn empty() -> Trace {
        Trace(None)
    }

    pub(crate) fn choice(choice: Choice) -> Trace {
        Trace(Some(Rc::new(TraceNode::Choice(choice))))
    }

    /// This trace followed by `next`.
    pub(crate) fn then(self, next: Trace) -> Trace {
        match (&self.0, &next.0) {
            (None, _) => next,
            (_, None) => self,
            _ => Trace(Some(Rc::new(TraceNode::Then(self, next)))),
        }
    }

    /// The traces one after another.
    pub(crate) fn many(parts: Vec<Trace>) -> Trace {
        Trace(Some(Rc::new(TraceNode::Many(parts))))
    }

    /// A span around `lead` followed by `body`.
    pub(crate) fn span(label: Option<Label>, lead: Option<Choice>, body: Trace) -> Trace {
        Trace(Some(Rc::new(TraceNode::Span { label, lead, body })))
    }

    /// Appends the choices and spans, in order. A loop with its own stack: traces nest as
    /// deeply as values do.
    fn write_to(&self, trail: &mut Trail) {
        enum Step<'t> {
            Write(&'t Trace),
            Close(crate::choice::OpenSpan),
        }
        let mut steps = vec![Step::Write(self)];
        while let Some(step) = steps.pop() {
            let node = match step {
                Step::Close(span) => {
                    trail.close(span);
                    continue;
                }
                Step::Write(Trace(None)) => continue,
                Step::Write(Trace(Some(node))) => node,
            };
            match &**node {
                TraceNode::Choice(choice) => trail.push(choice.clone()),
                TraceNode::Then(first, second) => {
                    steps.push(Step::Write(second));
                    steps.push(Step::Write(first));
                }
                TraceNode::Many(parts) => steps.extend(parts.iter().rev().map(Step::Write)),
                TraceNode::Span { label, lead, body } => {
                    let span = trail.open(label.clone());
                    if let Some(lead) = lead {
                        trail.push(lead.clone());
                    }
                    steps.push(Step::Close(span));
                    steps.push(Step::Write(body));
                }
            }
        }
    }

    /// The flat choice tree, recorded at `size`.
    pub(crate) fn to_tree(&self, size: usize) -> ChoiceTree {
        let mut trail = Trail::recycled();
        self.write_to(&mut trail);
        trail.into_tree(size)
    }
}

impl Drop for Trace {
    /// Frees the nodes this trace alone owns in a loop, so a deep trace does not overflow the
    /// stack on its way out.
    fn drop(&mut self) {
        let mut owned: Vec<Rc<TraceNode>> = self.0.take().into_iter().collect();
        while let Some(shared) = owned.pop() {
            let Ok(mut node) = Rc::try_unwrap(shared) else {
                continue;
            };
            let mut detach = |trace: &mut Trace| owned.extend(trace.0.take());
            match &mut node {
                TraceNode::Choice(_) => {}
                TraceNode::Then(first, second) => {
                    detach(first);
                    detach(second);
                }
                TraceNode::Many(parts) => parts.iter_mut().for_each(&mut detach),
                TraceNode::Span { body, .. } => detach(body),
            }
        }
    }
}

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
}

impl<A> Solution<A> {
    /// The same way, producing `f(value)`.
    pub(crate) fn map<X>(self, f: impl FnOnce(A) -> X) -> Solution<X> {
        Solution {
            value: self.value.map(f),
            trace: self.trace,
            log_probability: self.log_probability,
        }
    }
}

/// The solutions of a node, or the budget that ran out.
pub type Reflected<A> = Result<Vec<Solution<A>>, ReflectError>;

/// The default step budget of a reflection.
pub(crate) const DEFAULT_MAX_STEPS: u64 = 20_000_000;
/// The default budget of ways found beyond the first.
pub(crate) const DEFAULT_MAX_WAYS: u64 = 1_000_000;
/// The default nesting budget of a reflection.
pub(crate) const DEFAULT_MAX_DEPTH: usize = 100_000;

/// The state of one backward run: size, budgets, and whether values are built.
#[derive(Debug)]
pub struct Backward {
    pub(crate) size: usize,
    /// The size strategy, and where the run is among nested collections.
    pub(crate) sizing: crate::strategy::Sizing,
    /// Whether the next collection is an element of a nest, which measures its allotment
    /// instead of recording its length.
    pub(crate) measuring: bool,
    /// The allotment the last collection reflected while measuring holds.
    pub(crate) measured: Option<crate::allotment::Allotment>,
    /// Whether solutions carry the values they produce. Most interpretations need only the
    /// choices, so values are built only where something reads them: the left side of a bind,
    /// and the interpretations that return values.
    pub(crate) values: bool,
    steps: u64,
    max_steps: u64,
    ways: u64,
    max_ways: u64,
    depth: usize,
    max_depth: usize,
    /// Picks open around the current node: not nesting levels, but stack frames.
    picks: usize,
}

/// The budgets of a backward run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budgets {
    pub(crate) max_steps: u64,
    pub(crate) max_ways: u64,
    pub(crate) max_depth: usize,
}

impl Backward {
    pub(crate) fn new(size: usize, values: bool, budgets: Budgets) -> Self {
        Backward {
            size,
            sizing: crate::strategy::Sizing::default(),
            measuring: false,
            measured: None,
            values,
            steps: 0,
            max_steps: budgets.max_steps,
            ways: 0,
            max_ways: budgets.max_ways,
            depth: 0,
            max_depth: budgets.max_depth,
            picks: 0,
        }
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
        let result = crate::stack::every_few_levels(self.picks, || inner(self));
        self.picks -= 1;
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
        let result = crate::stack::every_few_levels(self.depth, || inner(self));
        self.depth -= 1;
        result
    }
}
