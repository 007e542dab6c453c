//! The generator language: primitives and the combinators built from them.
//!
//! | primitive | forward | backward |
//! |---|---|---|
//! | [`pure`] | yields a value | yields it, checks nothing |
//! | [`exact`] | yields a value | yields it if the value reflected on equals it |
//! | [`pick`] | asks for a branch | tries every branch, records the one taken |
//! | [`int`], [`range`] | asks for an integer | accepts the value if it is in range |
//! | [`Gen::bind`](crate::Gen::bind) | runs the left side, feeds its value on | threads values and choices |
//! | [`Gen::focus`](crate::Gen::focus), [`Gen::comap`](crate::Gen::comap) | nothing | looks at part of the value; `None` prunes |
//! | [`sized`], [`Gen::resize`](crate::Gen::resize) | reads / sets the size | the same |
//!
//! Everything else ([`Gen::map`](crate::Gen::map), [`zip`], [`frequency`], the collections, ...) is built from
//! these or is a faster node with the same meaning.

mod bind;
mod focus;
pub(crate) mod integer;
pub(crate) mod lazy;
mod map;
mod pick;
mod pure;
pub(crate) mod repeat;
pub(crate) mod size;
mod zip;

pub use integer::{IntRange, Integer, int, int_in, range};
pub use lazy::{lazy, recursive};
pub use pick::{frequency, labeled, one_of, pick};
pub use pure::{exact, pure};
pub use size::sized;
pub use zip::zip;
