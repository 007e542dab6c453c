//! A pattern as the generator and the matcher read it, made from `regex-syntax`'s parse, and
//! the match of a string by it.

use regex_syntax::hir::{Hir, HirKind, Look};

use super::class::CharClass;
use crate::engine::grow_if_low;

/// A pattern as the generator and the matcher read it.
#[derive(Debug)]
pub(super) enum Pattern {
    /// Text that is always there (a literal; an anchor or the empty pattern, as `""`).
    Text(String),
    /// One character of a class that has at least one.
    Class(CharClass),
    /// Parts one after the other.
    Concat(Vec<Pattern>),
    /// One of these (those of the original that match something), shortest first.
    Alternation(Vec<Pattern>),
    /// The part `min` to `max` times (no upper bound when `max` is `None`).
    Repeat {
        min: usize,
        max: Option<usize>,
        part: Box<Pattern>,
    },
}

/// Whether a part of a pattern can only be at the start, or the end, of the string: where
/// the anchors for them are supported; and whether it is repeated (where they are not).
#[derive(Clone, Copy)]
pub(super) struct Edges {
    start: bool,
    end: bool,
    repeated: bool,
}

impl Edges {
    pub(super) const BOTH: Edges = Edges {
        start: true,
        end: true,
        repeated: false,
    };
    const REPEATED: Edges = Edges {
        start: false,
        end: false,
        repeated: true,
    };
}

impl Pattern {
    /// The pattern of `hir`, at `edges`; `None` if it matches no string.
    pub(super) fn from_hir(hir: &Hir, edges: Edges) -> Result<Option<Pattern>, String> {
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
                    Edges::REPEATED
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
                        repeated: edges.repeated,
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
                // Shortest first, so that shrinking, which prefers earlier alternatives,
                // tends to shorter strings; a stable sort keeps the pattern's order otherwise.
                patterns.sort_by_key(Pattern::least_length);
                (!patterns.is_empty()).then_some(Pattern::Alternation(patterns))
            }
        })
    }

    /// How many characters the shortest string it matches has (saturating).
    fn least_length(&self) -> usize {
        grow_if_low(|| match self {
            Pattern::Text(text) => text.chars().count(),
            Pattern::Class(_) => 1,
            Pattern::Concat(parts) => parts
                .iter()
                .map(Pattern::least_length)
                .fold(0, usize::saturating_add),
            Pattern::Alternation(alternatives) => alternatives
                .iter()
                .map(Pattern::least_length)
                .min()
                .unwrap_or(0),
            Pattern::Repeat { min, part, .. } => min.saturating_mul(part.least_length()),
        })
    }

    /// An anchor, supported as empty text where it can only be at the edge it asserts. The
    /// derive's `regex` attribute refuses the unsupported assertions when the code compiles
    /// (`unsupported` in `reflective-macros/src/internals/attr.rs`, in these words): change
    /// both together.
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
        let (anchor, side, edge) = match look {
            Look::Start => ("`^` (or `\\A`)", "before", "start"),
            _ => ("`$` (or `\\z`)", "after", "end"),
        };
        if at_its_edge {
            Ok(Pattern::Text(String::new()))
        } else if edges.repeated {
            Err(format!(
                "the anchor {anchor} is not supported inside a repetition (`*`, `+`, `{{2,}}`, \
                 ...); it is at the {edge} of the pattern, outside any"
            ))
        } else {
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
pub(super) enum Matched {
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
