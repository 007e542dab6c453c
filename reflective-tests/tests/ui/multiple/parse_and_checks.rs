use reflective::Reflective;

// A value that cannot be read, and two problems the derive's own checks find: all reported.
#[derive(Clone, Reflective)]
enum Mixed<'a> {
    #[reflective(weight = "heavy")]
    A,
    #[reflective(skip, weight = 2)]
    B(&'a u8),
    #[reflective(label = "C")]
    D,
    C,
}

fn main() {}
