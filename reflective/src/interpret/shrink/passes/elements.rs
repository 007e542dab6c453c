//! Passes over runs of a collection's elements: zero them, delete them.

use crate::choice::Choice;
use crate::node::Node;

use crate::choice::Collection;
use crate::interpret::shrink::edit::{lowered, zeroed};
use crate::interpret::shrink::search::Search;

impl<G: Node> Search<'_, G> {
    /// Sets runs of elements of each collection to their simplest choices, in runs grown as
    /// [`delete_elements`](Self::delete_elements) grows them.
    pub(super) fn zero_elements(&mut self) {
        self.over_runs(false, |choices, collections, collection, run| {
            let span = collection.elements[run.start].start..collection.elements[run.end - 1].end;
            if choices[span.clone()]
                .iter()
                .all(|choice| choice.simplicity() == 0)
            {
                return None;
            }
            Some(zeroed(choices, span, collections))
        });
    }

    /// Deletes runs of elements from each collection, the length lowered by as many: from
    /// each element, one, then twice as many as the last run that went, while they go, then
    /// halves. A long collection loses most of its elements in a few evaluations.
    pub(super) fn delete_elements(&mut self) {
        self.over_runs(true, |choices, _, collection, run| {
            let k = run.len() as i128;
            let lower = lowered(&choices[collection.count], k)?;
            let span = collection.elements[run.start].start..collection.elements[run.end - 1].end;
            let mut without = choices[..span.start].to_vec();
            without.extend_from_slice(&choices[span.end..]);
            without[collection.count] = lower;
            Some(without)
        });
    }

    /// Applies `edit` to runs of elements of each collection, from each element on: a run of
    /// one, then runs twice as long while the edit is kept, then half as long down to one.
    /// `edit` gets the choices, every collection in them and the one being edited, and gives
    /// the edited choices, or `None` where it does not apply. With `skip_repeats`,
    /// an element equal to the one before, where nothing was kept, is passed over: the edit
    /// would give the same choices again (as deleting either of two equal elements does).
    pub(super) fn over_runs(
        &mut self,
        skip_repeats: bool,
        edit: impl Fn(
            &[Choice],
            &[Collection],
            &Collection,
            std::ops::Range<usize>,
        ) -> Option<Vec<Choice>>,
    ) {
        let mut which = 0;
        let (mut element, mut length, mut growing) = (0, 1, true);
        // Found again only after a kept edit, which changes the choices.
        let mut collections = self.collections();
        while let Some(current) = collections.get(which) {
            if self.exhausted() {
                return;
            }
            if element >= current.elements.len() {
                which += 1;
                (element, length, growing) = (0, 1, true);
                continue;
            }
            // A run that keeps being kept doubles its length up to `usize::MAX` (each kept
            // edit changes the choices, so a run over the rest of a collection can be kept
            // again and again): its end must not wrap around below its start.
            let run = element..element.saturating_add(length).min(current.elements.len());
            let kept = edit(self.choices(), &collections, current, run)
                .is_some_and(|e| self.try_choices(e));
            if kept {
                collections = self.collections();
            }
            if kept && growing {
                length = length.saturating_mul(2);
            } else {
                growing = false;
                length /= 2;
            }
            if length == 0 {
                (element, length, growing) = (element + 1, 1, true);
                while skip_repeats
                    && !kept
                    && let Some(current) = collections.get(which)
                {
                    let elements = &current.elements;
                    let choices = self.choices();
                    let repeats = element < elements.len()
                        && choices[elements[element].clone()]
                            == choices[elements[element - 1].clone()];
                    if !repeats {
                        break;
                    }
                    element += 1;
                }
            }
        }
    }
}
