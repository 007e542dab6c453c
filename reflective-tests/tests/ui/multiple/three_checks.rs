use reflective::Reflective;
use reflective::prelude::*;

fn small() -> Gen<u8, u8> {
    range(0..=9).boxed()
}

#[derive(Clone, Reflective)]
enum Mistakes {
    A(#[reflective(with = small, generator = "range(0..=9)")] u8),
    #[reflective(label = "A")]
    B(u8),
    #[reflective(skip, weight = 2)]
    C(u8),
}

fn main() {}
