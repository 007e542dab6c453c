use reflective::Reflective;
use reflective::prelude::*;

fn small() -> Gen<u8, u8> {
    range(0..=9).boxed()
}

#[derive(Clone, Reflective)]
enum Digit {
    #[reflective(with = small)]
    One(u8),
    Other,
}

fn main() {}
