use reflective::Reflective;

#[derive(Clone, Reflective)]
#[reflective(weight = 2)]
struct Point {
    x: i32,
    y: i32,
}

fn main() {}
