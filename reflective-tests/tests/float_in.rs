//! `float_in`: the generator laws over many ranges of both float types; every value in a range,
//! also one never generated, reflects in one way and no value outside does; numbers come
//! evenly over the range, and its bounds now and then; shrinking goes to the least magnitude;
//! bad bounds panic with a message.

use std::ops::{Bound, RangeBounds};

use reflective::check::{Config, check_with};
use reflective::prelude::*;
use reflective_tests::laws::{Laws, panic_text};

/// Finite floats of every magnitude, and a few exact small ones.
fn finite() -> Gen<f64, f64> {
    float::<f64>().filter(|x: &f64| x.is_finite()).boxed()
}

#[test]
fn laws_of_float_in_over_ranges_of_every_kind() {
    Laws::new("float_in(0.0..1.0)", float_in(0.0..1.0))
        .unique()
        .check();
    Laws::new("float_in(-1e3..=1e3)", float_in(-1e3..=1e3))
        .unique()
        .check();
    Laws::new("float_in(..)", float_in::<f64>(..))
        .unique()
        .check();
    Laws::new("float_in(-1.0..-0.5)", float_in(-1.0..-0.5))
        .unique()
        .check();
    Laws::new("float_in(1.0..=1.0)", float_in(1.0..=1.0))
        .unique()
        .check();
    Laws::new("float_in(-5e-324..=5e-324)", float_in(-5e-324..=5e-324))
        .unique()
        .check();
    Laws::new("float_in(0.0f32..=1e30)", float_in(0.0f32..=1e30))
        .unique()
        .check();
    Laws::new("float_in(-0.1f32..0.1)", float_in(-0.1f32..0.1))
        .unique()
        .check();
}

/// `value`'s neighbours in the order of the floats (`-0.0` next to `0.0`).
fn neighbours(value: f64) -> [f64; 2] {
    [value.next_down(), value.next_up()]
}

#[test]
fn a_float_reflects_exactly_when_the_range_holds_it() {
    let bounds = tuple((finite(), finite(), bool(), bool()));
    check_with(
        &Config::new().cases(300).seed(29),
        &bounds,
        |&(a, b, low_in, high_in)| {
            let (low, high) = if a <= b { (a, b) } else { (b, a) };
            let low = if low_in {
                Bound::Included(low)
            } else {
                Bound::Excluded(low)
            };
            let high = if high_in {
                Bound::Included(high)
            } else {
                Bound::Excluded(high)
            };
            let range = (low, high);
            // As `contains`, but a bound of zero is the zero of its sign.
            let holds = |x: &f64| {
                let is = |bound: Bound<&f64>, zero: f64| matches!(bound, Bound::Included(y) if y.to_bits() == zero.to_bits());
                range.contains(x)
                    && !(x.to_bits() == (-0.0f64).to_bits() && is(range.start_bound(), 0.0))
                    && !(x.to_bits() == 0.0f64.to_bits() && is(range.end_bound(), -0.0))
            };
            let Ok(g) = std::panic::catch_unwind(|| float_in(range)) else {
                let (l, h) = (a.min(b), a.max(b));
                let candidates = [l, l.next_up(), h, h.next_down()];
                assert!(
                    !candidates.iter().any(holds),
                    "{range:?} panicked but holds a float"
                );
                return;
            };
            let mut rng = DefaultRng::seed_from_u64(a.to_bits());
            let mut probes: Vec<f64> = (0..30).map(|_| g.generate_value(&mut rng, 50)).collect();
            for x in probes.clone() {
                assert!(holds(&x), "{range:?} generated {x}");
            }
            probes.extend([
                a,
                b,
                0.0,
                -0.0,
                1.0,
                -1.0,
                f64::MAX,
                f64::MIN,
                f64::MIN_POSITIVE,
            ]);
            probes.extend([a, b].into_iter().flat_map(neighbours));
            for x in probes {
                let ways = g.choices(&x);
                assert_eq!(
                    ways.len(),
                    usize::from(holds(&x)),
                    "{range:?} reflecting {x:e}"
                );
                for way in ways {
                    assert_eq!(g.replay(&way).map(f64::to_bits), Some(x.to_bits()));
                }
            }
        },
    );
}

#[test]
fn numbers_come_evenly_over_the_range_and_its_bounds_and_least_magnitude_now_and_then() {
    for (low, high, least_magnitude) in [
        (0.0, 1.0, 0.0),
        (-1e3, 1e3, 0.0),
        (1e-3, 1e6, 1e-3),
        (-5.0, -4.0, -4.0),
    ] {
        let g = float_in(low..=high);
        let samples: Vec<f64> = (0..20_000).map(|seed| g.sample(seed)).collect();
        // The bounds and the value of least magnitude: about 5% each.
        for special in [low, high, least_magnitude] {
            let count = samples.iter().filter(|&&x| x == special).count();
            assert!(
                (800..1_200).contains(&count),
                "{low}..={high}: {count} of {special}"
            );
        }
        // The others evenly over the range: ten equal parts.
        let others: Vec<f64> = samples
            .into_iter()
            .filter(|&x| x != low && x != high && x != least_magnitude)
            .collect();
        let mut counts = [0usize; 10];
        for x in &others {
            counts[(((x - low) / (high - low)) * 10.0) as usize] += 1;
        }
        let expected = others.len() as f64 / 10.0;
        for count in counts {
            // Binomial spread about 40.
            assert!(
                (count as f64 - expected).abs() < 200.0,
                "{low}..={high}: {counts:?}"
            );
        }
    }
}

#[test]
fn a_failing_float_shrinks_to_the_least_magnitude_that_fails() {
    let unit = float_in(0.0..1.0);
    assert_eq!(unit.shrink(0.97, |x| *x >= 0.5), 0.5);
    assert_eq!(unit.shrink(0.97, |x| *x > 0.5), 0.5f64.next_up());
    assert_eq!(unit.shrink(0.3, |_| true), 0.0);
    let wide = float_in(-1e6..=1e6);
    // Towards the least magnitude binade by binade: the start of the next binade.
    assert_eq!(wide.shrink(-123_456.7, |x| *x < -3.0), -4.0);
    // From a bound, the shrinker does not leave the bound for a number within.
    assert_eq!(wide.shrink(1e6, |x| *x > 999_999.0), 1e6);
    assert_eq!(
        wide.shrink(999_999.5, |x| *x > 999_999.0),
        999_999.0f64.next_up()
    );
    assert_eq!(wide.shrink(1e6, |x| *x == 1e6), 1e6);
    let above = float_in(2.5f32..=7.0);
    assert_eq!(above.shrink(6.9, |x| *x > 3.0), 4.0);
    assert_eq!(above.shrink(6.9, |_| true), 2.5);
}

#[test]
fn bounds_that_are_not_finite_numbers_or_hold_no_float_panic_with_a_message() {
    let message = |make: fn() -> Gen<f64, f64>| {
        let payload = std::panic::catch_unwind(make).unwrap_err();
        panic_text(&*payload).to_string()
    };
    assert_eq!(
        message(|| float_in(0.0..f64::NAN)),
        "float_in: the bounds must be finite numbers: 0.0..NaN"
    );
    assert_eq!(
        message(|| float_in(f64::NEG_INFINITY..=0.0)),
        "float_in: the bounds must be finite numbers: -inf..=0.0"
    );
    assert_eq!(
        message(|| float_in(1.0..1.0)),
        "float_in: the range holds no float: 1.0..1.0"
    );
    assert_eq!(
        message(|| float_in(2.0..=1.0)),
        "float_in: the range holds no float: 2.0..=1.0"
    );
    assert_eq!(
        message(|| float_in(-0.0..0.0)),
        "float_in: the range holds no float: -0.0..0.0"
    );
}
