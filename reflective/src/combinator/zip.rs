//! Independent pairs: [`zip`].

use crate::backward::{Backward, Reflected, Solution};
use crate::forward::Forward;
use crate::generator::{Gen, Node};
use crate::source::Halt;

/// Runs `first` then `second` on the same reflected value, and pairs their results.
///
/// It is `first.bind(move |a| second.map(move |b| (a, b)))` for generators that do not depend
/// on each other, without the cost of building the second generator anew each time.
///
/// ```
/// use reflective::prelude::*;
/// let point = zip(
///     range(0i32..=9).focus(|p: &(i32, i32)| Some(&p.0)),
///     range(0i32..=9).focus(|p: &(i32, i32)| Some(&p.1)),
/// );
/// assert!(point.can_generate(&(3, 4)));
/// ```
pub fn zip<B, A1, A2>(first: Gen<B, A1>, second: Gen<B, A2>) -> Gen<B, (A1, A2)>
where
    B: ?Sized + 'static,
    A1: Clone + 'static,
    A2: Clone + 'static,
{
    Gen::from_node(Zip { first, second })
}

impl<B: ?Sized + 'static, A1: Clone + 'static> Gen<B, A1> {
    /// `zip(self, other)`: both generators, one after the other, paired.
    pub fn zip<A2: Clone + 'static>(self, other: Gen<B, A2>) -> Gen<B, (A1, A2)> {
        zip(self, other)
    }
}

struct Zip<B: ?Sized, A1, A2> {
    first: Gen<B, A1>,
    second: Gen<B, A2>,
}

impl<B: ?Sized, A1: Clone, A2: Clone> Node<B, (A1, A2)> for Zip<B, A1, A2> {
    fn forward(&self, run: &mut Forward<'_>) -> Result<(A1, A2), Halt> {
        let first = self.first.node.forward(run)?;
        let second = self.second.node.forward(run)?;
        Ok((first, second))
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<(A1, A2)> {
        run.step()?;
        let firsts = self.first.node.backward(b, run, limit)?;
        if firsts.is_empty() {
            return Ok(Vec::new());
        }
        let mut seconds = self.second.node.backward(b, run, limit)?;
        if let ([_], [_]) = (firsts.as_slice(), seconds.as_slice()) {
            // The common case, one way each: move the values, clone nothing.
            let (first, second) = (firsts.into_iter().next(), seconds.pop());
            let (Some(first), Some(second)) = (first, second) else {
                unreachable!("both have one solution")
            };
            return Ok(vec![Solution {
                value: first.value.zip(second.value),
                trace: first.trace.then(second.trace),
                log_probability: first.log_probability + second.log_probability,
            }]);
        }
        run.found(firsts.len().saturating_mul(seconds.len()).min(limit))?;
        let mut found = Vec::new();
        'all: for first in &firsts {
            for second in &seconds {
                if found.len() >= limit {
                    break 'all;
                }
                run.step()?;
                found.push(Solution {
                    value: first.value.clone().zip(second.value.clone()),
                    trace: first.trace.clone().then(second.trace.clone()),
                    log_probability: first.log_probability + second.log_probability,
                });
            }
        }
        Ok(found)
    }
}
