//! Strings matching a regular expression.
//!
//! The pattern is parsed by `regex-syntax` (the `regex` crate's parser, which proptest's
//! `string_regex` also uses) and turned into a [`Pattern`](pattern::Pattern): literal text,
//! character classes, concatenations, alternations and repetitions. A string is generated
//! through a [`Matched`](pattern::Matched) value, which records the choices made for each part
//! of the pattern (the alternative taken, how many repetitions, which character of a class);
//! the string is that match rendered. Backward, a string is matched against the pattern
//! ([`matcher`]), giving one `Matched` for it, whose choices then reflect as every generator's
//! do. So any string the pattern matches (a bug report, a fixture) reflects, in exactly one
//! way, and every shrink or mutant of it is again a string the pattern matches.
//!
//! | file | what |
//! |---|---|
//! | `pattern.rs` | the pattern, from `regex-syntax`'s parse; a string's match of it |
//! | `class.rs` | character classes: their characters, numbered, and how one is drawn |
//! | `matcher.rs` | the match of a whole string, for reflection |

mod class;
mod matcher;
mod pattern;

use std::fmt;
use std::sync::Arc;

use self::matcher::Program;
use self::pattern::{Edges, Matched, Pattern};
use super::collections::vec;
use crate::combinator::{exact, one_of, pure, zip};
use crate::engine::grow_if_low;
use crate::generator::{Gen, Generator};

/// Strings that match `pattern`, a regular expression in the syntax of the `regex` crate, as
/// a whole (as if it began with `^` and ended with `$`).
///
/// Each part of the pattern draws its own choices: an alternation one of its alternatives,
/// equally likely; a repetition its count, as [`vec`](crate::vec()) draws a length (an
/// unbounded one, `a*`, within its share of the size, so it grows with the size; nested ones
/// each within theirs); a character class one of its characters, printable ASCII three times
/// in four when the class has both printable ASCII and other characters (as
/// [`any_char`](crate::any_char) does), every character of the chosen part equally likely.
/// Classes are Unicode, as in the `regex` crate: `\d` holds every Unicode digit (`٣`), and
/// `(?i)k` the Kelvin sign; write `[0-9]` or `(?-u:\d)` for ASCII digits.
///
/// Shrinking takes fewer choices as simpler: fewer repetitions, earlier alternatives, lower
/// characters of each class (by code point: `-` before `0` before `A` before `a`). The
/// alternatives are put shortest first (by the least text they match; in the pattern's order
/// among equals), so a shrunk string tends to be short, but not always the shortest or the
/// least: an alternative with fewer choices wins over a shorter one with more. Every
/// candidate still matches: any matching string shrinks, also one that was never generated.
///
/// Supported: the syntax of the `regex` crate but for word boundaries and multi-line anchors
/// (`(?m)^`), which are errors (the crate has no look-around); `^`, `$`, `\A` and `\z` where
/// they can only match, at the start or end (`a^b` is an error). A matching string reflects
/// whatever the pattern, in time at most proportional to its length times the pattern's
/// (with counted repetitions written out), unless that product passes 2^28: a longer
/// string does not reflect (`can_generate` says `false`). A string that an ambiguous pattern
/// matches in several ways (`a?a?` and `"a"`) reflects as one of them, so its
/// [`probability_of`](crate::Generator::probability_of) counts that one only.
///
/// # Errors
///
/// A [`RegexError`] that says why: the pattern's syntax (with the position), an unsupported
/// assertion, a pattern that matches no string at all (`[^\s\S]`), or one too large to
/// match (over a million steps with its counted repetitions written out:
/// `(a{1000}){1000}`).
///
/// ```
/// use reflective::prelude::*;
///
/// let id = string_regex("[a-z]{2,4}-[0-9]+").unwrap();
/// let sample = id.sample(7);
/// assert!(sample.contains('-'));
/// assert!(id.can_generate(&"ab-2024".to_string()));
/// assert!(!id.can_generate(&"AB-2024".to_string()));
///
/// // A failing value from a bug report shrinks, and stays a match.
/// let shrunk = id.shrink("zzzz-99817".to_string(), |s| s.len() > 5);
/// assert_eq!(shrunk, "aa-000");
///
/// assert!(string_regex("[a-z").is_err());
/// ```
pub fn string_regex(pattern: &str) -> Result<Gen<String, String>, RegexError> {
    let error = |reason: String| RegexError {
        pattern: pattern.to_string(),
        reason,
    };
    let hir = regex_syntax::Parser::new()
        .parse(pattern)
        .map_err(|e| error(e.to_string()))?;
    let pattern = Pattern::from_hir(&hir, Edges::BOTH)
        .map_err(error)?
        .ok_or_else(|| error("it matches no string".to_string()))?;
    let program = Program::of(pattern).map_err(error)?;
    Ok(generator_of(Arc::new(program)))
}

/// Why [`string_regex`] cannot generate strings for a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexError {
    pattern: String,
    reason: String,
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot generate strings matching {:?}: {}",
            self.pattern, self.reason
        )
    }
}

impl std::error::Error for RegexError {}

/// The generator of strings matching `pattern`: its matches, rendered; a string reflects
/// through its match.
fn generator_of(program: Arc<Program>) -> Gen<String, String> {
    let (reading, writing) = (Arc::clone(&program), Arc::clone(&program));
    matches_of(program.pattern())
        .comap(move |text: &String| reading.match_whole(text))
        .map(move |matched| {
            let mut text = String::new();
            render(writing.pattern(), &matched, &mut text);
            text
        })
        .boxed()
}

/// The generator of the matches of `pattern`.
fn matches_of(pattern: &Pattern) -> Gen<Matched, Matched> {
    grow_if_low(|| match pattern {
        Pattern::Text(_) => exact(Matched::Text).boxed(),
        Pattern::Class(class) => class
            .generator()
            .comap(|matched: &Matched| match matched {
                Matched::Char(c) => Some(*c),
                _ => None,
            })
            .map(Matched::Char)
            .boxed(),
        Pattern::Concat(parts) => {
            let mut done: Gen<Matched, Vec<Matched>> = pure(Vec::new()).boxed();
            for (i, part) in parts.iter().enumerate() {
                let next = matches_of(part).focus(move |matched: &Matched| match matched {
                    Matched::Parts(parts) => parts.get(i),
                    _ => None,
                });
                done = zip(done, next)
                    .map(|(mut done, next)| {
                        done.push(next);
                        done
                    })
                    .boxed();
            }
            done.map(Matched::Parts).boxed()
        }
        Pattern::Alternation(alternatives) => one_of(
            alternatives
                .iter()
                .enumerate()
                .map(|(i, alternative)| {
                    matches_of(alternative)
                        .focus(move |matched: &Matched| match matched {
                            Matched::Alternative(j, taken) if *j == i => Some(&**taken),
                            _ => None,
                        })
                        .map(move |taken| Matched::Alternative(i, Box::new(taken)))
                        .boxed()
                })
                .collect::<Vec<_>>(),
        )
        .boxed(),
        Pattern::Repeat { min, max, part } => {
            let part = matches_of(part);
            let repeated = match max {
                Some(max) => vec(part, *min..=*max),
                None => vec(part, *min..),
            };
            repeated
                .focus(|matched: &Matched| match matched {
                    Matched::Repeated(repeated) => Some(repeated),
                    _ => None,
                })
                .map(Matched::Repeated)
                .boxed()
        }
    })
}

/// Appends the text of `matched`, a match of `pattern`, to `text`.
fn render(pattern: &Pattern, matched: &Matched, text: &mut String) {
    grow_if_low(|| match (pattern, matched) {
        (Pattern::Text(fixed), Matched::Text) => text.push_str(fixed),
        (Pattern::Class(_), Matched::Char(c)) => text.push(*c),
        (Pattern::Concat(parts), Matched::Parts(matches)) => {
            for (part, matched) in parts.iter().zip(matches) {
                render(part, matched, text);
            }
        }
        (Pattern::Alternation(alternatives), Matched::Alternative(i, taken)) => {
            render(&alternatives[*i], taken, text);
        }
        (Pattern::Repeat { part, .. }, Matched::Repeated(repeated)) => {
            for matched in repeated {
                render(part, matched, text);
            }
        }
        _ => unreachable!("a match comes from the generator of its own pattern"),
    });
}
