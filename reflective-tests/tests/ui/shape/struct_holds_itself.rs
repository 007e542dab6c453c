use reflective::Reflective;

#[derive(Clone, Reflective)]
struct Loop {
    x: u8,
    next: Box<Loop>,
}

#[derive(Clone, Reflective)]
struct Pair(u8, Box<(Pair, u8)>);

// Through an `Option` or a `Vec` a value can end: no error.
#[derive(Clone, Reflective)]
struct List {
    head: u8,
    tail: Option<Box<List>>,
    children: Vec<List>,
}

fn main() {}
