//! Runs real failing properties in a child `cargo test` and checks what a user reads: the
//! report in the test's output has the seed and the minimal counterexample, and its replay
//! line, pasted back as the environment of another run, runs that case again; the failure is
//! stored in the test's regressions file and replayed first on the next run; a truncated file
//! is an error that says where and what to do.

use std::path::{Path, PathBuf};
use std::process::Command;

use reflective_tests::report_section as section;

/// The crate the child runs, in a directory of its own for each test that edits it:
/// `fixtures/properties.rs` as its test, `reflective` by path with
/// its `serde` feature, the workspace's lock file so that it builds offline with the same
/// versions.
fn fixture_crate(name: &str) -> PathBuf {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = tests.parent().expect("the workspace");
    let dir = workspace.join("target").join("child-cargo").join(name);
    std::fs::create_dir_all(dir.join("tests")).expect("the fixture's directory");
    let manifest = format!(
        "[package]\nname = \"reflective-child\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\nreflective = {{ path = {:?}, features = \
         [\"serde\"] }}\n\n[workspace]\n",
        workspace.join("reflective")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("the manifest");
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).expect("the lock file");
    std::fs::copy(
        tests.join("fixtures").join("properties.rs"),
        dir.join("tests").join("properties.rs"),
    )
    .expect("the test file");
    dir
}

/// Runs the fixture's test `name` with the environment `env`: whether it passed, and its
/// output (stdout and stderr).
fn cargo_test(dir: &Path, name: &str, env: &[(&str, &str)]) -> (bool, String) {
    let mut command = Command::new(env!("CARGO"));
    command
        .current_dir(dir)
        .args(["test", "--offline", "--quiet", "--test", "properties", name])
        .args(["--", "--exact"])
        // Shared by the fixtures, which cargo builds one at a time.
        .env("CARGO_TARGET_DIR", dir.join("..").join("target"));
    for (key, _) in std::env::vars() {
        if key.starts_with("REFLECTIVE_") {
            command.env_remove(key);
        }
    }
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("cargo runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// The value a report's line `NAME=value ...` gives, from the text after `NAME=`.
fn value_after<'t>(text: &'t str, name: &str) -> &'t str {
    let at = text
        .find(&format!("{name}="))
        .unwrap_or_else(|| panic!("no {name} in:\n{text}"))
        + name.len()
        + 1;
    text[at..].split_whitespace().next().expect("a value")
}

/// A case that runs past its time limit is reported while it runs, with the line that runs
/// it alone (a case that never ends never reaches the failure report), and so is an
/// evaluation of the shrink that runs past it.
#[test]
fn a_case_still_running_past_its_limit_is_reported_while_it_runs() {
    let dir = fixture_crate("watchdog");
    let _ = std::fs::remove_dir_all(dir.join("reflective-regressions"));
    let (passed, text) = cargo_test(&dir, "seven_takes_a_second", &[]);
    assert!(!passed, "{text}");
    let name = "seven_takes_a_second";
    let still = format!("reflective: {name}: case REFLECTIVE_REPLAY=");
    let at = text.find(&still).unwrap_or_else(|| panic!("{text}"));
    let report = &text[at..];
    assert!(
        report.contains(
            ", past the limit of 200.0ms, and has not ended (a loop that never exits? \
             a deadlock?); to run it alone:\n    REFLECTIVE_CASE_TIME_LIMIT_MS=200 \
             REFLECTIVE_REPLAY="
        ),
        "{text}"
    );
    assert!(
        report.contains(&format!(
            "cargo test -p reflective-child --test properties {name} -- --exact\n"
        )),
        "{text}"
    );
    // The case it names is the one that fails, as the failure report says.
    let replay = value_after(report, "REFLECTIVE_REPLAY");
    assert!(
        text.contains(&format!("the shrink of the failure of case REFLECTIVE_REPLAY={replay}: an evaluation of the property has run for")),
        "{text}"
    );
    assert!(
        section(&text, "minimal counterexample:\n").starts_with("    x = 7\n"),
        "{text}"
    );
}

/// In a test that runs several checks, the replay line of a check that is not the first
/// names it (`REFLECTIVE_REPLAY_CHECK`): pasted back, it replays the case in that check, the
/// checks before it running their cases as before.
#[test]
fn the_replay_line_of_a_tests_second_check_replays_in_that_check() {
    let dir = fixture_crate("second_check");
    let name = "the_second_check_fails";
    let (passed, text) = cargo_test(&dir, name, &[]);
    assert!(!passed, "{text}");
    let minimal = section(&text, "minimal counterexample:\n");
    assert_eq!(
        minimal, "    [0, 0, 0]\n    the property returned false",
        "{text}"
    );
    assert!(
        text.contains("\n    REFLECTIVE_REPLAY_CHECK=2 REFLECTIVE_REPLAY="),
        "{text}"
    );
    let replay = value_after(&text, "REFLECTIVE_REPLAY");
    let (passed, again) = cargo_test(
        &dir,
        name,
        &[
            ("REFLECTIVE_REPLAY_CHECK", "2"),
            ("REFLECTIVE_REPLAY", replay),
        ],
    );
    assert!(!passed, "{again}");
    assert!(
        again.contains("property failed on the replayed case"),
        "{again}"
    );
    assert_eq!(section(&again, "minimal counterexample:\n"), minimal);
}

#[test]
fn a_failing_property_reports_and_replays_in_a_child_cargo_test() {
    let dir = fixture_crate("report");
    // The files of the test binary `properties`.
    let regressions = dir.join("reflective-regressions").join("properties");
    let _ = std::fs::remove_dir_all(&regressions);

    let (passed, text) = cargo_test(&dir, "check_in_hand", &[]);
    assert!(passed, "{text}");

    let (passed, text) = cargo_test(&dir, "sums_stay_small", &[]);
    assert!(!passed, "the property should fail:\n{text}");
    assert!(text.contains("property failed at case"), "{text}");
    let seed = value_after(&text, "REFLECTIVE_SEED");
    assert!(text.contains(&format!("(seed {seed},")), "{text}");
    let minimal = section(&text, "minimal counterexample:\n");
    assert_eq!(
        minimal,
        "    xs = [1000]\n    the property panicked at tests/properties.rs:9:5: the sum is 1000",
        "{text}"
    );
    // The replay line names the case, the package, the test file and the test, so that
    // Cargo builds that test file alone.
    assert!(
        text.contains(
            "cargo test -p reflective-child --test properties sums_stay_small -- --exact"
        ),
        "{text}"
    );

    // Pasted back: the replay runs that case alone, to the same counterexamples.
    let replay = value_after(&text, "REFLECTIVE_REPLAY");
    let (passed, again) = cargo_test(&dir, "sums_stay_small", &[("REFLECTIVE_REPLAY", replay)]);
    assert!(!passed, "{again}");
    assert!(
        again.contains("property failed on the replayed case"),
        "{again}"
    );
    assert_eq!(
        section(&again, "original counterexample:\n"),
        section(&text, "original counterexample:\n")
    );
    assert_eq!(section(&again, "minimal counterexample:\n"), minimal);

    // The failure was stored, and the next run replays it first.
    let file = regressions.join("sums_stay_small.txt");
    assert!(
        text.contains(&format!("saved to {}", file.display())),
        "{text}"
    );
    let stored = std::fs::read_to_string(&file).expect("the regressions file");
    assert!(
        stored.lines().any(|line| line.starts_with("size ")),
        "{stored}"
    );
    let (passed, next) = cargo_test(&dir, "sums_stay_small", &[]);
    assert!(!passed, "{next}");
    assert!(
        next.contains("property failed on a stored regression"),
        "{next}"
    );
    assert_eq!(section(&next, "minimal counterexample:\n"), minimal);

    // The seed runs every case again (the stored case aside, as the line says): the same
    // failure at the same case.
    // (On CI, coverage checking comes before.)
    assert!(
        text.contains(&format!(
            "REFLECTIVE_REGRESSIONS=off REFLECTIVE_SEED={seed} "
        )),
        "{text}"
    );
    let (passed, rerun) = cargo_test(
        &dir,
        "sums_stay_small",
        &[("REFLECTIVE_SEED", seed), ("REFLECTIVE_REGRESSIONS", "off")],
    );
    assert!(!passed, "{rerun}");
    let first_line = |text: &str| {
        text.lines()
            .find(|line| line.starts_with("property failed"))
            .map(str::to_string)
    };
    assert_eq!(first_line(&rerun), first_line(&text));

    // A file cut short in the middle of a case is an error that names the file and the line.
    let cut = stored.trim_end().len() - 3;
    std::fs::write(&file, &stored[..cut]).expect("the truncated file");
    let (passed, broken) = cargo_test(&dir, "sums_stay_small", &[]);
    assert!(!passed, "{broken}");
    let line = stored.trim_end().lines().count();
    assert!(
        broken.contains(&format!("{}, line {line}:", file.display()))
            && broken.contains("mend the line or delete it"),
        "{broken}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("the file"),
        &stored[..cut],
        "a file that cannot be read is left as it is"
    );

    // A two-argument property's report names both arguments.
    let (passed, text) = cargo_test(&dir, "never_contains_the_key", &[]);
    assert!(!passed, "{text}");
    assert_eq!(
        section(&text, "minimal counterexample:\n"),
        "    xs = [0]\n    key = 0\n    the property returned false",
        "{text}"
    );

    // A `bool` property's report.
    let (passed, text) = cargo_test(&dir, "lists_are_short", &[]);
    assert!(!passed, "{text}");
    assert!(
        section(&text, "minimal counterexample:\n").ends_with("the property returned false"),
        "{text}"
    );
}

#[test]
fn a_stored_value_survives_an_edit_of_the_generator() {
    let dir = fixture_crate("edit");
    let regressions = dir.join("reflective-regressions").join("properties");
    let _ = std::fs::remove_file(regressions.join("stored_values_survive_edits.txt"));
    let test = "stored_values_survive_edits";

    let (passed, text) = cargo_test(&dir, test, &[]);
    assert!(!passed, "{text}");
    let minimal = section(&text, "minimal counterexample:\n");
    assert!(minimal.starts_with("    xs = [1000]\n"), "{text}");
    let stored = std::fs::read_to_string(regressions.join(format!("{test}.txt")))
        .expect("the regressions file");
    assert!(stored.contains("value: [1000]"), "{stored}");

    // The generator changes: a new first branch, so the old choices would now mean another
    // value. The stored value is reflected through the new generator and fails first again.
    let source = dir.join("tests").join("properties.rs");
    let text = std::fs::read_to_string(&source).expect("the fixture");
    let edited: String = text
        .lines()
        .map(|line| {
            if line.ends_with("// EDIT") {
                "    pick(((1, \"big\", vec(range(6000u32..=7000), 1..=3)), \
                 (9, \"any\", vec(range(0u32..=5000), ..)))).boxed()"
                    .to_string()
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(edited, text, "the fixture has the line to edit");
    std::fs::write(&source, edited).expect("the edited fixture");
    let (passed, again) = cargo_test(&dir, test, &[]);
    assert!(!passed, "{again}");
    assert!(
        again.contains("property failed on a stored regression"),
        "{again}"
    );
    assert_eq!(section(&again, "original counterexample:\n"), minimal);
}

/// A value JSON does not give back as it was (NaN is written `null`; `Some(None)` is read back
/// as `None`) or cannot write (a map keyed by tuples) is stored as its choices, so that the
/// stored case fails again, not as a line that cannot be read or that passes.
#[test]
fn a_value_json_cannot_hold_is_stored_as_its_choices() {
    let dir = fixture_crate("json");
    let regressions = dir.join("reflective-regressions").join("properties");
    for test in [
        "json_cannot_hold_nan",
        "json_cannot_hold_some_none",
        "json_cannot_write_tuple_keys",
    ] {
        let file = regressions.join(format!("{test}.txt"));
        let _ = std::fs::remove_file(&file);
        let (passed, text) = cargo_test(&dir, test, &[]);
        assert!(!passed, "{text}");
        let stored = std::fs::read_to_string(&file).expect("the regressions file");
        assert!(!stored.contains("value:"), "{stored}");
        assert!(stored.contains("\nsize "), "{stored}");
        // Only the stored case runs: it fails again.
        let (passed, again) = cargo_test(&dir, test, &[("REFLECTIVE_CASES", "0")]);
        assert!(!passed, "{again}");
        assert!(
            again.contains("property failed on a stored regression"),
            "{again}"
        );
    }
}
