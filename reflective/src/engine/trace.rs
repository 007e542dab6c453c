//! [`Trace`]: the choices of one way to produce a value, as the backward engine builds them.

use std::rc::Rc;

use crate::choice::{Choice, ChoiceTree, Label, OpenSpan, Trail};

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

    /// The choices of `tree`, one after another (its spans left out: a replay records them).
    pub(crate) fn of_choices(tree: &ChoiceTree) -> Trace {
        Trace::many(tree.choices().iter().cloned().map(Trace::choice).collect())
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
            Close(OpenSpan),
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
                    let span = trail.open(*label);
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
