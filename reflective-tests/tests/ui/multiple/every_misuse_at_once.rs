use reflective::Reflective;

// Each variant has a value that cannot be read and a misuse found by the derive's own checks:
// all seven are reported in one compile.
#[derive(Clone, Reflective)]
enum Everything {
    #[reflective(wieght = 2, label = "x")]
    A,
    #[reflective(label = "x", colour = "red")]
    B,
    #[reflective(skip, weight = 2, size = 3)]
    C(#[reflective(with = one, generator = "two()", shape = "round")] u8),
}

fn main() {}
