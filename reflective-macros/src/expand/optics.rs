//! Optics: a lens per struct field, a prism per enum variant and a lens through it per field.
//!
//! Hand-written generators use them with `focus`, as the paper's `_Node . _2`; the derived
//! generator is built from them too.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Model, Shape};

/// The name of every optic with what it is for and where it comes from, in order; two with one
/// name cannot both be written, which [`collisions`] reports.
fn names(model: &Model<'_>) -> Vec<(String, String, proc_macro2::Span)> {
    let mut names = Vec::new();
    match &model.shape {
        Shape::Struct(constructor) => {
            for f in &constructor.fields {
                let span = f
                    .field
                    .ident
                    .as_ref()
                    .map_or_else(|| model.ident.span(), |i| i.span());
                names.push((
                    model.lens_name(f).to_string(),
                    format!("the lens on field `{}`", f.name),
                    span,
                ));
            }
        }
        Shape::Enum(constructors) => {
            for constructor in constructors {
                let variant = constructor
                    .variant
                    .expect("enum constructors have a variant");
                let span = variant.ident.span();
                names.push((
                    model.prism_name(variant).to_string(),
                    format!("the prism on variant `{}`", variant.ident),
                    span,
                ));
                names.push((
                    model.builder_name(variant).to_string(),
                    format!("the builder of variant `{}`", variant.ident),
                    span,
                ));
                for f in &constructor.fields {
                    names.push((
                        model.variant_lens_name(variant, f).to_string(),
                        format!(
                            "the lens on field `{}` of variant `{}`",
                            f.name, variant.ident
                        ),
                        span,
                    ));
                }
            }
        }
    }
    names
}

/// An error for every optic whose name another optic already has.
pub(crate) fn collisions(model: &Model<'_>) -> Vec<darling::Error> {
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut errors = Vec::new();
    for (name, what, span) in names(model) {
        match seen.get(&name) {
            Some(first) => errors.push(
                darling::Error::custom(format!(
                    "the derive names optics after variants and fields, and {what} would be \
                     named `{name}` like {first}: rename the variant or the field"
                ))
                .with_span(&span),
            ),
            None => {
                seen.insert(name, what);
            }
        }
    }
    errors
}

/// The inherent impl holding the optics.
pub(crate) fn expand(model: &Model<'_>) -> TokenStream {
    let Model {
        ident,
        vis,
        generics,
        ..
    } = model;
    let (impl_generics, type_generics, where_clause) = generics.split_for_impl();
    let items: Vec<TokenStream> = match &model.shape {
        Shape::Struct(constructor) => constructor
            .fields
            .iter()
            .map(|f| {
                let name = model.lens_name(f);
                let (member, ty) = (&f.member, &f.field.ty);
                // As visible as the field: a lens must not expose a private field.
                let vis = &f.field.vis;
                let doc = format!(
                    "Lens on the field `{}`, for `focus`: always `Some`.",
                    f.name
                );
                quote! {
                    #[doc = #doc]
                    #vis fn #name(&self) -> ::core::option::Option<&#ty> {
                        ::core::option::Option::Some(&self.#member)
                    }
                }
            })
            .collect(),
        Shape::Enum(constructors) => constructors
            .iter()
            .map(|constructor| {
                let variant = constructor
                    .variant
                    .expect("enum constructors have a variant");
                let pattern = constructor.pattern();
                let build = constructor.build();
                let bindings: Vec<_> = constructor.fields.iter().map(|f| &f.binding).collect();
                let types: Vec<_> = constructor.fields.iter().map(|f| &f.field.ty).collect();
                let as_name = model.prism_name(variant);
                let from_name = model.builder_name(variant);
                let variant_name = variant.ident.to_string();
                let as_doc = format!(
                    "Prism on the variant `{variant_name}`: its fields if the value is one, for \
                     `focus`."
                );
                let from_doc = format!("Builds the variant `{variant_name}` from its fields.");
                let (preview_type, preview) = match types.as_slice() {
                    [] => (quote!(&()), quote!(&())),
                    [ty] => (quote!(&#ty), quote!(#(#bindings)*)),
                    _ => (quote!((#(&#types,)*)), quote!((#(#bindings,)*))),
                };
                let lenses = constructor.fields.iter().map(|f| {
                    let name = model.variant_lens_name(variant, f);
                    let (binding, ty) = (&f.binding, &f.field.ty);
                    let doc = format!(
                        "Lens through the prism on `{variant_name}` to its field `{}`, for \
                         `focus`.",
                        f.name
                    );
                    quote! {
                        #[doc = #doc]
                        #vis fn #name(&self) -> ::core::option::Option<&#ty> {
                            match self {
                                #pattern => ::core::option::Option::Some(#binding),
                                _ => ::core::option::Option::None,
                            }
                        }
                    }
                });
                quote! {
                    #[doc = #as_doc]
                    #vis fn #as_name(&self) -> ::core::option::Option<#preview_type> {
                        match self {
                            #[allow(unused_variables)]
                            #pattern => ::core::option::Option::Some(#preview),
                            _ => ::core::option::Option::None,
                        }
                    }

                    #[doc = #from_doc]
                    #[allow(clippy::too_many_arguments)]
                    #vis fn #from_name(#(#bindings: #types),*) -> Self {
                        #build
                    }

                    #(#lenses)*
                }
            })
            .collect(),
    };
    quote! {
        #[allow(dead_code, unreachable_patterns)]
        impl #impl_generics #ident #type_generics #where_clause {
            #(#items)*
        }
    }
}
