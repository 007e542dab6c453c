//! The match of a whole text by a pattern, for reflection.
//!
//! The pattern is compiled once into a program of steps (a Thompson automaton, its counted
//! repetitions written out), which a text runs depth first, as RE2's bit-state backtracker
//! does: alternatives and further repetitions first, in order, and each pair of step and
//! position tried at most once, since what follows a step does not depend on how it was
//! reached. A match thus costs at most (steps) × (bytes + 1), never an exponential search.
//! The path that matched, as the choices it made, is then read back into a [`Matched`].

use super::class::CharClass;
use super::pattern::{Matched, Pattern};
use crate::engine::grow_if_low;

/// The most steps a program may have: more means a pattern whose counted repetitions,
/// written out, are that long (`(a{1000}){1000}`), which [`string_regex`](super::string_regex)
/// refuses.
const MAX_STEPS: usize = 1 << 20;

/// The most pairs of step and position a match may mark as tried (32 MiB of marks): a
/// longer text (a pattern of 100 steps and a text of 2.6 million bytes) does not reflect.
const MAX_STATES: usize = 1 << 28;

/// A pattern with its program for matching.
#[derive(Debug)]
pub(super) struct Program {
    pattern: Pattern,
    steps: Vec<Step>,
}

/// The steps of a program, as they are compiled.
struct Compiler {
    steps: Vec<Step>,
}

/// One step of a [`Program`]; each goes on to the next unless it says otherwise.
#[derive(Debug)]
enum Step {
    /// This text.
    Text(Box<str>),
    /// A character of this class, recorded.
    Class(CharClass),
    /// Records a choice.
    Record(Choice),
    /// Goes on to the next step, and if that fails, to this one.
    Split(usize),
    /// Goes on to this step.
    Jump(usize),
    /// The end of the pattern: a match if it is the end of the text.
    Match,
}

/// A choice on the path of a match, in the order made.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// A class's character.
    Char(char),
    /// An alternation's alternative, by index.
    Alternative(usize),
    /// One more repetition.
    Repetition,
    /// No more repetitions.
    Repeated,
}

impl Program {
    /// The program of `pattern`, or why there is none (too many steps).
    pub(super) fn of(pattern: Pattern) -> Result<Program, String> {
        let mut compiler = Compiler { steps: Vec::new() };
        compiler.compile(&pattern)?;
        compiler.push(Step::Match)?;
        Ok(Program {
            pattern,
            steps: compiler.steps,
        })
    }

    /// The pattern compiled.
    pub(super) fn pattern(&self) -> &Pattern {
        &self.pattern
    }

    /// The match of the whole of `text` by the pattern, if there is one and the text is short
    /// enough to try ([`MAX_STATES`]).
    pub(super) fn match_whole(&self, text: &str) -> Option<Matched> {
        let choices = self.path(text)?;
        let mut choices = choices.into_iter();
        let (matched, _) = read(&self.pattern, &mut choices)?;
        choices.next().is_none().then_some(matched)
    }

    /// The choices of the first path (in the order of the steps' preferences) that matches
    /// the whole of `text`.
    fn path(&self, text: &str) -> Option<Vec<Choice>> {
        let positions = text.len() + 1;
        let states = self.steps.len().checked_mul(positions)?;
        if states > MAX_STATES {
            return None;
        }
        let mut tried = vec![0u64; states.div_ceil(64)];
        let mut choices = Vec::new();
        // Paths to try after the current one fails: step, position, choices made before.
        let mut later = vec![(0, 0, 0)];
        while let Some((mut step, mut at, made)) = later.pop() {
            choices.truncate(made);
            loop {
                let state = step * positions + at;
                let (word, bit) = (state / 64, 1 << (state % 64));
                if tried[word] & bit != 0 {
                    break;
                }
                tried[word] |= bit;
                match &self.steps[step] {
                    Step::Match if at == text.len() => return Some(choices),
                    Step::Match => break,
                    Step::Text(fixed) => {
                        if !text[at..].starts_with(&**fixed) {
                            break;
                        }
                        at += fixed.len();
                    }
                    Step::Class(class) => match text[at..].chars().next() {
                        Some(c) if class.contains(c) => {
                            choices.push(Choice::Char(c));
                            at += c.len_utf8();
                        }
                        _ => break,
                    },
                    Step::Record(choice) => choices.push(*choice),
                    Step::Split(other) => later.push((*other, at, choices.len())),
                    Step::Jump(to) => {
                        step = *to;
                        continue;
                    }
                }
                step += 1;
            }
        }
        None
    }
}

impl Compiler {
    /// Adds `step`, giving its index.
    fn push(&mut self, step: Step) -> Result<usize, String> {
        if self.steps.len() == MAX_STEPS {
            return Err(format!(
                "it is too large to match: more than {MAX_STEPS} steps with its counted \
                 repetitions written out"
            ));
        }
        self.steps.push(step);
        Ok(self.steps.len() - 1)
    }

    /// Points the `Split` or `Jump` at `at` to the next step to be added.
    fn point_here(&mut self, at: usize) {
        let here = self.steps.len();
        match &mut self.steps[at] {
            Step::Split(to) | Step::Jump(to) => *to = here,
            _ => unreachable!("only splits and jumps have a target"),
        }
    }

    fn compile(&mut self, pattern: &Pattern) -> Result<(), String> {
        grow_if_low(|| match pattern {
            Pattern::Text(text) => self.push(Step::Text(text.as_str().into())).map(drop),
            Pattern::Class(class) => self.push(Step::Class(class.clone())).map(drop),
            Pattern::Concat(parts) => parts.iter().try_for_each(|part| self.compile(part)),
            Pattern::Alternation(alternatives) => {
                let mut ends = Vec::new();
                for (i, alternative) in alternatives.iter().enumerate() {
                    let last = i + 1 == alternatives.len();
                    let split = (!last).then(|| self.push(Step::Split(0))).transpose()?;
                    self.push(Step::Record(Choice::Alternative(i)))?;
                    self.compile(alternative)?;
                    if let Some(split) = split {
                        ends.push(self.push(Step::Jump(0))?);
                        self.point_here(split);
                    }
                }
                ends.into_iter().for_each(|end| self.point_here(end));
                Ok(())
            }
            Pattern::Repeat { min, max, part } => {
                for _ in 0..*min {
                    self.push(Step::Record(Choice::Repetition))?;
                    self.compile(part)?;
                }
                match max {
                    Some(max) => {
                        let mut exits = Vec::new();
                        for _ in *min..*max {
                            exits.push(self.push(Step::Split(0))?);
                            self.push(Step::Record(Choice::Repetition))?;
                            self.compile(part)?;
                        }
                        exits.into_iter().for_each(|exit| self.point_here(exit));
                    }
                    None => {
                        let top = self.push(Step::Split(0))?;
                        self.push(Step::Record(Choice::Repetition))?;
                        self.compile(part)?;
                        self.push(Step::Jump(top))?;
                        self.point_here(top);
                    }
                }
                self.push(Step::Record(Choice::Repeated)).map(drop)
            }
        })
    }
}

/// The match of `pattern` that `choices` (from its program's path) made, and whether it
/// matched any text; `None` if the choices do not fit the pattern, which a path of the
/// pattern's own program never does.
///
/// A repetition beyond the least count that matched no text is left out: the path may take
/// one (`(?:a|)*` repeats its empty alternative before leaving), but the string is the same
/// without it, and fewer repetitions are what the generator draws at the smallest sizes.
fn read(pattern: &Pattern, choices: &mut impl Iterator<Item = Choice>) -> Option<(Matched, bool)> {
    grow_if_low(|| {
        Some(match pattern {
            Pattern::Text(text) => (Matched::Text, !text.is_empty()),
            Pattern::Class(_) => match choices.next()? {
                Choice::Char(c) => (Matched::Char(c), true),
                _ => return None,
            },
            Pattern::Concat(parts) => {
                let mut some_text = false;
                let mut matches = Vec::with_capacity(parts.len());
                for part in parts {
                    let (matched, text) = read(part, choices)?;
                    matches.push(matched);
                    some_text |= text;
                }
                (Matched::Parts(matches), some_text)
            }
            Pattern::Alternation(alternatives) => match choices.next()? {
                Choice::Alternative(i) => {
                    let (taken, text) = read(alternatives.get(i)?, choices)?;
                    (Matched::Alternative(i, Box::new(taken)), text)
                }
                _ => return None,
            },
            Pattern::Repeat { min, part, .. } => {
                let mut repeated = Vec::new();
                loop {
                    match choices.next()? {
                        Choice::Repetition => repeated.push(read(part, choices)?),
                        Choice::Repeated => break,
                        _ => return None,
                    }
                }
                let some_text = repeated.iter().any(|&(_, text)| text);
                let mut beyond_least = repeated.len().saturating_sub(*min);
                repeated.retain(|&(_, text)| {
                    let drop = !text && beyond_least > 0;
                    beyond_least -= usize::from(drop);
                    !drop
                });
                let repeated = repeated.into_iter().map(|(matched, _)| matched).collect();
                (Matched::Repeated(repeated), some_text)
            }
        })
    })
}
