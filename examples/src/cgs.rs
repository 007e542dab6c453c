//! The four benchmarks of "Parsing Randomness" (Goldstein and Pierce, OOPSLA 2022), Table 1:
//! naive generators written with this library's combinators, as the paper's free generators
//! are (every weight 1, a node's value chosen before its subtrees, the paper's depths), with
//! the validity predicates Choice Gradient Sampling steers them toward.
//!
//! | benchmark | naive generator | valid when | N | depth |
//! |---|---|---|---|---|
//! | BST | "l" leaf or "n" node: a digit 0–9, then two subtrees | a strict search tree | 50 | 5 |
//! | SORTED | "n" end or "c" a digit 0–9 then the rest | non-decreasing | 50 | 20 |
//! | AVL | "l" leaf or "n" node: a stored height 0–9, a digit 0–9, two subtrees | strict search tree, heights right, balanced | 500 | 5 |
//! | STLC | integer 0–3, plus, lambda (a type of depth 2), application, variable 0–2 | well typed in the empty context | 400 | 5 |

use std::convert::Infallible;

use reflective::prelude::*;

/// A naive generator: forward only, as the paper's free generators are (reflection needs
/// annotations they do not have).
pub type Naive<T> = Gen<Infallible, T>;

/// A binary tree with digit keys; AVL nodes also store a height.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tree {
    /// The empty tree.
    Leaf,
    /// A node: stored height (0 for BST nodes), left subtree, key, right subtree.
    Node(u8, Box<Tree>, u8, Box<Tree>),
}

/// A type of the lambda calculus.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// Integers.
    Int,
    /// Functions.
    Fun(Box<Type>, Box<Type>),
}

/// A term of the lambda calculus, de Bruijn-indexed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// An integer 0–3.
    Int(u8),
    /// A sum.
    Plus(Box<Term>, Box<Term>),
    /// A function of an argument of the type.
    Lam(Type, Box<Term>),
    /// An application.
    App(Box<Term>, Box<Term>),
    /// A variable 0–2.
    Var(u8),
}

/// A digit 0–9, as the paper's ten-way select.
fn digit() -> Naive<u8> {
    range(0u8..=9).no_ann().boxed()
}

/// `value`, with no choice.
fn just<T: Clone + PartialEq + Send + Sync + 'static>(value: T) -> Naive<T> {
    exact(value).no_ann().boxed()
}

/// The paper's naive trees of depth `depth`: BST nodes store height 0, AVL nodes a digit.
pub fn naive_tree(depth: usize, with_height: bool) -> Naive<Tree> {
    if depth == 0 {
        return just(Tree::Leaf);
    }
    let height = if with_height { digit() } else { just(0u8) };
    let node = zip(
        zip(height, digit()),
        zip(
            naive_tree(depth - 1, with_height),
            naive_tree(depth - 1, with_height),
        ),
    )
    .map(|((h, x), (l, r))| Tree::Node(h, Box::new(l), x, Box::new(r)));
    pick(((1, "l", just(Tree::Leaf)), (1, "n", node.boxed()))).boxed()
}

/// The paper's naive lists of up to `length` digits.
pub fn naive_list(length: usize) -> Naive<Vec<u8>> {
    let end = just(Vec::new());
    if length == 0 {
        return pick(((1, "n", end),)).boxed();
    }
    let cons = zip(digit(), naive_list(length - 1)).map(|(x, mut rest)| {
        rest.insert(0, x);
        rest
    });
    pick(((1, "n", end), (1, "c", cons.boxed()))).boxed()
}

/// The paper's naive types of depth `depth`.
pub fn naive_type(depth: usize) -> Naive<Type> {
    if depth == 0 {
        return just(Type::Int);
    }
    let fun = zip(naive_type(depth - 1), naive_type(depth - 1))
        .map(|(a, b)| Type::Fun(Box::new(a), Box::new(b)));
    pick(((1, "i", just(Type::Int)), (1, "f", fun.boxed()))).boxed()
}

/// The paper's naive terms of depth `depth`.
pub fn naive_term(depth: usize) -> Naive<Term> {
    let int = range(0u8..=3).no_ann().map(Term::Int).boxed();
    let var = range(0u8..=2).no_ann().map(Term::Var).boxed();
    if depth == 0 {
        return pick(((1, "i", int), (1, "v", var))).boxed();
    }
    let sub = || naive_term(depth - 1);
    let plus = zip(sub(), sub())
        .map(|(a, b)| Term::Plus(Box::new(a), Box::new(b)))
        .boxed();
    let lam = zip(naive_type(2), sub())
        .map(|(t, b)| Term::Lam(t, Box::new(b)))
        .boxed();
    let app = zip(sub(), sub())
        .map(|(f, a)| Term::App(Box::new(f), Box::new(a)))
        .boxed();
    pick((
        (1, "i", int),
        (1, "p", plus),
        (1, "l", lam),
        (1, "a", app),
        (1, "v", var),
    ))
    .boxed()
}

/// Whether `tree` is a strict search tree with keys in `lo..hi`.
pub fn is_bst(tree: &Tree) -> bool {
    fn within(tree: &Tree, lo: i16, hi: i16) -> bool {
        match tree {
            Tree::Leaf => true,
            Tree::Node(_, l, x, r) => {
                let x = i16::from(*x);
                lo < x && x < hi && within(l, lo, x) && within(r, x, hi)
            }
        }
    }
    within(tree, -1, 10)
}

/// The height of `tree` (a leaf's is 0).
pub fn height(tree: &Tree) -> u8 {
    match tree {
        Tree::Leaf => 0,
        Tree::Node(_, l, _, r) => 1 + height(l).max(height(r)),
    }
}

/// Whether `tree` is an AVL tree: a strict search tree whose nodes store their heights and
/// whose subtrees' heights differ by at most one.
pub fn is_avl(tree: &Tree) -> bool {
    fn balanced(tree: &Tree) -> bool {
        match tree {
            Tree::Leaf => true,
            Tree::Node(h, l, _, r) => {
                *h == height(tree)
                    && height(l).abs_diff(height(r)) <= 1
                    && balanced(l)
                    && balanced(r)
            }
        }
    }
    is_bst(tree) && balanced(tree)
}

/// The type of `term` in `context` (innermost binder first), if it has one.
pub fn type_of(context: &[Type], term: &Term) -> Option<Type> {
    match term {
        Term::Int(_) => Some(Type::Int),
        Term::Var(i) => context.get(usize::from(*i)).cloned(),
        Term::Plus(a, b) => (type_of(context, a)? == Type::Int
            && type_of(context, b)? == Type::Int)
            .then_some(Type::Int),
        Term::Lam(t, body) => {
            let mut inner = Vec::with_capacity(context.len() + 1);
            inner.push(t.clone());
            inner.extend_from_slice(context);
            Some(Type::Fun(
                Box::new(t.clone()),
                Box::new(type_of(&inner, body)?),
            ))
        }
        Term::App(f, a) => match type_of(context, f)? {
            Type::Fun(from, to) if *from == type_of(context, a)? => Some(*to),
            _ => None,
        },
    }
}

/// Whether `term` is well typed in the empty context.
pub fn well_typed(term: &Term) -> bool {
    type_of(&[], term).is_some()
}

/// The Levenshtein distance between two sequences.
pub fn levenshtein<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(x != y));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_predicates_accept_what_they_should() {
        let leaf = || Box::new(Tree::Leaf);
        let node = |h, l, x, r| Tree::Node(h, Box::new(l), x, Box::new(r));
        let bst = node(0, node(0, Tree::Leaf, 2, Tree::Leaf), 5, Tree::Leaf);
        assert!(is_bst(&bst));
        assert!(!is_bst(&node(
            0,
            Tree::Leaf,
            5,
            node(0, Tree::Leaf, 5, Tree::Leaf)
        )));
        let avl = node(2, node(1, Tree::Leaf, 2, Tree::Leaf), 5, Tree::Leaf);
        assert!(is_avl(&avl));
        assert!(!is_avl(&bst));
        assert!(!is_avl(&Tree::Node(1, leaf(), 3, Box::new(avl))));
        let id = Term::Lam(Type::Int, Box::new(Term::Var(0)));
        assert!(well_typed(&Term::App(
            Box::new(id.clone()),
            Box::new(Term::Int(2))
        )));
        assert!(!well_typed(&Term::App(
            Box::new(Term::Int(1)),
            Box::new(id)
        )));
        assert!(!well_typed(&Term::Var(0)));
        assert_eq!(levenshtein(b"n5l6ll", b"n5ll"), 2);
    }

    #[test]
    fn gradient_sampling_finds_only_valid_values_of_each_benchmark() {
        let trees = naive_tree(5, false);
        let run = trees.gradient(is_bst).samples(5).run(1, 3_000).unwrap();
        assert!(run.values.iter().all(|v| is_bst(&v.value)));
        assert!(!run.values.is_empty());
        let terms = naive_term(5);
        let run = terms.gradient(well_typed).samples(5).run(2, 3_000).unwrap();
        assert!(run.values.iter().all(|v| well_typed(&v.value)));
        let learned = terms.gradient(well_typed).learned(run.history);
        let mut rng = DefaultRng::seed_from_u64(3);
        let made = (0..50).filter_map(|_| learned.try_generate(&mut rng, DEFAULT_SIZE).ok());
        assert!(made.count() == 50);
    }
}
