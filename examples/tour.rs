//! A tour of reflective generators.
fn main() {
    println!("tour");
}
