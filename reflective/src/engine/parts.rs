//! [`Parts`]: the parts of a value a backward run names, for an error that says which part of
//! a given value the generator cannot produce (completion's, mutation's, encoding's).
//!
//! A run that names parts keeps the path to where it is: the pick branches' labels (a derived
//! enum's variants), the named focuses (a derived type's fields) and the elements of
//! collections (by index) it is inside. The first part that no way produces, the innermost, is
//! noted with its type and path; a pick that another branch of produces the value forgets it.

use crate::choice::Label;

/// One step of a path into a value.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A pick's labelled branch or a named focus.
    Named(Label),
    /// The element at this index of a collection.
    Index(usize),
}

/// The path a backward run is at, and the first part no way produced.
#[derive(Debug, Default)]
pub(crate) struct Parts {
    /// The steps the run is inside, outermost first.
    path: Vec<Step>,
    /// The type of the first part (innermost first) that no way produced, with its path.
    pub(crate) first_failure: Option<(&'static str, Vec<Label>)>,
}

impl Parts {
    /// Enters the part named `name`.
    pub(crate) fn enter(&mut self, name: Label) {
        self.path.push(Step::Named(name));
    }

    /// Enters the element at `index` of a collection.
    pub(crate) fn enter_index(&mut self, index: usize) {
        self.path.push(Step::Index(index));
    }

    /// Leaves the part entered last.
    pub(crate) fn leave(&mut self) {
        self.path.pop();
    }

    /// Notes that no way produces the part the run is at, a `part` (a type's name), unless a
    /// part was noted before (an inner one).
    pub(crate) fn note(&mut self, part: &'static str) {
        if self.first_failure.is_none() {
            // An index becomes a label only here, once per failure: the labels it interns
            // are the few indices of failing elements, not every element's.
            let path = self
                .path
                .iter()
                .map(|step| match *step {
                    Step::Named(name) => name,
                    Step::Index(index) => index_label(index),
                })
                .collect();
            self.first_failure = Some((part, path));
        }
    }
}

/// The label of the step to a collection's element `index` in a path: `[2]`.
pub(crate) fn index_label(index: usize) -> Label {
    Label::from(format!("[{index}]"))
}

/// `path` as errors write it: names joined with dots, an element's index in brackets after
/// its collection (`items[2].y`); an index first is written alone (`[2].y`).
pub(crate) fn path_text(path: &[Label]) -> String {
    let mut text = String::new();
    for step in path {
        let step = step.as_str();
        if !text.is_empty() && !step.starts_with('[') {
            text.push('.');
        }
        text.push_str(step);
    }
    text
}

/// The part `part` (a type's name) at `path`, as errors name it: `` a `u8` at `items[2].y` ``,
/// or `` a `u8` `` where the path is empty (the part is the whole value, or reached by no
/// name).
pub(crate) fn part_text(part: &str, path: &[Label]) -> String {
    if path.is_empty() {
        format!("a `{part}`")
    } else {
        format!("a `{part}` at `{}`", path_text(path))
    }
}

#[cfg(test)]
mod tests {
    use super::{Label, Parts, path_text};

    #[test]
    fn a_path_writes_indices_in_brackets_after_their_collection() {
        let path =
            |steps: &[&'static str]| steps.iter().copied().map(Label::new).collect::<Vec<_>>();
        assert_eq!(path_text(&path(&["items", "[2]", "y"])), "items[2].y");
        assert_eq!(path_text(&path(&["[0]", "[3]"])), "[0][3]");
        assert_eq!(path_text(&path(&["Pair", "first"])), "Pair.first");
        assert_eq!(path_text(&[]), "");
    }

    #[test]
    fn the_first_failure_noted_is_kept_with_its_indices() {
        let mut parts = Parts::default();
        parts.enter(Label::new("items"));
        parts.enter_index(2);
        parts.note("u8");
        parts.leave();
        parts.note("Vec<u8>");
        let (part, path) = parts.first_failure.unwrap();
        assert_eq!((part, path_text(&path).as_str()), ("u8", "items[2]"));
    }
}
