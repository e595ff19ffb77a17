//! Environment C: utility under a daily energy budget on heterogeneous
//! machines with P-states (Khemka, Friese, Pasricha, Maciejewski, Siegel et
//! al., "Comparison of energy-constrained resource allocation heuristics
//! under different task management environments"; docs/energy.md).
//!
//! A scenario ([`EnergyScenario`]) is one synthetic trial: the system and
//! its ETC and APC matrices ([`matrices`], the paper's §IV.C) and a day of
//! tasks with utility functions ([`workload`], §IV.B). The [`engine`]
//! holds a mapping event every 60 s: it drops the tasks that can no longer
//! earn the drop threshold, computes the energy filter's fair share
//! ([`filter`], §III.C) and lets one heuristic ([`heuristics`], §III.D)
//! assign tasks to machines and P-states under the day's hard energy budget,
//! in the queued or the polled task management environment
//! ([`Management`], §III.A).

pub mod check;
pub mod dropping;
pub mod engine;
pub mod environment;
pub mod filter;
pub mod grid;
pub mod heuristics;
pub mod matrices;
pub mod params;
pub mod record;
pub mod summary;
pub mod synth_file;
pub mod tables;
pub mod workload;

pub use matrices::{MachineType, Matrices};

use serde::{Deserialize, Serialize};

use crate::contract::{Entry, Registry};
use crate::model::utility::{UtilityFunction, UtilitySpec};

/// Length of the counted day, s (hours 3–26 of the simulation).
pub const WINDOW_SECONDS: f64 = crate::units::SECONDS_PER_DAY;
/// Warm-up before the counted day, s (the first 2 hours).
pub const WARMUP_SECONDS: f64 = 2.0 * 3600.0;
/// Time between mapping events, s (Khemka et al., §III.A).
pub const EVENT_INTERVAL_S: f64 = 60.0;
/// Tasks whose best utility at a mapping event is below this are dropped
/// (value units; Khemka et al., §V).
pub const DROP_THRESHOLD: f64 = 0.5;
/// The budget is this fraction of the mean energy Max UPT uses with no
/// budget in the queued environment (Khemka et al., §IV.D).
pub const BUDGET_FRACTION: f64 = 0.7;

/// Energy (J) of power `apc` (W) over `[start, end]` within `window`.
pub fn window_energy(apc: f64, start: f64, end: f64, window: (f64, f64)) -> f64 {
    apc * (end.min(window.1) - start.max(window.0)).max(0.0)
}

/// One task: when it arrives, its type and its utility function.
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyTask {
    /// Its number (1-based, arrival order; the SWF job number).
    pub job_number: i64,
    /// Arrival, s from the start of the simulation.
    pub arrival: f64,
    /// Its task type (row of the matrices).
    pub task_type: usize,
    /// Utility of completing at t seconds after arrival (value units).
    pub utility: UtilityFunction,
    /// What the utility function was drawn as.
    pub spec: UtilitySpec,
}

/// One scenario: the system with its matrices and the tasks of one
/// simulated day (26 h, the first 2 a warm-up).
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyScenario {
    /// A short name (`trial-3`).
    pub name: String,
    /// The trial seed (matrices and workload derive from it).
    pub seed: u64,
    /// The machine types and the ETC and APC matrices.
    pub matrices: Matrices,
    /// The tasks, by arrival.
    pub tasks: Vec<EnergyTask>,
    /// The counted day, s: utility of tasks completing in it and energy
    /// consumed in it are counted; mapping ends at its end.
    pub window: (f64, f64),
    /// Time between mapping events, s.
    pub event_interval: f64,
}

impl EnergyScenario {
    /// Whether task `i` counts towards the maximum utility (it arrived in
    /// the counted day).
    pub fn counted(&self, i: usize) -> bool {
        let a = self.tasks[i].arrival;
        a >= self.window.0 && a < self.window.1
    }
}

/// Task management environment (Khemka et al., §III.A).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Management {
    /// Each machine has a FIFO queue; the task after the running one is
    /// pending (never remapped); the rest (the virtual queues) are remapped
    /// at every mapping event with the new arrivals.
    #[default]
    Queued,
    /// No queues: at a mapping event each idle machine gets at most one
    /// task; a machine that finishes idles until the next event.
    Polled,
}

impl Management {
    /// Both, in the order tables and figures use.
    pub const ALL: [Management; 2] = [Management::Queued, Management::Polled];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Management::Queued => "queued",
            Management::Polled => "polled",
        }
    }
}

/// The energy filter (Khemka et al., §III.C): which multiplier λ scales the
/// fair share e_bud = λ · e_rem / n. Written `none`, `adaptive` or
/// `fixed:λ` on the command line and in configurations.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Filter {
    /// No filter: every valid choice passes (the hard budget still holds).
    #[default]
    None,
    /// λ adapts at every mapping event to the target and the current rate
    /// of energy consumption (the paper's Eq. 3).
    Adaptive,
    /// A fixed λ (the earlier, non-adaptive filter of Khemka et al. 2015,
    /// Sustainable Computing).
    Fixed(f64),
}

impl Filter {
    /// The CLI spelling: `none`, `adaptive` or `fixed:λ`.
    pub fn name(self) -> String {
        match self {
            Filter::None => "none".into(),
            Filter::Adaptive => "adaptive".into(),
            Filter::Fixed(l) => format!("fixed:{l}"),
        }
    }
}

impl std::fmt::Display for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl From<Filter> for String {
    fn from(f: Filter) -> String {
        f.name()
    }
}

impl TryFrom<String> for Filter {
    type Error = String;

    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl std::str::FromStr for Filter {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Ok(Filter::None),
            "adaptive" => Ok(Filter::Adaptive),
            other => match other.strip_prefix("fixed:") {
                Some(v) => match v.parse::<f64>() {
                    Ok(l) if l.is_finite() && l > 0.0 => Ok(Filter::Fixed(l)),
                    _ => Err(format!(
                        "`{s}`: the multiplier of fixed:λ must be a positive number (e.g. fixed:1.5)"
                    )),
                },
                None => Err(format!(
                    "`{s}`: expected none, adaptive or fixed:λ (e.g. fixed:1.5)"
                )),
            },
        }
    }
}

/// Where the machines' static power is counted (docs/energy.md, "What the
/// budget counts"; Khemka et al. §III.A: "the machines are never turned
/// off, and therefore, the fraction of static versus dynamic power is not
/// relevant").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum StaticCounted {
    /// Every machine draws its static power all day, busy or idle: a
    /// constant of the day's energy (machines × static power × 24 h) that
    /// no choice changes. The budget E counts the day's energy, static
    /// included (as the paper's 1.11 GJ does); the scheduler may use E less
    /// that constant, and APC, EEC, the filter and Max UPE see the dynamic
    /// power and energy a task adds.
    #[default]
    AllDay,
    /// The static power is part of a task's APC while it runs; an idle
    /// machine draws nothing (the other reading of Khemka et al. §II.A;
    /// docs/energy.md).
    WhileBusy,
}

impl StaticCounted {
    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            StaticCounted::AllDay => "all-day",
            StaticCounted::WhileBusy => "while-busy",
        }
    }
}

/// How one run is managed: everything a run needs beyond its scenario and
/// its heuristic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunConfig {
    /// Queued or polled.
    pub management: Management,
    /// The energy filter.
    pub filter: Filter,
    /// The day's energy budget E, J (`None`: no budget; the filter then
    /// has no fair share to compute and must be [`Filter::None`]).
    pub budget: Option<f64>,
    /// Drop threshold, value units.
    pub drop_threshold: f64,
    /// Static power every machine draws all day whatever the schedule, W
    /// ([`StaticCounted::AllDay`]; 0 when the static power is counted in
    /// the APC instead, or not at all). The run adds machines × this × the
    /// day's length to the energy of the day, and the budget's choices get
    /// E less that.
    pub static_all_day_w: f64,
}

impl RunConfig {
    /// The static energy the machines of `s` draw in its counted day, J:
    /// machines × [`RunConfig::static_all_day_w`] × the day's length.
    pub fn static_energy(&self, s: &EnergyScenario) -> f64 {
        self.static_all_day_w * f64::from(s.matrices.machines()) * (s.window.1 - s.window.0)
    }
}

impl Default for RunConfig {
    /// Queued, no filter, no budget, the drop threshold 0.5 and no static
    /// power outside the APC (hand-built matrices give whole APCs; the
    /// command line's model is [`params::EnergyArgs::run_config`]).
    fn default() -> Self {
        RunConfig {
            management: Management::Queued,
            filter: Filter::None,
            budget: None,
            drop_threshold: DROP_THRESHOLD,
            static_all_day_w: 0.0,
        }
    }
}

/// One variant of an environment C experiment grid: how the tasks are
/// managed (management × filter).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EnergyVariant {
    /// Queued or polled.
    pub management: Management,
    /// The energy filter.
    pub filter: Filter,
}

impl EnergyVariant {
    /// The id in cell ids: `queued-none`, `polled-adaptive`,
    /// `queued-fixed1.5`.
    pub fn id(&self) -> String {
        format!(
            "{}-{}",
            self.management.name(),
            self.filter.name().replace(':', "")
        )
    }

    /// A label for legends: `queued, no filter`.
    pub fn label(&self) -> String {
        let f = match self.filter {
            Filter::None => "no filter".to_string(),
            Filter::Adaptive => "adaptive filter".to_string(),
            Filter::Fixed(l) => format!("filter λ = {l}"),
        };
        format!("{}, {f}", self.management.name())
    }
}

/// The order of the ordered heuristics (Khemka et al., §III.D).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Ascending arrival.
    Fcfs,
    /// Descending arrival.
    Lcfs,
    /// By priority (highest first), then ascending arrival.
    Pfcfs,
    /// By priority (highest first), then descending arrival.
    Plcfs,
}

/// Which P-states an ordered heuristic tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PStates {
    /// P-state 0 only.
    P0,
    /// P-state 0, then 1, then 2.
    All,
}

/// What a Min-Min heuristic maximises over (task, machine, P-state).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Utility at completion.
    Util,
    /// Utility / ETC (per second).
    Upt,
    /// Utility / EEC (per joule).
    Upe,
}

/// A heuristic of environment C.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// A random task, then a random valid choice that passes.
    Random,
    /// Tasks in an order, each on the machine of earliest ready time whose
    /// first allowed P-state passes.
    Ordered {
        /// The task order.
        order: Order,
        /// The P-states tried.
        pstates: PStates,
    },
    /// Min-Min on an objective.
    MinMin(Objective),
}

/// A registered heuristic of environment C.
pub type HeuristicInfo = Entry<Policy>;

const fn ordered(order: Order, pstates: PStates) -> Policy {
    Policy::Ordered { order, pstates }
}

/// The twelve heuristics of Khemka et al. (§III.D), in the order of the
/// paper's Fig. 4.
pub const HEURISTICS: Registry<Policy> = Registry {
    env: "energy",
    entries: &[
        HeuristicInfo {
            name: "random",
            summary: "Random: a random task on a random valid machine and P-state that passes the filter (Khemka et al. §III.D)",
            policy: Policy::Random,
        },
        HeuristicInfo {
            name: "fcfs-p0",
            summary: "FCFS P-state 0: tasks by arrival, each on the earliest-ready machine that passes in P-state 0",
            policy: ordered(Order::Fcfs, PStates::P0),
        },
        HeuristicInfo {
            name: "fcfs-all",
            summary: "FCFS All P-states: as fcfs-p0, trying P-states 0, 1, 2 on each machine",
            policy: ordered(Order::Fcfs, PStates::All),
        },
        HeuristicInfo {
            name: "pfcfs-p0",
            summary: "Prioritized-FCFS P-state 0: highest priority first, by arrival within a priority",
            policy: ordered(Order::Pfcfs, PStates::P0),
        },
        HeuristicInfo {
            name: "pfcfs-all",
            summary: "Prioritized-FCFS All P-states",
            policy: ordered(Order::Pfcfs, PStates::All),
        },
        HeuristicInfo {
            name: "lcfs-p0",
            summary: "LCFS P-state 0: latest arrival first, each on the earliest-ready machine that passes in P-state 0",
            policy: ordered(Order::Lcfs, PStates::P0),
        },
        HeuristicInfo {
            name: "lcfs-all",
            summary: "LCFS All P-states",
            policy: ordered(Order::Lcfs, PStates::All),
        },
        HeuristicInfo {
            name: "plcfs-p0",
            summary: "Prioritized-LCFS P-state 0: highest priority first, latest arrival first within a priority",
            policy: ordered(Order::Plcfs, PStates::P0),
        },
        HeuristicInfo {
            name: "plcfs-all",
            summary: "Prioritized-LCFS All P-states",
            policy: ordered(Order::Plcfs, PStates::All),
        },
        HeuristicInfo {
            name: "maxutil",
            summary: "Max Utility: Min-Min on the utility at completion over (task, machine, P-state)",
            policy: Policy::MinMin(Objective::Util),
        },
        HeuristicInfo {
            name: "maxupt",
            summary: "Max UPT: Min-Min on utility / execution time",
            policy: Policy::MinMin(Objective::Upt),
        },
        HeuristicInfo {
            name: "maxupe",
            summary: "Max UPE: Min-Min on utility / energy",
            policy: Policy::MinMin(Objective::Upe),
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_parse_and_print_back() {
        for s in ["none", "adaptive", "fixed:1.5"] {
            let f: Filter = s.parse().unwrap();
            assert_eq!(f.name(), s);
        }
        assert!("fixed:0".parse::<Filter>().is_err());
        assert!("fixed:x".parse::<Filter>().is_err());
        assert!("sometimes".parse::<Filter>().is_err());
    }

    #[test]
    fn twelve_heuristics() {
        assert_eq!(HEURISTICS.entries.len(), 12);
    }
}
