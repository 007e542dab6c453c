//! Caught panics: kept off stderr while a layer that reports them runs ([`quietly`]), and
//! their text, for the reports of every layer that catches one (a property, a predicate, a
//! generator replayed on edited choices, an annotation reflection runs).

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// A panic's message, as `panic!` formatted it.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    panic_text(payload).unwrap_or_else(|| {
        "(a panic whose payload is not a string: `panic_any` of another type)".to_string()
    })
}

/// The message of a panic whose payload is a string (`panic!`'s); `None` for another payload
/// (`panic_any`).
pub(crate) fn panic_text(payload: &(dyn Any + Send)) -> Option<String> {
    if let Some(text) = payload.downcast_ref::<&str>() {
        Some((*text).to_string())
    } else {
        payload.downcast_ref::<String>().cloned()
    }
}

thread_local! {
    /// Whether panics on this thread are being caught by a layer that reports them.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last panic kept off stderr on this thread was raised (`file:line:column`),
    /// until [`take_panic_location`] takes it.
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Where the last panic that [`quietly`] kept off stderr on this thread was raised, as
/// `file:line:column`, taken so that a later panic without a location does not show it.
pub(crate) fn take_panic_location() -> Option<String> {
    LOCATION.with(|location| location.borrow_mut().take())
}

/// Runs `f` with this thread's panic messages not printed, as the runner runs properties: it
/// catches their panics and reports the one that matters. For a harness of your own that
/// catches panics (a fuzz target, a script running properties) and does not want each one on
/// stderr. The panic hook that does this is installed once, and passes every other panic
/// (other threads, other times) to the hook that was there before.
///
/// ```
/// use reflective::check::quietly;
/// let caught = quietly(|| std::panic::catch_unwind(|| panic!("not printed")));
/// assert!(caught.is_err());
/// ```
pub fn quietly<R>(f: impl FnOnce() -> R) -> R {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let at = info.location().map(ToString::to_string);
                LOCATION.with(|location| *location.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
    /// Puts the flag back as it was, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            QUIET.with(|quiet| quiet.set(self.0));
        }
    }
    let _restore = Restore(QUIET.with(|quiet| quiet.replace(true)));
    f()
}

/// Whether this thread's panics are being kept off stderr (see [`quietly`]): a panic's
/// message changed as it unwinds reaches stderr only through the layer that catches it.
pub(crate) fn is_quiet() -> bool {
    QUIET.with(Cell::get)
}

/// [`caught`], leaving the location of the last panic kept off stderr as it was: for a
/// check made while a panic is being reported, which must not take its place.
pub(crate) fn caught_aside<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    let location = LOCATION.with(|location| location.borrow_mut().take());
    let result = caught(f);
    LOCATION.with(|slot| *slot.borrow_mut() = location);
    result
}

/// `f()`, or the message of its panic, kept off stderr.
pub(crate) fn caught<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    quietly(|| panic::catch_unwind(AssertUnwindSafe(f))).map_err(|payload| panic_message(&*payload))
}
