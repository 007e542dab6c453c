//! The probability of a value: the backward engine's weights along every way of producing it,
//! summed.

use crate::engine::ReflectError;
use crate::node::Node;

use super::reflect::Reflector;

impl<G: Node> Reflector<'_, G> {
    /// See [`Generator::probability_of`](crate::Generator::probability_of); the probability at this reflection's size.
    pub fn probability_of(&self, value: &G::Input) -> Result<f64, ReflectError> {
        Ok(self.log_probability_of(value)?.exp())
    }

    /// The natural logarithm of [`Reflector::probability_of`]: `-inf` for a value the generator
    /// cannot produce, and a finite number for every value it can, however unlikely (where
    /// the probability itself would round to 0).
    ///
    /// ```
    /// use reflective::prelude::*;
    /// let bits = vec(bool(), ..);
    /// let long = vec![true; 2000];
    /// let log_p = bits.reflector().size(2000).log_probability_of(&long).unwrap();
    /// assert!(log_p.is_finite() && log_p < -1000.0);
    /// assert_eq!(bits.reflector().log_probability_of(&long).unwrap(), f64::NEG_INFINITY);
    /// ```
    pub fn log_probability_of(&self, value: &G::Input) -> Result<f64, ReflectError> {
        let logs: Vec<f64> = self
            .weighed_solutions(value)?
            .iter()
            .map(|solution| solution.log_probability)
            .collect();
        Ok(log_sum_exp(&logs))
    }
}

/// `ln(sum(exp(x)))` over `logs`, without overflow or underflow: `-inf` for no terms.
pub(crate) fn log_sum_exp(logs: &[f64]) -> f64 {
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    top + logs.iter().map(|log| (log - top).exp()).sum::<f64>().ln()
}
