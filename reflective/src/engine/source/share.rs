//! The length a collection takes as its share of a budget it shares with its siblings: the
//! Agata thesis' division of size among the values of one level, drawn one share at a time.
//!
//! A collection whose siblings share a budget of `budget` units with it, `parts` of them after
//! it (counting the unused rest as one more), takes the share a uniformly random split of the
//! budget into `parts + 1` piles gives the first pile: the number of units before the first of
//! `parts` separators, in a uniformly random order of the units and separators. Drawing each
//! sibling's share this way, from what the ones before it left, gives every split the same
//! probability, so no sibling's share depends on its position. The draw stops early at the
//! longest length the collection allows (it takes every longer share as that one) and starts
//! at its shortest (the units before it are forced).

/// Draws a share in `lo..=hi` (`lo <= hi <= budget`) of `budget` units shared with `parts`
/// more piles, using `below(n)`, a uniform draw from `0..n`: one draw per unit taken. With no
/// other pile (`parts` 0) the share is every unit it may take.
pub(crate) fn sample(
    lo: i128,
    hi: i128,
    budget: usize,
    parts: usize,
    below: &mut impl FnMut(u64) -> u64,
) -> i128 {
    if parts == 0 {
        return hi;
    }
    let mut share = lo;
    let mut units = (budget as u64).saturating_sub(lo as u64);
    let separators = parts as u64;
    while share < hi && units > 0 {
        if below(units.saturating_add(separators)) < separators {
            break;
        }
        share += 1;
        units -= 1;
    }
    share
}

/// The probability that [`sample`] draws `value`.
pub(crate) fn probability(value: i128, lo: i128, hi: i128, budget: usize, parts: usize) -> f64 {
    if !(lo..=hi).contains(&value) {
        return 0.0;
    }
    if parts == 0 {
        return if value == hi { 1.0 } else { 0.0 };
    }
    let units = (budget as u64).saturating_sub(lo as u64);
    let taken = (value - lo) as u64;
    let top = (hi - lo) as u64;
    let parts = parts as u64;
    let all = ln_choose(units.saturating_add(parts), parts);
    let ways = if taken < top {
        // Exactly `taken` units, then a separator: the rest in any order.
        ln_choose((units - taken).saturating_add(parts - 1), parts - 1)
    } else {
        // At least `top` units first.
        ln_choose((units - top).saturating_add(parts), parts)
    };
    (ways - all).exp()
}

/// `ln C(n, k)`.
fn ln_choose(n: u64, k: u64) -> f64 {
    ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
}

/// `ln n!`: exact sums below 256, Stirling's series with four terms above (an error below
/// 1e-13 there).
pub(crate) fn ln_factorial(n: u64) -> f64 {
    const EXACT: u64 = 256;
    if n < EXACT {
        return (2..=n).map(|k| (k as f64).ln()).sum();
    }
    let x = n as f64;
    let inverse = 1.0 / x;
    let inverse2 = inverse * inverse;
    x * x.ln() - x
        + 0.5 * (std::f64::consts::TAU * x).ln()
        + inverse * (1.0 / 12.0 - inverse2 * (1.0 / 360.0 - inverse2 * (1.0 / 1260.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probabilities sum to 1 and match the draws' frequencies; the siblings' shares of one
    /// budget are exchangeable.
    #[test]
    fn shares_are_distributed_as_a_uniform_split() {
        for (lo, hi, budget, parts) in [(0, 10, 10, 1), (0, 10, 10, 3), (2, 7, 12, 2), (0, 0, 5, 2)]
        {
            let total: f64 = (lo..=hi)
                .map(|value| probability(value, lo, hi, budget, parts))
                .sum();
            assert!(
                (total - 1.0).abs() < 1e-9,
                "{lo} {hi} {budget} {parts}: {total}"
            );
        }
        // Two siblings and the rest share 6 units: every split (a, b, rest) is equally likely,
        // 1 / C(8, 2) = 1/28.
        for a in 0..=6i128 {
            for b in 0..=(6 - a) {
                let p = probability(a, 0, 6, 6, 2) * probability(b, 0, 6 - a, 6 - a as usize, 1);
                assert!((p - 1.0 / 28.0).abs() < 1e-12, "{a} {b}: {p}");
            }
        }
        // The draws follow the probabilities.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut below = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut counts = [0u32; 11];
        for _ in 0..100_000 {
            counts[sample(0, 10, 10, 3, &mut below) as usize] += 1;
        }
        for (value, &count) in counts.iter().enumerate() {
            let expected = 100_000.0 * probability(value as i128, 0, 10, 10, 3);
            assert!((f64::from(count) - expected).abs() < 5.0 * expected.sqrt() + 5.0);
        }
    }

    #[test]
    fn large_factorials_follow_the_exact_sums() {
        let exact: f64 = (2..=1000u64).map(|k| (k as f64).ln()).sum();
        assert!((ln_factorial(1000) - exact).abs() < 1e-9);
    }
}
