//! What the code `#[derive(Reflective)]` writes reaches: not part of the public API.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::arbitrary::Reflective;
pub use crate::combinator::{pick, pure};
pub use crate::dimension::{Dimensions, Reach, Shape};
pub use crate::generator::{Gen, Generator};
pub use std::any::Any as AnyValue;
pub use std::any::TypeId;
pub use std::vec::Vec;

/// A generator in the cache: the generator, and the group of generators built with it (absent
/// while the group is still being built).
struct Entry {
    g: Box<dyn Any>,
    group: Option<Arc<Group>>,
}

/// The generators built by one outermost call of [`cached`], which refer to each other through
/// weak placeholders, and the earlier groups they use. Whoever holds the group keeps them all
/// alive; nothing in a group refers to a group built after it, so there is no cycle.
struct Group {
    _generators: Vec<Box<dyn Any + Send + Sync>>,
    _uses: Vec<Arc<Group>>,
}

/// What the outermost call of [`cached`] gathers while generators are being built.
#[derive(Default)]
struct Building {
    generators: Vec<Box<dyn Any + Send + Sync>>,
    uses: Vec<Arc<Group>>,
    /// Every type given an entry during the build, to remove again if it panics.
    entered: Vec<TypeId>,
}

thread_local! {
    /// Each derived or composite type's generator, built once per thread.
    static GENERATORS: RefCell<HashMap<TypeId, Entry>> = RefCell::new(HashMap::new());
    /// The build in progress, if any.
    static BUILDING: RefCell<Option<Building>> = const { RefCell::new(None) };
}

/// The generator of `T`, built by `build` the first time this thread asks for it.
///
/// While `build` runs, the cache holds a placeholder for `T`, so a recursive type asking for
/// its own generator (or a mutually recursive group asking for each other's) gets the
/// placeholder, and every generator is built once. Placeholders reach the finished generators
/// weakly; the caller gets a generator that holds its whole group strongly, so it keeps
/// working after this thread's cache is gone, and nothing leaks. If `build` panics, whatever
/// it entered in the cache is removed again.
pub fn cached<T: 'static, G>(build: fn() -> G) -> Gen<T, T>
where
    G: Generator<Input = T, Output = T> + 'static,
{
    let key = TypeId::of::<T>();
    let outermost = BUILDING.with(|building| building.borrow().is_none());
    let found = GENERATORS.with(|generators| {
        generators.borrow().get(&key).map(|entry| {
            let g = entry.g.downcast_ref::<Gen<T, T>>().cloned();
            (
                g.expect("entries are keyed by their type"),
                entry.group.clone(),
            )
        })
    });
    if let Some((g, group)) = found {
        return match (outermost, group) {
            (true, Some(group)) => hold(g, group),
            (true, None) => unreachable!("outside a build every entry has its group"),
            (false, group) => {
                // Inside a build: the generator as it is, and its group kept by the new one.
                if let Some(group) = group {
                    BUILDING.with(|building| {
                        if let Some(building) = building.borrow_mut().as_mut() {
                            building.uses.push(group);
                        }
                    });
                }
                g
            }
        };
    }
    if outermost {
        BUILDING.with(|building| *building.borrow_mut() = Some(Building::default()));
    }
    let guard = UnwindGuard { outermost };
    let enter = |g: &Gen<T, T>| {
        GENERATORS.with(|generators| {
            let entry = Entry {
                g: Box::new(g.clone()),
                group: None,
            };
            generators.borrow_mut().insert(key, entry);
        });
    };
    let (placeholder, knot) = crate::combinator::lazy::knot();
    enter(&placeholder);
    BUILDING.with(|building| {
        if let Some(building) = building.borrow_mut().as_mut() {
            building.entered.push(key);
        }
    });
    let g = build().boxed();
    knot.tie(&g);
    enter(&g);
    BUILDING.with(|building| {
        if let Some(building) = building.borrow_mut().as_mut() {
            building.generators.push(Box::new(g.clone()));
        }
    });
    drop(guard);
    if !outermost {
        return g;
    }
    let building = BUILDING
        .with(|building| building.borrow_mut().take())
        .expect("the outermost call started the build");
    let group = Arc::new(Group {
        _generators: building.generators,
        _uses: building.uses,
    });
    GENERATORS.with(|generators| {
        let mut generators = generators.borrow_mut();
        for key in &building.entered {
            if let Some(entry) = generators.get_mut(key) {
                entry.group = Some(Arc::clone(&group));
            }
        }
    });
    hold(g, group)
}

/// Removes what an unfinished build entered in the cache, when `build` panics.
struct UnwindGuard {
    outermost: bool,
}

impl Drop for UnwindGuard {
    fn drop(&mut self) {
        if !self.outermost || !std::thread::panicking() {
            return;
        }
        let building = BUILDING
            .try_with(|building| building.borrow_mut().take())
            .ok()
            .flatten();
        if let Some(building) = building {
            let _ = GENERATORS.try_with(|generators| {
                let mut generators = generators.borrow_mut();
                for key in &building.entered {
                    generators.remove(key);
                }
            });
        }
    }
}

/// `g`, keeping `group` alive for as long as it is used.
fn hold<T: 'static>(g: Gen<T, T>, group: Arc<Group>) -> Gen<T, T> {
    Held { _group: group, g }.boxed()
}

/// A generator from the cache with the group that keeps its recursive references alive.
struct Held<T: 'static> {
    _group: Arc<Group>,
    g: Gen<T, T>,
}

impl<T: 'static> crate::generator::sealed::Sealed for Held<T> {}

impl<T: 'static> Generator for Held<T> {
    type Input = T;
    type Output = T;

    fn forward(&self, run: &mut crate::forward::Forward<'_>) -> Result<T, crate::source::Halt> {
        self.g.forward(run)
    }

    fn forward_many(
        &self,
        run: &mut crate::forward::Forward<'_>,
        count: usize,
        out: &mut Vec<T>,
    ) -> Result<(), crate::source::Halt> {
        self.g.forward_many(run, count, out)
    }

    fn backward(
        &self,
        b: &T,
        run: &mut crate::backward::Backward,
        limit: usize,
    ) -> crate::backward::Reflected<T> {
        self.g.backward(b, run, limit)
    }
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
