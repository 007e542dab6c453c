//! A catalogue of generators shared by the integration tests: the composite generators the
//! laws are checked on (binary search trees, a simply-typed lambda calculus fragment, nested
//! collections, ...).
