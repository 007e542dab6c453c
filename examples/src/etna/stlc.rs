//! ETNA's simply typed lambda calculus workload: de Bruijn terms with booleans, parallel
//! reduction, ten planted bugs in shifting and substitution, and two preservation properties.
//!
//! Ported from `workloads/Haskell/STLC/src/Impl.hs` and `workloads/Haskell/STLC/src/Spec.hs` of
//! <https://github.com/jwshii/etna> at commit `f22b56be223b88a277f2823fb4c69867ccc53199`, and
//! the bespoke generator from `workloads/Haskell/STLC/src/Strategy/Correct.hs`. The functions
//! keep the Haskell's names (in snake case); each `{-!! name -}` block of `Impl.hs` is a
//! [`StlcMutant`], and the functions take the mutant and branch where the Haskell has the
//! marker. ETNA's tool lists no pairs for this workload, so every mutant runs with both
//! properties.
//!
//! This is not the term type of the `stlc` example ([`crate::stlc`]: integers and `+`), so the
//! bespoke generator is written anew, in the same style, after ETNA's `Correct` strategy.
//!
//! Variables are `i64` de Bruijn indices (Haskell's `Int`, 64 bits, with its wrapping
//! arithmetic); a context lists the types of the enclosing binders, innermost first, as the
//! Haskell's `[Typ]` does.

use std::fmt;

use reflective::prelude::*;

use super::harness::Pair;

/// A type: `Bool` or a function type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub enum Typ {
    /// `Bool`.
    TBool,
    /// `a -> b`.
    TFun(Box<Typ>, Box<Typ>),
}

/// The function type `a -> b`.
pub fn fun(a: Typ, b: Typ) -> Typ {
    Typ::TFun(Box::new(a), Box::new(b))
}

/// A term, with de Bruijn indices (0 is the innermost binder).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
pub enum Expr {
    /// A variable.
    Var(i64),
    /// A boolean literal.
    Bool(bool),
    /// `λ:t. body`.
    Abs(Typ, Box<Expr>),
    /// An application.
    App(Box<Expr>, Box<Expr>),
}

/// `λ:t. body`.
pub fn abs(t: Typ, body: Expr) -> Expr {
    Expr::Abs(t, Box::new(body))
}

/// The application `f x`.
pub fn app(f: Expr, x: Expr) -> Expr {
    Expr::App(Box::new(f), Box::new(x))
}

impl fmt::Display for Typ {
    /// `Bool`, `Bool -> Bool`, `(Bool -> Bool) -> Bool`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Typ::TBool => f.write_str("Bool"),
            Typ::TFun(a, b) if matches!(**a, Typ::TFun(..)) => write!(f, "({a}) -> {b}"),
            Typ::TFun(a, b) => write!(f, "{a} -> {b}"),
        }
    }
}

impl fmt::Display for Expr {
    /// `#0` for a variable, `λ:Bool. #0`, `(f x)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Var(n) => write!(f, "#{n}"),
            Expr::Bool(b) => write!(f, "{b}"),
            Expr::Abs(t, e) => write!(f, "(λ:{t}. {e})"),
            Expr::App(e1, e2) => write!(f, "({e1} {e2})"),
        }
    }
}

/// The correct implementation ([`StlcMutant::None`]) or one of the ten planted bugs of
/// `Impl.hs`, each named as its `{-!! name -}` marker (in snake case: `substTop_no_shift` is
/// `subst_top_no_shift`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StlcMutant {
    /// The correct implementation.
    None,
    /// `shift` shifts no variable.
    ShiftVarNone,
    /// `shift` shifts every variable, bound ones too.
    ShiftVarAll,
    /// `shift` leaves the variable equal to the cutoff unshifted.
    ShiftVarLeq,
    /// `shift` does not raise the cutoff under a binder.
    ShiftAbsNoIncr,
    /// `subst` replaces every variable.
    SubstVarAll,
    /// `subst` replaces no variable.
    SubstVarNone,
    /// `subst` does not shift the term it substitutes under a binder.
    SubstAbsNoShift,
    /// `subst` does not raise the index it replaces under a binder.
    SubstAbsNoIncr,
    /// `substTop` neither shifts the argument up nor the result down.
    SubstTopNoShift,
    /// `substTop` does not shift the result down.
    SubstTopNoShiftBack,
}

impl StlcMutant {
    /// The ten bugs, in `Impl.hs`'s order.
    pub const BUGS: [StlcMutant; 10] = [
        StlcMutant::ShiftVarNone,
        StlcMutant::ShiftVarAll,
        StlcMutant::ShiftVarLeq,
        StlcMutant::ShiftAbsNoIncr,
        StlcMutant::SubstVarAll,
        StlcMutant::SubstVarNone,
        StlcMutant::SubstAbsNoShift,
        StlcMutant::SubstAbsNoIncr,
        StlcMutant::SubstTopNoShift,
        StlcMutant::SubstTopNoShiftBack,
    ];

    /// The marker's name in snake case (`"none"` for the correct implementation).
    pub fn name(self) -> &'static str {
        match self {
            StlcMutant::None => "none",
            StlcMutant::ShiftVarNone => "shift_var_none",
            StlcMutant::ShiftVarAll => "shift_var_all",
            StlcMutant::ShiftVarLeq => "shift_var_leq",
            StlcMutant::ShiftAbsNoIncr => "shift_abs_no_incr",
            StlcMutant::SubstVarAll => "subst_var_all",
            StlcMutant::SubstVarNone => "subst_var_none",
            StlcMutant::SubstAbsNoShift => "subst_abs_no_shift",
            StlcMutant::SubstAbsNoIncr => "subst_abs_no_incr",
            StlcMutant::SubstTopNoShift => "subst_top_no_shift",
            StlcMutant::SubstTopNoShiftBack => "subst_top_no_shift_back",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Impl.hs: typing, shifting, substitution, parallel reduction.

/// `typeCheck ctx e t`: whether `e` has type `t` in `ctx`.
pub fn type_check(ctx: &[Typ], e: &Expr, t: &Typ) -> bool {
    get_typ(ctx, e).as_ref() == Some(t)
}

/// `getTyp ctx e`: the type of `e` in `ctx` (innermost binder first), if it has one.
pub fn get_typ(ctx: &[Typ], e: &Expr) -> Option<Typ> {
    let mut stack: Vec<Typ> = ctx.iter().rev().cloned().collect();
    typ_in(&mut stack, e)
}

/// `getTyp` on a context kept as a stack, innermost binder last.
fn typ_in(stack: &mut Vec<Typ>, e: &Expr) -> Option<Typ> {
    match e {
        Expr::Var(n) => {
            let n = usize::try_from(*n).ok().filter(|&n| n < stack.len())?;
            Some(stack[stack.len() - 1 - n].clone())
        }
        Expr::Bool(_) => Some(Typ::TBool),
        Expr::Abs(t, body) => {
            stack.push(t.clone());
            let body = typ_in(stack, body);
            stack.pop();
            Some(fun(t.clone(), body?))
        }
        Expr::App(e1, e2) => {
            let Typ::TFun(t11, t12) = typ_in(stack, e1)? else {
                return None;
            };
            (typ_in(stack, e2)? == *t11).then_some(*t12)
        }
    }
}

/// `shift d e`: adds `d` to every variable of `e` that is free (at or above the cutoff, which
/// starts at 0 and rises under each binder), with the markers `shift_var_none`,
/// `shift_var_all`, `shift_var_leq` and `shift_abs_no_incr`.
pub fn shift(m: StlcMutant, d: i64, e: &Expr) -> Expr {
    /// `go c e`: the shift under the cutoff `c`.
    fn go(m: StlcMutant, d: i64, c: i64, e: &Expr) -> Expr {
        match e {
            Expr::Var(n) => {
                let n = *n;
                let shifted = match m {
                    StlcMutant::ShiftVarNone => false,
                    StlcMutant::ShiftVarAll => true,
                    StlcMutant::ShiftVarLeq => n > c,
                    _ => n >= c,
                };
                Expr::Var(if shifted { n.wrapping_add(d) } else { n })
            }
            Expr::Bool(b) => Expr::Bool(*b),
            Expr::Abs(t, body) => {
                let c = if m == StlcMutant::ShiftAbsNoIncr {
                    c
                } else {
                    c.wrapping_add(1)
                };
                abs(t.clone(), go(m, d, c, body))
            }
            Expr::App(e1, e2) => app(go(m, d, c, e1), go(m, d, c, e2)),
        }
    }
    go(m, d, 0, e)
}

/// `subst n s e`, `[n -> s]e`: `e` with the variable `n` replaced by `s`, with the markers
/// `subst_var_all`, `subst_var_none`, `subst_abs_no_shift` and `subst_abs_no_incr`.
pub fn subst(m: StlcMutant, n: i64, s: &Expr, e: &Expr) -> Expr {
    match e {
        Expr::Var(v) => match m {
            StlcMutant::SubstVarAll => s.clone(),
            StlcMutant::SubstVarNone => Expr::Var(*v),
            _ if *v == n => s.clone(),
            _ => Expr::Var(*v),
        },
        Expr::Bool(b) => Expr::Bool(*b),
        Expr::Abs(t, body) => {
            let body = match m {
                StlcMutant::SubstAbsNoShift => subst(m, n.wrapping_add(1), s, body),
                StlcMutant::SubstAbsNoIncr => subst(m, n, &shift(m, 1, s), body),
                _ => subst(m, n.wrapping_add(1), &shift(m, 1, s), body),
            };
            abs(t.clone(), body)
        }
        Expr::App(e1, e2) => app(subst(m, n, s, e1), subst(m, n, s, e2)),
    }
}

/// `substTop s e`, `[0 -> s]e` under the binder being removed, with the markers
/// `substTop_no_shift` and `substTop_no_shift_back`.
pub fn subst_top(m: StlcMutant, s: &Expr, e: &Expr) -> Expr {
    match m {
        StlcMutant::SubstTopNoShift => subst(m, 0, s, e),
        StlcMutant::SubstTopNoShiftBack => subst(m, 0, &shift(m, 1, s), e),
        _ => shift(m, -1, &subst(m, 0, &shift(m, 1, s), e)),
    }
}

/// `pstep e`: one step of parallel reduction (every redex of the term reduced at once, inside
/// out), or `None` if `e` has no redex.
pub fn pstep(m: StlcMutant, e: &Expr) -> Option<Expr> {
    match e {
        Expr::Abs(t, body) => pstep(m, body).map(|body| abs(t.clone(), body)),
        Expr::App(e1, e2) => {
            if let Expr::Abs(_, body) = &**e1 {
                let body2 = pstep(m, body).unwrap_or_else(|| (**body).clone());
                let e2b = pstep(m, e2).unwrap_or_else(|| (**e2).clone());
                return Some(subst_top(m, &e2b, &body2));
            }
            match (pstep(m, e1), pstep(m, e2)) {
                (None, None) => None,
                (s1, s2) => Some(app(
                    s1.unwrap_or_else(|| (**e1).clone()),
                    s2.unwrap_or_else(|| (**e2).clone()),
                )),
            }
        }
        Expr::Var(_) | Expr::Bool(_) => None,
    }
}

/// `multistep fuel step e`: `step` until the term has no redex (`Some` of the normal form), or
/// `None` when the fuel runs out first.
pub fn multistep(fuel: u32, step: impl Fn(&Expr) -> Option<Expr>, e: &Expr) -> Option<Expr> {
    let mut e = e.clone();
    for _ in 0..fuel {
        match step(&e) {
            None => return Some(e),
            Some(next) => e = next,
        }
    }
    None
}

/// `isNF e`: whether `e` is a normal form (no redex). Unused by the properties, as in Haskell.
pub fn is_nf(e: &Expr) -> bool {
    match e {
        Expr::Var(_) | Expr::Bool(_) => true,
        Expr::Abs(_, body) => is_nf(body),
        Expr::App(e1, _) if matches!(**e1, Expr::Abs(..)) => false,
        Expr::App(e1, e2) => is_nf(e1) && is_nf(e2),
    }
}

// ---------------------------------------------------------------------------------------------
// Spec.hs: the two properties.

/// The two properties of `Spec.hs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StlcProperty {
    /// `prop_SinglePreserve`.
    SinglePreserve,
    /// `prop_MultiPreserve`.
    MultiPreserve,
}

impl StlcProperty {
    /// Both properties, in `Spec.hs`'s order.
    pub const ALL: [StlcProperty; 2] = [StlcProperty::SinglePreserve, StlcProperty::MultiPreserve];

    /// The property's name in snake case: `prop_single_preserve`.
    pub fn name(self) -> &'static str {
        match self {
            StlcProperty::SinglePreserve => "prop_single_preserve",
            StlcProperty::MultiPreserve => "prop_multi_preserve",
        }
    }

    /// The property on `e` under the mutant `m`: `None` if `e` is not well typed, so that the
    /// case is discarded.
    pub fn check(self, m: StlcMutant, e: &Expr) -> Option<bool> {
        match self {
            StlcProperty::SinglePreserve => prop_single_preserve(m, e),
            StlcProperty::MultiPreserve => prop_multi_preserve(m, e),
        }
    }
}

/// The most nodes a term may have before [`prop_multi_preserve`] takes another step from it.
///
/// A mutant can make terms grow at every step (duplicating arguments without ever reducing
/// them away), and 40 steps of that would exhaust the memory: a step from a larger term panics,
/// which the harness counts as a failure, as it counts a case over its time limit. Well-typed
/// terms reduced correctly stay far below it (see the tests).
pub const MAX_STEP_NODES: usize = 10_000;

/// `sizeSTLC`: the number of nodes of the term.
pub fn size_stlc(e: &Expr) -> usize {
    match e {
        Expr::Abs(_, body) => 1 + size_stlc(body),
        Expr::App(e1, e2) => 1 + size_stlc(e1) + size_stlc(e2),
        Expr::Var(_) | Expr::Bool(_) => 1,
    }
}

/// `mtypeCheck`: the stepped term, if any, has type `t` (no term, no claim).
fn mtype_check(e: Option<Expr>, t: &Typ) -> bool {
    e.is_none_or(|e| type_check(&[], &e, t))
}

/// `prop_SinglePreserve`: one step of a closed well-typed term keeps its type.
pub fn prop_single_preserve(m: StlcMutant, e: &Expr) -> Option<bool> {
    let t = get_typ(&[], e)?;
    Some(mtype_check(pstep(m, e), &t))
}

/// `prop_MultiPreserve`: up to 40 steps of a closed well-typed term keep its type.
///
/// # Panics
///
/// If a step would start from a term of more than [`MAX_STEP_NODES`] nodes.
pub fn prop_multi_preserve(m: StlcMutant, e: &Expr) -> Option<bool> {
    let t = get_typ(&[], e)?;
    let step = |e: &Expr| {
        let nodes = size_stlc(e);
        assert!(
            nodes <= MAX_STEP_NODES,
            "the term grew to {nodes} nodes, past {MAX_STEP_NODES}"
        );
        pstep(m, e)
    };
    Some(mtype_check(multistep(40, step, e), &t))
}

// ---------------------------------------------------------------------------------------------
// Reflective generators.

/// The derived generator of terms: `#[derive(Reflective)]` on [`Expr`] and [`Typ`], as a user
/// writes it first. Most terms are not well typed (a free variable, an ill-typed application);
/// the properties discard those.
pub fn derived_input() -> Gen<Expr, Expr> {
    any::<Expr>()
}

/// The bespoke generator of terms, ETNA's `Correct` strategy made reflective: a type from
/// [`gen_typ`] at the run's size, then a closed term of that type from [`gen_exact_expr`].
/// Every term it generates is well typed. Backward the type is the term's, by [`get_typ`].
pub fn bespoke_input() -> Gen<Expr, Expr> {
    sized(|size| {
        gen_typ(size)
            .comap(|e: &Expr| get_typ(&[], e))
            .bind(move |t| gen_exact_expr(Vec::new(), t, size, size))
    })
    .boxed()
}

/// `arbitrary :: Gen Typ` of `Correct.hs` at size `n`: `Bool` at size 0, else `Bool` or a
/// function type of two types at half the size, equally likely.
pub fn gen_typ(n: usize) -> Gen<Typ, Typ> {
    if n == 0 {
        return exact(Typ::TBool).boxed();
    }
    pick((
        (1, "TBool", exact(Typ::TBool)),
        (
            1,
            "TFun",
            zip(
                lazy(move || gen_typ(n / 2)).focus_box(Typ::t_fun_0),
                lazy(move || gen_typ(n / 2)).focus_box(Typ::t_fun_1),
            )
            .map(|(a, b)| fun(a, b)),
        ),
    ))
    .boxed()
}

/// `go n ctx t` of `Correct.hs`'s `genExactExpr`: a term of type `t` in `ctx` (innermost binder
/// first), at size `n`, whose applications draw their argument's type with [`gen_typ`] at the
/// run's size `top` (the Haskell's `arbitrary` reads the unchanged size).
///
/// Branches, equally likely: `one` (the smallest term of the type: a literal, or abstractions
/// down to one); at `n > 0` `abs` (when `t` is a function type, a body of size `n - 1`) and
/// `app` (a function and an argument of size `n / 2`); `var` (one of the variables of type `t`,
/// uniformly) when there is one. Backward, an application's argument type is found by type
/// inference.
pub fn gen_exact_expr(ctx: Vec<Typ>, t: Typ, n: usize, top: usize) -> Gen<Expr, Expr> {
    let mut branches: Vec<(u32, &'static str, Gen<Expr, Expr>)> = vec![(1, "one", gen_one(&t))];
    if n > 0 {
        if let Typ::TFun(t1, t2) = &t {
            let (t1, t2) = ((**t1).clone(), (**t2).clone());
            let inner: Vec<Typ> = std::iter::once(t1.clone()).chain(ctx.clone()).collect();
            let body = lazy(move || gen_exact_expr(inner.clone(), t2.clone(), n - 1, top));
            let g = zip(exact(t1).focus(Expr::abs_0), body.focus_box(Expr::abs_1));
            branches.push((1, "abs", g.map(|(t1, e)| abs(t1, e)).boxed()));
        }
        branches.push((1, "app", gen_app(ctx.clone(), t.clone(), n / 2, top)));
    }
    let vars: Vec<_> = (0..ctx.len())
        .filter(|&i| ctx[i] == t)
        .map(|i| exact(i as i64))
        .collect();
    if !vars.is_empty() {
        let var = one_of(vars).focus(Expr::var_0).map(Expr::Var);
        branches.push((1, "var", var.boxed()));
    }
    pick(branches).boxed()
}

/// `genApp ctx t`: an argument type `t'` (at the run's size `top`), then a function of type
/// `t' -> t` and an argument of type `t'`, both at size `half`.
fn gen_app(ctx: Vec<Typ>, t: Typ, half: usize, top: usize) -> Gen<Expr, Expr> {
    let infer = ctx.clone();
    gen_typ(top)
        .comap(move |e: &Expr| Expr::app_1(e).and_then(|x| get_typ(&infer, x)))
        .bind(move |t2: Typ| {
            let f = gen_exact_expr(ctx.clone(), fun(t2.clone(), t.clone()), half, top);
            let x = gen_exact_expr(ctx.clone(), t2, half, top);
            zip(f.focus_box(Expr::app_0), x.focus_box(Expr::app_1)).map(|(f, x)| app(f, x))
        })
        .boxed()
}

/// `genOne _ t`: a literal of type `Bool`, or for `a -> b` the abstraction over `genOne` of `b`.
fn gen_one(t: &Typ) -> Gen<Expr, Expr> {
    match t {
        Typ::TBool => bool().focus(Expr::bool_0).map(Expr::Bool).boxed(),
        Typ::TFun(t1, t2) => zip(
            exact((**t1).clone()).focus(Expr::abs_0),
            gen_one(t2).focus_box(Expr::abs_1),
        )
        .map(|(t1, e)| abs(t1, e))
        .boxed(),
    }
}

// ---------------------------------------------------------------------------------------------
// Pairs for the harness.

/// Every bug with both properties (20 pairs): ETNA's tool lists none for this workload.
pub fn pairs() -> Vec<Pair<Expr>> {
    StlcMutant::BUGS
        .into_iter()
        .flat_map(|m| StlcProperty::ALL.map(|p| pair(m, p)))
        .collect()
}

/// The property `p` under the mutant `m`, for the harness.
pub fn pair(m: StlcMutant, p: StlcProperty) -> Pair<Expr> {
    Pair {
        mutant: m.name(),
        property: p.name(),
        check: Box::new(move |e| p.check(m, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use StlcMutant as M;
    use StlcProperty as P;

    fn var(n: i64) -> Expr {
        Expr::Var(n)
    }

    fn tt() -> Expr {
        Expr::Bool(true)
    }

    fn ff() -> Expr {
        Expr::Bool(false)
    }

    fn bb() -> Typ {
        fun(Typ::TBool, Typ::TBool)
    }

    /// `λx:Bool. ((λy:Bool. λz:Bool -> Bool. y) x)`: a redex under a binder whose argument is
    /// a free variable and whose body has a binder of its own.
    fn capture() -> Expr {
        let redex = app(abs(Typ::TBool, abs(bb(), var(1))), var(0));
        abs(Typ::TBool, redex)
    }

    /// Closed well-typed terms, with their types.
    fn hand_typed() -> Vec<(Expr, Typ)> {
        let not = abs(
            Typ::TBool,
            app(app(abs(Typ::TBool, abs(Typ::TBool, var(0))), var(0)), ff()),
        );
        vec![
            (tt(), Typ::TBool),
            (abs(Typ::TBool, var(0)), bb()),
            (app(abs(Typ::TBool, var(0)), ff()), Typ::TBool),
            (
                app(abs(Typ::TBool, abs(bb(), var(0))), tt()),
                fun(bb(), bb()),
            ),
            (app(abs(Typ::TBool, abs(Typ::TBool, var(1))), ff()), bb()),
            (abs(Typ::TBool, app(abs(Typ::TBool, var(1)), ff())), bb()),
            (abs(Typ::TBool, app(abs(Typ::TBool, var(1)), var(0))), bb()),
            (capture(), fun(Typ::TBool, fun(bb(), Typ::TBool))),
            (not, bb()),
            // (λf:Bool -> Bool. λx:Bool. f (f x)) (λy:Bool. y) true
            (
                app(
                    app(
                        abs(bb(), abs(Typ::TBool, app(var(1), app(var(1), var(0))))),
                        abs(Typ::TBool, var(0)),
                    ),
                    tt(),
                ),
                Typ::TBool,
            ),
        ]
    }

    #[test]
    fn the_type_checker_types_the_hand_typed_terms() {
        for (e, t) in hand_typed() {
            assert_eq!(get_typ(&[], &e), Some(t.clone()), "{e}");
            assert!(type_check(&[], &e, &t));
        }
        let ill = [
            var(0),
            app(tt(), ff()),
            abs(Typ::TBool, var(1)),
            app(abs(bb(), var(0)), tt()),
            var(-1),
        ];
        for e in ill {
            assert_eq!(get_typ(&[], &e), None, "{e}");
            for p in P::ALL {
                assert_eq!(p.check(M::None, &e), None, "{e}");
            }
        }
        assert_eq!(get_typ(&[Typ::TBool, bb()], &var(1)), Some(bb()));
        assert_eq!(
            capture().to_string(),
            "(λ:Bool. ((λ:Bool. (λ:Bool -> Bool. #1)) #0))"
        );
    }

    #[test]
    fn reduction_on_hand_typed_terms() {
        let [.., twice] = &hand_typed()[..] else {
            unreachable!()
        };
        assert_eq!(multistep(40, |e| pstep(M::None, e), &twice.0), Some(tt()));
        let (e, _) = &hand_typed()[7];
        let reduced = abs(Typ::TBool, abs(bb(), var(1)));
        assert_eq!(pstep(M::None, e), Some(reduced.clone()));
        assert!(is_nf(&reduced) && !is_nf(e));
        assert_eq!(pstep(M::None, &reduced), None);
    }

    #[test]
    fn both_properties_hold_for_the_correct_implementation() {
        for (e, _) in hand_typed() {
            for p in P::ALL {
                assert_eq!(p.check(M::None, &e), Some(true), "{} {e}", p.name());
            }
        }
    }

    #[test]
    fn each_mutant_fails_both_properties_on_its_hand_built_witness() {
        let capture_redex = |body: Expr, arg: Expr| app(abs(Typ::TBool, body), arg);
        let witnesses = [
            (
                M::ShiftVarNone,
                abs(Typ::TBool, capture_redex(var(1), var(0))),
            ),
            (M::ShiftVarAll, capture_redex(abs(bb(), var(0)), tt())),
            (M::ShiftVarLeq, capture()),
            (
                M::ShiftAbsNoIncr,
                capture_redex(abs(Typ::TBool, var(0)), ff()),
            ),
            (M::SubstVarAll, capture_redex(abs(bb(), var(0)), tt())),
            (M::SubstVarNone, capture_redex(var(0), ff())),
            (M::SubstAbsNoShift, capture()),
            (M::SubstAbsNoIncr, capture_redex(abs(bb(), var(1)), ff())),
            (
                M::SubstTopNoShift,
                abs(Typ::TBool, capture_redex(var(1), ff())),
            ),
            (
                M::SubstTopNoShiftBack,
                abs(Typ::TBool, capture_redex(var(1), ff())),
            ),
        ];
        assert!(witnesses.iter().map(|w| w.0).eq(M::BUGS));
        for (m, e) in witnesses {
            for p in P::ALL {
                assert_eq!(p.check(m, &e), Some(false), "{} {} {e}", m.name(), p.name());
                assert_eq!(p.check(M::None, &e), Some(true), "{} {e}", p.name());
            }
        }
    }

    #[test]
    fn bespoke_terms_are_well_typed_reflect_and_reduce_correctly_within_the_node_limit() {
        let g = bespoke_input();
        let mut rng = DefaultRng::seed_from_u64(21);
        for case in 0..1_000 {
            let generated = g.generate(&mut rng, case % 101);
            let e = &generated.value;
            assert!(get_typ(&[], e).is_some(), "{e}");
            assert!(g.can_generate(e), "{e}");
            assert_eq!(g.replay(&generated.tree).as_ref(), Some(e));
            for p in P::ALL {
                assert_eq!(p.check(M::None, e), Some(true), "{} {e}", p.name());
            }
        }
        for (e, _) in hand_typed() {
            assert!(g.can_generate(&e), "{e}");
        }
        assert!(!g.can_generate(&app(tt(), ff())));
    }

    #[test]
    fn derived_terms_reflect_and_the_correct_implementation_passes_or_discards() {
        let g = derived_input();
        let mut rng = DefaultRng::seed_from_u64(22);
        for case in 0..1_000 {
            let e = g.generate_value(&mut rng, case % 101);
            assert!(g.can_generate(&e), "{e}");
            for p in P::ALL {
                let typed = get_typ(&[], &e).is_some();
                assert_eq!(p.check(M::None, &e), typed.then_some(true), "{e}");
            }
        }
    }

    #[test]
    fn a_step_from_a_term_past_the_node_limit_panics() {
        /// `(λa:Bool. λb:Bool. b) l r` nested `depth` deep, well typed, of about `6 * 2^depth`
        /// nodes.
        fn big(depth: u32) -> Expr {
            if depth == 0 {
                return tt();
            }
            let k = abs(Typ::TBool, abs(Typ::TBool, var(0)));
            app(app(k, big(depth - 1)), big(depth - 1))
        }
        let small = big(8);
        assert!(size_stlc(&small) < MAX_STEP_NODES);
        assert_eq!(prop_multi_preserve(M::None, &small), Some(true));
        let large = big(11);
        assert!(size_stlc(&large) > MAX_STEP_NODES);
        assert_eq!(prop_single_preserve(M::None, &large), Some(true));
        let result = reflective::check::quietly(|| {
            std::panic::catch_unwind(|| prop_multi_preserve(M::None, &large))
        });
        assert!(result.is_err());
    }
}
