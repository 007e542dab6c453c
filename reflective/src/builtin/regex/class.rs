//! The character classes of a pattern: which characters they hold, numbered, and how a
//! character of one is drawn.

use std::sync::Arc;

use regex_syntax::hir::Class;

use crate::builtin::chars::{char_at, index_of};
use crate::combinator::{pick, range};
use crate::generator::{Gen, Generator};

/// A non-empty set of characters, split into its printable ASCII characters and the others.
#[derive(Clone, Debug)]
pub(super) struct CharClass {
    printable_ascii: CharSet,
    others: CharSet,
}

impl CharClass {
    /// The characters of `class`, or `None` if it has none. Byte classes (`(?-u)`) hold
    /// ASCII bytes only: the parser refuses others in a pattern for strings.
    pub(super) fn of(class: &Class) -> Option<CharClass> {
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

    /// Whether `c` is in the class.
    pub(super) fn contains(&self, c: char) -> bool {
        self.printable_ascii.index_of(c).is_some() || self.others.index_of(c).is_some()
    }

    /// A character of the class: printable ASCII three times in four if it has both kinds.
    pub(super) fn generator(&self) -> Gen<char, char> {
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

/// A set of characters as sorted, disjoint ranges of their positions among all `char`s (which
/// skip the surrogates), each character numbered by its place in the set.
#[derive(Clone, Debug)]
struct CharSet {
    /// The ranges (first and last code point) and how many characters come before each.
    ranges: Arc<[(u32, u32, u32)]>,
    count: u32,
}

impl CharSet {
    /// The set of the characters in `ranges` of code points (sorted and disjoint, as a class's
    /// are; their ends are characters).
    fn new(ranges: impl Iterator<Item = (u32, u32)>) -> CharSet {
        let position = |code| index_of(char::from_u32(code).expect("a class's ends are chars"));
        let mut numbered = Vec::new();
        let mut count = 0;
        for (lo, hi) in ranges {
            let (lo, hi) = (position(lo), position(hi));
            numbered.push((lo, hi, count));
            count += hi - lo + 1;
        }
        CharSet {
            ranges: numbered.into(),
            count,
        }
    }

    /// The place of `c` in the set, if it is in it.
    fn index_of(&self, c: char) -> Option<u32> {
        let position = index_of(c);
        let at = self.ranges.partition_point(|&(_, hi, _)| hi < position);
        let &(lo, _, before) = self.ranges.get(at)?;
        (lo <= position).then(|| before + (position - lo))
    }

    /// The character at `index` (below the count).
    fn char_at(&self, index: u32) -> char {
        let at = self
            .ranges
            .partition_point(|&(_, _, before)| before <= index)
            - 1;
        let (lo, _, before) = self.ranges[at];
        char_at(lo + (index - before))
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
