//! Generators shared by the examples and benchmarks.
