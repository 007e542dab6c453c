use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Load {
    Light,
    #[reflective(weight = "heavy")]
    Heavy,
}

fn main() {}
