//! The property runner: passing properties pass, a failing one panics with a report that holds
//! the minimal counterexample, the original, the seed and a replay line that runs that case
//! again, for every kind of outcome; settings come from code before the environment.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use reflective::check::{Config, Mutation, Replay, SizeSchedule, check_with};
use reflective::prelude::*;
use reflective::shrink::ShrinkBudget;
use reflective_tests::derived::{Expr, Tree};
use reflective_tests::report_section as section;

/// `text` without the lines that say how long shrinking took (which differ from run to run).
fn without_time(text: &str) -> String {
    unnumbered(text)
        .lines()
        .filter(|line| !line.starts_with("shrunk in"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` without the number of its check (`REFLECTIVE_REPLAY_CHECK=k `, which a test's
/// second check and later ones print), so that the reports of two checks of a test compare.
fn unnumbered(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("REFLECTIVE_REPLAY_CHECK=") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "REFLECTIVE_REPLAY_CHECK=".len()..];
        rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
        rest = rest.strip_prefix(' ').unwrap_or(rest);
    }
    out.push_str(rest);
    out
}

/// The report `f` panics with.
fn report(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("the property should fail");
    match payload.downcast::<String>() {
        Ok(text) => unnumbered(&text),
        Err(payload) => unnumbered(payload.downcast::<&str>().expect("a message").as_ref()),
    }
}

/// The value after `REFLECTIVE_REPLAY=` in a report.
fn replay_of(report: &str) -> Replay {
    let at = report.find("REFLECTIVE_REPLAY=").expect("a replay line") + "REFLECTIVE_REPLAY=".len();
    let word = report[at..].split_whitespace().next().expect("a value");
    word.parse().expect("a replay the runner reads")
}

#[test]
fn properties_that_hold_pass() {
    let config = Config::new().cases(200).seed(1);
    check_with(
        &config,
        &<Vec<u8>>::arbitrary_reflective(),
        |xs: &Vec<u8>| xs.iter().rev().rev().eq(xs.iter()),
    );
    check_with(
        &config,
        &Tree::<u8>::arbitrary_reflective(),
        |t: &Tree<u8>| {
            assert_eq!(t.clone(), *t);
        },
    );
    check_with(&config, &Expr::arbitrary_reflective(), |e: &Expr| {
        if format!("{e:?}").is_empty() {
            Err("no text")
        } else {
            Ok(())
        }
    });
    reflective::check(&range(0u8..=9), |&x: &u8| x <= 9);
}

#[test]
fn a_failure_reports_the_minimal_counterexample_and_how_to_replay_it() {
    let lists = vec(range(0u32..=1000), ..);
    let fails_past_100 = |xs: &Vec<u32>| xs.len() < 2 || xs.iter().all(|&x| x <= 100);
    for seed in 0..10 {
        let config = Config::new().seed(seed).regressions(false);
        let text = report(|| check_with(&config, &lists, fails_past_100));
        assert!(text.contains(&format!("(seed {seed:#x}")), "{text}");
        let minimal = section(&text, "minimal counterexample:\n");
        assert!(minimal.starts_with("    [0, 101]\n"), "{text}");
        assert!(minimal.contains("the property returned false"), "{text}");
        assert!(text.contains("original counterexample:"), "{text}");
        assert!(text.contains("evaluations"), "{text}");
        // The replay line runs the failing case alone: the same original, the same minimum.
        let replay = replay_of(&text);
        let again = report(|| {
            check_with(
                &Config::new().replay(replay).regressions(false),
                &lists,
                fails_past_100,
            )
        });
        assert!(again.contains("the replayed case"), "{again}");
        assert_eq!(
            section(&again, "original counterexample:\n"),
            section(&text, "original counterexample:\n")
        );
        assert_eq!(
            section(&again, "minimal counterexample:\n"),
            section(&text, "minimal counterexample:\n")
        );
    }
}

/// A shrink that a budget stopped does not call its result minimal: the heading says that a
/// simpler counterexample may fail too, and the statistics line says which budget ran out.
#[test]
fn a_shrink_stopped_by_its_budget_is_not_called_minimal() {
    let lists = vec(range(0u32..=1000), ..);
    let fails_past_100 = |xs: &Vec<u32>| xs.len() < 2 || xs.iter().all(|&x| x <= 100);
    let budget = ShrinkBudget::default().max_evaluations(1);
    let config = Config::new()
        .seed(3)
        .regressions(false)
        .shrink_budget(budget);
    let text = report(|| check_with(&config, &lists, fails_past_100));
    assert!(!text.contains("minimal counterexample"), "{text}");
    assert!(
        text.contains(
            "shrunk counterexample (the shrink stopped before it ended, so a simpler one may \
             fail too):\n"
        ),
        "{text}"
    );
    assert!(text.contains("the evaluation budget ran out"), "{text}");
    let full = report(|| {
        check_with(
            &config.shrink_budget(Default::default()),
            &lists,
            fails_past_100,
        )
    });
    assert!(full.contains("minimal counterexample:\n"), "{full}");
}

/// A value whose `Debug` panics (above 200).
#[derive(Clone, PartialEq)]
struct Touchy(u8);

impl std::fmt::Debug for Touchy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        assert!(self.0 <= 200, "Debug of {}", self.0);
        write!(f, "Touchy({})", self.0)
    }
}

/// A counterexample whose `Debug` panics is reported all the same, with the seed and the line
/// to replay it: the panic is noted where its text would be.
#[test]
fn a_counterexample_whose_debug_panics_is_still_reported() {
    let touchy = int::<u8>()
        .map(Touchy)
        .comap(|t: &Touchy| Some(t.0))
        .boxed();
    let config = Config::new().seed(1).regressions(false);
    // Fails on 150 and above: the minimal counterexample, 150, prints.
    let text = report(|| check_with(&config, &touchy, |t| t.0 < 150));
    assert!(text.contains("(seed 0x1"), "{text}");
    assert!(text.contains("Touchy(150)"), "{text}");
    let _ = replay_of(&text);
    // Fails above 200 only: neither prints.
    let text = report(|| check_with(&config, &touchy, |t| t.0 <= 200));
    assert!(text.contains("REFLECTIVE_REPLAY="), "{text}");
    assert!(
        section(&text, "minimal counterexample:\n")
            .contains("(its `Debug` panicked: Debug of 201)"),
        "{text}"
    );
}

/// An error whose `Debug` panics is reported all the same: the failure names the panic, and
/// the report keeps the counterexample and the line to replay it.
#[test]
fn an_error_whose_debug_panics_is_still_reported() {
    let config = Config::new().seed(1).regressions(false);
    let text = report(|| {
        check_with(&config, &int::<u8>(), |x: &u8| {
            if *x < 150 { Ok(()) } else { Err(Touchy(201)) }
        })
    });
    assert!(text.contains("REFLECTIVE_REPLAY="), "{text}");
    assert!(text.contains("150"), "{text}");
    assert!(
        text.contains("the property returned Err((its `Debug` panicked: Debug of 201))"),
        "{text}"
    );
}

/// Under each size schedule, the case that fails (whichever of a run's cases it is) is the one
/// its report's replay line runs again: the seed and size the schedule gave it, the same
/// original counterexample.
#[test]
fn every_case_of_each_schedule_replays_from_its_line() {
    let lists = vec(range(0u32..=1000), ..);
    let cases = 1000;
    for schedule in SizeSchedule::ALL {
        for failing in [0u32, 1, 7, 100, 101, 555, 999] {
            let config = Config::new()
                .seed(u64::from(failing) + 11)
                .cases(cases)
                .size_schedule(schedule)
                .regressions(false);
            let seen = std::cell::Cell::new(0u32);
            // Fails on case `failing` only (its shrink then keeps that case's first value).
            let fails_at = |_: &Vec<u32>| {
                let index = seen.get();
                seen.set(index + 1);
                index != failing
            };
            let text = report(|| check_with(&config, &lists, fails_at));
            let replay = replay_of(&text);
            assert_eq!(
                replay.size,
                schedule.size(failing, cases, config.resolved().max_size),
                "{schedule}, case {failing}: {text}"
            );
            let again = report(|| {
                check_with(
                    &Config::new().replay(replay).regressions(false),
                    &lists,
                    |_: &Vec<u32>| false,
                )
            });
            assert_eq!(
                section(&again, "original counterexample:\n"),
                section(&text, "original counterexample:\n"),
                "{schedule}, case {failing}"
            );
        }
    }
}

#[test]
fn every_kind_of_outcome_fails_with_its_reason() {
    let config = Config::new().seed(3).regressions(false);
    let numbers = range(0u32..=1000);
    let by_bool = report(|| check_with(&config, &numbers, |&x: &u32| x < 500));
    assert!(
        by_bool.contains("500\n    the property returned false"),
        "{by_bool}"
    );
    let by_result = report(|| {
        check_with(&config, &numbers, |&x: &u32| {
            if x < 500 {
                Ok(())
            } else {
                Err(format!("{x} is too big"))
            }
        })
    });
    assert!(
        by_result.contains("the property returned Err(\"500 is too big\")"),
        "{by_result}"
    );
    let by_panic = report(|| {
        check_with(&config, &numbers, |&x: &u32| {
            assert!(x < 500, "{x} is too big")
        })
    });
    // The panic's location is the assertion's, in this file.
    assert!(
        by_panic.contains(&format!("the property panicked at {}:", file!()))
            && by_panic.contains(": 500 is too big"),
        "{by_panic}"
    );
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let exprs = Expr::arbitrary_reflective();
    let long = |e: &Expr| format!("{e:?}").len() <= 30;
    let config = Config::new().seed(11).regressions(false);
    let first = report(|| check_with(&config, &exprs, long));
    let second = report(|| check_with(&config, &exprs, long));
    assert_eq!(without_time(&first), without_time(&second));
}

#[test]
fn settings_come_from_code_then_the_environment_then_the_defaults() {
    let env = |name: &str| match name {
        "REFLECTIVE_CASES" => Some("20".to_string()),
        "REFLECTIVE_SEED" => Some("0xff".to_string()),
        "REFLECTIVE_STRATEGY" => Some("quadratic".to_string()),
        "REFLECTIVE_REPLAY" => Some("0x10:7".to_string()),
        "REFLECTIVE_SIZE_SCHEDULE" => Some("ramp".to_string()),
        _ => None,
    };
    let from_env = Config::new().resolved_from(env).unwrap();
    assert_eq!(from_env.size_schedule, SizeSchedule::Ramp);
    assert_eq!(
        Config::new().resolved_from(|_| None).unwrap().size_schedule,
        SizeSchedule::Cycle
    );
    assert_eq!(from_env.cases, 20);
    assert_eq!(from_env.seed, 255);
    assert_eq!(from_env.strategy, Some(Strategy::Quadratic));
    assert_eq!(from_env.replay, Some(Replay::new(16, 7)));
    assert_eq!(from_env.max_size, DEFAULT_SIZE);
    let from_code = Config::new()
        .cases(5)
        .seed(1)
        .strategy(Strategy::Linear)
        .resolved_from(env)
        .unwrap();
    assert_eq!(
        (from_code.cases, from_code.seed, from_code.strategy),
        (5, 1, Some(Strategy::Linear))
    );
    // Each half of the shrink's budget comes from its own source: the evaluations from code,
    // the time from the environment; `shrink_budget` sets both.
    let seconds = |name: &str| (name == "REFLECTIVE_SHRINK_SECONDS").then(|| "3".to_string());
    let shrink = Config::new()
        .shrink_evaluations(40)
        .resolved_from(seconds)
        .unwrap()
        .shrink;
    assert_eq!(
        (shrink.evaluations, shrink.time),
        (40, Duration::from_secs(3))
    );
    let shrink = Config::new()
        .shrink_time(Duration::from_millis(5))
        .resolved_from(|_| None)
        .unwrap()
        .shrink;
    assert_eq!(
        (shrink.evaluations, shrink.time),
        (
            ShrinkBudget::default().evaluations,
            Duration::from_millis(5)
        )
    );
    let bad = |name: &str| (name == "REFLECTIVE_CASES").then(|| "many".to_string());
    let error = Config::new().resolved_from(bad).unwrap_err();
    assert!(
        error.contains("REFLECTIVE_CASES") && error.contains("many"),
        "{error}"
    );
    let schedule = |name: &str| (name == "REFLECTIVE_SIZE_SCHEDULE").then(|| "linear".to_string());
    let error = Config::new().resolved_from(schedule).unwrap_err();
    assert_eq!(
        error,
        "REFLECTIVE_SIZE_SCHEDULE: expected one of cycle, ramp, found `linear`"
    );
    let strategy = |name: &str| (name == "REFLECTIVE_STRATEGY").then(|| "huge".to_string());
    let error = Config::new().resolved_from(strategy).unwrap_err();
    assert!(
        error.contains("linear") && error.contains("huge"),
        "{error}"
    );
    let mutation = |text: &'static str| {
        move |name: &str| (name == "REFLECTIVE_MUTATION_PERCENT").then(|| text.to_string())
    };
    let resolved = |text| {
        Config::new()
            .resolved_from(mutation(text))
            .map(|s| s.mutation)
    };
    assert_eq!(resolved("30"), Ok(Mutation::Percent(30)));
    assert_eq!(resolved(" auto "), Ok(Mutation::WhenDiscarding));
    assert_eq!(
        Config::new().resolved_from(|_| None).unwrap().mutation,
        Mutation::WhenDiscarding
    );
    assert_eq!(
        Config::new()
            .mutation_percent(0)
            .resolved_from(mutation("30"))
            .unwrap()
            .mutation,
        Mutation::Percent(0)
    );
    assert_eq!(
        resolved("150"),
        Err(
            "REFLECTIVE_MUTATION_PERCENT: expected a percentage from 0 to 100 or `auto`, found \
             `150`"
                .to_string()
        )
    );
}

/// A property on derived expressions that fails on about one value in `one_in`, decided by
/// the value alone (the same in sequential and parallel runs).
fn fails_one_in(one_in: u64) -> impl Fn(&Expr) -> bool + Sync {
    move |e: &Expr| {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        format!("{e:?}").hash(&mut hasher);
        !hasher.finish().is_multiple_of(one_in)
    }
}

/// With mutation cases, a failing mutant's replay line names its parent case and its edit, and
/// replays exactly that value; a parallel run reports what the sequential one does.
#[test]
fn mutation_cases_replay_from_their_line_and_run_alike_in_parallel() {
    let fails = fails_one_in(500);
    let config = |seed| Config::new().seed(seed).mutation_percent(50);
    let (compared, _, mutants) = mutants_alike(0..16, config, &|e: &Expr| Some(fails(e)));
    assert!(compared >= 8, "only {compared} runs failed");
    assert!(mutants >= 2, "only {mutants} failures were mutants");
}

/// So too under the default, which starts to mutate where the property discards half of the
/// cases: here two in three.
#[test]
fn default_mutation_cases_replay_from_their_line_and_run_alike_in_parallel() {
    let (fails, kept) = (fails_one_in(500), fails_one_in(3));
    let property = |e: &Expr| (!kept(e)).then(|| fails(e));
    let (compared, mutating, mutants) =
        mutants_alike(0..32, |seed| Config::new().seed(seed), &property);
    assert!(compared >= 16, "only {compared} runs failed");
    assert!(
        mutating >= 12,
        "only {mutating} runs made mutants before failing"
    );
    assert!(mutants >= 1, "no failure was a mutant");
}

/// The default starts to mutate at a later block where discards grow with the size (the ramp
/// schedule), and a coverage requirement keeps a run going past its cases: the parallel run
/// still reports what the sequential run does, whether it fails or passes.
#[test]
fn a_later_start_and_coverage_run_alike_in_parallel() {
    use reflective::check::check_parallel_with;
    use reflective::statistics::cover;
    let exprs = Expr::arbitrary_reflective();
    let (fails, kept) = (fails_one_in(700), fails_one_in(5));
    let outcome = |f: &dyn Fn()| {
        catch_unwind(AssertUnwindSafe(f)).err().map(|payload| {
            without_time(
                &payload
                    .downcast::<String>()
                    .map_or_else(|_| String::new(), |t| *t),
            )
        })
    };
    let (mut mutating, mut compared) = (0, 0);
    for seed in 0..20 {
        for coverage in [false, true] {
            let config = Config::new()
                .seed(seed)
                .cases(600)
                .size_schedule(SizeSchedule::Ramp)
                .check_coverage(coverage)
                .max_discard_ratio(100)
                .regressions(false);
            let property = |e: &Expr| {
                let text = format!("{e:?}");
                cover(40.0, text.len() % 2 == 0, "even");
                (text.len() <= 30 || !kept(e)).then(|| fails(e))
            };
            let sequential = outcome(&|| check_with(&config, &exprs, property));
            let parallel = outcome(&|| check_parallel_with(&config, &exprs, property));
            assert_eq!(sequential, parallel, "seed {seed}, coverage {coverage}");
            compared += 1;
            if sequential.is_some_and(|text| text.contains("  mutants: ")) {
                mutating += 1;
            }
        }
    }
    assert!(
        mutating >= 5,
        "only {mutating} of {compared} runs failed after mutating"
    );
}

/// Runs `property` on derived expressions, 3000 cases with `config(seed)` for each of `seeds`. Where
/// a run fails, the parallel run reports the same, and the failure's replay line replays its
/// value. Returns how many runs failed, how many made mutants before failing, and how many of
/// their failures were mutants.
fn mutants_alike(
    seeds: std::ops::Range<u64>,
    config: impl Fn(u64) -> Config,
    property: &(impl Fn(&Expr) -> Option<bool> + Sync),
) -> (u32, u32, u32) {
    use reflective::check::check_parallel_with;
    let exprs = Expr::arbitrary_reflective();
    let (mut mutants, mut mutating, mut compared) = (0, 0, 0);
    for seed in seeds {
        let config = config(seed).cases(3000).regressions(false);
        let Err(sequential) =
            catch_unwind(AssertUnwindSafe(|| check_with(&config, &exprs, property)))
        else {
            continue;
        };
        let text = *sequential.downcast::<String>().expect("a report");
        let parallel = report(|| check_parallel_with(&config, &exprs, property));
        assert_eq!(without_time(&text), without_time(&parallel), "seed {seed}");
        compared += 1;
        if text.contains("  mutants: ") {
            mutating += 1;
        }
        let replay = replay_of(&text);
        if replay.mutation.is_some() {
            mutants += 1;
        }
        let again = report(|| {
            check_with(
                &Config::new().replay(replay).regressions(false),
                &exprs,
                |_: &Expr| false,
            )
        });
        assert_eq!(
            section(&again, "original counterexample:\n"),
            section(&text, "original counterexample:\n"),
            "seed {seed}: {replay}"
        );
    }
    (compared, mutating, mutants)
}

/// Where a precondition discards most cases, mutation cases start from the cases the property
/// ran on, and a copy makes two of their integers equal: a failure that needs a held case
/// whose two other numbers collide is found by most runs with mutation (by default too, which
/// mutates a quarter of the cases once half are discarded), by few without.
#[test]
fn mutation_cases_grow_from_the_cases_a_precondition_keeps() {
    use reflective::check::try_check_with;
    let quads = tuple((
        range(0u32..=999),
        range(0u32..=999),
        range(0u32..=1000),
        range(1u32..=999),
    ));
    // Held in one case in 2500; fails when, besides, the last two collide (which their
    // boundary values never make them do).
    let property =
        |&(a, d, b, c): &(u32, u32, u32, u32)| (a % 50 == 7 && d % 50 == 7).then_some(b != c);
    let found = |percent: Option<u8>| {
        (0..10)
            .filter(|&seed| {
                let mut config = Config::new()
                    .seed(seed)
                    .cases(100)
                    .max_discard_ratio(1000)
                    .regressions(false);
                if let Some(percent) = percent {
                    config = config.mutation_percent(percent);
                }
                try_check_with(&config, &quads, property)
                    .is_err_and(|failure| failure.to_string().starts_with("property failed"))
            })
            .count()
    };
    let (with, by_default, without) = (found(Some(50)), found(None), found(Some(0)));
    assert!(with >= 8, "found by {with} of 10 runs with mutation");
    assert!(
        by_default >= 8,
        "found by {by_default} of 10 runs by default"
    );
    assert!(without <= 5, "found by {without} of 10 runs without");
}

/// Mutation cases are counted in the statistics, and without them the run is unchanged: by
/// default, a run whose property discards nothing makes none.
#[test]
fn mutation_cases_are_counted_and_off_by_default_where_nothing_is_discarded() {
    use reflective::check::try_check_with;
    let exprs = Expr::arbitrary_reflective();
    let property = fails_one_in(400);
    let mut failed = 0;
    for seed in 0..10 {
        let plain = Config::new().seed(seed).cases(1000).regressions(false);
        let report = |config: &Config| {
            try_check_with(config, &exprs, &property).map_err(|e| without_time(&e.to_string()))
        };
        let default = report(&plain);
        // The same report, but for the rerun line, which names the setting.
        let without = report(&plain.clone().mutation_percent(0))
            .map_err(|text| text.replace("REFLECTIVE_MUTATION_PERCENT=0 ", ""));
        assert_eq!(default, without, "seed {seed}");
        if let Err(text) = default {
            assert!(!text.contains("mutants:"), "{text}");
            failed += 1;
        }
    }
    assert!(failed >= 5, "only {failed} runs of 10 failed");
    // With them, a failure's report counts the mutants among the cases before it.
    let mut counted = 0;
    for seed in 0..6 {
        let with = Config::new()
            .seed(seed)
            .cases(3000)
            .mutation_percent(30)
            .regressions(false);
        if let Err(failure) = try_check_with(&with, &exprs, &property) {
            let text = failure.to_string();
            let case: u32 = text["property failed at case ".len()..]
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .expect("the failing case's number");
            if case > 60 {
                assert!(text.contains("  mutants: "), "{text}");
                counted += 1;
            }
        }
    }
    assert!(
        counted >= 2,
        "only {counted} failures after the first block"
    );
}

/// Every switch reads the same words in the environment: `true`/`false`, `on`/`off`, `1`/`0`,
/// in any case; anything else is an error that names the variable and the words.
#[test]
fn switches_read_the_same_words_everywhere() {
    use reflective::check::SWITCH_WORDS;
    for variable in [
        "REFLECTIVE_REGRESSIONS",
        "REFLECTIVE_STATISTICS",
        "REFLECTIVE_CHECK_COVERAGE",
    ] {
        for (word, on) in SWITCH_WORDS {
            for text in [word.to_string(), word.to_uppercase(), format!(" {word} ")] {
                let env = |name: &str| (name == variable).then(|| text.clone());
                let resolved = Config::new().resolved_from(env).unwrap();
                let read = match variable {
                    "REFLECTIVE_REGRESSIONS" => resolved.regressions,
                    "REFLECTIVE_STATISTICS" => resolved.statistics,
                    _ => resolved.check_coverage,
                };
                assert_eq!(read, on, "{variable}={text}");
            }
        }
        let bad = |name: &str| (name == variable).then(|| "maybe".to_string());
        let error = Config::new().resolved_from(bad).unwrap_err();
        for expected in [variable, "maybe", "`true`", "`off`", "`0`"] {
            assert!(error.contains(expected), "{error}");
        }
    }
}

#[test]
fn a_strategy_from_the_config_sizes_the_values() {
    // Under `fixed`, a nest of vectors holds at most the size in all; under the default it
    // may hold more at the largest sizes.
    let nests = <Vec<Vec<u8>>>::arbitrary_reflective();
    let config = Config::new()
        .cases(300)
        .seed(5)
        .max_size(20)
        .strategy(Strategy::Fixed);
    check_with(&config, &nests, |xs: &Vec<Vec<u8>>| {
        xs.len() + xs.iter().map(Vec::len).sum::<usize>() <= 20
    });
}

/// The runner generates cases without their choices and records them only for a failure, from
/// the same seed: both ways must give the same value, for every kind of generator.
#[test]
fn recording_the_choices_does_not_change_the_value() {
    fn same<T: std::fmt::Debug + 'static>(name: &str, g: &Gen<T, T>) {
        for seed in 0..200 {
            let size = (seed % 101) as usize;
            let plain = g.generate_value(&mut DefaultRng::seed_from_u64(seed), size);
            let recorded = g.generate(&mut DefaultRng::seed_from_u64(seed), size);
            // Compared as text: floats' NaN is not equal to itself.
            assert_eq!(
                format!("{plain:?}"),
                format!("{:?}", recorded.value),
                "{name}, seed {seed}"
            );
        }
    }
    same("Vec<u8>", &<Vec<u8>>::arbitrary_reflective());
    same("Vec<u32>", &<Vec<u32>>::arbitrary_reflective());
    same("Vec<f64>", &<Vec<f64>>::arbitrary_reflective());
    same("String", &String::arbitrary_reflective());
    same("Vec<Vec<u8>>", &<Vec<Vec<u8>>>::arbitrary_reflective());
    same(
        "BTreeSet<u8>",
        &<std::collections::BTreeSet<u8>>::arbitrary_reflective(),
    );
    same(
        "BTreeMap<u8, bool>",
        &<std::collections::BTreeMap<u8, bool>>::arbitrary_reflective(),
    );
    same(
        "(u8, Option<i64>)",
        &<(u8, Option<i64>)>::arbitrary_reflective(),
    );
    same("Tree<u8>", &Tree::<u8>::arbitrary_reflective());
    same("Expr", &Expr::arbitrary_reflective());
    same(
        "Json",
        &reflective_tests::derived::Json::arbitrary_reflective(),
    );
    same(
        "Vec<Vec<u8>> exponential",
        &<Vec<Vec<u8>>>::arbitrary_reflective()
            .size_strategy(Strategy::Exponential)
            .boxed(),
    );
}

/// Labels and tables recorded by the cases appear in a failure report; a coverage requirement
/// that the cases miss fails a run whose cases all hold; checked statistically, a met
/// requirement passes and a missed one fails.
#[test]
fn statistics_and_coverage() {
    use reflective::statistics::{classify, cover, tabulate};
    let lists = <Vec<u8>>::arbitrary_reflective();
    let text = report(|| {
        check_with(&Config::new().seed(2).regressions(false), &lists, |xs| {
            classify(xs.is_empty(), "empty");
            tabulate("length", xs.len().min(3));
            xs.len() < 30
        })
    });
    assert!(text.contains("statistics of "), "{text}");
    assert!(text.contains("  length\n"), "{text}");
    assert!(text.contains("    empty "), "{text}");

    let missed = report(|| {
        check_with(&Config::new().seed(2).regressions(false), &lists, |xs| {
            cover(90.0, xs.len() > 50, "long");
        })
    });
    assert!(missed.contains("coverage requirements not met"), "{missed}");
    assert!(missed.contains("(required 90%)  too few"), "{missed}");

    let statistically = Config::new()
        .seed(4)
        .check_coverage(true)
        .regressions(false);
    check_with(&statistically, &range(0u32..=99), |&x: &u32| {
        cover(20.0, x < 50, "the lower half");
    });
    let rare = report(|| {
        check_with(&statistically, &range(0u32..=99), |&x: &u32| {
            cover(20.0, x < 5, "the lowest five");
        })
    });
    assert!(rare.contains("coverage requirements not met"), "{rare}");
}

/// A case that fails once and passes when run again on the same value is reported as flaky,
/// with the run's seed and the case's replay line, and is not shrunk.
#[test]
fn a_failure_that_does_not_repeat_is_flaky() {
    let calls = std::cell::Cell::new(0);
    let text = report(|| {
        check_with(
            &Config::new().seed(6).regressions(false),
            &range(0u32..=100),
            |_: &u32| {
                calls.set(calls.get() + 1);
                calls.get() != 3
            },
        )
    });
    assert!(text.starts_with("property is flaky"), "{text}");
    assert!(text.contains("shrunk in 0 evaluations"), "{text}");
    assert!(text.contains("REFLECTIVE_REPLAY="), "{text}");
    assert!(text.contains("(seed 0x6,"), "{text}");
}

/// A case slower than the time limit fails, and shrinking keeps to slow cases.
#[test]
fn a_case_over_the_time_limit_fails() {
    let config = Config::new()
        .seed(8)
        .regressions(false)
        .case_time_limit(std::time::Duration::from_millis(5));
    let text = report(|| {
        check_with(&config, &range(0u32..=100), |&x: &u32| {
            if x > 50 {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        })
    });
    let minimal = section(&text, "minimal counterexample:\n");
    assert!(minimal.starts_with("    51\n"), "{text}");
    assert!(
        minimal.contains("over the limit of 5.0ms per case"),
        "{text}"
    );
    // The lines that replay the case and the run carry the limit: without it (as when it was
    // set in the environment), the case passes.
    assert!(
        text.contains("REFLECTIVE_CASE_TIME_LIMIT_MS=5 REFLECTIVE_REPLAY="),
        "{text}"
    );
    let run_again = text
        .split_once("run every case again:\n")
        .and_then(|(_, rest)| rest.lines().next())
        .unwrap_or_else(|| panic!("no line runs every case again: {text}"));
    // (On CI, coverage checking comes between.)
    assert!(
        run_again.starts_with("    REFLECTIVE_CASE_TIME_LIMIT_MS=5 ")
            && run_again.contains("REFLECTIVE_SEED=0x8"),
        "{text}"
    );
}

/// A check on a thread the test started without a name cannot tell which test it runs in:
/// its report says that its failure is not saved, and why.
#[test]
fn a_failure_on_a_thread_without_a_name_says_it_is_not_saved() {
    use reflective::check::try_check_with;
    let config = Config::new().seed(3).regressions(true);
    let outcome = std::thread::spawn(move || {
        try_check_with(&config, &range(0u32..=1000), |&x: &u32| x < 500)
    })
    .join()
    .expect("the check returns its report");
    let text = outcome.expect_err("the property fails").to_string();
    assert!(
        text.contains(
            "not saved: cannot tell which test this is: the check runs on a thread \
                       without a name"
        ),
        "{text}"
    );
}

/// A time limit of 0 is no limit, as proptest's `timeout` of 0 is, from the code or the
/// environment; below a millisecond the report shows the limit in microseconds.
#[test]
fn a_time_limit_of_zero_is_no_limit() {
    let slow = |_: &u32| std::thread::sleep(std::time::Duration::from_millis(1));
    let zero = Config::new()
        .seed(8)
        .cases(5)
        .regressions(false)
        .case_time_limit(std::time::Duration::ZERO);
    check_with(&zero, &range(0u32..=100), slow);
    let from_env = Config::new()
        .resolved_from(|name| (name == "REFLECTIVE_CASE_TIME_LIMIT_MS").then(|| "0".to_string()))
        .unwrap();
    assert_eq!(from_env.case_time_limit, None);
    let tight = Config::new()
        .seed(8)
        .cases(5)
        .regressions(false)
        .case_time_limit(std::time::Duration::from_micros(50));
    let text = report(|| check_with(&tight, &range(0u32..=100), slow));
    assert!(text.contains("over the limit of 50.0µs per case"), "{text}");
}

/// On CI the defaults are stricter; code and the environment still win.
#[test]
fn ci_has_a_stricter_profile() {
    let on_ci = |value: &'static str| move |name: &str| (name == "CI").then(|| value.to_string());
    let ci = Config::new().resolved_from(on_ci("true")).unwrap();
    assert!(ci.ci && ci.check_coverage);
    assert_eq!(ci.cases, 1000);
    let not_ci = Config::new().resolved_from(on_ci("false")).unwrap();
    assert!(!not_ci.ci && !not_ci.check_coverage);
    assert_eq!(not_ci.cases, 100);
    let set = Config::new().cases(7).resolved_from(on_ci("1")).unwrap();
    assert_eq!(set.cases, 7);
}

/// The parallel run reports exactly what the sequential run reports for the same seed: the
/// same first failing case, minimum and statistics.
#[test]
fn the_parallel_run_reports_what_the_sequential_run_does() {
    use reflective::check::check_parallel_with;
    use reflective::statistics::{classify, tabulate};
    let exprs = Expr::arbitrary_reflective();
    let property = |e: &Expr| {
        let text = format!("{e:?}");
        classify(text.len() > 20, "long");
        tabulate("first letter", text.chars().next().unwrap_or(' '));
        text.len() <= 60
    };
    let mut compared = 0;
    for (seed, schedule) in (0..12).zip(SizeSchedule::ALL.into_iter().cycle()) {
        let config = Config::new()
            .seed(seed)
            .cases(300)
            .size_schedule(schedule)
            .regressions(false);
        let sequential = catch_unwind(AssertUnwindSafe(|| check_with(&config, &exprs, property)));
        let parallel = catch_unwind(AssertUnwindSafe(|| {
            check_parallel_with(&config, &exprs, property)
        }));
        match (sequential, parallel) {
            (Ok(()), Ok(())) => {}
            (Err(a), Err(b)) => {
                let text = |payload: Box<dyn std::any::Any + Send>| {
                    *payload.downcast::<String>().expect("a report")
                };
                assert_eq!(
                    without_time(&text(a)),
                    without_time(&text(b)),
                    "seed {seed}"
                );
                compared += 1;
            }
            (a, b) => panic!("seed {seed}: sequential {a:?}, parallel {b:?}"),
        }
    }
    assert!(compared >= 6, "only {compared} runs failed");
}

/// A generator that panics on some of the shrinker's candidates (a `map` that asserts) does not
/// lose the report: those candidates are dropped.
#[test]
fn a_generator_that_panics_while_shrinking_keeps_the_report() {
    let picky = range(0u32..=1000).map(|x| {
        assert!(x > 3, "map saw {x}");
        x
    });
    let text = report(|| {
        check_with(
            &Config::new().seed(1).regressions(false),
            &picky,
            |&x: &u32| x < 500,
        )
    });
    assert!(
        text.contains("minimal counterexample:\n    500\n"),
        "{text}"
    );
}

/// In a parallel run, a generator that panics on a case after the first failing one does not
/// take over the report; one that panics before any failure panics as the sequential run does.
#[test]
fn a_parallel_run_reports_the_first_event_in_the_runs_order() {
    use reflective::check::check_parallel_with;
    let config = Config::new().seed(3).cases(100).regressions(false);
    let fragile = sized(|size| {
        assert!(size < 51, "the generator fails at size {size}");
        range(0u32..=0).boxed()
    });
    let at_fifty = |_: &u32| {
        std::thread::sleep(std::time::Duration::from_micros(200));
        true
    };
    let sequential = report(|| check_with(&config, &fragile, at_fifty));
    let parallel = report(|| check_parallel_with(&config, &fragile, at_fifty));
    assert!(
        sequential.contains("the generator fails at size 51"),
        "{sequential}"
    );
    assert_eq!(parallel, sequential);

    // The value is the size: the property fails at size 50, one case before the generator
    // would panic.
    let sizes = sized(|size| {
        assert!(size < 51, "the generator fails at size {size}");
        let size = u32::try_from(size).expect("a small size");
        range(size..=size).boxed()
    });
    let below_fifty = |&x: &u32| x < 50;
    let sequential = report(|| check_with(&config, &sizes, below_fifty));
    let parallel = report(|| check_parallel_with(&config, &sizes, below_fifty));
    assert!(
        sequential.starts_with("property failed at case 51 of 100"),
        "{sequential}"
    );
    assert_eq!(without_time(&parallel), without_time(&sequential));
}

/// `assume` discards a case: the run goes on until its cases held, every one satisfying the
/// assumption, and the statistics count the discards by their condition.
#[test]
fn assumptions_discard_cases_and_the_run_counts_only_the_others() {
    use std::sync::atomic::{AtomicU32, Ordering};
    let mut reported = 0;
    for seed in 0..5 {
        let held = AtomicU32::new(0);
        let config = Config::new().seed(seed).cases(50).regressions(false);
        check_with(&config, &range(0u32..=100), |&n: &u32| {
            reflective::assume!(n % 3 == 0);
            assert_eq!(n % 3, 0);
            held.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(held.load(Ordering::Relaxed), 50, "seed {seed}");
        // The function form, in a property that fails: the report names the discards.
        let config = Config::new().seed(seed).regressions(false);
        let text = report(|| {
            check_with(&config, &range(0u32..=100), |&n: &u32| {
                reflective::assume(n % 2 == 1);
                n < 90
            })
        });
        // The shrinker skips the candidates the property discards: the simplest odd value.
        assert!(text.contains("minimal counterexample:\n    91"), "{text}");
        let config = Config::new().seed(seed).regressions(false);
        let text = report(|| {
            check_with(&config, &range(0u32..=100), |&n: &u32| {
                reflective::assume!(n > 50);
                n < 90
            })
        });
        assert!(text.contains("minimal counterexample:\n    90"), "{text}");
        // The cases before the failure: most runs discard some, and the report says which.
        if text.contains("discarded") {
            assert!(text.contains("assume!(n > 50)"), "{text}");
            reported += 1;
        }
    }
    assert!(reported >= 3, "discards reported in {reported} of 5 runs");
}

/// A property that returns `None` discards the case as `assume` does: over many seeds and
/// conditions, the run reports what the same property with `assume!` reports (the reason
/// aside), sequentially and in parallel, and gives up the same way when it discards most cases.
#[test]
fn returning_none_discards_a_case_as_assume_does() {
    use reflective::check::check_parallel_with;
    type Condition = (&'static str, fn(u32) -> bool);
    let conditions: [Condition; 4] = [
        ("n % 3 == 0", |n| n % 3 == 0),
        ("n > 50", |n| n > 50),
        ("n % 2 == 1", |n| n % 2 == 1),
        ("n == 7", |n| n == 7),
    ];
    let mut failed = 0;
    for seed in 0..10 {
        for (text, condition) in conditions {
            let config = Config::new().seed(seed).regressions(false);
            let by_assume = |&n: &u32| {
                reflective::assume(condition(n));
                n < 90
            };
            let by_none = |&n: &u32| condition(n).then_some(n < 90);
            let generator = range(0u32..=100);
            let expected = report(|| check_with(&config, &generator, by_assume))
                .replace("assume(false)", "the property returned None");
            let sequential = report(|| check_with(&config, &generator, by_none));
            let parallel = report(|| check_parallel_with(&config, &generator, by_none));
            assert_eq!(
                without_time(&sequential),
                without_time(&expected),
                "seed {seed}, {text}"
            );
            assert_eq!(
                without_time(&parallel),
                without_time(&sequential),
                "seed {seed}, {text}"
            );
            failed += usize::from(sequential.starts_with("property failed"));
        }
    }
    // Most runs of the first three conditions find the failure at 90 and above.
    assert!(failed >= 20, "{failed} of 40 runs failed");
    // `None` inside other outcomes: `Some(Err(_))` fails, `Some(Ok(()))` and `None` do not.
    let config = Config::new().seed(1).regressions(false);
    let text = report(|| {
        check_with(&config, &range(0u32..=100), |&n: &u32| {
            (n % 2 == 0).then_some(if n > 60 { Err(n) } else { Ok(()) })
        })
    });
    assert!(
        text.contains("minimal counterexample:\n    62") && text.contains("returned Err(62)"),
        "{text}"
    );
}

/// A filter that the smallest sizes cannot pass (a list filtered to be non-empty: at size 0
/// every list is empty) discards the cases where it rejects every value it draws, as
/// proptest's `prop_filter` and QuickCheck's `suchThat` get past them, rather than stopping
/// the run at its first case: the property runs on every other case, a failure shrinks as
/// usual, in parallel as in sequence; the replay of such a case says why it did not run.
#[test]
fn a_filter_the_smallest_sizes_cannot_pass_discards_those_cases() {
    use reflective::check::{check_parallel_with, try_check_with};
    use std::sync::atomic::{AtomicU32, Ordering};
    let config = Config::new().seed(11).cases(300).regressions(false);
    let non_empty = || any::<Vec<u8>>().filter(|v| !v.is_empty());
    let ran = AtomicU32::new(0);
    check_with(&config, &non_empty(), |v: &Vec<u8>| {
        ran.fetch_add(1, Ordering::Relaxed);
        !v.is_empty()
    });
    assert_eq!(
        ran.load(Ordering::Relaxed),
        300,
        "every case that held counts"
    );
    check_parallel_with(&config, &non_empty(), |v: &Vec<u8>| !v.is_empty());
    for (name, text) in [
        (
            "sequential",
            report(|| check_with(&config, &non_empty(), |v: &Vec<u8>| v.len() < 3)),
        ),
        (
            "parallel",
            report(|| check_parallel_with(&config, &non_empty(), |v: &Vec<u8>| v.len() < 3)),
        ),
    ] {
        assert!(
            text.starts_with("property failed at case"),
            "{name}: {text}"
        );
        assert!(
            text.contains("minimal counterexample:\n    [0, 0, 0]"),
            "{name}: {text}"
        );
    }
    // Case 1 runs at size 0, where the filter keeps nothing.
    let replay = Config::new().replay(Replay::new(5, 0)).regressions(false);
    let text = try_check_with(&replay, &non_empty(), |v: &Vec<u8>| !v.is_empty())
        .expect_err("a discarded replay cannot pass")
        .to_string();
    assert!(text.contains("did not run: it was discarded"), "{text}");
    assert!(
        text.contains("a filter rejected 1000 values in a row"),
        "{text}"
    );
}

/// A filter that keeps no value at any size gives up once the cases have been through every
/// size (the schedule's first cycle), not after the discards' budget, in sequence and in
/// parallel, saying which filter's rejections discarded the cases; one that keeps values from
/// a size on runs until then.
#[test]
fn a_filter_that_keeps_nothing_gives_up_and_says_so() {
    use reflective::check::check_parallel_with;
    let nothing = range(0u8..=9).filter(|&n| n > 9);
    for (cases, tried) in [(10, 10), (300, 101)] {
        let config = Config::new().seed(2).cases(cases).regressions(false);
        for text in [
            report(|| check_with(&config, &nothing, |_: &u8| true)),
            report(|| check_parallel_with(&config, &nothing, |_: &u8| true)),
        ] {
            assert!(
                text.starts_with("property gave up (health check)"),
                "{text}"
            );
            assert!(
                text.contains(&format!(
                    "the generator made no value in any of its {tried} cases, which went \
                     through every size"
                )),
                "{text}"
            );
            assert!(
                text.contains("a filter rejected 1000 values in a row"),
                "{text}"
            );
        }
    }
    let config = Config::new().seed(2).cases(300).regressions(false);
    let from_size_5 = sized(|size| range(0..=size as u64)).filter(|&n| n >= 5);
    check_with(&config, &from_size_5, |&n: &u64| n >= 5);
}

/// A run whose property discards most cases gives up with a health report that says what to
/// do, also in parallel; so does one whose filters reject most values.
#[test]
fn a_run_that_discards_most_cases_gives_up_and_says_why() {
    use reflective::check::check_parallel_with;
    let config = Config::new().seed(3).cases(100).regressions(false);
    let rare = |&n: &u32| {
        reflective::assume!(n == 7);
    };
    let text = report(|| check_with(&config, &range(0u32..=1000), rare));
    assert!(
        text.starts_with("property gave up (health check)"),
        "{text}"
    );
    for expected in [
        "1001 cases were discarded",
        "assume!(n == 7)",
        "Write a generator that produces only those values",
        "REFLECTIVE_MAX_DISCARD_RATIO",
    ] {
        assert!(text.contains(expected), "{expected}: {text}");
    }
    let parallel = report(|| check_parallel_with(&config, &range(0u32..=1000), rare));
    assert_eq!(parallel, text);
    // A larger ratio lets the same run finish.
    let patient = config.clone().cases(5).max_discard_ratio(1000);
    check_with(&patient, &range(0u32..=100), rare);
    // Filters that keep one value in a hundred.
    let sparse = range(0u32..=10_000).filter(|n| n % 100 == 0);
    let text = report(|| check_with(&config, &sparse, |_: &u32| true));
    assert!(
        text.contains("the generator's filters rejected") && text.contains("Write a generator"),
        "{text}"
    );
}

/// A filtered generator generates and reflects only what it keeps; replay gives the value back;
/// a failure shrinks to the simplest kept value.
#[test]
fn filters_keep_what_they_accept_in_every_interpretation() {
    let evens = vec(range(0u32..=1000).filter(|n| n % 2 == 0), ..);
    let mut rng = DefaultRng::seed_from_u64(9);
    for _ in 0..200 {
        let generated = evens.generate(&mut rng, 30);
        assert!(generated.value.iter().all(|n| n % 2 == 0));
        assert!(evens.can_generate(&generated.value));
        assert_eq!(evens.replay(&generated.tree), Some(generated.value));
    }
    assert!(!evens.can_generate(&vec![2, 3]));
    let shrunk = evens.shrink(vec![4, 998, 12], |xs| xs.iter().any(|&n| n > 500));
    assert_eq!(shrunk, [502]);
    let config = Config::new().seed(1).regressions(false);
    let text = report(|| check_with(&config, &evens, |xs: &Vec<u32>| xs.len() < 3));
    assert!(
        text.contains("minimal counterexample:\n    [0, 0, 0]\n"),
        "{text}"
    );
}

/// `filter_map` (proptest's `prop_filter_map`) generates only what its function makes
/// something of; with the function undone by a `comap`, what it makes reflects, replays and
/// shrinks within it; a function that answers differently the second time is an error, not a
/// panic.
#[test]
fn filter_map_makes_what_its_function_keeps_in_every_interpretation() {
    // Halves of the even numbers, reflected as the number they halve.
    let halves = vec(
        range(0u32..=1000)
            .comap(|half: &u32| half.checked_mul(2))
            .filter_map(|n| (n % 2 == 0).then_some(n / 2)),
        ..,
    );
    let mut rng = DefaultRng::seed_from_u64(4);
    for _ in 0..200 {
        let generated = halves.generate(&mut rng, 30);
        assert!(generated.value.iter().all(|&half| half <= 500));
        assert!(halves.can_generate(&generated.value));
        assert_eq!(halves.replay(&generated.tree), Some(generated.value));
    }
    assert!(!halves.can_generate(&vec![501]));
    let shrunk = halves.shrink(vec![4, 499, 12], |xs| xs.iter().any(|&half| half > 250));
    assert_eq!(shrunk, [251]);

    let flip = std::sync::atomic::AtomicBool::new(false);
    let fickle = range(0u8..=9).filter_map(move |&x| {
        let again = flip.fetch_xor(true, std::sync::atomic::Ordering::Relaxed);
        (!again).then_some(x)
    });
    let mut rng = DefaultRng::seed_from_u64(1);
    let error = fickle.try_generate(&mut rng, 10).unwrap_err().to_string();
    assert!(
        error.contains("filter_map's function gave `None`"),
        "{error}"
    );
}

/// `assume` outside a run has no case to discard: it says so, and in a generator run by the
/// runner too, pointing to `filter`.
#[test]
fn an_assumption_outside_a_property_says_so() {
    reflective::assume(true);
    let text = report(|| reflective::assume(false));
    assert!(text.contains("was called outside one"), "{text}");
    let in_generator = range(0u8..=9).map(|x| {
        reflective::assume(x > 3);
        x
    });
    let config = Config::new().seed(1).regressions(false);
    let text = report(|| check_with(&config, &in_generator, |_| true));
    assert!(text.contains("the generator panicked"), "{text}");
    assert!(text.contains("(in a generator"), "{text}");
    assert!(text.contains("use `.filter`"), "{text}");
}

#[test]
fn a_panicking_generator_is_reported_with_the_case_to_replay() {
    use reflective::check::{Config, Replay, check_parallel_with, try_check_with};
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let g = range(0u8..=9).map(|x| {
        assert!(x < 7, "generator bug on {x}");
        x
    });
    let config = Config::new().cases(100).seed(3).regressions(false);
    let report = try_check_with(&config, &g, |_| true)
        .expect_err("the generator panics")
        .to_string();
    assert!(
        report.starts_with("the generator panicked at reflective-tests/tests/check.rs:")
            && report.contains(":9: generator bug on ")
            && report.ends_with(": the property did not run)"),
        "{report}"
    );
    let at = report.find("REFLECTIVE_REPLAY=").expect("a replay line") + "REFLECTIVE_REPLAY=".len();
    let replay: Replay = report[at..]
        .split(": the property")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let again = try_check_with(&Config::new().replay(replay).regressions(false), &g, |_| {
        true
    })
    .expect_err("the case panics again")
    .to_string();
    assert_eq!(again, report);
    // In parallel, the same report.
    let parallel = catch_unwind(AssertUnwindSafe(|| {
        check_parallel_with(&config, &g, |_| true)
    }))
    .expect_err("the generator panics")
    .downcast::<String>()
    .map(|text| *text)
    .expect("a report");
    assert_eq!(parallel, report);
}

/// A replayed case that the property discards is reported, not passed: the replay ran nothing.
/// Both for generated cases and for gradient sampling's; a replayed case that holds passes. A
/// gradient run refuses a mutation case's line, which it cannot replay.
#[test]
fn a_replayed_case_the_property_discards_is_an_error() {
    use reflective::check::{try_check_by_gradient, try_check_with};
    let g = vec(range(0u32..=1000), ..);
    let replay = Replay::new(1, 3);
    let config = Config::new().replay(replay).regressions(false);
    let report = try_check_with(&config, &g, |_: &Vec<u32>| None::<bool>)
        .expect_err("a discarded replay cannot pass")
        .to_string();
    assert!(
        report
            .starts_with("the replayed case REFLECTIVE_REPLAY=0x1:3 did not run: it was discarded"),
        "{report}"
    );
    assert!(try_check_with(&config, &g, |_: &Vec<u32>| Some(true)).is_ok());
    // Gradient sampling's replay, whose precondition no value meets.
    let never = g.gradient(|_: &Vec<u32>| false).samples(2);
    let report = try_check_by_gradient(&config, &never, |_: &Vec<u32>| true)
        .expect_err("a replay that finds no value cannot pass")
        .to_string();
    assert!(report.contains("did not run"), "{report}");
    // A mutation case's line, which gradient runs do not make.
    let mutant = Replay {
        mutation: Some(5),
        ..replay
    };
    let sorted = g.gradient(|xs: &Vec<u32>| xs.is_sorted()).samples(2);
    let config = Config::new().replay(mutant).regressions(false);
    let report = try_check_by_gradient(&config, &sorted, |_: &Vec<u32>| true)
        .expect_err("a gradient run has no mutation cases")
        .to_string();
    assert!(
        report.starts_with("REFLECTIVE_REPLAY=0x1:3/0x5 names a mutation case"),
        "{report}"
    );
}

/// `max_size` above the largest size a replay line may carry is refused, with the bound: every
/// case a run prints must replay from its line.
#[test]
fn a_max_size_no_replay_line_could_carry_is_refused() {
    use reflective::check::MAX_ENV_SIZE;
    let _ = Config::new().max_size(MAX_ENV_SIZE);
    let refused = report(|| {
        let _ = Config::new().max_size(MAX_ENV_SIZE + 1);
    });
    assert!(
        refused.starts_with(&format!("max_size: at most {MAX_ENV_SIZE}")),
        "{refused}"
    );
}

/// The line that runs every case again names the settings that decide the cases where they
/// are not the defaults: the size schedule and the mutation cases, and coverage checking when
/// on.
#[test]
fn the_rerun_line_names_a_schedule_and_mutation_that_are_not_the_defaults() {
    let g = sized(|size| range(size as u64..=size as u64));
    let rerun = |config: Config| {
        let text = report(|| check_with(&config.seed(1).regressions(false), &g, |&n| n != 3));
        section(&text, "run every case again:").to_string()
    };
    let plain = rerun(Config::new());
    assert!(!plain.contains("REFLECTIVE_SIZE_SCHEDULE") && !plain.contains("MUTATION"));
    let ramp = rerun(
        Config::new()
            .size_schedule(SizeSchedule::Ramp)
            .max_size(10)
            .mutation_percent(30),
    );
    assert!(
        ramp.contains("REFLECTIVE_SIZE_SCHEDULE=ramp REFLECTIVE_MUTATION_PERCENT=30 "),
        "{ramp}"
    );
    // Coverage checking runs cases past the count (on by default only under CI): a failure
    // found there replays only with it on.
    let off = rerun(Config::new().check_coverage(false));
    assert!(!off.contains("REFLECTIVE_CHECK_COVERAGE"), "{off}");
    let on = rerun(Config::new().check_coverage(true));
    assert!(
        on.contains("    REFLECTIVE_CHECK_COVERAGE=on REFLECTIVE_SEED=0x1 "),
        "{on}"
    );
}

/// A mutation percentage above 100 is refused, as the environment and the test attribute
/// refuse it.
#[test]
fn a_mutation_percentage_above_100_is_refused() {
    let refused = report(|| {
        let _ = Config::new().mutation_percent(101);
    });
    assert_eq!(refused, "mutation: a percentage from 0 to 100, got 101");
    let _ = Config::new().mutation(Mutation::Percent(100));
}

/// This file's regressions directory, held by one test at a time: removed when the test ends,
/// passed or not.
struct Cleanup {
    dir: std::path::PathBuf,
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The regressions file of the test `test` of this file, its directory made, and what removes
/// the directory (the tests that use it take turns).
fn regressions_file(test: &str) -> (Cleanup, std::path::PathBuf) {
    static DIRECTORY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let turn = DIRECTORY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reflective-regressions")
        .join("check");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{test}.txt"));
    (Cleanup { dir, _turn: turn }, file)
}

/// A stored case the generator panics on is an error naming the regressions file and the line,
/// with the panic's message and what to do, not a bare panic; and `cover` with a percentage
/// outside 0 to 100 fails the property with a message saying so.
#[test]
fn a_generator_panicking_on_a_stored_case_names_the_file_and_line() {
    let (_cleanup, file) =
        regressions_file("a_generator_panicking_on_a_stored_case_names_the_file_and_line");
    std::fs::write(&file, "# a case\nsize 3: [i77]\n").unwrap();
    let g = range(0u32..=100)
        .map(|n| {
            assert!(n <= 50, "gen boom {n}");
            n
        })
        .comap(|n: &u32| Some(*n));
    let config = Config::new().seed(1).regressions(true);
    let error = reflective::check::try_check_with(&config, &g, |_: &u32| true)
        .expect_err("the stored case cannot run")
        .to_string();
    assert!(
        error.starts_with(&format!(
            "reflective: the regressions file: {}, line 2: the generator panicked on it: gen \
             boom 77; ",
            file.display()
        )),
        "{error}"
    );
    assert!(error.ends_with("mend the line or delete it"), "{error}");

    let bad_cover = report(|| {
        check_with(&Config::new().regressions(false), &range(0u8..=9), |_| {
            reflective::statistics::cover(150.0, true, "all");
            true
        });
    });
    assert!(
        bad_cover.contains("cover: a percentage from 0 to 100, got 150"),
        "{bad_cover}"
    );
}

/// A stored case whose choices still fit the generator fails as stored; one whose choices no
/// longer fit (the generator changed) is repaired, and the report says that the value is what
/// the repaired choices give, not the one stored.
#[test]
fn a_stored_case_repaired_for_a_changed_generator_says_so() {
    let (_cleanup, file) =
        regressions_file("a_stored_case_repaired_for_a_changed_generator_says_so");
    let config = Config::new().seed(1).regressions(true);
    let repair_note = "the generator changed since it was stored";
    for (stored, repaired) in [("size 3: [i77]\n", false), ("size 3: [i500]\n", true)] {
        std::fs::write(&file, format!("# a case\n{stored}")).unwrap();
        let error =
            reflective::check::try_check_with(&config, &range(0u32..=100), |n: &u32| *n < 50)
                .expect_err("the stored case fails")
                .to_string();
        assert!(
            error.contains(&format!(
                "property failed on a stored regression ({}, line 2)",
                file.display()
            )),
            "{error}"
        );
        assert_eq!(error.contains(repair_note), repaired, "{stored}: {error}");
    }
}
