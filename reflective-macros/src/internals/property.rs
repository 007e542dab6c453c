//! The front end of `#[property]`: its settings, its function and the arguments' attributes,
//! read by darling with the derive's parsers (`crate`, `with`, `generator`), and every misuse
//! found, each at its span, all at once.

use darling::ast::NestedMeta;
use darling::util::SpannedValue;
use darling::{Error, FromAttributes, FromMeta};
use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Path, Type};

use super::ast::CustomGenerator;
use super::attr::{self, Regressions};
use super::check::check_custom;

/// The most arguments a property takes: the runtime's `tuple` zips up to 12 generators.
const MOST_ARGUMENTS: usize = 12;

/// The settings in `#[property(...)]`, each optional.
#[derive(FromMeta)]
pub(crate) struct Settings {
    /// `crate = "path"`: where the runtime crate is.
    #[darling(rename = "crate", default, with = attr::krate)]
    pub(crate) krate: Option<Path>,
    /// `cases = N`.
    #[darling(default, with = attr::cases)]
    pub(crate) cases: Option<SpannedValue<u32>>,
    /// `seed = N`.
    #[darling(default, with = attr::seed)]
    pub(crate) seed: Option<SpannedValue<u64>>,
    /// `max_size = N`.
    #[darling(default, with = attr::max_size)]
    pub(crate) max_size: Option<SpannedValue<u64>>,
    /// `strategy = "name"`: the name of the `Strategy` variant.
    #[darling(default, with = attr::strategy)]
    pub(crate) strategy: Option<SpannedValue<&'static str>>,
    /// `size_schedule = "name"`: the name of the `SizeSchedule` variant.
    #[darling(default, with = attr::size_schedule)]
    pub(crate) size_schedule: Option<SpannedValue<&'static str>>,
    /// `regressions = true | false | "values"`.
    #[darling(default, with = attr::regressions)]
    pub(crate) regressions: Option<SpannedValue<Regressions>>,
    /// `parallel = true`: the cases on every core (`check_parallel_with`).
    #[darling(default, with = attr::parallel)]
    pub(crate) parallel: Option<SpannedValue<bool>>,
    /// `statistics = true`.
    #[darling(default, with = attr::statistics)]
    pub(crate) statistics: Option<SpannedValue<bool>>,
    /// `check_coverage = true`.
    #[darling(default, with = attr::check_coverage)]
    pub(crate) check_coverage: Option<SpannedValue<bool>>,
    /// `case_time_limit_ms = N`.
    #[darling(default, with = attr::case_time_limit_ms)]
    pub(crate) case_time_limit_ms: Option<SpannedValue<u64>>,
    /// `shrink_evaluations = N`.
    #[darling(default, with = attr::shrink_evaluations)]
    pub(crate) shrink_evaluations: Option<SpannedValue<u64>>,
    /// `shrink_seconds = N`.
    #[darling(default, with = attr::shrink_seconds)]
    pub(crate) shrink_seconds: Option<SpannedValue<u64>>,
    /// `max_discard_ratio = N`.
    #[darling(default, with = attr::max_discard_ratio)]
    pub(crate) max_discard_ratio: Option<SpannedValue<u32>>,
    /// `mutation_percent = N`.
    #[darling(default, with = attr::mutation_percent)]
    pub(crate) mutation_percent: Option<SpannedValue<u8>>,
}

/// The `#[reflective(...)]` attributes of one argument: what the derive reads on a field.
#[derive(FromAttributes)]
#[darling(attributes(reflective))]
struct ArgumentAttrs {
    /// `with` or `generator`, read as on a field.
    #[darling(flatten)]
    custom: CustomGenerator,
}

/// A property, read and checked.
pub(crate) struct Property {
    /// What `#[property(...)]` sets.
    pub(crate) settings: Settings,
    /// The function, without the arguments' `#[reflective(...)]` attributes.
    pub(crate) function: ItemFn,
    /// Its arguments, in order: at least one, at most [`MOST_ARGUMENTS`].
    pub(crate) arguments: Vec<Argument>,
}

/// An argument of the property: the type of its values, and where they come from.
pub(crate) struct Argument {
    /// The argument's name as a report prints it: its pattern, as written.
    pub(crate) name: String,
    /// The argument's type, which its values have.
    pub(crate) ty: Type,
    /// The generator its attribute gives, if any; else its type's.
    pub(crate) custom: CustomGenerator,
}

impl Property {
    /// The property `#[property(args)] item`, or every error in it.
    pub(crate) fn from_tokens(args: TokenStream, item: TokenStream) -> darling::Result<Property> {
        let mut function: ItemFn = syn::parse2(item)?;
        let mut errors = Error::accumulator();
        let settings = errors
            .handle(NestedMeta::parse_meta_list(args).map_err(Error::from))
            .and_then(|list| {
                check_settings(&list, &mut errors);
                errors.handle(Settings::from_list(&list))
            });
        let arguments = arguments(&mut function, &mut errors);
        check_function(&function, arguments.len(), &mut errors);
        let settings = errors.finish_with(settings)?;
        Ok(Property {
            settings: settings.expect("no error means the settings were read"),
            function,
            arguments,
        })
    }
}

/// Settings that do not go together. Read from the items that parse, so that this is reported
/// with the errors of the others.
fn check_settings(list: &[NestedMeta], errors: &mut darling::error::Accumulator) {
    let metas = || {
        list.iter().filter_map(|item| match item {
            NestedMeta::Meta(meta) => Some(meta),
            NestedMeta::Lit(_) => None,
        })
    };
    let parallel = metas()
        .filter(|meta| meta.path().is_ident("parallel"))
        .filter_map(|meta| attr::parallel(meta).ok().flatten())
        .any(|on| *on);
    let values = metas()
        .filter(|meta| meta.path().is_ident("regressions"))
        .filter_map(|meta| attr::regressions(meta).ok().flatten())
        .find(|regressions| **regressions == Regressions::Values);
    if let (true, Some(values)) = (parallel, values) {
        errors.push(
            Error::custom(
                "`parallel = true` and `regressions = \"values\"` do not go together yet: \
                 choose one",
            )
            .with_span(&values.span()),
        );
    }
}

/// The arguments of `function`, their `#[reflective(...)]` attributes read and removed.
fn arguments(function: &mut ItemFn, errors: &mut darling::error::Accumulator) -> Vec<Argument> {
    let mut arguments = Vec::new();
    for input in &mut function.sig.inputs {
        let FnArg::Typed(argument) = input else {
            errors.push(
                Error::custom("a property takes its values as arguments, not `self`")
                    .with_span(input),
            );
            continue;
        };
        let custom = match ArgumentAttrs::from_attributes(&argument.attrs) {
            Ok(attrs) => {
                check_custom(&attrs.custom, "argument", errors);
                attrs.custom
            }
            Err(error) => {
                errors.push(error);
                CustomGenerator::default()
            }
        };
        argument
            .attrs
            .retain(|attr| !attr.path().is_ident("reflective"));
        let name = match &*argument.pat {
            syn::Pat::Ident(binding) => binding.ident.to_string(),
            pattern => tokens_text(&quote::quote!(#pattern).to_string()),
        };
        arguments.push(Argument {
            name,
            ty: (*argument.ty).clone(),
            custom,
        });
    }
    arguments
}

/// What a property's function cannot be: a second `#[test]`, without arguments or with too
/// many, borrowing its arguments, generic (`impl Trait` arguments too), returning `impl
/// Trait`, `async`, `unsafe`.
fn check_function(function: &ItemFn, arguments: usize, errors: &mut darling::error::Accumulator) {
    for attr in &function.attrs {
        if attr.path().is_ident("test") {
            errors.push(
                Error::custom(
                    "remove `#[test]`: `#[reflective::property]` makes the function a test",
                )
                .with_span(attr),
            );
        }
    }
    let sig = &function.sig;
    if sig.inputs.is_empty() {
        errors.push(
            Error::custom("a property takes at least one argument, the values to generate")
                .with_span(&sig.ident),
        );
    }
    if arguments > MOST_ARGUMENTS {
        errors.push(
            Error::custom(format!(
                "a property takes at most {MOST_ARGUMENTS} arguments: group more into a tuple \
                 or a struct"
            ))
            .with_span(&sig.inputs),
        );
    }
    if !sig.generics.params.is_empty() {
        errors.push(
            Error::custom("a property cannot be generic: a test runs one function")
                .with_span(&sig.generics),
        );
    }
    for input in &sig.inputs {
        // A borrowed argument borrows from nothing the test holds (a `&'static` one can come
        // from a generator of its own, as `select(["GET", "POST"])`).
        if let FnArg::Typed(argument) = input
            && let syn::Type::Reference(reference) = &*argument.ty
            && reference
                .lifetime
                .as_ref()
                .is_none_or(|lifetime| lifetime.ident != "static")
        {
            let name = &argument.pat;
            // The owned type a borrow of `elem` comes from: `String` for `str`, a `Vec` for
            // a slice.
            let owned = match &*reference.elem {
                syn::Type::Path(path) if path.path.is_ident("str") => quote::quote!(String),
                syn::Type::Slice(slice) => {
                    let elem = &slice.elem;
                    quote::quote!(Vec<#elem>)
                }
                elem => quote::quote!(#elem),
            };
            errors.push(
                Error::custom(format!(
                    "a property takes its arguments by value: write `{}: {}` and borrow it \
                     inside (`&{}`)",
                    quote::quote!(#name),
                    tokens_text(&owned.to_string()),
                    quote::quote!(#name),
                ))
                .with_span(&argument.ty),
            );
        }
        if let FnArg::Typed(argument) = input
            && let Some(span) = impl_trait(&argument.ty)
        {
            errors.push(
                Error::custom(
                    "a property cannot be generic: a test runs one function; name the \
                     argument's type instead of `impl Trait`",
                )
                .with_span(&span),
            );
        }
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output
        && let Some(span) = impl_trait(ty)
    {
        errors.push(
            Error::custom(
                "a property's return type cannot be `impl Trait`: name it (`()`, `bool`, \
                 `Result<(), E>`, or an `Option` of one of these)",
            )
            .with_span(&span),
        );
    }
    if let Some(asyncness) = sig.asyncness {
        errors.push(Error::custom("a property cannot be `async`").with_span(&asyncness.span()));
    }
    if let Some(unsafety) = sig.unsafety {
        errors.push(
            Error::custom(
                "a property cannot be `unsafe`: the test calls it; make it safe and put the \
                 unsafe code in an `unsafe` block inside",
            )
            .with_span(&unsafety.span()),
        );
    }
}

/// Where `ty` holds an `impl Trait` (a generic argument in disguise), if it does.
fn impl_trait(ty: &Type) -> Option<proc_macro2::Span> {
    use syn::visit::Visit;
    struct Find(Option<proc_macro2::Span>);
    impl<'ast> Visit<'ast> for Find {
        fn visit_type_impl_trait(&mut self, found: &'ast syn::TypeImplTrait) {
            self.0.get_or_insert(found.span());
        }
    }
    let mut find = Find(None);
    find.visit_type(ty);
    find.0
}

/// Tokens (a pattern, a type) as a message or a report writes them: without the spaces the
/// token stream puts around punctuation (`Pair { a : x , b : y }` as `Pair { a: x, b: y }`,
/// `Vec < u8 >` as `Vec<u8>`).
fn tokens_text(tokens: &str) -> String {
    tokens
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace(" :: ", "::")
        .replace(" : ", ": ")
        .replace(" ,", ",")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace("[ ", "[")
        .replace(" ]", "]")
        .replace("& ", "&")
}
