//! Shrinking across ridges: minima that need two edits at once.

use reflective::prelude::*;

/// An arithmetic expression: the example of a ridge (`Neg(Lit(-100))` becomes
/// `Lit(100)` only by hoisting the literal and negating it at once).
#[derive(Clone, Debug, PartialEq, Eq, Reflective)]
enum Expr {
    Lit(i64),
    Add(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
}

fn eval(e: &Expr) -> i64 {
    match e {
        Expr::Lit(n) => *n,
        Expr::Add(a, b) => eval(a).wrapping_add(eval(b)),
        Expr::Neg(a) => eval(a).wrapping_neg(),
    }
}

#[test]
fn an_expression_from_outside_shrinks_to_the_literal() {
    use Expr::*;
    let start = Add(
        Box::new(Neg(Box::new(Lit(-500)))),
        Box::new(Add(Box::new(Lit(7)), Box::new(Lit(3)))),
    );
    let g = Expr::arbitrary_reflective();
    assert_eq!(g.shrink(start, |e| eval(e) >= 100), Lit(100));
}

/// Every failing expression, generated or given from outside, shrinks to `Lit(100)`.
#[test]
fn failing_expressions_shrink_to_the_literal_both_ways() {
    use reflective::shrink::ShrinkBudget;
    let g = Expr::arbitrary_reflective();
    let fails = |e: &Expr| eval(e) >= 100;
    let mut rng = DefaultRng::seed_from_u64(7);
    let mut failures = 0;
    let mut case = 0usize;
    while failures < 100 {
        case += 1;
        let generated = g.generate(&mut rng, case % 60);
        if !fails(&generated.value) {
            continue;
        }
        failures += 1;
        let original = generated.value.clone();
        let from_choices = g.shrink_generated(generated, fails, ShrinkBudget::default());
        let from_outside = g.shrink(original.clone(), fails);
        assert_eq!(
            (&from_choices.value, &from_outside),
            (&Expr::Lit(100), &Expr::Lit(100)),
            "from {original:?}"
        );
    }
}
