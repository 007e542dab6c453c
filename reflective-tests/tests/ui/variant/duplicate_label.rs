use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Answer {
    #[reflective(label = "yes")]
    #[reflective(label = "ja")]
    Yes,
    No,
}

fn main() {}
