//! What the code `#[derive(Reflective)]` writes reaches: not part of the public API.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;

pub use crate::arbitrary::{Reflective, visit_part};
pub use crate::builtin::{boxed, tuple};
pub use crate::combinator::{pick, pure, zip};
pub use crate::generator::Gen;
pub use std::any::Any as AnyValue;
pub use std::option::Option::{self, None, Some};
pub use std::vec::Vec;

thread_local! {
    /// Each derived type's generator, built once per thread.
    static GENERATORS: RefCell<HashMap<TypeId, Box<dyn Any>>> = RefCell::new(HashMap::new());
}

/// The generator of `T`, built by `build` the first time this thread asks for it.
///
/// While `build` runs, the cache holds a placeholder for `T`, so a recursive type asking for
/// its own generator (or a mutually recursive group asking for each other's) gets the
/// placeholder, and every generator is built once. The placeholder reaches the finished
/// generator weakly: no cycle, nothing leaked when the thread ends. The cache is not borrowed
/// while `build` runs.
pub fn cached<T: 'static>(build: fn() -> Gen<T, T>) -> Gen<T, T> {
    let key = TypeId::of::<T>();
    let found = GENERATORS.with(|generators| {
        generators
            .borrow()
            .get(&key)
            .and_then(|g| g.downcast_ref::<Gen<T, T>>())
            .cloned()
    });
    if let Some(g) = found {
        return g;
    }
    let store = |g: &Gen<T, T>| {
        GENERATORS.with(|generators| {
            generators.borrow_mut().insert(key, Box::new(g.clone()));
        });
    };
    let (placeholder, knot) = crate::combinator::lazy::knot();
    store(&placeholder);
    let g = build();
    knot.tie(&g);
    store(&g);
    g
}

/// `at_zero` at size 0, `otherwise` at every other size.
pub use crate::combinator::size::at_size_zero;

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
