// A `max_size` above the largest size a replay line carries is refused when the test compiles.
#[reflective::property(max_size = 1048577)]
fn too_large(x: u8) {
    let _ = x;
}

fn main() {}
