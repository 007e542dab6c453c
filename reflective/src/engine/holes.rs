//! [`Holes`]: the parts of a value a backward run generates instead of reflecting (completion).
//!
//! A hole is a part of the given value, told apart by its address and its type's name: a
//! focus that reaches a part at a hole's address, of the hole's type, hands it to the forward
//! engine, which generates it with the run's random number generator. The run also notes the
//! type of the first part that no way produces, for the error that names it.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::choice::Label;

/// The holes of one completion, with the randomness that fills them.
#[derive(Debug)]
pub(crate) struct Holes {
    /// Each hole's address and type name.
    places: Vec<(usize, &'static str)>,
    /// Whether each hole was reached by a focus.
    pub(crate) reached: Vec<bool>,
    /// Draws the choices of the parts generated in the holes.
    pub(crate) rng: Xoshiro256PlusPlus,
    /// The type of the first part (innermost first) that a focus reached and no way produced,
    /// with its path.
    pub(crate) first_failure: Option<(&'static str, Vec<Label>)>,
    /// The names of the parts (pick branches, named focuses) the run is inside.
    pub(crate) path: Vec<Label>,
}

impl Holes {
    /// The holes at `places` (address, type name), filled with `rng`.
    pub(crate) fn new(places: Vec<(usize, &'static str)>, rng: Xoshiro256PlusPlus) -> Holes {
        Holes {
            reached: vec![false; places.len()],
            places,
            rng,
            first_failure: None,
            path: Vec::new(),
        }
    }

    /// Whether `part` is one of the holes; marks it reached if it is.
    pub(crate) fn contains<B: ?Sized>(&mut self, part: &B) -> bool {
        let place = (address(part), std::any::type_name::<B>());
        match self.places.iter().position(|&hole| hole == place) {
            Some(index) => {
                self.reached[index] = true;
                true
            }
            None => false,
        }
    }
}

/// The address of `part`, as a number (never read through).
pub(crate) fn address<B: ?Sized>(part: &B) -> usize {
    std::ptr::from_ref(part).cast::<()>() as usize
}
