//! The neutral schedule record every environment can produce, and the
//! checker every environment shares: no unit runs two pieces at once, and
//! every unit a piece names exists.
//!
//! A schedule is a list of [`Piece`]s: a task holding some units of one
//! resource pool over a half-open interval `[start, end)` (s). A pool is a
//! cluster of environment A (units are its nodes) or the machine of
//! environment D (units are its processors or nodes); a task that is
//! suspended and resumed contributes one piece per run. Intervals are
//! half-open, so a piece ending at `t` and one starting at `t` on the same
//! unit do not overlap.
//!
//! What a schedule must also satisfy beyond this (run times, arrival
//! times, value, capacity over time, priorities) depends on the
//! environment and is checked there (`env::parallel::check`,
//! `env::classic::check`), which turn the violations found here into their
//! own words.

use super::nodeset::NodeSet;

/// One task holding `units` of pool `pool` over `[start, end)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Resource pool index (cluster of environment A; 0 for the single
    /// machine of environment D).
    pub pool: usize,
    /// The units held, 0-based within the pool.
    pub units: NodeSet,
    /// Task index (in the environment's list of tasks or jobs).
    pub task: usize,
    /// The task's SWF job number, for messages.
    pub job: i64,
    /// Start, s.
    pub start: f64,
    /// End (exclusive), s.
    pub end: f64,
}

/// A broken invariant of a schedule of [`Piece`]s.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Violation {
    /// Two pieces hold one unit at overlapping times.
    #[error(
        "pool {pool} unit {unit}: job {a} [{a_start}, {a_end}) overlaps job {b} [{b_start}, {b_end})"
    )]
    Overlap {
        /// Pool index.
        pool: usize,
        /// Unit index within the pool.
        unit: u32,
        /// Job number of the piece that starts first.
        a: i64,
        /// Its start, s.
        a_start: f64,
        /// Its end, s.
        a_end: f64,
        /// Job number of the piece that starts inside it.
        b: i64,
        /// Its start, s.
        b_start: f64,
        /// Its end, s.
        b_end: f64,
    },
    /// A piece names a unit the pool does not have, or a pool that does not
    /// exist (then `pool_size` is 0).
    #[error("job {job}: piece at {start} s uses unit {unit} of pool {pool}, which has {pool_size}")]
    OutsidePool {
        /// Job number.
        job: i64,
        /// Start of the piece, s.
        start: f64,
        /// Pool index.
        pool: usize,
        /// The first unit out of range.
        unit: u32,
        /// Units of the pool (0 if the pool does not exist).
        pool_size: u32,
    },
}

/// Checks `pieces` on pools of `pool_sizes` units: every unit a piece names
/// lies in its pool, and no unit holds two pieces at overlapping times.
/// Returns every violation (empty when sound): each piece with a unit out
/// of range once (the first such unit), and, on each unit with its pieces
/// in order of start (then end, then the order given), each piece that
/// starts before the one before it has ended. A unit with any overlap
/// therefore yields at least one violation, naming two of the jobs
/// involved.
pub fn check(pieces: &[Piece], pool_sizes: &[u32]) -> Vec<Violation> {
    let mut out = Vec::new();
    // Per pool, per unit: indices into `pieces`.
    let mut per_unit: Vec<Vec<Vec<usize>>> = pool_sizes
        .iter()
        .map(|&n| vec![Vec::new(); n as usize])
        .collect();
    for (k, p) in pieces.iter().enumerate() {
        let size = pool_sizes.get(p.pool).copied().unwrap_or(0);
        for u in p.units.iter() {
            if u >= size {
                out.push(Violation::OutsidePool {
                    job: p.job,
                    start: p.start,
                    pool: p.pool,
                    unit: u,
                    pool_size: size,
                });
                break;
            }
            per_unit[p.pool][u as usize].push(k);
        }
    }
    for (pool, units) in per_unit.iter_mut().enumerate() {
        for (unit, held) in units.iter_mut().enumerate() {
            held.sort_by(|&a, &b| {
                let (x, y) = (&pieces[a], &pieces[b]);
                x.start.total_cmp(&y.start).then(x.end.total_cmp(&y.end))
            });
            for w in held.windows(2) {
                let (a, b) = (&pieces[w[0]], &pieces[w[1]]);
                if b.start < a.end {
                    out.push(Violation::Overlap {
                        pool,
                        unit: unit as u32,
                        a: a.job,
                        a_start: a.start,
                        a_end: a.end,
                        b: b.job,
                        b_start: b.start,
                        b_end: b.end,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(pool: usize, units: &[u32], job: i64, start: f64, end: f64) -> Piece {
        Piece {
            pool,
            units: NodeSet::from_nodes(units.iter().copied()),
            task: job as usize,
            job,
            start,
            end,
        }
    }

    #[test]
    fn a_piece_ending_when_another_starts_does_not_overlap_it() {
        let p = [
            piece(0, &[0, 1], 1, 0.0, 10.0),
            piece(0, &[1, 2], 2, 10.0, 20.0),
        ];
        assert!(check(&p, &[3]).is_empty());
    }

    #[test]
    fn overlap_names_the_pool_the_unit_both_jobs_and_their_times() {
        let p = [
            piece(0, &[0], 9, 0.0, 5.0),
            piece(1, &[0, 1], 1, 0.0, 10.0),
            piece(1, &[1, 2], 2, 5.0, 20.0),
        ];
        assert_eq!(
            check(&p, &[1, 3]),
            [Violation::Overlap {
                pool: 1,
                unit: 1,
                a: 1,
                a_start: 0.0,
                a_end: 10.0,
                b: 2,
                b_start: 5.0,
                b_end: 20.0,
            }]
        );
    }

    #[test]
    fn the_same_units_in_two_pools_are_different_units() {
        let p = [piece(0, &[0], 1, 0.0, 10.0), piece(1, &[0], 2, 0.0, 10.0)];
        assert!(check(&p, &[1, 1]).is_empty());
    }

    #[test]
    fn a_piece_nested_inside_a_long_one_is_caught() {
        // C lies inside A but not next to it in start order.
        let p = [
            piece(0, &[0], 1, 0.0, 100.0),
            piece(0, &[0], 2, 10.0, 20.0),
            piece(0, &[0], 3, 30.0, 40.0),
        ];
        let v = check(&p, &[1]);
        assert!(!v.is_empty());
        assert!(
            v.iter()
                .all(|x| matches!(x, Violation::Overlap { a: 1, .. }))
        );
    }

    #[test]
    fn units_outside_the_pool_or_a_missing_pool_are_reported_once_per_piece() {
        let p = [
            piece(0, &[2, 3, 4], 7, 1.0, 2.0),
            piece(5, &[0], 8, 1.0, 2.0),
        ];
        assert_eq!(
            check(&p, &[3]),
            [
                Violation::OutsidePool {
                    job: 7,
                    start: 1.0,
                    pool: 0,
                    unit: 3,
                    pool_size: 3,
                },
                Violation::OutsidePool {
                    job: 8,
                    start: 1.0,
                    pool: 5,
                    unit: 0,
                    pool_size: 0,
                },
            ]
        );
    }
}
