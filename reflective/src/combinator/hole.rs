//! Completion's holes, as the combinators that reach parts of a value (a focus, a collection's
//! elements) fill them: generated forward where the backward run is.

use crate::engine::source::Halt;
use crate::engine::source::random::RandomSource;
use crate::engine::{Backward, Forward, Reflected, Solution, Trace};
use crate::node::Node;

/// The one way to fill a hole of a completion: `g` run forward at random, where the backward
/// run is among sizes and shares; no way if generation fails, whose reason the holes keep for
/// the completion's error (a collection too long for memory at a huge size).
pub(crate) fn generate_in_hole<G: Node>(g: &G, run: &mut Backward) -> Reflected<G::Output> {
    // A hole inside a recursive value is filled as a node inside it.
    let placement = run.placement();
    let Some(holes) = run.holes.as_mut() else {
        return Ok(Vec::new());
    };
    let mut source = RandomSource::new(&mut holes.rng);
    let mut forward = Forward::placed(&mut source, placement, true);
    let value = match g.forward(&mut forward) {
        Ok(value) => value,
        Err(halt) => {
            let why = match halt {
                Halt::Misfit => "its choices did not fit the generator".to_string(),
                halt => halt.reason(),
            };
            holes.not_generated(why);
            return Ok(Vec::new());
        }
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
