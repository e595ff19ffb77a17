//! One file per subcommand (STYLE.md, after xsv): each owns its arguments
//! (clap `Args`) and a `run` function.

pub mod aggregate;
pub mod compare;
pub mod compare_classic;
pub mod experiment;
pub mod heuristics;
pub mod info;
pub mod replay;
pub mod replay_classic;
