use reflective::Reflective;

/// Not a `Reflective` type.
#[derive(Clone)]
struct Opaque;

#[derive(Clone, Reflective)]
struct Holder {
    opaque: Opaque,
}

fn main() {}
