//! The simply typed lambda calculus, the example of *Reflecting on Random Generation*
//! (section 4.3): a reflective generator of well-typed terms.
//!
//! Terms use de Bruijn indices: `Var(0)` is the variable bound by the nearest enclosing `Lam`.
//! [`expr_of`] generates a term of a given type in a given context; [`well_typed`] is the
//! paper's `comap typeOf type_ >>= expr`: a type, then a closed term of that type. Run backward
//! on a term, it needs the type it would have chosen first, and finds it the only way it can:
//! by type inference ([`type_of`]). Applications do the same inside a term: the generator
//! chooses the argument's type, and backward infers it from the argument.
//!
//! So reflection is a type checker written by nobody: [`well_typed`] can produce a closed term
//! exactly when [`type_of`] gives it a type (within the generator's size, see [`expr_of`]).
//!
//! ```
//! use reflective::prelude::*;
//! use reflective_examples::stlc::{Expr, Type, type_of, well_typed};
//! let g = well_typed();
//! let term = g.sample(1);
//! assert!(type_of(&[], &term).is_some());
//! // (λx:Int. x + 1) 41
//! let typed = Expr::app(
//!     Expr::lam(Type::Int, Expr::plus(Expr::Var(0), Expr::Lit(1))),
//!     Expr::Lit(41),
//! );
//! assert!(g.can_generate(&typed));
//! // 41 applied to 1: 41 is no function.
//! assert!(!g.can_generate(&Expr::app(Expr::Lit(41), Expr::Lit(1))));
//! ```

use std::fmt;

use reflective::prelude::*;

/// A type: `Int`, or a function type `a -> b`.
///
/// `#[derive(Reflective)]` gives it the optics [`gen_type`] is written with (`Type::as_int`,
/// `Type::fun_0`, `Type::fun_1`) and a generator of its own, which [`Expr`]'s derived
/// generator uses for the annotations of lambdas.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub enum Type {
    /// Integers.
    Int,
    /// Functions from the first type to the second.
    Fun(Box<Type>, Box<Type>),
}

impl Type {
    /// The function type `from -> to`.
    pub fn fun(from: Type, to: Type) -> Type {
        Type::Fun(Box::new(from), Box::new(to))
    }
}

impl fmt::Display for Type {
    /// `Int`, `Int -> Int`; the arrow associates to the right: `(Int -> Int) -> Int`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => f.write_str("Int"),
            Type::Fun(from, to) => match **from {
                Type::Int => write!(f, "{from} -> {to}"),
                Type::Fun(..) => write!(f, "({from}) -> {to}"),
            },
        }
    }
}

/// A term, with de Bruijn indices for variables.
///
/// `#[derive(Reflective)]` gives it the optics [`expr_of`] is written with (`Expr::lit_0`,
/// `Expr::plus_0`, `Expr::plus_1`, `Expr::lam_0`, `Expr::lam_1`, `Expr::app_0`, `Expr::app_1`,
/// `Expr::var_0`), and a generator of its own: a generator of syntax, most of whose terms do
/// not type-check.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub enum Expr {
    /// An integer literal.
    Lit(u8),
    /// The sum of two integers.
    Plus(Box<Expr>, Box<Expr>),
    /// `λx:T. body`: a function of an argument of type `T`, which `body` calls `Var(0)`.
    Lam(Type, Box<Expr>),
    /// A function applied to an argument.
    App(Box<Expr>, Box<Expr>),
    /// The variable bound by the `n`-th enclosing lambda, counting from 0.
    Var(usize),
}

impl Expr {
    /// `left + right`.
    pub fn plus(left: Expr, right: Expr) -> Expr {
        Expr::Plus(Box::new(left), Box::new(right))
    }

    /// `λx:ty. body`.
    pub fn lam(ty: Type, body: Expr) -> Expr {
        Expr::Lam(ty, Box::new(body))
    }

    /// `function argument`.
    pub fn app(function: Expr, argument: Expr) -> Expr {
        Expr::App(Box::new(function), Box::new(argument))
    }

    /// The number of term constructors (types not counted).
    pub fn size(&self) -> usize {
        match self {
            Expr::Lit(_) | Expr::Var(_) => 1,
            Expr::Lam(_, body) => 1 + body.size(),
            Expr::Plus(a, b) | Expr::App(a, b) => 1 + a.size() + b.size(),
        }
    }
}

impl fmt::Display for Expr {
    /// Named variables (`x0` for the outermost binder), `λx0:Int. x0 + 1`; application binds
    /// tighter than `+`, a lambda's body extends as far right as it can.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self, 0, Precedence::Lambda)
    }
}

/// Where a term is printed: what may appear there without parentheses.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Precedence {
    /// Anything: the top, a lambda's body, the right of nothing.
    Lambda,
    /// A sum's left operand: sums, applications, atoms.
    Sum,
    /// A sum's right operand, a function: applications and atoms.
    App,
    /// An argument: atoms only.
    Atom,
}

fn write_expr(f: &mut fmt::Formatter<'_>, e: &Expr, binders: usize, at: Precedence) -> fmt::Result {
    let (own, body): (Precedence, &dyn Fn(&mut fmt::Formatter<'_>) -> fmt::Result) = match e {
        Expr::Lit(n) => return write!(f, "{n}"),
        Expr::Var(i) => {
            return match binders.checked_sub(i + 1) {
                Some(level) => write!(f, "x{level}"),
                None => write!(f, "free#{i}"),
            };
        }
        Expr::Lam(ty, inner) => (Precedence::Lambda, &move |f| {
            write!(f, "λx{binders}:{ty}. ")?;
            write_expr(f, inner, binders + 1, Precedence::Lambda)
        }),
        Expr::Plus(a, b) => (Precedence::Sum, &move |f| {
            write_expr(f, a, binders, Precedence::Sum)?;
            f.write_str(" + ")?;
            write_expr(f, b, binders, Precedence::App)
        }),
        Expr::App(function, argument) => (Precedence::App, &move |f| {
            write_expr(f, function, binders, Precedence::App)?;
            f.write_str(" ")?;
            write_expr(f, argument, binders, Precedence::Atom)
        }),
    };
    if own < at {
        f.write_str("(")?;
        body(f)?;
        f.write_str(")")
    } else {
        body(f)
    }
}

/// The type of `e` in the context `ctx`, if it has one: the type checker.
///
/// `ctx[i]` is the type of `Var(i)`, the variable of the `i`-th enclosing lambda (so `ctx[0]`
/// belongs to the innermost). A closed term is checked in the empty context, `&[]`.
pub fn type_of(ctx: &[Type], e: &Expr) -> Option<Type> {
    match e {
        Expr::Lit(_) => Some(Type::Int),
        Expr::Var(i) => ctx.get(*i).cloned(),
        Expr::Plus(a, b) => {
            (type_of(ctx, a)? == Type::Int && type_of(ctx, b)? == Type::Int).then_some(Type::Int)
        }
        Expr::Lam(ty, body) => {
            let inner = extend(ctx, ty);
            Some(Type::fun(ty.clone(), type_of(&inner, body)?))
        }
        Expr::App(function, argument) => match type_of(ctx, function)? {
            Type::Fun(from, to) => (type_of(ctx, argument)? == *from).then_some(*to),
            Type::Int => None,
        },
    }
}

/// `ctx` under one more binder, of type `ty`: it becomes `Var(0)`.
fn extend(ctx: &[Type], ty: &Type) -> Vec<Type> {
    let mut inner = Vec::with_capacity(ctx.len() + 1);
    inner.push(ty.clone());
    inner.extend_from_slice(ctx);
    inner
}

/// The paper's `type_`: a type, `Int` three times in four and a function type once; each
/// side of a function type gets half the size, and at size 0 the type is `Int`.
///
/// Backward it recognises the types no deeper than the size allows: at size `s`, about
/// `log2(s) + 1` arrows nested on either side.
pub fn gen_type(size: usize) -> Gen<Type, Type> {
    TYPES.with(|types| type_at(types, size))
}

thread_local! {
    /// [`gen_type`]'s generators, one per size, each built once per thread.
    static TYPES: Family<usize, Type, Type> = memoized_family(type_at);
    /// [`expr_of`]'s generators, one per context, type and size, each built once per thread:
    /// a term of a few dozen nodes would otherwise build a few dozen of them every time it is
    /// generated, reflected or mutated.
    static EXPRS: Family<(Vec<Type>, Type, usize), Expr, Expr> = memoized_family(expr_at);
}

/// [`gen_type`] at `size`, its smaller types from `types`.
fn type_at(types: &Family<usize, Type, Type>, size: usize) -> Gen<Type, Type> {
    if size == 0 {
        return exact(Type::Int).boxed();
    }
    pick((
        (3, "Int", pure(Type::Int).focus(Type::as_int)),
        (
            1,
            "Fun",
            zip(
                types.at(size / 2).focus_box(Type::fun_0),
                types.at(size / 2).focus_box(Type::fun_1),
            )
            .map(|(from, to)| Type::fun(from, to)),
        ),
    ))
    .boxed()
}

/// A term of type `ty` in the context `ctx` (see [`type_of`]): the paper's `expr`.
///
/// The choices, each labelled with the constructor it makes:
///
/// - `Var`: a variable of type `ty` (then which one, if several), weight 3, when `ctx` has one;
/// - `Lit`: a literal (any `u8`, small ones likelier), when `ty` is `Int`: weight 1, or 2 at
///   size 0;
/// - `Plus`: two integers, weight 2, when `ty` is `Int` and `size > 0`;
/// - `Lam`: when `ty` is `a -> b`, the lambda `λx:a. body` with a body of type `b` in `ctx`
///   extended with `a`, weight 3;
/// - `App`: a type `a` (from [`gen_type`] at half the size), then a function of type
///   `a -> ty` and an argument of type `a`, weight 2, when `size > 0`.
///
/// Every subterm gets half the size, so the term's depth is at most about `log2(size)`, plus
/// the arrows of `ty` a lambda undoes at size 0. Each branch is focused on its variant with
/// the derived optics: `Expr::plus_0` and `Expr::plus_1` on the operands, `Expr::lam_0` on the
/// annotation (which must be `a`, as `exact` checks) and `Expr::lam_1` on the body,
/// `Expr::app_0` and `Expr::app_1` on the function and the argument. The argument's type is
/// not part of the term: backward it is recovered by type inference, `type_of` on the
/// argument, and reflection goes on only if the function then has type `a -> ty`.
///
/// The generators of every context, type and size are members of a [`memoized_family`]: each
/// is built the first time a thread needs it and kept, so that a term's nodes do not each
/// build a `pick` of boxed branches again every time a term is generated, reflected or
/// mutated.
pub fn expr_of(ctx: Vec<Type>, ty: Type, size: usize) -> Gen<Expr, Expr> {
    EXPRS.with(|exprs| exprs.at((ctx, ty, size)).boxed())
}

/// [`expr_of`] at `ctx`, `ty` and `size`, its subterms from `exprs`.
fn expr_at(
    exprs: &Family<(Vec<Type>, Type, usize), Expr, Expr>,
    (ctx, ty, size): (Vec<Type>, Type, usize),
) -> Gen<Expr, Expr> {
    let half = size / 2;
    let mut branches: Vec<(u32, &'static str, Gen<Expr, Expr>)> = Vec::new();

    let vars: Vec<reflective::combinator::Exact<usize>> = (0..ctx.len())
        .filter(|&i| ctx[i] == ty)
        .map(exact)
        .collect();
    if !vars.is_empty() {
        branches.push((
            3,
            "Var",
            one_of(vars).focus(Expr::var_0).map(Expr::from_var).boxed(),
        ));
    }

    match &ty {
        Type::Int => {
            branches.push((
                if size > 0 { 1 } else { 2 },
                "Lit",
                int::<u8>().focus(Expr::lit_0).map(Expr::from_lit).boxed(),
            ));
            if size > 0 {
                let operand = exprs.at((ctx.clone(), Type::Int, half));
                branches.push((
                    2,
                    "Plus",
                    zip(
                        operand.clone().focus_box(Expr::plus_0),
                        operand.focus_box(Expr::plus_1),
                    )
                    .map(|(a, b)| Expr::from_plus(Box::new(a), Box::new(b)))
                    .boxed(),
                ));
            }
        }
        Type::Fun(from, to) => {
            let inner = extend(&ctx, from);
            let to = (**to).clone();
            branches.push((
                3,
                "Lam",
                zip(
                    exact((**from).clone()).focus(Expr::lam_0),
                    exprs.at((inner, to, half)).focus_box(Expr::lam_1),
                )
                .map(|(annotation, body)| Expr::from_lam(annotation, Box::new(body)))
                .boxed(),
            ));
        }
    }

    if size > 0 {
        let infer = ctx.clone();
        let exprs = exprs.clone();
        branches.push((
            2,
            "App",
            gen_type(half)
                // Backward: the argument's type, by type inference.
                .comap(move |e: &Expr| {
                    Expr::app_1(e).and_then(|argument| type_of(&infer, argument))
                })
                // The application's generator for each argument type, built once.
                .bind({
                    let applications =
                        memoized_family(move |_: &Family<Type, Expr, Expr>, from| {
                            let function =
                                exprs.at((ctx.clone(), Type::fun(from.clone(), ty.clone()), half));
                            let argument = exprs.at((ctx.clone(), from, half));
                            zip(
                                function.focus_box(Expr::app_0),
                                argument.focus_box(Expr::app_1),
                            )
                            .map(|(f, x)| Expr::from_app(Box::new(f), Box::new(x)))
                        });
                    move |from: Type| applications.at(from)
                })
                .boxed(),
        ));
    }

    pick(branches).boxed()
}

/// The paper's `comap typeOf type_ >>= expr`: a type from [`gen_type`], then a closed term of
/// that type from [`expr_of`], both at the run's size.
///
/// Backward, the type is the term's, by [`type_of`]: a term that has none (ill-typed, or with
/// a free variable) reflects nothing. Every term it generates is well typed.
pub fn well_typed() -> Gen<Expr, Expr> {
    sized(|size| {
        gen_type(size)
            .comap(|e: &Expr| type_of(&[], e))
            .bind(move |ty| expr_of(Vec::new(), ty, size))
    })
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memoized terms are the terms [`expr_at`] makes as a plain `family`: the same
    /// values and choices from the same seeds, the same reflections, at several types and
    /// sizes, with members kept from earlier runs. It checks the memoization of terms; the
    /// types (`gen_type`) and each application's family are memoized on both sides.
    #[test]
    fn memoized_terms_are_the_plain_familys() {
        use rand::SeedableRng;
        let plain = family(expr_at);
        let int_to_int = Type::fun(Type::Int, Type::Int);
        for ty in [
            Type::Int,
            int_to_int.clone(),
            Type::fun(int_to_int, Type::Int),
        ] {
            for size in [0, 3, 10, 50, 100] {
                let memoized = expr_of(Vec::new(), ty.clone(), size);
                let reference = plain.at((Vec::new(), ty.clone(), size));
                for seed in 0..30 {
                    let mut a = reflective::DefaultRng::seed_from_u64(seed);
                    let mut b = reflective::DefaultRng::seed_from_u64(seed);
                    let (m, r) = (
                        memoized.generate(&mut a, size),
                        reference.generate(&mut b, size),
                    );
                    assert_eq!(m.value, r.value, "{ty:?} at {size}, seed {seed}");
                    assert_eq!(m.tree.choices(), r.tree.choices());
                    assert_eq!(memoized.choices(&m.value), reference.choices(&m.value));
                }
            }
        }
    }

    fn lit(n: u8) -> Expr {
        Expr::Lit(n)
    }

    fn var(i: usize) -> Expr {
        Expr::Var(i)
    }

    /// Terms typed by hand, closed, with whether each is well typed.
    fn hand_typed() -> Vec<(Expr, bool)> {
        let id_int = Expr::lam(Type::Int, var(0));
        let int_to_int = Type::fun(Type::Int, Type::Int);
        vec![
            (lit(7), true),
            (Expr::plus(lit(1), lit(2)), true),
            (id_int.clone(), true),
            (Expr::app(id_int.clone(), lit(41)), true),
            (
                Expr::app(
                    Expr::lam(Type::Int, Expr::plus(var(0), lit(1))),
                    Expr::plus(lit(40), lit(1)),
                ),
                true,
            ),
            // λf:Int->Int. λx:Int. f (f x)
            (
                Expr::lam(
                    int_to_int.clone(),
                    Expr::lam(Type::Int, Expr::app(var(1), Expr::app(var(1), var(0)))),
                ),
                true,
            ),
            // (λf:Int->Int. f 3) (λx:Int. x + x)
            (
                Expr::app(
                    Expr::lam(int_to_int.clone(), Expr::app(var(0), lit(3))),
                    Expr::lam(Type::Int, Expr::plus(var(0), var(0))),
                ),
                true,
            ),
            // λx:Int. λy:Int. x (shadowing, the outer variable)
            (Expr::lam(Type::Int, Expr::lam(Type::Int, var(1))), true),
            (lit(255), true),
            // Ill typed:
            (var(0), false),
            (Expr::lam(Type::Int, var(1)), false),
            (Expr::app(lit(1), lit(2)), false),
            (Expr::plus(lit(1), id_int.clone()), false),
            (Expr::app(id_int.clone(), id_int.clone()), false),
            (
                Expr::lam(int_to_int.clone(), Expr::plus(var(0), lit(1))),
                false,
            ),
            (
                Expr::app(Expr::lam(int_to_int, Expr::app(var(0), lit(3))), lit(3)),
                false,
            ),
            (Expr::lam(Type::Int, Expr::app(var(0), var(0))), false),
        ]
    }

    #[test]
    fn the_type_checker_on_hand_typed_terms() {
        for (term, typed) in hand_typed() {
            assert_eq!(type_of(&[], &term).is_some(), typed, "{term}");
        }
        let twice = &hand_typed()[5].0;
        let int_to_int = Type::fun(Type::Int, Type::Int);
        assert_eq!(
            type_of(&[], twice),
            Some(Type::fun(int_to_int.clone(), int_to_int))
        );
        assert_eq!(twice.to_string(), "λx0:Int -> Int. λx1:Int. x0 (x0 x1)");
        assert_eq!(
            hand_typed()[6].0.to_string(),
            "(λx0:Int -> Int. x0 3) (λx0:Int. x0 + x0)"
        );
        assert_eq!(
            Type::fun(Type::fun(Type::Int, Type::Int), Type::Int).to_string(),
            "(Int -> Int) -> Int"
        );
    }

    #[test]
    fn generated_terms_have_the_type_they_were_generated_at() {
        let ctx = vec![Type::Int, Type::fun(Type::Int, Type::Int)];
        for seed in 0..300 {
            let ty = gen_type(DEFAULT_SIZE).sample(seed);
            let closed = expr_of(Vec::new(), ty.clone(), DEFAULT_SIZE).sample(seed);
            assert_eq!(type_of(&[], &closed), Some(ty.clone()), "{closed}");
            let open = expr_of(ctx.clone(), ty.clone(), DEFAULT_SIZE).sample(seed);
            assert_eq!(type_of(&ctx, &open), Some(ty), "{open}");
            let term = well_typed().sample(seed);
            assert!(type_of(&[], &term).is_some(), "{term}");
        }
    }

    #[test]
    fn generated_terms_reflect_in_one_way_and_replay() {
        let g = well_typed();
        let mut rng = DefaultRng::seed_from_u64(4);
        for _ in 0..300 {
            let generated = g.generate(&mut rng, DEFAULT_SIZE);
            let term = &generated.value;
            assert!(g.can_generate(term), "{term}");
            assert!(g.probability_of(term) > 0.0, "{term}");
            assert_eq!(g.choices(term), vec![generated.tree.clone()], "{term}");
            assert_eq!(g.replay(&generated.tree).as_ref(), Some(term));
        }
    }

    #[test]
    fn reproductions_of_generated_terms_are_the_terms() {
        let g = well_typed();
        let mut rng = DefaultRng::seed_from_u64(5);
        for _ in 0..200 {
            let term = g.generate_value(&mut rng, DEFAULT_SIZE);
            let reproductions = g.reflector().reproductions(&term).expect("within budget");
            assert_eq!(reproductions, vec![term]);
        }
        for (term, typed) in hand_typed() {
            let reproductions = g.reflector().reproductions(&term).expect("within budget");
            let expected = if typed { vec![term] } else { Vec::new() };
            assert_eq!(reproductions, expected);
        }
    }

    #[test]
    fn hand_typed_terms_reflect_iff_well_typed() {
        let g = well_typed();
        for (term, typed) in hand_typed() {
            assert_eq!(g.can_generate(&term), typed, "{term}");
            assert_eq!(g.probability_of(&term) > 0.0, typed, "{term}");
            assert_eq!(g.choices(&term).len(), usize::from(typed), "{term}");
        }
        let labels: Vec<String> = g.reflect(&hand_typed()[4].0)[0]
            .iter()
            .map(Label::to_string)
            .collect();
        assert_eq!(
            labels,
            [
                "Int", "App", "Int", "Lam", "Plus", "Var", "Lit", "Plus", "Lit", "Lit"
            ]
        );
    }

    #[test]
    fn small_syntactic_terms_reflect_iff_well_typed() {
        // Terms from the derived generator of syntax, small enough for `well_typed`'s size:
        // reflection and the type checker agree on each, in both directions.
        let syntax = Expr::arbitrary_reflective();
        let g = well_typed();
        let mut rng = DefaultRng::seed_from_u64(6);
        let (mut typed, mut untyped) = (0, 0);
        for _ in 0..3_000 {
            let term = syntax.generate_value(&mut rng, 6);
            let well = type_of(&[], &term).is_some();
            assert_eq!(g.can_generate(&term), well, "{term}");
            if well { typed += 1 } else { untyped += 1 }
        }
        assert!(typed >= 50 && untyped >= 50, "{typed} typed, {untyped} not");
    }

    #[test]
    fn terms_beyond_the_size_do_not_reflect() {
        // A sum nested deeper than size 100 allows halving: well typed, but not generated.
        let mut deep = lit(0);
        for n in 0..10 {
            deep = Expr::plus(deep, lit(n));
        }
        assert!(type_of(&[], &deep).is_some());
        assert!(!well_typed().can_generate(&deep));
        assert!(
            well_typed()
                .reflector()
                .size(2_000)
                .can_generate(&deep)
                .unwrap()
        );
    }
}
