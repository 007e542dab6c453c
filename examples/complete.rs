//! Completion: values with holes, completed by the generators that keep their invariants
//! (`Generator::completer`, the paper's reflective completers, "Reflecting on Random
//! Generation" §7.2).
//!
//! Run it with `cargo run --release --example complete`. Four sections:
//!
//! 1. the paper's partial search tree `Node (Node _ 1 _) 5 _`, completed 1000 times by the
//!    paper's generator: every completion a search tree that keeps the given keys, and how
//!    many distinct ones;
//! 2. a derived struct, each field left as a hole in turn: the other fields kept, and how many
//!    distinct values the hole takes;
//! 3. a well-typed lambda term with a hole in a function's body: the body generated well typed
//!    at the type the rest of the term gives it;
//! 4. given parts the generator cannot produce: the error a user reads.

use std::collections::HashSet;
use std::time::Instant;

use reflective::complete::Holes;
use reflective::prelude::*;
use reflective_examples::bst::{Tree, bst, node};
use reflective_examples::stlc::{Expr, Type, type_of, well_typed};

/// An order, with a generator derived for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflective)]
struct Order {
    id: u32,
    quantity: u8,
    express: bool,
    items: Vec<u8>,
}

fn main() {
    let completions = 1000;
    search_tree(completions);
    derived_struct(completions);
    lambda_term(completions);
    bad_input();
}

fn search_tree(completions: usize) {
    println!("## 1. The paper's partial search tree\n");
    let g = bst(0, 10);
    let partial = node(node(Tree::Leaf, 1, Tree::Leaf), 5, Tree::Leaf);
    let Tree::Node(inner, _, right) = &partial else {
        unreachable!()
    };
    let Tree::Node(inner_left, _, inner_right) = &**inner else {
        unreachable!()
    };
    let holes = Holes::new()
        .at(&**inner_left)
        .at(&**inner_right)
        .at(&**right);
    let started = Instant::now();
    let trees = g
        .completer()
        .completions(&partial, &holes, 0, completions)
        .expect("the partial tree completes");
    let elapsed = started.elapsed();
    let valid = trees.iter().filter(|t| t.is_bst()).count();
    let kept = trees
        .iter()
        .filter(|t| matches!(t, Tree::Node(l, 5, _) if matches!(&**l, Tree::Node(_, 1, _))))
        .count();
    let distinct: HashSet<String> = trees.iter().map(ToString::to_string).collect();
    println!("`bst(0, 10)` completes `Node (Node _ 1 _) 5 _` (holes marked with `Holes::at`):\n");
    println!("| completions | search trees | keep keys 5 and 1 | distinct | time per completion |");
    println!("|---|---|---|---|---|");
    println!(
        "| {completions} | {valid} | {kept} | {} | {:.1} µs |\n",
        distinct.len(),
        elapsed.as_secs_f64() * 1e6 / completions as f64
    );
    println!("The first five:\n");
    for tree in trees.iter().take(5) {
        println!("    {tree}");
    }
    println!();
}

fn derived_struct(completions: usize) {
    println!("## 2. A derived struct, each field a hole in turn\n");
    let g = Order::arbitrary_reflective();
    let given = Order {
        id: 7,
        quantity: 3,
        express: false,
        items: vec![1, 2, 3],
    };
    println!("Given `{given:?}`, with no code beyond `#[derive(Reflective)]`:\n");
    println!("| hole | completions | other fields kept | distinct values in the hole |");
    println!("|---|---|---|---|");
    let fields: [(&str, Holes<'_>); 4] = [
        ("id", Holes::new().at(&given.id)),
        ("quantity", Holes::new().at(&given.quantity)),
        ("express", Holes::new().at(&given.express)),
        ("items", Holes::new().at(&given.items)),
    ];
    for (name, holes) in fields {
        let orders = g
            .completer()
            .completions(&given, &holes, 1, completions)
            .expect("an order completes");
        let (kept, distinct) = match name {
            "id" => count(
                &orders,
                |o| (o.quantity, o.express, o.items.clone()) == (3, false, vec![1, 2, 3]),
                |o| format!("{}", o.id),
            ),
            "quantity" => count(
                &orders,
                |o| (o.id, o.express, o.items.clone()) == (7, false, vec![1, 2, 3]),
                |o| format!("{}", o.quantity),
            ),
            "express" => count(
                &orders,
                |o| (o.id, o.quantity, o.items.clone()) == (7, 3, vec![1, 2, 3]),
                |o| format!("{}", o.express),
            ),
            _ => count(
                &orders,
                |o| (o.id, o.quantity, o.express) == (7, 3, false),
                |o| format!("{:?}", o.items),
            ),
        };
        println!("| `{name}` | {completions} | {kept} | {distinct} |");
    }
    println!();
}

/// How many `values` keep the given fields, and how many distinct values the hole took.
fn count(
    values: &[Order],
    kept: impl Fn(&Order) -> bool,
    hole: impl Fn(&Order) -> String,
) -> (usize, usize) {
    let distinct: HashSet<String> = values.iter().map(hole).collect();
    (values.iter().filter(|o| kept(o)).count(), distinct.len())
}

fn lambda_term(completions: usize) {
    println!("## 3. A well-typed term with a hole in a function's body\n");
    // (λx:Int. _) 41, with `x` as a placeholder body of the right type.
    let partial = Expr::app(Expr::lam(Type::Int, Expr::Var(0)), Expr::Lit(41));
    let Expr::App(function, _) = &partial else {
        unreachable!()
    };
    let Expr::Lam(_, body) = &**function else {
        unreachable!()
    };
    let holes = Holes::new().at(&**body);
    let g = well_typed();
    let terms = g
        .completer()
        .size(20)
        .completions(&partial, &holes, 2, completions)
        .expect("the term completes");
    let typed = terms
        .iter()
        .filter(|t| type_of(&[], t) == Some(Type::Int))
        .count();
    let kept = terms
        .iter()
        .filter(|t| matches!(t, Expr::App(f, a) if **a == Expr::Lit(41) && matches!(&**f, Expr::Lam(Type::Int, _))))
        .count();
    let distinct: HashSet<&Expr> = terms.iter().collect();
    println!(
        "`well_typed()` completes `(λx:Int. _) 41` (the paper's `comap typeOf type_ >>= expr`: \
         the placeholder body, `x`, gives the term its type, and the hole is generated at that \
         type in the lambda's scope):\n"
    );
    println!("| completions | of type Int | keep `(λx:Int. _) 41` | distinct |");
    println!("|---|---|---|---|");
    println!(
        "| {completions} | {typed} | {kept} | {} |\n",
        distinct.len()
    );
    println!("Three of them:\n");
    for term in terms.iter().skip(1).step_by(7).take(3) {
        println!("    {term:?}");
    }
    println!();
}

fn bad_input() {
    println!("## 4. Given parts the generator cannot produce\n");
    let g = bst(0, 10);
    let partial = node(Tree::Leaf, 12, Tree::Leaf);
    let Tree::Node(left, _, _) = &partial else {
        unreachable!()
    };
    let holes = Holes::new().at(&**left);
    match g.completer().complete(&partial, &holes, 0) {
        Ok(completed) => println!("unexpected: {}", completed.value),
        Err(error) => println!("`Node (_) 12 Leaf` with keys in 0..=10:\n\n    {error}"),
    }
    let elsewhere = Tree::Leaf;
    let holes = Holes::new().at(&elsewhere);
    if let Err(error) = g
        .completer()
        .complete(&node(Tree::Leaf, 3, Tree::Leaf), &holes, 0)
    {
        println!("\nA hole that is not part of the value:\n\n    {error}");
    }
}
