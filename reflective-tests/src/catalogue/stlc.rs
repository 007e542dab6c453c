//! A simply typed lambda calculus fragment, and a generator of well-typed terms.
//!
//! Types are `Int` and functions; terms are integer literals, addition, lambdas with a type
//! annotation, application and de Bruijn variables. [`well_typed`] generates a type, then a
//! term of that type; backward, it recovers the type from the term with `comap` and
//! [`type_of`], and in an application the argument's type the same way.

use std::sync::Arc;

use reflective::prelude::*;

/// The deepest type [`well_typed`] generates at the top, and for an application's argument.
pub const TYPE_DEPTH: usize = 2;

/// The literals [`well_typed`] generates: `LITERALS..=LITERALS` around zero.
pub const LITERALS: i64 = 1000;

/// A type: `Int` or a function type.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Type {
    /// Integers.
    Int,
    /// Functions from the first type to the second.
    Fun(Box<Type>, Box<Type>),
}

impl Type {
    /// The function type `arg -> res`.
    pub fn fun(arg: Type, res: Type) -> Type {
        Type::Fun(Box::new(arg), Box::new(res))
    }

    /// How many function arrows nest in the type (`Int` has depth 0).
    pub fn depth(&self) -> usize {
        match self {
            Type::Int => 0,
            Type::Fun(arg, res) => 1 + arg.depth().max(res.depth()),
        }
    }
}

/// A term, with de Bruijn variables: `Var(0)` is the innermost bound variable.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Term {
    /// An integer literal.
    Lit(i64),
    /// The sum of two integer terms.
    Plus(Box<Term>, Box<Term>),
    /// A lambda binding a variable of the given type.
    Lam(Type, Box<Term>),
    /// A function applied to an argument.
    App(Box<Term>, Box<Term>),
    /// A bound variable, counting binders outward from 0.
    Var(usize),
}

impl Term {
    /// `a + b`.
    pub fn plus(a: Term, b: Term) -> Term {
        Term::Plus(Box::new(a), Box::new(b))
    }

    /// `\x: ty. body`.
    pub fn lam(ty: Type, body: Term) -> Term {
        Term::Lam(ty, Box::new(body))
    }

    /// `f x`.
    pub fn app(f: Term, x: Term) -> Term {
        Term::App(Box::new(f), Box::new(x))
    }
}

/// The type of `term` in the context `ctx` (the innermost binder last), or `None` if it is
/// ill-typed or has a free variable.
pub fn type_of(ctx: &[Type], term: &Term) -> Option<Type> {
    match term {
        Term::Lit(_) => Some(Type::Int),
        Term::Var(index) => ctx.len().checked_sub(index + 1).map(|i| ctx[i].clone()),
        Term::Plus(a, b) => {
            (type_of(ctx, a)? == Type::Int && type_of(ctx, b)? == Type::Int).then_some(Type::Int)
        }
        Term::Lam(ty, body) => {
            let mut inner = ctx.to_vec();
            inner.push(ty.clone());
            Some(Type::fun(ty.clone(), type_of(&inner, body)?))
        }
        Term::App(f, x) => match type_of(ctx, f)? {
            Type::Fun(arg, res) if type_of(ctx, x).as_ref() == Some(&*arg) => Some(*res),
            _ => None,
        },
    }
}

/// Types of depth at most `depth`: `Int` twice as likely as a function at each level.
pub fn types(depth: usize) -> Gen<Type, Type> {
    if depth == 0 {
        return exact(Type::Int).boxed();
    }
    let arg = types(depth - 1).focus(|t: &Type| match t {
        Type::Fun(arg, _) => Some(&**arg),
        Type::Int => None,
    });
    let res = types(depth - 1).focus(|t: &Type| match t {
        Type::Fun(_, res) => Some(&**res),
        Type::Int => None,
    });
    pick((
        (2, "Int", exact(Type::Int)),
        (1, "Fun", zip(arg, res).map(|(a, r)| Type::fun(a, r))),
    ))
    .boxed()
}

/// Well-typed closed terms: a type of depth at most [`TYPE_DEPTH`], then a term of that type.
/// Additions and applications nest at most as deep as the number of halvings of the size.
pub fn well_typed() -> Gen<Term, Term> {
    sized(|size| {
        types(TYPE_DEPTH)
            .comap(|term: &Term| type_of(&[], term))
            .bind(move |ty| term_of(Arc::from(Vec::new()), ty, size))
    })
    .boxed()
}

/// Terms of type `ty` in the context `ctx`, with a budget `size` for additions and
/// applications (each halves it).
pub fn term_of(ctx: Arc<[Type]>, ty: Type, size: usize) -> Gen<Term, Term> {
    let mut branches: Vec<(u32, &'static str, Gen<Term, Term>)> = Vec::new();
    let vars: Vec<reflective::combinator::Exact<Term>> = ctx
        .iter()
        .rev()
        .enumerate()
        .filter(|(_, var_ty)| **var_ty == ty)
        .map(|(index, _)| exact(Term::Var(index)))
        .collect();
    if !vars.is_empty() {
        branches.push((2, "var", one_of(vars).boxed()));
    }
    match &ty {
        Type::Int => {
            let lit = int_in(-LITERALS..=LITERALS)
                .focus(|t: &Term| match t {
                    Term::Lit(n) => Some(n),
                    _ => None,
                })
                .map(Term::Lit);
            branches.push((2, "lit", lit.boxed()));
            if size > 0 {
                let half = size / 2;
                let (c1, c2) = (Arc::clone(&ctx), Arc::clone(&ctx));
                let a = lazy(move || term_of(Arc::clone(&c1), Type::Int, half)).focus(
                    |t: &Term| match t {
                        Term::Plus(a, _) => Some(&**a),
                        _ => None,
                    },
                );
                let b = lazy(move || term_of(Arc::clone(&c2), Type::Int, half)).focus(
                    |t: &Term| match t {
                        Term::Plus(_, b) => Some(&**b),
                        _ => None,
                    },
                );
                branches.push((1, "plus", zip(a, b).map(|(a, b)| Term::plus(a, b)).boxed()));
            }
        }
        Type::Fun(arg, res) => {
            let (arg, res) = ((**arg).clone(), (**res).clone());
            let mut inner = ctx.to_vec();
            inner.push(arg.clone());
            let inner: Arc<[Type]> = Arc::from(inner);
            let annotation = arg.clone();
            let lam = lazy(move || term_of(Arc::clone(&inner), res.clone(), size))
                .focus(move |t: &Term| match t {
                    Term::Lam(ann, body) if *ann == annotation => Some(&**body),
                    _ => None,
                })
                .map(move |body| Term::lam(arg.clone(), body));
            branches.push((3, "lam", lam.boxed()));
        }
    }
    if size > 0 {
        let half = size / 2;
        let ctx_for_type = Arc::clone(&ctx);
        let app = types(TYPE_DEPTH)
            .comap(move |t: &Term| match t {
                Term::App(_, x) => type_of(&ctx_for_type, x),
                _ => None,
            })
            .bind(move |arg_ty| {
                let f = term_of(
                    Arc::clone(&ctx),
                    Type::fun(arg_ty.clone(), ty.clone()),
                    half,
                )
                .focus(|t: &Term| match t {
                    Term::App(f, _) => Some(&**f),
                    _ => None,
                });
                let x = term_of(Arc::clone(&ctx), arg_ty, half).focus(|t: &Term| match t {
                    Term::App(_, x) => Some(&**x),
                    _ => None,
                });
                zip(f, x).map(|(f, x)| Term::app(f, x))
            });
        branches.push((1, "app", app.boxed()));
    }
    pick(branches).boxed()
}

/// Whether [`well_typed`] can produce `term` at `size`: the oracle it is checked against.
///
/// The term must be closed and well-typed, its type and the type of every application's
/// argument must have depth at most [`TYPE_DEPTH`], its literals must lie within
/// [`LITERALS`], and additions and applications must fit the size (each halves it, and none
/// is allowed at size 0).
pub fn in_scope(term: &Term, size: usize) -> bool {
    fn fits(ctx: &mut Vec<Type>, term: &Term, size: usize) -> bool {
        match term {
            Term::Lit(n) => (-LITERALS..=LITERALS).contains(n),
            Term::Var(_) => true,
            Term::Plus(a, b) => size > 0 && fits(ctx, a, size / 2) && fits(ctx, b, size / 2),
            Term::App(f, x) => {
                size > 0
                    && type_of(ctx, x).is_some_and(|arg| arg.depth() <= TYPE_DEPTH)
                    && fits(ctx, f, size / 2)
                    && fits(ctx, x, size / 2)
            }
            Term::Lam(ty, body) => {
                ctx.push(ty.clone());
                let fits = fits(ctx, body, size);
                ctx.pop();
                fits
            }
        }
    }
    type_of(&[], term).is_some_and(|ty| ty.depth() <= TYPE_DEPTH)
        && fits(&mut Vec::new(), term, size)
}

/// Arbitrary terms, typed or not, nested at most `depth` deep, with variables `0..=2`, literals
/// a little beyond [`LITERALS`] and annotations of depth at most [`TYPE_DEPTH`] + 1: the
/// inputs the validity of [`well_typed`] is compared with [`in_scope`] on.
pub fn any_term(depth: usize) -> Gen<Term, Term> {
    let lit = int_in(-LITERALS - 5..=LITERALS + 5)
        .focus(|t: &Term| match t {
            Term::Lit(n) => Some(n),
            _ => None,
        })
        .map(Term::Lit);
    let var = range(0usize..=2)
        .focus(|t: &Term| match t {
            Term::Var(i) => Some(i),
            _ => None,
        })
        .map(Term::Var);
    if depth == 0 {
        return frequency(((1, lit), (1, var))).boxed();
    }
    let sub = || lazy(move || any_term(depth - 1));
    let plus = zip(
        sub().focus(|t: &Term| match t {
            Term::Plus(a, _) => Some(&**a),
            _ => None,
        }),
        sub().focus(|t: &Term| match t {
            Term::Plus(_, b) => Some(&**b),
            _ => None,
        }),
    )
    .map(|(a, b)| Term::plus(a, b));
    let app = zip(
        sub().focus(|t: &Term| match t {
            Term::App(f, _) => Some(&**f),
            _ => None,
        }),
        sub().focus(|t: &Term| match t {
            Term::App(_, x) => Some(&**x),
            _ => None,
        }),
    )
    .map(|(f, x)| Term::app(f, x));
    let lam = zip(
        types(TYPE_DEPTH + 1).focus(|t: &Term| match t {
            Term::Lam(ty, _) => Some(ty),
            _ => None,
        }),
        sub().focus(|t: &Term| match t {
            Term::Lam(_, body) => Some(&**body),
            _ => None,
        }),
    )
    .map(|(ty, body)| Term::lam(ty, body));
    frequency(((2, lit), (2, var), (1, plus), (2, app), (3, lam))).boxed()
}
