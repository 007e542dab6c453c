//! The pass that deletes blocks of consecutive choices.

use crate::node::Node;

use crate::interpret::shrink::search::Search;

impl<G: Node> Search<'_, G> {
    /// Deletes blocks of 8, 4, 2 and 1 consecutive choices, at every position.
    pub(super) fn delete_blocks(&mut self) {
        for width in [8, 4, 2, 1] {
            let mut start = 0;
            while start + width <= self.choices().len() {
                if self.exhausted() {
                    return;
                }
                let mut without = self.choices().to_vec();
                without.drain(start..start + width);
                if !self.try_choices(without) {
                    start += 1;
                    // Deleting the next block gives the same choices while the choice that
                    // comes into the block equals the one that leaves it.
                    let choices = self.choices();
                    while start + width <= choices.len()
                        && choices[start - 1] == choices[start - 1 + width]
                    {
                        start += 1;
                    }
                }
            }
        }
    }
}
