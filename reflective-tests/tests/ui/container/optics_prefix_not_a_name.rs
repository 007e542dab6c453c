use reflective::Reflective;

#[derive(Clone, Reflective)]
#[reflective(optics_prefix = "1-")]
enum Value {
    Str(String),
}

fn main() {}
