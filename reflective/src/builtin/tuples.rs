//! Tuples and arrays.

use crate::combinator::pure;
use crate::combinator::repeat::{Duplicates, repeat};
use crate::generator::{Gen, Generator};

/// A tuple of aligned generators, which [`tuple()`] turns into a generator of tuples.
pub trait Tuple {
    /// The tuple of the generators' values.
    type Value;

    /// The generator of tuples.
    fn into_gen(self) -> Gen<Self::Value, Self::Value>;
}

/// A generator of tuples from a tuple of generators, one per position (1 to 12 of them).
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
    ($($t:ident $g:ident $v:ident $i:tt),+) => {
        impl<$($t, $g),+> Tuple for ($($g,)+)
        where
            $($g: Generator<Input = $t, Output = $t> + 'static,
            $t: Clone + Send + Sync + 'static,)+
        {
            type Value = ($($t,)+);

            fn into_gen(self) -> Gen<Self::Value, Self::Value> {
                let ($($v,)+) = self;
                let all = pure::<Self::Value, ()>(());
                $(let all = all.zip($v.focus(|t: &Self::Value| Some(&t.$i)));)+
                all.map(|nest!((), $($v)+)| ($($v,)+)).boxed()
            }
        }
    };
}

tuple_impl!(A GA a 0);
tuple_impl!(A GA a 0, B GB b 1);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3, E GE e 4);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3, E GE e 4, F GF f 5);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3, E GE e 4, F GF f 5, G GG g 6);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3, E GE e 4, F GF f 5, G GG g 6, H GH h 7);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3, E GE e 4, F GF f 5, G GG g 6, H GH h 7, I GI i 8);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3, E GE e 4, F GF f 5, G GG g 6, H GH h 7, I GI i 8, J GJ j 9);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3, E GE e 4, F GF f 5, G GG g 6, H GH h 7, I GI i 8, J GJ j 9, K GK k 10);
tuple_impl!(A GA a 0, B GB b 1, C GC c 2, D GD d 3, E GE e 4, F GF f 5, G GG g 6, H GH h 7, I GI i 8, J GJ j 9, K GK k 10, L GL l 11);

/// An array of `N` elements from `elem`.
///
/// ```
/// use reflective::prelude::*;
/// let rgb = array::<u8, 3>(int());
/// assert!(rgb.can_generate(&[255, 0, 128]));
/// ```
pub fn array<T, const N: usize>(
    elem: impl Generator<Input = T, Output = T> + 'static,
) -> Gen<[T; N], [T; N]>
where
    T: Clone + Send + Sync + 'static,
{
    repeat::<_, T, Duplicates>(elem, &(N..=N))
        .focus(|a: &[T; N]| Some(a.as_slice()))
        .map(|items| match <[T; N]>::try_from(items) {
            Ok(array) => array,
            Err(_) => unreachable!("the length is fixed at N"),
        })
        .boxed()
}
