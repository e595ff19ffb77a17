//! One SWF job line: the 18 fields of the Standard Workload Format, version 2.2.
//!
//! Time fields are `f64` seconds because the format allows fractional times
//! (and field 6 is fractional in the SDSC and HPC2N logs); counts and ids are
//! `i64` because values up to 2,147,483,647 occur. `-1` means unknown, as in
//! the file.

/// One job (one data line) of an SWF log. Field numbers follow the PWA spec.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JobRecord {
    /// Field 1: job number (counter, not necessarily starting at 1).
    pub job_number: i64,
    /// Field 2: submit time, seconds from the log's `UnixStartTime`.
    pub submit_time: f64,
    /// Field 3: wait time, seconds (-1 unknown).
    pub wait_time: f64,
    /// Field 4: run time, seconds of wall clock (-1 unknown, 0 legal).
    pub run_time: f64,
    /// Field 5: allocated processors (-1 unknown).
    pub allocated_processors: i64,
    /// Field 6: average CPU time per processor, seconds (often fractional).
    pub average_cpu_time: f64,
    /// Field 7: used memory per processor, KB.
    pub used_memory: i64,
    /// Field 8: requested processors (-1 unknown).
    pub requested_processors: i64,
    /// Field 9: requested time (user estimate), seconds; 2,147,483,647 = unlimited.
    pub requested_time: f64,
    /// Field 10: requested memory per processor, KB.
    pub requested_memory: i64,
    /// Field 11: status (1 completed, 0 failed, 5 cancelled, 2/3/4 partial, -1 unknown).
    pub status: i64,
    /// Field 12: user id.
    pub user_id: i64,
    /// Field 13: group id.
    pub group_id: i64,
    /// Field 14: executable (application) number.
    pub executable_number: i64,
    /// Field 15: queue number (0 = interactive by convention).
    pub queue_number: i64,
    /// Field 16: partition number.
    pub partition_number: i64,
    /// Field 17: preceding job number.
    pub preceding_job_number: i64,
    /// Field 18: think time from the preceding job, seconds.
    pub think_time: f64,
}

impl JobRecord {
    /// Processors the job uses in a simulation: requested (field 8), falling
    /// back to allocated (field 5) when requested is -1 (docs/parallel.md, "Which jobs are used"). May still be
    /// ≤ 0 when both are unknown.
    pub fn processors(&self) -> i64 {
        if self.requested_processors > 0 {
            self.requested_processors
        } else {
            self.allocated_processors
        }
    }
}
