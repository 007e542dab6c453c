use reflective::Reflective;

#[derive(Clone, Reflective)]
struct Borrowed<'a> {
    name: &'a str,
}

fn main() {}
