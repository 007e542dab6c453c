use reflective::Reflective;

#[derive(Clone, Reflective)]
struct User {
    #[reflective(generator = "reflective::string()", regex = "[a-z]+")]
    name: String,
}

fn main() {}
