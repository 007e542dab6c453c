//! Reads the SmartCheck benchmarks' values back from their `{:?}` text, so that a printed
//! counterexample can be shrunk as an "external" value, one that was never generated.
//!
//! Two steps: the text is read into a [`DebugValue`], a tree of the syntax `#[derive(Debug)]`
//! writes (integers, `true`/`false`, strings, lists, tuples and named values: unit variants,
//! tuple variants and structs, and structs with named fields), compact (`{:?}`) or pretty
//! (`{:#?}`); then [`FromDebug`] turns the tree into a value of the type wanted. [`parse_debug`]
//! does both.
//!
//! ```
//! use reflective_examples::debug_text::parse_debug;
//! use reflective_examples::smartcheck::{Bound5, Heap};
//!
//! let heap = Heap::Node(-3, Box::new(Heap::Empty), Box::new(Heap::Empty));
//! assert_eq!(parse_debug::<Heap>(&format!("{heap:?}")), Ok(heap));
//! let b: Bound5 = parse_debug("([-32768], [-1], [], [], [])").unwrap();
//! assert_eq!(b.0, vec![i16::MIN]);
//! assert!(parse_debug::<Heap>("Node(1, Empty)").is_err());
//! ```
//!
//! Bad text gives an `Err` saying what was expected and where; no input makes it panic. Nesting
//! is limited to [`MAX_NESTING`] levels, so that deep text cannot overflow the stack.

use std::str::FromStr;

use crate::smartcheck::{Exp, Expr, Func, Heap, Lang, Mod, Stmt, Var};

/// Reads a value of type `T` from its derived-`Debug` text, compact (`{:?}`) or pretty
/// (`{:#?}`).
///
/// # Errors
///
/// If the text is not derived-`Debug` syntax (the message gives the line and column), or does
/// not describe a `T` (the message gives the path to the part that does not fit).
pub fn parse_debug<T: FromDebug>(text: &str) -> Result<T, String> {
    T::from_debug(&text.parse()?)
}

// ---------------------------------------------------------------------------------------------
// The syntax tree

/// A value as `#[derive(Debug)]` writes it, read from text with [`str::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DebugValue {
    /// An integer: `-3`.
    Int(i128),
    /// `true` or `false`.
    Bool(bool),
    /// A string, its escapes undone: `"a\"b"` holds `a"b`.
    Str(String),
    /// A list: `[1, 2]`.
    List(Vec<DebugValue>),
    /// A tuple: `(1, [])`; `(1,)` and `(1)` are both a tuple of one.
    Tuple(Vec<DebugValue>),
    /// A unit variant, a tuple variant or struct, or a struct with named fields:
    /// `Empty`, `Var("ab")`, `Mod { imports: [], exports: [] }`.
    Named {
        /// The variant's or struct's name.
        name: String,
        /// What follows the name.
        fields: Fields,
    },
}

/// The fields of a [`DebugValue::Named`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fields {
    /// None, not even parentheses: `Empty`.
    Unit,
    /// Positional fields: `Node(1, Empty, Empty)`.
    Tuple(Vec<DebugValue>),
    /// Named fields, in the order written: `Mod { imports: [], exports: [] }`.
    Named(Vec<(String, DebugValue)>),
}

/// The deepest nesting of lists, tuples and named values' fields that text may have (the top
/// level's brackets count as one).
pub const MAX_NESTING: usize = 500;

impl FromStr for DebugValue {
    type Err = String;

    /// Reads one value, with any whitespace around and between its parts, and trailing commas
    /// (as `{:#?}` writes them) before a closing bracket.
    fn from_str(text: &str) -> Result<Self, String> {
        let mut reader = Reader {
            text,
            at: 0,
            depth: 0,
        };
        let value = reader.value()?;
        match reader.peek() {
            None => Ok(value),
            Some(_) => Err(reader.error("the end of the text")),
        }
    }
}

impl DebugValue {
    /// A short description for error messages: `` `5` ``, `a list`, `` `Node(..)` ``.
    fn describe(&self) -> String {
        match self {
            DebugValue::Int(n) => format!("`{n}`"),
            DebugValue::Bool(b) => format!("`{b}`"),
            DebugValue::Str(s) => format!("the string {s:?}"),
            DebugValue::List(_) => "a list".into(),
            DebugValue::Tuple(items) => format!("a tuple of {}", count(items.len(), "element")),
            DebugValue::Named { name, fields } => match fields {
                Fields::Unit => format!("`{name}`"),
                Fields::Tuple(_) => format!("`{name}(..)`"),
                Fields::Named(_) => format!("`{name} {{ .. }}`"),
            },
        }
    }
}

/// `n` and `noun`, made plural unless `n` is 1: `2 fields`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A recursive-descent reader of derived-`Debug` text.
struct Reader<'a> {
    text: &'a str,
    /// The byte offset reached.
    at: usize,
    /// How many brackets are open.
    depth: usize,
}

fn is_name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl<'a> Reader<'a> {
    /// The text not read yet.
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// Skips whitespace and gives the next character, if any.
    fn peek(&mut self) -> Option<char> {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
        self.rest().chars().next()
    }

    /// Skips whitespace and `c`, if `c` comes next.
    fn eat(&mut self, c: char) -> bool {
        let next = self.peek() == Some(c);
        if next {
            self.at += c.len_utf8();
        }
        next
    }

    /// Reads a name (or `true`, `false`): letters, digits and underscores.
    fn word(&mut self) -> &'a str {
        let rest = self.rest();
        let word = &rest[..rest.find(|c| !is_name_char(c)).unwrap_or(rest.len())];
        self.at += word.len();
        word
    }

    /// "line 2, column 7" for the current position (columns count characters).
    fn location(&self) -> String {
        let before = &self.text[..self.at];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        format!("line {line}, column {column}")
    }

    /// "expected {expected} at line .., column .., found .." at the current position, naming
    /// the word or character found there.
    fn error(&self, expected: &str) -> String {
        let rest = self.rest();
        let found = match rest.chars().next() {
            None => "the end of the text".to_string(),
            Some(c) if is_name_char(c) => {
                format!(
                    "`{}`",
                    &rest[..rest.find(|c| !is_name_char(c)).unwrap_or(rest.len())]
                )
            }
            Some(c) => format!("`{c}`"),
        };
        format!("expected {expected} at {}, found {found}", self.location())
    }

    /// Opens a bracket, failing if that nests too deep.
    fn open(&mut self) -> Result<(), String> {
        if self.depth == MAX_NESTING {
            return Err(format!(
                "nesting deeper than {MAX_NESTING} levels at {}",
                self.location()
            ));
        }
        self.at += 1;
        self.depth += 1;
        Ok(())
    }

    /// Reads a value.
    fn value(&mut self) -> Result<DebugValue, String> {
        match self.peek() {
            Some('[') => self.items(']').map(DebugValue::List),
            Some('(') => self.items(')').map(DebugValue::Tuple),
            Some('"') => self.string().map(DebugValue::Str),
            Some(c) if c == '-' || c.is_ascii_digit() => self.integer().map(DebugValue::Int),
            Some(c) if is_name_start(c) => self.named(),
            _ => {
                Err(self
                    .error("a value (an integer, `true`, `false`, a string, `[`, `(` or a name)"))
            }
        }
    }

    /// Reads the opening bracket (next), then values separated by commas up to `close`, with
    /// a trailing comma allowed.
    fn items(&mut self, close: char) -> Result<Vec<DebugValue>, String> {
        self.open()?;
        let mut items = Vec::new();
        while !self.eat(close) {
            items.push(self.value()?);
            if !self.eat(',') {
                if self.eat(close) {
                    break;
                }
                return Err(self.error(&format!("`,` or `{close}`")));
            }
        }
        self.depth -= 1;
        Ok(items)
    }

    /// Reads `{` (next), then `name: value` pairs separated by commas up to `}`, with a
    /// trailing comma allowed.
    fn named_fields(&mut self) -> Result<Vec<(String, DebugValue)>, String> {
        self.open()?;
        let mut fields = Vec::new();
        while !self.eat('}') {
            if !self.peek().is_some_and(is_name_start) {
                return Err(self.error("a field name or `}`"));
            }
            let name = self.word().to_string();
            if !self.eat(':') {
                return Err(self.error("`:`"));
            }
            fields.push((name, self.value()?));
            if !self.eat(',') {
                if self.eat('}') {
                    break;
                }
                return Err(self.error("`,` or `}`"));
            }
        }
        self.depth -= 1;
        Ok(fields)
    }

    /// Reads a name (next) and what follows it: `true`, `false`, `Empty`, `Node(..)`,
    /// `Mod { .. }`.
    fn named(&mut self) -> Result<DebugValue, String> {
        let name = self.word();
        let fields = match name {
            "true" => return Ok(DebugValue::Bool(true)),
            "false" => return Ok(DebugValue::Bool(false)),
            _ => match self.peek() {
                Some('(') => Fields::Tuple(self.items(')')?),
                Some('{') => Fields::Named(self.named_fields()?),
                _ => Fields::Unit,
            },
        };
        Ok(DebugValue::Named {
            name: name.to_string(),
            fields,
        })
    }

    /// Reads an integer (next): an optional `-` and decimal digits.
    fn integer(&mut self) -> Result<i128, String> {
        let rest = self.rest();
        let sign = usize::from(rest.starts_with('-'));
        let digits = rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            self.at += sign;
            return Err(self.error("a digit"));
        }
        let text = &rest[..sign + digits];
        let n = text.parse().map_err(|_| {
            format!(
                "the integer {text} at {} does not fit in 128 bits",
                self.location()
            )
        })?;
        self.at += text.len();
        Ok(n)
    }

    /// Reads a string (its `"` next), undoing the escapes `Debug` writes.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                return Err(self.error("`\"` to end the string"));
            };
            self.at += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => out.push(self.escape()?),
                c => out.push(c),
            }
        }
    }

    /// Reads what follows a `\` in a string: `"`, `\`, `'`, `n`, `r`, `t`, `0` or `u{..}`.
    fn escape(&mut self) -> Result<char, String> {
        let rest = self.rest();
        let escaped = match rest.chars().next() {
            Some('"') => '"',
            Some('\\') => '\\',
            Some('\'') => '\'',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('0') => '\0',
            Some('u') => {
                let hex = rest
                    .strip_prefix("u{")
                    .and_then(|inside| inside.split_once('}'))
                    .map(|(hex, _)| hex)
                    .filter(|hex| (1..=6).contains(&hex.len()))
                    .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()));
                let c = hex
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .and_then(char::from_u32);
                match (hex, c) {
                    (Some(hex), Some(c)) => {
                        self.at += hex.len() + 2;
                        c
                    }
                    _ => return Err(self.error("`u{` then a character's code in hex, then `}`")),
                }
            }
            _ => return Err(self.error("an escape (`\\\"`, `\\\\`, `\\n`, `\\u{..}`, ...)")),
        };
        self.at += 1;
        Ok(escaped)
    }
}

// ---------------------------------------------------------------------------------------------
// From the tree to values

/// Types that can be read from a [`DebugValue`]: the inverse of their derived `Debug`.
pub trait FromDebug: Sized {
    /// The value `value` describes.
    ///
    /// # Errors
    ///
    /// If `value` does not describe a `Self`; the message says what was expected and where.
    fn from_debug(value: &DebugValue) -> Result<Self, String>;
}

/// Integers, range-checked.
macro_rules! integers_from_debug {
    ($($t:ty),*) => {$(
        impl FromDebug for $t {
            fn from_debug(value: &DebugValue) -> Result<Self, String> {
                match value {
                    DebugValue::Int(n) => <$t>::try_from(*n).map_err(|_| {
                        format!("{n} is out of range for `{}`", stringify!($t))
                    }),
                    other => Err(format!(
                        "expected an integer (`{}`), found {}",
                        stringify!($t),
                        other.describe()
                    )),
                }
            }
        }
    )*};
}

integers_from_debug!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, usize);

impl FromDebug for bool {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        match value {
            DebugValue::Bool(b) => Ok(*b),
            other => Err(format!(
                "expected `true` or `false`, found {}",
                other.describe()
            )),
        }
    }
}

impl FromDebug for String {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        match value {
            DebugValue::Str(s) => Ok(s.clone()),
            other => Err(format!("expected a string, found {}", other.describe())),
        }
    }
}

impl<T: FromDebug> FromDebug for Vec<T> {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        match value {
            DebugValue::List(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| T::from_debug(item).map_err(|e| format!("item {i}: {e}")))
                .collect(),
            other => Err(format!("expected a list, found {}", other.describe())),
        }
    }
}

/// `Debug` shows a box's contents only.
impl<T: FromDebug> FromDebug for Box<T> {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        T::from_debug(value).map(Box::new)
    }
}

/// A fixed number of values of possibly different types: the fields of a tuple, of a tuple
/// variant or struct, or of a struct with named fields, read in order.
trait FromFields: Sized {
    /// How many fields.
    const ARITY: usize;

    /// Reads `fields`, which must be [`ARITY`](Self::ARITY) many; `label(i)` names field `i`
    /// in error messages.
    fn from_fields(fields: &[&DebugValue], label: &dyn Fn(usize) -> String)
    -> Result<Self, String>;
}

impl FromFields for () {
    const ARITY: usize = 0;

    fn from_fields(fields: &[&DebugValue], _: &dyn Fn(usize) -> String) -> Result<Self, String> {
        match fields {
            [] => Ok(()),
            _ => Err(format!("expected no fields, found {}", fields.len())),
        }
    }
}

impl FromDebug for () {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        tuple(value)
    }
}

/// [`FromFields`] and [`FromDebug`] for the tuple of the types `$t`, whose fields, named `$v`
/// when read, are at the indices `$i`.
macro_rules! tuples_from_debug {
    ($(($($t:ident $v:ident $i:tt),+))*) => {$(
        impl<$($t: FromDebug),+> FromFields for ($($t,)+) {
            const ARITY: usize = [$($i),+].len();

            fn from_fields(
                fields: &[&DebugValue],
                label: &dyn Fn(usize) -> String,
            ) -> Result<Self, String> {
                let [$($v),+] = fields else {
                    return Err(format!(
                        "expected {}, found {}",
                        count(Self::ARITY, "field"),
                        fields.len()
                    ));
                };
                Ok(($($t::from_debug($v).map_err(|e| format!("{}: {e}", label($i)))?,)+))
            }
        }

        impl<$($t: FromDebug),+> FromDebug for ($($t,)+) {
            fn from_debug(value: &DebugValue) -> Result<Self, String> {
                tuple(value)
            }
        }
    )*};
}

tuples_from_debug! {
    (A a 0)
    (A a 0, B b 1)
    (A a 0, B b 1, C c 2)
    (A a 0, B b 1, C c 2, D d 3)
    (A a 0, B b 1, C c 2, D d 3, E e 4)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5)
}

/// Reads a tuple: `(1, [])`.
fn tuple<T: FromFields>(value: &DebugValue) -> Result<T, String> {
    match value {
        DebugValue::Tuple(items) => positional("the tuple", items),
        other => Err(format!(
            "expected a tuple of {}, found {}",
            count(T::ARITY, "element"),
            other.describe()
        )),
    }
}

/// Reads the positional fields of `owner` (a tuple, `` `Node` ``): exactly `T::ARITY` many.
fn positional<T: FromFields>(owner: &str, fields: &[DebugValue]) -> Result<T, String> {
    if fields.len() != T::ARITY {
        return Err(format!(
            "expected {} in {owner}, found {}",
            count(T::ARITY, "field"),
            fields.len()
        ));
    }
    let fields: Vec<&DebugValue> = fields.iter().collect();
    T::from_fields(&fields, &|i| format!("field {i} of {owner}"))
}

/// Splits `value`, a unit or tuple variant or struct of the type `type_name`, into its name and
/// its positional fields (none for a unit variant).
fn variant<'a>(
    value: &'a DebugValue,
    type_name: &str,
) -> Result<(&'a str, &'a [DebugValue]), String> {
    match value {
        DebugValue::Named {
            name,
            fields: Fields::Unit,
        } => Ok((name, &[])),
        DebugValue::Named {
            name,
            fields: Fields::Tuple(fields),
        } => Ok((name, fields)),
        other => Err(format!(
            "expected a variant of `{type_name}`, found {}",
            other.describe()
        )),
    }
}

/// Reads the fields of the variant `name`.
fn args<T: FromFields>(name: &str, fields: &[DebugValue]) -> Result<T, String> {
    positional(&format!("`{name}`"), fields)
}

/// The error for a variant `found` that the type `type_name`, whose variants are `variants`,
/// does not have.
fn no_variant(type_name: &str, found: &str, variants: &[&str]) -> String {
    let variants: Vec<String> = variants.iter().map(|v| format!("`{v}`")).collect();
    format!(
        "expected a variant of `{type_name}` ({}), found `{found}`",
        variants.join(", ")
    )
}

/// Reads `value`, the tuple struct `type_name`: `Var("ab")`.
fn tuple_struct<T: FromFields>(value: &DebugValue, type_name: &str) -> Result<T, String> {
    match variant(value, type_name)? {
        (name, fields) if name == type_name => args(name, fields),
        (other, _) => Err(format!("expected `{type_name}(..)`, found `{other}`")),
    }
}

/// Reads `value`, the struct `type_name` with the named fields `names`, in that order:
/// `Mod { imports: [], exports: [] }`.
fn record<T: FromFields>(value: &DebugValue, type_name: &str, names: &[&str]) -> Result<T, String> {
    let expected = || format!("`{type_name} {{ {}: .. }}`", names.join(": .., "));
    let fields = match value {
        DebugValue::Named {
            name,
            fields: Fields::Named(fields),
        } if name == type_name => fields,
        other => {
            return Err(format!(
                "expected {}, found {}",
                expected(),
                other.describe()
            ));
        }
    };
    if !fields
        .iter()
        .map(|(name, _)| name.as_str())
        .eq(names.iter().copied())
    {
        let found: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
        return Err(format!(
            "expected {}, found the fields `{}`",
            expected(),
            found.join("`, `")
        ));
    }
    let values: Vec<&DebugValue> = fields.iter().map(|(_, value)| value).collect();
    T::from_fields(&values, &|i| {
        format!("field `{}` of `{type_name}`", names.get(i).unwrap_or(&"?"))
    })
}

// The benchmarks' types.

impl FromDebug for Heap {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        match variant(value, "Heap")? {
            ("Empty", fields) => args("Empty", fields).map(|()| Heap::Empty),
            ("Node", fields) => args("Node", fields).map(|(x, l, r)| Heap::Node(x, l, r)),
            (other, _) => Err(no_variant("Heap", other, &["Empty", "Node"])),
        }
    }
}

impl FromDebug for Exp {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        match variant(value, "Exp")? {
            ("C", fields) => args("C", fields).map(|(n,)| Exp::C(n)),
            ("Add", fields) => args("Add", fields).map(|(a, b)| Exp::Add(a, b)),
            ("Div", fields) => args("Div", fields).map(|(a, b)| Exp::Div(a, b)),
            (other, _) => Err(no_variant("Exp", other, &["C", "Add", "Div"])),
        }
    }
}

impl FromDebug for Var {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        tuple_struct(value, "Var").map(|(name,)| Var(name))
    }
}

impl FromDebug for Lang {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        record(value, "Lang", &["modules", "funcs"]).map(|(modules, funcs)| Lang { modules, funcs })
    }
}

impl FromDebug for Mod {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        record(value, "Mod", &["imports", "exports"])
            .map(|(imports, exports)| Mod { imports, exports })
    }
}

impl FromDebug for Func {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        record(value, "Func", &["name", "args", "stmts"]).map(|(name, args, stmts)| Func {
            name,
            args,
            stmts,
        })
    }
}

impl FromDebug for Stmt {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        match variant(value, "Stmt")? {
            ("Assign", fields) => args("Assign", fields).map(|(v, e)| Stmt::Assign(v, e)),
            ("Alloc", fields) => args("Alloc", fields).map(|(v, e)| Stmt::Alloc(v, e)),
            ("Return", fields) => args("Return", fields).map(|(e,)| Stmt::Return(e)),
            (other, _) => Err(no_variant("Stmt", other, &["Assign", "Alloc", "Return"])),
        }
    }
}

impl FromDebug for Expr {
    fn from_debug(value: &DebugValue) -> Result<Self, String> {
        let (name, fields) = variant(value, "Expr")?;
        match name {
            "Int" => args(name, fields).map(|(n,)| Expr::Int(n)),
            "Bool" => args(name, fields).map(|(b,)| Expr::Bool(b)),
            "Add" => args(name, fields).map(|(a, b)| Expr::Add(a, b)),
            "Sub" => args(name, fields).map(|(a, b)| Expr::Sub(a, b)),
            "Mul" => args(name, fields).map(|(a, b)| Expr::Mul(a, b)),
            "Div" => args(name, fields).map(|(a, b)| Expr::Div(a, b)),
            "Not" => args(name, fields).map(|(a,)| Expr::Not(a)),
            "And" => args(name, fields).map(|(a, b)| Expr::And(a, b)),
            "Or" => args(name, fields).map(|(a, b)| Expr::Or(a, b)),
            other => Err(no_variant(
                "Expr",
                other,
                &[
                    "Int", "Bool", "Add", "Sub", "Mul", "Div", "Not", "And", "Or",
                ],
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Debug;

    use reflective::prelude::*;

    use super::*;
    use crate::smartcheck::{Bound5, heaps};

    /// Reads back the `{:?}` text of 300 values of `g` at sizes 0 to 59, and the `{:#?}` text
    /// of every tenth when `pretty`.
    fn round_trips<T: FromDebug + Debug + PartialEq>(g: &Gen<T, T>, pretty: bool) {
        let mut rng = DefaultRng::seed_from_u64(1);
        for i in 0..300 {
            let v = g.generate_value(&mut rng, i % 60);
            let text = format!("{v:?}");
            assert_eq!(parse_debug::<T>(&text).as_ref(), Ok(&v), "{text}");
            if pretty && i % 10 == 0 {
                let text = format!("{v:#?}");
                assert_eq!(parse_debug::<T>(&text).as_ref(), Ok(&v), "{text}");
            }
        }
    }

    #[test]
    fn the_benchmarks_values_round_trip() {
        round_trips(&heaps(), true);
        round_trips(&Bound5::arbitrary_reflective(), true);
        round_trips(&Exp::arbitrary_reflective(), false);
        round_trips(&<Vec<i64>>::arbitrary_reflective(), false);
        round_trips(&Lang::arbitrary_reflective(), true);
    }

    #[test]
    fn extremes_and_escapes() {
        let xs = vec![i64::MIN, i64::MAX, 0, -1];
        assert_eq!(parse_debug::<Vec<i64>>(&format!("{xs:?}")), Ok(xs));
        let b: Bound5 = (vec![i16::MIN, i16::MAX], vec![], vec![-1], vec![], vec![0]);
        assert_eq!(parse_debug::<Bound5>(&format!("{b:?}")), Ok(b));
        let tricky = "a\"b\\c\nd'e\u{7f}é\t\0";
        let text = format!("{:?}", Var(tricky.into()));
        assert_eq!(parse_debug::<Var>(&text), Ok(Var(tricky.into())));
        assert_eq!(
            parse_debug::<(bool, ())>(" ( true , ( ) , ) "),
            Ok((true, ()))
        );
        assert_eq!(parse_debug::<(i64,)>("(7,)"), Ok((7,)));
    }

    #[test]
    fn deep_values_read_up_to_the_limit() {
        let mut e = Exp::C(0);
        for _ in 1..MAX_NESTING {
            e = Exp::Add(Box::new(Exp::C(1)), Box::new(e));
        }
        assert_eq!(parse_debug::<Exp>(&format!("{e:?}")).as_ref(), Ok(&e));
        let too_deep = format!("Add(C(1), {e:?})");
        let error = parse_debug::<Exp>(&too_deep).unwrap_err();
        assert!(error.contains("nesting deeper than"), "{error}");
        let brackets = "[".repeat(1_000_000);
        assert!(brackets.parse::<DebugValue>().is_err());
    }

    /// The error for `text` read as a `T`, which must contain `part`.
    fn fails<T: FromDebug + Debug>(text: &str, part: &str) {
        match parse_debug::<T>(text) {
            Ok(v) => panic!("{text} read as {v:?}"),
            Err(e) => assert!(e.contains(part), "{text}: {e}"),
        }
    }

    #[test]
    fn bad_text_gives_clear_errors() {
        // Syntax.
        fails::<Heap>("", "at line 1, column 1, found the end of the text");
        fails::<Heap>(
            "Node(1, Empty, Empty",
            "expected `,` or `)` at line 1, column 21",
        );
        fails::<Heap>("Node(1, Empty, Empty))", "expected the end of the text");
        fails::<Lang>(
            "Lang {\n  modules: [],\n  funcs: [} ",
            "line 3, column 11, found `}`",
        );
        fails::<Var>("Var(\"ab)", "`\"` to end the string");
        fails::<Var>("Var(\"a\\qb\")", "expected an escape");
        fails::<Vec<i64>>("[1, -]", "expected a digit at line 1, column 6, found `]`");
        fails::<Vec<i64>>("[1.5]", "found `.`");
        fails::<Vec<i128>>(&format!("[{}0]", i128::MAX), "does not fit in 128 bits");
        fails::<Mod>("Mod { imports [] }", "expected `:`");
        // Shape.
        fails::<Heap>(
            "Leaf",
            "expected a variant of `Heap` (`Empty`, `Node`), found `Leaf`",
        );
        fails::<Heap>("Node(1, Empty)", "expected 3 fields in `Node`, found 2");
        fails::<Heap>("[]", "expected a variant of `Heap`, found a list");
        fails::<Heap>(
            "Node(1, Empty, Node(true, Empty, Empty))",
            "field 2 of `Node`: field 0",
        );
        fails::<Bound5>(
            "([40000], [], [], [], [])",
            "item 0: 40000 is out of range for `i16`",
        );
        fails::<Bound5>(
            "([], [], [], [])",
            "expected 5 fields in the tuple, found 4",
        );
        fails::<Vec<i64>>("[9223372036854775808]", "out of range for `i64`");
        fails::<Var>("Name(\"ab\")", "expected `Var(..)`, found `Name`");
        fails::<Mod>(
            "Mod { exports: [], imports: [] }",
            "found the fields `exports`, `imports`",
        );
        fails::<Lang>(
            "Lang { modules: [], funcs: [Func { name: Var(\"f\"), args: [Xor(Int(1))], stmts: [] }] }",
            "field `funcs` of `Lang`: item 0: field `args` of `Func`: item 0: expected a variant of `Expr`",
        );
    }
}
