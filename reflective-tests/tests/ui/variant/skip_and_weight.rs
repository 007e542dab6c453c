use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Answer {
    Yes,
    #[reflective(skip, weight = 3)]
    No,
}

fn main() {}
