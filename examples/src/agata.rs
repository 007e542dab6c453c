//! The types and properties of the Agata thesis' experiments (chapter 3), which the `agata`
//! example runs: nested vectors of growing dimension, the abstract syntax of section 3.1.1,
//! the broken quick-sort of section 3.2.1, and the pre-processing bug of section 3.2.2.
//!
//! The thesis writes its types as Haskell type synonyms of tuples, lists and `Either`; here
//! they are Rust tuples, `Vec`s and `Result` (`Ok` for `Left`, `Err` for `Right`), which
//! reflective, proptest and quickcheck all generate without a line of generator code.

/// A name: a class, function, variable or type name.
pub type Name = String;
/// A called function's class and function names.
pub type FName = (Name, Name);
/// An expression: a Boolean literal, or a call with arguments that are variables or literals.
pub type Exp = Result<bool, (FName, Vec<Result<Name, bool>>)>;
/// A statement: declarations `type var = exp`.
pub type Stmt = Vec<((Name, Name), Exp)>;
/// A function: its name and body.
pub type Function = (Name, Vec<Stmt>);
/// A class: its name and functions.
pub type Class = (Name, Vec<Function>);
/// A file: its name and classes. Dimension 6.
pub type File = (Name, Vec<Class>);

/// The thesis' dummy property over a [`File`]: the total length of its strings and the number
/// of `true`s in it, which visits every part.
pub fn inspect(file: &File) -> (usize, usize) {
    let mut chars = file.0.len();
    let mut trues = 0;
    let mut name = |n: &Name| chars += n.len();
    for (class_name, functions) in &file.1 {
        name(class_name);
        for (function_name, body) in functions {
            name(function_name);
            for ((ty, var), exp) in body.iter().flatten() {
                name(ty);
                name(var);
                match exp {
                    Ok(literal) => trues += usize::from(*literal),
                    Err(((class, function), args)) => {
                        name(class);
                        name(function);
                        for arg in args {
                            match arg {
                                Ok(var) => name(var),
                                Err(literal) => trues += usize::from(*literal),
                            }
                        }
                    }
                }
            }
        }
    }
    (chars, trues)
}

/// The class names of every call in `file`, in order.
pub fn called_classes(file: &File) -> Vec<&Name> {
    file.1
        .iter()
        .flat_map(|(_, functions)| functions)
        .flat_map(|(_, body)| body.iter().flatten())
        .filter_map(|(_, exp)| exp.as_ref().err().map(|((class, _), _)| class))
        .collect()
}

/// The pre-processing of section 3.2.2: each call without a class name takes the class of the
/// previous call, or of the next one when there is no previous one. `None` where the thesis'
/// version crashes: every call lacks a class name, so there is none to take.
pub fn fill_class_names(file: &File) -> Option<Vec<Name>> {
    let classes = called_classes(file);
    let first_named = classes.iter().find(|class| !class.is_empty());
    if !classes.is_empty() && first_named.is_none() {
        return None;
    }
    let mut previous = first_named.map(|class| (*class).clone());
    Some(
        classes
            .iter()
            .map(|class| {
                if !class.is_empty() {
                    previous = Some((*class).clone());
                }
                previous.clone().unwrap_or_default()
            })
            .collect(),
    )
}

/// A natural number in binary, as the thesis codes it for section 3.2.1.
pub type Nat = Vec<bool>;

/// The "optimised" quick-sort of section 3.2.1: lists shorter than 10 go to a simple sort, and
/// when the pivot is the least or the (unique) greatest element the rest is sorted by
/// `qsort_nonempty` without checking its length. `None` where the thesis' version crashes:
/// `qsort_nonempty` reached an empty list.
pub fn optimised_qsort(list: &[Nat]) -> Option<Vec<Nat>> {
    if list.len() < 10 {
        let mut sorted = list.to_vec();
        sorted.sort();
        return Some(sorted);
    }
    qsort_nonempty(list)
}

/// The thesis' `qsort'`, which assumes a non-empty list.
fn qsort_nonempty(list: &[Nat]) -> Option<Vec<Nat>> {
    let (pivot, rest) = list.split_first()?;
    let small: Vec<Nat> = rest.iter().filter(|x| pivot > *x).cloned().collect();
    let big: Vec<Nat> = rest.iter().filter(|x| pivot <= *x).cloned().collect();
    let mut sorted = Vec::with_capacity(list.len());
    if small.is_empty() {
        sorted.push(pivot.clone());
        sorted.extend(qsort_nonempty(&big)?);
    } else if big.is_empty() {
        sorted.extend(qsort_nonempty(&small)?);
        sorted.push(pivot.clone());
    } else {
        sorted.extend(optimised_qsort(&small)?);
        sorted.push(pivot.clone());
        sorted.extend(optimised_qsort(&big)?);
    }
    Some(sorted)
}

/// Whether the optimised quick-sort sorts `list` as the standard sort does.
pub fn qsort_agrees(list: &[Nat]) -> bool {
    let mut expected = list.to_vec();
    expected.sort();
    optimised_qsort(list) == Some(expected)
}

/// The number of leaves (bytes) of a nested vector of bytes, and of all its values (bytes and
/// vectors, the outermost included).
pub trait Count {
    /// The bytes inside.
    fn leaves(&self) -> usize;
    /// The bytes and vectors inside, itself included.
    fn values(&self) -> usize;
}

impl Count for u8 {
    fn leaves(&self) -> usize {
        1
    }

    fn values(&self) -> usize {
        1
    }
}

impl<T: Count> Count for Vec<T> {
    fn leaves(&self) -> usize {
        self.iter().map(Count::leaves).sum()
    }

    fn values(&self) -> usize {
        1 + self.iter().map(Count::values).sum::<usize>()
    }
}

/// A binary tree, derived: two recursive positions in one constructor.
#[derive(Clone, Debug, PartialEq, Eq, reflective::Reflective)]
pub enum Tree {
    /// An empty tree.
    Leaf,
    /// A node: left subtree, label, right subtree.
    Node(Box<Tree>, u8, Box<Tree>),
}

/// A rose tree, derived: recursion through a collection.
#[derive(Clone, Debug, PartialEq, Eq, reflective::Reflective)]
pub struct Rose {
    /// The node's label.
    pub label: u8,
    /// Its children.
    pub children: Vec<Rose>,
}

/// The depth and node count of a tree.
pub trait Shape {
    /// The nodes on the longest path from the root down (0 for an empty tree).
    fn depth(&self) -> usize;
    /// The nodes in all.
    fn nodes(&self) -> usize;
}

impl Shape for Tree {
    fn depth(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(left, _, right) => 1 + left.depth().max(right.depth()),
        }
    }

    fn nodes(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(left, _, right) => 1 + left.nodes() + right.nodes(),
        }
    }
}

impl Shape for Rose {
    fn depth(&self) -> usize {
        1 + self.children.iter().map(Shape::depth).max().unwrap_or(0)
    }

    fn nodes(&self) -> usize {
        1 + self.children.iter().map(Shape::nodes).sum::<usize>()
    }
}

/// The values of a [`File`]: every string's characters, every list's elements, every tuple,
/// `Result` and `bool`, the file itself included.
pub fn file_values(file: &File) -> usize {
    let name = |n: &Name| 1 + n.chars().count();
    let exp = |e: &Exp| match e {
        Ok(_) => 2,
        Err(((class, function), args)) => {
            // The Err, its tuple, the name pair, the list, and each argument and its content.
            4 + name(class)
                + name(function)
                + args.len()
                + args
                    .iter()
                    .map(|a| match a {
                        Ok(var) => name(var),
                        Err(_) => 1,
                    })
                    .sum::<usize>()
        }
    };
    let declaration = |((ty, var), e): &((Name, Name), Exp)| 2 + name(ty) + name(var) + exp(e);
    let statement = |s: &Stmt| 1 + s.iter().map(declaration).sum::<usize>();
    let function = |(n, body): &Function| 2 + name(n) + body.iter().map(statement).sum::<usize>();
    let class =
        |(n, functions): &Class| 2 + name(n) + functions.iter().map(function).sum::<usize>();
    2 + name(&file.0) + file.1.iter().map(class).sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reflective::prelude::*;

    #[test]
    fn the_quick_sort_bug_is_the_thesis_one() {
        let ten_zeros = vec![Vec::new(); 10];
        assert_eq!(optimised_qsort(&ten_zeros), None);
        let ascending: Vec<Nat> = (0..10u8)
            .map(|n| (0..4).rev().map(|bit| n >> bit & 1 == 1).collect())
            .collect();
        assert!(!qsort_agrees(&ascending));
        assert!(qsort_agrees(&[vec![true], vec![false]]));
        let mixed: Vec<Nat> = [5u8, 1, 9, 3, 7, 2, 8, 4, 6, 0, 5]
            .iter()
            .map(|&n| (0..4).rev().map(|bit| n >> bit & 1 == 1).collect())
            .collect();
        assert!(qsort_agrees(&mixed));
    }

    #[test]
    fn the_pre_processing_bug_is_the_thesis_one() {
        let call = |class: &str| Err(((class.to_string(), String::new()), Vec::new()));
        let file_with = |exps: Vec<Exp>| -> File {
            let stmt: Stmt = exps
                .into_iter()
                .map(|exp| ((String::new(), String::new()), exp))
                .collect();
            (
                String::new(),
                vec![(String::new(), vec![(String::new(), vec![stmt])])],
            )
        };
        // The thesis' smallest failing input.
        assert_eq!(fill_class_names(&file_with(vec![call("")])), None);
        assert_eq!(fill_class_names(&file_with(vec![Ok(true)])), Some(vec![]));
        assert_eq!(
            fill_class_names(&file_with(vec![call(""), call("A"), call("")])),
            Some(vec!["A".into(), "A".into(), "A".into()])
        );
    }

    /// A small version of the example's runs: the linear strategy finds both bugs within 100
    /// cases at sizes 0 to 99, for each of a few seeds.
    #[test]
    fn the_default_strategy_finds_both_bugs_within_a_run() {
        let lists = <Vec<Nat>>::arbitrary_reflective();
        let files = File::arbitrary_reflective();
        for seed in 0..5 {
            let mut rng = DefaultRng::seed_from_u64(seed);
            assert!(
                (0..100).any(|size| !qsort_agrees(&lists.generate_value(&mut rng, size))),
                "seed {seed}: no failing list"
            );
            let mut rng = DefaultRng::seed_from_u64(seed);
            assert!(
                (0..100)
                    .any(|size| fill_class_names(&files.generate_value(&mut rng, size)).is_none()),
                "seed {seed}: no failing file"
            );
        }
    }

    /// Generated files reflect in one way, and replay.
    #[test]
    fn generated_files_reflect() {
        let g = File::arbitrary_reflective();
        let mut rng = DefaultRng::seed_from_u64(9);
        for size in (0..60).step_by(3) {
            let generated = g.generate(&mut rng, size);
            let choices = g.reflector().size(size).choices(&generated.value).unwrap();
            assert_eq!(
                choices,
                std::slice::from_ref(&generated.tree),
                "size {size}"
            );
            assert_eq!(g.replay(&generated.tree), Some(generated.value));
        }
    }

    /// Under the linear strategy a nested vector at size `n` has at most `n` values on each
    /// level: at most `n` bytes, and `n·d + 1` values in all.
    #[test]
    fn linear_growth_is_bounded_by_the_size_on_each_level() {
        let g = <Vec<Vec<Vec<Vec<u8>>>>>::arbitrary_reflective();
        let mut rng = DefaultRng::seed_from_u64(1);
        for size in [0, 1, 7, 30, 100] {
            for _ in 0..200 {
                let value = g.generate_value(&mut rng, size);
                assert!(
                    value.leaves() <= size,
                    "{} bytes at size {size}",
                    value.leaves()
                );
                assert!(value.values() <= 4 * size + 1);
            }
        }
    }
}
