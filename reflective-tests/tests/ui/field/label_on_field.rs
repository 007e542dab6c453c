use reflective::Reflective;

#[derive(Clone, Reflective)]
struct Point {
    #[reflective(label = "horizontal")]
    x: i32,
    y: i32,
}

fn main() {}
