//! swftool: replay Standard Workload Format (SWF) job logs of the Parallel
//! Workloads Archive through schedulers and measure what each earns.
//!
//! Layout (ARCHITECTURE.md): [`swf`] reads and writes logs; [`catalog`] finds them
//! by short name; [`model`] holds tasks, value functions, ETC and systems;
//! [`workload`] turns a log into scenarios; [`sim`] is the simulation core
//! no environment owns (event queue, node timelines, slot search,
//! availability profiles, the neutral schedule record and its checker);
//! [`env`](mod@env) holds the scheduling environments, their heuristics and
//! their schedule checks, each behind the [`contract`] the commands are
//! written against; [`metrics`] turns runs into tables; [`output`] turns
//! each run into one neutral record and writes what every environment
//! shares from it (exports, per-user tables, the time series' spans);
//! [`experiment`] runs, resumes, shards and aggregates grids of runs;
//! [`cmd`] holds the subcommands.

#![warn(missing_docs)]

pub mod atomic;
pub mod catalog;
pub mod cmd;
pub mod contract;
pub mod env;
pub mod experiment;
pub mod interrupt;
pub mod metrics;
pub mod model;
pub mod output;
pub mod report;
pub mod sim;
pub mod swf;
pub mod units;
pub mod words;
pub mod workload;
