//! The type-directed shrinker Table 1 compares against: QuickCheck's greedy shrink loop over
//! the candidates `Reflective::shrink_candidates` gives, the `genericShrink` that
//! `#[derive(Reflective)]` writes.

use reflective::prelude::*;

/// What [`shrink_candidates`] reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeShrunk<T> {
    /// The simplest failing value found.
    pub value: T,
    /// How many candidates the property was evaluated on.
    pub evaluations: usize,
    /// How many candidates the precondition turned away before the property saw them.
    pub discarded: usize,
}

/// QuickCheck's greedy loop: the first candidate of `value.shrink_candidates()` that meets
/// `valid` and `fails` becomes the value, until none does or `max_evaluations` run out.
/// `start` is assumed to meet `valid` and to fail.
///
/// ```
/// use reflective_examples::type_directed::shrink_candidates;
/// let shrunk = shrink_candidates(vec![3u8, 90, 7], |_| true, |xs| xs.iter().any(|&x| x > 50), 100);
/// assert_eq!(shrunk.value, [51]);
/// ```
pub fn shrink_candidates<T: Reflective>(
    start: T,
    valid: impl Fn(&T) -> bool,
    fails: impl Fn(&T) -> bool,
    max_evaluations: usize,
) -> TypeShrunk<T> {
    let mut shrunk = TypeShrunk {
        value: start,
        evaluations: 0,
        discarded: 0,
    };
    'shrink: loop {
        for candidate in shrunk.value.shrink_candidates() {
            if shrunk.evaluations == max_evaluations {
                break 'shrink;
            }
            if !valid(&candidate) {
                shrunk.discarded += 1;
                continue;
            }
            shrunk.evaluations += 1;
            if fails(&candidate) {
                shrunk.value = candidate;
                continue 'shrink;
            }
        }
        break;
    }
    shrunk
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smartcheck;

    /// On every benchmark, the type-directed shrinker keeps the precondition, still fails, and
    /// never grows SIZE.
    #[test]
    fn shrinking_by_type_keeps_the_precondition_and_the_failure() {
        fn check<T: Reflective + std::fmt::Debug>(bench: &smartcheck::Benchmark<T>) {
            for seed in 0..20 {
                let mut rng = DefaultRng::seed_from_u64(seed);
                let start = bench
                    .first_failure(&mut rng, 100_000)
                    .expect("a failure")
                    .value;
                let shrunk =
                    shrink_candidates(start.clone(), bench.valid, |v| !(bench.holds)(v), 10_000);
                assert!(
                    bench.fails(&shrunk.value),
                    "{}: {:?}",
                    bench.name,
                    shrunk.value
                );
                assert!(
                    (bench.size)(&shrunk.value) <= (bench.size)(&start),
                    "{}",
                    bench.name
                );
            }
        }
        check(&smartcheck::binheap());
        check(&smartcheck::bound5());
        check(&smartcheck::calculator());
        check(&smartcheck::parser());
        check(&smartcheck::reverse());
    }
}
