//! The tables: per pair and strategy, then a summary per strategy, in Markdown.

use std::fmt::Write as _;
use std::time::Duration;

use super::harness::Trial;

/// The trials of one mutant/property pair, one list per strategy (in the order of
/// [`Results::strategies`]).
#[derive(Clone, Debug)]
pub struct Row {
    /// The mutant's name.
    pub mutant: &'static str,
    /// The property's name.
    pub property: &'static str,
    /// The trials of each strategy.
    pub trials: Vec<Vec<Trial>>,
}

/// Every pair's trials under every strategy, and the budget they ran with.
#[derive(Clone, Debug)]
pub struct Results {
    /// The most cases per trial.
    pub budget: u32,
    /// The strategies' names.
    pub strategies: Vec<&'static str>,
    /// One row per pair.
    pub rows: Vec<Row>,
}

/// One strategy's summary over all pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Pairs found by at least one trial.
    pub found_any: usize,
    /// Pairs found by every trial.
    pub found_all: usize,
    /// The geometric mean over pairs of the mean tests to failure (a trial that did not fail
    /// counted as the whole budget).
    pub tests: f64,
    /// The geometric mean over pairs of the mean time to failure in seconds (a trial that did
    /// not fail counted with its whole time).
    pub seconds: f64,
}

/// The mean of `values` (0 for none).
fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, count) = values
        .into_iter()
        .fold((0.0, 0usize), |(sum, count), v| (sum + v, count + 1));
    if count == 0 { 0.0 } else { sum / count as f64 }
}

/// The geometric mean of positive `values` (each at least `1e-9`; 0 for none).
pub fn geometric_mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (logs, count) = values.into_iter().fold((0.0, 0usize), |(logs, count), v| {
        (logs + v.max(1e-9).ln(), count + 1)
    });
    if count == 0 {
        0.0
    } else {
        (logs / count as f64).exp()
    }
}

/// The summary of strategy `s` of `results`.
pub fn summary(results: &Results, s: usize) -> Summary {
    let budget = f64::from(results.budget);
    let cells: Vec<&[Trial]> = results.rows.iter().map(|row| &row.trials[s][..]).collect();
    let found = |trial: &&Trial| trial.found;
    Summary {
        found_any: cells.iter().filter(|c| c.iter().any(|t| t.found)).count(),
        found_all: cells
            .iter()
            .filter(|c| !c.is_empty() && c.iter().all(|t| t.found))
            .count(),
        tests: geometric_mean(cells.iter().map(|cell| {
            mean(
                cell.iter()
                    .map(|t| if found(&t) { t.tests as f64 } else { budget }),
            )
        })),
        seconds: geometric_mean(
            cells
                .iter()
                .map(|cell| mean(cell.iter().map(|t| t.time.as_secs_f64()))),
        ),
    }
}

/// `d` with a unit that keeps three significant digits or so: `850 ns`, `12.3 µs`, `4.56 ms`,
/// `1.23 s`.
pub fn duration(d: Duration) -> String {
    seconds(d.as_secs_f64())
}

/// [`duration`] of a number of seconds.
pub fn seconds(s: f64) -> String {
    let (value, unit) = if s >= 1.0 {
        (s, "s")
    } else if s >= 1e-3 {
        (s * 1e3, "ms")
    } else if s >= 1e-6 {
        (s * 1e6, "µs")
    } else {
        (s * 1e9, "ns")
    };
    if value >= 100.0 {
        format!("{value:.0} {unit}")
    } else if value >= 10.0 {
        format!("{value:.1} {unit}")
    } else {
        format!("{value:.2} {unit}")
    }
}

/// A count of tests: `3.5`, `42`, `1 234`.
pub fn tests(n: f64) -> String {
    if n < 10.0 {
        format!("{n:.1}")
    } else {
        crate::measure::thousands(n)
    }
}

/// The cell of one pair and strategy: mean tests and mean time to failure over the trials that
/// found it, and how many did (`12 · 85.0 µs · 10/10`); `– · 0/10` if none did.
pub fn cell(trials: &[Trial]) -> String {
    let found: Vec<&Trial> = trials.iter().filter(|t| t.found).collect();
    let k = found.len();
    let n = trials.len();
    if k == 0 {
        return format!("– · 0/{n}");
    }
    let t = mean(found.iter().map(|t| t.tests as f64));
    let s = mean(found.iter().map(|t| t.time.as_secs_f64()));
    format!("{} · {} · {k}/{n}", tests(t), seconds(s))
}

/// The table of every pair: a row per pair, a column per strategy.
pub fn pair_table(results: &Results) -> String {
    let mut out = String::new();
    let _ = write!(out, "| mutant | property |");
    for name in &results.strategies {
        let _ = write!(out, " {name} |");
    }
    out.push('\n');
    out.push_str("|---|---|");
    out.push_str(&"---|".repeat(results.strategies.len()));
    out.push('\n');
    for row in &results.rows {
        let _ = write!(out, "| {} | {} |", row.mutant, row.property);
        for trials in &row.trials {
            let _ = write!(out, " {} |", cell(trials));
        }
        out.push('\n');
    }
    out
}

/// The summary table: a row per strategy, with the ratios of each to the strategy `base` (this
/// library's derived generator): how many times its tests and its time to failure.
pub fn summary_table(results: &Results, base: usize) -> String {
    let pairs = results.rows.len();
    let summaries: Vec<Summary> = (0..results.strategies.len())
        .map(|s| summary(results, s))
        .collect();
    let reference = summaries[base];
    let base_name = results.strategies[base];
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| strategy | pairs found (any trial) | pairs found (every trial) | tests to failure \
         (geo. mean) | time to failure (geo. mean) | tests / {base_name}'s | time / \
         {base_name}'s |"
    );
    out.push_str("|---|---|---|---|---|---|---|\n");
    for (name, s) in results.strategies.iter().zip(&summaries) {
        let _ = writeln!(
            out,
            "| {name} | {}/{pairs} | {}/{pairs} | {} | {} | {:.2}x | {:.2}x |",
            s.found_any,
            s.found_all,
            tests(s.tests),
            seconds(s.seconds),
            s.tests / reference.tests,
            s.seconds / reference.seconds,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trial(found: bool, tests: u64, micros: u64) -> Trial {
        Trial {
            found,
            tests,
            discards: 0,
            time: Duration::from_micros(micros),
        }
    }

    #[test]
    fn the_summary_counts_unfound_trials_as_the_budget() {
        let results = Results {
            budget: 100,
            strategies: vec!["a", "b"],
            rows: vec![
                Row {
                    mutant: "m",
                    property: "p",
                    trials: vec![
                        vec![trial(true, 4, 10), trial(true, 16, 30)],
                        vec![trial(false, 100, 1000), trial(true, 50, 500)],
                    ],
                },
                Row {
                    mutant: "m",
                    property: "q",
                    trials: vec![
                        vec![trial(true, 10, 20), trial(true, 10, 20)],
                        vec![trial(false, 100, 1000), trial(false, 100, 1000)],
                    ],
                },
            ],
        };
        let a = summary(&results, 0);
        assert_eq!((a.found_any, a.found_all), (2, 2));
        assert!((a.tests - 10.0).abs() < 1e-9, "{}", a.tests);
        assert!((a.seconds - 20e-6).abs() < 1e-12, "{}", a.seconds);
        let b = summary(&results, 1);
        assert_eq!((b.found_any, b.found_all), (1, 0));
        assert!((b.tests - (75.0f64 * 100.0).sqrt()).abs() < 1e-9);
        assert_eq!(cell(&results.rows[0].trials[1]), "50 · 500 µs · 1/2");
        assert_eq!(cell(&results.rows[1].trials[1]), "– · 0/2");
        let table = summary_table(&results, 0);
        assert!(table.contains("| b | 1/2 | 0/2 | 87 |"), "{table}");
        assert!(pair_table(&results).contains("| m | p | 10 · 20.0 µs · 2/2 |"));
    }

    #[test]
    fn durations_keep_three_digits() {
        assert_eq!(duration(Duration::from_nanos(850)), "850 ns");
        assert_eq!(duration(Duration::from_nanos(12_345)), "12.3 µs");
        assert_eq!(duration(Duration::from_micros(4_560)), "4.56 ms");
        assert_eq!(duration(Duration::from_millis(1_230)), "1.23 s");
    }
}
