//! Sets of node indices kept as sorted, disjoint half-open ranges, so that a
//! 4,096-node allocation or a 16,000-node idle pool costs a few words.

use std::fmt;
use std::ops::Range;

/// A set of node indices (0-based within one cluster) as sorted, disjoint,
/// non-adjacent half-open ranges.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NodeSet {
    ranges: Vec<Range<u32>>,
}

impl NodeSet {
    /// The empty set.
    pub fn new() -> Self {
        NodeSet { ranges: Vec::new() }
    }

    /// Nodes `range.start .. range.end`.
    pub fn from_range(range: Range<u32>) -> Self {
        let mut s = NodeSet::new();
        if range.start < range.end {
            s.ranges.push(range);
        }
        s
    }

    /// Builds a set from node indices in any order (duplicates allowed).
    pub fn from_nodes(nodes: impl IntoIterator<Item = u32>) -> Self {
        let mut v: Vec<u32> = nodes.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        let mut s = NodeSet::new();
        for n in v {
            s.push_range(n..n + 1);
        }
        s
    }

    /// Number of nodes in the set.
    pub fn len(&self) -> u32 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The smallest node index, if any.
    pub fn first(&self) -> Option<u32> {
        self.ranges.first().map(|r| r.start)
    }

    /// The ranges, sorted and disjoint.
    pub fn ranges(&self) -> &[Range<u32>] {
        &self.ranges
    }

    /// Iterates over the node indices in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.ranges.iter().flat_map(|r| r.clone())
    }

    /// Whether `node` is in the set.
    pub fn contains(&self, node: u32) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= node);
        i < self.ranges.len() && self.ranges[i].start <= node
    }

    // Appends a range that lies after every range already in the set.
    fn push_range(&mut self, r: Range<u32>) {
        if let Some(last) = self.ranges.last_mut()
            && last.end == r.start
        {
            last.end = r.end;
            return;
        }
        self.ranges.push(r);
    }

    /// Removes and returns the `count` lowest nodes (all of them if the set
    /// is smaller).
    pub fn take_lowest(&mut self, count: u32) -> NodeSet {
        let mut taken = NodeSet::new();
        let mut left = count;
        let mut consumed = 0;
        for r in self.ranges.iter_mut() {
            if left == 0 {
                break;
            }
            let n = r.end - r.start;
            if n <= left {
                taken.push_range(r.clone());
                left -= n;
                consumed += 1;
            } else {
                taken.push_range(r.start..r.start + left);
                r.start += left;
                left = 0;
            }
        }
        self.ranges.drain(..consumed);
        taken
    }

    /// Adds every node of `other`.
    pub fn union_with(&mut self, other: &NodeSet) {
        if other.is_empty() {
            return;
        }
        let mut all: Vec<Range<u32>> = Vec::with_capacity(self.ranges.len() + other.ranges.len());
        all.append(&mut self.ranges);
        all.extend(other.ranges.iter().cloned());
        all.sort_unstable_by_key(|r| r.start);
        for r in all {
            match self.ranges.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => self.ranges.push(r),
            }
        }
    }
}

impl fmt::Display for NodeSet {
    /// Compact form: `0-15,32,40-41` (inclusive ranges).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if r.end - r.start == 1 {
                write!(f, "{}", r.start)?;
            } else {
                write!(f, "{}-{}", r.start, r.end - 1)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_lowest_splits_ranges() {
        let mut s = NodeSet::from_range(0..10);
        let t = s.take_lowest(3);
        assert_eq!(t.to_string(), "0-2");
        assert_eq!(s.to_string(), "3-9");
        assert_eq!(s.len(), 7);
    }

    #[test]
    fn union_merges_adjacent_ranges() {
        let mut a = NodeSet::from_nodes([0, 1, 5]);
        a.union_with(&NodeSet::from_nodes([2, 3, 4, 9]));
        assert_eq!(a.to_string(), "0-5,9");
        assert!(a.contains(4));
        assert!(!a.contains(6));
    }

    #[test]
    fn take_across_ranges() {
        let mut a = NodeSet::from_nodes([1, 2, 5, 6, 7]);
        let t = a.take_lowest(3);
        assert_eq!(t.to_string(), "1-2,5");
        assert_eq!(a.to_string(), "6-7");
    }
}
