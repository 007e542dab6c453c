use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Mistakes {
    #[reflective(weight = "heavy")]
    A(u8),
    #[reflective(colour = "red")]
    B(u8),
    C(#[reflective(label = "c")] u8),
}

fn main() {}
