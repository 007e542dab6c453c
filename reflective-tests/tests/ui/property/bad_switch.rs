#[reflective::property(statistics = "maybe", regressions = 2, max_discard_ratio = -1)]
fn bad_switches(x: u8) {
    let _ = x;
}

fn main() {}
