//! Metrics every environment shares: the per-job and per-run formulas
//! ([`formulas`]), the statistics of aggregation over runs — mean, sample
//! standard deviation and the 95 % Student-t confidence interval
//! ([`stats`]), the paired comparison of heuristics ([`paired`]), the
//! declaration of a run summary's columns, which builds
//! every table of it, and the shared "% of the maximum" ([`columns`]), and
//! the writer of every output table ([`tables`]).
//! Each environment's own summary of a run lives in its folder under
//! `src/env/`.

pub mod aggregate;
pub mod batsim;
pub mod columns;
pub mod fairness;
pub mod formulas;
pub mod paired;
pub mod series;
pub mod stats;
pub mod tables;
