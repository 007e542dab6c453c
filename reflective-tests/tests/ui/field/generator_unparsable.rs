use reflective::Reflective;

#[derive(Clone, Reflective)]
struct Point {
    #[reflective(generator = "1 +")]
    x: i32,
    y: i32,
}

fn main() {}
