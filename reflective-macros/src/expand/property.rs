//! The code `#[property]` writes.
//!
//! ```ignore
//! #[reflective::property(cases = 500)]
//! fn sorting_keeps_the_length(xs: Vec<u8>, #[reflective(generator = range(0u8..=9))] k: u8) {
//!     ...
//! }
//! ```
//!
//! becomes a `#[test]` function (under `cfg(test)`; elsewhere a plain function that can be
//! called, so that a doctest compiles and can run a property) holding the user's function as it was written (its
//! `#[reflective(...)]` attributes removed), which builds the tuple of the arguments'
//! generators (each argument's `arbitrary_reflective()`, or the generator its attribute names),
//! named with the arguments' names so that a report prints `xs = [0], k = 0`, and runs the
//! user's function on each tuple of values with `check::check_with`. The user's body stays a function body, so it reads, returns and lints
//! as written, and it cannot see the test's own locals. Every runtime path goes through
//! `crate::__private`, `crate` being `::reflective` unless `crate = "..."` says otherwise.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{AttrStyle, Ident, ItemFn, ReturnType, parse_quote};

use crate::internals::attr::Regressions;
use crate::internals::property::{Argument, Property, Settings};

/// The expansion of `#[property(args)] item`, or its errors.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    match Property::from_tokens(args, item) {
        Ok(property) => write(&property),
        Err(errors) => errors.write_errors(),
    }
}

/// The test function running `property`.
fn write(property: &Property) -> TokenStream {
    let Property {
        settings,
        function,
        arguments,
    } = property;
    let krate = settings
        .krate
        .clone()
        .unwrap_or_else(|| parse_quote!(::reflective));
    let private = quote!(#krate::__private);
    // The test keeps the outer attributes (`#[should_panic]`, `#[ignore]`, docs); the user's
    // function keeps the inner ones, inside its body.
    let (outer, inner): (Vec<_>, Vec<_>) = function
        .attrs
        .iter()
        .cloned()
        .partition(|attr| attr.style == AttrStyle::Outer);
    let mut user_function = ItemFn {
        attrs: inner,
        vis: syn::Visibility::Inherited,
        ..function.clone()
    };
    // Up to twelve arguments, each taken by value: that is how a property gets its values, not
    // a signature for clippy to question.
    user_function.attrs.insert(
        0,
        parse_quote!(#[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)]),
    );
    let ItemFn { vis, sig, .. } = function;
    let name = &sig.ident;
    let output = match &sig.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => quote!(#ty),
    };
    // A failure a test expects is not a regression to keep.
    let expects_panic = outer
        .iter()
        .any(|attr| attr.path().is_ident("should_panic"));
    let mut config = calls(settings, &private);
    if expects_panic {
        config.extend(quote!(.regressions(false)));
    }
    let check = match settings.regressions.as_deref() {
        Some(Regressions::Values) => quote!(check_values_with),
        _ if settings.parallel.as_deref() == Some(&true) => quote!(check_parallel_with),
        _ => quote!(check_with),
    };
    // The runner's own names, out of reach of the generators' expressions.
    let generator_name = Ident::new("generator", Span::mixed_site());
    let config_name = Ident::new("config", Span::mixed_site());
    let values_name = Ident::new("values", Span::mixed_site());
    // The tuple of the arguments, with their names: a report prints `xs = [0], k = 0`.
    // Reflection is needed only to read back values stored as values; otherwise the runner
    // runs the arguments forward, and a generator may reflect on another type than it gives.
    let values = matches!(settings.regressions.as_deref(), Some(Regressions::Values));
    let reflects = if values {
        Reflects::Itself
    } else {
        Reflects::Nothing
    };
    let generators = arguments
        .iter()
        .map(|argument| generator(argument, &private, reflects));
    let names = arguments.iter().map(|argument| &argument.name);
    let types = arguments.iter().map(|argument| &argument.ty);
    let bindings: Vec<_> = (0..arguments.len())
        .map(|index| format_ident!("value_{}", index, span = Span::mixed_site()))
        .collect();
    let generator = match arguments.as_slice() {
        // One argument's generator may reflect on another type than it gives: it runs forward.
        [argument] if !values => {
            let generator = generator(argument, &private, Reflects::Anything);
            let name = &argument.name;
            quote!(#private::one_argument(&[#name], #generator))
        }
        _ => quote!(#private::arguments(&[#(#names),*], #private::tuple((#(#generators,)*)))),
    };
    let values = quote!(#private::Arguments<(#(#types,)*)>);
    let call = quote!({
        let (#(#bindings,)*) = ::core::clone::Clone::clone(#private::Arguments::values(#values_name));
        #name(#(#bindings),*)
    });
    // A test under `cargo test`; elsewhere (a doctest, a plain build) a function that compiles
    // and can be called, so that examples of properties are checked too.
    quote! {
        #(#outer)*
        #[cfg_attr(test, test)]
        #[allow(dead_code)]
        #vis fn #name() {
            #user_function
            let #generator_name = #generator;
            let #config_name = #private::Config::new() #config;
            #private::#check(
                &#config_name,
                &#generator_name,
                |#values_name: &#values| -> #output { #call },
            );
        }
    }
}

/// The `Config` calls the settings make. Only the numbers are at their values' spans (an error
/// about one points there): the calls are the macro's, which lints leave alone.
fn calls(settings: &Settings, private: &TokenStream) -> TokenStream {
    let mut calls = TokenStream::new();
    let number = |value: u64, span: Span| {
        let mut literal = Literal::u64_unsuffixed(value);
        literal.set_span(span);
        literal
    };
    if let Some(cases) = &settings.cases {
        let cases = number(u64::from(**cases), cases.span());
        calls.extend(quote!(.cases(#cases)));
    }
    if let Some(seed) = &settings.seed {
        let seed = number(**seed, seed.span());
        calls.extend(quote!(.seed(#seed)));
    }
    if let Some(max_size) = &settings.max_size {
        let max_size = number(**max_size, max_size.span());
        // Checked against the runtime's bound when the test compiles, not when it runs.
        let bound = quote_spanned!(max_size.span()=> {
            const _: () = ::core::assert!(
                #max_size <= #private::MAX_ENV_SIZE,
                "`max_size` must be at most `reflective::check::MAX_ENV_SIZE`, the \
                 largest size a case's replay line carries"
            );
            #max_size
        });
        calls.extend(quote!(.max_size(#bound)));
    }
    if let Some(strategy) = &settings.strategy {
        let variant = Ident::new(strategy, strategy.span());
        calls.extend(quote!(.strategy(#private::Strategy::#variant)));
    }
    if let Some(schedule) = &settings.size_schedule {
        let variant = Ident::new(schedule, schedule.span());
        calls.extend(quote!(.size_schedule(#private::SizeSchedule::#variant)));
    }
    if let Some(regressions) = &settings.regressions {
        match **regressions {
            Regressions::Off => calls.extend(quote!(.regressions(false))),
            Regressions::Choices => calls.extend(quote!(.regressions(true))),
            Regressions::Values => {}
        }
    }
    if let Some(on) = &settings.statistics {
        let on = **on;
        calls.extend(quote!(.statistics(#on)));
    }
    if let Some(on) = &settings.check_coverage {
        let on = **on;
        calls.extend(quote!(.check_coverage(#on)));
    }
    if let Some(ratio) = &settings.max_discard_ratio {
        let ratio = number(u64::from(**ratio), ratio.span());
        calls.extend(quote!(.max_discard_ratio(#ratio)));
    }
    if let Some(percent) = &settings.mutation_percent {
        let percent = number(u64::from(**percent), percent.span());
        calls.extend(quote!(.mutation_percent(#percent)));
    }
    if let Some(evaluations) = &settings.shrink_evaluations {
        let evaluations = number(**evaluations, evaluations.span());
        calls.extend(quote!(.shrink_evaluations(#evaluations)));
    }
    if let Some(seconds) = &settings.shrink_seconds {
        let seconds = number(**seconds, seconds.span());
        calls.extend(quote!(.shrink_time(::core::time::Duration::from_secs(#seconds))));
    }
    if let Some(limit) = &settings.case_time_limit_ms {
        let milliseconds = number(**limit, limit.span());
        calls.extend(quote!(.case_time_limit(::core::time::Duration::from_millis(#milliseconds))));
    }
    calls
}

/// What an argument's generator reflects on, as its property needs.
#[derive(Clone, Copy)]
enum Reflects {
    /// Any type: the one argument of a property, run forward.
    Anything,
    /// The argument's type, by reflecting nothing: one of several arguments, run forward
    /// (`check::forward_argument`), so that a generator whose input is another type joins
    /// their tuple.
    Nothing,
    /// The argument's type: arguments stored as values, read back by reflection.
    Itself,
}

/// The generator of `argument`: the one its `generator`, `with` or `regex` gives, erased to a `Gen` of
/// the argument's type at the attribute's span, as the derive does for a field, so that a
/// generator of another type is one error there, its input as `reflects` says; else its
/// type's own, at the type's span.
fn generator(argument: &Argument, private: &TokenStream, reflects: Reflects) -> TokenStream {
    let custom = &argument.custom;
    let ty = &argument.ty;
    let (span, generator) = if let Some(with) = &custom.with {
        let path = &**with;
        (with.span(), quote!(#path()))
    } else if let Some(generator) = &custom.generator {
        let expr = &**generator;
        (generator.span(), quote!(#expr))
    } else if let Some(regex) = &custom.regex {
        let pattern = &**regex;
        (regex.span(), quote!(#private::regex_attribute(#pattern)))
    } else {
        return quote_spanned!(ty.span()=>
            <#ty as #private::Reflective>::arbitrary_reflective());
    };
    // The method call at the attribute's span, so that the whole initializer is there (the
    // runtime's paths are the macro's own); the trait imported inside, not into the test's body.
    let boxed = quote_spanned!(span=> (#generator).boxed());
    let (input, aligned) = match reflects {
        Reflects::Anything => (quote!(_), quote!(generator)),
        Reflects::Nothing => (quote!(_), quote!(#private::forward_argument(generator))),
        Reflects::Itself => (quote!(#ty), quote!(generator)),
    };
    let annotated = quote!(#private::Gen<#input, #ty>);
    quote! {
        {
            use #private::Generator as _;
            let generator: #annotated = #boxed;
            #aligned
        }
    }
}
