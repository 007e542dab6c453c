//! A guided tour of reflective generators, on the paper's binary search trees.
//!
//! Run it with `cargo run --release --example tour`. Each step prints what it does in one
//! sentence, then what the library answers. Mutation, completion, validation, gradient
//! sampling and stateful testing have examples of their own (`mutate`, `complete`,
//! `validate`, `cgs`, `stateful`, `fuzz`).

use reflective::prelude::*;
use reflective::{ReflectError, Reflector};
use reflective_examples::bst::{Tree, bst, node};

fn main() {
    let g = bst(1, 10);
    println!("A tour of reflective generators, with the paper's BST generator `bst(1, 10)`.");
    println!("Trees print as `.` for a leaf and `(left key right)` for a node.");

    step("1. Generate: a seed determines the tree, on every run and platform.");
    for seed in [1, 2, 3] {
        println!("  seed {seed}: {}", g.sample(seed));
    }
    println!("  seed 1 again: {}", g.sample(1));

    step("2. Reflect on a generated tree (seed 11): run the generator backward on it.");
    let mut rng = DefaultRng::seed_from_u64(11);
    let generated = g.generate(&mut rng, DEFAULT_SIZE);
    let tree = generated.value.clone();
    println!("  tree:              {tree}");
    println!("  recorded choices:  {}", generated.tree);
    show_reflection(&g, &tree);
    println!(
        "  reflection recovers the recorded choices: {}",
        g.choices(&tree).first() == Some(&generated.tree)
    );

    step("3. A tree typed in by hand, never generated: reflection works all the same.");
    let typed = node(
        node(Tree::Leaf, 2, Tree::Leaf),
        5,
        node(Tree::Leaf, 7, Tree::Leaf),
    );
    println!("  tree:              {typed}");
    show_reflection(&g, &typed);

    step("4. An invalid tree (3 sits right of 5): no choices produce it.");
    let invalid = node(Tree::Leaf, 5, node(Tree::Leaf, 3, Tree::Leaf));
    println!("  tree:              {invalid}");
    show_reflection(&g, &invalid);
    let outside = node(Tree::Leaf, 11, Tree::Leaf);
    println!(
        "  a valid BST with a key outside 1..=10, {outside}: can_generate = {}",
        g.can_generate(&outside)
    );

    step("5. Budgets: a generator with exponential overlap (the paper's gE) stops with an error.");
    let ge = sums_of_ones_and_twos();
    println!(
        "  gE builds n as a sum of 1s and 2s: the number of ways to build n is a Fibonacci number."
    );
    println!(
        "  ways to build 5 (the paper says 8): {}",
        ge.choices(&5).len()
    );
    println!(
        "  ways to build 10 (the paper says 89): {}",
        ge.choices(&10).len()
    );
    let budget = ge.reflector().max_steps(100_000);
    println!(
        "  can_generate(40) needs one way: {:?}",
        budget.can_generate(&40)
    );
    report(
        "  probability_of(40) needs all 165 580 141 ways",
        &budget,
        40,
    );

    step("6. Fuzzing: any bytes are a tree of the generator, and a tree is bytes again.");
    for bytes in [&b""[..], b"\x08\x01\x04\x01", b"fuzzer input"] {
        let tree = g.decode(bytes).expect("any bytes give a tree").value;
        println!("  {:<20} -> {tree}", format!("{bytes:?}"));
    }
    let bytes = g
        .encode(&typed)
        .expect("the tree of step 3 is one the generator produces");
    println!("  the tree of step 3 as bytes: {bytes:?}");
    println!(
        "  and back: {}",
        g.decode(&bytes).expect("its own bytes").value
    );

    step("7. Any generator reflects, a regular expression's too: a reported string shrinks.");
    let email = string_regex(r"[a-z0-9._+-]+@[a-z0-9-]+\.[a-z]{2,6}").expect("a valid pattern");
    println!("  string_regex(r\"[a-z0-9._+-]+@[a-z0-9-]+\\.[a-z]{{2,6}}\")");
    println!("  generated:  {}", email.sample(4));
    let reported = "jane.doe+shop@mail-server.com".to_string();
    println!(
        "  reported:   {reported} (can_generate: {})",
        email.can_generate(&reported)
    );
    let shrunk = email.shrink(reported, |address| address.contains('+'));
    println!("  shrunk, still failing for its '+': {shrunk} (a match, as every candidate was)");
}

/// Prints a heading for a step of the tour.
fn step(title: &str) {
    println!();
    println!("{title}");
}

/// Prints what reflection says about `tree`: validity, labels, choices, probability, replay.
fn show_reflection(g: &Gen<Tree, Tree>, tree: &Tree) {
    println!("  can_generate:      {}", g.can_generate(tree));
    let labels = g.reflect(tree);
    match labels.first() {
        Some(labels) => {
            let text: Vec<String> = labels.iter().map(Label::to_string).collect();
            println!("  reflect (labels):  {}", text.join(" "));
        }
        None => println!("  reflect (labels):  no way to produce it"),
    }
    let choices = g.choices(tree);
    println!("  ways to produce it: {}", choices.len());
    if let Some(first) = choices.first() {
        println!("  choices:           {first}");
    }
    println!("  probability_of:    {:.3e}", g.probability_of(tree));
    if let Some(first) = choices.first() {
        let replayed = g.replay(first);
        println!(
            "  replay(choices):   {} (equal: {})",
            replayed
                .as_ref()
                .map_or("none".to_string(), Tree::to_string),
            replayed.as_ref() == Some(tree)
        );
    }
}

/// Prints the result of `probability_of` under a budget, or the error it stopped with.
fn report(what: &str, reflector: &Reflector<'_, Gen<u64, u64>>, n: u64) {
    match reflector.probability_of(&n) {
        Ok(p) => println!("{what}: {p:.3e}"),
        Err(error @ ReflectError::StepBudget { .. }) => {
            println!("{what}: Err(StepBudget):");
            for line in wrap(&error.to_string(), 88) {
                println!("    {line}");
            }
        }
        Err(error) => println!("{what}: Err({error})"),
    }
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// The paper's `gE` (figure 5): a natural number as a sum of 1s and 2s, so that `n` can be
/// produced in Fibonacci(n + 1) ways.
fn sums_of_ones_and_twos() -> Gen<u64, u64> {
    recursive(|ge: Gen<u64, u64>| {
        pick((
            (1, "zero", exact(0)),
            (
                1,
                "plus1",
                ge.clone().comap(|n: &u64| n.checked_sub(1)).map(|m| m + 1),
            ),
            (
                1,
                "plus2",
                ge.comap(|n: &u64| n.checked_sub(2)).map(|m| m + 2),
            ),
        ))
    })
}
