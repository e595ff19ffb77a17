//! What a mapping event gives a heuristic of environment C, and what it
//! gives back (Khemka et al., "Comparison of energy-constrained resource
//! allocation heuristics under different task management environments",
//! §III.A and §III.D; docs/energy.md, "The twelve heuristics").
//!
//! Prepared once per run from the scenario: [`ChoiceOrders`] (per task
//! type, its valid (machine type, P-state) choices sorted by ETC and by
//! EEC, and the tables the loops read in place of the matrices) and
//! [`TaskOrder`] (the priority classes of the prioritized orders). Made at
//! each mapping event: the [`Context`] (the filter's fair share e_bud and
//! what the budget has left) and the [`Machines`] available with their
//! ready times: in the queued environment every machine, ready at the end
//! of its queue so far; in the polled one the idle machines, ready now. A
//! heuristic gives back an [`Outcome`]: its [`Assignment`]s, in the order
//! made, and whether the budget refused a choice.

use std::cmp::Ordering;

use crate::env::energy::matrices::P_STATES;
use crate::env::energy::{EnergyScenario, Matrices};

/// What one mapping event may use, besides the machines.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The scenario.
    pub scenario: &'a EnergyScenario,
    /// The event's time, s.
    pub now: f64,
    /// The filter's fair share, J (`None`: no filter).
    pub e_bud: Option<f64>,
    /// E − (e_cons + e_unmov), J (infinite without a budget).
    pub budget_left: f64,
    /// The valid choices of every task type, in the orders Min-Min uses.
    pub orders: &'a ChoiceOrders,
    /// Whether the heuristic must report a refusal by the budget
    /// ([`Outcome::refused`]): only until the first one, which is all the
    /// engine records. Once it need not, a task whose every choice is
    /// certainly refused by the budget (a lower bound on its energy) is skipped
    /// without evaluating its choices.
    pub track_refusal: bool,
    /// The order of the prioritized heuristics.
    pub task_order: &'a TaskOrder,
}

/// Per task type, its valid (machine type, P-state) pairs by ascending EEC
/// and by ascending ETC (ties by machine type, then P-state), each with its
/// EEC (J) or ETC (s), as `evaluate` computes them: in these orders the
/// bounds of Max UPE and Max UPT, a bound on the task's utility (its
/// priority, or its utility at its earliest completion:
/// [`minmin`](super::minmin())) over the EEC or the ETC, only fall, so a
/// search can stop at the first that cannot win.
///
/// Also, per task type, its least ETC over its valid choices, and the most
/// energy any choice can take in the counted day.
#[derive(Debug, Clone)]
pub struct ChoiceOrders {
    pub(super) by_eec: Vec<Vec<(usize, usize, f64)>>,
    pub(super) by_etc: Vec<Vec<(usize, usize, f64)>>,
    /// Per task type, its least ETC, s (infinite: no valid choice).
    pub(super) least_etc: Vec<f64>,
    /// No choice's energy in the counted day exceeds it, J.
    pub(super) max_energy: f64,
    /// Per task type and machine type, its valid P-states (bit `p` set).
    pub(super) valid: Vec<u8>,
    /// Per task type and machine type, its ETC in P-state 0, s (infinite:
    /// not valid).
    pub(super) etc0: Vec<f64>,
    /// Per task type and machine type, its EEC in each P-state, J, as
    /// `evaluate` computes it (infinite: not valid): the filter's test
    /// without the matrices' lookups ([`Passing`](super::evaluate::Passing)).
    pub(super) eec: Vec<[f64; P_STATES]>,
    /// Per task type, its least EEC over its valid choices in P-state 0,
    /// and in any P-state, J (infinite: no valid choice).
    pub(super) least_eec: Vec<[f64; 2]>,
    /// Per task type, the machine types it may run on (bit `mt` set; 0
    /// for every task type where there are more than 64 machine types).
    pub(super) valid_types: Vec<u64>,
    /// Per task type, the machines of a type it may run on, by id: Random's
    /// candidates where every machine is open (the queued environment).
    pub(super) valid_machines: Vec<Vec<usize>>,
    /// The machines' types ([`Matrices::machine_type_of`]), which
    /// `valid_machines` holds for.
    pub(super) type_of: Vec<usize>,
}

impl ChoiceOrders {
    /// The orders of `matrices`.
    pub fn new(matrices: &Matrices) -> Self {
        let sorted = |i: usize, key: &dyn Fn(usize, usize) -> f64| {
            let mut v: Vec<(usize, usize, f64)> = (0..matrices.machine_types.len())
                .filter(|&mt| matrices.valid(i, mt))
                .flat_map(|mt| (0..P_STATES).map(move |p| (mt, p, key(mt, p))))
                .collect();
            v.sort_by(|a, b| a.2.total_cmp(&b.2).then((a.0, a.1).cmp(&(b.0, b.1))));
            v
        };
        let n = matrices.task_types();
        let types = matrices.machine_types.len();
        let choices =
            |i: usize| (0..types).flat_map(move |mt| (0..P_STATES).map(move |p| (i, mt, p)));
        let least_etc = (0..n)
            .map(|i| {
                choices(i)
                    .filter_map(|(i, mt, p)| matrices.etc(i, mt, p))
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        // Energy in the day is APC times at most ETC (the time of
        // [start, start + ETC] in the day); a second more covers the
        // rounding of start + ETC − start many times over.
        let max_energy = (0..n)
            .flat_map(choices)
            .filter_map(|(i, mt, p)| {
                Some(matrices.apc(i, mt, p)? * (matrices.etc(i, mt, p)? + 1.0))
            })
            .fold(0.0, f64::max);
        let valid = (0..n)
            .flat_map(|i| (0..types).map(move |mt| valid_mask(matrices, i, mt)))
            .collect();
        let eec: Vec<[f64; P_STATES]> = (0..n)
            .flat_map(|i| {
                (0..types).map(move |mt| {
                    std::array::from_fn(|p| {
                        match (matrices.etc(i, mt, p), matrices.apc(i, mt, p)) {
                            (Some(etc), Some(apc)) => etc * apc,
                            _ => f64::INFINITY,
                        }
                    })
                })
            })
            .collect();
        let least_eec = eec
            .chunks(types.max(1))
            .map(|row| {
                let p0 = row.iter().map(|e| e[0]).fold(f64::INFINITY, f64::min);
                let all = row.iter().flatten().copied().fold(f64::INFINITY, f64::min);
                [p0, all]
            })
            .collect();
        let valid_types = (0..n)
            .map(|i| {
                (0..types)
                    .filter(|&mt| types <= 64 && matrices.valid(i, mt))
                    .fold(0u64, |mask, mt| mask | 1 << mt)
            })
            .collect();
        let type_of = matrices.machine_type_of();
        let valid_machines = (0..n)
            .map(|i| {
                (0..type_of.len())
                    .filter(|&m| matrices.valid(i, type_of[m]))
                    .collect()
            })
            .collect();
        ChoiceOrders {
            valid,
            valid_types,
            valid_machines,
            type_of,
            eec,
            least_eec,
            etc0: matrices.etc_table(0),
            least_etc,
            max_energy,
            by_eec: (0..n)
                .map(|i| sorted(i, &|mt, p| matrices.eec(i, mt, p).unwrap_or(f64::INFINITY)))
                .collect(),
            by_etc: (0..n)
                .map(|i| sorted(i, &|mt, p| matrices.etc(i, mt, p).unwrap_or(f64::INFINITY)))
                .collect(),
        }
    }
}

/// The order of the prioritized heuristics (Prioritized-FCFS and
/// Prioritized-LCFS, Khemka et al. §III.D), prepared once per run: each
/// task's priority class (0 the highest priority) and whether the tasks'
/// arrivals never decrease with their index.
///
/// When they never decrease, ordering by (arrival, index) is ordering by
/// index, so the tasks of a mapping event (ascending index) ordered by
/// priority, then by arrival, are their stable grouping by priority class:
/// no comparison sort is needed. Otherwise [`ordered`](super::ordered())
/// sorts as the paper's rule says.
#[derive(Debug, Clone)]
pub struct TaskOrder {
    /// Per task, the rank of its priority among the distinct priorities,
    /// highest first.
    pub(super) class: Vec<u32>,
    /// How many distinct priorities.
    pub(super) classes: usize,
    /// Whether arrivals never decrease with the task index.
    pub(super) by_index: bool,
}

impl TaskOrder {
    /// The order of the tasks of `s`.
    pub fn new(s: &EnergyScenario) -> Self {
        let mut priorities: Vec<f64> = s.tasks.iter().map(|t| t.utility.priority()).collect();
        priorities.sort_by(|a, b| b.total_cmp(a));
        priorities.dedup_by(|a, b| a.total_cmp(b) == Ordering::Equal);
        let class = s
            .tasks
            .iter()
            .map(|t| {
                let p = t.utility.priority();
                priorities
                    .binary_search_by(|q| p.total_cmp(q))
                    .expect("every priority is listed") as u32
            })
            .collect();
        let by_index = s
            .tasks
            .windows(2)
            .all(|w| w[0].arrival.total_cmp(&w[1].arrival) != Ordering::Greater);
        TaskOrder {
            class,
            classes: priorities.len(),
            by_index,
        }
    }

    /// `tasks` (ascending index) by priority, highest first, then by
    /// arrival (ascending, or descending with `lcfs`; ties by index the
    /// same way), into `out`; `None` when arrivals do not follow the index.
    pub(super) fn by_priority(
        &self,
        tasks: &[usize],
        lcfs: bool,
        out: &mut Vec<usize>,
    ) -> Option<()> {
        if !self.by_index {
            return None;
        }
        // A stable counting sort by class of the tasks in (reversed) index
        // order.
        let mut start = vec![0usize; self.classes + 1];
        for &i in tasks {
            start[self.class[i] as usize + 1] += 1;
        }
        for c in 0..self.classes {
            start[c + 1] += start[c];
        }
        out.clear();
        out.resize(tasks.len(), 0);
        let mut place = |i: usize| {
            let c = self.class[i] as usize;
            out[start[c]] = i;
            start[c] += 1;
        };
        if lcfs {
            tasks.iter().rev().for_each(|&i| place(i));
        } else {
            tasks.iter().for_each(|&i| place(i));
        }
        Some(())
    }
}

/// Which P-states of task type `ty` on machine type `mt` are valid (bit
/// `p` set).
fn valid_mask(m: &Matrices, ty: usize, mt: usize) -> u8 {
    (0..P_STATES).fold(0u8, |mask, p| {
        let valid = m.etc(ty, mt, p).is_some() && m.apc(ty, mt, p).is_some();
        mask | (u8::from(valid) << p)
    })
}

/// The machines available at a mapping event and their ready times.
#[derive(Debug, Clone)]
pub struct Machines<'a> {
    pub(super) type_of: &'a [usize],
    pub(super) ready: Vec<f64>,
    pub(super) open: Vec<bool>,
    pub(super) polled: bool,
    /// The machines type by type, by id within a type: type `t`'s are
    /// `by_type[type_start[t]..type_start[t + 1]]`.
    by_type: Vec<usize>,
    type_start: Vec<usize>,
    /// Per machine type, the open machine of earliest ready time (lowest
    /// id on ties).
    pub(super) best: Vec<Option<usize>>,
    /// Per machine type, the ready time of its `best` machine, s (infinite:
    /// none open).
    pub(super) best_ready: Vec<f64>,
    /// No later than any open machine's ready time, s (the earliest when
    /// the pool was made; ready times only grow).
    pub(super) lo: f64,
    /// No earlier than any open machine's ready time, s.
    pub(super) hi: f64,
    /// Whether machine ids follow the types (each type's machines are
    /// consecutive ids), as the engine numbers them.
    ids_by_type: bool,
    /// Whether every machine is open and stays so (the queued
    /// environment).
    pub(super) all_open: bool,
}

impl<'a> Machines<'a> {
    /// The machines of types `type_of` (`types` types); `state(m)` gives
    /// machine `m`'s ready time (s) and whether it is available. In the
    /// polled environment an assignment closes the machine; in the queued
    /// one it moves its ready time on.
    pub fn new(
        type_of: &'a [usize],
        types: usize,
        polled: bool,
        state: impl Fn(usize) -> (f64, bool),
    ) -> Self {
        let (ready, open): (Vec<f64>, Vec<bool>) = (0..type_of.len()).map(state).unzip();
        // A counting sort of the machines by type (stable: by id within a
        // type).
        let mut type_start = vec![0usize; types + 1];
        for &t in type_of {
            type_start[t + 1] += 1;
        }
        for t in 0..types {
            type_start[t + 1] += type_start[t];
        }
        let mut by_type = vec![0usize; type_of.len()];
        let mut next = type_start.clone();
        for (m, &t) in type_of.iter().enumerate() {
            by_type[next[t]] = m;
            next[t] += 1;
        }
        let (lo, hi) = ready
            .iter()
            .zip(&open)
            .filter(|(_, o)| **o)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (&r, _)| {
                (lo.min(r), hi.max(r))
            });
        let mut pool = Machines {
            ids_by_type: type_of.windows(2).all(|w| w[0] <= w[1]),
            all_open: !polled && open.iter().all(|&o| o),
            type_of,
            ready,
            open,
            polled,
            by_type,
            type_start,
            best: vec![None; types],
            best_ready: vec![f64::INFINITY; types],
            lo,
            hi,
        };
        for t in 0..types {
            pool.refresh(t);
        }
        pool
    }

    fn refresh(&mut self, t: usize) {
        // Machines are listed by id and ready times are finite: the first
        // strictly earliest is the earliest, lowest id on ties.
        if self.all_open && self.ids_by_type {
            // The type's machines are the ids from its first to its last.
            let ms = self.of_type(t);
            self.best[t] = ms.first().map(|&a| {
                let ready = &self.ready[a..=ms[ms.len() - 1]];
                let (mut k, mut earliest) = (0, ready[0]);
                for (j, &r) in ready.iter().enumerate().skip(1) {
                    if r < earliest {
                        (k, earliest) = (j, r);
                    }
                }
                a + k
            });
            self.best_ready[t] = self.best[t].map_or(f64::INFINITY, |m| self.ready[m]);
            return;
        }
        let mut best = None;
        let mut earliest = f64::INFINITY;
        for &m in self.of_type(t) {
            let r = self.ready[m];
            if self.open[m] && (best.is_none() || r < earliest) {
                best = Some(m);
                earliest = r;
            }
        }
        self.best[t] = best;
        self.best_ready[t] = best.map_or(f64::INFINITY, |m| self.ready[m]);
    }

    /// The machines of type `t`, by id.
    pub(super) fn of_type(&self, t: usize) -> &[usize] {
        &self.by_type[self.type_start[t]..self.type_start[t + 1]]
    }

    pub(super) fn take(&mut self, m: usize, etc: f64) {
        if self.polled {
            self.open[m] = false;
        } else {
            self.ready[m] += etc;
            self.hi = self.hi.max(self.ready[m]);
        }
        // Another machine of the type stays its best: it was ready no later
        // (lower id on ties) and still is.
        let t = self.type_of[m];
        if self.best[t] == Some(m) {
            self.refresh(t);
        }
    }

    pub(super) fn any_open(&self) -> bool {
        self.best.iter().any(Option::is_some)
    }
}

/// One assignment of a mapping event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Assignment {
    /// The task.
    pub task: usize,
    /// The machine.
    pub machine: usize,
    /// The P-state.
    pub pstate: u8,
    /// Its start, s (the machine's ready time when assigned).
    pub start: f64,
}

/// What a heuristic did at one mapping event.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The assignments, in the order made.
    pub assignments: Vec<Assignment>,
    /// Whether the budget refused a choice that passed everything else.
    pub refused: bool,
}
