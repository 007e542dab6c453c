//! The back end: the code the macros write.
//!
//! `#[property]`'s is in [`property`]. For `#[derive(Reflective)]`, [`derive`](fn@derive)
//! reads the input, checks it, and writes the impl of `Reflective` (the generator in
//! [`generator`], the shrinker in [`shrink`]) and the optics in [`optics`]. With errors it
//! writes them all, and a stub impl so that uses of the type do not add errors of their own.

mod dimension;
mod generator;
mod optics;
pub(crate) mod property;
mod shrink;

use darling::FromDeriveInput;
use darling::ast::{Data, Fields};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, Path, WherePredicate, parse_quote};

use crate::internals::ast::{Container, Field, Variant};
use crate::internals::check::{Reported, check, check_empty_attributes, check_parts};
use crate::internals::lenient;
use crate::internals::types::{
    Reach, generated_at_size_zero, parameters, reach, recursive_mentions,
};

/// The expansion of `#[derive(Reflective)]` on `input`.
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    if let syn::Data::Union(data) = &input.data {
        return syn::Error::new_spanned(
            data.union_token,
            "`Reflective` cannot be derived for a union: a union does not record which field it \
             holds, so its values cannot be generated or reflected; use an enum",
        )
        .to_compile_error();
    }
    let mut errors = darling::Error::accumulator();
    check_empty_attributes(input, &mut errors);
    let parsed = Container::from_derive_input(input);
    let reported = match &parsed {
        Ok(_) => Reported::default(),
        Err(error) => Reported::from(error),
    };
    let container = errors.handle(parsed);
    let where_clause = container
        .as_ref()
        .and_then(|container| errors.handle(predicates(container)));
    match &container {
        Some(container) => check(container, &mut errors),
        None => check_parts(input, &reported, &mut errors),
    }
    match (errors.finish(), container, where_clause) {
        (Ok(()), Some(container), Some(predicates)) => {
            let model = Model::new(&container, predicates);
            let collisions = optics::collisions(&model);
            if !collisions.is_empty() {
                let mut tokens = darling::Error::multiple(collisions).write_errors();
                tokens.extend(stub(input));
                return tokens;
            }
            let optics = optics::expand(&model);
            let functions = field_functions(&model);
            let generator = generator::expand(&model);
            let shrink = shrink::expand(&model);
            let dimension = dimension::expand(&model);
            let Model {
                krate,
                ident,
                generics,
                predicates,
                ..
            } = &model;
            let (impl_generics, type_generics, _) = generics.split_for_impl();
            quote! {
                #optics

                #functions

                impl #impl_generics #krate::Reflective for #ident #type_generics
                where #(#predicates,)*
                {
                    #generator
                    #shrink
                    #dimension
                }
            }
        }
        (Err(error), ..) => {
            let mut tokens = error.write_errors();
            tokens.extend(stub(input));
            tokens
        }
        (Ok(()), ..) => unreachable!("no error means the container and bounds were read"),
    }
}

/// A stub impl, so that a type whose derive failed still implements `Reflective` and its uses
/// add no errors. It holds only where the trait's requirements do, so it adds no errors of its
/// own. Types with lifetimes get none: the impl itself would not hold. The runtime is where the
/// type's `crate = "..."` says, if that parses.
fn stub(input: &DeriveInput) -> TokenStream {
    if input.generics.lifetimes().next().is_some() {
        return TokenStream::new();
    }
    let krate = lenient::krate(&input.attrs).unwrap_or_else(|| parse_quote!(::reflective));
    let ident = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let mut predicates: Vec<WherePredicate> = where_clause
        .iter()
        .flat_map(|clause| clause.predicates.iter().cloned())
        .collect();
    predicates.push(parse_quote!(Self: ::core::clone::Clone + ::core::marker::Send + ::core::marker::Sync + 'static));
    quote! {
        impl #impl_generics #krate::Reflective for #ident #type_generics
        where #(#predicates,)*
        {
            fn arbitrary_reflective() -> #krate::__private::Gen<Self, Self> {
                ::core::unreachable!("the derive of `Reflective` failed to compile")
            }
        }
    }
}

/// The one place the impl requires a field's type to be `Reflective`, so that a type that is
/// not is one error, at the field's type, not one per use: for each field without its own
/// generator, a function of the type returning the four `Reflective` functions of the field's
/// type, which the generator, the shrinker and the dimension call. Its uses of the trait are in
/// one body, so rustc proves `F: Reflective` once.
fn field_functions(model: &Model<'_>) -> TokenStream {
    let Model {
        krate,
        ident,
        generics,
        predicates,
        ..
    } = model;
    let private = quote!(#krate::__private);
    let functions: Vec<TokenStream> = model
        .constructors()
        .iter()
        .flat_map(|constructor| &constructor.fields)
        .filter_map(|f| {
            let name = f.functions.as_ref()?;
            let ty = &f.field.ty;
            let reflective = quote_spanned!(ty.span()=> <#ty as #krate::Reflective>);
            Some(quote! {
                #[allow(clippy::type_complexity)]
                fn #name() -> (
                    fn() -> #private::Gen<#ty, #ty>,
                    fn(&#ty) -> #private::Vec<#ty>,
                    fn(&#ty, &mut dyn ::core::ops::FnMut(&dyn #private::AnyValue) -> bool),
                    fn(&mut #private::Dimensions) -> #private::Reach,
                ) {
                    (
                        #reflective::arbitrary_reflective,
                        #reflective::shrink_candidates,
                        #reflective::visit_parts,
                        #reflective::dimension_in,
                    )
                }
            })
        })
        .collect();
    if functions.is_empty() {
        return TokenStream::new();
    }
    let (impl_generics, type_generics, _) = generics.split_for_impl();
    quote! {
        #[doc(hidden)]
        impl #impl_generics #ident #type_generics
        where #(#predicates,)*
        {
            #(#functions)*
        }
    }
}

/// The impl's `where` predicates: from `bound = "..."`, or `T: Reflective` per type parameter.
fn predicates(container: &Container) -> darling::Result<Vec<WherePredicate>> {
    let krate = krate(container);
    let mut predicates: Vec<WherePredicate> = container
        .generics
        .where_clause
        .iter()
        .flat_map(|clause| clause.predicates.iter().cloned())
        .collect();
    match &container.bound {
        Some(bound) => {
            let parsed = bound
                .parse_with(
                    syn::punctuated::Punctuated::<WherePredicate, syn::Token![,]>::parse_terminated,
                )
                .map_err(|error| {
                    darling::Error::custom(format!(
                        "`bound` must be `where` predicates such as \"T: Reflective + Ord\": \
                         {error}"
                    ))
                    .with_span(bound)
                })?;
            predicates.extend(parsed);
        }
        None => predicates.extend(container.generics.type_params().map(
            |param| -> WherePredicate {
                let ident = &param.ident;
                parse_quote!(#ident: #krate::Reflective)
            },
        )),
    }
    Ok(predicates)
}

fn krate(container: &Container) -> Path {
    container
        .krate
        .clone()
        .unwrap_or_else(|| parse_quote!(::reflective))
}

/// Everything the back end needs, worked out once.
pub(crate) struct Model<'a> {
    pub(crate) krate: Path,
    pub(crate) ident: &'a Ident,
    pub(crate) vis: &'a syn::Visibility,
    pub(crate) generics: &'a syn::Generics,
    pub(crate) predicates: Vec<WherePredicate>,
    pub(crate) shape: Shape<'a>,
    /// Put before the name of every optic (`optics_prefix`).
    pub(crate) optics_prefix: String,
    /// The dimension given by `dimension = N`, if any.
    pub(crate) dimension: Option<usize>,
}

/// A struct is one constructor; an enum has one per variant.
pub(crate) enum Shape<'a> {
    Struct(Constructor<'a>),
    Enum(Vec<Constructor<'a>>),
}

/// One way to build a value: a struct, or a variant of an enum.
pub(crate) struct Constructor<'a> {
    /// The variant, for enums.
    pub(crate) variant: Option<&'a Variant>,
    pub(crate) fields: Vec<FieldModel<'a>>,
}

/// A field with the names the generated code uses for it.
pub(crate) struct FieldModel<'a> {
    pub(crate) field: &'a Field,
    /// `x` or `0`: how the field is written in patterns and accessors.
    pub(crate) member: syn::Member,
    /// The field's number across all constructors, in order: its generator is `part_{n}` in
    /// the derived generator (see `generator::part_name`).
    pub(crate) part: usize,
    /// A variable bound to the field in patterns: `field_x` or `field_0`.
    pub(crate) binding: Ident,
    /// `x` or `0`, for the names of optics.
    pub(crate) name: String,
    pub(crate) reach: Reach,
    /// How many user types the field's type names: a field holding several recursive values
    /// divides its size among them.
    pub(crate) mentions: usize,
    /// The function returning the `Reflective` functions of the field's type (see
    /// [`field_functions`]); `None` for a field with its own generator or of a skipped variant,
    /// whose type need not be `Reflective`.
    pub(crate) functions: Option<Ident>,
}

impl<'a> Model<'a> {
    fn new(container: &'a Container, predicates: Vec<WherePredicate>) -> Self {
        let params = parameters(&container.generics);
        let count = std::cell::Cell::new(0usize);
        let parts = std::cell::Cell::new(0usize);
        let constructor = |variant: Option<&'a Variant>, fields: &'a Fields<Field>| {
            // A skipped variant is never generated: its fields get no generator of their
            // type, so their types need not be `Reflective` (see `generator::field_gen`).
            let skipped = variant.is_some_and(|v| v.skip.is_present());
            Constructor {
                variant,
                fields: fields
                    .iter()
                    .enumerate()
                    .map(|(index, field)| {
                        let (member, name) = match &field.ident {
                            Some(ident) => {
                                (syn::Member::Named(ident.clone()), ident.unraw().to_string())
                            }
                            None => (syn::Member::Unnamed(index.into()), index.to_string()),
                        };
                        FieldModel {
                            field,
                            member,
                            part: parts.replace(parts.get() + 1),
                            binding: format_ident!("field_{}", name),
                            name,
                            reach: reach(&field.ty, &container.ident, &params),
                            mentions: recursive_mentions(&field.ty, &container.ident, &params),
                            functions: (!field.has_custom_generator() && !skipped).then(|| {
                                count.set(count.get() + 1);
                                format_ident!("__reflective_field_{}", count.get())
                            }),
                        }
                    })
                    .collect(),
            }
        };
        let shape = match &container.data {
            Data::Struct(fields) => Shape::Struct(constructor(None, fields)),
            Data::Enum(variants) => Shape::Enum(
                variants
                    .iter()
                    .map(|variant| constructor(Some(variant), &variant.fields))
                    .collect(),
            ),
        };
        Model {
            krate: krate(container),
            ident: &container.ident,
            vis: &container.vis,
            generics: &container.generics,
            predicates,
            shape,
            optics_prefix: container.optics_prefix.clone().unwrap_or_default(),
            dimension: container.dimension,
        }
    }

    /// The lens on a struct field: `lens_x`.
    pub(crate) fn lens_name(&self, f: &FieldModel<'_>) -> Ident {
        format_ident!("{}lens_{}", self.optics_prefix, f.name)
    }

    /// The prism on a variant: `as_variant`.
    pub(crate) fn prism_name(&self, variant: &Variant) -> Ident {
        format_ident!("{}as_{}", self.optics_prefix, snake_case(&variant.ident))
    }

    /// The builder of a variant: `from_variant`.
    pub(crate) fn builder_name(&self, variant: &Variant) -> Ident {
        format_ident!("{}from_{}", self.optics_prefix, snake_case(&variant.ident))
    }

    /// The lens through a variant to one of its fields: `variant_x`.
    pub(crate) fn variant_lens_name(&self, variant: &Variant, f: &FieldModel<'_>) -> Ident {
        format_ident!(
            "{}{}_{}",
            self.optics_prefix,
            snake_case(&variant.ident),
            f.name
        )
    }

    /// Every constructor: the struct's, or each variant's.
    pub(crate) fn constructors(&self) -> &[Constructor<'a>] {
        match &self.shape {
            Shape::Struct(constructor) => std::slice::from_ref(constructor),
            Shape::Enum(constructors) => constructors,
        }
    }
}

impl Constructor<'_> {
    /// `Self` or `Self::Variant`.
    pub(crate) fn path(&self) -> TokenStream {
        match self.variant {
            Some(variant) => {
                let ident = &variant.ident;
                quote!(Self::#ident)
            }
            None => quote!(Self),
        }
    }

    /// A pattern binding every field to its `binding`: `Self::V { x: field_x, .. }`.
    pub(crate) fn pattern(&self) -> TokenStream {
        let path = self.path();
        let members = self.fields.iter().map(|f| &f.member);
        let bindings = self.fields.iter().map(|f| &f.binding);
        quote!(#path { #(#members: #bindings,)* })
    }

    /// An expression building the value from the fields' `binding`s.
    pub(crate) fn build(&self) -> TokenStream {
        let path = self.path();
        let members = self.fields.iter().map(|f| &f.member);
        let bindings = self.fields.iter().map(|f| &f.binding);
        quote!(#path { #(#members: #bindings,)* })
    }

    /// How far generating this constructor may recurse at size 0: the furthest reach of its
    /// fields generated there (see [`generated_at_size_zero`]).
    pub(crate) fn reach_at_size_zero(&self) -> Reach {
        self.fields
            .iter()
            .filter(|f| generated_at_size_zero(f.field))
            .map(|f| f.reach)
            .max()
            .unwrap_or(Reach::Direct)
    }
}

/// The snake-case form of a variant name, for the names of its optics.
pub(crate) fn snake_case(ident: &Ident) -> String {
    let name = ident.unraw().to_string();
    let mut snake = String::with_capacity(name.len() + 4);
    for (index, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if index > 0 {
                snake.push('_');
            }
            snake.extend(c.to_lowercase());
        } else {
            snake.push(c);
        }
    }
    snake
}

#[cfg(test)]
mod tests {
    //! With `crate = "..."`, no expansion names `::reflective`: the runtime may be reachable only
    //! through the path given (`reflective-tests/tests/crate_path.rs` compiles such a crate).

    use proc_macro2::{TokenStream, TokenTree};
    use quote::quote;

    /// Whether `tokens` hold `::reflective` (or `some::reflective`), in groups too.
    fn names_reflective(tokens: TokenStream) -> bool {
        let mut colons = 0;
        for tree in tokens {
            match tree {
                TokenTree::Group(group) if names_reflective(group.stream()) => return true,
                TokenTree::Punct(punct) if punct.as_char() == ':' => colons += 1,
                TokenTree::Ident(ident) if colons >= 2 && ident == "reflective" => return true,
                _ => colons = 0,
            }
        }
        false
    }

    #[test]
    fn the_check_finds_the_default_path() {
        let input = syn::parse_quote! {
            struct Point { x: i32 }
        };
        assert!(names_reflective(super::derive(&input)));
    }

    #[test]
    fn the_derive_names_only_the_given_crate() {
        let input = syn::parse_quote! {
            #[reflective(crate = "my::rt")]
            enum Tree<T> {
                Leaf,
                #[reflective(weight = 2)]
                Node(Box<Tree<T>>, T, #[reflective(generator = range(0u8..=3))] u8),
                #[reflective(skip)]
                Other { #[reflective(with = small)] x: u8, y: Vec<T> },
            }
        };
        let expansion = super::derive(&input);
        assert!(!names_reflective(expansion.clone()), "{expansion}");
    }

    #[test]
    fn the_stub_of_a_failed_derive_names_only_the_given_crate() {
        let input = syn::parse_quote! {
            #[reflective(crate = "my::rt", dimension = "two")]
            struct Point { x: i32 }
        };
        let expansion = super::derive(&input);
        assert!(
            expansion.to_string().contains("compile_error"),
            "{expansion}"
        );
        assert!(!names_reflective(expansion.clone()), "{expansion}");
    }

    #[test]
    fn the_property_names_only_the_given_crate() {
        let settings = quote! {
            crate = "my::rt", cases = 5, seed = 1, max_size = 9, strategy = "random",
            size_schedule = "ramp",
            regressions = true, statistics = true, check_coverage = false,
            case_time_limit_ms = 100, shrink_evaluations = 50, shrink_seconds = 2
        };
        let function = quote! {
            #[should_panic]
            fn holds(x: u8, #[reflective(generator = range(0u8..=3))] y: u8) -> bool { x >= y }
        };
        let expansion = super::property::expand(settings, function);
        assert!(!names_reflective(expansion.clone()), "{expansion}");
        for (settings, check) in [
            (
                quote!(crate = "my::rt", parallel = true),
                "check_parallel_with",
            ),
            (
                quote!(crate = "my::rt", regressions = "values"),
                "check_values_with",
            ),
        ] {
            let function = quote!(
                fn holds(#[reflective(with = small)] x: u8) {}
            );
            let expansion = super::property::expand(settings, function);
            assert!(expansion.to_string().contains(check), "{expansion}");
            assert!(!names_reflective(expansion.clone()), "{expansion}");
        }
    }
}
