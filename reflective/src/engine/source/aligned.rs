//! The aligned source: replays an edited choice tree span by span, so that an edit stays
//! where it was made.
//!
//! Plain replay reads the recorded choices in order: when an edit makes one part of the value
//! take fewer or more choices (a nudged key empties a subtree's range), every later part reads
//! its neighbour's choices, and the value changes everywhere after the edit. This source
//! follows the forward run's spans instead: the `j`-th span opened inside a recorded span
//! reads the recorded span's `j`-th child, a span never reads past the end of its recorded
//! counterpart (it draws at random instead), and a span with no counterpart is drawn at
//! random. What the edit does not touch replays as it was.

use rand_core::Rng;

use super::draws::Draws;
use super::random::RandomSource;
use super::{ChoiceSource, Halt, IntSite, PickSite};
use crate::choice::{Choice, ChoiceTree, Grouped};

/// How many draws a reroll of an integer makes, as the generator draws, to find a value other
/// than the recorded one before it draws uniformly among the others.
const REROLL_TRIES: usize = 16;

/// Where the run is among the recorded spans.
struct Level {
    /// The recorded span this level reads, if it has a counterpart.
    span: Option<usize>,
    /// The recorded span this level stands for but draws afresh, if it is the one regenerated.
    regenerated: Option<usize>,
    /// The next child of that span to hand out.
    next_child: usize,
    /// How far the run may read at this level: the end of the innermost recorded span it is
    /// in (the choices' end if none).
    limit: usize,
}

/// How a recorded tree's spans nest, as [`AlignedSource`] follows them: worked out once per
/// tree, for a tree edited and replayed many times (a mutator's seed).
#[derive(Clone, Debug)]
pub(crate) struct SpanLayout {
    /// Each recorded span's range.
    ranges: Vec<std::ops::Range<usize>>,
    /// Each span's children, in order, and the top-level spans as the children of
    /// `ranges.len()`.
    children: Grouped,
    /// How deep the spans nest: a replay's levels, but for those with no counterpart.
    depth: usize,
}

impl SpanLayout {
    /// How `tree`'s spans nest.
    pub(crate) fn of(tree: &ChoiceTree) -> SpanLayout {
        let ranges: Vec<std::ops::Range<usize>> =
            tree.spans().iter().map(|span| span.range()).collect();
        let top = ranges.len();
        // Each span's parent (`top` for a top-level span); spans are stored by their start.
        let mut parents = Vec::with_capacity(top);
        let mut open: Vec<usize> = Vec::new();
        let mut depth = 0;
        for (index, range) in ranges.iter().enumerate() {
            while open.last().is_some_and(|&outer| {
                let outer = &ranges[outer];
                let inside = outer.start <= range.start
                    && range.end <= outer.end
                    && !(range.is_empty() && range.start == outer.end);
                outer.is_empty() || !inside
            }) {
                open.pop();
            }
            parents.push(open.last().copied().unwrap_or(top));
            open.push(index);
            depth = depth.max(open.len());
        }
        let children = Grouped::by_parent(&parents, top + 1);
        SpanLayout {
            ranges,
            children,
            depth,
        }
    }

    /// The children of span `span` (an index into the tree's spans), or the top-level spans
    /// for `ranges.len()`.
    fn children(&self, span: usize) -> &[usize] {
        self.children.of(span)
    }
}

/// Replays `choices` with the structure of a tree's spans (its [`SpanLayout`]; the choices
/// are the tree's, edited in place), drawing at random where they run out or do not fit.
pub(crate) struct AlignedSource<'c, 'r, R: Rng + ?Sized> {
    choices: &'c [Choice],
    /// How the recorded spans nest.
    layout: &'c SpanLayout,
    levels: Vec<Level>,
    position: usize,
    /// How far the current level may read: the last level's `limit`, kept here too because
    /// every choice read compares with it.
    limit: usize,
    /// How many open spans have no counterpart (their choices are drawn at random).
    unmatched: usize,
    random: RandomSource<'r, R>,
    /// The position whose choice is drawn again, other than recorded where it can be.
    reroll: Option<usize>,
    /// The recorded span drawn afresh, as if it had no counterpart.
    regenerate: Option<usize>,
    /// The position read as another choice than recorded, and that choice.
    set: Option<(usize, &'c Choice)>,
    /// The values drawn at random (a reroll's draws again counting as one), followed if a
    /// caller sets them to [`Draws::stopping`] before the replay.
    pub(crate) draws: Draws<'c>,
}

impl<'c, 'r, R: Rng + ?Sized> AlignedSource<'c, 'r, R> {
    /// Replays `choices` (of the tree's length) with the tree's spans, laid out in `layout`.
    pub(crate) fn new(layout: &'c SpanLayout, choices: &'c [Choice], rng: &'r mut R) -> Self {
        // Room for the recorded spans' levels, the top and a few unmatched ones: a replay
        // that stays near the recorded tree pushes no level past it.
        let mut levels = Vec::with_capacity(layout.depth + 8);
        levels.push(Level {
            span: None,
            regenerated: None,
            next_child: 0,
            limit: choices.len(),
        });
        AlignedSource {
            choices,
            layout,
            levels,
            position: 0,
            limit: choices.len(),
            unmatched: 0,
            random: RandomSource::new(rng),
            reroll: None,
            regenerate: None,
            set: None,
            draws: Draws::unfollowed(),
        }
    }

    /// Draws the recorded span `span` (an index into the tree's spans) afresh, everything
    /// around it replayed as it was.
    pub(crate) fn regenerating(mut self, span: usize) -> Self {
        self.regenerate = Some(span);
        self
    }

    /// Draws the choice at `position` again, avoiding the recorded value where it can.
    pub(crate) fn rerolling(mut self, position: usize) -> Self {
        self.reroll = Some(position);
        self
    }

    /// Reads `choice` at `position` instead of the recorded choice: the choices edited in
    /// place without a copy of them all.
    pub(crate) fn setting(mut self, position: usize, choice: &'c Choice) -> Self {
        self.set = Some((position, choice));
        self
    }

    /// The recorded choice to read next, with whether it is to be drawn again; `None` where
    /// the current span has no more (or no counterpart).
    fn next(&mut self) -> Option<(&'c Choice, bool)> {
        if self.unmatched > 0 || self.position >= self.limit {
            return None;
        }
        let at = self.position;
        self.position += 1;
        let choice = match self.set {
            Some((set, choice)) if set == at => choice,
            _ => &self.choices[at],
        };
        Some((choice, self.reroll == Some(at)))
    }

    /// The children of the span the current level reads (the top-level spans at the top).
    fn children_here(&self) -> Option<&'c [usize]> {
        let level = self.levels.last()?;
        match level.span {
            Some(span) => Some(self.layout.children(span)),
            None if self.levels.len() == 1 => Some(self.layout.children(self.layout.ranges.len())),
            None => None,
        }
    }
}

impl<R: Rng + ?Sized> ChoiceSource for AlignedSource<'_, '_, R> {
    fn pick(&mut self, site: &PickSite<'_>) -> Result<u32, Halt> {
        let avoid = match self.next() {
            Some((Choice::Pick { index, .. }, reroll)) => {
                if site.takes(*index) && !reroll {
                    return Ok(*index);
                }
                reroll.then_some(*index)
            }
            _ => None,
        };
        let drawn = match avoid {
            Some(avoid) => self.random.pick_other_than(site, avoid),
            None => self.random.pick(site)?,
        };
        self.draws.drew(i128::from(drawn))?;
        Ok(drawn)
    }

    fn int(&mut self, site: &IntSite) -> Result<i128, Halt> {
        let avoid = match self.next() {
            Some((Choice::Int { value, .. }, reroll)) => {
                if site.holds(*value) && !reroll {
                    return Ok(*value);
                }
                reroll.then_some(*value)
            }
            _ => None,
        };
        let drawn = match avoid {
            Some(avoid) => self.random.int_other_than(site, avoid, REROLL_TRIES),
            None => self.random.int(site)?,
        };
        self.draws.drew(drawn)?;
        Ok(drawn)
    }

    fn follows_spans(&self) -> bool {
        true
    }

    fn span_opened(&mut self, at_last: bool) {
        let child = if self.unmatched > 0 {
            None
        } else {
            let next_child = self.levels.last().map_or(0, |level| level.next_child);
            self.children_here()
                .and_then(|children| children.get(next_child).copied())
        };
        if let Some(level) = self.levels.last_mut() {
            level.next_child += 1;
        }
        let regenerated = child.filter(|&span| self.regenerate == Some(span));
        let child = child.filter(|&span| self.regenerate != Some(span));
        match child {
            Some(span) => {
                let range = self.layout.ranges[span].clone();
                self.position = if at_last {
                    range.start + 1
                } else {
                    range.start
                };
                self.limit = range.end;
            }
            None => self.unmatched += 1,
        }
        self.levels.push(Level {
            span: child,
            regenerated,
            next_child: 0,
            limit: self.limit,
        });
    }

    fn span_closed(&mut self) {
        let Some(level) = self.levels.pop() else {
            return;
        };
        match level.span {
            Some(span) => self.position = self.layout.ranges[span].end,
            None => self.unmatched = self.unmatched.saturating_sub(1),
        }
        if let Some(regenerated) = level.regenerated {
            self.position = self.layout.ranges[regenerated].end;
        }
        self.limit = self
            .levels
            .last()
            .map_or(self.choices.len(), |level| level.limit);
    }
}
