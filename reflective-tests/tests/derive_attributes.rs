//! The `#[reflective(...)]` attributes that compile do what the attribute table says: labels
//! name the choices, weights set frequencies, skipped variants are never generated and do not
//! reflect, `with` and `generator` replace a field's generator (forward and backward), `bound`
//! replaces the impl's bounds, `crate` finds the runtime through a re-export, and const
//! generics work. Compile errors are in `tests/ui`.

use std::collections::BTreeSet;

use reflective::Reflective;
use reflective::prelude::*;

/// `count` values from `g` at size 100, from a fixed seed: the tests are deterministic.
fn draw<T: 'static>(seed: u64, g: &Gen<T, T>, count: usize) -> Vec<T> {
    let mut rng = DefaultRng::seed_from_u64(seed);
    (0..count)
        .map(|_| g.generate_value(&mut rng, 100))
        .collect()
}

/// The labels of the first way `g` produces `value`, as text.
fn labels<T: 'static>(g: &Gen<T, T>, value: &T) -> Vec<String> {
    let ways = g.reflect(value);
    assert!(!ways.is_empty(), "the value does not reflect");
    ways[0].iter().map(Label::to_string).collect()
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Answer {
    #[reflective(label = "yes")]
    Yes,
    #[reflective(label = "no")]
    No(bool),
    Maybe,
}

#[test]
fn label_names_the_variant_choice() {
    let g = Answer::arbitrary_reflective();
    assert_eq!(labels(&g, &Answer::Yes), ["yes"]);
    assert_eq!(labels(&g, &Answer::No(true))[0], "no");
    // Without `label`, the variant's name.
    assert_eq!(labels(&g, &Answer::Maybe), ["Maybe"]);
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Coin {
    #[reflective(weight = 9)]
    Heads,
    Tails,
}

#[test]
fn weight_sets_the_frequency() {
    let g = Coin::arbitrary_reflective();
    // Exactly: the weights are 9 and 1.
    assert!((g.probability_of(&Coin::Heads) - 0.9).abs() < 1e-9);
    assert!((g.probability_of(&Coin::Tails) - 0.1).abs() < 1e-9);
    // Statistically: 9000 heads expected out of 10 000 (standard deviation 30). The bounds are
    // more than 10 deviations away, and the seed is fixed.
    let heads = draw(1, &g, 10_000)
        .iter()
        .filter(|&coin| *coin == Coin::Heads)
        .count();
    assert!((8_500..=9_500).contains(&heads), "{heads} heads in 10 000");
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Status {
    Active,
    #[reflective(skip)]
    Legacy(u8),
    Inactive,
}

#[test]
fn skipped_variants_are_never_generated_and_do_not_reflect() {
    let g = Status::arbitrary_reflective();
    let values = draw(2, &g, 2_000);
    assert!(values.iter().all(|s| !matches!(s, Status::Legacy(_))));
    assert!(values.contains(&Status::Active));
    assert!(values.contains(&Status::Inactive));
    assert!(g.can_generate(&Status::Active));
    assert!(!g.can_generate(&Status::Legacy(0)));
    assert!(g.reflect(&Status::Legacy(7)).is_empty());
    assert_eq!(g.probability_of(&Status::Legacy(7)), 0.0);
}

/// A type with no generator: `Reflective` is not implemented for it.
#[derive(Clone, Debug, PartialEq)]
struct Handle(u32);

/// Skipped variants whose fields have no generator, one of them recursive.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Event {
    Key(u8),
    Group(Vec<Event>),
    #[reflective(skip)]
    Opened(Handle, std::time::Instant),
    #[reflective(skip)]
    Nested(Box<Event>, Handle),
}

#[test]
fn a_skipped_variants_fields_need_no_generator() {
    let g = Event::arbitrary_reflective();
    fn contains_skipped(e: &Event) -> bool {
        match e {
            Event::Key(_) => false,
            Event::Group(events) => events.iter().any(contains_skipped),
            Event::Opened(..) | Event::Nested(..) => true,
        }
    }
    for seed in 0..20 {
        let values = draw(seed, &g, 100);
        assert!(!values.iter().any(contains_skipped), "seed {seed}");
        for value in &values {
            assert!(g.can_generate(value), "{value:?}");
        }
    }
    let opened = Event::Opened(Handle(1), std::time::Instant::now());
    let nested = Event::Group(vec![
        Event::Key(1),
        Event::Nested(Box::new(Event::Key(2)), Handle(3)),
    ]);
    for value in [&opened, &nested] {
        assert!(!g.can_generate(value));
        assert_eq!(g.probability_of(value), 0.0);
        assert!(g.mutator().mutate(value, 1).is_err());
    }
    // The interpretations that read the description work on the other variants.
    let failing = Event::Group(vec![Event::Key(200), Event::Key(7)]);
    let shrunk = g.shrink(failing, |e| contains_key_over(e, 100));
    assert_eq!(shrunk, Event::Key(101));
    assert!(g.enumerate(2).take(50).all(|e| !contains_skipped(&e)));
    assert!(
        g.mutator()
            .mutants(&Event::Group(vec![Event::Key(3)]), 2)
            .expect("a generated value mutates")
            .take(200)
            .all(|m| !contains_skipped(&m.value))
    );
}

fn contains_key_over(e: &Event, bound: u8) -> bool {
    match e {
        Event::Key(k) => *k > bound,
        Event::Group(events) => events.iter().any(|e| contains_key_over(e, bound)),
        Event::Opened(..) | Event::Nested(..) => false,
    }
}

fn die() -> impl Generator<Input = u8, Output = u8> {
    range(1u8..=6)
}

fn side() -> Gen<bool, bool> {
    labeled([("up", exact(true)), ("down", exact(false))]).boxed()
}

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Roll {
    #[reflective(with = die)]
    die: u8,
    #[reflective(generator = "range(10u8..=20)")]
    score: u8,
    #[reflective(with = side)]
    up: bool,
}

#[test]
fn with_and_generator_replace_the_field_generator() {
    let g = Roll::arbitrary_reflective();
    for roll in draw(3, &g, 1_000) {
        assert!((1..=6).contains(&roll.die), "{roll:?}");
        assert!((10..=20).contains(&roll.score), "{roll:?}");
        assert!(g.can_generate(&roll), "{roll:?}");
    }
    let roll = |die, score, up| Roll { die, score, up };
    assert!(g.can_generate(&roll(6, 20, true)));
    // Out of the custom ranges: `u8`'s own generator would produce these.
    assert!(!g.can_generate(&roll(0, 15, true)));
    assert!(!g.can_generate(&roll(7, 15, true)));
    assert!(!g.can_generate(&roll(3, 9, true)));
    assert!(!g.can_generate(&roll(3, 21, true)));
    // The probability is the custom generators': 1/6 * 1/11 * 1/2.
    assert!((g.probability_of(&roll(3, 15, false)) - 1.0 / 132.0).abs() < 1e-9);
    // Reflection goes through the custom generator: `side`'s labels.
    assert!(labels(&g, &roll(3, 15, false)).contains(&"down".to_string()));
    assert!(labels(&g, &roll(3, 15, true)).contains(&"up".to_string()));
}

/// The same generators, given as expressions and as strings holding them.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct Unquoted {
    #[reflective(generator = range(10u8..=20))]
    score: u8,
    #[reflective(generator = vec(range(1u8..=6), 1..=3))]
    dice: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Quoted {
    #[reflective(generator = "range(10u8..=20)")]
    score: u8,
    #[reflective(generator = "vec(range(1u8..=6), 1..=3)")]
    dice: Vec<u8>,
}

#[test]
fn generator_takes_an_expression_or_a_string_holding_one() {
    let (unquoted, quoted) = (
        Unquoted::arbitrary_reflective(),
        Quoted::arbitrary_reflective(),
    );
    for (u, q) in draw(8, &unquoted, 200)
        .into_iter()
        .zip(draw(8, &quoted, 200))
    {
        assert!((10..=20).contains(&u.score), "{u:?}");
        assert!((1..=3).contains(&u.dice.len()), "{u:?}");
        assert_eq!((u.score, &u.dice), (q.score, &q.dice));
    }
    let value = Unquoted {
        score: 15,
        dice: vec![6, 1],
    };
    assert!(unquoted.can_generate(&value));
    assert!(!unquoted.can_generate(&Unquoted { score: 9, ..value }));
}

/// `BTreeSet<K>` is `Reflective` only when `K: Ord`, so the default bound `K: Reflective`
/// would not compile: `bound` gives the one that does.
#[derive(Clone, Debug, PartialEq, Reflective)]
#[reflective(bound = "K: Reflective + Ord")]
struct Keys<K> {
    keys: BTreeSet<K>,
    count: u8,
}

#[test]
fn bound_replaces_the_impl_bounds() {
    let g = Keys::<u16>::arbitrary_reflective();
    for value in draw(4, &g, 200) {
        assert!(g.can_generate(&value), "{value:?}");
    }
    let value = Keys {
        keys: BTreeSet::from([1u16, 5, 9]),
        count: 3,
    };
    assert!(g.can_generate(&value));
}

mod reexport {
    pub use reflective;
}

/// Only the derive's path names `reflective` here; the impl reaches it through `crate`.
#[derive(Clone, Debug, PartialEq, reexport::reflective::Reflective)]
#[reflective(crate = "reexport::reflective")]
enum Light {
    Red,
    Green(u8),
}

#[test]
fn crate_finds_the_runtime_through_a_reexport() {
    let g = Light::arbitrary_reflective();
    assert!(g.can_generate(&Light::Red));
    assert!(g.can_generate(&Light::Green(200)));
    assert_eq!(labels(&g, &Light::Red), ["Red"]);
    for value in draw(5, &g, 100) {
        assert!(g.can_generate(&value), "{value:?}");
    }
}

#[derive(Clone, Debug, PartialEq, Reflective)]
struct Arr<const N: usize>([u8; N]);

#[test]
fn const_generics_work() {
    let g = Arr::<4>::arbitrary_reflective();
    for value in draw(6, &g, 200) {
        assert!(g.can_generate(&value), "{value:?}");
    }
    assert!(g.can_generate(&Arr([0, 1, 2, 255])));
    let empty = Arr::<0>::arbitrary_reflective();
    assert_eq!(empty.sample(7), Arr([]));
    assert!(empty.can_generate(&Arr([])));
}

/// A type with its own `as_str`, which the prism on `Str` would also be called.
#[derive(Clone, Debug, PartialEq, Reflective)]
#[reflective(optics_prefix = "opt_")]
enum Value {
    Str(String),
    Int(i64),
}

impl Value {
    fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(text) => Some(text),
            Value::Int(_) => None,
        }
    }
}

#[test]
fn optics_prefix_keeps_the_optics_apart_from_the_types_own_methods() {
    let text = Value::Str("hi".to_string());
    assert_eq!(text.as_str(), Some("hi"));
    assert_eq!(Value::opt_as_str(&text), Some(&"hi".to_string()));
    assert_eq!(Value::opt_int_0(&Value::Int(4)), Some(&4));
    assert_eq!(Value::opt_from_int(7), Value::Int(7));
    let g = Value::arbitrary_reflective();
    let value = g.sample(5);
    assert!(g.can_generate(&value));
}
