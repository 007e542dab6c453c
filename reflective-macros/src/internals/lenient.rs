//! A second, lenient reading of the variants and fields whose attributes darling could not
//! read: every attribute that does parse is kept, so that the checks on them (duplicate labels,
//! conflicting attributes) still run in the same compile. The errors of the ones that do not
//! parse were reported already. The container's `crate = "..."` is read the same way, so that
//! the stub impl of a failed derive finds the runtime where the type says it is.

use darling::ast::{Fields, NestedMeta, Style};
use darling::util::Flag;
use syn::punctuated::Punctuated;
use syn::{Meta, Path, Token};

use super::ast::{CustomGenerator, Field, Variant};
use super::attr;

/// The items of every `#[reflective(...)]` attribute that parse as meta items (as darling
/// parses them: keywords such as `crate` are keys too).
fn items(attrs: &[syn::Attribute]) -> Vec<Meta> {
    attrs
        .iter()
        .filter(|attr| attr.path().is_ident("reflective"))
        .filter_map(|attr| {
            attr.parse_args_with(Punctuated::<NestedMeta, Token![,]>::parse_terminated)
                .ok()
        })
        .flatten()
        .filter_map(|item| match item {
            NestedMeta::Meta(meta) => Some(meta),
            NestedMeta::Lit(_) => None,
        })
        .collect()
}

/// The container's `crate = "path"`, if it parses.
pub(crate) fn krate(attrs: &[syn::Attribute]) -> Option<Path> {
    items(attrs)
        .iter()
        .filter(|item| item.path().is_ident("crate"))
        .find_map(|item| attr::krate(item).ok().flatten())
}

/// `field` with the attributes that parse.
pub(crate) fn field(field: &syn::Field) -> Field {
    let mut read = Field {
        ident: field.ident.clone(),
        vis: field.vis.clone(),
        ty: field.ty.clone(),
        custom: CustomGenerator::default(),
    };
    for item in items(&field.attrs) {
        if item.path().is_ident("with") {
            read.custom.with = attr::with(&item).ok().flatten();
        } else if item.path().is_ident("generator") {
            read.custom.generator = attr::generator(&item).ok().flatten();
        } else if item.path().is_ident("regex") {
            read.custom.regex = attr::regex(&item).ok().flatten();
        }
    }
    read
}

/// `variant` with the attributes that parse, its fields read leniently too.
pub(crate) fn variant(variant: &syn::Variant) -> Variant {
    let style = match &variant.fields {
        syn::Fields::Named(_) => Style::Struct,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let mut read = Variant {
        ident: variant.ident.clone(),
        fields: Fields::new(style, variant.fields.iter().map(field).collect()),
        label: None,
        weight: None,
        skip: Flag::default(),
    };
    for item in items(&variant.attrs) {
        if item.path().is_ident("label") {
            read.label = attr::label(&item).ok().flatten();
        } else if item.path().is_ident("weight") {
            read.weight = attr::weight(&item).ok().flatten();
        } else if item.path().is_ident("skip") {
            read.skip = attr::skip(&item).unwrap_or_default();
        }
    }
    read
}
