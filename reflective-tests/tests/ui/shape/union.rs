use reflective::Reflective;

#[derive(Clone, Copy, Reflective)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
