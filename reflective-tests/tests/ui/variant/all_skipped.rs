use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Answer {
    #[reflective(skip)]
    Yes,
    #[reflective(skip)]
    No,
}

fn main() {}
