use reflective::Reflective;

#[derive(Clone, Reflective)]
#[reflective(bound = "not a bound!")]
struct Wrapper<T> {
    inner: T,
}

fn main() {}
