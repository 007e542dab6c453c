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

#[cfg(test)]
mod tests {
    //! The harness's core as CI runs it: one mutant per workload, two trials, this library's
    //! strategies.

    use super::harness::{Pair, Strategy, TrialConfig, reflective_strategy, run_trials};
    use super::{rbt, stlc};

    /// Two trials of `bug` and of `correct` with each strategy: every trial of `bug` fails
    /// within `budget` cases, no trial of `correct` does in `budget` cases.
    fn finds_the_bug_and_only_it<I>(
        strategies: &[Strategy<I>],
        bug: &Pair<I>,
        correct: &Pair<I>,
        budget: u32,
    ) {
        for strategy in strategies {
            for trial in run_trials(bug, strategy, 2, &TrialConfig::new(budget, 7)) {
                assert!(trial.found, "{} missed {bug:?}: {trial:?}", strategy.name);
                assert!(trial.tests >= 1 && trial.tests <= u64::from(budget));
            }
            for trial in run_trials(correct, strategy, 2, &TrialConfig::new(budget, 7)) {
                assert!(
                    !trial.found,
                    "{} failed {correct:?}: {trial:?}",
                    strategy.name
                );
                assert_eq!(trial.tests, u64::from(budget), "{}", strategy.name);
            }
        }
    }

    #[test]
    fn the_harness_finds_miscolor_insert_and_passes_the_correct_trees() {
        let strategies = [
            reflective_strategy("derived", "", rbt::derived_input()),
            reflective_strategy("bespoke", "", rbt::bespoke_input()),
        ];
        let p = rbt::RbtProperty::InsertValid;
        let bug = rbt::pair(rbt::RbtMutant::MiscolorInsert, p);
        let correct = rbt::pair(rbt::RbtMutant::None, p);
        finds_the_bug_and_only_it(&strategies, &bug, &correct, 300);
    }

    #[test]
    fn the_harness_finds_subst_var_none_and_passes_the_correct_calculus() {
        let strategies = [
            reflective_strategy("derived", "", stlc::derived_input()),
            reflective_strategy("bespoke", "", stlc::bespoke_input()),
        ];
        let p = stlc::StlcProperty::SinglePreserve;
        let bug = stlc::pair(stlc::StlcMutant::SubstVarNone, p);
        let correct = stlc::pair(stlc::StlcMutant::None, p);
        finds_the_bug_and_only_it(&strategies, &bug, &correct, 10_000);
    }
}
