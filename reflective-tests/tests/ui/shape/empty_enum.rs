use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Never {}

fn main() {}
