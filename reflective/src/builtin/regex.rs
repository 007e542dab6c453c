//! Strings matching a regular expression.
//!
//! The pattern is parsed by `regex-syntax` (the `regex` crate's parser, which proptest's
//! `string_regex` also uses) and turned into a [`Pattern`]: literal text, character classes,
//! concatenations, alternations and repetitions. A string is generated through a [`Matched`]
//! value, which records the choices made for each part of the pattern (the alternative
//! taken, how many repetitions, which character of a class); the string is that match
//! rendered. Backward, a string is matched against the pattern by backtracking, giving one
//! `Matched` for it, whose choices then reflect as every generator's do. So any string the
//! pattern matches (a bug report, a fixture) reflects, in exactly one way, and every shrink or
//! mutant of it is again a string the pattern matches.

use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use regex_syntax::hir::{Class, Hir, HirKind, Look};

use super::collections::vec;
use crate::combinator::{exact, one_of, pick, pure, range, zip};
use crate::engine::grow_if_low;
use crate::generator::{Gen, Generator};

/// The most steps the backtracking match of one string may take: a string the pattern
/// matches only after more (a pathological pattern such as `(a*)*b` on a long run of `a`s)
/// does not reflect.
const MAX_MATCH_STEPS: usize = 1_000_000;

/// Strings that match `pattern`, a regular expression in the syntax of the `regex` crate, as
/// a whole (as if it began with `^` and ended with `$`).
///
/// Each part of the pattern draws its own choices: an alternation one of its alternatives,
/// equally likely; a repetition its count, as [`vec`](crate::vec()) draws a length (within the size when it
/// has no upper bound, so `a*` grows with the size); a character class one of its characters,
/// printable ASCII three times in four when the class has both printable ASCII and other
/// characters (as [`any_char`](crate::any_char) does), every character of the chosen part
/// equally likely. Shrinking goes towards the first alternatives, fewer repetitions and the
/// first characters of each class, and every candidate still matches: any matching string
/// shrinks, also one that was never generated.
///
/// Supported: everything but look-around assertions, and the anchors `^`, `$`, `\A` and `\z`
/// where they can only match at the start or end of the string (anywhere else, and word
/// boundaries, are an error). A string reflects if a backtracking match finds it within a
/// million steps.
///
/// # Errors
///
/// A [`RegexError`] that says why: the pattern's syntax (with the position), an unsupported
/// assertion, or a pattern that matches no string at all (`[^\s\S]`).
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
    Ok(generator_of(Arc::new(pattern)))
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

/// A pattern as the generator and the matcher read it.
#[derive(Debug)]
enum Pattern {
    /// Text that is always there (a literal; an anchor or the empty pattern, as `""`).
    Text(String),
    /// One character of a class that has at least one.
    Class(CharClass),
    /// Parts one after the other.
    Concat(Vec<Pattern>),
    /// One of these (those of the original that match something).
    Alternation(Vec<Pattern>),
    /// The part `min` to `max` times (no upper bound when `max` is `None`).
    Repeat {
        min: usize,
        max: Option<usize>,
        part: Box<Pattern>,
    },
}

/// Whether a part of a pattern can only be at the start, or the end, of the string: where
/// the anchors for them are supported.
#[derive(Clone, Copy)]
struct Edges {
    start: bool,
    end: bool,
}

impl Edges {
    const BOTH: Edges = Edges {
        start: true,
        end: true,
    };
    const NEITHER: Edges = Edges {
        start: false,
        end: false,
    };
}

impl Pattern {
    /// The pattern of `hir`, at `edges`; `None` if it matches no string.
    fn from_hir(hir: &Hir, edges: Edges) -> Result<Option<Pattern>, String> {
        grow_if_low(|| Self::from_hir_here(hir, edges))
    }

    fn from_hir_here(hir: &Hir, edges: Edges) -> Result<Option<Pattern>, String> {
        Ok(match hir.kind() {
            HirKind::Empty => Some(Pattern::Text(String::new())),
            HirKind::Literal(literal) => Some(Pattern::Text(
                String::from_utf8(literal.0.to_vec())
                    .map_err(|_| "it matches bytes that are not UTF-8".to_string())?,
            )),
            HirKind::Class(class) => CharClass::of(class).map(Pattern::Class),
            HirKind::Look(look) => Some(Pattern::anchor(*look, edges)?),
            HirKind::Capture(capture) => Pattern::from_hir(&capture.sub, edges)?,
            HirKind::Repetition(repetition) => {
                let min = repetition.min as usize;
                let max = repetition.max.map(|max| max as usize);
                let inner = if max == Some(1) {
                    edges
                } else {
                    Edges::NEITHER
                };
                match Pattern::from_hir(&repetition.sub, inner)? {
                    Some(part) => Some(Pattern::Repeat {
                        min,
                        max,
                        part: Box::new(part),
                    }),
                    None if min == 0 => Some(Pattern::Text(String::new())),
                    None => None,
                }
            }
            HirKind::Concat(parts) => {
                let mut patterns = Vec::with_capacity(parts.len());
                for (i, part) in parts.iter().enumerate() {
                    let edges = Edges {
                        start: edges.start && parts[..i].iter().all(is_anchor_or_empty),
                        end: edges.end && parts[i + 1..].iter().all(is_anchor_or_empty),
                    };
                    match Pattern::from_hir(part, edges)? {
                        Some(pattern) => patterns.push(pattern),
                        None => return Ok(None),
                    }
                }
                Some(Pattern::Concat(patterns))
            }
            HirKind::Alternation(alternatives) => {
                let mut patterns = Vec::with_capacity(alternatives.len());
                for alternative in alternatives {
                    patterns.extend(Pattern::from_hir(alternative, edges)?);
                }
                (!patterns.is_empty()).then_some(Pattern::Alternation(patterns))
            }
        })
    }

    /// An anchor, supported as empty text where it can only be at the edge it asserts.
    fn anchor(look: Look, edges: Edges) -> Result<Pattern, String> {
        let at_its_edge = match look {
            Look::Start => edges.start,
            Look::End => edges.end,
            Look::StartLF | Look::EndLF | Look::StartCRLF | Look::EndCRLF => {
                return Err(
                    "multi-line anchors (`^` and `$` under the flag `m`) are not \
                            supported; `^`, `$`, `\\A` and `\\z` are, at the start and end"
                        .to_string(),
                );
            }
            _ => {
                return Err(
                    "word boundaries (`\\b`, `\\B`, `\\<`, `\\>` and the like) are \
                            not supported; `^`, `$`, `\\A` and `\\z` are, at the start and end"
                        .to_string(),
                );
            }
        };
        if at_its_edge {
            Ok(Pattern::Text(String::new()))
        } else {
            let (anchor, side, edge) = match look {
                Look::Start => ("`^` (or `\\A`)", "before", "start"),
                _ => ("`$` (or `\\z`)", "after", "end"),
            };
            Err(format!(
                "the anchor {anchor} is supported only where nothing but anchors comes \
                 {side} it, at the {edge} of the pattern"
            ))
        }
    }
}

/// Whether `hir` matches only the empty string at any place: an anchor or nothing.
fn is_anchor_or_empty(hir: &Hir) -> bool {
    matches!(hir.kind(), HirKind::Look(_) | HirKind::Empty)
}

/// How a string matches a [`Pattern`]: the choice made at each of its parts.
#[derive(Clone, Debug, PartialEq)]
enum Matched {
    /// A [`Pattern::Text`]: nothing to choose.
    Text,
    /// The character of a [`Pattern::Class`].
    Char(char),
    /// The matches of a [`Pattern::Concat`]'s parts, in order.
    Parts(Vec<Matched>),
    /// The alternative of a [`Pattern::Alternation`] taken, and its match.
    Alternative(usize, Box<Matched>),
    /// The matches of a [`Pattern::Repeat`]'s repetitions.
    Repeated(Vec<Matched>),
}

/// The generator of strings matching `pattern`: its matches, rendered; a string reflects
/// through its match.
fn generator_of(pattern: Arc<Pattern>) -> Gen<String, String> {
    let (reading, writing) = (Arc::clone(&pattern), Arc::clone(&pattern));
    matches_of(&pattern)
        .comap(move |text: &String| match_whole(&reading, text))
        .map(move |matched| {
            let mut text = String::new();
            render(&writing, &matched, &mut text);
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

/// The match of the whole of `text` by `pattern`, if there is one within
/// [`MAX_MATCH_STEPS`]: alternatives tried in order, repetitions as many as can be first.
fn match_whole(pattern: &Pattern, text: &str) -> Option<Matched> {
    let mut matcher = Matcher { text, steps: 0 };
    matcher.at(pattern, 0, &mut |matcher, end, matched| {
        (end == matcher.text.len()).then_some(matched)
    })
}

/// A backtracking match of a text, one part at a time, each part's match handed to what
/// follows it (a continuation), which gives the whole match or `None` to backtrack.
struct Matcher<'t> {
    text: &'t str,
    steps: usize,
}

/// What follows a part: given where it ended and its match, the whole match, if any.
type Rest<'r, 't> = &'r mut dyn FnMut(&mut Matcher<'t>, usize, Matched) -> Option<Matched>;

/// Matches already made, newest first, shared between the paths a backtracking match tries.
#[derive(Clone, Default)]
struct Done(Option<Rc<(Matched, Done)>>);

impl Done {
    /// `self` and then `matched`.
    fn then(&self, matched: Matched) -> Done {
        Done(Some(Rc::new((matched, self.clone()))))
    }

    /// The matches, oldest first.
    fn in_order(&self) -> Vec<Matched> {
        let mut matches = Vec::new();
        let mut next = &self.0;
        while let Some(link) = next {
            matches.push(link.0.clone());
            next = &link.1.0;
        }
        matches.reverse();
        matches
    }
}

impl<'t> Matcher<'t> {
    /// Matches `pattern` from byte `start` on, then what follows.
    fn at(&mut self, pattern: &Pattern, start: usize, rest: Rest<'_, 't>) -> Option<Matched> {
        self.steps += 1;
        if self.steps > MAX_MATCH_STEPS {
            return None;
        }
        grow_if_low(|| match pattern {
            Pattern::Text(fixed) => self.text[start..]
                .starts_with(fixed.as_str())
                .then_some(())
                .and_then(|()| rest(self, start + fixed.len(), Matched::Text)),
            Pattern::Class(class) => {
                let c = self.text[start..].chars().next()?;
                if class.contains(c) {
                    rest(self, start + c.len_utf8(), Matched::Char(c))
                } else {
                    None
                }
            }
            Pattern::Concat(parts) => self.parts(parts, start, Done::default(), rest),
            Pattern::Alternation(alternatives) => {
                alternatives
                    .iter()
                    .enumerate()
                    .find_map(|(i, alternative)| {
                        self.at(alternative, start, &mut |matcher, end, taken| {
                            rest(matcher, end, Matched::Alternative(i, Box::new(taken)))
                        })
                    })
            }
            Pattern::Repeat { min, max, part } => {
                self.repeated((*min, *max), part, start, (0, Done::default()), rest)
            }
        })
    }

    /// Matches `parts` from byte `start` on, after `done`, then what follows.
    fn parts(
        &mut self,
        parts: &[Pattern],
        start: usize,
        done: Done,
        rest: Rest<'_, 't>,
    ) -> Option<Matched> {
        match parts.split_first() {
            None => rest(self, start, Matched::Parts(done.in_order())),
            Some((first, others)) => self.at(first, start, &mut |matcher, end, matched| {
                matcher.parts(others, end, done.then(matched), &mut *rest)
            }),
        }
    }

    /// Matches further repetitions of `part` (`count` made so far, `done`, within `bounds`)
    /// from byte `start` on, as many as can be first, then what follows. A repetition beyond
    /// the least count must match some text, or `a**` would repeat forever.
    fn repeated(
        &mut self,
        bounds: (usize, Option<usize>),
        part: &Pattern,
        start: usize,
        (count, done): (usize, Done),
        rest: Rest<'_, 't>,
    ) -> Option<Matched> {
        let (min, max) = bounds;
        if max != Some(count) {
            let further = self.at(part, start, &mut |matcher, end, matched| {
                if end == start && count >= min {
                    return None;
                }
                let done = (count + 1, done.then(matched));
                matcher.repeated(bounds, part, end, done, &mut *rest)
            });
            if further.is_some() || self.steps > MAX_MATCH_STEPS {
                return further;
            }
        }
        if count >= min {
            rest(self, start, Matched::Repeated(done.in_order()))
        } else {
            None
        }
    }
}

/// A non-empty set of characters, split into its printable ASCII characters and the others.
#[derive(Debug)]
struct CharClass {
    printable_ascii: CharSet,
    others: CharSet,
}

impl CharClass {
    /// The characters of `class`, or `None` if it has none. Byte classes (`(?-u)`) hold
    /// ASCII bytes only: the parser refuses others in a pattern for strings.
    fn of(class: &Class) -> Option<CharClass> {
        let ranges: Vec<(u32, u32)> = match class {
            Class::Unicode(class) => class
                .ranges()
                .iter()
                .map(|r| (u32::from(r.start()), u32::from(r.end())))
                .collect(),
            Class::Bytes(class) => class
                .ranges()
                .iter()
                .map(|r| (u32::from(r.start()), u32::from(r.end())))
                .collect(),
        };
        let (first, last) = (u32::from(' '), u32::from('~'));
        let within = |(lo, hi): (u32, u32), (from, to): (u32, u32)| {
            let (lo, hi) = (lo.max(from), hi.min(to));
            (lo <= hi).then_some((lo, hi))
        };
        let printable_ascii = CharSet::new(ranges.iter().filter_map(|r| within(*r, (first, last))));
        let others = CharSet::new(ranges.iter().flat_map(|r| {
            let below = first.checked_sub(1).and_then(|to| within(*r, (0, to)));
            [below, within(*r, (last + 1, u32::from(char::MAX)))]
                .into_iter()
                .flatten()
        }));
        (printable_ascii.count > 0 || others.count > 0).then_some(CharClass {
            printable_ascii,
            others,
        })
    }

    fn contains(&self, c: char) -> bool {
        self.printable_ascii.index_of(c).is_some() || self.others.index_of(c).is_some()
    }

    /// A character of the class: printable ASCII three times in four if it has both kinds.
    fn generator(&self) -> Gen<char, char> {
        match (self.printable_ascii.count, self.others.count) {
            (_, 0) => self.printable_ascii.generator(),
            (0, _) => self.others.generator(),
            _ => pick((
                (3, "ascii", self.printable_ascii.generator()),
                (1, "other", self.others.generator()),
            ))
            .boxed(),
        }
    }
}

/// A set of characters as sorted, disjoint ranges of code points, none across the
/// surrogates, each character numbered by its place in the set.
#[derive(Clone, Debug)]
struct CharSet {
    /// The ranges (first and last code point) and how many characters come before each.
    ranges: Arc<[(u32, u32, u32)]>,
    count: u32,
}

impl CharSet {
    /// The set of the characters in `ranges` (sorted and disjoint, as a class's are).
    fn new(ranges: impl Iterator<Item = (u32, u32)>) -> CharSet {
        const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);
        let mut numbered = Vec::new();
        let mut count = 0;
        for (lo, hi) in ranges {
            let pieces = if lo < SURROGATES.0 && hi > SURROGATES.1 {
                [Some((lo, SURROGATES.0 - 1)), Some((SURROGATES.1 + 1, hi))]
            } else {
                [Some((lo, hi)), None]
            };
            for (lo, hi) in pieces.into_iter().flatten() {
                numbered.push((lo, hi, count));
                count += hi - lo + 1;
            }
        }
        CharSet {
            ranges: numbered.into(),
            count,
        }
    }

    /// The place of `c` in the set, if it is in it.
    fn index_of(&self, c: char) -> Option<u32> {
        let code = u32::from(c);
        let at = self.ranges.partition_point(|&(_, hi, _)| hi < code);
        let &(lo, _, before) = self.ranges.get(at)?;
        (lo <= code).then(|| before + (code - lo))
    }

    /// The character at `index` (below the count).
    fn char_at(&self, index: u32) -> char {
        let at = self
            .ranges
            .partition_point(|&(_, _, before)| before <= index)
            - 1;
        let (lo, _, before) = self.ranges[at];
        char::from_u32(lo + (index - before)).expect("the ranges hold no surrogates")
    }

    /// A character of the (non-empty) set, every one equally likely, shrinking to the first.
    fn generator(&self) -> Gen<char, char> {
        let (reading, writing) = (self.clone(), self.clone());
        range(0..=self.count - 1)
            .comap(move |c: &char| reading.index_of(*c))
            .map(move |index| writing.char_at(index))
            .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_numbers_its_characters_across_the_surrogates() {
        let set = CharSet::new([(0x41, 0x43), (0xD000, 0xE001)].into_iter());
        assert_eq!(set.count, 3 + (0xD800 - 0xD000) + 2);
        for index in 0..set.count {
            assert_eq!(set.index_of(set.char_at(index)), Some(index));
        }
        assert_eq!(set.index_of('D'), None);
        assert_eq!(set.char_at(3), '\u{D000}');
        assert_eq!(set.char_at(set.count - 1), '\u{E001}');
    }
}
