#[reflective::property(crate = 5)]
fn crate_is_a_number(x: u8) {}

#[reflective::property(crate = "not a path")]
fn crate_is_not_a_path(x: u8) {}

fn main() {}
