#[reflective::property(cases = "many", speed = 3, strategy = "huge")]
fn bad_settings(x: u8) {}

#[reflective::property]
fn no_arguments() {}

#[reflective::property]
#[test]
fn already_a_test(x: u8) {}

#[reflective::property]
fn bad_generator(#[reflective(generator = "range(0..", size = 3)] x: u8) {}

fn main() {}

#[reflective::property(cases = 10, cases = 20, parallel = true, regressions = "values")]
fn twice(x: u8) {}

#[reflective::property(size_schedule = "linear")]
fn unknown_schedule(x: u8) {}

#[reflective::property(mutation_percent = 150)]
fn too_many_mutants(x: u8) {}

#[reflective::property]
fn impl_argument(x: Vec<impl Clone>) {}

#[reflective::property]
unsafe fn unsafe_property(x: u8) {}

#[reflective::property]
fn impl_return(x: u8) -> impl Sized {}

#[reflective::property]
fn thirteen_arguments(
    a: u8,
    b: u8,
    c: u8,
    d: u8,
    e: u8,
    f: u8,
    g: u8,
    h: u8,
    i: u8,
    j: u8,
    k: u8,
    l: u8,
    m: u8,
) {
}
