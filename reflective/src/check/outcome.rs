//! What a property returns, and how the runner evaluates it: panics caught and kept quiet, a
//! time limit per case.

use std::any::Any;
use std::cell::Cell;
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::time::Instant;

use super::config::Resolved;

/// What a property returns: `()` (it fails by panicking), `bool` (`false` fails) or
/// `Result<(), E>` (`Err` fails).
#[diagnostic::on_unimplemented(
    message = "a property returns `()`, `bool` or `Result<(), E: Debug>`, not `{Self}`",
    label = "not what a property returns"
)]
pub trait Outcome {
    /// Why the property failed, or `None` if it held.
    fn failure(self) -> Option<String>;
}

impl Outcome for () {
    fn failure(self) -> Option<String> {
        None
    }
}

impl Outcome for bool {
    fn failure(self) -> Option<String> {
        (!self).then(|| "the property returned false".to_string())
    }
}

impl<E: Debug> Outcome for Result<(), E> {
    fn failure(self) -> Option<String> {
        self.err()
            .map(|error| format!("the property returned Err({error:?})"))
    }
}

/// Why `property` fails on `value` (it returned a failure, panicked, or took longer than the
/// run's time limit per case), or `None` if it holds. A panic's message is kept, not printed.
pub(super) fn outcome<T, O: Outcome>(
    settings: &Resolved,
    property: &impl Fn(&T) -> O,
    value: &T,
) -> Option<String> {
    // The clock is read only when a limit asks for it: it costs as much as a small case.
    let started = settings.case_time_limit.map(|_| Instant::now());
    let result = quietly(|| panic::catch_unwind(AssertUnwindSafe(|| property(value))));
    let took = started.map(|started| started.elapsed());
    let failure = match result {
        Ok(result) => result.failure(),
        Err(payload) => Some(format!(
            "the property panicked: {}",
            panic_message(&*payload)
        )),
    };
    failure.or_else(|| {
        let (limit, took) = (settings.case_time_limit?, took?);
        (took > limit).then(|| {
            format!(
                "the case took {:.1} ms, over the limit of {:.1} ms per case",
                took.as_secs_f64() * 1000.0,
                limit.as_secs_f64() * 1000.0
            )
        })
    })
}

/// A panic's message, as `panic!` formatted it.
pub(super) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

thread_local! {
    /// Whether panics on this thread are being caught by the runner, which reports them.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with this thread's panics not printed: the runner catches them and reports the
/// one that matters. The panic hook that does this is installed once, and passes every other
/// panic (other threads, other times) to the hook that was there before.
pub(super) fn quietly<R>(f: impl FnOnce() -> R) -> R {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
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
