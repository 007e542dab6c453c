//! The derive input and its `#[reflective(...)]` attributes, read by darling.
//!
//! darling reports unknown attributes, values of the wrong type, duplicated attributes and
//! unsupported shapes (unions), each at its span, all at once.

use darling::util::{Flag, SpannedValue};
use darling::{FromDeriveInput, FromField, FromMeta, FromVariant, ast};
use syn::{Expr, Generics, Ident, LitStr, Path, Type, Visibility};

use super::attr;

/// The type deriving `Reflective`.
#[derive(FromDeriveInput)]
#[darling(attributes(reflective), supports(struct_any, enum_any))]
pub(crate) struct Container {
    pub(crate) ident: Ident,
    pub(crate) vis: Visibility,
    pub(crate) generics: Generics,
    pub(crate) data: ast::Data<Variant, Field>,
    /// `crate = "path"`: where the runtime crate is.
    #[darling(rename = "crate", default, with = attr::krate)]
    pub(crate) krate: Option<Path>,
    /// `optics_prefix = "..."`: put before the name of every optic, to keep them apart from
    /// the type's own methods.
    #[darling(default, with = attr::optics_prefix)]
    pub(crate) optics_prefix: Option<String>,
    /// `bound = "..."`: the impl's `where` predicates, replacing the default ones.
    #[darling(default, with = attr::bound)]
    pub(crate) bound: Option<LitStr>,
    /// `dimension = N`: the type's dimension, instead of the one computed from its fields.
    #[darling(default, with = attr::dimension)]
    pub(crate) dimension: Option<usize>,
}

/// An enum variant.
#[derive(FromVariant)]
#[darling(attributes(reflective))]
pub(crate) struct Variant {
    pub(crate) ident: Ident,
    pub(crate) fields: ast::Fields<Field>,
    /// `label = "..."`: the label of the variant's choice.
    #[darling(default, with = attr::label)]
    pub(crate) label: Option<SpannedValue<String>>,
    /// `weight = N`: the variant's weight.
    #[darling(default, with = attr::weight)]
    pub(crate) weight: Option<SpannedValue<u32>>,
    /// `skip`: never generate the variant.
    #[darling(default, with = attr::skip)]
    pub(crate) skip: Flag,
}

/// A field of a struct or a variant.
#[derive(FromField)]
#[darling(attributes(reflective))]
pub(crate) struct Field {
    pub(crate) ident: Option<Ident>,
    pub(crate) vis: Visibility,
    pub(crate) ty: Type,
    /// `with`, `generator` or `regex`: the field's generator, instead of its type's.
    #[darling(flatten)]
    pub(crate) custom: CustomGenerator,
}

/// `with = path`, `generator = expr` or `regex = "pattern"`: the generator of a derived type's
/// field or of a property's argument, instead of its type's own. The derive and `#[property]` read these
/// attributes with this one definition, so they accept the same forms and report the same
/// errors.
#[derive(Default, FromMeta)]
pub(crate) struct CustomGenerator {
    /// `with = path`: a function returning the generator.
    #[darling(default, with = attr::with)]
    pub(crate) with: Option<SpannedValue<Path>>,
    /// `generator = expr` (or `generator = "expr"`): the generator.
    #[darling(default, with = attr::generator)]
    pub(crate) generator: Option<SpannedValue<Expr>>,
    /// `regex = "pattern"`: strings matching the pattern.
    #[darling(default, with = attr::regex)]
    pub(crate) regex: Option<SpannedValue<LitStr>>,
}

impl Variant {
    /// The label of the variant's choice.
    pub(crate) fn label(&self) -> String {
        self.label
            .as_ref()
            .map_or_else(|| self.ident.to_string(), |label| (**label).clone())
    }

    /// The weight the variant is generated with (0 when skipped).
    pub(crate) fn weight(&self) -> u32 {
        if self.skip.is_present() {
            0
        } else {
            self.weight.as_ref().map_or(1, |weight| **weight)
        }
    }
}

impl Field {
    /// Whether the field's generator is given by an attribute.
    pub(crate) fn has_custom_generator(&self) -> bool {
        self.custom.is_given()
    }
}

impl CustomGenerator {
    /// Whether an attribute gives the generator.
    pub(crate) fn is_given(&self) -> bool {
        self.with.is_some() || self.generator.is_some() || self.regex.is_some()
    }
}
