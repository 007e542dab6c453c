//! Each derived or composite type's generator, built once per thread and shared: recursive and
//! mutually recursive types reach themselves through placeholders tied to the finished
//! generators.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::combinator::lazy::knot;
use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Gen, Node, Sealed};

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
    G: Node<Input = T, Output = T> + 'static,
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
    let (placeholder, knot) = knot();
    enter(&placeholder);
    BUILDING.with(|building| {
        if let Some(building) = building.borrow_mut().as_mut() {
            building.entered.push(key);
        }
    });
    let g = build().into_gen();
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
    Held { _group: group, g }.into_gen()
}

/// A generator from the cache with the group that keeps its recursive references alive.
struct Held<T: 'static> {
    _group: Arc<Group>,
    g: Gen<T, T>,
}

impl<T: 'static> Sealed for Held<T> {}

impl<T: 'static> Node for Held<T> {
    type Input = T;
    type Output = T;

    fn forward(&self, run: &mut Forward<'_>) -> Result<T, Halt> {
        self.g.forward(run)
    }

    fn forward_many(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<T>,
    ) -> Result<(), Halt> {
        self.g.forward_many(run, count, out)
    }

    fn forward_many_spanned(
        &self,
        run: &mut Forward<'_>,
        count: usize,
        out: &mut Vec<T>,
    ) -> Result<bool, Halt> {
        self.g.forward_many_spanned(run, count, out)
    }

    fn is_constant(&self) -> bool {
        self.g.is_constant()
    }

    fn batches(&self) -> bool {
        self.g.batches()
    }

    fn ignores_share(&self) -> bool {
        self.g.ignores_share()
    }

    fn backward(&self, b: &T, run: &mut Backward, limit: usize) -> Reflected<T> {
        self.g.backward(b, run, limit)
    }
}
