use reflective::Reflective;

#[derive(Clone, Reflective)]
struct Order {
    #[reflective(regex = "[0-9]+")]
    quantity: u32,
}

fn main() {}
