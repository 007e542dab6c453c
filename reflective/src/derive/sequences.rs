//! [`Reflective`] for the standard library's other ways to hold a sequence: double-ended
//! queues, linked lists, binary heaps, boxed and shared slices and strings, OS strings and C
//! strings.
//! Each is the generator of a `Vec<T>` (or of a `String`) seen through a conversion and its
//! way back, so it grows, reflects, shrinks and mutates as that one does.

use std::any::Any;
use std::collections::{BinaryHeap, LinkedList, VecDeque};
use std::ffi::{CString, OsString};
use std::sync::Arc;

use super::cache::cached;
use super::dimension::{Dimensions, Reach, Shape};
use super::reflective::{Reflective, collection_dimension, in_own_levels, visit_part};
use crate::builtin::{any_char_but, string, string_of, vec};
use crate::generator::{Gen, Generator};
use crate::interpret::type_shrink;

/// The generator of a sequence type `S` made from a `Vec<T>` by `into` and read back into one
/// by `items`.
fn from_vec<T: Reflective, S: Reflective>(
    into: fn(Vec<T>) -> S,
    items: fn(&S) -> Vec<T>,
) -> Gen<S, S> {
    in_own_levels(
        vec(T::arbitrary_reflective(), ..)
            .map(into)
            .comap(move |sequence: &S| Some(items(sequence)))
            .boxed(),
    )
}

/// The type-directed shrinks of `sequence`: those of its items as a `Vec<T>`.
fn shrinks_as_vec<T: Reflective, S>(
    sequence: &S,
    into: fn(Vec<T>) -> S,
    items: fn(&S) -> Vec<T>,
) -> Vec<S> {
    type_shrink::sequence(&items(sequence), T::shrink_candidates)
        .into_iter()
        .map(into)
        .collect()
}

/// The generator of a text type `S` made from a `String` by `into`, whose text `text` reads back
/// (none for a value that is not Unicode, which does not reflect).
fn from_string<S: Reflective>(into: fn(String) -> S, text: fn(&S) -> Option<&str>) -> Gen<S, S> {
    in_own_levels(
        string()
            .map(into)
            .comap(move |value: &S| text(value).map(String::from))
            .boxed(),
    )
}

/// The shrinks of `text` as a `String`'s, made into values by `into`; none if there is no
/// text (a path or an OS string that is not Unicode).
pub(super) fn text_shrinks<S>(text: Option<&str>, into: fn(String) -> S) -> Vec<S> {
    text.map(|text| {
        text.to_string()
            .shrink_candidates()
            .into_iter()
            .map(into)
            .collect()
    })
    .unwrap_or_default()
}

/// The impls for sequence types made from and read into a `Vec<T>`.
macro_rules! sequence {
    ($($(#[$doc:meta])* $sequence:ty where [$($bound:tt)*], $into:expr, $items:expr;)*) => {$(
        $(#[$doc])*
        impl<T: Reflective $($bound)*> Reflective for $sequence {
            collection_dimension!(T);

            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| from_vec::<T, Self>($into, $items))
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                shrinks_as_vec(self, $into, $items)
            }

            fn visit_parts(&self, visit: &mut dyn FnMut(&dyn Any) -> bool) {
                self.iter().for_each(|item| visit_part(item, visit));
            }
        }
    )*};
}

sequence! {
    /// The elements as a `Vec<T>` has them, front to back.
    VecDeque<T> where [], VecDeque::from, |deque| Vec::from(deque.clone());
    /// The elements as a `Vec<T>` has them, front to back.
    LinkedList<T> where [], |items| items.into_iter().collect(), |list| list.iter().cloned().collect();
    /// A `Vec<T>` made into a heap. A heap reads back as its elements in the heap's own order,
    /// which makes the same heap again, so any heap reflects.
    BinaryHeap<T> where [+ Ord], BinaryHeap::from, |heap| heap.clone().into_vec();
    /// The elements as a `Vec<T>` has them.
    Box<[T]> where [], Vec::into_boxed_slice, |items| items.to_vec();
    /// The elements as a `Vec<T>` has them.
    Arc<[T]> where [], Arc::from, |items| items.to_vec();
}

/// The impls for text types made from a `String` and read as a `str`.
macro_rules! text {
    ($($(#[$doc:meta])* $text:ty, $into:expr, $read:expr;)*) => {$(
        $(#[$doc])*
        impl Reflective for $text {
            collection_dimension!(char);

            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| from_string::<Self>($into, $read))
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                let read: fn(&Self) -> Option<&str> = $read;
                text_shrinks(read(self), $into)
            }
        }
    )*};
}

text! {
    /// The characters of a `String`.
    Box<str>, String::into_boxed_str, |text| Some(&**text);
    /// The characters of a `String`.
    Arc<str>, Arc::from, |text| Some(&**text);
    /// The characters of a `String`. Any `OsString` that is Unicode reflects; one that is not
    /// (on Unix, any bytes) does not.
    OsString, OsString::from, |text| text.to_str();
}

/// The characters of a `String` but `'\0'`, which a C string cannot hold. A `CString` that is
/// UTF-8 reflects; one that is not does not.
///
/// ```
/// use reflective::prelude::*;
/// use std::ffi::CString;
/// let names = CString::arbitrary_reflective();
/// assert!(names.can_generate(&CString::new("héllo").unwrap()));
/// assert!(!names.can_generate(&CString::new(vec![0xff]).unwrap()));
/// ```
impl Reflective for CString {
    collection_dimension!(char);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            in_own_levels(
                string_of(any_char_but('\0'), ..)
                    .map(|text| CString::new(text).expect("no character is NUL"))
                    .comap(|c: &CString| c.to_str().ok().map(String::from))
                    .boxed(),
            )
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        let Ok(text) = self.to_str() else {
            return Vec::new();
        };
        text.to_string()
            .shrink_candidates()
            .into_iter()
            .filter_map(|text| CString::new(text).ok())
            .collect()
    }
}
