//! Environment C (in progress): utility under a daily energy budget on
//! heterogeneous machines with P-states (Khemka, Friese, Pasricha,
//! Maciejewski, Siegel et al., "Comparison of energy-constrained resource
//! allocation heuristics under different task management environments":
//! queued and polled task management, §III; simulation setup, §IV). So far: the system and the ETC, APC and
//! EEC matrices ([`matrices`]). The workload, the engine, the energy
//! filter and the heuristics are not built yet; nothing on the command
//! line uses this module.

pub mod matrices;

pub use matrices::{MachineType, Matrices};
