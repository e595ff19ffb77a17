//! Per-user (per-group, per-queue) metrics and the fairness summary of a
//! schedule: any environment's per-job figures grouped by an id, and
//! Jain's fairness index (Jain, Chiu & Hawe, DEC-TR-301, 1984:
//! (Σx)² / (n·Σx²), 1 when every x is equal, 1/n when one takes all).

use std::collections::BTreeMap;

/// One group's figures: jobs, mean and max wait (s), mean bounded
/// slowdown, mean expansion factor.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GroupFigures {
    /// Jobs in the group.
    pub jobs: u64,
    /// Mean wait, s.
    pub wait_mean: f64,
    /// Largest wait, s.
    pub wait_max: f64,
    /// Mean bounded slowdown.
    pub bsld_mean: f64,
    /// Mean expansion factor.
    pub xfactor_mean: f64,
}

/// Groups jobs by `ids` (one per job, the order of `wait`, `bsld`,
/// `xfactor`), ascending by id.
pub fn by_group(
    ids: &[i64],
    wait: &[f64],
    bsld: &[f64],
    xfactor: &[f64],
) -> BTreeMap<i64, GroupFigures> {
    let mut sums: BTreeMap<i64, (u64, f64, f64, f64, f64)> = BTreeMap::new();
    for (k, &id) in ids.iter().enumerate() {
        let e = sums
            .entry(id)
            .or_insert((0, 0.0, f64::NEG_INFINITY, 0.0, 0.0));
        e.0 += 1;
        e.1 += wait[k];
        e.2 = e.2.max(wait[k]);
        e.3 += bsld[k];
        e.4 += xfactor[k];
    }
    sums.into_iter()
        .map(|(id, (n, w, wmax, b, x))| {
            let n_f = n as f64;
            (
                id,
                GroupFigures {
                    jobs: n,
                    wait_mean: w / n_f,
                    wait_max: wmax,
                    bsld_mean: b / n_f,
                    xfactor_mean: x / n_f,
                },
            )
        })
        .collect()
}

/// Jain's fairness index of `x` (non-negative values): (Σx)² / (n·Σx²);
/// `None` for no values or all zeros.
pub fn jain_index(x: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let sum: f64 = x.iter().sum();
    let squares: f64 = x.iter().map(|v| v * v).sum();
    (n > 0.0 && squares > 0.0).then(|| sum * sum / (n * squares))
}

/// The fairness summary over users of one schedule.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Fairness {
    /// Users with at least one job.
    pub users: u64,
    /// Jain's index over the users' mean bounded slowdowns.
    pub jain_bsld: f64,
    /// The user with the largest mean bounded slowdown (the lowest id on ties).
    pub worst_user: i64,
    /// That user's mean bounded slowdown.
    pub worst_user_bsld_mean: f64,
    /// Share of users whose mean wait exceeds a day (86,400 s), 0–1.
    pub share_users_wait_over_day: f64,
}

/// The fairness summary of per-user figures (from [`by_group`] over user
/// ids); `None` without users.
pub fn fairness(users: &BTreeMap<i64, GroupFigures>) -> Option<Fairness> {
    let bsld: Vec<f64> = users.values().map(|g| g.bsld_mean).collect();
    let (&worst_user, worst) =
        users
            .iter()
            .fold(None::<(&i64, &GroupFigures)>, |best, (id, g)| match best {
                Some((_, b)) if b.bsld_mean >= g.bsld_mean => best,
                _ => Some((id, g)),
            })?;
    let n = users.len() as f64;
    Some(Fairness {
        users: users.len() as u64,
        jain_bsld: jain_index(&bsld)?,
        worst_user,
        worst_user_bsld_mean: worst.bsld_mean,
        share_users_wait_over_day: users
            .values()
            .filter(|g| g.wait_mean > crate::units::SECONDS_PER_DAY)
            .count() as f64
            / n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_is_one_for_equal_shares_and_one_over_n_for_one_taker() {
        assert_eq!(jain_index(&[2.0, 2.0, 2.0]), Some(1.0));
        assert_eq!(jain_index(&[5.0, 0.0, 0.0, 0.0]), Some(0.25));
        // (1 + 3)² / (2 · (1 + 9)) = 16 / 20.
        assert_eq!(jain_index(&[1.0, 3.0]), Some(0.8));
        assert_eq!(jain_index(&[]), None);
    }

    /// Users 7 (two jobs: waits 0 and 200,000 s, bsld 1 and 3) and 2 (one
    /// job: wait 10 s, bsld 1): means 100,000 s / 2 and 10 s / 1; Jain over
    /// (1, 2) = 9 / 10; the worst is user 7; one user of two waits more
    /// than a day on average.
    #[test]
    fn users_grouped_and_summarised_by_hand() {
        let g = by_group(
            &[7, 2, 7],
            &[0.0, 10.0, 200_000.0],
            &[1.0, 1.0, 3.0],
            &[1.0, 1.5, 4.0],
        );
        assert_eq!(g.keys().copied().collect::<Vec<_>>(), [2, 7]);
        assert_eq!(g[&7].jobs, 2);
        assert_eq!(g[&7].wait_mean, 100_000.0);
        assert_eq!(g[&7].wait_max, 200_000.0);
        assert_eq!(g[&7].xfactor_mean, 2.5);
        let f = fairness(&g).unwrap();
        assert_eq!(f.users, 2);
        assert!((f.jain_bsld - 0.9).abs() < 1e-12);
        assert_eq!((f.worst_user, f.worst_user_bsld_mean), (7, 2.0));
        assert_eq!(f.share_users_wait_over_day, 0.5);
    }
}
