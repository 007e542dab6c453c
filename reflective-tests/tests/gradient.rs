//! Choice Gradient Sampling on this library's generators: every value it yields satisfies the
//! predicate and replays from its choices, over random generators; it finds valid values that
//! rejection rarely finds; a choice scores its distinct valid samples, as the paper's;
//! rewarding new values, it still follows the valid ones when none is new; a derivative that
//! makes no choice counts as its samples; a predicate no value satisfies ends with the budget
//! spent; a panicking predicate is reported with its value; the learned generator stays
//! within the generator.

use reflective::prelude::*;
use reflective_tests::catalogue::bst::{Tree, is_bst, sized_tree};
use reflective_tests::catalogue::specs::{Spec, V, build};

/// A predicate on random values that holds about one time in three, decided by the value.
fn one_in_three(v: &V) -> bool {
    format!("{v:?}").len() % 3 == 0
}

/// Asserts that every value of `values` satisfies [`one_in_three`] and replays from its
/// choices under `g`, built from `spec`.
fn valid_and_replayed(g: &Gen<V, V>, spec: &Spec, values: &[Generated<V>]) {
    for generated in values {
        assert!(
            one_in_three(&generated.value),
            "{spec:?}: {:?}",
            generated.value
        );
        assert_eq!(
            g.replay(&generated.tree).as_ref(),
            Some(&generated.value),
            "{spec:?}"
        );
    }
}

#[test]
fn every_value_of_gradient_sampling_is_valid_and_replays_from_its_choices() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(9);
    let mut found = 0;
    for round in 0..300u64 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        let run = g
            .gradient(one_in_three)
            .samples(3)
            .size(20)
            .run(round, 200)
            .unwrap();
        valid_and_replayed(&g, &spec, &run.values);
        // The budget holds exactly (a search that ends first, stuck, spends less).
        assert!(run.stats.samples <= 200, "{spec:?}: {:?}", run.stats);
        found += run.values.len();
    }
    assert!(found > 1000, "only {found} valid values");
}

#[test]
fn every_value_of_gradient_sampling_with_splicing_is_valid_and_replays_from_its_choices() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(23);
    let (mut found, mut spliced) = (0, 0);
    for round in 0..300u64 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        let gradient = g.gradient(one_in_three).samples(3).size(20).splicing(60);
        let gradient = if round % 2 == 0 {
            gradient.rewarding_new().mutating(40)
        } else {
            gradient
        };
        let run = gradient.run(round, 300).unwrap();
        valid_and_replayed(&g, &spec, &run.values);
        assert!(
            run.stats.spliced <= run.stats.samples,
            "{spec:?}: {:?}",
            run.stats
        );
        found += run.values.len();
        spliced += run.stats.spliced;
    }
    assert!(
        found > 1000 && spliced > 1000,
        "{found} valid values, {spliced} spliced"
    );
}

/// A tree with digit keys whose nodes store a height (0 to 9), as the `cgs` example's AVL
/// benchmark: `depth` levels of nodes at most, every choice independent (forward only).
fn naive_avl(depth: usize) -> Gen<std::convert::Infallible, Avl> {
    let leaf = exact(Avl::Leaf).no_ann().boxed();
    let digit = || range(0u8..=9).no_ann().boxed();
    if depth == 0 {
        return leaf;
    }
    let node = zip(
        zip(digit(), digit()),
        zip(naive_avl(depth - 1), naive_avl(depth - 1)),
    )
    .map(|((h, x), (l, r))| Avl::Node(h, Box::new(l), x, Box::new(r)));
    pick(((1, "leaf", leaf), (1, "node", node.no_ann().boxed()))).boxed()
}

/// A tree whose nodes store a height, with digit keys.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Avl {
    Leaf,
    Node(u8, Box<Avl>, u8, Box<Avl>),
}

impl Avl {
    fn height(&self) -> u8 {
        match self {
            Avl::Leaf => 0,
            Avl::Node(_, l, _, r) => 1 + l.height().max(r.height()),
        }
    }

    fn nodes(&self) -> usize {
        match self {
            Avl::Leaf => 0,
            Avl::Node(_, l, _, r) => 1 + l.nodes() + r.nodes(),
        }
    }

    /// A search tree of keys strictly between `lo` and `hi` whose nodes store their heights
    /// and whose subtrees' heights differ by at most one.
    fn is_avl(&self, lo: i16, hi: i16) -> bool {
        match self {
            Avl::Leaf => true,
            Avl::Node(h, l, x, r) => {
                let x = i16::from(*x);
                *h == self.height()
                    && l.height().abs_diff(r.height()) <= 1
                    && lo < x
                    && x < hi
                    && l.is_avl(lo, x)
                    && r.is_avl(x, hi)
            }
        }
    }
}

#[test]
fn splicing_finds_avl_trees_that_descents_and_mutants_do_not() {
    // A node's stored height must agree with every node below it: one edit of a valid tree, or
    // a random completion of a prefix, almost never makes a valid tree of four nodes or more.
    // With fragments of the valid trees found (valid subtrees) spliced into the samples, the
    // descents find a few, and their mutants many more.
    let g = naive_avl(4);
    let large = |trees: &[Generated<Avl>]| {
        trees
            .iter()
            .filter(|t| t.value.nodes() >= 4)
            .map(|t| format!("{:?}", t.value))
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    let avl = |t: &Avl| t.is_avl(-1, 10);
    let gradient = || g.gradient(avl).samples(20).rewarding_new().mutating(50);
    let (mut without, mut with) = (0, 0);
    for seed in 0..2 {
        let plain = gradient().run(seed, 50_000).unwrap();
        let spliced = gradient().splicing(20).run(seed, 50_000).unwrap();
        assert!(spliced.stats.spliced > 0 && plain.stats.spliced == 0);
        assert!(spliced.values.iter().all(|t| avl(&t.value)));
        without += large(&plain.values);
        with += large(&spliced.values);
    }
    println!("AVL trees of 4 nodes or more: {with} splicing, {without} not");
    assert!(
        with >= 50 && with > 10 * without,
        "{with} splicing, {without} not"
    );
}

#[test]
fn gradient_sampling_finds_search_trees_that_rejection_rarely_finds() {
    // Unordered trees of keys 0..=9 at size 30: few are search trees of three or more nodes.
    let g = sized_tree(0, 9);
    let nodes = |t: &Tree| format!("{t:?}").matches("Node").count();
    let wanted = |t: &Tree| is_bst(t, 0, 9) && nodes(t) >= 3;
    let budget = 20_000;
    let mut rng = DefaultRng::seed_from_u64(1);
    let by_rejection = (0..budget)
        .filter(|_| wanted(&g.generate_value(&mut rng, 30)))
        .count();
    let run = g
        .gradient(wanted)
        .samples(20)
        .size(30)
        .rewarding_new()
        .run(1, budget)
        .unwrap();
    println!(
        "rejection {by_rejection}, gradient {} (new) of {budget}",
        run.values.len()
    );
    assert!(run.values.iter().all(|v| wanted(&v.value)));
    assert!(
        run.values.len() > 3 * by_rejection.max(1),
        "{} vs {by_rejection}",
        run.values.len()
    );
    print!("{}", run.stats);
}

#[test]
fn rewarding_new_values_once_none_is_new_follows_the_valid_ones() {
    // 286 sorted lists of at most three digits: the run sees them all long before its budget
    // ends, after which no sample is new. Its choices then follow the valid samples (as the
    // paper scores), not a coin: a step is blind only if no sample at all was valid.
    let sorted = |xs: &Vec<u8>| xs.is_sorted();
    let run = vec(range(0u8..=9), 0..=3)
        .gradient(sorted)
        .samples(10)
        .rewarding_new()
        .run(4, 200_000)
        .unwrap();
    let mut distinct: Vec<&Vec<u8>> = run.values.iter().map(|v| &v.value).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), run.values.len(), "only new values are kept");
    assert!(run.values.iter().all(|v| sorted(&v.value)));
    assert_eq!(run.values.len(), 286, "every sorted list found");
    // Valid samples seen before count as valid, not as found.
    assert!(
        run.stats.valid > 100 * run.values.len() as u64,
        "{}",
        run.stats
    );
    assert!(
        run.stats.blind_steps * 20 < run.stats.steps,
        "{} blind of {} steps",
        run.stats.blind_steps,
        run.stats.steps
    );
}

#[test]
fn a_derivative_that_makes_no_choice_counts_as_its_samples() {
    // One pick between two values, one valid: each branch's derivative is one value, which is
    // worked out once and counted as the five samples that would all have been it. A budget
    // of ten samples: the first step of one descent, 2 x 5 samples, the valid branch's 5 valid.
    let g = one_of([exact(1u8), exact(2)]);
    let plain = g.gradient(|v: &u8| *v == 1).samples(5).run(0, 10).unwrap();
    assert_eq!(
        (plain.stats.descents, plain.stats.samples, plain.stats.valid),
        (1, 10, 5),
        "{}",
        plain.stats
    );
    // Every valid sample is kept, as if drawn.
    assert_eq!(plain.values.len(), 5);
    assert!(
        plain
            .values
            .iter()
            .all(|v| v.value == 1 && g.replay(&v.tree) == Some(1))
    );
    // Rewarding new values, the four samples after the first are seen already.
    let fresh = g
        .gradient(|v: &u8| *v == 1)
        .samples(5)
        .rewarding_new()
        .run(0, 10)
        .unwrap();
    assert_eq!((fresh.stats.samples, fresh.stats.valid), (10, 5));
    assert_eq!(fresh.values.len(), 1);
}

#[test]
fn a_predicate_no_value_satisfies_spends_the_budget_and_finds_nothing() {
    let g = vec(range(0u8..=9), 0..=5);
    let run = g
        .gradient(|_: &Vec<u8>| false)
        .samples(5)
        .run(0, 2_000)
        .unwrap();
    assert!(run.values.is_empty());
    assert_eq!(run.stats.valid, 0);
    assert!(run.stats.samples >= 2_000);
    assert_eq!(run.stats.blind_steps, run.stats.steps);
}

#[test]
fn a_panicking_predicate_is_reported_with_its_value() {
    let g = range(0u8..=9);
    let error = g
        .gradient(|&x: &u8| {
            assert!(x < 5, "{x} is too big");
            true
        })
        .run(0, 1_000)
        .unwrap_err();
    assert!(error.message.contains("is too big"), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("the validity predicate panicked on "),
        "{error}"
    );
}

#[test]
fn a_run_spends_no_more_than_its_budget_whatever_the_samples_per_choice() {
    let g = vec(range(0u8..=9), 0..=5);
    let gradient = g.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(1_000_000);
    let run = gradient.run(0, 1_000).unwrap();
    assert_eq!(run.stats.samples, 1_000);
    // What the step drew before the budget ran out is counted: each value found is a valid
    // sample.
    assert_eq!(run.stats.valid, run.values.len() as u64);
    assert!(!run.values.is_empty());
    // The step the budget stopped in goes on, given more, as one run would have gone.
    let mut values = gradient.values(0, 400);
    let mut handed: Vec<Generated<Vec<u8>>> = values.by_ref().map(Result::unwrap).collect();
    values.raise_budget(600);
    handed.extend(values.by_ref().map(Result::unwrap));
    assert_eq!(handed, run.values);
    assert_eq!(values.stats(), run.stats);
}

#[test]
fn a_generator_that_panics_is_not_taken_for_an_invalid_value() {
    let g = range(0u8..=9).map(|x| {
        assert!(x < 5, "generator bug on {x}");
        x
    });
    let gradient = g.gradient(|_: &u8| true);
    let panicked =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| gradient.run(0, 1_000)))
            .unwrap_err();
    let message = panicked
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(message.starts_with("generator bug on "), "{message}");
}

#[test]
fn the_learned_generator_makes_values_of_the_generator_and_more_valid_ones() {
    let g = vec(range(0u8..=9), 0..=6);
    let gradient = g.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(20);
    let run = gradient.run(3, 30_000).unwrap();
    let learned = gradient.learned(run.history);
    let mut rng = DefaultRng::seed_from_u64(4);
    let mut plain = DefaultRng::seed_from_u64(4);
    let (mut learned_valid, mut plain_valid) = (0, 0);
    for _ in 0..2_000 {
        let generated = learned.try_generate(&mut rng, 100).unwrap();
        assert_eq!(g.replay(&generated.tree), Some(generated.value.clone()));
        learned_valid += usize::from(generated.value.is_sorted());
        plain_valid += usize::from(g.generate_value(&mut plain, 100).is_sorted());
    }
    assert!(
        learned_valid > 2 * plain_valid,
        "learned {learned_valid}, plain {plain_valid}"
    );
}

#[test]
fn the_runner_checks_a_property_with_a_precondition_on_values_gradient_sampling_finds() {
    use reflective::check::{Config, Replay, check_by_gradient};
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let lists = vec(range(0u8..=9), 0..=8);
    let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(10);
    // Holds: every case is sorted.
    check_by_gradient(
        &Config::new().cases(100).seed(1).regressions(false),
        &sorted,
        |xs| xs.is_sorted(),
    );
    // Fails: the minimal counterexample is sorted too, and replays from its line.
    let config = Config::new().cases(200).seed(2).regressions(false);
    let property = |xs: &Vec<u8>| xs.iter().map(|&x| u32::from(x)).sum::<u32>() < 20;
    let report = catch_unwind(AssertUnwindSafe(|| {
        check_by_gradient(&config, &sorted, property)
    }))
    .expect_err("the sum reaches 20")
    .downcast::<String>()
    .map(|text| *text)
    .expect("a report");
    let minimal = reflective_tests::report_section(&report, "minimal counterexample:\n");
    let listed = reflective_tests::compact(minimal);
    assert!(
        (listed.contains("9,") || listed.contains("9]")) && report.contains("gradient sampling: "),
        "{report}"
    );
    let at = report.find("REFLECTIVE_REPLAY=").unwrap() + "REFLECTIVE_REPLAY=".len();
    let replay: Replay = report[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let again = catch_unwind(AssertUnwindSafe(|| {
        check_by_gradient(
            &Config::new().replay(replay).regressions(false),
            &sorted,
            property,
        )
    }))
    .expect_err("the replayed case fails again")
    .downcast::<String>()
    .map(|text| *text)
    .unwrap();
    assert_eq!(
        reflective_tests::report_section(&again, "original counterexample:\n"),
        reflective_tests::report_section(&report, "original counterexample:\n")
    );
    println!("{report}");
}

#[test]
fn the_runner_reports_a_panicking_precondition_with_the_value_and_the_case_to_replay() {
    use reflective::check::{Config, Replay, try_check_by_gradient};
    let lists = vec(range(0u8..=9), 0..=8);
    let precondition = |xs: &Vec<u8>| {
        assert!(xs.len() < 3, "too long: {}", xs.len());
        true
    };
    let sorted = lists.gradient(precondition).samples(3);
    let run = |config: &Config| {
        try_check_by_gradient(config, &sorted, |_: &Vec<u8>| true)
            .expect_err("the precondition panics")
            .report()
            .to_string()
    };
    let report = run(&Config::new().cases(100).seed(5).regressions(false));
    assert!(
        report.starts_with("the validity predicate panicked on [") && report.contains("too long"),
        "{report}"
    );
    let at = report.find("REFLECTIVE_REPLAY=").expect(&report) + "REFLECTIVE_REPLAY=".len();
    let replay: Replay = report[at..].trim_end_matches(')').parse().unwrap();
    let again = run(&Config::new().replay(replay).regressions(false));
    assert_eq!(again, report);
}

#[test]
fn a_precondition_that_panics_on_a_shrink_candidate_skips_it_and_says_so() {
    use reflective::check::{Config, try_check_by_gradient};
    // Odd numbers, the precondition panicking on 3 (which descents rarely reach: the range is
    // wide); the property fails from 2 up. Shrinking meets 3 on its way down: it must not
    // take the precondition's panic for the property's failure and stop there.
    let odd = |&x: &u32| {
        assert!(x != 3, "the precondition cannot take 3");
        x % 2 == 1
    };
    let numbers = range(0u32..=1_000_000);
    let gradient = numbers.gradient(odd).samples(5);
    let config = Config::new().cases(50).seed(1).regressions(false);
    let report = try_check_by_gradient(&config, &gradient, |&x: &u32| x < 2)
        .expect_err("every odd number above 1 fails")
        .report()
        .to_string();
    let minimal = reflective_tests::report_section(&report, "minimal counterexample:\n");
    assert_eq!(minimal.lines().next().map(str::trim), Some("5"), "{report}");
    assert!(
        report.contains(
            "While shrinking, the validity predicate panicked on 3: the precondition cannot \
             take 3: that candidate was skipped"
        ),
        "{report}"
    );
}

#[test]
fn the_runner_reports_a_panicking_generator_with_the_case_to_replay() {
    use reflective::check::{Config, Replay, try_check_by_gradient};
    let lists = vec(range(0u8..=9), 0..=8).map(|xs| {
        assert!(xs.len() < 4, "generator bug on {xs:?}");
        xs
    });
    let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(3);
    let run = |config: &Config| {
        try_check_by_gradient(config, &sorted, |_: &Vec<u8>| true)
            .expect_err("the generator panics")
            .report()
            .to_string()
    };
    let report = run(&Config::new().cases(100).seed(5));
    assert!(
        report.starts_with("the generator panicked at reflective-tests/tests/gradient.rs:")
            && report.contains(": generator bug on ["),
        "{report}"
    );
    let at = report.find("REFLECTIVE_REPLAY=").expect(&report) + "REFLECTIVE_REPLAY=".len();
    let line = report[at..].split_whitespace().next().unwrap();
    let replay: Replay = line.trim_end_matches(':').parse().unwrap();
    assert_eq!(run(&Config::new().replay(replay)), report);
}

#[test]
fn the_runner_reports_a_precondition_no_sample_meets_as_such_and_ends() {
    use reflective::check::{Config, try_check_by_gradient};
    let lists = vec(range(0u8..=9), 0..=8);
    let never = lists.gradient(|_: &Vec<u8>| false).samples(5);
    let config = Config::new().cases(100).seed(1);
    let failed = try_check_by_gradient(&config, &never, |_: &Vec<u8>| true);
    let report = failed.expect_err("no case runs").report().to_string();
    assert!(
        report.starts_with("gradient sampling found no value the precondition accepts in ")
            && report.contains("property gave up")
            && report.contains(", 0 valid"),
        "{report}"
    );
}

#[test]
fn a_failure_found_by_gradient_sampling_shrinks_to_a_value_the_precondition_accepts() {
    use reflective::check::{Config, check_by_gradient};
    use std::panic::{AssertUnwindSafe, catch_unwind};
    // Sorted lists; the property fails on any list holding a 9 and at least two elements. The
    // shrinker, unguarded, would reach [9, 0]: unsorted.
    let lists = vec(range(0u8..=9), 0..=8);
    let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(10);
    let property = |xs: &Vec<u8>| !(xs.len() >= 2 && xs.contains(&9));
    let config = Config::new().cases(300).seed(5).regressions(false);
    let report = catch_unwind(AssertUnwindSafe(|| {
        check_by_gradient(&config, &sorted, property)
    }))
    .expect_err("a sorted list with a 9")
    .downcast::<String>()
    .map(|text| *text)
    .unwrap();
    let minimal = reflective_tests::report_section(&report, "minimal counterexample:\n");
    assert!(
        reflective_tests::compact(minimal).starts_with("[0,9]"),
        "{report}"
    );
}

#[test]
fn mutants_of_the_values_found_are_valid_values_of_the_generator() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(19);
    let (mut mutants, mut valid_mutants) = (0, 0);
    for round in 0..300u64 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        let gradient = g.gradient(one_in_three).samples(3).size(20).mutating(60);
        let gradient = if round % 2 == 0 {
            gradient.rewarding_new()
        } else {
            gradient
        };
        let run = gradient.run(round, 400).unwrap();
        if round % 2 == 0 {
            // Rewarding new values: no mutant is kept twice either.
            let distinct: std::collections::HashSet<String> = run
                .values
                .iter()
                .map(|v| format!("{:?}", v.value))
                .collect();
            assert_eq!(distinct.len(), run.values.len(), "{spec:?}");
        }
        valid_and_replayed(&g, &spec, &run.values);
        let spent = run.stats.samples + run.stats.mutants;
        assert!(spent <= 400 + 16 * 3, "{spec:?}: {:?}", run.stats);
        assert!(run.stats.valid_mutants <= run.stats.mutants);
        // Mutants take their share of the budget, and no more than one past it.
        assert!(
            run.stats.mutants * 100 <= 60 * spent.saturating_sub(1) + 100,
            "{spec:?}: {:?}",
            run.stats
        );
        if run.values.is_empty() {
            assert_eq!(run.stats.mutants, 0, "{spec:?}: no value to mutate");
        }
        mutants += run.stats.mutants;
        valid_mutants += run.stats.valid_mutants;
    }
    assert!(
        valid_mutants > 1000,
        "{valid_mutants} valid of {mutants} mutants"
    );
}

/// The sorted lists of at most `length` digits that gradient sampling rewarding new values
/// finds with `seed` and `budget`, spending `mutating` per cent of it on mutants; checked
/// sorted.
fn sorted_lists_found(length: usize, mutating: u8, seed: u64, budget: u64) -> Vec<Vec<u8>> {
    let run = vec(range(0u8..=9), 0..=length)
        .gradient(|xs: &Vec<u8>| xs.is_sorted())
        .samples(10)
        .rewarding_new()
        .mutating(mutating)
        .run(seed, budget)
        .unwrap();
    let found: Vec<Vec<u8>> = run.values.into_iter().map(|found| found.value).collect();
    assert!(found.iter().all(|xs| xs.is_sorted()));
    found
}

#[test]
fn mutating_the_values_found_finds_more_new_ones_in_the_same_budget() {
    for seed in 0..5 {
        let descents = sorted_lists_found(12, 0, seed, 20_000);
        let mutating = sorted_lists_found(12, 50, seed, 20_000);
        assert!(
            2 * mutating.len() > 3 * descents.len(),
            "seed {seed}: {} with mutants, {} without",
            mutating.len(),
            descents.len()
        );
    }
}

#[test]
fn values_hands_out_what_a_run_finds_and_goes_on_when_given_more() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(29);
    for round in 0..100u64 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        let gradient = g.gradient(one_in_three).samples(3).size(20).mutating(50);
        let run = gradient.run(round, 300).unwrap();
        let mut values = gradient.values(round, 300);
        let handed: Vec<Generated<V>> = values.by_ref().map(Result::unwrap).collect();
        assert_eq!(handed, run.values, "{spec:?}");
        assert_eq!(values.stats(), run.stats, "{spec:?}");
        // Given 200 more, it goes on as a run of 500 would have gone.
        values.raise_budget(200);
        let mut handed = handed;
        handed.extend(values.by_ref().map(Result::unwrap));
        let longer = gradient.run(round, 500).unwrap();
        assert_eq!(handed, longer.values, "{spec:?}");
        assert_eq!(values.stats(), longer.stats, "{spec:?}");
    }
}

#[test]
fn a_search_raised_in_any_parts_goes_on_as_one_run() {
    // Budgets cut anywhere (in the middle of a candidate's samples too), every kind of
    // search (splicing too): the values, their choices and the statistics are a whole run's.
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(3);
    let cuts: [&[u64]; 3] = [&[1; 21], &[7, 13, 0, 37, 150], &[50, 150]];
    for round in 0..60u64 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        for (cuts, samples) in cuts.iter().zip([1, 3, 7]) {
            let kinds = [(false, 0, 0), (false, 50, 0), (true, 0, 60), (true, 70, 40)];
            for (new, mutating, splicing) in kinds {
                let mut gradient = g
                    .gradient(one_in_three)
                    .samples(samples)
                    .size(20)
                    .mutating(mutating)
                    .splicing(splicing);
                if new {
                    gradient = gradient.rewarding_new();
                }
                let whole = gradient.run(round, cuts.iter().sum()).unwrap();
                let mut values = gradient.values(round, cuts[0]);
                let mut handed: Vec<Generated<V>> = values.by_ref().map(Result::unwrap).collect();
                for &more in &cuts[1..] {
                    values.raise_budget(more);
                    handed.extend(values.by_ref().map(Result::unwrap));
                }
                let search = format!(
                    "{spec:?}, samples {samples}, new {new}, {mutating}% mutants, \
                     {splicing}% spliced"
                );
                assert_eq!(handed, whole.values, "{search}");
                assert_eq!(values.stats(), whole.stats, "{search}");
            }
        }
    }
}

#[test]
fn values_goes_on_as_a_run_after_it_thins_the_values_it_mutates() {
    // More than 8 320 values found: the search keeps only a selection of the older ones to
    // mutate (and `values` none it handed out); `run` returns them all.
    let g = vec(range(0u8..=9), 0..=20);
    let gradient = g
        .gradient(|xs: &Vec<u8>| xs.is_sorted())
        .samples(10)
        .rewarding_new()
        .mutating(90);
    let run = gradient.run(4, 60_000).unwrap();
    assert!(run.values.len() > 10_000, "{}", run.values.len());
    let mut values = gradient.values(4, 0);
    let mut handed = Vec::new();
    for _ in 0..10 {
        values.raise_budget(6_000);
        handed.extend(values.by_ref().map(Result::unwrap));
    }
    assert_eq!(handed.len(), run.values.len());
    let differs = handed.iter().zip(&run.values).position(|(handed, found)| {
        handed.value != found.value || handed.tree.choices() != found.tree.choices()
    });
    assert_eq!(differs, None, "the first value that differs");
    assert_eq!(values.stats(), run.stats);
}

#[test]
fn a_generator_that_makes_no_choice_ends_the_search() {
    let g = exact(7u8);
    let run = g
        .gradient(|_: &u8| true)
        .mutating(50)
        .run(0, 1_000)
        .unwrap();
    assert_eq!(run.values.len(), 1);
    assert_eq!(run.values[0].value, 7);
    let gradient = g.gradient(|_: &u8| true);
    let mut values = gradient.values(0, u64::MAX);
    assert_eq!(values.by_ref().count(), 1);
    // Nothing is left to try: more budget does not start it again.
    values.raise_budget(1_000);
    assert_eq!(values.count(), 0);
}

#[test]
fn values_ends_with_the_panic_of_the_predicate() {
    let g = range(0u8..=9);
    let gradient = g.gradient(|&x: &u8| {
        assert!(x < 5, "{x} is too big");
        true
    });
    let mut values = gradient.values(0, 1_000);
    let error = values
        .by_ref()
        .find_map(Result::err)
        .expect("the predicate panics");
    assert!(error.message.contains("is too big"), "{error}");
    // The values found before the panic came first; nothing comes after it.
    assert!(values.next().is_none());
    values.raise_budget(1_000);
    assert!(values.next().is_none());
}

#[test]
fn mutants_made_mostly_from_the_values_found_last_find_more_new_ones() {
    // Sorted lists of up to 20 digits: each valid list has many sorted neighbours, most of
    // them found already once its parent has had a few mutants made from it.
    for seed in 0..3 {
        let found = sorted_lists_found(20, 90, seed, 40_000);
        // Parents drawn uniformly from every value found give about 4 750 here (seeds 0-1).
        assert!(
            found.len() >= 6_500,
            "seed {seed}: only {} new values",
            found.len()
        );
    }
}

#[test]
fn a_value_seen_before_counts_as_valid_without_asking_the_predicate_again() {
    let calls = std::sync::atomic::AtomicU64::new(0);
    let valid = |_: &u8| {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        true
    };
    let g = range(0u8..=9);
    let run = g
        .gradient(valid)
        .samples(10)
        .rewarding_new()
        .run(3, 2_000)
        .unwrap();
    assert_eq!(run.values.len(), 10);
    // Every sample counts as valid, seen or not, but the predicate saw each value once.
    assert_eq!(run.stats.valid, run.stats.samples, "{}", run.stats);
    assert!(run.stats.valid > 100, "{}", run.stats);
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 10);
}

#[test]
fn valid_by_gradient_makes_valid_values_that_replay_reflect_and_come_again_from_the_seed() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(11);
    let (mut made, mut in_collections, mut none_valid) = (0, 0, 0);
    for round in 0..100u64 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec)
            .valid_by_gradient(one_in_three, 3)
            .max_samples(1_000);
        let generated = match g.try_generate(&mut DefaultRng::seed_from_u64(round), 20) {
            Ok(generated) => generated,
            Err(error) => {
                let message = error.to_string();
                assert!(
                    message.contains("gradient sampling found no value the predicate accepts"),
                    "{spec:?}: {message}"
                );
                // Only a generator that a filter finds no value of either.
                let filtered = build(&spec).filter(one_in_three);
                assert!(
                    filtered.try_generate(&mut rng, 20).is_err(),
                    "{spec:?}: {message}"
                );
                none_valid += 1;
                continue;
            }
        };
        let value = &generated.value;
        assert!(one_in_three(value), "{spec:?}: {value:?}");
        assert_eq!(g.replay(&generated.tree).as_ref(), Some(value), "{spec:?}");
        assert!(g.can_generate(value), "{spec:?}: {value:?}");
        let again = g.generate_value(&mut DefaultRng::seed_from_u64(round), 20);
        assert_eq!(&again, value, "{spec:?}: the same seed, without recording");
        made += 1;
        // Inside a collection, whose elements share its size.
        let many = vec(g, 1..=3);
        if let Ok(generated) = many.try_generate(&mut DefaultRng::seed_from_u64(round), 20) {
            assert!(generated.value.iter().all(one_in_three), "{spec:?}");
            let replayed = many.replay(&generated.tree);
            assert_eq!(replayed.as_ref(), Some(&generated.value), "{spec:?}");
            assert!(many.can_generate(&generated.value), "{spec:?}");
            in_collections += 1;
        }
    }
    assert!(
        made > 50 && in_collections > 40,
        "{made} made ({in_collections} in collections), {none_valid} without a valid value"
    );
}

/// Search trees of keys 0..=9 with four nodes or more, from unordered trees at size 30: about
/// one tree in 16 000.
fn large_search_tree(t: &Tree) -> bool {
    is_bst(t, 0, 9) && format!("{t:?}").matches("Node").count() >= 4
}

#[test]
fn valid_by_gradient_finds_values_a_filter_gives_up_on() {
    let mut rng = DefaultRng::seed_from_u64(5);
    let filtered = sized_tree(0, 9).filter(large_search_tree);
    let filter_made = (0..20)
        .filter(|_| filtered.try_generate(&mut rng, 30).is_ok())
        .count();
    assert!(filter_made < 10, "the filter made {filter_made} of 20");
    let steered = sized_tree(0, 9).valid_by_gradient(large_search_tree, 10);
    let values: Vec<Tree> = (0..20)
        .map(|_| steered.generate_value(&mut rng, 30))
        .collect();
    assert!(values.iter().all(large_search_tree));
    let distinct: std::collections::HashSet<String> =
        values.iter().map(|t| format!("{t:?}")).collect();
    assert!(distinct.len() > 10, "{} distinct", distinct.len());
}

#[test]
fn valid_by_gradient_shrinks_and_mutates_to_values_the_predicate_accepts() {
    use reflective::check::{Config, try_check_with};
    let search_tree = |t: &Tree| is_bst(t, 0, 9);
    let trees = sized_tree(0, 9).valid_by_gradient(search_tree, 10);
    let nodes = |t: &Tree| format!("{t:?}").matches("Node").count();
    // Small sizes, where search trees of two nodes are common (gradient sampling favours
    // leaves, which are always valid, at large sizes).
    let config = Config::new()
        .cases(100)
        .max_size(6)
        .seed(3)
        .regressions(false);
    let report = try_check_with(&config, &trees, |t: &Tree| nodes(t) < 2)
        .expect_err("some search tree has two nodes")
        .to_string();
    let minimal = reflective_tests::report_section(&report, "minimal counterexample:\n");
    assert_eq!(minimal.matches("Node").count(), 2, "{report}");
    // What gradient sampling spent is in the report's statistics.
    assert!(
        report.contains("  gradient sampling (`valid_by_gradient`) made "),
        "{report}"
    );
    let mutator = trees.mutator();
    let parent = Tree::node(
        Tree::node(Tree::Leaf, 2, Tree::Leaf),
        5,
        Tree::node(Tree::Leaf, 7, Tree::node(Tree::Leaf, 9, Tree::Leaf)),
    );
    assert!(search_tree(&parent));
    // Shrinking a fixture keeps to search trees: without the predicate, the simplest tree
    // of two nodes would be `Node(Node(Leaf, 0, Leaf), 0, Leaf)`, keys not in order.
    let shrunk = trees.shrink(parent.clone(), |t| nodes(t) >= 2);
    assert!(search_tree(&shrunk) && nodes(&shrunk) == 2, "{shrunk:?}");
    // Mutants are distinct by the choices their values are made of (a filter's rejected
    // attempts, which the predicate's redraws leave in a tree, do not count), so each is a
    // value of its own.
    let mutants: Vec<Tree> = mutator
        .mutants(&parent, 1)
        .unwrap()
        .take(200)
        .map(|mutant| mutant.value)
        .collect();
    let distinct: std::collections::HashSet<String> =
        mutants.iter().map(|t| format!("{t:?}")).collect();
    assert!(mutants.len() >= 10, "{} mutants", mutants.len());
    assert_eq!(distinct.len(), mutants.len(), "{mutants:?}");
    assert!(!mutants.contains(&parent));
    assert!(mutants.iter().all(search_tree), "{mutants:?}");
}

#[test]
fn valid_by_gradient_reports_a_predicate_no_value_satisfies_and_a_panicking_one() {
    let never = sized_tree(0, 9)
        .valid_by_gradient(|t| !is_bst(t, 0, 9) && is_bst(t, 0, 9), 2)
        .max_samples(2_000);
    let error = never
        .try_generate(&mut DefaultRng::seed_from_u64(0), 30)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("gradient sampling found no value the predicate accepts in ")
            && error.contains("raise `ValidByGradient::max_samples`"),
        "{error}"
    );
    let panicking = sized_tree(0, 9).valid_by_gradient(
        |t| {
            assert!(!matches!(t, Tree::Node(_, 0, _)), "key 0 at the root");
            true
        },
        2,
    );
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        (0..50).for_each(|seed| drop(panicking.sample(seed)));
    }))
    .unwrap_err();
    let message = |panicked: Box<dyn std::any::Any + Send>| {
        panicked
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default()
    };
    let reported = |message: &str| {
        message.starts_with("the validity predicate panicked on Node(")
            && message.ends_with(": key 0 at the root")
    };
    assert!(reported(&message(panicked)));
    // Reflecting, as the filter it is then.
    let zero = Tree::node(Tree::Leaf, 0, Tree::Leaf);
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        panicking.can_generate(&zero)
    }))
    .unwrap_err();
    assert!(reported(&message(panicked)));
}

#[test]
fn a_descent_for_a_runner_case_stops_where_it_has_spent_its_samples() {
    // 300 choices, each scoring ten candidates by ten samples: 30 000 samples a descent.
    let long = vec(range(0u8..=9), 300..=300);
    let sorted = long.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(10);
    let (_, whole) = sorted.one(0, 100).unwrap();
    assert!(whole.samples > 20_000, "{whole:?}");
    let (_, cut) = sorted.max_descent_samples(2_000).one(0, 100).unwrap();
    assert_eq!(cut.samples, 2_000, "{cut:?}");
}

#[test]
fn the_learned_generator_is_a_generator_whose_values_replay_reflect_and_shrink() {
    let specs = Spec::arbitrary_reflective();
    let mut rng = DefaultRng::seed_from_u64(12);
    let mut tuned = 0;
    for round in 0..100u64 {
        let spec = specs.generate_value(&mut rng, 12);
        let g = build(&spec);
        let gradient = g.gradient(one_in_three).samples(3).size(20);
        let learned = gradient.learned(gradient.run(round, 300).unwrap().history);
        let Ok(generated) = learned.try_generate(&mut DefaultRng::seed_from_u64(round), 20) else {
            continue;
        };
        let value = &generated.value;
        assert_eq!(
            learned.replay(&generated.tree).as_ref(),
            Some(value),
            "{spec:?}"
        );
        assert_eq!(g.replay(&generated.tree).as_ref(), Some(value), "{spec:?}");
        assert!(learned.can_generate(value), "{spec:?}: {value:?}");
        let again = learned.generate_value(&mut DefaultRng::seed_from_u64(round), 20);
        assert_eq!(&again, value, "{spec:?}: the same seed, without recording");
        tuned += 1;
    }
    assert!(tuned > 80, "{tuned} of 100");
    // Through the runner, a failure shrinks as the lists' would: to the shortest sorted list
    // that fails, whatever the weights made.
    use reflective::check::{Config, try_check_with};
    let lists = vec(range(0u8..=9), 0..=6);
    let sorted = lists.gradient(|xs: &Vec<u8>| xs.is_sorted()).samples(20);
    let learned = sorted.learned(sorted.run(3, 20_000).unwrap().history);
    let valid = |g: &dyn Fn(u64) -> Vec<u8>| (0..2_000).filter(|&s| g(s).is_sorted()).count();
    let (tuned, plain) = (valid(&|s| learned.sample(s)), valid(&|s| lists.sample(s)));
    assert!(tuned > 2 * plain, "learned {tuned}, plain {plain}");
    let config = Config::new().cases(200).seed(1).regressions(false);
    let report = try_check_with(&config, &learned, |xs: &Vec<u8>| xs.len() < 4)
        .expect_err("some list is four long")
        .to_string();
    let minimal = reflective_tests::report_section(&report, "minimal counterexample:\n");
    assert!(
        reflective_tests::compact(minimal).starts_with("[0,0,0,0]"),
        "{report}"
    );
}

#[test]
fn valid_by_gradient_searches_where_the_run_is_under_every_size_strategy() {
    use reflective::Strategy;
    let wanted = |xs: &Vec<u8>| xs.len() >= 3 && xs.is_sorted();
    let lists = vec(range(0u8..=9), 0..=8);
    for strategy in Strategy::ALL {
        // Alone, and as the elements of a collection, which share its size.
        let alone = lists
            .clone()
            .valid_by_gradient(wanted, 5)
            .size_strategy(strategy);
        let nested = vec(lists.clone().valid_by_gradient(wanted, 5), 2..=2).size_strategy(strategy);
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..30 {
            let generated = alone
                .try_generate(&mut DefaultRng::seed_from_u64(seed), 20)
                .unwrap_or_else(|error| panic!("{strategy:?}, seed {seed}: {error}"));
            assert!(
                wanted(&generated.value),
                "{strategy:?}: {:?}",
                generated.value
            );
            assert_eq!(alone.replay(&generated.tree), Some(generated.value.clone()));
            // The plain draw and a descent's value are recorded, ten choices at most each,
            // with the random strategy's own choice: more would be descents' values rejected
            // when replayed in the run.
            assert!(
                generated.tree.choices().len() <= 2 * 10 + 1,
                "{strategy:?}: {}",
                generated.tree
            );
            distinct.insert(generated.value);
            let pair = nested
                .try_generate(&mut DefaultRng::seed_from_u64(seed), 20)
                .unwrap_or_else(|error| panic!("{strategy:?}, seed {seed}: {error}"));
            assert!(
                pair.value.iter().all(wanted),
                "{strategy:?}: {:?}",
                pair.value
            );
            assert_eq!(nested.replay(&pair.tree), Some(pair.value.clone()));
        }
        assert!(distinct.len() >= 15, "{strategy:?}: {distinct:?}");
    }
}

#[test]
fn valid_by_gradient_keeps_the_runner_going_and_a_failing_generator_fails_at_once() {
    use reflective::check::{Config, try_check_with};
    let trees = sized_tree(0, 9)
        .resize(30)
        .valid_by_gradient(large_search_tree, 10);
    let config = Config::new().cases(40).seed(1).regressions(false);
    if let Err(report) = try_check_with(&config, &trees, large_search_tree) {
        panic!("{report}");
    }
    // A generator that fails fails as it does alone, after one draw, not after descents.
    let never = range(0u8..=9).filter(|_| false);
    let steered = never.clone().valid_by_gradient(|_| true, 10);
    let alone = || drop(never.try_generate(&mut DefaultRng::seed_from_u64(0), 10));
    // Descents would take hundreds of times as long (a helper measured 8 s against 0.5 ms).
    let error = reflective_tests::within_times_of(20, alone, || {
        steered.try_generate(&mut DefaultRng::seed_from_u64(0), 10)
    })
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("a filter rejected 1000 values in a row"),
        "{error}"
    );
}

/// Lists of three digits or more, sorted.
fn sorted_three(xs: &[u8]) -> bool {
    xs.len() >= 3 && xs.is_sorted()
}

/// A derived recursive type with a field of sorted lists found by gradient sampling.
#[derive(Clone, Debug, PartialEq, reflective::Reflective)]
enum Sorted {
    Leaf,
    Node {
        left: Box<Sorted>,
        #[reflective(generator = "reflective::vec(reflective::range(0u8..=9), 0..=8)
                .valid_by_gradient(|xs: &Vec<u8>| sorted_three(xs), 5)")]
        xs: Vec<u8>,
        right: Box<Sorted>,
    },
}

/// Every list of `tree`.
fn lists_of(tree: &Sorted) -> Vec<&Vec<u8>> {
    match tree {
        Sorted::Leaf => Vec::new(),
        Sorted::Node { left, xs, right } => {
            let mut lists = lists_of(left);
            lists.push(xs);
            lists.extend(lists_of(right));
            lists
        }
    }
}

#[test]
fn valid_by_gradient_and_the_learned_generator_keep_the_laws_inside_a_derived_recursive_value() {
    let g = Sorted::arbitrary_reflective();
    let gradient = g.gradient(|t: &Sorted| lists_of(t).len() >= 2).samples(3);
    let learned = gradient.learned(gradient.run(1, 2_000).unwrap().history);
    let mut made = 0;
    for seed in 0..30u64 {
        for (name, g) in [("derived", &g), ("learned", &learned.clone().boxed())] {
            let size = 10 + seed as usize;
            let Ok(generated) = g.try_generate(&mut DefaultRng::seed_from_u64(seed), size) else {
                continue;
            };
            let value = &generated.value;
            assert!(
                lists_of(value).iter().all(|xs| sorted_three(xs)),
                "{name}: {value:?}"
            );
            assert_eq!(
                g.replay(&generated.tree).as_ref(),
                Some(value),
                "{name}: {value:?}"
            );
            let again = g.generate_value(&mut DefaultRng::seed_from_u64(seed), size);
            assert_eq!(&again, value, "{name}: the same seed, without recording");
            assert!(g.can_generate(value), "{name}: {value:?}");
            made += 1;
        }
    }
    assert!(made > 30, "{made} values");
}

#[test]
fn choices_score_by_their_distinct_valid_samples_as_the_paper_does() {
    // One branch is one value, the other one of a hundred, every value valid: the paper's
    // score (the size of the set of valid samples) gives the first branch 1 and the second
    // about 18 of 20, so descents end in the second about 95 times in 100. Counting every
    // valid sample would score them alike and take each half of the time.
    let g = one_of([exact(0u8).boxed(), range(1u8..=100).boxed()]);
    let gradient = g.gradient(|_: &u8| true).samples(20);
    let wide = (0..400u64)
        .filter(|&seed| {
            let (value, _) = gradient.one(seed, 10).unwrap();
            value.expect("every value is valid").value != 0
        })
        .count();
    assert!(
        (350..=399).contains(&wide),
        "{wide} of 400 descents in the wide branch"
    );
}
