//! [`Generator`]: everything users call on a generator, the builders and the interpretations.
//!
//! Every generator is a [`Node`] (the core the engines drive: forward, backward, erase) and,
//! through the blanket impl below, a `Generator`, as every `rand::RngCore` is a `rand::Rng`.
//! Each method is one line that builds a combinator or calls an interpretation, so a new
//! interpretation is a new module in `interpret` and one method here, never a change to the
//! core. [`Gen`], the erased generator, and [`Node`] are re-exported here from the layer below.

use rand_core::Rng;

use crate::choice::{ChoiceTree, Label};
use crate::combinator::{
    Bind, Comap, Filter, FilterMap, Focus, Map, NoAnn, Resize, Scale, SizeStrategy, Unboxed, Zip,
};
use crate::engine::{ReflectError, Strategy};
use crate::interpret::bytes::EncodeError;
use crate::interpret::complete::Completer;
use crate::interpret::gradient::{Gradient, ValidByGradient};
use crate::interpret::mutate::Mutator;
use crate::interpret::shrink::{self, ShrinkBudget, ShrinkStats, Shrunk};
use crate::interpret::validate::Validation;
use crate::interpret::{self, Enumerate, GenerateError, Generated, Reflector};

pub use crate::node::{Gen, Node};

/// A reflective generator: reflects on an [`Input`](Node::Input) while producing an
/// [`Output`](Node::Output).
///
/// Run forward, a generator turns random choices into a value. Run backward on an input, it
/// finds the choices that produce it. Most generators are *aligned*: their input and output
/// are the same type. The combinators build aligned generators from parts that are not
/// aligned yet: `range(0..=9).focus(|p: &Point| Some(&p.x))` reflects on a `Point` while it
/// produces a number.
///
/// Every combinator returns a type of its own; hold a generator of any type as
/// `impl Generator<Input = T, Output = T>`, or erase it to a [`Gen<T, T>`] with
/// [`boxed`](Generator::boxed) (needed for recursion, struct fields and branches of different
/// types). Only the library's types implement this trait.
///
/// ```
/// use reflective::prelude::*;
///
/// // An aligned generator of pairs, built from generators that reflect on the pair's parts.
/// let pair = tuple((range(0u8..=9), bool()));
/// let value = pair.sample(42);
/// assert!(pair.can_generate(&value));
/// assert!(!pair.can_generate(&(10, true)));
/// ```
pub trait Generator: Node {
    // ----- Erasure -----

    /// This generator as a [`Gen`]: one type for every generator of the same input and output,
    /// cheap to clone. Recursive definitions, struct fields, and branches of different types
    /// beyond the eight a tuple takes (or kept in a `Vec`), need it.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let digits: Vec<Gen<u8, u8>> = vec![range(0..=4).boxed(), exact(9).boxed()];
    /// assert!(one_of(digits).can_generate(&9));
    /// ```
    fn boxed(self) -> Gen<Self::Input, Self::Output>
    where
        Self: Sized + 'static,
    {
        self.into_gen()
    }

    // ----- Combinators -----

    /// Produces `f(x)` for every `x` this generator produces.
    ///
    /// Backward, `map` passes the value reflected on through unchanged, so the part before it
    /// must be focused on what `f` consumed: map with a constructor after focusing on the
    /// constructor's fields, or undo `f` with [`comap`](Generator::comap). A `map` that changes
    /// the value without that makes reflection answer wrongly (`range(0u8..=9).map(|x| x * 2)`
    /// claims to produce 7 and not 14); [`Reflector::reproductions`] finds such a map.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// #[derive(Clone, Debug, PartialEq)]
    /// struct Meters(u32);
    /// let meters = range(0u32..=100).focus(|m: &Meters| Some(&m.0)).map(Meters);
    /// assert!(meters.can_generate(&Meters(42)));
    /// ```
    fn map<A, F>(self, f: F) -> Map<Self, F>
    where
        Self: Sized,
        F: Fn(Self::Output) -> A + Send + Sync,
    {
        Map::new(self, f)
    }

    /// Keeps only the values `keep` accepts: draws again while it rejects one (up to
    /// [`MAX_FILTER_ATTEMPTS`](crate::combinator::MAX_FILTER_ATTEMPTS) times in a row, then
    /// generation fails), as proptest's `prop_filter`. Backward, a value reflects if this
    /// generator produces it and `keep` accepts it. The runner counts what filters reject and
    /// gives up on a run in which they reject more than `max_discard_ratio` (10) values per
    /// value kept.
    ///
    /// Prefer a generator that produces only the values wanted: filtering costs a draw per
    /// rejected value, and `probability_of` counts the first draw only (a lower bound).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let even = range(0u32..=100).filter(|n| n % 2 == 0);
    /// assert_eq!(even.sample(7) % 2, 0);
    /// assert!(even.can_generate(&42));
    /// assert!(!even.can_generate(&43));
    /// ```
    fn filter<P>(self, keep: P) -> Filter<Self, P>
    where
        Self: Sized,
        P: Fn(&Self::Output) -> bool + Send + Sync,
    {
        Filter::new(self, keep)
    }

    /// Keeps the values `f` makes something of, and produces what it makes: draws again while
    /// `f` gives `None`, as [`filter`](Generator::filter) does (proptest's `prop_filter_map`).
    /// `f` runs twice on each value kept, once to keep it and once to make the result, so it
    /// must give the same answer for the same value. As for `filter`, `probability_of` counts
    /// the first draw only.
    ///
    /// Backward, as [`map`](Generator::map): the value reflected on is this generator's own,
    /// passed through unchanged, so undo `f` with a [`comap`](Generator::comap) before it to
    /// reflect on what `f` makes.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // Numbers whose square root is whole, as that root: reflected as the number squared.
    /// let roots = range(0u32..=10_000)
    ///     .comap(|root: &u32| root.checked_mul(*root))
    ///     .filter_map(|n| {
    ///         let root = n.isqrt();
    ///         (root * root == *n).then_some(root)
    ///     });
    /// let root = roots.sample(3);
    /// assert!(root <= 100);
    /// assert!(roots.can_generate(&12));
    /// assert!(!roots.can_generate(&101));
    /// ```
    fn filter_map<A, F>(self, f: F) -> FilterMap<Self, F>
    where
        Self: Sized,
        F: Fn(&Self::Output) -> Option<A> + Send + Sync,
    {
        FilterMap::new(self, f)
    }

    /// Runs this generator, then the generator `next` builds from its value.
    ///
    /// Backward, this generator reflects on the value first (usually through a
    /// [`focus`](Generator::focus) on the part it produces), and each value it could have
    /// produced is fed to `next`, which reflects on the same value. This is the paper's `>>=`.
    /// `next` may return a generator of any type; it is built on the stack at every run.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // A length, then a vector of exactly that length.
    /// let dependent = range(0usize..=3)
    ///     .comap(|v: &Vec<bool>| Some(v.len()))
    ///     .bind(|len| vec(bool(), len..=len));
    /// assert!(dependent.can_generate(&vec![true, false]));
    /// ```
    fn bind<G, F>(self, next: F) -> Bind<Self, F>
    where
        Self: Sized,
        G: Generator<Input = Self::Input>,
        F: Fn(Self::Output) -> G + Send + Sync,
    {
        Bind::new(self, next)
    }

    /// Another name for [`bind`](Generator::bind), as on `Option` and `Result`.
    fn and_then<G, F>(self, next: F) -> Bind<Self, F>
    where
        Self: Sized,
        G: Generator<Input = Self::Input>,
        F: Fn(Self::Output) -> G + Send + Sync,
    {
        self.bind(next)
    }

    /// Runs this generator then `other` on the same input, and pairs their results
    /// (see [`zip`](crate::zip)).
    fn zip<G>(self, other: G) -> Zip<Self, G>
    where
        Self: Sized,
        Self::Output: Clone,
        G: Generator<Input = Self::Input>,
        G::Output: Clone,
    {
        Zip::new(self, other)
    }

    /// Reflects on the part of a `C` that `part` borrows; `None` prunes the branch.
    ///
    /// This is the paper's `focus` (`lmap` then `prune`) for parts that can be borrowed, such
    /// as a field or a variant's payload. Forward it does nothing.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// #[derive(Clone, Debug, PartialEq)]
    /// enum Shape { Circle(u8), Square(u8) }
    /// let circle = range(1u8..=9)
    ///     .focus(|s: &Shape| match s { Shape::Circle(r) => Some(r), _ => None })
    ///     .map(Shape::Circle);
    /// assert!(circle.can_generate(&Shape::Circle(3)));
    /// assert!(!circle.can_generate(&Shape::Square(3)));
    /// ```
    fn focus<C, F>(self, part: F) -> Focus<Self, F, C>
    where
        Self: Sized,
        C: ?Sized,
        F: for<'c> Fn(&'c C) -> Option<&'c Self::Input> + Send + Sync,
    {
        Focus::new(self, part)
    }

    /// [`focus`](Generator::focus) through a lens onto a boxed part: reflects on the input
    /// inside the `Box` that `part` borrows. Derived lenses return fields as they are
    /// declared, so a recursive field `Box<Tree>` is reached this way.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// #[derive(Clone, Debug, PartialEq, Reflective)]
    /// enum Nat { Z, S(Box<Nat>) }
    /// fn nat() -> Gen<Nat, Nat> {
    ///     frequency((
    ///         (2, exact(Nat::Z)),
    ///         (1, lazy(nat).focus_box(Nat::s_0).map(|n| Nat::S(Box::new(n)))),
    ///     ))
    ///     .boxed()
    /// }
    /// assert!(nat().can_generate(&Nat::S(Box::new(Nat::Z))));
    /// ```
    fn focus_box<C, F>(self, part: F) -> Focus<Self, Unboxed<F>, C>
    where
        Self: Sized,
        Self::Input: Sized,
        C: ?Sized,
        F: for<'c> Fn(&'c C) -> Option<&'c Box<Self::Input>> + Send + Sync,
    {
        Focus::new(self, Unboxed::new(part))
    }

    /// Reflects on a value computed from a `C`; `None` prunes the branch.
    ///
    /// Use it where the part cannot be borrowed, such as the type of a term or the length of a
    /// vector. Forward it does nothing.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // Strings of x's of even length: half the length, then that many pairs.
    /// let even_length = range(0usize..=5)
    ///     .comap(|chars: &Vec<char>| Some(chars.len() / 2))
    ///     .bind(|half| vec(exact('x'), 2 * half..=2 * half))
    ///     .comap(|s: &String| Some(s.chars().collect::<Vec<char>>()))
    ///     .map(String::from_iter);
    /// assert!(even_length.can_generate(&"xxxx".to_string()));
    /// assert!(!even_length.can_generate(&"xxx".to_string()));
    /// ```
    fn comap<C, P, F>(self, part: F) -> Comap<Self, F, C, P>
    where
        Self: Sized,
        C: ?Sized,
        P: std::borrow::Borrow<Self::Input>,
        F: Fn(&C) -> Option<P> + Send + Sync,
    {
        Comap::new(self, part)
    }

    /// Forgets how to reflect: the result runs forward only (the paper's `noAnn`).
    ///
    /// Use it while upgrading a plain generator, for the parts not annotated yet. Nothing can
    /// be reflected on an `Infallible`, so a generator built on it reflects nothing.
    fn no_ann(self) -> NoAnn<Self>
    where
        Self: Sized,
    {
        NoAnn::new(self)
    }

    /// Runs this generator at size `size`, whatever the size around it.
    fn resize(self, size: usize) -> Resize<Self>
    where
        Self: Sized,
    {
        Resize::new(self, size)
    }

    /// Runs this generator at `f(size)`, where `size` is the size around it.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // Recursive generators shrink the size at every level so that they stop.
    /// let halved = vec(bool(), ..).scale(|size| size / 2);
    /// let mut rng = DefaultRng::seed_from_u64(3);
    /// assert!(halved.generate(&mut rng, 10).value.len() <= 5);
    /// ```
    fn scale<F>(self, f: F) -> Scale<Self, F>
    where
        Self: Sized,
        F: Fn(usize) -> usize + Send + Sync,
    {
        Scale::new(self, f)
    }

    /// Runs this generator with its collections sharing their size as `strategy` says (see
    /// [`strategy`](crate::strategy)), whatever the strategy around it. The default is
    /// [`Strategy::Linear`].
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let funnel = <Vec<Vec<u8>>>::arbitrary_reflective().size_strategy(Strategy::Exponential);
    /// let value = funnel.generate(&mut DefaultRng::seed_from_u64(1), 30).value;
    /// assert!(funnel.can_generate(&value));
    /// ```
    fn size_strategy(self, strategy: Strategy) -> SizeStrategy<Self>
    where
        Self: Sized,
    {
        SizeStrategy::new(self, strategy)
    }

    // ----- Forward interpretations -----

    /// The value for `seed` at [`DEFAULT_SIZE`](crate::DEFAULT_SIZE): the same on every run
    /// and platform.
    ///
    /// # Panics
    ///
    /// If the generator cannot produce a value (see [`try_generate`](Generator::try_generate)).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = vec(int::<i32>(), ..);
    /// assert_eq!(g.sample(7), g.sample(7));
    /// ```
    #[track_caller]
    fn sample(&self, seed: u64) -> Self::Output
    where
        Self: Sized,
    {
        interpret::sample(self, seed)
    }

    /// A random value at `size`, with the choice tree that produced it.
    ///
    /// # Panics
    ///
    /// If the generator cannot produce a value (see [`try_generate`](Generator::try_generate)).
    #[track_caller]
    fn generate<R: Rng + ?Sized>(&self, rng: &mut R, size: usize) -> Generated<Self::Output>
    where
        Self: Sized,
    {
        self.try_generate(rng, size)
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// A random value at `size` with its choice tree, or why none could be produced (a set
    /// that cannot find enough distinct elements, say).
    fn try_generate<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        size: usize,
    ) -> Result<Generated<Self::Output>, GenerateError>
    where
        Self: Sized,
    {
        interpret::try_generate(self, rng, size)
    }

    /// A random value at `size`, without recording its choices: the fastest way to generate.
    ///
    /// # Panics
    ///
    /// If the generator cannot produce a value (see [`try_generate`](Generator::try_generate)).
    #[track_caller]
    fn generate_value<R: Rng + ?Sized>(&self, rng: &mut R, size: usize) -> Self::Output
    where
        Self: Sized,
    {
        interpret::generate_value(self, rng, size)
    }

    /// Every value the generator produces at size `depth`, each way of producing it once,
    /// with each integer (and character) limited to its `depth + 1` simplest values: the
    /// exhaustive enumeration of SmallCheck, and of the Agata thesis' `agataSC` (section
    /// 2.2.4). Lazy and depth first, simplest choices first; finite, but large for a large
    /// depth. A derived generator, which has one way per value, gives each value once. A set
    /// or map is listed once for each order of its elements (each is a way to draw it), and a
    /// sequence of elements with a repeat, or a value a [`filter`](Generator::filter) rejects,
    /// is skipped rather than drawn again. A generator whose recursion ignores the size has no
    /// finite enumeration: it is followed down to `64 * (depth + 1)` levels of nesting
    /// (recursive references, binds), and the values that need more are skipped.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// #[derive(Clone, Debug, PartialEq, Reflective)]
    /// enum Shape { Dot, Line(bool), Box { wide: bool, tall: bool } }
    ///
    /// let all: Vec<Shape> = Shape::arbitrary_reflective().enumerate(1).collect();
    /// assert_eq!(all.len(), 7);
    /// // Bit strings of at most 2 bits: 1 + 2 + 4.
    /// assert_eq!(vec(bool(), ..).enumerate(2).count(), 7);
    /// // Integers: the depth + 1 simplest.
    /// assert_eq!(int::<i8>().enumerate(2).collect::<Vec<_>>(), [0, 1, -1]);
    /// ```
    fn enumerate(&self, depth: usize) -> Enumerate<'_, Self>
    where
        Self: Sized,
    {
        Enumerate::new(self, depth)
    }

    /// The value `tree`'s choices produce, if they fit this generator exactly: every choice
    /// read and none missing, each of the kind the generator asks for (a pick or an integer),
    /// each pick index on a branch with a weight, each integer in the range asked for. The
    /// arity, labels and integer bounds recorded in the tree are not compared, so a tree
    /// edited by a shrinker replays as long as its choices fit. The tree's size is used.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = tuple((bool(), range(0u8..=9)));
    /// let generated = g.generate(&mut DefaultRng::seed_from_u64(5), 10);
    /// assert_eq!(g.replay(&generated.tree), Some(generated.value));
    /// ```
    fn replay(&self, tree: &ChoiceTree) -> Option<Self::Output>
    where
        Self: Sized,
    {
        interpret::replay(self, tree)
    }

    /// Replays `tree`'s choices, repairing those that do not fit, and returns the value with
    /// the choices actually made. The fallback: a missing choice takes the simplest value (the
    /// first branch with a weight, the in-range integer nearest zero), an integer out of range
    /// is clamped into it, a pick index past the branches or of the wrong kind takes the
    /// simplest branch. Choices left over are ignored.
    ///
    /// This is how edited choice trees (a shrinker's, a mutator's) become values again. It
    /// fails only where generation itself can fail (a set that cannot find enough distinct
    /// elements among the repaired choices).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let pair = tuple((range(1u8..=9), range(1u8..=9)));
    /// let tree = pair.choices(&(3, 4)).remove(0);
    /// // Drop the last choice: the second number falls back to its simplest value.
    /// let shorter = ChoiceTree::from_parts(tree.size(), tree.choices()[..1].to_vec(), []).unwrap();
    /// assert_eq!(pair.replay(&shorter), None);
    /// assert_eq!(pair.replay_repaired(&shorter).unwrap().value, (3, 1));
    /// ```
    fn replay_repaired(&self, tree: &ChoiceTree) -> Result<Generated<Self::Output>, GenerateError>
    where
        Self: Sized,
    {
        interpret::replay_repaired(self, tree)
    }

    /// A simpler value this generator produces that still fails `still_fails`, starting from
    /// `value`: a generated value, or any other the generator can produce (a bug report, a
    /// fixture), whose choices reflection finds. The result is one that none of the shrinker's
    /// passes can simplify further (a local minimum, as Hypothesis gives, not always the
    /// simplest failing value there is). See [`shrink`](mod@crate::shrink) for how.
    /// `value` comes back unchanged if it does not fail, or if the generator cannot produce it
    /// (also when its reflection replays to another value, one that passes: a `map` without
    /// its way back).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let lists = vec(range(0u32..=1000), ..);
    /// // Fails on any list with an element over 100 and at least two elements.
    /// let fails = |xs: &Vec<u32>| xs.len() >= 2 && xs.iter().any(|&x| x > 100);
    /// let smallest = lists.shrink(vec![7, 0, 512, 3, 999], fails);
    /// assert_eq!(smallest, [0, 101]);
    /// ```
    fn shrink<T>(&self, value: T, still_fails: impl Fn(&T) -> bool) -> T
    where
        Self: Generator<Input = T, Output = T> + Sized,
    {
        match self.shrink_with_stats(&value, still_fails) {
            Some(shrunk) => shrunk.value,
            None => value,
        }
    }

    /// [`shrink`](Generator::shrink), with the choices of the result and what the shrink did
    /// (evaluations, steps, time, per pass, and why it stopped), within the default
    /// [`ShrinkBudget`]; `None` if the generator cannot produce `value` (or its reflection
    /// replays to a value that passes) or `value` does not fail.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use reflective::shrink::Stopped;
    /// let g = vec(range(0u8..=200), ..);
    /// let shrunk = g.shrink_with_stats(&vec![5, 150, 9], |xs| xs.contains(&150)).unwrap();
    /// assert_eq!(shrunk.value, [150]);
    /// assert_eq!(shrunk.stats.stopped, Stopped::Fixpoint);
    /// let steps: usize = shrunk.stats.passes.iter().map(|pass| pass.steps).sum();
    /// assert_eq!(steps, shrunk.stats.steps);
    /// ```
    fn shrink_with_stats<T>(&self, value: &T, still_fails: impl Fn(&T) -> bool) -> Option<Shrunk<T>>
    where
        Self: Generator<Input = T, Output = T> + Sized,
    {
        self.shrink_within(value, still_fails, ShrinkBudget::default())
    }

    /// [`shrink_with_stats`](Generator::shrink_with_stats) within `budget`: reflects `value`
    /// to find its simplest choices, then shrinks them. The value is reflected at the smallest
    /// of the sizes 0, 1, 2, 4, 8, ... at which the generator produces it (up to
    /// [`MAX_REFLECTION_SIZE`](crate::shrink::MAX_REFLECTION_SIZE)): a list of 10 000 elements
    /// at 16 384, a small value at a small size, whatever size it came from.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use reflective::shrink::{ShrinkBudget, Stopped};
    /// let g = vec(range(0u32..=1000), ..);
    /// let budget = ShrinkBudget::default().max_evaluations(3);
    /// let shrunk = g.shrink_within(&vec![900; 20], |xs| xs.len() > 2, budget).unwrap();
    /// assert_eq!(shrunk.stats.stopped, Stopped::Evaluations);
    /// assert_eq!(shrunk.stats.evaluations, 3);
    /// ```
    fn shrink_within<T>(
        &self,
        value: &T,
        still_fails: impl Fn(&T) -> bool,
        budget: ShrinkBudget,
    ) -> Option<Shrunk<T>>
    where
        Self: Generator<Input = T, Output = T> + Sized,
    {
        if !still_fails(value) {
            return None;
        }
        let tree = shrink::choices_of(self, value)?;
        let start = self.replay_repaired(&tree).ok()?;
        // Choices that replay to a value that passes (a `map` without its way back reflects
        // values to choices of others) are no start: the result must fail.
        if !still_fails(&start.value) {
            return None;
        }
        Some(shrink::shrink(self, start, &still_fails, budget))
    }

    /// Shrinks a value this generator generated, starting from the choices it recorded: no
    /// reflection, so it works for any generator, also one whose values cannot be reflected.
    /// `generated` comes back as it is, with empty statistics (no passes ran), if its value does
    /// not fail.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use reflective::shrink::ShrinkBudget;
    /// // Generates strings, but reflects nothing: `map` without a way back.
    /// let g = vec(range(0u32..=1000), 1..=50).map(|xs| format!("{xs:?}"));
    /// let fails = |s: &String| s.contains("99");
    /// let mut rng = DefaultRng::seed_from_u64(3);
    /// let generated = std::iter::repeat_with(|| g.generate(&mut rng, 30))
    ///     .find(|generated| fails(&generated.value))
    ///     .unwrap();
    /// let shrunk = g.shrink_generated(generated, fails, ShrinkBudget::default());
    /// assert_eq!(shrunk.value, "[99]");
    /// ```
    fn shrink_generated(
        &self,
        generated: Generated<Self::Output>,
        still_fails: impl Fn(&Self::Output) -> bool,
        budget: ShrinkBudget,
    ) -> Shrunk<Self::Output>
    where
        Self: Sized,
    {
        if !still_fails(&generated.value) {
            let stats = ShrinkStats::default();
            return Shrunk {
                value: generated.value,
                tree: generated.tree,
                stats,
            };
        }
        shrink::shrink(self, generated, &still_fails, budget)
    }

    /// Mutation of this generator's values: each mutant is one edit of a value's choices,
    /// replayed so that it is a value the generator produces (see [`mutate`](crate::mutate)).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// // Even numbers, with an annotation to reflect through the map.
    /// let evens = range(0u32..=500)
    ///     .map(|x| x * 2)
    ///     .comap(|n: &u32| n.is_multiple_of(2).then(|| n / 2));
    /// let fixture = 842;
    /// for mutant in evens.mutator().mutants(&fixture, 3).unwrap().take(50) {
    ///     assert_eq!(mutant.value % 2, 0);
    ///     assert_ne!(mutant.value, fixture);
    /// }
    /// ```
    fn mutator(&self) -> Mutator<'_, Self>
    where
        Self: Sized,
    {
        Mutator::new(self)
    }

    /// The value a fuzzer's `bytes` give, with its choices: the first byte is the size, each
    /// choice after it reads the bytes its range needs, and choices past the end take their
    /// simplest values (then random ones from a fixed seed, once a filter or a set draws again
    /// or after 4 096 simplest choices). Every byte
    /// string gives a value this generator produces, the
    /// same one every time (see [`bytes`](crate::bytes)); where a filter rejects every value
    /// at the bytes' size (a list filtered to be non-empty, at size 0), the next sizes up.
    /// `Err` only if the generator cannot produce a value at all (a filter that rejects
    /// everything); a generator that panics on
    /// some choices (a `map` that unwraps) panics here too, as it would in generation.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = vec(range(1u8..=6), 0..=4);
    /// for data in [&b""[..], b"\x07\x02\x00\x05", b"\xff\xff\xff\xff\xff\xff\xff"] {
    ///     assert!(g.can_generate(&g.decode(data).unwrap().value));
    /// }
    /// // In a cargo-fuzz target:
    /// // fuzz_target!(|data: &[u8]| { let v = g.decode(data).unwrap().value; /* ... */ });
    /// ```
    fn decode(&self, bytes: &[u8]) -> Result<Generated<Self::Output>, GenerateError>
    where
        Self: Sized,
    {
        interpret::bytes::decode(self, bytes)
    }

    /// The bytes [`decode`](Generator::decode) reads back as `value`: its simplest
    /// choices at the least size (up to [`MAX_BYTES_SIZE`](crate::bytes::MAX_BYTES_SIZE))
    /// that produces it. Seeds a fuzzer's corpus with fixtures and bug reports.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = vec(range(1u8..=6), 0..=4);
    /// let bytes = g.encode(&vec![6, 1, 3]).unwrap();
    /// assert_eq!(g.decode(&bytes).unwrap().value, [6, 1, 3]);
    /// assert!(g.encode(&vec![7]).is_err());
    /// ```
    fn encode(&self, value: &Self::Input) -> Result<Vec<u8>, EncodeError>
    where
        Self: Sized,
    {
        interpret::bytes::encode(self, value)
    }

    /// Completion of values with holes: the holes filled at random with parts this generator
    /// could produce there, the given parts kept (see [`complete`](crate::complete)).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use reflective::complete::Holes;
    /// #[derive(Clone, Debug, PartialEq, Reflective)]
    /// struct Order { id: u32, quantity: u8, note: String }
    /// let partial = Order { id: 7, quantity: 0, note: "rush".into() };
    /// let holes = Holes::new().at(&partial.quantity);
    /// let g = Order::arbitrary_reflective();
    /// let orders = g.completer().completions(&partial, &holes, 0, 50).unwrap();
    /// assert!(orders.iter().all(|o| o.id == 7 && o.note == "rush"));
    /// assert!(orders.iter().any(|o| o.quantity != orders[0].quantity));
    /// ```
    fn completer(&self) -> Completer<'_, Self>
    where
        Self: Sized,
    {
        Completer::new(self)
    }

    /// A validation of this generator: its reflection laws on generated values, and, when
    /// asked, soundness and completeness against a predicate, each problem with a shrunk
    /// counterexample (see [`validate`](crate::validate)).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let sorted = vec(range(0u8..=9), ..)
    ///     .map(|mut xs| { xs.sort(); xs })
    ///     .comap(|xs: &Vec<u8>| xs.is_sorted().then(|| xs.clone()));
    /// sorted.validate().sound(|xs| xs.is_sorted()).cases(300).check();
    /// ```
    fn validate<'c, T>(&self) -> Validation<'_, 'c, Self>
    where
        Self: Generator<Input = T, Output = T> + Sized,
        T: Clone + std::fmt::Debug + PartialEq + 'c,
    {
        Validation::new(self)
    }

    /// Valid values by Choice Gradient Sampling: this generator's choices steered toward
    /// values `valid` accepts, by sampling what each next choice leads to (see
    /// [`gradient`](crate::gradient)).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let pairs = tuple((range(0u8..=9), range(0u8..=9)));
    /// let run = pairs.gradient(|&(a, b)| a + b == 9).samples(5).run(1, 500).unwrap();
    /// assert!(run.values.iter().all(|v| v.value.0 + v.value.1 == 9));
    /// ```
    fn gradient<P>(&self, valid: P) -> Gradient<'_, Self, P>
    where
        Self: Sized,
        Self::Output: Clone + std::fmt::Debug,
        P: Fn(&Self::Output) -> bool,
    {
        Gradient::new(self, valid)
    }

    /// The values of this generator that `valid` accepts, found by Choice Gradient Sampling
    /// where a plain draw is not one (descents that sample each derivative `samples` times,
    /// at least once; see [`gradient`](crate::gradient)): a generator like any other, that
    /// replays, shrinks and mutates to values `valid` accepts, as a
    /// [`filter`](Generator::filter) of them would, and finds valid values where the filter
    /// would reject nearly all. Generating a value fails once its descents have spent
    /// [`max_samples`](crate::gradient::ValidByGradient::max_samples) samples.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let sorted = vec(range(0u8..=9), 0..=8).valid_by_gradient(|xs| xs.is_sorted(), 10);
    /// let xs = sorted.sample(7);
    /// assert!(xs.is_sorted() && sorted.can_generate(&xs));
    /// ```
    fn valid_by_gradient<P>(self, valid: P, samples: usize) -> ValidByGradient<Self, P>
    where
        Self: Sized,
        Self::Output: Clone + std::fmt::Debug,
        P: Fn(&Self::Output) -> bool + Send + Sync,
    {
        ValidByGradient::new(self, valid, samples)
    }

    // ----- Backward interpretations -----
    //
    // Each uses the default size and budgets, and panics with the `ReflectError` when a budget
    // runs out; `reflector` returns the error instead.

    /// A reflection with its own size and budgets, whose methods return errors.
    fn reflector(&self) -> Reflector<'_, Self>
    where
        Self: Sized,
    {
        Reflector::new(self)
    }

    /// The label sequences of every way the generator can produce `input` (the paper's
    /// `reflect`), simplest first; empty if it cannot.
    ///
    /// # Panics
    ///
    /// If reflection runs out of budget (see [`Reflector::reflect`]).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let g = vec(labeled([("a", exact('a')), ("b", exact('b'))]), ..);
    /// let labels = g.reflect(&vec!['b', 'a']);
    /// let text: Vec<String> = labels[0].iter().map(Label::to_string).collect();
    /// assert_eq!(text, ["b", "a"]);
    /// ```
    #[track_caller]
    fn reflect(&self, input: &Self::Input) -> Vec<Vec<Label>>
    where
        Self: Sized,
    {
        or_panic(self.reflector().reflect(input))
    }

    /// The choice tree of every way the generator can produce `input`, simplest (shortlex)
    /// first; empty if it cannot.
    ///
    /// # Panics
    ///
    /// If reflection runs out of budget (see [`Reflector::choices`]).
    #[track_caller]
    fn choices(&self, input: &Self::Input) -> Vec<ChoiceTree>
    where
        Self: Sized,
    {
        or_panic(self.reflector().choices(input))
    }

    /// Whether the generator can produce `input` at [`DEFAULT_SIZE`](crate::DEFAULT_SIZE)
    /// (100): a validity check from the generator alone. A value that needs a larger size (a
    /// collection longer than 100) is reported `false`: ask
    /// `g.reflector().size(n).can_generate(&input)` for it ([`Generator::shrink`] tries larger
    /// sizes by itself).
    ///
    /// # Panics
    ///
    /// If reflection runs out of budget before finding a way (see
    /// [`Reflector::can_generate`]).
    #[track_caller]
    fn can_generate(&self, input: &Self::Input) -> bool
    where
        Self: Sized,
    {
        or_panic(self.reflector().can_generate(input))
    }

    /// The probability that the generator produces `input` at
    /// [`DEFAULT_SIZE`](crate::DEFAULT_SIZE), summed over every way it can; 0 if it cannot.
    ///
    /// Very unlikely values (a tree of a thousand nodes) round to 0: use
    /// [`Reflector::log_probability_of`] to tell them from impossible ones.
    ///
    /// The sum is over the ways reflection finds. Where a generator gives one way for a value
    /// it makes in several, the probability counts that one and is too small: sets and maps
    /// count one drawing order only (see [`btree_set`](crate::btree_set));
    /// [`string_regex`](crate::string_regex) counts one match of an ambiguous pattern
    /// (`a?a?` makes `"a"` two ways).
    ///
    /// # Panics
    ///
    /// If reflection runs out of budget (see [`Reflector::probability_of`]).
    #[track_caller]
    fn probability_of(&self, input: &Self::Input) -> f64
    where
        Self: Sized,
    {
        or_panic(self.reflector().probability_of(input))
    }
}

#[track_caller]
fn or_panic<T>(result: Result<T, ReflectError>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}

impl<G: Node + ?Sized> Generator for G {}
