//! The type's dimension: `dimension_in` visits the types of the fields every generated
//! constructor holds, or returns the dimension `dimension = N` gives.
//!
//! Fields with their own generator (`with`, `generator`) are not visited: their types need not
//! be `Reflective`, and their generators set their own sizes.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::generator::field_span;
use super::{Model, Shape};

/// The `dimension_in` method of the impl.
pub(crate) fn expand(model: &Model<'_>) -> TokenStream {
    let krate = &model.krate;
    let private = quote!(#krate::__private);
    let body = match model.dimension {
        Some(dimension) => quote!(cx.fixed::<Self>(#dimension)),
        None => {
            let constructors = match &model.shape {
                Shape::Struct(constructor) => std::slice::from_ref(constructor),
                Shape::Enum(constructors) => constructors.as_slice(),
            };
            // `<F as Reflective>` at the field's span, as in the generator: a field whose type
            // is not `Reflective` gets one error, not one here too.
            let visits = constructors
                .iter()
                .filter(|constructor| constructor.variant.is_none_or(|v| v.weight() > 0))
                .flat_map(|constructor| &constructor.fields)
                .filter(|f| !f.field.has_custom_generator())
                .map(|f| {
                    let ty = &f.field.ty;
                    // Only the impl is at the field's span: `cx` must keep the derive's own, or
                    // a derive inside a `macro_rules!` could not see it.
                    let dimension_in = quote_spanned! {field_span(f)=>
                        <#ty as #krate::Reflective>::dimension_in
                    };
                    quote!(cx.visit_type(#private::TypeId::of::<#ty>(), #dimension_in))
                });
            quote! {
                cx.node::<Self>(#private::Shape::Product, |cx| {
                    #private::Vec::from([#(#visits),*])
                })
            }
        }
    };
    quote! {
        fn dimension_in(cx: &mut #private::Dimensions) -> #private::Reach {
            #body
        }
    }
}
