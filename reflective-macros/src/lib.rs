//! Procedural macros for [`reflective`](https://docs.rs/reflective).
//!
//! The `#[derive(Reflective)]` macro lives here. It is not written yet: this crate is an empty
//! shell so that the workspace layout is in place (see the project's issue list).
