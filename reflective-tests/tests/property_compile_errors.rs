//! Compile errors that rustc reports inside the test `#[reflective::property]` writes: a typo
//! in an argument's generator expression, an argument whose type has no generator, a generator
//! of another type. trybuild (`tests/ui`) compiles its cases without `--test`, where a
//! `#[test]` function is dropped before it is type checked, so these cases are compiled by a
//! child `cargo test --no-run`, whose output also says how many errors there were: the same
//! mistakes in a derived type's field are here too, for the count.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A crate holding `source` as its test `case`, with `reflective` by path (and its `serde`
/// feature, as `tests/child_process.rs` builds it, so that the two share the build) and the
/// workspace's lock file, so that it builds offline with the same versions.
fn case_crate(case: &str, source: &str) -> PathBuf {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = tests.parent().expect("the workspace");
    let dir = workspace.join("target").join("child-cargo").join(case);
    std::fs::create_dir_all(dir.join("tests")).expect("the case's directory");
    let manifest = format!(
        "[package]\nname = \"reflective-child\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\nreflective = {{ path = {:?}, features = \
         [\"serde\"] }}\n\n[workspace]\n",
        workspace.join("reflective")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("the manifest");
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).expect("the lock file");
    std::fs::write(dir.join("tests").join(format!("{case}.rs")), source).expect("the case");
    dir
}

/// Compiles `source` as a test and returns cargo's output, asserting that it fails.
fn compile_error(case: &str, source: &str) -> String {
    let dir = case_crate(case, source);
    let output = Command::new(env!("CARGO"))
        .current_dir(&dir)
        .args([
            "test",
            "--offline",
            "--no-run",
            "--color=never",
            "--test",
            case,
        ])
        // Shared with the fixtures of `tests/child_process.rs`.
        .env("CARGO_TARGET_DIR", dir.join("..").join("target"))
        .output()
        .expect("cargo runs");
    let text = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "the case compiled:\n{text}");
    text
}

/// Asserts that `text` holds each of `expected`, in order.
fn assert_in_order(text: &str, expected: &[&str]) {
    let mut rest = text;
    for part in expected {
        let at = rest
            .find(part)
            .unwrap_or_else(|| panic!("no {part:?} (in this order) in:\n{text}"));
        rest = &rest[at + part.len()..];
    }
}

#[test]
fn a_typo_in_a_generator_expression_is_reported_at_the_typo() {
    // The same typo in a derived type's field, which trybuild checks too (`tests/ui/field`).
    let source = r#"use reflective::prelude::*;

#[derive(Clone, Debug, Reflective)]
struct Person {
    #[reflective(generator = strng())]
    name: String,
}

#[reflective::property]
fn names_are_short(#[reflective(generator = strng())] text: String) -> bool {
    text.len() < 1000
}
"#;
    let text = compile_error("generator_typo", source);
    assert_in_order(
        &text,
        &[
            "error[E0425]: cannot find function `strng` in this scope",
            "--> tests/generator_typo.rs:5:30",
            "help: a function with a similar name exists",
            "generator = string()",
            "error[E0425]: cannot find function `strng` in this scope",
            "--> tests/generator_typo.rs:10:45",
            "help: a function with a similar name exists",
            "generator = string()",
            "due to 2 previous errors",
        ],
    );
}

#[test]
fn a_type_without_a_generator_is_one_error_with_what_to_do() {
    // In a derived type's field (trybuild shows it too, `tests/ui/bounds`, but not the count)
    // and in a property's argument: one error each, at the type.
    let source = r#"use reflective::prelude::*;

/// No generator: it derives no `Reflective`.
#[derive(Clone, Debug, PartialEq)]
struct Money(u64);

#[derive(Clone, Debug, Reflective)]
struct Order {
    id: u32,
    price: Money,
}

#[reflective::property]
fn prices_are_positive(id: u32, price: Money) -> bool {
    id < u32::MAX || price.0 > 0
}
"#;
    let text = compile_error("no_generator", source);
    let message = "error[E0277]: `Money` has no reflective generator: it does not implement \
                   `Reflective`";
    let note = "note: give this field or argument its generator with \
                `#[reflective(generator = expr)]` or `#[reflective(with = path)]`, or derive \
                `Reflective` on `Money` if it is a type of this crate; a field of an enum \
                variant that need not be generated needs none once the variant has \
                `#[reflective(skip)]`";
    assert_in_order(
        &text,
        &[
            message,
            "--> tests/no_generator.rs:10:12",
            "no generator for `Money`",
            note,
            message,
            "--> tests/no_generator.rs:14:40",
            "no generator for `Money`",
            note,
            "due to 2 previous errors",
        ],
    );
}

#[test]
fn a_generator_of_another_type_is_one_error_at_the_attribute() {
    let source = r#"use reflective::prelude::*;

fn small() -> Gen<u16, u16> {
    range(0u16..=3).boxed()
}

#[reflective::property]
fn one(#[reflective(generator = range(0u16..=9))] x: u8) -> bool {
    x < 10
}

#[reflective::property]
fn two(#[reflective(with = small)] x: u8, y: bool) -> bool {
    x < 10 || y
}

#[reflective::property(regressions = "values")]
fn stored(#[reflective(generator = range(0u8..=9).map(u16::from))] x: u16, y: bool) -> bool {
    x < 10 || y
}
"#;
    let text = compile_error("another_type", source);
    assert_in_order(
        &text,
        &[
            "error[E0308]: mismatched types",
            "--> tests/another_type.rs:8:33",
            "expected `Gen<_, u8>`, found `Gen<u16, u16>`",
            "error[E0308]: mismatched types",
            "--> tests/another_type.rs:13:28",
            "expected `Gen<_, u8>`, found `Gen<u16, u16>`",
            // Values stored are read back by reflection: the generator must reflect on `u16`.
            "error[E0308]: mismatched types",
            "--> tests/another_type.rs:18:36",
            "expected `Gen<u16, u16>`, found `Gen<u8, u16>`",
            "due to 3 previous errors",
        ],
    );
}
