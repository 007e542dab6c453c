//! What the macro can tell about a field's type from its syntax.

use std::collections::HashSet;

use syn::visit::Visit;
use syn::{Ident, Type};

/// How a field's generator is reached, from the least to the most likely to recurse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Reach {
    /// Standard types and type parameters: call the type's generator directly.
    Direct,
    /// The type mentions another user type, which may lead back to this one: reach its
    /// generator lazily, on the size its node has left, so that generation stops.
    OtherType,
    /// The type mentions this type itself: lazily, on the size its node has left.
    OwnType,
}

/// The names of the standard types the runtime knows, which never lead back to a user type by
/// themselves (named bare or through `std`, `core` or `alloc`: see [`names_standard`]).
const KNOWN: &[&str] = &[
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "bool",
    "char",
    "f32",
    "f64",
    "String",
    "str",
    "Vec",
    "Option",
    "Box",
    "Result",
    "HashMap",
    "BTreeMap",
    "HashSet",
    "BTreeSet",
    "Arc",
    "PhantomData",
    "VecDeque",
    "Duration",
    "NonZero",
    "NonZeroU8",
    "NonZeroU16",
    "NonZeroU32",
    "NonZeroU64",
    "NonZeroU128",
    "NonZeroUsize",
    "NonZeroI8",
    "NonZeroI16",
    "NonZeroI32",
    "NonZeroI64",
    "NonZeroI128",
    "NonZeroIsize",
    "Wrapping",
    "Saturating",
    "Reverse",
    "LinkedList",
    "BinaryHeap",
    "Cow",
    "IpAddr",
    "Ipv4Addr",
    "Ipv6Addr",
    "SocketAddr",
    "SocketAddrV4",
    "SocketAddrV6",
    "PathBuf",
    "OsString",
    "CString",
    "SystemTime",
];

/// Whether `segment` is `PhantomData`, whose type argument is never generated: what it names
/// cannot lead back.
fn holds_nothing(segment: &syn::PathSegment) -> bool {
    segment.ident == "PhantomData"
}

/// Whether `path` names a type the runtime knows ([`KNOWN`]) or a parameter: a bare name, or
/// a path through `std`, `core` or `alloc`. Through another module (`ast::Option`), a known
/// name may be a user type's, as [`always_holds`] assumes too.
fn names_standard(path: &syn::Path, name: &Ident, params: &HashSet<Ident>) -> bool {
    let bare = path.segments.len() == 1;
    (bare && params.contains(name))
        || (standard_path(path) && KNOWN.iter().any(|known| name == known))
}

/// Whether a standard name at the end of `path` is the standard type: a bare name, or a path
/// through `std`, `core` or `alloc`.
fn standard_path(path: &syn::Path) -> bool {
    path.segments.len() == 1
        || path
            .segments
            .first()
            .is_some_and(|first| ["std", "alloc", "core"].iter().any(|s| first.ident == s))
}

/// Visits the generic arguments of every segment of `path` (a `Vec<Tree>`'s `Tree`; an
/// associated type's `<T as Trait<A>>::Out`'s `A`), but those of `PhantomData`.
fn visit_arguments<'ast>(visitor: &mut impl Visit<'ast>, path: &'ast syn::Path) {
    for segment in &path.segments {
        if !holds_nothing(segment) {
            visitor.visit_path_arguments(&segment.arguments);
        }
    }
}

/// The type and const parameters of `generics`: neither is a user type that may lead back to
/// the type being derived.
pub(crate) fn parameters(generics: &syn::Generics) -> HashSet<Ident> {
    generics
        .type_params()
        .map(|param| param.ident.clone())
        .chain(generics.const_params().map(|param| param.ident.clone()))
        .collect()
}

/// Whether `field` is generated at size 0 by its type's generator, so that its reach counts
/// there: not with a generator of its own, nor behind an `Option` or a collection (which
/// generate nothing inside at size 0).
pub(crate) fn generated_at_size_zero(field: &super::ast::Field) -> bool {
    !field.has_custom_generator() && !stops_at_size_zero(&field.ty)
}

/// The standard types that hold exactly one value of their type argument.
const HOLDING_ONE: &[&str] = &["Box", "Arc", "Wrapping", "Saturating", "Reverse"];

/// Whether every value of `ty` holds a value of the type `own`: `own` itself (or `Self`), or a
/// `Box`, an `Arc`, a `Wrapping`, a `Saturating`, a `Reverse`, a tuple or an array around a
/// type that does. A type that may hold one or not (an `Option`, a `Result`, a collection,
/// another user type) does not. Types are told by name, so where a name may be another type (a
/// path through a module: `other::Node`, `own_box::Box<T>`) the answer is no: a value that
/// never ends is then the runtime's error, where a valid type refused would be one without a
/// way out.
pub(crate) fn always_holds(ty: &Type, own: &Ident) -> bool {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            let segments = &path.path.segments;
            let Some(last) = segments.last() else {
                return false;
            };
            let bare = segments.len() == 1;
            if bare && (last.ident == *own || last.ident == "Self") {
                return true;
            }
            if !standard_path(&path.path) || !HOLDING_ONE.iter().any(|name| last.ident == name) {
                return false;
            }
            let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
                return false;
            };
            arguments.args.iter().any(|argument| {
                matches!(argument, syn::GenericArgument::Type(inner) if always_holds(inner, own))
            })
        }
        Type::Tuple(tuple) => tuple.elems.iter().any(|elem| always_holds(elem, own)),
        // A length written as a number above 0; a const parameter may be 0.
        Type::Array(array) => {
            let filled = matches!(
                &array.len,
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) if n.base10_digits() != "0"
            );
            filled && always_holds(&array.elem, own)
        }
        Type::Paren(inner) => always_holds(&inner.elem, own),
        Type::Group(inner) => always_holds(&inner.elem, own),
        _ => false,
    }
}

/// Whether `ty` is an `Option` or a collection, which generates nothing inside at size 0 (`None`,
/// or empty): a recursion through it stops there.
fn stops_at_size_zero(ty: &Type) -> bool {
    const STOPPING: &[&str] = &[
        "Option",
        "Vec",
        "VecDeque",
        "LinkedList",
        "BinaryHeap",
        "HashMap",
        "BTreeMap",
        "HashSet",
        "BTreeSet",
    ];
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .is_some_and(|segment| STOPPING.iter().any(|name| segment.ident == name)),
        Type::Paren(inner) => stops_at_size_zero(&inner.elem),
        Type::Group(inner) => stops_at_size_zero(&inner.elem),
        _ => false,
    }
}

/// How many times `ty` names a user type (this one, `own`, or another that may lead back to
/// it): a field holding several (a `Box<(Tree, Tree)>`) divides its size among them.
pub(crate) fn recursive_mentions(ty: &Type, own: &Ident, params: &HashSet<Ident>) -> usize {
    named_types(ty, own, params)
        .into_iter()
        .filter(|&reach| reach != Reach::Direct)
        .count()
}

/// Classifies `ty` for a type named `own` with type parameters `params`.
pub(crate) fn reach(ty: &Type, own: &Ident, params: &HashSet<Ident>) -> Reach {
    named_types(ty, own, params)
        .into_iter()
        .max()
        .unwrap_or(Reach::Direct)
}

/// How each type `ty` names (a path's last segment, its generic arguments' types, not an
/// array's length nor what a `PhantomData` names) is reached, for a type named `own` with type
/// parameters `params`.
fn named_types(ty: &Type, own: &Ident, params: &HashSet<Ident>) -> Vec<Reach> {
    struct Names<'a> {
        own: &'a Ident,
        params: &'a HashSet<Ident>,
        found: Vec<Reach>,
    }
    impl<'ast> Visit<'ast> for Names<'_> {
        fn visit_path(&mut self, path: &'ast syn::Path) {
            // The type's name is the last segment's: the ones before it (`crate`, `self`,
            // `super`, a module's name) are not types.
            if let Some(name) = path.segments.last().map(|segment| &segment.ident) {
                self.found.push(if name == self.own || name == "Self" {
                    Reach::OwnType
                } else if names_standard(path, name, self.params) {
                    Reach::Direct
                } else {
                    Reach::OtherType
                });
            }
            visit_arguments(self, path);
        }

        fn visit_type_array(&mut self, array: &'ast syn::TypeArray) {
            self.visit_type(&array.elem);
        }
    }
    let mut names = Names {
        own,
        params,
        found: Vec::new(),
    };
    names.visit_type(ty);
    names.found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(ty: &str) -> (Reach, usize) {
        let ty: Type = syn::parse_str(ty).expect("a type");
        let own: Ident = syn::parse_str("Tree").expect("a name");
        let params: HashSet<Ident> = [syn::parse_str("T").expect("a name")].into();
        (
            reach(&ty, &own, &params),
            recursive_mentions(&ty, &own, &params),
        )
    }

    /// A path's last segment names its type; modules before it are not types; a known name
    /// is the standard type only bare or through `std`, `core` or `alloc`; an array's length
    /// is not a type.
    #[test]
    fn only_a_path_s_last_segment_names_its_type() {
        let cases = [
            ("Box<Tree>", Reach::OwnType, 1),
            ("Box<crate::Tree>", Reach::OwnType, 1),
            ("Box<self::Tree>", Reach::OwnType, 1),
            ("std::boxed::Box<super::Tree>", Reach::OwnType, 1),
            ("Vec<(Tree, Tree)>", Reach::OwnType, 2),
            ("::std::collections::BTreeMap<u8, T>", Reach::Direct, 0),
            ("core::num::NonZeroU8", Reach::Direct, 0),
            ("[u8; LENGTH]", Reach::Direct, 0),
            ("[Tree; 2]", Reach::OwnType, 1),
            ("Color", Reach::OtherType, 1),
            ("paint::Color", Reach::OtherType, 1),
            // A user type of a standard type's name, in a module of the user's.
            ("ast::Option", Reach::OtherType, 1),
            ("std::marker::PhantomData<Tree>", Reach::Direct, 0),
            ("std::net::SocketAddr", Reach::Direct, 0),
            ("PathBuf", Reach::Direct, 0),
            ("Cow<'static, [Tree]>", Reach::OwnType, 1),
            ("std::collections::LinkedList<T>", Reach::Direct, 0),
        ];
        for (ty, reach, mentions) in cases {
            assert_eq!(classify(ty), (reach, mentions), "{ty}");
        }
    }
}
