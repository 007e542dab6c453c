//! Parsers for the values of `#[reflective(...)]` attributes and of the settings of
//! `#[reflective::property(...)]`, each with an error that says what is expected, at the
//! value's span. Both macros read `crate`, `with`, `generator` and `regex` with the same
//! parsers.

use darling::util::{Flag, SpannedValue};
use darling::{Error, Result};
use regex_syntax::hir::Hir;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitStr, Meta, Path};

/// The size strategies the runner knows: the name `strategy = "..."` takes, and the
/// `Strategy` variant it names.
pub(crate) const STRATEGIES: [(&str, &str); 6] = [
    ("linear", "Linear"),
    ("quadratic", "Quadratic"),
    ("exponential", "Exponential"),
    ("fixed", "Fixed"),
    ("partitions", "Partitions"),
    ("random", "Random"),
];

/// The size schedules the runner knows: the name `size_schedule = "..."` takes, and the
/// `SizeSchedule` variant it names.
pub(crate) const SIZE_SCHEDULES: [(&str, &str); 2] = [("cycle", "Cycle"), ("ramp", "Ramp")];

/// `regressions = ...`: what a failing case leaves in the regressions file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Regressions {
    /// `false`: nothing, and nothing is replayed from it.
    Off,
    /// `true`: the minimal case's choices (the default, unless the environment says otherwise).
    Choices,
    /// `"values"`: the minimal value itself, read back by reflection (`check_values_with`).
    Values,
}

/// The value of `name = value`, or an error saying it needs one.
fn value<'m>(meta: &'m Meta, example: &str) -> Result<&'m Expr> {
    match meta {
        Meta::NameValue(pair) => Ok(&pair.value),
        _ => Err(Error::custom(format!("expected a value: {example}")).with_span(meta)),
    }
}

/// A string literal, or an error naming what was expected.
fn string<'e>(value: &'e Expr, expected: &str) -> Result<&'e LitStr> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => Ok(text),
        _ => Err(Error::custom(expected).with_span(value)),
    }
}

/// A whole number of type `N` at its span, or an error naming what was expected.
fn whole_number<N>(value: &Expr, expected: &str) -> Result<SpannedValue<N>>
where
    N: std::str::FromStr,
    N::Err: std::fmt::Display,
{
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(number),
            ..
        }) => number
            .base10_parse::<N>()
            .map(|number| SpannedValue::new(number, value.span()))
            .map_err(|_| Error::custom(expected).with_span(value)),
        _ => Err(Error::custom(expected).with_span(value)),
    }
}

/// `weight = N`: a whole number that fits a `u32`.
pub(crate) fn weight(meta: &Meta) -> Result<Option<SpannedValue<u32>>> {
    let value = value(meta, "`weight = 3`")?;
    whole_number(
        value,
        "`weight` must be a whole number from 0 to 4294967295, such as `weight = 3`",
    )
    .map(Some)
}

/// `dimension = N`.
pub(crate) fn dimension(meta: &Meta) -> Result<Option<usize>> {
    let value = value(meta, "`dimension = 2`")?;
    whole_number(
        value,
        "`dimension` must be a whole number, such as `dimension = 2`",
    )
    .map(|dimension| Some(*dimension))
}

/// `label = "text"`.
pub(crate) fn label(meta: &Meta) -> Result<Option<SpannedValue<String>>> {
    let value = value(meta, "`label = \"leaf\"`")?;
    let text = string(
        value,
        "`label` must be a string, such as `label = \"leaf\"`",
    )?;
    Ok(Some(SpannedValue::new(text.value(), value.span())))
}

/// `skip`, without a value.
pub(crate) fn skip(meta: &Meta) -> Result<Flag> {
    match meta {
        Meta::Path(_) => Ok(Flag::present()),
        _ => {
            Err(Error::custom("`skip` takes no value: write `#[reflective(skip)]`").with_span(meta))
        }
    }
}

/// `generator = expr` or `generator = "expr"`: the generator of a field or an argument. An
/// expression keeps its tokens' spans, so that errors in it point into it.
pub(crate) fn generator(meta: &Meta) -> Result<Option<SpannedValue<Expr>>> {
    let value = value(meta, "`generator = range(0..=9)`")?;
    let expr = match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => text.parse::<Expr>().map_err(|error| {
            Error::custom(format!(
                "`generator` must be an expression giving the generator, such as \
                 `generator = range(0..=9)`: {error}"
            ))
            .with_span(value)
        })?,
        expr => expr.clone(),
    };
    Ok(Some(SpannedValue::new(expr, value.span())))
}

/// `with = path` or `with = "path"`: a function returning the generator of a field or an
/// argument.
pub(crate) fn with(meta: &Meta) -> Result<Option<SpannedValue<Path>>> {
    const EXPECTED: &str = "`with` must be the path of a function returning the generator, \
                            such as `with = my_generator`";
    let value = value(meta, "`with = my_generator`")?;
    let path = match value {
        Expr::Path(path) => path.path.clone(),
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => text
            .parse::<Path>()
            .map_err(|_| Error::custom(EXPECTED).with_span(value))?,
        _ => return Err(Error::custom(EXPECTED).with_span(value)),
    };
    Ok(Some(SpannedValue::new(path, value.span())))
}

/// `regex = "pattern"`: strings matching a regular expression, checked here with the parser
/// the runtime uses, so a pattern that does not parse is an error at the attribute.
pub(crate) fn regex(meta: &Meta) -> Result<Option<SpannedValue<LitStr>>> {
    let value = value(meta, "`regex = \"[a-z]+\"`")?;
    let pattern = string(
        value,
        "`regex` must be a string holding a regular expression, such as `regex = \"[a-z]+\"`",
    )?;
    let hir = regex_syntax::Parser::new()
        .parse(&pattern.value())
        .map_err(|error| {
            Error::custom(format!("`regex` must be a regular expression: {error}")).with_span(value)
        })?;
    if let Some(problem) = unsupported(&hir) {
        return Err(Error::custom(format!("`regex`: {problem}")).with_span(value));
    }
    Ok(Some(SpannedValue::new(pattern.clone(), value.span())))
}

/// Why strings of `hir` cannot be generated, where that shows in the pattern alone: an
/// assertion the runtime does not support, or no string that matches (the runtime's
/// `string_regex` says the same, later, and also where an anchor cannot match; its
/// `Pattern::anchor`, in `reflective/src/builtin/regex/pattern.rs`, holds the same words: change
/// both together).
fn unsupported(hir: &Hir) -> Option<&'static str> {
    use regex_syntax::hir::{HirKind, Look};
    /// Whether some string matches `hir` (assertions aside).
    fn matches_some(hir: &Hir) -> bool {
        match hir.kind() {
            HirKind::Class(regex_syntax::hir::Class::Unicode(class)) => !class.ranges().is_empty(),
            HirKind::Class(regex_syntax::hir::Class::Bytes(class)) => !class.ranges().is_empty(),
            HirKind::Repetition(repetition) => repetition.min == 0 || matches_some(&repetition.sub),
            HirKind::Capture(capture) => matches_some(&capture.sub),
            HirKind::Concat(parts) => parts.iter().all(matches_some),
            HirKind::Alternation(parts) => parts.iter().any(matches_some),
            HirKind::Empty | HirKind::Literal(_) | HirKind::Look(_) => true,
        }
    }
    /// The first assertion other than `^` and `$` in a part of `hir` that some string
    /// matches (the runtime leaves out the parts that none does).
    fn unsupported_look(hir: &Hir) -> Option<&'static str> {
        if !matches_some(hir) {
            return None;
        }
        match hir.kind() {
            HirKind::Look(Look::Start | Look::End) => None,
            HirKind::Look(Look::StartLF | Look::EndLF | Look::StartCRLF | Look::EndCRLF) => Some(
                "multi-line anchors (`^` and `$` under the flag `m`) are not supported; `^`, \
                 `$`, `\\A` and `\\z` are, at the start and end",
            ),
            HirKind::Look(_) => Some(
                "word boundaries (`\\b`, `\\B`, `\\<`, `\\>` and the like) are not \
                 supported; `^`, `$`, `\\A` and `\\z` are, at the start and end",
            ),
            HirKind::Repetition(repetition) => unsupported_look(&repetition.sub),
            HirKind::Capture(capture) => unsupported_look(&capture.sub),
            HirKind::Concat(parts) | HirKind::Alternation(parts) => {
                parts.iter().find_map(unsupported_look)
            }
            HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) => None,
        }
    }
    unsupported_look(hir).or_else(|| (!matches_some(hir)).then_some("it matches no string"))
}

/// `crate = "path"`: where the runtime crate is.
pub(crate) fn krate(meta: &Meta) -> Result<Option<Path>> {
    const EXPECTED: &str = "`crate` must be a string holding the path of the `reflective` \
                            crate, such as `crate = \"my_crate::reflective\"`";
    let value = value(meta, "`crate = \"my_crate::reflective\"`")?;
    string(value, EXPECTED)?
        .parse::<Path>()
        .map(Some)
        .map_err(|_| Error::custom(EXPECTED).with_span(value))
}

/// `optics_prefix = "text"`: letters, digits and underscores, not starting with a digit.
pub(crate) fn optics_prefix(meta: &Meta) -> Result<Option<String>> {
    const EXPECTED: &str = "`optics_prefix` must be a string of letters, digits and \
                            underscores that can start a name, such as `optics_prefix = \"opt_\"`";
    let value = value(meta, "`optics_prefix = \"opt_\"`")?;
    let text = string(value, EXPECTED)?.value();
    let fits = text.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !text.starts_with(|c: char| c.is_ascii_digit());
    if !fits {
        return Err(Error::custom(EXPECTED).with_span(value));
    }
    Ok(Some(text))
}

/// `bound = "T: Trait, ..."`: kept as a string, parsed when the impl is written.
pub(crate) fn bound(meta: &Meta) -> Result<Option<LitStr>> {
    let value = value(meta, "`bound = \"T: Reflective + Ord\"`")?;
    string(
        value,
        "`bound` must be a string of `where` predicates, such as `bound = \"T: Reflective + Ord\"`",
    )
    .map(|text| Some(text.clone()))
}

// The settings of `#[reflective::property(...)]`.

/// `cases = N`: a whole number that fits a `u32`.
pub(crate) fn cases(meta: &Meta) -> Result<Option<SpannedValue<u32>>> {
    let value = value(meta, "`cases = 200`")?;
    whole_number(
        value,
        "`cases` must be a whole number from 0 to 4294967295, such as `cases = 200`",
    )
    .map(Some)
}

/// `seed = N`: a whole number that fits a `u64`.
pub(crate) fn seed(meta: &Meta) -> Result<Option<SpannedValue<u64>>> {
    let value = value(meta, "`seed = 7`")?;
    whole_number(value, "`seed` must be a whole number, such as `seed = 7`").map(Some)
}

/// `max_size = N`: a whole number (a `usize` of the target, which rustc checks).
pub(crate) fn max_size(meta: &Meta) -> Result<Option<SpannedValue<u64>>> {
    let value = value(meta, "`max_size = 30`")?;
    whole_number(
        value,
        "`max_size` must be a whole number, such as `max_size = 30`",
    )
    .map(Some)
}

/// `case_time_limit_ms = N`: a whole number of milliseconds.
pub(crate) fn case_time_limit_ms(meta: &Meta) -> Result<Option<SpannedValue<u64>>> {
    whole_setting(meta, "case_time_limit_ms", "milliseconds", 200)
}

/// `shrink_evaluations = N`: the most evaluations of the property a shrink makes.
pub(crate) fn shrink_evaluations(meta: &Meta) -> Result<Option<SpannedValue<u64>>> {
    whole_setting(meta, "shrink_evaluations", "evaluations", 500)
}

/// `shrink_seconds = N`: the longest a shrink runs, in whole seconds.
pub(crate) fn shrink_seconds(meta: &Meta) -> Result<Option<SpannedValue<u64>>> {
    whole_setting(meta, "shrink_seconds", "seconds", 2)
}

/// `name = N`: a whole number of `unit`, or an error that shows `name = example`.
fn whole_setting(
    meta: &Meta,
    name: &str,
    unit: &str,
    example: u64,
) -> Result<Option<SpannedValue<u64>>> {
    let value = value(meta, &format!("`{name} = {example}`"))?;
    whole_number(
        value,
        &format!("`{name}` must be a whole number of {unit}, such as `{name} = {example}`"),
    )
    .map(Some)
}

/// `max_discard_ratio = N`: how many discarded cases per case the run accepts.
pub(crate) fn max_discard_ratio(meta: &Meta) -> Result<Option<SpannedValue<u32>>> {
    let value = value(meta, "`max_discard_ratio = 10`")?;
    whole_number(
        value,
        "`max_discard_ratio` must be a whole number, such as `max_discard_ratio = 10`",
    )
    .map(Some)
}

/// `mutation_percent = N`: the percentage of cases run as mutants, 0 to 100.
pub(crate) fn mutation_percent(meta: &Meta) -> Result<Option<SpannedValue<u8>>> {
    let value = value(meta, "`mutation_percent = 25`")?;
    let expected = "`mutation_percent` must be a whole number from 0 to 100, such as \
                    `mutation_percent = 25`";
    let percent: SpannedValue<u8> = whole_number(value, expected)?;
    if *percent > 100 {
        return Err(Error::custom(expected).with_span(value));
    }
    Ok(Some(percent))
}

/// `name = true` or `name = false`, for the switches `parallel`, `statistics` and
/// `check_coverage`.
fn switch(meta: &Meta, name: &str) -> Result<Option<SpannedValue<bool>>> {
    let value = value(meta, &format!("`{name} = true`"))?;
    match switch_word(value) {
        Some(on) => Ok(Some(SpannedValue::new(on, value.span()))),
        None => Err(Error::custom(format!(
            "`{name}` must be `true` or `false` (or \"on\"/\"off\", 1/0, as in the environment)"
        ))
        .with_span(value)),
    }
}

/// The words a switch reads, as the runtime's `REFLECTIVE_*` variables read them: `true` and
/// `false`, `"on"` and `"off"` (or `"true"`, `"false"`, `"1"`, `"0"`, in any case), `1` and `0`.
fn switch_word(value: &Expr) -> Option<bool> {
    let word = match value {
        Expr::Lit(ExprLit {
            lit: Lit::Bool(on), ..
        }) => return Some(on.value),
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => text.value().trim().to_ascii_lowercase(),
        Expr::Lit(ExprLit {
            lit: Lit::Int(number),
            ..
        }) => number.base10_digits().to_string(),
        _ => return None,
    };
    match word.as_str() {
        "true" | "on" | "1" => Some(true),
        "false" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// `parallel = true`: run the cases on every core.
pub(crate) fn parallel(meta: &Meta) -> Result<Option<SpannedValue<bool>>> {
    switch(meta, "parallel")
}

/// `statistics = true`: print the statistics of a run that passes.
pub(crate) fn statistics(meta: &Meta) -> Result<Option<SpannedValue<bool>>> {
    switch(meta, "statistics")
}

/// `check_coverage = true`: decide the coverage requirements statistically.
pub(crate) fn check_coverage(meta: &Meta) -> Result<Option<SpannedValue<bool>>> {
    switch(meta, "check_coverage")
}

/// `strategy = "name"`: one of the size strategies, as the name of its `Strategy` variant.
pub(crate) fn strategy(meta: &Meta) -> Result<Option<SpannedValue<&'static str>>> {
    const HINT: &str = ": the size strategy, how sizes divide among a value's parts (an \
                        argument's generator, proptest's strategy, is \
                        `#[reflective(generator = ...)]` on the argument)";
    one_of(meta, "strategy", &STRATEGIES, HINT)
}

/// `size_schedule = "name"`: one of the runner's size schedules, as the name of its
/// `SizeSchedule` variant.
pub(crate) fn size_schedule(meta: &Meta) -> Result<Option<SpannedValue<&'static str>>> {
    one_of(meta, "size_schedule", &SIZE_SCHEDULES, "")
}

/// `setting = "name"` for one of the names in `table`, as the name of the variant the table
/// pairs it with; an error lists the names, then `hint`.
fn one_of(
    meta: &Meta,
    setting: &str,
    table: &[(&str, &'static str)],
    hint: &str,
) -> Result<Option<SpannedValue<&'static str>>> {
    let value = value(meta, &format!("`{setting} = \"{}\"`", table[0].0))?;
    let names: Vec<&str> = table.iter().map(|(name, _)| *name).collect();
    let expected = format!(
        "`{setting}` must be one of \"{}\"{hint}",
        names.join("\", \"")
    );
    let text = string(value, &expected)?.value();
    table
        .iter()
        .find(|(name, _)| *name == text)
        .map(|(_, variant)| Some(SpannedValue::new(*variant, value.span())))
        .ok_or_else(|| Error::custom(expected).with_span(value))
}

/// `regressions = true`, `false` or `"values"`.
pub(crate) fn regressions(meta: &Meta) -> Result<Option<SpannedValue<Regressions>>> {
    let value = value(meta, "`regressions = false`")?;
    let regressions = match (value, switch_word(value)) {
        (_, Some(true)) => Regressions::Choices,
        (_, Some(false)) => Regressions::Off,
        (
            Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }),
            None,
        ) if text.value() == "values" => Regressions::Values,
        _ => {
            return Err(Error::custom(
                "`regressions` must be `true`, `false` (or \"on\"/\"off\", 1/0) or \
                 `\"values\"` (store values, with the `serde` feature)",
            )
            .with_span(value));
        }
    };
    Ok(Some(SpannedValue::new(regressions, value.span())))
}
