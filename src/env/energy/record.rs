//! Environment C's runs as neutral records ([`crate::output::record`]),
//! from which the time series, `--export` and the per-user tables are
//! written. A task holds one machine from its start to its end (start +
//! ETC in its P-state); it waits from its arrival until it starts, is
//! dropped, or the run ends (never mapped), needing its type's ETC in the
//! fastest P-state averaged over the machines it may run on, in
//! machine-seconds (the machine is not known while it waits). The series
//! runs from the start of the counted day (or the first arrival, when
//! earlier) to the last mapping event or execution end. Batsim's row of a
//! task: its machine as resource, its execution time as walltime, its
//! energy (APC × execution time, J) and `pstate=` as metadata.

use super::EnergyScenario;
use super::engine::{EnergyRun, TaskFate};
use super::summary::earned;
use crate::output::{Fate, Machine, Piece, Record, RecordedJob};

/// Mean ETC of task type `i` in P-state 0 over the machines it may run
/// on, s (NaN when none).
fn mean_etc(s: &EnergyScenario, i: usize) -> f64 {
    let m = &s.matrices;
    let (mut sum, mut n) = (0.0, 0.0);
    for (k, t) in m.machine_types.iter().enumerate() {
        if let Some(etc) = m.etc(i, k, 0) {
            sum += etc * f64::from(t.machines);
            n += f64::from(t.machines);
        }
    }
    if n > 0.0 { sum / n } else { f64::NAN }
}

/// The record of `run` on scenario `s` (machines are always named).
pub fn record(s: &EnergyScenario, run: &EnergyRun) -> Record {
    let first = s.tasks.iter().map(|t| t.arrival).fold(s.window.0, f64::min);
    let end = run
        .executions
        .iter()
        .map(|e| e.end)
        .chain(run.events.iter().map(|e| e.time))
        .chain(s.tasks.iter().map(|t| t.arrival))
        .fold(first, f64::max);
    let type_of = s.matrices.machine_type_of();
    let jobs = s
        .tasks
        .iter()
        .zip(&run.fates)
        .enumerate()
        .map(|(i, (t, fate))| {
            let exec = match *fate {
                TaskFate::Executed(x) => Some(&run.executions[x]),
                _ => None,
            };
            let mean = mean_etc(s, t.task_type);
            let energy = exec.and_then(|e| {
                s.matrices
                    .apc(t.task_type, type_of[e.machine], e.pstate.into())
                    .map(|apc| apc * (e.end - e.start))
            });
            RecordedJob {
                id: t.job_number,
                user: -1,
                group: -1,
                queue: -1,
                submit: t.arrival,
                requested_processors: 1,
                processors: 1,
                requested_resources: 1,
                requested_time: exec.map_or(mean, |e| e.end - e.start),
                run: exec.map_or(mean, |e| e.end - e.start),
                work: mean,
                pieces: exec
                    .map(|e| Piece {
                        start: e.start,
                        end: e.end,
                        units: 1.0,
                        resources: vec![e.machine as u32],
                        work_left: 0.0,
                    })
                    .into_iter()
                    .collect(),
                waits_until: match *fate {
                    TaskFate::Executed(_) => None,
                    TaskFate::Dropped(at) => Some(at),
                    TaskFate::Unmapped => Some(end),
                },
                fate: match *fate {
                    TaskFate::Executed(_) => Fate::Completed,
                    TaskFate::Dropped(_) => Fate::Dropped,
                    TaskFate::Unmapped => Fate::Unfinished,
                },
                earned: Some(earned(s, run, i)),
                energy_j: energy,
                note: exec.map_or(String::new(), |e| format!("pstate={}", e.pstate)),
            }
        })
        .collect();
    let machines = s.matrices.machines();
    Record {
        capacity: f64::from(machines),
        origin: first,
        end,
        by_queue: false,
        machine: Machine::Built {
            computer: format!(
                "{machines} machines of {} types with P-states (Khemka et al.)",
                s.matrices.machine_types.len()
            ),
            max_procs: u64::from(machines),
            log_clock: false,
        },
        jobs,
    }
}
