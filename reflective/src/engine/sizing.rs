//! The size state the engines carry through a run, as plain data: the size strategy, where the
//! run is among nested collections, and the exact share of a nest the next collection takes.
//!
//! The engines only carry this state; the combinators read and set it (`size_strategy`, the
//! collections and their allotment maths beside `repeat`).

use std::fmt;

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
    /// (see [`in_levels`]): the levels it draws the full one from.
    levels: usize,
    /// How many levels of sequences nest at the top of the next collection, itself included:
    /// those below it take an exact [allotment](crate::allotment).
    sequences: usize,
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
            sequences: 0,
        }
    }

    /// How many levels below it a collection here splits exactly among its elements (see
    /// [`allotment`](crate::allotment)): the levels of sequences below it, and none under
    /// [`Strategy::Exponential`], where every element has the whole size.
    pub(crate) fn exact_levels(&self) -> usize {
        if self.strategy == Strategy::Exponential {
            0
        } else {
            self.sequences.saturating_sub(1)
        }
    }

    /// The totals the level `depth` below an outermost collection here may have at `size`,
    /// when the collection and the levels above hold `used` values.
    pub(crate) fn level_total(&self, size: usize, depth: usize, used: usize) -> (usize, usize) {
        match self.strategy {
            Strategy::Quadratic => (0, size.saturating_mul(depth + 1)),
            Strategy::Fixed => (0, size.saturating_sub(used)),
            Strategy::Partitions => match self.full_level {
                Some(full) if self.level + depth == full => (size, size),
                Some(full) if self.level + depth < full => (size.min(1), size),
                _ => (0, size),
            },
            Strategy::Linear | Strategy::Exponential | Strategy::Random => (0, size),
        }
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
    /// size allows (`min <= upper`).
    pub(crate) fn lengths(&self, min: usize, upper: usize) -> (usize, usize) {
        match self.full_level {
            Some(full) if self.level == full => (upper, upper),
            Some(full) if self.level < full => (min.max(1).min(upper), upper),
            _ => (min, upper),
        }
    }

    /// The size each of `length` elements of a collection of size `size` runs at (the totals
    /// of a nest of sequences are [`level_total`](Sizing::level_total)).
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

    /// The same place, before a collection that holds `levels` levels of collections of which
    /// the top `sequences` are sequences (see the combinator `in_levels`).
    pub(crate) fn holding(self, levels: usize, sequences: usize) -> Sizing {
        Sizing {
            levels,
            sequences,
            ..self
        }
    }

    /// The place of a collection's elements.
    pub(crate) fn inside(self) -> Sizing {
        Sizing {
            level: self.level + 1,
            levels: 1,
            sequences: 0,
            ..self
        }
    }
}

/// A collection's exact share of a nest: its length, and the total length of the collections
/// on each level below it (the first: its elements' lengths together).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Allotment {
    pub(crate) own: usize,
    pub(crate) below: Vec<usize>,
}

impl Allotment {
    /// The allotment's total on `level`: 0 is its own length, 1 the first level below, ...
    pub(crate) fn on(&self, level: usize) -> usize {
        match level {
            0 => self.own,
            level => self.below.get(level - 1).copied().unwrap_or(0),
        }
    }
}
