//! Tuples and arrays.

use crate::combinator::pure;
use crate::combinator::repeat::{Duplicates, repeat};
use crate::generator::Gen;

/// A tuple of aligned generators, which [`tuple()`] turns into a generator of tuples.
pub trait Tuple {
    /// The tuple of the generators' values.
    type Value;

    /// The generator of tuples.
    fn into_gen(self) -> Gen<Self::Value, Self::Value>;
}

/// A generator of tuples from a tuple of generators, one per position (1 to 8 of them).
///
/// ```
/// use reflective::prelude::*;
/// let triple = tuple((bool(), range(0u8..=9), char_range('a'..='c')));
/// assert!(triple.can_generate(&(true, 3, 'b')));
/// ```
pub fn tuple<G: Tuple>(gens: G) -> Gen<G::Value, G::Value> {
    gens.into_gen()
}

/// Nests names the way repeated `zip`s nest values: `nest!((), a b c)` is `((((), a), b), c)`.
macro_rules! nest {
    ($acc:pat,) => { $acc };
    ($acc:pat, $head:ident $($rest:ident)*) => { nest!(($acc, $head), $($rest)*) };
}

macro_rules! tuple_impl {
    ($($t:ident $v:ident $i:tt),+) => {
        impl<$($t: Clone + Send + Sync + 'static),+> Tuple for ($(Gen<$t, $t>,)+) {
            type Value = ($($t,)+);

            fn into_gen(self) -> Gen<Self::Value, Self::Value> {
                let ($($v,)+) = self;
                let all: Gen<Self::Value, ()> = pure(());
                $(let all = all.zip($v.focus(|t: &Self::Value| Some(&t.$i)));)+
                all.map(|nest!((), $($v)+)| ($($v,)+))
            }
        }
    };
}

tuple_impl!(A a 0);
tuple_impl!(A a 0, B b 1);
tuple_impl!(A a 0, B b 1, C c 2);
tuple_impl!(A a 0, B b 1, C c 2, D d 3);
tuple_impl!(A a 0, B b 1, C c 2, D d 3, E e 4);
tuple_impl!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5);
tuple_impl!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6);
tuple_impl!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7);

/// An array of `N` elements from `elem`.
///
/// ```
/// use reflective::prelude::*;
/// let rgb = array::<u8, 3>(int());
/// assert!(rgb.can_generate(&[255, 0, 128]));
/// ```
pub fn array<T, const N: usize>(elem: Gen<T, T>) -> Gen<[T; N], [T; N]>
where
    T: Clone + Send + Sync + 'static,
{
    repeat::<T, Duplicates>(elem, &(N..=N))
        .focus(|a: &[T; N]| Some(a.as_slice()))
        .map(|items| match <[T; N]>::try_from(items) {
            Ok(array) => array,
            Err(_) => unreachable!("the length is fixed at N"),
        })
}
