//! Valid generation by Choice Gradient Sampling on this library's own generators ("Parsing
//! Randomness", Goldstein and Pierce, Figure 4), hand-written or derived, with nothing
//! rewritten.
//!
//! The paper takes derivatives of free generators. Here the derivative of a generator by a
//! prefix of choices is the generator that replays the prefix and then generates: it needs no
//! second representation of the generator, works through `bind` (which a free generator has
//! not), and what it samples is exactly what the generator would make after those choices.
//! A descent starts with no prefix; at each step it probes which choice comes next (a pick's
//! branches, or an integer's values: every one for a range of at most
//! [`Gradient::int_candidates`] values, else that many drawn as the generator draws them),
//! samples each derivative `n` times, scores it by the number of distinct valid values among
//! its samples (the paper's `|V|`, `V` the set of samples that satisfy the predicate; told
//! apart by their choices, which differ for different values of a generator with one way to
//! make each), keeps the valid samples (duplicates too: they are results), and extends the
//! prefix by a choice weighted by its score (uniform when none scores), until the prefix
//! makes a whole value. [`free::cgs`](crate::free::cgs) is the same algorithm on the paper's
//! free generators. A derivative that makes no choice of its own (the prefix and the
//! candidate make the whole value, as near a descent's end) is run once for its `n` samples,
//! which would all be that value: the others are taken as its duplicates, not run (the
//! predicate is taken to be a function of the value), and it scores 1 if valid. Distinct
//! values, not valid samples, are what turns a descent from the end it can reach at once
//! (an empty tree, `n` times) toward the choices whose samples differ.
//!
//! Beyond the paper, every descent records how well each choice did in its context (the two
//! choices before it and the kind of choice), and [`Gradient::learned`] turns that history into
//! a generator that makes its choices with those weights without sampling: most of CGS's
//! validity at plain generation's speed, where the context predicts validity.
//! [`Gradient::mutating`] spends a share of the budget on mutants of the valid values found
//! (see [`mutate`](crate::mutate)): where valid values lie a few edits apart, mutants find new
//! ones far faster than descents, which then only need to find the first few.
//! [`Gradient::splicing`] draws a share of the samples with parts of the valid values found
//! (a subtree, a subterm) spliced in where the sample would draw their choices one by one:
//! where validity needs many choices to agree (the stored heights of an AVL tree), a sample
//! whose parts are valid already has only a few left to get right. And
//! [`Gradient::values`] hands out the values as the search finds them, for a caller that
//! stops on a clock or a count rather than on a budget.

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Debug};
use std::hash::{Hash, Hasher};

use rand_core::{Rng, SeedableRng};

use crate::choice::{Choice, ChoiceTree, Label};
use crate::engine::source::fragments::Fragments;
use crate::engine::source::prefix::PrefixSource;
use crate::engine::source::probe::{NextChoice, ProbeSource};
use crate::engine::source::random::weighted;
use crate::engine::{Forward, Halt, Placement};
pub use crate::free::PredicatePanicked;
use crate::free::checked;
use crate::node::Node;

use super::generate::{DEFAULT_SIZE, DefaultRng, Generated};
use super::mutate::Mutator;

mod learned;
mod parents;
mod valid;

pub use learned::Learned;
use parents::Parents;
pub use valid::ValidByGradient;

/// How many samples one descent of [`Gradient::one`], or the descents for one value of
/// [`ValidByGradient`], may spend by default: a descent stops where they are spent, with the
/// last valid value it sampled, if any.
pub const DEFAULT_MAX_SAMPLES: u64 = 100_000;

/// Valid generation by Choice Gradient Sampling from a generator and a predicate: see the
/// [module](self).
///
/// ```
/// use reflective::prelude::*;
/// // Lists of digits, of which only the sorted ones are wanted.
/// let lists = vec(range(0u8..=9), 0..=8);
/// let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(10);
/// let run = sorted.run(7, 2_000).unwrap();
/// assert!(run.values.iter().all(|v| v.value.is_sorted()));
/// assert!(run.stats.valid > 0);
/// ```
pub struct Gradient<'g, G: Node, P> {
    g: &'g G,
    valid: P,
    samples: usize,
    /// The size it generates at, and where among sizes and shares (inside a run, for
    /// [`ValidByGradient`]).
    placement: Placement,
    int_candidates: usize,
    /// With [`Gradient::rewarding_new`]: a hash of a value, to score only values not seen.
    novelty: Option<fn(&G::Output) -> u64>,
    /// With [`Gradient::mutating`]: the percentage of a run's budget spent on mutants.
    mutating: u8,
    /// With [`Gradient::splicing`]: the percentage of samples that splice in fragments.
    splicing: u8,
    /// The samples one descent of [`Gradient::one`] may spend.
    descent_samples: u64,
}

impl<G: Node, P> Debug for Gradient<'_, G, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gradient")
            .field("samples", &self.samples)
            .field("size", &self.placement.size)
            .field("int_candidates", &self.int_candidates)
            .field("mutating", &self.mutating)
            .field("splicing", &self.splicing)
            .finish_non_exhaustive()
    }
}

/// What gradient sampling found and spent.
#[derive(Clone, Debug)]
pub struct GradientRun<T> {
    /// The valid values found, each with its choices (duplicates kept, unless rewarding new
    /// values).
    pub values: Vec<Generated<T>>,
    /// What it spent.
    pub stats: GradientStats,
    /// How each choice did in its context: what [`Gradient::learned`] generates from.
    pub history: History,
}

/// What gradient sampling spent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GradientStats {
    /// Descents made (each from no choice to a whole value).
    pub descents: u64,
    /// Choices made along the descents.
    pub steps: u64,
    /// Values sampled from derivatives.
    pub samples: u64,
    /// Of those, how many satisfied the predicate.
    pub valid: u64,
    /// Steps at which no choice scored, so that the choice was uniform.
    pub blind_steps: u64,
    /// Samples that had fragments of the valid values found spliced in (see
    /// [`Gradient::splicing`]).
    pub spliced: u64,
    /// Mutants tried of the valid values found (see [`Gradient::mutating`]).
    pub mutants: u64,
    /// Of those, how many satisfied the predicate.
    pub valid_mutants: u64,
    /// Per labelled branch: samples drawn after taking it, and how many were valid (the
    /// fitness table).
    pub fitness: Vec<(Label, u64, u64)>,
}

impl GradientStats {
    /// Adds what `other` spent.
    pub fn absorb(&mut self, other: &GradientStats) {
        self.descents += other.descents;
        self.steps += other.steps;
        self.samples += other.samples;
        self.valid += other.valid;
        self.blind_steps += other.blind_steps;
        self.spliced += other.spliced;
        self.mutants += other.mutants;
        self.valid_mutants += other.valid_mutants;
        for (label, samples, valid) in &other.fitness {
            match self.fitness.iter_mut().find(|entry| &entry.0 == label) {
                Some(entry) => {
                    entry.1 += samples;
                    entry.2 += valid;
                }
                None => self.fitness.push((*label, *samples, *valid)),
            }
        }
    }
}

impl fmt::Display for GradientStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "gradient sampling: {} descents, {} choices ({} blind), {} samples, {} valid",
            self.descents, self.steps, self.blind_steps, self.samples, self.valid
        )?;
        if self.spliced > 0 {
            writeln!(f, "    spliced      {:>8} samples", self.spliced)?;
        }
        if self.mutants > 0 {
            writeln!(
                f,
                "    mutants      {:>8} of {:>8} valid",
                self.valid_mutants, self.mutants
            )?;
        }
        for (label, samples, valid) in &self.fitness {
            let share = 100.0 * *valid as f64 / (*samples).max(1) as f64;
            writeln!(
                f,
                "    {label:<12} {valid:>8} of {samples:>8} valid ({share:5.1}%)"
            )?;
        }
        Ok(())
    }
}

/// The context a choice is made in: the two choices before it, and the kind of choice.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Context {
    before: [Option<i128>; 2],
    /// A pick's number of branches, or an integer's range.
    kind: (u8, i128, i128),
}

/// How each choice did in each context along gradient sampling's descents.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Per context, per value of the choice: valid samples, and samples.
    table: HashMap<Context, HashMap<i128, (u64, u64)>>,
}

impl History {
    fn record(&mut self, context: Context, value: i128, valid: u64, samples: u64) {
        let entry = self
            .table
            .entry(context)
            .or_default()
            .entry(value)
            .or_default();
        entry.0 += valid;
        entry.1 += samples;
    }

    /// How many contexts it has seen.
    pub fn contexts(&self) -> usize {
        self.table.len()
    }

    /// Adds what `other` recorded.
    pub fn absorb(&mut self, other: History) {
        for (context, values) in other.table {
            let mine = self.table.entry(context).or_default();
            for (value, (valid, samples)) in values {
                let entry = mine.entry(value).or_default();
                entry.0 += valid;
                entry.1 += samples;
            }
        }
    }
}

fn context_of(before: &[i128], kind: (u8, i128, i128)) -> Context {
    let at = |back: usize| before.len().checked_sub(back).map(|i| before[i]);
    Context {
        before: [at(2), at(1)],
        kind,
    }
}

impl<'g, T, G, P> Gradient<'g, G, P>
where
    T: Clone + Debug,
    G: Node<Output = T>,
    P: Fn(&T) -> bool,
{
    pub(crate) fn new(g: &'g G, valid: P) -> Self {
        Gradient {
            g,
            valid,
            samples: 50,
            placement: Placement::at(DEFAULT_SIZE),
            int_candidates: 16,
            novelty: None,
            mutating: 0,
            splicing: 0,
            descent_samples: DEFAULT_MAX_SAMPLES,
        }
    }

    /// The generator it samples.
    pub fn generator(&self) -> &'g G {
        self.g
    }

    /// Whether the predicate accepts `value`.
    pub fn accepts(&self, value: &T) -> bool {
        (self.valid)(value)
    }

    /// Samples each derivative `n` times (the paper's `N`; 50 by default; at least once: 0
    /// counts as 1).
    pub fn samples(mut self, n: usize) -> Self {
        self.samples = n.max(1);
        self
    }

    /// Generates at `size` (default [`DEFAULT_SIZE`](crate::DEFAULT_SIZE)).
    pub fn size(mut self, size: usize) -> Self {
        self.placement = Placement::at(size);
        self
    }

    /// Scores every value of an integer choice over at most `count` values, and `count` values
    /// drawn as the generator draws them from a wider range (16 by default).
    pub fn int_candidates(mut self, count: usize) -> Self {
        self.int_candidates = count.max(1);
        self
    }

    /// Spends `percent` of a [`run`](Gradient::run)'s budget (0 by default, at most 100) on
    /// mutants of the valid values found so far, beyond the paper: each one a valid value
    /// found, most often one of the last found (whose neighbours are mostly not found yet),
    /// with one edit of its choices (see [`mutate`](crate::mutate)),
    /// kept as a result and as a value to mutate when the predicate accepts it (and it is new,
    /// when rewarding new values). Valid values are often a few edits apart, so mutants find
    /// many more of them per second than descents do, once the descents have found a few;
    /// where they are not (a stored height that every node above an insertion must change
    /// with it), mutants find few new ones. Descents make the rest of the budget, and run
    /// until they find a first valid value whatever the share. A mutant counts as one sample
    /// of the budget, though finding an edit that changes the value may replay the generator
    /// a few times; [`GradientStats::mutants`] counts them, tries that found no edit included.
    /// [`Gradient::one`] (and so [`check_by_gradient`](crate::check::check_by_gradient)),
    /// one descent per case, makes no mutant.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let lists = vec(range(0u8..=9), 0..=8);
    /// let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(10).mutating(80);
    /// let run = sorted.run(7, 2_000).unwrap();
    /// assert!(run.values.iter().all(|v| v.value.is_sorted()));
    /// assert!(run.stats.mutants > 0 && run.stats.valid_mutants > 0);
    /// ```
    pub fn mutating(mut self, percent: u8) -> Self {
        self.mutating = percent.min(100);
        self
    }

    /// Draws `percent` of the samples (0 by default, at most 100) with fragments of the valid
    /// values found so far spliced in, beyond the paper: past the prefix, a pick may take the
    /// choices of a part of a valid value that opened with the same branch (a subtree, a
    /// subterm, a variant with its fields: the choices of a span that opens with a pick)
    /// instead of drawing them one by one. Where validity needs many choices to agree, as
    /// the stored heights of an AVL tree do, a derivative's samples then find valid values
    /// from larger candidates than random choices ever make, and the descents reach values
    /// one edit of a value found does not (a taller tree, whose new root stores the height
    /// of the subtrees spliced under it); with [`Gradient::mutating`], their mutants find
    /// many more. Only picks take fragments: a generator that makes none (a list of
    /// integers) splices nothing. Fragments come from the values found by a
    /// [`run`](Gradient::run) or [`values`](Gradient::values) search, at most 65 536 choices
    /// of them (4 MB of choices); [`Gradient::one`] (one descent, and so
    /// `check_by_gradient` and `valid_by_gradient`) splices none. [`GradientStats::spliced`]
    /// counts the samples that took a fragment.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// #[derive(Clone, Debug, PartialEq, Reflective)]
    /// enum Tree {
    ///     Leaf,
    ///     Node(Box<Tree>, #[reflective(generator = range(0u8..=9))] u8, Box<Tree>),
    /// }
    /// fn keys(t: &Tree) -> Vec<u8> {
    ///     match t {
    ///         Tree::Leaf => vec![],
    ///         Tree::Node(l, k, r) => [keys(l), vec![*k], keys(r)].concat(),
    ///     }
    /// }
    /// // Search trees: their keys in order, strictly.
    /// let search = |t: &Tree| keys(t).windows(2).all(|w| w[0] < w[1]);
    /// let trees = Tree::arbitrary_reflective();
    /// let run = trees.gradient(search).samples(10).size(10).splicing(50).run(7, 5_000).unwrap();
    /// assert!(run.values.iter().all(|t| search(&t.value)));
    /// assert!(run.stats.spliced > 0);
    /// ```
    pub fn splicing(mut self, percent: u8) -> Self {
        self.splicing = percent.min(100);
        self
    }

    /// Stops a descent of [`Gradient::one`] (one case of
    /// [`check_by_gradient`](crate::check::check_by_gradient)) once it has spent `samples`
    /// samples ([`DEFAULT_MAX_SAMPLES`] by default): its value is then the last valid value
    /// its samples found, if any. A value with many choices takes a descent many samples (each
    /// choice scores its candidates by sampling), so this bounds the time a case takes.
    pub fn max_descent_samples(mut self, samples: u64) -> Self {
        self.descent_samples = samples;
        self
    }

    /// Descents seeded by `seed` until `max_samples` samples are spent (a step stops in the
    /// middle when they are: a run spends exactly its budget), and mutants with
    /// [`Gradient::mutating`]. A generator that panics is not caught: the panic goes on to
    /// the caller, as in plain generation. A predicate that no value satisfies ends with no
    /// values when the budget is spent; one that panics stops with the value it panicked on.
    pub fn run(&self, seed: u64, max_samples: u64) -> Result<GradientRun<T>, PredicatePanicked> {
        let mut search = SearchState::new(seed, self.mutating > 0, self.splicing > 0);
        while let Step::Taken = self.step(&mut search, max_samples)? {}
        search.run.stats.fitness = fitness_table(search.fitness);
        Ok(search.run)
    }

    /// The valid values [`Gradient::run`] finds with the same seed and budget, one at a time
    /// as it finds them, for a caller that stops when it has enough (a count, a clock). It
    /// does not keep what it hands out: a long search holds a hash of each value seen (when
    /// rewarding new values) and, for the mutants of [`Gradient::mutating`], the values found
    /// last and a selection of at most a few thousand of the others, whatever it found (and
    /// for [`Gradient::splicing`], fragments of at most 65 536 choices). A
    /// predicate that panics ends it: the values found before come first, then the error
    /// with the value it panicked on.
    ///
    /// A search looks for its next value until its budget is spent, so one with a budget it
    /// never spends (`u64::MAX`) never returns once no new value is left to find (rewarding
    /// new values), or when the predicate holds for none. A caller on a clock gives a finite
    /// budget and [raises](Values::raise_budget) it while time is left, so that the search
    /// goes on where it stopped:
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use std::time::{Duration, Instant};
    /// let lists = vec(range(0u8..=9), 0..=8);
    /// let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).rewarding_new().mutating(50);
    /// let mut search = sorted.values(7, 0);
    /// let (start, mut found) = (Instant::now(), Vec::new());
    /// while start.elapsed() < Duration::from_millis(50) && found.len() < 1_000 {
    ///     search.raise_budget(1_000);
    ///     found.extend(search.by_ref().map(|value| value.unwrap().value));
    /// }
    /// assert!(!found.is_empty() && found.iter().all(|xs| xs.is_sorted()));
    /// ```
    pub fn values(&self, seed: u64, max_samples: u64) -> Values<'_, 'g, G, P> {
        Values {
            gradient: self,
            search: SearchState::new(seed, self.mutating > 0, self.splicing > 0),
            max_samples,
            pending: Vec::new().into_iter(),
            handed_out: 0,
            stopped: None,
            panicked: None,
        }
    }

    /// Spends a little more of the budget: one step of a descent (starting one if none is in
    /// progress, going on with the one that paused if one did), or one mutant of a value
    /// found; or, if it cannot, why.
    fn step(
        &self,
        search: &mut SearchState<'g, G>,
        max_samples: u64,
    ) -> Result<Step, PredicatePanicked> {
        let stats = &search.run.stats;
        let spent = stats.samples + stats.mutants;
        if spent >= max_samples {
            return Ok(Step::BudgetSpent);
        }
        let mutants = stats.mutants;
        let paused = search.descent.as_ref().is_some_and(|d| d.scoring.is_some());
        if !paused {
            search.pool_found();
            search.splice_found();
            let found_any = search.parents.as_ref().is_some_and(|p| !p.is_empty());
            if found_any && mutants * 100 < u64::from(self.mutating) * spent {
                self.mutate_found(search)?;
                return Ok(Step::Taken);
            }
        }
        if search.descent.is_none() {
            search.start_descent();
        }
        if self.descent_step(search, Some(max_samples))? != StepEnd::Over {
            return Ok(Step::Taken);
        }
        let began = search.descent.take().map_or(0, |d| d.samples_before);
        if search.run.stats.samples > began {
            Ok(Step::Taken)
        } else {
            Ok(Step::Stuck)
        }
    }

    /// One descent at `size` seeded by `seed`, for a runner's case: its last value if valid,
    /// else the last valid value its samples found (`None` if none was), with what it spent.
    /// It stops where it has spent [`Gradient::max_descent_samples`].
    pub fn one(
        &self,
        seed: u64,
        size: usize,
    ) -> Result<(Option<Generated<T>>, GradientStats), PredicatePanicked> {
        self.one_within(seed, Placement::at(size), self.descent_samples)
    }

    /// [`Gradient::one`] at `placement`, stopping in the middle of the descent once it has
    /// spent `budget` samples: then its value is the last valid value its samples found.
    pub(crate) fn one_within(
        &self,
        seed: u64,
        placement: Placement,
        budget: u64,
    ) -> Result<(Option<Generated<T>>, GradientStats), PredicatePanicked> {
        let sized = Gradient {
            g: self.g,
            valid: &self.valid,
            samples: self.samples,
            placement,
            int_candidates: self.int_candidates,
            novelty: self.novelty,
            mutating: self.mutating,
            splicing: self.splicing,
            descent_samples: self.descent_samples,
        };
        let mut search = SearchState::new(seed, false, false);
        search.start_descent();
        while sized.descent_step(&mut search, Some(budget))? == StepEnd::GoesOn {}
        let mut run = search.run;
        run.stats.fitness = fitness_table(search.fitness);
        Ok((run.values.pop(), run.stats))
    }

    /// One mutant of a valid value found, kept if valid (and new, when rewarding new values).
    fn mutate_found(&self, search: &mut SearchState<'g, G>) -> Result<(), PredicatePanicked> {
        let SearchState {
            rng,
            run,
            seen,
            mutator,
            parents,
            ..
        } = search;
        let mutator = mutator.get_or_insert_with(|| Mutator::new(self.g));
        run.stats.mutants += 1;
        let parents = parents
            .as_ref()
            .expect("a search that mutates keeps parents");
        let Ok(mutant) = mutator.mutate_tree(parents.draw(rng), rng) else {
            return Ok(());
        };
        let verdict = self.judge(&mutant.value, seen)?;
        if verdict != Verdict::Invalid {
            run.stats.valid_mutants += 1;
        }
        if verdict == Verdict::Counts {
            run.values.push(Generated {
                value: mutant.value,
                tree: mutant.tree,
            });
        }
        Ok(())
    }

    /// One step of the descent in progress: probes the next choice, scores its candidates by
    /// their samples and takes one. With a `budget`, the step pauses where the search's
    /// samples reach it, and a later call goes on where it paused, drawing what it would have
    /// drawn. What the step came to: the descent is over (its prefix made a whole value, kept
    /// if it counts, or the generator failed, or no choice can be taken), it goes on, or the
    /// step paused.
    fn descent_step(
        &self,
        search: &mut SearchState<'g, G>,
        budget: Option<u64>,
    ) -> Result<StepEnd, PredicatePanicked> {
        let SearchState {
            rng,
            run,
            fitness,
            seen,
            descent,
            fragments,
            ..
        } = search;
        let Some(Descent {
            prefix,
            values,
            scoring,
            ..
        }) = descent
        else {
            // No descent in progress (its callers start one): nothing to step.
            return Ok(StepEnd::Over);
        };
        if scoring.is_none() {
            let Some(probed) = self.probe(prefix, values, rng, run, seen)? else {
                return Ok(StepEnd::Over);
            };
            *scoring = Some(probed);
        }
        let scored = scoring
            .as_mut()
            .expect("a step scores the candidates it probed");
        while scored.at < scored.candidates.len() {
            let choices = {
                let mut choices = prefix.clone();
                choices.push(scored.candidates[scored.at].clone());
                choices
            };
            while scored.done < self.samples {
                if budget.is_some_and(|budget| run.stats.samples + run.stats.mutants >= budget) {
                    return Ok(StepEnd::Paused);
                }
                run.stats.samples += 1;
                let (sampled, drew, spliced) =
                    self.sample(&choices, rng, seen, fragments.as_ref())?;
                run.stats.spliced += u64::from(spliced);
                // A derivative that makes no choice gives every sample this one, from
                // the same randomness, untouched: the others (as many as the budget has
                // left) are counted, not run (a step that pauses here runs the one sample
                // again when it goes on, and counts the rest then).
                let left = budget.map_or(u64::MAX, |budget| {
                    budget.saturating_sub(run.stats.samples + run.stats.mutants)
                });
                let rest = if drew {
                    0
                } else {
                    (self.samples - scored.done - 1)
                        .min(usize::try_from(left).unwrap_or(usize::MAX))
                };
                run.stats.samples += rest as u64;
                scored.done += 1 + rest;
                let valid = match sampled {
                    Sampled::Counted(sample) => {
                        // A value counts once in the candidate's score, as the paper's set of
                        // valid samples does: the others are duplicates of it (kept among the
                        // values unless rewarding new values: then they are seen).
                        if scored.distinct.insert(self.identity(&sample)) {
                            scored.score += 1;
                        }
                        if rest > 0 && self.novelty.is_none() {
                            run.values.extend(std::iter::repeat_n(sample.clone(), rest));
                        }
                        run.values.push(sample);
                        1 + rest as u64
                    }
                    Sampled::Seen(hash) => {
                        scored.distinct.insert(hash);
                        1 + rest as u64
                    }
                    Sampled::Invalid => 0,
                };
                // The statistics take each sample as it is drawn, so that a run that ends in
                // the middle of a step counts what it drew.
                scored.valid += valid;
                run.stats.valid += valid;
                if let Some(label) = scored.labels[scored.at] {
                    let entry = fitness.entry(label).or_default();
                    entry.0 += 1 + rest as u64;
                    entry.1 += valid;
                }
            }
            // The history keeps how often the choice's samples were valid (new, when
            // rewarding new values): what the learned generator favours.
            let kept = if self.novelty.is_some() {
                scored.score
            } else {
                scored.valid
            };
            run.history.record(
                scored.context.clone(),
                scored.candidates[scored.at].value(),
                kept,
                self.samples as u64,
            );
            scored.scores.push(scored.score);
            scored.distinct_counts.push(scored.distinct.len() as u64);
            scored.distinct.clear();
            (scored.at, scored.done, scored.score, scored.valid) = (scored.at + 1, 0, 0, 0);
        }
        let Scoring {
            candidates,
            mut scores,
            distinct_counts,
            ..
        } = scoring
            .take()
            .expect("a step scores the candidates it probed");
        if scores.iter().all(|&score| score == 0) {
            // Rewarding new values, when none is new: the distinct valid ones, as the paper
            // scores.
            scores = distinct_counts;
        }
        if scores.iter().all(|&score| score == 0) {
            run.stats.blind_steps += 1;
            scores.iter_mut().for_each(|score| *score = 1);
        }
        let chosen = weighted(rng, &scores);
        values.push(candidates[chosen].value());
        prefix.push(candidates[chosen].clone());
        run.stats.steps += 1;
        Ok(StepEnd::GoesOn)
    }

    /// Runs the generator on the descent's `prefix`: the candidates of the choice it asks for
    /// next, to be scored; or `None` if the descent is over (the value it makes kept if it
    /// counts).
    fn probe(
        &self,
        prefix: &[Choice],
        values: &[i128],
        rng: &mut DefaultRng,
        run: &mut GradientRun<T>,
        seen: &mut HashSet<u64>,
    ) -> Result<Option<Scoring>, PredicatePanicked> {
        let mut probe = ProbeSource::new(prefix);
        let mut forward = Forward::placed(&mut probe, self.placement, true);
        match self.g.forward(&mut forward) {
            Ok(value) => {
                let tree = forward.into_tree();
                if self.judge(&value, seen)? == Verdict::Counts {
                    let tree = tree.compact();
                    run.values.push(Generated { value, tree });
                }
                return Ok(None);
            }
            Err(Halt::Misfit) => {}
            Err(Halt::Failed(_) | Halt::Rejected { .. }) => return Ok(None),
        }
        let Some(next) = probe.next.take() else {
            return Ok(None);
        };
        let Candidates {
            choices: candidates,
            labels,
            kind,
        } = self.candidates(next, rng);
        if candidates.is_empty() {
            return Ok(None);
        }
        Ok(Some(Scoring {
            scores: Vec::with_capacity(candidates.len()),
            distinct_counts: Vec::with_capacity(candidates.len()),
            context: context_of(values, kind),
            candidates,
            labels,
            at: 0,
            done: 0,
            score: 0,
            valid: 0,
            distinct: HashSet::new(),
        }))
    }

    /// The choices to score after a prefix.
    fn candidates(&self, next: NextChoice, rng: &mut DefaultRng) -> Candidates {
        match next {
            NextChoice::Pick { weights, labels } => {
                let arity = weights.len() as u32;
                let (choices, labels) = (0..arity)
                    .filter(|&index| weights[index as usize] > 0)
                    .map(|index| {
                        let label = labels[index as usize];
                        let choice = Choice::Pick {
                            index,
                            arity,
                            label,
                        };
                        (choice, label)
                    })
                    .unzip();
                Candidates {
                    choices,
                    labels,
                    kind: (0, i128::from(arity), 0),
                }
            }
            NextChoice::Int {
                lo,
                hi,
                shape,
                size,
            } => {
                let values: Vec<i128> = if hi.abs_diff(lo) < self.int_candidates as u128 {
                    (lo..=hi).collect()
                } else {
                    let mut drawn: Vec<i128> = (0..self.int_candidates)
                        .map(|_| shape.sample(lo, hi, size, &mut || rng.next_u64()))
                        .collect();
                    drawn.sort_unstable();
                    drawn.dedup();
                    drawn
                };
                let choices: Vec<Choice> = values
                    .into_iter()
                    .map(|value| Choice::Int { value, lo, hi })
                    .collect();
                let labels = vec![None; choices.len()];
                Candidates {
                    choices,
                    labels,
                    kind: (1, lo, hi),
                }
            }
        }
    }

    /// A value of the derivative by `choices` (they are replayed, the rest drawn at random),
    /// with its choices if it counts: the value is drawn without recording, and drawn again
    /// from the same randomness with its choices only when it is kept.
    ///
    /// Also whether the sample read the randomness (drew a choice past `choices`), and
    /// whether it took a fragment (with `fragments`, a share of the samples splice them in:
    /// see [`Gradient::splicing`]).
    fn sample(
        &self,
        choices: &[Choice],
        rng: &mut DefaultRng,
        seen: &mut HashSet<u64>,
        fragments: Option<&Fragments>,
    ) -> Result<(Sampled<T>, bool, bool), PredicatePanicked> {
        let start = rng.clone();
        let (replayed, drew, spliced) = self.replay(choices, rng, false, fragments);
        let Some((value, _)) = replayed else {
            return Ok((Sampled::Invalid, drew, spliced));
        };
        match self.judge(&value, seen)? {
            Verdict::Invalid => return Ok((Sampled::Invalid, drew, spliced)),
            Verdict::Seen(hash) => return Ok((Sampled::Seen(hash), drew, spliced)),
            Verdict::Counts => {}
        }
        let mut again = start;
        let sampled = match self.replay(choices, &mut again, true, fragments).0 {
            Some((value, tree)) => Sampled::Counted(Generated {
                value,
                tree: tree.compact(),
            }),
            None => Sampled::Invalid,
        };
        Ok((sampled, drew, spliced))
    }

    /// Whether `value` is valid, and whether it counts: every valid value, unless rewarding
    /// new values, then only the first time. Only valid values are remembered as seen, so a
    /// value seen before is valid without asking the predicate again (with a deterministic
    /// predicate, as the search assumes throughout; an invalid value whose 64-bit hash is
    /// that of a valid one seen would count as seen, and is never kept).
    fn judge(&self, value: &T, seen: &mut HashSet<u64>) -> Result<Verdict, PredicatePanicked> {
        let Some(hash) = self.novelty else {
            return Ok(if self.check(value)? {
                Verdict::Counts
            } else {
                Verdict::Invalid
            });
        };
        let hash = hash(value);
        if seen.contains(&hash) {
            return Ok(Verdict::Seen(hash));
        }
        if !self.check(value)? {
            return Ok(Verdict::Invalid);
        }
        seen.insert(hash);
        Ok(Verdict::Counts)
    }

    /// `choices` replayed, the rest drawn with `rng` (splicing in `fragments`, if given, as
    /// [`Gradient::splicing`] says), the choices recorded if `record`; whether a choice past
    /// `choices` read `rng`, and whether a fragment was taken. A generator that panics is
    /// not caught: the panic goes on to the caller, as in plain generation.
    fn replay(
        &self,
        choices: &[Choice],
        rng: &mut DefaultRng,
        record: bool,
        fragments: Option<&Fragments>,
    ) -> (Option<(T, ChoiceTree)>, bool, bool) {
        let mut source = PrefixSource::new(choices, rng);
        if let Some(fragments) = fragments {
            source = source.splicing(fragments, self.splicing);
        }
        let mut forward = Forward::placed(&mut source, self.placement, record);
        let value = self.g.forward(&mut forward);
        let tree = forward.into_tree();
        let replayed = value.ok().map(|value| (value, tree));
        (replayed, source.drew(), source.spliced())
    }

    /// What tells a valid value from another within a step's samples: its hash when rewarding
    /// new values, else the hash of its choices (the same for the same value, for a generator
    /// with one way to make each, as a derived one).
    fn identity(&self, sample: &Generated<T>) -> u64 {
        if let Some(hash) = self.novelty {
            return hash(&sample.value);
        }
        let mut hasher = std::hash::DefaultHasher::new();
        for choice in sample.tree.choices() {
            choice.value().hash(&mut hasher);
        }
        hasher.finish()
    }

    /// The predicate on `value`, its panic an error with the value.
    pub(crate) fn check(&self, value: &T) -> Result<bool, PredicatePanicked> {
        checked(&self.valid, value)
    }

    /// A generator that makes each choice weighted by how it did in `history` (choices and
    /// contexts it has not seen keep the generator's own distribution): valid values at plain
    /// generation's speed, as far as the context of a choice predicts validity. It is a
    /// generator like any other, whose values are the generator's (see [`Learned`]).
    pub fn learned(&self, history: History) -> Learned<G>
    where
        G: Clone,
    {
        Learned::new(self.g.clone(), history)
    }
}

impl<T, G, P> Gradient<'_, G, P>
where
    T: Clone + Debug + Hash,
    G: Node<Output = T>,
    P: Fn(&T) -> bool,
{
    /// Scores a choice by the valid values *not seen before* its samples found, and keeps
    /// only those (beyond the paper, whose score counts the distinct valid values of the
    /// step's samples, found before or not): the descent turns away from the small values
    /// every descent finds again, toward valid values not found yet. At a step where no
    /// choice's samples found a new value, the choices are scored by the distinct valid
    /// values they found, as the paper scores them (uniformly if they found none), rather
    /// than uniformly: the descent keeps heading where valid values are.
    /// By the values' hashes; a value seen before was valid, so the predicate is not asked
    /// about it again (it must give the same answer for the same value).
    pub fn rewarding_new(mut self) -> Self {
        self.novelty = Some(hash_of::<T>);
        self
    }
}

/// Where a gradient search stands: its randomness, what it found (and not yet handed out)
/// and spent, the fitness per label, the values seen (when rewarding new values), the
/// mutator of values found (made with the first mutant), the values mutants are made from
/// (when it mutates), and the descent in progress.
struct SearchState<'g, G: Node> {
    rng: DefaultRng,
    run: GradientRun<G::Output>,
    fitness: HashMap<Label, (u64, u64)>,
    seen: HashSet<u64>,
    mutator: Option<Mutator<'g, G>>,
    parents: Option<Parents>,
    /// The fragments of the values found, when it splices (see [`Gradient::splicing`]).
    fragments: Option<Fragments>,
    /// The choices of the values found that the fragments take at the next step's start
    /// (not in the middle of a step that paused, which goes on as if it had not).
    unspliced: Vec<ChoiceTree>,
    /// How many of `run.values` the parents and the fragments have taken.
    pooled: usize,
    /// The descent in progress, if one is.
    descent: Option<Descent>,
}

/// A descent in progress: the choices it has made, their values (for the history's context),
/// the samples spent before it began, and the step it paused in, if it did.
struct Descent {
    prefix: Vec<Choice>,
    values: Vec<i128>,
    samples_before: u64,
    scoring: Option<Scoring>,
}

/// A step's candidates for the next choice, as far as they are scored: those before `at`
/// have their scores, and the one at `at` has `done` samples, `score`, `valid` samples and
/// the `distinct` valid values of its samples so far.
struct Scoring {
    candidates: Vec<Choice>,
    labels: Vec<Option<Label>>,
    context: Context,
    scores: Vec<u64>,
    /// The number of distinct valid values each candidate's samples found: the paper's score,
    /// which a search rewarding new values falls back on at a step where no value is new.
    distinct_counts: Vec<u64>,
    at: usize,
    done: usize,
    score: u64,
    valid: u64,
    /// The identities ([`Gradient::identity`]) of the valid values found so far.
    distinct: HashSet<u64>,
}

/// What one call of a descent's step came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StepEnd {
    /// The descent is over.
    Over,
    /// A choice was taken; the descent goes on.
    GoesOn,
    /// The budget was spent while the step scored its candidates; it goes on from there.
    Paused,
}

impl<G: Node> SearchState<'_, G> {
    /// A search seeded by `seed`, that keeps parents for mutants if it `mutates` and
    /// fragments if it `splices`.
    fn new(seed: u64, mutates: bool, splices: bool) -> Self {
        SearchState {
            rng: DefaultRng::seed_from_u64(seed),
            run: GradientRun {
                values: Vec::new(),
                stats: GradientStats::default(),
                history: History::default(),
            },
            fitness: HashMap::new(),
            seen: HashSet::new(),
            mutator: None,
            parents: mutates.then(Parents::default),
            fragments: splices.then(Fragments::default),
            unspliced: Vec::new(),
            pooled: 0,
            descent: None,
        }
    }

    /// Gives the parents (if the search keeps them) the values found since it last did, and
    /// sets their choices aside for the fragments (if it keeps them).
    fn pool_found(&mut self) {
        debug_assert!(self.pooled <= self.run.values.len());
        for found in &self.run.values[self.pooled..] {
            if let Some(parents) = &mut self.parents {
                parents.add(found.tree.clone());
            }
            if self.fragments.is_some() {
                self.unspliced.push(found.tree.clone());
            }
        }
        self.pooled = self.run.values.len();
    }

    /// Gives the fragments (if the search keeps them) the choices set aside for them: at the
    /// start of a step, so that a search handed out in parts draws what one run draws.
    fn splice_found(&mut self) {
        if let Some(fragments) = &mut self.fragments {
            for tree in self.unspliced.drain(..) {
                fragments.add(&tree, &mut self.rng);
            }
        }
    }

    /// The values found and not taken yet, which the search no longer keeps (but for what
    /// the parents take of them, and their choices set aside for the fragments).
    fn take_found(&mut self) -> Vec<Generated<G::Output>> {
        self.pool_found();
        self.pooled = 0;
        std::mem::take(&mut self.run.values)
    }

    /// Starts a descent from no choice.
    fn start_descent(&mut self) {
        self.run.stats.descents += 1;
        self.descent = Some(Descent {
            prefix: Vec::new(),
            values: Vec::new(),
            samples_before: self.run.stats.samples,
            scoring: None,
        });
    }
}

/// What a search's [step](Gradient::step) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// It spent some of the budget.
    Taken,
    /// None: the budget is spent.
    BudgetSpent,
    /// None: a descent ended having spent nothing (a generator that makes no choice, or
    /// none a descent can take), and the next would do the same.
    Stuck,
}

/// The valid values of a gradient search, as it finds them: see [`Gradient::values`].
pub struct Values<'s, 'g, G: Node, P> {
    gradient: &'s Gradient<'g, G, P>,
    search: SearchState<'g, G>,
    max_samples: u64,
    /// The values found that it has not handed out yet (the search no longer keeps them).
    pending: std::vec::IntoIter<Generated<G::Output>>,
    /// How many values it has handed out.
    handed_out: u64,
    /// Why the search stopped, if it has.
    stopped: Option<Step>,
    /// The predicate's panic that ended the search, until it is handed out.
    panicked: Option<PredicatePanicked>,
}

impl<G: Node, P> Debug for Values<'_, '_, G, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Values")
            .field("handed_out", &self.handed_out)
            .field("pending", &self.pending.len())
            .finish_non_exhaustive()
    }
}

impl<G: Node, P> Values<'_, '_, G, P> {
    /// Raises the budget by `samples`: a search that stopped when its budget was spent goes
    /// on from where it stopped, as one given the whole budget from the start would have
    /// gone, with every value it found (for a caller that checks a clock between budgets). A
    /// search that ended otherwise (nothing left to try, a panic) stays ended.
    pub fn raise_budget(&mut self, samples: u64) {
        self.max_samples = self.max_samples.saturating_add(samples);
        if self.stopped == Some(Step::BudgetSpent) {
            self.stopped = None;
        }
    }

    /// What the search has spent so far, with its fitness table.
    pub fn stats(&self) -> GradientStats {
        GradientStats {
            fitness: fitness_table(self.search.fitness.clone()),
            ..self.search.run.stats.clone()
        }
    }
}

impl<T, G, P> Iterator for Values<'_, '_, G, P>
where
    T: Clone + Debug,
    G: Node<Output = T>,
    P: Fn(&T) -> bool,
{
    type Item = Result<Generated<T>, PredicatePanicked>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(found) = self.pending.next() {
                self.handed_out += 1;
                return Some(Ok(found));
            }
            if !self.search.run.values.is_empty() {
                self.pending = self.search.take_found().into_iter();
                continue;
            }
            if self.stopped.is_some() {
                return self.panicked.take().map(Err);
            }
            match self.gradient.step(&mut self.search, self.max_samples) {
                Ok(Step::Taken) => {}
                Ok(stopped) => self.stopped = Some(stopped),
                Err(panicked) => {
                    self.stopped = Some(Step::Stuck);
                    self.panicked = Some(panicked);
                }
            }
        }
    }
}

/// The fitness per label, as a table sorted by label.
fn fitness_table(fitness: HashMap<Label, (u64, u64)>) -> Vec<(Label, u64, u64)> {
    let mut table: Vec<(Label, u64, u64)> = fitness
        .into_iter()
        .map(|(label, (samples, valid))| (label, samples, valid))
        .collect();
    table.sort_by_key(|entry| entry.0.to_string());
    table
}

/// A hash of `value`.
fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// What the predicate and the values seen make of a value (see [`Gradient::judge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The predicate rejects it.
    Invalid,
    /// Valid, but seen before while rewarding new values (with its hash): it does not count.
    Seen(u64),
    /// Valid, and it counts.
    Counts,
}

/// What one sample of a derivative gave.
enum Sampled<T> {
    /// No value, or one the predicate rejects.
    Invalid,
    /// A valid value seen before, when rewarding new values (with its hash): it does not
    /// count.
    Seen(u64),
    /// A valid value that counts, with its choices.
    Counted(Generated<T>),
}

/// The choices a descent scores after a prefix, with their labels, and the kind of choice
/// (for the history's context).
struct Candidates {
    choices: Vec<Choice>,
    labels: Vec<Option<Label>>,
    kind: (u8, i128, i128),
}
