//! A small token language, built with `frequency`, `one_of` and `labeled`.

use reflective::prelude::*;

/// A token.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Token {
    /// A number in `0..=999`.
    Num(u16),
    /// One of `+ - * /`.
    Op(char),
    /// An identifier of 1 to 8 lowercase letters.
    Ident(String),
    /// White space.
    Space,
}

/// The operators [`token`] generates.
pub const OPERATORS: [char; 4] = ['+', '-', '*', '/'];

/// A token: numbers, operators, identifiers and spaces with weights 4, 3, 2, 1
/// (`frequency`); an operator chosen uniformly (`one_of`); an identifier "short" (1 to 3
/// letters) or "long" (4 to 8) (`labeled`). Every token has one way to be produced.
pub fn token() -> Gen<Token, Token> {
    let num = int_in(0u16..=999)
        .focus(|t: &Token| match t {
            Token::Num(n) => Some(n),
            _ => None,
        })
        .map(Token::Num);
    let op = one_of(OPERATORS.map(|c| exact(Token::Op(c))));
    let letters = char_range('a'..='z');
    let ident = labeled([
        ("short", string_of(letters.clone(), 1..=3)),
        ("long", string_of(letters, 4..=8)),
    ])
    .focus(|t: &Token| match t {
        Token::Ident(name) => Some(name),
        _ => None,
    })
    .map(Token::Ident);
    frequency(((4, num), (3, op), (2, ident), (1, exact(Token::Space)))).boxed()
}

/// Up to 12 tokens.
pub fn tokens() -> Gen<Vec<Token>, Vec<Token>> {
    vec(token(), 0..=12)
}
