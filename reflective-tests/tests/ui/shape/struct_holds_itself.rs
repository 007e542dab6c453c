use reflective::Reflective;

#[derive(Clone, Reflective)]
struct Loop {
    x: u8,
    next: Box<Loop>,
}

#[derive(Clone, Reflective)]
struct Pair(u8, Box<(Pair, u8)>);

// Through an `Option`, a `Vec` or a `Result` a value can end: no error.
#[derive(Clone, Reflective)]
struct List {
    head: u8,
    tail: Option<Box<List>>,
    children: Vec<List>,
    rest: Result<Box<List>, u8>,
}

#[derive(Clone, Reflective)]
struct Arced(u8, std::sync::Arc<[Arced; 2]>);

#[derive(Clone, Reflective)]
struct Wrapped(u8, std::num::Wrapping<Box<Wrapped>>);

// A type of another module with the same name, or a `Box` of the user's own, may end: no error.
mod other {
    #[derive(Clone, reflective::Reflective)]
    pub struct Node(pub Option<Box<Node>>);

    #[derive(Clone, reflective::Reflective)]
    pub struct Box<T: reflective::Reflective>(pub Vec<T>);
}

#[derive(Clone, Reflective)]
struct Node(u8, Box<other::Node>, other::Box<Node>);

fn main() {}
