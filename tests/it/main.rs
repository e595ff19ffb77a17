//! swftool's integration tests, in one test binary (each binary links
//! polars, so one binary instead of thirty-odd keeps `cargo test` short;
//! ARCHITECTURE.md, "Tests and CI time").
//!
//! Run one module with its path as the filter: `cargo test --release --test it
//! golden_outputs`, `cargo test --release --test it fuzz::`; the
//! `#[ignore]`d figure writers with `cargo test --release --test it
//! docs_figures -- --ignored`. `common` holds the helpers every module
//! shares (the binary under test, the shared logs, small scenarios).

mod common;

mod architecture;
mod cli;
mod cli_refusals;
mod cli_runs_refused;
mod curie_by_content;
mod determinism;
mod docs_examples;
mod docs_figures;
mod env_a_properties;
mod env_a_real_curie;
mod env_a_scenarios;
mod env_a_small_logs;
mod env_b_cli;
mod env_b_scenarios;
mod env_b_synth;
mod env_b_trials;
mod env_c_cli;
mod env_c_scenarios;
mod env_c_synth;
mod env_c_trials;
mod env_d_bad_input;
mod env_d_catalina;
mod env_d_classic;
mod env_d_export;
mod env_d_fairness;
mod env_d_preemption;
mod env_d_promise;
mod env_d_scored;
mod env_d_selection;
mod experiment;
mod export_batsim;
mod export_swf;
mod fetch;
mod fuzz;
mod golden_outputs;
mod interrupt;
mod messages;
mod paired;
mod pipeline;
mod report_figures;
mod resume;
mod sacct;
mod series;
mod slurm;
mod swf_fast_parse;
mod swf_malformed;
mod swf_real_logs;
mod swf_refusals;
mod swf_roundtrip;
mod timeline_tie_breaking;
