//! Completion's holes, as the combinators that reach parts of a value (a focus, a collection's
//! elements) fill them: generated forward where the backward run is.

use crate::engine::source::random::RandomSource;
use crate::engine::{Backward, Forward, Reflected, Solution, Trace};
use crate::node::Node;

/// The one way to fill a hole of a completion: `g` run forward at random, where the backward
/// run is among sizes and shares; no way if generation fails.
pub(crate) fn generate_in_hole<G: Node>(g: &G, run: &mut Backward) -> Reflected<G::Output> {
    // A hole inside a recursive value is filled as a node inside it.
    let placement = run.placement();
    let Some(holes) = run.holes.as_mut() else {
        return Ok(Vec::new());
    };
    let mut source = RandomSource::new(&mut holes.rng);
    let mut forward = Forward::placed(&mut source, placement, true);
    let Ok(value) = g.forward(&mut forward) else {
        return Ok(Vec::new());
    };
    (run.share, run.taken, run.fuel) = (forward.share, forward.taken, forward.fuel);
    let used = forward.consumed;
    let tree = forward.into_tree();
    Ok(vec![Solution {
        value: run.value(|| value),
        trace: Trace::of_choices(&tree),
        log_probability: 0.0,
        used,
    }])
}
