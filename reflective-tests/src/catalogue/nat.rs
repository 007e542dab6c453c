//! Peano naturals, and the paper's generators with unit, exponential and infinite overlap
//! (figure 5, section 4.2).
//!
//! [`Nat`]'s clone, comparison, formatting and drop are iterative, so values tens of thousands
//! deep can be built, compared and dropped on a small stack.

use std::fmt;

use reflective::prelude::*;

/// A Peano natural number: zero, or the successor of a natural.
pub enum Nat {
    /// Zero.
    Z,
    /// The successor of a natural.
    S(Box<Nat>),
}

impl Nat {
    /// The natural `n`, built without recursion.
    pub fn new(n: u64) -> Nat {
        let mut nat = Nat::Z;
        for _ in 0..n {
            nat = Nat::S(Box::new(nat));
        }
        nat
    }

    /// The number this natural stands for, counted without recursion.
    pub fn value(&self) -> u64 {
        let mut count = 0;
        let mut at = self;
        while let Nat::S(inner) = at {
            count += 1;
            at = inner;
        }
        count
    }
}

impl Clone for Nat {
    fn clone(&self) -> Nat {
        Nat::new(self.value())
    }
}

impl PartialEq for Nat {
    /// Walks both naturals together, so comparing with a small one is quick.
    fn eq(&self, other: &Nat) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Nat {}

impl PartialOrd for Nat {
    fn partial_cmp(&self, other: &Nat) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Nat {
    fn cmp(&self, other: &Nat) -> std::cmp::Ordering {
        let (mut left, mut right) = (self, other);
        loop {
            match (left, right) {
                (Nat::Z, Nat::Z) => return std::cmp::Ordering::Equal,
                (Nat::Z, Nat::S(_)) => return std::cmp::Ordering::Less,
                (Nat::S(_), Nat::Z) => return std::cmp::Ordering::Greater,
                (Nat::S(l), Nat::S(r)) => (left, right) = (l, r),
            }
        }
    }
}

impl fmt::Debug for Nat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Nat({})", self.value())
    }
}

impl Drop for Nat {
    fn drop(&mut self) {
        // Unlink one level at a time, so that dropping a deep natural does not recurse.
        let mut rest = match self {
            Nat::S(inner) => std::mem::replace(&mut **inner, Nat::Z),
            Nat::Z => return,
        };
        while let Nat::S(inner) = &mut rest {
            let next = std::mem::replace(&mut **inner, Nat::Z);
            rest = next;
        }
    }
}

/// The predecessor of a successor.
pub fn pred(n: &Nat) -> Option<&Nat> {
    match n {
        Nat::S(m) => Some(m),
        Nat::Z => None,
    }
}

/// The predecessor of the predecessor, if the natural is at least 2.
pub fn pred2(n: &Nat) -> Option<&Nat> {
    pred(n).and_then(pred)
}

/// The successor of `n`.
pub fn succ(n: Nat) -> Nat {
    Nat::S(Box::new(n))
}

/// The paper's `g1`, tied with [`recursive`]: `Z` with weight 2, `S` with weight 1, so `n` has
/// probability `(2/3) (1/3)^n` and exactly one way to be produced.
pub fn nat_recursive() -> Gen<Nat, Nat> {
    recursive(|nat: Gen<Nat, Nat>| {
        pick(((2, "Z", exact(Nat::Z)), (1, "S", nat.focus(pred).map(succ))))
    })
}

/// The same generator as [`nat_recursive`], defined as a function that refers to itself
/// through [`lazy`].
pub fn nat_lazy() -> Gen<Nat, Nat> {
    pick((
        (2, "Z", exact(Nat::Z)),
        (1, "S", lazy(nat_lazy).focus(pred).map(succ)),
    ))
    .boxed()
}

/// The paper's `gE`: each step adds one ("one") or two ("two"), so `n` is produced in
/// `fib(n + 1)` ways, one per composition of `n` into 1s and 2s (exponential overlap).
///
/// Weights: "Z" 2, "one" 1, "two" 1; see [`exponential_probability`].
pub fn nat_exponential() -> Gen<Nat, Nat> {
    recursive(|nat: Gen<Nat, Nat>| {
        pick((
            (2, "Z", exact(Nat::Z)),
            (1, "one", nat.clone().focus(pred).map(succ)),
            (1, "two", nat.focus(pred2).map(|n| succ(succ(n)))),
        ))
    })
}

/// The probability that [`nat_exponential`] produces `n`: `P(0) = 1/2`,
/// `P(n) = P(n-1)/4 + P(n-2)/4`.
pub fn exponential_probability(n: u64) -> f64 {
    let (mut before, mut at) = (0.0, 0.5);
    for _ in 0..n {
        (before, at) = (at, at / 4.0 + before / 4.0);
    }
    at
}

/// The `n`th Fibonacci number (`fib(1) = fib(2) = 1`): the number of ways
/// [`nat_exponential`] produces `n - 1`.
pub fn fib(n: u64) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

/// The paper's `gI`: like [`nat_recursive`] with a third branch, "inf", that recurses without
/// consuming anything, so every natural is produced in infinitely many ways.
///
/// With `inf_first` the looping branch is tried first; otherwise the order is "Z", "S", "inf".
pub fn nat_infinite(inf_first: bool) -> Gen<Nat, Nat> {
    recursive(move |nat: Gen<Nat, Nat>| {
        let z = (2, "Z", exact(Nat::Z).boxed());
        let s = (1, "S", nat.clone().focus(pred).map(succ).boxed());
        let inf = (1, "inf", nat);
        if inf_first {
            pick([inf, z, s])
        } else {
            pick([z, s, inf])
        }
    })
}
