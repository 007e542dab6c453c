use reflective::prelude::*;

fn small() -> impl Generator<Input = u8, Output = u8> {
    range(0..=3)
}

#[derive(Clone, Reflective)]
struct Holder {
    #[reflective(with = small)]
    x: i32,
}

fn main() {}
