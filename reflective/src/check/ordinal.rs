//! Which check of its test a check is: a test may run several, and `REFLECTIVE_REPLAY`
//! replays its case in the one `REFLECTIVE_REPLAY_CHECK` names, so a replay line names the
//! check that failed where it is not the first.

use std::cell::RefCell;

use super::config::test_name;

/// The checks this thread has started for its test, and how deep in one it is.
#[derive(Default)]
struct Checks {
    /// The test they belong to (a thread runs one test; the name guards against reuse).
    test: Option<String>,
    /// How many top-level checks the test has started.
    started: u32,
    /// How many checks are running, each inside the property of the one before.
    depth: u32,
}

thread_local! {
    static CHECKS: RefCell<Checks> = RefCell::default();
}

/// A check running on this thread, from its start to its end: see [`Running::start`].
pub(super) struct Running {
    ordinal: Option<u32>,
}

impl Running {
    /// Starts a check: the next of its test's checks, numbered from 1, or one inside another
    /// check's property, which has no number (a replay is not its own).
    pub(super) fn start() -> Running {
        CHECKS.with(|checks| {
            let mut checks = checks.borrow_mut();
            let ordinal = if checks.depth == 0 {
                let test = test_name();
                if checks.test != test {
                    (checks.test, checks.started) = (test, 0);
                }
                checks.started = checks.started.saturating_add(1);
                Some(checks.started)
            } else {
                None
            };
            checks.depth += 1;
            Running { ordinal }
        })
    }

    /// Marks this thread as running a check's cases until the guard drops: a worker thread of
    /// a parallel run, whose property's checks are inside that check.
    pub(super) fn inside() -> Running {
        CHECKS.with(|checks| checks.borrow_mut().depth += 1);
        Running { ordinal: None }
    }

    /// Which check of its test this is, from 1; `None` inside another check.
    pub(super) fn ordinal(&self) -> Option<u32> {
        self.ordinal
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // On a thread whose locals are being destroyed there is nothing left to count.
        let _ = CHECKS.try_with(|checks| checks.borrow_mut().depth -= 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_are_numbered_in_their_test_and_a_check_inside_one_has_no_number() {
        let first = Running::start();
        assert_eq!(first.ordinal(), Some(1));
        let inner = Running::start();
        assert_eq!(inner.ordinal(), None);
        drop((inner, first));
        assert_eq!(Running::start().ordinal(), Some(2));
        assert_eq!(Running::start().ordinal(), Some(3));
        let worker = Running::inside();
        assert_eq!(Running::start().ordinal(), None);
        drop(worker);
        assert_eq!(Running::start().ordinal(), Some(4));
    }
}
