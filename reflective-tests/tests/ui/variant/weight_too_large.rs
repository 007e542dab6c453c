use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Load {
    Light,
    #[reflective(weight = 5000000000)]
    Heavy,
}

fn main() {}
