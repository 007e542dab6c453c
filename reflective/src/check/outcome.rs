//! What a property returns, and how the runner evaluates it: panics caught and kept quiet, a
//! time limit per case.

use crate::engine::{caught, panic_message, take_panic_location};
use std::cell::Cell;
use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

pub use crate::engine::quietly;

use super::config::Resolved;

/// What a property returns: `()` (it fails by panicking), `bool` (`false` fails),
/// `Result<(), E>` (`Err` fails), or any of these in an `Option`, whose `None` discards the
/// case.
///
/// Returning `None` discards a case as [`assume`](fn@assume) does, without unwinding: where
/// most cases are discarded (a precondition that few values meet), it costs nothing beyond
/// the check itself, where an `assume` that does not hold unwinds, which costs microseconds.
///
/// ```
/// use reflective::prelude::*;
/// // Division is checked only where the divisor is not zero (QuickCheck's `==>`).
/// reflective::check(&tuple((range(0u32..=100), range(0u32..=9))), |&(a, b): &(u32, u32)| {
///     (b != 0).then(|| a / b <= a)
/// });
/// ```
#[diagnostic::on_unimplemented(
    message = "a property returns `()`, `bool`, `Result<(), E: Debug>` or one of them in an \
               `Option`, not `{Self}`",
    label = "not what a property returns"
)]
pub trait Outcome {
    /// Why the property failed, or `None` if it held (or discarded the case).
    fn failure(self) -> Option<String>;

    /// Why the property discarded the case, or `None` if it did not (the default).
    fn discarded(&self) -> Option<&'static str> {
        None
    }
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
    /// The error as its `Debug` writes it; if that panics, a note with the panic's message
    /// instead, so that the report still names the failure and the case.
    fn failure(self) -> Option<String> {
        self.err().map(|error| {
            let text = debug_text(|| format!("{error:?}"));
            format!("the property returned Err({text})")
        })
    }
}

/// `None` discards the case; `Some(outcome)` is `outcome`.
impl<O: Outcome> Outcome for Option<O> {
    fn failure(self) -> Option<String> {
        self?.failure()
    }

    fn discarded(&self) -> Option<&'static str> {
        match self {
            None => Some("the property returned None"),
            Some(outcome) => outcome.discarded(),
        }
    }
}

/// What one run of a property on a value gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The property held.
    Held,
    /// The property discarded the value ([`assume`](fn@assume) did not hold): it does not count.
    Discarded(String),
    /// The property failed, for this reason.
    Failed(String),
}

impl Verdict {
    /// Whether the property failed.
    pub(crate) fn failed(&self) -> bool {
        matches!(self, Verdict::Failed(_))
    }
}

/// What `property` gives on `value`: it held, discarded the value, or failed (it returned a
/// failure, panicked, or took longer than the run's time limit per case). A panic's message is
/// kept, not printed.
pub(super) fn verdict<T, O: Outcome>(
    settings: &Resolved,
    property: &impl Fn(&T) -> O,
    value: &T,
) -> Verdict {
    // The clock is read only when a limit asks for it: it costs as much as a small case.
    let started = settings.case_time_limit.map(|_| Instant::now());
    // A location left by an earlier panic (a discard) must not be taken for this case's.
    take_panic_location();
    let result = quietly(|| in_case(|| panic::catch_unwind(AssertUnwindSafe(|| property(value)))));
    let took = started.map(|started| started.elapsed());
    let failure = match result {
        Ok(result) => match result.discarded() {
            Some(reason) => return Verdict::Discarded(reason.to_string()),
            None => result.failure(),
        },
        Err(payload) => match payload.downcast::<Discard>() {
            Ok(discard) => return Verdict::Discarded(discard.0.to_string()),
            Err(payload) => Some(match take_panic_location() {
                Some(at) => format!(
                    "the property panicked at {at}: {}",
                    panic_message(&*payload)
                ),
                None => format!("the property panicked: {}", panic_message(&*payload)),
            }),
        },
    };
    let failure = failure.or_else(|| {
        let (limit, took) = (settings.case_time_limit?, took?);
        (took > limit)
            .then(|| format!("the case took {took:.1?}, over the limit of {limit:.1?} per case"))
    });
    failure.map_or(Verdict::Held, Verdict::Failed)
}

/// Discards the case being run unless `condition` holds: the runner does not count it, and
/// generates another (as proptest's `prop_assume!`, QuickCheck's `==>`, Hypothesis's
/// `assume`). The report counts the discarded cases, and a run that discards more than
/// `max_discard_ratio` (10) cases per case it runs gives up with a health report: write a
/// generator that produces only the values wanted instead.
/// [`assume!`](crate::assume!) does the same and names the condition in the report.
///
/// A discarded case unwinds out of the property. Where most cases are discarded, a property
/// that returns an `Option` (`None` discards, see [`Outcome`]) is several times faster.
///
/// # Panics
///
/// Outside a property run by [`check`](super::check) (or `#[reflective::property]`), when the
/// condition does not hold: there is no case to discard.
///
/// ```
/// use reflective::prelude::*;
/// reflective::check(&range(0u32..=100), |&n: &u32| {
///     reflective::assume(n != 0);
///     100 / n >= 1
/// });
/// ```
#[track_caller]
pub fn assume(condition: bool) {
    if !condition {
        discard("assume(false)");
    }
}

/// Discards the case being run unless the condition holds, as [`assume`](fn@crate::assume) does,
/// naming the condition in the report (proptest's `prop_assume!`).
///
/// ```
/// use reflective::prelude::*;
/// reflective::check(&tuple((range(0u32..=9), range(0u32..=9))), |&(a, b): &(u32, u32)| {
///     reflective::assume!(a != b);
///     a.abs_diff(b) > 0
/// });
/// ```
#[macro_export]
macro_rules! assume {
    ($condition:expr $(,)?) => {
        $crate::check::assume_that(
            $condition,
            ::core::concat!("assume!(", ::core::stringify!($condition), ")"),
        )
    };
}

/// [`assume`](fn@assume) with the text of the condition, which the report names: what
/// [`assume!`](crate::assume!) calls.
#[doc(hidden)]
#[track_caller]
pub fn assume_that(condition: bool, text: &'static str) {
    if !condition {
        discard(text);
    }
}

/// The payload a discarded case unwinds with.
struct Discard(&'static str);

thread_local! {
    /// Whether a property is running on this thread under the runner, which catches discards.
    static IN_CASE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, a property on one value, with discards caught by the runner.
fn in_case<R>(f: impl FnOnce() -> R) -> R {
    let outer = IN_CASE.with(|flag| flag.replace(true));
    let result = f();
    IN_CASE.with(|flag| flag.set(outer));
    result
}

/// Discards the case being run, for `reason`.
#[track_caller]
fn discard(reason: &'static str) -> ! {
    if IN_CASE.with(Cell::get) {
        // Not a panic: nothing to print, and no hook to run.
        panic::resume_unwind(Box::new(Discard(reason)))
    }
    panic!(
        "reflective: `{reason}` discards a case of a property run by reflective, and was called \
         outside one (in a generator, or a property not run by reflective); to keep a generator \
         from producing a value, use `.filter`"
    )
}

/// The text `write` makes with a `Debug` of the user's, or, if it panics, a note saying so:
/// for an `Err` a property returns and for the report's counterexamples.
pub(super) fn debug_text(write: impl FnOnce() -> String) -> String {
    caught(write).unwrap_or_else(|panic| format!("(its `Debug` panicked: {panic})"))
}
