//! Compile errors of `#[derive(Reflective)]`: one case per mistake, each checked against its
//! committed `.stderr` (regenerate with `TRYBUILD=overwrite`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
}
