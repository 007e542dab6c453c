//! The text of a caught panic, for the reports of every layer that catches one (a property, a
//! predicate, a generator replayed on edited choices).

use std::any::Any;

/// A panic's message, as `panic!` formatted it.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}
