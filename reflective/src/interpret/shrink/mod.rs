//! The choice shrinker: simpler choice sequences that still fail, found by named passes looped
//! to a fixpoint, as Hypothesis's internal reduction does (the paper, section 6).
//!
//! A candidate is an edited choice sequence. It is replayed with repair (a choice that no
//! longer fits takes the simplest value, one left over is dropped), and kept if the choices
//! replay actually made are shortlex-smaller than the best so far and the value still fails.
//! Because generators reflect, the start can be any value the generator can produce: its
//! choices come from reflection.
//!
//! The passes, in order, each with one job:
//!
//! 1. *zero elements*: set runs of a collection's elements to their simplest choices;
//! 2. *delete elements*: delete runs of a collection's elements, its length lowered by as many
//!    (both grow their runs by doubling and back off by halving, so a list of 10 000
//!    elements loses most of them in a few evaluations); an inner collection of a nest is an
//!    element like any other, empty or not;
//! 3. *merge collections*: merge two sibling collections of a nest into one;
//! 4. *move elements*: move an element from a collection of a nest to the next one;
//! 5. *replace by a span*: the whole sequence replaced by one of its spans (the paper's first);
//! 6. *replace by a nested span*: a span replaced by a span at most three levels inside it
//!    that opens with a pick of the same arity (a subtree for its tree, nearest first), then
//!    also with its integers negated (all, then one at a time in a small span:
//!    `Neg(Lit(-100))` to `Lit(100)` in one step);
//! 7. *delete spans*: delete a span that is not a collection's element;
//! 8. *delete blocks*: delete 8, 4, 2 or 1 consecutive choices;
//! 9. *zero spans*: set a span's choices to their simplest (the paper's second), a collection
//!    inside emptied;
//! 10. *simpler branches*: put a pick on a simpler branch with the simplest choices for it,
//!     then also with one of its integers one step from its simplest;
//! 11. *minimise choices*: the lowest pick index, an integer by binary search toward its
//!     simplest value (trying its mirror first when the simplest lies between, and the value
//!     a step simpler on the other side last);
//! 12. *lower duplicates*: integers holding the same value lowered together;
//! 13. *shift integers*: every signed integer moved by the same amount, the least to 0 (what
//!     fails by the order of its values fails with 0s and 1s as with -1s and 0s);
//! 14. *redistribute*: move value between two nearby integers, so that a sum they make stays
//!     and the first can go;
//! 15. *swap siblings*: swap two adjacent spans of one kind when the other order is simpler
//!     (the paper's third);
//! 16. *hoist into empty*: move a pick's span out of an element of a collection into an
//!     earlier empty collection, deleting the element (an expression out of a statement into
//!     the arguments before it);
//! 17. *delete together*: once the others change nothing, delete the last element of two
//!     collections as long as each other at once (a list and a string that must stay as
//!     long as each other to fail);
//! 18. *try small values*: once the others change nothing and the best is at most 16 choices
//!     long, walk the sequences no longer than it, depth first and simplest first, each
//!     integer taking its three simplest values (SmallCheck's enumeration, bounded to 1024
//!     sequences, and to as many evaluations as the shrink made before it, at least 64 and at
//!     most 256): minima no chain of local edits reaches (a heap of four values in another
//!     shape, a list one element shorter with every element renumbered).
//!
//! Before the passes, a generated value moves to the smallest size at which its choices
//! replay to it (as a value given from outside is reflected at the smallest size that
//! produces it), so that both shrink alike; so does the best at each fixpoint of the passes,
//! which go on at the smaller size if it moved (with their memory of what passed forgotten),
//! so that shrinking the result again, as a run that replays it from the regressions file
//! does, finds nothing simpler.
//!
//! Integers also get a second try when lowering one makes the choices after it too many (a
//! smaller count): the same lowering with as many choices dropped at the start of the spans
//! after it instead of at the end, so that what fails survives (a matrix of fewer rows).
//!
//! The shrinker remembers the choices that did not fail, and does not evaluate them again.
//! It stops at a fixpoint of every pass or when its [`ShrinkBudget`] runs out, and reports why
//! in its [`ShrinkStats`], with the evaluations, steps and time of each pass.
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | the entry: the start's choices by reflection, the loop over the passes |
//! | `search.rs` | the state of a shrink, and how a candidate is tried and kept |
//! | `passes/` | the passes, one file per family, and their order |
//! | `edit.rs` | small edits of single choices the passes share |
//! | `cache.rs` | the choices that did not fail, not evaluated again |
//! | `budget.rs`, `stats.rs` | how far a shrink may go; what it did |

use std::time::{Duration, Instant};

use crate::choice::ChoiceTree;
use crate::engine::Budgets;
use crate::node::Node;

use super::generate::Generated;
use super::reflect::{TooManyWays, doubling_sizes, simplest_choices};

mod budget;
mod cache;
mod edit;
mod passes;
mod search;
mod stats;

pub use budget::{DEFAULT_MAX_EVALUATIONS, DEFAULT_MAX_TIME, ShrinkBudget};
pub use stats::{PassStats, ShrinkStats, Stopped};

use cache::Passed;
use search::Search;

/// The largest size at which [`Generator::shrink`](crate::Generator::shrink) looks for the choices of a value it did not
/// generate.
pub const MAX_REFLECTION_SIZE: usize = 1 << 24;

/// The simplest choices that produce `value`, at the smallest of the sizes 0, 1, 2, 4, 8, ...
/// (up to [`MAX_REFLECTION_SIZE`]) at which the generator produces it. The smallest size gives
/// the shrinker the narrowest ranges, and makes the start canonical: a value shrinks the same
/// way whatever size it was generated at. `None` if the generator produces it at none of them
/// (a value with too many ways to list starts from the simplest of the first ways found;
/// reflection that runs out of its budget even so at one size goes on to the next, but for
/// three sizes in a row: see `simplest_choices`).
pub(crate) fn choices_of<G: Node>(g: &G, value: &G::Input) -> Option<ChoiceTree> {
    simplest_choices(
        g,
        value,
        doubling_sizes(0, MAX_REFLECTION_SIZE),
        Budgets::default(),
        TooManyWays::SimplestOfFirst,
    )
    .ok()
}

/// The result of a shrink: the simplest failing value found, its choices, and the statistics.
#[derive(Clone, Debug)]
pub struct Shrunk<T> {
    /// The value.
    pub value: T,
    /// Its choices.
    pub tree: ChoiceTree,
    /// What the shrink did.
    pub stats: ShrinkStats,
}

/// Shrinks `start`, a failing value of `g` with its choices, within the budgets.
pub(crate) fn shrink<G: Node>(
    g: &G,
    start: Generated<G::Output>,
    still_fails: &dyn Fn(&G::Output) -> bool,
    budget: ShrinkBudget,
) -> Shrunk<G::Output> {
    let passes = passes::in_order::<G>();
    let mut search = Search {
        g,
        still_fails,
        best: start,
        stats: ShrinkStats {
            passes: passes
                .iter()
                .map(|&(name, _)| PassStats {
                    name,
                    evaluations: 0,
                    steps: 0,
                    time: Duration::ZERO,
                })
                .collect(),
            ..ShrinkStats::default()
        },
        pass: 0,
        passed: Passed::default(),
        max_evaluations: budget.evaluations,
        // A budget too long to add to the clock has no deadline.
        deadline: Instant::now().checked_add(budget.time),
        started: Instant::now(),
    };
    search.start_at_smallest_size();
    let every_round = passes.len() - passes::AT_FIXPOINT;
    loop {
        let changed = run_passes(&mut search, &passes, 0..every_round)
            || run_passes(&mut search, &passes, every_round..passes.len());
        if search.stats.stopped != Stopped::Fixpoint {
            break;
        }
        if !changed {
            // A fixpoint at this size; the best, simpler than the start, may replay at a
            // smaller one, where the passes (which generate at the best's size) may go on, as
            // a shrink that starts from it would.
            let (size, evaluations) = (search.best.tree.size(), search.stats.evaluations);
            search.start_at_smallest_size();
            // Counted with the pass that ran last, at this fixpoint: the walk over small
            // values, which generates at the best's size.
            search.stats.passes[search.pass].evaluations += search.stats.evaluations - evaluations;
            if search.best.tree.size() >= size {
                break;
            }
            // What did not fail at the old size may at the new one.
            search.passed = Passed::default();
        }
    }
    search.stats.time = search.started.elapsed();
    Shrunk {
        value: search.best.value,
        tree: search.best.tree,
        stats: search.stats,
    }
}

/// Runs the passes at `indices` once each, in order; whether any kept a candidate.
fn run_passes<'s, G: Node>(
    search: &mut Search<'s, G>,
    passes: &[(&'static str, passes::Pass<'s, G>)],
    indices: std::ops::Range<usize>,
) -> bool {
    let before = search.stats.steps;
    for index in indices {
        search.pass = index;
        let started = Instant::now();
        (passes[index].1)(search);
        search.stats.passes[index].time += started.elapsed();
    }
    search.stats.steps > before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;

    type Lists = Gen<Vec<u32>, Vec<u32>>;

    /// The generator of lists, and a failing list with its choices.
    fn start() -> (Lists, Generated<Vec<u32>>) {
        let g = vec(range(0u32..=1000), ..).boxed();
        let tree = g.reflector().choices(&vec![900; 30]).unwrap().remove(0);
        let generated = g.replay_repaired(&tree).unwrap();
        (g, generated)
    }

    /// The property, failing on lists that sum past 500.
    #[allow(
        clippy::ptr_arg,
        reason = "the shrinker passes the generator's output, a Vec"
    )]
    fn fails(xs: &Vec<u32>) -> bool {
        xs.iter().sum::<u32>() > 500
    }

    #[test]
    fn budgets_stop_the_shrink_and_say_so() {
        let (g, generated) = start();
        let few = shrink(
            &g,
            generated.clone(),
            &fails,
            ShrinkBudget::default().max_evaluations(5),
        );
        assert_eq!(few.stats.stopped, Stopped::Evaluations);
        assert_eq!(few.stats.evaluations, 5);
        assert!(fails(&few.value));
        let no_time = shrink(
            &g,
            generated.clone(),
            &fails,
            ShrinkBudget::default().max_time(Duration::ZERO),
        );
        assert_eq!(no_time.stats.stopped, Stopped::Time);
        assert_eq!(no_time.value, generated.value);
        let whole = shrink(&g, generated, &fails, ShrinkBudget::default());
        assert_eq!(whole.stats.stopped, Stopped::Fixpoint);
        assert_eq!(whole.value, [501]);
        assert_eq!(whole.stats.passes.len(), 18);
    }
}
