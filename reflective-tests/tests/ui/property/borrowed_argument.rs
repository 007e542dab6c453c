use reflective::prelude::*;

#[reflective::property]
fn borrowed(x: &u8) -> bool {
    *x < 200
}

#[reflective::property]
fn a_borrowed_slice(xs: &[u8], s: &str) -> bool {
    xs.len() < 10 && s.len() < 10
}

// A `&'static` value from a generator of its own: no error.
#[reflective::property]
fn methods(#[reflective(generator = select(["GET", "POST"]))] method: &'static str) -> bool {
    !method.is_empty()
}

fn main() {}
