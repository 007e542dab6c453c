//! The report a failing run panics with: the minimal counterexample, the original, why each
//! failed, the seed, how to replay, the shrink's and the cases' statistics.

use std::fmt::{self, Debug};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::engine::{Filtered, Strategy};
use crate::interpret::shrink::{Shrunk, Stopped};

use super::config::{Mutation, Replay, Resolved, test_name};
use super::outcome::debug_text;
use super::regressions;
use super::schedule::SizeSchedule;
use super::statistics::{Statistics, how_many};

/// Where a failing case came from.
pub(super) enum Origin {
    /// Case number `n` (from 1) of the run, replayed by `replay`.
    Case(u32, Replay),
    /// The case `REFLECTIVE_REPLAY` (or [`Config::replay`]) named.
    Replayed(Replay),
    /// A case stored in the regressions file, at this line; `repaired` if its choices no
    /// longer fit the generator and replay changed them.
    Stored {
        path: PathBuf,
        line: usize,
        repaired: bool,
    },
}

impl Origin {
    /// The case, in a sentence: `case REFLECTIVE_REPLAY=<line>`, or where it is stored.
    pub(super) fn case(&self) -> String {
        match self {
            Origin::Case(_, replay) | Origin::Replayed(replay) => {
                format!("case REFLECTIVE_REPLAY={replay}")
            }
            Origin::Stored { path, line, .. } => {
                format!("the case stored at {}, line {line}", path.display())
            }
        }
    }
}

/// A failed run: what the report says.
pub(super) struct Failure<T> {
    pub(super) settings: Resolved,
    pub(super) origin: Origin,
    pub(super) original: T,
    pub(super) original_reason: String,
    pub(super) shrunk: Shrunk<T>,
    pub(super) reason: String,
    /// Whether the case passed when run again on the same value: the property does not
    /// depend on the value alone (time, randomness, state).
    pub(super) flaky: bool,
    /// Where the minimal case was stored, or why it could not be; `None` without a file.
    pub(super) saved: Option<Result<PathBuf, String>>,
    /// What the cases before the failure recorded.
    pub(super) statistics: Statistics,
}

impl<T: Debug> fmt::Display for Failure<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stats = &self.shrunk.stats;
        if self.flaky {
            writeln!(
                f,
                "property is flaky: a case failed, then passed when run again on the same \
                 value, so it depends on more than the value (time, randomness, state)"
            )?;
        }
        match &self.origin {
            Origin::Case(case, replay) => writeln!(
                f,
                "property failed at case {case} of {} (seed {:#x}, size {}{})",
                self.settings.cases,
                self.settings.seed,
                replay.size,
                if self.settings.ci { ", CI profile" } else { "" }
            )?,
            Origin::Replayed(_) => writeln!(f, "property failed on the replayed case")?,
            Origin::Stored {
                path,
                line,
                repaired,
            } => {
                writeln!(
                    f,
                    "property failed on a stored regression ({}, line {line})",
                    path.display()
                )?;
                if *repaired {
                    writeln!(
                        f,
                        "(the generator changed since it was stored: its choices no longer fit \
                         and were repaired, so the value below is what they give now, not the \
                         one stored)"
                    )?;
                }
            }
        }
        writeln!(f)?;
        match stats.stopped {
            Stopped::Fixpoint => writeln!(f, "minimal counterexample:")?,
            _ => writeln!(
                f,
                "shrunk counterexample (the shrink stopped before it ended, so a simpler one \
                 may fail too):"
            )?,
        }
        writeln!(f, "{}", indent(&shown(&self.shrunk.value)))?;
        writeln!(f, "{}", indent(&self.reason))?;
        writeln!(f)?;
        writeln!(f, "original counterexample:")?;
        writeln!(f, "{}", indent(&shown(&self.original)))?;
        writeln!(f, "{}", indent(&self.original_reason))?;
        writeln!(f)?;
        writeln!(
            f,
            "shrunk in {}, {}, {:.1} ms (stopped: {})",
            how_many(stats.evaluations, "evaluation"),
            how_many(stats.steps, "step"),
            stats.time.as_secs_f64() * 1000.0,
            match stats.stopped {
                Stopped::Fixpoint => "no simpler candidate fails",
                Stopped::Evaluations => "the evaluation budget ran out",
                Stopped::Time => "the time budget ran out",
            }
        )?;
        match &self.saved {
            Some(Ok(path)) => writeln!(
                f,
                "saved to {}: replayed first on every run (commit it)",
                path.display()
            )?,
            Some(Err(error)) => writeln!(f, "not saved: {error}")?,
            None => {}
        }
        let test = rerun_command();
        let case_settings = case_settings(self.settings.strategy, self.settings.case_time_limit);
        // What decides the run's cases besides its seed, count and largest size: the size
        // schedule and the mutation cases, where not the defaults, and coverage checking,
        // which runs cases past the count (on by default only under CI).
        let mut run = case_settings.clone();
        if self.settings.check_coverage {
            run.push_str("REFLECTIVE_CHECK_COVERAGE=on ");
        }
        if self.settings.size_schedule != SizeSchedule::default() {
            run.push_str(&format!(
                "REFLECTIVE_SIZE_SCHEDULE={} ",
                self.settings.size_schedule
            ));
        }
        if self.settings.mutation != Mutation::default() {
            run.push_str(&format!(
                "REFLECTIVE_MUTATION_PERCENT={} ",
                self.settings.mutation
            ));
        }
        // The failure is stored now, and a stored case runs before the seed's: without the
        // file, the line runs the seed's cases, to this failure again.
        if matches!(self.saved, Some(Ok(_))) {
            run.push_str("REFLECTIVE_REGRESSIONS=off ");
        }
        if let Origin::Case(_, replay) | Origin::Replayed(replay) = &self.origin {
            writeln!(f)?;
            writeln!(f, "replay this case:")?;
            let check = replay_check(self.settings.check);
            write!(
                f,
                "    {case_settings}{check}REFLECTIVE_REPLAY={replay} {test}"
            )?;
        }
        if let Origin::Case(..) = self.origin {
            write!(
                f,
                "\nrun every case again:\n    {run}REFLECTIVE_SEED={:#x} \
                 REFLECTIVE_CASES={} REFLECTIVE_MAX_SIZE={} {test}",
                self.settings.seed, self.settings.cases, self.settings.max_size
            )?;
        }
        if !self.statistics.is_empty() {
            write!(f, "\n\n{}", self.statistics)?;
        }
        Ok(())
    }
}

/// The command a line that runs the failing check again ends with: `cargo test` and what
/// follows it ([`cargo_test_arguments`]), or, in a program (a check on its main thread,
/// outside a doctest: `try_check_with` in a tool of one's own), the program as it was
/// started, which reads the same variables.
fn rerun_command() -> String {
    let main_thread = std::thread::current().name() == Some("main");
    if main_thread && !in_doctest() {
        return program_command(std::env::args_os().map(|arg| arg.to_string_lossy().into_owned()));
    }
    format!("cargo test{}", cargo_test_arguments())
}

/// The command line `args` (the program first) as a shell reads it back: each argument with
/// a character a shell treats apart (a space, a quote, `;`, `*`, `$`, ...) in single quotes.
fn program_command(args: impl Iterator<Item = String>) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./=:,+@%-".contains(c);
    let words: Vec<String> = args
        .map(|arg| {
            if !arg.is_empty() && arg.chars().all(plain) {
                arg
            } else {
                format!("'{}'", arg.replace('\'', "'\\''"))
            }
        })
        .collect();
    words.join(" ")
}

/// What follows `cargo test` in a line that runs the failing test alone: the package and,
/// for a test file under `tests/`, its target (so that Cargo builds only those, not every
/// test of the workspace), then the test's name, matched exactly. Each part only where the
/// environment `cargo test` gives the test binary tells it; nothing without the test's name.
fn cargo_test_arguments() -> String {
    cargo_test_arguments_for(test_name().as_deref())
}

/// What decides a case besides its seed and size, as variables that start a line running it
/// again: the strategy, as set, and the time limit past which a case fails.
pub(super) fn case_settings(strategy: Option<Strategy>, limit: Option<Duration>) -> String {
    let mut settings = strategy
        .map(|strategy| format!("REFLECTIVE_STRATEGY={} ", strategy.name()))
        .unwrap_or_default();
    if let Some(limit) = limit {
        // Whole milliseconds, as the variable takes them; a limit below one, as one.
        let millis = limit.as_millis().clamp(1, u128::from(u64::MAX));
        settings.push_str(&format!("REFLECTIVE_CASE_TIME_LIMIT_MS={millis} "));
    }
    settings
}

/// Which check of its test replays a case, as a variable that starts a replay line: none
/// for the first check of a test (or one without a number), whose replay needs no name.
pub(super) fn replay_check(check: Option<u32>) -> String {
    match check {
        Some(check) if check > 1 => format!("REFLECTIVE_REPLAY_CHECK={check} "),
        _ => String::new(),
    }
}

/// [`cargo_test_arguments`] for the test named `name`. Without one: in a doctest (which runs
/// on its process's main thread, so its name is not known), the package's doctests; else
/// nothing.
pub(super) fn cargo_test_arguments_for(name: Option<&str>) -> String {
    let Some(name) = name else {
        if !in_doctest() {
            return String::new();
        }
        return doctest_arguments(std::env::var("CARGO_PKG_NAME").ok().as_deref());
    };
    let mut arguments = String::new();
    let package = std::env::var("CARGO_PKG_NAME").ok();
    if let Some(package) = &package {
        arguments.push_str(&format!(" -p {package}"));
    }
    if let (Some(crate_dir), Some(target)) = (
        std::env::var_os("CARGO_MANIFEST_DIR"),
        regressions::binary_target(),
    ) {
        arguments.push_str(&target_arguments(
            &PathBuf::from(crate_dir),
            package.as_deref(),
            &target,
        ));
    }
    format!("{arguments} {name} -- --exact")
}

/// The Cargo target of the test binary `target` of the package `package` in `crate_dir`, as
/// arguments, so that Cargo builds that target alone: a test file under `tests/` (its target
/// is named after the file, which the binary's name keeps with `-` as `_`), or the library's
/// unit tests (the binary is named after the package, `-` as `_`), where the package has no
/// `src/main.rs`, whose unit tests have the same name. Nothing where it cannot tell.
fn target_arguments(crate_dir: &Path, package: Option<&str>, target: &str) -> String {
    if let Some(test) = test_target(&crate_dir.join("tests"), target) {
        return format!(" --test {test}");
    }
    let src = crate_dir.join("src");
    let library = package.is_some_and(|package| package.replace('-', "_") == target);
    if library && src.join("lib.rs").is_file() && !src.join("main.rs").is_file() {
        return " --lib".to_string();
    }
    String::new()
}

/// The name of the test target under `tests` whose binary is `binary`: a file `<name>.rs` or
/// a directory `<name>/main.rs`, where the binary's name is the target's with `-` as `_`
/// (`tests/my-props.rs` builds `my_props-<hash>`, run by `--test my-props`).
fn test_target(tests: &Path, binary: &str) -> Option<String> {
    let is_test = |name: &str| {
        tests.join(format!("{name}.rs")).is_file() || tests.join(name).join("main.rs").is_file()
    };
    if is_test(binary) {
        return Some(binary.to_string());
    }
    fs::read_dir(tests).ok()?.find_map(|entry| {
        let name = entry.ok()?.file_name().into_string().ok()?;
        let name = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        (name.contains('-') && name.replace('-', "_") == binary && is_test(&name)).then_some(name)
    })
}

/// What follows `cargo test` in a line that runs a failing doctest again: the package's
/// doctests alone (`--doc`), since a plain `cargo test` runs every test target first, each
/// property in them replaying the case, and stops at the first target that fails.
fn doctest_arguments(package: Option<&str>) -> String {
    match package {
        Some(package) => format!(" -p {package} --doc"),
        None => " --doc".to_string(),
    }
}

/// Whether this process is a doctest: rustdoc builds each in a directory of its own named
/// `rustdoctest...`, and runs a merged doctest with `RUSTDOC_DOCTEST_RUN_NB_TEST` set.
fn in_doctest() -> bool {
    std::env::var_os("RUSTDOC_DOCTEST_RUN_NB_TEST").is_some()
        || std::env::current_exe().is_ok_and(|exe| {
            exe.parent()
                .and_then(|dir| dir.file_name())
                .and_then(|dir| dir.to_str())
                .is_some_and(|dir| dir.starts_with("rustdoctest"))
        })
}

/// The report of a run whose cases all held but whose coverage requirements were not met
/// (or, if `undecided`, could not be decided).
pub(super) fn coverage_report(
    settings: &Resolved,
    statistics: &Statistics,
    undecided: bool,
) -> String {
    let verdict = if undecided {
        "coverage could not be decided with confidence"
    } else {
        "coverage requirements not met"
    };
    format!(
        "property held, but {verdict} (seed {:#x}):\n\n{statistics}\nrun more cases \
         (REFLECTIVE_CASES), make the generator meet the requirement, or lower it",
        settings.seed
    )
}

/// What a run that replays one case, `replay`, says when the case held: that it ran no other
/// case, so that a replay line left in the environment does not pass every test unseen.
pub(super) fn replay_held_note(test: Option<&str>, replay: Replay) -> String {
    let test = test.map(|test| format!(" `{test}`")).unwrap_or_default();
    format!(
        "reflective: the check{test} replayed one case, REFLECTIVE_REPLAY={replay}, and the \
         property held on it; it ran no other case (unset REFLECTIVE_REPLAY to run them)\n"
    )
}

/// Why a run that replays one case, `replay`, cannot pass: the case was discarded (by the
/// property, or as a filter rejected every value it drew).
pub(super) fn discarded_replay_report(replay: Replay, statistics: &Statistics) -> String {
    format!(
        "the replayed case REFLECTIVE_REPLAY={replay} did not run: it was discarded (by the \
         property's `assume` or `None`, or as a filter rejected every value it drew: see \
         below), so it neither failed nor held.\n\n{statistics}\nCheck that the \
         replay line is the one the failure printed, and whether the property's precondition \
         or the generator changed since, and, in a test that runs several checks, whether the \
         line names the check that failed (`REFLECTIVE_REPLAY_CHECK`)."
    )
}

/// The health report of a run that gave up: its property discarded too many cases, or its
/// generator's filters rejected too many values, for the cases to be worth anything.
pub(super) fn gave_up_report(settings: &Resolved, statistics: &Statistics) -> String {
    let Filtered {
        accepted, rejected, ..
    } = statistics.filters();
    let ratio = settings.max_discard_ratio;
    let filtered_out = statistics.filtered_out();
    let what = if statistics.made_no_value() {
        format!(
            "the generator made no value in any of its {filtered_out} cases, which went through \
             every size the run gives its cases: a filter rejected every value it drew in each"
        )
    } else if statistics.discarded() > settings.cases.saturating_mul(ratio) {
        format!(
            "{} cases were discarded (more than {ratio} per case to run) and the property held \
             on only {} of the {} cases to run",
            statistics.discarded(),
            statistics.counted(),
            settings.cases
        )
    } else {
        format!(
            "the generator's filters rejected {rejected} values and kept {accepted} (more than \
             {ratio} rejected per value kept), over {} cases",
            statistics.counted() + statistics.discarded()
        )
    };
    format!(
        "property gave up (health check): {what} (seed {:#x}).\n\n{statistics}\nMost generated \
         values are not ones the property tests. Write a generator that produces only those \
         values (a narrower range, `bind` on what the value depends on, `focus` into the parts \
         that matter, a derive with `#[reflective(generator = ...)]` on the field) instead of \
         discarding them with `assume` or `filter`; or allow more with \
         `Config::max_discard_ratio` (`REFLECTIVE_MAX_DISCARD_RATIO`, now {ratio}).",
        settings.seed
    )
}

/// `value`'s `Debug` text as [`readable`] writes it, or, if its `Debug` panics, a note saying
/// so: the rest of the report (the seed, the line to replay it) must reach the user all the
/// same.
pub(super) fn shown<T: Debug + ?Sized>(value: &T) -> String {
    debug_text(|| readable(value))
}

/// The longest `Debug` text a report keeps on one line.
const ONE_LINE: usize = 80;

/// `value`'s `Debug` text on one line (`{:?}`) if it is at most [`ONE_LINE`] characters long,
/// else spread over lines (`{:#?}`): `Neg(Neg(Num(1)))` reads best as it is, a long struct
/// field by field.
pub(super) fn readable<T: Debug + ?Sized>(value: &T) -> String {
    let line = format!("{value:?}");
    if line.chars().count() <= ONE_LINE && !line.contains('\n') {
        line
    } else {
        format!("{value:#?}")
    }
}

/// `text` with every line indented by four spaces.
pub(super) fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("    {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::{
        Replay, cargo_test_arguments_for, doctest_arguments, program_command, readable,
        replay_held_note, target_arguments,
    };

    /// A check in a program of one's own is run again by the program, as it was started.
    #[test]
    fn a_program_is_run_again_as_it_was_started() {
        let args = [
            "target/debug/examples/tool",
            "--input=a.txt",
            "a file",
            "it's",
            "",
            "a;b",
            "*",
            "$HOME",
        ];
        assert_eq!(
            program_command(args.into_iter().map(String::from)),
            "target/debug/examples/tool --input=a.txt 'a file' 'it'\\''s' '' 'a;b' '*' '$HOME'"
        );
    }

    /// A replayed case that holds says that no other case ran, naming the test if known.
    #[test]
    fn a_replay_that_holds_says_no_other_case_ran() {
        assert_eq!(
            replay_held_note(Some("tests::sums"), Replay::new(0x1f, 3)),
            "reflective: the check `tests::sums` replayed one case, REFLECTIVE_REPLAY=0x1f:3, \
             and the property held on it; it ran no other case (unset REFLECTIVE_REPLAY to run \
             them)\n"
        );
        assert!(replay_held_note(None, Replay::new(1, 0)).starts_with(
            "reflective: the check replayed one case, REFLECTIVE_REPLAY=0x1:0, and the property"
        ));
    }

    /// A doctest's lines run the package's doctests alone, not every test of the workspace
    /// (which a plain `cargo test` would, stopping at the first target that fails); outside a
    /// doctest, a check without a test's name gets no arguments.
    /// A line names the test's target where it can tell it: a test file (also one whose name
    /// has a `-`, which its binary's name has as `_`), or the library's unit tests of a package
    /// without a binary of the same name.
    #[test]
    fn a_line_names_the_test_files_target_or_the_library() {
        let dir = std::env::temp_dir().join(format!("reflective-targets-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("tests").join("props.rs"), "").unwrap();
        std::fs::write(dir.join("src").join("lib.rs"), "").unwrap();
        let package = Some("my-crate");
        assert_eq!(target_arguments(&dir, package, "props"), " --test props");
        assert_eq!(target_arguments(&dir, package, "my_crate"), " --lib");
        assert_eq!(target_arguments(&dir, package, "other"), "");
        assert_eq!(target_arguments(&dir, None, "my_crate"), "");
        // A test file with a `-` in its name builds a binary with `_` in its place.
        std::fs::write(dir.join("tests").join("my-props.rs"), "").unwrap();
        std::fs::create_dir_all(dir.join("tests").join("multi-file")).unwrap();
        std::fs::write(dir.join("tests").join("multi-file").join("main.rs"), "").unwrap();
        assert_eq!(
            target_arguments(&dir, package, "my_props"),
            " --test my-props"
        );
        assert_eq!(
            target_arguments(&dir, package, "multi_file"),
            " --test multi-file"
        );
        assert_eq!(target_arguments(&dir, package, "my_other"), "");
        // With a binary of the package's name too, its unit tests have the same name.
        std::fs::write(dir.join("src").join("main.rs"), "").unwrap();
        assert_eq!(target_arguments(&dir, package, "my_crate"), "");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_doctest_is_rerun_by_the_doctests_of_its_package() {
        assert_eq!(doctest_arguments(Some("my-crate")), " -p my-crate --doc");
        assert_eq!(doctest_arguments(None), " --doc");
        assert_eq!(cargo_test_arguments_for(None), "");
    }

    #[test]
    fn a_short_value_stays_on_one_line_a_long_one_spreads() {
        assert_eq!(readable(&Some(vec![0u8, 101])), "Some([0, 101])");
        let long = readable(&vec![1_000_000u32; 12]);
        assert!(long.starts_with("[\n    1000000,\n"), "{long}");
    }
}
