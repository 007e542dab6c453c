//! The derive's code names the standard library's items by path: it compiles beside user items
//! named as they are.

mod beside_shadowing_names {
    #![allow(dead_code)]
    use reflective::Reflective;

    struct FnMut;
    struct Fn;
    struct Vec;
    struct Option;
    struct Box;
    struct Some;
    struct None;
    struct Ok;
    struct Err;

    #[derive(Clone, Debug, PartialEq, Reflective)]
    pub enum Tree {
        Leaf,
        Node(std::boxed::Box<Tree>, u8, std::boxed::Box<Tree>),
    }
}

#[test]
fn derived_generators_beside_shadowing_names_generate_and_reflect() {
    use reflective::prelude::*;
    let shadowed = beside_shadowing_names::Tree::arbitrary_reflective();
    for seed in 0..20 {
        let other = shadowed.sample(seed);
        assert!(shadowed.can_generate(&other));
    }
}
