use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Load {
    Light,
    #[reflective(weight = -1)]
    Heavy,
}

fn main() {}
