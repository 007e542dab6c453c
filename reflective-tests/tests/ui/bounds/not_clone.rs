use reflective::Reflective;

#[derive(Reflective)]
struct Point {
    x: i32,
    y: i32,
}

fn main() {}
