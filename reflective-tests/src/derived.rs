//! A catalogue of types that `#[derive(Reflective)]`, for the tests of the derive
//! (`tests/derive_laws.rs`).
//!
//! Each type exercises one shape the derive must handle: unit, empty, newtype and tuple
//! structs; enums with unit, tuple and struct variants; generic types (one and two type
//! parameters, a const parameter, an explicit `bound`); recursion through `Box`, `Option`,
//! `Vec` and tuples; a group of three mutually recursive types each derived on its own; every
//! standard type the runtime knows (all integers up to `i128`/`u128`, floats, `char`,
//! `String`, arrays, `HashMap`, `HashSet`, `BTreeMap`, `BTreeSet`, `Result`, tuples, `()`);
//! and the attributes (`with`, `generator`, `weight`, `label`, `skip`, `bound`).
//!
//! Every type derives `Clone`, `Debug` and `PartialEq` besides `Reflective`, so the laws can
//! compare what generation, replay and reflection produce. [`measure`] gives any value of
//! these types a size, so the tests can bound what generation produces and check that the
//! type-directed shrinker makes values smaller.
//!
//! The last section, [`BinaryOpt`] and [`Proc`], holds types whose derived generators do not
//! terminate: see their documentation and the ignored tests in `tests/derive_laws.rs`.
//!
//! # Names
//!
//! Fields and variants with raw identifiers (`r#type`, `r#Match`) derive like any other: their
//! optics are named without the `r#` (`Token::lens_type`). Optics of different variants could
//! get the same name (the lens of field `table` of variant `From` and the builder of variant
//! `Table` are both `from_table`); the derive then reports the collision as a compile error
//! (see the UI test `variant/optic_names_collide`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::marker::PhantomData;
use std::time::Duration;

use reflective::prelude::*;

// ---------------------------------------------------------------------------------------------
// Structs without fields, newtypes, tuple structs.

/// Fields named with raw identifiers.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Token {
    /// A field named by a keyword.
    pub r#type: u8,
    /// A variant named by a keyword.
    pub r#match: Keyword,
}

/// Variants named with raw identifiers.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Keyword {
    /// A variant named like a keyword.
    r#Match(bool),
    /// Another.
    r#Loop,
}

/// A unit struct: one value, no choices.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Reflective)]
pub struct Unit;

/// An empty-braced struct, `struct Empty {}`: one value, no choices.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Empty {}

/// An empty tuple struct, `struct EmptyTuple();`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct EmptyTuple();

/// A newtype over an integer.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Meters(pub u32);

/// A tuple struct of three fields of one type (the shrinker's rebuild step must not mix them
/// up).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// A plain struct with named fields.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Point {
    /// Abscissa.
    pub x: i32,
    /// Ordinate.
    pub y: i32,
}

// ---------------------------------------------------------------------------------------------
// Standard field types.

/// Every integer type, and `bool`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Integers {
    /// `i8`.
    pub a: i8,
    /// `i16`.
    pub b: i16,
    /// `i32`.
    pub c: i32,
    /// `i64`.
    pub d: i64,
    /// `isize`.
    pub e: isize,
    /// `u8`.
    pub f: u8,
    /// `u16`.
    pub g: u16,
    /// `u32`.
    pub h: u32,
    /// `u64`.
    pub i: u64,
    /// `usize`.
    pub j: usize,
    /// `bool`.
    pub k: bool,
}

/// The 128-bit integers, whose extremes do not fit in 64 bits.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Wide {
    /// Any `i128`.
    pub signed: i128,
    /// Any `u128`, including those above `i128::MAX`.
    pub unsigned: u128,
    /// A pair of them.
    pub both: (i128, u128),
}

/// Floats of both widths, NaN and infinities included: `==` is not reflexive on these values,
/// so the tests compare them by their debug text.
#[derive(Clone, Debug, PartialEq, Reflective)]
pub struct Floats {
    /// An `f32`.
    pub single: f32,
    /// An `f64`.
    pub double: f64,
    /// Several.
    pub many: Vec<f64>,
}

/// Characters and strings.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Text {
    /// Any `char`.
    pub initial: char,
    /// Any string.
    pub name: String,
    /// Characters one by one.
    pub letters: Vec<char>,
}

/// Arrays: of integers, nested, and empty.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Arrays {
    /// Four bytes.
    pub bytes: [u8; 4],
    /// Two rows of three flags.
    pub grid: [[bool; 3]; 2],
    /// No element at all.
    pub none: [u64; 0],
}

/// Hash maps and hash sets, whose iteration order differs from run to run.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Hashed {
    /// Counts by key.
    pub counts: HashMap<u16, bool>,
    /// Distinct numbers.
    pub seen: HashSet<i16>,
}

/// Ordered maps and sets, with nested values: `BTreeMap<u8, Vec<Option<bool>>>`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Ordered {
    /// A map of vectors of options.
    pub index: BTreeMap<u8, Vec<Option<bool>>>,
    /// Distinct characters, in order.
    pub keys: BTreeSet<char>,
}

/// Deeply nested standard containers: `Vec<Option<Box<Vec<(u8, String)>>>>`.
///
/// The standard collections share their size among their elements, so this type grows
/// linearly with the size (it grew with the cube of the size when every element had the whole
/// size).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Deep {
    /// Vectors of optional boxed vectors of pairs.
    #[allow(
        clippy::type_complexity,
        reason = "spelled out on purpose: an alias would make the derive treat it as a user type"
    )]
    pub items: Vec<Option<Box<Vec<(u8, String)>>>>,
}

/// A matrix: `Vec<Vec<i8>>`, which grows with the square of the size.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Matrix {
    /// The rows, of any lengths.
    pub rows: Vec<Vec<i8>>,
}

/// `Result`, `()`, nested options and boxes.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Wrappers {
    /// A result.
    pub result: Result<u8, String>,
    /// The unit type.
    pub nothing: (),
    /// An option of an option.
    pub maybe: Option<Option<bool>>,
    /// A box in an option in a box.
    pub boxed: Box<Option<Box<i16>>>,
}

/// More standard types: durations, deques, non-zero integers, `Box<str>`, `Wrapping`,
/// `Reverse`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub struct Library {
    /// A duration.
    pub timeout: std::time::Duration,
    /// A double-ended queue.
    pub queue: std::collections::VecDeque<u8>,
    /// Non-zero integers, unsigned and signed.
    pub count: std::num::NonZeroU32,
    /// A signed one.
    pub step: std::num::NonZeroI8,
    /// A boxed string.
    pub name: Box<str>,
    /// A wrapping integer.
    pub wrapped: std::num::Wrapping<u16>,
    /// A reversed order.
    pub reversed: std::cmp::Reverse<i8>,
}

/// The standard types that name things outside the program: network addresses, paths, OS
/// strings, system times.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub struct System {
    /// An address of either version.
    pub host: std::net::IpAddr,
    /// A version 4 address.
    pub v4: std::net::Ipv4Addr,
    /// A version 6 address.
    pub v6: std::net::Ipv6Addr,
    /// A socket address of either version.
    pub listen: std::net::SocketAddr,
    /// A version 4 socket address.
    pub peer: std::net::SocketAddrV4,
    /// A version 6 socket address.
    pub peer6: std::net::SocketAddrV6,
    /// A path.
    pub path: std::path::PathBuf,
    /// An OS string.
    pub argument: std::ffi::OsString,
    /// A time.
    pub modified: std::time::SystemTime,
}

/// The ranges with one end or none, a bound and a C string.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub struct Ends {
    /// A range from a start.
    pub from: std::ops::RangeFrom<u8>,
    /// A range up to an end.
    pub to: std::ops::RangeTo<i32>,
    /// A range up to an end, included.
    pub through: std::ops::RangeToInclusive<u16>,
    /// The range of everything.
    pub all: std::ops::RangeFull,
    /// A bound.
    pub lower: std::ops::Bound<i8>,
    /// A C string.
    pub name: std::ffi::CString,
}

/// A binary heap, equal to another with the same elements (`BinaryHeap` has no `PartialEq`).
/// Its elements reflect in the heap's order, not the order drawn: its laws are checked as a
/// set's are.
#[derive(Clone, Debug, Reflective)]
pub struct Heap(pub std::collections::BinaryHeap<u8>);

impl PartialEq for Heap {
    fn eq(&self, other: &Self) -> bool {
        self.0.clone().into_sorted_vec() == other.0.clone().into_sorted_vec()
    }
}

impl Eq for Heap {}

/// More standard containers and values: lists, boxed and shared slices and strings,
/// `Cow`, ranges, orderings, `Saturating`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Containers {
    /// A linked list.
    pub list: std::collections::LinkedList<u8>,
    /// A boxed slice.
    pub boxed: Box<[i16]>,
    /// A shared slice.
    pub shared: std::sync::Arc<[bool]>,
    /// A shared string.
    pub shared_text: std::sync::Arc<str>,
    /// A string, owned or borrowed.
    pub label: std::borrow::Cow<'static, str>,
    /// Bytes, owned or borrowed.
    pub bytes: std::borrow::Cow<'static, [u8]>,
    /// A half-open range.
    pub span: std::ops::Range<u32>,
    /// A closed range.
    pub closed: std::ops::RangeInclusive<i8>,
    /// An ordering.
    pub order: std::cmp::Ordering,
    /// A saturating integer.
    pub saturating: std::num::Saturating<u8>,
}

/// A tree recursive through the sequence types other than `Vec`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Forest {
    /// A leaf.
    Leaf(u8),
    /// Trees in a boxed slice.
    Grove(Box<[Forest]>),
    /// Trees in a linked list.
    Row(std::collections::LinkedList<Forest>),
    /// Trees, owned or borrowed.
    Copse(std::borrow::Cow<'static, [Forest]>),
}

/// A tuple of twelve different types, the longest tuple the runtime knows (as std and proptest
/// implement their traits for tuples of up to twelve).
pub type Twelve = (
    u8,
    bool,
    char,
    i16,
    u32,
    String,
    Vec<u8>,
    Option<u8>,
    i64,
    u16,
    bool,
    u8,
);

/// Tuples of one, three, eight and twelve elements.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Tuples {
    /// A 1-tuple.
    pub single: (u8,),
    /// A triple of different types.
    pub triple: (bool, char, i64),
    /// An 8-tuple.
    pub eight: (u8, u8, u8, u8, u8, u8, u8, u8),
    /// The longest tuple the runtime knows, of different types.
    pub twelve: Twelve,
}

// ---------------------------------------------------------------------------------------------
// Enums.

/// An enum with unit, tuple and struct variants.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Shape {
    /// A unit variant.
    Empty,
    /// A struct variant with one field.
    Circle {
        /// The radius.
        radius: u16,
    },
    /// A struct variant with two fields of one type.
    Rect {
        /// Width.
        w: u16,
        /// Height.
        h: u16,
    },
    /// A tuple variant of a vector of pairs.
    Polygon(Vec<(i8, i8)>),
    /// A tuple variant of two fields of different types.
    Label(String, char),
}

/// An enum of unit variants only, C-like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Reflective)]
pub enum Op {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
}

/// An enum of one variant: the optics' `_ => None` arms cannot match.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Only {
    /// The only variant.
    One(u8),
}

/// Variant names that are more than one word, and acronyms, for the snake-case names of the
/// optics (`as_https_proxy`, `https_proxy_port`, `from_x_m_l`).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum HttpMethod {
    /// One word.
    Get,
    /// A struct variant named in two words.
    HttpsProxy {
        /// The host name.
        host: String,
        /// The port.
        port: u16,
    },
    /// An acronym.
    XML(String),
}

/// A generic enum of two type parameters.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Either<L, R> {
    /// A left value.
    Left(L),
    /// A right value.
    Right(R),
}

/// The variant attributes: `weight`, `label` and `skip`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Weather {
    /// Weight 5: five times as likely as `Rain`.
    #[reflective(weight = 5)]
    Sunny,
    /// Labelled `"wet"`.
    #[reflective(label = "wet")]
    Rain {
        /// Millimetres of rain.
        mm: u16,
    },
    /// Never generated, and does not reflect.
    #[reflective(skip)]
    Apocalypse,
    /// Weight 2 and labelled `"breeze"`.
    #[reflective(weight = 2, label = "breeze")]
    Wind(u8),
}

// ---------------------------------------------------------------------------------------------
// Field attributes and generics.

/// A temperature that does not implement `Reflective`: [`Readings`] generates it with
/// `with = celsius`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Celsius(pub i16);

/// The generator of [`Celsius`] for `with`: from -40 to 50 degrees.
pub fn celsius() -> impl Generator<Input = Celsius, Output = Celsius> {
    range(-40i16..=50)
        .comap(|c: &Celsius| Some(c.0))
        .map(Celsius)
}

/// The generator of even numbers for `with`.
pub fn even_u16() -> Gen<u16, u16> {
    range(0u16..=500)
        .comap(|n: &u16| n.is_multiple_of(2).then_some(n / 2))
        .map(|half| half * 2)
        .boxed()
}

/// The seconds of a duration of whole seconds, for the generator of [`Readings::elapsed`].
pub fn whole_seconds(duration: &Duration) -> Option<u64> {
    (duration.subsec_nanos() == 0).then_some(duration.as_secs())
}

/// The field attributes `with = path` and `generator = "expr"`, on fields of standard types
/// and of types that do not implement `Reflective` (`Celsius`) or whose generator the field
/// replaces (`Duration`, `PhantomData`).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Readings {
    /// A die: 1 to 6, from an expression.
    #[reflective(generator = "reflective::range(1u8..=6)")]
    pub face: u8,
    /// Even numbers, from a function.
    #[reflective(with = even_u16)]
    pub even: u16,
    /// A type without `Reflective`, from a function.
    #[reflective(with = celsius)]
    pub temperature: Celsius,
    /// A type without `Reflective`, from an expression: whole seconds up to an hour.
    #[reflective(
        generator = "reflective::range(0u64..=3600).comap(whole_seconds).map(Duration::from_secs)"
    )]
    pub elapsed: Duration,
    /// A field without attribute.
    pub plain: u8,
}

/// An enum with custom generators on its variants' fields.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Roll {
    /// One die.
    Die(#[reflective(generator = "reflective::range(1u8..=6)")] u8),
    /// Two dice, one of them any byte.
    Pair {
        /// A die.
        #[reflective(generator = "reflective::range(1u8..=6)")]
        first: u8,
        /// Any byte.
        second: u8,
    },
}

/// A generic struct of two type parameters.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Pair<A, B> {
    /// The first.
    pub first: A,
    /// The second.
    pub second: B,
}

/// A const generic: an array of `N` numbers.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Fixed<const N: usize> {
    /// The numbers.
    pub data: [u16; N],
    /// A tag.
    pub tag: bool,
}

/// A type parameter whose field needs more than `T: Reflective`: the `bound` attribute gives
/// the impl's predicates (`BTreeSet<T>` is `Reflective` only for `T: Ord`).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
#[reflective(bound = "T: Reflective + Ord")]
pub struct Index<T> {
    /// The entries.
    pub entries: BTreeSet<T>,
    /// A count.
    pub count: u8,
}

/// A type parameter only in a `PhantomData`, generated with `exact`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Tagged<T> {
    /// An id.
    pub id: u32,
    /// The marker.
    #[reflective(generator = "reflective::exact(PhantomData)")]
    pub marker: PhantomData<T>,
}

/// A struct whose fields are other derived types (each reached lazily, at half the size).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Scene {
    /// A tuple struct.
    pub background: Rgb,
    /// Enums in a vector.
    pub shapes: Vec<Shape>,
    /// A unit struct.
    pub marker: Unit,
    /// A generic enum at two user types.
    pub choice: Either<Point, Meters>,
}

// ---------------------------------------------------------------------------------------------
// Recursive types.

/// A linked list: `enum List { Nil, Cons(u8, Box<List>) }`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum List {
    /// The empty list.
    Nil,
    /// An element and the rest.
    Cons(u8, Box<List>),
}

/// Peano naturals, recursive through a single field.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Nat {
    /// Zero.
    Zero,
    /// One more.
    Succ(Box<Nat>),
}

/// A generic binary tree, tested at two instantiations.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Tree<T> {
    /// An empty tree.
    Leaf,
    /// A node: left subtree, value, right subtree.
    Node(Box<Tree<T>>, T, Box<Tree<T>>),
}

/// A rose tree: `struct Rose { label: u8, children: Vec<Rose> }`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Rose {
    /// The node's label.
    pub label: u8,
    /// Its children.
    pub children: Vec<Rose>,
}

/// A JSON-like value.
#[derive(Clone, Debug, PartialEq, Reflective)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, NaN included.
    Number(f64),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, as its entries in order.
    Object(Vec<(String, Json)>),
}

/// A struct linked to the next by `Option<Box<Self>>`.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Chain {
    /// This link's value.
    pub value: i16,
    /// The next link.
    pub next: Option<Box<Self>>,
}

/// An enum recursive through a tuple and a `Result`, with a struct variant.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Cell {
    /// An atom.
    Atom(i8),
    /// A pair of cells.
    Pair(Box<(Cell, Cell)>),
    /// A fallible cell.
    Try {
        /// The cell or an error code.
        outcome: Result<Box<Cell>, u8>,
    },
}

// ---------------------------------------------------------------------------------------------
// A group of three mutually recursive types, each derived on its own.

/// Expressions: reach statements through [`Block`].
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Expr {
    /// A literal.
    Lit(i64),
    /// A variable.
    Var(char),
    /// Negation.
    Neg(Box<Expr>),
    /// Addition.
    Add(Box<Expr>, Box<Expr>),
    /// A block as an expression.
    Block(Box<Block>),
    /// A conditional.
    If {
        /// The condition.
        cond: Box<Expr>,
        /// The block when it holds.
        then: Block,
        /// The block otherwise.
        otherwise: Option<Block>,
    },
}

/// Statements: reach expressions and blocks.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Stmt {
    /// A binding.
    Let {
        /// The name.
        name: char,
        /// The value.
        value: Expr,
    },
    /// An expression statement.
    Eval(Expr),
    /// A loop.
    While {
        /// The condition.
        cond: Expr,
        /// The body.
        body: Block,
    },
    /// Leaves the loop.
    Break,
}

/// Blocks: statements and an optional tail expression.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Block {
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// The value of the block.
    pub tail: Option<Box<Expr>>,
}

// ---------------------------------------------------------------------------------------------
// Types whose derived generators do not terminate (see the ignored tests).

/// A binary tree whose subtrees are optional: a struct, so the derived generator makes no
/// size-dependent choice, and `Option` picks `Some` three times in four at every size. Each
/// node has 1.5 children on average, so generation goes on forever with probability 8/9, at
/// every size, 0 included.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct BinaryOpt {
    /// The left subtree.
    pub left: Option<Box<BinaryOpt>>,
    /// The right subtree.
    pub right: Option<Box<BinaryOpt>>,
}

/// An atom for [`Proc`]: a derived type, so the derive cannot tell it is not recursive.
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub struct Atom(pub u8);

/// Processes whose only base case holds another derived type: no variant counts as a leaf,
/// so at size 0 the derived generator still picks `Seq` and `Par`, 5/3 children on average,
/// and goes on forever with probability 2 - √2 (about 0.59).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
pub enum Proc {
    /// A base case, through another derived type.
    Atom(Atom),
    /// Two processes in sequence.
    Seq(Box<Proc>, Box<Proc>),
    /// Three processes in parallel.
    Par(Box<Proc>, Box<Proc>, Box<Proc>),
}

// ---------------------------------------------------------------------------------------------
// Measures.

/// How big a value is: its number of parts, and the sum of the magnitudes of its leaves.
///
/// Ordered by `nodes`, then by `weight`: the type-directed shrinker must make every value
/// strictly smaller in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Measure {
    /// The number of parts: the value itself, every part of it at any depth (a `Box` counts
    /// with its content), and one per character of each string.
    pub nodes: usize,
    /// The sum of the magnitudes of the leaves, as a 256-bit number `(high, low)`. An integer
    /// `x` counts `2|x|`, plus 1 if it is negative (`0, 1, -1, 2, -2, ...` count `0, 2, 3, 4,
    /// 5, ...`: the shrinker prefers `x` to `-x`), a float twice the bits of its absolute value
    /// (NaN counts more than infinity), `true` 2, a character 0 if it is `'a'` (the simplest
    /// one) and 2 otherwise, a string its characters, a non-zero integer as its integer, a
    /// duration twice its nanoseconds.
    pub weight: (u128, u128),
}

impl Measure {
    /// Adds a leaf of magnitude `magnitude` (its absolute value), negative or not.
    fn add(&mut self, (magnitude, negative): (u128, bool)) {
        for term in [magnitude, magnitude, u128::from(negative)] {
            let (low, carry) = self.weight.1.overflowing_add(term);
            self.weight = (self.weight.0 + u128::from(carry), low);
        }
    }
}

/// The magnitude of a leaf whose type the measure knows, and whether it is negative, or
/// `None`.
fn magnitude(part: &dyn std::any::Any) -> Option<(u128, bool)> {
    macro_rules! signed {
        ($($t:ty),*) => {$(
            if let Some(&x) = part.downcast_ref::<$t>() {
                let magnitude = u128::try_from(x.unsigned_abs()).expect("fits in u128");
                return Some((magnitude, x < 0));
            }
        )*};
    }
    macro_rules! unsigned {
        ($($t:ty),*) => {$(
            if let Some(&x) = part.downcast_ref::<$t>() {
                return Some((u128::try_from(x).expect("fits in u128"), false));
            }
        )*};
    }
    signed!(i8, i16, i32, i64, i128, isize);
    unsigned!(u8, u16, u32, u64, u128, usize);
    macro_rules! non_zero {
        ($($t:ty),*) => {$(
            if let Some(x) = part.downcast_ref::<std::num::NonZero<$t>>() {
                return magnitude(&x.get());
            }
        )*};
    }
    non_zero!(
        i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
    );
    if let Some(duration) = part.downcast_ref::<std::time::Duration>() {
        return Some((duration.as_nanos(), false));
    }
    if let Some(ordering) = part.downcast_ref::<std::cmp::Ordering>() {
        let rank = match ordering {
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Greater => 2,
        };
        return Some((rank, false));
    }
    if let Some(parts) = system_parts(part) {
        return Some(parts.iter().fold((0, false), |(sum, negative), &(m, n)| {
            (sum + m, negative || n)
        }));
    }
    let simple = |c: char| u128::from(c != 'a');
    if let Some(&x) = part.downcast_ref::<bool>() {
        return Some((u128::from(x), false));
    }
    if let Some(&c) = part.downcast_ref::<char>() {
        return Some((simple(c), false));
    }
    if let Some(&x) = part.downcast_ref::<f32>() {
        return Some((u128::from(x.abs().to_bits()), false));
    }
    if let Some(&x) = part.downcast_ref::<f64>() {
        return Some((u128::from(x.abs().to_bits()), false));
    }
    if let Some(s) = text(part) {
        return Some((s.chars().map(simple).sum(), false));
    }
    None
}

/// The text of a `String`, a `Box<str>`, an `Arc<str>`, a `PathBuf`, an `OsString` or a
/// `CString`.
fn text(part: &dyn std::any::Any) -> Option<&str> {
    part.downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| part.downcast_ref::<Box<str>>().map(|s| &**s))
        .or_else(|| part.downcast_ref::<std::sync::Arc<str>>().map(|s| &**s))
        .or_else(|| part.downcast_ref::<std::path::PathBuf>()?.to_str())
        .or_else(|| part.downcast_ref::<std::ffi::OsString>()?.to_str())
        .or_else(|| part.downcast_ref::<std::ffi::CString>()?.to_str().ok())
}

/// The magnitudes of the integers an address or a time is made of (a time: its whole seconds
/// from the Unix epoch, rounded down, and the nanoseconds after them), each with whether it
/// is negative; the weight of such a leaf is theirs, summed.
fn system_parts(part: &dyn std::any::Any) -> Option<Vec<(u128, bool)>> {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
    let unsigned = |x: u128| (x, false);
    let v4 = |ip: &Ipv4Addr| ip.octets().map(|o| unsigned(o.into())).to_vec();
    let v6 = |ip: &Ipv6Addr| ip.segments().map(|s| unsigned(s.into())).to_vec();
    let socket_v4 = |a: &SocketAddrV4| {
        let mut parts = v4(a.ip());
        parts.push(unsigned(a.port().into()));
        parts
    };
    let socket_v6 = |a: &SocketAddrV6| {
        let mut parts = v6(a.ip());
        parts.extend([a.port().into(), a.flowinfo().into(), a.scope_id().into()].map(unsigned));
        parts
    };
    if let Some(ip) = part.downcast_ref::<Ipv4Addr>() {
        return Some(v4(ip));
    }
    if let Some(ip) = part.downcast_ref::<Ipv6Addr>() {
        return Some(v6(ip));
    }
    if let Some(ip) = part.downcast_ref::<IpAddr>() {
        return Some(match ip {
            IpAddr::V4(ip) => v4(ip),
            IpAddr::V6(ip) => v6(ip),
        });
    }
    if let Some(address) = part.downcast_ref::<SocketAddrV4>() {
        return Some(socket_v4(address));
    }
    if let Some(address) = part.downcast_ref::<SocketAddrV6>() {
        return Some(socket_v6(address));
    }
    if let Some(address) = part.downcast_ref::<SocketAddr>() {
        return Some(match address {
            SocketAddr::V4(address) => socket_v4(address),
            SocketAddr::V6(address) => socket_v6(address),
        });
    }
    let time = part.downcast_ref::<std::time::SystemTime>()?;
    Some(match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => vec![
            unsigned(after.as_secs().into()),
            unsigned(after.subsec_nanos().into()),
        ],
        Err(before) => {
            let before = before.duration();
            let (secs, nanos) = match before.subsec_nanos() {
                0 => (before.as_secs(), 0),
                nanos => (before.as_secs() + 1, 1_000_000_000 - nanos),
            };
            vec![(secs.into(), true), unsigned(nanos.into())]
        }
    })
}

/// The [`Measure`] of `value`, through the parts the derive lets a value visit.
pub fn measure<T: Reflective>(value: &T) -> Measure {
    let mut m = Measure {
        nodes: 1,
        weight: (0, 0),
    };
    if let Some(magnitude) = magnitude(value) {
        m.add(magnitude);
    }
    value.visit_parts(&mut |part| {
        m.nodes += 1;
        if let Some(s) = text(part) {
            m.nodes += s.chars().count();
        }
        if let Some(magnitude) = magnitude(part) {
            m.add(magnitude);
        }
        true
    });
    m
}
