//! Characters.

use std::ops::RangeInclusive;

use crate::combinator::{pick, range};
use crate::generator::{Gen, Generator};
use crate::node::Node;

/// The first code point after the surrogates, which are not `char`s.
const AFTER_SURROGATES: u32 = 0xE000;
/// How many surrogate code points there are.
const SURROGATES: u32 = 0x800;

/// The position of `c` among all `char`s.
pub(super) fn index_of(c: char) -> u32 {
    let code = u32::from(c);
    if code >= AFTER_SURROGATES {
        code - SURROGATES
    } else {
        code
    }
}

/// The `char` at position `index` among all `char`s.
pub(super) fn char_at(index: u32) -> char {
    let code = if index >= AFTER_SURROGATES - SURROGATES {
        index + SURROGATES
    } else {
        index
    };
    char::from_u32(code).expect("positions map to code points outside the surrogates")
}

/// A `char` in `bounds`, every one equally likely.
///
/// # Panics
///
/// If `bounds` is empty.
///
/// ```
/// use reflective::prelude::*;
/// let lower = char_range('a'..='z');
/// assert!(lower.can_generate(&'q'));
/// assert!(!lower.can_generate(&'Q'));
/// ```
#[track_caller]
pub fn char_range(bounds: RangeInclusive<char>) -> Gen<char, char> {
    let (lo, hi) = (index_of(*bounds.start()), index_of(*bounds.end()));
    assert!(lo <= hi, "char range is empty: {bounds:?}");
    range(lo..=hi)
        .comap(|c: &char| Some(index_of(*c)))
        .map(char_at)
        .boxed()
}

/// The printable ASCII characters, which [`any_char`] draws most often.
const PRINTABLE_ASCII: RangeInclusive<char> = ' '..='~';
/// How many printable ASCII characters there are.
const PRINTABLE_COUNT: u32 = 95;

/// Any `char`: printable ASCII (`' '..='~'`) three times in four, labelled `"ascii"`, any other
/// `char` otherwise, labelled `"unicode"`. The two branches do not overlap, so every character,
/// and every string of them, is produced in exactly one way.
///
/// ```
/// use reflective::prelude::*;
/// assert_eq!(any_char().reflect(&'a'), vec![vec![Label::from("ascii")]]);
/// assert_eq!(any_char().reflect(&'é'), vec![vec![Label::from("unicode")]]);
/// ```
pub fn any_char() -> Gen<char, char> {
    pick((
        (3, "ascii", char_range(PRINTABLE_ASCII)),
        (1, "unicode", beyond_printable_ascii()),
    ))
    .boxed()
}

/// Any `char` that is not printable ASCII, every one equally likely: [`any_char`]'s
/// `"unicode"` branch.
fn beyond_printable_ascii() -> impl Node<Input = char, Output = char> {
    range(0..=index_of(char::MAX) - PRINTABLE_COUNT)
        .comap(|c: &char| beyond_index(*c))
        .map(beyond_char)
}

/// [`beyond_printable_ascii`] without `excluded`, which is not printable ASCII.
fn beyond_printable_ascii_but(excluded: char) -> impl Node<Input = char, Output = char> {
    let gap = beyond_index(excluded).expect("a character beyond printable ASCII");
    range(0..=index_of(char::MAX) - PRINTABLE_COUNT - 1)
        .comap(move |c: &char| {
            let index = beyond_index(*c).filter(|&index| index != gap)?;
            Some(if index > gap { index - 1 } else { index })
        })
        .map(move |index| beyond_char(if index >= gap { index + 1 } else { index }))
}

/// The position of `c` among the `char`s that are not printable ASCII, if it is one.
fn beyond_index(c: char) -> Option<u32> {
    let index = index_of(c);
    match index {
        _ if PRINTABLE_ASCII.contains(&c) => None,
        _ if index > index_of(*PRINTABLE_ASCII.end()) => Some(index - PRINTABLE_COUNT),
        _ => Some(index),
    }
}

/// The `char` at position `index` among those that are not printable ASCII.
fn beyond_char(index: u32) -> char {
    char_at(if index >= index_of(*PRINTABLE_ASCII.start()) {
        index + PRINTABLE_COUNT
    } else {
        index
    })
}

/// Any `char` but `excluded`, drawn as [`any_char`] draws: the printable ASCII characters
/// three times in four, labelled `"ascii"`, any other `char` otherwise, labelled `"unicode"`.
/// Every other character is produced in exactly one way.
pub(crate) fn any_char_but(excluded: char) -> Gen<char, char> {
    if !PRINTABLE_ASCII.contains(&excluded) {
        return pick((
            (3, "ascii", char_range(PRINTABLE_ASCII)),
            (1, "unicode", beyond_printable_ascii_but(excluded).boxed()),
        ))
        .boxed();
    }
    let (first, gap) = (u32::from(*PRINTABLE_ASCII.start()), u32::from(excluded));
    let ascii = range(first..=first + PRINTABLE_COUNT - 2)
        .comap(move |c: &char| {
            let code = u32::from(*c);
            match code {
                _ if !PRINTABLE_ASCII.contains(c) || code == gap => None,
                _ if code > gap => Some(code - 1),
                _ => Some(code),
            }
        })
        .map(move |code| {
            let code = if code >= gap { code + 1 } else { code };
            char::from_u32(code).expect("printable ASCII")
        });
    pick((
        (3, "ascii", ascii),
        (1, "unicode", beyond_printable_ascii()),
    ))
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_skip_the_surrogates_both_ways() {
        for c in ['\0', 'a', '\u{D7FF}', '\u{E000}', '\u{FFFF}', char::MAX] {
            assert_eq!(char_at(index_of(c)), c);
        }
        assert_eq!(index_of('\u{E000}'), index_of('\u{D7FF}') + 1);
    }

    #[test]
    fn any_char_but_one_leaves_out_only_that_one() {
        for excluded in ['/', '\0', 'é'] {
            let g = any_char_but(excluded);
            for c in [
                '\0',
                '\u{1}',
                ' ',
                '.',
                '/',
                '0',
                '~',
                '\u{7F}',
                'è',
                'é',
                'ê',
                char::MAX,
            ] {
                let ways = usize::from(c != excluded);
                assert_eq!(g.choices(&c).len(), ways, "{c:?} without {excluded:?}");
                if ways == 1 {
                    assert_eq!(g.replay(&g.choices(&c)[0]), Some(c), "{c:?}");
                }
            }
            let drawn: std::collections::HashSet<char> =
                (0..2000).map(|seed| g.sample(seed)).collect();
            assert!(!drawn.contains(&excluded));
            assert!(drawn.contains(&'.') && drawn.contains(&'0') && drawn.contains(&'~'));
        }
    }

    #[test]
    fn every_char_comes_from_one_branch_of_any_char() {
        let g = any_char();
        for c in [
            '\0',
            '\u{1F}',
            ' ',
            'a',
            '~',
            '\u{7F}',
            'é',
            '\u{D7FF}',
            '\u{E000}',
            char::MAX,
        ] {
            assert_eq!(g.choices(&c).len(), 1, "{c:?}");
            assert_eq!(g.replay(&g.choices(&c)[0]), Some(c), "{c:?}");
        }
    }
}
