use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Load {
    Light,
    #[reflective(weight = 2, weight = 3)]
    Heavy,
}

fn main() {}
