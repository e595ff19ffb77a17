//! The one small trait every policy of environment D implements
//! ([`Scheduler`]), in a file of its own so that the policies import it
//! without importing the list that builds them (`policies/mod.rs`).

use crate::env::classic::engine::machine::MachineState;

/// A scheduling policy of environment D.
pub trait Scheduler {
    /// One scheduling pass at `now` (s): starts (or resumes) the jobs the
    /// policy allows on `machine`, and leaves in `queue` the jobs still
    /// waiting, in the order the policy keeps them. The engine appends the
    /// jobs submitted since the last pass in submit order (then job number)
    /// before each pass. Queue entries are indices into
    /// [`MachineState::jobs`].
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>);

    /// Whether the engine must track which units each job holds (needed to
    /// suspend and resume a job on its own units). Without it
    /// [`MachineState`] counts free units only, which is faster.
    fn tracks_units(&self) -> bool {
        false
    }

    /// Why the policy cannot go on (a policy given from outside that
    /// failed: [`super::scored`]); the engine ends the replay at the pass that
    /// set it. The native policies never fail.
    fn failure(&self) -> Option<&str> {
        None
    }
}
