//! The shrinker's memory of the choices that did not fail, so that a candidate two passes (or
//! two elements) lead to is evaluated once.

use std::collections::HashMap;

/// The fingerprints of the choices tried that did not fail, with how many choices they
/// replayed to.
#[derive(Debug, Default)]
pub(super) struct Passed {
    replayed: HashMap<u64, usize>,
}

impl Passed {
    /// How many choices the choices with this fingerprint replayed to, if they were tried.
    pub(super) fn replayed(&self, fingerprint: u64) -> Option<usize> {
        self.replayed.get(&fingerprint).copied()
    }

    /// Remembers that the choices with this fingerprint did not fail, replaying to `length`
    /// choices.
    pub(super) fn remember(&mut self, fingerprint: u64, length: usize) {
        self.replayed.insert(fingerprint, length);
    }
}
