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
//! [D]`. A collection is still one dimension above its elements: `Vec<Rose>` has 2 and
//! `Vec<Vec<Rose>>` 3.
//!
//! Each type computes its dimension at run time from its fields' types
//! ([`Reflective::dimension`](crate::Reflective::dimension)). The types reachable from one
//! another through their fields are mutually recursive; they are found as the strongly
//! connected components of the graph of field types (Tarjan's algorithm), visiting each type
//! once, without anyone writing a dimension by hand.

use std::any::TypeId;
use std::collections::HashMap;

/// The state of one computation of a dimension: Tarjan's algorithm over the graph of field
/// types.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Dimensions {
    /// The types whose dimension is known.
    done: HashMap<TypeId, usize>,
    /// The types visited whose group of mutually recursive types is not complete yet, in the
    /// order they were visited.
    open: Vec<Open>,
    /// Where each open type is in `open`.
    positions: HashMap<TypeId, usize>,
}

/// A type visited whose group is not complete yet.
#[derive(Debug)]
struct Open {
    id: TypeId,
    shape: Shape,
    fields: Vec<TypeId>,
}

/// What visiting a type found.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    id: TypeId,
    /// The earliest open type this type leads back to, if its group is not complete yet.
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
    /// The dimension of the type with the id `id`, whose `Reflective::dimension_in` is
    /// `dimension_in` (`Reflective::dimension` calls this).
    pub(crate) fn of_type(id: TypeId, dimension_in: fn(&mut Dimensions) -> Reach) -> usize {
        let mut cx = Dimensions::default();
        cx.visit_type(id, dimension_in);
        cx.done[&id]
    }

    /// Visits the type with the id `id`, whose `Reflective::dimension_in` is `dimension_in`.
    /// The derive calls this form: it names the field's `Reflective` impl as the generator does,
    /// so that a field whose type is not `Reflective` is one error.
    pub fn visit_type(&mut self, id: TypeId, dimension_in: fn(&mut Dimensions) -> Reach) -> Reach {
        if self.done.contains_key(&id) {
            return Reach { id, back_to: None };
        }
        if let Some(&position) = self.positions.get(&id) {
            return Reach {
                id,
                back_to: Some(position),
            };
        }
        dimension_in(self)
    }

    /// The type `T`, without parts of other types: dimension 0.
    pub fn leaf<T: 'static>(&mut self) -> Reach {
        self.fixed::<T>(0)
    }

    /// The type `T`, whose dimension is given, without visiting its parts.
    pub fn fixed<T: 'static>(&mut self, dimension: usize) -> Reach {
        let id = TypeId::of::<T>();
        self.done.insert(id, dimension);
        Reach { id, back_to: None }
    }

    /// The type `T` of the given shape, whose fields `visit_fields` visits (calling
    /// [`Dimensions::visit`] on each field's type and returning what each found).
    pub fn node<T: 'static>(
        &mut self,
        shape: Shape,
        visit_fields: impl FnOnce(&mut Self) -> Vec<Reach>,
    ) -> Reach {
        let id = TypeId::of::<T>();
        let position = self.open.len();
        self.open.push(Open {
            id,
            shape,
            fields: Vec::new(),
        });
        self.positions.insert(id, position);
        let fields = visit_fields(self);
        let back_to = fields
            .iter()
            .filter_map(|field| field.back_to)
            .min()
            .filter(|&earliest| earliest < position);
        self.open[position].fields = fields.iter().map(|field| field.id).collect();
        if back_to.is_some() {
            return Reach { id, back_to };
        }
        // Every type from here on leads back no further: they are one group, complete.
        let group = self.open.split_off(position);
        for member in &group {
            self.positions.remove(&member.id);
        }
        self.settle(&group);
        Reach { id, back_to: None }
    }

    /// Works out the dimensions of a complete group of mutually recursive types; their fields
    /// outside the group are done.
    fn settle(&mut self, group: &[Open]) {
        let inside = |id: &TypeId| group.iter().any(|member| member.id == *id);
        let recursive = group.len() > 1 || group[0].fields.iter().any(inside);
        if !recursive {
            let member = &group[0];
            let highest = self.highest(&member.fields);
            let dimension = match member.shape {
                Shape::Product => highest,
                Shape::Collection => highest + 1,
            };
            self.done.insert(member.id, dimension);
            return;
        }
        // One more than the highest field outside the group, for every product in it ...
        let outside: Vec<TypeId> = group
            .iter()
            .flat_map(|member| member.fields.iter().copied())
            .filter(|id| !inside(id))
            .collect();
        let recursive_dimension = self.highest(&outside) + 1;
        for member in group.iter().filter(|m| m.shape == Shape::Product) {
            self.done.insert(member.id, recursive_dimension);
        }
        // ... and each collection one above its elements.
        for member in group {
            self.collection_dimension(member, group);
        }
    }

    /// The dimension of `member` of `group`, a collection one above its elements.
    fn collection_dimension(&mut self, member: &Open, group: &[Open]) -> usize {
        if let Some(&dimension) = self.done.get(&member.id) {
            return dimension;
        }
        let mut highest = 0;
        for field in &member.fields {
            let dimension = match group.iter().find(|m| m.id == *field) {
                Some(element) => self.collection_dimension(element, group),
                None => self.done[field],
            };
            highest = highest.max(dimension);
        }
        self.done.insert(member.id, highest + 1);
        highest + 1
    }

    /// The highest dimension among `fields`, all done; 0 for none.
    fn highest(&self, fields: &[TypeId]) -> usize {
        fields
            .iter()
            .map(|field| self.done[field])
            .max()
            .unwrap_or(0)
    }
}
