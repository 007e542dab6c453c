//! What the derived type-directed shrinker (the Agata thesis, section 2.3) calls: the parts of
//! a value of the same type, and room on the stack for each level of the value.

use std::any::Any;

use super::reflective::Reflective;

/// Runs one level of a derived `shrink_candidates`, on a fresh stack segment if the current one
/// runs low: the shrinker recurses once per level of the value, as deep as a long list is long.
pub fn with_stack_room<R>(level: impl FnOnce() -> R) -> R {
    crate::engine::grow_if_low(level)
}

/// The values of type `T` inside `value`, outermost first; not `value` itself, and not the
/// values of type `T` inside those (the first step of the Agata shrinker).
pub fn same_typed_parts<T: Reflective>(value: &T) -> Vec<T> {
    let mut found = Vec::new();
    value.visit_parts(&mut |part| match part.downcast_ref::<T>() {
        Some(same) => {
            found.push(same.clone());
            false
        }
        None => true,
    });
    found
}

/// A copy of a part of type `F` for the constructor field in `slot`, taken from the parts not
/// used yet (so a candidate uses each field of the original at most once), in turn as
/// `rotation` grows; marks it used. `None` if no unused part has type `F`.
pub fn take_part<F: Clone + 'static>(
    parts: &[&dyn Any],
    rotation: usize,
    slot: usize,
    used: &mut [bool],
) -> Option<F> {
    let free: Vec<usize> = (0..parts.len())
        .filter(|&i| !used[i] && parts[i].is::<F>())
        .collect();
    let chosen = *free.get((rotation + slot) % free.len().max(1))?;
    used[chosen] = true;
    parts[chosen].downcast_ref::<F>().cloned()
}
