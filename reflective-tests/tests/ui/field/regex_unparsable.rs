use reflective::Reflective;

#[derive(Clone, Reflective)]
struct User {
    #[reflective(regex = "[a-z")]
    name: String,
}

fn main() {}
