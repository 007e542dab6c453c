//! The dimension of a type, as the Agata thesis defines it (section 2.1.3).
//!
//! Dimension classifies types by how their values nest: values of the same dimension share a
//! size budget, so that a value's total size grows linearly with its dimension.
//!
//! - A non-recursive type has the highest dimension among the types of its fields, 0 when it
//!   has none (`u8`, `bool`, `(u8, bool)`, `Option<u8>`: 0).
//! - A recursive type has one more than the highest dimension among the non-recursive fields of
//!   its own constructors and those of every type mutually recursive with it. A collection is
//!   recursive (a list is a cons cell holding the rest of the list): `Vec<u8>` and `String` have
//!   dimension 1, `Vec<Vec<u8>>` 2.
//!
//! A type that holds itself through a collection counts the collection as part of its
//! recursion: `struct Rose { children: Vec<Rose> }` has dimension 1, as the thesis' `D = MkD
//! [D]`, and `Vec<Rose>` has 2.
//!
//! Each type computes its dimension at run time from its fields' types
//! ([`Reflective::dimension`](crate::Reflective::dimension)). A type met again while its own
//! fields are being visited closes a cycle: the types between are mutually recursive, found
//! without anyone writing a dimension by hand.

use std::any::TypeId;

/// The state of one computation of a dimension: the types whose fields are being visited,
/// outermost first.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Dimensions {
    visiting: Vec<TypeId>,
}

/// What visiting a type found.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The type's dimension; or, for a type in a cycle still being closed, the highest
    /// dimension among the non-recursive fields of its part of the cycle.
    dimension: usize,
    /// The outermost type being visited that this type's fields lead back to: the type is
    /// mutually recursive with it.
    back_to: Option<usize>,
}

/// Whether a type's values nest a sequence of themselves.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A struct, an enum, a tuple, a wrapper: recursive only through its fields.
    Product,
    /// A collection: recursive by itself, as a list is.
    Collection,
}

impl Dimensions {
    /// The dimension of `T`.
    pub(crate) fn of<T: crate::Reflective>() -> usize {
        let reach = Dimensions::default().visit::<T>();
        debug_assert!(
            reach.back_to.is_none(),
            "every cycle closes at its outermost type"
        );
        reach.dimension
    }

    /// Visits the type `T` of a field.
    pub fn visit<T: crate::Reflective>(&mut self) -> Reach {
        self.visit_type(TypeId::of::<T>(), T::dimension_in)
    }

    /// Visits the type with the id `id`, whose [`Reflective::dimension_in`] is
    /// `dimension_in`. The derive calls this form: it names the field's `Reflective` impl as
    /// the generator does, so that a field whose type is not `Reflective` is one error.
    ///
    /// [`Reflective::dimension_in`]: crate::Reflective::dimension_in
    pub fn visit_type(&mut self, id: TypeId, dimension_in: fn(&mut Dimensions) -> Reach) -> Reach {
        if let Some(depth) = self.visiting.iter().position(|visiting| *visiting == id) {
            return Reach {
                dimension: 0,
                back_to: Some(depth),
            };
        }
        dimension_in(self)
    }

    /// A type without parts of other types: dimension 0.
    pub fn leaf(&mut self) -> Reach {
        self.fixed(0)
    }

    /// A type whose dimension is given, without visiting its parts.
    pub fn fixed(&mut self, dimension: usize) -> Reach {
        Reach {
            dimension,
            back_to: None,
        }
    }

    /// The type `T` of the given shape, whose fields `visit_fields` visits (calling
    /// [`Dimensions::visit`] on each field's type and returning what each found).
    pub fn node<T: 'static>(
        &mut self,
        shape: Shape,
        visit_fields: impl FnOnce(&mut Self) -> Vec<Reach>,
    ) -> Reach {
        let depth = self.visiting.len();
        self.visiting.push(TypeId::of::<T>());
        let fields = visit_fields(self);
        self.visiting.pop();
        // Recursive fields add the dimensions of their part of the cycle, the others their
        // own: both are what `dimension` holds.
        let highest = fields
            .iter()
            .map(|field| field.dimension)
            .max()
            .unwrap_or(0);
        let back_to = fields.iter().filter_map(|field| field.back_to).min();
        match back_to {
            // The cycle closes here: a recursive type. A collection closing it holds the
            // recursive type of its elements (`Vec<Rose>` holds `Rose`), one dimension above.
            Some(outermost) if outermost == depth => self.fixed(match shape {
                Shape::Product => highest + 1,
                Shape::Collection => highest + 2,
            }),
            // Part of a cycle through a type further out.
            Some(outermost) => Reach {
                dimension: highest,
                back_to: Some(outermost),
            },
            None => self.fixed(match shape {
                Shape::Product => highest,
                Shape::Collection => highest + 1,
            }),
        }
    }
}
