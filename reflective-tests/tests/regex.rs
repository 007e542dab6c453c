//! `string_regex`: over random patterns, every generated string matches (the `regex` crate is
//! the oracle), reflects in one way and replays to itself; a string reflects exactly when the
//! oracle matches it; every shrink candidate and every mutant matches; and the exact minima
//! and error messages users read.

use std::cell::RefCell;

use reflective::check::{Config, check_with};
use reflective::prelude::*;

/// A regular expression over a few letters, to generate patterns from.
#[derive(Clone, Debug, PartialEq, Reflective)]
enum Re {
    Letter(Letter),
    Class(ClassKind),
    Seq(Vec<Re>),
    Alt(Box<Re>, Box<Re>),
    Rep(Box<Re>, Times),
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Letter {
    A,
    B,
    /// Two bytes in UTF-8.
    EAcute,
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum ClassKind {
    AOrB,
    NotA,
    Digit,
    Dot,
    IgnoringCaseB,
    /// No character at all.
    Nothing,
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Times {
    Optional,
    Star,
    Plus,
    Between(u8, u8),
}

impl Re {
    fn pattern(&self) -> String {
        match self {
            Re::Letter(Letter::A) => "a".into(),
            Re::Letter(Letter::B) => "b".into(),
            Re::Letter(Letter::EAcute) => "é".into(),
            Re::Class(ClassKind::AOrB) => "[ab]".into(),
            Re::Class(ClassKind::NotA) => "[^a]".into(),
            Re::Class(ClassKind::Digit) => r"\d".into(),
            Re::Class(ClassKind::Dot) => ".".into(),
            Re::Class(ClassKind::IgnoringCaseB) => "(?i:b)".into(),
            Re::Class(ClassKind::Nothing) => r"[^\s\S]".into(),
            Re::Seq(parts) => parts.iter().map(Re::pattern).collect(),
            Re::Alt(left, right) => format!("(?:{}|{})", left.pattern(), right.pattern()),
            Re::Rep(inner, times) => {
                let times = match times {
                    Times::Optional => "?".to_string(),
                    Times::Star => "*".to_string(),
                    Times::Plus => "+".to_string(),
                    Times::Between(min, extra) => {
                        format!("{{{},{}}}", min % 3, min % 3 + extra % 3)
                    }
                };
                format!("(?:{}){times}", inner.pattern())
            }
        }
    }
}

/// The characters the random strings are made of: every letter and class above has some in
/// it, and some are in none.
const ALPHABET: [char; 8] = ['a', 'b', 'B', 'é', 'e', '7', '\n', '٣'];

/// The size at which the oracle's verdict is compared with reflection: large enough for every
/// repetition in a short string, however nested.
const LARGE: usize = 1 << 20;

/// Whole-string matches by the `regex` crate.
fn oracle(pattern: &str) -> regex::Regex {
    regex::Regex::new(&format!(r"\A(?:{pattern})\z")).unwrap()
}

fn config(cases: u32) -> Config {
    Config::new().cases(cases).seed(20261129).max_size(30)
}

#[test]
fn generated_strings_match_and_reflect_to_themselves() {
    check_with(&config(150), &any::<Re>(), |re: &Re| {
        let pattern = re.pattern();
        let g = match string_regex(&pattern) {
            Ok(g) => g,
            Err(error) => {
                assert!(
                    error.to_string().ends_with("it matches no string"),
                    "{error}"
                );
                return;
            }
        };
        let matches = oracle(&pattern);
        let mut rng = DefaultRng::seed_from_u64(7);
        for size in (0..=100).step_by(20) {
            let text = g.generate_value(&mut rng, size);
            assert!(
                matches.is_match(&text),
                "{pattern}: {text:?} does not match"
            );
            let ways = g.reflector().size(LARGE).choices(&text).unwrap();
            assert_eq!(ways.len(), 1, "{pattern}: {text:?}");
            assert_eq!(g.replay(&ways[0]).as_ref(), Some(&text), "{pattern}");
        }
    });
}

#[test]
fn a_string_reflects_exactly_when_the_pattern_matches_it() {
    let strings = string_of(select(ALPHABET), ..=6);
    check_with(&config(150), &any::<Re>(), |re: &Re| {
        let pattern = re.pattern();
        let Ok(g) = string_regex(&pattern) else {
            return;
        };
        let matches = oracle(&pattern);
        let mut rng = DefaultRng::seed_from_u64(11);
        let mut samples: Vec<String> = (0..40)
            .map(|i| strings.generate_value(&mut rng, i))
            .collect();
        samples.extend(
            (0..10)
                .map(|i| g.generate_value(&mut rng, i))
                .filter(|s| s.chars().count() <= 6),
        );
        for text in samples {
            let reflects = g.reflector().size(LARGE).can_generate(&text).unwrap();
            assert_eq!(reflects, matches.is_match(&text), "{pattern}: {text:?}");
        }
    });
}

#[test]
fn every_shrink_candidate_and_every_mutant_matches() {
    check_with(&config(60), &any::<Re>(), |re: &Re| {
        let pattern = re.pattern();
        let Ok(g) = string_regex(&pattern) else {
            return;
        };
        let matches = oracle(&pattern);
        let mut rng = DefaultRng::seed_from_u64(3);
        let start = g.generate_value(&mut rng, 40);
        let tried = RefCell::new(0);
        let shrunk = g.shrink(start.clone(), |text| {
            assert!(matches.is_match(text), "{pattern}: candidate {text:?}");
            *tried.borrow_mut() += 1;
            text.chars().count() >= start.chars().count() / 2
        });
        assert!(matches.is_match(&shrunk));
        assert!(shrunk.chars().count() <= start.chars().count());
        let mutator = g.mutator();
        if let Ok(mutants) = mutator.mutants(&start, 5) {
            for mutant in mutants.take(10) {
                assert!(
                    matches.is_match(&mutant.value),
                    "{pattern}: mutant {:?}",
                    mutant.value
                );
            }
        }
    });
}

#[test]
fn strings_from_outside_shrink_to_the_least_match_that_fails() {
    let id = string_regex("[a-z]{2,4}-[0-9]+").unwrap();
    assert_eq!(
        id.shrink("zzzz-99817".to_string(), |s| s.len() > 5),
        "aa-000"
    );

    let email = string_regex(r"[a-z0-9._]+@[a-z]+\.(com|org)").unwrap();
    let dotted_user = |s: &String| s.split('@').next().is_some_and(|user| user.contains('.'));
    assert_eq!(
        email.shrink("john.doe@example.org".to_string(), dotted_user),
        ".@a.com"
    );

    // Fewer choices, not fewer characters: a class costs a choice where a literal does not.
    let date = string_regex(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])").unwrap();
    let late_february =
        |s: &String| s.get(5..7) == Some("02") && s[8..].parse::<u32>().is_ok_and(|day| day > 28);
    assert_eq!(
        date.shrink("2023-02-29".to_string(), late_february),
        "0000-02-30"
    );

    // A pattern with unbounded parts: the string is longer than the default size allows,
    // and shrinking reflects it at a larger size by itself.
    let long = format!("{}!", "ab".repeat(150));
    let words = string_regex("(ab)+!").unwrap();
    assert!(!words.can_generate(&long));
    assert_eq!(
        words.shrink(long, |s| s.len() > 20),
        format!("{}!", "ab".repeat(10))
    );
}

#[test]
fn patterns_the_generator_cannot_follow_are_errors_that_say_why() {
    let message = |pattern: &str| string_regex(pattern).err().unwrap().to_string();
    assert_eq!(
        message("[a-z"),
        "cannot generate strings matching \"[a-z\": regex parse error:\n    [a-z\n    ^\n\
         error: unclosed character class"
    );
    assert_eq!(
        message(r"[^\s\S]+"),
        "cannot generate strings matching \"[^\\\\s\\\\S]+\": it matches no string"
    );
    assert!(message(r"\bword").contains("word boundaries"));
    assert!(message("(?m)^a").contains("multi-line anchors"));
    assert!(
        message("a^b")
            .contains("`^` (or `\\A`) is supported only where nothing but anchors comes before it")
    );
    assert!(
        message("a$b")
            .contains("`$` (or `\\z`) is supported only where nothing but anchors comes after it")
    );
    assert_eq!(
        message("(?:a$)*"),
        "cannot generate strings matching \"(?:a$)*\": the anchor `$` (or `\\z`) is not \
         supported inside a repetition (`*`, `+`, `{2,}`, ...); it is at the end of the \
         pattern, outside any"
    );
    for anchored in ["^abc$", r"\Aabc\z", "^(abc|^d)$", "(^a)?b"] {
        let g = string_regex(anchored).unwrap_or_else(|e| panic!("{e}"));
        assert!(oracle(anchored).is_match(&g.sample(1)));
    }
    // An alternative that matches nothing is left out; the others stay.
    let g = string_regex(r"a|[^\s\S]|b").unwrap();
    assert!(
        g.reflector()
            .size(0)
            .can_generate(&"b".to_string())
            .unwrap()
    );
}

/// A derived type whose string fields follow patterns.
#[derive(Clone, Debug, PartialEq, Reflective)]
struct Account {
    #[reflective(regex = "[a-z][a-z0-9_]{2,11}")]
    user: String,
    #[reflective(regex = r"[a-z]+@[a-z]+\.(com|org)")]
    email: String,
    age: u8,
}

#[derive(Clone, Debug, PartialEq, Reflective)]
enum Token {
    Word(#[reflective(regex = "[a-z]+")] String),
    Number {
        #[reflective(regex = "-?[1-9][0-9]*|0")]
        digits: String,
    },
}

#[test]
fn a_regex_attribute_gives_a_derived_field_its_strings() {
    let (user, email) = (
        oracle("[a-z][a-z0-9_]{2,11}"),
        oracle(r"[a-z]+@[a-z]+\.(com|org)"),
    );
    let g = Account::arbitrary_reflective();
    for seed in 0..200 {
        let account = g.sample(seed);
        assert!(user.is_match(&account.user), "{account:?}");
        assert!(email.is_match(&account.email), "{account:?}");
        assert!(g.can_generate(&account));
    }
    let reported = Account {
        user: "mallory_2024".into(),
        email: "mallory@example.org".into(),
        age: 77,
    };
    let shrunk = g.shrink(reported, |a| a.email.ends_with(".org") && a.age > 20);
    assert_eq!(
        shrunk,
        Account {
            // `[a-z0-9_]`'s first character is `0`.
            user: "a00".into(),
            email: "a@a.org".into(),
            age: 21
        }
    );
    let number = oracle("-?[1-9][0-9]*|0");
    let tokens = Token::arbitrary_reflective();
    for seed in 0..100 {
        if let Token::Number { digits } = tokens.sample(seed) {
            assert!(number.is_match(&digits), "{digits:?}");
        }
    }
    assert!(!tokens.can_generate(&Token::Number {
        digits: "007".into()
    }));
}

#[reflective::property(cases = 60)]
fn a_regex_attribute_gives_a_property_its_strings(
    #[reflective(regex = "[0-9]{3}-[0-9]{4}")] phone: String,
    count: u8,
) {
    assert!(
        oracle("[0-9]{3}-[0-9]{4}").is_match(&phone),
        "{phone:?} ({count})"
    );
}

/// A pattern the runtime refuses where the attribute cannot tell (an anchor inside the
/// pattern; word boundaries and patterns that match nothing are compile errors, see the UI
/// case `field/regex_unsupported`).
#[test]
#[should_panic(
    expected = "`#[reflective(regex = ...)]`: cannot generate strings matching \"a^b\": the \
                anchor `^` (or `\\A`) is supported only where nothing but anchors comes before it"
)]
fn a_pattern_the_generator_cannot_follow_panics_with_why() {
    #[derive(Clone, Debug, Reflective)]
    struct Anchored {
        #[reflective(regex = "a^b")]
        text: String,
    }
    Anchored::arbitrary_reflective();
}

#[test]
fn alternatives_are_tried_shortest_first() {
    let g = string_regex("(foo|x)").unwrap();
    assert_eq!(g.shrink("foo".to_string(), |_| true), "x");
    assert_eq!(g.shrink("x".to_string(), |_| true), "x");
    // Among equally short alternatives, the pattern's order.
    let g = string_regex("(cat|dog)s?").unwrap();
    assert_eq!(g.shrink("dogs".to_string(), |_| true), "cat");
}

/// Matching strings that a backtracking search would take exponential time over, or give up
/// on: each pair of step and position is tried once.
#[test]
fn any_matching_string_reflects_without_an_exponential_search() {
    let reflects = |pattern: &str, text: &str| {
        let g = string_regex(pattern).unwrap();
        g.reflector()
            .size(LARGE)
            .can_generate(&text.to_string())
            .unwrap()
    };
    assert!(reflects(".*.*.*=.*", &format!("={}", "x".repeat(300))));
    assert!(reflects(
        ".*@.*",
        &format!("{}@{}", "x".repeat(3000), "y".repeat(3000))
    ));
    assert!(reflects("(a|aa)*c", &format!("{}c", "a".repeat(500))));
    // Strings that do not match are refused as fast, and shrinking one returns it.
    assert!(!reflects("(a*)*b", &"a".repeat(500)));
    assert!(!reflects("(a|aa)*c", &"a".repeat(500)));
    let g = string_regex("[a-z]*[a-z]*[a-z]*[a-z]*!").unwrap();
    assert_eq!(g.shrink("a".repeat(100), |_| true), "a".repeat(100));
}

#[test]
fn a_pattern_too_large_to_match_is_an_error() {
    assert_eq!(
        string_regex("(a{1000}){1000}").err().unwrap().to_string(),
        "cannot generate strings matching \"(a{1000}){1000}\": it is too large to match: more \
         than 1048576 steps with its counted repetitions written out"
    );
    assert!(string_regex("a{100000}").is_ok());
}

/// Repetitions that match no text are left out of a string's match beyond the least count,
/// so the string reflects at the size it was generated at, however small. (These patterns
/// make some strings in several ways, so reflection need not give the recorded choices.)
#[test]
fn strings_of_patterns_with_empty_repetitions_reflect_at_every_size() {
    for pattern in [
        "(?:)*x",
        "(?:|a){0,3}",
        "(?:|a)+",
        "x(?:(?:)|(?:b|))*",
        "(?:a*)*b",
    ] {
        let g = string_regex(pattern).unwrap();
        let matches = oracle(pattern);
        for size in 0..4 {
            let mut rng = DefaultRng::seed_from_u64(size as u64);
            for _ in 0..50 {
                let text = g.generate_value(&mut rng, size);
                assert!(matches.is_match(&text));
                let reflects = g.reflector().size(size).can_generate(&text).unwrap();
                assert!(reflects, "{pattern}: {text:?} at size {size}");
            }
        }
    }
}
