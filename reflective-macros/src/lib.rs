//! `#[derive(Reflective)]` for [`reflective`](https://docs.rs/reflective): reflective
//! generators, optics (prisms and lenses) and a type-directed shrinker for structs and enums.
//!
//! Use it through `reflective`, which re-exports it:
//!
//! ```ignore
//! use reflective::Reflective;
//!
//! #[derive(Clone, Debug, PartialEq, Reflective)]
//! enum Tree {
//!     Leaf,
//!     #[reflective(weight = 3)]
//!     Node(Box<Tree>, i64, Box<Tree>),
//! }
//! ```
//!
//! The front end (`internals`) reads the input and its attributes and gathers every error with
//! its span; the back end (`expand`) writes the code. On errors the macro emits them all,
//! plus a stub implementation so that the user sees these errors and not a cascade.

mod expand;
mod internals;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `reflective::Reflective`: a reflective generator (`arbitrary_reflective`), a
/// type-directed shrinker (`shrink_by_type`), and optics for hand-written generators.
///
/// Attributes, all under `#[reflective(...)]`:
///
/// | where | attribute | meaning |
/// |---|---|---|
/// | type | `crate = "path"` | where the `reflective` crate is, for re-exports |
/// | type | `bound = "T: Trait, ..."` | the `where` clause of the impl, instead of `T: Reflective` per parameter |
/// | type | `optics_prefix = "p_"` | put before the name of every optic, when they would collide with the type's own methods |
/// | type | `dimension = N` | the type's dimension (see `Reflective::dimension`), instead of the one computed from its fields |
/// | variant | `label = "name"` | the label of the variant's choice (default: its name) |
/// | variant | `weight = N` | how often the variant is generated, relative to the others (default 1) |
/// | variant | `skip` | never generate the variant; its values do not reflect |
/// | field | `with = path` | generate the field with `path()`, a `fn() -> Gen<F, F>` |
/// | field | `generator = "expr"` | generate the field with `expr`, a `Gen<F, F>` |
#[proc_macro_derive(Reflective, attributes(reflective))]
pub fn derive_reflective(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
