//! Random generators: a [`Spec`] describes a generator built from the core's combinators
//! (integer ranges, `zip`, `vec`, `pick`, `bind`, `focus`, `map`, memoized families),
//! [`build`] builds it over the dynamic values [`V`], and `Spec` derives its own generator, so
//! a test draws thousands of different generators and checks an interpretation's laws on each.
//!
//! Every spec builds an aligned generator with sound annotations: each `map` is undone by a
//! `focus`, and the branches of a pick tag their values, so reflection is exact. Two specs
//! build generators with invariants across their parts, made by `bind`: [`Spec::Counted`] (a
//! list exactly as long as the number before it) and [`Spec::Above`] (an integer no less than
//! the one before it).

use reflective::prelude::*;

/// A dynamic value, what every built generator produces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum V {
    /// An integer.
    Int(i64),
    /// Two values.
    Pair(Box<V>, Box<V>),
    /// A list of values.
    List(Vec<V>),
    /// A pick's branch, by its index, and its value.
    Tag(u8, Box<V>),
}

/// A generator, described.
#[derive(Clone, Debug, PartialEq, Reflective)]
pub enum Spec {
    /// `range(lo..=lo + width)`.
    Int {
        /// The least value.
        lo: i8,
        /// How many values beyond the least.
        width: u8,
    },
    /// Both parts, one after the other (`zip`).
    #[reflective(weight = 2)]
    Pair(Box<Spec>, Box<Spec>),
    /// A list of up to `max` elements (`vec`).
    #[reflective(weight = 2)]
    List(Box<Spec>, u8),
    /// One of the branches (`pick`, each branch weighted by its position plus one).
    #[reflective(weight = 2)]
    Pick(Vec<Spec>),
    /// A count `n` in `0..=max`, then exactly `n` elements (`bind`).
    #[reflective(weight = 2)]
    Counted(Box<Spec>, u8),
    /// An integer `x` in `lo..=lo + width`, then one in `x..=x + 5` (`bind`).
    Above {
        /// The least first value.
        lo: i8,
        /// How many values beyond the least.
        width: u8,
    },
    /// The same generator as the member of a `memoized_family` (built once and kept, its
    /// values reused by the replays of mutation).
    Memoized(Box<Spec>),
}

/// The generator `spec` describes.
pub fn build(spec: &Spec) -> Gen<V, V> {
    match spec {
        Spec::Int { lo, width } => int_between(i64::from(*lo), i64::from(*lo) + i64::from(*width)),
        Spec::Pair(first, second) => zip(
            build(first).focus(|v: &V| pair(v).map(|(a, _)| a)),
            build(second).focus(|v: &V| pair(v).map(|(_, b)| b)),
        )
        .map(|(a, b)| V::Pair(Box::new(a), Box::new(b)))
        .boxed(),
        Spec::List(element, max) => vec(build(element), 0..=usize::from(*max))
            .focus(list)
            .map(V::List)
            .boxed(),
        Spec::Memoized(inner) => {
            let inner = build(inner);
            memoized_family(move |_: &Family<(), V, V>, ()| inner.clone())
                .at(())
                .boxed()
        }
        Spec::Pick(branches) if branches.is_empty() => int_between(0, 0),
        Spec::Pick(branches) => {
            let branches: Vec<(u32, String, Gen<V, V>)> = branches
                .iter()
                .enumerate()
                .map(|(index, branch)| {
                    let tag = index as u8;
                    let g = build(branch)
                        .focus(move |v: &V| match v {
                            V::Tag(t, inner) if *t == tag => Some(&**inner),
                            _ => None,
                        })
                        .map(move |v| V::Tag(tag, Box::new(v)))
                        .boxed();
                    (index as u32 + 1, format!("b{index}"), g)
                })
                .collect();
            pick(branches).boxed()
        }
        Spec::Counted(element, max) => {
            let element = build(element);
            range(0..=usize::from(*max))
                .comap(|v: &V| match pair(v)? {
                    (V::Int(n), V::List(_)) => usize::try_from(*n).ok(),
                    _ => None,
                })
                .bind(move |n| {
                    vec(element.clone(), n..=n)
                        .focus(|v: &V| pair(v).and_then(|(_, items)| list(items)))
                        .map(move |items| {
                            V::Pair(Box::new(V::Int(n as i64)), Box::new(V::List(items)))
                        })
                })
                .boxed()
        }
        Spec::Above { lo, width } => {
            let lo = i64::from(*lo);
            range(lo..=lo + i64::from(*width))
                .focus(|v: &V| match pair(v)? {
                    (V::Int(x), _) => Some(x),
                    _ => None,
                })
                .bind(|x| {
                    range(x..=x + 5)
                        .focus(|v: &V| match pair(v)? {
                            (_, V::Int(y)) => Some(y),
                            _ => None,
                        })
                        .map(move |y| V::Pair(Box::new(V::Int(x)), Box::new(V::Int(y))))
                })
                .boxed()
        }
    }
}

/// Whether `value` is one `spec` describes, checked directly (not by reflection).
pub fn conforms(spec: &Spec, value: &V) -> bool {
    match (spec, value) {
        (Spec::Int { lo, width }, V::Int(x)) => {
            (i64::from(*lo)..=i64::from(*lo) + i64::from(*width)).contains(x)
        }
        (Spec::Memoized(inner), value) => conforms(inner, value),
        (Spec::Pair(a, b), V::Pair(x, y)) => conforms(a, x) && conforms(b, y),
        (Spec::List(element, max), V::List(items)) => {
            items.len() <= usize::from(*max) && items.iter().all(|item| conforms(element, item))
        }
        (Spec::Pick(branches), V::Int(0)) => branches.is_empty(),
        (Spec::Pick(branches), V::Tag(tag, inner)) => branches
            .get(usize::from(*tag))
            .is_some_and(|branch| conforms(branch, inner)),
        (Spec::Counted(element, max), V::Pair(n, items)) => match (&**n, &**items) {
            (V::Int(n), V::List(items)) => {
                usize::try_from(*n).is_ok_and(|n| n <= usize::from(*max) && n == items.len())
                    && items.iter().all(|item| conforms(element, item))
            }
            _ => false,
        },
        (Spec::Above { lo, width }, V::Pair(x, y)) => match (&**x, &**y) {
            (V::Int(x), V::Int(y)) => {
                (i64::from(*lo)..=i64::from(*lo) + i64::from(*width)).contains(x)
                    && (*x..=*x + 5).contains(y)
            }
            _ => false,
        },
        _ => false,
    }
}

fn int_between(lo: i64, hi: i64) -> Gen<V, V> {
    range(lo..=hi)
        .focus(|v: &V| match v {
            V::Int(x) => Some(x),
            _ => None,
        })
        .map(V::Int)
        .boxed()
}

fn pair(v: &V) -> Option<(&V, &V)> {
    match v {
        V::Pair(a, b) => Some((a, b)),
        _ => None,
    }
}

fn list(v: &V) -> Option<&Vec<V>> {
    match v {
        V::List(items) => Some(items),
        _ => None,
    }
}
