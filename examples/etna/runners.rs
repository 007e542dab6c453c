//! proptest's and quickcheck's runners under the harness's judge.

use std::fmt::Debug;

use proptest::strategy::Strategy as PtStrategy;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use quickcheck::{Arbitrary, Gen};
use reflective_examples::etna::harness::{Judge, Strategy, Trial, TrialConfig, Verdict};

/// The size quickcheck's `QuickCheck` runner gives its `Gen` unless told otherwise.
pub const QUICKCHECK_SIZE: usize = 100;

/// One trial with proptest's `TestRunner`: `config.budget` cases, no failure persistence, a
/// ChaCha generator seeded from the trial's seed, `budget * max_discard_ratio` rejections at
/// most, and no shrinking (`max_shrink_iters: 0`). A discarded case is a rejection.
pub fn proptest_trial<S>(
    strategy: &S,
    property: &dyn Fn(&S::Value) -> Option<bool>,
    config: &TrialConfig,
) -> Trial
where
    S: PtStrategy,
    S::Value: Debug,
{
    let judge = Judge::start(config.case_time_limit);
    let settings = PtConfig {
        cases: config.budget,
        failure_persistence: None,
        max_global_rejects: config.budget.saturating_mul(config.max_discard_ratio),
        max_shrink_iters: 0,
        ..PtConfig::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(config.seed));
    let mut runner = TestRunner::new_with_rng(settings, rng);
    let _ = runner.run(strategy, |input| match judge.judge(property, &input) {
        Verdict::Held => Ok(()),
        Verdict::Discarded => Err(TestCaseError::reject("precondition")),
        Verdict::Failed => Err(TestCaseError::fail("the property failed")),
    });
    judge.finish()
}

/// A strategy that runs `strategy` through proptest's runner ([`proptest_trial`]).
pub fn proptest_strategy<S>(name: &'static str, what: &str, strategy: S) -> Strategy<S::Value>
where
    S: PtStrategy + 'static,
    S::Value: Debug,
{
    Strategy {
        name,
        what: what.to_string(),
        run: Box::new(move |property, config| proptest_trial(&strategy, property, config)),
    }
}

/// One trial with quickcheck's `Arbitrary`: a `Gen` of the crate's default size seeded with the
/// trial's seed, and cases drawn with `A::arbitrary` until `config.budget` of them counted, one
/// failed, or `budget * (max_discard_ratio + 1)` were drawn. This is the loop of
/// `QuickCheck::quicktest` (whose properties are `fn` pointers, which cannot count), without
/// its shrinking.
pub fn quickcheck_trial<A: Arbitrary, I>(
    input: impl Fn(A) -> I,
    property: &dyn Fn(&I) -> Option<bool>,
    config: &TrialConfig,
) -> Trial {
    let judge = Judge::start(config.case_time_limit);
    let mut g = Gen::from_size_and_seed(QUICKCHECK_SIZE, config.seed);
    while judge.tests() < u64::from(config.budget)
        && judge.evaluations() < config.max_evaluations()
        && !judge.found()
    {
        judge.judge(property, &input(A::arbitrary(&mut g)));
    }
    judge.finish()
}

/// A strategy that draws `A`s with quickcheck and tests the input each one gives.
pub fn quickcheck_strategy<A: Arbitrary, I: 'static>(
    name: &'static str,
    what: &str,
    input: fn(A) -> I,
) -> Strategy<I> {
    Strategy {
        name,
        what: what.to_string(),
        run: Box::new(move |property, config| quickcheck_trial(input, property, config)),
    }
}

/// 32 bytes of seed for proptest's ChaCha generator, from `seed` by SplitMix64.
fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut state = seed;
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(8) {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    bytes
}

/// A value uniform in `lo..=hi`, drawn with quickcheck's `Gen` (its integers favour edge
/// values, so the index is chosen from a slice).
pub fn uniform(g: &mut Gen, lo: i64, hi: i64) -> i64 {
    let values: Vec<i64> = (lo..=hi).collect();
    *g.choose(&values).expect("a non-empty range")
}

/// A fair coin from quickcheck's `Gen`: `bool::arbitrary`.
pub fn coin(g: &mut Gen) -> bool {
    <bool as Arbitrary>::arbitrary(g)
}
