//! The two engines and the choice sources they run on (the layer above the choices).
//!
//! The engines are run state, not algorithms over generators: a generator's nodes call them.
//! [`Forward`] asks a [`source`] at every choice and records the choice tree; [`Backward`]
//! carries the size and the budgets while the nodes reflect on a value and build their
//! [`Solution`]s. Both carry the size state as plain data (`sizing`), which only the
//! combinators interpret. Nothing here knows the generator trait: it sits in the layer above.
//!
//! | file | what |
//! |---|---|
//! | `source/` | choice sources: random, replay, exhaustive; integer shapes |
//! | `forward.rs` | the forward run: source, size, record |
//! | `backward.rs` | the backward run: size, budgets, solutions |
//! | `holes.rs` | the parts of a value completion generates instead of reflecting |
//! | `parts.rs` | the path to the part of a value no way produces, for errors that name it |
//! | `trace.rs` | the shared trace of one way to produce a value |
//! | `budget.rs` | the budgets and [`ReflectError`] |
//! | `sizing.rs` | [`Strategy`] and the size state carried through a run |
//! | `panics.rs` | the text of a caught panic |
//! | `stack.rs` | stack growth for deeply nested values |

mod backward;
mod budget;
mod forward;
pub(crate) mod holes;
mod panics;
pub(crate) mod parts;
mod sizing;
pub(crate) mod source;
mod stack;
mod trace;

pub use backward::{Backward, Reflected, Solution};
pub(crate) use budget::Budgets;
pub use budget::ReflectError;
pub(crate) use forward::Placement;
pub use forward::{Filtered, Forward};
pub use panics::quietly;
pub(crate) use panics::{
    caught, caught_aside, is_quiet, panic_message, panic_text, take_panic_location,
};
pub use sizing::DEFAULT_SIZE;
pub use sizing::Strategy;
pub(crate) use sizing::{LARGEST_SIZE, Share, Sizing};
pub use source::{Branches, Halt};
pub(crate) use source::{ChoiceSource, IntSite, PickSite};
pub(crate) use stack::grow_if_low;
pub use trace::Trace;
