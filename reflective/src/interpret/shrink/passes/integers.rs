//! Passes over integers: minimise each, lower equal ones together, move value between nearby ones.

use crate::choice::{Choice, nearest_zero};
use crate::node::Node;

use crate::interpret::shrink::edit::{add_within, set_int, set_pick};
use crate::interpret::shrink::search::{Attempt, Search, Tried};
use crate::interpret::shrink::stats::Stopped;

impl<G: Node> Search<'_, G> {
    /// Minimises each choice alone: the lowest pick index that still fails, an integer by
    /// binary search between its simplest value and its current one.
    pub(super) fn minimise_choices(&mut self) {
        let mut at = 0;
        while at < self.choices().len() {
            if self.exhausted() {
                return;
            }
            match self.choices()[at].clone() {
                Choice::Pick { index, .. } => {
                    for lower in 0..index {
                        if self.try_with(at, |choice| set_pick(choice, lower)) {
                            break;
                        }
                    }
                }
                Choice::Int { value, lo, hi } => self.minimise_int(at, value, lo, hi),
            }
            at += 1;
        }
    }

    /// Binary search for the integer at `at` nearest its simplest value that still fails.
    pub(super) fn minimise_int(&mut self, at: usize, value: i128, lo: i128, hi: i128) {
        let origin = nearest_zero(lo, hi);
        if value == origin || self.try_int(at, origin) {
            return;
        }
        // Below an origin inside the range, the value as far above is simpler.
        let mirrored = origin
            .checked_add(origin.abs_diff(value).try_into().unwrap_or(i128::MAX))
            .filter(|&mirror| value < origin && mirror <= hi);
        if let Some(mirror) = mirrored
            && self.try_int(at, mirror)
        {
            // Go on from the mirror, if it is still there.
            if let Some(&Choice::Int { value, lo, hi }) = self.choices().get(at)
                && value == mirror
            {
                self.minimise_int(at, value, lo, hi);
            }
            return;
        }
        let toward = |distance: u128| {
            if value > origin {
                origin.wrapping_add_unsigned(distance)
            } else {
                origin.wrapping_sub_unsigned(distance)
            }
        };
        // Fails at distance `far`, not known to fail at `near`.
        let (mut near, mut far) = (0u128, value.abs_diff(origin));
        while far - near > 1 && self.stats.stopped == Stopped::Fixpoint {
            let mid = near + (far - near) / 2;
            let tried = toward(mid);
            if self.try_int(at, tried) {
                // A success can change which choice sits at `at`: go on only if it is the
                // integer just tried.
                if !matches!(self.choices().get(at), Some(Choice::Int { value, .. }) if *value == tried)
                {
                    return;
                }
                far = mid;
            } else {
                near = mid;
            }
        }
        // Just simpler than a value above an origin inside the range is the one a step nearer
        // below it (3 is simpler than -3, but -2 is simpler than 3): a search on one side
        // cannot find it.
        if let Some(&Choice::Int { value, lo, .. }) = self.choices().get(at)
            && value > origin
            && let Some(below) = origin.checked_sub(value - origin - 1)
            && below >= lo
            && below != origin
        {
            self.try_int(at, below);
        }
    }

    /// Tries the best choices with the integer at `at` set to `to`. Where that replays to fewer
    /// choices (a smaller count: fewer elements read) and does not fail, also tries dropping
    /// as many choices at the start of each of the next few spans instead of at the end, so
    /// that the elements kept are the last ones (a matrix of fewer rows keeps the element that
    /// failed); then at the end of each of the next few spans that hold as many, so that what
    /// follows the shorter part keeps its choices (a length drawn before a vector, then an
    /// index into it: the index is not read from an element).
    pub(super) fn try_int(&mut self, at: usize, to: i128) -> bool {
        if at >= self.choices().len() {
            return false;
        }
        let mut edited = self.choices().to_vec();
        set_int(&mut edited[at], to);
        let replayed = match self.attempt(edited.clone()) {
            Attempt::Kept => return true,
            Attempt::Rejected {
                replayed: Some(replayed),
            } => replayed,
            Attempt::Rejected { replayed: None } => return false,
        };
        let dropped = edited.len().saturating_sub(replayed);
        if dropped == 0 {
            return false;
        }
        // The next spans in the order they were opened (by their start, the outer before the
        // inner): first the starts of the next few, then the ends of the next few that hold as
        // many choices (a collection's end before its first element's).
        let spans = || self.best.tree.spans().iter().map(|span| span.range());
        let starts = nearest(
            spans()
                .filter(|range| range.start > at && range.start + dropped <= edited.len())
                .map(|range| range.start..range.start + dropped),
        );
        let ends = nearest(
            spans()
                .filter(|range| range.start > at && range.len() >= dropped)
                .map(|range| range.end - dropped..range.end),
        );
        for cut in starts.into_iter().chain(ends) {
            let mut without = edited.clone();
            without.drain(cut);
            if self.try_choices(without) {
                return true;
            }
        }
        false
    }

    /// Lowers integers that hold the same value together, as one: toward 0 by binary search
    /// (repair clamps a value outside an integer's range into it). Values that must stay equal
    /// (a key and its copy) move only this way.
    pub(super) fn lower_duplicates(&mut self) {
        let mut values: Vec<i128> = self
            .choices()
            .iter()
            .filter_map(|choice| match *choice {
                Choice::Int { value, lo, hi } if value != nearest_zero(lo, hi) => Some(value),
                _ => None,
            })
            .collect();
        values.sort_unstable();
        let duplicated: Vec<i128> = values
            .chunk_by(|a, b| a == b)
            .filter(|run| run.len() > 1)
            .map(|run| run[0])
            .collect();
        for value in duplicated {
            if self.exhausted() {
                return;
            }
            let places: Vec<usize> = (0..self.choices().len())
                .filter(
                    |&i| matches!(self.choices()[i], Choice::Int { value: v, .. } if v == value),
                )
                .collect();
            if places.len() < 2 {
                continue;
            }
            if self.set_all(&places, 0) != Tried::Rejected {
                continue;
            }
            // Fails at distance `far` from 0, not known to fail at `near`.
            let (mut near, mut far) = (0u128, value.unsigned_abs());
            while far - near > 1 && self.stats.stopped == Stopped::Fixpoint {
                let mid = near + (far - near) / 2;
                let tried = if value > 0 {
                    0i128.wrapping_add_unsigned(mid)
                } else {
                    0i128.wrapping_sub_unsigned(mid)
                };
                match self.set_all(&places, tried) {
                    Tried::Kept => far = mid,
                    Tried::Rejected => near = mid,
                    Tried::Reshaped => break,
                }
            }
        }
    }

    /// Shifts the signed integers (those whose range holds values on both sides of 0)
    /// together, so that the least of them becomes 0: what fails by the order of its values
    /// (a heap of -1s and 0s) fails as well with 0s and 1s, which are simpler.
    pub(super) fn shift_integers(&mut self) {
        let signed: Vec<(usize, i128)> = self
            .choices()
            .iter()
            .enumerate()
            .filter_map(|(i, choice)| match *choice {
                Choice::Int { value, lo, hi } if lo < 0 && hi > 0 => Some((i, value)),
                _ => None,
            })
            .collect();
        let Some(least) = signed.iter().map(|&(_, value)| value).min() else {
            return;
        };
        if signed.len() < 2 || least == 0 {
            return;
        }
        let mut shifted = self.choices().to_vec();
        for &(i, value) in &signed {
            let Choice::Int { lo, hi, .. } = shifted[i] else {
                continue;
            };
            let Some(to) = value.checked_sub(least).filter(|to| (lo..=hi).contains(to)) else {
                return;
            };
            set_int(&mut shifted[i], to);
        }
        self.try_choices(shifted);
    }

    /// Tries the best choices with the integers at `places` set to `to`.
    pub(super) fn set_all(&mut self, places: &[usize], to: i128) -> Tried {
        let mut edited = self.choices().to_vec();
        for &i in places {
            set_int(&mut edited[i], to);
        }
        if !self.try_choices(edited) {
            return Tried::Rejected;
        }
        let kept = places.iter().all(
            |&i| matches!(self.choices().get(i), Some(Choice::Int { value, .. }) if *value == to),
        );
        if kept { Tried::Kept } else { Tried::Reshaped }
    }

    /// Moves value between two nearby integers: the first toward its simplest value, the
    /// second away by as much (all of it, then half, ...), so that a sum they make stays and
    /// the first can go. The second wraps around its range, as a fixed-width integer does.
    pub(super) fn redistribute(&mut self) {
        const WINDOW: usize = 16;
        let mut i = 0;
        while i < self.choices().len() {
            if self.exhausted() {
                return;
            }
            for j in i + 1..(i + 1 + WINDOW).min(self.choices().len()) {
                // A success can shorten the choices.
                if j >= self.choices().len() {
                    break;
                }
                let (
                    Choice::Int {
                        value: a,
                        lo: alo,
                        hi: ahi,
                    },
                    Choice::Int {
                        value: b,
                        lo: blo,
                        hi: bhi,
                    },
                ) = (self.choices()[i].clone(), self.choices()[j].clone())
                else {
                    continue;
                };
                let origin = nearest_zero(alo, ahi);
                let mut amount = a.saturating_sub(origin);
                while amount != 0 {
                    if let Some(moved) = add_within(b, amount, blo, bhi) {
                        let mut edited = self.choices().to_vec();
                        set_int(&mut edited[i], a - amount);
                        set_int(&mut edited[j], moved);
                        if self.try_choices(edited) {
                            break;
                        }
                    }
                    amount /= 2;
                }
            }
            i += 1;
        }
    }
}

/// The first [`MAX_PLACES`] distinct ranges of `cuts`.
fn nearest(cuts: impl Iterator<Item = std::ops::Range<usize>>) -> Vec<std::ops::Range<usize>> {
    let mut first: Vec<std::ops::Range<usize>> = Vec::new();
    for cut in cuts {
        if first.len() == MAX_PLACES {
            break;
        }
        if !first.contains(&cut) {
            first.push(cut);
        }
    }
    first
}

/// How many places [`Search::try_int`] tries for each way of dropping the choices a lowered
/// count no longer reads.
const MAX_PLACES: usize = 4;
