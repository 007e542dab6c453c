//! A source that walks every choice sequence in turn, depth first: the enumeration behind
//! `Generator::enumerate`, after SmallCheck and the Agata
//! thesis' `agataSC` (section 2.2.4).
//!
//! Each run replays the options taken so far and takes the first option at every new choice;
//! between runs the last choice that has options left moves to its next one, and the choices
//! after it are forgotten. A pick's options are its branches of non-zero weight, in order; a
//! count's (a length, a level's total) every value; another integer's its `width` simplest
//! values (0, 1, -1, 2, ... within the range), so that an enumeration is finite.

use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::nearest_zero;

/// The choices of the current run, and which option each takes.
#[derive(Debug)]
pub(crate) struct Exhaustive {
    /// For each choice so far: the option taken and how many there are.
    taken: Vec<(usize, usize)>,
    /// The next choice of the current run.
    at: usize,
    /// How many of an integer's simplest values are options.
    width: usize,
    /// The most choices a sequence may have: a run that asks for more halts.
    max_choices: usize,
    /// Whether every sequence has been walked.
    done: bool,
}

impl Exhaustive {
    /// A walk that gives each integer its `width` simplest values (at least one).
    pub(crate) fn new(width: usize) -> Self {
        Exhaustive::bounded(width, usize::MAX)
    }

    /// A walk that gives each integer its `width` simplest values (at least one) and halts
    /// every run that asks for more than `max_choices` choices; a count takes no value above
    /// the choices left after it.
    pub(crate) fn bounded(width: usize, max_choices: usize) -> Self {
        Exhaustive {
            taken: Vec::new(),
            at: 0,
            width: width.max(1),
            max_choices,
            done: false,
        }
    }

    /// Whether a run remains.
    pub(crate) fn has_next(&self) -> bool {
        !self.done
    }

    /// Moves to the next sequence after a run: the last choice with options left takes its
    /// next one, and the choices after it are forgotten.
    pub(crate) fn advance(&mut self) {
        self.taken.truncate(self.at);
        self.at = 0;
        while let Some((option, options)) = self.taken.last_mut() {
            if *option + 1 < *options {
                *option += 1;
                return;
            }
            self.taken.pop();
        }
        self.done = true;
    }

    /// The option of the next choice, which has `options` of them.
    fn next(&mut self, options: usize) -> usize {
        let option = match self.taken.get(self.at) {
            Some(&(option, _)) => option,
            None => {
                self.taken.push((0, options));
                0
            }
        };
        self.at += 1;
        option
    }
}

/// The `rank`-th simplest integer in `lo..=hi` by [`Choice::simplicity`]'s order
/// (0, 1, -1, 2, -2, ... around the value nearest zero), if the range has that many.
///
/// [`Choice::simplicity`]: crate::choice::Choice::simplicity
fn simplest(lo: i128, hi: i128, rank: usize) -> Option<i128> {
    let origin = nearest_zero(lo, hi);
    let rank = rank as u128;
    // Distances from the origin, which fit a u128 however wide the range.
    let above = hi.abs_diff(origin);
    let below = origin.abs_diff(lo);
    let up = |distance: u128| (distance <= above).then(|| origin.wrapping_add_unsigned(distance));
    let down = |distance: u128| (distance <= below).then(|| origin.wrapping_sub_unsigned(distance));
    if below == 0 {
        // On one side of zero (or at it): by distance alone.
        return up(rank);
    }
    if above == 0 {
        return down(rank);
    }
    // Both sides: above and below alternate until one runs out, then the other goes on.
    let both = above.min(below);
    if rank <= 2 * both {
        return Some(match rank {
            0 => origin,
            r if r % 2 == 1 => origin.wrapping_add_unsigned(r.div_ceil(2)),
            r => origin.wrapping_sub_unsigned(r / 2),
        });
    }
    let beyond = both + (rank - 2 * both);
    if above > below {
        up(beyond)
    } else {
        down(beyond)
    }
}

impl ChoiceSource for Exhaustive {
    fn redraws(&self) -> bool {
        false
    }

    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        if self.at >= self.max_choices {
            return Err(Halt::Misfit);
        }
        let branches = site.branches;
        let live: Vec<usize> = (0..branches.arity())
            .filter(|&index| branches.weight(index) > 0)
            .collect();
        if live.is_empty() {
            return Err(Halt::Failed(
                "a pick without a branch of positive weight".into(),
            ));
        }
        let option = self.next(live.len());
        Ok(live[option] as u32)
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        if self.at >= self.max_choices {
            return Err(Halt::Misfit);
        }
        let span = site.hi.abs_diff(site.lo);
        let all = usize::try_from(span)
            .ok()
            .and_then(|span| span.checked_add(1));
        // The choices a sequence may still make after this one: a bounded walk takes no
        // count above it (elements of a collection make choices, but for zero-sized ones).
        let left = self.max_choices.saturating_sub(self.at + 1);
        let options = match all {
            // A count is bounded by the size: every value.
            Some(all) if site.counts => all.min(left.saturating_add(1)),
            Some(all) => all.min(self.width),
            None => self.width,
        };
        let option = self.next(options);
        Ok(simplest(site.lo, site.hi, option).expect("the option is within the range"))
    }
}

#[cfg(test)]
mod tests {
    use super::simplest;
    use crate::choice::Choice;

    /// The ranks follow the simplicity order, over ranges on both sides and on one side of 0.
    #[test]
    fn simplest_values_are_in_simplicity_order() {
        for (lo, hi) in [
            (-3, 10),
            (-10, 3),
            (-4, 4),
            (2, 9),
            (-9, -2),
            (0, 0),
            (-1, 0),
        ] {
            let values: Vec<i128> = (0..).map_while(|rank| simplest(lo, hi, rank)).collect();
            assert_eq!(
                values.len() as i128,
                hi - lo + 1,
                "every value of {lo}..={hi}"
            );
            let ranks: Vec<u128> = values
                .iter()
                .map(|&value| Choice::Int { value, lo, hi }.simplicity())
                .collect();
            assert!(
                ranks.windows(2).all(|pair| pair[0] < pair[1]),
                "{lo}..={hi}: {values:?} ranked {ranks:?}"
            );
        }
        // The widest range: its simplest values, without overflow.
        let values: Vec<i128> = (0..5)
            .map_while(|rank| simplest(i128::MIN, i128::MAX, rank))
            .collect();
        assert_eq!(values, [0, 1, -1, 2, -2]);
        assert_eq!(simplest(i128::MIN, -5, 2), Some(-7));
        assert_eq!(simplest(5, i128::MAX, 2), Some(7));
    }
}
