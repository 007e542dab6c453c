//! [`Holes`]: the parts of a value a backward run generates instead of reflecting (completion).
//!
//! A hole is a part of the given value, told apart by its address and its type's name: a
//! focus that reaches a part at a hole's address, of the hole's type, hands it to the forward
//! engine, which generates it with the run's random number generator. A hole whose part
//! cannot be generated there (a collection too long for memory at a huge size) is noted, for
//! the error that says why.

use rand_xoshiro::Xoshiro256PlusPlus;

/// The holes of one completion, with the randomness that fills them.
#[derive(Debug)]
pub(crate) struct Holes {
    /// Each hole's address and type name.
    places: Vec<(usize, &'static str)>,
    /// Whether each hole was reached by a focus.
    pub(crate) reached: Vec<bool>,
    /// Draws the choices of the parts generated in the holes.
    pub(crate) rng: Xoshiro256PlusPlus,
    /// The hole [`Holes::contains`] found last: the one being generated.
    last: usize,
    /// The first hole whose part could not be generated, with the generator's reason.
    pub(crate) not_generated: Option<(usize, String)>,
}

impl Holes {
    /// The holes at `places` (address, type name), filled with `rng`.
    pub(crate) fn new(places: Vec<(usize, &'static str)>, rng: Xoshiro256PlusPlus) -> Holes {
        Holes {
            reached: vec![false; places.len()],
            places,
            rng,
            last: 0,
            not_generated: None,
        }
    }

    /// Whether `part` is one of the holes; marks it reached if it is.
    pub(crate) fn contains<B: ?Sized>(&mut self, part: &B) -> bool {
        let place = (address(part), std::any::type_name::<B>());
        match self.places.iter().position(|&hole| hole == place) {
            Some(index) => {
                self.reached[index] = true;
                self.last = index;
                true
            }
            None => false,
        }
    }

    /// Notes that the part of the hole being generated could not be, for `why`; the first
    /// such hole is kept.
    pub(crate) fn not_generated(&mut self, why: String) {
        self.not_generated.get_or_insert((self.last, why));
    }
}

/// The address of `part`, as a number (never read through).
pub(crate) fn address<B: ?Sized>(part: &B) -> usize {
    std::ptr::from_ref(part).cast::<()>() as usize
}
