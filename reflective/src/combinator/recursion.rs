//! Sizes through derived recursion: a node of a recursive variant uses one unit of its size,
//! and its fields run one after another on what is left, each using what it needs (its own
//! nodes, and its collections' elements) before the next runs: [`recursion`] around the
//! variant, [`fuelled`] around each field.
//!
//! So a tree at size `n` holds at most about `n` nodes and elements in all, whatever its shape,
//! and it can be `n` deep (a chain that gives every unit to one child), where halving the
//! size at each level bounds the depth by `log2 n`. The sizes are not choices: a value
//! determines what each field used, so it reflects in one way, and a shrinker's edit that
//! makes a field smaller leaves the fields after it more room, never less. A field earlier in
//! the variant sees the size first; it uses little of it on average (most subtrees are far
//! smaller than their bound), so the later fields see nearly as much.

use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// `variant`, a recursive variant of a derived type, as a node that uses one unit of the size
/// and leaves the rest to its [`fuelled`] fields.
pub fn recursion<G: Node>(variant: G) -> Recursion<G> {
    Recursion { inner: variant }
}

/// `field`, a field of a [`recursion`] node, run on the size its node has left, which it
/// reduces by what it used.
pub fn fuelled<G: Node>(field: G) -> Fuelled<G> {
    Fuelled { inner: field }
}

/// What `Recursion` does forward, around `fields`: the node uses a unit of the size, and the
/// fields it runs have the rest as their fuel.
#[inline]
pub fn forward_node<A>(
    run: &mut Forward<'_>,
    fields: impl FnOnce(&mut Forward<'_>) -> Result<A, Halt>,
) -> Result<A, Halt> {
    let outer = run.fuel.replace(run.size.saturating_sub(1));
    let offered = run.share.take();
    run.consumed += 1;
    let value = fields(run);
    run.fuel = outer;
    run.share = offered;
    value
}

/// What `Fuelled` does forward, around `field`: inside a recursive node, the field runs at
/// the size the node's fields have left, and uses up what it consumes.
#[inline]
pub fn forward_field<A>(
    run: &mut Forward<'_>,
    field: impl FnOnce(&mut Forward<'_>) -> Result<A, Halt>,
) -> Result<A, Halt> {
    let Some(left) = run.fuel else {
        return field(run);
    };
    let size = std::mem::replace(&mut run.size, left);
    let before = run.consumed;
    let value = field(run);
    let used = run.consumed - before;
    run.size = size;
    run.fuel = Some(left.saturating_sub(used));
    value
}

opaque_debug!(impl[G] Recursion<G>);

/// The generator [`recursion`] returns.
#[derive(Clone)]
pub struct Recursion<G> {
    inner: G,
}

impl<G> Sealed for Recursion<G> {}

impl<G: Node> Node for Recursion<G> {
    type Input = G::Input;
    type Output = G::Output;

    /// The node's fields on the size less one. A share of a budget offered from outside is
    /// left for the collection after the node: the node's size is what it has.
    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        forward_node(run, |run| self.inner.forward(run))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        let outer = run.fuel.replace(run.size.saturating_sub(1));
        let offered = run.share.take();
        let ways = self.inner.backward(b, run, limit);
        run.fuel = outer;
        run.share = offered;
        let mut ways = ways?;
        for way in &mut ways {
            way.used += 1;
        }
        Ok(ways)
    }
}

opaque_debug!(impl[G] Fuelled<G>);

/// The generator [`fuelled`] returns.
#[derive(Clone)]
pub struct Fuelled<G> {
    inner: G,
}

impl<G> Sealed for Fuelled<G> {}

impl<G: Node> Node for Fuelled<G> {
    type Input = G::Input;
    type Output = G::Output;

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        forward_field(run, |run| self.inner.forward(run))
    }

    /// The field reflected on the size left; what the next field has left depends on what
    /// this one used, which its first way says: ways of it that use another amount are left
    /// out (a field of a derived type has one way).
    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        let Some(left) = run.fuel else {
            return self.inner.backward(b, run, limit);
        };
        let size = std::mem::replace(&mut run.size, left);
        let ways = self.inner.backward(b, run, limit);
        run.size = size;
        let mut ways = ways?;
        let used = ways.first().map_or(0, |way| way.used);
        ways.retain(|way| way.used == used);
        run.fuel = Some(left.saturating_sub(used));
        Ok(ways)
    }
}

/// `outer` where the run is not inside a value of an `outermost` generator, `nested` where it
/// is: how a derived recursive type picks the root of a value differently from the nodes
/// inside it, and from the values of other recursive types inside it (see the derive's
/// `grown`).
///
/// ```
/// use reflective::prelude::*;
/// use reflective::__private::outermost;
/// // Run by itself, a generator is outside every value.
/// let g = outermost(range(1u8..=9), range(0u8..=0));
/// assert!((1..=9).contains(&g.sample(0)));
/// // Inside the value of another `outermost`, it is nested.
/// let inside = outermost(g.clone(), g);
/// assert_eq!(inside.sample(0), 0);
/// ```
pub fn outermost<G1, G2>(outer: G1, nested: G2) -> Outermost<G1, G2>
where
    G1: Node,
    G2: Node<Input = G1::Input, Output = G1::Output>,
{
    Outermost { outer, nested }
}

/// What [`Outermost`] does forward, around `body`: `body` learns whether the run was outside
/// every value of an `outermost` generator, and runs inside one.
#[inline]
pub fn forward_outermost<A>(
    run: &mut Forward<'_>,
    body: impl FnOnce(bool, &mut Forward<'_>) -> Result<A, Halt>,
) -> Result<A, Halt> {
    let inside = std::mem::replace(&mut run.in_recursive_value, true);
    let value = body(!inside, run);
    run.in_recursive_value = inside;
    value
}

opaque_debug!(impl[G1, G2] Outermost<G1, G2>);

/// The generator [`outermost`] returns.
#[derive(Clone)]
pub struct Outermost<G1, G2> {
    outer: G1,
    nested: G2,
}

impl<G1, G2> Sealed for Outermost<G1, G2> {}

impl<G1, G2> Node for Outermost<G1, G2>
where
    G1: Node,
    G2: Node<Input = G1::Input, Output = G1::Output>,
{
    type Input = G1::Input;
    type Output = G1::Output;

    fn ignores_share(&self) -> bool {
        self.outer.ignores_share() && self.nested.ignores_share()
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<G1::Output, Halt> {
        forward_outermost(run, |outer, run| {
            if outer {
                self.outer.forward(run)
            } else {
                self.nested.forward(run)
            }
        })
    }

    fn backward(&self, b: &G1::Input, run: &mut Backward, limit: usize) -> Reflected<G1::Output> {
        let inside = std::mem::replace(&mut run.in_recursive_value, true);
        let ways = if inside {
            self.nested.backward(b, run, limit)
        } else {
            self.outer.backward(b, run, limit)
        };
        run.in_recursive_value = inside;
        ways
    }
}
