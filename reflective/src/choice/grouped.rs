//! [`Grouped`]: indices grouped by a parent each, in one buffer, as the spans of a tree are
//! grouped under the span that holds them.

/// The indices `0..n` grouped by their parents, each group in increasing order: one buffer
/// for all groups (a counting sort of the indices by parent), not one vector per group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grouped {
    /// Every group's members, one group after another.
    members: Vec<usize>,
    /// Where each group starts in `members`, and where the last one ends.
    starts: Vec<usize>,
}

impl Grouped {
    /// Index `i` in the group `parents[i]`, of `groups` groups (every parent below `groups`).
    pub(crate) fn by_parent(parents: &[usize], groups: usize) -> Grouped {
        // Group `g`'s size goes at `g + 2`; summed, `g + 1` holds where its members start,
        // moved on as they are placed, so that it ends where they end: then `g` holds where
        // they start, and the extra entry goes.
        let mut starts = vec![0; groups + 2];
        for &parent in parents {
            starts[parent + 2] += 1;
        }
        for at in 2..starts.len() {
            starts[at] += starts[at - 1];
        }
        let mut members = vec![0; parents.len()];
        for (index, &parent) in parents.iter().enumerate() {
            members[starts[parent + 1]] = index;
            starts[parent + 1] += 1;
        }
        starts.pop();
        Grouped { members, starts }
    }

    /// The members of group `group`, in increasing order.
    pub(crate) fn of(&self, group: usize) -> &[usize] {
        &self.members[self.starts[group]..self.starts[group + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_group_holds_its_members_in_order() {
        let parents = [3, 0, 0, 3, 1, 0];
        let grouped = Grouped::by_parent(&parents, 4);
        let groups: Vec<&[usize]> = (0..4).map(|group| grouped.of(group)).collect();
        assert_eq!(groups, [&[1, 2, 5][..], &[4], &[], &[0, 3]]);
        assert_eq!(Grouped::by_parent(&[], 1).of(0), &[] as &[usize]);
    }

    /// Every assignment of up to six indices to up to four groups, against a vector per group.
    #[test]
    fn groups_are_a_vector_per_group_for_every_small_assignment() {
        for groups in 1..=4usize {
            for n in 0..=6u32 {
                for code in 0..groups.pow(n) {
                    let parents: Vec<usize> = (0..n)
                        .map(|place| code / groups.pow(place) % groups)
                        .collect();
                    let mut expected = vec![Vec::new(); groups];
                    for (index, &parent) in parents.iter().enumerate() {
                        expected[parent].push(index);
                    }
                    let grouped = Grouped::by_parent(&parents, groups);
                    for (group, members) in expected.iter().enumerate() {
                        assert_eq!(grouped.of(group), members, "{parents:?}");
                    }
                }
            }
        }
    }
}
