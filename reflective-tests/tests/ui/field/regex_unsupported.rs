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

fn main() {}
