//! The dropping rule of environment C (Khemka et al., §III.B) with state
//! kept across mapping events.
//!
//! At every mapping event a mappable task is dropped when its best
//! utility, completing at the earliest P-state-0 completion over the
//! machine types it may run on (each type started at its earliest
//! availability), is below the drop threshold. Done from scratch this is
//! one utility evaluation (an `exp`) and one pass over the machine types
//! per mappable task per event, for hundreds of tasks that wait event
//! after event.
//!
//! Two things make it cheap and give exactly the same decisions:
//!
//! - the earliest completion depends only on the task's *type*, so it is
//!   computed once per task type per event (`earliest_completions`), by
//!   the same sums and the same minimum as the per-task rule;
//! - each task keeps a certificate (`Dropping::keep_until`): a time after
//!   arrival `c`, s, at which its utility was evaluated (with the same
//!   [`crate::model::utility::UtilityFunction::value`]) and found at least
//!   the threshold times `1 + 1e-9`. A utility function never rises with
//!   the completion time (it is built non-increasing; its evaluation is
//!   within a few units in the last place of that function, far below the
//!   relative margin of 1e-9), so every completion no later than `c` after
//!   arrival is evaluated at no less than the threshold: the task is kept
//!   without evaluating it. Only a task whose completion is past its
//!   certificate is evaluated, exactly as before, and its certificate then
//!   moves on: to where the function's pieces put the crossing of the
//!   threshold with a slightly larger margin
//!   ([`crate::model::utility::UtilityFunction::last_at_least`]), if an
//!   evaluation there confirms the margin, else by doubling steps of
//!   60 s. So a task is evaluated about twice in its life (on arrival and
//!   once near its drop), not at every event as its utility decays.
//!
//! Each certificate is also kept as an absolute time with the task's type,
//! side by side for all tasks (16 bytes a task, where the task itself
//! spans several cache lines): the latest completion `d` whose time after
//! arrival, `d − arrival` as the rule computes it, is within the
//! certificate. A completion no later than `d` is within it too
//! (subtraction rounds monotonically), so most tasks are kept on one
//! comparison without touching the task; the rest take the path above.
//!
//! A certificate never says "drop": a task is dropped only on an exact
//! evaluation below the threshold, so a dropped task and its drop time are
//! the from-scratch rule's, and a kept task is one the from-scratch rule
//! keeps.

use super::EnergyScenario;

/// Relative margin above the drop threshold a certificate's utility must
/// clear (far above the rounding of a utility evaluation, ~1e-15).
const MARGIN: f64 = 1e-9;

/// The first step, s, by which a certificate is pushed past an evaluated
/// completion when the crossing worked out from the pieces does not
/// confirm; each further step doubles it.
const FIRST_STEP_S: f64 = 60.0;

/// How many doubling steps an exact evaluation may try to move its task's
/// certificate on (each is one utility evaluation).
const STEPS: u32 = 8;

/// Per task type, the earliest P-state-0 completion (s) over the machine
/// types it may run on, type `mt` being available from `type_avail[mt]`
/// (infinite where none may run): the time at which the dropping rule
/// evaluates every task of that type. `etc0_by_machine_type` holds the
/// P-state-0 ETCs machine type by machine type (one entry per task type
/// each), so that the minimum runs over all task types at once, in the
/// order of the machine types, as the per-task rule takes it.
fn earliest_completions(etc0_by_machine_type: &[f64], type_avail: &[f64], out: &mut Vec<f64>) {
    let task_types = etc0_by_machine_type.len() / type_avail.len().max(1);
    out.clear();
    out.resize(task_types, f64::INFINITY);
    // An infinite ETC (invalid pair) gives an infinite sum: the minimum of
    // the valid ones, as when the invalid are left out.
    for (column, &a) in etc0_by_machine_type
        .chunks_exact(task_types)
        .zip(type_avail)
    {
        for (done, &etc) in out.iter_mut().zip(column) {
            *done = done.min(a + etc);
        }
    }
}

/// The dropping rule's state across mapping events: one certificate per
/// task.
#[derive(Debug, Clone)]
pub struct Dropping {
    /// Per task, a completion time after arrival (s) up to which its
    /// utility is known to be at least the threshold (−∞: none yet).
    keep_until: Vec<f64>,
    /// Per task, the latest completion (s from the start) within its
    /// certificate (−∞: none yet), and its task type.
    until: Vec<(f64, u32)>,
    /// The drop threshold, value units.
    threshold: f64,
    /// The scenario's P-state-0 ETCs ([`super::Matrices::etc_table`])
    /// machine type by machine type.
    etc0: Vec<f64>,
    /// Scratch: the earliest completion per task type at this event.
    done: Vec<f64>,
}

impl Dropping {
    /// No certificates yet, for the tasks of `s` and the drop threshold
    /// `threshold` (value units).
    pub fn new(s: &EnergyScenario, threshold: f64) -> Self {
        Dropping {
            keep_until: vec![f64::NEG_INFINITY; s.tasks.len()],
            until: s
                .tasks
                .iter()
                .map(|t| (f64::NEG_INFINITY, t.task_type as u32))
                .collect(),
            threshold,
            etc0: {
                let (rows, types) = (s.matrices.task_types(), s.matrices.machine_types.len());
                let etc0 = s.matrices.etc_table(0);
                (0..types * rows)
                    .map(|k| etc0[(k % rows) * types + k / rows])
                    .collect()
            },
            done: Vec::new(),
        }
    }

    /// Keeps in `mappable` the tasks whose best utility, completing at the
    /// earliest P-state-0 completion with machine type `mt` available from
    /// `type_avail[mt]` (s), is at least the threshold; calls `dropped` with
    /// each other task, in the order of `mappable`.
    pub fn retain(
        &mut self,
        s: &EnergyScenario,
        type_avail: &[f64],
        mappable: &mut Vec<usize>,
        mut dropped: impl FnMut(usize),
    ) {
        earliest_completions(&self.etc0, type_avail, &mut self.done);
        // (A threshold ≤ 0 drops nothing: a utility is never negative.)
        let need = self.threshold.max(self.threshold * (1.0 + MARGIN));
        mappable.retain(|&i| {
            let (until, ty) = self.until[i];
            let done = self.done[ty as usize];
            if done <= until {
                return true;
            }
            let task = &s.tasks[i];
            let elapsed = done - task.arrival;
            if elapsed <= self.keep_until[i] {
                return true;
            }
            let u = &task.utility;
            let v = u.value(elapsed);
            if v < self.threshold {
                dropped(i);
                return false;
            }
            if v >= need {
                self.keep_until[i] = elapsed;
                // Where the function's shape puts the margin's crossing
                // (a little further in, so that rounding leaves it above):
                // a certificate to there if its evaluation confirms it.
                let t = u.last_at_least(need * (1.0 + MARGIN));
                if t > elapsed && u.value(t) >= need {
                    self.keep_until[i] = t;
                } else {
                    let mut step = FIRST_STEP_S;
                    for _ in 0..STEPS {
                        let t = elapsed + step;
                        if u.value(t) < need {
                            break;
                        }
                        self.keep_until[i] = t;
                        step *= 2.0;
                    }
                }
                self.until[i].0 = latest_within(task.arrival, self.keep_until[i]);
            }
            true
        });
    }
}

/// The latest time `d` (s) with `d − arrival ≤ keep` as computed in
/// floating point (from `arrival + keep`, stepped down while the
/// difference rounds above `keep`, then up while the next one's does not):
/// every completion up to `d` is within a certificate of `keep` seconds
/// after `arrival`, as the rounded difference never falls as `d` grows.
fn latest_within(arrival: f64, keep: f64) -> f64 {
    if keep == f64::INFINITY {
        // (A threshold of 0 or less: kept for ever.)
        return keep;
    }
    let mut d = arrival + keep;
    while d - arrival > keep {
        d = d.next_down();
    }
    while d.next_up() - arrival <= keep {
        d = d.next_up();
    }
    d
}

/// The dropping rule from scratch, one utility evaluation per task (the
/// engine's rule before the state above): the reference the tests compare
/// [`Dropping`] with.
pub fn retain_from_scratch(
    s: &EnergyScenario,
    type_avail: &[f64],
    threshold: f64,
    mappable: &mut Vec<usize>,
    mut dropped: impl FnMut(usize),
) {
    mappable.retain(|&i| {
        let task = &s.tasks[i];
        let done = type_avail
            .iter()
            .enumerate()
            .filter_map(|(mt, &a)| Some(a + s.matrices.etc(task.task_type, mt, 0)?))
            .fold(f64::INFINITY, f64::min);
        if task.utility.value(done - task.arrival) < threshold {
            dropped(i);
            false
        } else {
            true
        }
    });
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;
    use crate::env::energy::workload::{SyntheticParams, synthetic};
    use crate::model::rng::stream;

    /// Event after event, with machine types available at random times
    /// (so completions move both ways), the certificates keep and drop
    /// exactly the tasks the from-scratch rule does, in the same order.
    #[test]
    fn certificates_keep_and_drop_what_the_from_scratch_rule_does() {
        let params = SyntheticParams {
            tasks_per_day: 3000.0,
            ..SyntheticParams::default()
        };
        let s = synthetic(&params, 3, 0).expect("trial");
        let types = s.matrices.machine_types.len();
        for (k, threshold) in [0.5, 2.0, 0.0, 7.9].into_iter().enumerate() {
            let mut rng = stream(11, k as u64);
            let mut state = Dropping::new(&s, threshold);
            let (mut kept, mut reference) = (Vec::new(), Vec::new());
            let (mut next, mut now, mut drops) = (0, 0.0, 0);
            let mut avail = vec![0.0; types];
            while now < s.window.1 {
                while next < s.tasks.len() && s.tasks[next].arrival <= now {
                    kept.push(next);
                    reference.push(next);
                    next += 1;
                }
                for a in &mut avail {
                    *a = now + rng.random_range(0.0..2400.0);
                }
                let (mut dropped, mut dropped_ref) = (Vec::new(), Vec::new());
                state.retain(&s, &avail, &mut kept, |i| dropped.push(i));
                retain_from_scratch(&s, &avail, threshold, &mut reference, |i| {
                    dropped_ref.push(i)
                });
                assert_eq!(dropped, dropped_ref, "threshold {threshold}, time {now}");
                assert_eq!(kept, reference, "threshold {threshold}, time {now}");
                drops += dropped.len();
                now += 60.0;
            }
            // The rule did drop tasks (except with a threshold of 0).
            assert_eq!(drops == 0, threshold == 0.0, "threshold {threshold}");
        }
    }

    /// The absolute form of a certificate is the latest completion within
    /// it: its time after arrival is within the certificate and the next
    /// float's is not, for arrivals and certificates of every magnitude
    /// the engine meets (and odd ones).
    #[test]
    fn latest_within_is_the_last_float_inside_the_certificate() {
        assert_eq!(latest_within(5.0, f64::INFINITY), f64::INFINITY);
        let mut rng = stream(12, 0);
        for k in 0..100_000 {
            let arrival = match k % 4 {
                0 => rng.random_range(0.0..93_600.0),
                1 => rng.random_range(0.0..1.0),
                2 => f64::from(rng.random_range(0u32..93_600)),
                _ => rng.random_range(-1e6..1e9),
            };
            let keep = match k % 3 {
                0 => rng.random_range(0.0..50_000.0),
                1 => f64::from(rng.random_range(0u32..50_000)) * 0.1,
                _ => rng.random_range(-10.0..1e-3),
            };
            let d = latest_within(arrival, keep);
            assert!(d - arrival <= keep, "{arrival} {keep}: {d}");
            assert!(
                d.next_up() - arrival > keep,
                "{arrival} {keep}: {d} is not the latest"
            );
        }
    }

    /// A certificate is only ever set where the utility clears the
    /// threshold with the margin.
    #[test]
    fn certificates_hold_where_they_are_set() {
        let params = SyntheticParams {
            tasks_per_day: 2000.0,
            ..SyntheticParams::default()
        };
        let s = synthetic(&params, 5, 0).expect("trial");
        let types = s.matrices.machine_types.len();
        let mut state = Dropping::new(&s, 0.5);
        let mut all: Vec<usize> = (0..s.tasks.len()).collect();
        for extra in [0.0, 600.0, 3600.0, 7200.0] {
            let avail = vec![s.window.0 + extra; types];
            state.retain(&s, &avail, &mut all, |_| {});
        }
        let mut set = 0;
        for (i, &c) in state.keep_until.iter().enumerate() {
            if c.is_finite() {
                set += 1;
                assert!(s.tasks[i].utility.value(c) >= 0.5 * (1.0 + MARGIN));
            }
        }
        assert!(set > 0);
    }
}
