//! The schedule invariants of environment C, checked on every run the tests
//! and `replay` make (docs/energy.md): no machine runs two tasks at once
//! (the shared checker of [`crate::sim::schedule`]); a task runs once,
//! exactly its ETC in its P-state on a machine of a type it may run on,
//! never before it arrives; in the polled environment it starts at a
//! mapping event; the energy used is the sum of the executions' energy in
//! the day and, with the static energy drawn all day, stays within the
//! budget; no task earns more than its
//! priority.

use super::engine::{EnergyRun, TaskFate};
use super::window_energy;
use super::{EnergyScenario, Management};
use crate::sim::nodeset::NodeSet;
use crate::sim::schedule::{self, Piece};

/// Relative tolerance on sums of seconds and joules.
const EPS: f64 = 1e-9;

/// Every broken invariant of `run` on `s` under `management`, as a
/// sentence.
pub fn check(s: &EnergyScenario, run: &EnergyRun, management: Management) -> Vec<String> {
    let mut out = Vec::new();
    let type_of = s.matrices.machine_type_of();
    let mut first_of_type = vec![0usize; s.matrices.machine_types.len()];
    let mut at = 0;
    for (t, mt) in s.matrices.machine_types.iter().enumerate() {
        first_of_type[t] = at;
        at += mt.machines as usize;
    }
    let sizes: Vec<u32> = s
        .matrices
        .machine_types
        .iter()
        .map(|t| t.machines)
        .collect();
    let pieces: Vec<Piece> = run
        .executions
        .iter()
        .map(|e| {
            let t = type_of.get(e.machine).copied().unwrap_or(0);
            Piece {
                pool: t,
                units: NodeSet::from_nodes([(e.machine - first_of_type[t]) as u32]),
                task: e.task,
                job: s.tasks[e.task].job_number,
                start: e.start,
                end: e.end,
            }
        })
        .collect();
    out.extend(
        schedule::check(&pieces, &sizes)
            .into_iter()
            .map(|v| v.to_string()),
    );
    let mut energy = 0.0;
    let mut seen = vec![false; s.tasks.len()];
    for (k, e) in run.executions.iter().enumerate() {
        let task = &s.tasks[e.task];
        let job = task.job_number;
        if std::mem::replace(&mut seen[e.task], true) {
            out.push(format!("job {job}: runs twice"));
        }
        if run.fates[e.task] != TaskFate::Executed(k) {
            out.push(format!("job {job}: its fate does not name its execution"));
        }
        let Some(&mt) = type_of.get(e.machine) else {
            out.push(format!("job {job}: machine {} does not exist", e.machine));
            continue;
        };
        let p = usize::from(e.pstate);
        let (Some(etc), Some(apc)) = (
            s.matrices.etc(task.task_type, mt, p),
            s.matrices.apc(task.task_type, mt, p),
        ) else {
            out.push(format!(
                "job {job}: task type {} may not run on machine type {mt} (machine {})",
                task.task_type, e.machine
            ));
            continue;
        };
        if ((e.end - e.start) - etc).abs() > EPS * etc.max(1.0) {
            out.push(format!(
                "job {job}: ran {} s, its ETC in P-state {p} is {etc} s",
                e.end - e.start
            ));
        }
        if e.start < task.arrival {
            out.push(format!(
                "job {job}: starts at {} s, before it arrives ({} s)",
                e.start, task.arrival
            ));
        }
        if management == Management::Polled {
            let k = e.start / s.event_interval;
            if (k - k.round()).abs() > EPS {
                out.push(format!(
                    "job {job}: starts at {} s, not at a mapping event (polled)",
                    e.start
                ));
            }
        }
        let u = task.utility.value(e.end - task.arrival);
        if u > task.utility.priority() {
            out.push(format!(
                "job {job}: earns {u}, more than its priority {}",
                task.utility.priority()
            ));
        }
        energy += window_energy(apc, e.start, e.end, s.window);
    }
    for (i, f) in run.fates.iter().enumerate() {
        if let TaskFate::Executed(k) = f
            && run.executions.get(*k).is_none_or(|e| e.task != i)
        {
            out.push(format!(
                "job {}: executed, but execution {k} is another task's",
                s.tasks[i].job_number
            ));
        }
    }
    if (energy - run.energy).abs() > EPS * energy.max(1.0) {
        out.push(format!(
            "energy used {} J differs from the executions' {} J",
            run.energy, energy
        ));
    }
    if let Some(b) = run.budget
        && energy + run.static_j > b * (1.0 + EPS)
    {
        out.push(format!(
            "energy used {energy} J + {} J static exceeds the budget {b} J",
            run.static_j
        ));
    }
    out
}
