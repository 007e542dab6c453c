//! Choice Gradient Sampling on a free generator: the paper's Figure 4.

use std::collections::HashSet;
use std::fmt::{self, Debug};
use std::panic::{AssertUnwindSafe, catch_unwind};

use rand_core::Rng;

use super::Free;
use crate::engine::panic_message;
use crate::engine::source::random::weighted;

/// The valid values one run of [`cgs`] found, with their choice sequences, and what it spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cgs<A> {
    /// The valid values, each with the choice sequence that made it (duplicates kept).
    pub values: Vec<(A, String)>,
    /// What the run spent.
    pub stats: CgsStats,
}

/// What a run of Choice Gradient Sampling spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CgsStats {
    /// Choices made (derivatives taken along the path).
    pub steps: u64,
    /// Values sampled from derivatives.
    pub samples: u64,
    /// Of those, how many satisfied the predicate.
    pub valid: u64,
    /// Steps at which no derivative scored, so that the choice was uniform.
    pub blind_steps: u64,
    /// Times the run reached `void` and started again from the generator (at most
    /// [`MAX_RESTARTS`]).
    pub restarts: u64,
}

/// How many times one run of [`cgs`] starts again from the generator when the choices it
/// took lead to `void` (possible through `bind`), before it ends with what it found.
pub const MAX_RESTARTS: u64 = 100;

impl<A> Cgs<A> {
    fn empty() -> Self {
        Cgs {
            values: Vec::new(),
            stats: CgsStats::default(),
        }
    }
}

/// Why a run of Choice Gradient Sampling (here or in [`gradient`](crate::gradient)) stopped
/// without its values: the validity predicate panicked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicatePanicked {
    /// The value the predicate panicked on, as `{:?}` writes it.
    pub value: String,
    /// The panic's message.
    pub message: String,
}

impl fmt::Display for PredicatePanicked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the validity predicate panicked on {}: {}",
            self.value, self.message
        )
    }
}

impl std::error::Error for PredicatePanicked {}

/// `valid(value)`, a panic an error with the value and the panic's message.
pub(crate) fn checked<A: Debug>(
    valid: &impl Fn(&A) -> bool,
    value: &A,
) -> Result<bool, PredicatePanicked> {
    catch_unwind(AssertUnwindSafe(|| valid(value))).map_err(|payload| PredicatePanicked {
        value: format!("{value:?}"),
        message: panic_message(&*payload),
    })
}

/// One run of Choice Gradient Sampling (the paper's Figure 4) on `g`, with `n` samples per
/// derivative: at each step, every derivative by a possible next choice is sampled `n` times,
/// each choice scores the number of distinct samples that satisfy `valid` (the paper's `|V|`,
/// `V` the set of valid samples; told apart by their choice sequences, which differ for
/// different values of a generator with one way to make each), the valid samples are kept
/// (duplicates too: they are results), and a choice is taken weighted by its score
/// (uniformly when none scores), until no choice is left. The choices scored are the tags the
/// generator's next choice can take ([`Free::first_choices`]; the paper's alphabet `C`, whose
/// other tags have `void` derivatives that score 0). A choice that leads to `void` (through a
/// `bind`) starts the run again from `g`, keeping what it found, as the paper's line 5 does,
/// at most [`MAX_RESTARTS`] times. Every value returned satisfies
/// `valid`: the last value is checked like the samples. A predicate that panics stops the run
/// with the value it panicked on.
///
/// ```
/// use reflective::free::{Free, cgs};
/// use reflective::prelude::*;
/// // Lists of up to 6 digits, of which only the sorted ones are wanted.
/// fn list(n: usize) -> Free<Vec<u8>> {
///     let end = Free::pure(Vec::new());
///     if n == 0 {
///         return Free::select(vec![('n', end)]);
///     }
///     let digit = Free::select((0..=9).map(|d| (char::from(b'0' + d), Free::pure(d))).collect());
///     let cons = digit.pair(&list(n - 1)).map(|(d, mut rest): (u8, Vec<u8>)| { rest.insert(0, d); rest });
///     Free::select(vec![('n', end), ('c', cons)])
/// }
/// let mut rng = DefaultRng::seed_from_u64(1);
/// let run = cgs(&list(6), 20, |xs: &Vec<u8>| xs.is_sorted(), &mut rng).unwrap();
/// assert!(run.values.iter().all(|(xs, _)| xs.is_sorted()));
/// assert!(run.stats.valid > 0);
/// ```
pub fn cgs<A, R>(
    g: &Free<A>,
    n: usize,
    valid: impl Fn(&A) -> bool,
    rng: &mut R,
) -> Result<Cgs<A>, PredicatePanicked>
where
    A: Clone + Debug + 'static,
    R: Rng + ?Sized,
{
    let check = |value: &A| checked(&valid, value);
    let mut run = Cgs::empty();
    let mut current = g.clone();
    let mut prefix = String::new();
    loop {
        if let Some(value) = current.nullable() {
            if check(&value)? {
                run.values.push((value, prefix));
            }
            return Ok(run);
        }
        if current.is_void() {
            // Only `void` has neither a value nor a choice: the choices taken lead nowhere
            // (through a `bind`), and the run starts again (the paper's line 5).
            if g.is_void() || run.stats.restarts == MAX_RESTARTS {
                return Ok(run);
            }
            run.stats.restarts += 1;
            current = g.clone();
            prefix.clear();
            continue;
        }
        let choices = current.first_choices();
        let mut fitness = Vec::with_capacity(choices.len());
        for &c in &choices {
            let derivative = current.derivative(c);
            let mut distinct = HashSet::new();
            // A `void` derivative scores 0 unsampled (the paper's lines 8 and 9); a draw that
            // fails (a `bind` that gives `void` for the value drawn) is a sample without a
            // value.
            let draws = if derivative.is_void() { 0 } else { n };
            for _ in 0..draws {
                let Some((value, rest)) = derivative.generate_with_choices(rng) else {
                    continue;
                };
                run.stats.samples += 1;
                if check(&value)? {
                    run.stats.valid += 1;
                    run.values.push((value, format!("{prefix}{c}{rest}")));
                    distinct.insert(rest);
                }
            }
            fitness.push(distinct.len() as u64);
        }
        if fitness.iter().all(|&score| score == 0) {
            run.stats.blind_steps += 1;
            fitness.iter_mut().for_each(|score| *score = 1);
        }
        let chosen = weighted(rng, &fitness);
        let c = choices[chosen];
        prefix.push(c);
        current = current.derivative(c);
        run.stats.steps += 1;
    }
}
