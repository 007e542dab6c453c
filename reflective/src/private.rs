//! What the code `#[derive(Reflective)]` and `#[reflective::property]` write reaches: not part
//! of the public API. Only re-exports: the face the macros see of the layers below.

pub use crate::combinator::recursion::{
    forward_field, forward_node, fuelled, outermost, recursion,
};
pub use crate::combinator::size::{at_size_zero, sized};
pub use crate::combinator::{pick, pure};
pub use crate::derive::dimension::{Dimensions, Reach, Shape};
pub use crate::derive::{
    Variants, cached, direct, forward_part, forward_variant, grown, regex_attribute,
    same_typed_parts, skipped, take_part, with_stack_room,
};
pub use crate::generator::{Gen, Generator};
pub use std::any::Any as AnyValue;
pub use std::any::TypeId;
pub use std::vec::Vec;

// The test attribute's runtime.
pub use crate::builtin::tuple;
pub use crate::check::{
    Arguments, Config, arguments, check_parallel_with, check_values_with, check_with,
    forward_argument, one_argument,
};
pub use crate::check::{MAX_ENV_SIZE, SizeSchedule};
pub use crate::derive::Reflective;
pub use crate::engine::Strategy;
