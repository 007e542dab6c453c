//! The generator laws as reusable checks.
//!
//! [`Laws`] checks, for many seeds and sizes, that a generator's forward and backward runs
//! agree:
//!
//! - **same seed, same value**: two random sources seeded alike give the same value and the
//!   same choice tree; `generate_value` and `sample` agree with `generate`;
//! - **replay determinism**: replaying the recorded tree gives the value back, strictly and
//!   with repair;
//! - **soundness**: the generated value reflects (`can_generate`, non-empty `choices`, a
//!   positive `probability_of`), at the size it was generated at and at [`DEFAULT_SIZE`];
//! - **pure projection**: every way of producing the value reproduces it, and replaying every
//!   reflected tree gives the value back;
//! - **faithful reflection**: the tree generation recorded is one of the reflected trees, and
//!   for a generator with one way per value (overlap 1) the only one.
//!
//! [`assert_sums_to_one`], [`assert_frequencies_match`] and [`assert_rejects`] check
//! probabilities over a finite support, against sampling, and on values a generator cannot
//! produce. Every failure names the generator, and the seed and size or the value.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use reflective::prelude::*;
use reflective::{ReflectError, Reflector};

/// The sizes every generator is checked at, besides sizes drawn at random up to the largest.
pub const SIZES: [usize; 5] = [0, 1, 5, 30, 100];

/// How many seeds [`Laws::check`] runs by default, each at every size.
pub const SEEDS: usize = 200;

/// A seed derived from a name (FNV-1a), so that each generator gets its own seeds and they are
/// the same on every run.
pub fn name_seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The test cases for `name`, drawn by the library itself: `seeds` distinct seeds from a set
/// generator, each paired with every one of `sizes` and with one more size drawn uniformly up
/// to the largest of them.
///
/// # Panics
///
/// If `sizes` is empty.
pub fn cases(name: &str, seeds: usize, sizes: &[usize]) -> Vec<(u64, usize)> {
    let largest = *sizes.iter().max().expect("at least one size");
    let drawn = tuple((
        btree_set(range(0..=u64::MAX), seeds..=seeds),
        vec(range(0..=largest), seeds..=seeds),
    ));
    let (seeds, drawn_sizes) = drawn.sample(name_seed(name));
    seeds
        .into_iter()
        .zip(drawn_sizes)
        .flat_map(|(seed, drawn)| {
            sizes
                .iter()
                .copied()
                .chain([drawn])
                .map(move |size| (seed, size))
        })
        .collect()
}

/// The text of a caught panic.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(a panic without a message)")
}

/// `value`'s debug text, cut to 600 characters so that a failure on a large value stays
/// readable.
pub fn show<T: Debug + ?Sized>(value: &T) -> String {
    let text = format!("{value:?}");
    match text.char_indices().nth(600) {
        Some((cut, _)) => format!("{}... ({} characters)", &text[..cut], text.len()),
        None => text,
    }
}

fn within_budget<R>(law: &str, result: Result<R, ReflectError>) -> R {
    result.unwrap_or_else(|error| panic!("{law}: reflection gave up: {error}"))
}

/// The laws of one generator, checked over many seeds and sizes.
///
/// ```
/// use reflective::prelude::*;
/// use reflective_tests::laws::Laws;
/// Laws::new("vec(bool, 0..=3)", vec(bool(), 0..=3)).unique().seeds(20).check();
/// ```
#[derive(Debug)]
pub struct Laws<T: 'static> {
    name: String,
    generator: Gen<T, T>,
    sizes: Vec<usize>,
    seeds: usize,
    unique: bool,
    in_order: bool,
    monotone: bool,
}

impl<T: Clone + Debug + PartialEq + 'static> Laws<T> {
    /// The laws of `generator`, named `name` in failure messages, for [`SEEDS`] seeds at
    /// [`SIZES`].
    pub fn new(
        name: impl Into<String>,
        generator: impl Generator<Input = T, Output = T> + 'static,
    ) -> Self {
        Laws {
            name: name.into(),
            generator: generator.boxed(),
            sizes: SIZES.to_vec(),
            seeds: SEEDS,
            unique: false,
            in_order: true,
            monotone: true,
        }
    }

    /// Checks at these sizes (and sizes drawn up to the largest) instead of [`SIZES`].
    pub fn sizes(mut self, sizes: &[usize]) -> Self {
        self.sizes = sizes.to_vec();
        self
    }

    /// Runs `seeds` seeds instead of [`SEEDS`].
    pub fn seeds(mut self, seeds: usize) -> Self {
        self.seeds = seeds;
        self
    }

    /// The generator has one way to produce each value (overlap 1): reflection must recover
    /// exactly the tree generation recorded.
    pub fn unique(mut self) -> Self {
        self.unique = true;
        self
    }

    /// Reflection visits the value's parts in another order than generation drew them (sets
    /// and maps reflect in iteration order), so the recorded tree need not be among the
    /// reflected ones. The other laws still hold.
    pub fn unordered(mut self) -> Self {
        self.in_order = false;
        self
    }

    /// The values of one size are not among those of a larger size (as under
    /// [`Strategy::Partitions`]), so a value need not reflect
    /// at [`DEFAULT_SIZE`]. The other laws still hold.
    pub fn partitioned(mut self) -> Self {
        self.monotone = false;
        self
    }

    /// Checks every case, panicking with the generator's name, the seed and the size at the
    /// first broken law.
    pub fn check(&self) {
        let cases = cases(&self.name, self.seeds, &self.sizes);
        for (seed, size) in cases {
            if let Err(payload) = catch_unwind(AssertUnwindSafe(|| self.check_case(seed, size))) {
                panic!(
                    "law broken by `{}` at seed {seed}, size {size}:\n{}",
                    self.name,
                    panic_text(&*payload)
                );
            }
        }
    }

    /// Checks the laws on the value generated from `seed` at `size`.
    pub fn check_case(&self, seed: u64, size: usize) {
        let g = &self.generator;
        let rng = || DefaultRng::seed_from_u64(seed);
        let generated = g
            .try_generate(&mut rng(), size)
            .unwrap_or_else(|error| panic!("generation failed: {error}"));
        let value = &generated.value;
        let shown = show(value);

        // Same seed, same value.
        let again = g.generate(&mut rng(), size);
        assert!(
            again == generated,
            "same seed: a second generation gave {} with tree {}, the first {shown} with tree {}",
            show(&again.value),
            again.tree,
            generated.tree
        );
        let value_only = g.generate_value(&mut rng(), size);
        assert!(
            value_only == *value,
            "same seed: generate_value gave {}, generate {shown}",
            show(&value_only)
        );
        if size == DEFAULT_SIZE {
            let sampled = g.sample(seed);
            assert!(
                sampled == *value,
                "same seed: sample gave {}, generate {shown}",
                show(&sampled)
            );
            assert!(sampled == g.sample(seed), "same seed: sample twice");
        }
        assert_eq!(generated.tree.size(), size, "the tree records its size");

        // Replay determinism.
        assert!(
            g.replay(&generated.tree).as_ref() == Some(value),
            "replay of the recorded tree {} does not give {shown}",
            generated.tree
        );
        assert!(
            g.replay_repaired(&generated.tree).as_ref() == Ok(&generated),
            "repaired replay of the recorded tree {} changed it ({shown})",
            generated.tree
        );

        // Soundness, at the size of generation.
        let reflector = g.reflector().size(size);
        assert!(
            within_budget("soundness", reflector.can_generate(value)),
            "soundness: cannot generate the generated {shown}"
        );
        let choices = within_budget("soundness", reflector.choices(value));
        assert!(!choices.is_empty(), "soundness: no choices for {shown}");
        // The logarithm: a large value's probability itself rounds to 0.
        let log_probability = within_budget("soundness", reflector.log_probability_of(value));
        assert!(
            log_probability.is_finite() && log_probability <= 1e-9,
            "soundness: log probability {log_probability} for the generated {shown}"
        );

        // Pure projection.
        let reproductions = within_budget("pure projection", reflector.reproductions(value));
        assert_eq!(
            reproductions.len(),
            choices.len(),
            "pure projection: as many reproductions as choices"
        );
        for reproduction in &reproductions {
            assert!(
                reproduction == value,
                "pure projection: a way to produce {shown} produces {}",
                show(reproduction)
            );
        }
        for tree in &choices {
            assert_eq!(
                tree.size(),
                size,
                "a reflected tree records the reflection's size"
            );
            assert!(
                g.replay(tree).as_ref() == Some(value),
                "replay of the reflected tree {tree} does not give {shown}"
            );
        }
        assert!(
            choices
                .windows(2)
                .all(|pair| pair[0].shortlex_cmp(&pair[1]).is_le()),
            "choices are not simplest first"
        );
        let labels: Vec<Vec<Label>> = choices.iter().map(ChoiceTree::labels).collect();
        assert_eq!(
            within_budget("labels", reflector.reflect(value)),
            labels,
            "reflect disagrees with choices"
        );

        // Faithful reflection.
        if self.in_order {
            assert!(
                choices.contains(&generated.tree),
                "the recorded tree {} is not among the {} reflected: {}",
                generated.tree,
                choices.len(),
                choices
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
        }
        if self.unique {
            assert_eq!(
                choices,
                vec![generated.tree.clone()],
                "overlap 1: reflection must recover exactly the recorded tree"
            );
        }

        // Soundness at the default size, which covers every smaller size.
        if self.monotone && size <= DEFAULT_SIZE {
            assert!(
                g.can_generate(value),
                "a value generated at size {size} does not reflect at DEFAULT_SIZE: {shown}"
            );
        }
    }
}

/// Checks that the probabilities of `support` (distinct values) at `size` sum to 1 within
/// 1e-9, and that values generated at `size` lie in `support`.
pub fn assert_sums_to_one<T: Debug + PartialEq + 'static>(
    name: &str,
    generator: &impl Generator<Input = T, Output = T>,
    size: usize,
    support: &[T],
) {
    for (i, value) in support.iter().enumerate() {
        assert!(
            !support[..i].contains(value),
            "`{name}`: {} is listed twice in the support",
            show(value)
        );
    }
    let reflector = generator.reflector().size(size);
    let mut total = 0.0;
    for value in support {
        let p = within_budget(name, reflector.probability_of(value));
        assert!(
            (0.0..=1.0).contains(&p),
            "`{name}`: probability {p} of {} at size {size}",
            show(value)
        );
        total += p;
    }
    assert!(
        (total - 1.0).abs() < 1e-9,
        "`{name}`: the probabilities of the {} values at size {size} sum to {total}, not 1",
        support.len()
    );
    let mut rng = DefaultRng::seed_from_u64(name_seed(name));
    for _ in 0..200 {
        let value = generator.generate_value(&mut rng, size);
        assert!(
            support.contains(&value),
            "`{name}`: generated {} at size {size}, outside the support",
            show(&value)
        );
    }
}

/// Checks that the frequencies of `samples` values generated at `size` match their
/// `probability_of` at `size`: every sample lies in `support`, and each value's count is
/// within 5 standard deviations (plus 5, for rare values) of its expected count.
pub fn assert_frequencies_match<T: Ord + Clone + Debug + 'static>(
    name: &str,
    generator: &impl Generator<Input = T, Output = T>,
    size: usize,
    support: &[T],
    samples: usize,
) {
    let mut counts: BTreeMap<T, usize> = BTreeMap::new();
    let mut rng = DefaultRng::seed_from_u64(name_seed(name));
    for _ in 0..samples {
        *counts
            .entry(generator.generate_value(&mut rng, size))
            .or_default() += 1;
    }
    let listed: BTreeSet<&T> = support.iter().collect();
    for value in counts.keys() {
        assert!(
            listed.contains(value),
            "`{name}`: generated {} at size {size}, outside the support",
            show(value)
        );
    }
    let reflector = generator.reflector().size(size);
    let n = samples as f64;
    for value in support {
        let p = within_budget(name, reflector.probability_of(value));
        let expected = n * p;
        let observed = counts.get(value).copied().unwrap_or(0) as f64;
        let tolerance = 5.0 * (n * p * (1.0 - p)).max(0.0).sqrt() + 5.0;
        assert!(
            (observed - expected).abs() <= tolerance,
            "`{name}` at size {size}: {} came up {observed} times in {samples}, but its \
             probability {p} predicts {expected:.1} ± {tolerance:.1}",
            show(value)
        );
    }
}

/// Checks that `generator` cannot produce any of `values` when reflecting at `size`: every
/// backward interpretation returns empty, false or 0, and none panics. Returns how many values
/// were checked.
pub fn assert_rejects<T: Debug + 'static>(
    name: &str,
    generator: &impl Generator<Input = T, Output = T>,
    size: usize,
    values: impl IntoIterator<Item = T>,
) -> usize {
    let mut checked = 0;
    for value in values {
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            rejects(generator.reflector().size(size), &value)
        }));
        if let Err(payload) = outcome {
            panic!(
                "`{name}` at size {size} on {}, which it cannot produce:\n{}",
                show(&value),
                panic_text(&*payload)
            );
        }
        if size == DEFAULT_SIZE {
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                assert!(!generator.can_generate(&value), "can_generate");
                assert!(generator.choices(&value).is_empty(), "choices");
                assert!(generator.reflect(&value).is_empty(), "reflect");
                let p = generator.probability_of(&value);
                assert!(
                    p == 0.0 && p.is_sign_positive(),
                    "probability_of: {p}, not +0"
                );
            }));
            if let Err(payload) = outcome {
                panic!(
                    "`{name}` on {}, which it cannot produce:\n{}",
                    show(&value),
                    panic_text(&*payload)
                );
            }
        }
        checked += 1;
    }
    checked
}

fn rejects<T, G: Generator<Input = T, Output = T>>(reflector: Reflector<'_, G>, value: &T) {
    assert_eq!(reflector.can_generate(value), Ok(false), "can_generate");
    assert_eq!(reflector.choices(value), Ok(Vec::new()), "choices");
    assert_eq!(reflector.reflect(value), Ok(Vec::new()), "reflect");
    let probability = reflector.probability_of(value);
    assert!(
        probability
            .as_ref()
            .is_ok_and(|p| *p == 0.0 && p.is_sign_positive()),
        "probability_of: {probability:?}, not +0"
    );
    assert!(
        reflector
            .reproductions(value)
            .is_ok_and(|ways| ways.is_empty()),
        "reproductions"
    );
}
