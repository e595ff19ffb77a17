//! Scheduling environments (SPEC §3). Each has its own engine and its own
//! small heuristic trait; heuristics never touch the engine.

pub mod classic;
pub mod parallel;
