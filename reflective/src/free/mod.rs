//! Free generators, their derivatives, and Choice Gradient Sampling, as "Parsing Randomness"
//! (Goldstein and Pierce, OOPSLA 2022) defines them: the paper's `FGen` with its smart
//! constructors (so every free generator is in the paper's simplified form), its three
//! interpretations (values, a parser of choice sequences, a distribution over choice
//! sequences), the derivative δ<sub>c</sub> and the nullable set ν, and CGS (its Figure 4).
//!
//! A free generator is a plain data structure of labelled choices: [`Free::select`] between
//! branches tagged by characters (the paper's `select`, this library's `pick`),
//! [`Free::pair`] of two generators one after the other, [`Free::map`], [`Free::pure`] and
//! [`Free::void`]; and, beyond the paper's applicative generators, [`Free::bind`], whose
//! second generator depends on the first one's value (the paper expects its results to carry
//! over to monadic generators: they do, the derivative of `bind x f` being `bind (δc x) f`,
//! and `f` applied once `x` has made its value). It does nothing until interpreted:
//!
//! - [`Free::generate`]: a random value, each select choosing a branch uniformly;
//! - [`Free::parse`]: a choice sequence (a string of tags) parsed into a value, with what is
//!   left of the string;
//! - [`Free::choices`]: a random choice sequence, as generation would make it;
//! - [`Free::derivative`]: the generator left after a choice is made, so that
//!   `g.derivative(c).parse(s) == g.parse(c·s)` (the paper's Theorem 4.3, for every `g` but a
//!   `pure`, which parses without reading: its derivative is `void`, yet `parse(c·s)` succeeds
//!   and leaves `c·s`; the paper's proof in its Appendix D misses this case);
//! - [`Free::nullable`]: the value the generator yields with no further choice, if it is
//!   [`Free::pure`].
//!
//! [`cgs`] runs Choice Gradient Sampling on a free generator: at every step it samples each
//! derivative, scores each choice by how many distinct samples satisfy the predicate, keeps
//! the valid samples, and takes a choice weighted by its score.
//!
//! ```
//! use reflective::free::Free;
//! // The paper's trees of depth 1: "l" for a leaf, "n" then a digit for a node.
//! let digit = Free::select((0..=9).map(|d| (char::from(b'0' + d), Free::pure(d))).collect());
//! let tree = Free::select(vec![
//!     ('l', Free::pure(None)),
//!     ('n', digit.map(Some)),
//! ]);
//! assert_eq!(tree.parse("n7"), Some((Some(7), "")));
//! assert_eq!(tree.derivative('n').parse("7"), tree.parse("n7"));
//! assert_eq!(tree.derivative('l').nullable(), Some(None));
//! assert!(tree.derivative('x').is_void());
//! ```

mod cgs;

pub(crate) use cgs::checked;
pub use cgs::{Cgs, CgsStats, MAX_RESTARTS, PredicatePanicked, cgs};

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;

use rand_core::Rng;

use crate::engine::grow_if_low;
use crate::engine::source::random::below;

/// A value inside a free generator, of the type its typed handle says.
type Value = Rc<dyn Any>;

/// The untyped syntax of a free generator, shared between generators and their derivatives.
enum Syntax {
    Void,
    Pure(Value),
    /// Two generators one after the other; the value is a `(Value, Value)`.
    Pair(Rc<Syntax>, Rc<Syntax>),
    Map(Rc<dyn Fn(&Value) -> Value>, Rc<Syntax>),
    Select(Vec<(char, Rc<Syntax>)>),
    /// A generator, then the generator its value gives.
    Bind(Rc<Syntax>, Continuation),
}

/// What [`Syntax::Bind`] makes of its first generator's value: the generator that follows.
type Continuation = Rc<dyn Fn(&Value) -> Rc<Syntax>>;

impl Drop for Syntax {
    /// Drops the generators inside on a grown stack if it runs low, as the interpretations
    /// recurse: a generator nested as deep as the values it makes (a list of thousands of
    /// elements) is dropped as deep as it nests.
    fn drop(&mut self) {
        match self {
            Syntax::Pair(x, y) => {
                let inside = (taken(x), taken(y));
                grow_if_low(move || drop(inside));
            }
            Syntax::Map(_, x) | Syntax::Bind(x, _) => {
                let inside = taken(x);
                grow_if_low(move || drop(inside));
            }
            Syntax::Select(branches) => {
                let inside = std::mem::take(branches);
                grow_if_low(move || drop(inside));
            }
            Syntax::Void | Syntax::Pure(_) => {}
        }
    }
}

/// The generator `g` held, `void` left in its place (one shared `void` per thread, so that
/// dropping allocates nothing; a fresh one while the thread's own are being destroyed).
fn taken(g: &mut Rc<Syntax>) -> Rc<Syntax> {
    thread_local! {
        static VOID: Rc<Syntax> = Rc::new(Syntax::Void);
    }
    let void = VOID
        .try_with(Rc::clone)
        .unwrap_or_else(|_| Rc::new(Syntax::Void));
    std::mem::replace(g, void)
}

/// A free generator of `A`s: see the [module](self).
pub struct Free<A> {
    syntax: Rc<Syntax>,
    _value: PhantomData<fn() -> A>,
}

impl<A> Clone for Free<A> {
    fn clone(&self) -> Self {
        Free::wrap(Rc::clone(&self.syntax))
    }
}

impl<A> fmt::Debug for Free<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn write(syntax: &Syntax, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
            if depth > 3 {
                return f.write_str("…");
            }
            match syntax {
                Syntax::Void => f.write_str("void"),
                Syntax::Pure(_) => f.write_str("pure"),
                Syntax::Pair(x, y) => {
                    f.write_str("(")?;
                    write(x, f, depth + 1)?;
                    f.write_str(" ⊗ ")?;
                    write(y, f, depth + 1)?;
                    f.write_str(")")
                }
                Syntax::Map(_, x) => {
                    f.write_str("map ")?;
                    write(x, f, depth + 1)
                }
                Syntax::Bind(x, _) => {
                    f.write_str("bind ")?;
                    write(x, f, depth + 1)?;
                    f.write_str(" …")
                }
                Syntax::Select(branches) => {
                    f.write_str("select[")?;
                    for (index, (tag, _)) in branches.iter().enumerate() {
                        if index > 0 {
                            f.write_str(" ")?;
                        }
                        write!(f, "{tag}")?;
                    }
                    f.write_str("]")
                }
            }
        }
        write(&self.syntax, f, 0)
    }
}

impl<A> Free<A> {
    fn wrap(syntax: Rc<Syntax>) -> Self {
        Free {
            syntax,
            _value: PhantomData,
        }
    }

    /// The generator of nothing (the parser that always fails).
    pub fn void() -> Self {
        Free::wrap(Rc::new(Syntax::Void))
    }

    /// Whether this is [`Free::void`]. A generator built with the smart constructors contains
    /// `void` only if it is `void` (the paper's Lemma 3.1).
    pub fn is_void(&self) -> bool {
        matches!(*self.syntax, Syntax::Void)
    }

    /// The tags the generator's first choice can take: a derivative by any other is `void`.
    pub fn first_choices(&self) -> Vec<char> {
        let mut syntax = &*self.syntax;
        loop {
            match syntax {
                Syntax::Void | Syntax::Pure(_) => return Vec::new(),
                Syntax::Pair(first, _) | Syntax::Map(_, first) | Syntax::Bind(first, _) => {
                    syntax = first
                }
                Syntax::Select(branches) => return branches.iter().map(|(tag, _)| *tag).collect(),
            }
        }
    }

    /// The derivative δ<sub>c</sub>: the generator left once the first choice is `c` (`void`
    /// if it cannot be).
    pub fn derivative(&self, c: char) -> Self {
        Free::wrap(derivative(&self.syntax, c))
    }

    /// The derivative by each choice of `choices` in turn.
    pub fn derivative_by(&self, choices: &str) -> Self {
        choices.chars().fold(self.clone(), |g, c| g.derivative(c))
    }

    /// A random choice sequence, as [`Free::generate`] would make it (the choice distribution
    /// interpretation); `None` for `void`.
    pub fn choices<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<String> {
        let mut out = String::new();
        generate(&self.syntax, rng, &mut out)?;
        Some(out)
    }
}

impl<A: Clone + 'static> Free<A> {
    /// The generator that makes no choice and yields `value`.
    pub fn pure(value: A) -> Self {
        Free::wrap(Rc::new(Syntax::Pure(Rc::new(value))))
    }

    /// A choice between `branches`, each tagged by a character: `void` branches are dropped,
    /// and nothing left is `void`.
    ///
    /// # Panics
    ///
    /// If two branches have the same tag: a parser could not tell them apart.
    #[doc(alias = "pick")]
    pub fn select(branches: Vec<(char, Free<A>)>) -> Self {
        Free::wrap(select(
            branches
                .into_iter()
                .map(|(tag, branch)| (tag, branch.syntax))
                .collect(),
        ))
    }

    /// `f` applied to the values (the paper's `<$>`, collapsing `void` and `pure`).
    pub fn map<B: Clone + 'static>(&self, f: impl Fn(A) -> B + 'static) -> Free<B> {
        let f: Rc<dyn Fn(&Value) -> Value> =
            Rc::new(move |value: &Value| Rc::new(f(typed::<A>(value))));
        Free::wrap(map(f, &self.syntax))
    }

    /// This generator, then the generator `f` gives for its value (a monad's `>>=`, beyond the
    /// paper's applicative generators), collapsing `void` and `pure`: `bind` of a `pure` is
    /// `f` of its value. The derivative goes into this generator's choices, and applies `f`
    /// once they have made a value, so a free generator may depend on what it has made (a
    /// list of a length it chose, a term of a type it chose).
    ///
    /// `f` should not give `void`: a value for which it does cannot be completed, so the
    /// generator fails on it (`generate` and `choices` give `None` for that draw), which the
    /// applicative constructors rule out (the paper's Lemma 3.1).
    ///
    /// ```
    /// use reflective::free::Free;
    /// // A length, then that many bits.
    /// let bit = Free::select(vec![('0', Free::pure(false)), ('1', Free::pure(true))]);
    /// fn bits(n: u8, bit: Free<bool>) -> Free<Vec<bool>> {
    ///     if n == 0 {
    ///         return Free::pure(Vec::new());
    ///     }
    ///     bit.pair(&bits(n - 1, bit.clone())).map(|(b, mut rest): (bool, Vec<bool>)| {
    ///         rest.insert(0, b);
    ///         rest
    ///     })
    /// }
    /// let length = Free::select(vec![('a', Free::pure(1u8)), ('b', Free::pure(2))]);
    /// let list = length.bind(move |n| bits(n, bit.clone()));
    /// assert_eq!(list.parse("b10"), Some((vec![true, false], "")));
    /// assert_eq!(list.derivative('b').parse("10"), list.parse("b10"));
    /// assert_eq!(list.derivative_by("a1").nullable(), Some(vec![true]));
    /// ```
    pub fn bind<B: Clone + 'static>(&self, f: impl Fn(A) -> Free<B> + 'static) -> Free<B> {
        let f: Continuation = Rc::new(move |value: &Value| f(typed::<A>(value)).syntax);
        Free::wrap(bind(&self.syntax, f))
    }

    /// This generator, then `other` (the paper's `⊗`, collapsing `void` and `pure`).
    pub fn pair<B: Clone + 'static>(&self, other: &Free<B>) -> Free<(A, B)> {
        let paired = pair(&self.syntax, &other.syntax);
        let untuple: Rc<dyn Fn(&Value) -> Value> = Rc::new(|value: &Value| {
            let (a, b) = typed::<(Value, Value)>(value);
            Rc::new((typed::<A>(&a), typed::<B>(&b)))
        });
        Free::wrap(map(untuple, &paired))
    }

    /// The values the generator yields with no further choice (ν): its value if it is
    /// [`Free::pure`], else none.
    pub fn nullable(&self) -> Option<A> {
        match &*self.syntax {
            Syntax::Pure(value) => Some(typed::<A>(value)),
            _ => None,
        }
    }

    /// A random value, each select choosing uniformly (the generator interpretation); `None`
    /// for `void`.
    pub fn generate<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<A> {
        self.generate_with_choices(rng).map(|(value, _)| value)
    }

    /// A random value with the choice sequence that made it.
    pub fn generate_with_choices<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<(A, String)> {
        let mut choices = String::new();
        let value = generate(&self.syntax, rng, &mut choices)?;
        Some((typed::<A>(&value), choices))
    }

    /// The value `choices` parse to, with what is left of them (the parser interpretation);
    /// `None` if they do not parse.
    pub fn parse<'s>(&self, choices: &'s str) -> Option<(A, &'s str)> {
        let (value, rest) = parse(&self.syntax, choices)?;
        Some((typed::<A>(&value), rest))
    }
}

/// `value` as the `T` it holds.
fn typed<T: Clone + 'static>(value: &Value) -> T {
    value
        .downcast_ref::<T>()
        .expect("a free generator's value has the type of its handle")
        .clone()
}

/// The smart `select`: `void` branches dropped, nothing left is `void`.
fn select(branches: Vec<(char, Rc<Syntax>)>) -> Rc<Syntax> {
    let kept: Vec<(char, Rc<Syntax>)> = branches
        .into_iter()
        .filter(|(_, branch)| !matches!(**branch, Syntax::Void))
        .collect();
    for (index, (tag, _)) in kept.iter().enumerate() {
        assert!(
            kept[..index].iter().all(|(other, _)| other != tag),
            "Free::select: two branches are tagged {tag:?}; tags must tell branches apart"
        );
    }
    if kept.is_empty() {
        Rc::new(Syntax::Void)
    } else {
        Rc::new(Syntax::Select(kept))
    }
}

/// The smart `<$>`.
fn map(f: Rc<dyn Fn(&Value) -> Value>, x: &Rc<Syntax>) -> Rc<Syntax> {
    match &**x {
        Syntax::Void => Rc::clone(x),
        Syntax::Pure(value) => Rc::new(Syntax::Pure(f(value))),
        _ => Rc::new(Syntax::Map(f, Rc::clone(x))),
    }
}

/// The smart `⊗`: its value is a `(Value, Value)`.
fn pair(x: &Rc<Syntax>, y: &Rc<Syntax>) -> Rc<Syntax> {
    match (&**x, &**y) {
        (Syntax::Void, _) | (_, Syntax::Void) => Rc::new(Syntax::Void),
        (Syntax::Pure(a), _) => {
            let a = Rc::clone(a);
            map(
                Rc::new(move |b: &Value| Rc::new((Rc::clone(&a), Rc::clone(b))) as Value),
                y,
            )
        }
        (_, Syntax::Pure(b)) => {
            let b = Rc::clone(b);
            map(
                Rc::new(move |a: &Value| Rc::new((Rc::clone(a), Rc::clone(&b))) as Value),
                x,
            )
        }
        _ => Rc::new(Syntax::Pair(Rc::clone(x), Rc::clone(y))),
    }
}

/// The smart `>>=`: `void` stays `void`, and `bind` of a `pure` is the continuation of its
/// value.
fn bind(x: &Rc<Syntax>, f: Continuation) -> Rc<Syntax> {
    match &**x {
        Syntax::Void => Rc::clone(x),
        Syntax::Pure(value) => f(value),
        _ => Rc::new(Syntax::Bind(Rc::clone(x), f)),
    }
}

/// δ<sub>c</sub>, on the syntax (the paper's Section 4).
fn derivative(g: &Rc<Syntax>, c: char) -> Rc<Syntax> {
    grow_if_low(|| derivative_here(g, c))
}

/// [`derivative`], one level of the syntax.
fn derivative_here(g: &Rc<Syntax>, c: char) -> Rc<Syntax> {
    match &**g {
        Syntax::Void | Syntax::Pure(_) => Rc::new(Syntax::Void),
        Syntax::Map(f, x) => map(Rc::clone(f), &derivative(x, c)),
        // As for a pair: in simplified form the first generator of a bind is never nullable.
        Syntax::Bind(x, f) => bind(&derivative(x, c), Rc::clone(f)),
        // In simplified form the first of a pair is never nullable (the paper's Lemma 4.1).
        Syntax::Pair(x, y) => pair(&derivative(x, c), y),
        Syntax::Select(branches) => branches
            .iter()
            .find(|(tag, _)| *tag == c)
            .map_or_else(|| Rc::new(Syntax::Void), |(_, branch)| Rc::clone(branch)),
    }
}

fn generate<R: Rng + ?Sized>(g: &Syntax, rng: &mut R, choices: &mut String) -> Option<Value> {
    grow_if_low(|| generate_here(g, rng, choices))
}

/// [`generate`], one level of the syntax.
fn generate_here<R: Rng + ?Sized>(g: &Syntax, rng: &mut R, choices: &mut String) -> Option<Value> {
    match g {
        Syntax::Void => None,
        Syntax::Pure(value) => Some(Rc::clone(value)),
        Syntax::Pair(x, y) => {
            let a = generate(x, rng, choices)?;
            let b = generate(y, rng, choices)?;
            Some(Rc::new((a, b)))
        }
        Syntax::Map(f, x) => Some(f(&generate(x, rng, choices)?)),
        Syntax::Bind(x, f) => {
            let value = generate(x, rng, choices)?;
            generate(&f(&value), rng, choices)
        }
        Syntax::Select(branches) => {
            let (tag, branch) = &branches[below(rng, branches.len() as u64) as usize];
            choices.push(*tag);
            generate(branch, rng, choices)
        }
    }
}

fn parse<'s>(g: &Syntax, s: &'s str) -> Option<(Value, &'s str)> {
    grow_if_low(|| parse_here(g, s))
}

/// [`parse`], one level of the syntax.
fn parse_here<'s>(g: &Syntax, s: &'s str) -> Option<(Value, &'s str)> {
    match g {
        Syntax::Void => None,
        Syntax::Pure(value) => Some((Rc::clone(value), s)),
        Syntax::Pair(x, y) => {
            let (a, rest) = parse(x, s)?;
            let (b, rest) = parse(y, rest)?;
            Some((Rc::new((a, b)), rest))
        }
        Syntax::Map(f, x) => {
            let (value, rest) = parse(x, s)?;
            Some((f(&value), rest))
        }
        Syntax::Bind(x, f) => {
            let (value, rest) = parse(x, s)?;
            parse(&f(&value), rest)
        }
        Syntax::Select(branches) => {
            let mut chars = s.chars();
            let c = chars.next()?;
            let (_, branch) = branches.iter().find(|(tag, _)| *tag == c)?;
            parse(branch, chars.as_str())
        }
    }
}
