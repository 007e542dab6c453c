//! `shrink_candidates` and `visit_parts`: the type-directed shrinker of the Agata thesis
//! (section 2.3), the baseline the choice shrinker is measured against.
//!
//! Three kinds of candidates, in order: a value of the same type found inside the value; the
//! value rebuilt with any constructor from a strict subset of its fields (each field used at
//! least once over the candidates); the value with one field shrunk by its own type.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Constructor, Model};

/// The `shrink_candidates` and `visit_parts` methods.
pub(crate) fn expand(model: &Model<'_>) -> TokenStream {
    let krate = &model.krate;
    let private = quote!(#krate::__private);
    let constructors = model.constructors();
    let patterns: Vec<TokenStream> = constructors.iter().map(Constructor::pattern).collect();

    let parts = constructors.iter().map(|c| {
        let bindings = c.fields.iter().map(|f| &f.binding);
        quote!(#private::Vec::from([#(#bindings as &dyn #private::AnyValue,)*]))
    });
    // Only constructors the generator makes: not a skipped variant, nor one of weight 0.
    let rebuilds = constructors
        .iter()
        .filter(|c| c.variant.is_none_or(|v| v.weight() > 0))
        .map(|target| rebuild(model, target));
    let field_shrinks = constructors.iter().map(|c| {
        let shrinks = c
            .fields
            .iter()
            .filter_map(|f| f.functions.as_ref().map(|functions| (f, functions)))
            .map(|(f, functions)| {
                let binding = &f.binding;
                let others = c.fields.iter().filter(|o| o.binding != f.binding).map(|o| {
                    let other = &o.binding;
                    quote!(let #other = ::core::clone::Clone::clone(#other);)
                });
                let build = c.build();
                quote! {
                    for #binding in (Self::#functions().1)(#binding) {
                        #(#others)*
                        shrinks.push(#build);
                    }
                }
            });
        quote!({ #(#shrinks)* })
    });
    let visits = constructors.iter().map(|c| {
        let visits = c.fields.iter().map(|f| {
            let binding = &f.binding;
            match &f.functions {
                None => quote!(let _ = visit(#binding);),
                Some(functions) => quote! {
                    if visit(#binding) {
                        (Self::#functions().2)(#binding, visit);
                    }
                },
            }
        });
        quote!({ #(#visits)* })
    });

    quote! {
        fn shrink_candidates(&self) -> #private::Vec<Self> {
            #private::with_stack_room(|| {
                let mut shrinks: #private::Vec<Self> = #private::same_typed_parts(self);
                let parts: #private::Vec<&dyn #private::AnyValue> = match self {
                    #(#patterns => #parts,)*
                };
                #(#rebuilds)*
                match self {
                    #(#patterns => #field_shrinks)*
                }
                shrinks
            })
        }

        fn visit_parts(&self, visit: &mut dyn ::core::ops::FnMut(&dyn #private::AnyValue) -> bool) {
            match self {
                #(#patterns => #visits)*
            }
        }
    }
}

/// Candidates built with `target` from a strict subset of the value's fields (`parts`).
fn rebuild(model: &Model<'_>, target: &Constructor<'_>) -> TokenStream {
    let krate = &model.krate;
    let private = quote!(#krate::__private);
    let build = target.build();
    if target.fields.is_empty() {
        return quote! {
            if !parts.is_empty() {
                shrinks.push(#build);
            }
        };
    }
    let takes = target.fields.iter().enumerate().map(|(slot, f)| {
        let ty = &f.field.ty;
        quote!(#private::take_part::<#ty>(&parts, rotation, #slot, &mut used))
    });
    let bindings = target.fields.iter().map(|f| &f.binding);
    quote! {
        for rotation in 0..parts.len() {
            let mut used = #private::Vec::from_iter(parts.iter().map(|_| false));
            if let (#(::core::option::Option::Some(#bindings),)*) = (#(#takes,)*) {
                if used.iter().filter(|&&u| u).count() < parts.len() {
                    shrinks.push(#build);
                }
            }
        }
    }
}
