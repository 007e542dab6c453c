use reflective::Reflective;

#[derive(Clone, Reflective)]
#[reflective(krate = "reflective")]
struct Point {
    x: i32,
    y: i32,
}

fn main() {}
