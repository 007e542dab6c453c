//! The simply typed lambda calculus workload's strategies from proptest and quickcheck.

use proptest::prelude::*;
use proptest::strategy::Union;
use quickcheck::Gen;
use reflective_examples::etna::harness::Strategy as Way;
use reflective_examples::etna::stlc::{Expr, Typ, abs, app, fun};

use super::rbt_peers::RECURSION;
use super::runners::{coin, proptest_strategy, quickcheck_strategy, uniform};

/// Types as proptest builds recursive types: `prop_recursive` from `Bool`.
fn pt_typ() -> impl Strategy<Value = Typ> + Clone {
    let (depth, size, branch) = RECURSION;
    Just(Typ::TBool).prop_recursive(depth, size, branch, |inner| {
        (inner.clone(), inner).prop_map(|(a, b)| fun(a, b))
    })
}

/// Terms as proptest builds recursive types: `prop_recursive` from `any::<i64>()` variables
/// and `any::<bool>()` literals, abstractions over [`pt_typ`] and applications.
fn pt_expr() -> impl Strategy<Value = Expr> {
    let (depth, size, branch) = RECURSION;
    let leaf = prop_oneof![
        any::<i64>().prop_map(Expr::Var),
        any::<bool>().prop_map(Expr::Bool)
    ];
    leaf.prop_recursive(depth, size, branch, |inner| {
        prop_oneof![
            (pt_typ(), inner.clone()).prop_map(|(t, e)| abs(t, e)),
            (inner.clone(), inner).prop_map(|(f, x)| app(f, x)),
        ]
    })
}

/// `arbitrary :: Gen Typ` of ETNA's `Correct.hs` at size `n`, built lazily.
fn pt_typ_at(n: usize) -> BoxedStrategy<Typ> {
    if n == 0 {
        return Just(Typ::TBool).boxed();
    }
    any::<bool>()
        .prop_flat_map(move |is_fun| {
            if is_fun {
                (pt_typ_at(n / 2), pt_typ_at(n / 2))
                    .prop_map(|(a, b)| fun(a, b))
                    .boxed()
            } else {
                Just(Typ::TBool).boxed()
            }
        })
        .boxed()
}

/// `go n ctx t` of `Correct.hs`'s `genExactExpr` as a proptest strategy, as
/// [`gen_exact_expr`](reflective_examples::etna::stlc::gen_exact_expr) is the reflective one.
fn pt_exact(ctx: Vec<Typ>, t: Typ, n: usize, top: usize) -> BoxedStrategy<Expr> {
    let mut options = vec![pt_one(&t)];
    if n > 0 {
        if let Typ::TFun(t1, t2) = &t {
            let (t1, t2) = ((**t1).clone(), (**t2).clone());
            let inner: Vec<Typ> = std::iter::once(t1.clone()).chain(ctx.clone()).collect();
            let body = Just(()).prop_flat_map(move |()| {
                let t1 = t1.clone();
                pt_exact(inner.clone(), t2.clone(), n - 1, top)
                    .prop_map(move |e| abs(t1.clone(), e))
            });
            options.push(body.boxed());
        }
        let (ctx, t) = (ctx.clone(), t.clone());
        let application = pt_typ_at(top).prop_flat_map(move |t2| {
            let f = pt_exact(ctx.clone(), fun(t2.clone(), t.clone()), n / 2, top);
            (f, pt_exact(ctx.clone(), t2, n / 2, top)).prop_map(|(f, x)| app(f, x))
        });
        options.push(application.boxed());
    }
    let vars: Vec<i64> = (0..ctx.len())
        .filter(|&i| ctx[i] == t)
        .map(|i| i as i64)
        .collect();
    if !vars.is_empty() {
        options.push(proptest::sample::select(vars).prop_map(Expr::Var).boxed());
    }
    Union::new(options).boxed()
}

/// `genOne`: a literal, or abstractions down to one.
fn pt_one(t: &Typ) -> BoxedStrategy<Expr> {
    match t {
        Typ::TBool => any::<bool>().prop_map(Expr::Bool).boxed(),
        Typ::TFun(t1, t2) => {
            let t1 = (**t1).clone();
            pt_one(t2).prop_map(move |e| abs(t1.clone(), e)).boxed()
        }
    }
}

/// Well-typed terms: a size uniform in `0..=100`, a type, a closed term of that type.
fn pt_bespoke() -> impl Strategy<Value = Expr> {
    (0..=100usize).prop_flat_map(|size| {
        pt_typ_at(size).prop_flat_map(move |t| pt_exact(Vec::new(), t, size, size))
    })
}

/// [`Expr`] behind a wrapper, for a hand-written quickcheck `Arbitrary`.
#[derive(Clone, Debug)]
struct QcExpr(Expr);

impl quickcheck::Arbitrary for QcExpr {
    /// As ETNA's `Quick` strategy: `genericArbitraryRec (1 % 1 % 1 % 1 % ())` with `Bool True`
    /// as base case.
    fn arbitrary(g: &mut Gen) -> Self {
        let size = g.size();
        QcExpr(qc_expr(g, size))
    }
}

/// generic-random on [`Expr`]: `Bool True` at size 0; otherwise one of the four constructors,
/// equally likely, their fields sharing the size. A variable's `Int` is `arbitrary` at the
/// size, uniform in `-size..=size`.
fn qc_expr(g: &mut Gen, size: usize) -> Expr {
    if size == 0 {
        return Expr::Bool(true);
    }
    let half = size / 2;
    match uniform(g, 0, 3) {
        0 => Expr::Var(uniform(g, -(size as i64), size as i64)),
        1 => Expr::Bool(coin(g)),
        2 => {
            let t = qc_typ(g, half);
            abs(t, qc_expr(g, half))
        }
        _ => {
            let f = qc_expr(g, half);
            app(f, qc_expr(g, half))
        }
    }
}

/// generic-random on [`Typ`]: `Bool` at size 0, else `Bool` or a function type (each side at
/// half the size), equally likely.
fn qc_typ(g: &mut Gen, size: usize) -> Typ {
    if size == 0 || coin(g) {
        return Typ::TBool;
    }
    let a = qc_typ(g, size / 2);
    fun(a, qc_typ(g, size / 2))
}

/// proptest's two strategies and quickcheck's, in the order of the tables.
pub fn strategies() -> Vec<Way<Expr>> {
    let (depth, size, branch) = RECURSION;
    vec![
        proptest_strategy(
            "proptest derived",
            &format!(
                "`prop_recursive({depth}, {size}, {branch}, ..)` over `any::<i64>()` variables, \
                 `any::<bool>()` literals, abstractions and applications (proptest-derive cannot \
                 derive recursive types)"
            ),
            pt_expr(),
        ),
        proptest_strategy(
            "proptest bespoke",
            "well-typed terms, ETNA's `Correct` generator as a proptest strategy, at a size \
             uniform in 0..=100",
            pt_bespoke(),
        ),
        quickcheck_strategy(
            "quickcheck",
            "hand-written `Arbitrary` after ETNA's `Quick` (generic-random: `Bool True` at size \
             0, else each constructor 1:1, fields sharing the size; variables in -size..=size), \
             `Gen` size 100",
            |QcExpr(e)| e,
        ),
    ]
}
