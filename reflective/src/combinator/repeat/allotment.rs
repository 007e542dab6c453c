//! Exact sizes for collections of collections: the Agata thesis' division of size across the
//! values of one level (section 2.1.3).
//!
//! The outermost collection of a nest (a `Vec<Vec<u8>>`, a `Vec<String>`) draws its length,
//! then one total per level below it: how many elements all the collections on that level
//! hold together (under the linear strategy, each total up to the size). It splits each total
//! among its elements with [`piles`](crate::piles), every split equally likely, and each
//! element collection takes its share as an [`Allotment`]: its exact length and the totals of
//! the levels below it, which it splits the same way. A level's total is split only among the
//! elements that have collections on that level (an empty collection has none), so every
//! allotment is used exactly.
//!
//! A value therefore determines its allotments: backward, each element collection measures
//! itself, and its parent records the totals and splits that produce those measures.

use crate::combinator::piles::piles;
use crate::engine::{Allotment, Backward, Forward, Halt, IntSite, ReflectError, Sizing, Trace};
use crate::node::Node;

/// The totals an outermost collection's level `depth` below it (1: its elements) may have,
/// at `size`, after the totals `above` it (its own length first): none but 0 when the level
/// above is empty.
fn total_range(sizing: &Sizing, size: usize, depth: usize, above: &[usize]) -> (usize, usize) {
    let previous = *above.last().expect("the outermost length comes first");
    if previous == 0 {
        return (0, 0);
    }
    let used = above
        .iter()
        .fold(0usize, |sum, &total| sum.saturating_add(total));
    sizing.level_total(size, depth, used)
}

/// Whether `total` values can be split among `shares` collections: [`piles`] takes at most
/// `u32::MAX` units and piles in all.
fn splittable(shares: usize, total: usize) -> bool {
    shares
        .checked_add(total)
        .is_some_and(|all| u32::try_from(all).is_ok())
}

/// Draws the totals of the `levels` levels below an outermost collection of length `own`.
pub(crate) fn draw_totals(
    run: &mut Forward<'_>,
    levels: usize,
    own: usize,
) -> Result<Vec<usize>, Halt> {
    if levels == 0 {
        return Ok(Vec::new());
    }
    let (size, sizing) = (run.size, run.sizing);
    let mut totals = vec![own];
    for depth in 1..=levels {
        let (lo, hi) = total_range(&sizing, size, depth, &totals);
        let total = if lo == hi {
            lo
        } else {
            run.int(&IntSite::count(lo, hi, size))? as usize
        };
        totals.push(total);
    }
    totals.remove(0);
    Ok(totals)
}

/// The trace and log-probability of the totals `below` of an outermost collection of length
/// `own`; `None` if they are out of range at this size.
pub(crate) fn totals_trace(run: &Backward, own: usize, below: &[usize]) -> Option<(Trace, f64)> {
    if below.is_empty() {
        return Some((Trace::empty(), 0.0));
    }
    let mut totals = vec![own];
    let mut steps = Vec::new();
    let mut log_probability = 0.0;
    for (depth, &total) in below.iter().enumerate() {
        let (lo, hi) = total_range(&run.sizing, run.size, depth + 1, &totals);
        if total < lo || total > hi {
            return None;
        }
        if lo < hi {
            steps.push(Trace::choice(crate::choice::Choice::Int {
                value: total as i128,
                lo: lo as i128,
                hi: hi as i128,
            }));
            log_probability -= ((hi - lo) as f64 + 1.0).ln();
        }
        totals.push(total);
    }
    Some((Trace::many(steps), log_probability))
}

/// Splits a collection's totals `below` among its `own` elements: the first among all of
/// them, each further one among the elements with something on the level above it. No shares
/// when there are no totals: the elements are not collections of a nest.
pub(crate) fn split(
    run: &mut Forward<'_>,
    own: usize,
    below: &[usize],
) -> Result<Vec<Allotment>, Halt> {
    if below.is_empty() {
        return Ok(Vec::new());
    }
    let mut children = vec![Allotment::default(); own];
    for (level, &total) in below.iter().enumerate() {
        let able: Vec<usize> = (0..own)
            .filter(|&i| level == 0 || children[i].on(level - 1) > 0)
            .collect();
        if !splittable(able.len(), total) {
            return Err(Halt::Failed(format!(
                "{total} values to split among {} collections: too many at once (at most \
                 u32::MAX in all); generate at a smaller size",
                able.len()
            )));
        }
        let shares = piles(able.len(), total).forward(run)?;
        for (&i, share) in able.iter().zip(shares) {
            if level == 0 {
                children[i].own = share;
            } else {
                children[i].below.push(share);
            }
        }
        for child in children.iter_mut().filter(|c| c.below.len() < level) {
            child.below.push(0);
        }
    }
    Ok(children)
}

/// The trace and log-probability of the splits that give `children` their allotments, and the
/// totals they add up to; `None` if the children cannot have come from one split (an element
/// with something on a level below an empty one).
pub(crate) fn split_trace(
    run: &mut Backward,
    children: &[Allotment],
    levels: usize,
) -> Result<Option<(Vec<usize>, Trace, f64)>, ReflectError> {
    if levels == 0 {
        return Ok(Some((Vec::new(), Trace::empty(), 0.0)));
    }
    let mut totals = Vec::with_capacity(levels);
    let mut steps = Vec::new();
    let mut log_probability = 0.0;
    for level in 0..levels {
        let mut shares = Vec::new();
        for child in children {
            let share = child.on(level);
            if level == 0 || child.on(level - 1) > 0 {
                shares.push(share);
            } else if share > 0 {
                return Ok(None);
            }
        }
        let total = shares
            .iter()
            .try_fold(0usize, |sum, &share| sum.checked_add(share));
        let Some(total) = total.filter(|&total| splittable(shares.len(), total)) else {
            return Ok(None);
        };
        let Some(way) = piles(shares.len(), total).backward(&shares, run, 1)?.pop() else {
            return Ok(None);
        };
        steps.push(way.trace);
        log_probability += way.log_probability;
        totals.push(total);
    }
    Ok(Some((totals, Trace::many(steps), log_probability)))
}
