use reflective::Reflective;

#[derive(Clone, Reflective)]
#[reflective = "x"]
struct Point {
    x: i32,
    y: i32,
}

fn main() {}
