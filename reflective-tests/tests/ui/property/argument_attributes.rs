use reflective::prelude::*;

fn small() -> Gen<u8, u8> {
    range(0u8..=3).boxed()
}

// The derive's messages for the same attributes on a field.
#[reflective::property]
fn both(#[reflective(with = small, generator = range(0u8..=9))] x: u8) {}

#[reflective::property]
fn misspelt(#[reflective(generate = range(0u8..=9))] x: u8) {}

#[reflective::property]
fn twice(#[reflective(with = small)] #[reflective(with = small)] x: u8) {}

fn main() {}
