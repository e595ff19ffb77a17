//! The event loop of environment C (Khemka et al., §III; docs/energy.md,
//! "Mapping events").
//!
//! Mapping events are held every `event_interval` seconds from time 0 until
//! the end of the counted day. At each, in order:
//!
//! 1. the machines advance to the event: in the queued environment a task
//!    of a machine's queue starts when the one before it ends, and the task
//!    after the running one is *pending* (fixed); what is left in the
//!    queues (the virtual queues) goes back to the mappable tasks;
//! 2. the tasks that arrived since the last event join the mappable ones;
//! 3. every mappable task whose best utility in P-state 0 on any machine it
//!    may run on, started at that machine's availability time, is below the
//!    drop threshold is dropped (§III.B; per-task certificates kept across
//!    events spare most evaluations, [`super::dropping`]);
//! 4. with a filter, the fair share e_bud is computed ([`super::filter`]);
//! 5. the heuristic assigns ([`super::heuristics`]): in the queued
//!    environment to the end of any machine's queue, in the polled one at
//!    most one task to each idle machine, starting now.
//!
//! Energy is counted within the day (hours 3–26): a task's energy is its
//! APC times the part of its execution inside the day. With the static
//! power counted all day ([`RunConfig::static_all_day_w`]), the machines
//! also draw a constant static energy in the day, and the tasks may use E
//! less that: the filter's equations share out, and the hard budget
//! guards, what the tasks may use. An assignment is made only while the
//! energy of the started and pending tasks plus what this event has
//! assigned plus its own stays within it, so the day's energy never
//! exceeds E.

use std::time::Instant;

use super::dropping::{Dropping, retain_from_scratch as dropping_from_scratch};
use super::filter::{FairShare, FilterInputs, fair_share};
use super::heuristics::{self, Machines};
use super::{EnergyScenario, Management, Policy, RunConfig, window_energy};

/// One task's execution: on which machine and P-state, when, s from the
/// start of the simulation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Execution {
    /// The task (index into the scenario's tasks).
    pub task: usize,
    /// The machine (0-based, type by type).
    pub machine: usize,
    /// The P-state (0 fastest).
    pub pstate: u8,
    /// Start, s.
    pub start: f64,
    /// End (start + ETC), s.
    pub end: f64,
}

/// What became of a task.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TaskFate {
    /// Never assigned, never dropped (it arrived after the last event, or
    /// no choice ever passed).
    Unmapped,
    /// Dropped at this time, s.
    Dropped(f64),
    /// Started: its execution (index into [`EnergyRun::executions`]).
    Executed(usize),
}

/// What one mapping event did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventRecord {
    /// Time, s.
    pub time: f64,
    /// Mappable tasks after dropping.
    pub mappable: u32,
    /// Tasks dropped.
    pub dropped: u32,
    /// Assignments made.
    pub assigned: u32,
    /// e_cons + e_unmov at the event, J.
    pub committed: f64,
    /// τ_rem at the event: Σ over machines of (end of the day −
    /// max(availability time, start of the day)), s (Khemka et al. §III.C).
    pub time_left: f64,
    /// The filter's figures (`None` without a filter).
    pub fair_share: Option<FairShare>,
}

/// One simulated day.
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyRun {
    /// Every task's fate, by task index.
    pub fates: Vec<TaskFate>,
    /// Every started (or pending at the end) execution, in commit order.
    pub executions: Vec<Execution>,
    /// One record per mapping event.
    pub events: Vec<EventRecord>,
    /// Energy the tasks used in the counted day, J: their APC times their
    /// time in the day (the energy the choices control).
    pub energy: f64,
    /// Static energy the machines drew in the counted day whatever the
    /// schedule, J ([`RunConfig::static_energy`]; 0 unless the static power
    /// counts all day).
    pub static_j: f64,
    /// The budget E the run had, J (`None`: no budget): the day's energy,
    /// `static_j` included.
    pub budget: Option<f64>,
    /// The first mapping event at which the budget refused a choice that
    /// passed everything else, s (`None`: it never did).
    pub exhausted_at: Option<f64>,
    /// Wall time of steps 3–5 per mapping event, s: sum and maximum (not
    /// deterministic).
    pub heuristic_seconds: (f64, f64),
}

struct State<'a> {
    s: &'a EnergyScenario,
    cfg: RunConfig,
    type_of: Vec<usize>,
    /// Started or pending executions per machine, in order.
    committed: Vec<Vec<usize>>,
    /// The virtual queue per machine: (task, P-state, planned start), in
    /// order.
    queue: Vec<Vec<(usize, u8, f64)>>,
    executions: Vec<Execution>,
    fates: Vec<TaskFate>,
    energy: f64,
}

impl State<'_> {
    fn last_end(&self, m: usize) -> Option<(f64, f64)> {
        self.committed[m].last().map(|&x| {
            let e = &self.executions[x];
            (e.start, e.end)
        })
    }

    /// Leaves out of `tasks` those that have started (or are pending).
    fn leave_started(&self, tasks: &mut Vec<usize>) {
        tasks.retain(|&i| !matches!(self.fates[i], TaskFate::Executed(_)));
    }

    fn commit(&mut self, task: usize, machine: usize, pstate: u8, start: f64) {
        let ty = self.s.tasks[task].task_type;
        let mt = self.type_of[machine];
        let m = &self.s.matrices;
        let (Some(etc), Some(apc)) = (m.etc(ty, mt, pstate.into()), m.apc(ty, mt, pstate.into()))
        else {
            unreachable!("heuristics assign valid choices only");
        };
        let end = start + etc;
        self.energy += window_energy(apc, start, end, self.s.window);
        self.fates[task] = TaskFate::Executed(self.executions.len());
        self.committed[machine].push(self.executions.len());
        self.executions.push(Execution {
            task,
            machine,
            pstate,
            start,
            end,
        });
    }

    /// Moves machine `m`'s queue forward to time `t`: while the last
    /// committed task has started by `t`, the next queued one is committed
    /// at its planned start (it is pending, or has started).
    fn advance(&mut self, m: usize, t: f64) {
        let mut k = 0;
        while k < self.queue[m].len() {
            if self.last_end(m).is_some_and(|(s, _)| s > t) {
                break;
            }
            let (task, p, start) = self.queue[m][k];
            self.commit(task, m, p, start);
            k += 1;
        }
        self.queue[m].drain(..k);
    }
}

/// Simulates `scenario` under `policy` with `config` (Khemka et al., §III).
///
/// The schedule is deterministic: the same inputs give the same run (the
/// Random heuristic draws from a stream of the scenario's seed); only
/// [`EnergyRun::heuristic_seconds`] varies.
pub fn simulate(scenario: &EnergyScenario, policy: Policy, config: &RunConfig) -> EnergyRun {
    run(scenario, policy, config, false)
}

/// [`simulate`] without any of the state kept across events or the
/// shortcuts it allows: the drop rule evaluated from scratch at every
/// event ([`super::dropping::retain_from_scratch`]) and the heuristics'
/// reference implementation ([`heuristics::reference`]) in place of their
/// loops; the reference the tests compare [`simulate`] with.
#[cfg(test)]
pub(crate) fn simulate_from_scratch(
    scenario: &EnergyScenario,
    policy: Policy,
    config: &RunConfig,
) -> EnergyRun {
    run(scenario, policy, config, true)
}

fn run(scenario: &EnergyScenario, policy: Policy, config: &RunConfig, scratch: bool) -> EnergyRun {
    let s = scenario;
    let type_of = s.matrices.machine_type_of();
    let machines = type_of.len();
    let mut st = State {
        s,
        cfg: *config,
        type_of,
        committed: vec![Vec::new(); machines],
        queue: vec![Vec::new(); machines],
        executions: Vec::new(),
        fates: vec![TaskFate::Unmapped; s.tasks.len()],
        energy: 0.0,
    };
    let (mean_etc, mean_eec) = s.matrices.means();
    let orders = heuristics::ChoiceOrders::new(&s.matrices);
    let task_order = heuristics::TaskOrder::new(s);
    let floors: Vec<(f64, f64)> = (0..s.matrices.machine_types.len())
        .map(|mt| s.matrices.floors(mt))
        .collect();
    let total_time = machines as f64 * (s.window.1 - s.window.0);
    // What the choices may use: E less the static energy drawn all day.
    let static_j = config.static_energy(s);
    let allowance = config.budget.map(|b| b - static_j);
    let mut rng = heuristics::random_stream(s.seed);
    let mut dropping = Dropping::new(s, config.drop_threshold);
    // (Only polled Min-Min keeps utility bounds across events.)
    let keeps_bounds =
        matches!(policy, Policy::MinMin(_)) && config.management == Management::Polled;
    let mut bounds = heuristics::UtilityBounds::new(if keeps_bounds { s.tasks.len() } else { 0 });
    // The tasks neither started nor dropped, in ascending index order
    // (every step below keeps it): at a mapping event, after step 1, the
    // mappable tasks; between events, also those in the virtual queues,
    // which step 1 gives back to the mappable tasks.
    let mut mappable: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut events = Vec::new();
    let mut exhausted_at = None;
    let (mut sum_s, mut max_s) = (0.0f64, 0.0f64);
    let mut k: u64 = 0;
    loop {
        let now = k as f64 * s.event_interval;
        if now >= s.window.1 {
            break;
        }
        k += 1;
        // 1. Advance; the virtual queues go back to the mappable tasks
        // (they never left `mappable`: only the tasks that started by now
        // do).
        let started = st.executions.len();
        for m in 0..machines {
            st.advance(m, now);
            // (Cleared, not taken: each queue keeps its memory.)
            st.queue[m].clear();
        }
        if st.executions.len() > started {
            st.leave_started(&mut mappable);
        }
        // 2. Arrivals, above every index so far.
        while next < s.tasks.len() && s.tasks[next].arrival <= now {
            mappable.push(next);
            next += 1;
        }
        debug_assert!(mappable.is_sorted());
        let clock = Instant::now();
        let avail: Vec<f64> = (0..machines)
            .map(|m| st.last_end(m).map_or(now, |(_, e)| e.max(now)))
            .collect();
        // 3. Dropping.
        let before = mappable.len();
        let mut type_avail = vec![f64::INFINITY; s.matrices.machine_types.len()];
        for (m, &a) in avail.iter().enumerate() {
            let t = &mut type_avail[st.type_of[m]];
            *t = t.min(a);
        }
        // Utility never rises with the completion time: the best is the
        // earliest P-state-0 completion over the machine types.
        let fates = &mut st.fates;
        let drop = |i| fates[i] = TaskFate::Dropped(now);
        if scratch {
            dropping_from_scratch(s, &type_avail, config.drop_threshold, &mut mappable, drop);
        } else {
            dropping.retain(s, &type_avail, &mut mappable, drop);
        }
        let dropped = (before - mappable.len()) as u32;
        // 4. The filter.
        let time_left: f64 = avail
            .iter()
            .map(|&a| (s.window.1 - a.max(s.window.0)).max(0.0))
            .sum();
        let share = allowance.and_then(|budget| {
            fair_share(
                st.cfg.filter,
                &FilterInputs {
                    budget,
                    committed: st.energy,
                    time_left,
                    mean_etc,
                    mean_eec,
                    total_time,
                },
            )
        });
        // 5. The heuristic.
        let polled = st.cfg.management == Management::Polled;
        let mut pool = Machines::new(&st.type_of, s.matrices.machine_types.len(), polled, |m| {
            if polled {
                (now, avail[m] <= now)
            } else {
                (avail[m], true)
            }
        });
        let ctx = heuristics::Context {
            scenario: s,
            now,
            e_bud: share.map(|f| f.e_bud),
            budget_left: allowance.map_or(f64::INFINITY, |b| b - st.energy),
            orders: &orders,
            track_refusal: exhausted_at.is_none(),
            task_order: &task_order,
        };
        // Once the budget has refused a choice, an event at which no
        // available machine can fit even the cheapest choice is skipped
        // (nothing could be assigned).
        let hopeless = exhausted_at.is_some()
            && (0..machines)
                .filter(|&m| !polled || avail[m] <= now)
                .map(|m| {
                    let (eec, apc) = floors[st.type_of[m]];
                    let ready = if polled { now } else { avail[m] };
                    eec.min(apc * (s.window.1 - ready.max(s.window.0)).max(0.0))
                })
                .all(|floor| floor > ctx.budget_left);
        let outcome = if hopeless {
            heuristics::Outcome::default()
        } else if scratch {
            heuristics::reference::assign(policy, &ctx, &mappable, &mut pool, &mut rng)
        } else {
            heuristics::assign(policy, &ctx, &mappable, &mut pool, &mut rng, &mut bounds)
        };
        let seconds = clock.elapsed().as_secs_f64();
        sum_s += seconds;
        max_s = max_s.max(seconds);
        if outcome.refused && exhausted_at.is_none() {
            exhausted_at = Some(now);
        }
        let committed_before = st.energy;
        let assigned = outcome.assignments.len() as u32;
        for a in &outcome.assignments {
            if polled {
                st.commit(a.task, a.machine, a.pstate, now);
            } else {
                st.queue[a.machine].push((a.task, a.pstate, a.start));
            }
        }
        if !polled {
            for m in 0..machines {
                st.advance(m, now);
            }
        }
        // (Polled, every task assigned has started; queued, the tasks in
        // the virtual queues stay until the next event.)
        st.leave_started(&mut mappable);
        events.push(EventRecord {
            time: now,
            mappable: (before as u32) - dropped,
            dropped,
            assigned,
            committed: committed_before,
            time_left,
            fair_share: share,
        });
    }
    // The day ends: what would have started by then did.
    for m in 0..machines {
        st.advance(m, s.window.1);
        st.queue[m].clear();
    }
    EnergyRun {
        fates: st.fates,
        executions: st.executions,
        events,
        energy: st.energy,
        static_j,
        budget: config.budget,
        exhausted_at,
        heuristic_seconds: (sum_s, max_s),
    }
}
