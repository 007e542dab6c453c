//! Free generators: the paper's theorems as properties over a thousand random free generators
//! (value and language consistency of the derivative, factoring into a parser and a choice
//! distribution, nullability, simplified form), `bind` among their constructors, and Choice
//! Gradient Sampling's guarantee that every value it yields is valid, and its score
//! (distinct valid samples).

use reflective::free::{Free, cgs};
use reflective::prelude::*;

/// A value of a random free generator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum FV {
    Leaf(u8),
    Pair(Box<FV>, Box<FV>),
    Wrapped(Box<FV>),
}

/// A free generator, described; `Spec` derives its own generator, so tests draw thousands.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum FreeSpec {
    Void,
    Pure(u8),
    #[reflective(weight = 3)]
    Select(Vec<FreeSpec>),
    #[reflective(weight = 2)]
    Pair(Box<FreeSpec>, Box<FreeSpec>),
    Map(Box<FreeSpec>),
    /// A generator, then one of the continuations, chosen by the value it made.
    #[reflective(weight = 2)]
    Bind(Box<FreeSpec>, Vec<FreeSpec>),
}

/// The free generator `spec` describes: a select's branches are tagged `a`, `b`, ...
fn build(spec: &FreeSpec) -> Free<FV> {
    match spec {
        FreeSpec::Void => Free::void(),
        FreeSpec::Pure(n) => Free::pure(FV::Leaf(*n)),
        FreeSpec::Select(branches) => Free::select(
            branches
                .iter()
                .take(26)
                .enumerate()
                .map(|(index, branch)| (char::from(b'a' + index as u8), build(branch)))
                .collect(),
        ),
        FreeSpec::Pair(x, y) => build(x)
            .pair(&build(y))
            .map(|(a, b)| FV::Pair(Box::new(a), Box::new(b))),
        FreeSpec::Map(x) => build(x).map(|v| FV::Wrapped(Box::new(v))),
        FreeSpec::Bind(x, continuations) => {
            let continuations = continuations.clone();
            build(x).bind(move |v| {
                // The continuation depends on the value; one that is `void` would make the
                // generator fail on it, so the value alone follows instead.
                let index = format!("{v:?}").len() % continuations.len().max(1);
                match continuations.get(index).map(build) {
                    Some(next) if !next.is_void() => {
                        next.map(move |w| FV::Pair(Box::new(v.clone()), Box::new(w)))
                    }
                    _ => Free::pure(FV::Wrapped(Box::new(v))),
                }
            })
        }
    }
}

/// `count` random free generators with a random choice sequence of each, valid or not.
fn cases(count: usize, seed: u64) -> Vec<(FreeSpec, Free<FV>, String)> {
    let specs = FreeSpec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(seed);
    (0..count)
        .map(|round| {
            let spec = specs.generate_value(&mut rng, 30);
            let g = build(&spec);
            let choices = match (round % 3, g.choices(&mut rng)) {
                // A sequence in the language, one cut short or lengthened, or noise.
                (0, Some(s)) => s,
                (1, Some(s)) => format!("{s}a"),
                (_, Some(s)) if s.len() > 1 => s[..s.len() - 1].to_string(),
                _ => vec!['a', 'b', 'c', 'z'][..1 + round % 4].iter().collect(),
            };
            (spec, g, choices)
        })
        .collect()
}

#[test]
fn the_derivative_is_value_consistent() {
    // Theorem 4.3: parse (δc g) s = parse g (c·s), for every generator but `pure`: a `pure`
    // parses without reading, so `parse g (c·s)` succeeds while δc g is void (the paper's
    // Appendix D takes both sides to be Nothing in that case; only the parser that must read
    // all of its input, below, makes it so).
    let mut checked = 0;
    for (spec, g, s) in cases(1000, 1) {
        if g.nullable().is_some() {
            for c in "abz".chars() {
                assert!(g.derivative(c).is_void(), "{spec:?}");
            }
            continue;
        }
        checked += 1;
        for c in "abcz".chars().chain(s.chars().take(1)) {
            let whole = format!("{c}{s}");
            assert_eq!(
                g.derivative(c).parse(&s),
                g.parse(&whole),
                "{spec:?}: δ{c} on {s:?}"
            );
        }
    }
    assert!(
        checked > 500,
        "only {checked} generators that make a choice"
    );
    let binding = cases(1000, 1)
        .iter()
        .filter(|(_, g, _)| format!("{g:?}").contains("bind"))
        .count();
    assert!(
        binding > 80,
        "only {binding} generators with a bind in view"
    );
}

#[test]
fn the_derivative_is_language_consistent() {
    // Theorem 4.2: c·s is in the language of g iff s is in that of δc g.
    let accepts = |g: &Free<FV>, s: &str| g.parse(s).is_some_and(|(_, rest)| rest.is_empty());
    let mut accepted = 0;
    for (spec, g, s) in cases(1000, 2) {
        let Some(c) = s.chars().next() else { continue };
        let rest = &s[c.len_utf8()..];
        assert_eq!(
            accepts(&g, &s),
            accepts(&g.derivative(c), rest),
            "{spec:?} on {s:?}"
        );
        assert_eq!(
            accepts(&g, &s),
            accepts(&g.derivative_by(&s), ""),
            "{spec:?}: derivatives by all of {s:?}"
        );
        accepted += usize::from(accepts(&g, &s));
    }
    assert!(
        accepted > 100,
        "only {accepted} sequences in their language"
    );
}

#[test]
fn a_free_generator_factors_into_a_parser_and_a_choice_distribution() {
    // Theorem 3.4, seed by seed: the choices the distribution draws parse to the value the
    // generator draws with the same randomness, with nothing left.
    for (round, (spec, g, _)) in cases(1000, 3).into_iter().enumerate() {
        let mut for_choices = DefaultRng::seed_from_u64(round as u64);
        let mut for_value = DefaultRng::seed_from_u64(round as u64);
        let choices = g.choices(&mut for_choices);
        let value = g.generate(&mut for_value);
        assert_eq!(choices.is_some(), !g.is_void(), "{spec:?}");
        assert_eq!(
            choices.as_deref().and_then(|s| g.parse(s)),
            value.map(|v| (v, "")),
            "{spec:?}"
        );
    }
}

#[test]
fn nullability_is_the_value_of_the_empty_sequence_and_void_is_only_at_the_top() {
    for (spec, g, _) in cases(1000, 4) {
        assert_eq!(
            g.nullable().map(|v| (v, "")),
            g.parse("").filter(|(_, r)| r.is_empty()),
            "{spec:?}"
        );
        // In simplified form a generator is void exactly when it generates nothing, and its
        // first choices are the derivatives that are not void.
        assert_eq!(
            g.is_void(),
            g.generate(&mut DefaultRng::seed_from_u64(0)).is_none(),
            "{spec:?}"
        );
        for c in "abcdz".chars() {
            assert_eq!(
                g.first_choices().contains(&c),
                !g.derivative(c).is_void(),
                "{spec:?} by {c}"
            );
        }
    }
}

#[test]
fn every_value_choice_gradient_sampling_yields_is_valid_and_parses_from_its_choices() {
    let mut rng = DefaultRng::seed_from_u64(5);
    let mut found = 0;
    for (spec, g, _) in cases(1000, 6) {
        let valid = |v: &FV| format!("{v:?}").len() % 3 == 0;
        let run = cgs(&g, 4, valid, &mut rng).unwrap();
        for (value, choices) in &run.values {
            assert!(valid(value), "{spec:?}: {value:?}");
            assert_eq!(g.parse(choices), Some((value.clone(), "")), "{spec:?}");
        }
        found += run.values.len();
    }
    assert!(found > 200, "only {found} valid values");
}

#[test]
fn a_panicking_predicate_is_reported_with_its_value() {
    let g = Free::select(vec![('a', Free::pure(1u8)), ('b', Free::pure(2u8))]);
    let mut rng = DefaultRng::seed_from_u64(0);
    let error = cgs(
        &g,
        3,
        |&x| {
            assert!(x != 2, "two is not allowed");
            true
        },
        &mut rng,
    )
    .unwrap_err();
    assert_eq!(error.value, "2");
    assert!(error.to_string().contains("two is not allowed"), "{error}");
    // A predicate no value satisfies ends with nothing found, not a hang.
    let run = cgs(&g, 3, |_| false, &mut rng).unwrap();
    assert!(run.values.is_empty());
    assert_eq!(run.stats.valid, 0);
    assert_eq!(run.stats.blind_steps, run.stats.steps);
}

#[test]
#[should_panic(expected = "two branches are tagged 'a'")]
fn duplicate_tags_are_refused() {
    let _ = Free::select(vec![('a', Free::pure(1u8)), ('a', Free::pure(2u8))]);
}

#[test]
fn choices_score_by_their_distinct_valid_samples_as_the_paper_does() {
    // `a` ends at once with one value, `b` makes one of ten: with every value valid, `a`'s
    // samples are one value many times and `b`'s several values, so the paper's score (the
    // size of the set of valid samples) takes `b` about nine times in ten. Counting every
    // valid sample would score them alike and take each half of the time.
    let digits = Free::select(
        (0..=9)
            .map(|d| (char::from(b'0' + d), Free::pure(d)))
            .collect(),
    );
    let g = Free::select(vec![('a', Free::pure(100u8)), ('b', digits)]);
    let mut rng = DefaultRng::seed_from_u64(11);
    let took_b = (0..400)
        .filter(|_| {
            let run = cgs(&g, 20, |_: &u8| true, &mut rng).unwrap();
            let (_, choices) = run.values.last().expect("every value is valid");
            choices.starts_with('b')
        })
        .count();
    assert!(
        (320..=390).contains(&took_b),
        "b taken {took_b} times in 400"
    );
}

/// The ten digits, tagged by themselves.
fn digits() -> Free<u8> {
    Free::select(
        (0..=9)
            .map(|d| (char::from(b'0' + d), Free::pure(d)))
            .collect(),
    )
}

#[test]
fn a_derivative_is_sampled_n_times_though_some_draws_fail() {
    // One choice, `a`, whose derivative draws a digit and fails on the odd ones (a `bind` to
    // `void`): its 20 draws give about 10 samples. Then the five even digits' derivatives
    // give 20 samples each (one value each) and the odd ones' are `void`, unsampled: about
    // 110 in all. Stopping at the first failed draw would give about 101.
    let evens = digits().bind(|d| {
        if d % 2 == 1 {
            Free::void()
        } else {
            Free::pure(d)
        }
    });
    let g = Free::select(vec![('a', evens)]);
    let mut rng = DefaultRng::seed_from_u64(3);
    let runs = 200;
    let samples: u64 = (0..runs)
        .map(|_| cgs(&g, 20, |_: &u8| true, &mut rng).unwrap().stats.samples)
        .sum();
    let mean = samples as f64 / f64::from(runs);
    assert!((106.0..=114.0).contains(&mean), "{mean} samples a run");
}

#[test]
fn a_run_that_reaches_void_starts_again_as_the_paper_does() {
    // `a` leads to `void` through a bind; `b` to a digit, of which only 7 is valid. With one
    // sample per choice, most first steps score nothing and pick blindly: half go to `a`,
    // where the paper's line 5 starts again. Every run ends with a 7.
    let g = Free::select(vec![('a', Free::pure(1u8)), ('b', Free::pure(2u8))])
        .bind(|n| if n == 1 { Free::void() } else { digits() });
    let mut rng = DefaultRng::seed_from_u64(4);
    let (mut restarts, mut empty) = (0, 0);
    for _ in 0..1000 {
        let run = cgs(&g, 1, |&x: &u8| x == 7, &mut rng).unwrap();
        restarts += run.stats.restarts;
        match run.values.last() {
            Some((value, choices)) => assert_eq!((*value, choices.as_str()), (7, "b7")),
            None => empty += 1,
        }
    }
    assert_eq!(empty, 0, "runs that found nothing");
    assert!(restarts > 300, "{restarts} restarts");
    // A generator that is `void` itself has nothing to start again from.
    let run = cgs(&Free::<u8>::void(), 3, |_| true, &mut rng).unwrap();
    assert!(run.values.is_empty() && run.stats.restarts == 0);
}

#[test]
fn a_generator_nested_thousands_deep_parses_generates_and_drops() {
    // A list of up to `depth` ones, one level of syntax per element: every interpretation
    // recurses once per level, and so does dropping it. 5 000 levels overflowed the test
    // thread's stack (an abort, not a panic) before they grew it.
    let depth = 5_000;
    let mut g = Free::select(vec![('n', Free::pure(0u32))]);
    for _ in 0..depth {
        let one = Free::select(vec![('x', Free::pure(1u32))]);
        g = Free::select(vec![
            ('n', Free::pure(0u32)),
            ('c', one.pair(&g).map(|(a, b)| a + b)),
        ]);
    }
    let longest: String = "cx".repeat(depth) + "n";
    assert_eq!(g.parse(&longest), Some((depth as u32, "")));
    assert_eq!(
        g.derivative_by("cxcx").parse(&longest[4..]),
        g.parse(&longest)
    );
    let mut rng = DefaultRng::seed_from_u64(0);
    assert!(g.generate(&mut rng).is_some());
    drop(g);
}
