//! The generator language: primitives and the combinators built from them.
//!
//! | primitive | forward | backward |
//! |---|---|---|
//! | [`pure`] | yields a value | yields it, checks nothing |
//! | [`exact`] | yields a value | yields it if the value reflected on equals it |
//! | [`pick`] | asks for a branch | tries every branch, records the one taken |
//! | [`int`], [`range`] | asks for an integer | accepts the value if it is in range |
//! | [`Generator::bind`](crate::Generator::bind) | runs the left side, feeds its value on | threads values and choices |
//! | [`Generator::focus`](crate::Generator::focus), [`Generator::comap`](crate::Generator::comap) | nothing | looks at part of the value; `None` prunes |
//! | [`sized`], [`Generator::resize`](crate::Generator::resize) | reads / sets the size | the same |
//!
//! Everything else ([`Generator::map`](crate::Generator::map), [`zip`], [`frequency`], the
//! collections, ...) is built from these or is a faster node with the same meaning.
//!
//! Each combinator returns a type of its own, named here ([`Map`], [`Bind`], [`Pick`], ...).
//! They are rarely written out: hold them as `impl Generator<Input = T, Output = T>`, or erase
//! them to a [`Gen`](crate::Gen) with [`Generator::boxed`](crate::Generator::boxed).

mod bind;
mod either;
mod filter;
mod focus;
pub(crate) mod hole;
pub(crate) mod integer;
pub(crate) mod lazy;
mod map;
pub(crate) mod pick;
mod piles;
mod pure;
pub(crate) mod recursion;
pub(crate) mod repeat;
pub(crate) mod size;
pub mod strategy;
mod ways;
mod zip;

pub use bind::Bind;
pub use either::Either;
pub use filter::{Filter, FilterMap, MAX_FILTER_ATTEMPTS};
pub(crate) use filter::{backward_filtered, filter_attempt, forward_filtered};
pub use focus::{Comap, Focus, NoAnn, Part, Unboxed};
pub use integer::{Int, IntRange, Integer, int, int_in, range};
pub(crate) use integer::{inclusive_bounds, written};
pub use lazy::{At, Family, Lazy, MEMOIZED_MEMBERS, family, lazy, memoized_family, recursive};
pub use map::Map;
pub use pick::{
    Branch, BranchItem, BranchSet, IntoBranches, Pick, frequency, labeled, one_of, pick, shape,
};
pub use piles::{MAX_PILE_STEPS, Piles, piles};
pub use pure::{Exact, Pure, exact, pure};
pub use size::{Resize, Scale, SizedBy, sized};
pub use strategy::SizeStrategy;
pub(crate) use ways::counting_ways;
pub use zip::{Zip, zip};
