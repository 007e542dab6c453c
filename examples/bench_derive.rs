//! The derive benchmark: generation throughput of `#[derive(Reflective)]` generators against
//! proptest, quickcheck and hand-written `rand` code, with the size of what each one generates.
//!
//! ```sh
//! cargo run --release --example bench_derive             # the full run (under a minute)
//! cargo run --release --example bench_derive -- --quick  # a tiny run (or BENCH_QUICK=1)
//! ```
//!
//! What is timed, for three types (`Order`, a struct with a `Vec`; `Tree`, a binary tree;
//! `Json`, a JSON-like syntax tree) and six generators:
//!
//! - `reflective generate_value` and `reflective generate` (which also records the choice
//!   tree): `T::arbitrary_reflective()` from `#[derive(Reflective)]`, at `DEFAULT_SIZE` (100),
//!   under the exponential size strategy: QuickCheck's size, which every element of a
//!   collection gets whole, as the peers give it. (The default linear strategy divides a
//!   collection's size among its elements, which makes `Json` about 17 times smaller; `Order`
//!   and `Tree` are the same under both.)
//! - `proptest`: `Strategy::new_tree(&mut TestRunner)` then `.current()`, the way proptest
//!   makes every test case, with its default `Config`, once with its default ChaCha RNG and
//!   once with its faster XorShift RNG (the goals use whichever is faster);
//! - `quickcheck`: `Arbitrary::arbitrary(&mut Gen)`, with `Gen::from_size_and_seed(101, _)`;
//! - `hand-written`: plain functions over `rand` with the shapes and sizes the derive gives.
//!
//! Each value is made, passed through `black_box` and dropped inside the timed loop, for every
//! library alike (proptest's value tree is dropped there too). Strategies, `Gen`s and runners
//! are built before the clock starts. Every figure is the median of interleaved runs (run 1 of
//! every generator, then run 2, ...), run `r` seeded with `SEED + r` everywhere, after a
//! warm-up. The size columns describe exactly the values timed: an untimed pass regenerates
//! them from the same seeds.
//!
//! # Matching the size distributions
//!
//! Each table reports the mean and maximum of a size measure (`Order`: items; `Tree`: `Node`s;
//! `Json`: `Json` values) and an auxiliary one (`Tree`: depth; `Json`: `char`s in strings and
//! keys), so that a speed is never read without the size it was bought at.
//!
//! - reflective (the reference): vectors and strings have a length uniform in `0..=size`.
//!   Enums pick a variant with equal weights, and at size 0 only variants without fields of
//!   the type's own kind; at the root of a recursive value at size `n`, the variants that hold
//!   the type itself weigh `n` times as much. A recursive variant's node uses one unit of the
//!   size and its fields run one after another on what is left (the derive's recursion fuel),
//!   so `Tree` makes a mean of 20.45 `Node`s at size 100 (computed exactly, printed as "the
//!   derive's exact mean"), at most 100. The hand-written, quickcheck and proptest generators
//!   below were matched to the derive's earlier distribution (fields at half the size: 3.5 `Node`s,
//!   223.5 `Json` values), which their tables still show: their values are smaller for `Tree`
//!   and larger for `Json` than the derive's, so the verdicts compare the time per unit of
//!   the size measure, not per value.
//! - quickcheck: `Vec::arbitrary` and `String::arbitrary` draw a length in `0..g.size()`, so
//!   `Gen` size 101 gives reflective's `0..=100`. quickcheck has no derive: the impls call
//!   `Arbitrary::arbitrary(g)` on every field and `bool`/`g.choose` for variants, as users
//!   write them. quickcheck 1.x cannot lower a `Gen`'s size (a new `Gen` means a new RNG), so
//!   the recursive impls pass the size down and halve it where the derive's earlier
//!   distribution did, and draw lengths with `g.choose(&LENGTHS[..=max])` (uniform;
//!   `usize::arbitrary(g) % n` draws edge values a tenth of the time, which cut `Json` to
//!   about 140 values). The shapes then have that earlier distribution exactly.
//! - proptest: `Order` uses `#[derive(Arbitrary)]`; its `Vec<u8>` gets proptest's default
//!   length range `0..100` (mean 49.5 against 50). proptest-derive cannot derive recursive
//!   types (its own docs: "We can't handle self-recursive or mutually recursive types at
//!   all"; deriving overflows the trait solver, proptest issue #172), so `Tree` and `Json`
//!   implement `Arbitrary` with `prop_recursive`, as the proptest book does. Its settings were
//!   tuned to reflective's means: `Tree` `prop_recursive(7, 13, 2)` gives 3.42 `Node`s
//!   (14 would give 3.66); `Json` `prop_recursive(7, 1120, 10)` with entries `0..=20` and
//!   strings `\PC{0,11}` (the class of `any::<String>()`, shorter: its `0..=32` characters
//!   would make three times reflective's characters per value) gives 222.7 values and 888
//!   characters (means of 20 000 values). Its string regex is compiled once:
//!   `any::<String>()` is a `&str` strategy that compiles its regex again for every string,
//!   which made `Json` about twice as slow.
//! - hand-written: the derive's shapes and sizes, with uniform integers, and characters
//!   three quarters printable ASCII, one quarter any `char` (as `any_char` splits them).
//!
//! Remaining differences. The means agree within a few percent, but proptest's branch
//! probability decays with depth, so its tails are lighter: `Tree` at most about 11 `Node`s
//! against about 60, `Json` at most about 850 values against about 2 400. The values inside
//! differ too: reflective's `int()` favours small and edge values, quickcheck draws an edge
//! value a tenth of the time, proptest and the hand-written code draw uniformly; each library
//! has its own character distribution. These change which numbers and characters are built,
//! not how many.

use std::fmt::Debug;
use std::hint::black_box;
use std::time::{Duration, Instant};

use proptest::arbitrary::any;
use proptest::collection::vec as pt_vec;
use proptest::prelude::{BoxedStrategy, Just, Strategy, prop_oneof};
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestRng, TestRunner};
use quickcheck::{Arbitrary as QcArbitrary, Gen as QcGen};
use rand::{Rng, RngExt};
use reflective::prelude::*;
use reflective_examples::measure::{median, thousands};

/// The size reflective and the hand-written generators run at: the library's default.
const SIZE: usize = DEFAULT_SIZE;
/// quickcheck's `Vec` and `String` lengths are uniform in `0..g.size()`, reflective's in
/// `0..=size`: one more gives the same lengths.
const QC_SIZE: usize = SIZE + 1;
/// The first seed; repetition `r` uses `SEED + r` for every library.
const SEED: u64 = 2_000;

/// proptest's `prop_recursive` settings for [`Tree`]: depth, desired size, expected branch
/// size (see the header for how they were chosen).
const PT_TREE: (u32, u32, u32) = (7, 13, 2);
/// proptest's `prop_recursive` settings for [`Json`], and the longest array or object.
const PT_JSON: (u32, u32, u32) = (7, 1_120, 10);
const PT_JSON_MAX_LEN: usize = 20;
/// proptest's strings in [`Json`]: `any::<String>()`'s character class, shorter.
const PT_JSON_STRING: &str = "\\PC{0,11}";

// ---------------------------------------------------------------------------------------------
// The three types. Each derives `Reflective`; `Order` also derives proptest's `Arbitrary`
// (proptest-derive rejects recursive types, so `Tree` and `Json` use `prop_recursive`, as the
// proptest book does); quickcheck has no derive, so each has the impl a user would write.
// ---------------------------------------------------------------------------------------------

/// A struct with a vector.
#[derive(Clone, Debug, PartialEq, Reflective, proptest_derive::Arbitrary)]
struct Order {
    id: u32,
    qty: u16,
    express: bool,
    items: Vec<u8>,
}

/// A binary tree with keys (the shape of a BST, keys not ordered).
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Tree {
    Leaf,
    Node(Box<Tree>, i64, Box<Tree>),
}

/// A JSON-like syntax tree.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Json {
    Null,
    Bool(bool),
    Number(i64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Tree {
    /// The number of `Node`s.
    fn nodes(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(left, _, right) => 1 + left.nodes() + right.nodes(),
        }
    }

    /// The number of `Node`s on the longest path from the root.
    fn depth(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(left, _, right) => 1 + left.depth().max(right.depth()),
        }
    }
}

impl Json {
    /// The number of `Json` values in the tree, this one included.
    fn nodes(&self) -> usize {
        1 + match self {
            Json::Array(items) => items.iter().map(Json::nodes).sum(),
            Json::Object(entries) => entries.iter().map(|(_, v)| v.nodes()).sum(),
            _ => 0,
        }
    }

    /// The number of `char`s in its strings and keys.
    fn chars(&self) -> usize {
        match self {
            Json::Str(s) => s.chars().count(),
            Json::Array(items) => items.iter().map(Json::chars).sum(),
            Json::Object(entries) => entries
                .iter()
                .map(|(k, v)| k.chars().count() + v.chars())
                .sum(),
            _ => 0,
        }
    }
}

// proptest: `Order` is derived; the recursive types follow the proptest book.

impl proptest::arbitrary::Arbitrary for Tree {
    type Parameters = ();
    type Strategy = BoxedStrategy<Tree>;

    fn arbitrary_with((): ()) -> BoxedStrategy<Tree> {
        let (depth, desired, branch) = PT_TREE;
        Just(Tree::Leaf)
            .prop_recursive(depth, desired, branch, |inner| {
                (inner.clone(), any::<i64>(), inner)
                    .prop_map(|(l, k, r)| Tree::Node(Box::new(l), k, Box::new(r)))
            })
            .boxed()
    }
}

impl proptest::arbitrary::Arbitrary for Json {
    type Parameters = ();
    type Strategy = BoxedStrategy<Json>;

    fn arbitrary_with((): ()) -> BoxedStrategy<Json> {
        let (depth, desired, branch) = PT_JSON;
        // Compiled once: `any::<String>()` is a `&str` strategy, which compiles its regex
        // again for every string it generates.
        let string = proptest::string::string_regex(PT_JSON_STRING)
            .expect("a valid regex")
            .boxed();
        let key = string.clone();
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::Bool),
            any::<i64>().prop_map(Json::Number),
            string.prop_map(Json::Str),
        ];
        leaf.prop_recursive(depth, desired, branch, move |inner| {
            prop_oneof![
                pt_vec(inner.clone(), 0..=PT_JSON_MAX_LEN).prop_map(Json::Array),
                pt_vec((key.clone(), inner), 0..=PT_JSON_MAX_LEN).prop_map(Json::Object),
            ]
        })
        .boxed()
    }
}

// quickcheck: what `#[derive(Reflective)]` does, written by hand as quickcheck users write it.
// quickcheck 1.x cannot shrink a `Gen`'s size without a new, freshly seeded `Gen`, so the
// recursive impls pass the size down themselves, halving it at recursive fields.

impl QcArbitrary for Order {
    fn arbitrary(g: &mut QcGen) -> Order {
        Order {
            id: u32::arbitrary(g),
            qty: u16::arbitrary(g),
            express: bool::arbitrary(g),
            items: Vec::<u8>::arbitrary(g),
        }
    }
}

impl QcArbitrary for Tree {
    fn arbitrary(g: &mut QcGen) -> Tree {
        let size = g.size() - 1;
        qc_tree(g, size)
    }
}

fn qc_tree(g: &mut QcGen, size: usize) -> Tree {
    if size == 0 || bool::arbitrary(g) {
        return Tree::Leaf;
    }
    let left = qc_tree(g, size / 2);
    let key = i64::arbitrary(g);
    let right = qc_tree(g, size / 2);
    Tree::Node(Box::new(left), key, Box::new(right))
}

impl QcArbitrary for Json {
    fn arbitrary(g: &mut QcGen) -> Json {
        let size = g.size() - 1;
        qc_json(g, size)
    }
}

/// A length uniform in `0..=max`, as `Vec::arbitrary` draws it (`usize::arbitrary(g) % n`
/// would not do: a tenth of its draws are edge values, which shortens every level).
fn qc_len(g: &mut QcGen, max: usize) -> usize {
    *g.choose(&LENGTHS[..=max]).expect("max <= SIZE")
}

/// `0, 1, ..., SIZE`, for [`qc_len`].
static LENGTHS: [usize; SIZE + 1] = {
    let mut lengths = [0; SIZE + 1];
    let mut i = 0;
    while i <= SIZE {
        lengths[i] = i;
        i += 1;
    }
    lengths
};

fn qc_string(g: &mut QcGen, size: usize) -> String {
    let len = qc_len(g, size);
    (0..len).map(|_| char::arbitrary(g)).collect()
}

fn qc_json(g: &mut QcGen, size: usize) -> Json {
    let variants: &[u8] = if size == 0 {
        &[0, 1, 2, 3]
    } else {
        &[0, 1, 2, 3, 4, 5]
    };
    match g.choose(variants) {
        Some(0) => Json::Null,
        Some(1) => Json::Bool(bool::arbitrary(g)),
        Some(2) => Json::Number(i64::arbitrary(g)),
        Some(3) => Json::Str(qc_string(g, size)),
        Some(4) => {
            let half = size / 2;
            let len = qc_len(g, half);
            Json::Array((0..len).map(|_| qc_json(g, half)).collect())
        }
        _ => {
            let half = size / 2;
            let len = qc_len(g, half);
            Json::Object(
                (0..len)
                    .map(|_| (qc_string(g, half), qc_json(g, half)))
                    .collect(),
            )
        }
    }
}

// Hand-written: the derived distribution of shapes and sizes, straight over `rand`.

fn hand_order<R: Rng + ?Sized>(rng: &mut R, size: usize) -> Order {
    let len = rng.random_range(0..=size);
    Order {
        id: rng.random(),
        qty: rng.random(),
        express: rng.random(),
        items: (0..len).map(|_| rng.random()).collect(),
    }
}

fn hand_tree<R: Rng + ?Sized>(rng: &mut R, size: usize) -> Tree {
    if size == 0 || rng.random() {
        return Tree::Leaf;
    }
    let left = hand_tree(rng, size / 2);
    let key = rng.random();
    let right = hand_tree(rng, size / 2);
    Tree::Node(Box::new(left), key, Box::new(right))
}

fn hand_string<R: Rng + ?Sized>(rng: &mut R, size: usize) -> String {
    let len = rng.random_range(0..=size);
    (0..len)
        .map(|_| {
            if rng.random_range(0..4) < 3 {
                rng.random_range(' '..='~')
            } else {
                rng.random()
            }
        })
        .collect()
}

fn hand_json<R: Rng + ?Sized>(rng: &mut R, size: usize) -> Json {
    match rng.random_range(0..if size == 0 { 4 } else { 6 }) {
        0 => Json::Null,
        1 => Json::Bool(rng.random()),
        2 => Json::Number(rng.random()),
        3 => Json::Str(hand_string(rng, size)),
        4 => {
            let half = size / 2;
            let len = rng.random_range(0..=half);
            Json::Array((0..len).map(|_| hand_json(rng, half)).collect())
        }
        _ => {
            let half = size / 2;
            let len = rng.random_range(0..=half);
            Json::Object(
                (0..len)
                    .map(|_| (hand_string(rng, half), hand_json(rng, half)))
                    .collect(),
            )
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The benchmark.
// ---------------------------------------------------------------------------------------------

/// A type under test: how to measure it and how to write it by hand.
trait Subject:
    Reflective + QcArbitrary + proptest::arbitrary::Arbitrary + Debug + Sized + 'static
{
    /// The heading of its table.
    const TITLE: &'static str;
    /// What [`Subject::measure`] counts.
    const MEASURE: &'static str;
    /// What [`Subject::aux`] counts.
    const AUX: &'static str;
    /// Values per run, full and quick.
    const COUNT: (usize, usize);
    fn measure(&self) -> usize;
    fn aux(&self) -> usize;
    /// The exact mean of [`Subject::measure`] under the derived generator at `size`, where
    /// it is computed.
    fn expected_measure(size: usize) -> Option<f64>;
    fn by_hand(rng: &mut DefaultRng, size: usize) -> Self;
}

impl Subject for Order {
    const TITLE: &'static str = "Order { id: u32, qty: u16, express: bool, items: Vec<u8> }";
    const MEASURE: &'static str = "items.len()";
    const AUX: &'static str = "-";
    const COUNT: (usize, usize) = (60_000, 2_000);

    fn measure(&self) -> usize {
        self.items.len()
    }

    fn aux(&self) -> usize {
        0
    }

    fn expected_measure(size: usize) -> Option<f64> {
        Some(size as f64 / 2.0)
    }

    fn by_hand(rng: &mut DefaultRng, size: usize) -> Self {
        hand_order(rng, size)
    }
}

impl Subject for Tree {
    const TITLE: &'static str = "enum Tree { Leaf, Node(Box<Tree>, i64, Box<Tree>) }";
    const MEASURE: &'static str = "Node count";
    const AUX: &'static str = "depth";
    const COUNT: (usize, usize) = (60_000, 4_000);

    fn measure(&self) -> usize {
        self.nodes()
    }

    fn aux(&self) -> usize {
        self.depth()
    }

    fn expected_measure(size: usize) -> Option<f64> {
        // Inside the tree, a `Node` with probability 1/2 while fuel is left; it uses one unit,
        // its left subtree runs on the rest and uses `a`, its right subtree on what remains.
        // `nodes[n][k]`: the probability that such a subtree on fuel `n` has `k` nodes. The
        // root is a `Node` with probability `size / (size + 1)` (the derive's `grown`).
        if size == 0 {
            return Some(0.0);
        }
        let mut nodes: Vec<Vec<f64>> = vec![vec![1.0]];
        for fuel in 1..size {
            let mut here = vec![0.0; fuel + 1];
            here[0] = 0.5;
            for (a, &left) in nodes[fuel - 1].iter().enumerate() {
                for (b, &right) in nodes[fuel - 1 - a].iter().enumerate() {
                    here[1 + a + b] += 0.5 * left * right;
                }
            }
            nodes.push(here);
        }
        let root_node = size as f64 / (size as f64 + 1.0);
        let mut mean = 0.0;
        for (a, &left) in nodes[size - 1].iter().enumerate() {
            for (b, &right) in nodes[size - 1 - a].iter().enumerate() {
                mean += root_node * left * right * (1 + a + b) as f64;
            }
        }
        Some(mean)
    }

    fn by_hand(rng: &mut DefaultRng, size: usize) -> Self {
        hand_tree(rng, size)
    }
}

impl Subject for Json {
    const TITLE: &'static str = "enum Json { Null, Bool, Number(i64), Str(String), Array(Vec<Json>), \
         Object(Vec<(String, Json)>) }";
    const MEASURE: &'static str = "Json nodes";
    const AUX: &'static str = "chars";
    const COUNT: (usize, usize) = (600, 60);

    fn measure(&self) -> usize {
        self.nodes()
    }

    fn aux(&self) -> usize {
        self.chars()
    }

    fn expected_measure(_: usize) -> Option<f64> {
        // Arrays and objects inside the derive's recursion take their size from the fuel
        // too; no closed form is computed.
        None
    }

    fn by_hand(rng: &mut DefaultRng, size: usize) -> Self {
        hand_json(rng, size)
    }
}

/// One of the generators compared.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    GenerateValue,
    Generate,
    ProptestChaCha,
    ProptestXorShift,
    QuickCheck,
    ByHand,
}

impl Method {
    const ALL: [Method; 6] = [
        Method::GenerateValue,
        Method::Generate,
        Method::ProptestChaCha,
        Method::ProptestXorShift,
        Method::QuickCheck,
        Method::ByHand,
    ];

    fn name(self) -> &'static str {
        match self {
            Method::GenerateValue => "reflective generate_value",
            Method::Generate => "reflective generate (+choice tree)",
            Method::ProptestChaCha => "proptest new_tree+current, ChaCha",
            Method::ProptestXorShift => "proptest new_tree+current, XorShift",
            Method::QuickCheck => "quickcheck Arbitrary, Gen::from_size_and_seed",
            Method::ByHand => "hand-written (rand, xoshiro256++)",
        }
    }

    /// Makes `count` values from `seed`, handing each to `sink`; returns the time the loop
    /// took (the generator, runner or `Gen` is set up before the clock starts).
    fn run<T: Subject>(
        self,
        g: &Gen<T, T>,
        strategy: &T::Strategy,
        count: usize,
        seed: u64,
        mut sink: impl FnMut(T),
    ) -> Duration {
        match self {
            Method::GenerateValue => {
                let mut rng = DefaultRng::seed_from_u64(seed);
                let start = Instant::now();
                for _ in 0..count {
                    sink(g.generate_value(&mut rng, SIZE));
                }
                start.elapsed()
            }
            Method::Generate => {
                let mut rng = DefaultRng::seed_from_u64(seed);
                let start = Instant::now();
                for _ in 0..count {
                    // The choice tree is dropped here, inside the loop, with the value.
                    let generated = black_box(g.generate(&mut rng, SIZE));
                    sink(generated.value);
                }
                start.elapsed()
            }
            Method::ProptestChaCha | Method::ProptestXorShift => {
                let mut runner = proptest_runner(self, seed);
                let start = Instant::now();
                for _ in 0..count {
                    let tree = black_box(strategy.new_tree(&mut runner).expect("no rejection"));
                    sink(tree.current());
                }
                start.elapsed()
            }
            Method::QuickCheck => {
                let mut qc = QcGen::from_size_and_seed(QC_SIZE, seed);
                let start = Instant::now();
                for _ in 0..count {
                    sink(<T as QcArbitrary>::arbitrary(&mut qc));
                }
                start.elapsed()
            }
            Method::ByHand => {
                let mut rng = DefaultRng::seed_from_u64(seed);
                let start = Instant::now();
                for _ in 0..count {
                    sink(T::by_hand(&mut rng, SIZE));
                }
                start.elapsed()
            }
        }
    }
}

/// A proptest runner with the default configuration and an RNG seeded from `seed`.
fn proptest_runner(method: Method, seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    DefaultRng::seed_from_u64(seed).fill_bytes(&mut bytes);
    let rng = match method {
        Method::ProptestChaCha => TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
        _ => TestRng::from_seed(RngAlgorithm::XorShift, &bytes[..16]),
    };
    TestRunner::new_with_rng(PtConfig::default(), rng)
}

/// How much work one run does.
struct Plan {
    reps: usize,
    quick: bool,
}

/// The summary of one generator on one type.
struct Row {
    method: Method,
    per_value: f64,
    mean: f64,
    max: usize,
    aux: f64,
}

/// One type's results: its name and rows, in [`Method::ALL`] order.
struct Table {
    name: &'static str,
    rows: Vec<Row>,
}

impl Table {
    /// The time per unit of the size measure (an item, a node): the generators do not all
    /// make values of the same mean size (the derived `Tree` divides its size among its
    /// nodes, the others halve it at every level), so the time per value would compare
    /// different amounts of work.
    fn time(&self, method: Method) -> f64 {
        self.rows
            .iter()
            .find(|row| row.method == method)
            .map(|row| row.per_value / row.mean.max(1.0))
            .expect("every method is measured")
    }
}

fn main() {
    let quick = std::env::args().any(|arg| arg == "--quick")
        || std::env::var("BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
    let plan = Plan { reps: 5, quick };
    let plan = if quick {
        plan
    } else {
        Plan { reps: 7, ..plan }
    };
    let started = Instant::now();
    println!(
        "reflective derive benchmark{}: medians of {} interleaved runs, {} CPU(s) available",
        if quick { " (--quick)" } else { "" },
        plan.reps,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    if cfg!(debug_assertions) {
        println!("WARNING: debug build; run with --release for meaningful figures");
    }
    println!(
        "reflective and hand-written at size {SIZE}; quickcheck Gen size {QC_SIZE}; proptest \
         default Config, prop_recursive{PT_TREE:?} for Tree, prop_recursive{PT_JSON:?} with \
         lengths 0..={PT_JSON_MAX_LEN} for Json"
    );

    let tables = vec![
        measure::<Order>(&plan, "Order"),
        measure::<Tree>(&plan, "Tree"),
        measure::<Json>(&plan, "Json"),
    ];

    println!();
    println!(
        "Verdicts: reflective's time per unit of the size measure / the peer's (medians; \
         proptest: the faster of its two RNGs)"
    );
    for (method, label) in [
        (Method::GenerateValue, "generate_value"),
        (Method::Generate, "generate"),
    ] {
        for table in &tables {
            let ours = table.time(method);
            let proptest = table
                .time(Method::ProptestChaCha)
                .min(table.time(Method::ProptestXorShift));
            for (peer, theirs, goal, wording) in [
                ("proptest", proptest, 0.5, ">= 2x faster"),
                (
                    "quickcheck",
                    table.time(Method::QuickCheck),
                    1.0,
                    "at least as fast",
                ),
                (
                    "hand-written",
                    table.time(Method::ByHand),
                    1.5,
                    "within 1.5x",
                ),
            ] {
                let ratio = ours / theirs;
                println!(
                    "  {label:<14} {:<5} vs {peer:<12} {ratio:>6.2} ({:>13})  goal <= {goal:.2} \
                     ({wording:<16}): {}",
                    table.name,
                    relative(ratio),
                    pass(ratio <= goal)
                );
            }
        }
    }
    println!(
        "Recording: reflective generate's time per value / generate_value's (the same values, \
         with their choice trees)"
    );
    for table in &tables {
        let ratio = table.time(Method::Generate) / table.time(Method::GenerateValue);
        println!(
            "  generate       {:<5} vs generate_value {ratio:>6.2}  goal <= 1.50: {}",
            table.name,
            pass(ratio <= 1.5)
        );
    }
    println!("total time {:.1} s", started.elapsed().as_secs_f64());
}

/// A time ratio in words: `0.25` is "4.00x faster", `2` is "2.00x slower".
fn relative(ratio: f64) -> String {
    if ratio <= 1.0 {
        format!("{:.2}x faster", 1.0 / ratio)
    } else {
        format!("{ratio:.2}x slower")
    }
}

fn pass(ok: bool) -> &'static str {
    if ok { "PASS" } else { "FAIL" }
}

/// Times every generator on `T` and prints its table.
fn measure<T: Subject>(plan: &Plan, name: &'static str) -> Table {
    let count = if plan.quick { T::COUNT.1 } else { T::COUNT.0 };
    // QuickCheck's size, which the peers and the hand-written generators follow (see the
    // header); only `Json`, with collections of collections, depends on it.
    let g = T::arbitrary_reflective()
        .size_strategy(reflective::Strategy::Exponential)
        .boxed();
    let strategy = proptest::arbitrary::any::<T>();
    // Warm up each generator (caches, allocator) before the clock matters.
    for method in Method::ALL {
        method.run(&g, &strategy, count / 10 + 1, SEED - 1, |v| {
            drop(black_box(v))
        });
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); Method::ALL.len()];
    for rep in 0..plan.reps {
        for (index, method) in Method::ALL.into_iter().enumerate() {
            let time = method.run(&g, &strategy, count, SEED + rep as u64, |v| {
                drop(black_box(v))
            });
            times[index].push(time);
        }
    }

    println!();
    println!("{name}: {}", T::TITLE);
    let exact = T::expected_measure(SIZE)
        .map_or_else(|| "not computed".to_string(), |mean| format!("{mean:.2}"));
    println!(
        "  size measure: {} (mean and max over every timed value; the derive's exact mean is \
         {exact}); aux: mean {}",
        T::MEASURE,
        T::AUX
    );
    println!(
        "  {:<46} {:>10} {:>11} {:>10} {:>9} {:>9} {:>8} {:>9} {:>9}",
        "generator",
        "values/run",
        "values/s",
        "ns/value",
        "ns/unit",
        "mean size",
        "max",
        "mean aux",
        "time/refl"
    );
    let mut rows = Vec::new();
    for (index, method) in Method::ALL.into_iter().enumerate() {
        // The sizes of exactly the values timed: the same seeds, untimed.
        let (mut total, mut max, mut aux) = (0usize, 0usize, 0usize);
        for rep in 0..plan.reps {
            method.run(&g, &strategy, count, SEED + rep as u64, |v| {
                let m = v.measure();
                total += m;
                max = max.max(m);
                aux += v.aux();
            });
        }
        let n = (count * plan.reps) as f64;
        rows.push(Row {
            method,
            per_value: median(&times[index]).as_secs_f64() / count as f64,
            mean: total as f64 / n,
            max,
            aux: aux as f64 / n,
        });
    }
    let reference = rows[0].per_value;
    for row in &rows {
        println!(
            "  {:<46} {:>10} {:>11} {:>10.0} {:>9.1} {:>9.2} {:>8} {:>9} {:>8.2}x",
            row.method.name(),
            count,
            thousands(1.0 / row.per_value),
            row.per_value * 1e9,
            row.per_value * 1e9 / row.mean.max(1.0),
            row.mean,
            row.max,
            if T::AUX == "-" {
                "-".to_string()
            } else {
                format!("{:.2}", row.aux)
            },
            row.per_value / reference,
        );
    }
    Table { name, rows }
}
