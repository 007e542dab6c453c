//! Characters.

use std::ops::RangeInclusive;

use crate::combinator::{pick, range};
use crate::generator::Gen;

/// The first code point after the surrogates, which are not `char`s.
const AFTER_SURROGATES: u32 = 0xE000;
/// How many surrogate code points there are.
const SURROGATES: u32 = 0x800;

/// The position of `c` among all `char`s.
fn index_of(c: char) -> u32 {
    let code = u32::from(c);
    if code >= AFTER_SURROGATES {
        code - SURROGATES
    } else {
        code
    }
}

/// The `char` at position `index` among all `char`s.
fn char_at(index: u32) -> char {
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
}

/// Any `char`: printable ASCII three times in four, labelled `"ascii"`, any `char` otherwise,
/// labelled `"unicode"`.
pub fn any_char() -> Gen<char, char> {
    pick([
        (3, "ascii", char_range(' '..='~')),
        (1, "unicode", char_range('\0'..=char::MAX)),
    ])
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
}
