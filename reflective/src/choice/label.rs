//! [`Label`]: the semantic name of a choice.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// The semantic name of a choice: `"leaf"`, `"node"`, a digit.
///
/// Labels drive tuning, choice frequencies and coverage. A label is a pointer to its text and
/// costs nothing to copy or drop, so recording a labelled choice is as cheap as any other. A
/// label built from a `String` is interned: each distinct text is kept once, for the rest of
/// the program (labels name a generator's branches, a small vocabulary).
///
/// ```
/// use reflective::Label;
/// let label = Label::from("node");
/// assert_eq!(label, "node");
/// assert_eq!(label.to_string(), "node");
/// assert_eq!(Label::from(format!("no{}", "de")), label);
/// ```
#[derive(Clone, Copy)]
pub struct Label(&'static str);

impl Label {
    /// A label from a string literal, usable in `const` and `static` items.
    pub const fn new(text: &'static str) -> Label {
        Label(text)
    }

    /// The label's text.
    pub fn as_str(&self) -> &str {
        self.0
    }
}

impl From<&'static str> for Label {
    fn from(text: &'static str) -> Label {
        Label::new(text)
    }
}

impl From<String> for Label {
    /// The label with this text, interned: see [`Label`].
    fn from(text: String) -> Label {
        static INTERNED: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
        let mut interned = INTERNED
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&kept) = interned.get(text.as_str()) {
            return Label(kept);
        }
        let kept: &'static str = Box::leak(text.into_boxed_str());
        interned.insert(kept);
        Label(kept)
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Label {
    fn eq(&self, other: &Label) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Label {}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Label {
    fn partial_cmp(&self, other: &Label) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Label {
    fn cmp(&self, other: &Label) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Label {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}
