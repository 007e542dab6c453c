//! Well-typed lambda terms, the paper's section 4.3: `comap typeOf type_ >>= expr`.
//!
//! Run it with `cargo run --release --example stlc`: it generates terms and type-checks every
//! one, reflects on terms typed in by hand (well typed and not), and compares the well-typed
//! generator with the derived generator of mere syntax.

use reflective::prelude::*;
use reflective_examples::stlc::{Expr, Type, type_of, well_typed};

const SAMPLES: u64 = 1000;

fn main() {
    let g = well_typed();

    println!(
        "== Well-typed terms from well_typed(), with their types (x0: the outermost binder) =="
    );
    let mut rng = DefaultRng::seed_from_u64(0);
    for size in [4, 4, 4, 8, 8, 8, 8, 16, 16, 16] {
        let generated = g.generate(&mut rng, size);
        let term = &generated.value;
        match type_of(&[], term) {
            Some(ty) => println!("  size {size:>2}: {term}  : {ty}"),
            None => println!("  size {size:>2}: {term}  : ILL TYPED"),
        }
        assert!(g.can_generate(term) && g.replay(&generated.tree).as_ref() == Some(term));
    }

    println!();
    println!("== {SAMPLES} terms from well_typed(), seeds 0..{SAMPLES}, size {DEFAULT_SIZE} ==");
    let terms: Vec<Expr> = (0..SAMPLES).map(|seed| g.sample(seed)).collect();
    let typed = terms.iter().filter(|t| type_of(&[], t).is_some()).count();
    let reflected = terms.iter().filter(|t| g.can_generate(t)).count();
    stats("well_typed()", &terms);
    println!(
        "well typed (type_of, checked directly): {typed}/{} = {:.1}%",
        terms.len(),
        percent(typed, terms.len())
    );
    println!(
        "accepted by reflection (can_generate):  {reflected}/{} = {:.1}%",
        terms.len(),
        percent(reflected, terms.len())
    );
    let functions = terms
        .iter()
        .filter(|t| matches!(type_of(&[], t), Some(Type::Fun(..))))
        .count();
    println!(
        "of function type: {functions}; with an application: {}; with a variable: {}",
        terms
            .iter()
            .filter(|t| has(t, &|e| matches!(e, Expr::App(..))))
            .count(),
        terms
            .iter()
            .filter(|t| has(t, &|e| matches!(e, Expr::Var(_))))
            .count(),
    );
    assert_eq!(
        typed,
        terms.len(),
        "the generator produced an ill-typed term"
    );
    assert_eq!(
        reflected,
        terms.len(),
        "reflection rejected a generated term"
    );

    println!();
    println!("== The derived generator of syntax, Expr::arbitrary_reflective(), for contrast ==");
    let syntax = Expr::arbitrary_reflective();
    let raw: Vec<Expr> = (0..SAMPLES).map(|seed| syntax.sample(seed)).collect();
    let raw_typed = raw.iter().filter(|t| type_of(&[], t).is_some()).count();
    stats("derived", &raw);
    let literals = raw.iter().filter(|t| matches!(t, Expr::Lit(_))).count();
    println!(
        "well typed: {raw_typed}/{} = {:.1}% ({literals} of them a bare literal)",
        raw.len(),
        percent(raw_typed, raw.len())
    );

    println!();
    println!("== A term typed in by hand, never generated ==");
    let typed_in = Expr::app(
        Expr::lam(
            Type::fun(Type::Int, Type::Int),
            Expr::app(Expr::Var(0), Expr::Lit(3)),
        ),
        Expr::lam(Type::Int, Expr::plus(Expr::Var(0), Expr::Var(0))),
    );
    show_reflection(&g, &typed_in);
    println!(
        "  (after App come the labels of the argument's type, Fun Int Int: it is in no label of \
         the term; backward, type_of on the argument found it)"
    );

    println!();
    println!("== Ill-typed terms: no choices produce them ==");
    let ill_typed = [
        Expr::app(Expr::Lit(41), Expr::Lit(1)),
        Expr::plus(Expr::Lit(1), Expr::lam(Type::Int, Expr::Var(0))),
        Expr::app(
            Expr::lam(Type::Int, Expr::Var(0)),
            Expr::lam(Type::Int, Expr::Var(0)),
        ),
        Expr::lam(Type::Int, Expr::Var(1)),
    ];
    for term in &ill_typed {
        show_reflection(&g, term);
        assert!(!g.can_generate(term));
    }

    println!();
    println!("== Well typed, but beyond the size: a sum nested 10 deep ==");
    let mut deep = Expr::Lit(0);
    for n in 1..=10 {
        deep = Expr::plus(deep, Expr::Lit(n));
    }
    println!("  term:            {deep}");
    println!(
        "  type_of: {}; can_generate at size {DEFAULT_SIZE}: {} (each level halves the size: \
         7 levels fit); at size 2000: {}",
        type_of(&[], &deep).map_or("none".to_string(), |ty| ty.to_string()),
        g.can_generate(&deep),
        g.reflector()
            .size(2000)
            .can_generate(&deep)
            .expect("within budget")
    );
}

/// Prints what reflection says about `term`, next to the type checker's verdict.
fn show_reflection(g: &Gen<Expr, Expr>, term: &Expr) {
    println!("  term:            {term}");
    match type_of(&[], term) {
        Some(ty) => println!("  type_of:         {ty}"),
        None => println!("  type_of:         none (ill typed)"),
    }
    println!("  can_generate:    {}", g.can_generate(term));
    println!("  probability_of:  {:.3e}", g.probability_of(term));
    match g.reflect(term).first() {
        Some(labels) => {
            let text: Vec<String> = labels.iter().map(Label::to_string).collect();
            println!("  reflect:         {}", text.join(" "));
        }
        None => println!("  reflect:         no way to produce it"),
    }
    if let Some(choices) = g.choices(term).first() {
        println!("  choices:         {choices}");
        println!(
            "  replay(choices) gives the term back: {}",
            g.replay(choices).as_ref() == Some(term)
        );
    }
}

/// Mean and largest size of `terms`, and how many distinct.
fn stats(name: &str, terms: &[Expr]) {
    let sizes: Vec<usize> = terms.iter().map(Expr::size).collect();
    let distinct: std::collections::HashSet<&Expr> = terms.iter().collect();
    println!(
        "{name}: mean size {:.2} constructors, largest {}, distinct terms {}",
        sizes.iter().sum::<usize>() as f64 / sizes.len() as f64,
        sizes.iter().max().copied().unwrap_or(0),
        distinct.len()
    );
}

/// Whether some subterm of `term` satisfies `test`.
fn has(term: &Expr, test: &dyn Fn(&Expr) -> bool) -> bool {
    test(term)
        || match term {
            Expr::Lit(_) | Expr::Var(_) => false,
            Expr::Lam(_, body) => has(body, test),
            Expr::Plus(a, b) | Expr::App(a, b) => has(a, test) || has(b, test),
        }
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole as f64
}
