//! The [`Reflective`] trait: a type's own generator and its type-directed shrinker.

use std::any::{Any, TypeId};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::Hash;

use super::cache::cached;
use super::dimension::{Dimensions, Reach, Shape};
use crate::builtin::{
    array, btree_map, btree_set, float, hash_map, hash_set, in_box, option, result, string, tuple,
    vec,
};
use crate::combinator::strategy::in_levels;
use crate::combinator::{int, pure};
use crate::generator::{Gen, Generator};
use crate::interpret::type_shrink;

/// A type with a reflective generator of its own, and a type-directed shrinker.
///
/// The generators of composite types (collections, options, boxes, tuples, derived types) are
/// built once per thread and shared, so asking for one again, as a recursive type does at
/// every level, costs a lookup.
///
/// `#[derive(Reflective)]` writes this for structs and enums; the standard types have it.
///
/// ```
/// use reflective::prelude::*;
/// let pairs = <(u8, Vec<bool>)>::arbitrary_reflective();
/// let value = pairs.sample(1);
/// assert!(pairs.can_generate(&value));
/// assert!((300u32).shrink_candidates().contains(&0));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no reflective generator: it does not implement `Reflective`",
    label = "no generator for `{Self}`",
    note = "give this field or argument its generator with `#[reflective(generator = expr)]` or `#[reflective(with = path)]`, or derive `Reflective` on `{Self}` if it is a type of this crate; a field of an enum variant that need not be generated needs none once the variant has `#[reflective(skip)]`"
)]
pub trait Reflective: Clone + Send + Sync + 'static {
    /// The generator of this type's values.
    fn arbitrary_reflective() -> Gen<Self, Self>;

    /// The candidates a type-directed shrinker tries for this value: simpler values of the same
    /// type, each strictly smaller, most aggressive first, as QuickCheck's `shrink` and
    /// `genericShrink` give them. Numbers move toward 0, collections lose and shrink elements,
    /// derived types follow the Agata thesis (section 2.3). This is the baseline the choice
    /// shrinker ([`Generator::shrink`], one simplest failing value) is measured against.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let candidates = vec![3u8, 0, 7].shrink_candidates();
    /// assert!(candidates.contains(&vec![]));
    /// assert!(candidates.contains(&vec![0, 0, 7]));
    /// ```
    fn shrink_candidates(&self) -> Vec<Self> {
        Vec::new()
    }

    /// The old name of [`shrink_candidates`](Reflective::shrink_candidates), which says
    /// better that it returns a list of candidates, not one smaller value.
    #[deprecated(
        since = "0.1.0",
        note = "renamed to `shrink_candidates`: it returns candidates"
    )]
    fn shrink_by_type(&self) -> Vec<Self> {
        self.shrink_candidates()
    }

    /// Calls `visit` on each direct part of the value, and visits the parts of each part for
    /// which it returns `true`. The derived shrinker uses it to find values of its own type
    /// inside a value.
    #[doc(hidden)]
    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        let _ = visit;
    }

    /// The type's dimension, as the Agata thesis defines it: 0 for a type without nested
    /// collections or recursion, one more for each level of nesting (see the module
    /// [`dimension`](crate::dimension) for the rules). Computed at run time from the types of
    /// the fields; mutual recursion is found by itself.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// assert_eq!(<(u8, bool)>::dimension(), 0);
    /// assert_eq!(String::dimension(), 1);
    /// assert_eq!(<Vec<Option<Vec<u8>>>>::dimension(), 2);
    /// ```
    fn dimension() -> usize
    where
        Self: Sized,
    {
        Dimensions::of_type(TypeId::of::<Self>(), Self::dimension_in)
    }

    /// Visits the type's fields for [`Reflective::dimension`]; the derive writes it.
    #[doc(hidden)]
    fn dimension_in(cx: &mut Dimensions) -> Reach
    where
        Self: Sized,
    {
        cx.leaf::<Self>()
    }
}

impl Dimensions {
    /// Visits the type `T` of a field.
    pub fn visit<T: Reflective>(&mut self) -> Reach {
        self.visit_type(TypeId::of::<T>(), T::dimension_in)
    }
}

/// The generator of `T`'s values, [`T::arbitrary_reflective()`](Reflective::arbitrary_reflective),
/// by the name proptest users know (`proptest::prelude::any`).
///
/// ```
/// use reflective::prelude::*;
/// let pairs = any::<(u8, Vec<bool>)>();
/// let value = pairs.sample(3);
/// assert!(pairs.can_generate(&value));
/// ```
pub fn any<T: Reflective>() -> Gen<T, T> {
    T::arbitrary_reflective()
}

/// The dimension of a product of the types `$part`.
macro_rules! product_dimension {
    ($($part:ty),*) => {
        fn dimension_in(cx: &mut Dimensions) -> Reach {
            cx.node::<Self>(Shape::Product, |cx| vec![$(cx.visit::<$part>()),*])
        }
    };
}

/// The dimension of a collection of the types `$part`.
macro_rules! collection_dimension {
    ($($part:ty),*) => {
        fn dimension_in(cx: &mut Dimensions) -> Reach {
            cx.node::<Self>(Shape::Collection, |cx| vec![$(cx.visit::<$part>()),*])
        }
    };
}

pub(super) use {collection_dimension, product_dimension};

/// A collection type's generator, told how many levels of collections the type holds (its
/// dimension), which [`Strategy::Partitions`](crate::Strategy::Partitions) draws from, and how
/// many levels of sequences nest at its top.
pub(super) fn in_own_levels<T: Reflective>(collection: Gen<T, T>) -> Gen<T, T> {
    in_levels(collection, T::dimension()).boxed()
}

/// Visits `part` and, if `visit` asks for it, the parts inside it.
pub(crate) fn visit_part<T: Reflective>(part: &T, visit: &mut dyn FnMut(&dyn Any) -> bool) {
    if visit(part) {
        part.visit_parts(visit);
    }
}

/// Visits the keys and values of a map.
fn visit_entries<'m, K: Reflective, V: Reflective>(
    map: impl IntoIterator<Item = (&'m K, &'m V)>,
    visit: &mut dyn FnMut(&dyn Any) -> bool,
) {
    for (key, value) in map {
        visit_part(key, visit);
        visit_part(value, visit);
    }
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Reflective for $t {
            fn arbitrary_reflective() -> Gen<Self, Self> {
                int().boxed()
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                type_shrink::integer(*self)
            }
        }
    )*};
}

integer!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

impl Reflective for bool {
    fn arbitrary_reflective() -> Gen<Self, Self> {
        crate::builtin::bool()
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        if *self { vec![false] } else { Vec::new() }
    }
}

impl Reflective for char {
    fn arbitrary_reflective() -> Gen<Self, Self> {
        crate::builtin::any_char()
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        type_shrink::character(*self)
    }
}

impl Reflective for f32 {
    fn arbitrary_reflective() -> Gen<Self, Self> {
        float()
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        type_shrink::float(f64::from(*self))
            .into_iter()
            .map(|x| x as f32)
            .collect()
    }
}

impl Reflective for f64 {
    fn arbitrary_reflective() -> Gen<Self, Self> {
        float()
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        type_shrink::float(*self)
    }
}

impl<T: ?Sized + Send + Sync + 'static> Reflective for std::marker::PhantomData<T> {
    fn arbitrary_reflective() -> Gen<Self, Self> {
        pure(std::marker::PhantomData).boxed()
    }
}

impl<T: Reflective> Reflective for std::sync::Arc<T> {
    product_dimension!(T);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            T::arbitrary_reflective()
                .focus(|shared: &std::sync::Arc<T>| Some(&**shared))
                .map(std::sync::Arc::new)
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        (**self)
            .shrink_candidates()
            .into_iter()
            .map(std::sync::Arc::new)
            .collect()
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        visit_part(&**self, visit);
    }
}

impl Reflective for () {
    fn arbitrary_reflective() -> Gen<Self, Self> {
        pure(()).boxed()
    }
}

impl Reflective for String {
    collection_dimension!(char);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| in_own_levels(string()))
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        let chars: Vec<char> = self.chars().collect();
        type_shrink::sequence(&chars, char::shrink_candidates)
            .into_iter()
            .map(String::from_iter)
            .collect()
    }
}

impl<T: Reflective> Reflective for Vec<T> {
    collection_dimension!(T);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            in_levels(vec(T::arbitrary_reflective(), ..), Self::dimension()).boxed()
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        type_shrink::sequence(self, T::shrink_candidates)
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        self.iter().for_each(|item| visit_part(item, visit));
    }
}

impl<T: Reflective> Reflective for Option<T> {
    product_dimension!(T);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| option(T::arbitrary_reflective()))
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        match self {
            None => Vec::new(),
            Some(inner) => std::iter::once(None)
                .chain(inner.shrink_candidates().into_iter().map(Some))
                .collect(),
        }
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        if let Some(inner) = self {
            visit_part(inner, visit);
        }
    }
}

impl<T: Reflective, E: Reflective> Reflective for Result<T, E> {
    product_dimension!(T, E);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| result(T::arbitrary_reflective(), E::arbitrary_reflective()))
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        match self {
            Ok(value) => value.shrink_candidates().into_iter().map(Ok).collect(),
            Err(error) => error.shrink_candidates().into_iter().map(Err).collect(),
        }
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        match self {
            Ok(value) => visit_part(value, visit),
            Err(error) => visit_part(error, visit),
        }
    }
}

impl<T: Reflective> Reflective for Box<T> {
    product_dimension!(T);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| in_box(T::arbitrary_reflective()))
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        (**self)
            .shrink_candidates()
            .into_iter()
            .map(Box::new)
            .collect()
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        visit_part(&**self, visit);
    }
}

impl<T: Reflective, const N: usize> Reflective for [T; N] {
    product_dimension!(T);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| array(T::arbitrary_reflective()))
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        type_shrink::each(self, T::shrink_candidates)
            .into_iter()
            .filter_map(|items| items.try_into().ok())
            .collect()
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        self.iter().for_each(|item| visit_part(item, visit));
    }
}

impl<T: Reflective + Ord> Reflective for BTreeSet<T> {
    collection_dimension!(T);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| in_own_levels(btree_set(T::arbitrary_reflective(), ..)))
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        let items: Vec<T> = self.iter().cloned().collect();
        type_shrink::sequence(&items, T::shrink_candidates)
            .into_iter()
            .map(BTreeSet::from_iter)
            .collect()
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        self.iter().for_each(|item| visit_part(item, visit));
    }
}

impl<T: Reflective + Hash + Eq> Reflective for HashSet<T> {
    collection_dimension!(T);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| in_own_levels(hash_set(T::arbitrary_reflective(), ..)))
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        let items: Vec<T> = self.iter().cloned().collect();
        type_shrink::sequence(&items, T::shrink_candidates)
            .into_iter()
            .map(HashSet::from_iter)
            .collect()
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        self.iter().for_each(|item| visit_part(item, visit));
    }
}

impl<K: Reflective + Ord, V: Reflective> Reflective for BTreeMap<K, V> {
    collection_dimension!(K, V);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            in_own_levels(btree_map(
                K::arbitrary_reflective(),
                V::arbitrary_reflective(),
                ..,
            ))
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        type_shrink::entries(self, <(K, V)>::shrink_candidates)
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        visit_entries(self, visit);
    }
}

impl<K: Reflective + Hash + Eq, V: Reflective> Reflective for HashMap<K, V> {
    collection_dimension!(K, V);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            in_own_levels(hash_map(
                K::arbitrary_reflective(),
                V::arbitrary_reflective(),
                ..,
            ))
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        type_shrink::entries(self, <(K, V)>::shrink_candidates)
    }

    fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
        visit_entries(self, visit);
    }
}

macro_rules! tuple_impl {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Reflective),+> Reflective for ($($t,)+) {
            product_dimension!($($t),+);

            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| tuple(($($t::arbitrary_reflective(),)+)))
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                let mut shrinks = Vec::new();
                $(
                    for part in self.$i.shrink_candidates() {
                        let mut shrunk = self.clone();
                        shrunk.$i = part;
                        shrinks.push(shrunk);
                    }
                )+
                shrinks
            }

            fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
                $(visit_part(&self.$i, visit);)+
            }
        }
    };
}

tuple_impl!(A 0);
tuple_impl!(A 0, B 1);
tuple_impl!(A 0, B 1, C 2);
tuple_impl!(A 0, B 1, C 2, D 3);
tuple_impl!(A 0, B 1, C 2, D 3, E 4);
tuple_impl!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple_impl!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_impl!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple_impl!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple_impl!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple_impl!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple_impl!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);
