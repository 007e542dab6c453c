use reflective::Reflective;

// The lens of field `table` of `From` and the builder of `Table` would both be `from_table`.
#[derive(Clone, Reflective)]
enum Clause {
    From { table: String },
    Table(String),
}

fn main() {}
