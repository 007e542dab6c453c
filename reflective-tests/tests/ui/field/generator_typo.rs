use reflective::prelude::*;

fn short_names() -> Gen<String, String> {
    string().resize(5).boxed()
}

#[derive(Clone, Debug, Reflective)]
struct Person {
    #[reflective(generator = shrot_names())]
    name: String,
}

fn main() {}
