//! Checks that darling cannot make alone: conflicting attributes, duplicate labels, weights,
//! lifetimes. Each adds its error to the accumulator, at the offending span.

use std::collections::HashMap;

use darling::Error;
use darling::ast::Data;

use super::ast::{Container, CustomGenerator, Field, Variant};
use super::lenient;
use super::types::{always_holds, generated_at_size_zero};

/// Every problem with a parsed container, each at its span.
pub(crate) fn check(container: &Container, errors: &mut darling::error::Accumulator) {
    check_generics(&container.generics, errors);
    match &container.data {
        Data::Struct(fields) => {
            check_struct(&container.ident, &fields.fields, errors);
        }
        Data::Enum(variants) => {
            check_variants(&container.ident, variants, errors);
        }
    }
}

/// The errors darling reported, each by its message and place, so that none is reported twice.
#[derive(Default)]
pub(crate) struct Reported(std::collections::HashSet<String>);

impl Reported {
    fn key(error: &Error) -> String {
        format!("{error} at {:?}", error.span())
    }

    fn contains(&self, error: &Error) -> bool {
        self.0.contains(&Self::key(error))
    }
}

impl From<&Error> for Reported {
    fn from(error: &Error) -> Reported {
        Reported(error.clone().into_iter().map(|e| Self::key(&e)).collect())
    }
}

/// The checks that can still run when some attributes could not be read: on the generics, and
/// on the variants and fields, those darling could not read read leniently (every attribute
/// that parses kept), so that every misuse is reported in the same compile. darling does not
/// read the fields of a variant whose own attributes fail; their errors are added here, unless
/// already `reported`.
pub(crate) fn check_parts(
    input: &syn::DeriveInput,
    reported: &Reported,
    errors: &mut darling::error::Accumulator,
) {
    use darling::{FromField, FromVariant};
    check_generics(&input.generics, errors);
    match &input.data {
        syn::Data::Struct(data) => {
            let fields: Vec<Field> = data
                .fields
                .iter()
                .map(|field| Field::from_field(field).unwrap_or_else(|_| lenient::field(field)))
                .collect();
            check_struct(&input.ident, &fields, errors);
        }
        syn::Data::Enum(data) => {
            let variants: Vec<Variant> = data
                .variants
                .iter()
                .map(|variant| {
                    Variant::from_variant(variant).unwrap_or_else(|_| {
                        for field in &variant.fields {
                            if let Err(error) = Field::from_field(field) {
                                error
                                    .into_iter()
                                    .filter(|e| !reported.contains(e))
                                    .for_each(|e| errors.push(e));
                            }
                        }
                        lenient::variant(variant)
                    })
                })
                .collect();
            check_variants(&input.ident, &variants, errors);
        }
        syn::Data::Union(_) => {}
    }
}

/// `#[reflective]` and `#[reflective()]` on the type, a variant or a field: they set nothing,
/// and a user who wrote one meant to set something.
pub(crate) fn check_empty_attributes(
    input: &syn::DeriveInput,
    errors: &mut darling::error::Accumulator,
) {
    let mut attributes: Vec<&syn::Attribute> = input.attrs.iter().collect();
    match &input.data {
        syn::Data::Struct(data) => {
            attributes.extend(data.fields.iter().flat_map(|field| &field.attrs));
        }
        syn::Data::Enum(data) => {
            for variant in &data.variants {
                attributes.extend(&variant.attrs);
                attributes.extend(variant.fields.iter().flat_map(|field| &field.attrs));
            }
        }
        syn::Data::Union(_) => {}
    }
    for attribute in attributes {
        let empty = match &attribute.meta {
            syn::Meta::Path(_) => true,
            syn::Meta::List(list) => list.tokens.is_empty(),
            syn::Meta::NameValue(_) => false,
        };
        if empty && attribute.path().is_ident("reflective") {
            errors.push(
                Error::custom(
                    "`#[reflective]` without settings sets nothing: write them inside, as \
                     `#[reflective(weight = 2)]` on a variant or `#[reflective(generator = \
                     ...)]` on a field, or remove it",
                )
                .with_span(attribute.path()),
            );
        }
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
    check_custom(&field.custom, "field", errors);
}

/// Two of `with`, `generator` and `regex` on one `what` (a field, a property's argument): only
/// one can be its generator.
pub(crate) fn check_custom(
    custom: &CustomGenerator,
    what: &str,
    errors: &mut darling::error::Accumulator,
) {
    let given = [
        custom.with.as_ref().map(|with| ("with", with.span())),
        custom
            .generator
            .as_ref()
            .map(|generator| ("generator", generator.span())),
        custom.regex.as_ref().map(|regex| ("regex", regex.span())),
    ];
    let given: Vec<_> = given.into_iter().flatten().collect();
    if let [(first, _), (second, span), ..] = given[..] {
        errors.push(
            Error::custom(format!(
                "`{first}` and `{second}` both give this {what}'s generator: keep one"
            ))
            .with_span(&span),
        );
    }
}

/// Per field: conflicting attributes. Over the struct: that a value can end, with no field that
/// holds the struct itself whatever the size (a `Box<Self>`, not an `Option` or a collection
/// of it).
fn check_struct(ident: &syn::Ident, fields: &[Field], errors: &mut darling::error::Accumulator) {
    fields.iter().for_each(|field| check_field(field, errors));
    if let Some((index, field)) = fields
        .iter()
        .enumerate()
        .find(|(_, field)| !field_ends(ident, field))
    {
        let name = field
            .ident
            .as_ref()
            .map_or_else(|| index.to_string(), ToString::to_string);
        errors.push(
            Error::custom(format!(
                "every `{ident}` holds another `{ident}` (field `{name}`), so no value can be \
                 generated: it would nest without end; make the field an `Option` or a \
                 collection (`Option<Box<{ident}>>`, `Vec<{ident}>`), or give it a generator \
                 of its own"
            ))
            .with_span(ident),
        );
    }
}

/// Per variant: conflicting attributes and duplicate labels. Over all variants: that some
/// variant can be generated.
fn check_variants(
    ident: &syn::Ident,
    variants: &[Variant],
    errors: &mut darling::error::Accumulator,
) {
    if variants.is_empty() {
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
    } else if !variants.iter().any(|variant| ends(ident, variant)) {
        errors.push(
            Error::custom(format!(
                "no variant can end a value: each one holds `{ident}` itself (directly, boxed, or in a \
                 tuple or an array), so a value would nest without end; add a variant that does \
                 not (a leaf), or hold `{ident}` in an `Option` or a collection, which can be \
                 empty"
            ))
            .with_span(ident),
        );
    } else if !variants
        .iter()
        .filter(|variant| variant.weight() > 0)
        .any(|variant| ends(ident, variant))
    {
        errors.push(
            Error::custom(format!(
                "every variant that can end a value (one that does not hold `{ident}` itself) is \
                 skipped or has weight 0, so no value can be generated: it would nest without \
                 end; give one of them a weight above 0"
            ))
            .with_span(ident),
        );
    }
}

/// Whether `variant` can be generated without generating the type `ident` itself again: none
/// of its fields always holds the type (see [`field_ends`]). A field of another user type
/// counts as ending (it may lead back, but that is the other type's to end).
fn ends(ident: &syn::Ident, variant: &Variant) -> bool {
    variant.fields.iter().all(|field| field_ends(ident, field))
}

/// Whether `field` can be generated without generating the type `ident` itself again: it is
/// generated by a generator of its own, or holds nothing at size 0, or not every value of its
/// type holds the type (`Box<Self>` does; `Result<Box<Self>, E>` need not).
fn field_ends(ident: &syn::Ident, field: &Field) -> bool {
    !generated_at_size_zero(field) || !always_holds(&field.ty, ident)
}
