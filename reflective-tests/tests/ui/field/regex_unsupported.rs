use reflective::Reflective;

#[derive(Clone, Reflective)]
struct Word {
    #[reflective(regex = "\\bfoo\\b")]
    name: String,
}

#[derive(Clone, Reflective)]
struct Lines {
    #[reflective(regex = "(?m)^a$")]
    text: String,
}

#[derive(Clone, Reflective)]
struct Nothing {
    #[reflective(regex = "ab[^\\x00-\\x{10FFFF}]+")]
    text: String,
}

// An empty class in a repetition that may be left out: strings match.
#[derive(Clone, Reflective)]
struct Something {
    #[reflective(regex = "ab[^\\x00-\\x{10FFFF}]*")]
    text: String,
}

// A word boundary in an alternative no string matches, which the runtime leaves out.
#[derive(Clone, Reflective)]
struct Unreachable {
    #[reflective(regex = "x|[^\\x00-\\x{10FFFF}]\\b")]
    text: String,
}

fn main() {}
