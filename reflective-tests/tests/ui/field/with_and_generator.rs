use reflective::Reflective;
use reflective::prelude::*;

fn small() -> Gen<i32, i32> {
    range(0..=9).boxed()
}

#[derive(Clone, Reflective)]
struct Point {
    #[reflective(with = small, generator = "range(0..=9)")]
    x: i32,
    y: i32,
}

fn main() {}
