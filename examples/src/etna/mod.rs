//! Two workloads of ETNA (Shi et al., *ETNA: An Evaluation Platform for Property-Based
//! Testing*, ICFP 2023): programs with planted bugs ("mutants"), properties that should catch
//! them, and a harness that measures how many tests, and how much time, each testing strategy
//! needs to find each bug.
//!
//! - [`rbt`]: red-black trees, 15 mutants and 10 properties.
//! - [`stlc`]: the simply typed lambda calculus, 10 mutants and 2 properties.
//! - [`harness`]: trials of a mutant/property pair under a strategy, counting the tests (cases
//!   not discarded) up to the first failure and the time to it.
//! - [`report`]: the Markdown tables.
//!
//! Both are ported from <https://github.com/jwshii/etna> at commit
//! `f22b56be223b88a277f2823fb4c69867ccc53199` (`workloads/Haskell/RBT`,
//! `workloads/Haskell/STLC`). The `etna` example runs them with this library's derived and
//! bespoke generators, proptest's and quickcheck's:
//! `cargo run --release --example etna -- --workload rbt`.

pub mod harness;
pub mod rbt;
pub mod report;
pub mod stlc;
