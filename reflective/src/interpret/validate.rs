//! Validation: checks that a generator is what its author meant, with shrunk counterexamples
//! (the paper's soundness, completeness and pure projection, "Reflecting on Random
//! Generation" §4–5, and "Holding a Mirror up to Random Generation" §4.1).
//!
//! [`Generator::validate`](crate::Generator::validate) generates values at the sizes 0, 1, ...,
//! the largest, 0, ... (as the runner does) and checks on each:
//!
//! - *reflects*: the value reflects at the size it was generated at (internal soundness: an
//!   annotation that prunes a value the generator made is wrong);
//! - *round trip*: every way reflection finds replays to the value;
//! - *pure projection*: every way reproduces the value (a `focus` that looks at the wrong
//!   part, or a `map` without its `focus`, produces another one);
//! - *overlap*: how many ways each value has (several ways are a sign of an ambiguous
//!   generator: reported, and a problem past [`Validation::max_ways`], by default past
//!   [`OVERLAP_WAYS`], where validation stops counting: an exponentially overlapping
//!   generator is reported with a shrunk counterexample in little time, and the values
//!   after the first with that many ways are not reflected, as after a budget runs out);
//!
//! (A value that is not `==` to itself, a NaN or one holding it, is compared by its debug
//! text in these laws, up to the order of the items in braces: a hash set's elements.)
//!
//! and, when asked:
//!
//! - [`Validation::sound`]: every value satisfies a predicate (external soundness);
//! - [`Validation::complete`]: every value a simpler, obviously correct generator makes that
//!   satisfies the predicate reflects (external completeness: the paper's `genTree` against
//!   `genBST`).
//!
//! Each problem comes with the smallest counterexample the shrinker finds: shrunk through the
//! generator's own recorded choices, so that it works even when the annotations are what is
//! wrong. A case in which the generator makes no value (it fails, or panics) is a problem
//! too, and an annotation that panics on a generated value breaks *reflects*: a validation
//! reports a broken generator rather than panicking in the test.

use std::cell::RefCell;
use std::fmt::{self, Debug};

use rand_core::SeedableRng;

use crate::choice::Label;
use crate::engine::{Budgets, ReflectError, caught, grow_if_low};
use crate::node::Node;

use super::generate::{DefaultRng, Generated, try_generate};
use super::reflect::{Reflector, Unreflected, budget_setters};
use super::shrink::{ShrinkBudget, shrink};

/// How many ways of producing one value validation counts by default: a value that reflects
/// in more is an [`Check::Overlap`] problem unless [`Validation::max_ways`] allows more. The
/// laws are checked on the ways counted, and the values after the first with more are not
/// reflected (as after a budget runs out). Counting stops here because an exponentially
/// overlapping generator (a choice between branches that produce the same values, repeated
/// in a collection) has a number of ways that doubles with each element: counting (and
/// checking) them all took seconds per value, up to reflection's own budget of ways.
pub const OVERLAP_WAYS: usize = 1000;

/// What a problem a validation found is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// The generator made no value in a case: it failed (a `filter` that gave up, nesting too
    /// deep) or panicked.
    Generates,
    /// A generated value does not reflect at the size it was generated at (or an annotation
    /// panics on it).
    Reflects,
    /// A way reflection finds does not replay to the value.
    RoundTrip,
    /// A way reflection finds reproduces another value (a wrong or missing annotation).
    PureProjection,
    /// A value reflects in more ways than [`Validation::max_ways`] allows (by default
    /// [`OVERLAP_WAYS`]).
    Overlap,
    /// Reflection ran out of a budget on a generated value.
    Budget,
    /// A generated value fails the predicate of [`Validation::sound`].
    Sound,
    /// A valid value of the reference generator of [`Validation::complete`] does not reflect.
    Complete,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Check::Generates => "generates",
            Check::Reflects => "reflects",
            Check::RoundTrip => "round trip",
            Check::PureProjection => "pure projection",
            Check::Overlap => "overlap",
            Check::Budget => "budget",
            Check::Sound => "sound",
            Check::Complete => "complete",
        })
    }
}

/// One problem a validation found: the check, what went wrong, and the smallest
/// counterexample found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The check that failed.
    pub check: Check,
    /// What went wrong, in words.
    pub message: String,
    /// The counterexample, shrunk, as `{:?}` writes it.
    pub minimal: String,
    /// The counterexample as first found, as `{:?}` writes it.
    pub original: String,
    /// The labels of the choices that produce the counterexample (of the way that went
    /// wrong, where there is one).
    pub labels: Vec<Label>,
}

/// What a validation found: the problems, one per check that failed, and the overlap seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationReport {
    /// The values generated and checked (and, with a reference generator, as many reference
    /// values drawn): the cases asked for, but for those in which the generator made none.
    pub cases: usize,
    /// The problems, at most one per check.
    pub problems: Vec<Problem>,
    /// How many generated values reflect in more than one way.
    pub overlapping: usize,
    /// The most ways one generated value reflects in, as counted: up to `ways_counted`.
    pub most_ways: usize,
    /// How many ways validation counts for one value (one more than the ways allowed: see
    /// [`OVERLAP_WAYS`] and [`Validation::max_ways`]): a value with `most_ways` equal to it
    /// reflects in at least as many.
    pub ways_counted: usize,
    /// The cases in which a filter rejected every value it drew, and the size of the first:
    /// at sizes too small for any value it keeps (a list filtered to be non-empty, at size 0),
    /// which the runner discards. Not a problem while they are fewer than the cases with a
    /// value ([`Check::Generates`] is, past that).
    pub filtered_out: Option<(usize, usize)>,
}

impl ValidationReport {
    /// Whether no check failed.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problem a check found, if it found one.
    pub fn problem(&self, check: Check) -> Option<&Problem> {
        self.problems.iter().find(|problem| problem.check == check)
    }
}

impl fmt::Display for ValidationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.len() {
            0 => writeln!(f, "generator validated: {} cases, no problem", self.cases)?,
            n => writeln!(
                f,
                "generator validation found {n} problem{} in {} cases",
                if n == 1 { "" } else { "s" },
                self.cases
            )?,
        }
        for problem in &self.problems {
            writeln!(f, "\n{}: {}", problem.check, problem.message)?;
            writeln!(f, "    minimal counterexample: {}", problem.minimal)?;
            if problem.original != problem.minimal {
                writeln!(f, "    as first found: {}", problem.original)?;
            }
            if !problem.labels.is_empty() {
                let labels: Vec<String> = problem.labels.iter().map(Label::to_string).collect();
                writeln!(f, "    its labels: {}", labels.join(" "))?;
            }
        }
        if let Some((count, size)) = self.filtered_out
            && self.problem(Check::Generates).is_none()
        {
            writeln!(
                f,
                "\nfiltered out: no value in {count} case{} (the first at size {size}), where a \
                 filter rejected every value it drew; the runner discards such cases",
                if count == 1 { "" } else { "s" }
            )?;
        }
        if self.overlapping == 0 {
            write!(f, "\noverlap: every value reflects in one way")
        } else if self.most_ways >= self.ways_counted {
            write!(
                f,
                "\noverlap: {} of {} values reflect in more than one way (the most in {} or \
                 more: validation counts no further, and reflects no value after that one)",
                self.overlapping, self.cases, self.most_ways
            )
        } else {
            write!(
                f,
                "\noverlap: {} of {} values reflect in more than one way (at most {})",
                self.overlapping, self.cases, self.most_ways
            )
        }
    }
}

/// A predicate on values: what [`Validation::sound`] and [`Validation::complete`] take.
type Predicate<'c, T> = Box<dyn Fn(&T) -> bool + 'c>;

/// A check against a reference generator: draws a value at a size and, if `missed` holds of
/// it, shrinks it by `missed`; returns the value as drawn, shrunk, and the shrunk one's labels.
type ReferenceCheck<'c, T> = Box<
    dyn Fn(&mut DefaultRng, usize, &dyn Fn(&T) -> bool) -> Option<(String, String, Vec<Label>)>
        + 'c,
>;

/// The reference generator of [`Validation::complete`], as a check, with the predicate.
struct Reference<'c, T> {
    check: ReferenceCheck<'c, T>,
    valid: Predicate<'c, T>,
}

/// A validation of a generator: what to check, on how many values.
///
/// ```
/// use reflective::prelude::*;
/// // Even numbers, with a `focus` that forgets to halve: every generated value is even, but
/// // reflection looks for 2x in the range, which fails for large values.
/// let evens = range(0u32..=100)
///     .map(|x| x * 2)
///     .comap(|n: &u32| n.is_multiple_of(2).then_some(*n));
/// let report = evens.validate().sound(|n| n % 2 == 0).cases(200).run();
/// assert!(!report.is_ok());
/// println!("{report}");
/// ```
pub struct Validation<'g, 'c, G: Node> {
    g: &'g G,
    cases: usize,
    seed: u64,
    max_size: usize,
    max_ways: Option<usize>,
    /// The budgets values are reflected with.
    budgets: Budgets,
    sound: Option<Predicate<'c, G::Output>>,
    complete: Option<Reference<'c, G::Output>>,
}

impl<G: Node> fmt::Debug for Validation<'_, '_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validation")
            .field("cases", &self.cases)
            .field("seed", &self.seed)
            .field("max_size", &self.max_size)
            .finish_non_exhaustive()
    }
}

impl<'g, 'c, T, G> Validation<'g, 'c, G>
where
    T: Clone + Debug + PartialEq + 'c,
    G: Node<Input = T, Output = T>,
{
    pub(crate) fn new(g: &'g G) -> Self {
        Validation {
            g,
            cases: 1000,
            seed: 0,
            max_size: 100,
            max_ways: None,
            budgets: Budgets::default(),
            sound: None,
            complete: None,
        }
    }

    /// Checks `cases` values (1000 by default).
    pub fn cases(mut self, cases: usize) -> Self {
        self.cases = cases;
        self
    }

    /// Draws them with `seed` (0 by default).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Generates at sizes up to `max_size` (100 by default).
    pub fn max_size(mut self, max_size: usize) -> Self {
        self.max_size = max_size;
        self
    }

    /// Makes a value that reflects in more than `ways` ways a problem (by default
    /// [`OVERLAP_WAYS`]; overlap below it is only reported): 1 makes every ambiguity one.
    /// Validation counts the ways of each value up to `ways` + 1, and at least up to
    /// [`OVERLAP_WAYS`] + 1, for the report's figures, and checks the laws on the ways it
    /// counts; after the first value whose ways reach that count it reflects no more values
    /// (only soundness is checked then), as after a budget runs out. Reflection's own budget of ways is
    /// [`max_reflection_ways`](Validation::max_reflection_ways).
    ///
    /// # Panics
    ///
    /// If `ways` is 0: every value a generator produces reflects in at least one way.
    #[track_caller]
    pub fn max_ways(mut self, ways: usize) -> Self {
        assert!(
            ways > 0,
            "max_ways(0): every value a generator produces reflects in at least one way; \
             max_ways(1) makes a value with more than one a problem"
        );
        self.max_ways = Some(ways);
        self
    }

    budget_setters!(max_reflection_ways);

    /// Checks that every generated value satisfies `valid` (external soundness).
    pub fn sound(mut self, valid: impl Fn(&T) -> bool + 'c) -> Self {
        self.sound = Some(Box::new(valid));
        self
    }

    /// Checks that every value `reference` generates that satisfies `valid` reflects in this
    /// generator (external completeness): `reference` is a simpler generator that makes every
    /// valid value and more (any tree, for a search-tree generator).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // Claims to make every pair with a sum at most 10, but never makes a first part of 10.
    /// let pairs = range(0u8..=9)
    ///     .focus(|p: &(u8, u8)| Some(&p.0))
    ///     .bind(|a| range(0..=10 - a).focus(|p: &(u8, u8)| Some(&p.1)).map(move |b| (a, b)));
    /// let any_pair = tuple((range(0u8..=10), range(0u8..=10)));
    /// let report = pairs.validate().complete(&any_pair, |&(a, b)| a + b <= 10).run();
    /// let problem = report.problem(reflective::validate::Check::Complete).unwrap();
    /// assert_eq!(problem.minimal, "(10, 0)");
    /// ```
    pub fn complete<R>(mut self, reference: &'c R, valid: impl Fn(&T) -> bool + 'c) -> Self
    where
        R: Node<Output = T>,
    {
        let check: ReferenceCheck<'c, T> = Box::new(move |rng, size, missed| {
            let generated = try_generate(reference, rng, size).ok()?;
            if !missed(&generated.value) {
                return None;
            }
            let original = format!("{:?}", generated.value);
            let minimal = shrink(reference, generated, missed, ShrinkBudget::default());
            Some((
                original,
                format!("{:?}", minimal.value),
                minimal.tree.labels(),
            ))
        });
        self.complete = Some(Reference {
            check,
            valid: Box::new(valid),
        });
        self
    }

    /// Runs the checks, and panics with the report if one fails: one line in a test.
    #[track_caller]
    pub fn check(self) {
        let report = self.run();
        if !report.is_ok() {
            panic!("{report}");
        }
    }

    /// Runs the checks and reports what they found.
    pub fn run(self) -> ValidationReport {
        let mut rng = DefaultRng::seed_from_u64(self.seed);
        let mut report = ValidationReport {
            cases: 0,
            problems: Vec::new(),
            overlapping: 0,
            most_ways: 0,
            ways_counted: self.ways_counted(),
            filtered_out: None,
        };
        // The cases in which the generator made no value, and why the first made none.
        let mut no_value: Option<(usize, usize, String)> = None;
        // Whether generated values are still reflected, and reference values still checked:
        // each stops when its reflection runs out of a budget, which it would on every value.
        let (mut reflecting, mut completing) = (true, true);
        // Sizes 0 to `max_size`, then again from 0 (every size, if `max_size` is `usize::MAX`).
        let period = self.max_size.checked_add(1);
        for case in 0..self.cases {
            let size = period.map_or(case, |period| case % period);
            match caught(|| try_generate(self.g, &mut rng, size)) {
                Ok(Ok(generated)) => {
                    report.cases += 1;
                    self.check_generated(generated, &mut report, &mut reflecting);
                }
                Ok(Err(error)) if error.filter_rejected() => {
                    let (count, _) = report.filtered_out.get_or_insert((0, size));
                    *count += 1;
                }
                Ok(Err(error)) => {
                    let (count, _, _) = no_value.get_or_insert((0, size, error.to_string()));
                    *count += 1;
                }
                Err(panic) => {
                    let why = format!("it panicked: {panic}");
                    let (count, _, _) = no_value.get_or_insert((0, size, why));
                    *count += 1;
                }
            }
            if let Some(Reference { check, valid }) = &self.complete
                && completing
                && report.problem(Check::Complete).is_none()
            {
                let reflects = self.reflector(self.max_size);
                // A value reflection runs out of a budget on is not counted as missed: the
                // budget is reported instead. One an annotation panics on is missed, and once
                // one has, only those are (so that the value shrinks to one that panics, as
                // the problem's message says).
                let (out_of_budget, panicked) = (RefCell::new(None), RefCell::new(None));
                // The predicate's first panic, with the value: the problem then.
                let predicate_panicked = RefCell::new(None);
                let missed = |value: &T| {
                    let valid = caught(|| valid(value)).unwrap_or_else(|panic| {
                        predicate_panicked
                            .borrow_mut()
                            .get_or_insert((format!("{value:?}"), panic));
                        false
                    });
                    valid
                        && match caught(|| reflects.can_generate(value)) {
                            Ok(Ok(reflected)) => !reflected && panicked.borrow().is_none(),
                            Ok(Err(error)) => {
                                out_of_budget
                                    .borrow_mut()
                                    .get_or_insert((format!("{value:?}"), error));
                                false
                            }
                            Err(panic) => {
                                panicked.borrow_mut().get_or_insert(panic);
                                true
                            }
                        }
                };
                let found = match caught(|| check(&mut rng, size, &missed)) {
                    Ok(found) => found,
                    Err(panic) => {
                        completing = false;
                        report.problems.push(unshrunk_problem(
                            Check::Complete,
                            format!("the reference generator panicked at size {size}: {panic}"),
                            "(no value)".to_string(),
                        ));
                        None
                    }
                };
                if let Some((value, panic)) = predicate_panicked.into_inner() {
                    completing = false;
                    report.problems.push(unshrunk_problem(
                        Check::Complete,
                        format!(
                            "the predicate panicked on a value of the reference generator: {panic}"
                        ),
                        value,
                    ));
                }
                if let Some((value, error)) = out_of_budget.into_inner() {
                    completing = false;
                    add_budget_problem(&mut report, value, &error);
                }
                if let Some((original, minimal, labels)) = found {
                    let mut message = format!(
                        "a value the reference generator makes, which satisfies the predicate, \
                         does not reflect in this generator at size {}",
                        self.max_size
                    );
                    if let Some(panic) = panicked.into_inner() {
                        message +=
                            &format!(" (reflecting values of the reference panicked: {panic})");
                    }
                    report.problems.push(Problem {
                        check: Check::Complete,
                        message,
                        minimal,
                        original,
                        labels,
                    });
                }
            }
        }
        // Filters that keep nothing in more cases than they keep something are a problem: a
        // runner would discard most cases.
        if let Some((count, size)) = report.filtered_out
            && count > report.cases
            && no_value.is_none()
        {
            no_value = Some((
                count,
                size,
                "a filter rejected every value it drew".to_string(),
            ));
        }
        if let Some((count, size, why)) = no_value {
            report.problems.push(unshrunk_problem(
                Check::Generates,
                format!(
                    "the generator made no value in {count} of {} cases; the first, at size \
                     {size}: {why}",
                    self.cases
                ),
                "(no value)".to_string(),
            ));
        }
        report
    }

    /// The checks on one generated value. Once reflecting generated values has run out of a
    /// budget, or a value has as many ways as are counted (`reflecting` turned off), only
    /// soundness is checked: a generator whose values take reflection past its budget, or
    /// have that many ways, would spend it on every value.
    fn check_generated(
        &self,
        generated: Generated<T>,
        report: &mut ValidationReport,
        reflecting: &mut bool,
    ) {
        let value = &generated.value;
        if self.unsound(value).is_some() && report.problem(Check::Sound).is_none() {
            let problem = self.shrunk_problem(Check::Sound, generated.clone(), false);
            report.problems.push(problem);
        }
        if !*reflecting {
            return;
        }
        let size = generated.tree.size();
        let ways = match self.reproduced(value, size) {
            Ok(ways) => ways,
            Err(Unreflected::CannotProduce) => Vec::new(),
            Err(Unreflected::Budget(error)) => {
                *reflecting = false;
                add_budget_problem(report, format!("{value:?}"), &error);
                return;
            }
            Err(Unreflected::Panicked(_)) => {
                if report.problem(Check::Reflects).is_none() {
                    let problem = self.shrunk_problem(Check::Reflects, generated, true);
                    report.problems.push(problem);
                }
                return;
            }
        };
        report.most_ways = report.most_ways.max(ways.len());
        report.overlapping += usize::from(ways.len() > 1);
        let law = self.first_broken_law(value, size, &ways);
        let found = [
            (Check::Reflects, law == Some(Check::Reflects)),
            (Check::PureProjection, law == Some(Check::PureProjection)),
            (Check::RoundTrip, law == Some(Check::RoundTrip)),
            (Check::Overlap, ways.len() > self.ways_allowed()),
        ];
        for (check, failed) in found {
            if failed && report.problem(check).is_none() {
                report
                    .problems
                    .push(self.shrunk_problem(check, generated.clone(), false));
            }
        }
        if ways.len() >= self.ways_counted() {
            // Counting stopped at the value's ways: a generator with so many would spend as
            // many on most values to come (its ways double with each element, say), so
            // reflection stops here, as it does once a budget runs out. Whether reflection
            // without the count runs out of a budget on this value (a generator with
            // infinitely many ways) is still reported, as it was before the count.
            *reflecting = false;
            let all_ways = caught(|| self.reflector(size).solutions(value, usize::MAX, false));
            if let Ok(Err(error)) = all_ways {
                add_budget_problem(report, format!("{value:?}"), &error);
            }
        }
    }

    /// The most ways a value may reflect in before it is an overlap problem.
    fn ways_allowed(&self) -> usize {
        self.max_ways.unwrap_or(OVERLAP_WAYS)
    }

    /// How many ways of each value are counted (and checked): one more than allowed, at
    /// least [`OVERLAP_WAYS`] + 1.
    fn ways_counted(&self) -> usize {
        self.ways_allowed().max(OVERLAP_WAYS).saturating_add(1)
    }

    /// A reflection of the generator at `size` with the validation's budgets.
    fn reflector(&self, size: usize) -> Reflector<'g, G> {
        Reflector::new(self.g).size(size).budgets(self.budgets)
    }

    /// The values the ways reflection finds for `value` at `size` reproduce, up to
    /// [`Validation::ways_counted`] of them (never [`Unreflected::CannotProduce`]: no way is no
    /// value).
    fn reproduced(&self, value: &T, size: usize) -> Result<Vec<T>, Unreflected> {
        let ways = || {
            let solutions = self
                .reflector(size)
                .solutions(value, self.ways_counted(), true)?;
            Ok(solutions
                .into_iter()
                .filter_map(|solution| solution.value)
                .collect())
        };
        match caught(ways) {
            Ok(Ok(ways)) => Ok(ways),
            Ok(Err(error)) => Err(Unreflected::Budget(error)),
            Err(panic) => Err(Unreflected::Panicked(panic)),
        }
    }

    /// The message of the panic of an annotation on `value` at `size`, if one panics.
    fn panic_reflecting(&self, value: &T, size: usize) -> Option<String> {
        match self.reproduced(value, size) {
            Err(Unreflected::Panicked(panic)) => Some(panic),
            _ => None,
        }
    }

    /// Whether `value` fails the soundness predicate: `Some(None)` if it says no,
    /// `Some(Some(message))` if it panics (as a property that panics fails), `None` if it
    /// holds or there is none.
    fn unsound(&self, value: &T) -> Option<Option<String>> {
        let valid = self.sound.as_ref()?;
        match caught(|| valid(value)) {
            Ok(true) => None,
            Ok(false) => Some(None),
            Err(panic) => Some(Some(panic)),
        }
    }

    /// The first of the reflection laws `value` breaks at `size`, given the values its ways
    /// reproduce. A generator that panics replaying a way breaks the round trip.
    fn first_broken_law(&self, value: &T, size: usize, reproduced: &[T]) -> Option<Check> {
        if reproduced.is_empty() {
            return Some(Check::Reflects);
        }
        if reproduced.iter().any(|other| !same(other, value)) {
            return Some(Check::PureProjection);
        }
        let round_trips = caught(|| {
            let Ok(trees) = self.reflector(size).trees(value, self.ways_counted()) else {
                return true;
            };
            trees.iter().all(|tree| {
                super::generate::replay(self.g, tree).is_some_and(|replayed| same(&replayed, value))
            })
        });
        (round_trips != Ok(true)).then_some(Check::RoundTrip)
    }

    /// Whether `value` still fails `check`.
    fn fails(&self, check: Check, value: &T, size: usize) -> bool {
        match check {
            Check::Sound => self.unsound(value).is_some(),
            Check::Overlap => {
                let ways = caught(|| {
                    self.reflector(size)
                        .solutions(value, self.ways_counted(), false)
                });
                ways.is_ok_and(|ways| ways.is_ok_and(|ways| ways.len() > self.ways_allowed()))
            }
            law => match self.reproduced(value, size) {
                Ok(ways) => self.first_broken_law(value, size, &ways) == Some(law),
                Err(Unreflected::CannotProduce | Unreflected::Budget(_)) => false,
                Err(Unreflected::Panicked(_)) => law == Check::Reflects,
            },
        }
    }

    /// The problem `check` found on `generated`, its value shrunk through its own choices;
    /// `panicked` if the problem is an annotation that panics on it, which the value is then
    /// shrunk to keep doing.
    fn shrunk_problem(&self, check: Check, generated: Generated<T>, panicked: bool) -> Problem {
        let size = generated.tree.size();
        let original = format!("{:?}", generated.value);
        let still_fails = |value: &T| {
            if panicked {
                self.panic_reflecting(value, size).is_some()
            } else {
                self.fails(check, value, size)
            }
        };
        let minimal = shrink(self.g, generated, &still_fails, ShrinkBudget::default());
        let panic = panicked
            .then(|| self.panic_reflecting(&minimal.value, size))
            .flatten();
        let message = match check {
            Check::Sound => match self.unsound(&minimal.value).flatten() {
                Some(panic) => format!("the predicate panicked on a generated value: {panic}"),
                None => "a generated value fails the predicate".to_string(),
            },
            Check::Reflects => match panic {
                Some(panic) => format!(
                    "reflecting a generated value panicked: an annotation (a `focus` or \
                     `comap`) panics on a value the generator made: {panic}"
                ),
                None => format!(
                    "a generated value does not reflect at the size it was generated at \
                     ({size}): an annotation (a `focus`, `comap` or `exact`) prunes it"
                ),
            },
            Check::PureProjection => "a way of producing the value reflection finds \
                reproduces another value: a `focus` looks at the wrong part, or a `map` that \
                changes the value has no `focus` or `comap` undoing it"
                .to_string(),
            Check::RoundTrip => "a way of producing the value does not replay to it".to_string(),
            Check::Overlap => match self.max_ways {
                Some(1) => {
                    "a value reflects in more than one way: the generator is ambiguous".to_string()
                }
                Some(most) => {
                    format!("a value reflects in more than {most} ways: the generator is ambiguous")
                }
                None => format!(
                    "a value reflects in more than {OVERLAP_WAYS} ways (validation counts no \
                     further): the generator overlaps, likely exponentially (branches that \
                     produce the same values, chosen again for each element of a collection); \
                     make its branches exclusive with `focus` or `exact`, or allow more ways \
                     with `max_ways`"
                ),
            },
            Check::Generates | Check::Budget | Check::Complete => String::new(),
        };
        Problem {
            check,
            message,
            minimal: format!("{:?}", minimal.value),
            original,
            labels: minimal.tree.labels(),
        }
    }
}

/// Whether two values are the same for the laws: equal, or, for a value not equal to itself (a
/// NaN, or a value holding one), with the same debug text up to the order of the items in
/// braces (see [`canonical`]).
fn same<T: PartialEq + Debug>(a: &T, b: &T) -> bool {
    #[allow(clippy::eq_op)]
    let reflexive = a == a;
    a == b || !reflexive && canonical(&format!("{a:?}")) == canonical(&format!("{b:?}"))
}

/// `text`, a value's debug text, with the items of each group in braces (a set's elements, a
/// map's entries, a struct's fields) sorted: two equal hash sets or maps print their items in
/// the orders of their own hashers, so a value holding a NaN and a hash set with two elements
/// printed differently from its reproduction, a false alarm. A struct's fields are named, so
/// sorting them loses nothing; strings and chars are copied as they are.
fn canonical(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let (mut at, mut out) = (0, String::new());
    while at < chars.len() {
        canonical_item(&chars, &mut at, &[], &mut out);
        if at < chars.len() {
            // An unmatched closing bracket: kept as it is.
            out.push(chars[at]);
            at += 1;
        }
    }
    out
}

/// Copies `chars` from `at` to `out` up to one of `stops` or a closing bracket that is not
/// its own (left unread), each group in braces with its items sorted.
fn canonical_item(chars: &[char], at: &mut usize, stops: &[char], out: &mut String) {
    while let Some(&c) = chars.get(*at) {
        if stops.contains(&c) || matches!(c, ')' | ']' | '}') {
            return;
        }
        *at += 1;
        match c {
            '"' => {
                // A string, with its escapes: up to the next unescaped quote.
                out.push(c);
                let mut escaped = false;
                while let Some(&c) = chars.get(*at) {
                    *at += 1;
                    out.push(c);
                    match c {
                        '\\' if !escaped => escaped = true,
                        '"' if !escaped => break,
                        _ => escaped = false,
                    }
                }
            }
            '\'' => {
                // A char: `'x'`, or an escape up to the next quote (`'\''`, `'\u{1f600}'`).
                out.push(c);
                let end = if chars.get(*at) == Some(&'\\') {
                    chars[*at + 1..]
                        .iter()
                        .skip(1)
                        .position(|&c| c == '\'')
                        .map(|offset| *at + offset + 3)
                } else {
                    (chars.get(*at + 1) == Some(&'\'')).then_some(*at + 2)
                };
                if let Some(end) = end {
                    out.extend(&chars[*at..end]);
                    *at = end;
                }
            }
            '(' | '[' => {
                out.push(c);
                // As deep as the value: on more stack where it runs low.
                grow_if_low(|| canonical_item(chars, at, &[], out));
                if let Some(&close) = chars.get(*at) {
                    out.push(close);
                    *at += 1;
                }
            }
            '{' => {
                let mut items = Vec::new();
                loop {
                    let mut item = String::new();
                    grow_if_low(|| canonical_item(chars, at, &[','], &mut item));
                    items.push(item.trim().to_string());
                    match chars.get(*at) {
                        Some(',') => *at += 1,
                        _ => break,
                    }
                }
                items.sort();
                out.push('{');
                out.push_str(&items.join(", "));
                if let Some(&close) = chars.get(*at) {
                    out.push(close);
                    *at += 1;
                }
            }
            _ => out.push(c),
        }
    }
}

/// A problem of `check` on `value` (as `{:?}` writes it) that is not shrunk: a panic of the
/// user's code (a predicate, a reference generator), a budget, no value at all.
fn unshrunk_problem(check: Check, message: String, value: String) -> Problem {
    Problem {
        check,
        message,
        minimal: value.clone(),
        original: value,
        labels: Vec::new(),
    }
}

/// Adds the budget problem of the value `value` (as `{:?}` writes it) to `report`, unless it
/// has one.
fn add_budget_problem(report: &mut ValidationReport, value: String, error: &ReflectError) {
    if report.problem(Check::Budget).is_some() {
        return;
    }
    report.problems.push(unshrunk_problem(
        Check::Budget,
        format!("reflecting a value ran out of a budget: {error}"),
        value,
    ));
}

#[cfg(test)]
mod tests {
    use super::canonical;

    /// Each group in braces has its items sorted, at every depth; brackets, parentheses,
    /// strings and chars are kept as they are.
    #[test]
    fn canonical_text_sorts_the_items_in_braces_only() {
        assert_eq!(canonical("({2, 1}, NaN)"), canonical("({1, 2}, NaN)"));
        assert_eq!(canonical("[{b: 1, a: [2, 1]}]"), "[{a: [2, 1], b: 1}]");
        assert_eq!(canonical("(\"{b, a}\", '}')"), "(\"{b, a}\", '}')");
        assert_ne!(canonical("(1, 0, NaN)"), canonical("(0, 1, NaN)"));
    }

    /// A text nested as deep as a deep value is read on more stack, not overflowing it.
    #[test]
    fn canonical_text_of_a_deep_value_does_not_overflow_the_stack() {
        let depth = 200_000;
        let text = format!("{}NaN{}", "[{".repeat(depth), "}]".repeat(depth));
        assert_eq!(canonical(&text), text);
    }
}
