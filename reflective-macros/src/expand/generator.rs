//! `arbitrary_reflective`: the derived generator.
//!
//! A struct zips its fields' generators, each focused with the field's lens, and maps them to
//! the struct. An enum picks a variant (labelled by its name, weighted), each built like a
//! struct through the variant's prism. A constructor with a field whose type may lead back to
//! this one is a recursive node: it uses a unit of the size and its fields run one after
//! another on what is left (the runtime's `recursion` and `fuelled`), and at size 0 only the
//! variants that recurse least are picked, so generation stops. Each type's generator is
//! built once per thread; a recursive type's reference to itself is a placeholder tied to the
//! finished generator.
//!
//! That description runs backward. Forward, the derive's own code makes the same choices
//! (`constructor_forward`): the runtime's `derive::direct` says why and how.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::{Constructor, FieldModel, Model, Shape};
use crate::internals::types::Reach;

/// The `arbitrary_reflective` method.
pub(crate) fn expand(model: &Model<'_>) -> TokenStream {
    let krate = &model.krate;
    let private = quote!(#krate::__private);
    // Each field's generator, built once: the description focuses it, the forward code runs
    // it (see the runtime's `derive::direct`).
    let part_lets = model.constructors().iter().flat_map(|constructor| {
        constructor.fields.iter().map(|f| {
            let name = part_name(f);
            let field_gen = field_gen(model, f);
            // Errors about the field's generator (a type that is not `Reflective`, a `with`
            // function of the wrong type) point at the field.
            quote_spanned!(field_span(f)=> let #name = #field_gen;)
        })
    });
    let part_names = model
        .constructors()
        .iter()
        .flat_map(|constructor| constructor.fields.iter().map(part_name));
    let (described, forward, variants) = match &model.shape {
        Shape::Struct(constructor) => (
            constructor_gen(model, constructor),
            constructor_forward(model, constructor),
            quote!(()),
        ),
        Shape::Enum(constructors) => {
            let names: Vec<_> = (0..constructors.len())
                .map(|i| format_ident!("variant_{}", i))
                .collect();
            let gens = constructors.iter().map(|c| constructor_gen(model, c));
            let labels: Vec<String> = constructors
                .iter()
                .map(|c| c.variant.expect("enum constructors have a variant").label())
                .collect();
            let weights: Vec<u32> = constructors
                .iter()
                .map(|c| {
                    c.variant
                        .expect("enum constructors have a variant")
                        .weight()
                })
                .collect();
            // At size 0, only the variants that recurse least: none into a user type if some
            // can be generated, else none into this type, else all.
            let least = constructors
                .iter()
                .zip(&weights)
                .filter(|&(_, &w)| w > 0)
                .map(|(c, _)| c.reach_at_size_zero())
                .min()
                .unwrap_or(Reach::Direct);
            let small_weights: Vec<u32> = constructors
                .iter()
                .zip(&weights)
                .map(|(c, &w)| {
                    if c.reach_at_size_zero() <= least {
                        w
                    } else {
                        0
                    }
                })
                .collect();
            let indices = 0..constructors.len();
            let builds = constructors.iter().map(|c| constructor_forward(model, c));
            // A recursive type's variants that hold the type itself weigh more at the outermost
            // pick of a value, the more the larger its size (the runtime's `grown`).
            // A variant never generated (weight 0, skipped) does not make the type recursive.
            let grows: Vec<bool> = constructors
                .iter()
                .zip(&weights)
                .map(|(c, &w)| w > 0 && c.fields.iter().any(|f| f.reach == Reach::OwnType))
                .collect();
            let growing = grows.contains(&true);
            // The variants' pick: the small weights at size 0, the declared ones above; for a
            // recursive type, at a root outside every recursive value, the `grown` ones.
            let by_size = if growing {
                quote! {{
                    let outer = {
                        #(let #names = #names.clone();)*
                        #private::sized(move |size| #private::pick([#((
                            #private::grown(#weights, #grows, size),
                            #labels,
                            #names.clone(),
                        ),)*]))
                    };
                    #private::outermost(
                        #private::at_size_zero(small.clone(), outer),
                        #private::at_size_zero(small, full),
                    )
                }}
            } else {
                quote!(#private::at_size_zero(small, full))
            };
            let described = quote! {{
                #(let #names = #private::Generator::boxed(#gens);)*
                let full = #private::pick([#((#weights, #labels, #names.clone()),)*]);
                let small = #private::pick([#((#small_weights, #labels, #names.clone()),)*]);
                #by_size
            }};
            // The same pick as the description's: the same labels, and weights in the same
            // order at every size and at size 0.
            let forward = quote! {
                #private::forward_variant(run, &this.parts().0, |index, run| match index {
                    #(#indices => #builds,)*
                    _ => ::core::unreachable!("a pick index is below the arity"),
                })
            };
            let declared_variants = quote! {
                #private::Variants::new(
                    &[#(#labels),*],
                    &[#(#weights),*],
                    &[#(#small_weights),*],
                )
            };
            let variants = if growing {
                quote!(#declared_variants.growing(&[#(#grows),*]))
            } else {
                declared_variants
            };
            (described, forward, variants)
        }
    };
    let body = quote! {
        #(#part_lets)*
        let described = #described;
        let parts = (#variants, (#(#part_names,)*));
        #private::direct(described, parts, |this, run| #forward)
    };
    method(model, body)
}

/// The method around `body`, which builds the type's generator.
fn method(model: &Model<'_>, body: TokenStream) -> TokenStream {
    let krate = &model.krate;
    let private = quote!(#krate::__private);
    quote! {
        #[allow(clippy::type_complexity)]
        fn arbitrary_reflective() -> #private::Gen<Self, Self> {
            #private::cached::<Self, _>(|| {
                use #private::Generator as _;
                #body
            })
        }
    }
}

/// The name of field `f`'s generator, `part_{n}` by the field's number across the
/// constructors; the forward code finds it at `this.parts().1.n`.
fn part_name(f: &FieldModel<'_>) -> proc_macro2::Ident {
    format_ident!("part_{}", f.part)
}

/// The forward code of one constructor: the same choices as its description (see
/// [`constructor_gen`]), the fields run in order, then the value built.
fn constructor_forward(model: &Model<'_>, constructor: &Constructor<'_>) -> TokenStream {
    let krate = &model.krate;
    let private = quote!(#krate::__private);
    let build = constructor.build();
    let recursive = constructor.fields.iter().any(|f| f.reach != Reach::Direct);
    let fields = constructor.fields.iter().map(|f| {
        let binding = &f.binding;
        let number = syn::Index::from(f.part);
        // A field with its type's generator may be a `Box` of the type itself, which the
        // generator checks by type (see the runtime's `Direct::field`).
        let part = quote!(&this.parts().1.#number);
        let run_part = if by_type(f) {
            quote!(this.field(#part, run))
        } else {
            quote!(#private::forward_part(#part, run))
        };
        if recursive {
            quote!(let #binding = #private::forward_field(run, |run| #run_part)?;)
        } else {
            quote!(let #binding = #run_part?;)
        }
    });
    let body = quote! {{
        #(#fields)*
        ::core::result::Result::Ok(#build)
    }};
    if recursive {
        quote!(#private::forward_node(run, |run| #body))
    } else {
        body
    }
}

/// The generator of one constructor, reflecting on the whole type.
fn constructor_gen(model: &Model<'_>, constructor: &Constructor<'_>) -> TokenStream {
    let krate = &model.krate;
    let private = quote!(#krate::__private);
    let build = constructor.build();
    if constructor.fields.is_empty() {
        return match constructor.variant {
            Some(variant) => {
                let prism = model.prism_name(variant);
                quote!(#private::pure::<(), Self>(#build).focus(Self::#prism))
            }
            None => quote!(#private::pure::<Self, Self>(#build)),
        };
    }
    // A constructor with a field that may lead back to the type is a recursive node: it uses
    // a unit of the size, and its fields run one after another on the rest (see the runtime's
    // `combinator::recursion`).
    let recursive = constructor.fields.iter().any(|f| f.reach != Reach::Direct);
    let focused = constructor.fields.iter().map(|f| {
        let optic = match constructor.variant {
            Some(variant) => model.variant_lens_name(variant, f),
            None => model.lens_name(f),
        };
        let name = part_name(f);
        let field_gen = quote!(#name.clone());
        let field_gen = if recursive {
            quote!(#private::fuelled(#field_gen))
        } else {
            field_gen
        };
        // Errors about the field's generator (a type that is not `Reflective`, a `with`
        // function of the wrong type) point at the field. The focus is named after the field,
        // for a completion's error.
        let field_label = &f.name;
        quote_spanned!(field_span(f)=> #field_gen.focus(Self::#optic).named(#field_label))
    });
    let nested = constructor.fields.iter().fold(quote!(()), |acc, f| {
        let binding = &f.binding;
        quote!((#acc, #binding))
    });
    let fields = quote! {
        #private::pure::<Self, ()>(())
            #(.zip(#focused))*
            .map(|#nested| #build)
    };
    if recursive {
        quote!(#private::recursion(#fields))
    } else {
        fields
    }
}

/// Where errors about a field's generator point: its `with`, `generator` or `regex` value, or
/// its type.
fn field_span(f: &FieldModel<'_>) -> proc_macro2::Span {
    use syn::spanned::Spanned;
    if let Some(with) = &f.field.custom.with {
        return with.span();
    }
    if let Some(generator) = &f.field.custom.generator {
        return generator.span();
    }
    if let Some(regex) = &f.field.custom.regex {
        return regex.span();
    }
    f.field.ty.span()
}

/// Whether field `f`'s generator is its type's own, unchanged (no `with` or `generator`
/// attribute, no division of the size among the values it holds): see [`field_gen`].
fn by_type(f: &FieldModel<'_>) -> bool {
    f.functions.is_some() && !(f.reach != Reach::Direct && f.mentions >= 2)
}

/// The generator of one field's type.
fn field_gen(model: &Model<'_>, f: &FieldModel<'_>) -> TokenStream {
    let krate = &model.krate;
    let ty = &f.field.ty;
    // A custom generator is annotated with the field's type, so that a generator of another
    // type is one error at the attribute, not several inside the derive.
    let private = quote!(#krate::__private);
    if let Some(with) = &f.field.custom.with {
        let path = &**with;
        return quote_spanned! {with.span()=>
            { let custom: #private::Gen<#ty, #ty> = #path().boxed(); custom }
        };
    }
    if let Some(generator) = &f.field.custom.generator {
        let expr = &**generator;
        return quote_spanned! {generator.span()=>
            { let custom: #private::Gen<#ty, #ty> = (#expr).boxed(); custom }
        };
    }
    if let Some(regex) = &f.field.custom.regex {
        // The runtime's path keeps the macro's span: the generator is named at the
        // attribute's, so that a field of another type than `String` is an error there.
        let pattern = &**regex;
        let strings = quote_spanned!(regex.span()=> strings);
        return quote! {
            {
                let #strings = #private::regex_attribute(#pattern);
                let custom: #private::Gen<#ty, #ty> = #strings;
                custom
            }
        };
    }
    // A field of a skipped variant: never generated, and its type may have no generator.
    let Some(functions) = &f.functions else {
        return quote!(#private::skipped::<#ty>());
    };
    match (f.reach, f.mentions) {
        // The generator may be the one being built (a placeholder while it is): see
        // `__private::cached`. A field holding several values that may recurse (a tuple of
        // them) divides the size among them, which a tuple does not do by itself.
        (Reach::OtherType | Reach::OwnType, mentions @ 2..) => quote! {
            (Self::#functions().0)().scale(|size| size / #mentions)
        },
        _ => quote!((Self::#functions().0)()),
    }
}
