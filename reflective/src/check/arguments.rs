//! The arguments of a property with their names, so that a report prints `xs = [0]` and
//! `k = 0` on lines of their own rather than a tuple: what `#[reflective::property]`
//! generates.

use std::fmt;

use super::report::readable;
use crate::generator::{Gen, Generator};

/// A property's argument values (a tuple, one element per argument) with the arguments' names.
/// Its `Debug` prints each as `name = value`, one argument a line; `{:#?}` spreads a long
/// value over lines of its own, as a report does.
///
/// ```
/// use reflective::check::Arguments;
/// let args = Arguments::new(&["xs", "k"], (vec![0u8], 3u8));
/// assert_eq!(format!("{args:?}"), "xs = [0]\nk = 3");
/// assert_eq!(format!("{args:#?}"), "xs = [0]\nk = 3");
/// let long = Arguments::new(&["xs"], (vec![1_000_000u32; 12],));
/// assert!(format!("{long:#?}").starts_with("xs = [\n    1000000,\n"));
/// ```
#[derive(Clone, PartialEq)]
pub struct Arguments<T> {
    names: &'static [&'static str],
    values: T,
}

impl<T> Arguments<T> {
    /// The values `values` of the arguments named `names`, in order.
    pub fn new(names: &'static [&'static str], values: T) -> Self {
        Arguments { names, values }
    }

    /// The values.
    pub fn values(&self) -> &T {
        &self.values
    }

    /// The names; empty for arguments read back from a regressions file.
    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }
}

/// `g`'s tuples as [`Arguments`] named `names`: reflects on the values, whatever the names.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::check::arguments;
/// let g = arguments(&["n", "flag"], tuple((range(0u8..=9), bool())));
/// let args = g.sample(1);
/// assert!(g.can_generate(&args));
/// assert!(format!("{args:?}").starts_with("n = "));
/// ```
pub fn arguments<T>(
    names: &'static [&'static str],
    g: impl Generator<Input = T, Output = T> + 'static,
) -> Gen<Arguments<T>, Arguments<T>>
where
    T: Send + Sync + 'static,
{
    g.focus(|args: &Arguments<T>| Some(&args.values))
        .map(move |values| Arguments::new(names, values))
        .boxed()
}

/// The values of `g` as the [`Arguments`] of a one-argument property named `names` (one name),
/// forward only: `g` may reflect on another type than it produces, as the runner runs it
/// forward (replaying choices to shrink). [`arguments`] reflects, for regressions stored as
/// values.
pub fn one_argument<G>(
    names: &'static [&'static str],
    g: G,
) -> Gen<G::Input, Arguments<(G::Output,)>>
where
    G: Generator + 'static,
    G::Input: 'static,
    G::Output: 'static,
{
    g.map(move |value| Arguments::new(names, (value,))).boxed()
}

/// `g` as a generator that reflects on the type it produces by reflecting nothing: one
/// argument of a property with several, whose generator may reflect on another type than it
/// gives, as the runner runs the arguments forward (replaying choices to shrink). Arguments
/// stored as values need their generators' reflection, and do not go through it.
///
/// ```
/// use reflective::prelude::*;
/// use reflective::check::{arguments, forward_argument};
/// let tens = forward_argument(range(0u8..=9).map(|x| u32::from(x) * 10).boxed());
/// let g = arguments(&["x", "flag"], tuple((tens, bool())));
/// assert!(g.sample(3).values().0 % 10 == 0);
/// ```
pub fn forward_argument<X, T>(g: Gen<X, T>) -> Gen<T, T>
where
    X: 'static,
    T: 'static,
{
    g.comap(|_: &T| None::<X>).boxed()
}

/// Writes `name = value` for each value, one argument a line: each value on one line
/// (`{:?}`), or, as the formatter asks (`{:#?}`), as the report shows a value.
fn write_named(
    f: &mut fmt::Formatter<'_>,
    names: &[&str],
    values: &[&dyn fmt::Debug],
) -> fmt::Result {
    for (index, value) in values.iter().enumerate() {
        if index > 0 {
            f.write_str("\n")?;
        }
        match names.get(index) {
            Some(name) => write!(f, "{name} = ")?,
            None => write!(f, "argument {} = ", index + 1)?,
        }
        if f.alternate() {
            f.write_str(&readable(value))?;
        } else {
            write!(f, "{value:?}")?;
        }
    }
    Ok(())
}

macro_rules! tuple_arguments {
    ($($t:ident $i:tt),+) => {
        impl<$($t: fmt::Debug),+> fmt::Debug for Arguments<($($t,)+)> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_named(f, self.names, &[$(&self.values.$i),+])
            }
        }
    };
}

tuple_arguments!(A 0);
tuple_arguments!(A 0, B 1);
tuple_arguments!(A 0, B 1, C 2);
tuple_arguments!(A 0, B 1, C 2, D 3);
tuple_arguments!(A 0, B 1, C 2, D 3, E 4);
tuple_arguments!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple_arguments!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_arguments!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple_arguments!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple_arguments!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple_arguments!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple_arguments!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

/// Stored as the values alone: the one value of a one-argument property, else the tuple.
#[cfg(feature = "serde")]
mod stored {
    use super::Arguments;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl<A: Serialize> Serialize for Arguments<(A,)> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.values.0.serialize(serializer)
        }
    }

    impl<'de, A: Deserialize<'de>> Deserialize<'de> for Arguments<(A,)> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            A::deserialize(deserializer).map(|value| Arguments::new(&[], (value,)))
        }
    }

    macro_rules! stored_tuple {
        ($($t:ident),+) => {
            impl<$($t: Serialize),+> Serialize for Arguments<($($t,)+)> {
                fn serialize<Out: Serializer>(
                    &self,
                    serializer: Out,
                ) -> Result<Out::Ok, Out::Error> {
                    self.values.serialize(serializer)
                }
            }

            impl<'de, $($t: Deserialize<'de>),+> Deserialize<'de> for Arguments<($($t,)+)> {
                fn deserialize<In: Deserializer<'de>>(deserializer: In) -> Result<Self, In::Error> {
                    <($($t,)+)>::deserialize(deserializer).map(|values| Arguments::new(&[], values))
                }
            }
        };
    }

    stored_tuple!(A, B);
    stored_tuple!(A, B, C);
    stored_tuple!(A, B, C, D);
    stored_tuple!(A, B, C, D, E);
    stored_tuple!(A, B, C, D, E, F);
    stored_tuple!(A, B, C, D, E, F, G);
    stored_tuple!(A, B, C, D, E, F, G, H);
    stored_tuple!(A, B, C, D, E, F, G, H, I);
    stored_tuple!(A, B, C, D, E, F, G, H, I, J);
    stored_tuple!(A, B, C, D, E, F, G, H, I, J, K);
    stored_tuple!(A, B, C, D, E, F, G, H, I, J, K, L);
}
