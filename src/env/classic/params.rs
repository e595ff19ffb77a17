//! The command-line parameters of environment D, as one clap argument
//! group shown under its own heading in `--help`, and what they resolve to:
//! the machine, the cleaning options and the policies of the schedulers
//! named. Every flag is optional so that a flag given with another
//! environment can be named and refused ([`ClassicArgs::given`]).

use super::catalina::Preemption;
use super::clean::{CleanOptions, CleanPreset};
use super::{Machine, Policy, SCHEDULERS, Unit};
use crate::contract::UnknownName;
use crate::swf::SwfLog;
use crate::workload::flags::{SharedArgs, TakesShared};

/// Parses `--reservation-depth`: a number or `all`.
///
/// # Errors
/// Anything else, as a message for clap.
pub fn parse_depth(s: &str) -> Result<usize, String> {
    if s.eq_ignore_ascii_case("all") {
        Ok(usize::MAX)
    } else {
        s.parse::<usize>()
            .map_err(|_| format!("reservation depth must be a number or `all`, not `{s}`"))
    }
}

/// `reservation_depth` in configurations and manifests: a number, or
/// `"all"` for unlimited (TOML has no integer as large as `usize::MAX`).
mod depth_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Option<usize>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(usize::MAX) => s.serialize_str("all"),
            Some(n) => s.serialize_u64(*n as u64),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Depth {
            Number(u64),
            Word(String),
        }
        match Depth::deserialize(d)? {
            Depth::Number(n) => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
            Depth::Word(w) => super::parse_depth(&w)
                .map(Some)
                .map_err(serde::de::Error::custom),
        }
    }
}

/// Flags of environment D (`--env classic`).
#[derive(Debug, Clone, Default, PartialEq, clap::Args, serde::Serialize, serde::Deserialize)]
#[command(next_help_heading = "Environment D: --env classic (the log's own machine)")]
#[serde(default, deny_unknown_fields)]
pub struct ClassicArgs {
    /// Reservation depth of `backfill`, a number or `all` (0 = greedy, 1 = EASY, all = Conservative) [default: 0].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_depth)]
    #[serde(skip_serializing_if = "Option::is_none", with = "depth_serde")]
    pub reservation_depth: Option<usize>,
    /// Plan with the true run times instead of the user estimates (SWF field 9).
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact_estimates: bool,
    /// Allocate whole nodes (MaxNodes) instead of processors (MaxProcs).
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub whole_nodes: bool,
    /// With --whole-nodes: processors per node [default: round(MaxProcs / MaxNodes)].
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub procs_per_node: Option<u32>,
    /// Cleaning rules: swftool, pyss, batsim or rlscheduler (docs/classic.md) [default: swftool].
    #[arg(long, value_enum)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clean: Option<CleanPreset>,
    /// Cut runs that exceed their estimate at the estimate.
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub kill_at_estimate: bool,
    /// catalina-preempt: jobs with more units than this are marked preempting [default: 64].
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preempting_above: Option<u32>,
    /// catalina-preempt: jobs with at most this many units are marked preemptible [default: 64].
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preemptible_up_to: Option<u32>,
    /// catalina-preempt: PREEMPT_MIN_RUNTIME, s; a job predicted to have less left is not preempted [default: 1800].
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preempt_min_runtime: Option<f64>,
    /// catalina-preempt: factor on the priority of preempting jobs [default: 2].
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preemptor_priority_factor: Option<f64>,
    /// Replay a window of this many consecutive jobs (cleaned, in submit order) instead of the whole log (Margo et al., §5).
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_jobs: Option<usize>,
    /// With --window-jobs: this many following jobs submitted into the window (submit times mapped onto its span) [default: 0].
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra_jobs: Option<usize>,
    /// With --window-jobs: index of the window's first job among the cleaned jobs (0-based, submit order) [default: chosen by --window].
    #[arg(long, allow_hyphen_values = true, conflicts_with = "window")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_start: Option<usize>,
    /// With --window-jobs: how the window's first job is chosen: `month:YYYY-MM` (the first job submitted in that month of the log's clock) or `most-wide` (of the windows with an offered load >= 1, the one with the most preempting jobs) [default: most-wide].
    #[arg(long, allow_hyphen_values = true, value_name = "RULE")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<super::window::WindowRule>,
    /// Tau of the bounded slowdown, s [default: 10].
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tau: Option<f64>,
}

/// A classic flag that does not fit the rest of the command line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClassicArgsError {
    /// An unknown scheduler name.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// `--reservation-depth` with a scheduler whose depth is fixed.
    #[error(
        "--reservation-depth sets the depth of `backfill` only; `{0}` has a fixed depth (use -H backfill --reservation-depth K)"
    )]
    DepthOfFixedScheduler(&'static str),
    /// A preemption flag without `catalina-preempt`.
    #[error("{0} applies to catalina-preempt only, which is not among the heuristics")]
    PreemptionFlagUnused(&'static str),
    /// `--procs-per-node` without `--whole-nodes`.
    #[error("--procs-per-node applies with --whole-nodes only")]
    ProcsPerNodeWithoutWholeNodes,
    /// A window flag without `--window-jobs`.
    #[error("{0} applies with --window-jobs only")]
    WindowFlagWithoutWindow(&'static str),
    /// Both a window rule and a window start (a config can give both).
    #[error("give --window-start or --window, not both")]
    WindowRuleAndStart,
    /// A window that cannot be cut from the log.
    #[error(transparent)]
    Window(#[from] super::window::WindowError),
    /// A value out of range.
    #[error("{flag} must be {want}, not {got}")]
    OutOfRange {
        /// The flag.
        flag: &'static str,
        /// What it must be.
        want: &'static str,
        /// The value given.
        got: f64,
    },
    /// A machine with more allocation units than swftool replays.
    #[error(
        "{log}: the machine would have {units} allocation units ({from}); environment D replays machines of at most 16,777,216 (2^24) units, because catalina-preempt names every unit. Fix (or add) the header's MaxProcs line, or give --whole-nodes to allocate nodes"
    )]
    MachineTooLarge {
        /// The log's file name.
        log: String,
        /// Units asked for.
        units: i64,
        /// Where the number comes from (the header line, or the widest job).
        from: String,
    },
    /// No job is left to replay: the log holds none, or cleaning dropped
    /// every one.
    #[error("{log}: no job left to replay after cleaning ({preset} preset): {what}")]
    NothingToReplay {
        /// The log's file name.
        log: String,
        /// The cleaning preset.
        preset: String,
        /// What happened to the log's jobs.
        what: String,
    },
    /// `--whole-nodes` on a log whose header has no MaxNodes.
    #[error("{log}: --whole-nodes needs MaxNodes in the header")]
    NoMaxNodes {
        /// The log's file name.
        log: String,
    },
}

impl ClassicArgs {
    /// The flags given on the command line, as `--name`.
    pub fn given(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut add = |set: bool, name: &'static str| {
            if set {
                out.push(name);
            }
        };
        add(self.reservation_depth.is_some(), "--reservation-depth");
        add(self.exact_estimates, "--exact-estimates");
        add(self.whole_nodes, "--whole-nodes");
        add(self.procs_per_node.is_some(), "--procs-per-node");
        add(self.clean.is_some(), "--clean");
        add(self.kill_at_estimate, "--kill-at-estimate");
        add(self.window_jobs.is_some(), "--window-jobs");
        add(self.extra_jobs.is_some(), "--extra-jobs");
        add(self.window_start.is_some(), "--window-start");
        add(self.window.is_some(), "--window");
        add(self.tau.is_some(), "--tau");
        out.extend(self.preemption_flags());
        out
    }

    /// The given flags that set a built-in scheduler's parameters
    /// (`--reservation-depth` and the preemption marks), which a policy
    /// given from outside ([`super::custom`]) does not take.
    pub fn scheduler_flags(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.reservation_depth.is_some() {
            out.push("--reservation-depth");
        }
        out.extend(self.preemption_flags());
        out
    }

    fn preemption_flags(&self) -> Vec<&'static str> {
        [
            (self.preempting_above.is_some(), "--preempting-above"),
            (self.preemptible_up_to.is_some(), "--preemptible-up-to"),
            (self.preempt_min_runtime.is_some(), "--preempt-min-runtime"),
            (
                self.preemptor_priority_factor.is_some(),
                "--preemptor-priority-factor",
            ),
        ]
        .into_iter()
        .filter_map(|(set, f)| set.then_some(f))
        .collect()
    }

    /// Tau of the bounded slowdown, s (default 10).
    pub fn tau(&self) -> f64 {
        self.tau.unwrap_or(crate::metrics::formulas::DEFAULT_TAU)
    }

    /// The cleaning preset (default `swftool`).
    pub fn clean_preset(&self) -> CleanPreset {
        self.clean.unwrap_or(CleanPreset::Swftool)
    }

    /// The cleaning options.
    pub fn clean_options(&self) -> CleanOptions {
        CleanOptions {
            preset: self.clean_preset(),
            exact_estimates: self.exact_estimates,
            kill_at_estimate: self.kill_at_estimate,
        }
    }

    /// `user` or `exact`: what the scheduler plans with.
    pub fn estimates(&self) -> &'static str {
        if self.exact_estimates {
            "exact"
        } else {
            "user"
        }
    }

    /// How the window's first job is chosen without `--window-start`
    /// (default `most-wide`).
    pub fn window_rule(&self) -> super::window::WindowRule {
        self.window.unwrap_or(super::window::WindowRule::MostWide)
    }

    /// The preemption rule of `catalina-preempt` these flags give.
    ///
    /// # Errors
    /// A negative or non-finite PREEMPT_MIN_RUNTIME, or a priority factor
    /// that is not a positive finite number.
    pub fn preemption(&self) -> Result<Preemption, ClassicArgsError> {
        let d = Preemption::MARGO2008;
        let min_runtime = self.preempt_min_runtime.unwrap_or(d.min_runtime);
        if !(min_runtime.is_finite() && min_runtime >= 0.0) {
            return Err(ClassicArgsError::OutOfRange {
                flag: "--preempt-min-runtime",
                want: "a number of seconds >= 0",
                got: min_runtime,
            });
        }
        let factor = self
            .preemptor_priority_factor
            .unwrap_or(d.preemptor_priority_factor);
        if !(factor.is_finite() && factor > 0.0) {
            return Err(ClassicArgsError::OutOfRange {
                flag: "--preemptor-priority-factor",
                want: "a positive number",
                got: factor,
            });
        }
        Ok(Preemption {
            preempting_above: self.preempting_above.unwrap_or(d.preempting_above),
            preemptible_up_to: self.preemptible_up_to.unwrap_or(d.preemptible_up_to),
            min_runtime,
            preemptor_priority_factor: factor,
        })
    }

    /// The schedulers named in `names` (`all` = every one but `backfill`)
    /// with their policies: `--reservation-depth` sets the depth of
    /// `backfill`, the preemption flags the rule of `catalina-preempt`.
    ///
    /// # Errors
    /// An unknown name; `--reservation-depth` with a scheduler of fixed
    /// depth; a preemption flag without `catalina-preempt`; `--procs-per-node`
    /// without `--whole-nodes`; an out-of-range value.
    pub fn policies(
        &self,
        names: &[String],
    ) -> Result<Vec<(&'static str, Policy)>, ClassicArgsError> {
        if self.procs_per_node.is_some() && !self.whole_nodes {
            return Err(ClassicArgsError::ProcsPerNodeWithoutWholeNodes);
        }
        if self.procs_per_node == Some(0) {
            return Err(ClassicArgsError::OutOfRange {
                flag: "--procs-per-node",
                want: "at least 1 processor per node",
                got: 0.0,
            });
        }
        if self.window_jobs.is_none() {
            if self.extra_jobs.is_some() {
                return Err(ClassicArgsError::WindowFlagWithoutWindow("--extra-jobs"));
            }
            if self.window_start.is_some() {
                return Err(ClassicArgsError::WindowFlagWithoutWindow("--window-start"));
            }
            if self.window.is_some() {
                return Err(ClassicArgsError::WindowFlagWithoutWindow("--window"));
            }
        }
        if self.window.is_some() && self.window_start.is_some() {
            return Err(ClassicArgsError::WindowRuleAndStart);
        }
        if let Some(tau) = self.tau
            && !(tau.is_finite() && tau > 0.0)
        {
            return Err(ClassicArgsError::OutOfRange {
                flag: "--tau",
                want: "a positive number of seconds",
                got: tau,
            });
        }
        let rule = self.preemption()?;
        let entries = SCHEDULERS.resolve(names, |e| e.name != "backfill")?;
        let mut out = Vec::with_capacity(entries.len());
        for e in &entries {
            let policy = match (e.policy, self.reservation_depth) {
                (Policy::Backfill { .. }, Some(depth)) if e.name == "backfill" => {
                    Policy::Backfill { depth }
                }
                (_, Some(_)) => return Err(ClassicArgsError::DepthOfFixedScheduler(e.name)),
                (
                    Policy::Catalina {
                        weights,
                        preemption: Some(_),
                    },
                    None,
                ) => Policy::Catalina {
                    weights,
                    preemption: Some(rule),
                },
                (p, None) => p,
            };
            out.push((e.name, policy));
        }
        let preempting = out.iter().any(|(_, p)| {
            matches!(
                p,
                Policy::Catalina {
                    preemption: Some(_),
                    ..
                }
            )
        });
        if let (false, Some(flag)) = (preempting, self.preemption_flags().first()) {
            return Err(ClassicArgsError::PreemptionFlagUnused(flag));
        }
        Ok(out)
    }

    /// The machine of `log` these flags give (see [`machine_of`]).
    ///
    /// # Errors
    /// [`ClassicArgsError::NoMaxNodes`].
    pub fn machine(&self, log: &SwfLog) -> Result<Machine, ClassicArgsError> {
        machine_of(log, self.whole_nodes, self.procs_per_node)
    }
}

/// The largest machine environment D replays, in allocation units: 2^24
/// = 16,777,216 (the largest machine of the Parallel Workloads Archive has
/// under a million processors). Preemption names every unit (its owner,
/// the suspended image it holds), so a larger machine would cost memory
/// for units no job can use.
pub const MAX_UNITS: i64 = 1 << 24;

/// The log's own machine: MaxProcs processors (MaxNodes, then the largest
/// job, when absent), or MaxNodes whole nodes of `procs_per_node`
/// processors (default round(MaxProcs / MaxNodes)).
///
/// # Errors
/// [`ClassicArgsError::NoMaxNodes`]: whole nodes on a log without MaxNodes;
/// [`ClassicArgsError::MachineTooLarge`]: more than [`MAX_UNITS`] units.
pub fn machine_of(
    log: &SwfLog,
    whole_nodes: bool,
    procs_per_node: Option<u32>,
) -> Result<Machine, ClassicArgsError> {
    let procs = log.machine_processors();
    let too_large = |units: i64, from: String| ClassicArgsError::MachineTooLarge {
        log: log.name.clone(),
        units,
        from,
    };
    if !whole_nodes {
        if procs > MAX_UNITS {
            let from = match (log.header.max_procs(), log.header.max_nodes()) {
                (Some(p), _) if p > 0 => format!("header line `; MaxProcs: {p}`"),
                (_, Some(n)) if n > 0 => format!("header line `; MaxNodes: {n}`, no MaxProcs"),
                _ => "no MaxProcs or MaxNodes in the header: the widest job".to_string(),
            };
            return Err(too_large(procs, from));
        }
        return Ok(Machine {
            capacity: procs as u32,
            unit: Unit::Processors,
        });
    }
    let Some(nodes) = log.header.max_nodes().filter(|&n| n > 0) else {
        return Err(ClassicArgsError::NoMaxNodes {
            log: log.name.clone(),
        });
    };
    if nodes > MAX_UNITS {
        return Err(too_large(
            nodes,
            format!("header line `; MaxNodes: {nodes}` with --whole-nodes"),
        ));
    }
    let ppn =
        procs_per_node.unwrap_or_else(|| ((procs as f64 / nodes as f64).round() as u32).max(1));
    Ok(Machine {
        capacity: nodes as u32,
        unit: Unit::Nodes {
            processors_per_node: ppn,
        },
    })
}

impl From<ClassicArgsError> for crate::contract::EnvError {
    fn from(e: ClassicArgsError) -> Self {
        match e {
            ClassicArgsError::Unknown(u) => crate::contract::EnvError::Unknown(u),
            e => crate::contract::EnvError::Refused(Box::new(e)),
        }
    }
}

impl TakesShared for ClassicArgs {
    fn take_shared(&mut self, _: &SharedArgs) {}
}
