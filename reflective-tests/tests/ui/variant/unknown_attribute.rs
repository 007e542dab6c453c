use reflective::Reflective;

#[derive(Clone, Reflective)]
enum Shape {
    Circle(u8),
    #[reflective(wieght = 2)]
    Square(u8),
}

fn main() {}
