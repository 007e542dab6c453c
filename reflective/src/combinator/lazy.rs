//! Recursion: [`lazy`], [`recursive`], [`family`] and [`memoized_family`].

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

use crate::choice::mix;
use crate::engine::{Backward, Forward, Halt, Reflected};
use crate::node::{Gen, Node, Sealed};

/// A generator built each time it runs, for recursive definitions by functions.
///
/// A generator that contains itself cannot be built eagerly; wrap the recursive call. Each use
/// builds the generator anew; [`recursive`] builds it once.
///
/// Wrap it also where a function builds a generator of a smaller size from itself, as
/// QuickCheck users write `arbitrary` (`expr(size)` calling `expr(size / 2)` twice): built
/// eagerly, that builds every branch down to size 0 before drawing anything, a tree of
/// generators exponential in the size (about 4 s to build at size 100 for an expression with
/// two binary branches). `lazy(move || expr(size / 2))` builds only the branches drawn; the
/// derive and [`recursive`] need neither.
///
/// ```
/// use reflective::prelude::*;
/// #[derive(Clone, Debug, PartialEq)]
/// enum Nat { Z, S(Box<Nat>) }
/// fn nat() -> Gen<Nat, Nat> {
///     frequency((
///         (2, exact(Nat::Z)),
///         (1, lazy(nat)
///             .focus(|n: &Nat| match n { Nat::S(m) => Some(&**m), Nat::Z => None })
///             .map(|m| Nat::S(Box::new(m)))),
///     ))
///     .boxed()
/// }
/// assert!(nat().can_generate(&Nat::S(Box::new(Nat::Z))));
/// ```
pub fn lazy<F, G>(build: F) -> Lazy<F>
where
    F: Fn() -> G + Send + Sync,
    G: Node,
{
    Lazy { build }
}

/// A recursive generator, defined in terms of itself: `define` receives the generator being
/// defined and returns its definition.
///
/// The generator is built once and refers to itself, so recursion costs nothing per level.
///
/// ```
/// use reflective::prelude::*;
/// #[derive(Clone, Debug, PartialEq)]
/// enum Nat { Z, S(Box<Nat>) }
/// let nat = recursive(|nat: Gen<Nat, Nat>| {
///     frequency((
///         (2, exact(Nat::Z)),
///         (1, nat
///             .focus(|n: &Nat| match n { Nat::S(m) => Some(&**m), Nat::Z => None })
///             .map(|m| Nat::S(Box::new(m)))),
///     ))
/// });
/// assert!(nat.can_generate(&Nat::S(Box::new(Nat::S(Box::new(Nat::Z))))));
/// ```
pub fn recursive<B, A, G>(define: impl FnOnce(Gen<B, A>) -> G) -> Gen<B, A>
where
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A> + 'static,
{
    let (itself, knot) = knot();
    let defined = define(itself).into_gen();
    knot.tie(&defined);
    defined
}

/// A generator that stands for one not built yet, and the knot that ties it to that one.
///
/// The placeholder reaches the generator it stands for through a weak pointer, so a generator
/// that contains its own placeholder is freed when dropped. A placeholder used while its
/// generator is gone (or before the knot is tied) produces nothing and reflects nothing.
pub(crate) fn knot<B: ?Sized + 'static, A: 'static>() -> (Gen<B, A>, Knot<B, A>) {
    let knot = Arc::new(OnceLock::new());
    let placeholder = Itself {
        knot: Arc::clone(&knot),
    }
    .into_gen();
    (placeholder, Knot(knot))
}

/// Ties a placeholder from [`knot`] to its generator.
pub(crate) struct Knot<B: ?Sized, A>(Arc<OnceLock<Weak<dyn Node<Input = B, Output = A>>>>);

impl<B: ?Sized, A> Knot<B, A> {
    pub(crate) fn tie(&self, to: &Gen<B, A>) {
        let _ = self.0.set(Arc::downgrade(&to.node));
    }
}

opaque_debug!(impl[F] Lazy<F>);

/// The generator [`lazy`] returns.
#[derive(Clone)]
pub struct Lazy<F> {
    build: F,
}

impl<F> Sealed for Lazy<F> {}

impl<F, G> Node for Lazy<F>
where
    F: Fn() -> G + Send + Sync,
    G: Node,
{
    type Input = G::Input;
    type Output = G::Output;

    fn forward(&self, run: &mut Forward<'_>) -> Result<G::Output, Halt> {
        run.nested(|run| (self.build)().forward(run))
    }

    fn backward(&self, b: &G::Input, run: &mut Backward, limit: usize) -> Reflected<G::Output> {
        run.nested(|run| (self.build)().backward(b, run, limit))
    }
}

/// The recursive reference inside a [`recursive`] definition.
struct Itself<B: ?Sized, A> {
    knot: Arc<OnceLock<Weak<dyn Node<Input = B, Output = A>>>>,
}

impl<B: ?Sized, A> Itself<B, A> {
    /// The definition, unless it was dropped (a handle kept past `recursive`'s return).
    fn definition(&self) -> Option<Arc<dyn Node<Input = B, Output = A>>> {
        self.knot.get().and_then(Weak::upgrade)
    }
}

impl<B: ?Sized, A> Sealed for Itself<B, A> {}

impl<B: ?Sized, A> Node for Itself<B, A> {
    type Input = B;
    type Output = A;

    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        let definition = self.definition().ok_or_else(|| {
            Halt::Failed(
                "a recursive reference ran after the generator it refers to was dropped (a \
                 `recursive` handle kept past its definition, or a derived generator used after \
                 the thread that built it ended)"
                    .to_string(),
            )
        })?;
        run.nested(|run| definition.forward(run))
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        match self.definition() {
            Some(definition) => run.nested(|run| definition.backward(b, run, limit)),
            None => Ok(Vec::new()),
        }
    }
}

/// A family of recursive generators indexed by a parameter: `define` receives the family and
/// a parameter, and returns the generator at that parameter, reaching other members through
/// [`Family::at`].
///
/// This is a recursive function returning a generator, such as the paper's `bst lo hi`,
/// written so that recursion costs no allocation: `family.at(p)` is a small handle that runs
/// `define(family, p)` when it runs, building that generator on the stack. A function that
/// returns a [`Gen`] would allocate one at every call instead.
///
/// ```
/// use reflective::combinator::Either;
/// use reflective::prelude::*;
/// // Lists of decreasing numbers below `n`: each element bounds the next.
/// let below = family(|below: &Family<u8, Vec<u8>, Vec<u8>>, n: u8| {
///     if n == 0 {
///         return Either::Left(exact(Vec::new()));
///     }
///     Either::Right(frequency((
///         (1, exact(Vec::new())),
///         (
///             3,
///             range(0..n).focus(|v: &Vec<u8>| v.first()).bind({
///                 let below = below.clone();
///                 move |x| {
///                     below
///                         .at(x)
///                         .comap(|v: &Vec<u8>| v.get(1..).map(<[u8]>::to_vec))
///                         .map(move |rest| [vec![x], rest].concat())
///                 }
///             }),
///         ),
///     )))
/// });
/// let g = below.at(10);
/// assert!(g.can_generate(&vec![7, 3, 2]));
/// assert!(!g.can_generate(&vec![3, 7]));
/// ```
pub fn family<P, B, A, G, F>(define: F) -> Family<P, B, A>
where
    P: Clone + Send + Sync + 'static,
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A>,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync + 'static,
{
    Family {
        define: Arc::new(Definition(define)),
        reaches_a_table: false,
    }
}

/// A family of recursive generators indexed by a parameter, like [`family`], whose members are
/// built once per parameter and kept: for a definition that costs more to build than to run,
/// such as a type-directed generator of terms (a member per context, type and size, each a
/// `pick` of several constructors), which would otherwise be built again at every node of
/// every value generated, reflected, shrunk or mutated.
///
/// Runs that meet a parameter for the first time build its member; later ones look it up (a
/// hash of the parameter). Each running thread uses a table of its own (the one fewest
/// running threads use, of eight, so that more than eight threads share them; a thread that
/// ends leaves its table to the next), so that threads running the same generator, as the
/// runner's parallel rounds do, neither wait for one lock nor share the members' reference
/// counts. A table holds at most [`MEMOIZED_MEMBERS`] members, the first the threads using it
/// built (the small, common parameters a run meets first); past that, a new parameter's
/// member is built each time it runs, as [`family`] builds them. So it pays most where runs come back to the same parameters, as
/// mutation, reflection and shrinking of a value do. A lookup costs more than building a
/// small generator: for a definition as cheap as a `pick` of two unboxed branches,
/// [`family`] is faster.
///
/// The definition must be a function of the parameter (up to the parameter's `Eq`): a member
/// is built once and kept, so a definition that reads anything else (a global, a field the
/// parameter's `Eq` ignores) gives members that differ from [`family`]'s. Then its members
/// make the same choices as [`family`]'s with the same definition: only the time differs.
/// They reach the family through the handle `define` is given, which does not own the family,
/// so that a family and its members are freed when the handles its user holds are dropped;
/// a generator taken out of a member and run after that fails with an error (and reflects
/// nothing). A member that
/// reached the family through a handle that owns it (a `thread_local!` family's own
/// function, called inside its definition) would keep it alive: write mutually recursive
/// families as one family over an enum of their parameters.
///
/// ```
/// use reflective::combinator::Either;
/// use reflective::prelude::*;
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// static BUILT: AtomicUsize = AtomicUsize::new(0);
/// // Lists of decreasing numbers below `n`, as in `family`'s example.
/// let below = memoized_family(|below: &Family<u8, Vec<u8>, Vec<u8>>, n: u8| {
///     BUILT.fetch_add(1, Ordering::Relaxed);
///     if n == 0 {
///         return Either::Left(exact(Vec::new()));
///     }
///     let below = below.clone();
///     Either::Right(frequency((
///         (1, exact(Vec::new())),
///         (
///             3,
///             range(0..n).focus(|v: &Vec<u8>| v.first()).bind(move |x| {
///                 below
///                     .at(x)
///                     .comap(|v: &Vec<u8>| v.get(1..).map(<[u8]>::to_vec))
///                     .map(move |rest| [vec![x], rest].concat())
///             }),
///         ),
///     )))
/// });
/// let g = below.at(10);
/// for seed in 0..100 {
///     assert!(g.sample(seed).is_sorted_by(|a, b| a > b));
/// }
/// assert!(g.can_generate(&vec![7, 3, 2]));
/// // One member for each of 0..=10, however many values were made.
/// assert!(BUILT.load(Ordering::Relaxed) <= 11);
/// ```
pub fn memoized_family<P, B, A, G, F>(define: F) -> Family<P, B, A>
where
    P: Clone + Eq + Hash + Send + Sync + 'static,
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A> + 'static,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync + 'static,
{
    let memoized = Memoized {
        define: Arc::new(define),
        tables: std::array::from_fn(|_| OnceLock::new()),
    };
    Family {
        define: Arc::new(memoized),
        reaches_a_table: false,
    }
}

/// The most members a thread's table in a [`memoized_family`] keeps.
pub const MEMOIZED_MEMBERS: usize = 8_192;

/// How many tables a [`memoized_family`] keeps its members in.
const TABLES: usize = 8;

/// How many running threads use each table.
static TABLE_USERS: [AtomicUsize; TABLES] = [const { AtomicUsize::new(0) }; TABLES];

/// A thread's table in every [`memoized_family`]: the one fewest running threads use (the
/// lowest such), given back when the thread ends, so that the threads a runner starts for
/// each round take the tables the previous round's threads filled.
struct TableIndex(usize);

impl TableIndex {
    fn take() -> TableIndex {
        let users = |index: &usize| TABLE_USERS[*index].load(Ordering::Relaxed);
        let index = (0..TABLES).min_by_key(users).unwrap_or(0);
        TABLE_USERS[index].fetch_add(1, Ordering::Relaxed);
        TableIndex(index)
    }
}

impl Drop for TableIndex {
    fn drop(&mut self) {
        TABLE_USERS[self.0].fetch_sub(1, Ordering::Relaxed);
    }
}

thread_local! {
    /// This thread's table.
    static TABLE: TableIndex = TableIndex::take();
}

/// This thread's table: table 0 while the thread's locals are being destroyed.
fn table_index() -> usize {
    TABLE.try_with(|table| table.0).unwrap_or(0)
}

/// A family of generators indexed by a parameter `P`, each reflecting on a `B` and producing
/// an `A`: see [`family`] and [`memoized_family`]. Cloning it is cheap (a shared pointer).
pub struct Family<P, B: ?Sized, A> {
    define: Arc<dyn Define<P, B, A>>,
    /// Whether it is the handle a [`memoized_family`] gives its definition, which reaches one
    /// table of members: only then may an [`At`] keep the member it finds.
    reaches_a_table: bool,
}

opaque_debug!(impl[P, B: ?Sized, A] Family<P, B, A>);

impl<P, B: ?Sized, A> Clone for Family<P, B, A> {
    fn clone(&self) -> Self {
        Family {
            define: Arc::clone(&self.define),
            reaches_a_table: self.reaches_a_table,
        }
    }
}

impl<P: Clone, B: ?Sized, A> Family<P, B, A> {
    /// The member of the family at `param`.
    #[inline]
    pub fn at(&self, param: P) -> At<P, B, A> {
        At {
            family: self.clone(),
            param,
            kept: OnceLock::new(),
        }
    }
}

/// A family's definition, with the type of its generators erased.
trait Define<P, B: ?Sized, A>: Send + Sync {
    fn forward(
        &self,
        family: &Family<P, B, A>,
        param: &P,
        run: &mut Forward<'_>,
    ) -> Result<A, Halt>;

    fn backward(
        &self,
        family: &Family<P, B, A>,
        param: &P,
        b: &B,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<A>;

    /// For a family whose members are kept in a table its handle reaches (a handle a
    /// [`memoized_family`] gives its definition): the member at `param`, and whether the
    /// table keeps it, for an [`At`] to keep and run again without looking it up.
    fn lookup(&self, _param: &P) -> Option<(Gen<B, A>, bool)> {
        None
    }
}

/// A member a [`memoized_family`]'s table keeps, reached without owning it (see [`At`]).
type Kept<B, A> = Weak<dyn Node<Input = B, Output = A>>;

struct Definition<F>(F);

impl<P, B, A, G, F> Define<P, B, A> for Definition<F>
where
    P: Clone,
    B: ?Sized,
    G: Node<Input = B, Output = A>,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync,
{
    fn forward(
        &self,
        family: &Family<P, B, A>,
        param: &P,
        run: &mut Forward<'_>,
    ) -> Result<A, Halt> {
        (self.0)(family, param.clone()).forward(run)
    }

    fn backward(
        &self,
        family: &Family<P, B, A>,
        param: &P,
        b: &B,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<A> {
        (self.0)(family, param.clone()).backward(b, run, limit)
    }
}

/// The hash of a [`memoized_family`]'s parameters, looked up at every run of a member: the
/// choices' fingerprint's keyless step ([`mix`]) per word, several times faster than the
/// standard library's SipHash on parameters of many small parts (a context of types).
/// Parameters come from the program, not from an adversary, so SipHash's resistance to
/// chosen collisions buys nothing here.
struct ParamHasher(u64);

impl Default for ParamHasher {
    /// A state that words of zeros change too (a product with 0 would stay 0).
    fn default() -> Self {
        ParamHasher(0x243f_6a88_85a3_08d3)
    }
}

impl Hasher for ParamHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = mix(self.0, word);
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        self.write_u64(u64::from(byte));
    }

    #[inline]
    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }

    #[inline]
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The definition of a [`memoized_family`] as its members reach it: without owning it, so
/// that the family and its members (which hold handles to the family) are freed when the
/// handles its users hold are dropped.
struct Unowned<D>(Weak<D>);

impl<P, B: ?Sized, A, D: Define<P, B, A>> Define<P, B, A> for Unowned<D> {
    fn forward(
        &self,
        family: &Family<P, B, A>,
        param: &P,
        run: &mut Forward<'_>,
    ) -> Result<A, Halt> {
        match self.0.upgrade() {
            Some(define) => define.forward(family, param, run),
            None => Err(Halt::Failed(
                "a member of a memoized family ran after the family was dropped (a generator \
                 taken out of a member and kept past the family)"
                    .to_string(),
            )),
        }
    }

    fn backward(
        &self,
        family: &Family<P, B, A>,
        param: &P,
        b: &B,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<A> {
        // As a recursive reference whose generator is gone: nothing reflects.
        self.0.upgrade().map_or(Ok(Vec::new()), |define| {
            define.backward(family, param, b, run, limit)
        })
    }

    fn lookup(&self, param: &P) -> Option<(Gen<B, A>, bool)> {
        self.0.upgrade()?.lookup(param)
    }
}

/// A [`memoized_family`]'s members at their parameters.
type Members<P, B, A> = HashMap<P, Gen<B, A>, BuildHasherDefault<ParamHasher>>;

/// A [`memoized_family`]: its definition, and a table of members per thread (made when a
/// thread first runs the family).
struct Memoized<P, B: ?Sized, A, F> {
    define: Arc<F>,
    tables: [TableSlot<P, B, A, F>; TABLES],
}

/// A table of a [`memoized_family`], made when a thread first needs it.
type TableSlot<P, B, A, F> = OnceLock<Arc<Table<P, B, A, F>>>;

/// One of a [`memoized_family`]'s tables: the members the threads that use it built. It is
/// its own allocation, aligned to 128 bytes, and its members reach it (not the family) through
/// their handles: threads on different tables share no lock, no reference count and no cache
/// line.
#[repr(align(128))]
struct Table<P, B: ?Sized, A, F> {
    define: Arc<F>,
    members: Mutex<Members<P, B, A>>,
    /// Itself, for the handles its members are built with (see [`Unowned`]).
    itself: Weak<Self>,
}

impl<P, B, A, G, F> Memoized<P, B, A, F>
where
    P: Clone + Eq + Hash + Send + Sync + 'static,
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A> + 'static,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync + 'static,
{
    /// This thread's table.
    fn table(&self) -> &Table<P, B, A, F> {
        self.tables[table_index()].get_or_init(|| {
            Arc::new_cyclic(|itself| Table {
                define: Arc::clone(&self.define),
                members: Mutex::default(),
                itself: itself.clone(),
            })
        })
    }
}

impl<P, B, A, G, F> Table<P, B, A, F>
where
    P: Clone + Eq + Hash + Send + Sync + 'static,
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A> + 'static,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync + 'static,
{
    /// The member at `param`: the one kept, or one built now (and kept, if the table has
    /// room). The lock is not held while the member is built, so a definition may reach the
    /// family, which it is given as a handle that does not own it; nor while a member another
    /// run kept first is dropped, which may run a user's `Drop`.
    fn member(&self, param: &P) -> Gen<B, A> {
        self.find(param).0
    }

    /// [`Table::member`], and whether the table keeps it.
    fn find(&self, param: &P) -> (Gen<B, A>, bool) {
        let lock = || self.members.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(member) = lock().get(param) {
            return (member.clone(), true);
        }
        let family = Family {
            define: Arc::new(Unowned(self.itself.clone())),
            reaches_a_table: true,
        };
        let built = (self.define)(&family, param.clone()).into_gen();
        let mut members = lock();
        if let Some(kept) = members.get(param) {
            return (kept.clone(), true);
        }
        let room = members.len() < MEMOIZED_MEMBERS;
        if room {
            members.insert(param.clone(), built.clone());
        }
        (built, room)
    }
}

impl<P, B, A, G, F> Define<P, B, A> for Table<P, B, A, F>
where
    P: Clone + Eq + Hash + Send + Sync + 'static,
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A> + 'static,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync + 'static,
{
    fn forward(
        &self,
        _family: &Family<P, B, A>,
        param: &P,
        run: &mut Forward<'_>,
    ) -> Result<A, Halt> {
        self.member(param).forward(run)
    }

    fn backward(
        &self,
        _family: &Family<P, B, A>,
        param: &P,
        b: &B,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<A> {
        self.member(param).backward(b, run, limit)
    }

    fn lookup(&self, param: &P) -> Option<(Gen<B, A>, bool)> {
        Some(self.find(param))
    }
}

impl<P, B, A, G, F> Define<P, B, A> for Memoized<P, B, A, F>
where
    P: Clone + Eq + Hash + Send + Sync + 'static,
    B: ?Sized + 'static,
    A: 'static,
    G: Node<Input = B, Output = A> + 'static,
    F: Fn(&Family<P, B, A>, P) -> G + Send + Sync + 'static,
{
    fn forward(
        &self,
        _family: &Family<P, B, A>,
        param: &P,
        run: &mut Forward<'_>,
    ) -> Result<A, Halt> {
        self.table().member(param).forward(run)
    }

    fn backward(
        &self,
        _family: &Family<P, B, A>,
        param: &P,
        b: &B,
        run: &mut Backward,
        limit: usize,
    ) -> Reflected<A> {
        self.table().member(param).backward(b, run, limit)
    }
}

/// The generator [`Family::at`] returns: one member of a family.
///
/// Inside a member of a [`memoized_family`], it keeps the member it reaches (without owning
/// it, so that members that reach each other are still freed) once a run has looked it up:
/// later runs skip the lookup, which would hash and compare the parameter each time.
pub struct At<P, B: ?Sized, A> {
    family: Family<P, B, A>,
    param: P,
    /// The member, once looked up: `None` if the family keeps none (see [`Define::lookup`]).
    kept: OnceLock<Option<Kept<B, A>>>,
}

opaque_debug!(impl[P, B: ?Sized, A] At<P, B, A>);

impl<P: Clone, B: ?Sized, A> Clone for At<P, B, A> {
    fn clone(&self) -> Self {
        self.family.at(self.param.clone())
    }
}

impl<P, B: ?Sized, A> Sealed for At<P, B, A> {}

impl<P, B, A> Node for At<P, B, A>
where
    P: Clone + Send + Sync,
    B: ?Sized,
{
    type Input = B;
    type Output = A;

    fn forward(&self, run: &mut Forward<'_>) -> Result<A, Halt> {
        run.nested(|run| match self.member() {
            Some(member) => member.forward(run),
            None => self.family.define.forward(&self.family, &self.param, run),
        })
    }

    fn backward(&self, b: &B, run: &mut Backward, limit: usize) -> Reflected<A> {
        run.nested(|run| match self.member() {
            Some(member) => member.backward(b, run, limit),
            None => self
                .family
                .define
                .backward(&self.family, &self.param, b, run, limit),
        })
    }
}

impl<P, B: ?Sized, A> At<P, B, A> {
    /// The member at the parameter, found by the lookup at the first run and kept if its table
    /// keeps it: `None` if the family keeps none, or if the member is gone with its family
    /// (the family's own run then reports it). The lookup runs outside the cell's
    /// initialisation, since building the member runs a user's definition, which may run this
    /// very generator.
    fn member(&self) -> Option<Arc<dyn Node<Input = B, Output = A>>> {
        if !self.family.reaches_a_table {
            return None;
        }
        if let Some(kept) = self.kept.get() {
            return kept.as_ref()?.upgrade();
        }
        let (member, kept) = match self.family.define.lookup(&self.param) {
            Some(found) => found,
            None => {
                let _ = self.kept.set(None);
                return None;
            }
        };
        let _ = self.kept.set(kept.then(|| Arc::downgrade(&member.node)));
        Some(member.node)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use rand_core::SeedableRng;

    use crate::combinator::{Either, range};
    use crate::generator::Generator;

    /// A memoized family of `0..=n`, counting the members it builds in `built` and holding
    /// `alive` while it lives.
    fn counted(built: &Arc<AtomicUsize>, alive: &Arc<()>) -> Family<u32, u32, u32> {
        let (built, alive) = (Arc::clone(built), Arc::clone(alive));
        memoized_family(move |_: &Family<u32, u32, u32>, n: u32| {
            let _ = &alive;
            built.fetch_add(1, Ordering::Relaxed);
            range(0..=n)
        })
    }

    /// Checks that what held `alive` (a family's definition, or its members) was freed.
    fn assert_freed(alive: &Arc<()>) {
        assert_eq!(
            Arc::strong_count(alive),
            1,
            "the family outlived its handles"
        );
    }

    #[test]
    fn a_member_is_built_once_and_the_family_is_freed_with_its_handles() {
        let (built, alive) = (Arc::new(AtomicUsize::new(0)), Arc::new(()));
        let family = counted(&built, &alive);
        let g = family.at(7);
        for seed in 0..100 {
            assert!(g.sample(seed) <= 7);
        }
        assert_eq!(built.load(Ordering::Relaxed), 1);
        drop((family, g));
        assert_freed(&alive);
    }

    /// Members that hold handles to their own family (as every recursive one does) do not
    /// keep it alive: they hold handles that do not own it.
    #[test]
    fn members_that_reach_the_family_do_not_keep_it_alive() {
        let alive = Arc::new(());
        let kept = Arc::clone(&alive);
        // 0, reached by steps down from `n` to a smaller number, each a member of its own.
        let family = memoized_family(move |below: &Family<u32, u32, u32>, n: u32| {
            let _ = &kept;
            if n == 0 {
                return Either::Left(crate::combinator::exact(0));
            }
            let below = below.clone();
            Either::Right(range(0..n).bind(move |x| below.at(x)))
        });
        let g = family.at(40);
        let values: Vec<u32> = (0..50).map(|seed| g.sample(seed)).collect();
        assert!(values.iter().all(|&v| v == 0));
        drop((family, g));
        assert_freed(&alive);
    }

    /// A member that holds a handle to itself (not inside a `bind`, which builds it at every
    /// run) is freed with its family: the handle does not own the family, nor the member.
    #[test]
    fn a_member_holding_a_handle_to_itself_is_freed() {
        let alive = Arc::new(());
        let kept = Arc::clone(&alive);
        let family = memoized_family(move |itself: &Family<u32, u32, u32>, n: u32| {
            let token = Arc::clone(&kept);
            crate::combinator::frequency((
                (
                    3,
                    crate::combinator::exact(n).map(move |x| {
                        let _ = &token;
                        x
                    }),
                ),
                (1, itself.at(n).map(|x| x + 1)),
            ))
        });
        let g = family.at(2);
        assert!((0..50).all(|seed| g.sample(seed) >= 2));
        drop((family, g));
        assert_freed(&alive);
    }

    /// A definition that panics (once) leaves the family usable.
    #[test]
    fn a_definition_that_panics_leaves_the_family_usable() {
        let first = std::sync::atomic::AtomicBool::new(true);
        let family = memoized_family(move |_: &Family<u32, u32, u32>, n: u32| {
            assert!(
                !first.swap(false, Ordering::Relaxed),
                "the first build fails"
            );
            range(0..=n)
        });
        let g = family.at(4);
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| g.sample(0)));
        assert!(panicked.is_err());
        assert!(g.sample(1) <= 4);
    }

    /// A definition may run the family while its member is built (no lock is held then: a
    /// definition that did so under the lock would never return).
    #[test]
    fn a_definition_may_run_the_family_while_it_is_built() {
        let family = memoized_family(|family: &Family<u32, u32, u32>, n: u32| {
            let below = (n > 0).then(|| family.at(n - 1).sample(u64::from(n)));
            range(below.unwrap_or(0)..=n)
        });
        assert!((0..20).all(|seed| family.at(5).sample(seed) <= 5));
    }

    /// Members that reach each other in a circle, each through an [`At`] built into it, which
    /// keeps the member it reached once it has run: the values are the plain family's, the
    /// members are freed with the family, and a member's `At` taken out and run after that is
    /// an error (it kept no member alive).
    #[test]
    fn members_that_kept_each_other_in_a_circle_run_and_are_freed() {
        fn next(
            circle: &Family<u32, u32, u32>,
            n: u32,
        ) -> impl Node<Input = u32, Output = u32> + use<> {
            crate::combinator::frequency((
                (1, crate::combinator::exact(n)),
                (2, circle.at((n + 1) % 3)),
            ))
        }
        let (alive, stolen) = (Arc::new(()), Arc::new(Mutex::new(None)));
        let (kept, thief) = (Arc::clone(&alive), Arc::clone(&stolen));
        let circle = memoized_family(move |circle: &Family<u32, u32, u32>, n: u32| {
            *thief.lock().unwrap() = Some(circle.at((n + 1) % 3));
            // Each member holds `alive`, to show it was freed.
            let alive = Arc::clone(&kept);
            next(circle, n).map(move |v| {
                let _ = &alive;
                v
            })
        });
        let plain = family(|circle: &Family<u32, u32, u32>, n: u32| next(circle, n));
        let (g, expected) = (circle.at(0), plain.at(0));
        for seed in 0..200 {
            assert_eq!(g.sample(seed), expected.sample(seed));
        }
        let taken = stolen.lock().unwrap().take().expect("the definition ran");
        assert!(taken.sample(1) < 3);
        drop((circle, g));
        assert_freed(&alive);
        let mut rng = crate::DefaultRng::seed_from_u64(1);
        let error = taken.try_generate(&mut rng, 10).unwrap_err();
        assert!(
            error.to_string().contains("after the family was dropped"),
            "{error}"
        );
    }

    /// A handle a member was built with, kept past the family, fails clearly: no panic.
    #[test]
    fn a_member_handle_kept_past_its_family_is_an_error() {
        let stolen: Arc<Mutex<Option<Family<u32, u32, u32>>>> = Arc::default();
        let thief = Arc::clone(&stolen);
        let family = memoized_family(move |family: &Family<u32, u32, u32>, n: u32| {
            *thief.lock().unwrap() = Some(family.clone());
            range(0..=n)
        });
        assert!(family.at(3).sample(1) <= 3);
        drop(family);
        let handle = stolen.lock().unwrap().take().expect("the definition ran");
        let mut rng = crate::DefaultRng::seed_from_u64(1);
        let error = handle.at(3).try_generate(&mut rng, 10).unwrap_err();
        assert!(
            error.to_string().contains("after the family was dropped"),
            "{error}"
        );
        assert!(!handle.at(3).can_generate(&2));
    }

    #[test]
    fn past_its_room_a_table_builds_new_members_each_time_and_they_still_generate() {
        let (built, alive) = (Arc::new(AtomicUsize::new(0)), Arc::new(()));
        let family = counted(&built, &alive);
        let extra = 10;
        let params = MEMOIZED_MEMBERS as u32 + extra;
        for round in 0..2 {
            for n in 0..params {
                assert!(family.at(n).sample(u64::from(n)) <= n);
            }
            let expected = params as usize + round * extra as usize;
            assert_eq!(built.load(Ordering::Relaxed), expected, "round {round}");
        }
    }

    /// Threads running one family make the same values, each table building a member once
    /// (threads share a table only beyond eight, or when others took the tables between).
    #[test]
    fn threads_running_one_family_make_the_same_values() {
        let (built, alive) = (Arc::new(AtomicUsize::new(0)), Arc::new(()));
        let family = counted(&built, &alive);
        let g = family.at(1_000);
        let values = |g: &At<u32, u32, u32>| (0..100).map(|seed| g.sample(seed)).collect();
        let here: Vec<u32> = values(&g);
        let there: Vec<Vec<u32>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..3).map(|_| scope.spawn(|| values(&g))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(there.iter().all(|values| *values == here));
        let members = built.load(Ordering::Relaxed);
        assert!(
            (1..=4).contains(&members),
            "{members} members built by 4 threads"
        );
    }
}
