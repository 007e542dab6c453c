use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Answer {
    #[reflective(weight = 0)]
    Yes,
    #[reflective(weight = 0)]
    No,
}

fn main() {}
