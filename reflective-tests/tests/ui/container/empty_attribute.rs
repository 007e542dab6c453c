use reflective::Reflective;

#[derive(Clone, Reflective)]
#[reflective]
struct Bare {
    x: u8,
}

#[derive(Clone, Reflective)]
#[reflective()]
struct Empty {
    #[reflective]
    x: u8,
}

#[derive(Clone, Reflective)]
enum Shape {
    #[reflective()]
    Dot,
    Line(#[reflective] u8),
}

fn main() {}
