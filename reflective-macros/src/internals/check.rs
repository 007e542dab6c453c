//! Checks that darling cannot make alone: conflicting attributes, duplicate labels, weights,
//! lifetimes. Each adds its error to the accumulator, at the offending span.

use std::collections::HashMap;

use darling::Error;
use darling::ast::Data;

use super::ast::{Container, Field, Variant};

/// Every problem with a parsed container, each at its span.
pub(crate) fn check(container: &Container, errors: &mut darling::error::Accumulator) {
    check_generics(&container.generics, errors);
    match &container.data {
        Data::Struct(fields) => fields.iter().for_each(|field| check_field(field, errors)),
        Data::Enum(variants) => check_variants(&container.ident, variants, true, errors),
    }
}

/// The checks that can still run when some attributes could not be read: on the generics, and
/// on the variants and fields that were read (`read_all` says whether every variant was).
pub(crate) fn check_parts(input: &syn::DeriveInput, errors: &mut darling::error::Accumulator) {
    use darling::{FromField, FromVariant};
    check_generics(&input.generics, errors);
    match &input.data {
        syn::Data::Struct(data) => data
            .fields
            .iter()
            .filter_map(|field| Field::from_field(field).ok())
            .for_each(|field| check_field(&field, errors)),
        syn::Data::Enum(data) => {
            let variants: Vec<Variant> = data
                .variants
                .iter()
                .filter_map(|variant| Variant::from_variant(variant).ok())
                .collect();
            let read_all = variants.len() == data.variants.len();
            check_variants(&input.ident, &variants, read_all, errors);
        }
        syn::Data::Union(_) => {}
    }
}

/// Lifetime parameters: a generated value must own its data.
fn check_generics(generics: &syn::Generics, errors: &mut darling::error::Accumulator) {
    for lifetime in generics.lifetimes() {
        errors.push(
            Error::custom(
                "a type with a lifetime parameter cannot be generated: `Reflective` values own \
                 their data (use owned types such as `String` or `Vec<T>`)",
            )
            .with_span(&lifetime.lifetime),
        );
    }
}

fn check_field(field: &Field, errors: &mut darling::error::Accumulator) {
    if let (Some(_), Some(generator)) = (&field.with, &field.generator) {
        errors.push(
            Error::custom("`with` and `generator` both give this field's generator: keep one")
                .with_span(&generator.span()),
        );
    }
}

/// Per variant: conflicting attributes and duplicate labels. Over all variants, when every one
/// was read (`read_all`): that some variant can be generated.
fn check_variants(
    ident: &syn::Ident,
    variants: &[Variant],
    read_all: bool,
    errors: &mut darling::error::Accumulator,
) {
    if read_all && variants.is_empty() {
        errors.push(
            Error::custom("an enum without variants has no values to generate").with_span(ident),
        );
        return;
    }
    let mut labels: HashMap<String, &Variant> = HashMap::new();
    for variant in variants {
        variant
            .fields
            .iter()
            .for_each(|field| check_field(field, errors));
        if let (true, Some(weight)) = (variant.skip.is_present(), &variant.weight) {
            errors.push(
                Error::custom("a skipped variant is never generated, so it takes no `weight`")
                    .with_span(&weight.span()),
            );
        }
        let label = variant.label();
        if let Some(first) = labels.get(&label) {
            let span = variant
                .label
                .as_ref()
                .map_or_else(|| variant.ident.span(), |label| label.span());
            errors.push(
                Error::custom(format!(
                    "the label \"{label}\" is already the label of variant `{}`: labels name the \
                     choices, so they must differ",
                    first.ident
                ))
                .with_span(&span),
            );
        } else {
            labels.insert(label, variant);
        }
    }
    if !read_all {
        return;
    }
    if variants.iter().all(|variant| variant.skip.is_present()) {
        errors.push(
            Error::custom(
                "every variant is skipped, so no value can be generated: generate at least one",
            )
            .with_span(ident),
        );
    } else if variants.iter().map(|v| u64::from(v.weight())).sum::<u64>() == 0 {
        errors.push(
            Error::custom(
                "the weights of the variants add up to 0, so no value can be generated: give one \
                 a weight above 0",
            )
            .with_span(ident),
        );
    }
}
