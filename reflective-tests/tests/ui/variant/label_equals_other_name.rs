use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Answer {
    Yes,
    #[reflective(label = "Yes")]
    No,
}

fn main() {}
