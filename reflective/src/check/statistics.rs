//! What a property's cases were: labels, classes, tables and coverage, as QuickCheck's
//! `label`, `classify`, `tabulate` and `cover` give them.
//!
//! Inside a property run by [`check`](crate::check::check), these functions record facts about
//! the case being run; after the run the runner prints them as an aligned table with bars
//! (when [`Config::statistics`](crate::check::Config::statistics) asks, and in every failure
//! report), and fails the run if a [`cover`] requirement is not met. Outside a run (and while
//! a failure is shrunk) they do nothing.
//!
//! ```
//! use reflective::prelude::*;
//! use reflective::check::{Config, check_with};
//! use reflective::statistics::{classify, cover, tabulate};
//! check_with(&Config::new().seed(1), &<Vec<u8>>::arbitrary_reflective(), |xs: &Vec<u8>| {
//!     classify(xs.is_empty(), "empty");
//!     tabulate("length", xs.len() / 10 * 10);
//!     cover(50.0, xs.len() > 1, "two or more");
//!     xs.len() <= 100
//! });
//! ```

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::{self, Display};

use crate::engine::Filtered;

use super::outcome::Verdict;

/// Records that this case has the label `name`: the report gives the share of cases with each
/// label.
pub fn label(name: impl Into<String>) {
    record(|case| case.labels.push(name.into()));
}

/// Records the label `name` if `condition` holds.
pub fn classify(condition: bool, name: impl Into<String>) {
    if condition {
        label(name);
    }
}

/// Records `value` in the table `table`: the report gives, per table, the share of cases with
/// each value.
pub fn tabulate(table: impl Into<String>, value: impl Display) {
    let entry = (table.into(), value.to_string());
    record(|case| case.tables.push(entry));
}

/// Requires that at least `percent` percent of the cases meet `condition`, named `name`: the
/// run fails if they do not (with [`Config::check_coverage`](crate::check::Config::check_coverage),
/// if they do not with statistical confidence).
///
/// # Panics
///
/// If `percent` is not a number from 0 to 100 (the property fails with the message).
#[track_caller]
pub fn cover(percent: f64, condition: bool, name: impl Into<String>) {
    assert!(
        (0.0..=100.0).contains(&percent),
        "cover: a percentage from 0 to 100, got {percent}"
    );
    let entry = (name.into(), percent, condition);
    record(|case| case.covers.push(entry));
}

/// What one case recorded.
#[derive(Default)]
struct Case {
    labels: Vec<String>,
    tables: Vec<(String, String)>,
    covers: Vec<(String, f64, bool)>,
}

thread_local! {
    /// The case being run on this thread, if the runner is recording.
    static CASE: RefCell<Option<Case>> = const { RefCell::new(None) };
}

fn record(f: impl FnOnce(&mut Case)) {
    CASE.with(|case| {
        if let Some(case) = case.borrow_mut().as_mut() {
            f(case);
        }
    });
}

/// The facts of a run's cases.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Statistics {
    cases: u32,
    labels: BTreeMap<String, u32>,
    tables: BTreeMap<String, BTreeMap<String, u32>>,
    /// Per requirement: the percentage required, and how many cases met the condition.
    covers: BTreeMap<String, (f64, u32)>,
    /// Whether the table judges coverage statistically (as the run does).
    statistically: bool,
    /// The cases discarded, by the condition that discarded them.
    discards: BTreeMap<String, u32>,
    /// What the generator's filters kept and rejected.
    filtered: Filtered,
    /// How many cases were mutants of earlier cases (see `Config::mutation_percent`).
    mutants: u32,
    /// How many of the discarded cases were discarded because a filter rejected every value
    /// it drew (the generator made no value).
    filtered_out: u32,
}

/// How a coverage requirement stands after the cases run so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coverage {
    /// Every requirement is met (for certain enough, when checked statistically).
    Met,
    /// Some requirement is not met.
    Missed,
    /// Not known yet: more cases could tell.
    Unsure,
}

impl Statistics {
    /// No cases yet; the table will judge coverage as `statistically` says.
    pub(crate) fn judged(statistically: bool) -> Self {
        Statistics {
            statistically,
            ..Statistics::default()
        }
    }

    /// Runs `f` as one case, recording what it records; a discarded case counts only as a
    /// discard.
    pub(crate) fn case(&mut self, f: impl FnOnce() -> Verdict) -> Verdict {
        let outer = CASE.with(|case| case.borrow_mut().replace(Case::default()));
        let verdict = f();
        let case = CASE.with(|case| std::mem::replace(&mut *case.borrow_mut(), outer));
        if let Verdict::Discarded(reason) = &verdict {
            // Counted without a copy of the reason, but for the first discard of its kind.
            match self.discards.get_mut(reason) {
                Some(count) => *count += 1,
                None => {
                    self.discards.insert(reason.clone(), 1);
                }
            }
            return verdict;
        }
        self.record(case.unwrap_or_default());
        verdict
    }

    /// Counts a case that held or failed, with what it recorded.
    fn record(&mut self, case: Case) {
        self.cases += 1;
        let mut labels = case.labels;
        labels.sort();
        labels.dedup();
        for name in labels {
            *self.labels.entry(name).or_default() += 1;
        }
        for (table, value) in case.tables {
            *self
                .tables
                .entry(table)
                .or_default()
                .entry(value)
                .or_default() += 1;
        }
        for (name, percent, met) in case.covers {
            let entry = self.covers.entry(name).or_insert((percent, 0));
            entry.0 = percent;
            entry.1 += u32::from(met);
        }
    }

    /// Adds what a generation's filters kept and rejected.
    pub(crate) fn filtered(&mut self, filtered: Filtered) {
        self.filtered.accepted += filtered.accepted;
        self.filtered.rejected += filtered.rejected;
        self.filtered.descents += filtered.descents;
        self.filtered.samples += filtered.samples;
    }

    /// How many cases held or failed: those the property did not discard.
    pub(crate) fn counted(&self) -> u32 {
        self.cases
    }

    /// How many cases were discarded: by the property, or as a filter rejected every value it
    /// drew.
    pub(crate) fn discarded(&self) -> u32 {
        self.discards.values().sum()
    }

    /// Counts a case discarded because a filter rejected every value it drew, for `reason`.
    pub(crate) fn count_filtered_out(&mut self, reason: String) {
        self.filtered_out += 1;
        self.case(|| Verdict::Discarded(reason));
    }

    /// How many cases were discarded because a filter rejected every value it drew.
    pub(crate) fn filtered_out(&self) -> u32 {
        self.filtered_out
    }

    /// Whether the generator has made no value in any case so far (at least one): a filter
    /// rejected every value it drew in each.
    pub(crate) fn made_no_value(&self) -> bool {
        self.filtered_out > 0 && self.cases == 0 && self.discarded() == self.filtered_out
    }

    /// What the generator's filters kept and rejected.
    pub(crate) fn filters(&self) -> Filtered {
        self.filtered
    }

    /// Counts a case that was a mutant.
    pub(crate) fn mutant(&mut self) {
        self.mutants += 1;
    }

    /// Adds what `other`'s cases recorded, as if they had run after these.
    pub(crate) fn merge(&mut self, other: Statistics) {
        self.cases += other.cases;
        self.mutants += other.mutants;
        self.filtered_out += other.filtered_out;
        for (reason, count) in other.discards {
            *self.discards.entry(reason).or_default() += count;
        }
        self.filtered(other.filtered);
        for (name, count) in other.labels {
            *self.labels.entry(name).or_default() += count;
        }
        for (table, counts) in other.tables {
            let table = self.tables.entry(table).or_default();
            for (value, count) in counts {
                *table.entry(value).or_default() += count;
            }
        }
        for (name, (percent, hits)) in other.covers {
            let entry = self.covers.entry(name).or_insert((percent, 0));
            entry.0 = percent;
            entry.1 += hits;
        }
    }

    /// Whether anything was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.labels.is_empty()
            && self.tables.is_empty()
            && self.covers.is_empty()
            && self.discards.is_empty()
            && self.filtered.rejected == 0
            && self.filtered.descents == 0
            && self.mutants == 0
    }

    /// How the coverage requirements stand: by the shares seen, or with `statistically`, as
    /// QuickCheck's `checkCoverage` decides: met once a confidence interval (Wilson's, six
    /// standard deviations, about one in a billion) lies above 0.9 times the requirement,
    /// missed once it lies below the requirement.
    pub(crate) fn coverage(&self, statistically: bool) -> Coverage {
        let mut result = Coverage::Met;
        for &(percent, hits) in self.covers.values() {
            result = match (result, self.standing(percent, hits, statistically)) {
                (Coverage::Missed, _) | (_, Coverage::Missed) => Coverage::Missed,
                (Coverage::Unsure, _) | (_, Coverage::Unsure) => Coverage::Unsure,
                _ => Coverage::Met,
            };
        }
        result
    }

    /// How one requirement, `percent` of the cases, stands with `hits` cases meeting it.
    fn standing(&self, percent: f64, hits: u32, statistically: bool) -> Coverage {
        /// The share below the requirement that statistical checking accepts, as QuickCheck's.
        const TOLERANCE: f64 = 0.9;
        /// Rounding in the interval's arithmetic: a requirement of 100% met by every case must
        /// not read as missed.
        const ROUNDING: f64 = 1e-9;
        let required = percent / 100.0;
        if statistically {
            let (low, high) = wilson(hits, self.cases, 6.0);
            if high + ROUNDING < required {
                Coverage::Missed
            } else if low + ROUNDING >= TOLERANCE * required {
                Coverage::Met
            } else {
                Coverage::Unsure
            }
        } else if self.cases > 0 && f64::from(hits) / f64::from(self.cases) + ROUNDING >= required {
            Coverage::Met
        } else {
            Coverage::Missed
        }
    }
}

/// Wilson's score interval for `hits` successes in `trials`, `z` standard deviations wide.
fn wilson(hits: u32, trials: u32, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(trials);
    let p = f64::from(hits) / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let spread = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - spread).max(0.0), (centre + spread).min(1.0))
}

impl Display for Statistics {
    /// An aligned table with bars: the labels, each table, and the coverage requirements.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = |count: u32| 100.0 * f64::from(count) / f64::from(self.cases.max(1));
        let bar = |percent: f64| "█".repeat((percent / 5.0).round() as usize);
        let width = self
            .labels
            .keys()
            .chain(self.tables.values().flat_map(BTreeMap::keys))
            .chain(self.covers.keys())
            .chain(self.discards.keys())
            .map(|name| name.chars().count())
            .max()
            .unwrap_or(0);
        writeln!(
            f,
            "statistics of {}:",
            how_many(self.cases as usize, "case")
        )?;
        let rows = |f: &mut fmt::Formatter<'_>, counts: &BTreeMap<String, u32>| {
            let mut sorted: Vec<(&String, &u32)> = counts.iter().collect();
            sorted.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
            for (name, &count) in sorted {
                let percent = share(count);
                writeln!(f, "    {name:<width$}  {percent:5.1}%  {}", bar(percent))?;
            }
            Ok(())
        };
        if !self.labels.is_empty() {
            writeln!(f, "  labels")?;
            rows(f, &self.labels)?;
        }
        for (table, counts) in &self.tables {
            writeln!(f, "  {table}")?;
            rows(f, counts)?;
        }
        if !self.covers.is_empty() {
            writeln!(f, "  coverage")?;
            for (name, &(required, hits)) in &self.covers {
                let percent = share(hits);
                let verdict = match self.standing(required, hits, self.statistically) {
                    Coverage::Met => "ok",
                    Coverage::Missed => "too few",
                    Coverage::Unsure => "not decided",
                };
                writeln!(
                    f,
                    "    {name:<width$}  {percent:5.1}%  (required {required}%)  {verdict}"
                )?;
            }
        }
        if !self.discards.is_empty() {
            let discarded = how_many(self.discarded() as usize, "case");
            writeln!(f, "  discarded {discarded}")?;
            let mut sorted: Vec<(&String, &u32)> = self.discards.iter().collect();
            sorted.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
            for (reason, count) in sorted {
                writeln!(f, "    {reason:<width$}  {count}")?;
            }
        }
        if self.mutants > 0 {
            writeln!(
                f,
                "  mutants: {} of the cases run (discarded ones counted) were mutations of \
                 earlier cases that reached new labels or label counts, not fresh draws",
                self.mutants
            )?;
        }
        if self.filtered.rejected > 0 {
            let Filtered {
                accepted, rejected, ..
            } = self.filtered;
            writeln!(
                f,
                "  filters rejected {rejected} of {} values drawn",
                accepted + rejected
            )?;
        }
        if self.filtered.descents > 0 {
            let Filtered {
                descents, samples, ..
            } = self.filtered;
            writeln!(
                f,
                "  gradient sampling (`valid_by_gradient`) made {descents} descents, which \
                 sampled {samples} values"
            )?;
        }
        Ok(())
    }
}

/// `count` and `noun`, plural unless `count` is 1: "1 step", "9 steps".
pub(super) fn how_many(count: usize, noun: &str) -> String {
    let plural = if count == 1 { "" } else { "s" };
    format!("{count} {noun}{plural}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_count_of_one_is_singular() {
        assert_eq!(super::how_many(1, "step"), "1 step");
        assert_eq!(super::how_many(0, "step"), "0 steps");
        assert_eq!(super::how_many(9, "evaluation"), "9 evaluations");
    }

    use super::*;

    #[test]
    fn cases_record_and_the_table_aligns() {
        let mut stats = Statistics::default();
        for n in 0..10u32 {
            stats.case(|| {
                classify(n < 3, "small");
                label("any");
                tabulate("parity", n % 2);
                cover(50.0, n >= 5, "five or more");
                Verdict::Held
            });
        }
        // Outside a case, nothing is recorded.
        label("lost");
        assert_eq!(stats.labels.get("small"), Some(&3));
        assert_eq!(stats.labels.get("any"), Some(&10));
        assert_eq!(stats.labels.get("lost"), None);
        assert_eq!(stats.coverage(false), Coverage::Met);
        assert_eq!(stats.coverage(true), Coverage::Unsure);
        // Every case meeting a requirement of 100% meets it, in either judgement.
        let mut always = Statistics::default();
        for _ in 0..1000 {
            always.case(|| {
                cover(100.0, true, "always");
                Verdict::Held
            });
        }
        assert_eq!(always.coverage(false), Coverage::Met);
        assert_eq!(always.coverage(true), Coverage::Met);
        // Half the cases, half required: met within QuickCheck's tolerance.
        let mut half = Statistics::default();
        for n in 0..10_000u32 {
            half.case(|| {
                cover(50.0, n % 2 == 0, "even");
                Verdict::Held
            });
        }
        assert_eq!(half.coverage(true), Coverage::Met);
        let text = stats.to_string();
        assert!(text.contains("statistics of 10 cases:"), "{text}");
        let mut one = Statistics::default();
        one.case(|| {
            label("alone");
            Verdict::Held
        });
        assert!(
            one.to_string().starts_with("statistics of 1 case:\n"),
            "{one}"
        );
        assert!(
            text.contains("    any           100.0%  ████████████████████"),
            "{text}"
        );
        assert!(text.contains("    small          30.0%  ██████"), "{text}");
        assert!(
            text.contains("five or more   50.0%  (required 50%)  ok"),
            "{text}"
        );
    }

    #[test]
    fn discarded_cases_count_apart_and_record_nothing() {
        let mut stats = Statistics::default();
        for n in 0..10u32 {
            stats.case(|| {
                label("seen");
                if n % 5 == 0 {
                    Verdict::Discarded("assume!(n % 5 != 0)".into())
                } else {
                    Verdict::Held
                }
            });
        }
        assert_eq!((stats.counted(), stats.discarded()), (8, 2));
        assert_eq!(stats.labels.get("seen"), Some(&8));
        let text = stats.to_string();
        assert!(text.contains("discarded 2 cases"), "{text}");
        assert!(text.contains("assume!(n % 5 != 0)  2"), "{text}");
    }

    #[test]
    fn the_interval_decides_with_enough_cases() {
        let (low, high) = wilson(500, 1000, 6.0);
        assert!(low > 0.40 && high < 0.60, "{low} {high}");
        let mut stats = Statistics::default();
        for n in 0..20_000u32 {
            stats.case(|| {
                cover(10.0, n % 10 < 3, "three in ten");
                Verdict::Held
            });
        }
        assert_eq!(stats.coverage(true), Coverage::Met);
        let mut rare = Statistics::default();
        for n in 0..20_000u32 {
            rare.case(|| {
                cover(10.0, n % 100 == 0, "one in a hundred");
                Verdict::Held
            });
        }
        assert_eq!(rare.coverage(true), Coverage::Missed);
    }
}
