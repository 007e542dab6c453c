//! [`Label`]: the semantic name of a choice.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// The semantic name of a choice: `"leaf"`, `"node"`, a digit.
///
/// Labels drive tuning, choice frequencies and coverage. A label built from a `&'static str`
/// costs nothing to copy; one built from a `String` is shared.
///
/// ```
/// use reflective::Label;
/// let label = Label::from("node");
/// assert_eq!(label, "node");
/// assert_eq!(label.to_string(), "node");
/// ```
#[derive(Clone)]
pub struct Label(LabelText);

#[derive(Clone)]
enum LabelText {
    Static(&'static str),
    Shared(Arc<str>),
}

impl Label {
    /// A label from a string literal, usable in `const` and `static` items.
    pub const fn new(text: &'static str) -> Label {
        Label(LabelText::Static(text))
    }

    /// The label's text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            LabelText::Static(text) => text,
            LabelText::Shared(text) => text,
        }
    }
}

impl From<&'static str> for Label {
    fn from(text: &'static str) -> Label {
        Label::new(text)
    }
}

impl From<String> for Label {
    fn from(text: String) -> Label {
        Label(LabelText::Shared(text.into()))
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
