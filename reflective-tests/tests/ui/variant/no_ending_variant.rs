use reflective::Reflective;

#[derive(Clone, Reflective)]
enum ZeroLeaf {
    #[reflective(weight = 0)]
    Leaf,
    Node(Box<ZeroLeaf>, Box<ZeroLeaf>),
}

#[derive(Clone, Reflective)]
enum SkipLeaf {
    #[reflective(skip)]
    Leaf,
    Node(Box<SkipLeaf>),
}

// No variant without the type itself.
#[derive(Clone, Reflective)]
enum NoLeaf {
    Node(Box<Self>),
    Pair(u8, Box<NoLeaf>),
}

// Through an `Option` or a `Vec` a value can end: no error.
#[derive(Clone, Reflective)]
enum Rose {
    #[reflective(skip)]
    Leaf,
    Node(Option<Box<Rose>>, Vec<Rose>),
}

fn main() {}
