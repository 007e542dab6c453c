//! `#[property]`: a test function whose arguments are generated, run by `reflective::check`.
//!
//! ```ignore
//! #[reflective::property(cases = 500)]
//! fn reversing_twice_is_identity(xs: Vec<u8>, #[reflective(generator = "range(0u8..=9)")] k: u8) {
//!     ...
//! }
//! ```
//!
//! becomes a `#[test]` function that builds the tuple of the arguments' generators (each
//! argument's `arbitrary_reflective()`, or the generator its attribute names; one argument's
//! alone), and runs the body on each tuple of values with `reflective::check::check_with`. Every error is reported at
//! its span, all in one compile.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, FnArg, ItemFn, Lit, Meta, ReturnType, Token, Type};

/// The size strategies the runner knows, by the names `strategy = "..."` takes.
const STRATEGIES: [(&str, &str); 6] = [
    ("linear", "Linear"),
    ("quadratic", "Quadratic"),
    ("exponential", "Exponential"),
    ("fixed", "Fixed"),
    ("partitions", "Partitions"),
    ("random", "Random"),
];

/// The expansion of `#[property(args)] item`, or the errors.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors: Vec<syn::Error> = Vec::new();
    let mut function: ItemFn = match syn::parse2(item) {
        Ok(function) => function,
        Err(error) => return error.to_compile_error(),
    };
    let (mut store_values, mut parallel) = (false, false);
    let span = args.span();
    let settings = settings(args, &mut store_values, &mut parallel, &mut errors);
    if store_values && parallel {
        errors.push(syn::Error::new(
            span,
            "`parallel = true` and `regressions = \"values\"` do not go together yet: \
             choose one",
        ));
    }
    for attr in &function.attrs {
        if attr.path().is_ident("test") {
            errors.push(syn::Error::new(
                attr.span(),
                "remove `#[test]`: `#[reflective::property]` makes the function a test",
            ));
        }
    }
    let mut patterns = Vec::new();
    let mut types = Vec::new();
    let mut generators = Vec::new();
    for input in &mut function.sig.inputs {
        let FnArg::Typed(argument) = input else {
            errors.push(syn::Error::new(
                input.span(),
                "a property takes its values as arguments, not `self`",
            ));
            continue;
        };
        let generator = generator(&argument.ty, &mut argument.attrs, &mut errors);
        patterns.push((*argument.pat).clone());
        types.push((*argument.ty).clone());
        generators.push(generator);
    }
    if generators.is_empty() && errors.is_empty() {
        errors.push(syn::Error::new(
            function.sig.ident.span(),
            "a property takes at least one argument, the values to generate",
        ));
    }
    if generators.len() > 8 {
        errors.push(syn::Error::new(
            function.sig.inputs.span(),
            "a property takes at most 8 arguments: group more into a tuple or a struct",
        ));
    }
    if !function.sig.generics.params.is_empty() {
        errors.push(syn::Error::new(
            function.sig.generics.span(),
            "a property cannot be generic: a test runs one function",
        ));
    }
    if let Some(asyncness) = function.sig.asyncness {
        errors.push(syn::Error::new(
            asyncness.span(),
            "a property cannot be `async`",
        ));
    }
    if !errors.is_empty() {
        return errors.into_iter().map(|e| e.to_compile_error()).collect();
    }
    let ItemFn {
        attrs,
        vis,
        sig,
        block,
    } = function;
    let name = &sig.ident;
    // At the return type's span, so that a type that is not an outcome is reported there.
    let output = match &sig.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => quote_spanned!(ty.span()=> #ty),
    };
    // A failure a test expects is not a regression to keep.
    let expects_panic = attrs
        .iter()
        .any(|attr| attr.path().is_ident("should_panic"));
    let settings = if expects_panic {
        quote!(#settings .regressions(false))
    } else {
        settings
    };
    // The runner's own names, out of reach of the body's (a function `config` stays callable).
    let generator_name = syn::Ident::new("generator", Span::mixed_site());
    let config_name = syn::Ident::new("config", Span::mixed_site());
    let values_name = syn::Ident::new("values", Span::mixed_site());
    // One argument is generated alone, so that the report prints its value, not a 1-tuple.
    let (generator, values, pattern) = match (&generators[..], &types[..], &patterns[..]) {
        ([generator], [ty], [pattern]) => (quote!(#generator), quote!(#ty), quote!(#pattern)),
        _ => (
            quote!(::reflective::tuple((#(#generators,)*))),
            quote!((#(#types,)*)),
            quote!((#(#patterns,)*)),
        ),
    };
    let check = if store_values {
        quote!(check_values_with)
    } else if parallel {
        quote!(check_parallel_with)
    } else {
        quote!(check_with)
    };
    quote! {
        #(#attrs)*
        #[test]
        #vis fn #name() {
            let #generator_name = #generator;
            let #config_name = ::reflective::check::Config::new() #settings;
            ::reflective::check::#check(
                &#config_name,
                &#generator_name,
                |#values_name: &#values| -> #output {
                    let #pattern = ::core::clone::Clone::clone(#values_name);
                    #block
                },
            );
        }
    }
}

/// The `Config` calls for `cases = N, seed = N, max_size = N, strategy = "name",
/// regressions = bool`; `regressions = "values"` sets `store_values` (store values, not
/// choices), `parallel = bool` sets `parallel` (run on all cores).
fn settings(
    args: TokenStream,
    store_values: &mut bool,
    parallel: &mut bool,
    errors: &mut Vec<syn::Error>,
) -> TokenStream {
    let metas = match Punctuated::<Meta, Token![,]>::parse_terminated.parse2(args) {
        Ok(metas) => metas,
        Err(error) => {
            errors.push(error);
            return TokenStream::new();
        }
    };
    let mut calls = TokenStream::new();
    let mut seen: Vec<String> = Vec::new();
    for meta in metas {
        let Some(key) = meta.path().get_ident().map(ToString::to_string) else {
            errors.push(unknown(meta.path().span()));
            continue;
        };
        if seen.contains(&key) {
            errors.push(syn::Error::new(
                meta.path().span(),
                format!("`{key}` is set twice"),
            ));
            continue;
        }
        seen.push(key.clone());
        let Meta::NameValue(pair) = &meta else {
            errors.push(syn::Error::new(
                meta.span(),
                format!("expected a value: `{key} = ...`"),
            ));
            continue;
        };
        let value = &pair.value;
        match key.as_str() {
            "cases" | "seed" | "max_size" => match whole_number(value) {
                Some(number) => {
                    let method = syn::Ident::new(&key, pair.path.span());
                    calls.extend(quote_spanned!(value.span()=> .#method(#number)));
                }
                None => errors.push(syn::Error::new(
                    value.span(),
                    format!("`{key}` must be a whole number, such as `{key} = 200`"),
                )),
            },
            "statistics" | "check_coverage" => match value {
                Expr::Lit(ExprLit {
                    lit: Lit::Bool(on), ..
                }) => {
                    let method = syn::Ident::new(&key, pair.path.span());
                    calls.extend(quote!(.#method(#on)));
                }
                _ => errors.push(syn::Error::new(
                    value.span(),
                    format!("`{key}` must be `true` or `false`"),
                )),
            },
            "case_time_limit_ms" => match whole_number(value) {
                Some(number) => calls.extend(quote_spanned!(value.span()=>
                    .case_time_limit(::core::time::Duration::from_millis(#number)))),
                None => errors.push(syn::Error::new(
                    value.span(),
                    "`case_time_limit_ms` must be a whole number of milliseconds, such as \
                     `case_time_limit_ms = 200`",
                )),
            },
            "parallel" => match value {
                Expr::Lit(ExprLit {
                    lit: Lit::Bool(on), ..
                }) => *parallel = on.value,
                _ => errors.push(syn::Error::new(
                    value.span(),
                    "`parallel` must be `true` or `false`",
                )),
            },
            "regressions" => match value {
                Expr::Lit(ExprLit {
                    lit: Lit::Bool(on), ..
                }) => calls.extend(quote!(.regressions(#on))),
                Expr::Lit(ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) if text.value() == "values" => *store_values = true,
                _ => errors.push(syn::Error::new(
                    value.span(),
                    "`regressions` must be `true`, `false` or `\"values\"` (store values, \
                     with the `serde` feature)",
                )),
            },
            "strategy" => match strategy(value) {
                Some(variant) => {
                    let variant = syn::Ident::new(variant, value.span());
                    calls.extend(quote!(.strategy(::reflective::Strategy::#variant)));
                }
                None => {
                    let names: Vec<&str> = STRATEGIES.iter().map(|(name, _)| *name).collect();
                    errors.push(syn::Error::new(
                        value.span(),
                        format!("`strategy` must be one of \"{}\"", names.join("\", \"")),
                    ));
                }
            },
            _ => errors.push(unknown(pair.path.span())),
        }
    }
    calls
}

/// The error for a setting the attribute does not know.
fn unknown(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        "unknown setting: expected `cases = N`, `seed = N`, `max_size = N`, \
         `strategy = \"name\"`, `regressions = false`, `parallel = true`, \
         `statistics = true`, `check_coverage = true` or `case_time_limit_ms = N`",
    )
}

/// The literal of a whole number.
fn whole_number(value: &Expr) -> Option<&syn::LitInt> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(number),
            ..
        }) if number.base10_parse::<u64>().is_ok() => Some(number),
        _ => None,
    }
}

/// The `Strategy` variant a `strategy = "name"` names.
fn strategy(value: &Expr) -> Option<&'static str> {
    let Expr::Lit(ExprLit {
        lit: Lit::Str(text),
        ..
    }) = value
    else {
        return None;
    };
    STRATEGIES
        .iter()
        .find(|(name, _)| *name == text.value())
        .map(|(_, variant)| *variant)
}

/// The generator of an argument of type `ty`: the one `#[reflective(generator = "expr")]` or
/// `#[reflective(with = path)]` names (the attribute is removed), else the type's own.
fn generator(
    ty: &Type,
    attrs: &mut Vec<syn::Attribute>,
    errors: &mut Vec<syn::Error>,
) -> TokenStream {
    let mut chosen = None;
    let mut kept = Vec::new();
    for attr in attrs.drain(..) {
        if !attr.path().is_ident("reflective") {
            kept.push(attr);
            continue;
        }
        let parsed = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated);
        let metas = match parsed {
            Ok(metas) => metas,
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        for meta in metas {
            let found = match &meta {
                Meta::NameValue(pair) if pair.path.is_ident("generator") => match &pair.value {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(text),
                        ..
                    }) => match text.parse::<Expr>() {
                        Ok(expr) => Some(quote_spanned!(text.span()=> (#expr))),
                        Err(error) => {
                            errors.push(syn::Error::new(
                                text.span(),
                                format!("`generator` must hold an expression: {error}"),
                            ));
                            None
                        }
                    },
                    other => {
                        errors.push(syn::Error::new(
                            other.span(),
                            "`generator` takes a string: `generator = \"range(0u8..=9)\"`",
                        ));
                        None
                    }
                },
                Meta::NameValue(pair) if pair.path.is_ident("with") => {
                    let path = &pair.value;
                    Some(quote_spanned!(path.span()=> (#path)()))
                }
                _ => {
                    errors.push(syn::Error::new(
                        meta.span(),
                        "expected `generator = \"expr\"` or `with = path`",
                    ));
                    None
                }
            };
            if let Some(found) = found {
                if chosen.is_some() {
                    errors.push(syn::Error::new(
                        meta.span(),
                        "an argument takes one generator: `generator` or `with`, once",
                    ));
                }
                chosen = Some(found);
            }
        }
    }
    *attrs = kept;
    chosen.unwrap_or_else(
        || quote_spanned!(ty.span()=> <#ty as ::reflective::Reflective>::arbitrary_reflective()),
    )
}
