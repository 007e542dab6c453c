use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Answer {
    Yes,
    #[reflective(skip = "yes")]
    No,
}

fn main() {}
