use reflective::Reflective;

#[derive(Clone, Reflective)]
#[reflective(crate = 5)]
struct Point {
    x: i32,
    y: i32,
}

fn main() {}
