//! The type's dimension: `dimension_in` visits the types of the fields every generated
//! constructor holds, or returns the dimension `dimension = N` gives.
//!
//! Fields with their own generator (`with`, `generator`) are not visited: their types need not
//! be `Reflective`, and their generators set their own sizes.

use proc_macro2::TokenStream;
use quote::quote;

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
            // Through the field's functions, as in the generator: a field whose type is not
            // `Reflective` gets one error there, not one here too.
            let visits = constructors
                .iter()
                .filter(|constructor| constructor.variant.is_none_or(|v| v.weight() > 0))
                .flat_map(|constructor| &constructor.fields)
                .filter_map(|f| {
                    let functions = f.functions.as_ref()?;
                    let ty = &f.field.ty;
                    Some(quote!(cx.visit_type(#private::TypeId::of::<#ty>(), Self::#functions().3)))
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
