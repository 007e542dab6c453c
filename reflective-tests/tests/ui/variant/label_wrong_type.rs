use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Answer {
    #[reflective(label = 5)]
    Yes,
    No,
}

fn main() {}
