//! A replay's draws at random, followed in a fingerprint: for a caller that knows which
//! sequences of draws ended a replay of the same choices before (a stream of mutants), so
//! that it can end a replay that would only repeat one.
//!
//! A replay that repairs at random is a function of what it replays (its key) and of the
//! values it draws: once its draws are those of a replay that ended, it would draw nothing
//! more and give what that one gave.

use super::Halt;
use crate::choice::mix;

/// The fingerprint of a replay's key and of the values it drew at random so far, and when to
/// end it.
pub(crate) struct Draws<'c> {
    print: u64,
    /// Whether the replay is to end after the draws whose fingerprint it is given.
    stop: Option<&'c dyn Fn(u64) -> bool>,
    stopped: bool,
}

impl<'c> Draws<'c> {
    /// Draws not followed: the replay runs to its end.
    pub(crate) fn unfollowed() -> Self {
        Draws {
            print: 0,
            stop: None,
            stopped: false,
        }
    }

    /// Draws followed from `key`, the replay ending after a draw where `stop` says so of the
    /// fingerprint.
    pub(crate) fn stopping(key: u64, stop: &'c dyn Fn(u64) -> bool) -> Self {
        Draws {
            print: key,
            stop: Some(stop),
            stopped: false,
        }
    }

    /// Follows a draw at random of `value`: a misfit if the replay is to end there.
    #[inline]
    pub(crate) fn drew(&mut self, value: i128) -> Result<(), Halt> {
        if let Some(stop) = self.stop {
            self.print = mix(mix(self.print, value as u64), (value >> 64) as u64);
            if stop(self.print) {
                self.stopped = true;
                return Err(Halt::Misfit);
            }
        }
        Ok(())
    }

    /// The fingerprint of the key and of the values drawn, if the replay was not ended by
    /// `stop`.
    pub(crate) fn completed(&self) -> Option<u64> {
        (!self.stopped).then_some(self.print)
    }
}
