//! Collections of collections.

use std::collections::BTreeMap;

use reflective::prelude::*;

/// Up to 6 byte strings of up to 4 bytes each (biased bytes).
pub fn vec_of_vecs() -> Gen<Vec<Vec<u8>>, Vec<Vec<u8>>> {
    vec(vec(int::<u8>(), 0..=4), 0..=6)
}

/// Maybe a list of flags, each paired with a letter.
pub type OptionalPairs = Option<Vec<(bool, char)>>;

/// Maybe a list (as long as the size allows) of flags paired with a letter in `a..=f`.
pub fn optional_pairs() -> Gen<OptionalPairs, OptionalPairs> {
    option(vec(tuple((bool(), char_range('a'..='f'))), ..))
}

/// Up to 6 keys in `0..=20`, each with up to 3 flags.
pub fn flag_map() -> Gen<BTreeMap<u8, Vec<bool>>, BTreeMap<u8, Vec<bool>>> {
    btree_map(range(0u8..=20), vec(bool(), 0..=3), 0..=6)
}
