use reflective::Reflective;

#[derive(Clone, Reflective)]
struct Point {
    #[reflective(generate = "reflective::prelude::range(0..=9)")]
    x: i32,
    y: i32,
}

fn main() {}
