//! Enumeration: the forward engine with the exhaustive source.

use crate::engine::Forward;
use crate::engine::source::exhaustive::Exhaustive;
use crate::node::Node;

/// The levels of nesting (recursive references, binds' continuations: see
/// `Forward::nested`) an enumeration follows per unit of its depth, plus one: a generator whose
/// recursion ignores the size, which has no finite enumeration, is cut there and its listing
/// ends.
const NESTING_PER_DEPTH: usize = 64;

/// The iterator [`Generator::enumerate`](crate::Generator::enumerate) returns.
#[derive(Debug)]
pub struct Enumerate<'g, G> {
    g: &'g G,
    size: usize,
    walk: Exhaustive,
}

impl<'g, G: Node> Enumerate<'g, G> {
    pub(crate) fn new(g: &'g G, depth: usize) -> Self {
        Enumerate {
            g,
            size: depth,
            walk: Exhaustive::new(depth.saturating_add(1)),
        }
    }
}

impl<G: Node> Iterator for Enumerate<'_, G> {
    type Item = G::Output;

    fn next(&mut self) -> Option<G::Output> {
        while self.walk.has_next() {
            let max_depth = self
                .size
                .saturating_add(1)
                .saturating_mul(NESTING_PER_DEPTH);
            let mut run = Forward::new(&mut self.walk, self.size, false).with_max_depth(max_depth);
            let value = self.g.forward(&mut run);
            self.walk.advance();
            // A sequence the generator gives up on (a set short of distinct elements, a
            // recursion past the nesting limit) has no value: the walk goes on.
            if let Ok(value) = value {
                return Some(value);
            }
        }
        None
    }
}
