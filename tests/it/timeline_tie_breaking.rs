//! Node tie-breaking of environment A (Khemka et al. §3.2, Fig. 3;
//! docs/parallel.md, "Earliest slot and node choice") on a 4-node cluster,
//! built step by step; each step's choice is worked out in its comment.
//! Rule: fewest change in the count of idle slots (fill exactly −1, touch one
//! end 0, split +1), then the shortest idle slot, then the lowest index.

use swftool::sim::timeline::{ClusterTimeline, Hold};

fn place(c: &mut ClusterTimeline, start: f64, dur: f64, nodes: u32) -> String {
    c.place(0.0, start, dur, nodes, Hold::Committed)
        .expect("feasible")
        .to_string()
}

#[test]
fn nodes_are_chosen_by_idle_slot_change_then_slot_length() {
    let mut c = ClusterTimeline::new(4);
    // All idle from 0: every node touches its open slot at 0 (change 0,
    // length ∞): lowest index.
    assert_eq!(place(&mut c, 0.0, 5.0, 1), "0");
    // [0, 10) on 3 nodes: node 0 is busy at 0, so nodes 1-3.
    assert_eq!(place(&mut c, 0.0, 10.0, 3), "1-3");
    // [30, 40): node 0's slot [5, ∞) and nodes 1-3's [10, ∞) are all split
    // (+1, ∞): lowest index, node 0. Node 0 now has the slot [5, 30).
    assert_eq!(place(&mut c, 30.0, 10.0, 1), "0");
    // [25, 40): node 0's [5, 30) cannot hold it; nodes 1-3 split (+1): node 1,
    // which now has the slot [10, 25).
    assert_eq!(place(&mut c, 25.0, 15.0, 1), "1");
    // [10, 25): node 0 splits [5, 30) (+1); node 1 fills [10, 25) exactly
    // (−1); nodes 2-3 touch the start of [10, ∞) (0). Node 1 wins.
    assert_eq!(place(&mut c, 10.0, 15.0, 1), "1");
    // [10, 15): node 0 +1; nodes 2 and 3 touch (0) with equal slots (∞):
    // lowest index, node 2.
    assert_eq!(place(&mut c, 10.0, 5.0, 1), "2");
    // [12, 17): node 0 splits [5, 30) (+1, length 25); node 3 splits
    // [10, ∞) (+1, ∞); node 2's slot starts at 15. Equal change: the
    // shorter slot, node 0.
    assert_eq!(place(&mut c, 12.0, 5.0, 1), "0");
    // Node 0: [0,5) [12,17) [30,40).
    let b: Vec<(f64, f64)> = c.busy_of(0).iter().map(|b| (b.start, b.end)).collect();
    assert_eq!(b, vec![(0.0, 5.0), (12.0, 17.0), (30.0, 40.0)]);
}

#[test]
fn earliest_slot_uses_gaps_between_reservations() {
    let mut c = ClusterTimeline::new(2);
    c.place(0.0, 0.0, 10.0, 2, Hold::Committed).unwrap();
    c.place(0.0, 30.0, 10.0, 2, Hold::Committed).unwrap();
    // a 20 s two-node task fits exactly in [10, 30)
    assert_eq!(c.earliest_slot(0.0, 20.0, 2).unwrap().start, 10.0);
    // 21 s does not: after 40
    assert_eq!(c.earliest_slot(0.0, 21.0, 2).unwrap().start, 40.0);
    // from a later clock the past is ignored
    assert_eq!(c.earliest_slot(35.0, 1.0, 1).unwrap().start, 40.0);
}
