use reflective::Reflective;

#[derive(Clone, Reflective)]
#[reflective(dimension = "two")]
struct Grid {
    rows: Vec<Vec<u8>>,
}

fn main() {}
