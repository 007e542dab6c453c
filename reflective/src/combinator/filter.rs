//! Keeping only the values that satisfy a predicate: [`Generator::filter`](crate::Generator::filter),
//! and [`Generator::filter_map`](crate::Generator::filter_map), which keeps the values a
//! function makes something of.
//!
//! Forward, the generator draws again while the predicate rejects its value, each attempt in a
//! span of its own, so the rejected attempts replay and a shrinker can delete them. Backward, a
//! value reflects if the inner generator produces it and the predicate accepts it, as produced
//! on the first attempt: the simplest way.

use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Node, Sealed};

/// How many values in a row a filter may reject before generation fails.
pub const MAX_FILTER_ATTEMPTS: usize = 1_000;

opaque_debug!(impl[G, P] Filter<G, P>);

/// The generator [`Generator::filter`](crate::Generator::filter) returns.
#[derive(Clone)]
pub struct Filter<G, P> {
    inner: G,
    keep: P,
}

impl<G, P> Filter<G, P> {
    pub(crate) fn new(inner: G, keep: P) -> Self {
        Filter { inner, keep }
    }
}

impl<G, P> Sealed for Filter<G, P> {}

impl<G, P> Node for Filter<G, P>
where
    G: Node,
    P: Fn(&G::Output) -> bool + Send + Sync,
{
    type Input = G::Input;
    type Output = G::Output;

    fn ignores_share(&self) -> bool {
        self.inner.ignores_share()
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        forward_filtered(&self.inner, &self.keep, run)
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        backward_filtered(&self.inner, &self.keep, b, run, limit)
    }
}

opaque_debug!(impl[G, F] FilterMap<G, F>);

/// The generator [`Generator::filter_map`](crate::Generator::filter_map) returns.
#[derive(Clone)]
pub struct FilterMap<G, F> {
    inner: G,
    f: F,
}

impl<G, F> FilterMap<G, F> {
    pub(crate) fn new(inner: G, f: F) -> Self {
        FilterMap { inner, f }
    }
}

impl<G, F> Sealed for FilterMap<G, F> {}

impl<G, F, A> Node for FilterMap<G, F>
where
    G: Node,
    F: Fn(&G::Output) -> Option<A> + Send + Sync,
{
    type Input = G::Input;
    type Output = A;

    fn ignores_share(&self) -> bool {
        self.inner.ignores_share()
    }

    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        let kept = forward_filtered(&self.inner, |value| (self.f)(value).is_some(), run)?;
        (self.f)(&kept).ok_or_else(|| {
            Halt::Failed(
                "filter_map's function gave `None` for a value it had just kept: it must give \
                 the same answer for the same value"
                    .into(),
            )
        })
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<A> {
        let ways = backward_filtered(
            &self.inner,
            |value| (self.f)(value).is_some(),
            b,
            run,
            limit,
        )?;
        Ok(ways
            .into_iter()
            .filter_map(|way| {
                let value = (self.f)(way.value.as_ref()?)?;
                Some(way.map(|_| value))
            })
            .collect())
    }
}

/// What a filter of `inner` keeping what `keep` accepts does forward: draws again while `keep`
/// rejects, each attempt in a span of its own. A source that walks every choice sequence once
/// (enumeration) gets one attempt: a value `keep` rejects ends the sequence, which is then
/// skipped, as a sequence with a repeated element of a set is, so that each value comes once
/// and the walk ends.
pub(crate) fn forward_filtered<G: Node>(
    inner: &G,
    keep: impl Fn(&G::Output) -> bool,
    run: &mut Forward<'_>,
) -> Result<G::Output, Halt> {
    let attempts = if run.redraws() {
        MAX_FILTER_ATTEMPTS
    } else {
        1
    };
    for _ in 0..attempts {
        if let Some(value) = filter_attempt(run, |run| inner.forward(run), &keep)? {
            return Ok(value);
        }
    }
    if attempts == 1 {
        return Err(Halt::Failed("a value the filter rejects".into()));
    }
    Err(Halt::Rejected {
        attempts: MAX_FILTER_ATTEMPTS,
    })
}

/// One attempt of a filter: `draw` run in a span of its own, counted as kept or rejected; its
/// value if `keep` accepts it.
pub(crate) fn filter_attempt<A>(
    run: &mut Forward<'_>,
    draw: impl FnOnce(&mut Forward<'_>) -> Result<A, Halt>,
    keep: impl Fn(&A) -> bool,
) -> Result<Option<A>, Halt> {
    let start = run.recorded();
    let span = run.open_span(None);
    let value = draw(run);
    run.close_span(span);
    let value = value?;
    if keep(&value) {
        run.filtered.accepted += 1;
        Ok(Some(value))
    } else {
        run.filtered.rejected += 1;
        run.redrew_from(start);
        Ok(None)
    }
}

/// What a filter of `inner` keeping what `keep` accepts does backward: the ways of `inner`
/// whose values `keep` accepts.
pub(crate) fn backward_filtered<G: Node>(
    inner: &G,
    keep: impl Fn(&G::Output) -> bool,
    b: &G::Input,
    run: &mut Backward,
    limit: usize,
) -> Reflected<G::Output> {
    let mut ways = run.with_values(|run| inner.backward(b, run, limit))?;
    ways.retain(|way| way.value.as_ref().is_some_and(&keep));
    Ok(ways)
}
