//! The size state the engines carry through a run, as plain data: the size strategy, where the
//! run is among nested collections, and the exact share of a nest the next collection takes.
//!
//! The engines only carry this state; the combinators read and set it (`size_strategy`, the
//! collections and their allotment maths beside `repeat`).

use std::fmt;

/// The largest size a run may use (2^20): a larger one would ask generators for more memory
/// than a test has (a list as long as the size). The runner's bound on sizes
/// (`check::MAX_ENV_SIZE`) and `piles`' bound on the choices of a split are this.
pub(crate) const LARGEST_SIZE: usize = 1 << 20;

/// The size [`Generator::sample`](crate::Generator::sample) generates at and reflection
/// assumes, unless told otherwise; the runner's largest size by default, at which a collection
/// with an explicit longest length reaches it.
pub const DEFAULT_SIZE: usize = 100;

/// How collections share their size among their elements; see the module `strategy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Each of `k` elements gets `n / k`: at most `n` values on each level (the default).
    #[default]
    Linear,
    /// Level `t` shares `n·(t+1)`: deeper levels get more, without exponential growth.
    Quadratic,
    /// Every element gets the whole size, as QuickCheck and proptest do: `n^d` values in `d`
    /// levels.
    Exponential,
    /// The collections consume their size: at most `n` values in all.
    Fixed,
    /// As [`Linear`](Strategy::Linear), with one level drawn per value that is full (see the
    /// module `strategy`).
    Partitions,
    /// One of the other five, drawn per value with equal probability.
    Random,
}

impl Strategy {
    /// The five strategies [`Random`](Strategy::Random) draws from, in the order of its
    /// choice.
    pub const CONCRETE: [Strategy; 5] = [
        Strategy::Linear,
        Strategy::Quadratic,
        Strategy::Exponential,
        Strategy::Fixed,
        Strategy::Partitions,
    ];

    /// Every strategy, [`Random`](Strategy::Random) last.
    pub const ALL: [Strategy; 6] = [
        Strategy::Linear,
        Strategy::Quadratic,
        Strategy::Exponential,
        Strategy::Fixed,
        Strategy::Partitions,
        Strategy::Random,
    ];

    /// The strategy's name in lower case, as the choice of [`Random`](Strategy::Random) is
    /// labelled.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Linear => "linear",
            Strategy::Quadratic => "quadratic",
            Strategy::Exponential => "exponential",
            Strategy::Fixed => "fixed",
            Strategy::Partitions => "partitions",
            Strategy::Random => "random",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a run is among nested collections, and under which strategy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizing {
    /// Never [`Strategy::Random`]: that one is resolved where it is set.
    strategy: Strategy,
    /// How many collections enclose the current one.
    level: usize,
    /// Under [`Strategy::Partitions`], the level whose collections are full, once drawn.
    full_level: Option<usize>,
    /// How many levels of collections the next collection holds, itself included, if known
    /// (see the combinator `in_levels`): the levels it draws the full one from.
    levels: usize,
}

impl Default for Sizing {
    fn default() -> Self {
        Sizing::under(Strategy::Linear)
    }
}

impl Sizing {
    /// The same place under `strategy` (a concrete one), with no level drawn yet.
    pub(crate) fn under(strategy: Strategy) -> Sizing {
        Sizing {
            strategy,
            level: 0,
            full_level: None,
            levels: 1,
        }
    }

    /// Whether the strategy bounds a nest's lengths by the size alone: under
    /// [`Fixed`](Strategy::Fixed) the whole nest holds at most the size, and under
    /// [`Partitions`](Strategy::Partitions) a full level is exactly the size long, so an
    /// explicit longest length above the size is not reached there.
    pub(crate) fn lengths_within_size(&self) -> bool {
        matches!(self.strategy, Strategy::Fixed | Strategy::Partitions)
    }

    /// How many levels a collection here draws the full one from, if it must draw it.
    pub(crate) fn full_level_choices(&self) -> Option<usize> {
        (self.strategy == Strategy::Partitions && self.full_level.is_none()).then_some(self.levels)
    }

    /// The same place with the level `below` this one (0: this one) as the full one.
    pub(crate) fn full_at(self, below: usize) -> Sizing {
        Sizing {
            full_level: Some(self.level + below),
            ..self
        }
    }

    /// The lengths a collection here may take, given the least it allows and the longest its
    /// size allows (`min <= upper`), when it takes no share of a budget.
    pub(crate) fn lengths(&self, min: usize, upper: usize) -> (usize, usize) {
        match self.full_level {
            Some(full) if self.level == full => (upper, upper),
            Some(full) if self.level < full => (min.max(1).min(upper), upper),
            _ => (min, upper),
        }
    }

    /// The lengths a collection here may take as its `share` of a budget, given the least and
    /// the most it allows, and the share it draws them from: up to the budget left after the
    /// least length of each sibling after it (so that their shares do not depend on their
    /// positions); at least one above the full level, so that it can be reached, when the
    /// siblings' budget had one for each (when it had not, their elements run at size 0, and
    /// an empty collection leaves no room unused on the full level). A collection that must
    /// be longer than the budget left takes its least length.
    pub(crate) fn share_lengths(
        &self,
        min: usize,
        max: usize,
        share: Share,
    ) -> (usize, usize, Share) {
        let lo = match self.full_level {
            Some(full) if self.level < full && (min > 0 || share.one_each) => min.max(1).min(max),
            _ => min,
        };
        let reserved = share.siblings.saturating_mul(lo);
        let share = Share {
            budget: share.budget.saturating_sub(reserved),
            ..share
        };
        (lo, share.budget.min(max).max(lo), share)
    }

    /// What a collection here of `length` elements at `size` gives its elements' collections
    /// to share (see [`Share`]): a budget, and whether they must use all of it (the full level
    /// under [`Strategy::Partitions`]). `None` under [`Strategy::Exponential`], where each
    /// element has the whole size, and under [`Strategy::Fixed`], where each has an equal part
    /// of what the collection's length leaves (a share drawn unevenly could exceed its part,
    /// and the nest would hold more than the size).
    pub(crate) fn children_budget(&self, size: usize, length: usize) -> Option<(usize, bool)> {
        let budget = match self.strategy {
            Strategy::Exponential | Strategy::Fixed => return None,
            Strategy::Linear | Strategy::Partitions | Strategy::Random => size,
            Strategy::Quadratic => self.element_size(size, length).saturating_mul(length),
        };
        Some((budget, self.full_level == Some(self.level + 1)))
    }

    /// The size each of `length` elements of a collection of size `size` runs at: the size
    /// their own collections divide among their elements.
    pub(crate) fn element_size(&self, size: usize, length: usize) -> usize {
        let length = length.max(1);
        match self.strategy {
            Strategy::Linear | Strategy::Partitions | Strategy::Random => size / length,
            Strategy::Quadratic => {
                let level = self.level as u128;
                let share = size as u128 * (level + 2) / ((level + 1) * length as u128);
                usize::try_from(share).unwrap_or(usize::MAX)
            }
            Strategy::Exponential => size,
            Strategy::Fixed => size.saturating_sub(length) / length,
        }
    }

    /// The same place, before a collection that holds `levels` levels of collections (see the
    /// combinator `in_levels`).
    pub(crate) fn holding(self, levels: usize) -> Sizing {
        Sizing { levels, ..self }
    }

    /// The place of a collection's elements.
    pub(crate) fn inside(self) -> Sizing {
        Sizing {
            level: self.level + 1,
            levels: 1,
            ..self
        }
    }
}

/// The share of a budget the next collection takes, set by the collection around it for each
/// of its elements: the first collection inside the element (the element itself, or one inside
/// a tuple, an option, a derived type) takes a share of the budget left as its length, drawn
/// so that every split of the budget among the siblings is equally likely (the Agata thesis'
/// division of size among the values of one level). What it leaves is the next sibling's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Share {
    /// The units left.
    pub(crate) budget: usize,
    /// How many piles share them after this one: the siblings after it, and the unused rest
    /// unless the level must be full.
    pub(crate) parts: usize,
    /// The siblings after this one, each of which takes at least its least length.
    pub(crate) siblings: usize,
    /// Whether the budget the siblings started with had a unit for each of them.
    pub(crate) one_each: bool,
}
