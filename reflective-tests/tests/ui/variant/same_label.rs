use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Answer {
    #[reflective(label = "answer")]
    Yes,
    #[reflective(label = "answer")]
    No,
}

fn main() {}
